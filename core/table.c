/* The table's standard layout (BD-S1, BD-S2, BD-S6). */
#include <errno.h>
#include <math.h>

#include "core/core.h"

void bd_table_defaults(struct bd_table *t)
{
	const double inset = 0.12;	/* metres from each edge to a cup's centre */

	t->length_m = 2.44;
	t->width_m = 1.22;
	t->height_m = 0.98;
	t->line_width_m = 0.02;
	t->cup_radius_m = 0.045;
	/* a1, a2 at A's end (x small); b1, b2 at B's end. */
	t->cup_x[0] = inset;
	t->cup_y[0] = inset;
	t->cup_x[1] = inset;
	t->cup_y[1] = t->width_m - inset;
	t->cup_x[2] = t->length_m - inset;
	t->cup_y[2] = inset;
	t->cup_x[3] = t->length_m - inset;
	t->cup_y[3] = t->width_m - inset;
	t->mine_x = t->length_m / 2;
	t->mine_y = t->width_m / 2;
	t->mine_radius_m = 0.033;
	t->cup_height_m = 0.12;
	t->mine_height_m = 0.122;
}

int bd_table_spot(const struct bd_table *t, int i, double *x, double *y, double *r)
{
	if (i < 0 || i > BD_TABLE_MINE)
		return -EINVAL;
	*x = i < BD_PLAYERS ? t->cup_x[i] : t->mine_x;
	*y = i < BD_PLAYERS ? t->cup_y[i] : t->mine_y;
	if (r)
		*r = i < BD_PLAYERS ? t->cup_radius_m : t->mine_radius_m;
	return 0;
}

enum bd_half bd_table_half(const struct bd_table *t, double x)
{
	double from_line = x - t->length_m / 2;

	/* A micrometre's grace: x = 1.23 on a 2.44 m table is 1 cm from the
	 * middle, but 1.23 - 1.22 is 0.01000000000000001 in doubles. */
	if (fabs(from_line) <= t->line_width_m / 2 + 1e-6)
		return BD_HALF_LINE;
	return from_line < 0 ? BD_HALF_A : BD_HALF_B;
}

bool bd_table_clamp(const struct bd_table *t, double *x, double *y)
{
	double cx = fmin(fmax(*x, 0), t->length_m), cy = fmin(fmax(*y, 0), t->width_m);
	bool moved = cx != *x || cy != *y;

	*x = cx;
	*y = cy;
	return moved;
}
