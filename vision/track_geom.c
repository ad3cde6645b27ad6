/* vision: table geometry for the tracker and its users: the view's
 * scale, the cups' and the mine's regions, and how sure a point is of a
 * half or of touching the can given its error. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/track_internal.h"

/* Pixels a metre at a table point (the local scale of the view). */
double vis_trk_px_per_m(const struct vis_tracker *t, double x, double y)
{
	double u0, v0, u1, v1;
	if (vis_homography_apply(t->hinv, x, y, &u0, &v0) ||
	    vis_homography_apply(t->hinv, x + 0.01, y, &u1, &v1))
		return 0;
	return hypot(u1 - u0, v1 - v0) / 0.01;
}

int vis_trk_on_table(const struct bd_table *tb, double x, double y)
{
	return x >= 0 && y >= 0 && x <= tb->length_m && y <= tb->width_m;
}

/* The cup whose region holds (x, y), or -1. */
int vis_trk_cup_at(const struct vis_tracker *t, double x, double y)
{
	const struct bd_table *tb = &t->cfg.table;
	for (int p = 0; p < BD_PLAYERS; p++)
		if (hypot(x - tb->cup_x[p], y - tb->cup_y[p]) < tb->cup_radius_m + t->cfg.die_side_m / 2)
			return p;
	return -1;
}

/* Distance of the die's centre from the mine's axis, metres. */
double vis_trk_mine_dist(const struct vis_tracker *t, double x, double y)
{
	return hypot(x - t->cfg.table.mine_x, y - t->cfg.table.mine_y);
}

double vis_half_confidence(const struct bd_table *table, double x, double sigma_m)
{
	double line = table->length_m / 2, w = table->line_width_m / 2;
	if (!(sigma_m > 0))
		return 1;
	/* Normal CDF at the line's two edges. */
	double lo = 0.5 * erfc(-((line - w) - x) / (sigma_m * M_SQRT2));	/* P(true x < line - w) */
	double hi = 0.5 * erfc(-((line + w) - x) / (sigma_m * M_SQRT2));	/* P(true x < line + w) */
	switch (bd_table_half(table, x)) {
	case BD_HALF_A:
		return lo;
	case BD_HALF_B:
		return 1 - hi;
	default:
		return hi - lo;
	}
}

double vis_mine_reach(const struct bd_table *table, double x, double y, double reach_m,
		      double sigma_m)
{
	double d = hypot(x - table->mine_x, y - table->mine_y);
	if (!(reach_m > 0))
		return 0;
	if (!(sigma_m > 0))
		return d < reach_m;
	/* With the point on the u axis at d: P = integral over the disc's
	 * chords u in [-R, R] of the error's density along u times its mass
	 * along v within the chord (Simpson; beyond 8 sd there is none). */
	double lo = fmax(-reach_m, d - 8 * sigma_m), hi = fmin(reach_m, d + 8 * sigma_m);
	if (lo >= hi)
		return 0;
	const int n = 128;	/* even */
	double h = (hi - lo) / n, sum = 0;
	for (int i = 0; i <= n; i++) {
		double u = lo + i * h, z = (u - d) / sigma_m, c = reach_m * reach_m - u * u;
		double f = exp(-0.5 * z * z) / (sigma_m * sqrt(2 * M_PI)) *
			   erf(sqrt(c > 0 ? c : 0) / (sigma_m * M_SQRT2));
		sum += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
	}
	double p = sum * h / 3;
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

double vis_mine_touch_confidence(const struct bd_table *table, double die_side_m, double x,
				 double y, double sigma_m, bool over_can)
{
	double r = table->mine_radius_m;
	double p_face = vis_mine_reach(table, x, y, r + MINE_FACE_REACH * die_side_m, sigma_m);

	if (over_can)
		return p_face;
	double p_reach = vis_mine_reach(table, x, y, r + MINE_CORNER_REACH * die_side_m, sigma_m);
	return 0.9 * p_face + 0.6 * (p_reach - p_face);
}
