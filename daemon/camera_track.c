/* The camera glue's frames through vision's tracker: each observation
 * handed to fusion as the camera saw it, a rest's face read from the
 * full-resolution stream off the loop (daemon/face_reader.c) with the
 * observations after it held behind it, and the rate frames come at on
 * the health strip. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/camera_internal.h"
#include "daemon/daemon.h"
#include "daemon/fusion.h"
#include "daemon/obs_time.h"

#define LEARN_FRAMES 3		/* empty-table frames before tracking starts */
#define OBS_AT_ONCE 16		/* tracker observations per frame */
/* The tracker starts a new track (and reports a release) whenever it loses
 * a fast die for a few frames or finds the resting one again: only a
 * release this long after the last toss, and after the last die came to
 * rest or left, is a new throw. */
#define TOSS_GAP_NS 2000000000LL
#define AFTER_DEAD_NS 1000000000LL
#define RATE_WINDOW_NS 2000000000LL	/* frames counted for the strip's rate */

void dd_obs_rest(int64_t t_ns, double x, double y, int face, double confidence, struct dd_obs *o)
{
	bool read = face >= 1 && face <= 6;

	memset(o, 0, sizeof(*o));
	o->kind = DD_OBS_EVENT;
	o->source = DD_SRC_CAMERA;
	o->t_ns = t_ns;
	o->confidence = !read || !(confidence >= 0) ? 0 : confidence > 1 ? 1 : confidence;
	o->ev.kind = BD_EV_REST;
	o->ev.player = BD_NOBODY;
	o->ev.face = read ? face : 1;	/* a placeholder core accepts; confidence 0 */
	o->ev.has_xy = true;
	o->ev.x = x;
	o->ev.y = y;
	o->ev.has_confidence = true;
	o->ev.confidence = o->confidence;
	o->ev.t_ns = t_ns;
	snprintf(o->ev.source, sizeof(o->ev.source), "%s", dd_source_name(DD_SRC_CAMERA));
}

/* An observation to fusion, behind the face reads under way (the camera's
 * order is kept). */
static void emit(struct dd_camera *g, const struct dd_obs *o)
{
	if (!g->reader) {
		g->sink(g->user, o);
		return;
	}
	if (dd_face_reader_pass(g->reader, o) < 0)
		dd_log(DD_LOG_WARN, "camera: out of memory: a %s observation dropped",
		       o->kind == DD_OBS_TOSS ? "toss" : "camera");
}

/* A REST to fusion: its face read from the full-resolution stream off the
 * loop (the reader sends the rest when done), else at once unread. */
static void rest(struct dd_camera *g, const struct vis_obs *vo)
{
	struct vis_yuv420 *full = NULL;
	struct dd_face_job job;
	struct dd_obs o;
	char err[256];
	double sx, sy;
	int rc;

	/* A file gives only the low stream. The frame as the camera gives
	 * it: converting 8-12 Mpixel to RGB is the worker's (keep_full). */
	if (g->cam && g->reader &&
	    vis_camera_take_yuv(g->cam, VIS_STREAM_FULL, &full, err, sizeof(err)) == 1) {
		sx = (double)full->width / g->width;
		sy = (double)full->height / g->height;
		job.t_ns = vo->t_ns;
		job.x = vo->x;
		job.y = vo->y;
		job.track = vo->track;
		job.u = vo->u * sx;
		job.v = vo->v * sy;
		job.die_px = dd_camera_die_px_at(g, g->cfg.h, vo->u, vo->v, sx);
		/* The rest's confidence is the reader's, not the tracker's:
		 * the face is the event. The frame is the reader's now. */
		rc = dd_face_reader_read_yuv(g->reader, full, &job);
		if (rc == 0)
			return;
		dd_log(DD_LOG_WARN, "camera: track %d's face left unread: %s", vo->track,
		       rc == -EBUSY ? "too many reads waiting" : strerror(-rc));
	}
	/* An unread face still ends the throw: the die is dead, and the
	 * official reads it (confidence 0) now, not after the timeout. */
	dd_obs_rest(vo->t_ns, vo->x, vo->y, 0, 0, &o);
	emit(g, &o);
}

/* A tracker observation as fusion takes it. */
static void deliver(struct dd_camera *g, struct vis_obs *vo, const struct vis_image *frame)
{
	struct dd_obs o;
	struct bd_event ev;

	memset(&o, 0, sizeof(o));
	o.source = DD_SRC_CAMERA;
	o.t_ns = vo->t_ns;
	o.confidence = vo->confidence < 0 ? 0 : vo->confidence > 1 ? 1 : vo->confidence;
	/* The picture of the throw: its landing, sink or resting die (the
	 * sharp full-resolution one replaces this when its face has been
	 * read, keep_full, when there is a camera). Not an exit: the tracker reports spurious ones at edges. */
	if (vo->kind == VIS_OBS_LANDING || vo->kind == VIS_OBS_SINK || vo->kind == VIS_OBS_REST)
		dd_camera_keep_frame(g, frame, vo->u, vo->v);
	switch (vo->kind) {
	case VIS_OBS_RELEASE:
		if (g->last_toss_ns && (dd_time_span(g->last_toss_ns, vo->t_ns) < TOSS_GAP_NS ||
					  dd_time_span(g->last_dead_ns, vo->t_ns) < AFTER_DEAD_NS))
			return;	/* the same die found again */
		g->last_toss_ns = vo->t_ns;
		o.kind = DD_OBS_TOSS;
		emit(g, &o);
		return;
	case VIS_OBS_REST:
		g->last_dead_ns = vo->t_ns;
		rest(g, vo);
		return;
	case VIS_OBS_SINK:
	case VIS_OBS_OFF_TABLE:
		g->last_dead_ns = vo->t_ns;
		break;
	default:
		break;
	}
	if (vo->kind == VIS_OBS_OFF_TABLE) {
		/* Not an event core judges, but fusion rules the floor from it
		 * when nothing else ends the throw (BD-P1: no catch entered). */
		o.kind = DD_OBS_OFF_TABLE;
		o.ev.kind = BD_EV_FLOOR;
		o.ev.player = BD_NOBODY;
		o.ev.has_xy = true;
		o.ev.x = vo->x;
		o.ev.y = vo->y;
		emit(g, &o);
		return;
	}
	if (vis_obs_to_event(vo, &g->table, &ev) != 0)
		return;	/* nothing core judges */
	o.kind = DD_OBS_EVENT;
	o.ev = ev;
	o.confidence = ev.confidence;	/* a landing's: its half's too */
	emit(g, &o);
	if (vo->kind == VIS_OBS_LANDING && vo->apex_m > 0) {
		o.kind = DD_OBS_APEX;
		o.apex_m = vo->apex_m;
		o.apex_sd_m = vo->apex_sigma_m;
		memset(&o.ev, 0, sizeof(o.ev));
		emit(g, &o);
	}
}

/* The rate frames come at once counted (fps > 0); the console's line
 * names the file or the camera's id too (on a Pi a device path). */
void dd_camera_say_running(struct dd_camera *g, double fps)
{
	char rate[32] = "";

	if (fps > 0)
		snprintf(rate, sizeof(rate), " at %.0f fps", fps);
	dd_health_set(g->health, true, "camera %dx%d%s%s", g->width, g->height, rate,
		      g->cfg.y4m ? " (from a file)" : "");
	if (g->cfg.y4m)
		dd_health_detail(g->health, "camera %dx%d%s from the file %s%s%s", g->width,
				 g->height, rate, g->cfg.y4m, g->net_note[0] ? "; " : "", g->net_note);
	else
		dd_health_detail(g->health, "camera %dx%d%s (%s)%s%s", g->width, g->height, rate,
				 g->cfg.cam.id ? g->cfg.cam.id : "the first camera libcamera lists",
				 g->net_note[0] ? "; " : "", g->net_note);
}

/* The rate frames really come at, on the health strip: the sensor mode
 * both streams share may allow less than was asked (docs/vision.md), and
 * the apex's uncertainty is a frame's time. */
static void count_rate(struct dd_camera *g, int64_t ts_ns)
{
	if (!g->rate_t0_ns || ts_ns <= g->rate_t0_ns) {
		g->rate_t0_ns = ts_ns;
		g->rate_frames = 0;
		return;
	}
	g->rate_frames++;
	if (ts_ns - g->rate_t0_ns < RATE_WINDOW_NS)
		return;
	if (g->health->ok)	/* a fault's text stays until it is mended */
		dd_camera_say_running(g, g->rate_frames * 1e9 / (double)(ts_ns - g->rate_t0_ns));
	g->rate_t0_ns = ts_ns;
	g->rate_frames = 0;
}

void dd_camera_track(struct dd_camera *g, const struct vis_image *frame)
{
	struct vis_obs vo[OBS_AT_ONCE];
	int n;

	count_rate(g, frame->ts_ns);
	if (g->learned < LEARN_FRAMES) {
		vis_tracker_learn(g->trk, frame);
		g->learned++;
	}
	n = vis_tracker_feed(g->trk, frame, vo, OBS_AT_ONCE);
	if (n < 0) {
		dd_health_set(g->health, false, "camera: frames of the wrong size or format");
		return;
	}
	for (int i = 0; i < n && i < OBS_AT_ONCE; i++)
		deliver(g, &vo[i], frame);
}
