/* Fusion and a piezo fix that doubts its half (fix.near_line, carried as
 * dd_obs.half_doubtful with its P(half): a late or missing disc near the
 * line, docs/sensors.md "late and missing discs"). BD-P1 and BD-P6 rest
 * on the first landing's half: the discs alone, or against the camera,
 * go to review; the camera on the same half backs them. The observations:
 * fusion_obs.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/fusion_obs.h"

/* The reproduction as fusion gets it: B's half at p 0.89, flagged
 * (the truth was A's half, table0 late). */
static struct dd_obs doubtful_b(int64_t t)
{
	struct dd_obs o = obs_piezo_at(t, 1.282, 0.03, 0.89);

	o.half_doubtful = true;
	o.half_p = 0.89;
	return o;
}

/* The doubtful B fix and the camera's landing at (cam_x, 0.6), fused with
 * the camera present. */
static void with_camera_at(double cam_x, struct dd_fused *out)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		doubtful_b(1200 * MS),
		obs_camera_at(1210 * MS, cam_x, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};

	dd_fusion_init(&f, &c);
	run(&f, seq, 4, out);
}

/* BD-P1: the discs alone doubt the half, the camera saw no landing to
 * settle it (it misses some) or is not there: an official looks, told why,
 * though 0.89 is above review_below. */
static void test_bd_p1_doubtful_half_alone_goes_to_review(void **state)
{
	for (int camera = 0; camera < 2; camera++) {
		struct dd_fusion_cfg c = cfg_with(true, camera);
		struct dd_fusion f;
		struct dd_fused out;
		struct dd_obs seq[] = {
			obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
			doubtful_b(1200 * MS),
			obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
		};
		char why[DD_WHY_MAX];

		(void)state;
		dd_fusion_init(&f, &c);
		run(&f, seq, 3, &out);
		assert_true(out.review);
		assert_non_null(strstr(out.review_why, "table impact near the line: half doubtful (p 0.89)"));
		assert_int_equal(out.t.events[0].half, BD_HALF_B);
		struct bd_ruling r = judge_fused(&out, 0, 0, why);

		assert_true(r.review);
		assert_non_null(strstr(why, "half doubtful (p 0.89)"));
	}
}

/* BD-P6: the camera saw the die land on A's half, clear of the line, and
 * the discs' doubtful fix says B: the fused half is the camera's, sure of
 * itself, yet two witnesses disagree where one of them already doubts: an
 * official looks. */
static void test_bd_p6_doubtful_half_against_the_camera_goes_to_review(void **state)
{
	struct dd_fused out;
	char why[DD_WHY_MAX];

	(void)state;
	with_camera_at(1.19, &out);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "half doubtful (p 0.89), and the camera saw it land "
			       "on A's half"));
	assert_int_equal(out.t.events[0].half, BD_HALF_A);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);

	assert_true(r.review);
}

/* BD-P1: the camera saw it land on B's half too: the landing stands on
 * both witnesses, their distributions over the halves multiplied
 * (half_posterior), surer than either, and no official is asked. */
static void test_bd_p1_doubtful_half_the_camera_backs_stands(void **state)
{
	struct dd_fused out;
	char why[DD_WHY_MAX];

	(void)state;
	with_camera_at(1.30, &out);
	assert_false(out.review);
	assert_null(strstr(out.review_why, "half doubtful"));
	assert_int_equal(out.t.events[0].half, BD_HALF_B);
	assert_string_equal(out.t.events[0].source, "piezo+camera");
	assert_true(out.t.events[0].confidence > 0.99);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);

	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);
}

/* A fix that does not doubt its half, the same p 0.89: as before, alone
 * (above review_below, no review) and against the camera (the fused half
 * decides, a note only). */
static void test_fusion_half_not_doubtful_is_unchanged(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs alone[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		doubtful_b(1200 * MS),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct dd_obs against[] = {
		alone[0], alone[1], obs_camera_at(1210 * MS, 1.19, 0.95), alone[2],
	};

	(void)state;
	alone[1].half_doubtful = against[1].half_doubtful = false;
	dd_fusion_init(&f, &c);
	run(&f, alone, 3, &out);
	assert_false(out.review);
	assert_string_equal(out.review_why, "");
	assert_true(out.t.events[0].confidence > 0.88);
	dd_fusion_init(&f, &c);
	run(&f, against, 4, &out);
	assert_false(out.review);
	assert_null(strstr(out.review_why, "half doubtful"));
	assert_non_null(strstr(out.review_why, "disagree on the half"));
	assert_int_equal(out.t.events[0].half, BD_HALF_A);
}

/* BD-P3: a doubtful later bounce decides nothing. */
static void test_bd_p3_doubtful_later_bounce_is_no_reason(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_piezo_at(1200 * MS, 1.60, 0.01, 0.999),
		doubtful_b(1300 * MS),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_false(out.review);
	assert_null(strstr(out.review_why, "half doubtful"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bd_p1_doubtful_half_alone_goes_to_review),
		cmocka_unit_test(test_bd_p6_doubtful_half_against_the_camera_goes_to_review),
		cmocka_unit_test(test_bd_p1_doubtful_half_the_camera_backs_stands),
		cmocka_unit_test(test_fusion_half_not_doubtful_is_unchanged),
		cmocka_unit_test(test_bd_p3_doubtful_later_bounce_is_no_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
