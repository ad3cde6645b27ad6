/* `dyeref sensors`: the configured lines and their health; live edges and
 * located impacts (--watch), a recorded file (--replay) or the simulated
 * table (--sim) through the same pipeline. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/cliio.h"
#include "daemon/cliopt.h"
#include "daemon/daemon.h"
#include "daemon/dbcli.h"
#include "daemon/sensors_cli.h"
#include "daemon/sensors_db.h"
#include "sensors/sensors.h"
#include "sim/sim.h"

#define BATCH 64

struct run {
	const struct sens_config *cfg;	/* as loaded */
	struct sens_pipeline *pipe;	/* owned */
	bool watch;		/* print every edge */
	int record_fd;		/* --record, or -1 */
	uint64_t edges, impacts, located;	/* totals for the summary */
	int64_t last_ns;	/* latest edge: "now" for a replay's health */
	bool noisier;		/* --watch: the table was last said noisier than configured */
};

/* The measured timing noise against the config's (struct sens_jitter). */
static void print_jitter(const struct sens_config *c, const struct sens_jitter *j)
{
	if (sens_jitter_sigma_s(j) == 0) {
		printf("timing noise: not measured (%" PRIu64 " fits of 5+ arrivals; %d needed), "
		       "config %.3g us\n", j->fits, SENS_JITTER_MIN_FITS, c->timing_sigma_s * 1e6);
		return;
	}
	printf("timing noise: measured %.1f us over the last %zu fits, config %.3g us",
	       sens_jitter_sigma_s(j) * 1e6, j->n, c->timing_sigma_s * 1e6);
	if (sens_jitter_noisier(j))
		printf(": the table is noisier than configured (dyeref calibrate piezo measures it)");
	printf("\n");
}

/* Seconds.nanoseconds, signed: an impact's fitted time comes before its
 * first edge, so edges near 0 give negative times. */
static void print_time(int64_t ns)
{
	uint64_t u = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;	/* INT64_MIN too */

	printf("%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "", u / 1000000000, u % 1000000000);
}

static void print_obs(struct run *r, const struct sens_obs *o, size_t n)
{
	const struct sens_jitter *j = sens_pipeline_jitter(r->pipe);
	char line[200];

	for (size_t i = 0; i < n; i++) {
		sens_obs_format(&o[i], line, sizeof(line));
		print_time(o[i].ev.t_ns);
		printf("  %s\n", line);
		if (o[i].ev.kind == BD_EV_TABLE) {
			r->impacts++;
			r->located += o[i].has_fix;
		}
	}
	/* said when it turns, not on every impact */
	if (r->watch && sens_jitter_noisier(j) != r->noisier) {
		r->noisier = !r->noisier;
		print_jitter(r->cfg, j);
	}
	fflush(stdout);
}

static int feed(struct run *r, const struct sens_edge *e, size_t n)
{
	struct sens_obs o[8];

	if (r->record_fd >= 0 && sens_edges_write(r->record_fd, e, n) < 0) {
		dd_log(DD_LOG_ERR, "--record: %s", strerror(errno));
		return -EIO;
	}
	for (size_t i = 0; i < n; i++) {
		r->edges++;
		if (e[i].ts_ns > r->last_ns)
			r->last_ns = e[i].ts_ns;
		if (r->watch) {
			int idx = sens_config_line_by_offset(r->cfg, e[i].line);

			print_time(e[i].ts_ns);
			printf("  edge line %u (%s)\n", e[i].line,
			       idx >= 0 ? r->cfg->lines[idx].name : "not configured");
		}
		/* Pushed once: a flush at INT64_MIN completes no impact, it only
		 * drains what did not fit in o. */
		for (size_t k = sens_pipeline_push(r->pipe, &e[i], o, 8); k > 0;
		     k = sens_pipeline_flush(r->pipe, INT64_MIN, o, 8))
			print_obs(r, o, k);
	}
	return 0;
}

static void flush(struct run *r, int64_t now)
{
	struct sens_obs o[8];
	size_t k;

	while ((k = sens_pipeline_flush(r->pipe, now, o, 8)) > 0)
		print_obs(r, o, k);
}

static void print_lines(const struct sens_config *c)
{
	printf("chip %s (%s); wave speed %.0f m/s, hold-off %.0f ms, timing sigma %.0f us\n",
	       c->chip, sens_gpio_backend(), c->wave_speed_mps, c->holdoff_s * 1e3,
	       c->timing_sigma_s * 1e6);
	for (size_t i = 0; i < c->n_lines; i++) {
		const struct sens_line_cfg *l = &c->lines[i];

		printf("  line %-4u %-8s %-5s", l->offset, l->name, sens_role_name(l->role));
		if (l->role == SENS_ROLE_TABLE)
			printf("  x=%.3f y=%.3f m delay %+.1f us", l->x, l->y, l->delay_s * 1e6);
		else if (l->role == SENS_ROLE_BUTTON)
			printf("  calls %s at team %s's end", sens_call_name(l->call),
			       l->team == BD_TEAM_A ? "A" : "B");
		printf("\n");
	}
}

static void print_health(struct run *r, int64_t now)
{
	struct sens_line_health h[SENS_MAX_LINES];
	size_t n = sens_pipeline_health(r->pipe, now, h, SENS_MAX_LINES);

	printf("health after %" PRIu64 " edges, %" PRIu64 " table impacts (%" PRIu64 " located); "
	       "%" PRIu64 " edges on unconfigured lines\n", r->edges, r->impacts, r->located,
	       sens_pipeline_unknown_edges(r->pipe));
	for (size_t i = 0; i < n; i++) {
		printf("  line %-4u %-8s %-10s edges %" PRIu64 " (ringing/chatter dropped %" PRIu64 ")",
		       h[i].offset, h[i].name, sens_health_name(h[i].state), h[i].edges,
		       h[i].suppressed);
		if (h[i].role == SENS_ROLE_TABLE)
			printf(", in %" PRIu64 " impacts, missed %" PRIu64, h[i].impacts, h[i].missed);
		/* the line check's (docs/sensors.md "Line check") */
		if (h[i].quarantined)
			printf(", %" PRIu64 " quarantined%s%s", h[i].quarantined, *h[i].why ? ": " : "",
			       h[i].why);
		printf("\n");
	}
	print_jitter(r->cfg, sens_pipeline_jitter(r->pipe));
}

/* Reads a source to its end (replay) or until stopped (live). */
static int pump(struct run *r, struct sens_source *src, bool live, double duration_s)
{
	struct sens_edge e[BATCH];
	int64_t until = duration_s > 0 ? dd_mono_ns() + (int64_t)(duration_s * 1e9) : INT64_MAX;

	for (;;) {
		bool eof;
		ssize_t n;

		if (live && (dd_sens_stop || dd_mono_ns() >= until))
			break;
		n = dd_sens_read(src, live, e, BATCH, &eof);
		if (n < 0)
			return DD_EXIT_FAIL;
		if (feed(r, e, (size_t)n) < 0)
			return DD_EXIT_FAIL;
		if (live)
			flush(r, dd_mono_ns());
		if (!live && eof)
			break;
	}
	flush(r, INT64_MAX);
	return DD_EXIT_OK;
}

/* --sim's table faults (docs/simulator.md "Piezo faults"); negative:
 * the model's default. */
struct sim_faults {
	double jitter_us;	/* --jitter-us */
	double p_late;		/* --late */
	double p_miss;		/* --missing */
};

/* The simulated table: random impacts (and now and then a cup, the mine,
 * the floor), fed through a memory source. With --watch they come in real
 * time, one a second; otherwise n of them as fast as they compute. */

static int run_sim(struct run *r, uint64_t seed, long n, bool live, double duration_s,
		   const struct sim_faults *f)
{
	const struct sens_config *c = r->cfg;
	struct sim_piezo m;
	struct sim_rng rng;
	struct sens_source *src = sens_memory_open(NULL, 0);
	int64_t t = live ? dd_mono_ns() : 1000000000;
	int64_t until = duration_s > 0 ? dd_mono_ns() + (int64_t)(duration_s * 1e9) : INT64_MAX;
	int rc = DD_EXIT_OK;

	if (!src) {
		dd_log(DD_LOG_ERR, "sim: %s", strerror(errno));
		return DD_EXIT_FAIL;
	}
	sim_piezo_defaults(&m);
	m.ring_max = 3;
	if (f->jitter_us >= 0)
		m.jitter_s = f->jitter_us * 1e-6;
	if (f->p_late >= 0)
		m.p_late = f->p_late;
	if (f->p_miss >= 0)
		m.p_miss = f->p_miss;
	sim_rng_seed(&rng, seed);
	for (long i = 0; (live || i < n) && !dd_sens_stop; i++) {
		struct sens_edge e[64];
		size_t k;
		double x = sim_rng_uniform(&rng) * c->table.length_m;
		double y = sim_rng_uniform(&rng) * c->table.width_m;

		if (live) {
			int64_t wake = t + 1000000000;

			while (!dd_sens_stop && dd_mono_ns() < wake && dd_mono_ns() < until)
				usleep(2000);
			if (dd_sens_stop || dd_mono_ns() >= until)
				break;
			t = dd_mono_ns();
		} else {
			t += 1000000000;
		}
		printf("sim: impact at x=%.3f y=%.3f m\n", x, y);
		k = sim_piezo_table_hit(&m, c, &rng, x, y, t, e, 64);
		/* One throw in four goes on to a cup, the mine or the floor. */
		if (sim_rng_uniform(&rng) < 0.25 && c->n_lines > 0) {
			size_t line = (size_t)(sim_rng_next(&rng) % c->n_lines);

			if (c->lines[line].role != SENS_ROLE_TABLE && k < 64)
				k += sim_piezo_line_hit(&m, c, &rng, line, t + 150000000, e + k, 64 - k);
		}
		if (k > 64)
			k = 64;
		sens_edges_sort(e, k);
		if (sens_source_push(src, e, k) < 0) {
			rc = DD_EXIT_FAIL;
			break;
		}
		rc = pump(r, src, false, 0);
		if (rc)
			break;
	}
	sens_source_close(src);
	return rc;
}

/* A stored match's piezo edges (dd_sensors_db_open), through the pipeline. */
static int replay_from_db(struct run *r, const char *path, int64_t match, int throw_no)
{
	struct sens_source *src;
	struct db *db;
	char err[512];
	int rc;

	db = dd_db_open("sensors", path, DB_OPEN_READONLY, &rc);
	if (!db)
		return rc;
	src = dd_sensors_db_open(db, match, throw_no, err, sizeof(err));
	if (!src) {
		rc = dd_input_status(-errno);	/* before dd_log, which may set errno */
		dd_log(DD_LOG_ERR, "%s", err);
		goto close_db;
	}
	print_lines(r->cfg);
	rc = pump(r, src, false, 0);
	sens_source_close(src);
	print_health(r, r->last_ns);
close_db:
	db_close(db);
	return rc;
}

static void usage(void)
{
	printf("usage: dyeref sensors [--config FILE] [--watch] [--duration S] [--record FILE]\n"
		"       dyeref sensors [--config FILE] --replay FILE [--watch]\n"
		"       dyeref sensors [--config FILE] --replay-db FILE --match N [--throw K] [--watch]\n"
		"       dyeref sensors [--config FILE] --sim [--impacts N] [--seed S] [--watch]\n"
		"                      [--jitter-us US] [--late P] [--missing P]\n"
		"  --jitter-us US  the simulated edges' timing jitter (default 10; the config's\n"
		"                  timing_sigma_us is what the fit is told)\n"
		"  --late P        chance a table disc fires 0.2-1 ms late, per impact (default 0)\n"
		"  --missing P     chance a table disc misses an impact (default 0)\n");
}

int dd_cmd_sensors(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "watch", no_argument, NULL, 'w' },
		{ "replay", required_argument, NULL, 'r' },
		{ "sim", no_argument, NULL, 's' },
		{ "impacts", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 'S' },
		{ "record", required_argument, NULL, 'R' },
		{ "duration", required_argument, NULL, 'd' },
		{ "replay-db", required_argument, NULL, 'D' },
		{ "match", required_argument, NULL, 'm' },
		{ "throw", required_argument, NULL, 't' },
		{ "jitter-us", required_argument, NULL, 'J' },
		{ "late", required_argument, NULL, 'L' },
		{ "missing", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *config = NULL, *replay = NULL, *record = NULL, *replay_db = NULL;
	struct sim_faults faults = { -1, -1, -1 };
	bool fault_set = false;
	long long match = 0, throw_no = 0;
	bool watch = false, sim = false;
	long impacts = 20;
	unsigned long long seed = 1;
	double duration = 0;
	struct sens_config cfg;
	struct run r = { .record_fd = -1 };
	char err[512], *end;
	int c, rc;

	optind = 1;
	while ((c = dd_getopt("sensors", argc, argv, opts)) != -1) {
		switch (c) {
		case 'c': config = optarg; break;
		case 'w': watch = true; break;
		case 'r': replay = optarg; break;
		case 's': sim = true; break;
		case 'R': record = optarg; break;
		case 'D': replay_db = optarg; break;
		case 'm':
		case 't': {
			long long v = strtoll(optarg, &end, 10);

			if (*end || !*optarg || v < 1 || v > INT32_MAX) {
				dd_log(DD_LOG_ERR, "sensors: --%s: '%s' is not a positive whole number",
				       c == 'm' ? "match" : "throw", optarg);
				return DD_EXIT_USAGE;
			}
			*(c == 'm' ? &match : &throw_no) = v;
			break;
		}
		case 'n':
			if (dd_sens_parse_count("sensors", "--impacts", optarg, 1, 1000000, &impacts))
				return DD_EXIT_USAGE;
			break;
		case 'S':
			if (dd_sens_parse_seed("sensors", optarg, &seed))
				return DD_EXIT_USAGE;
			break;
		case 'd':
			duration = strtod(optarg, &end);
			/* A year at most: beyond, seconds in nanoseconds overflow int64. */
			if (*end || !(duration > 0) || duration > 366 * 86400.0) {
				dd_log(DD_LOG_ERR, "sensors: --duration: expected seconds > 0 (a year at most), "
				       "got '%s'", optarg);
				return DD_EXIT_USAGE;
			}
			break;
		case 'J':
		case 'L':
		case 'M': {
			double v = strtod(optarg, &end), hi = c == 'J' ? 1000 : 1;

			if (*end || !*optarg || !(v >= 0 && v <= hi)) {
				dd_log(DD_LOG_ERR, "sensors: --%s: expected %s, got '%s'",
				       c == 'J' ? "jitter-us" : c == 'L' ? "late" : "missing",
				       c == 'J' ? "microseconds 0..1000" : "a chance 0..1", optarg);
				return DD_EXIT_USAGE;
			}
			*(c == 'J' ? &faults.jitter_us : c == 'L' ? &faults.p_late : &faults.p_miss) = v;
			fault_set = true;
			break;
		}
		case 'h':
			usage();
			return DD_EXIT_OK;
		default:
			return DD_EXIT_USAGE;
		}
	}
	if (dd_getopt_done("sensors", argc, argv))
		return DD_EXIT_USAGE;
	if ((!!replay + !!sim + !!replay_db) > 1) {
		dd_log(DD_LOG_ERR, "sensors: --replay, --replay-db and --sim: one at a time");
		return DD_EXIT_USAGE;
	}
	if (fault_set && !sim) {
		dd_log(DD_LOG_ERR, "sensors: --jitter-us, --late and --missing: only with --sim");
		return DD_EXIT_USAGE;
	}
	if (replay_db && !match) {
		dd_log(DD_LOG_ERR, "sensors: --replay-db: --match N is required");
		return DD_EXIT_USAGE;
	}
	if (!replay_db && (match || throw_no)) {
		dd_log(DD_LOG_ERR, "sensors: --%s: only with --replay-db FILE", match ? "match" : "throw");
		return DD_EXIT_USAGE;
	}
	rc = dd_sens_setup("sensors", config, &cfg, &r.pipe);
	if (rc)
		return rc;
	r.cfg = &cfg;
	r.watch = watch;
	if (record) {
		r.record_fd = open(record, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (r.record_fd < 0) {
			dd_log(DD_LOG_ERR, "%s: %s", record, strerror(errno));
			rc = DD_EXIT_FAIL;
			goto free_pipe;
		}
	}
	dd_sens_catch_signals();

	if (replay) {
		struct sens_source *src = sens_replay_open(replay, err, sizeof(err));

		if (!src) {
			rc = dd_input_status(-errno);	/* before dd_log, which may set errno */
			dd_log(DD_LOG_ERR, "%s", err);
			goto close_record;
		}
		print_lines(&cfg);
		rc = pump(&r, src, false, 0);
		sens_source_close(src);
		print_health(&r, r.last_ns);
	} else if (replay_db) {
		rc = replay_from_db(&r, replay_db, match, (int)throw_no);
	} else if (sim) {
		print_lines(&cfg);
		rc = run_sim(&r, seed, impacts, watch, duration, &faults);
		print_health(&r, r.last_ns);
	} else {
		struct sens_source *src = sens_gpio_open(&cfg, err, sizeof(err));

		if (!src) {
			dd_log(DD_LOG_ERR, "%s", err);
			rc = DD_EXIT_FAIL;
			goto close_record;
		}
		if (*sens_source_warning(src))
			dd_log(DD_LOG_WARN, "sensors: %s", sens_source_warning(src));
		print_lines(&cfg);
		printf("gpio: all %zu lines requested\n", cfg.n_lines);
		if (watch) {
			printf("watching: tap the table (Ctrl-C ends)\n");
			fflush(stdout);
			rc = pump(&r, src, true, duration);
		} else {
			/* A moment of listening, so stuck or chattering lines show. */
			rc = pump(&r, src, true, duration > 0 ? duration : 1.0);
		}
		sens_source_close(src);
		print_health(&r, dd_mono_ns());
	}
close_record:
	if (r.record_fd >= 0)
		close(r.record_fd);
free_pipe:
	sens_pipeline_free(r.pipe);
	return rc;
}
