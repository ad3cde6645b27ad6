/* The demo feeder: a sample match's throws replayed as the observations the
 * table's sensors, the camera and an official would report, on the daemon's
 * clock (real speed, or [sim] speed's), through the same sink (and so the same fusion) as the real inputs. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/feeds.h"
#include "daemon/fusion.h"
#include "daemon/face_reader.h"
#include "daemon/inputs.h"
#include "sim/sim.h"
#include "vision/vision.h"

/* A match to 10 that shows most of the rules: points, a cup hit, a sink, a
 * short throw, the line, a five at rest, the mine, catches, a low call and a
 * throw the camera missed (review). Players by name, as in a match log. */
static const char sample_log[] =
	"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"Ann\",\"Bo\"],\"B\":[\"Cy\",\"Di\"]}}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":1.9,\"y\":0.4},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":2.1,\"y\":0.8},{\"at\":\"catch\",\"by\":\"Cy\",\"hands\":1}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.5,\"y\":0.7},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.3,\"y\":0.2},{\"at\":\"cup\",\"owner\":\"Ann\"},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":2.2,\"y\":0.2},{\"at\":\"cup\",\"owner\":\"Cy\",\"sink\":true}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.9,\"y\":0.6},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.7,\"y\":0.5},{\"at\":\"rest\",\"face\":5}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.4,\"y\":1.0},{\"at\":\"catch\",\"by\":\"Ann\",\"hands\":2}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":1.8,\"y\":0.9},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":2.0,\"y\":1.0},{\"at\":\"cup\",\"owner\":\"Di\"},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"mine\"},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.6,\"y\":0.3},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"low_call\",\"by\":\"Cy\"},{\"at\":\"table\",\"half\":\"B\",\"x\":1.7,\"y\":0.6},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":1.95,\"y\":0.3},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"line\",\"x\":1.22,\"y\":0.6},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.8,\"y\":0.9},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":2.25,\"y\":0.25},{\"at\":\"cup\",\"owner\":\"Cy\"},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":1.6,\"y\":0.5},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.5,\"y\":0.5},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.4,\"y\":0.8},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":2.0,\"y\":0.7},{\"at\":\"floor\"}]}\n";

/* The throw whose landing the camera "misses": fusion asks for review. */
#define MISSED_BY_CAMERA 14

#define TOSS_TO_LANDING_NS (1200 * 1000000LL)	/* up 3 m and down again */
#define BETWEEN_EVENTS_NS (300 * 1000000LL)	/* bounces, a cup, the floor */
#define CAMERA_LAG_NS (25 * 1000000LL)		/* the camera's landing frame after the piezo edge */
#define BETWEEN_THROWS_NS (3500 * 1000000LL)	/* picking up the die, "DYE UP!" */
#define MAX_SCHEDULE 12				/* observations of one throw */
#define CROP_PX 128				/* a rest's picture, as the simulator's */

struct dd_demo {
	struct dd_clock *clock;		/* borrowed */
	struct dd_timer *timer;		/* next observation due */
	dd_obs_sink sink;		/* where observations go */
	void *user;			/* for sink */
	struct mlog_bd *log;		/* owned: the sample */
	size_t next_throw;		/* entries index of the next throw to play */
	size_t n_sched, at_sched;	/* scheduled observations, next to send */
	struct dd_obs sched[MAX_SCHEDULE];	/* this throw's, t_ns absolute */
	double rest_x, rest_y;		/* this throw's landing: where a rest is drawn */
	struct sim_noise noise;		/* the rest's picture: the simulator's renderer */
	struct sim_rng rng;		/* its grain and the die's turn */
	struct dd_sim_snap snap;	/* the camera's picture of the latest rest */
};

static void add(struct dd_demo *d, enum dd_obs_kind kind, enum dd_source src, int64_t t,
		double conf, const struct bd_event *ev)
{
	struct dd_obs *o;

	if (d->n_sched == MAX_SCHEDULE)
		return;
	o = &d->sched[d->n_sched++];
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->source = src;
	o->t_ns = t;
	o->confidence = conf;
	if (ev) {
		o->ev = *ev;
		o->ev.has_confidence = false;
		o->ev.source[0] = '\0';
	}
}

/* Which witness reports what: the table's piezos feel impacts, the camera
 * sees landings and the face at rest, the official calls the rest. */
static void schedule_throw(struct dd_demo *d, const struct bd_throw *t, int number, int64_t t0)
{
	int64_t at = t0 + TOSS_TO_LANDING_NS;

	d->n_sched = d->at_sched = 0;
	d->rest_x = 1.22;
	d->rest_y = 0.3;
	add(d, DD_OBS_TOSS, DD_SRC_CAMERA, t0, 0.9, NULL);
	for (size_t i = 0; i < t->n_events; i++, at += BETWEEN_EVENTS_NS) {
		const struct bd_event *ev = &t->events[i];

		switch (ev->kind) {
		case BD_EV_TABLE: {
			struct dd_obs *o;

			if (ev->has_xy) {
				d->rest_x = ev->x;
				d->rest_y = ev->y;
			}
			add(d, DD_OBS_EVENT, DD_SRC_PIEZO, at, 0.9, ev);
			o = &d->sched[d->n_sched - 1];
			o->sigma_m = 0.03;
			o->n_arrivals = 4;
			for (int k = 0; k < 4; k++) {
				double sx = (k & 1) ? 1.83 : 0.61, sy = (k & 2) ? 0.92 : 0.30;
				double dist = ev->has_xy ? sqrt((ev->x - sx) * (ev->x - sx) +
								(ev->y - sy) * (ev->y - sy)) : 0.5;

				o->arrival_sensor[k] = k;
				/* ~500 m/s flexural waves in 18 mm plywood */
				o->arrival_ns[k] = at + (int64_t)(dist / 500.0 * 1e9);
			}
			if (number == MISSED_BY_CAMERA)
				add(d, DD_OBS_NO_LANDING, DD_SRC_CAMERA, at + CAMERA_LAG_NS, 0.8, NULL);
			else
				add(d, DD_OBS_EVENT, DD_SRC_CAMERA, at + CAMERA_LAG_NS, 0.85, ev);
			break;
		}
		case BD_EV_CUP:
		case BD_EV_MINE:
		case BD_EV_FLOOR:
			add(d, DD_OBS_EVENT, DD_SRC_PIEZO, at, 0.95, ev);
			break;
		case BD_EV_REST:
			add(d, DD_OBS_EVENT, DD_SRC_CAMERA, at + 600 * 1000000LL, 0.95, ev);
			break;
		case BD_EV_LOW_CALL:
			/* Called while the die is still up. */
			add(d, DD_OBS_EVENT, DD_SRC_CONSOLE, t0 + TOSS_TO_LANDING_NS / 2, 1.0, ev);
			at -= BETWEEN_EVENTS_NS;
			break;
		case BD_EV_CATCH:
		case BD_EV_KICK:
		case BD_EV_RETOSS:
			add(d, DD_OBS_EVENT, DD_SRC_CONSOLE, at, 1.0, ev);
			break;
		}
	}
	/* Later observations of one throw may have been scheduled earlier. */
	for (size_t i = 1; i < d->n_sched; i++)
		for (size_t j = i; j > 0 && d->sched[j - 1].t_ns > d->sched[j].t_ns; j--) {
			struct dd_obs tmp = d->sched[j];

			d->sched[j] = d->sched[j - 1];
			d->sched[j - 1] = tmp;
		}
}

/* Schedules the next throw of the sample; false when it is played out. */
static bool next_throw(struct dd_demo *d, int64_t t0)
{
	while (d->next_throw < d->log->n_entries) {
		const struct mlog_bd_entry *e = &d->log->entries[d->next_throw++];

		if (e->kind == MLOG_THROW) {
			schedule_throw(d, &e->t, e->throw_no, t0);
			return true;
		}
	}
	return false;
}

/* The camera's picture of a rest the sample reports: the die drawn by the
 * simulator's renderer where it landed, showing the face the camera
 * reports, with the report's confidence. */
static void keep_rest(struct dd_demo *d, const struct dd_obs *o)
{
	struct bd_table tb;
	struct dd_face_job job = { .t_ns = o->t_ns, .x = d->rest_x, .y = d->rest_y };
	struct vis_image *crop;

	bd_table_defaults(&tb);
	crop = sim_render_rest_crop(&d->noise, &tb, d->rest_x, d->rest_y, d->rest_x, d->rest_y,
				    o->ev.face, 2 * M_PI * sim_rng_uniform(&d->rng), CROP_PX, &d->rng);
	if (!crop)
		return;
	job.u = crop->width / 2.0;
	job.v = crop->height / 2.0;
	job.die_px = crop->width / 4.0;	/* as sim_render_rest_crop draws it */
	if (dd_sim_snap_keep(&d->snap, crop, &job) == 0) {
		d->snap.meta.face = o->ev.face;
		d->snap.meta.confidence = o->confidence;
	}
	vis_image_free(crop);
}

int dd_demo_snapshot(struct dd_demo *d, struct db *db, int64_t match, int throw_no,
		     int64_t since_ns, char *err, size_t errlen)
{
	return dd_sim_snap_store(&d->snap, db, match, throw_no, since_ns, err, errlen);
}

static void on_timer(void *user)
{
	struct dd_demo *d = user;
	int64_t now = dd_clock_now(d->clock);

	while (d->at_sched < d->n_sched && d->sched[d->at_sched].t_ns <= now) {
		struct dd_obs o = d->sched[d->at_sched++];

		if (o.kind == DD_OBS_EVENT && o.source == DD_SRC_CAMERA && o.ev.kind == BD_EV_REST)
			keep_rest(d, &o);
		d->sink(d->user, &o);
	}
	if (d->at_sched == d->n_sched) {
		int64_t last = d->n_sched ? d->sched[d->n_sched - 1].t_ns : now;

		if (!next_throw(d, last + BETWEEN_THROWS_NS))
			return;	/* played out: the timer stays off */
	}
	dd_timer_arm(d->timer, d->sched[d->at_sched].t_ns);
}

struct dd_demo *dd_demo_new(struct dd_clock *clock, dd_obs_sink sink, void *user, char *err,
			    size_t errlen)
{
	struct dd_demo *d = calloc(1, sizeof(*d));
	int rc;

	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	d->clock = clock;
	d->sink = sink;
	d->user = user;
	sim_noise_defaults(&d->noise, 1);
	sim_rng_seed(&d->rng, 7);
	rc = mlog_bd_parse("demo-sample", sample_log, sizeof(sample_log) - 1, &d->log, err, errlen);
	if (rc)
		goto free_demo;
	next_throw(d, dd_clock_now(clock) + BETWEEN_THROWS_NS);
	d->timer = dd_timer_new(clock, on_timer, d);
	if (!d->timer) {
		rc = -errno;
		snprintf(err, errlen, "timer: %s", strerror(errno));
		goto free_log;
	}
	dd_timer_arm(d->timer, d->sched[0].t_ns);
	return d;

free_log:
	mlog_bd_free(d->log);
free_demo:
	free(d);
	errno = -rc;
	return NULL;
}

void dd_demo_free(struct dd_demo *d)
{
	if (!d)
		return;
	dd_timer_free(d->timer);
	mlog_bd_free(d->log);
	dd_sim_snap_clear(&d->snap);
	free(d);
}

void dd_demo_match_cfg(struct bd_match_cfg *cfg, char team_names[2][32])
{
	struct mlog_bd *log = NULL;
	char err[256];

	bd_match_cfg_init(cfg);
	if (mlog_bd_parse("demo-sample", sample_log, sizeof(sample_log) - 1, &log, err, sizeof(err)) == 0)
		*cfg = log->cfg;
	mlog_bd_free(log);
	snprintf(team_names[0], 32, "Orange");
	snprintf(team_names[1], 32, "Blue");
}
