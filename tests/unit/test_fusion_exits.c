/* Fusion: synthetic observation sequences in, one judged throw out; a die
 * seen leaving over an edge, and the calls entered after it (BD-P4 catches,
 * BD-P5 low calls).
 * The observations: fusion_obs.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/fusion_obs.h"

/* BD-P1, BD-P4: the camera saw the die leave over an edge after landing on
 * B's half; no floor strip fired and no catch was entered (catches are the
 * official's call). A die that leaves the table falls to the floor unless
 * caught: the floor is ruled, as sure as the camera's exit, a point to A. */
static void test_bd_p1_die_seen_leaving_with_no_catch_entered_reached_the_floor(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 1.0, BD_HALF_B),
		obs_kind(DD_OBS_OFF_TABLE, DD_SRC_CAMERA, 1600 * MS),
	};
	char why[DD_WHY_MAX];

	(void)state;
	seq[1].confidence = 0.85;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_false(out.review);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[1].kind, BD_EV_FLOOR);
	assert_string_equal(out.t.events[1].source, "camera");
	assert_true(out.t.events[1].confidence > 0.84 && out.t.events[1].confidence < 0.86);
	assert_true(out.t.events[1].t_ns > 1600 * MS);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);
	/* A doubtful exit is the official's: the judge asks (review_below). */
	seq[1].confidence = 0.6;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_true(judge_fused(&out, 0, 0, why).review);
}

/* The die came back after the exit (the discs felt it on the table): the
 * exit was not the end, and nobody saw the end: review. */
static void test_fusion_exit_then_a_touch_is_no_floor(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 1.0, BD_HALF_B),
		obs_kind(DD_OBS_OFF_TABLE, DD_SRC_CAMERA, 1600 * MS),
		obs_table(DD_SRC_PIEZO, 1900 * MS, 1.0, BD_HALF_B),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "no end of the throw was seen"));
	for (size_t i = 0; i < out.t.n_events; i++)
		assert_int_not_equal(out.t.events[i].kind, BD_EV_FLOOR);
}

/* A catch entered after the exit ends the throw as a catch (BD-P4): no
 * floor is added. */
static void test_bd_p4_exit_then_a_catch_entered_is_a_catch(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 1.0, BD_HALF_B),
		obs_kind(DD_OBS_OFF_TABLE, DD_SRC_CAMERA, 1600 * MS),
		obs_event(DD_SRC_CONSOLE, 1900 * MS, 1.0, BD_EV_CATCH),
	};
	char why[DD_WHY_MAX];

	(void)state;
	seq[2].ev.player = 2;	/* b1, a defender */
	seq[2].ev.hands = 1;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_false(out.review);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[1].kind, BD_EV_CATCH);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_int_equal(r.points[BD_TEAM_A] + r.points[BD_TEAM_B], 0);
}

/* BD-P4: a defender catches most dice after they leave over an edge, and
 * the official enters the catch up to a second after it. A new toss (the
 * second die, BD-S3, or a caught die tossed back) ending the throw before
 * that second has passed leaves the catch unknown, not absent: no floor
 * may be inferred, and the throw nobody saw end goes to review, as before
 * the exit was read. */
static void test_bd_p4_new_toss_before_a_catch_could_be_entered_infers_no_floor(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 1.0, BD_HALF_B),
		obs_kind(DD_OBS_OFF_TABLE, DD_SRC_CAMERA, 1600 * MS),
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 2300 * MS),
	};
	char why[DD_WHY_MAX];

	(void)state;
	seq[2].confidence = 0.85;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &seq[0], &out), 0);
	assert_int_equal(dd_fusion_add(&f, &seq[1], &out), 0);
	assert_int_equal(dd_fusion_add(&f, &seq[2], &out), 0);
	assert_int_equal(dd_fusion_add(&f, &seq[3], &out), 1);
	for (size_t i = 0; i < out.t.n_events; i++)
		assert_int_not_equal(out.t.events[i].kind, BD_EV_FLOOR);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "no end of the throw was seen"));
	assert_true(judge_fused(&out, 0, 0, why).review);

	/* A toss long enough after the exit for any catch to be in: the
	 * floor stands (BD-P1). */
	seq[3].t_ns = 1600 * MS + 2000 * MS;
	dd_fusion_init(&f, &c);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(dd_fusion_add(&f, &seq[i], &out), 0);
	assert_int_equal(dd_fusion_add(&f, &seq[3], &out), 1);
	assert_false(out.review);
	assert_int_equal(out.t.events[out.t.n_events - 1].kind, BD_EV_FLOOR);
	assert_int_equal(judge_fused(&out, 0, 0, why).points[BD_TEAM_A], 1);
}

/* BD-P5: a low call counts when made before the die hits the table, and
 * the official enters it up to a second after hearing it (a 3 m toss falls
 * from its apex in 0.8 s). Entered 0.3 s after a sure landing on B's half,
 * the call may have come first: dead, or a point to A. Which came first is
 * the official's to settle (review), as a kick's order is (BD-K1). */
static void test_bd_p5_low_call_entered_just_after_the_landing_goes_to_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 1.0, BD_HALF_B),
		obs_event(DD_SRC_CONSOLE, 1500 * MS, 1, BD_EV_LOW_CALL),
		obs_event(DD_SRC_PIEZO, 1600 * MS, 1.0, BD_EV_FLOOR),
	};
	struct bd_ruling r;
	char why[DD_WHY_MAX];

	(void)state;
	seq[2].ev.player = 2;	/* b1, a defender */
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_non_null(strstr(why, "BD-P5"));
	assert_int_equal(r.points[BD_TEAM_A], 1);	/* as entered: after the landing */

	/* The camera put that landing on A's half, the fused B sure enough
	 * to ask nobody: fusion's note explains the review the low call
	 * asked for, so the official reads it after the judge's. */
	{
		struct dd_obs with_cam[] = {
			seq[0], seq[1], obs_table(DD_SRC_CAMERA, 1220 * MS, 0.6, BD_HALF_A), seq[2],
			seq[3],
		};

		dd_fusion_init(&f, &c);
		run(&f, with_cam, 5, &out);
	}
	assert_false(out.review);
	assert_string_equal(out.review_why, "piezo and camera disagree on the half");
	r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_string_equal(why, "low call entered just after the first touch, and which came "
			    "first decides the ruling (BD-P5); piezo and camera disagree on the half");

	/* Short (BD-P6): dead whichever came first, nobody is asked. */
	seq[1].ev.half = BD_HALF_A;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_true(r.dead);

	/* Entered before the landing: dead (BD-P5), nothing to settle. */
	seq[1].ev.half = BD_HALF_B;
	seq[2].t_ns = 1100 * MS;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_true(r.dead);

	/* Entered more than the official's second after the landing: made
	 * after it (BD-P5 ignores it), a point to A without review. */
	seq[2].t_ns = 2300 * MS;
	seq[3].t_ns = 2400 * MS;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bd_p1_die_seen_leaving_with_no_catch_entered_reached_the_floor),
		cmocka_unit_test(test_fusion_exit_then_a_touch_is_no_floor),
		cmocka_unit_test(test_bd_p4_exit_then_a_catch_entered_is_a_catch),
		cmocka_unit_test(test_bd_p4_new_toss_before_a_catch_could_be_entered_infers_no_floor),
		cmocka_unit_test(test_bd_p5_low_call_entered_just_after_the_landing_goes_to_review),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
