/*
 * What a Raspberry Pi 4 can afford: instructions per tracked frame
 * (vis_tracker_feed on 640x360 RGB, the low stream), per located die read
 * (vis_read_face_near, the daemon's face reader) and per ruling (the match
 * step: fusion, then the referee judging and storing the throw), counted by
 * valgrind's callgrind on this machine (emulated timings are not timings;
 * perf has no hardware counters in this VM), each only inside its own
 * function (--toggle-collect on a wrapper below); also the low stream's
 * YUV -> RGB a frame and a rest's full frame (RGB and snapshot JPEG).
 * From the counts: the time each takes on a Cortex-A72 at 1.5 GHz at IPC
 * instructions a cycle (1.0: scalar, branchy C; the A72 is 3-wide but
 * stalls on this kind of code), from the arm64 build's counts when
 * PI_BUDGET_ARM64 names it (counted under qemu-user: qcount below), else
 * from the x86-64 ones as they are; and the share of one A72 core used at
 * the camera's rates (14 fps, the Camera Module 3's full-sensor mode, the
 * daemon's default; 56 fps, its binned mode: docs/vision.md): each frame
 * made RGB and tracked, and once a throw (every 2 s, the camera's shortest
 * toss spacing) its rest's full frame, the read and the ruling. The limit
 * is 100 % of one core.
 *
 * The inputs are fixed: the tracking benchmark's rendered two-dice throw
 * (tests/support/two_dice_throw.h, 120 fps) after empty-table frames;
 * the rest-crop golden test's crops (tests/unit/vis_face_cases.h: 32 px
 * dice on open table, the line, beside cups, located up to 1.5 sides off);
 * tests/data/sample-match.jsonl's throws, after its corrections, fed to
 * the match step as observations. Each stage checks its work: the throw's
 * releases, landings and rests, the faces read right, the rulings and the
 * final score `dyeref judge` gives the log.
 *   build/bench/pi_budget               (env TOP: the repo, .)
 *   PI_BUDGET_ARM64=build-arm64/bench/pi_budget build/bench/pi_budget   (arm64 too)
 *   build/bench/pi_budget track FILE empty|throw | face N near|at | frame W H N
 *     | rule N DIR | render FILE | qcount FN   (one stage, as callgrind runs it)
 * Without valgrind: a skip, exit 77.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/core.h"
#include "daemon/fusion.h"
#include "daemon/match_step.h"
#include "daemon/referee.h"
#include "daemon/snapshot.h"
#include "db/db.h"
#include "tests/support/two_dice_throw.h"
#include "tests/unit/vis_face_cases.h"
#include "vision/vision.h"

#define EMPTY_FRAMES 30		/* empty table, each its own noise */
#define THROW_FRAMES 180	/* 1.5 s of the throw at THROW_FPS */
#define THROW_FPS 120		/* as the tracker's golden test renders it */
#define FACE_CROPS 24		/* rest crops read: each place, each face */
#define PI_HZ 1.5e9		/* Cortex-A72 clock */
#define IPC 1.0			/* instructions a cycle assumed on it */
#define AARCH64 1.0		/* arm64 / x86-64 when not counted: the x86-64 count */
#define THROW_EVERY_S 2.0	/* a toss at most every 2 s (docs/daemon.md, "The camera") */

/* ---- The stages, each one wrapper callgrind counts inside ----------- */

/* After a wrapper's call: no tail call, so that the wrapper returns
 * (qcount below stops counting at its return). */
#define NO_TAIL() __asm__ volatile("" ::: "memory")

__attribute__((noinline)) int pib_track_frame(struct vis_tracker *t, const struct vis_image *f,
					      struct vis_obs *o, int max)
{
	int n = vis_tracker_feed(t, f, o, max);

	NO_TAIL();
	return n;
}

__attribute__((noinline)) int pib_read_die(const struct vis_image *img, double u, double v,
					   double die_px, struct vis_die *d)
{
	int rc = vis_read_face_near(img, u, v, die_px, NULL, d);

	NO_TAIL();
	return rc;
}

__attribute__((noinline)) int pib_face_at(const struct vis_image *img, double u, double v,
					  double die_px, struct vis_die *d)
{
	char err[256];

	return vis_read_face_at(img, u, v, die_px, d, err, sizeof(err));
}

__attribute__((noinline)) struct vis_image *pib_convert(const struct vis_yuv420 *f)
{
	struct vis_image *img = vis_yuv420_image(f);

	NO_TAIL();
	return img;
}

__attribute__((noinline)) void *pib_snapshot(const struct vis_image *full, size_t *len)
{
	char err[128];

	return dd_jpeg_encode(full, len, err, sizeof(err));
}

struct rule {
	struct dd_referee *ref;
	struct dd_fusion fusion;
	struct dd_fused fx;
	int rulings, failed;
};

static void judged(void *user, const struct dd_fused *fx, int64_t at_ns)
{
	struct rule *r = user;
	char err[256];

	(void)at_ns;
	if (dd_referee_throw(r->ref, fx, err, sizeof(err))) {
		fprintf(stderr, "pi_budget: rule: %s\n", err);
		r->failed++;
		return;
	}
	r->rulings++;
}

/* One logged throw as its witnesses report it, at t0 (the log's times
 * moved there, so corrected throws come in order): a toss, the apex, a
 * missed "DYE UP!", each event from its source, then time past fusion's
 * settle. */
__attribute__((noinline)) void pib_rule_throw(struct rule *r, const struct bd_throw *t, int64_t t0)
{
	struct dd_step st = { .fusion = &r->fusion, .fx = &r->fx, .judge = judged, .user = r };
	int64_t first = t->n_events ? t->events[0].t_ns : 0, last = t0;
	struct dd_obs o;

	memset(&o, 0, sizeof(o));
	o.kind = DD_OBS_TOSS;
	o.source = DD_SRC_CAMERA;
	o.t_ns = t0;
	o.confidence = 0.95;
	dd_step_obs(&st, &o);
	if (t->apex_m > 0) {
		o.kind = DD_OBS_APEX;
		o.apex_m = t->apex_m;
		o.apex_sd_m = 0.1;
		dd_step_obs(&st, &o);
	}
	if (!t->dye_up) {
		o.kind = DD_OBS_DYE_UP_MISSED;
		o.source = DD_SRC_CONSOLE;
		dd_step_obs(&st, &o);
	}
	for (size_t i = 0; i < t->n_events; i++) {
		const struct bd_event *e = &t->events[i];

		memset(&o, 0, sizeof(o));
		o.kind = DD_OBS_EVENT;
		o.source = !strcmp(e->source, "piezo") ? DD_SRC_PIEZO :
			   !strcmp(e->source, "console") ? DD_SRC_CONSOLE : DD_SRC_CAMERA;
		o.t_ns = t0 + 500000000LL + (e->t_ns - first) + (int64_t)i * 1000;
		o.confidence = e->has_confidence ? e->confidence : 1;
		o.ev = *e;
		o.ev.t_ns = o.t_ns;
		if (e->kind == BD_EV_TABLE && e->has_xy)
			o.sigma_m = 0.01;
		dd_step_obs(&st, &o);
		last = o.t_ns;
	}
	dd_step_tick(&st, last + 2000000000LL);
}

/* ---- Stage drivers (run under callgrind) ------------------------------- */

static int load_file(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "pi_budget: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	*buf = malloc((size_t)n + 1);
	if (!*buf || fread(*buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "pi_budget: %s: cannot read\n", path);
		free(*buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	*len = (size_t)n;
	return 0;
}

/* The scene of every frame: the default 640x360 view of the table. */
static void scene(struct vis_render_scene *s, struct vis_tracker_cfg *cfg)
{
	double inv[9];

	vis_render_scene_default(s);
	vis_homography_invert(s->h, inv);
	vis_tracker_cfg_default(cfg, &s->table, inv);
}

/* Renders the frames (natively, before any counting) into path: the
 * empty table once to learn, EMPTY_FRAMES of it, then the throw. */
static int render_frames(const char *path)
{
	struct vis_render_scene s;
	struct vis_tracker_cfg cfg;
	struct two_dice_throw thr;
	FILE *f = fopen(path, "wb");
	char err[256];
	int rc = 0;

	if (!f)
		return -1;
	scene(&s, &cfg);
	two_dice_throw_start(&thr);
	for (int i = 0; i < 1 + EMPTY_FRAMES + THROW_FRAMES && rc == 0; i++) {
		struct vis_image *img;

		s.seed = 1000 + i;
		if (i > EMPTY_FRAMES)
			two_dice_throw_frame(&thr, &s, i - EMPTY_FRAMES - 1, THROW_FPS);
		rc = vis_render(&s, &img, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "pi_budget: render: %s\n", err);
			break;
		}
		if (fwrite(img->data, 1, (size_t)img->stride * img->height, f) != (size_t)img->stride * img->height)
			rc = -1;
		vis_image_free(img);
	}
	if (fclose(f))
		rc = -1;
	return rc;
}

static int stage_track(const char *path, bool throw)
{
	struct vis_render_scene s;
	struct vis_tracker_cfg cfg;
	struct vis_tracker *t;
	struct vis_image *img;
	struct vis_obs o[16];
	int counts[VIS_OBS_MINE + 1] = { 0 }, frames = 0, first, n;
	FILE *f = fopen(path, "rb");

	scene(&s, &cfg);
	img = vis_image_new(s.width, s.height, VIS_RGB24);
	t = vis_tracker_new(&cfg, s.width, s.height);
	if (!f || !img || !t) {
		fprintf(stderr, "pi_budget: track: %s\n", strerror(errno));
		return 1;
	}
	first = throw ? 1 + EMPTY_FRAMES : 1;
	for (int i = 0; i < 1 + EMPTY_FRAMES + THROW_FRAMES; i++) {
		size_t sz = (size_t)img->stride * img->height;

		if (fread(img->data, 1, sz, f) != sz) {
			fprintf(stderr, "pi_budget: track: %s: short\n", path);
			return 1;
		}
		img->ts_ns = (int64_t)i * 1000000000LL / THROW_FPS;
		if (i == 0) {
			vis_tracker_learn(t, img);
			continue;
		}
		if (i >= first) {
			n = pib_track_frame(t, img, o, 16);
			for (int k = 0; k < n && k < 16; k++)
				counts[o[k].kind]++;
			frames++;
		} else {
			vis_tracker_feed(t, img, o, 16);
		}
		if (!throw && i == EMPTY_FRAMES)
			break;
	}
	fclose(f);
	vis_tracker_free(t);
	vis_image_free(img);
	printf("frames %d releases %d landings %d rests %d exits %d\n", frames,
	       counts[VIS_OBS_RELEASE], counts[VIS_OBS_LANDING], counts[VIS_OBS_REST],
	       counts[VIS_OBS_OFF_TABLE]);
	return 0;
}

/* The face reader on the rest-crop golden test's first n crops (open
 * table, line, cups; located up to 1.5 sides off): the daemon's reader
 * (vis_read_face_near), or the general finder at the point (at). */
static int stage_face(int max, bool at)
{
	int reads = 0, right = 0;

	(void)face_case_colour;	/* the header's coloured dice: not read here */
	for (int i = 0; i < max; i++) {
		struct face_case c;
		struct vis_image *img = face_case_render(11, i, 1, &c);
		double mid = FACE_CASE_CROP / 2.0;
		struct vis_die d;
		int rc;

		if (!img) {
			perror("pi_budget: face: render");
			return 1;
		}
		rc = at ? pib_face_at(img, mid, mid, FACE_CASE_DIE, &d) :
			  pib_read_die(img, mid, mid, FACE_CASE_DIE, &d);
		right += rc == 0 && d.face == c.face && d.confidence >= 0.8;
		reads++;
		vis_image_free(img);
	}
	printf("reads %d right %d\n", reads, right);
	return 0;
}

/* The camera's frames as libcamera gives them (YUV 4:2:0) made RGB: n
 * low-stream frames (every frame, in the shim), or one full-sensor frame
 * and its snapshot's JPEG (each read: the face reader's worker). The
 * picture is the empty table's, enlarged, so the JPEG has a table's
 * detail to code. */
static int stage_frame(int w, int h, int n)
{
	struct vis_render_scene s;
	struct vis_tracker_cfg cfg;
	struct vis_yuv420 *f = vis_yuv420_new(w, h);
	struct vis_image *src, *img = NULL;
	char err[256];
	size_t len = 0, bytes = 0;

	scene(&s, &cfg);
	if (!f || vis_render(&s, &src, err, sizeof(err))) {
		fprintf(stderr, "pi_budget: frame: %s\n", f ? err : strerror(errno));
		return 1;
	}
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			const uint8_t *p = src->data + (size_t)(y * src->height / h) * src->stride +
					   (size_t)(x * src->width / w) * 3;

			f->y[(size_t)y * f->y_stride + x] = (uint8_t)((p[0] * 77 + p[1] * 150 + p[2] * 29) >> 8);
		}
	memset(f->u, 120, f->uv_stride * (size_t)((h + 1) / 2));
	memset(f->v, 136, f->uv_stride * (size_t)((h + 1) / 2));
	for (int i = 0; i < n; i++) {
		vis_image_free(img);
		img = pib_convert(f);
		if (!img) {
			perror("pi_budget: frame");
			return 1;
		}
	}
	if (n == 1) {
		void *jpeg = pib_snapshot(img, &len);

		bytes = jpeg ? len : 0;
		free(jpeg);
	}
	printf("frames %d %dx%d jpeg %zu\n", n, img->width, img->height, bytes);
	vis_image_free(img);
	vis_image_free(src);
	vis_yuv420_free(f);
	return 0;
}

static int stage_rule(const char *top, int max, const char *dir)
{
	static const char teams[2][32] = { "A", "B" };
	static struct rule r;	/* large */
	struct mlog_bd *log;
	struct mlog_bd_result res = { 0 };
	struct dd_referee_cfg cfg;
	struct dd_fusion_cfg fc;
	struct db *db;
	char path[4096], err[256], *buf;
	size_t len;
	int n = 0, ours[2] = { -1, -1 };
	const struct bd_throw **throws;
	json_t *st;

	snprintf(path, sizeof(path), "%s/tests/data/sample-match.jsonl", top);
	if (load_file(path, &buf, &len))
		return 1;
	if (mlog_bd_parse(path, buf, len, &log, err, sizeof(err)) ||
	    mlog_bd_replay(log, &res, err, sizeof(err))) {
		fprintf(stderr, "pi_budget: rule: %s\n", err);
		return 1;
	}
	free(buf);
	/* A new database each run (the x86-64 and arm64 runs share dir). */
	for (int k = 0; k < 3; k++) {
		snprintf(path, sizeof(path), "%s/rule.db%s", dir, (const char *[]){ "", "-wal", "-shm" }[k]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/rule.db", dir);
	db = db_open(path, DB_OPEN_CREATE, err, sizeof(err));
	if (!db) {
		fprintf(stderr, "pi_budget: rule: %s\n", err);
		return 1;
	}
	memset(&cfg, 0, sizeof(cfg));
	bd_house_defaults(&cfg.house);
	cfg.review = DD_REVIEW_COUNT;
	r.ref = dd_referee_new(&cfg, db);
	if (!r.ref || dd_referee_start(r.ref, &log->cfg, teams, NULL, err, sizeof(err))) {
		fprintf(stderr, "pi_budget: rule: referee: %s\n", r.ref ? err : strerror(errno));
		return 1;
	}
	dd_fusion_cfg_defaults(&fc);
	fc.camera_present = true;
	fc.piezo_present = true;
	dd_fusion_init(&r.fusion, &fc);
	/* Each throw as it stands after the log's corrections. */
	throws = calloc(log->n_throws, sizeof(*throws));
	if (!throws)
		return 1;
	for (size_t i = 0; i < log->n_entries; i++) {
		const struct mlog_bd_entry *e = &log->entries[i];

		if ((e->kind == MLOG_THROW || e->kind == MLOG_CORRECT) && e->throw_no >= 1 &&
		    (size_t)e->throw_no <= log->n_throws)
			throws[e->throw_no - 1] = &e->t;
	}
	for (size_t i = 0; i < log->n_throws && n < max; i++, n++)
		pib_rule_throw(&r, throws[i], (int64_t)(i + 1) * 20000000000LL);
	free(throws);
	if (dd_referee_state(r.ref, &st) == 0) {
		json_t *sc = json_object_get(st, "score");

		ours[0] = (int)json_integer_value(json_object_get(sc, "A"));
		ours[1] = (int)json_integer_value(json_object_get(sc, "B"));
		json_decref(st);
	}
	printf("throws %d rulings %d failed %d score %d-%d judge %d-%d\n", n, r.rulings, r.failed,
	       ours[0], ours[1], res.state.score[0], res.state.score[1]);
	dd_referee_free(r.ref);
	db_close(db);
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
	return 0;
}

/* ---- Counting an arm64 build's instructions under qemu-user ----------- */

/* Reads qemu's "-d in_asm,exec,nochain" log on stdin and prints the
 * instructions executed inside fn (entry to its return, callees included)
 * and how many times it ran. Each translated block is logged (IN:) before
 * it first runs; its runs are the "Trace" lines naming its host address. */
#define QTB_SLOTS (1u << 21)
struct qtb {
	unsigned long long host;	/* 0: empty */
	int n;				/* guest instructions */
	bool in_fn, ret;		/* inside fn; ends with fn's return */
};

static int qcount(const char *fn)
{
	static struct qtb tb[QTB_SLOTS];
	char line[1024];
	unsigned long long pending_pc = 0, total = 0;
	int pending_n = 0, calls = 0, used = 0;
	bool in_block = false, pending_fn = false, pending_ret = false, counting = false;

	while (fgets(line, sizeof(line), stdin)) {
		unsigned long long host, pc;
		char flags[32];

		if (!strncmp(line, "IN:", 3)) {
			char *sym = line + 3 + strspn(line + 3, " ");

			sym[strcspn(sym, "\n")] = 0;
			in_block = true;
			pending_n = 0;
			pending_pc = 0;
			pending_fn = !strcmp(sym, fn);
			pending_ret = false;
		} else if (in_block && !strncmp(line, "0x", 2)) {
			char mn[16];

			if (!pending_n++)
				pending_pc = strtoull(line, NULL, 16);
			if (sscanf(line, "%*s %*s %15s", mn) == 1 && !strcmp(mn, "ret"))
				pending_ret = true;
		} else if (!strncmp(line, "Trace ", 6) &&
			   sscanf(line, "Trace %*d: %llx [%31[^/]/%llx", &host, flags, &pc) == 3) {
			size_t h = (size_t)(host * 0x9E3779B97F4A7C15ull >> 43) & (QTB_SLOTS - 1);

			in_block = false;
			if (pending_n && pc == pending_pc) {	/* a new block's first run */
				while (tb[h].host && tb[h].host != host)
					h = (h + 1) & (QTB_SLOTS - 1);
				if (!tb[h].host && ++used > (int)(QTB_SLOTS / 2)) {
					fprintf(stderr, "pi_budget: qcount: too many blocks\n");
					return 1;
				}
				tb[h] = (struct qtb){ host, pending_n, pending_fn, pending_ret };
				pending_n = 0;
			} else {
				while (tb[h].host && tb[h].host != host)
					h = (h + 1) & (QTB_SLOTS - 1);
				if (!tb[h].host)
					continue;	/* translated before the log began */
			}
			if (tb[h].in_fn && !counting) {
				counting = true;
				calls++;
			}
			if (counting)
				total += (unsigned long long)tb[h].n;
			if (tb[h].in_fn && tb[h].ret)
				counting = false;
		}
	}
	printf("%llu %d\n", total, calls);
	return 0;
}

/* ---- The run: each stage under callgrind ------------------------------ */

/* Runs this program's stage args under callgrind, counting inside fn
 * (and fn2, called after it returns, unless NULL):
 * the instructions into *ir, the stage's one line of results into line. */
static int counted(const char *self, const char *fn, const char *fn2, const char *dir,
		   const char *args,
		   double *ir, char *line, size_t linelen)
{
	static int runs;
	char cmd[8192], out[4200], buf[512];
	FILE *p, *f;
	int rc;

	snprintf(out, sizeof(out), "%s/%d.callgrind", dir, ++runs);
	snprintf(cmd, sizeof(cmd), "valgrind --tool=callgrind --callgrind-out-file=%s "
		 "--toggle-collect=%s%s%s -q %s %s", out, fn, fn2 ? " --toggle-collect=" : "",
		 fn2 ? fn2 : "", self, args);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	line[0] = 0;
	if (!fgets(line, (int)linelen, p))
		line[0] = 0;
	line[strcspn(line, "\n")] = 0;
	rc = pclose(p);
	if (rc != 0 || !line[0]) {
		fprintf(stderr, "pi_budget: FAIL: %s under callgrind (status %d)\n", args, rc);
		return -1;
	}
	f = fopen(out, "r");
	*ir = -1;
	while (f && fgets(buf, sizeof(buf), f))
		if (!strncmp(buf, "totals:", 7) || (*ir < 0 && !strncmp(buf, "summary:", 8)))
			*ir = atof(buf + strcspn(buf, ":") + 1);
	if (f)
		fclose(f);
	if (*ir <= 0) {
		fprintf(stderr, "pi_budget: FAIL: no instruction count in %s\n", out);
		return -1;
	}
	return 0;
}

/* The arm64 build of this program (arm, or NULL: not measured) runs args
 * under qemu-user: its instructions inside fn per call, or 0. */
static double arm64_count(const char *arm, const char *self, const char *fn, const char *args)
{
	char cmd[8192];
	unsigned long long total = 0;
	int calls = 0;
	FILE *p;

	if (!arm)
		return 0;
	snprintf(cmd, sizeof(cmd), "q=$(command -v qemu-aarch64-static || command -v qemu-aarch64) && "
		 "QEMU_LD_PREFIX=/usr/aarch64-linux-gnu $q -L / -d in_asm,exec,nochain -D /dev/fd/3 "
		 "%s %s 3>&1 >/dev/null | %s qcount %s", arm, args, self, fn);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	if (fscanf(p, "%llu %d", &total, &calls) != 2)
		calls = 0;
	if (pclose(p) != 0 || calls <= 0) {
		fprintf(stderr, "pi_budget: arm64: %s: not counted\n", args);
		return 0;
	}
	return (double)total / calls;
}

/* One stage's figures: per item on this machine, on arm64 when counted
 * (arm, per item; 0: not), and the Pi's time from the arm64 count, else
 * the x86-64 one times ratio (another stage's arm64 / x86-64; 0: none). */
static double report(const char *what, double ir, int items, double arm, double *ratio)
{
	double per = ir / items, r = arm > 0 ? arm / per : *ratio > 0 ? *ratio : AARCH64;
	double pi_s = per * r / (IPC * PI_HZ);

	printf("%s: %.3g instructions each (x86-64, callgrind, %d counted)", what, per, items);
	if (arm > 0) {
		printf(", arm64 %.3g (qemu-user): %.2fx", arm, r);
		*ratio = r;
	}
	printf("; Pi 4 at IPC %.1f: %.3f ms%s\n", IPC, pi_s * 1000,
	       arm > 0 || *ratio > 0 ? "" : " (x86-64 count)");
	return pi_s;
}

int main(int argc, char **argv)
{
	const char *top = getenv("TOP") ? getenv("TOP") : ".";
	char dir[] = "/tmp/pi_budget.XXXXXX", args[4600], line[512], self[4096];
	double ir, empty_s, throw_s, face_s = 0, rule_s, low_s, full_s, arm;
	double r_track = 0, r_conv = 0, r_face = 0, r_rule = 0;	/* arm64 / x86-64, counted */
	const char *arm_bin = getenv("PI_BUDGET_ARM64");
	int frames, rel, land, rest, exits, reads, right, throws, rulings, failed, sc[4], rc = 1;
	int w, h;
	size_t jpeg;
	ssize_t n;

	if (argc == 4 && !strcmp(argv[1], "track"))
		return stage_track(argv[2], !strcmp(argv[3], "throw"));
	if (argc == 3 && !strcmp(argv[1], "render"))
		return render_frames(argv[2]) ? 1 : 0;
	if (argc == 3 && !strcmp(argv[1], "qcount"))
		return qcount(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "frame"))
		return stage_frame(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "face"))
		return stage_face(atoi(argv[2]), !strcmp(argv[3], "at"));
	if (argc == 4 && !strcmp(argv[1], "rule"))
		return stage_rule(top, atoi(argv[2]), argv[3]);
	if (argc != 1) {
		fprintf(stderr, "usage: pi_budget [track FILE empty|throw | face N near|at | frame W H N | rule N DIR | render FILE | qcount FN]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);	/* each figure as it comes, also into a file */
	if (system("valgrind --version >/dev/null 2>&1") != 0) {
		printf("pi_budget: valgrind is not installed: skipped\n");
		return 77;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0 || !mkdtemp(dir))
		return 1;
	self[n] = 0;
	snprintf(args, sizeof(args), "%s/frames.rgb", dir);
	if (render_frames(args)) {
		fprintf(stderr, "pi_budget: FAIL: cannot write %s\n", args);
		goto remove_dir;
	}

	/* The tracker: the empty table, then the throw (after the same
	 * empty frames, uncounted). */
	snprintf(args, sizeof(args), "track %s/frames.rgb empty", dir);
	if (counted(self, "pib_track_frame", NULL, dir, args, &ir, line, sizeof(line)) ||
	    sscanf(line, "frames %d releases %d landings %d rests %d exits %d", &frames, &rel,
		   &land, &rest, &exits) != 5 || frames != EMPTY_FRAMES || rel + land + rest) {
		fprintf(stderr, "pi_budget: FAIL: empty table: %s\n", line);
		goto remove_dir;
	}
	snprintf(args, sizeof(args), "track %s/frames.rgb empty", dir);
	arm = arm64_count(arm_bin, self, "pib_track_frame", args);
	empty_s = report("tracker, a 640x360 frame of the empty table", ir, frames, arm, &r_track);
	snprintf(args, sizeof(args), "track %s/frames.rgb throw", dir);
	if (counted(self, "pib_track_frame", NULL, dir, args, &ir, line, sizeof(line)) ||
	    sscanf(line, "frames %d releases %d landings %d rests %d exits %d", &frames, &rel,
		   &land, &rest, &exits) != 5 || frames != THROW_FRAMES || rel < 2 || land < 2 ||
	    rest < 2) {
		fprintf(stderr, "pi_budget: FAIL: the throw was not tracked (2 dice: releases, "
			"landings, rests): %s\n", line);
		goto remove_dir;
	}
	throw_s = report("tracker, a 640x360 frame of the two-dice throw", ir, frames, 0, &r_track);
	printf("  (%s)\n", line);

	/* Every frame of the low stream made RGB (the shim). */
	if (counted(self, "pib_convert", NULL, dir, "frame 640 360 10", &ir, line, sizeof(line)) ||
	    sscanf(line, "frames %d %dx%d jpeg %zu", &frames, &w, &h, &jpeg) != 4 || frames != 10 ||
	    w != 640 || h != 360) {
		fprintf(stderr, "pi_budget: FAIL: low stream: %s\n", line);
		goto remove_dir;
	}
	arm = arm64_count(arm_bin, self, "pib_convert", "frame 640 360 2");
	low_s = report("the low stream's YUV 4:2:0 -> RGB, a 640x360 frame", ir, frames, arm, &r_conv);

	/* A rest's full frame: made RGB and its snapshot coded (the reader's
	 * worker, every read). */
	if (counted(self, "pib_convert", "pib_snapshot", dir, "frame 4608 2592 1", &ir, line, sizeof(line)) ||
	    sscanf(line, "frames %d %dx%d jpeg %zu", &frames, &w, &h, &jpeg) != 4 || frames != 1 ||
	    w != 4608 || jpeg < 10000) {
		fprintf(stderr, "pi_budget: FAIL: full frame: %s\n", line);
		goto remove_dir;
	}
	full_s = report("a rest's 4608x2592 frame: YUV -> RGB and its snapshot's JPEG", ir, 1, 0, &r_conv);
	printf("  (JPEG %zu bytes)\n", jpeg);

	/* The face reader on located dice: the daemon's, and the general
	 * finder at the point (its fallback). */
	for (int k = 0; k < 2; k++) {
		snprintf(args, sizeof(args), "face %d %s", FACE_CROPS, k ? "at" : "near");
		if (counted(self, k ? "pib_face_at" : "pib_read_die", NULL, dir, args, &ir, line,
			    sizeof(line)) || sscanf(line, "reads %d right %d", &reads, &right) != 2 ||
		    reads != FACE_CROPS || (k == 0 && right * 10 < reads * 9)) {
			fprintf(stderr, "pi_budget: FAIL: faces (9 in 10 right at >= 0.8): %s\n", line);
			goto remove_dir;
		}
		if (k == 0) {
			arm = arm64_count(arm_bin, self, "pib_read_die", "face 1 near");
			face_s = report("face reader, a located 32 px die (vis_read_face_near)", ir, reads,
					arm, &r_face);
		} else {
			report("  the general finder there (vis_read_face_at)", ir, reads, 0, &r_face);
		}
		printf("  (%d of %d rest crops read right at >= 0.8)\n", right, reads);
	}

	/* The match step and the referee, a ruling a throw. */
	snprintf(args, sizeof(args), "rule 1000 %s", dir);
	if (counted(self, "pib_rule_throw", NULL, dir, args, &ir, line, sizeof(line)) ||
	    sscanf(line, "throws %d rulings %d failed %d score %d-%d judge %d-%d", &throws,
		   &rulings, &failed, &sc[0], &sc[1], &sc[2], &sc[3]) != 7 || throws < 5 ||
	    rulings != throws || failed || sc[0] != sc[2] || sc[1] != sc[3]) {
		fprintf(stderr, "pi_budget: FAIL: rulings (one a throw, the judge's score): %s\n", line);
		goto remove_dir;
	}
	snprintf(args, sizeof(args), "rule 1000 %s", dir);
	arm = arm64_count(arm_bin, self, "pib_rule_throw", args);
	rule_s = report("ruling, fusion + referee (db write included, fsync not)", ir, rulings, arm, &r_rule);
	printf("  (%d throws of sample-match.jsonl ruled, score %d-%d as dyeref judge)\n", throws,
	       sc[0], sc[1]);

	/* One core at the camera's rates: every frame converted and tracked
	 * (a throw's at the throw's cost) and a ruling a throw on the event
	 * loop; a rest's full frame and its read a throw on the face reader's
	 * thread (another core on a Pi 4's four; counted in all the same). */
	for (int k = 0; k < 2; k++) {
		double fps = k ? 56 : 14, loop, worker;

		loop = (low_s + empty_s) * fps;
		printf("%.0f fps, empty table: %.1f %% of one A72 core: %.3f of the limit (100 %%)\n",
		       fps, loop * 100, loop);
		loop = (low_s + throw_s) * fps + rule_s / THROW_EVERY_S;
		worker = (full_s + face_s) / THROW_EVERY_S;
		printf("%.0f fps, a throw every %.0f s: event loop %.1f %% + face reader %.1f %% of one "
		       "core: %.3f of the limit\n", fps, THROW_EVERY_S, loop * 100, worker * 100,
		       loop + worker);
	}
	rc = 0;
remove_dir:
	snprintf(line, sizeof(line), "rm -rf %s", dir);
	if (system(line) != 0)
		rc = 1;
	return rc;
}
