/* Fusion (daemon/fusion_assemble.c): a throw that floor, cup or mine discs
 * alone felt, with no table impact, no camera and no call, goes to an
 * official. A floating floor strip made four such throws in 1.5 s, each
 * committed blind and each using up a thrower's turn (BD-T3), though
 * they scored nothing (BD-P14). */
#include "tests/unit/fusion_obs.h"

#define LONE "only floor, cup or mine sensors felt it"

static struct dd_fused fused(const struct dd_obs *obs, size_t n, bool camera)
{
	struct dd_fusion_cfg c = cfg_with(true, camera);
	struct dd_fusion f;
	static struct dd_fused out;	/* large */

	dd_fusion_init(&f, &c);
	run(&f, obs, n, &out);
	return out;
}

/* BD-P14, BD-T3: one floor edge is a throw of its own; it is no longer
 * ruled without an official. */
static void test_bd_t3_floor_alone_goes_to_review(void **state)
{
	struct dd_obs seq[] = { obs_event(DD_SRC_PIEZO, 1000 * MS, 1.0, BD_EV_FLOOR) };
	struct dd_fused out = fused(seq, 1, false);
	char why[DD_WHY_MAX];
	struct bd_ruling r;

	(void)state;
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, LONE));
	assert_non_null(strstr(out.review_why, "BD-T3"));
	r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_non_null(strstr(why, LONE));
	assert_int_equal(r.points[0] + r.points[1], 0);	/* BD-P14 */
}

/* BD-P7: a die straight into a cup and off to the floor can score 2
 * without touching the table, so a cup and floor alone are asked about,
 * not dropped; the mine alone (BD-O1) too. */
static void test_bd_p7_cup_and_floor_alone_go_to_review(void **state)
{
	struct dd_obs cup = obs_event(DD_SRC_PIEZO, 1000 * MS, 1.0, BD_EV_CUP);
	struct dd_obs seq[2];
	struct dd_obs mine[] = { obs_event(DD_SRC_PIEZO, 1000 * MS, 1.0, BD_EV_MINE) };
	struct dd_fused out;

	(void)state;
	cup.ev.player = 2;	/* b1 */
	seq[0] = cup;
	seq[1] = obs_event(DD_SRC_PIEZO, 1400 * MS, 1.0, BD_EV_FLOOR);
	out = fused(seq, 2, false);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, LONE));
	out = fused(mine, 1, false);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, LONE));
}

/* Any other witness settles it: a table landing (BD-P1), the camera's
 * toss, a console call, a button, or the table discs hearing a cup's
 * shake. */
static void test_bd_p1_a_second_witness_needs_no_official(void **state)
{
	struct dd_obs cup = obs_event(DD_SRC_PIEZO, 1000 * MS, 1.0, BD_EV_CUP);
	struct dd_obs floor = obs_event(DD_SRC_PIEZO, 1400 * MS, 1.0, BD_EV_FLOOR);
	struct dd_obs landed[] = { obs_table(DD_SRC_PIEZO, 800 * MS, 0.99, BD_HALF_B), floor };
	struct dd_obs tossed[] = { obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 500 * MS), cup, floor };
	struct dd_obs called[] = { cup, obs_event(DD_SRC_CONSOLE, 1200 * MS, 1.0, BD_EV_CATCH) };
	struct dd_obs pressed[] = { cup, obs_event(DD_SRC_BUTTON, 1200 * MS, 1.0, BD_EV_RETOSS) };
	struct dd_obs shaken[] = { cup, obs_deaf(1000 * MS, 1020 * MS), floor };
	struct dd_fused out;

	(void)state;
	cup.ev.player = 2;
	tossed[1] = cup;
	called[0] = cup;
	called[1].ev.player = 2;
	called[1].ev.hands = 1;
	pressed[0] = cup;
	shaken[0] = cup;
	out = fused(landed, 2, false);
	assert_null(strstr(out.review_why, LONE));
	assert_false(out.review);
	out = fused(tossed, 3, true);
	assert_null(strstr(out.review_why, LONE));
	out = fused(called, 2, false);
	assert_null(strstr(out.review_why, LONE));
	out = fused(shaken, 3, false);
	assert_null(strstr(out.review_why, LONE));
	/* a re-toss completes at once: fed, not run */
	{
		struct dd_fusion_cfg c = cfg_with(true, false);
		struct dd_fusion f;

		dd_fusion_init(&f, &c);
		assert_int_equal(dd_fusion_add(&f, &pressed[0], &out), 0);
		assert_int_equal(dd_fusion_add(&f, &pressed[1], &out), 1);
		assert_null(strstr(out.review_why, LONE));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bd_t3_floor_alone_goes_to_review),
		cmocka_unit_test(test_bd_p7_cup_and_floor_alone_go_to_review),
		cmocka_unit_test(test_bd_p1_a_second_witness_needs_no_official),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
