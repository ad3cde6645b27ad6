/* Push buttons at each end for manual calls (docs/sensors.md "Buttons"):
 * debounce by timestamp, the calls as core events (their config keys:
 * test_sens_config.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sensors/sensors.h"
#include "sim/sim.h"
#include "tests/support/button_rig.h"

#define CAP BUTTON_RIG_CAP
#define MS 1000000LL

static void rig_init(struct button_rig *r)
{
	assert_int_equal(button_rig_init(r), 0);
}

/* A press as contacts make it: the first edge, then bounce for ~4 ms. */
static void press(struct button_rig *r, unsigned line, int64_t t)
{
	static const int64_t bounce_us[] = { 0, 300, 1100, 2500, 4000 };

	for (size_t i = 0; i < sizeof(bounce_us) / sizeof(bounce_us[0]); i++)
		button_rig_edge(r, line, t + bounce_us[i] * 1000);
}

static void test_sens_button_bouncing_press_and_release_is_one_call(void **state)
{
	struct button_rig r;

	(void)state;
	rig_init(&r);
	press(&r, 40, 1000 * MS);	/* low at A's end */
	press(&r, 40, 1150 * MS);	/* its release bounces too */
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 1);
	assert_int_equal(r.obs[0].kind, SENS_OBS_BUTTON);
	assert_int_equal(r.obs[0].ev.t_ns, 1000 * MS);
	press(&r, 40, 2000 * MS);	/* a second press, a second later */
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 2);
	assert_int_equal(r.obs[1].ev.t_ns, 2000 * MS);
	sens_pipeline_free(r.p);
}

static void test_sens_button_presses_closer_than_repeat_are_one(void **state)
{
	struct button_rig r;

	(void)state;
	rig_init(&r);
	assert_true(r.cfg.button_repeat_s == 0.4);
	press(&r, 41, 1000 * MS);
	press(&r, 41, 1300 * MS);	/* quiet before it, but only 300 ms on */
	press(&r, 41, 1750 * MS);	/* 750 ms after the first press: a new one */
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 2);
	assert_int_equal(r.obs[0].ev.t_ns, 1000 * MS);
	assert_int_equal(r.obs[1].ev.t_ns, 1750 * MS);
	sens_pipeline_free(r.p);
}

/* A line that never goes quiet (a loose wire, interference) calls once,
 * not every repeat interval. */
static void test_sens_button_chattering_line_calls_once(void **state)
{
	struct button_rig r;
	struct sens_line_health h[SENS_MAX_LINES];
	size_t n;

	(void)state;
	rig_init(&r);
	for (int i = 0; i < 400; i++)
		button_rig_edge(&r, 44, 1000 * MS + i * 5 * MS);	/* every 5 ms for 2 s */
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 1);
	n = sens_pipeline_health(r.p, 3000 * MS, h, SENS_MAX_LINES);
	assert_int_equal(n, r.cfg.n_lines);
	assert_int_equal(h[13].offset, 44);
	assert_int_equal(h[13].edges, 400);
	assert_int_equal(h[13].accepted, 1);
	assert_int_equal(h[13].suppressed, 399);
	sens_pipeline_free(r.p);
}

/* The debounce is the button's own: a 20 ms piezo hold-off would take the
 * 25 ms bounce tail of a press as a second press. */
static void test_sens_button_debounce_is_not_the_piezo_hold_off(void **state)
{
	struct button_rig r;

	(void)state;
	rig_init(&r);
	for (int i = 0; i < 6; i++)
		button_rig_edge(&r, 47, 1000 * MS + i * 5 * MS);	/* 25 ms of bounce */
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 1);
	sens_pipeline_free(r.p);
}

/* Each call becomes the core event fusion puts into the throw: low
 * (BD-P5), re-toss (BD-P9), catches with their hands (BD-P4), with the
 * end's team; the player is for fusion to fill. */
static void test_sens_button_calls_map_to_core_events(void **state)
{
	static const struct {
		enum bd_ev_kind kind;
		int hands;
		const char *text;
	} want[SENS_CALLS] = {
		{ BD_EV_LOW_CALL, 0, "button low" }, { BD_EV_RETOSS, 0, "button retoss" },
		{ BD_EV_CATCH, 1, "button catch1" }, { BD_EV_CATCH, 2, "button catch2" },
	};
	struct button_rig r;
	char line[128];

	(void)state;
	rig_init(&r);
	for (unsigned i = 0; i < 2 * SENS_CALLS; i++)
		press(&r, 40 + i, (int64_t)(i + 1) * 1000 * MS);
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 2 * SENS_CALLS);
	for (int i = 0; i < 2 * SENS_CALLS; i++) {
		const struct sens_obs *o = &r.obs[i];
		int c = i % SENS_CALLS, team = i / SENS_CALLS;

		assert_int_equal(o->kind, SENS_OBS_BUTTON);
		assert_int_equal(o->call, c);
		assert_int_equal(o->team, team);
		assert_int_equal(o->line, 9 + i);
		assert_int_equal(o->ev.kind, want[c].kind);
		assert_int_equal(o->ev.hands, want[c].hands);
		assert_int_equal(o->ev.player, BD_NOBODY);
		assert_string_equal(o->ev.source, "button");
		assert_true(o->ev.confidence == 1.0);
		assert_int_equal(o->shaken_by, -1);
		sens_obs_format(o, line, sizeof(line));
		assert_non_null(strstr(line, want[c].text));
		assert_non_null(strstr(line, team == BD_TEAM_A ? "team A's end" : "team B's end"));
	}
	sens_pipeline_free(r.p);
}

/* A piezo observation is an impact, with no team. */
static void test_sens_button_piezo_observations_are_impacts(void **state)
{
	struct button_rig r;

	(void)state;
	rig_init(&r);
	button_rig_edge(&r, 5, 1000 * MS);	/* cup a1 */
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 1);
	assert_int_equal(r.obs[0].kind, SENS_OBS_IMPACT);
	assert_int_equal(r.obs[0].team, BD_NOBODY);
	sens_pipeline_free(r.p);
}

/* A "low" pressed while a table impact is still collecting edges comes
 * out after it, in time order. */
static void test_sens_button_during_an_impact_keeps_time_order(void **state)
{
	struct button_rig r;
	struct sim_piezo m;
	struct sim_rng rng;
	struct sens_edge e[64];
	size_t n;

	(void)state;
	rig_init(&r);
	sim_piezo_defaults(&m);
	sim_rng_seed(&rng, 5);
	n = sim_piezo_table_hit(&m, &r.cfg, &rng, 1.8, 0.6, 1000 * MS, e, 60);
	e[n++] = (struct sens_edge){ 44, 1000 * MS + 2 * MS };	/* low at B's end */
	sens_edges_sort(e, n);
	for (size_t i = 0; i < n; i++)
		r.n_obs += sens_pipeline_push(r.p, &e[i], r.obs + r.n_obs, CAP - r.n_obs);
	button_rig_flush(&r);
	assert_int_equal(r.n_obs, 2);
	assert_int_equal(r.obs[0].ev.kind, BD_EV_TABLE);
	assert_int_equal(r.obs[1].ev.kind, BD_EV_LOW_CALL);
	assert_int_equal(r.obs[1].team, BD_TEAM_B);
	sens_pipeline_free(r.p);
}

/* A button nobody pressed all match is fine, not silent. */
static void test_sens_button_health_never_silent(void **state)
{
	struct button_rig r;
	struct sens_line_health h[SENS_MAX_LINES];

	(void)state;
	rig_init(&r);
	button_rig_edge(&r, 5, 1000 * MS);
	press(&r, 40, 2000 * MS);
	button_rig_flush(&r);
	sens_pipeline_health(r.p, 2000 * MS + (int64_t)(r.cfg.silent_after_s * 2e9), h, SENS_MAX_LINES);
	assert_int_equal(h[6].state, SENS_HEALTH_SILENT);	/* cup a2: never hit */
	assert_int_equal(h[9].state, SENS_HEALTH_OK);	/* button_low_a: pressed */
	assert_int_equal(h[10].state, SENS_HEALTH_UNTESTED);	/* button_retoss_a */
	assert_int_equal(h[10].role, SENS_ROLE_BUTTON);
	sens_pipeline_free(r.p);
}

static void test_sens_button_config_check(void **state)
{
	struct sens_config c;
	char err[160];

	(void)state;
	sens_config_defaults(&c);
	assert_true(c.button_debounce_s == 0.030);
	c.lines[c.n_lines] = (struct sens_line_cfg){ .name = "button_low_a", .role = SENS_ROLE_BUTTON,
						     .offset = 40, .call = SENS_CALL_LOW, .team = 2 };
	c.n_lines++;
	assert_int_equal(sens_config_check(&c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "sensors: button_low_a: a button needs a call and a team (A or B)");
	c.lines[c.n_lines - 1].team = BD_TEAM_B;
	assert_int_equal(sens_config_check(&c, err, sizeof(err)), 0);
	c.button_repeat_s = 0.010;	/* shorter than the debounce */
	assert_int_equal(sens_config_check(&c, err, sizeof(err)), -EINVAL);
	assert_string_equal(sens_role_name(SENS_ROLE_BUTTON), "button");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sens_button_bouncing_press_and_release_is_one_call),
		cmocka_unit_test(test_sens_button_presses_closer_than_repeat_are_one),
		cmocka_unit_test(test_sens_button_chattering_line_calls_once),
		cmocka_unit_test(test_sens_button_debounce_is_not_the_piezo_hold_off),
		cmocka_unit_test(test_sens_button_calls_map_to_core_events),
		cmocka_unit_test(test_sens_button_piezo_observations_are_impacts),
		cmocka_unit_test(test_sens_button_during_an_impact_keeps_time_order),
		cmocka_unit_test(test_sens_button_health_never_silent),
		cmocka_unit_test(test_sens_button_config_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
