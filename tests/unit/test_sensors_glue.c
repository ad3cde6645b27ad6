/* The sensors glue of `dyeref serve` without a chip (daemon/sensors_glue.c,
 * dd_sensors_obs_to_fusion; the object itself on a manual clock): a line's edges
 * through the real sensors pipeline, and what fusion then gets. Buttons
 * make the calls of RULES.md BD-P5 (low), BD-P9 (re-toss) and BD-P4
 * (catch); the end-to-end run on the libgpiod stub is
 * tests/e2e/daemon_gpio_buttons.sh. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "daemon/clock.h"
#include "daemon/config.h"
#include "daemon/daemon.h"
#include "daemon/fusion.h"
#include "daemon/inputs.h"
#include "sensors/sensors.h"
#include "tests/support/button_rig.h"
#include "tests/support/cites.h"

#define MS 1000000LL

static void rig_init(struct button_rig *r)
{
	char err[256];

	assert_int_equal(button_rig_init(r), 0);
	assert_int_equal(sens_config_check(&r->cfg, err, sizeof(err)), 0);
}

/* When the wave of an impact at (x, y) at t reaches line l. */
static int64_t arrival(const struct button_rig *r, const struct sens_line_cfg *l, double x, double y,
		       int64_t t)
{
	return t + (int64_t)(hypot(x - l->x, y - l->y) / r->cfg.wave_speed_mps * 1e9);
}

/* A die landing at (x, y): each table sensor's edge when the wave reaches it. */
static void impact(struct button_rig *r, double x, double y, int64_t t)
{
	for (size_t i = 0; i < r->cfg.n_lines; i++) {
		const struct sens_line_cfg *l = &r->cfg.lines[i];

		if (l->role == SENS_ROLE_TABLE)
			button_rig_edge(r, l->offset, arrival(r, l, x, y, t));
	}
}

/* Every button at both ends, pressed once: each press reaches fusion as
 * its call, from source "button", at the press's time, sure. A catch
 * (BD-P4) and a low call (BD-P5) are made by the first player of the
 * button's end (a1 at A's, b1 at B's): the judge takes a low call from a
 * defender only. A re-toss (BD-P9) names nobody. */
static void test_glue_every_button_at_both_ends_is_its_call(void **state)
{
	static const struct {
		int team;		/* the button's end */
		enum sens_call call;	/* its call */
		enum bd_ev_kind kind;	/* the event fusion gets */
		int hands;		/* CATCH: 1 or 2 */
		int player;		/* credited */
	} want[] = {
		{ BD_TEAM_A, SENS_CALL_LOW, BD_EV_LOW_CALL, 0, 0 },
		{ BD_TEAM_A, SENS_CALL_RETOSS, BD_EV_RETOSS, 0, BD_NOBODY },
		{ BD_TEAM_A, SENS_CALL_CATCH1, BD_EV_CATCH, 1, 0 },
		{ BD_TEAM_A, SENS_CALL_CATCH2, BD_EV_CATCH, 2, 0 },
		{ BD_TEAM_B, SENS_CALL_LOW, BD_EV_LOW_CALL, 0, 2 },
		{ BD_TEAM_B, SENS_CALL_RETOSS, BD_EV_RETOSS, 0, BD_NOBODY },
		{ BD_TEAM_B, SENS_CALL_CATCH1, BD_EV_CATCH, 1, 2 },
		{ BD_TEAM_B, SENS_CALL_CATCH2, BD_EV_CATCH, 2, 2 },
	};
	const size_t n = sizeof(want) / sizeof(want[0]);
	struct button_rig r;

	(void)state;
	rig_init(&r);
	for (size_t i = 0; i < n; i++)
		button_rig_edge(&r, button_rig_line(want[i].team, want[i].call),
				(int64_t)(1000 + 1000 * i) * MS);
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, n);
	for (size_t i = 0; i < n; i++) {
		struct dd_obs o;

		dd_sensors_obs_to_fusion(&r.obs[i], &o);
		assert_int_equal(o.kind, DD_OBS_EVENT);
		assert_int_equal(o.source, DD_SRC_BUTTON);
		assert_string_equal(dd_source_name(o.source), "button");
		assert_string_equal(o.ev.source, "button");
		assert_int_equal(o.t_ns, (int64_t)(1000 + 1000 * i) * MS);
		assert_true(o.confidence == 1.0);
		assert_int_equal(o.ev.kind, want[i].kind);
		assert_int_equal(o.ev.player, want[i].player);
		if (want[i].kind != BD_EV_RETOSS)
			assert_int_equal(BD_TEAM_OF(o.ev.player), want[i].team);
		if (want[i].kind == BD_EV_CATCH) {
			assert_int_equal(o.ev.hands, want[i].hands);
			assert_false(o.ev.trapped);
			assert_false(o.ev.over_table);
		}
	}
	sens_pipeline_free(r.p);
}

/* A catch from an end that is no team's (no config makes one): nobody is
 * guessed, so no player outside a1..b2 reaches the judge. Other
 * observations are not given a player. */
static void test_glue_catch_from_no_team_names_nobody(void **state)
{
	static const int teams[] = { BD_NOBODY, 2, 7 };
	struct sens_obs so;
	struct dd_obs o;

	(void)state;
	for (size_t i = 0; i < sizeof(teams) / sizeof(teams[0]); i++) {
		memset(&so, 0, sizeof(so));
		so.kind = SENS_OBS_BUTTON;
		so.call = SENS_CALL_CATCH1;
		so.team = teams[i];
		so.shaken_by = -1;
		so.ev.kind = BD_EV_CATCH;
		so.ev.hands = 1;
		so.ev.player = BD_NOBODY;
		so.ev.t_ns = 5 * MS;
		dd_sensors_obs_to_fusion(&so, &o);
		assert_int_equal(o.kind, DD_OBS_EVENT);
		assert_int_equal(o.source, DD_SRC_BUTTON);
		assert_int_equal(o.ev.kind, BD_EV_CATCH);
		assert_int_equal(o.ev.player, BD_NOBODY);
	}
	/* A catch the button already names a catcher for keeps it. */
	so.team = BD_TEAM_B;
	so.ev.player = 3;
	dd_sensors_obs_to_fusion(&so, &o);
	assert_int_equal(o.ev.player, 3);
}

/* A fix that doubts its half (near_line: a late disc near the line,
 * docs/sensors.md) reaches fusion as half_doubtful with its P(half), which
 * fusion names when it asks an official (test_fusion_doubt.c); one that
 * does not, without. */
static void test_glue_bd_p1_doubtful_half_reaches_fusion(void **state)
{
	struct sens_obs so;
	struct dd_obs o;

	(void)state;
	memset(&so, 0, sizeof(so));
	so.kind = SENS_OBS_IMPACT;
	so.shaken_by = -1;
	so.ev.kind = BD_EV_TABLE;
	so.ev.half = BD_HALF_B;
	so.ev.has_confidence = true;
	so.ev.confidence = 0.89;
	so.has_fix = true;
	so.fix.half = BD_HALF_B;
	so.fix.p_half[BD_HALF_A] = 0.11;
	so.fix.p_half[BD_HALF_B] = 0.89;
	so.fix.near_line = true;
	dd_sensors_obs_to_fusion(&so, &o);
	assert_true(o.half_doubtful);
	assert_true(o.half_p > 0.889 && o.half_p < 0.891);
	so.fix.near_line = false;
	dd_sensors_obs_to_fusion(&so, &o);
	assert_false(o.half_doubtful);
}

/* An edge on a line the config does not name is no observation at all,
 * and leaves the buttons' debounce alone. */
static void test_glue_unconfigured_line_gives_nothing(void **state)
{
	struct button_rig r;

	(void)state;
	rig_init(&r);
	button_rig_edge(&r, 50, 1000 * MS);
	button_rig_edge(&r, 4, 1001 * MS);
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 0);
	/* b's catch button 5 ms after them still calls */
	button_rig_edge(&r, button_rig_line(BD_TEAM_B, SENS_CALL_CATCH1), 1006 * MS);
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 1);
	assert_int_equal(r.obs[0].kind, SENS_OBS_BUTTON);
	sens_pipeline_free(r.p);
}

/* Cup and mine discs are piezo impacts (source piezo, their owner from the
 * key's name: cup_b1 on line 13 is b1's cup, BD-P7); a table landing
 * carries the arrivals it was located from. */
static void test_glue_cup_mine_and_table_lines_are_piezo_impacts(void **state)
{
	struct button_rig r;
	struct dd_obs o;
	bool seen_cup = false, seen_mine = false, seen_table = false;

	(void)state;
	rig_init(&r);
	impact(&r, 1.83, 0.40, 1000 * MS);	/* B's half */
	button_rig_edge(&r, 13, 2000 * MS);		/* cup_b1 */
	button_rig_edge(&r, 26, 3000 * MS);		/* the mine */
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 3);
	for (size_t i = 0; i < r.n_obs; i++) {
		dd_sensors_obs_to_fusion(&r.obs[i], &o);
		assert_int_equal(o.kind, DD_OBS_EVENT);
		assert_int_equal(o.source, DD_SRC_PIEZO);
		switch (o.ev.kind) {
		case BD_EV_CUP:
			seen_cup = true;
			assert_int_equal(o.ev.player, 2);
			assert_int_equal(o.t_ns, 2000 * MS);
			break;
		case BD_EV_MINE:
			seen_mine = true;
			assert_int_equal(o.t_ns, 3000 * MS);
			break;
		case BD_EV_TABLE:
			seen_table = true;
			assert_int_equal(o.ev.half, BD_HALF_B);
			assert_int_equal(o.n_arrivals, 4);
			assert_true(o.sigma_m > 0);
			break;
		default:
			fail_msg("unexpected event kind %d", (int)o.ev.kind);
		}
	}
	assert_true(seen_cup && seen_mine && seen_table);
	sens_pipeline_free(r.p);
}

/* Two dice landing 1 ms apart at (0.2, 0.1) and (1.4, 1.1): each disc
 * hears the nearer first, and no one point explains the arrivals. Fusion
 * gets that (no_point: the official is asked about BD-P1's half, as
 * test_fusion's test_bd_p1_discs_fitting_no_one_landing_tell_the_official
 * has it) with the arrivals the fix was made of. */
static void test_glue_bd_p1_arrivals_fitting_no_one_point_reach_fusion(void **state)
{
	struct button_rig r;
	struct dd_obs o;

	(void)state;
	rig_init(&r);
	for (size_t i = 0; i < r.cfg.n_lines; i++) {
		const struct sens_line_cfg *l = &r.cfg.lines[i];
		int64_t a = arrival(&r, l, 0.2, 0.1, 1000 * MS), b = arrival(&r, l, 1.4, 1.1, 1001 * MS);

		if (l->role == SENS_ROLE_TABLE)
			button_rig_edge(&r, l->offset, a < b ? a : b);
	}
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 1);
	assert_true(r.obs[0].has_fix);
	assert_true(r.obs[0].fix.no_point);
	dd_sensors_obs_to_fusion(&r.obs[0], &o);
	assert_int_equal(o.kind, DD_OBS_EVENT);
	assert_int_equal(o.ev.kind, BD_EV_TABLE);
	assert_true(o.no_point);
	assert_true(o.half_doubtful);	/* no_point sets near_line */
	assert_true(o.confidence < 0.8);
	assert_int_equal(o.n_arrivals, 4);
	for (int k = 0; k < o.n_arrivals; k++)
		assert_int_equal(o.arrival_ns[k], r.obs[0].table_ts_ns[o.arrival_sensor[k]]);
	sens_pipeline_free(r.p);
}

/* The throw fusion makes of obs (piezo present, no camera), judged as
 * a1's first throw of a match at 0-0, as the daemon judges it. */
static char why[DD_WHY_MAX];	/* the last judged throw's note for an official */
static const char *prior;	/* reasons fusion gave before the judge's, or NULL */

static struct bd_ruling judged(const struct dd_obs *obs, size_t n, int *catcher)
{
	static struct dd_fused fx;	/* large */
	struct dd_fusion_cfg fc;
	struct dd_fusion f;
	struct bd_match_cfg mc;
	struct bd_state s;
	struct bd_ruling ruling;
	char err[256];
	int done = 0;

	dd_fusion_cfg_defaults(&fc);
	fc.camera_present = false;
	dd_fusion_init(&f, &fc);
	for (size_t i = 0; i < n && !done; i++)
		done = dd_fusion_add(&f, &obs[i], &fx);
	if (!done)
		done = dd_fusion_tick(&f, dd_fusion_deadline(&f), &fx);
	assert_int_equal(done, 1);
	*catcher = BD_NOBODY;
	for (size_t i = 0; i < fx.t.n_events; i++)
		if (fx.t.events[i].kind == BD_EV_CATCH)
			*catcher = fx.t.events[i].player;
	if (prior) {	/* as add_reason() leaves them */
		snprintf(fx.review_why, sizeof(fx.review_why), "%s", prior);
		fx.review = true;
	}
	bd_match_cfg_init(&mc);
	bd_state_init(&s, &mc);
	assert_int_equal(dd_fused_judge(&mc, &s, &fx, &ruling, why, sizeof(why), err, sizeof(err)), 0);
	return ruling;
}

/* r's observations, completed (n_obs of them), in fusion's terms as the
 * Pi's mapping gives them, into obs[0..cap); r's pipeline freed. Returns
 * how many. */
static size_t rig_to_fusion(struct button_rig *r, size_t n_obs, struct dd_obs *obs, size_t cap)
{
	size_t n = 0;

	button_rig_flush(r);
	assert_int_equal(r->n_obs, n_obs);
	for (size_t i = 0; i < r->n_obs && n < cap; i++)
		dd_sensors_obs_to_fusion(&r->obs[i], &obs[n++]);
	sens_pipeline_free(r->p);
	return n;
}

/* A landing on B's half of a1's throw, then button `line` at 1.5 s, in
 * fusion's terms; *n set. */
static void landing_then_button(unsigned line, struct dd_obs obs[4], size_t *n)
{
	struct button_rig r;

	rig_init(&r);
	impact(&r, 1.83, 0.61, 1000 * MS);
	button_rig_edge(&r, line, 1500 * MS);
	*n = rig_to_fusion(&r, 2, obs, 4);
	assert_int_equal(*n, 2);
}

/* What a press means in a ruling, a1 throwing onto B's half: B's
 * one-handed catch stops the point (BD-P4), B's two-handed one does not
 * (BD-P4, BD-P4a: as if it reached the floor, BD-P1). The catch at A's
 * end is a1's own: an attacker's catch, which the judge holds scores
 * nothing but is no BD-P4 catch. */
static void test_glue_bd_p4_catch_buttons_in_the_ruling(void **state)
{
	struct dd_obs obs[4];
	struct bd_ruling r;
	size_t n;
	int catcher;

	(void)state;
	landing_then_button(button_rig_line(BD_TEAM_B, SENS_CALL_CATCH1), obs, &n);
	r = judged(obs, n, &catcher);
	assert_int_equal(catcher, 2);
	assert_int_equal(r.points[BD_TEAM_A], 0);
	assert_int_equal(r.points[BD_TEAM_B], 0);
	assert_true(CITES(&r, "BD-P4"));
	/* b1 or b2, the same ruling: the guess asks no official */
	assert_false(r.review);
	assert_string_equal(why, "");

	landing_then_button(button_rig_line(BD_TEAM_B, SENS_CALL_CATCH2), obs, &n);
	r = judged(obs, n, &catcher);
	assert_int_equal(catcher, 2);
	assert_int_equal(r.points[BD_TEAM_A], 1);
	assert_true(CITES(&r, "BD-P4a"));
	assert_true(CITES(&r, "BD-P1"));

	landing_then_button(button_rig_line(BD_TEAM_A, SENS_CALL_CATCH2), obs, &n);
	r = judged(obs, n, &catcher);
	assert_int_equal(catcher, 0);
	assert_int_equal(r.points[BD_TEAM_A], 0);
	assert_false(CITES(&r, "BD-P4"));
	assert_false(CITES(&r, "BD-P4a"));
}

/* a1's throw kicked up by `kicker` (entered on the console) before it
 * touches anything, then B's one-handed catch button: the button credits
 * b1, and whether b1 caught decides BD-K1 (the other defender caught the
 * kick: a point to B) against BD-K9 (the kicker did: nothing). Either way
 * the ruling goes to an official, with the reason. */
static void test_glue_bd_k1_catch_button_after_a_kick_asks_who_caught(void **state)
{
	static const struct {
		int kicker;		/* b1 or b2 */
		int points_b;		/* provisional, with b1 as the catcher */
		const char *rule;	/* the provisional ruling's */
	} cases[] = { { 2, 0, "BD-K9" }, { 3, 1, "BD-K1" } };

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct dd_obs obs[2];
		struct button_rig rg;
		struct bd_ruling r;
		int catcher;

		memset(&obs[0], 0, sizeof(obs[0]));
		obs[0].kind = DD_OBS_EVENT;
		obs[0].source = DD_SRC_CONSOLE;
		obs[0].t_ns = 1000 * MS;
		obs[0].confidence = 1;
		obs[0].ev.kind = BD_EV_KICK;
		obs[0].ev.player = cases[k].kicker;
		obs[0].ev.t_ns = obs[0].t_ns;
		strcpy(obs[0].ev.part, "foot");
		rig_init(&rg);
		button_rig_edge(&rg, button_rig_line(BD_TEAM_B, SENS_CALL_CATCH1), 1400 * MS);
		assert_int_equal(rig_to_fusion(&rg, 1, &obs[1], 1), 1);

		r = judged(obs, 2, &catcher);
		assert_int_equal(catcher, 2);
		assert_true(CITES(&r, cases[k].rule));
		assert_int_equal(r.points[BD_TEAM_B], cases[k].points_b);
		assert_true(r.review);
		assert_non_null(strstr(why, "the catch button cannot tell who caught, "
				       "and who did decides the ruling (BD-K1, BD-K9)"));
		/* After fusion's reasons, the note comes first, whole; and
		 * when they fill their buffer (each bounce placed off the
		 * table is one), theirs are what is cut. */
		prior = "no end of the throw was seen; observations were dropped";
		r = judged(obs, 2, &catcher);
		assert_string_equal(why, "the catch button cannot tell who caught, and who did decides "
				    "the ruling (BD-K1, BD-K9); no end of the throw was seen; "
				    "observations were dropped");
		char full[2 * DD_WHY_MAX] = "";
		for (int cm = 4; strlen(full) < DD_WHY_MAX; cm++)
			snprintf(full + strlen(full), sizeof(full) - strlen(full),
				 "%spiezo placed the landing %d cm off the table", *full ? "; " : "", cm);
		prior = full;
		r = judged(obs, 2, &catcher);
		prior = NULL;
		assert_true(r.review);
		assert_int_equal(strncmp(why, "the catch button cannot tell who caught, and who did "
					 "decides the ruling (BD-K1, BD-K9); piezo placed the landing "
					 "4 cm off the table; ", 132), 0);
		assert_int_equal(strlen(why), DD_WHY_MAX - 1);
	}
}

/* A press on line at t held down for held_ms: its contacts bounce on
 * the press and on the release. */
static void press_held(struct button_rig *r, unsigned line, int64_t t, int held_ms)
{
	button_rig_edge(r, line, t);
	button_rig_edge(r, line, t + MS / 2);
	button_rig_edge(r, line, t + held_ms * MS);
	button_rig_edge(r, line, t + held_ms * MS + 2 * MS);
}

/* The rig's observations through the mapping and fusion as `dyeref
 * serve` feeds them (the throw under way ticked at each one's time, then
 * the last ticked to its end): the throws fusion completes, into fx[]
 * (at most max). Returns how many. */
static size_t fuse_all(struct button_rig *r, struct dd_fused *fx, size_t max)
{
	struct dd_fusion_cfg fc;
	static struct dd_fusion f;	/* large */
	size_t n = 0;

	dd_fusion_cfg_defaults(&fc);
	fc.camera_present = false;
	dd_fusion_init(&f, &fc);
	for (size_t i = 0; i < r->n_obs; i++) {
		struct dd_obs o;

		dd_sensors_obs_to_fusion(&r->obs[i], &o);
		if (n < max && dd_fusion_tick(&f, o.t_ns, &fx[n]) == 1)
			n++;
		if (n < max && dd_fusion_add(&f, &o, &fx[n]) == 1)
			n++;
	}
	if (n < max && dd_fusion_tick(&f, dd_fusion_deadline(&f), &fx[n]) == 1)
		n++;
	return n;
}

/* How many of t's events are of kind. */
static size_t count_events(const struct bd_throw *t, enum bd_ev_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n_events; i++)
		n += t->events[i].kind == kind;
	return n;
}

/* A die hitting b1's cup shakes the table: the table sensors locate an
 * impact at the cup at that moment. The cup hit reaches fusion as the
 * event; the shake is no landing but the time the table lines were deaf:
 * from its start until the last line that heard it is past its hold-off
 * (hold_off_ms after its arrival). A die coming down beside the cup 10 ms
 * after the hit is not heard; one coming down just after that window is. */
static void test_glue_cup_hit_shaking_the_table_is_a_deaf_window(void **state)
{
	static struct dd_fused fx[2];	/* large */
	struct bd_table tb;
	struct button_rig r;
	struct dd_obs o;
	int64_t last = 0, holdoff;
	size_t deaf = 0, cups = 0, tables = 0;

	(void)state;
	rig_init(&r);
	bd_table_defaults(&tb);
	holdoff = (int64_t)(r.cfg.holdoff_s * 1e9);
	button_rig_edge(&r, 13, 1000 * MS);	/* cup_b1 */
	impact(&r, tb.cup_x[2], tb.cup_y[2], 1000 * MS);
	impact(&r, tb.cup_x[2] - 0.1, tb.cup_y[2], 1010 * MS);	/* held off */
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 2);
	for (size_t i = 0; i < r.n_obs; i++)
		if (r.obs[i].ev.kind == BD_EV_TABLE) {
			assert_true(r.obs[i].shaken_by >= 0);
			for (int j = 0; j < SENS_MAX_TABLE; j++)
				if ((r.obs[i].table_seen >> j) & 1u && r.obs[i].table_ts_ns[j] > last)
					last = r.obs[i].table_ts_ns[j];
		}
	assert_true(last > 1000 * MS);
	/* just past the window: heard */
	impact(&r, tb.cup_x[2] - 0.1, tb.cup_y[2], last + holdoff + MS);
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 3);
	for (size_t i = 0; i < r.n_obs; i++) {
		dd_sensors_obs_to_fusion(&r.obs[i], &o);
		assert_int_equal(o.source, DD_SRC_PIEZO);
		if (r.obs[i].shaken_by >= 0) {
			deaf++;
			assert_int_equal(o.kind, DD_OBS_TABLE_DEAF);
			assert_true(llabs(o.t_ns - 1000 * MS) < MS);
			assert_true(o.until_ns == last + holdoff);
			assert_int_equal(o.n_arrivals, 4);
		} else if (o.ev.kind == BD_EV_CUP) {
			cups++;
			assert_int_equal(o.kind, DD_OBS_EVENT);
			assert_int_equal(o.ev.player, 2);
		} else {
			tables++;
			assert_int_equal(o.kind, DD_OBS_EVENT);
			assert_int_equal(o.ev.kind, BD_EV_TABLE);
			assert_true(o.t_ns > last + holdoff);
		}
	}
	assert_true(deaf == 1 && cups == 1 && tables == 1);
	/* In fusion the window is no event: the throw is the cup and the landing. */
	assert_int_equal(fuse_all(&r, fx, 2), 1);
	assert_int_equal(fx[0].t.n_events, 2);
	assert_int_equal(fx[0].t.events[0].kind, BD_EV_CUP);
	assert_int_equal(fx[0].t.events[1].kind, BD_EV_TABLE);
	assert_int_equal(fx[0].n_obs, 3);
	sens_pipeline_free(r.p);
}

/* A button held down longer than button_repeat_ms calls again when it is
 * released (docs/sensors.md "Buttons"), by then after the throw settled:
 * that call would be a throw of its own, a catch that advanced the
 * throwing order (BD-T3) or a second void throw (BD-P9). It is one call:
 * B's catch button held 600 ms after a landing on B's half gives one
 * throw, caught; A's re-toss button held 600 ms one void throw. */
static void test_glue_a_held_button_is_one_call(void **state)
{
	static struct dd_fused fx[4];	/* large */
	struct button_rig r;

	(void)state;
	rig_init(&r);
	impact(&r, 1.83, 0.61, 1000 * MS);
	press_held(&r, button_rig_line(BD_TEAM_B, SENS_CALL_CATCH1), 1500 * MS, 600);
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 3);	/* the pipeline calls twice */
	assert_int_equal(fuse_all(&r, fx, 4), 1);
	assert_int_equal(count_events(&fx[0].t, BD_EV_CATCH), 1);
	assert_int_equal(count_events(&fx[0].t, BD_EV_TABLE), 1);
	sens_pipeline_free(r.p);

	rig_init(&r);
	press_held(&r, button_rig_line(BD_TEAM_A, SENS_CALL_RETOSS), 1000 * MS, 600);
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 2);
	assert_int_equal(fuse_all(&r, fx, 4), 1);
	assert_int_equal(count_events(&fx[0].t, BD_EV_RETOSS), 1);
	sens_pipeline_free(r.p);
}

/* The first call of each button per throw counts: A's low button pressed
 * again 1.6 s later in the same throw (the die still rolling) is left
 * out. The same button's call in the next throw, 3 s after its last, is
 * that throw's: two throws, each caught by B's button. */
static void test_glue_first_call_of_a_button_per_throw(void **state)
{
	static struct dd_fused fx[4];	/* large */
	struct button_rig r;

	(void)state;
	rig_init(&r);
	press_held(&r, button_rig_line(BD_TEAM_A, SENS_CALL_LOW), 900 * MS, 100);
	impact(&r, 1.83, 0.61, 1000 * MS);
	press_held(&r, button_rig_line(BD_TEAM_A, SENS_CALL_LOW), 2500 * MS, 100);
	press_held(&r, button_rig_line(BD_TEAM_B, SENS_CALL_CATCH2), 3000 * MS, 100);
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 4);
	assert_int_equal(fuse_all(&r, fx, 4), 1);
	assert_int_equal(count_events(&fx[0].t, BD_EV_LOW_CALL), 1);
	assert_int_equal(count_events(&fx[0].t, BD_EV_CATCH), 1);
	sens_pipeline_free(r.p);

	rig_init(&r);
	impact(&r, 1.83, 0.61, 1000 * MS);
	press_held(&r, button_rig_line(BD_TEAM_B, SENS_CALL_CATCH1), 1500 * MS, 100);
	impact(&r, 1.83, 0.61, 4000 * MS);
	press_held(&r, button_rig_line(BD_TEAM_B, SENS_CALL_CATCH1), 4500 * MS, 100);
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 4);
	assert_int_equal(fuse_all(&r, fx, 4), 2);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(count_events(&fx[i].t, BD_EV_TABLE), 1);
		assert_int_equal(count_events(&fx[i].t, BD_EV_CATCH), 1);
	}
	sens_pipeline_free(r.p);
}

/* a1's throw: the low button at low_end 100 ms before the die lands on
 * B's half, then B's catch button `catch` (CATCH1 or CATCH2), judged. */
static struct bd_ruling low_landing_catch(int low_end, enum sens_call catch)
{
	struct dd_obs obs[4];
	struct button_rig rg;
	size_t n;
	int catcher;

	rig_init(&rg);
	button_rig_edge(&rg, button_rig_line(low_end, SENS_CALL_LOW), 900 * MS);
	impact(&rg, 1.83, 0.61, 1000 * MS);
	button_rig_edge(&rg, button_rig_line(BD_TEAM_B, catch), 1500 * MS);
	n = rig_to_fusion(&rg, 3, obs, 4);
	return judged(obs, n, &catcher);
}

/* A low call before the landing kills the throw (BD-P5); a re-toss voids
 * it (BD-P9). */
static void test_glue_bd_p5_low_and_bd_p9_retoss_buttons_in_the_ruling(void **state)
{
	struct dd_obs obs[4];
	struct bd_ruling r;
	size_t n;
	int catcher;

	(void)state;
	r = low_landing_catch(BD_TEAM_B, SENS_CALL_CATCH1);
	assert_true(r.dead);
	assert_true(CITES(&r, "BD-P5"));
	assert_int_equal(r.points[BD_TEAM_A] + r.points[BD_TEAM_B], 0);

	landing_then_button(button_rig_line(BD_TEAM_A, SENS_CALL_RETOSS), obs, &n);
	r = judged(obs, n, &catcher);
	assert_true(r.retoss);
	assert_true(CITES(&r, "BD-P9"));
}

/* "A defender calls low" (BD-P5): the low button at the thrower's end
 * changes nothing (A's press on a1's throw: B's two-handed catch gives A
 * its point, BD-P4a, and no official is asked); at the defenders' end it
 * kills the throw. */
static void test_glue_bd_p5_low_button_counts_from_the_defenders_end_only(void **state)
{
	struct bd_ruling r;

	(void)state;
	r = low_landing_catch(BD_TEAM_A, SENS_CALL_CATCH2);
	assert_false(r.dead);
	assert_false(CITES(&r, "BD-P5"));
	assert_true(CITES(&r, "BD-P4a"));
	assert_int_equal(r.points[BD_TEAM_A], 1);
	assert_false(r.review);
	assert_string_equal(why, "");

	r = low_landing_catch(BD_TEAM_B, SENS_CALL_CATCH2);
	assert_true(r.dead);
	assert_true(CITES(&r, "BD-P5"));
	assert_int_equal(r.points[BD_TEAM_A] + r.points[BD_TEAM_B], 0);
}

/* The glue object serve owns, on a manual clock (no real time passes):
 * made from the config with ev and clock borrowed. */
struct glue_run {
	sd_event *ev;			/* owned */
	struct dd_clock *clock;		/* owned: manual */
	struct dd_sensors *s;		/* owned, or NULL */
	struct dd_config cfg;		/* loaded while have_cfg */
	bool have_cfg;
	struct dd_health_item h;	/* the object's health item */
	int obs;			/* observations it gave */
};

static void count_obs(void *user, const struct dd_obs *o)
{
	struct glue_run *g = user;

	(void)o;
	g->obs++;
}

static int glue_setup(void **state)
{
	struct glue_run *g = calloc(1, sizeof(*g));

	if (!g || sd_event_new(&g->ev) < 0 || !(g->clock = dd_clock_new_manual(1000 * MS)))
		return -1;
	*state = g;
	return 0;
}

/* Frees what the case made, even when an assertion ended it half-way. */
static int glue_teardown(void **state)
{
	struct glue_run *g = *state;

	dd_sensors_free(g->s);
	dd_clock_free(g->clock);
	sd_event_unref(g->ev);
	if (g->have_cfg)
		dd_config_free(&g->cfg);
	free(g);
	return 0;
}

/* g->s made from text; NULL sets errno. */
static struct dd_sensors *glue_new(struct glue_run *g, const char *text, bool sim, char *err,
				   size_t errlen)
{
	assert_int_equal(dd_config_load_string(&g->cfg, "t.ini", text, err, errlen), 0);
	g->have_cfg = true;
	err[0] = '\0';
	g->s = dd_sensors_new(&g->cfg, g->ev, g->clock, sim, count_obs, g, &g->h, err, errlen);
	return g->s;
}

/* A chip that is not there is not fatal: the object is made, its health
 * item says there are no sensors, nothing reaches fusion however long the
 * clock runs, and the wiring is still the config's (the reference wiring
 * has a disc under the mine). */
static void test_glue_missing_chip_makes_an_object_that_says_so(void **state)
{
	struct glue_run *g = *state;
	char err[256];

	assert_non_null(glue_new(g, "[sensors]\nchip = /nonexistent/gpiochip\n", false, err,
				 sizeof(err)));
	assert_false(g->h.ok);
	assert_non_null(strstr(g->h.text, "no sensors"));
	assert_non_null(strstr(g->h.detail, "/nonexistent/gpiochip"));
	assert_true(dd_sensors_mine_wired(g->s));
	dd_sensors_keep_edges(g->s, NULL, NULL);
	assert_int_equal(dd_clock_next_due(g->clock), INT64_MAX);	/* no timer armed */
	dd_clock_advance(g->clock, 60 * 1000 * MS);
	assert_int_equal(g->obs, 0);
}

/* --sim: the simulated table feeds fusion itself; the object is inert. */
static void test_glue_sim_opens_nothing(void **state)
{
	struct glue_run *g = *state;
	char err[256];

	assert_non_null(glue_new(g, "[sensors]\nchip = /nonexistent/gpiochip\n", true, err,
				 sizeof(err)));
	assert_true(g->h.ok);
	assert_string_equal(g->h.text, "simulated table");
	assert_int_equal(dd_clock_next_due(g->clock), INT64_MAX);
}

/* A bad value is no object: EINVAL, and the message names its line, as
 * --check-config's does. */
static void test_glue_bad_config_is_einval_with_its_line(void **state)
{
	struct glue_run *g = *state;
	char err[256], err2[256];

	assert_null(glue_new(g, "[sensors]\n\nwave_speed = fast\n", false, err, sizeof(err)));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, "t.ini:3: sensors.wave_speed"));
	assert_int_equal(dd_sensors_check_config(&g->cfg, err2, sizeof(err2)), -EINVAL);
	assert_string_equal(err2, err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glue_every_button_at_both_ends_is_its_call),
		cmocka_unit_test(test_glue_catch_from_no_team_names_nobody),
		cmocka_unit_test(test_glue_unconfigured_line_gives_nothing),
		cmocka_unit_test(test_glue_cup_mine_and_table_lines_are_piezo_impacts),
		cmocka_unit_test(test_glue_cup_hit_shaking_the_table_is_a_deaf_window),
		cmocka_unit_test(test_glue_bd_p1_arrivals_fitting_no_one_point_reach_fusion),
		cmocka_unit_test(test_glue_bd_p1_doubtful_half_reaches_fusion),
		cmocka_unit_test(test_glue_bd_p4_catch_buttons_in_the_ruling),
		cmocka_unit_test(test_glue_bd_p5_low_and_bd_p9_retoss_buttons_in_the_ruling),
		cmocka_unit_test(test_glue_bd_p5_low_button_counts_from_the_defenders_end_only),
		cmocka_unit_test(test_glue_bd_k1_catch_button_after_a_kick_asks_who_caught),
		cmocka_unit_test(test_glue_a_held_button_is_one_call),
		cmocka_unit_test(test_glue_first_call_of_a_button_per_throw),
		cmocka_unit_test_setup_teardown(test_glue_missing_chip_makes_an_object_that_says_so,
						glue_setup, glue_teardown),
		cmocka_unit_test_setup_teardown(test_glue_sim_opens_nothing, glue_setup, glue_teardown),
		cmocka_unit_test_setup_teardown(test_glue_bad_config_is_einval_with_its_line,
						glue_setup, glue_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
