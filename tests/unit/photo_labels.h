/* The real photos' labels (tests/data/dice-photos/labels.json: each die's
 * face and box) against the dice a reading found. Shared by the golden
 * test (tests/unit/test_vis_photos.c) and its benchmark
 * (bench/vision_photos.c) so both count alike. Header-only: each includes
 * it once. */
#ifndef DYEREF_PHOTO_LABELS_H
#define DYEREF_PHOTO_LABELS_H

#include <jansson.h>
#include <math.h>

#include "vision/vision.h"

/* Whether (x, y) lies inside the box of w x h centred on (bx, by): a
 * find counts for a labelled die when its centre does. */
static inline int photo_box_holds(double bx, double by, double w, double h, double x, double y)
{
	return fabs(x - bx) <= w / 2 && fabs(y - by) <= h / 2;
}

/* Whether (x, y) lies inside the labelled die l's box. */
static inline int photo_label_holds(json_t *l, double x, double y)
{
	return photo_box_holds(json_real_value(json_object_get(l, "x")), json_real_value(json_object_get(l, "y")),
			       json_real_value(json_object_get(l, "w")), json_real_value(json_object_get(l, "h")), x, y);
}

/* How many of the labelled dice (a photo's "dice" array) more than one of
 * the n finds falls on: a find counts for the die whose box holds it and
 * whose centre is nearest of all the photo's dice (dice' boxes overlap
 * where they touch). One die must be one find. */
static inline int photo_labels_found_twice(json_t *labels, const struct vis_die *found, int n)
{
	size_t nl = json_array_size(labels);
	int twice = 0;
	for (size_t k = 0; k < nl; k++) {
		json_t *l = json_array_get(labels, k);
		double lx = json_real_value(json_object_get(l, "x")), ly = json_real_value(json_object_get(l, "y"));
		int finds = 0;
		for (int i = 0; i < n; i++) {
			double d = hypot(found[i].x - lx, found[i].y - ly);
			int nearest = photo_label_holds(l, found[i].x, found[i].y);
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

#endif
