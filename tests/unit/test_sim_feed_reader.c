/*
 * The simulated table's rests (`dyeref serve --sim=table`, the demo) are
 * read through the face reader, off the event loop, as the camera glue's
 * are (daemon/sim_feed.c, daemon/face_reader.c): a face read on the loop
 * stalled the wall screen. BD-O2 needs the faces these reads give.
 *
 * Linked with --wrap (daemon/module.mk): dd_mono_ns is the test's clock,
 * so the match plays as fast as the test steps it (the feeder's timers are
 * then always due); dd_read_face_near counts its calls by thread and can
 * be held, so a read "under way" lasts as long as the test wants.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "core/core.h"
#include "daemon/daemon.h"
#include "daemon/feeds.h"
#include "daemon/fusion.h"
#include "sensors/sensors.h"
#include "sim/sim.h"
#include "vision/vision.h"

#define MS 1000000LL
#define MAX_SEEN 4096

int64_t __wrap_dd_mono_ns(void);
int __real_dd_read_face_near(const struct vis_image *full, double u, double v, double die_px,
			     struct vis_die *out);
int __wrap_dd_read_face_near(const struct vis_image *full, double u, double v, double die_px,
			     struct vis_die *out);

static int64_t now_ns = 1000 * MS;	/* the test's clock */
static pthread_t main_thread;

/* The reads, by thread (under lock). */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	int on_loop;		/* reads made on the test's (the loop's) thread */
	int off_loop;		/* reads made on another thread */
	int started;		/* reads begun */
	bool hold;		/* reads wait until this is cleared */
} rd = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, false };

int64_t __wrap_dd_mono_ns(void)
{
	return now_ns;
}

int __wrap_dd_read_face_near(const struct vis_image *full, double u, double v, double die_px,
			     struct vis_die *out)
{
	pthread_mutex_lock(&rd.lock);
	if (pthread_equal(pthread_self(), main_thread))
		rd.on_loop++;
	else
		rd.off_loop++;
	rd.started++;
	pthread_cond_broadcast(&rd.changed);
	while (rd.hold)
		pthread_cond_wait(&rd.changed, &rd.lock);
	pthread_mutex_unlock(&rd.lock);
	return __real_dd_read_face_near(full, u, v, die_px, out);
}

struct seen {
	size_t n;			/* observations given to the sink */
	struct dd_obs obs[MAX_SEEN];	/* in arrival order */
	int64_t at[MAX_SEEN];		/* the test's clock when each arrived */
};

static void sink(void *user, const struct dd_obs *o)
{
	struct seen *s = user;

	assert_true(pthread_equal(pthread_self(), main_thread));	/* on the loop */
	assert_true(s->n < MAX_SEEN);
	s->at[s->n] = now_ns;
	s->obs[s->n++] = *o;
}

static bool is_rest(const struct dd_obs *o)
{
	return o->kind == DD_OBS_EVENT && o->source == DD_SRC_CAMERA && o->ev.kind == BD_EV_REST;
}

static int64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Runs what is due now, then waits for the reads under way to come back. */
static void settle(sd_event *ev, struct dd_sim_feed *f)
{
	for (int i = 0; i < 4; i++)
		assert_true(sd_event_run(ev, 0) >= 0);
	/* The feeder's timer is always due on the test's clock: a read that
	 * never comes back fails after a minute, it does not hang. */
	for (int64_t until = real_ns() + 60000 * MS; dd_sim_feed_reads_pending(f) > 0 &&
						      real_ns() < until;)
		assert_true(sd_event_run(ev, 60 * 1000000ULL) >= 0);
	assert_int_equal(dd_sim_feed_reads_pending(f), 0);
}

static int reads(int *on_loop, int *off_loop)
{
	int started;

	pthread_mutex_lock(&rd.lock);
	*on_loop = rd.on_loop;
	*off_loop = rd.off_loop;
	started = rd.started;
	pthread_mutex_unlock(&rd.lock);
	return started;
}

/* Starts the feeder of seed's match on a new loop (*ev) and plays its
 * first ms milliseconds in steps of step_ms, into s. */
static struct dd_sim_feed *play(uint64_t seed, int64_t ms, int64_t step_ms, struct seen *s, sd_event **ev)
{
	char err[256];
	struct dd_sim_feed *f;
	int64_t start = now_ns;

	assert_int_equal(sd_event_new(ev), 0);
	f = dd_sim_feed_start(*ev, seed, 0, sink, s, err, sizeof(err));
	assert_non_null(f);
	while (now_ns < start + ms * MS) {
		now_ns += step_ms * MS;
		settle(*ev, f);
	}
	return f;
}

/* Four minutes of a simulated match: every rest the sink gets was read by
 * the face reader's thread, none on the loop, one read a rest; the faces
 * are read (not sent unread) and the rests keep their own times, in the
 * match's order. */
static void test_sim_table_rests_are_read_off_the_loop(void **state)
{
	static struct seen s;
	sd_event *ev;
	struct dd_sim_feed *f = play(3, 240000, 500, &s, &ev);
	int on_loop, off_loop, rests = 0, read = 0;
	int64_t last_rest = 0;

	(void)state;
	reads(&on_loop, &off_loop);
	for (size_t i = 0; i < s.n; i++)
		if (is_rest(&s.obs[i])) {
			rests++;
			read += s.obs[i].ev.face >= 1 && s.obs[i].confidence > 0;
			assert_true(s.obs[i].t_ns > last_rest);	/* the rest's time, in order */
			assert_true(s.obs[i].t_ns <= now_ns);
			last_rest = s.obs[i].t_ns;
		}
	assert_int_equal(on_loop, 0);
	assert_true(rests >= 6);	/* seed 3: 9 of its throws end at rest */
	assert_int_equal(off_loop, rests);
	assert_true(read >= rests * 3 / 4);
	dd_sim_feed_stop(f);
	sd_event_unref(ev);
}

/* The table's impacts reach fusion as the sensors glue sends them: a
 * grouping window after the impact, not when the next edge comes. That
 * may be the next throw's landing seconds later, and then a throw's last
 * bounce was taken for the next throw's first landing (22 of 41 throws
 * of a demo match ruled from the wrong throw's evidence). And once the
 * match's last observation is out, the feeder says it is spent. On the
 * test's stepped clock; how late they come on a real loop is
 * bench/daemon_sim_impacts.c's. */
static void test_sim_table_impacts_arrive_a_window_after_they_happen(void **state)
{
	static struct seen s;
	struct sens_config sc;
	char err[256];
	sd_event *ev;
	struct dd_sim_feed *f;
	int64_t start = now_ns, late = 0, window;
	int piezo = 0;

	(void)state;
	sim_sens_config(&sc);
	window = sens_config_group_window_ns(&sc);
	assert_int_equal(sd_event_new(&ev), 0);
	f = dd_sim_feed_start(ev, 7, 0, sink, &s, err, sizeof(err));
	assert_non_null(f);
	while (!dd_sim_feed_spent(f) && now_ns < start + 1800000 * MS) {
		now_ns += 10 * MS;
		settle(ev, f);
	}
	assert_true(dd_sim_feed_spent(f));
	for (size_t i = 0; i < s.n; i++)
		if (s.obs[i].source == DD_SRC_PIEZO) {
			int64_t after = s.at[i] - s.obs[i].t_ns;

			piezo++;
			if (after > late)
				late = after;
		}
	assert_true(piezo > 50);
	assert_true(late <= window + 40 * MS);	/* an impact's edges span a few ms; the test steps 10 */
	dd_sim_feed_stop(f);
	sd_event_unref(ev);
}

/* A cup hit that shook the table reaches fusion as the span the table
 * lines were deaf (DD_OBS_TABLE_DEAF, docs/daemon.md), its end on the
 * daemon's clock as its start is. The feeder moved the start onto it and
 * left the end on the match's clock, so the span ended before it began,
 * fusion refused every shake ("piezo observation ignored (bad confidence
 * or kind)" in a demo's log) and judged the landings beside the cups
 * without it. Seed 6: a shake 15 s into the match. */
static void test_sim_table_shakes_reach_fusion_on_the_daemons_clock(void **state)
{
	static struct seen s;
	struct dd_fusion_cfg cfg;
	struct dd_fusion fu;
	struct dd_fused *fx = malloc(sizeof(*fx));
	sd_event *ev;
	struct dd_sim_feed *f = play(6, 30000, 50, &s, &ev);
	int shakes = 0;

	(void)state;
	assert_non_null(fx);
	dd_fusion_cfg_defaults(&cfg);
	for (size_t i = 0; i < s.n; i++)
		if (s.obs[i].kind == DD_OBS_TABLE_DEAF) {
			shakes++;
			/* the table lines' hold-off (20 ms) and an impact's spread */
			assert_true(s.obs[i].until_ns >= s.obs[i].t_ns);
			assert_true(s.obs[i].until_ns - s.obs[i].t_ns < 100 * MS);
			dd_fusion_init(&fu, &cfg);
			assert_true(dd_fusion_add(&fu, &s.obs[i], fx) >= 0);
		}
	assert_true(shakes >= 1);
	free(fx);
	dd_sim_feed_stop(f);
	sd_event_unref(ev);
}

/* While a rest's face is being read, what the table reports after it
 * waits behind it (the camera's order, as the reader keeps the glue's),
 * and serve sees the read pending (it holds fusion's timer on it). */
static void test_sim_table_holds_later_observations_behind_a_read(void **state)
{
	static struct seen s;
	char err[256];
	sd_event *ev;
	struct dd_sim_feed *f;
	int on_loop, off_loop;
	size_t before, rest_at;
	int64_t start = now_ns;

	(void)state;
	assert_int_equal(sd_event_new(&ev), 0);
	f = dd_sim_feed_start(ev, 5, 0, sink, &s, err, sizeof(err));
	assert_non_null(f);
	pthread_mutex_lock(&rd.lock);
	rd.hold = true;
	rd.started = 0;
	pthread_mutex_unlock(&rd.lock);
	/* Up to the first rest: its read starts and is held. */
	while (reads(&on_loop, &off_loop) == 0 && now_ns < start + 60000 * MS) {
		now_ns += 50 * MS;
		for (int i = 0; i < 4; i++)
			assert_true(sd_event_run(ev, 0) >= 0);
	}
	assert_int_equal(dd_sim_feed_reads_pending(f), 1);
	before = s.n;
	for (size_t i = 0; i < before; i++)
		assert_false(is_rest(&s.obs[i]));
	/* Ten more seconds of the match: all of it waits behind the read. */
	for (int k = 0; k < 200; k++) {
		now_ns += 50 * MS;
		assert_true(sd_event_run(ev, 0) >= 0);
	}
	assert_int_equal(s.n, before);
	assert_true(dd_sim_feed_reads_pending(f) >= 1);
	pthread_mutex_lock(&rd.lock);
	rd.hold = false;
	pthread_cond_broadcast(&rd.changed);
	pthread_mutex_unlock(&rd.lock);
	settle(ev, f);
	rest_at = before;
	assert_true(s.n > before + 1);
	assert_true(is_rest(&s.obs[rest_at]));	/* the rest first, then what came after it */
	assert_true(s.obs[rest_at].ev.face >= 1);
	reads(&on_loop, &off_loop);
	assert_int_equal(on_loop, 0);
	dd_sim_feed_stop(f);
	sd_event_unref(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_table_rests_are_read_off_the_loop),
		cmocka_unit_test(test_sim_table_impacts_arrive_a_window_after_they_happen),
		cmocka_unit_test(test_sim_table_holds_later_observations_behind_a_read),
		cmocka_unit_test(test_sim_table_shakes_reach_fusion_on_the_daemons_clock),
	};

	main_thread = pthread_self();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
