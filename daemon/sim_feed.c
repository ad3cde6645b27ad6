/* The live simulator: one match on the virtual table, played on the
 * daemon's clock (real speed, or [sim] speed's) into its observation sink. Its piezo edges go through the real
 * sensors pipeline, its calls and camera reports through the conversions
 * `dyeref evaluate` uses, so the demo shows the path the Pi runs. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/face_reader.h"
#include "daemon/feeds.h"
#include "daemon/fusion.h"
#include "daemon/inputs.h"
#include "sim/sim.h"
#include "vision/vision.h"

#define LEAD_IN_NS (2000 * 1000000LL)	/* from start to the first release */
#define CROP_PX 128			/* as `dyeref sim` renders them */

struct due {
	int64_t at_ns;		/* match clock: when the daemon would receive it */
	size_t seq;		/* the order it was added in: ties keep it */
	struct dd_obs o;	/* the observation (a rest with a crop: unread until read) */
	struct vis_image *crop;	/* owned: a rest's rendered crop, its face still to read; or NULL */
	struct dd_face_job job;	/* with crop: the read, on the match clock */
};

struct dd_sim_feed {
	struct dd_clock *clock;		/* borrowed */
	struct dd_timer *timer;		/* the next delivery */
	dd_obs_sink sink;		/* where observations go */
	void *user;			/* for sink */
	struct dd_face_reader *reader;	/* owned: reads rests' faces off the loop; every observation goes through it */
	struct due *due;		/* owned: the match's observations, by at_ns */
	size_t n, cap, at;		/* how many, allocated, next to deliver */
	int64_t base_ns;		/* the clock's time at match time 0 */
	struct dd_sim_snap snap;	/* the camera's picture of the latest rest */
};

static const char *const demo_players[BD_PLAYERS] = { "Ann", "Bo", "Cy", "Di" };

void dd_sim_feed_match_cfg(struct bd_match_cfg *cfg, char team_names[2][32])
{
	bd_match_cfg_init(cfg);
	for (int i = 0; i < BD_PLAYERS; i++)
		snprintf(cfg->players[i], sizeof(cfg->players[i]), "%s", demo_players[i]);
	snprintf(team_names[0], 32, "Orange");
	snprintf(team_names[1], 32, "Blue");
}

/* Adds o at `at`; a rest's crop (stolen, may be NULL) is read when it is due. */
static int add_rest(struct dd_sim_feed *f, int64_t at, const struct dd_obs *o,
		    struct vis_image *crop, const struct dd_face_job *job)
{
	if (f->n == f->cap) {
		size_t nc = f->cap ? f->cap * 2 : 512;
		struct due *nd = realloc(f->due, nc * sizeof(*nd));

		if (!nd) {
			vis_image_free(crop);
			return -ENOMEM;
		}
		f->due = nd;
		f->cap = nc;
	}
	f->due[f->n].at_ns = at;
	f->due[f->n].seq = f->n;
	f->due[f->n].o = *o;
	f->due[f->n].crop = crop;
	if (crop)
		f->due[f->n].job = *job;
	f->n++;
	return 0;
}

static int add(struct dd_sim_feed *f, int64_t at, const struct dd_obs *o)
{
	return add_rest(f, at, o, NULL, NULL);
}

static int cmp_due(const void *a, const void *b)
{
	const struct due *x = a, *y = b;

	/* qsort is not stable: observations due at one time go in the order
	 * the match made them, the same every run. */
	if (x->at_ns != y->at_ns)
		return (x->at_ns > y->at_ns) - (x->at_ns < y->at_ns);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Sensors observations completed at `at`, delivered then. */
static int add_sens(struct dd_sim_feed *f, int64_t at, const struct sens_obs *so, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct dd_obs o;

		dd_sensors_obs_to_fusion(&so[i], &o);
		if (add(f, at > o.t_ns ? at : o.t_ns, &o) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int run_pipeline(struct dd_sim_feed *f, struct sens_edge *e, size_t n,
			const struct sens_config *sc)
{
	struct sens_pipeline *p = sens_pipeline_new(sc);
	struct sens_obs so[16];
	int rc = 0;

	if (!p)
		return -errno;
	sens_edges_sort(e, n);
	for (size_t i = 0; i < n && rc == 0; i++) {
		/* As the sensors glue's timer: an impact completes a window
		 * after its last edge (and a microsecond), not when the next
		 * edge comes, which may be the next throw's landing seconds
		 * later: delivered then, a throw's last bounce was taken for
		 * the next throw's first landing. */
		int64_t due = e[i].ts_ns + sens_config_group_window_ns(sc) + 1000;

		rc = add_sens(f, e[i].ts_ns, so, sens_pipeline_push(p, &e[i], so, 16));
		if (rc == 0 && (i + 1 == n || e[i + 1].ts_ns > due))
			rc = add_sens(f, due, so, sens_pipeline_flush(p, due, so, 16));
	}
	if (rc == 0) {
		int64_t last = n ? e[n - 1].ts_ns + sens_config_group_window_ns(sc) + 1000 : 0;

		rc = add_sens(f, last, so, sens_pipeline_flush(p, INT64_MAX, so, 16));
	}
	sens_pipeline_free(p);
	return rc;
}

/* Plays the match and lays out every observation on the match clock. */
static int build(struct dd_sim_feed *f, uint64_t seed, int max_throws, char *err, size_t errlen)
{
	struct sim_match_cfg mc;
	struct sim_noise noise;
	struct sens_config sc;
	struct sim_rng rng, srng;
	struct sim_match *m = NULL;
	struct sens_edge *edges = NULL;
	size_t n_edges = 0, cap_edges = 0;
	int rc;

	sim_match_cfg_defaults(&mc);
	mc.rolloff = false;	/* the referee's match starts with team A */
	if (max_throws > 0 && max_throws < mc.max_throws)
		mc.max_throws = max_throws;
	sim_noise_defaults(&noise, 1);
	sim_sens_config(&sc);
	sim_rng_seed(&rng, seed);
	sim_rng_seed(&srng, seed ^ 0x5e115e5ULL);
	rc = sim_match_play(&mc, &sc.table, 0, &rng, &m, err, errlen);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < m->n_throws && rc == 0; i++) {
		const struct sim_throw *t = &m->throws[i];
		struct sim_call calls[16];
		struct sim_cam cams[8];
		size_t nc, nk;

		rc = sim_sense_edges(&noise, &sc, t, &srng, &edges, &n_edges, &cap_edges);
		nc = sim_sense_calls(&noise, t, &srng, calls, 16);
		for (size_t k = 0; k < nc && rc == 0; k++) {
			struct dd_obs o;

			dd_obs_from_sim_call(&calls[k], &o);
			rc = add(f, calls[k].t_ns, &o);
		}
		nk = sim_sense_camera(&noise, t, &srng, cams, 8);
		for (size_t k = 0; k < nk && rc == 0; k++) {
			struct vis_image *crop = NULL;
			struct dd_face_job job;
			struct dd_obs o;

			/* Rendered now (the noise's draws keep their order), read
			 * when due: off the loop, by the reader. */
			if (cams[k].kind == SIM_CAM_REST)
				crop = sim_render_rest_crop(&noise, &sc.table, t->rest_x, t->rest_y,
							    cams[k].x, cams[k].y, t->rest_face,
							    2 * M_PI * sim_rng_uniform(&srng), CROP_PX, &srng);
			dd_obs_from_sim_cam(&cams[k], NULL, &o);	/* the rest unread, until read */
			if (crop && dd_face_job_from_sim_cam(&cams[k], crop, &job) < 0) {
				vis_image_free(crop);
				crop = NULL;
			}
			rc = add_rest(f, cams[k].t_ns, &o, crop, &job);
		}
	}
	if (rc == 0)
		rc = run_pipeline(f, edges, n_edges, &sc);
	if (rc < 0)
		snprintf(err, errlen, "simulator: %s", strerror(-rc));
	else
		qsort(f->due, f->n, sizeof(f->due[0]), cmp_due);
	free(edges);
	sim_match_free(m);
	return rc;
}

static void on_timer(void *user)
{
	struct dd_sim_feed *f = user;
	int64_t now = dd_clock_now(f->clock);

	while (f->at < f->n && f->base_ns + f->due[f->at].at_ns <= now) {
		struct due *d = &f->due[f->at++];
		struct dd_obs o = d->o;
		int rc;

		/* Observations carry the daemon's clock, as the real inputs do. */
		o.t_ns += f->base_ns;
		o.ev.t_ns = o.t_ns;
		for (int k = 0; k < o.n_arrivals; k++)
			o.arrival_ns[k] += f->base_ns;
		if (o.kind == DD_OBS_TABLE_DEAF)
			o.until_ns += f->base_ns;
		if (d->crop) {
			struct dd_face_job job = d->job;

			/* As the camera glue's rest: read off the loop, the rest
			 * sent when read, after what came before it. */
			job.t_ns += f->base_ns;
			/* The picture the face is read on is the throw's snapshot. */
			if (dd_sim_snap_keep(&f->snap, d->crop, &job) < 0)
				dd_log(DD_LOG_WARN, "simulator: a rest's snapshot not kept (out of memory)");
			rc = dd_face_reader_read(f->reader, d->crop, &job);
			vis_image_free(d->crop);
			d->crop = NULL;
			if (rc == 0)
				continue;
			dd_log(DD_LOG_WARN, "simulator: a rest's face left unread: %s",
			       rc == -EBUSY ? "too many reads waiting" : strerror(-rc));
			/* o is the rest unread: the official reads it */
		}
		if (dd_face_reader_pass(f->reader, &o) < 0)
			dd_log(DD_LOG_WARN, "simulator: out of memory: an observation dropped");
	}
	if (f->at < f->n)
		dd_timer_arm(f->timer, f->base_ns + f->due[f->at].at_ns);
}

/* A read back: the face and where the die was found, on the picture. */
static void on_read(void *user, const struct dd_face_read *rd)
{
	struct dd_sim_feed *f = user;

	dd_sim_snap_read(&f->snap, rd);
}

int dd_sim_feed_snapshot(struct dd_sim_feed *f, struct db *db, int64_t match, int throw_no,
			 int64_t since_ns, char *err, size_t errlen)
{
	return dd_sim_snap_store(&f->snap, db, match, throw_no, since_ns, err, errlen);
}

struct dd_sim_feed *dd_sim_feed_new(sd_event *ev, struct dd_clock *clock, uint64_t seed,
				    int max_throws, dd_obs_sink sink, void *user, char *err,
				    size_t errlen)
{
	struct dd_sim_feed *f = calloc(1, sizeof(*f));
	int rc;

	if (!f) {
		snprintf(err, errlen, "simulator: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	f->clock = clock;
	f->sink = sink;
	f->user = user;
	f->reader = dd_face_reader_new(ev, clock, sink, user, err, errlen);
	if (!f->reader) {
		rc = -errno;
		goto free_feed;
	}
	dd_face_reader_set_read_sink(f->reader, on_read, f);
	rc = build(f, seed, max_throws, err, errlen);
	if (rc < 0)
		goto free_feed;
	if (f->n == 0) {
		snprintf(err, errlen, "simulator: a match without observations");
		rc = -EINVAL;
		goto free_feed;
	}
	/* A faster clock ([sim] speed) would give a read that much less real
	 * time: the limit stays a limit on the machine's work. */
	dd_face_reader_set_limit(f->reader, dd_clock_span(clock, DD_FACE_READ_LIMIT_NS));
	f->base_ns = dd_clock_now(clock) + LEAD_IN_NS - f->due[0].at_ns;
	/* The clock's timers wake within a microsecond: impacts reach fusion
	 * a grouping window after they happen (bench/daemon_sim_impacts). */
	f->timer = dd_timer_new(clock, on_timer, f);
	if (!f->timer) {
		rc = -errno;
		snprintf(err, errlen, "simulator: timer: %s", strerror(errno));
		goto free_feed;
	}
	dd_timer_arm(f->timer, f->base_ns + f->due[0].at_ns);
	return f;

free_feed:
	dd_sim_feed_free(f);
	errno = -rc;
	return NULL;
}

void dd_sim_feed_set_read_limit(struct dd_sim_feed *f, int64_t limit_ns)
{
	dd_face_reader_set_limit(f->reader, limit_ns);
}

void dd_sim_feed_free(struct dd_sim_feed *f)
{
	if (!f)
		return;
	/* First: no late rest reaches the sink once the feeder is gone. */
	dd_face_reader_free(f->reader);
	dd_timer_free(f->timer);
	for (size_t i = 0; i < f->n; i++)
		vis_image_free(f->due[i].crop);
	free(f->due);
	dd_sim_snap_clear(&f->snap);
	free(f);
}

bool dd_sim_feed_spent(const struct dd_sim_feed *f)
{
	return f && f->at == f->n && dd_face_reader_pending(f->reader) == 0;
}
