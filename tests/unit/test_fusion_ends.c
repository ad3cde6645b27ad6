/* Fusion: synthetic observation sequences in, one judged throw out; how a
 * throw ends: timeouts, re-tosses, console calls, new tosses, drops, late
 * reports, refused button calls, observations refused.
 * The observations: fusion_obs.h. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/fusion_obs.h"

/* No dead die seen: the timeout ends the throw, marked for review. */
static void test_fusion_timeout_without_dead_die_asks_for_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = { obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B) };

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 1, &out);
	assert_int_equal(out.t_dead_ns, 1200 * MS + c.timeout_ns);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "no end"));
}

/* BD-P9: a re-toss completes the throw at once, without settling. */
static void test_fusion_retoss_completes_at_once_bd_p9(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs t1 = obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B);
	struct dd_obs re = obs_event(DD_SRC_CONSOLE, 1400 * MS, 1, BD_EV_RETOSS);

	(void)state;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &t1, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &re, &out), 1);
	assert_false(dd_fusion_active(&f));
	assert_int_equal(out.t.events[out.t.n_events - 1].kind, BD_EV_RETOSS);
	assert_true(judge(&out.t).retoss);
}

/* A catch kind called from the console within the settle window joins the
 * throw after the floor edge... and one catch ends the throw (BD-P4). */
static void test_fusion_console_catch_is_dead_and_joins_bd_p4(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs ct = obs_event(DD_SRC_CONSOLE, 1500 * MS, 1, BD_EV_CATCH);
	struct dd_obs seq[2];
	struct bd_ruling r;

	(void)state;
	ct.ev.player = 2;	/* b1, a defender */
	ct.ev.hands = 1;
	seq[0] = obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B);
	seq[1] = ct;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[1].kind, BD_EV_CATCH);
	assert_string_equal(out.t.events[1].source, "console");
	r = judge(&out.t);
	assert_int_equal(r.points[BD_TEAM_A], 0);
}

/* BD-P2: "dye up" missed from the console makes the throw score nothing. */
static void test_fusion_dye_up_missed_reaches_the_throw_bd_p2(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_DYE_UP_MISSED, DD_SRC_CONSOLE, 100 * MS),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_false(out.t.dye_up);
	assert_int_equal(judge(&out.t).points[BD_TEAM_A], 0);
}

/* A toss while a throw never ended: the old one completes, the new starts. */
static void test_fusion_new_toss_completes_unfinished_throw(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs t1 = obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B);
	struct dd_obs toss = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 3000 * MS);

	(void)state;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &t1, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &toss, &out), 1);
	assert_true(out.review);
	assert_int_equal(out.t.n_events, 1);
	assert_true(dd_fusion_active(&f));	/* the new throw is under way */
}

/* A toss that ended the game's winning throw began a throw of a game
 * that is over (BD-W1): dropped, fusion holds nothing of it, its deadline
 * gone; what came before the toss is still too late, and a later
 * observation begins a throw of its own. */
static void test_fusion_drop_forgets_the_throw_under_way_keeps_the_close(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs t1 = obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B);
	struct dd_obs toss = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 3000 * MS);
	struct dd_obs t2 = obs_table(DD_SRC_PIEZO, 3500 * MS, 0.9, BD_HALF_B);
	struct dd_obs old = obs_table(DD_SRC_CAMERA, 2900 * MS, 0.9, BD_HALF_B);
	struct dd_obs floor = obs_event(DD_SRC_PIEZO, 9000 * MS, 0.9, BD_EV_FLOOR);

	(void)state;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &t1, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &toss, &out), 1);
	assert_int_equal(dd_fusion_add(&f, &t2, &out), 0);
	dd_fusion_drop(&f);
	assert_false(dd_fusion_active(&f));
	assert_int_equal(dd_fusion_deadline(&f), INT64_MAX);
	assert_int_equal(dd_fusion_tick(&f, 20000 * MS, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &old, &out), DD_FUSION_LATE);
	assert_int_equal(dd_fusion_add(&f, &floor, &out), 0);
	assert_int_equal(dd_fusion_tick(&f, 9400 * MS, &out), 1);
	assert_int_equal(out.t.n_events, 1);
	assert_int_equal(out.t.events[0].kind, BD_EV_FLOOR);
	dd_fusion_drop(&f);	/* nothing under way: nothing changes */
	assert_int_equal(dd_fusion_add(&f, &old, &out), DD_FUSION_LATE);
}

/* BD-P5 with low_call=auto: the camera's apex (above the table top) comes
 * with its standard deviation, and fusion hands both to the judge, the
 * apex as the toss height above the floor (BD-S7); half a sd above the 3 m
 * minimum is in doubt (P 0.69 < review_below), so too low and dead. */
static void test_fusion_bd_p5_apex_sd_reaches_the_judge(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.95, BD_HALF_B),
		obs_kind(DD_OBS_APEX, DD_SRC_CAMERA, 1200 * MS),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct bd_match_cfg mc;
	struct bd_state s;
	struct bd_ruling r;
	char why[120], err[256];

	(void)state;
	seq[2].apex_m = 3.04 - c.table.height_m;
	seq[2].apex_sd_m = 0.08;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_true(fabs(out.t.apex_m - 3.04) < 1e-9);
	assert_true(out.t.apex_sd_m == 0.08);
	bd_match_cfg_init(&mc);
	mc.house.low_call = BD_LOW_AUTO;
	bd_state_init(&s, &mc);
	assert_int_equal(dd_fused_judge(&mc, &s, &out, &r, why, sizeof(why), err, sizeof(err)), 0);
	assert_true(r.dead);
	assert_int_equal(r.points[BD_TEAM_A], 0);
	assert_non_null(strstr(r.note, "not surely above the minimum"));
}

static void test_fusion_rejects_nonsense_observations(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs bad = obs_table(DD_SRC_PIEZO, 0, 1.5, BD_HALF_B);

	(void)state;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &bad, &out), -EINVAL);
	bad.confidence = 0.5;
	bad.kind = (enum dd_obs_kind)99;
	assert_int_equal(dd_fusion_add(&f, &bad, &out), -EINVAL);
	assert_false(dd_fusion_active(&f));
	assert_int_equal(dd_fusion_deadline(&f), INT64_MAX);
}

/* BD-P1 then a camera report of that throw arriving after it was judged
 * (the camera reports late; a loop held up): it is too late for the throw
 * it belongs to, and must not start a throw of its own, a rest with no
 * landing judged on nothing. One made after the close is the next throw's. */
static void test_fusion_bd_p1_late_report_of_a_judged_throw_starts_none(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct dd_obs late = obs_event(DD_SRC_CAMERA, 1600 * MS, 0.8, BD_EV_REST);
	struct dd_obs next = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 1900 * MS);

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.n_events, 2);
	/* closed at 1500 + 400 ms settle: made at 1600, come after */
	assert_int_equal(dd_fusion_add(&f, &late, &out), DD_FUSION_LATE);
	assert_false(dd_fusion_active(&f));
	assert_int_equal(dd_fusion_deadline(&f), INT64_MAX);
	/* a re-toss closes at once: the next throw's toss made at the close is taken */
	assert_int_equal(dd_fusion_add(&f, &next, &out), 0);
	assert_true(dd_fusion_active(&f));
	struct dd_obs retoss = obs_event(DD_SRC_CONSOLE, 2000 * MS, 1, BD_EV_RETOSS);
	struct dd_obs before = obs_table(DD_SRC_CAMERA, 1999 * MS, 0.9, BD_HALF_B);
	assert_int_equal(dd_fusion_add(&f, &retoss, &out), 1);
	assert_int_equal(dd_fusion_add(&f, &before, &out), DD_FUSION_LATE);
	assert_false(dd_fusion_active(&f));
	/* A toss made before a settled throw closed is that throw's, late. */
	struct dd_obs toss_late = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 1950 * MS);
	assert_int_equal(dd_fusion_add(&f, &toss_late, &out), DD_FUSION_LATE);
}

/* A throw nobody saw end times out 6 s after its last observation. The
 * next throw's toss, made just before that but reported by the camera
 * after it, would have closed the old throw had it come in time: it
 * starts the next throw (with its height, BD-S7), and that throw's own
 * reports made after it are taken; the old throw's are still late. */
static void test_fusion_bd_s7_late_toss_after_a_timeout_starts_the_next_throw(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs land = obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B);
	struct dd_obs old = obs_table(DD_SRC_CAMERA, 1100 * MS, 0.9, BD_HALF_B);
	struct dd_obs toss = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 7150 * MS);
	struct dd_obs apex = obs_kind(DD_OBS_APEX, DD_SRC_CAMERA, 7180 * MS);

	(void)state;
	dd_fusion_init(&f, &c);
	apex.apex_m = 3.4;
	assert_int_equal(dd_fusion_add(&f, &land, &out), 0);
	assert_int_equal(dd_fusion_tick(&f, 7200 * MS, &out), 1);	/* 1200 + 6000 ms */
	assert_int_equal(dd_fusion_add(&f, &old, &out), DD_FUSION_LATE);
	assert_int_equal(dd_fusion_add(&f, &toss, &out), 0);
	assert_true(dd_fusion_active(&f));
	assert_int_equal(dd_fusion_add(&f, &apex, &out), 0);
	assert_int_equal(f.cur.n_obs, 2);
}

/* A button's call that fusion refuses (its throw already holds
 * DD_FUSION_MAX_OBS observations) starts no held press: B's catch button
 * pressed again 200 ms later, in the next throw, is that throw's catch,
 * not the first press still held down. */
static void test_fusion_a_refused_button_call_starts_no_held_press(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	static struct dd_fused out;	/* large */
	struct dd_obs ct = obs_event(DD_SRC_BUTTON, 1100 * MS, 1, BD_EV_CATCH);
	struct dd_obs toss = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 1200 * MS);

	(void)state;
	ct.ev.player = 2;	/* b1: B's end */
	ct.ev.hands = 1;
	dd_fusion_init(&f, &c);
	for (int i = 0; i < DD_FUSION_MAX_OBS; i++) {
		struct dd_obs t = obs_table(DD_SRC_PIEZO, (1000 + i) * MS, 0.9, BD_HALF_B);

		assert_int_equal(dd_fusion_add(&f, &t, &out), 0);
	}
	assert_int_equal(dd_fusion_add(&f, &ct, &out), 0);
	assert_int_equal(f.cur.n_obs, DD_FUSION_MAX_OBS);	/* refused: no room */
	assert_int_equal(dd_fusion_add(&f, &toss, &out), 1);
	assert_non_null(strstr(out.review_why, "observations were dropped"));
	ct.t_ns = 1300 * MS;
	assert_int_equal(dd_fusion_add(&f, &ct, &out), 0);
	assert_int_equal(f.cur.n_obs, 2);
	assert_int_equal(f.cur.obs[1].ev.kind, BD_EV_CATCH);
	/* Kept, it is this throw's catch: its second call (on release) is left out. */
	ct.t_ns = 1400 * MS;
	assert_int_equal(dd_fusion_add(&f, &ct, &out), DD_FUSION_REPEAT);
}

/* BD-P9: a re-toss voids a throw with more observations than its events
 * hold (BD_MAX_EVENTS), and one with no room left for them (a line
 * chattering filled it): it is not left out like the rest. */
static void retoss_after(int n_table, bool full)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	static struct dd_fused out;	/* large */
	struct dd_obs re = obs_event(DD_SRC_BUTTON, 1100 * MS, 1, BD_EV_RETOSS);

	dd_fusion_init(&f, &c);
	for (int i = 0; i < n_table; i++) {
		struct dd_obs t = obs_table(DD_SRC_PIEZO, (1000 + i) * MS, 0.9, BD_HALF_B);

		assert_int_equal(dd_fusion_add(&f, &t, &out), 0);
	}
	assert_int_equal(dd_fusion_add(&f, &re, &out), 1);
	assert_false(dd_fusion_active(&f));
	assert_int_equal(out.t.n_events, BD_MAX_EVENTS);
	assert_true(judge(&out.t).retoss);
	assert_non_null(strstr(out.review_why, "more observations than a throw can hold"));
	assert_true(!full || strstr(out.review_why, "observations were dropped"));
}

static void test_fusion_bd_p9_retoss_voids_a_throw_of_too_many_observations(void **state)
{
	(void)state;
	retoss_after(BD_MAX_EVENTS + 8, false);
	retoss_after(DD_FUSION_MAX_OBS, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fusion_bd_p1_late_report_of_a_judged_throw_starts_none),
		cmocka_unit_test(test_fusion_bd_s7_late_toss_after_a_timeout_starts_the_next_throw),
		cmocka_unit_test(test_fusion_bd_p5_apex_sd_reaches_the_judge),
		cmocka_unit_test(test_fusion_timeout_without_dead_die_asks_for_review),
		cmocka_unit_test(test_fusion_retoss_completes_at_once_bd_p9),
		cmocka_unit_test(test_fusion_console_catch_is_dead_and_joins_bd_p4),
		cmocka_unit_test(test_fusion_dye_up_missed_reaches_the_throw_bd_p2),
		cmocka_unit_test(test_fusion_new_toss_completes_unfinished_throw),
		cmocka_unit_test(test_fusion_drop_forgets_the_throw_under_way_keeps_the_close),
		cmocka_unit_test(test_fusion_a_refused_button_call_starts_no_held_press),
		cmocka_unit_test(test_fusion_bd_p9_retoss_voids_a_throw_of_too_many_observations),
		cmocka_unit_test(test_fusion_rejects_nonsense_observations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
