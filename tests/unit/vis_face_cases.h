/* Rest crops of one die where the camera glue reads them: on open table, on
 * or over the white centre line, beside and touching a cup; every face and
 * angle; the camera's location off by up to 1.5 die sides. Shared by the
 * golden test (tests/unit/test_vis_face_near.c) and its benchmark
 * (bench/vision_face_near.c) so both judge the same crops. Header-only:
 * each includes it once. */
#ifndef DYEREF_VIS_FACE_CASES_H
#define DYEREF_VIS_FACE_CASES_H

#include <math.h>

#include "core/core.h"
#include "sim/sim.h"
#include "vision/vision.h"

#define FACE_CASE_CROP 192	/* crop side, pixels; a die is 32 px (sim_render_rest_crop) */
#define FACE_CASE_DIE 32.0	/* die side, pixels */

enum face_case_place { FC_OPEN, FC_LINE, FC_CUP, FC_PLACES };

static const char *const face_case_place_name[FC_PLACES] = { "open table", "centre line", "cup" };

struct face_case {
	enum face_case_place place;	/* where the die lies */
	int face;			/* its true face */
	double off_px;			/* how far the located point is from it, pixels */
};

/* Crop i (of a sequence from seed) at noise scale noise: *c says what it
 * holds. NULL with errno when the renderer fails. The caller frees it. */
static struct vis_image *face_case_render(uint64_t seed, int i, double noise, struct face_case *c)
{
	struct sim_noise n;
	struct bd_table tb;
	struct sim_rng rng;
	double x, y, side = 0.016, half_line;

	sim_noise_defaults(&n, noise);
	bd_table_defaults(&tb);
	sim_rng_seed(&rng, seed * 1000003u + (uint64_t)i);
	c->place = (enum face_case_place)(i % FC_PLACES);
	c->face = 1 + (i / FC_PLACES) % 6;
	half_line = tb.line_width_m / 2;
	switch (c->place) {
	case FC_OPEN:
		x = 0.35 + 0.6 * sim_rng_uniform(&rng);
		y = 0.3 + (tb.width_m - 0.6) * sim_rng_uniform(&rng);
		break;
	case FC_LINE:
		/* centre anywhere from fully on the paint to just beside it */
		x = tb.length_m / 2 + (2 * sim_rng_uniform(&rng) - 1) * (half_line + side * 0.7);
		y = 0.1 + (tb.width_m - 0.2) * sim_rng_uniform(&rng);
		break;
	default: {
		/* touching the rim to half a side away from it */
		int p = (int)(sim_rng_uniform(&rng) * BD_PLAYERS) % BD_PLAYERS;
		double a = 2 * M_PI * sim_rng_uniform(&rng);
		double r = tb.cup_radius_m + side * (0.5 + 0.5 * sim_rng_uniform(&rng));
		x = tb.cup_x[p] + r * cos(a);
		y = tb.cup_y[p] + r * sin(a);
		break;
	}
	}
	double a = 2 * M_PI * sim_rng_uniform(&rng), off = 1.5 * side * sqrt(sim_rng_uniform(&rng));
	double angle = M_PI * sim_rng_uniform(&rng);
	c->off_px = off / side * FACE_CASE_DIE;
	return sim_render_rest_crop(&n, &tb, x, y, x + off * cos(a), y + off * sin(a), c->face, angle,
				    FACE_CASE_CROP, &rng);
}

/* One die of any colour (light with dark pips, dark with light pips; 18-50
 * px; light levels, gradients, noise 0-6: vis_render_random_dice) on a
 * plain tray, image i of seed: *c says its face and how far the located
 * point (*u, *v) is from it (up to 1.5 sides), *die_px its side. NULL
 * with errno when the renderer fails. The caller frees it. */
static struct vis_image *face_case_colour(uint64_t seed, int i, struct face_case *c, double *u,
					  double *v, double *die_px)
{
	struct vis_render_scene s = { .width = 240, .height = 240 };
	struct vis_image *img = NULL;
	struct sim_rng rng;
	char err[128];
	double x, y;

	sim_rng_seed(&rng, seed * 1000003u + (uint64_t)i);
	vis_render_random_dice(&s, seed * 7919u + (uint64_t)i, 1);
	s.dice[0].x = s.dice[0].y = 0;	/* the die in the middle, whatever its draw */
	vis_homography_apply(s.h, 0, 0, &x, &y);
	double cx = s.width / 2.0 - x, cy = s.height / 2.0 - y;
	s.h[2] += cx * s.h[8];
	s.h[5] += cy * s.h[8];
	*die_px = s.die_side_m * s.h[0];
	double a = 2 * M_PI * sim_rng_uniform(&rng), off = 1.5 * sqrt(sim_rng_uniform(&rng));
	c->place = FC_OPEN;
	c->face = s.dice[0].face;
	c->off_px = off * *die_px;
	*u = s.width / 2.0 + c->off_px * cos(a);
	*v = s.height / 2.0 + c->off_px * sin(a);
	if (vis_render(&s, &img, err, sizeof(err)) < 0)
		return NULL;
	return img;
}

#endif /* DYEREF_VIS_FACE_CASES_H */
