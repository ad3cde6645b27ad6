/* `dyeref calibrate piezo|camera`.
 *
 * piezo: guides taps at known points (prints where to tap next), fits the
 * wave speed and per-sensor delays, reports the fit's error and writes the
 * result into the config file's [sensors] section (other lines kept, the
 * file replaced in one rename). camera: the vision module's, if built. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/cliio.h"
#include "daemon/cliopt.h"
#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/sensors_cli.h"
#include "sensors/sensors.h"
#include "sim/sim.h"

#define MAX_POINTS 64

struct session {
	const struct sens_config *cfg;	/* as loaded */
	struct sens_pipeline *pipe;	/* owned */
	double pts[MAX_POINTS * 2];	/* where to tap, in order */
	size_t n_pts;		/* points in pts */
	struct sens_tap taps[MAX_POINTS];	/* recorded */
	size_t n_taps;		/* taps recorded */
	size_t n_table;		/* table sensors */
	int64_t last_tap_ns;	/* impact time of the last tap taken, or 0 */
	FILE *out;		/* what to tap and what was taken: stderr at the table (a
				 * person's prompts); a buffer for a recording or the
				 * simulator, shown once the taps fit (bad input leaves
				 * stdout empty) */
};

/* A pen or a die bounces after a tap: impacts this soon after the tap
 * taken are its bounces, not the next point. */
#define TAP_DEAD_NS 400000000LL

static void prompt(const struct session *s)
{
	if (s->n_taps < s->n_pts) {
		double x = s->pts[2 * s->n_taps], y = s->pts[2 * s->n_taps + 1];

		fprintf(s->out, "tap %zu/%zu: at x=%.2f m from A's end, y=%.2f m from the left edge "
			"(%.0f cm, %.0f cm)\n", s->n_taps + 1, s->n_pts, x, y, x * 100, y * 100);
		fflush(s->out);
	}
}

/* Takes table observations as taps at the current point. */
static void take(struct session *s, const struct sens_obs *o, size_t n)
{
	for (size_t i = 0; i < n && s->n_taps < s->n_pts; i++) {
		const struct sens_obs *ob = &o[i];
		struct sens_tap *t = &s->taps[s->n_taps];
		int seen = 0;

		if (ob->ev.kind != BD_EV_TABLE)
			continue;
		if (s->last_tap_ns && ob->ev.t_ns - s->last_tap_ns < TAP_DEAD_NS)
			continue;
		for (size_t j = 0; j < s->n_table; j++)
			seen += (ob->table_seen >> j) & 1u;
		if (seen < 3) {
			fprintf(s->out, "  only %d sensor%s heard that: tap the same point again, a "
				"little harder\n", seen, seen == 1 ? "" : "s");
			continue;
		}
		memset(t, 0, sizeof(*t));
		t->x = s->pts[2 * s->n_taps];
		t->y = s->pts[2 * s->n_taps + 1];
		for (size_t j = 0; j < s->n_table; j++) {
			t->seen[j] = (ob->table_seen >> j) & 1u;
			t->ts_ns[j] = ob->table_ts_ns[j];
		}
		fprintf(s->out, "  got it: %d sensors", seen);
		if (ob->has_fix) {
			fprintf(s->out, " (with the settings so far it would be at %.2f, %.2f m)",
				ob->fix.x, ob->fix.y);
			/* uncalibrated, a tap lands within some 20 cm of its point */
			if (hypot(ob->fix.x - t->x, ob->fix.y - t->y) > 0.30)
				fprintf(s->out, "\n  warning: far from the point asked; if you tapped "
					"elsewhere, start again");
		}
		fprintf(s->out, "\n");
		s->n_taps++;
		s->last_tap_ns = ob->ev.t_ns;
		prompt(s);
	}
}

static int feed(struct session *s, const struct sens_edge *e, size_t n, int64_t now)
{
	struct sens_obs o[8];
	size_t k;

	/* Each edge pushed once; a flush at INT64_MIN only drains the rest. */
	for (size_t i = 0; i < n; i++)
		for (k = sens_pipeline_push(s->pipe, &e[i], o, 8); k > 0;
		     k = sens_pipeline_flush(s->pipe, INT64_MIN, o, 8))
			take(s, o, k);
	while ((k = sens_pipeline_flush(s->pipe, now, o, 8)) > 0)
		take(s, o, k);
	return 0;
}

static int collect(struct session *s, struct sens_source *src, bool live)
{
	struct sens_edge e[64];

	while (s->n_taps < s->n_pts) {
		bool eof;
		ssize_t n;

		/* SIGINT: abandon, write nothing. */
		if (dd_sens_stop) {
			fprintf(stderr, "stopped: nothing written\n");
			return DD_EXIT_FAIL;
		}
		n = dd_sens_read(src, live, e, 64, &eof);
		if (n < 0)
			return DD_EXIT_FAIL;
		feed(s, e, (size_t)n, live ? dd_mono_ns() : (eof ? INT64_MAX : INT64_MIN));
		if (!live && eof)
			break;
	}
	return DD_EXIT_OK;
}

/* --sim: taps on a table whose true speed and delays differ from the
 * configuration, so the fit has something to find. */
static struct sens_source *sim_taps(const struct session *s, uint64_t seed, struct sens_config *truth)
{
	struct sim_piezo m;
	struct sim_rng rng;
	struct sens_source *src;

	*truth = *s->cfg;
	sim_rng_seed(&rng, seed);
	truth->wave_speed_mps = s->cfg->wave_speed_mps * (0.85 + 0.3 * sim_rng_uniform(&rng));
	for (size_t i = 0; i < truth->n_lines; i++)
		if (truth->lines[i].role == SENS_ROLE_TABLE)
			truth->lines[i].delay_s = (sim_rng_uniform(&rng) - 0.5) * 60e-6;
	src = sens_memory_open(NULL, 0);
	if (!src)
		return NULL;
	sim_piezo_defaults(&m);
	m.jitter_s = 5e-6;
	m.speed_spread = 0.01;	/* an installer's taps are alike */
	m.ring_max = 2;
	for (size_t k = 0; k < s->n_pts; k++) {
		struct sens_edge e[64];
		size_t n = sim_piezo_table_hit(&m, truth, &rng, s->pts[2 * k], s->pts[2 * k + 1],
					       (int64_t)(k + 1) * 2000000000, e, 64);

		if (sens_source_push(src, e, n < 64 ? n : 64) < 0) {
			sens_source_close(src);
			return NULL;
		}
	}
	return src;
}

static int write_result(const char *path, const struct sens_config *c,
			const struct sens_calibration *cal)
{
	char vals[2 + SENS_MAX_TABLE][32], names[SENS_MAX_TABLE][40], err[512];
	const char *keys[2 + SENS_MAX_TABLE], *values[2 + SENS_MAX_TABLE];
	size_t n = 0, j = 0;

	keys[n] = "wave_speed";
	snprintf(vals[n], sizeof(vals[n]), "%.1f", cal->wave_speed_mps);
	values[n] = vals[n];
	n++;
	/* what the taps measured; the loader takes 0.1 us at least */
	keys[n] = "timing_sigma_us";
	snprintf(vals[n], sizeof(vals[n]), "%.1f", fmax(0.1, cal->timing_sigma_s * 1e6));
	values[n] = vals[n];
	n++;
	for (size_t i = 0; i < c->n_lines && j < cal->n_table; i++) {
		if (c->lines[i].role != SENS_ROLE_TABLE)
			continue;
		snprintf(names[j], sizeof(names[j]), "%s_delay_us", c->lines[i].name);
		snprintf(vals[n], sizeof(vals[n]), "%.2f", cal->delay_s[j] * 1e6);
		keys[n] = names[j];
		values[n] = vals[n];
		n++;
		j++;
	}
	if (dd_config_set_keys(path, "sensors", keys, values, n, err, sizeof(err)) < 0) {
		dd_log(DD_LOG_ERR, "%s", err);
		return DD_EXIT_FAIL;
	}
	printf("written to %s [sensors]: wave_speed, timing_sigma_us and %zu delays\n", path, j);
	return DD_EXIT_OK;
}

static void usage(void)
{
	printf("usage: dyeref calibrate piezo [--config FILE] [--replay FILE | --sim [--seed S]]\n"
	       "                                [--repeat N] [--dry-run]\n"
	       "       dyeref calibrate camera IMAGE [--flip]\n");
}

static int calibrate_piezo(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "replay", required_argument, NULL, 'r' },
		{ "sim", no_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "repeat", required_argument, NULL, 'n' },
		{ "dry-run", no_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *config = NULL, *replay = NULL;
	bool sim = false, dry = false;
	long repeat = 1;
	unsigned long long seed = 1;
	struct sens_config cfg, truth;
	struct sens_calibration cal;
	struct session s = { 0 };
	struct sens_source *src = NULL;
	double base[MAX_POINTS * 2];
	size_t nb, said_len = 0;
	char err[512], *said = NULL;
	bool live;
	int c, rc;

	optind = 1;
	while ((c = dd_getopt("calibrate piezo", argc, argv, opts)) != -1) {
		switch (c) {
		case 'c': config = optarg; break;
		case 'r': replay = optarg; break;
		case 's': sim = true; break;
		case 'd': dry = true; break;
		case 'S':
			if (dd_sens_parse_seed("calibrate piezo", optarg, &seed))
				return DD_EXIT_USAGE;
			break;
		case 'n':
			if (dd_sens_parse_count("calibrate piezo", "--repeat", optarg, 1, 5, &repeat))
				return DD_EXIT_USAGE;
			break;
		case 'h':
			usage();
			return DD_EXIT_OK;
		default:
			return DD_EXIT_USAGE;
		}
	}
	if (dd_getopt_done("calibrate piezo", argc, argv))
		return DD_EXIT_USAGE;
	if (replay && sim) {
		dd_log(DD_LOG_ERR, "calibrate piezo: --replay and --sim: one at a time");
		return DD_EXIT_USAGE;
	}
	rc = dd_sens_setup("calibrate", config, &cfg, &s.pipe);
	if (rc)
		return rc;
	s.cfg = &cfg;
	for (size_t i = 0; i < cfg.n_lines; i++)
		s.n_table += cfg.lines[i].role == SENS_ROLE_TABLE;
	if (s.n_table < 3) {
		dd_log(DD_LOG_ERR, "calibrate: %zu table sensors configured, 3 or more needed", s.n_table);
		rc = DD_EXIT_USAGE;
		goto free_pipe;
	}
	/* The taps take minutes: a config that cannot be written is said
	 * before the first, not after the last. */
	if (config && !dry && dd_config_check_writable(config, err, sizeof(err)) < 0) {
		dd_log(DD_LOG_ERR, "%s", err);
		rc = DD_EXIT_FAIL;
		goto free_pipe;
	}
	nb = sens_calib_points(&cfg, base, MAX_POINTS);
	for (long r = 0; r < repeat; r++)
		for (size_t k = 0; k < nb && s.n_pts < MAX_POINTS; k++) {
			s.pts[2 * s.n_pts] = base[2 * k];
			s.pts[2 * s.n_pts + 1] = base[2 * k + 1];
			s.n_pts++;
		}
	if (replay) {
		src = sens_replay_open(replay, err, sizeof(err));
		rc = dd_input_status(-errno);
	} else if (sim) {
		src = sim_taps(&s, seed, &truth);
		rc = DD_EXIT_FAIL;
		snprintf(err, sizeof(err), "calibrate: %s", strerror(errno));
	} else {
		src = sens_gpio_open(&cfg, err, sizeof(err));
		rc = DD_EXIT_FAIL;
	}
	if (!src) {
		dd_log(DD_LOG_ERR, "%s", err);
		goto free_pipe;
	}
	if (*sens_source_warning(src))
		dd_log(DD_LOG_WARN, "sensors: %s", sens_source_warning(src));
	live = !replay && !sim;
	s.out = live ? stderr : open_memstream(&said, &said_len);
	if (!s.out) {
		dd_log(DD_LOG_ERR, "calibrate: %s", strerror(errno));
		sens_source_close(src);
		rc = DD_EXIT_FAIL;
		goto free_pipe;
	}
	dd_sens_catch_signals();
	fprintf(s.out, "calibrating %zu table sensors: tap each point once with a die's corner or "
		"a pen, firmly; wait for 'got it'\n", s.n_table);
	prompt(&s);
	rc = collect(&s, src, live);
	sens_source_close(src);
	if (rc)
		goto close_transcript;
	if (s.n_taps < s.n_pts)
		fprintf(s.out, "the recording ended after %zu of %zu taps\n", s.n_taps, s.n_pts);
	rc = sens_calibrate(&cfg, s.taps, s.n_taps, &cal, err, sizeof(err));
	if (rc == -ENOMEM) {
		dd_log(DD_LOG_ERR, "calibrate: %s", err);
		rc = DD_EXIT_FAIL;
		goto close_transcript;
	}
	if (rc < 0) {
		/* Taps that do not fit are the recording's fault when there is one. */
		if (replay)
			dd_log(DD_LOG_ERR, "calibrate piezo: %s: %s", replay, err);
		else
			dd_log(DD_LOG_ERR, "calibrate: %s", err);
		rc = DD_EXIT_USAGE;
		goto close_transcript;
	}
	if (!live) {
		/* The taps fit: what was taken of them goes before the result. */
		int closed = fclose(s.out);

		s.out = NULL;
		if (closed) {
			dd_log(DD_LOG_ERR, "calibrate: %s", strerror(errno));
			rc = DD_EXIT_FAIL;
			goto close_transcript;
		}
		rc = dd_write_stdout("calibrate", said, said_len);
		if (rc)
			goto close_transcript;
	}
	printf("fit from %zu taps: wave speed %.1f m/s (was %.1f)\n", cal.n_taps, cal.wave_speed_mps,
	       cfg.wave_speed_mps);
	double mean = 0;
	for (size_t i = 0; sim && i < truth.n_lines; i++)
		if (truth.lines[i].role == SENS_ROLE_TABLE)
			mean += truth.lines[i].delay_s / (double)s.n_table;
	if (sim)
		printf("  simulated truth: wave speed %.1f m/s\n", truth.wave_speed_mps);
	for (size_t i = 0, j = 0; i < cfg.n_lines; i++)
		if (cfg.lines[i].role == SENS_ROLE_TABLE) {
			printf("  %-8s delay %+7.2f us", cfg.lines[i].name, cal.delay_s[j] * 1e6);
			if (sim)
				printf("   (simulated truth %+7.2f us; delays are relative to their mean)",
				       (truth.lines[i].delay_s - mean) * 1e6);
			printf("\n");
			j++;
		}
	printf("fit error: arrival times rms %.1f us (%.2f cm at this speed); taps re-located "
	       "median %.2f cm, worst %.2f cm\n", cal.rms_s * 1e6, cal.rms_cm, cal.median_err_cm,
	       cal.max_err_cm);
	printf("timing noise: %.1f us an arrival (config %.0f us)\n", cal.timing_sigma_s * 1e6,
	       cfg.timing_sigma_s * 1e6);
	if (cal.max_err_cm > 5.0)
		printf("warning: a tap re-located more than 5 cm from its point: check the sensor "
		       "positions in the config, or tap again\n");
	if (dry || !config)
		printf("not written (%s)\n", dry ? "--dry-run" : "no --config file given");
	else
		rc = write_result(config, &cfg, &cal);

close_transcript:
	if (s.out && s.out != stderr)
		fclose(s.out);
	free(said);
free_pipe:
	sens_pipeline_free(s.pipe);
	return rc;
}

int dd_cmd_calibrate(int argc, char **argv)
{
	if (argc < 2) {
		dd_log(DD_LOG_ERR, "calibrate: a target is required: piezo or camera (dyeref calibrate --help)");
		return DD_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "piezo"))
		return calibrate_piezo(argc - 1, argv + 1);
	if (!strcmp(argv[1], "camera"))
		return dd_calibrate_camera(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage();
		return DD_EXIT_OK;
	}
	dd_log(DD_LOG_ERR, "calibrate: unknown target '%s' (piezo or camera)", argv[1]);
	return DD_EXIT_USAGE;
}
