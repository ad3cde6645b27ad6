/* The camera in `dyeref serve`: [camera] from the config, the libcamera
 * shim's eventfd (or, for tests and demos without a camera, a Y4M file
 * played at its frame rate) on the event loop, each low-resolution frame
 * through vision's tracker, its observations handed to fusion, faces read
 * from the full-resolution stream off the loop (daemon/face_reader.c), and
 * the latest telling frame kept so the referee can store it as the throw's
 * snapshot. A missing camera is reported on the health strip, not fatal. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/face_reader.h"
#include "daemon/fusion.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "daemon/obs_time.h"
#include "daemon/snapshot.h"
#include "db/db.h"
#include "vision/vision.h"

#define LEARN_FRAMES 3		/* empty-table frames before tracking starts */
#define OBS_AT_ONCE 16		/* tracker observations per frame */
/* The tracker starts a new track (and reports a release) whenever it loses
 * a fast die for a few frames or finds the resting one again: only a
 * release this long after the last toss, and after the last die came to
 * rest or left, is a new throw. */
#define TOSS_GAP_NS 2000000000LL
#define AFTER_DEAD_NS 1000000000LL
#define RATE_WINDOW_NS 2000000000LL	/* frames counted for the strip's rate */
/* A video file that could not be read is tried again this often (on the
 * daemon's clock): a file put back turns the camera green by itself. */
#define REOPEN_NS 1000000000LL

static const char *const corner_keys[4] = {
	"corner_a_left", "corner_a_right", "corner_b_right", "corner_b_left",
};

/* [camera] as configured. */
struct cam_cfg {
	int enable;			/* 0: do not look for a camera */
	struct vis_camera_cfg cam;	/* sizes, id (id points into the config) */
	bool have_h;			/* homography or corners given */
	double h[9];			/* image pixels -> table metres */
	int calib_w, calib_h;		/* the picture h was fitted on; 0: the frames' size */
	const char *y4m;		/* frame source file instead of a camera, or NULL */
};

struct dd_camera {
	struct cam_cfg cfg;		/* as configured */
	struct bd_table table;		/* layout for vis_obs_to_event */
	struct vis_tracker_cfg tcfg;	/* tracker settings */
	struct vis_camera *cam;		/* owned: the real camera, or NULL */
	struct vis_y4m *y4m;		/* owned: the file source, or NULL */
	int64_t y4m_period_ns;		/* the file's frame interval */
	int64_t file_due_ns;		/* the file's next frame, on the clock */
	bool reopen;			/* the file failed: the timer tries it again (REOPEN_NS) */
	bool failed_in;			/* it failed within its frames, not at opening ... */
	struct stat failed_st;		/* ... then: the file as it was (tried again once changed) */
	struct vis_tracker *trk;	/* owned */
	int width, height;		/* low-resolution frame size */
	int learned;			/* frames learned as the empty table */
	int64_t rate_t0_ns;		/* the frame the rate's count started at, or 0 */
	int rate_frames;		/* frames since it */
	int64_t last_toss_ns;		/* the last release passed on as a toss */
	int64_t last_dead_ns;		/* the last rest, sink or exit seen */
	struct vis_image *snap;		/* owned: the latest telling frame, or NULL */
	void *snap_jpeg;		/* owned: snap as JPEG, encoded off the loop, or NULL */
	size_t snap_jpeg_len;		/* its bytes */
	struct dd_snapshot_meta snap_meta;	/* what is known of snap */
	struct dd_face_reader *reader;	/* owned: reads faces off the loop (a camera), or NULL */
	sd_event_source *io;		/* the camera's eventfd */
	struct dd_clock *clock;		/* borrowed: serve's; the file's frames and the reads' limit */
	struct dd_timer *timer;		/* the file source's next frame */
	dd_obs_sink sink;		/* fusion's entry */
	void *user;			/* for sink */
	struct dd_health_item *health;	/* the strip's item (the caller's) */
};

/* "a,b,c" into n finite doubles; -EINVAL with "file:line: camera.key: why". */
static int get_doubles(struct dd_config *cfg, const char *key, double *out, int n,
		       bool *found, char *err, size_t errlen)
{
	int line = 0;
	const char *v = dd_config_get(cfg, "camera", key, &line);
	const char *p = v;

	*found = v != NULL;
	if (!v)
		return 0;
	for (int i = 0; i < n; i++) {
		char *end;

		errno = 0;
		out[i] = strtod(p, &end);
		if (end == p || errno || !isfinite(out[i]))
			goto bad;
		p = end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (i < n - 1) {
			if (*p != ',')
				goto bad;
			p++;
		}
	}
	if (*p == '\0')
		return 0;
bad:
	snprintf(err, errlen, "%s:%d: camera.%s: needs %d numbers separated by commas, not '%.60s'",
		 cfg->path ? cfg->path : "config", line, key, n, v);
	return -EINVAL;
}

static int get_size(struct dd_config *cfg, const char *key, long min, int *out,
		    char *err, size_t errlen)
{
	long v;
	int rc = dd_config_get_int(cfg, "camera", key, min, VIS_MAX_SIDE, &v, err, errlen);

	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc;
	*out = (int)v;
	return 0;
}

/* calibrated_size = W,H (what `dyeref calibrate camera` prints): the
 * picture the corners and homography are in pixels of. */
static int get_calibrated_size(struct dd_config *cfg, struct cam_cfg *c, char *err, size_t errlen)
{
	double wh[2];
	bool found;
	int line = 0, rc = get_doubles(cfg, "calibrated_size", wh, 2, &found, err, errlen);

	if (rc || !found)
		return rc;
	for (int i = 0; i < 2; i++)
		if (wh[i] != floor(wh[i]) || wh[i] < 16 || wh[i] > VIS_MAX_SIDE) {
			dd_config_get(cfg, "camera", "calibrated_size", &line);
			snprintf(err, errlen, "%s:%d: camera.calibrated_size: needs the picture's width,height "
				 "in whole pixels (16..%d)", cfg->path ? cfg->path : "config", line, VIS_MAX_SIDE);
			return -EINVAL;
		}
	c->calib_w = (int)wh[0];
	c->calib_h = (int)wh[1];
	return 0;
}

/* [camera] homography = 9 numbers into c, refused when singular. */
static int get_homography(struct dd_config *cfg, struct cam_cfg *c, char *err, size_t errlen)
{
	double hh[9], inv[9];
	bool found;
	int line = 0, rc = get_doubles(cfg, "homography", hh, 9, &found, err, errlen);

	if (rc || !found)
		return rc;
	dd_config_get(cfg, "camera", "homography", &line);
	if (vis_homography_invert(hh, inv) < 0) {
		snprintf(err, errlen, "%s:%d: camera.homography: singular (not a view of the table)",
			 cfg->path, line);
		return -EINVAL;
	}
	memcpy(c->h, hh, sizeof(hh));
	c->have_h = true;
	return 0;
}

/* [camera] y4m = a readable file, or absent. */
static int get_y4m(struct dd_config *cfg, struct cam_cfg *c, char *err, size_t errlen)
{
	int line = 0;

	c->y4m = dd_config_get(cfg, "camera", "y4m", &line);
	if (c->y4m && !c->y4m[0]) {
		snprintf(err, errlen, "%s:%d: camera.y4m: needs a file name", cfg->path, line);
		return -EINVAL;
	}
	if (c->y4m && access(c->y4m, R_OK) < 0) {
		snprintf(err, errlen, "%s:%d: camera.y4m: %s: %s", cfg->path, line, c->y4m, strerror(errno));
		return -EINVAL;
	}
	return 0;
}

/* Reads and checks [camera] into *c. Every key is read even after a bad
 * one, so that --check-config names that one alone; the checks across
 * keys wait until each key has read cleanly, as a bad value would only
 * make them fail too. */
static int load_config(struct dd_config *cfg, struct cam_cfg *c, char *err, size_t errlen)
{
	double corners[4][2], hh[9], table[4][2];
	bool have_corner[4], any = false;
	struct bd_table tb;
	int rc, first = 0, line = 0;
	char why[512];
	long v;

	memset(c, 0, sizeof(*c));
	c->enable = 1;
	vis_camera_cfg_default(&c->cam);
	rc = dd_config_get_bool(cfg, "camera", "enable", &c->enable, why, sizeof(why));
	first = dd_config_keep_first(first, rc == -ENOENT ? 0 : rc, why, err, errlen);
	c->cam.id = dd_config_get(cfg, "camera", "id", NULL);
	rc = get_size(cfg, "low_width", 16, &c->cam.low_width, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = get_size(cfg, "low_height", 16, &c->cam.low_height, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = get_size(cfg, "full_width", 0, &c->cam.full_width, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = get_size(cfg, "full_height", 0, &c->cam.full_height, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = dd_config_get_int(cfg, "camera", "fps", 0, VIS_CAMERA_MAX_FPS, &v, why, sizeof(why));
	if (rc == 0)
		c->cam.fps = (int)v;
	first = dd_config_keep_first(first, rc == -ENOENT ? 0 : rc, why, err, errlen);
	rc = get_calibrated_size(cfg, c, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = get_y4m(cfg, c, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	for (int k = 0; k < 4; k++) {
		rc = get_doubles(cfg, corner_keys[k], corners[k], 2, &have_corner[k], why, sizeof(why));
		first = dd_config_keep_first(first, rc, why, err, errlen);
		any = any || have_corner[k];
	}
	rc = get_homography(cfg, c, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	if (first)
		return first;

	if ((c->cam.full_width == 0) != (c->cam.full_height == 0)) {
		dd_config_get(cfg, "camera", c->cam.full_width ? "full_width" : "full_height", &line);
		snprintf(err, errlen, "%s:%d: camera: full_width and full_height go together (both 0: the sensor's size)",
			 cfg->path, line);
		return -EINVAL;
	}
	if (any) {
		for (int k = 0; k < 4; k++)
			if (!have_corner[k]) {
				snprintf(err, errlen, "%s: camera.%s: missing (the four corners go together)",
					 cfg->path, corner_keys[k]);
				return -EINVAL;
			}
		bd_table_defaults(&tb);
		table[0][0] = 0, table[0][1] = 0;
		table[1][0] = 0, table[1][1] = tb.width_m;
		table[2][0] = tb.length_m, table[2][1] = tb.width_m;
		table[3][0] = tb.length_m, table[3][1] = 0;
		if (vis_homography_fit(corners, table, 4, hh) < 0) {
			dd_config_get(cfg, "camera", corner_keys[0], &line);
			snprintf(err, errlen, "%s:%d: camera: the four corners do not outline a table",
				 cfg->path, line);
			return -EINVAL;
		}
		if (!c->have_h)	/* an explicit homography wins */
			memcpy(c->h, hh, sizeof(hh));
		c->have_h = true;
	}
	if (c->calib_w && !c->have_h) {
		dd_config_get(cfg, "camera", "calibrated_size", &line);
		snprintf(err, errlen, "%s:%d: camera.calibrated_size: given without the corners or "
			 "homography it is the size of", cfg->path, line);
		return -EINVAL;
	}
	return 0;
}

/* Pixels a die's side spans at image point (u, v), from the homography. */
static double die_px_at(const struct dd_camera *g, const double img_to_table[9], double u,
			double v, double scale)
{
	double inv[9], x, y, u2, v2;

	if (vis_homography_invert(img_to_table, inv) < 0 ||
	    vis_homography_apply(img_to_table, u, v, &x, &y) < 0 ||
	    vis_homography_apply(inv, x + g->tcfg.die_side_m, y, &u2, &v2) < 0)
		return 20;
	return hypot(u2 - u, v2 - v) * scale;
}

/* Keeps frame (stolen) as the snapshot, and its JPEG (stolen, or NULL:
 * encoded when stored), dropping the previous ones; the die at (u, v)
 * in it, r pixels around (r 0: not known), its face not read. */
static void keep_snapshot(struct dd_camera *g, struct vis_image *frame, void *jpeg, size_t len,
			  double u, double v, double r)
{
	vis_image_free(g->snap);
	free(g->snap_jpeg);
	g->snap = frame;
	g->snap_jpeg = jpeg;
	g->snap_jpeg_len = jpeg ? len : 0;
	memset(&g->snap_meta, 0, sizeof(g->snap_meta));
	if (!frame)
		return;
	g->snap_meta.t_ns = frame->ts_ns;
	g->snap_meta.width = frame->width;
	g->snap_meta.height = frame->height;
	g->snap_meta.confidence = -1;
	g->snap_meta.has_die = r > 0;
	g->snap_meta.die_x = u;
	g->snap_meta.die_y = v;
	g->snap_meta.die_r = r;
}

/* The face reader's prep (its worker thread): the snapshot's JPEG, so that
 * storing the throw does not encode 8-12 Mpixel on the loop. */
static void *prep_snapshot(const struct vis_image *full, size_t *len)
{
	char err[128];

	return dd_jpeg_encode(full, len, err, sizeof(err));
}

static struct vis_image *copy_image(const struct vis_image *img)
{
	struct vis_image *c = vis_image_new(img->width, img->height, img->format);

	if (!c)
		return NULL;
	for (int r = 0; r < img->height; r++)
		memcpy(c->data + (size_t)r * c->stride, img->data + (size_t)r * img->stride,
		       (size_t)img->width * img->format);
	c->ts_ns = img->ts_ns;
	return c;
}

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

/* The full-resolution frame of a rest, converted off the loop (stolen):
 * the snapshot, unless a newer telling frame (the next throw's landing,
 * seen while the face was read) replaced it meanwhile. */
static void keep_full(void *user, struct vis_image *full, void *jpeg, size_t len,
		      const struct dd_face_read *rd)
{
	struct dd_camera *g = user;

	if (g->snap && g->snap->ts_ns > full->ts_ns) {
		vis_image_free(full);
		free(jpeg);
		return;
	}
	/* The resting die, sharp: the best picture, with the face read on it
	 * where it was found (else where the tracker located it). */
	if (rd->found)
		keep_snapshot(g, full, jpeg, len, rd->u, rd->v, rd->side * 0.75);
	else
		keep_snapshot(g, full, jpeg, len, rd->job->u, rd->job->v, rd->job->die_px * 0.75);
	if (rd->rest->confidence > 0) {
		g->snap_meta.face = rd->rest->ev.face;
		g->snap_meta.confidence = rd->rest->confidence;
	}
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
		job.die_px = die_px_at(g, g->cfg.h, vo->u, vo->v, sx);
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
	if (vo->kind == VIS_OBS_LANDING || vo->kind == VIS_OBS_SINK || vo->kind == VIS_OBS_REST) {
		struct vis_image *c = copy_image(frame);

		if (c)	/* low resolution: encoded when stored */
			keep_snapshot(g, c, NULL, 0, vo->u, vo->v,
				      die_px_at(g, g->cfg.h, vo->u, vo->v, 1) * 0.75);
	}
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

/* The strip's line for a camera at work, with the rate frames come at
 * once counted (fps > 0); the console's names the file or the camera's
 * id too (on a Pi a device path). */
static void say_running(struct dd_camera *g, double fps)
{
	char rate[32] = "";

	if (fps > 0)
		snprintf(rate, sizeof(rate), " at %.0f fps", fps);
	dd_health_set(g->health, true, "camera %dx%d%s%s", g->width, g->height, rate,
		      g->cfg.y4m ? " (from a file)" : "");
	if (g->cfg.y4m)
		dd_health_detail(g->health, "camera %dx%d%s from the file %s", g->width,
				 g->height, rate, g->cfg.y4m);
	else
		dd_health_detail(g->health, "camera %dx%d%s (%s)", g->width, g->height, rate,
				 g->cfg.cam.id ? g->cfg.cam.id : "the first camera libcamera lists");
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
		say_running(g, g->rate_frames * 1e9 / (double)(ts_ns - g->rate_t0_ns));
	g->rate_t0_ns = ts_ns;
	g->rate_frames = 0;
}

/* One low-resolution frame through the tracker (the frame stays the caller's). */
static void track(struct dd_camera *g, const struct vis_image *frame)
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

static int on_frames(sd_event_source *s, int fd, uint32_t revents, void *user)
{
	struct dd_camera *g = user;
	struct vis_image *low = NULL;
	char err[256];
	uint64_t count;
	int rc;

	(void)s;
	(void)revents;
	if (read(fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
		dd_log(DD_LOG_WARN, "camera: eventfd: %s", strerror(errno));
	rc = vis_camera_take(g->cam, VIS_STREAM_LOW, &low, err, sizeof(err));
	if (rc < 0) {
		dd_log(DD_LOG_ERR, "camera: %s", err);
		dd_health_set(g->health, false, "camera: frames stopped (%s)", strerror(-rc));
		dd_health_detail(g->health, "camera: %s", err);
		sd_event_source_set_enabled(g->io, SD_EVENT_OFF);
		return 0;
	}
	if (rc == 1) {
		track(g, low);
		vis_image_free(low);
	}
	return 0;
}

/* Whether the file is the one that failed within its frames (the same
 * inode, size and time): played again it would fail again, so it is
 * tried once it changes. */
static bool unchanged(const struct dd_camera *g)
{
	struct stat st;

	return g->failed_in && stat(g->cfg.y4m, &st) == 0 && st.st_ino == g->failed_st.st_ino &&
	       st.st_dev == g->failed_st.st_dev && st.st_size == g->failed_st.st_size &&
	       st.st_mtim.tv_sec == g->failed_st.st_mtim.tv_sec &&
	       st.st_mtim.tv_nsec == g->failed_st.st_mtim.tv_nsec;
}

/* Opens the file again from its start, with a new tracker (the stream
 * starts again on an empty table). 0, or -errno with why in err: not
 * there, not a video, or frames of another size than the tracker's. */
static int reopen_file(struct dd_camera *g, char *err, size_t errlen)
{
	struct vis_tracker *t;
	int w, h, fn, fd;

	vis_y4m_close(g->y4m);
	g->y4m = vis_y4m_open(g->cfg.y4m, err, errlen);
	if (!g->y4m)
		return errno ? -errno : -EIO;
	vis_y4m_info(g->y4m, &w, &h, &fn, &fd);
	if (w != g->width || h != g->height) {
		snprintf(err, errlen, "%s: %dx%d frames, not the %dx%d it had: restart the daemon",
			 g->cfg.y4m, w, h, g->width, g->height);
		vis_y4m_close(g->y4m);
		g->y4m = NULL;
		return -EINVAL;
	}
	t = vis_tracker_new(&g->tcfg, g->width, g->height);
	if (t) {
		vis_tracker_free(g->trk);
		g->trk = t;
		g->learned = 0;
	}
	return 0;
}

/* The file could not be read: red, and tried again every REOPEN_NS. The
 * first failure is logged, not every try. */
static void file_failed(struct dd_camera *g, const char *err)
{
	if (!g->reopen)
		dd_log(DD_LOG_ERR, "camera: %s (trying it again every %lld s)", err,
		       REOPEN_NS / 1000000000LL);
	dd_health_set(g->health, false, "camera: the video file could not be read");
	dd_health_detail(g->health, "camera: %s", err);
	/* a file open and failing within its frames waits for a change */
	g->failed_in = g->y4m && stat(g->cfg.y4m, &g->failed_st) == 0;
	g->reopen = true;
	dd_timer_arm(g->timer, dd_time_shifted(dd_clock_now(g->clock), REOPEN_NS));
}

/* The file source: the next frame on the daemon's clock, looping at the end
 * (a new tracker each pass: the stream starts again on an empty table). */
static void on_file_frame(void *user)
{
	struct dd_camera *g = user;
	struct vis_image *img = NULL;
	char err[256];
	int rc;

	if (g->reopen && unchanged(g)) {
		dd_timer_arm(g->timer, dd_time_shifted(dd_clock_now(g->clock), REOPEN_NS));
		return;
	}
	/* Tried again from its start, or at the end of a pass: the loop. */
	rc = g->reopen ? 0 : vis_y4m_read(g->y4m, &img, err, sizeof(err));
	if (rc == 0) {
		rc = reopen_file(g, err, sizeof(err));
		if (rc == 0)
			rc = vis_y4m_read(g->y4m, &img, err, sizeof(err));
		if (rc == 0)
			snprintf(err, sizeof(err), "%s: no frames", g->cfg.y4m);
	}
	if (rc != 1) {
		file_failed(g, err);
		return;
	}
	if (g->reopen) {
		dd_log(DD_LOG_INFO, "camera: %s reads again", g->cfg.y4m);
		g->reopen = false;
		g->rate_t0_ns = 0;
		g->file_due_ns = dd_clock_now(g->clock);
		say_running(g, 0);
	}
	/* The frame's due time, not when the loop got to it: a busy loop
	 * must not bunch the frames up and fake the die's speed. */
	img->ts_ns = g->file_due_ns;
	track(g, img);
	vis_image_free(img);
	g->file_due_ns += g->y4m_period_ns;
	dd_timer_arm(g->timer, g->file_due_ns);
}

static int open_file_source(struct dd_camera *g, char *err, size_t errlen)
{
	int fn, fd, rc;
	char why[256];

	g->y4m = vis_y4m_open(g->cfg.y4m, why, sizeof(why));
	if (!g->y4m) {
		rc = errno ? -errno : -EIO;
		snprintf(err, errlen, "camera: %s", why);
		return rc;
	}
	vis_y4m_info(g->y4m, &g->width, &g->height, &fn, &fd);
	g->y4m_period_ns = fn > 0 && fd > 0 ? 1000000000LL * fd / fn : 1000000000LL / 30;
	/* The clock's timers wake within a microsecond: a recorded throw's
	 * observations reach fusion on time, frames never bunched. */
	g->timer = dd_timer_new(g->clock, on_file_frame, g);
	if (!g->timer) {
		rc = -errno;
		snprintf(err, errlen, "camera: timer: %s", strerror(errno));
		return rc;
	}
	g->file_due_ns = dd_clock_now(g->clock);
	dd_timer_arm(g->timer, g->file_due_ns);
	return 0;
}

static int open_camera(struct dd_camera *g, sd_event *ev, char *err, size_t errlen)
{
	int rc;

	g->cam = vis_camera_open(&g->cfg.cam, err, errlen);
	if (!g->cam)
		return errno ? -errno : -EIO;
	rc = vis_camera_start(g->cam, err, errlen);
	if (rc)
		return rc;
	g->width = g->cfg.cam.low_width;
	g->height = g->cfg.cam.low_height;
	g->reader = dd_face_reader_new(ev, g->clock, g->sink, g->user, err, errlen);
	if (!g->reader)
		return -errno;
	dd_face_reader_set_frame_sink(g->reader, keep_full, g, prep_snapshot);
	rc = sd_event_add_io(ev, &g->io, vis_camera_fd(g->cam), EPOLLIN, on_frames, g);
	if (rc < 0)
		snprintf(err, errlen, "event loop: %s", strerror(-rc));
	return rc;
}

/* Everything opened, the config kept. */
static void release(struct dd_camera *g)
{
	/* First: no late face may reach fusion once the camera is gone (the
	 * worker reads copies of its own, so the order is for the sink). */
	dd_face_reader_free(g->reader);
	g->reader = NULL;
	g->io = sd_event_source_disable_unref(g->io);
	dd_timer_free(g->timer);
	g->timer = NULL;
	vis_camera_close(g->cam);
	vis_y4m_close(g->y4m);
	vis_tracker_free(g->trk);
	keep_snapshot(g, NULL, NULL, 0, 0, 0, 0);
	g->cam = NULL;
	g->y4m = NULL;
	g->trk = NULL;
}

/* Takes the calibration to the frames' pixels: it was fitted on a
 * picture of calibrated_size (the sensor's full size, often), the tracker
 * sees g->width x g->height. -EINVAL with why when the two are not
 * one view resized. */
static int fit_calibration(struct dd_camera *g, char *why, size_t whylen)
{
	struct cam_cfg *c = &g->cfg;
	double h[9];

	if (!c->calib_w) {
		if (c->have_h)
			dd_log(DD_LOG_INFO, "camera: no calibrated_size in [camera]: the calibration is "
			       "taken as pixels of the %dx%d frames", g->width, g->height);
		return 0;
	}
	if (c->calib_w == g->width && c->calib_h == g->height)
		return 0;
	if (vis_homography_resized(c->h, c->calib_w, c->calib_h, g->width, g->height, h) < 0) {
		snprintf(why, whylen, "calibrated on %dx%d, frames %dx%d: another shape; calibrate "
			 "on a picture of the frames' shape", c->calib_w, c->calib_h, g->width,
			 g->height);
		return -EINVAL;
	}
	memcpy(c->h, h, sizeof(h));
	dd_log(DD_LOG_INFO, "camera: the calibration of a %dx%d picture taken to %dx%d frames",
	       c->calib_w, c->calib_h, g->width, g->height);
	return 0;
}

/* Leaves the camera out and the daemon running: piezo and console still
 * referee. The strip says what (reason), the console and the log why. */
static void run_without(struct dd_camera *g, const char *reason, const char *why)
{
	release(g);
	dd_health_set(g->health, false, "camera: %s", reason);
	dd_health_detail(g->health, "camera: %s", why);
	dd_log(DD_LOG_WARN, "camera: %s (running without it)", why);
}

int dd_camera_check_config(struct dd_config *cfg, char *err, size_t errlen)
{
	struct cam_cfg c;

	return load_config(cfg, &c, err, errlen);
}

/* Opens what [camera] names and starts tracking. 0, also when the camera
 * is left out (run_without: the health item says why); a negative errno
 * with a message for a config error (a file that cannot be played). */
static int start(struct dd_camera *g, sd_event *ev, bool sim, const char *path, char *err,
		 size_t errlen)
{
	char why[256];
	int rc;

	if (sim && !g->cfg.y4m) {
		dd_health_set(g->health, true, "simulated camera");
		return 0;
	}
	if (!g->cfg.enable) {
		dd_health_set(g->health, false, "camera: disabled in the config");
		dd_health_detail(g->health, "camera: disabled in the config (camera.enable in %s)",
				 path ? path : "the config");
		return 0;
	}
	bd_table_defaults(&g->table);
	if (!g->cfg.have_h && g->cfg.y4m) {
		struct vis_render_scene view;

		/* Rendered frames (dyeref sim --frames) use the renderer's view. */
		vis_render_scene_default(&view);
		if (vis_homography_invert(view.h, g->cfg.h) < 0) {
			snprintf(err, errlen, "camera: the renderer's view cannot be inverted");
			return -EINVAL;
		}
	}
	if (g->cfg.y4m) {
		rc = open_file_source(g, err, errlen);
		if (rc)
			return rc;	/* a named file that is not there is a config error */
	} else {
		rc = open_camera(g, ev, why, sizeof(why));
		if (rc) {	/* the shim may already say whose message it is */
			run_without(g, vis_camera_reason(-rc), strncmp(why, "camera: ", 8) ? why : why + 8);
			return 0;
		}
		/* Frames the tracker cannot place on the table are no use. */
		if (!g->cfg.have_h) {
			run_without(g, "not calibrated", "not calibrated (run dyeref calibrate camera)");
			return 0;
		}
	}
	rc = fit_calibration(g, why, sizeof(why));
	if (rc && g->y4m) {
		snprintf(err, errlen, "camera: %s", why);
		return rc;	/* a file's frames will not change size: a config error */
	}
	if (rc) {
		run_without(g, "calibrated on a picture of another shape", why);
		return 0;
	}
	vis_tracker_cfg_default(&g->tcfg, &g->table, g->cfg.h);
	g->trk = vis_tracker_new(&g->tcfg, g->width, g->height);
	if (!g->trk) {
		rc = -errno;
		snprintf(err, errlen, "camera: tracker for %dx%d frames: %s", g->width, g->height,
			 strerror(errno));
		return rc;
	}
	say_running(g, 0);
	return 0;
}

struct dd_camera *dd_camera_new(struct dd_config *cfg, sd_event *ev, struct dd_clock *clock,
				bool sim, dd_obs_sink sink, void *user,
				struct dd_health_item *health, char *err, size_t errlen)
{
	struct dd_camera *g = calloc(1, sizeof(*g));
	int rc;

	if (!g) {
		snprintf(err, errlen, "camera: out of memory");
		return NULL;
	}
	g->clock = clock;
	g->sink = sink;
	g->user = user;
	g->health = health;
	rc = load_config(cfg, &g->cfg, err, errlen);
	if (rc == 0)
		rc = start(g, ev, sim, cfg->path, err, errlen);
	if (rc) {
		dd_camera_free(g);
		errno = -rc;
		return NULL;
	}
	return g;
}

void dd_camera_free(struct dd_camera *g)
{
	if (!g)
		return;
	release(g);
	free(g);
}

int dd_camera_snapshot(struct dd_camera *g, struct db *db, int64_t match, int throw_no,
		       int64_t since_ns, char *err, size_t errlen)
{
	const struct vis_image *img = g->snap;
	void *jpeg;
	size_t len = 0;
	int rc;

	if (!img || img->ts_ns < since_ns)
		return 0;	/* nothing seen of this throw */
	/* A full-resolution rest frame was encoded by the face reader's
	 * worker; a low-resolution telling frame is encoded here (a few ms). */
	if (g->snap_jpeg) {
		jpeg = g->snap_jpeg;
		len = g->snap_jpeg_len;
	} else {
		jpeg = dd_jpeg_encode(img, &len, err, errlen);
		if (!jpeg)
			return -errno;	/* ENOMEM or EIO, as encode_jpeg says */
	}
	rc = dd_snapshot_store(db, match, throw_no, since_ns, jpeg, len, &g->snap_meta, err, errlen);
	if (jpeg != g->snap_jpeg)
		free(jpeg);
	return rc;
}
