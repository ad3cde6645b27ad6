/*
 * How late the simulated table's impacts reach fusion (`dyeref serve
 * --sim=table`, daemon/sim_feed.c): a fixed-seed match played at real
 * speed on a real event loop, every piezo observation timed from its
 * impact (the observation's time) to the moment the feeder hands it on.
 * The sensors glue sends an impact a grouping window after its last edge;
 * the limit is that window (sens_config_group_window_ns of the simulated
 * wiring), and the figures are ratios to it. Only the feeder runs on the
 * loop (no web server, no fusion), so this is the feeder's own lateness.
 * Seed 7 is the match test_sim_feed_reader steps through (51 throws, some
 * 7 minutes); THROWS stops it sooner for a quick look.
 *   build/bench/daemon_sim_impacts [THROWS]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/feeds.h"
#include "daemon/fusion.h"
#include "sensors/sensors.h"
#include "sim/sim.h"

#define SEED 7
#define MAX_LATE 4096

struct lateness {
	size_t n;		/* piezo observations seen */
	double ms[MAX_LATE];	/* each one's delivery minus its impact */
};

static void sink(void *user, const struct dd_obs *o)
{
	struct lateness *l = user;

	if (o->source == DD_SRC_PIEZO && l->n < MAX_LATE)
		l->ms[l->n++] = (bench_now_ns() - (double)o->t_ns) / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static struct lateness late;
	struct sens_config sc;
	struct dd_sim_feed *f;
	struct dd_clock *clock;
	sd_event *ev = NULL;
	char err[256];
	double window, t0;
	int throws = argc > 1 ? atoi(argv[1]) : 0, rc;

	if (argc > 2 || throws < 0) {
		fprintf(stderr, "usage: daemon_sim_impacts [THROWS]\n");
		return 2;
	}
	sim_sens_config(&sc);
	window = sens_config_group_window_ns(&sc) / 1e6;
	rc = sd_event_new(&ev);
	if (rc < 0) {
		fprintf(stderr, "daemon_sim_impacts: event loop: %s\n", strerror(-rc));
		return 1;
	}
	/* The daemon's real clock: lateness is the loop's, in real time. */
	clock = dd_clock_new_real(ev, 1);
	f = clock ? dd_sim_feed_new(ev, clock, SEED, throws, sink, &late, err, sizeof(err)) : NULL;
	if (!f) {
		fprintf(stderr, "daemon_sim_impacts: %s\n", clock ? err : strerror(errno));
		dd_clock_free(clock);
		sd_event_unref(ev);
		return 1;
	}
	t0 = bench_now();
	while (!dd_sim_feed_spent(f)) {
		rc = sd_event_run(ev, (uint64_t)-1);
		if (rc < 0) {
			fprintf(stderr, "daemon_sim_impacts: event loop: %s\n", strerror(-rc));
			break;
		}
	}
	dd_sim_feed_free(f);
	dd_clock_free(clock);
	sd_event_unref(ev);
	if (rc < 0 || late.n == 0)
		return 1;
	qsort(late.ms, late.n, sizeof(late.ms[0]), cmp_double);
	if (throws)
		printf("seed %d, its first %d throws: ", SEED, throws);
	else
		printf("seed %d, the whole match: ", SEED);
	printf("%zu piezo observations over %.0f s of play\n", late.n, bench_now() - t0);
	printf("impact -> fusion: median %.1f ms (%.2fx the grouping window, %.1f ms), "
	       "max %.1f ms (%.2fx)\n", late.ms[late.n / 2], late.ms[late.n / 2] / window, window,
	       late.ms[late.n - 1], late.ms[late.n - 1] / window);
	return 0;
}
