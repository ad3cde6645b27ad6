/* `dyeref evaluate DIR`: referees what `dyeref sim` recorded, through the
 * daemon's own path (sensors pipeline -> the match step: fusion ->
 * bd_judge, review as dd_referee_throw decides it), and compares every
 * ruling with the truth. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>

#include "daemon/daemon.h"
#include "daemon/feeds.h"
#include "daemon/fusion.h"
#include "daemon/inputs.h"
#include "daemon/match_step.h"
#include "sim/sim.h"

static int read_file(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0 || n > (long)MLOG_MAX_INPUT ||
	    fseek(f, 0, SEEK_SET) < 0) {
		fclose(f);
		snprintf(err, errlen, "%s: cannot read (or larger than %u bytes)", path, MLOG_MAX_INPUT);
		return -EINVAL;
	}
	*buf = malloc((size_t)n + 1);
	if (!*buf || fread(*buf, 1, (size_t)n, f) != (size_t)n) {
		free(*buf);
		*buf = NULL;
		fclose(f);
		snprintf(err, errlen, "%s: read failed", path);
		return -EIO;
	}
	(*buf)[n] = '\0';
	*len = (size_t)n;
	fclose(f);
	return 0;
}

/* One input item on the match clock: an edge, a console call, a camera report. */
enum item_kind { IT_EDGE, IT_OBS };

struct item {
	int64_t t_ns;
	enum item_kind kind;
	size_t seq;		/* order read: the sort's last key */
	struct sens_edge edge;	/* EDGE */
	struct dd_obs obs;	/* OBS: console or camera, ready for fusion */
};

struct items {
	struct item *v;
	size_t n, cap;
};

static struct item *item_new(struct items *it)
{
	if (it->n == it->cap) {
		size_t nc = it->cap ? it->cap * 2 : 1024;
		struct item *nv = realloc(it->v, nc * sizeof(*nv));

		if (!nv)
			return NULL;
		it->v = nv;
		it->cap = nc;
	}
	memset(&it->v[it->n], 0, sizeof(it->v[0]));
	it->v[it->n].seq = it->n;
	return &it->v[it->n++];
}

/* Time, then kind, then the order read: qsort is not stable, and items
 * alike in time and kind (two calls at one instant) must reach fusion in
 * the same order on every libc. */
static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return (x->t_ns > y->t_ns) - (x->t_ns < y->t_ns);
	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* A JSON Lines file of console calls or camera reports, into items. */
static int read_reports(const char *mdir, const char *file, bool camera, bool tracked,
			struct items *it, char *err, size_t errlen)
{
	struct sim_report *r = NULL;
	char path[4200], *buf = NULL;
	size_t len, n = 0;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", mdir, file);
	rc = read_file(path, &buf, &len, err, errlen);
	if (rc < 0)
		return rc;
	rc = sim_reports_parse(path, buf, len, camera, &r, &n, err, errlen);
	free(buf);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		struct item *x;

		/* With frames, the tracker reports sinks, landings, mine contacts
		 * and exits itself (the model stands in for them without). */
		if (camera && tracked && r[i].cam.kind != SIM_CAM_REST && r[i].cam.kind != SIM_CAM_TOSS)
			continue;
		x = item_new(it);
		if (!x) {
			rc = -ENOMEM;
			break;
		}
		x->kind = IT_OBS;
		if (!camera) {
			x->t_ns = r[i].call.t_ns;
			dd_obs_from_sim_call(&r[i].call, &x->obs);
		} else {
			struct vis_image *img = NULL;

			x->t_ns = r[i].cam.t_ns;
			if (r[i].cam.kind == SIM_CAM_REST) {
				char cpath[4400], verr[256];

				snprintf(cpath, sizeof(cpath), "%s/%s", mdir, r[i].crop);
				rc = vis_image_load(cpath, &img, verr, sizeof(verr));
				if (rc < 0) {
					snprintf(err, errlen, "%s: %s", path, verr);
					rc = -EINVAL;
					break;
				}
			}
			dd_obs_from_sim_cam(&r[i].cam, img, &x->obs);
			vis_image_free(img);
		}
	}
	free(r);
	return rc;
}

/* --frames: each throw's low-resolution stream through vision's tracker,
 * calibrated to the renderer's view, as the camera glue would run it. The
 * tracker's releases, landings (with the apex from the flight time) and
 * sinks replace the modelled camera reports; rests keep their crops. */
static int read_frames(const char *mdir, struct items *it, long *frames_seen, char *err,
		       size_t errlen)
{
	struct vis_render_scene view;
	struct vis_tracker_cfg tc;
	struct bd_table tb;
	double img_to_table[9];
	char path[4200], *buf = NULL, *line, *save = NULL;
	size_t len;
	int rc, lineno = 0;

	snprintf(path, sizeof(path), "%s/frames.jsonl", mdir);
	rc = read_file(path, &buf, &len, err, errlen);
	if (rc < 0)
		return rc;
	bd_table_defaults(&tb);
	vis_render_scene_default(&view);
	if (vis_homography_invert(view.h, img_to_table) < 0) {
		snprintf(err, errlen, "%s: the renderer's view cannot be inverted", path);
		rc = -EINVAL;
		goto free_buf;
	}
	vis_tracker_cfg_default(&tc, &tb, img_to_table);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_error_t je;
		json_t *j = json_loads(line, JSON_REJECT_DUPLICATES, &je);
		json_int_t t0 = -1, fps = 0;
		const char *file = NULL;
		struct vis_tracker *trk = NULL;
		struct vis_y4m *y;
		struct vis_image *img = NULL;
		char fpath[4400], verr[256];
		int w, h, fn, fd, k = 0;

		lineno++;
		if (!j || json_unpack(j, "{s:s,s:I,s:I}", "file", &file, "t0_ns", &t0, "fps", &fps) < 0 ||
		    t0 < 0 || fps < 1 || fps > 1000 || strchr(file, '/') || file[0] == '.') {
			snprintf(err, errlen, "%s:%d: needs file (a plain name), t0_ns >= 0, fps 1..1000",
				 path, lineno);
			json_decref(j);
			rc = -EINVAL;
			goto free_buf;
		}
		snprintf(fpath, sizeof(fpath), "%s/%s", mdir, file);
		json_decref(j);
		y = vis_y4m_open(fpath, verr, sizeof(verr));
		if (!y) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, verr);
			rc = -EINVAL;
			goto free_buf;
		}
		vis_y4m_info(y, &w, &h, &fn, &fd);
		if (w != view.width || h != view.height)
			trk = NULL;
		else
			trk = vis_tracker_new(&tc, w, h);
		if (!trk) {
			snprintf(err, errlen, "%s: %dx%d frames: not the calibrated %dx%d view", fpath, w, h,
				 view.width, view.height);
			vis_y4m_close(y);
			rc = -EINVAL;
			goto free_buf;
		}
		while ((rc = vis_y4m_read(y, &img, verr, sizeof(verr))) == 1) {
			struct vis_obs vo[8];
			int n;

			img->ts_ns = t0 + (int64_t)k * (1000000000LL / fps);
			/* The first frames, before the release, show the empty table. */
			if (k < 3)
				vis_tracker_learn(trk, img);
			n = vis_tracker_feed(trk, img, vo, 8);
			for (int i = 0; i < n; i++) {
				struct item *x;
				struct bd_event ev;

				/* A die that leaves the view above the camera and comes
				 * back is a new track and a new "release": the modelled
				 * toss report stands in for releases. */
				if (vo[i].kind == VIS_OBS_REST || vo[i].kind == VIS_OBS_RELEASE)
					continue;
				x = item_new(it);
				if (!x) {
					rc = -ENOMEM;
					break;
				}
				x->t_ns = vo[i].t_ns;
				x->kind = IT_OBS;
				x->obs.source = DD_SRC_CAMERA;
				x->obs.t_ns = vo[i].t_ns;
				x->obs.confidence = vo[i].confidence;
				if (vo[i].kind == VIS_OBS_OFF_TABLE) {
					/* As the camera glue sends it. */
					x->obs.kind = DD_OBS_OFF_TABLE;
					x->obs.ev.kind = BD_EV_FLOOR;
					x->obs.ev.player = BD_NOBODY;
					x->obs.ev.has_xy = true;
					x->obs.ev.x = vo[i].x;
					x->obs.ev.y = vo[i].y;
				} else if (vis_obs_to_event(&vo[i], &tb, &ev) == 0) {
					x->obs.kind = DD_OBS_EVENT;
					x->obs.ev = ev;
					x->obs.confidence = ev.confidence;	/* as the camera glue */
					if (vo[i].kind == VIS_OBS_LANDING && vo[i].apex_m > 0) {
						struct item *a = item_new(it);

						if (!a) {
							rc = -ENOMEM;
							break;
						}
						x = &it->v[it->n - 2];	/* item_new may move the array */
						a->t_ns = vo[i].t_ns;
						a->kind = IT_OBS;
						a->obs.kind = DD_OBS_APEX;
						a->obs.source = DD_SRC_CAMERA;
						a->obs.t_ns = vo[i].t_ns;
						a->obs.confidence = vo[i].confidence;
						a->obs.apex_m = vo[i].apex_m;
						a->obs.apex_sd_m = vo[i].apex_sigma_m;
					}
				} else {
					it->n--;	/* no event behind it */
				}
			}
			vis_image_free(img);
			img = NULL;
			k++;
			if (rc < 0)
				break;
		}
		vis_tracker_free(trk);
		vis_y4m_close(y);
		if (rc < 0) {
			if (rc != -ENOMEM)
				snprintf(err, errlen, "%s", verr);
			goto free_buf;
		}
		*frames_seen += k;
	}
	rc = 0;
free_buf:
	free(buf);
	return rc;
}

/* The camera's reports in one match's items against the truth throws. */
static void camera_stats(const struct items *it, const struct sim_truth *tr, size_t n, struct sim_tally *ty)
{
	struct bd_table tb;

	bd_table_defaults(&tb);
	for (size_t k = 0; k < n; k++) {
		const struct bd_throw *t = tr[k].t;
		const struct bd_event *first = NULL, *last = NULL;
		int64_t lo = tr[k].t_first - 500000000LL, hi = tr[k].t_end;
		bool exit = false, land_found = false;

		for (size_t j = 0; j < t->n_events; j++) {
			const struct bd_event *e = &t->events[j];

			if (e->kind == BD_EV_TABLE && !first)
				first = e;
			if (e->kind == BD_EV_MINE)
				ty->cm_truth++;
			if (e->kind != BD_EV_LOW_CALL)
				last = e;
		}
		if (first)
			ty->cl_truth++;
		bool left = last && (last->kind == BD_EV_FLOOR || last->kind == BD_EV_CATCH);
		ty->ce_truth += left;
		for (size_t i = 0; i < it->n; i++) {
			const struct item *x = &it->v[i];
			const struct dd_obs *o = &x->obs;

			if (x->kind != IT_OBS || o->source != DD_SRC_CAMERA || o->t_ns < lo || o->t_ns > hi)
				continue;
			if (o->kind == DD_OBS_OFF_TABLE)
				exit = true;
			if (o->kind != DD_OBS_EVENT)
				continue;
			if (o->ev.kind == BD_EV_TABLE) {
				if (first && !land_found && llabs(o->t_ns - first->t_ns) < 100000000LL) {
					land_found = true;
					ty->cl_found++;
					if (ty->cl_err_n < (long)(sizeof(ty->cl_err) / sizeof(ty->cl_err[0])))
						ty->cl_err[ty->cl_err_n++] = hypot(o->ev.x - first->x, o->ev.y - first->y);
					sim_tally_cal(ty->cl_cal_n, ty->cl_cal_ok, ty->cl_cal_sum, o->confidence,
						o->ev.half == first->half);
				} else {
					ty->cl_other++;
				}
			} else if (o->ev.kind == BD_EV_MINE) {
				bool hit = false;

				for (size_t j = 0; j < t->n_events && !hit; j++)
					hit = t->events[j].kind == BD_EV_MINE &&
					      llabs(t->events[j].t_ns - o->t_ns) < 150000000LL;
				ty->cm_tp += hit;
				ty->cm_fp += !hit;
			}
		}
		ty->ce_tp += left && exit;
		ty->ce_fp += !left && exit;
	}
}

/* --verbose: one throw's events on one line, times from t0 in ms. */
static void print_events(const char *label, const struct bd_throw *t, int64_t t0)
{
	static const char *const kinds[] = { "table", "cup", "mine", "floor", "rest",
					     "catch", "kick", "low", "retoss" };
	static const char *const halves[] = { "A", "B", "line" };

	printf("   %s:", label);
	for (size_t i = 0; i < t->n_events; i++) {
		const struct bd_event *e = &t->events[i];

		printf(" %s@%lld",
		       (size_t)e->kind < sizeof(kinds) / sizeof(kinds[0]) ? kinds[e->kind] : "?",
		       (long long)((e->t_ns - t0) / 1000000));
		if (e->kind == BD_EV_TABLE)
			printf("(%s%s",
			       (size_t)e->half < sizeof(halves) / sizeof(halves[0]) ? halves[e->half] : "?",
			       e->has_xy ? "" : ")");
		if (e->kind == BD_EV_TABLE && e->has_xy)
			printf(" %.3f,%.3f)", e->x, e->y);
		if (e->kind == BD_EV_CUP)
			printf("(p%d%s%s)", e->player, e->sink ? " sink" : "", e->popout ? " pop" : "");
		if (e->kind == BD_EV_REST)
			printf("(%d)", e->face);
		if (e->has_confidence)
			printf("[%.2f %s]", e->confidence, e->source);
	}
	printf(" apex %.2f\n", t->apex_m);
}

/* Compares one fused throw with the truth throw it belongs to. */
/* The daemon's own view: every fused throw judged against the state its
 * own rulings built (review mode "count"), as dd_referee_throw folds. */
static void fold_own(const struct bd_match_cfg *cfg, struct bd_state *own, const struct dd_fused *fx)
{
	struct bd_ruling r;
	char err[256], why[sizeof(fx->review_why)];

	if (!own->over && dd_fused_judge(cfg, own, fx, &r, why, sizeof(why), err, sizeof(err)) == 0)
		bd_apply(own, cfg, &r);
}

static void score_throw(const struct bd_match_cfg *cfg, struct sim_truth *tr, size_t n_truth,
			const struct dd_fused *fx, int64_t t_done, struct sim_tally *ty, bool verbose,
			const char *mdir, struct bd_state *own)
{
	struct sim_truth *t;
	struct bd_ruling r;
	char err[256], why[sizeof(fx->review_why)];
	bool review, right;

	fold_own(cfg, own, fx);
	t = sim_truth_for(tr, n_truth, fx->t_start_ns);
	if (!t || t->seen) {
		ty->spurious++;
		if (!fx->review)
			ty->silent++;
		else
			ty->review++;
		return;
	}
	t->seen = true;
	/* As dd_referee_throw: a guessed kick order judged both ways. */
	if (dd_fused_judge(cfg, &t->before, fx, &r, why, sizeof(why), err, sizeof(err)) < 0) {
		ty->unjudgeable++;
		ty->review++;
		return;
	}
	review = r.review;
	right = dd_ruling_same_outcome(&r, &t->ruling);
	if (review) {
		ty->review++;
		ty->review_right += right;
	} else if (right) {
		ty->right++;
	} else {
		ty->silent++;
	}
	if (verbose && (!right || review))
		printf("%s throw %ld: %s%s (truth %d-%d, ruled %d-%d) %s\n", mdir,
		       (long)(t - tr) + 1, right ? "right" : "WRONG", review ? " review" : "",
		       t->ruling.points[0], t->ruling.points[1], r.points[0], r.points[1], why);
	if (verbose && (!right || review)) {
		print_events("truth", t->t, t->t_first);
		print_events("fused", &fx->t, t->t_first);
	}
	sim_score_events(ty, t, &fx->t, t_done);
}

struct run {
	struct dd_fusion fusion;
	struct dd_step step;	/* the daemon's: fusion -> score_throw, won: truth_won */
	struct sens_pipeline *pipe;
	struct dd_fused fx;
	const struct bd_match_cfg *cfg;
	struct sim_truth *tr;
	size_t n_truth;
	struct sim_tally *ty;
	bool verbose;
	const char *mdir;
	struct bd_state own;	/* the referee's own fold of its rulings */
	bool truth_over;	/* the truth's match ends won (its last throw wins it) */
};

/* The match step's judge: the throw scored against the truth, folded. */
static void fused(void *user, const struct dd_fused *fx, int64_t at_ns)
{
	struct run *rn = user;

	score_throw(rn->cfg, rn->tr, rn->n_truth, fx, at_ns, rn->ty, rn->verbose, rn->mdir,
		    &rn->own);
}

/* The game is won (BD-W1) once the truth's winning throw is in. Each throw
 * is scored from the truth's state before it, as an official would have
 * kept the referee's (correcting what it got wrong), so the game is won
 * when the truth's is: the referee's own fold (own) winning early on a
 * wrong ruling would leave the rest of the match out, counting one error
 * again as every throw after it missed (final_scores_right counts it). */
static bool truth_won(void *user)
{
	const struct run *rn = user;

	return rn->truth_over && rn->n_truth && rn->tr[rn->n_truth - 1].seen;
}

/* Serve's fusion timer, never late: a throw complete by now is judged at
 * its deadline. */
static void tick(struct run *rn, int64_t now)
{
	int64_t at = dd_fusion_deadline(&rn->fusion);

	if (at <= now)
		dd_step_tick(&rn->step, at);
}

static void feed(struct run *rn, const struct dd_obs *o)
{
	tick(rn, o->t_ns);
	dd_step_obs(&rn->step, o);
}

static void feed_sens(struct run *rn, const struct sens_obs *so, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct dd_obs o;

		dd_sensors_obs_to_fusion(&so[i], &o);
		feed(rn, &o);
	}
}

/* Referees one match directory; adds to ty. */
static int eval_match(const char *mdir, struct sim_tally *ty, bool verbose, bool track, char *err,
		      size_t errlen)
{
	struct mlog_bd *log = NULL;
	struct mlog_bd_result res = { 0 };
	struct items it = { 0 };
	struct sens_edge *edges = NULL;
	struct sens_config sc;
	struct dd_fusion_cfg fc;
	struct sim_truth *tr = NULL;
	struct sens_obs so[16];
	struct run rn;
	char path[4200], *buf = NULL;
	size_t len, n_edges = 0, k = 0;
	bool tracked;
	int rc;

	snprintf(path, sizeof(path), "%s/truth.jsonl", mdir);
	rc = read_file(path, &buf, &len, err, errlen);
	if (rc < 0)
		return rc;
	rc = mlog_bd_parse(path, buf, len, &log, err, errlen);
	free(buf);
	buf = NULL;
	if (rc < 0)
		return rc;
	rc = mlog_bd_replay(log, &res, err, errlen);
	if (rc < 0)
		goto free_log;
	rc = sim_truths(log, &res, &tr, &k);
	if (rc < 0)
		goto free_res;
	ty->throws += (long)k;

	snprintf(path, sizeof(path), "%s/edges.txt", mdir);
	rc = read_file(path, &buf, &len, err, errlen);
	if (rc < 0)
		goto free_truth;
	rc = sens_edges_parse(path, buf, len, &edges, &n_edges, err, errlen);
	free(buf);
	if (rc < 0)
		goto free_truth;
	for (size_t i = 0; i < n_edges; i++) {
		struct item *x = item_new(&it);

		if (!x) {
			rc = -ENOMEM;
			goto free_items;
		}
		x->t_ns = edges[i].ts_ns;
		x->kind = IT_EDGE;
		x->edge = edges[i];
	}
	tracked = track;
	rc = read_reports(mdir, "calls.jsonl", false, false, &it, err, errlen);
	if (rc == 0)
		rc = read_reports(mdir, "camera.jsonl", true, tracked, &it, err, errlen);
	if (rc == 0 && tracked)
		rc = read_frames(mdir, &it, &ty->frames, err, errlen);
	if (rc < 0)
		goto free_items;
	qsort(it.v, it.n, sizeof(it.v[0]), cmp_item);

	camera_stats(&it, tr, k, ty);
	/* The daemon's path: the simulated table's wiring, fusion as
	 * configured by default, the camera present as on the Pi (its
	 * landings, mine contacts, exits, sinks and rests: tracked, or
	 * modelled on the tracker, docs/simulator.md). */
	sim_sens_config(&sc);
	memset(&rn, 0, sizeof(rn));
	rn.pipe = sens_pipeline_new(&sc);
	if (!rn.pipe) {
		rc = -errno;
		snprintf(err, errlen, "%s: sensors pipeline: %s", mdir, strerror(errno));
		goto free_items;
	}
	dd_fusion_cfg_defaults(&fc);
	fc.camera_present = true;
	dd_fusion_init(&rn.fusion, &fc);
	rn.step = (struct dd_step){ .fusion = &rn.fusion, .fx = &rn.fx, .judge = fused,
				    .won = truth_won, .user = &rn };
	rn.truth_over = res.state.over;
	rn.cfg = &log->cfg;
	rn.tr = tr;
	rn.n_truth = k;
	rn.ty = ty;
	rn.verbose = verbose;
	rn.mdir = mdir;
	bd_state_init(&rn.own, &log->cfg);
	for (size_t i = 0; i < it.n; i++) {
		const struct item *x = &it.v[i];
		size_t n;

		n = sens_pipeline_flush(rn.pipe, x->t_ns, so, 16);
		feed_sens(&rn, so, n);
		tick(&rn, x->t_ns);
		if (x->kind == IT_EDGE) {
			n = sens_pipeline_push(rn.pipe, &x->edge, so, 16);
			feed_sens(&rn, so, n);
		} else {
			feed(&rn, &x->obs);
		}
	}
	feed_sens(&rn, so, sens_pipeline_flush(rn.pipe, INT64_MAX, so, 16));
	tick(&rn, INT64_MAX - 1);
	for (size_t i = 0; i < k; i++)
		if (!tr[i].seen) {
			ty->missed++;
			ty->silent++;
			if (verbose)
				printf("%s throw %zu: MISSED\n", mdir, i + 1);
		}
	ty->matches++;
	if (rn.own.score[0] == res.state.score[0] && rn.own.score[1] == res.state.score[1] &&
	    rn.own.over == res.state.over)
		ty->finals_right++;
	else if (verbose)
		printf("%s: final %d-%d, truth %d-%d\n", mdir, rn.own.score[0], rn.own.score[1],
		       res.state.score[0], res.state.score[1]);
	sens_pipeline_free(rn.pipe);
	rc = 0;
free_items:
	free(it.v);
	free(edges);
free_truth:
	free(tr);
free_res:
	mlog_bd_result_free(&res);
free_log:
	mlog_bd_free(log);
	return rc;
}

int dd_cmd_evaluate(int argc, char **argv)
{
	static const char usage[] = "usage: dyeref evaluate [--verbose] [--track-frames] DIR";
	struct sim_tally ty = { 0 };
	struct timespec a, b;
	const char *dir = NULL;
	bool verbose = false, track = false;
	char err[9000], mdir[4096], probe[4200];
	int matches = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("%s\n", usage);
			return DD_EXIT_OK;
		} else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v")) {
			verbose = true;
		} else if (!strcmp(argv[i], "--track-frames")) {
			track = true;
		} else if (!dir && argv[i][0] != '-') {
			dir = argv[i];
		} else {
			dd_log(DD_LOG_ERR, "evaluate: unexpected argument '%s' (%s)", argv[i], usage);
			return DD_EXIT_USAGE;
		}
	}
	if (!dir) {
		dd_log(DD_LOG_ERR, "evaluate: DIR is required (%s)", usage);
		return DD_EXIT_USAGE;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	for (int k = 1; k < 100000; k++) {
		FILE *f;
		int rc;

		snprintf(mdir, sizeof(mdir), "%.4000s/match-%03d", dir, k);
		snprintf(probe, sizeof(probe), "%s/truth.jsonl", mdir);
		f = fopen(probe, "r");
		if (!f)
			break;
		fclose(f);
		rc = eval_match(mdir, &ty, verbose, track, err, sizeof(err));
		if (rc < 0) {
			dd_log(DD_LOG_ERR, "%s", err);
			sim_tally_free(&ty);
			return rc == -ENOMEM || rc == -EIO ? DD_EXIT_FAIL : DD_EXIT_USAGE;
		}
		matches++;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	if (!matches) {
		dd_log(DD_LOG_ERR, "evaluate: %s: no match-NNN/truth.jsonl (made by dyeref sim)", dir);
		return DD_EXIT_USAGE;
	}
	ty.cpu_s = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
	printf("matches %d\n", matches);
	sim_tally_print(&ty, stdout);
	sim_tally_free(&ty);
	return DD_EXIT_OK;
}
