/* The camera glue's private declarations, shared by daemon/camera_glue.c
 * (opening and closing it), camera_config.c ([camera]), camera_stream.c
 * (frames in: the camera's eventfd, the file source and its reopening),
 * camera_track.c (frames through the tracker, observations to fusion, face
 * reads scheduled) and camera_snapshot.c (the throw's picture).
 * daemon/inputs.h is the contract. */
#ifndef DYEREF_DAEMON_CAMERA_INTERNAL_H
#define DYEREF_DAEMON_CAMERA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "daemon/clock.h"
#include "daemon/config.h"
#include "daemon/face_reader.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "daemon/snapshot.h"
#include "vision/vision.h"

/* [camera] as configured. */
struct cam_cfg {
	int enable;			/* 0: do not look for a camera */
	struct vis_camera_cfg cam;	/* sizes, id (id points into the config) */
	bool have_h;			/* homography or corners given */
	double h[9];			/* image pixels -> table metres */
	int calib_w, calib_h;		/* the picture h was fitted on; 0: the frames' size */
	const char *y4m;		/* frame source file instead of a camera, or NULL */
	const char *face_net;		/* a face net weights file, or NULL: the built-in net */
	const char *face_net_crops;	/* the test crops it is checked on, or NULL: the installed ones */
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
	struct vis_fnet *net;		/* owned until the face reader takes it (camera_stream.c):
					 * the face net of [camera] face_net in use, or NULL */
	char net_note[320];		/* what became of face_net, for the console; "" without */
};

/* Reads and checks [camera] into *c (camera_config.c). */
int dd_camera_load_config(struct dd_config *cfg, struct cam_cfg *c, char *err, size_t errlen);

/* Opens the file source, its frames played on g->clock (camera_stream.c).
 * 0, or -errno with a message in err. */
int dd_camera_open_file(struct dd_camera *g, char *err, size_t errlen);
/* Opens and starts the camera, its frames taken on ev and faces read off
 * the loop (camera_stream.c). 0, or -errno with a message in err. */
int dd_camera_open_device(struct dd_camera *g, sd_event *ev, char *err, size_t errlen);

/* One low-resolution frame through the tracker (the frame stays the
 * caller's) (camera_track.c). */
void dd_camera_track(struct dd_camera *g, const struct vis_image *frame);
/* The strip's line for a camera at work, at fps (0: not counted yet)
 * (camera_track.c). */
void dd_camera_say_running(struct dd_camera *g, double fps);

/* Pixels a die's side spans at image point (u, v), from the homography
 * (camera_snapshot.c). */
double dd_camera_die_px_at(const struct dd_camera *g, const double img_to_table[9], double u,
			   double v, double scale);
/* Keeps frame (stolen) as the snapshot, and its JPEG (stolen, or NULL:
 * encoded when stored), dropping the previous ones; the die at (u, v)
 * in it, r pixels around (r 0: not known), its face not read. All NULL:
 * drops them (camera_snapshot.c). */
void dd_camera_keep_snapshot(struct dd_camera *g, struct vis_image *frame, void *jpeg,
			     size_t len, double u, double v, double r);
/* A copy of the low-resolution frame (the caller's) as the snapshot, the
 * die at (u, v) (camera_snapshot.c). */
void dd_camera_keep_frame(struct dd_camera *g, const struct vis_image *frame, double u,
			  double v);
/* The face reader hands each rest's full-resolution frame to the
 * snapshot, its JPEG encoded on the reader's worker (camera_snapshot.c). */
void dd_camera_keep_rest_frames(struct dd_camera *g);

#endif /* DYEREF_DAEMON_CAMERA_INTERNAL_H */
