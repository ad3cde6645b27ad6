/* A sensors observation as fusion takes it: the one mapping every path
 * from the sensors' pipeline to fusion goes through (the Pi's GPIO glue,
 * `dyeref evaluate` and the simulated table), so what is measured on the
 * virtual table is what the Pi does. Pure: no chip, no loop. */
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/fusion.h"
#include "daemon/inputs.h"
#include "sensors/sensors.h"

/* The fields every observation carries: source piezo, the located
 * point's sigma, the arrivals behind it, whether one point explains
 * them (fix.no_point) and whether its half is in doubt (fix.near_line,
 * with its P(half): fusion asks an official unless the camera backs it). */
static void obs_from_sens(const struct sens_obs *so, struct dd_obs *o)
{
	memset(o, 0, sizeof(*o));
	o->kind = DD_OBS_EVENT;
	o->source = DD_SRC_PIEZO;
	o->t_ns = so->ev.t_ns;
	o->ev = so->ev;
	o->confidence = so->ev.has_confidence ? so->ev.confidence : 1.0;
	if (so->has_fix) {
		int k = 0;

		o->sigma_m = so->fix.sigma_m;
		for (int j = 0; j < SENS_MAX_TABLE && k < DD_OBS_ARRIVALS; j++)
			if (so->table_seen & (1u << j)) {
				o->arrival_sensor[k] = j;
				o->arrival_ns[k++] = so->table_ts_ns[j];
			}
		o->n_arrivals = k;
		o->no_point = so->fix.no_point;
		o->half_doubtful = so->fix.near_line;
		if ((unsigned)so->fix.half <= BD_HALF_LINE)
			o->half_p = so->fix.p_half[so->fix.half];
	}
}

void dd_sensors_obs_to_fusion(const struct sens_obs *so, struct dd_obs *o)
{
	obs_from_sens(so, o);
	if (so->kind == SENS_OBS_IMPACT && so->shaken_by >= 0) {
		/* A cup or mine hit shaking the table is not a landing, but
		 * it tells fusion when the table lines could hear none. */
		o->kind = DD_OBS_TABLE_DEAF;
		o->confidence = 1;
		o->until_ns = so->held_off_until_ns > o->t_ns ? so->held_off_until_ns : o->t_ns;
		return;
	}
	if (so->kind == SENS_OBS_BUTTON) {
		o->source = DD_SRC_BUTTON;
		/* The button knows the end, not the hand. A catch needs a
		 * player of that end (all BD-P4 asks is a defender); a low
		 * call carries its end so that the judge takes it from the
		 * defenders' only (BD-P5): the thrower is the judge's to
		 * know, and a corrected thrower is judged again. */
		if ((o->ev.kind == BD_EV_CATCH || o->ev.kind == BD_EV_LOW_CALL) &&
		    o->ev.player == BD_NOBODY && (so->team == BD_TEAM_A || so->team == BD_TEAM_B)) {
			o->ev.player = so->team * 2;
			o->player_guessed = true;
		}
	}
}
