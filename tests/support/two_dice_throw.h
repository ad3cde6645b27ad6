/* The rendered two-dice throw that the tracker's golden test and the
 * tracking benchmark (bench/vision_opencv.cpp) both feed: two dice thrown
 * from A's end, ballistic, one bounce that halves their speed, then sliding
 * to rest. Header-only so the C++ benchmark can use it without linking the
 * test support objects. */
#ifndef DYEREF_TWO_DICE_THROW_H
#define DYEREF_TWO_DICE_THROW_H

#include <string.h>

#include "vision/vision.h"

struct two_dice_throw {
	double x[2], y[2], z[2];	/* table metres; z above the top */
	double vx[2], vz[2];		/* m/s along the table and up */
};

static inline void two_dice_throw_start(struct two_dice_throw *t)
{
	const struct two_dice_throw start = {
		{ 0.2, 0.2 }, { 0.4, 0.8 }, { 0, 0 }, { 3.0, 2.7 }, { 2.4, 2.2 },
	};
	*t = start;
}

/* Puts both dice of frame f into s (faces 3 and 4, white with black pips)
 * and moves the throw on by one frame at fps. */
static inline void two_dice_throw_frame(struct two_dice_throw *t, struct vis_render_scene *s,
					int f, double fps)
{
	double dt = 1.0 / fps;

	s->n_dice = 2;
	for (int i = 0; i < 2; i++) {
		struct vis_render_die *d = &s->dice[i];

		memset(d, 0, sizeof(*d));
		d->x = t->x[i];
		d->y = t->y[i];
		d->z = t->z[i];
		d->vx = t->vx[i];
		d->face = 3 + i;
		d->angle = 0.1 * f;
		d->body[0] = d->body[1] = d->body[2] = 235;
		d->pip[0] = d->pip[1] = d->pip[2] = 20;
		if (t->z[i] > 0 || t->vz[i] > 0) {
			t->x[i] += t->vx[i] * dt;
			t->z[i] += t->vz[i] * dt;
			t->vz[i] -= 9.81 * dt;
			if (t->z[i] <= 0) {
				t->z[i] = 0;
				t->vz[i] = 0;
				t->vx[i] *= 0.5;
			}
		} else {
			t->vx[i] = t->vx[i] > 0.03 ? t->vx[i] - 0.03 : 0;
			t->x[i] += t->vx[i] * dt;
		}
	}
}

#endif
