/* `dyeref sim --matches N --seed S --out DIR [--noise K] [--trigger-speed M_PER_S]
 * [--frames] [--late P] [--missing P] [--jitter-us US]`: plays matches on
 * the virtual table and writes, per match, what the instruments saw and
 * the truth (docs/simulator.md, "Output"). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon/cliio.h"
#include "daemon/cliopt.h"
#include "daemon/daemon.h"
#include "sim/sim.h"

#define CROP_PX 128	/* full-resolution crop: a 16 mm die is 32 px at 12 Mpx over 2.44 m */
/* Longest name sim writes below --out ("/match-10000/frames-0000.y4m" and
 * room to spare): a longer --out is refused before anything is made. */
#define OUT_NAME_MAX 64

/* dir/name into buf; a path that does not fit is an error, never a
 * truncated path (that would write somewhere else). 0 or -ENAMETOOLONG. */
static int join(char *buf, size_t len, const char *dir, const char *name, char *err, size_t errlen)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len) {
		snprintf(err, errlen, "%.200s...: path too long for %s", dir, name);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* Makes the directory path, or takes it as it is: 0, or a negative errno
 * with "path: why" in err (-ENOTDIR for a file already there by that name,
 * which mkdir's EEXIST does not tell from a directory). */
static int make_dir(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		int e = errno;

		snprintf(err, errlen, "%.400s: %s", path, strerror(e));
		return -e;
	}
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%.400s: not a directory", path);
		return -ENOTDIR;
	}
	return 0;
}

/* An error of the run, as one "sim: ..." line: sim/'s own messages already
 * begin so, the files' ("path: why") do not. */
static void log_error(const char *err)
{
	dd_log(DD_LOG_ERR, "%s%s", strncmp(err, "sim: ", 5) ? "sim: " : "", err);
}

/* Appends a line (taking s, a malloc'd JSON object) to a growing buffer. */
static int put_line(char **buf, size_t *len, char *s)
{
	size_t n;
	char *nb;

	if (!s)
		return -ENOMEM;
	n = strlen(s);
	nb = realloc(*buf, *len + n + 2);
	if (!nb) {
		free(s);
		return -ENOMEM;
	}
	memcpy(nb + *len, s, n);
	nb[*len + n] = '\n';
	*len += n + 1;
	nb[*len] = '\0';
	*buf = nb;
	free(s);
	return 0;
}

struct outputs {
	bool frames;		/* --frames: write each throw's camera stream */
	char *index;		/* frames.jsonl */
	size_t index_len;
	struct sens_edge *edges;
	size_t n_edges, cap_edges;
	char *calls, *camera;
	size_t calls_len, camera_len;
};

static int sense_throw(const struct sim_noise *noise, const struct sens_config *sc,
		       const struct sim_throw *t, int throw_no, const char *mdir,
		       struct sim_rng *rng, struct outputs *o, char *err, size_t errlen)
{
	struct sim_call calls[16];
	struct sim_cam cams[8];
	size_t nc, nk;
	int rc;

	if (sim_sense_edges(noise, sc, t, rng, &o->edges, &o->n_edges, &o->cap_edges) < 0)
		goto oom;
	nc = sim_sense_calls(noise, t, rng, calls, 16);
	for (size_t i = 0; i < nc; i++)
		if (put_line(&o->calls, &o->calls_len, sim_call_json(&calls[i])) < 0)
			goto oom;
	if (o->frames) {
		char file[64], path[PATH_MAX], line[256];
		int64_t t0;
		int nf;

		snprintf(file, sizeof(file), "frames-%04d.y4m", throw_no);
		rc = join(path, sizeof(path), mdir, file, err, errlen);
		if (rc < 0)
			return rc;
		rc = sim_frames_write_y4m(path, noise, &sc->table, t,
					  (uint64_t)throw_no * 0x9e3779b97f4a7c15ULL, &t0, &nf,
					  err, errlen);
		if (rc < 0)
			return rc;
		snprintf(line, sizeof(line), "{\"file\":\"%s\",\"t0_ns\":%lld,\"fps\":%d,\"frames\":%d}",
			 file, (long long)t0, SIM_FRAME_FPS, nf);
		if (put_line(&o->index, &o->index_len, strdup(line)) < 0)
			goto oom;
	}
	nk = sim_sense_camera(noise, t, rng, cams, 8);
	for (size_t i = 0; i < nk; i++) {
		char crop[64] = "", path[PATH_MAX];

		if (cams[i].kind == SIM_CAM_REST) {
			struct vis_image *img;

			snprintf(crop, sizeof(crop), "rest-%04d.ppm", throw_no);
			rc = join(path, sizeof(path), mdir, crop, err, errlen);
			if (rc < 0)
				return rc;
			img = sim_render_rest_crop(noise, &sc->table, t->rest_x, t->rest_y, cams[i].x,
						   cams[i].y, t->rest_face,
						   2 * M_PI * sim_rng_uniform(rng),
						   CROP_PX, rng);
			if (!img)
				goto oom;
			rc = vis_image_save_pnm(img, path, err, errlen);
			vis_image_free(img);
			if (rc < 0)
				return rc;
		}
		if (put_line(&o->camera, &o->camera_len, sim_cam_json(&cams[i], crop)) < 0)
			goto oom;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

static int write_edges(const char *path, const struct outputs *o, char *err, size_t errlen)
{
	size_t cap = o->n_edges * 32 + 128, len = 0;
	char *buf = malloc(cap);
	int rc;

	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	len += (size_t)snprintf(buf, cap, "# dyeref sim: piezo edges, TS_NS LINE (GPIO offset)\n");
	for (size_t i = 0; i < o->n_edges; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%lld %u\n",
					(long long)o->edges[i].ts_ns, o->edges[i].line);
	rc = sim_write_file(path, buf, len, err, errlen);
	free(buf);
	return rc;
}

static int one_match(int k, const char *out, bool frames, const struct sim_match_cfg *mc,
		     const struct sim_noise *noise, const struct sens_config *sc,
		     struct sim_rng *rng, struct sim_rng *srng, char *err, size_t errlen)
{
	struct bd_table tb = sc->table;
	struct outputs o = { .frames = frames };
	struct sim_match *m = NULL;
	char mdir[PATH_MAX], path[PATH_MAX], name[32];
	int rc;

	snprintf(name, sizeof(name), "match-%03d", k);
	rc = join(mdir, sizeof(mdir), out, name, err, errlen);
	if (rc < 0)
		return rc;
	rc = make_dir(mdir, err, errlen);
	if (rc < 0)
		return rc;
	rc = sim_match_play(mc, &tb, 1000000000LL, rng, &m, err, errlen);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < m->n_throws; i++) {
		rc = sense_throw(noise, sc, &m->throws[i], (int)i + 1, mdir, srng, &o, err, errlen);
		if (rc < 0)
			goto free_outputs;
	}
	sens_edges_sort(o.edges, o.n_edges);
	rc = join(path, sizeof(path), mdir, "edges.txt", err, errlen);
	if (rc < 0)
		goto free_outputs;
	rc = write_edges(path, &o, err, errlen);
	if (rc < 0)
		goto free_outputs;
	rc = join(path, sizeof(path), mdir, "calls.jsonl", err, errlen);
	if (rc < 0)
		goto free_outputs;
	rc = sim_write_file(path, o.calls ? o.calls : "", o.calls_len, err, errlen);
	if (rc < 0)
		goto free_outputs;
	rc = join(path, sizeof(path), mdir, "camera.jsonl", err, errlen);
	if (rc < 0)
		goto free_outputs;
	rc = sim_write_file(path, o.camera ? o.camera : "", o.camera_len, err, errlen);
	if (rc < 0)
		goto free_outputs;
	if (frames) {
		rc = join(path, sizeof(path), mdir, "frames.jsonl", err, errlen);
		if (rc < 0)
			goto free_outputs;
		rc = sim_write_file(path, o.index ? o.index : "", o.index_len, err, errlen);
		if (rc < 0)
			goto free_outputs;
	}
	/* The truth last: a match directory with a truth log is complete. */
	rc = join(path, sizeof(path), mdir, "truth.jsonl", err, errlen);
	if (rc < 0)
		goto free_outputs;
	rc = sim_match_write_truth(m, path, err, errlen);
	if (rc == 0)
		printf("match %d: %zu throws, %d-%d\n", k, m->n_throws, m->final.score[0],
		       m->final.score[1]);
free_outputs:
	free(o.edges);
	free(o.calls);
	free(o.camera);
	free(o.index);
	sim_match_free(m);
	return rc;
}

static void usage(FILE *to)
{
	fprintf(to, "usage: dyeref sim --matches N --seed S --out DIR [--noise K]\n"
		"                  [--trigger-speed M_PER_S] [--frames]\n"
		"  --matches N        matches to play, 1..10000\n"
		"  --seed S           the random seed (the same seed plays the same matches)\n"
		"  --out DIR          where the recordings and truth logs go\n"
		"  --noise K          every instrument's noise times K, 0..10 (default 1)\n"
		"  --trigger-speed V  the discs' comparator threshold: contacts softer than V m/s\n"
		"                     trip no sensor, 0..10 (default 0.25)\n"
		"  --frames           also write each throw's low-resolution camera stream\n"
		"  --late P           chance a table disc fires 0.2-1 ms late, per impact (default 0)\n"
		"  --missing P        chance a table disc misses an impact (default 0.01 x K)\n"
		"  --jitter-us US     the table edges' timing jitter (default 10 x K); the\n"
		"                     referee's config still says 10 us\n");
}

int dd_cmd_sim(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "matches", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "noise", required_argument, NULL, 'n' },
		{ "frames", no_argument, NULL, 'f' },
		{ "trigger-speed", required_argument, NULL, 't' },
		{ "late", required_argument, NULL, 'L' },
		{ "missing", required_argument, NULL, 'M' },
		{ "jitter-us", required_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sim_match_cfg mc;
	struct sim_noise noise;
	struct sens_config sc;
	struct sim_rng rng, srng;
	char err[512], *end, meta[256], path[PATH_MAX];
	const char *out = NULL;
	long matches = -1;
	unsigned long long seed = 0;
	double k = 1, trigger = -1;	/* trigger < 0: the noise model's own */
	double fault[3] = { -1, -1, -1 };	/* --late, --missing, --jitter-us; < 0: the model's */
	bool have_seed = false, frames = false;
	int c, rc;

	optind = 1;
	while ((c = dd_getopt("sim", argc, argv, opts)) != -1) {
		errno = 0;
		switch (c) {
		case 'm':
			matches = strtol(optarg, &end, 10);
			if (errno || *end || matches < 1 || matches > 10000) {
				dd_log(DD_LOG_ERR, "sim: --matches: '%s' is not a number 1..10000", optarg);
				return DD_EXIT_USAGE;
			}
			break;
		case 's':
			seed = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-') {
				dd_log(DD_LOG_ERR, "sim: --seed: '%s' is not a non-negative integer", optarg);
				return DD_EXIT_USAGE;
			}
			have_seed = true;
			break;
		case 'o':
			out = optarg;
			break;
		case 'f':
			frames = true;
			break;
		case 'n':
			k = strtod(optarg, &end);
			if (errno || *end || !(k >= 0 && k <= 10)) {
				dd_log(DD_LOG_ERR, "sim: --noise: '%s' is not a factor 0..10", optarg);
				return DD_EXIT_USAGE;
			}
			break;
		case 't':
			trigger = strtod(optarg, &end);
			if (errno || *end || !*optarg || !(trigger >= 0 && trigger <= 10)) {
				dd_log(DD_LOG_ERR, "sim: --trigger-speed: '%s' is not a speed 0..10 m/s",
				       optarg);
				return DD_EXIT_USAGE;
			}
			break;
		case 'L':
		case 'M':
		case 'J': {
			int i = c == 'L' ? 0 : c == 'M' ? 1 : 2;
			double v = strtod(optarg, &end), hi = i == 2 ? 1000 : 1;

			if (errno || *end || !*optarg || !(v >= 0 && v <= hi)) {
				dd_log(DD_LOG_ERR, "sim: --%s: '%s' is not %s",
				       i == 0 ? "late" : i == 1 ? "missing" : "jitter-us", optarg,
				       i == 2 ? "microseconds 0..1000" : "a chance 0..1");
				return DD_EXIT_USAGE;
			}
			fault[i] = v;
			break;
		}
		case 'h':
			usage(stdout);
			return DD_EXIT_OK;
		default:
			return DD_EXIT_USAGE;
		}
	}
	if (dd_getopt_done("sim", argc, argv))
		return DD_EXIT_USAGE;
	if (matches < 0 || !have_seed || !out) {
		dd_log(DD_LOG_ERR, "sim: %s is required (dyeref sim --help)",
		       matches < 0 ? "--matches N" : !have_seed ? "--seed S" : "--out DIR");
		return DD_EXIT_USAGE;
	}
	if (strlen(out) + OUT_NAME_MAX >= PATH_MAX) {
		dd_log(DD_LOG_ERR, "sim: --out: path too long (%zu bytes, at most %d)", strlen(out),
		       PATH_MAX - OUT_NAME_MAX - 1);
		return DD_EXIT_USAGE;
	}
	rc = make_dir(out, err, sizeof(err));
	if (rc < 0) {
		log_error(err);
		return dd_input_status(rc);	/* the name's fault (a file, no parent): 2 */
	}
	sim_match_cfg_defaults(&mc);
	sim_noise_defaults(&noise, k);
	if (trigger >= 0)
		noise.min_strength = trigger;
	if (fault[0] >= 0)
		noise.piezo.p_late = fault[0];
	if (fault[1] >= 0)
		noise.piezo.p_miss = fault[1];
	if (fault[2] >= 0)
		noise.piezo.jitter_s = fault[2] * 1e-6;
	sim_sens_config(&sc);
	/* Play and sensing draw from separate streams: the same seed plays the
	 * same matches at every noise level. */
	sim_rng_seed(&rng, seed);
	sim_rng_seed(&srng, seed ^ 0x5e115e5ULL);
	for (long i = 1; i <= matches; i++) {
		rc = one_match((int)i, out, frames, &mc, &noise, &sc, &rng, &srng, err, sizeof(err));
		if (rc < 0) {
			log_error(err);
			return DD_EXIT_FAIL;
		}
	}
	{
		int w = snprintf(meta, sizeof(meta), "{\"matches\":%ld,\"seed\":%llu,\"noise\":%g,"
				 "\"trigger_speed\":%g", matches, seed, k, noise.min_strength);

		/* the faults only when asked for: the default's file stays */
		if (fault[0] >= 0 || fault[1] >= 0 || fault[2] >= 0)
			w += snprintf(meta + w, sizeof(meta) - (size_t)w, ",\"piezo_late\":%g,"
				      "\"piezo_missing\":%g,\"piezo_jitter_us\":%g",
				      noise.piezo.p_late, noise.piezo.p_miss, noise.piezo.jitter_s * 1e6);
		snprintf(meta + w, sizeof(meta) - (size_t)w, "}\n");
	}
	snprintf(path, sizeof(path), "%s/sim.json", out);	/* fits: out was checked */
	if (sim_write_file(path, meta, strlen(meta), err, sizeof(err)) < 0) {
		log_error(err);
		return DD_EXIT_FAIL;
	}
	return DD_EXIT_OK;
}
