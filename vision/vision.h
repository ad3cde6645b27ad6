/*
 * vision: images, frame sources, dice detection and face reading.
 *
 * Like apriltag, the detector takes an in-memory image (width, height,
 * stride, bytes) and knows nothing of cameras or files; the decoders
 * (PGM/PPM, PNG, JPEG, Y4M) live beside it and hand it a struct vis_image.
 *
 * Errors: functions return 0 or a negative errno and write a one-line
 * message for people into err (errlen bytes), naming the file and why.
 * Constructors return NULL and set errno.
 */
#ifndef DYEREF_VISION_H
#define DYEREF_VISION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/core.h"

/* ---- Images ---- */

enum vis_format {
	VIS_GRAY8 = 1,		/* one byte a pixel */
	VIS_RGB24 = 3,		/* three bytes a pixel, R G B */
};

struct vis_image {
	int width;		/* pixels */
	int height;		/* pixels */
	size_t stride;		/* bytes from one row to the next */
	enum vis_format format;	/* also the bytes per pixel */
	uint8_t *data;		/* owned by the image (vis_image_free) */
	int64_t ts_ns;		/* CLOCK_MONOTONIC capture time; 0 for files */
};

/* Largest image any loader accepts: a hostile header cannot make us
 * allocate more than this (about 64 Mpixel, more than any camera here). */
#define VIS_MAX_SIDE   16384
#define VIS_MAX_PIXELS (64L * 1024 * 1024)

/* A new zeroed image. NULL with errno EINVAL (size out of limits) or
 * ENOMEM. The caller frees it with vis_image_free(). */
struct vis_image *vis_image_new(int width, int height, enum vis_format format);
/* Frees the image and its bytes; NULL is fine. */
void vis_image_free(struct vis_image *img);
/* A new GRAY8 copy (luma, BT.601 weights) of any image; the caller frees it.
 * NULL with errno ENOMEM. */
struct vis_image *vis_image_to_gray(const struct vis_image *img);
/* img scaled s times into a new image of its format, floor(width x s) by
 * floor(height x s) pixels, pixel centres kept aligned (output x sits at
 * source (x + 0.5) / s - 0.5): bilinear when enlarging; when shrinking,
 * each pixel the rounded mean of the source pixels whose centres fall in
 * its footprint, so no detail is skipped (a die's pips are averaged, not
 * sampled). s == 1 is a copy. The caller frees it with vis_image_free().
 * NULL with errno EINVAL (s not a number above 0, a side below 1 or
 * beyond VIS_MAX_*) or ENOMEM. */
struct vis_image *vis_image_scaled(const struct vis_image *img, double s);

/* Decoders from memory. `name` names the source in messages. On success
 * *out is a new image the caller frees with vis_image_free(); on error *out
 * is NULL, the return is -EINVAL (malformed, unsupported), -E2BIG (beyond
 * VIS_MAX_*) or -ENOMEM, and err says "name: why". */
int vis_decode_pnm(const uint8_t *buf, size_t len, const char *name,
		   struct vis_image **out, char *err, size_t errlen);
int vis_decode_png(const uint8_t *buf, size_t len, const char *name,
		   struct vis_image **out, char *err, size_t errlen);
int vis_decode_jpeg(const uint8_t *buf, size_t len, const char *name,
		    struct vis_image **out, char *err, size_t errlen);

/* Reads a PGM/PPM (P5, P6), PNG or JPEG file, chosen by its first bytes
 * (not its name). Same ownership and errors as the decoders, plus -errno of
 * open/read (-ENOENT, -EACCES, ...). Files over VIS_MAX_FILE are -E2BIG. */
#define VIS_MAX_FILE (256L * 1024 * 1024)
int vis_image_load(const char *path, struct vis_image **out, char *err, size_t errlen);

/* Writes a PNG (GRAY8 or RGB24). 0, or -errno with "path: why" in err. */
int vis_image_save_png(const struct vis_image *img, const char *path, char *err, size_t errlen);
/* Writes a binary PGM (GRAY8) or PPM (RGB24). Same errors. */
int vis_image_save_pnm(const struct vis_image *img, const char *path, char *err, size_t errlen);

/* ---- Y4M video (YUV4MPEG2, 8-bit 4:2:0/4:2:2/4:4:4/mono) ---- */

struct vis_y4m;

/* Opens a Y4M file and reads its stream header. NULL with errno set and
 * "path: why" in err. Close with vis_y4m_close(). */
struct vis_y4m *vis_y4m_open(const char *path, char *err, size_t errlen);
/* The same on an open stream (a pipe, fmemopen); the reader owns f from
 * here on, also on failure (it is closed). path names it in messages. */
struct vis_y4m *vis_y4m_open_stream(FILE *f, const char *path, char *err, size_t errlen);
void vis_y4m_close(struct vis_y4m *y);
/* Frame size and rate of the stream (rate as numerator/denominator). */
void vis_y4m_info(const struct vis_y4m *y, int *width, int *height, int *fps_num, int *fps_den);
/* Reads the next frame's luma into a new GRAY8 image (*out, the caller
 * frees it); ts_ns counts from 0 at the frame rate. Returns 1 a frame,
 * 0 at the clean end of the stream, negative errno on a truncated or
 * malformed frame (with "path: frame N: why" in err). */
int vis_y4m_read(struct vis_y4m *y, struct vis_image **out, char *err, size_t errlen);

/* ---- Dice: finding dice and reading their faces ---- */

struct vis_fnet;

/* Tunables, plain fields with documented defaults (vis_dice_params_default). */
struct vis_dice_params {
	double min_die_px;	/* smallest die side considered, pixels (default 14) */
	double max_die_px;	/* largest die side, pixels (default 160) */
	double min_confidence;	/* below this a face is reported unreadable (0.5) */
	int keep_unreadable;	/* report dice whose face is unreadable, face 0 (0: omit) */
	int pips_only;		/* read by the pips alone, the face net not asked (0);
				 * for training the net and weighing it (tools/fnet/) */
	const struct vis_fnet *net;	/* the face net asked (the caller's; NULL: the
					 * built-in one, vis_fnet_builtin) */
};

struct vis_die {
	int face;		/* 1-6, or 0 when unreadable */
	double x;		/* centre, pixels from the left edge */
	double y;		/* centre, pixels from the top edge */
	double side;		/* estimated die side, pixels */
	double angle;		/* rotation of the die's pip grid, radians in [0, pi/2) */
	double confidence;	/* 0-1: how well the pips fit the face's layout */
};

void vis_dice_params_default(struct vis_dice_params *p);

/* Finds dice in img (GRAY8 or RGB24; the caller keeps it) and reads their
 * faces. Writes at most max dice into out (caller's array) and returns how
 * many were found (which may exceed max: only max are written), or a
 * negative errno (-EINVAL bad image, -ENOMEM) with a message in err.
 * Dice whose face is unreadable are omitted, or reported with face 0 when
 * params->keep_unreadable is set (a find that neither reader reads and the
 * face net takes for no die, a screw hole or a shadow, is not a die).
 * A die is given once: of finds nearer than about three quarters of a
 * side, the better read stands. params may be NULL for the defaults.
 * Images over 1600 pixels a side are read box-averaged to at most that,
 * and ones still over 800 at half that too, the half's reading kept when
 * it reads more dice surely; pictures up to 800 a side whose finds (read
 * or not, whatever keep_unreadable says) have a median side under 22
 * pixels, or where none is found, are read enlarged twice too, kept alike (coordinates are always the
 * given image's). */
int vis_dice_find(const struct vis_image *img, const struct vis_dice_params *params,
		  struct vis_die *out, int max, char *err, size_t errlen);

/* ---- Face net: a small convolutional net (vision/face_net.c) naming the
 * face of the die centred in a crop, trained offline on labelled real and
 * rendered dice (tools/fnet/). Its built-in weights are compiled in; a
 * retrained net is loaded from a weights file (format in docs/vision.md).
 * A second witness to the pip reader's count, weighed against it in
 * vis_dice_find. */
#define VIS_FNET_SIDE 40	/* crops are VIS_FNET_SIDE x VIS_FNET_SIDE RGB */
#define VIS_FNET_CLASSES 7	/* 0: no die centred in the crop, 1-6: the face up */
#define VIS_FNET_FORMAT 1	/* the weights file's format version read and written */
/* The largest weight a file may hold: a normalised crop's values are
 * below sqrt(40 * 40 * 3) = 70, so through the five layers' fan-ins (27,
 * 144, 288, 1200, 64) no sum can pass 1e33, well inside a float: any net
 * that loads gives finite probabilities. The built-in net's are below 1. */
#define VIS_FNET_MAX_WEIGHT 1e4f
/* The crop's span over the larger side of a labelled die's box (its top
 * and what shows of its sides), and over vis_die.side of a detection (a
 * blob's side: shadow included). */
#define VIS_FNET_BOX_SPAN 1.35
#define VIS_FNET_SPAN 1.73	/* 1.35 x 1.284: a box's side over the found side, the
				 * median on the tuning photos (face_crops prints it) */

/* A net: its shape (only the built-in one's is read: 40x40 crops, 3x3
 * convolutions of 16, 32, 48 channels, 64 hidden units, 7 classes), how
 * many turns of a crop it was trained to be read at, and its weights. */
struct vis_fnet {
	int turns;		/* quarter turns a crop is read at, readings averaged: 1, 2
				 * (a half turn apart) or 4; the built-in net's: its
				 * generated header's FNET_TURNS, 4 without one */
	int version;		/* the weights file format it came in (VIS_FNET_FORMAT) */
	uint32_t crc;		/* its weights file's CRC-32 (the built-in net's as
				 * vis_fnet_write writes it): names the net in logs */
	int side, c1, c2, c3, f1;	/* crop side, the layers' widths */
	float norm_eps;		/* added to the crop's spread before dividing by it */
	void *w;		/* the weights, laid out for the forward pass; owned
				 * by the net (vis_fnet_free) */
};

/* The compiled-in net: static, shared, never freed (thread-safe). */
const struct vis_fnet *vis_fnet_builtin(void);
/* Loads a weights file into *out (a new net: vis_fnet_free). 0, or
 * negative errno with "face net PATH: why" in err (missing, truncated,
 * wrong magic or format version, a shape other than the built-in net's,
 * turns not 1, 2 or 4, a weight not finite, trailing bytes, a bad
 * checksum); *out NULL then. Memory is the expected shape's whatever the
 * file holds. */
int vis_fnet_load(const char *path, struct vis_fnet **out, char *err, size_t errlen);
/* vis_fnet_load from an open stream f (the caller's, read to its end),
 * path naming it in messages. */
int vis_fnet_read_file(FILE *f, const char *path, struct vis_fnet **out, char *err, size_t errlen);
/* Writes net to path as a weights file (replacing it). 0 or negative
 * errno with a message; a failed write leaves no file. */
int vis_fnet_write(const struct vis_fnet *net, const char *path, char *err, size_t errlen);
/* A new copy of net (vis_fnet_free) read at turns quarter turns, every
 * weight times scale (1: the same net); NULL without memory. For
 * measuring a net at fewer turns and for tests' worse nets. */
struct vis_fnet *vis_fnet_copy(const struct vis_fnet *net, int turns, double scale);
/* Frees a net from vis_fnet_load or vis_fnet_copy; NULL and the built-in
 * net are ignored. */
void vis_fnet_free(struct vis_fnet *net);

/* Samples the square of span pixels centred on (x, y) of img (GRAY8 or
 * RGB24, at least 1x1), turned by angle radians, into out (VIS_FNET_SIDE^2
 * x 3 bytes, pixel-interleaved RGB, the caller's): bilinear, averaged 4 or
 * 9 times a pixel when span is over 1.5 or 3 crop pixels a pixel, the
 * image's edge pixels beyond it (also for infinite or NaN places). */
void vis_fnet_crop(const struct vis_image *img, double x, double y, double span, double angle,
		   uint8_t *out);
/* net's class probabilities for a crop from vis_fnet_crop (they sum to
 * 1). Pure arithmetic: no allocation, no failure. */
void vis_fnet_classify(const struct vis_fnet *net, const uint8_t *crop,
		       float prob[VIS_FNET_CLASSES]);
/* vis_fnet_classify averaged over net->turns quarter turns of crop (its
 * pixels turned: the same points as crops cut at those angles). */
void vis_fnet_classify_turned(const struct vis_fnet *net, const uint8_t *crop,
			      float prob[VIS_FNET_CLASSES]);
/* net's probabilities for the die centred at (x, y) of img in a crop of
 * span pixels: vis_fnet_crop once, then vis_fnet_classify_turned. */
void vis_fnet_read(const struct vis_fnet *net, const struct vis_image *img, double x, double y,
		   double span, float prob[VIS_FNET_CLASSES]);

/* How a net reads a file of labelled test crops (tests/data/face-net-
 * crops.bin: tools/fnet/face_crops' records, 1 byte class 0-6, 1 byte
 * split, 2 bytes photo, VIS_FNET_SIDE^2 RGB bytes): its likeliest class
 * (at its turns) against the label. */
struct vis_fnet_score {
	int crops;		/* crops read */
	int right;		/* likeliest class the label */
	int sure_wrong;		/* likeliest class another, at 0.9 or more */
};
/* Scores net on the crops in path into *s. 0, or negative errno with
 * "face net test crops PATH: why" (missing, empty, a partial record, a
 * class over 6). */
int vis_fnet_score(const struct vis_fnet *net, const char *path, struct vis_fnet_score *s,
		   char *err, size_t errlen);

/* ---- Homographies (table calibration) ----
 * 3x3 row-major, h[8] = 1. Table coordinates are metres from team A's end
 * (x) and the left edge (y), as in core/core.h. */

/* Fits h mapping src[i] to dst[i] for n >= 4 point pairs (exact for 4,
 * least squares beyond). 0, -EINVAL (n < 4) or -EDOM (degenerate points,
 * e.g. three on a line). */
int vis_homography_fit(const double (*src)[2], const double (*dst)[2], int n, double h[9]);
/* (x, y) through h into (u, v). -EDOM for a point on the horizon. */
int vis_homography_apply(const double h[9], double x, double y, double *u, double *v);
/* The inverse mapping. -EDOM when h is singular. */
int vis_homography_invert(const double h[9], double inv[9]);
/* h (image pixels -> table) fitted on a picture of from_w x from_h made
 * to take pixels of a picture of the same view at to_w x to_h (the
 * calibration photo at the sensor's full size, the tracking stream at
 * 640x360: pixel centres kept). 0, or -EINVAL when the two are not the
 * same shape within 1 % (another crop of the sensor, not a resize: no
 * scale maps one onto the other) or a size is not positive. */
int vis_homography_resized(const double h[9], int from_w, int from_h, int to_w, int to_h,
			   double out[9]);

/* ---- Synthetic renderer (tests, benchmarks, the demo) ----
 * A table seen through a camera: the table top with its centre line, the
 * four cups and the mine (struct bd_table), on a floor, dice at any pose
 * and face with soft shadows, a light gradient, sensor noise and motion
 * blur. Everything random comes from seed, so a scene renders the same
 * bytes every time. */

#define VIS_RENDER_MAX_DICE 8

struct vis_render_die {
	double x, y;		/* centre, table metres */
	double z;		/* height above the table top, metres (0: resting) */
	double angle;		/* rotation about the vertical, radians */
	int face;		/* 1-6, on top */
	double vx, vy;		/* metres/second, for motion blur */
	uint8_t body[3];	/* RGB of the die */
	uint8_t pip[3];		/* RGB of its pips */
	int shape;		/* 0: a d6; 3-12: not a d6, a flat regular polygon of that many
				 * sides, a die side across, with face's numeral (7 segments) */
};

struct vis_render_scene {
	struct bd_table table;	/* layout (bd_table_defaults) */
	int width, height;	/* output pixels */
	double h[9];		/* table metres -> image pixels (vis_render_view_topdown) */
	double camera_height_m;	/* above the table top; dice in the air look bigger (2.0) */
	int perspective;	/* 0: dice drawn as seen straight from above (their top alone);
				 * 1: as cubes seen from the camera at cam_x_m, cam_y_m,
				 * camera_height_m, the side faces facing it showing */
	double cam_x_m, cam_y_m;	/* with perspective: the camera's foot on the table plane */
	double die_side_m;	/* 0.016: a standard 16 mm die */
	double light_gradient;	/* 0-1: brightness falls by this much across the image (0.2) */
	double light_level;	/* overall brightness factor (1.0) */
	double noise_sigma;	/* grey levels of Gaussian sensor noise (2) */
	double exposure_s;	/* shutter time for motion blur (0.004) */
	int show_table;		/* draw table, line, cups, mine (1); 0: a plain tray colour */
	uint8_t tray[3];	/* the plain background when show_table is 0 */
	uint64_t seed;		/* noise */
	int n_dice;		/* up to VIS_RENDER_MAX_DICE */
	struct vis_render_die dice[VIS_RENDER_MAX_DICE];	/* the dice */
};

/* Defaults: standard table, 640x360 top-down view of the whole table with
 * a margin, no dice. */
void vis_render_scene_default(struct vis_render_scene *s);
/* Sets s->h for a camera straight above the point (cx, cy) (table metres)
 * seeing span_m metres across the image's width. */
void vis_render_view_topdown(struct vis_render_scene *s, double cx, double cy, double span_m);
/* Fills s with a close-up of n resting dice (n <= VIS_RENDER_MAX_DICE) on
 * a plain tray, all drawn from seed: faces, positions (not touching),
 * rotations, colours (light dice with dark pips and dark ones with light
 * pips), die size 18-50 pixels, light level and gradient, noise 0-6 grey
 * levels. width x height as set in s before the call. */
void vis_render_random_dice(struct vis_render_scene *s, uint64_t seed, int n);
/* Renders the scene into a new RGB image (*out, the caller frees it).
 * 0, or -EINVAL (bad size, singular h, face out of 1-6) / -ENOMEM with a
 * message. */
int vis_render(const struct vis_render_scene *s, struct vis_image **out, char *err, size_t errlen);

/* ---- Tracking in the low-resolution stream ----
 * A background model of the empty table (adapting to slow light changes),
 * dice found as blobs of die size in table coordinates, tracks with a
 * constant-velocity motion model. Each track goes flying -> bouncing ->
 * at rest, or gone (over an edge, into a cup). The tracker emits
 * observations for the daemon's fusion; those that map onto core's
 * events convert with vis_obs_to_event(). */

enum vis_track_state {
	VIS_TRACK_FLYING,	/* seen since release, no table contact yet */
	VIS_TRACK_BOUNCING,	/* touched the table, still moving */
	VIS_TRACK_REST,		/* still for rest_frames */
	VIS_TRACK_GONE,		/* lost: over an edge, into a cup, or picked up */
};

enum vis_obs_kind {
	VIS_OBS_RELEASE,	/* a new die in flight: t_ns is its first sighting */
	VIS_OBS_LANDING,	/* first table contact at (x, y), with apex_m */
	VIS_OBS_REST,		/* at rest at (x, y); face 0 until read (vis_read_face_at) */
	VIS_OBS_SINK,		/* went into cup `player`'s region and did not come out */
	VIS_OBS_OFF_TABLE,	/* left the table over an edge at (x, y) */
	VIS_OBS_MINE,		/* touched the mine (BD-O1): first contact on it, or turned by it on the table */
};

struct vis_obs {
	enum vis_obs_kind kind;	/* what was seen */
	int track;		/* track id, from 1 */
	int64_t t_ns;		/* when (frame time; LANDING interpolated) */
	double x, y;		/* table metres */
	double u, v;		/* the same point in image pixels */
	int player;		/* SINK: the cup's owner (0 a1 .. 3 b2) */
	int face;		/* REST: 1-6, 0 unknown */
	double apex_m;		/* LANDING: the die centre's top height above the table top, from its fall (g t^2 / 2); -1 not measured */
	double apex_sigma_m;	/* LANDING: its standard uncertainty (frame timing) */
	double flight_s;	/* LANDING: release to first contact */
	double xy_sigma_m;	/* LANDING: the point's standard uncertainty along each axis (metres, VIS_LANDING_XY_SD_M) */
	double confidence;	/* 0-1 */
};

/* The sd of a tracked landing point along each axis on 30 fps frames,
 * measured on rendered throws (docs/vision.md, "Tracking"). */
#define VIS_LANDING_XY_SD_M 0.005
/* The sd of a tracked landing's time on 30 fps frames: a third of a frame
 * (the contact is where two fitted lines meet between sightings; docs/
 * vision.md, "Tracking and observations"). The simulator's camera draws it. */
#define VIS_LANDING_T_SD_NS 11000000LL

struct vis_tracker_cfg {
	struct bd_table table;	/* layout: edges, cups */
	double h[9];		/* image pixels -> table metres (calibration) */
	double die_side_m;	/* 0.016 */
	double bg_rate;		/* background learning rate a frame (0.02) */
	int diff_threshold;	/* colour distance that makes foreground (30) */
	double rest_speed_mps;	/* below this a die is still (0.03) */
	int rest_frames;	/* frames still before "rest" (6) */
	int gone_frames;	/* frames unseen before "gone" (4) */
	double contact_dv_mps;	/* a velocity jump this big (and a fifth of the speed) is a table contact (0.25) */
};

struct vis_tracker;

/* Defaults for the table layout t and image->table homography h. */
void vis_tracker_cfg_default(struct vis_tracker_cfg *cfg, const struct bd_table *t, const double h[9]);
/* A tracker for frames of width x height. NULL with errno (EINVAL bad
 * config, ENOMEM). Free with vis_tracker_free(). */
struct vis_tracker *vis_tracker_new(const struct vis_tracker_cfg *cfg, int width, int height);
void vis_tracker_free(struct vis_tracker *t);
/* Learns the empty table from a frame (call with a few frames before play). */
int vis_tracker_learn(struct vis_tracker *t, const struct vis_image *frame);
/* Processes one frame (RGB24 or GRAY8, the tracker's size; ts_ns set).
 * Writes at most max observations into out and returns how many, or a
 * negative errno (-EINVAL wrong size or format). The frame stays the
 * caller's. */
int vis_tracker_feed(struct vis_tracker *t, const struct vis_image *frame,
		     struct vis_obs *out, int max);
/* Current tracks: states and positions (table metres); returns how many
 * (at most max written). */
int vis_tracker_tracks(const struct vis_tracker *t, enum vis_track_state *state,
		       double (*xy)[2], int max);
/* The core event an observation stands for: LANDING -> BD_EV_TABLE (half,
 * x, y), REST -> BD_EV_REST (face), SINK -> BD_EV_CUP (player, sink), MINE
 * -> BD_EV_MINE, all with source "camera", confidence and t_ns. A landing's
 * confidence is the tracker's that it was a contact times the probability
 * that its half is right (the point's xy_sigma_m against the line's edges,
 * vis_half_confidence). -ENOENT for kinds that have no core event
 * (RELEASE, OFF_TABLE, and REST with face 0). */
int vis_obs_to_event(const struct vis_obs *o, const struct bd_table *table, struct bd_event *ev);
/* The probability that a point measured at x (metres from A's end) with a
 * normal error of sd sigma_m lies on the half bd_table_half() gives for x:
 * the mass of the error on that half or on the line's strip. */
double vis_half_confidence(const struct bd_table *table, double x, double sigma_m);
/* The probability that a die's centre measured at (x, y) (table metres)
 * with a normal error of sd sigma_m along each axis was within reach_m of
 * the mine's axis: the mass of that error on the disc of radius reach_m.
 * sigma_m <= 0: 1 inside, 0 outside. A mine report's confidence weighs
 * this in (BD-O1: the can stands on the line, where the error is largest). */
double vis_mine_reach(const struct bd_table *table, double x, double y, double reach_m,
		      double sigma_m);
/* How sure the tracker is that a die whose centre it placed at (x, y)
 * (sd sigma_m along each axis) touched the mine (BD-O1). over_can: it came
 * down on the can, and the result is the chance its centre was within a
 * face's reach of the can's axis (the caller weighs the contact's own
 * confidence in); otherwise it turned beside the can: 0.9 within a face's
 * reach of the wall, 0.6 where only a corner reaches, each weighed by its
 * chance. One formula for the tracker and the simulator's model of it. */
double vis_mine_touch_confidence(const struct bd_table *table, double die_side_m, double x,
				 double y, double sigma_m, bool over_can);

/* Reads the face of a die near (u, v) in a full-resolution image: crops a
 * square of 3 die sides around it and runs vis_dice_find on the crop; a
 * die found under 0.75 die_px a side is part of one, at most 0.7 sure;
 * the built-in face net. 0 and *out (in full-image pixels), -ENOENT no die read there, or a
 * negative errno. */
int vis_read_face_at(const struct vis_image *full, double u, double v, double die_px,
		     struct vis_die *out, char *err, size_t errlen);

/* Reads the face of the one die whose centre lies within 1.5 die sides of
 * (u, v) in a full-resolution image (GRAY8 or RGB24; the caller keeps it),
 * its side being about die_px pixels (8-1000): no segmentation, so a die on
 * a background of its own colour (a white die on the white centre line) or
 * against a cup reads as on open table. Pips dark on light or light on
 * dark, the 1-6 layouts in any rotation. 0 and *out (the caller's; full-
 * image pixels, side = die_px) with the face that fits best and a
 * confidence that is low when the pips barely stand out, an empty place
 * or a stray spot on the die looks like a pip, or another face fits
 * nearly as well (take the face only above the house's review threshold).
 * -ENOENT when no pip pattern is there, -EINVAL (bad image, size, or the
 * point leaves no die's room in the image), -ENOMEM; with a message. */
int vis_read_die_near(const struct vis_image *full, double u, double v, double die_px,
		      struct vis_die *out, char *err, size_t errlen);

/* Reads the face of the die a camera located at (u, v) in a full-resolution
 * image (die_px: a die's side in its pixels): vis_read_die_near there (the
 * one die within 1.5 sides, found by its pips alone: on the white line and
 * against cups too), and when that is unsure (below 0.8), again one die
 * side around it, the die within two sides of the point (a location from a
 * low-resolution stream, whose pixel may be a quarter of a die, may be off
 * by more). Still unsure: the general finder's reading (vis_read_face_at
 * around the point), taken only if it names the same face or the pips
 * showed none; two faces named: confidence 0; the general finder weighs
 * net's reading in (NULL: the built-in net). 0 and *out (the caller's),
 * or -ENOENT. */
int vis_read_face_near(const struct vis_image *full, double u, double v, double die_px,
		       const struct vis_fnet *net, struct vis_die *out);

/* ---- Camera calibration ----
 * Finds the table top (the largest region of one colour, lines, cups and
 * dice inside it allowed) and its four corners, in the order table
 * (0, 0) A's end left edge, (0, W) A's end right edge, (L, W), (L, 0),
 * assuming the camera sees A's end on the image's left (flip_ends: on its
 * right). 0, or -ENOENT (no table-sized region, or not four clear
 * corners) / -ENOMEM with a message. */
int vis_find_table_corners(const struct vis_image *img, int flip_ends, double corners[4][2],
			   char *err, size_t errlen);

/* ---- Camera (libcamera, vision/camera_libcamera.cpp behind this C
 * interface; no C++ type or exception crosses it) ----
 * Two streams: a low-resolution one for tracking at a high frame rate and
 * the full-resolution one for crops around a resting die. libcamera's
 * thread only queues completed requests and signals an eventfd; the
 * event loop polls that fd and takes frames with vis_camera_take(). */

struct vis_camera;

enum vis_camera_stream {
	VIS_STREAM_LOW = 0,	/* tracking, e.g. 640x360 */
	VIS_STREAM_FULL = 1,	/* full resolution, face reading */
};

struct vis_camera_cfg {
	const char *id;		/* libcamera camera id, NULL: the first camera */
	int low_width, low_height;	/* tracking stream (640 x 360) */
	int full_width, full_height;	/* 0 x 0: the sensor's own size */
	int buffers;		/* per stream, 2..16 (4) */
	int fps;		/* frames a second asked for, 1..VIS_CAMERA_MAX_FPS; 0: the
				 * fastest the sensor mode both streams come from allows */
};
#define VIS_CAMERA_MAX_FPS 240

void vis_camera_cfg_default(struct vis_camera_cfg *cfg);
/* Opens and configures the camera. NULL with errno and a message: EINVAL
 * (bad cfg, or the camera cannot give YUV420 at these sizes: "unsupported
 * format"), ENODEV ("no camera found", or none with that id), EBUSY
 * ("camera busy": another process holds it), EIO (libcamera failed).
 * Close with vis_camera_close(). */
struct vis_camera *vis_camera_open(const struct vis_camera_cfg *cfg, char *err, size_t errlen);
/* Starts capture. 0 or a negative errno with a message. */
int vis_camera_start(struct vis_camera *cam, char *err, size_t errlen);
/* The eventfd (EFD_NONBLOCK) that becomes readable when frames wait. */
int vis_camera_fd(const struct vis_camera *cam);
/* The newest frame of a stream as a new RGB24 image (*out, the caller
 * frees it; ts_ns from the sensor, CLOCK_MONOTONIC). The newest completed
 * request is held until newer ones arrive, so after taking its low frame
 * the full-resolution one of the same instant can be taken too; older
 * ones are dropped and their buffers reused. 1 a frame, 0 none yet,
 * negative errno on failure. */
int vis_camera_take(struct vis_camera *cam, enum vis_camera_stream stream,
		    struct vis_image **out, char *err, size_t errlen);
/* Stops, releases and frees; NULL is fine. */
void vis_camera_close(struct vis_camera *cam);
/* What vis_camera_open's or vis_camera_start's errno e means in a few
 * words naming no camera id or fix ("not found"): for a screen anyone may
 * read, where err's message (the camera's id, on a Pi a device path) is
 * the owner's. Static text. */
const char *vis_camera_reason(int e);

/* A frame as the camera gives it: planar YUV 4:2:0 (libcamera's YUV420,
 * BT.601 limited range) in one allocation, so taking it is a copy and its
 * conversion (vis_yuv420_image) can run on any thread, off the loop. */
struct vis_yuv420 {
	int width, height;	/* pixels */
	size_t y_stride;	/* bytes between rows of y */
	size_t uv_stride;	/* bytes between rows of u and of v */
	uint8_t *y, *u, *v;	/* the planes, inside this allocation */
	int64_t ts_ns;		/* from the sensor, CLOCK_MONOTONIC */
};

/* As vis_camera_take, but the newest frame's planes copied as they are
 * into a new frame (*out, the caller's: vis_yuv420_free). */
int vis_camera_take_yuv(struct vis_camera *cam, enum vis_camera_stream stream,
			struct vis_yuv420 **out, char *err, size_t errlen);
/* A width x height frame, planes packed (strides width and (width+1)/2),
 * contents unset. NULL with errno: EINVAL (a side outside 1..VIS_MAX_SIDE
 * or too many pixels), ENOMEM. */
struct vis_yuv420 *vis_yuv420_new(int width, int height);
void vis_yuv420_free(struct vis_yuv420 *f);
/* f as a new RGB24 image (vis_yuv420_to_rgb; ts_ns kept), the caller's;
 * NULL with errno ENOMEM. */
struct vis_image *vis_yuv420_image(const struct vis_yuv420 *f);

/* Planar YUV 4:2:0 (BT.601 limited range, as libcamera's YUV420) to RGB24.
 * y/u/v planes with their strides; out is width x height RGB24. Used by the
 * camera shim; a plain function so it is tested without a camera. */
void vis_yuv420_to_rgb(const uint8_t *y, size_t y_stride, const uint8_t *u, const uint8_t *v,
		       size_t uv_stride, struct vis_image *out);

/* The frame durations, shortest and longest in microseconds, the shim asks
 * for so frames come fps a second (0: as fast as the camera allows),
 * within the camera's own limits [shortest_us, longest_us] for the sensor
 * mode configured (0: not stated). Both are the same: a fixed rate.
 * 0 with out set; -ENOENT when fps is 0 and no limit is known (nothing
 * to ask: the camera's default stands); -EINVAL for values out of range. */
int vis_camera_frame_durations(int fps, int64_t shortest_us, int64_t longest_us, int64_t out[2]);

/* A frame buffer's planes as libcamera describes them (FrameBuffer::Plane):
 * each in a dmabuf at an offset. Planes may share one dmabuf or each have
 * their own; the shim maps each distinct dmabuf once. Plain C so the
 * bookkeeping is tested without a camera. */
struct vis_fb_plane {
	int fd;			/* dmabuf holding the plane */
	unsigned offset;	/* bytes from the dmabuf's start (UINT_MAX: unset) */
	unsigned length;	/* bytes of the plane */
	int map;		/* set by vis_fb_plan(): index of its mapping */
};

struct vis_fb_map {
	int fd;			/* dmabuf to map from byte 0 */
	size_t len;		/* bytes to map: the end of its furthest plane */
};

/* Groups n planes by dmabuf into maps[] (room for n): one mapping per
 * distinct fd, long enough for every plane in it; sets each plane's map.
 * The number of mappings, or -EINVAL with a message (no planes, a bad fd,
 * an unset offset). */
int vis_fb_plan(struct vis_fb_plane *planes, int n, struct vis_fb_map *maps, char *err,
		size_t errlen);
/* Whether rows rows of row_bytes bytes, stride apart, from plane index's
 * offset lie within the plane and its mapping. 0, or -EINVAL with a
 * message naming the plane and the bytes missing. */
int vis_fb_plane_fits(const struct vis_fb_plane *plane, const struct vis_fb_map *map, int index,
		      size_t stride, size_t row_bytes, size_t rows, char *err, size_t errlen);

#endif /* DYEREF_VISION_H */
