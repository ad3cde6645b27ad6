/*
 * vision/ private (vision/vision.h is the module's one public header):
 * what the files of the still-image dice reader (vis_dice_find), split by
 * stage as dice.c's overview tells them, share:
 *   dice.c         the parameters' defaults; the picture read at one or two
 *                  scales and under two guesses of the typical die
 *                  (read_better, find_*, dice_front, dice_guess); 6. the face
 *                  net weighed against the pips (weigh_net); finds seen twice
 *                  dropped; vis_dice_find
 *   dice_bodies.c  1. the background model; 2. the die bodies: shadows, the
 *                  3x3 blur, box filters, components, blobs, the typical
 *                  side, a blob of several dice split, a body's edge
 *                  direction (vis_dice_body_angle)
 *   dice_pips.c    3 and 4. a die's pips and their layout (vis_dice_read_die),
 *                  and the reading by the pip grid (vis_dice_grid_read, the
 *                  second look's too)
 *   dice_look.c    5. the second look (vis_dice_second_look), and the integral
 *                  images it reads (vis_dice_integrals)
 * Functions shared between those files are named vis_dice_* like the
 * public ones, each described where it is defined. render.c draws dice
 * with the reader's pip layout (vis_pip_layout), so it includes this too.
 *
 * Internal constants, tuned on the 2019-12-08 photos only (the 2019-12-09
 * ones are held out) and on rendered dice; sizes are fractions of the die
 * side so nothing depends on the image's scale. Each may be overridden
 * with -D for a tuning sweep. Each is defined (#ifndef) in the one file
 * that uses it: none is used by two.
 */
#ifndef DYEREF_VISION_INTERNAL_H
#define DYEREF_VISION_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "vision/vision.h"

/* The working copy: packed RGB, whatever the input. */
struct vis_dice_work {
	int w, h;		/* pixels */
	uint8_t *rgb;		/* owned, 3 bytes a pixel, packed rows */
	uint8_t *smooth;	/* owned, rgb after a 3x3 box blur (pips in noise) */
	uint8_t *bg;		/* owned, background model, same layout */
	uint8_t *fg;		/* owned, 1 where a die body may be */
	uint8_t *fg0;		/* owned, fg before the opening */
	int *label;		/* owned, component of each pixel, 0 none */
	unsigned *ii;		/* owned, integral images of smooth, 3 planes of (w+1)x(h+1) */
	uint8_t *bodies;	/* owned, die bodies before any opening (dice_front) */
	int *stack;		/* owned, w x h ints for labelling */
	int *scratch;		/* owned, 2 x w x h ints for filters and pip masks */
};

struct vis_dice_blob {
	int x0, y0, x1, y1;	/* bounding box, inclusive */
	int area;		/* pixels after hole filling */
	double cx, cy;		/* centroid */
};

/* A die candidate: its pixels (indices into the image). */
struct vis_dice_cand {
	int *px;		/* owned */
	int n;			/* pixels */
	double cx, cy;		/* centroid */
};

/* Small helpers, inline: color_dist is called per pixel. */

static inline int color_dist(const uint8_t *a, const uint8_t *b)
{
	int dr = a[0] - b[0], dg = a[1] - b[1], db = a[2] - b[2];
	return (int)sqrtf((float)(dr * dr + dg * dg + db * db));
}

/* Median of n bytes by histogram. */
static inline uint8_t median_u8(const uint8_t *v, size_t n, size_t step)
{
	unsigned hist[256] = { 0 };
	for (size_t i = 0; i < n; i++)
		hist[v[i * step]]++;
	size_t half = n / 2, acc = 0;
	for (int k = 0; k < 256; k++) {
		acc += hist[k];
		if (acc > half)
			return (uint8_t)k;
	}
	return 255;
}

/* ---- dice.c ---- */

double vis_dice_percentile(double *v, int n, int pct);

/* ---- dice_bodies.c ---- */

int vis_dice_is_shadow(const uint8_t *p, const uint8_t *bg);
void vis_dice_blur3(const uint8_t *in, uint8_t *out, int w, int h);
int vis_dice_background(struct vis_dice_work *wk);
void vis_dice_box_filter(uint8_t *m, uint8_t *t, int w, int h, int r, int dilate);
int vis_dice_components(const uint8_t *m, int *label, int *stack, int w, int h);
void vis_dice_cand_box(const struct vis_dice_cand *c, int w, int *x0, int *y0, int *x1, int *y1);
int vis_dice_split_cand(const struct vis_dice_cand *c, int k, int w, struct vis_dice_cand *out);
int vis_dice_label_blobs(struct vis_dice_work *wk, struct vis_dice_blob **blobs_out, int *nl_out, int *stack,
			 int *scratch, double max_hole);
double vis_dice_typical_side(const struct vis_dice_blob *blobs, int nl, const struct vis_dice_params *params,
			     int pct);
double vis_dice_body_angle(const uint8_t *in, int bw, int bh, double *spread, double *len);

/* ---- dice_pips.c ---- */

/* Where face n's pips sit (n = 1..6; [n][i] for i < n), in units of the
 * pip spacing, the die's centre at 0: the reader fits them and the
 * renderer (render.c) draws them, so what is drawn is what is read. */
extern const double vis_pip_layout[7][6][2];

double vis_dice_grid_read(const unsigned *sum, int bw, int bh, int x0, int y0, double cx, double cy,
			  double side, int noff, int border, int min_face, double a_min, int na,
			  struct vis_die *d, int *mask_out, double *a_out);
int vis_dice_read_die(const struct vis_dice_work *wk, const struct vis_dice_cand *c, double side,
		      struct vis_die *d, int *scratch);

/* ---- dice_look.c ---- */

int vis_dice_integrals(struct vis_dice_work *wk);
int vis_dice_second_look(const struct vis_dice_work *wk, double S, struct vis_die *dice, int *nd, int cap);

#endif
