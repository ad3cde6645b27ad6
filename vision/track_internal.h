/*
 * vision/ private: the tracker's state and what its files share
 * (vision/vision.h has the interface; vision/track.c says how it works):
 *   track.c          new, free, each frame's steps, observations as events
 *   track_bg.c       the background model and the foreground
 *   track_contact.c  first contacts, apex, cups' rims and the mine
 *   track_geom.c     the view's scale, cups' and mine's regions, half and
 *                    mine confidences
 * Functions shared between them are named vis_trk_*, each described where
 * it is defined.
 */
#ifndef DYEREF_VISION_TRACK_INTERNAL_H
#define DYEREF_VISION_TRACK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "vision/vision.h"

#define MAX_TRACKS 8	/* dice followed at once */
#define HIST 16	/* positions kept a track, for the contact fit */
/* Blob ratios: a blob's area over a die's on the table there (track.c). */
#define ALOFT_RATIO 4.0		/* lost while rising this big: above the view, not gone */
/* A die's centre is within half a side of a can's wall when a face
 * touches it, within half a diagonal (0.71 sides) when a corner does. */
#define MINE_FACE_REACH 0.625	/* die sides beyond the can's radius: a face touching (half a side), with 2 mm for the centroid */
#define MINE_CORNER_REACH 0.75	/* ... a corner may touch (with the tracker's own error) */

struct trk {
	int id;			/* from 1; 0 = free slot */
	enum vis_track_state state;	/* see vision.h */
	double x, y;		/* last position, table metres */
	double u, v;		/* the same in pixels */
	double vx, vy;		/* m/s, 0 until two sightings */
	int have_v;		/* vx, vy measured */
	int sightings;		/* frames it was seen */
	int unseen;		/* frames since last seen */
	int still;		/* consecutive frames below rest speed */
	int64_t t_first;	/* first sighting (release) */
	int64_t t_last;		/* last sighting */
	double hx[HIST], hy[HIST];	/* recent positions, newest at (sightings - 1) % HIST */
	double ht[HIST];	/* their times, seconds from t_first */
	double hr[HIST];	/* their blob ratios (see ratio) */
	double rx, ry;		/* anchor of the current still spell */
	double frame_s;		/* last frame interval, seconds */
	double ratio;		/* last blob's area over a die's on the table there */
	double ratio0;		/* the same at the first sighting */
	double x0, y0;		/* where the first sighting was, table metres */
	double ratio_prev;	/* the same at the sighting before the last */
	double ratio_max;	/* the largest in flight (it rose: a release, not a die re-found) */
	int i_max;		/* the sighting it was at */
	double pk[3][2];	/* time (s from t_first) and ratio at i_max - 1, i_max, i_max + 1 */
	int aloft;		/* out of view above the camera since t_last */
	int gap;		/* came back from aloft: t_up, t_down hold */
	int64_t t_up;		/* last sighting on the way up */
	int64_t t_down;		/* first sighting on the way down */
	int i_min;		/* the contact search starts here: the first sighting back from above, or after a cup's rim */
	int cup_hit;		/* its first contact was a cup's rim */
	double cup_apex, cup_sigma;	/* the apex and sigma from that contact */
	int mine_done;		/* its mine contact was reported (one a track) */
	int mine_pending;	/* on the table, it passed within reach of the can: turned by it? */
	double mine_d;		/* the closest it came to the can's axis, metres */
	double mine_cx, mine_cy;	/* the point it was at then, table metres */
	int mine_i;		/* the sighting at or just after that point */
	int64_t mine_t;		/* when it was there */
};

struct vis_tracker {
	struct vis_tracker_cfg cfg;	/* copy */
	double hinv[9];		/* table -> image */
	int w, h;		/* frame size */
	uint16_t *bg16;		/* owned, RGB background model, 8.8 fixed point */
	uint8_t *bg8;		/* owned, its integer part, for the comparison */
	uint8_t *row;		/* owned, a grey row as RGB (frame_row) */
	uint8_t *diff;		/* owned, a row of byte differences, 2 zero bytes either side */
	uint8_t *fgb;		/* owned, a row: byte j's pixel is foreground */
	uint8_t *upd;		/* owned, a row: 0xff where byte j's pixel learns */
	uint8_t *phase;		/* owned, a row: j % 3, the byte's channel */
	uint8_t *fg;		/* owned, foreground mask (2 once visited) */
	uint8_t *fgrow;		/* owned, a byte a row: its mask may hold non-zero bytes */
	long frames;		/* frames fed */
	double bg_sum;		/* the model's brightness over every 8th row, if bg_sum_ok */
	int bg_sum_ok;		/* bg_sum is the model's as it is now */
	int *stack;		/* owned, flood-fill stack */
	int learned;		/* frames learned */
	struct trk tracks[MAX_TRACKS];	/* the tracks */
	int next_id;		/* id of the next new track */
};

/* ---- track.c ---- */
void vis_trk_emit(struct vis_obs *out, int max, int *n, const struct vis_obs *o);
struct vis_obs vis_trk_obs_at(const struct trk *k, enum vis_obs_kind kind, int64_t t_ns);

/* ---- track_bg.c ---- */
int vis_trk_check_frame(const struct vis_tracker *t, const struct vis_image *f);
void vis_trk_light(struct vis_tracker *t, const struct vis_image *frame);
size_t vis_trk_foreground(struct vis_tracker *t, const struct vis_image *frame);

/* ---- track_contact.c ---- */
void vis_trk_line_fit(const struct trk *k, int from, int n, double *p0x, double *p0y,
		      double *vx, double *vy);
void vis_trk_find_contact(struct vis_tracker *t, struct trk *k, struct vis_obs *out, int max, int *n);
void vis_trk_mine_touch(struct vis_tracker *t, struct trk *k, struct vis_obs *out, int max, int *n);

/* ---- track_geom.c ---- */
double vis_trk_px_per_m(const struct vis_tracker *t, double x, double y);
int vis_trk_on_table(const struct bd_table *tb, double x, double y);
int vis_trk_cup_at(const struct vis_tracker *t, double x, double y);
double vis_trk_mine_dist(const struct vis_tracker *t, double x, double y);

#endif
