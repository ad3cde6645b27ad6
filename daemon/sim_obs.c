/* The simulator's instruments as the daemon's inputs report them: one
 * conversion each for console calls and camera reports, shared by `dyeref
 * evaluate` and the live feeder (the sensors' observations go through the
 * Pi's own mapping, daemon/sensors_obs.c). */
#include <errno.h>
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/face_reader.h"
#include "daemon/feeds.h"
#include "daemon/fusion.h"
#include "daemon/inputs.h"
#include "sim/sim.h"

static void obs_init(struct dd_obs *o, enum dd_source src, int64_t t_ns)
{
	memset(o, 0, sizeof(*o));
	o->kind = DD_OBS_EVENT;
	o->source = src;
	o->t_ns = t_ns;
	o->confidence = 1.0;
	o->ev.player = BD_NOBODY;
	o->ev.t_ns = t_ns;
	strcpy(o->ev.source, dd_source_name(src));
}

void dd_obs_from_sim_call(const struct sim_call *c, struct dd_obs *o)
{
	obs_init(o, DD_SRC_CONSOLE, c->t_ns);
	if (c->dye_up_missed) {
		o->kind = DD_OBS_DYE_UP_MISSED;
		return;
	}
	o->ev = c->ev;
	o->ev.t_ns = c->t_ns;
	o->ev.confidence = 1.0;
	strcpy(o->ev.source, "console");
}

void dd_obs_from_sim_cam(const struct sim_cam *c, const struct vis_image *crop, struct dd_obs *o)
{
	struct bd_table tb;

	obs_init(o, DD_SRC_CAMERA, c->t_ns);
	if (c->kind == SIM_CAM_TOSS) {
		o->kind = DD_OBS_TOSS;
		return;
	}
	if (c->kind == SIM_CAM_SINK) {
		/* The tracker saw the die go into that cup and stay; where it
		 * vanished is the cup's place. */
		bd_table_defaults(&tb);
		o->ev.kind = BD_EV_CUP;
		o->ev.player = c->owner;
		o->ev.sink = true;
		o->ev.has_xy = true;
		o->ev.x = tb.cup_x[c->owner];
		o->ev.y = tb.cup_y[c->owner];
		o->confidence = 0.95;
		return;
	}

	if (c->kind == SIM_CAM_LANDING || c->kind == SIM_CAM_MINE) {
		/* As the camera glue converts the tracker's: the landing's half
		 * as sure as its point (vis_obs_to_event). */
		struct vis_obs vo = { .kind = c->kind == SIM_CAM_LANDING ? VIS_OBS_LANDING : VIS_OBS_MINE,
				      .t_ns = c->t_ns, .x = c->x, .y = c->y, .player = BD_NOBODY,
				      .confidence = c->confidence,
				      .xy_sigma_m = c->kind == SIM_CAM_LANDING ? VIS_LANDING_XY_SD_M : 0 };

		bd_table_defaults(&tb);
		vis_obs_to_event(&vo, &tb, &o->ev);
		o->confidence = o->ev.confidence;
		return;
	}
	if (c->kind == SIM_CAM_EXIT) {
		/* As the camera glue sends an exit: fusion rules the floor from
		 * it when nothing else ends the throw. */
		o->kind = DD_OBS_OFF_TABLE;
		o->confidence = c->confidence;
		o->ev.kind = BD_EV_FLOOR;
		o->ev.has_xy = true;
		o->ev.x = c->x;
		o->ev.y = c->y;
		return;
	}

	int face = 0;
	double conf = 0;
	struct dd_face_job job;
	struct vis_die d;

	/* As the camera glue reads a rest: dyeref serve hands the same job
	 * to its face reader (daemon/sim_feed.c). */
	if (crop && dd_face_job_from_sim_cam(c, crop, &job) == 0 &&
	    vis_read_face_near(crop, job.u, job.v, job.die_px, NULL, &d) == 0) {
		face = d.face;
		conf = d.confidence;
	}
	/* Unread (face 0): the die is at rest, its face unknown; the ruling
	 * goes to an official, as the camera glue sends it. */
	dd_obs_rest(c->t_ns, c->x, c->y, face, conf, o);
}

int dd_face_job_from_sim_cam(const struct sim_cam *c, const struct vis_image *crop,
			     struct dd_face_job *job)
{
	if (c->kind != SIM_CAM_REST || !crop)
		return -EINVAL;
	memset(job, 0, sizeof(*job));
	job->t_ns = c->t_ns;
	job->x = c->x;
	job->y = c->y;
	/* Around where the camera located the die, the crop's centre
	 * (sim_render_rest_crop), a die being a quarter of the crop's side. */
	job->u = crop->width / 2.0;
	job->v = crop->height / 2.0;
	job->die_px = crop->width / 4.0;
	return 0;
}
