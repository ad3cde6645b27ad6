/* Fusion: synthetic observation sequences in, one judged throw out; the
 * witnesses: piezo and camera agreeing or not on a landing's half, the line,
 * the edges. The other sections have their own files (test_fusion_kicks.c,
 * test_fusion_shakes.c, test_fusion_exits.c, test_fusion_ends.c,
 * test_fusion_clock.c, test_fusion_rest.c).
 * The observations: fusion_obs.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/fusion_obs.h"

/* BD-P1: piezo and camera agree on B's half, then the floor: one clean point. */
static void test_fusion_agreeing_witnesses_score_bd_p1_without_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_table(DD_SRC_CAMERA, 1225 * MS, 0.85, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct bd_ruling r;

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[0].kind, BD_EV_TABLE);
	assert_int_equal(out.t.events[0].half, BD_HALF_B);
	assert_string_equal(out.t.events[0].source, "piezo+camera");
	assert_true(out.t.events[0].confidence > 0.98);
	assert_int_equal(out.t.events[1].kind, BD_EV_FLOOR);
	assert_false(out.review);
	assert_int_equal(out.t_dead_ns, 1500 * MS);
	assert_int_equal(out.t_last_edge_ns, 1500 * MS);
	r = judge(&out.t);
	assert_int_equal(r.points[BD_TEAM_A], 1);
	assert_false(r.review);
}

/* The camera's late report of a landing is put back in time order. */
static void test_fusion_late_camera_report_is_ordered_by_time(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1300 * MS, 0.95, BD_EV_FLOOR),
		obs_table(DD_SRC_CAMERA, 1210 * MS, 0.85, BD_HALF_B),	/* arrives last */
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[0].kind, BD_EV_TABLE);
	assert_string_equal(out.t.events[0].source, "piezo+camera");
	assert_int_equal(out.t.events[1].kind, BD_EV_FLOOR);
}

/* BD-P3: once the die has landed on B's half, a doubtful later bounce
 * cannot change the ruling: neither fusion nor the judge asks. */
static void test_fusion_bd_p3_doubtful_later_bounce_is_no_reason(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.95, BD_HALF_B),
		obs_table(DD_SRC_PIEZO, 1300 * MS, 0.3, BD_HALF_A),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct bd_ruling r;

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_int_equal(out.t.n_events, 3);
	assert_false(out.review);
	r = judge(&out.t);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);
}

/* Two witnesses without points disagree near-evenly (B at 0.85, A at 0.8):
 * their distributions over A, B and the line multiplied, B at
 * 0.085 / (0.085 + 0.06 + 0.0075) = 0.557; the judge asks (review_below),
 * with fusion's reason. (The old rule gave the surer half at |a - b|, 0.05.) */
static void test_fusion_half_disagreement_asks_for_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.85, BD_HALF_B),
		obs_table(DD_SRC_CAMERA, 1220 * MS, 0.8, BD_HALF_A),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.events[0].half, BD_HALF_B);
	assert_true(out.t.events[0].confidence > 0.55 && out.t.events[0].confidence < 0.56);
	assert_non_null(strstr(out.review_why, "disagree on the half"));
	/* core sees the low confidence on the deciding event and asks */
	assert_true(judge(&out.t).review);
	char why[DD_WHY_MAX];
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_non_null(strstr(why, "disagree on the half"));
}

/* BD-P1, BD-P6: both witnesses call B, but both only just: the camera's
 * point 1 mm past the line's edge (B at 0.58 from its 5 mm sd, 0.55 with
 * the tracker's 0.95), the fix's 3.4 mm past it (0.674, sd 9.3 mm). Their
 * doubts are the same one, the line: together B at about 0.74, and the
 * judge asks. Two independent "B or else anything" witnesses
 * (1 - 0.45 * 0.326 = 0.85, the old rule) would rule a point unasked. */
static void test_bd_p6_agreeing_witnesses_both_near_the_line_go_to_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_piezo_at(1200 * MS, 1.2334, 0.0093, 0.674),
		obs_camera_at(1210 * MS, 1.2310, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.events[0].half, BD_HALF_B);
	assert_string_equal(out.t.events[0].source, "piezo+camera");
	assert_true(out.t.events[0].confidence > 0.70 && out.t.events[0].confidence < 0.78);
	assert_float_equal(out.t.events[0].x, 1.2310, 1e-9);	/* the camera's point */
	assert_null(strstr(out.review_why, "disagree"));
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);	/* provisional: B's half, the floor */
}

/* BD-P6: the camera puts the first landing 2 cm inside A's half (4 of its
 * sds from the line's edge: its half at 0.95), the fix on B's at 0.7 (point
 * 2 cm past the line, sd 2 cm): only the camera's point is possible under
 * both, so A's half, short and dead, at nearly 1 and unasked. (The old rule:
 * the surer half at 0.25, a review.) */
static void test_bd_p6_clearly_surer_camera_overrules_the_fix(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_piezo_at(1200 * MS, 1.25, 0.02, 0.7),
		obs_camera_at(1215 * MS, 1.19, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.events[0].half, BD_HALF_A);
	assert_true(out.t.events[0].confidence > 0.999);
	assert_float_equal(out.t.events[0].x, 1.19, 1e-9);
	assert_non_null(strstr(out.review_why, "disagree on the half"));	/* a note, not a review */
	assert_false(out.review);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_true(r.dead);
	assert_int_equal(r.points[BD_TEAM_A] + r.points[BD_TEAM_B], 0);
	assert_string_equal(why, "");
}

/* BD-P6: the camera's point 4 mm inside A's half (A 0.79, line 0.21), the
 * fix 1.5 cm past the line on B's (0.9, sd 1 cm: the line 0.08, A 0.02):
 * B is impossible for the camera, A unlikely for the fix, and the line is
 * what both leave room for, but only just (about 0.57): the judge asks.
 * (The old rule: B at 0.15.) */
static void test_bd_p6_near_even_disagreement_goes_to_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_piezo_at(1200 * MS, 1.245, 0.01, 0.9),
		obs_camera_at(1210 * MS, 1.206, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.events[0].half, BD_HALF_LINE);
	assert_true(out.t.events[0].confidence > 0.5 && out.t.events[0].confidence < 0.65);
	assert_false(out.t.events[0].has_xy);	/* neither witness's point is on the line */
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_non_null(strstr(why, "disagree on the half"));
}

/* BD-P1: two discs heard the landing and their arrival difference calls
 * the line (0.7, no point: A and B 0.15 each); the camera puts it 1.5 cm
 * past the line on B's half (3 of its sds: the line 0.001). B at 0.99, a
 * point unasked. (The old rule: B at 0.25, a review.) */
static void test_bd_p1_line_call_and_a_half_from_the_camera(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.7, BD_HALF_LINE),
		obs_camera_at(1210 * MS, 1.245, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.events[0].half, BD_HALF_B);
	assert_true(out.t.events[0].confidence > 0.99);
	assert_true(out.t.events[0].has_xy);
	assert_float_equal(out.t.events[0].x, 1.245, 1e-9);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);
}

/* BD-P5: a sure low call before the landing makes the throw dead whatever
 * the half, so witnesses disagreeing on it ask nobody. */
static void test_bd_p5_low_call_makes_a_half_disagreement_moot(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_event(DD_SRC_CONSOLE, 1000 * MS, 1.0, BD_EV_LOW_CALL),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_table(DD_SRC_CAMERA, 1220 * MS, 0.6, BD_HALF_A),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	seq[0].ev.player = 2;	/* b1, a defender */
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_false(out.review);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_true(r.dead);
	assert_int_equal(r.points[BD_TEAM_A] + r.points[BD_TEAM_B], 0);
}

/* The camera watched and saw no landing: the piezo's word alone is thin. */
static void test_fusion_camera_saw_no_landing_asks_for_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_kind(DD_OBS_NO_LANDING, DD_SRC_CAMERA, 1225 * MS),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "camera saw no landing"));
	assert_true(out.t.events[0].confidence <= 0.9 * 0.5 + 1e-9);
}

/* BD-P1 rests on the first landing's half. Arrivals no one landing
 * explains (two impacts in one window: a slap on the table as the die
 * lands) reach the discs' fix as a shrug about the half; the judge sends
 * the throw to review, and the official hears why. */
static void test_bd_p1_discs_fitting_no_one_landing_tell_the_official(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.49, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	seq[0].no_point = true;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_non_null(strstr(out.review_why, "no one landing explains"));
	judge_fused(&out, 0, 0, why);
	assert_non_null(strstr(why, "no one landing explains"));
	/* a later bounce that fits no point says nothing of the first (BD-P3) */
	seq[0].no_point = false;
	seq[0].confidence = 0.99;
	struct dd_obs later[] = { seq[0], obs_table(DD_SRC_PIEZO, 1300 * MS, 0.5, BD_HALF_A), seq[1] };

	later[1].no_point = true;
	dd_fusion_init(&f, &c);
	run(&f, later, 3, &out);
	assert_null(strstr(out.review_why, "no one landing explains"));
}

/* Without a camera, the piezo alone is the only witness: no doubt from that. */
static void test_fusion_piezo_alone_without_camera_is_trusted(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_false(out.review);
	assert_true(out.t.events[0].confidence > 0.89);
	assert_string_equal(out.t.events[0].source, "piezo");
}

/* The discs' fix of a landing at the very edge falls a millimetre and a
 * half off the table (it happened on the simulated table): the throw
 * takes the nearest point of the top, so its match log reads back. */
static void test_fusion_landing_fixed_just_off_an_edge_is_on_the_table(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_piezo_at(1200 * MS, -0.0014, 0.01, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct bd_match_cfg mc;
	struct mlog_bd *log, *again = NULL;
	char *text = NULL, err[160];
	size_t len;

	(void)state;
	seq[0].ev.y = 1.2236;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_true(out.t.events[0].has_xy);
	assert_true(out.t.events[0].x == 0 && out.t.events[0].y == c.table.width_m);
	assert_int_equal(out.t.events[0].half, BD_HALF_A);
	assert_false(out.review);	/* a fix's error at an edge: nothing to ask */
	bd_match_cfg_init(&mc);
	log = mlog_bd_new("t", &mc);
	assert_non_null(log);
	assert_int_equal(mlog_bd_add_throw(log, &out.t), 1);
	assert_int_equal(mlog_bd_write(log, &text, &len), 0);
	if (mlog_bd_parse("t.jsonl", text, len, &again, err, sizeof(err)))
		fail_msg("%s", err);
	mlog_bd_free(again);
	free(text);
	mlog_bd_free(log);
	/* Placed 10 cm off: moved onto the top as well, but a witness is
	 * wrong about where it came down, and the official is asked. */
	seq[0] = obs_piezo_at(1200 * MS, -0.10, 0.01, 0.95);
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_true(out.t.events[0].x == 0);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "piezo placed the landing 10 cm off the table"));
}

/* The camera misses some landings (a die coming down out of view, a kink
 * too slight at 30 fps): a first landing the discs felt and the camera did
 * not report keeps its confidence; it says nothing of the half. */
static void test_fusion_piezo_landing_the_camera_missed_keeps_its_confidence(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_false(out.review);
	assert_true(out.t.events[0].confidence > 0.89);
	/* The camera alone, with the discs working, is doubted: they feel
	 * every first landing. */
	struct dd_obs cam[] = {
		obs_table(DD_SRC_CAMERA, 1200 * MS, 0.95, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	dd_fusion_init(&f, &c);
	run(&f, cam, 2, &out);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "felt no landing"));
}

/* A doubtful piezo half (0.6) and the camera's landing on the same half
 * (0.9), neither with a point: two independent witnesses, their
 * distributions multiplied, 0.54 / (0.54 + 2 * 0.2 * 0.05) = 0.96, ruled
 * without review (BD-P1). */
static void test_bd_p1_camera_landing_settles_a_doubtful_piezo_half(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.6, BD_HALF_B),
		obs_table(DD_SRC_CAMERA, 1210 * MS, 0.9, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_false(out.review);
	assert_int_equal(out.t.n_events, 2);
	assert_true(out.t.events[0].confidence > 0.95 && out.t.events[0].confidence < 0.97);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fusion_agreeing_witnesses_score_bd_p1_without_review),
		cmocka_unit_test(test_fusion_bd_p3_doubtful_later_bounce_is_no_reason),
		cmocka_unit_test(test_fusion_late_camera_report_is_ordered_by_time),
		cmocka_unit_test(test_fusion_half_disagreement_asks_for_review),
		cmocka_unit_test(test_bd_p6_agreeing_witnesses_both_near_the_line_go_to_review),
		cmocka_unit_test(test_bd_p6_clearly_surer_camera_overrules_the_fix),
		cmocka_unit_test(test_bd_p6_near_even_disagreement_goes_to_review),
		cmocka_unit_test(test_bd_p1_line_call_and_a_half_from_the_camera),
		cmocka_unit_test(test_bd_p5_low_call_makes_a_half_disagreement_moot),
		cmocka_unit_test(test_fusion_camera_saw_no_landing_asks_for_review),
		cmocka_unit_test(test_bd_p1_discs_fitting_no_one_landing_tell_the_official),
		cmocka_unit_test(test_fusion_piezo_alone_without_camera_is_trusted),
		cmocka_unit_test(test_fusion_landing_fixed_just_off_an_edge_is_on_the_table),
		cmocka_unit_test(test_fusion_piezo_landing_the_camera_missed_keeps_its_confidence),
		cmocka_unit_test(test_bd_p1_camera_landing_settles_a_doubtful_piezo_half),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
