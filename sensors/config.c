/* sens_config: the reference build's layout, checks and derived windows. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sensors/sensors.h"

static void add_line(struct sens_config *c, const char *name, enum sens_role role,
		     unsigned offset, double x, double y, int owner)
{
	struct sens_line_cfg *l = &c->lines[c->n_lines++];

	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->role = role;
	l->offset = offset;
	l->x = x;
	l->y = y;
	l->owner = owner;
}

void sens_config_defaults(struct sens_config *c)
{
	/* A diamond 5 cm in from the edges: one sensor at the middle of each
	 * end, one at the middle of each side (on the centre line). Every
	 * point of the top then lies inside the sensors' hull, where TDOA
	 * errors stay small; the x decision near the line rests on the two
	 * end sensors, whose arrival difference is steepest there. On the
	 * simulated table (bench/sensors_localise.c, 10 us jitter, 5 %
	 * speed spread) it measured median 0.6 / p95 2.4 cm against 1.7 /
	 * 6.7 cm for one sensor per quarter 5 cm from the corners. */
	const double in = 0.05;
	double L, W;

	memset(c, 0, sizeof(*c));
	snprintf(c->chip, sizeof(c->chip), "gpiochip0");
	bd_table_defaults(&c->table);
	L = c->table.length_m;
	W = c->table.width_m;
	add_line(c, "table0", SENS_ROLE_TABLE, 17, in, W / 2, BD_NOBODY);
	add_line(c, "table1", SENS_ROLE_TABLE, 27, L / 2, in, BD_NOBODY);
	add_line(c, "table2", SENS_ROLE_TABLE, 22, L - in, W / 2, BD_NOBODY);
	add_line(c, "table3", SENS_ROLE_TABLE, 23, L / 2, W - in, BD_NOBODY);
	add_line(c, "cup_a1", SENS_ROLE_CUP, 5, 0, 0, 0);
	add_line(c, "cup_a2", SENS_ROLE_CUP, 6, 0, 0, 1);
	add_line(c, "cup_b1", SENS_ROLE_CUP, 13, 0, 0, 2);
	add_line(c, "cup_b2", SENS_ROLE_CUP, 19, 0, 0, 3);
	add_line(c, "mine", SENS_ROLE_MINE, 26, 0, 0, BD_NOBODY);
	/* Bending waves are dispersive; in 12 mm plywood (E ~ 9 GPa, 600
	 * kg/m^3) the 1-3 kHz band a comparator fires on travels 300-520
	 * m/s. 400 m/s is the middle; calibration replaces it. */
	c->wave_speed_mps = 400.0;
	c->speed_spread = 0.05;
	c->timing_sigma_s = 10e-6;
	c->holdoff_s = 0.020;
	c->near_line_p = 0.99;
	/* 2 cm beyond the painted line's edge (3 cm from its centre): inside
	 * it the half is for an official to confirm, beyond it the fix
	 * decides (bench: no wrong half beyond 3 cm at 10 us jitter). */
	c->near_line_m = 0.02;
	c->silent_after_s = 3600.0;
	/* Switch contacts bounce for 1-10 ms on press and on release; a
	 * person presses a button at most a few times a second. */
	c->button_debounce_s = 0.030;
	c->button_repeat_s = 0.4;
}

bool sens_config_has_role(const struct sens_config *c, enum sens_role role)
{
	for (size_t i = 0; i < c->n_lines && i < SENS_MAX_LINES; i++)
		if (c->lines[i].role == role)
			return true;
	return false;
}

const char *sens_role_name(enum sens_role role)
{
	switch (role) {
	case SENS_ROLE_TABLE: return "table";
	case SENS_ROLE_CUP: return "cup";
	case SENS_ROLE_MINE: return "mine";
	case SENS_ROLE_FLOOR: return "floor";
	case SENS_ROLE_BUTTON: return "button";
	}
	return "?";
}

const char *sens_call_name(enum sens_call call)
{
	switch (call) {
	case SENS_CALL_LOW: return "low";
	case SENS_CALL_RETOSS: return "retoss";
	case SENS_CALL_CATCH1: return "catch1";
	case SENS_CALL_CATCH2: return "catch2";
	}
	return "?";
}

int sens_config_line_by_offset(const struct sens_config *c, unsigned offset)
{
	for (size_t i = 0; i < c->n_lines; i++)
		if (c->lines[i].offset == offset)
			return (int)i;
	return -1;
}

int sens_config_check(const struct sens_config *c, char *err, size_t errlen)
{
	return sens_config_check_at(c, NULL, NULL, err, errlen);
}

/* The reason is about line i: the loader names where the file set it. */
static int bad_line(int *at, size_t i)
{
	if (at)
		*at = (int)i;
	return -EINVAL;
}

/* The reason is about a setting of no one line. */
static int bad_item(enum sens_cfg_item *item, enum sens_cfg_item what)
{
	if (item)
		*item = what;
	return -EINVAL;
}

int sens_config_check_at(const struct sens_config *c, int *at, enum sens_cfg_item *item,
			 char *err, size_t errlen)
{
	const struct bd_table *t = &c->table;
	size_t n_table = 0;

	if (at)
		*at = -1;
	if (item)
		*item = SENS_CFG_NONE;

	if (!c->chip[0]) {
		snprintf(err, errlen, "sensors: no chip named");
		return -EINVAL;
	}
	if (!(t->length_m > 0.1 && t->width_m > 0.1 && t->line_width_m >= 0 &&
	      t->line_width_m < t->length_m / 2)) {
		snprintf(err, errlen, "table: length %g m, width %g m and line width %g m do not make "
			 "a table (the line must be narrower than half the length)", t->length_m,
			 t->width_m, t->line_width_m);
		return bad_item(item, SENS_CFG_TABLE);
	}
	if (!(c->wave_speed_mps >= 50 && c->wave_speed_mps <= 5000)) {
		snprintf(err, errlen, "sensors: wave speed %g m/s is outside 50..5000",
			 c->wave_speed_mps);
		return bad_item(item, SENS_CFG_NOISE);
	}
	if (!(c->speed_spread > 0 && c->speed_spread <= 0.5) ||
	    !(c->timing_sigma_s > 0 && c->timing_sigma_s <= 0.01)) {
		snprintf(err, errlen, "sensors: speed spread %g (above 0, at most 0.5) or timing sigma "
			 "%g us (above 0, at most 10000) out of range", c->speed_spread,
			 c->timing_sigma_s * 1e6);
		return bad_item(item, SENS_CFG_NOISE);
	}
	if (!(c->holdoff_s >= 0 && c->holdoff_s <= 1)) {
		snprintf(err, errlen, "sensors: hold-off %g ms is outside 0..1000", c->holdoff_s * 1e3);
		return bad_item(item, SENS_CFG_HOLDOFF);
	}
	if (!(c->near_line_p > 0.5 && c->near_line_p < 1) ||
	    !(c->near_line_m >= 0 && c->near_line_m < 0.5)) {
		snprintf(err, errlen, "sensors: near-line probability %g (above 0.5, below 1) or "
			 "distance %g cm (0 to below 50) out of range", c->near_line_p,
			 c->near_line_m * 100);
		return bad_item(item, SENS_CFG_NEAR_LINE);
	}
	if (!(c->silent_after_s > 0)) {
		snprintf(err, errlen, "sensors: silent after %g s: must be above 0", c->silent_after_s);
		return bad_item(item, SENS_CFG_SILENT);
	}
	if (!(c->button_debounce_s >= 0 && c->button_debounce_s <= 1) ||
	    !(c->button_repeat_s <= 10)) {
		snprintf(err, errlen, "sensors: button debounce %g ms (0..1000) or repeat %g ms "
			 "(at most 10000) out of range", c->button_debounce_s * 1e3,
			 c->button_repeat_s * 1e3);
		return bad_item(item, SENS_CFG_BUTTONS);
	}
	if (!(c->button_repeat_s >= c->button_debounce_s)) {
		/* a press needs the debounce's quiet before it: presses closer
		 * than that never come */
		snprintf(err, errlen, "sensors: button repeat %g ms is shorter than the debounce %g ms",
			 c->button_repeat_s * 1e3, c->button_debounce_s * 1e3);
		return bad_item(item, SENS_CFG_BUTTONS);
	}
	if (c->n_lines > SENS_MAX_LINES) {
		snprintf(err, errlen, "sensors: more than %d lines", SENS_MAX_LINES);
		return -EINVAL;
	}
	for (size_t i = 0; i < c->n_lines; i++) {
		const struct sens_line_cfg *l = &c->lines[i];

		if (l->offset > SENS_MAX_OFFSET) {
			snprintf(err, errlen, "sensors: %s: line offset %u is above %d",
				 l->name, l->offset, SENS_MAX_OFFSET);
			return bad_line(at, i);
		}
		for (size_t j = 0; j < i; j++) {
			if (c->lines[j].offset == l->offset) {
				snprintf(err, errlen, "sensors: %s and %s both use line %u",
					 c->lines[j].name, l->name, l->offset);
				return bad_line(at, i);
			}
			if (!strcmp(c->lines[j].name, l->name)) {
				snprintf(err, errlen, "sensors: %s is configured twice", l->name);
				return bad_line(at, i);
			}
		}
		if (l->role == SENS_ROLE_TABLE) {
			n_table++;
			if (l->x < 0 || l->x > t->length_m || l->y < 0 || l->y > t->width_m) {
				snprintf(err, errlen, "sensors: %s at (%g, %g) m is off the %gx%g m table",
					 l->name, l->x, l->y, t->length_m, t->width_m);
				return bad_line(at, i);
			}
			for (size_t j = 0; j < i; j++) {
				const struct sens_line_cfg *o = &c->lines[j];
				double d = hypot(l->x - o->x, l->y - o->y);

				if (o->role == SENS_ROLE_TABLE && d < SENS_MIN_TABLE_SPACING_M) {
					snprintf(err, errlen, "sensors: %s: at (%g, %g) m, %.1f cm from %s at "
						 "(%g, %g) m: table sensors must be at least %g cm apart",
						 l->name, l->x, l->y, d * 100, o->name, o->x, o->y,
						 SENS_MIN_TABLE_SPACING_M * 100);
					return bad_line(at, i);
				}
			}
			if (fabs(l->delay_s) > 0.001) {
				snprintf(err, errlen, "sensors: %s: delay %g us is beyond 1000 us",
					 l->name, l->delay_s * 1e6);
				return bad_line(at, i);
			}
		}
		if (l->role == SENS_ROLE_BUTTON &&
		    ((unsigned)l->call >= SENS_CALLS || (l->team != BD_TEAM_A && l->team != BD_TEAM_B))) {
			snprintf(err, errlen, "sensors: %s: a button needs a call and a team (A or B)",
				 l->name);
			return bad_line(at, i);
		}
		if (l->role == SENS_ROLE_CUP && (l->owner < 0 || l->owner >= BD_PLAYERS)) {
			snprintf(err, errlen, "sensors: %s: cup owner must be a1, a2, b1 or b2", l->name);
			return bad_line(at, i);
		}
	}
	if (n_table > SENS_MAX_TABLE) {
		snprintf(err, errlen, "sensors: more than %d table sensors", SENS_MAX_TABLE);
		return -EINVAL;
	}
	if (n_table > 0 && n_table < 3) {
		snprintf(err, errlen, "sensors: %zu table sensors: at least 3 are needed to locate "
			 "an impact (4 recommended)", n_table);
		return -EINVAL;
	}
	return 0;
}

int64_t sens_config_group_window_ns(const struct sens_config *c)
{
	double span = 0, dmin = 0, dmax = 0;
	bool first = true;

	/* |d_i - d_j| <= |s_i - s_j| for any point: the sensor spacing bounds
	 * every arrival difference. */
	for (size_t i = 0; i < c->n_lines; i++) {
		const struct sens_line_cfg *a = &c->lines[i];

		if (a->role != SENS_ROLE_TABLE)
			continue;
		if (first || a->delay_s < dmin)
			dmin = a->delay_s;
		if (first || a->delay_s > dmax)
			dmax = a->delay_s;
		first = false;
		for (size_t j = 0; j < i; j++) {
			const struct sens_line_cfg *b = &c->lines[j];

			if (b->role == SENS_ROLE_TABLE)
				span = fmax(span, hypot(a->x - b->x, a->y - b->y));
		}
	}
	double slow = c->wave_speed_mps * fmax(0.5, 1 - 4 * c->speed_spread);
	double w = span / slow + (dmax - dmin) + 8 * c->timing_sigma_s + 20e-6;

	return (int64_t)(w * 1e9);
}
