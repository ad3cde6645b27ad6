/* The real photos' labels (tests/data/dice-photos/labels.json: each die's
 * face and box) against the dice a reading found. Shared by the golden
 * tests (tests/unit/test_vis_photos.c, test_vis_white.c) and their
 * benchmark (bench/vision_photos.c) so all count alike. Header-only: each includes
 * it once. */
#ifndef DYEREF_PHOTO_LABELS_H
#define DYEREF_PHOTO_LABELS_H

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision.h"

/* Whether (x, y) lies inside the box of w x h centred on (bx, by): a
 * find counts for a labelled die when its centre does. */
static inline int photo_box_holds(double bx, double by, double w, double h, double x, double y)
{
	return fabs(x - bx) <= w / 2 && fabs(y - by) <= h / 2;
}

/* Whether a find at (x, y) counts for a die labelled with the w x h box
 * centred on (bx, by): inside the box (within 0), or within `within` of
 * its width from its centre, as the white dice' labels ask
 * (tests/data/dice-photos-white/README.md: the centre is the top face's,
 * the box widened to the die). */
static inline int photo_holds(double bx, double by, double w, double h, double within, double x,
			      double y)
{
	if (within > 0)
		return hypot(x - bx, y - by) <= within * w;
	return photo_box_holds(bx, by, w, h, x, y);
}

/* photo_holds() for labels.json's die l. */
static inline int photo_label_holds(json_t *l, double within, double x, double y)
{
	return photo_holds(json_real_value(json_object_get(l, "x")), json_real_value(json_object_get(l, "y")),
			   json_real_value(json_object_get(l, "w")), json_real_value(json_object_get(l, "h")),
			   within, x, y);
}

/* Index of the find of d[0..n) that counts for the die labelled at (x, y)
 * with a w x h box (photo_holds), nearest its centre, not used (used may
 * be NULL), read, or with unread unreadable (face 0); -1 when none. The
 * first of equally near ones. */
static inline int photo_nearest(const struct vis_die *d, int n, const int *used, int unread,
				double x, double y, double w, double h, double within)
{
	int best = -1;
	double bd = 1e18;
	for (int i = 0; i < n; i++) {
		if ((used && used[i]) || (d[i].face == 0) != unread ||
		    !photo_holds(x, y, w, h, within, d[i].x, d[i].y))
			continue;
		double dist = hypot(d[i].x - x, d[i].y - y);
		if (dist < bd) {
			bd = dist;
			best = i;
		}
	}
	return best;
}

/* The set dir's heldout.txt read whole (the caller frees it), or NULL
 * where there is none (or no memory). */
static inline char *photo_held_list(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/heldout.txt", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = calloc(1, 1 << 16);
	if (buf && fread(buf, 1, (1 << 16) - 1, f) == 0)
		buf[0] = 0;
	fclose(f);
	return buf;
}

/* Whether photo `name` is in the set's held-out split: listed in the set's
 * heldout.txt (held, one name a line, NULL: none), else for the tray
 * photos not of 2019-12-08 (the tuning day). */
static inline int photo_held_out(const char *held, const char *name)
{
	if (!held)
		return !strstr(name, "20191208");
	size_t n = strlen(name);
	for (const char *p = strstr(held, name); p; p = strstr(p + 1, name))
		if ((p == held || p[-1] == '\n') && (p[n] == '\n' || p[n] == 0))
			return 1;
	return 0;
}

/* How many of the labelled dice (a photo's "dice" array) more than one of
 * the n finds falls on: a find counts for the die whose box holds it and
 * whose centre is nearest of all the photo's dice (dice' boxes overlap
 * where they touch). One die must be one find. */
static inline int photo_labels_found_twice(json_t *labels, double within, const struct vis_die *found, int n)
{
	size_t nl = json_array_size(labels);
	int twice = 0;
	for (size_t k = 0; k < nl; k++) {
		json_t *l = json_array_get(labels, k);
		double lx = json_real_value(json_object_get(l, "x")), ly = json_real_value(json_object_get(l, "y"));
		int finds = 0;
		for (int i = 0; i < n; i++) {
			double d = hypot(found[i].x - lx, found[i].y - ly);
			int nearest = photo_label_holds(l, within, found[i].x, found[i].y);
			for (size_t o = 0; o < nl && nearest; o++) {
				json_t *m = json_array_get(labels, o);
				nearest = o == k || hypot(found[i].x - json_real_value(json_object_get(m, "x")),
							  found[i].y - json_real_value(json_object_get(m, "y"))) >= d;
			}
			finds += nearest;
		}
		twice += finds > 1;
	}
	return twice;
}

/* The dice found on the photo dir/name, unreadable ones kept (face 0: the
 * read checks skip them), into d (up to max <= 128); how many, or -1 with
 * the reason on stderr. */
static inline int photo_read(const char *dir, const char *name, struct vis_die *d, int max)
{
	char path[512], err[256];
	struct vis_image *img;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (vis_image_load(path, &img, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	struct vis_dice_params p;
	vis_dice_params_default(&p);
	p.keep_unreadable = 1;
	int n = vis_dice_find(img, &p, d, max, err, sizeof err);
	vis_image_free(img);
	if (n < 0)
		fprintf(stderr, "%s: %s\n", path, err);
	return n <= max ? n : -1;
}

/* A new copy of img turned q quarter turns clockwise (0-3), or NULL
 * (ENOMEM). The reader works in rows and blocks from the top left; a
 * photo turned shows which readings hang on where the picture starts,
 * as a camera mounted the other way round would. */
static inline struct vis_image *photo_turned(const struct vis_image *img, int q)
{
	int side = q % 2;
	struct vis_image *t = vis_image_new(side ? img->height : img->width,
					    side ? img->width : img->height, img->format);
	if (!t)
		return NULL;
	size_t bpp = (size_t)img->format;
	for (int y = 0; y < t->height; y++)
		for (int x = 0; x < t->width; x++) {
			/* The source pixel of (x, y) after q clockwise turns. */
			int sx = q == 0 ? x : q == 1 ? y : q == 2 ? img->width - 1 - x : img->width - 1 - y;
			int sy = q == 0 ? y : q == 1 ? img->height - 1 - x : q == 2 ? img->height - 1 - y : x;
			memcpy(t->data + (size_t)y * t->stride + (size_t)x * bpp,
			       img->data + (size_t)sy * img->stride + (size_t)sx * bpp, bpp);
		}
	return t;
}

/* Moves the n dice found on a picture photo_turned(img, q) made back to
 * img's coordinates (w x h is img's size). */
static inline void photo_turn_back(struct vis_die *d, int n, int q, int w, int h)
{
	for (int i = 0; i < n; i++) {
		double x = d[i].x, y = d[i].y;
		d[i].x = q == 0 ? x : q == 1 ? y : q == 2 ? w - 1 - x : w - 1 - y;
		d[i].y = q == 0 ? y : q == 1 ? h - 1 - x : q == 2 ? h - 1 - y : x;
	}
}

#endif
