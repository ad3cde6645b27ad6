/* Fusion: synthetic observation sequences in, one judged throw out; kicks
 * (BD-K): kick calls entered near the touches they caused, and their order.
 * The observations: fusion_obs.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/fusion_obs.h"

/* BD-K9 and BD-K5: a kicked die that reaches the floor with no landing
 * felt never touched the table (a touch on the edge or the underside rings
 * the board like one on the top: the discs under it feel it), so it scores
 * nothing and nobody is asked; one that touched the defenders' half scores. */
static void test_fusion_bd_k9_kicked_to_floor_unlanded_is_ruled_without_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_event(DD_SRC_CONSOLE, 1000 * MS, 1, BD_EV_KICK),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.95, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct dd_obs unlanded[] = { seq[0], seq[1], seq[3] };
	struct bd_ruling r;

	(void)state;
	seq[1].ev.player = 2;
	strcpy(seq[1].ev.part, "foot");
	unlanded[1] = seq[1];
	dd_fusion_init(&f, &c);
	run(&f, unlanded, 3, &out);
	assert_false(out.review);
	r = judge(&out.t);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 0);
	assert_int_equal(r.points[BD_TEAM_B], 0);
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_false(out.review);
	r = judge(&out.t);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);	/* BD-K5 */
}

/* BD-K1, BD-P6, BD-P12, BD-K8: a defender may also kick a die after it
 * touched the table (a short throw bouncing off the attackers' half); that
 * kick is no FIFA and the judge ignores it. A call within the official's
 * delay of the touch cannot say which came first, and here it decides the
 * ruling: short, then an attackers' cup sunk is BD-P12 (2 points to the
 * defenders), kicked back into it is BD-K8 (no points, the kicker kills n'
 * fills). Such a throw goes to an official. */
static void test_fusion_bd_k1_kick_call_near_the_touch_before_a_sink_goes_to_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.95, BD_HALF_A),
		obs_event(DD_SRC_CONSOLE, 1500 * MS, 1, BD_EV_KICK),	/* kicked at 1300 */
		obs_event(DD_SRC_PIEZO, 1700 * MS, 0.95, BD_EV_CUP),
	};
	struct bd_ruling r;
	char why[DD_WHY_MAX];

	(void)state;
	seq[2].ev.player = 2;
	strcpy(seq[2].ev.part, "foot");
	seq[3].ev.player = 1;	/* an attackers' cup */
	seq[3].ev.sink = true;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_false(out.review);	/* fusion cannot tell: the score decides (BD-K2a) */
	assert_true(out.kick_guessed);
	assert_int_equal(out.kick_at, 0);
	/* The two readings the official chooses between differ. */
	r = judge(&out.t);
	assert_int_equal(r.points[BD_TEAM_B], 0);	/* BD-K8, as fused */
	{
		struct bd_throw t = out.t;
		struct bd_event k = t.events[0];

		assert_int_equal(k.kind, BD_EV_KICK);
		t.events[0] = t.events[1];
		t.events[1] = k;
		r = judge(&t);
		assert_int_equal(r.points[BD_TEAM_B], 2);	/* BD-P12 */
	}
	r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_non_null(strstr(why, "BD-K1"));

	/* The same late call before a floor: no points either way, but short
	 * the throw is dead (BD-P6) and kicked onto the attackers' half it is
	 * not (BD-K8): the rulings differ, an official looks. */
	seq[3] = obs_event(DD_SRC_PIEZO, 1700 * MS, 0.95, BD_EV_FLOOR);
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_false(out.review);
	r = judge_fused(&out, 0, 0, why);
	assert_int_equal(r.points[BD_TEAM_A] + r.points[BD_TEAM_B], 0);
	assert_true(r.review);
}

/* BD-K1, BD-K5, BD-P1, BD-K2a: a kick called just after the die landed
 * on the defenders' half, then the floor. Kicked first it is BD-K5, landed
 * first BD-P1 (the kick ignored): one point to the attackers either way,
 * except at game point, where BD-K2a withholds the kicked point and not
 * the other. There the guessed order decides the game: an official looks. */
static void late_kick_then_b_then_floor(struct dd_fused *out)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.95, BD_HALF_B),
		obs_event(DD_SRC_CONSOLE, 1500 * MS, 1, BD_EV_KICK),
		obs_event(DD_SRC_PIEZO, 1700 * MS, 0.95, BD_EV_FLOOR),
	};

	seq[2].ev.player = 2;	/* a defender */
	strcpy(seq[2].ev.part, "foot");
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, out);
	assert_true(out->kick_guessed);
	assert_int_equal(out->t.events[out->kick_at].kind, BD_EV_KICK);
	assert_false(out->review);
}

static void test_fusion_bd_k2a_guessed_kick_order_at_game_point_goes_to_review(void **state)
{
	struct dd_fused out;
	struct bd_ruling r;
	char why[DD_WHY_MAX];

	(void)state;
	late_kick_then_b_then_floor(&out);
	r = judge_fused(&out, 9, 5, why);	/* A at 9 of 10, 5 ahead */
	assert_int_equal(r.points[BD_TEAM_A], 0);	/* BD-K5 withheld (BD-K2a), as fused */
	assert_true(r.review);
	assert_non_null(strstr(why, "BD-K1"));
}

static void test_fusion_bd_k1_guessed_kick_order_off_game_point_rules_without_review(void **state)
{
	struct dd_fused out;
	struct bd_ruling r;
	char why[DD_WHY_MAX];

	(void)state;
	late_kick_then_b_then_floor(&out);
	r = judge_fused(&out, 3, 5, why);
	assert_int_equal(r.points[BD_TEAM_A], 1);	/* BD-K5 or BD-P1 alike */
	assert_false(r.review);
	assert_string_equal(why, "");
}

/* BD-K1, BD-K5: the official enters a kick a moment after it happened, by
 * which time the kicked die may already have touched the table. A FIFA
 * kick is only made on a die that has not touched the table, so the kick
 * goes before that touch; a touch longer ago than an official's delay was
 * before the kick. */
static void test_fusion_bd_k5_late_kick_call_goes_before_the_touch_it_caused(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.95, BD_HALF_B),
		obs_event(DD_SRC_CONSOLE, 1500 * MS, 1, BD_EV_KICK),	/* kicked at ~1000 */
		obs_event(DD_SRC_PIEZO, 1700 * MS, 0.95, BD_EV_FLOOR),
	};
	struct bd_ruling r;

	(void)state;
	seq[2].ev.player = 2;
	strcpy(seq[2].ev.part, "foot");
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_int_equal(out.t.n_events, 3);
	assert_int_equal(out.t.events[0].kind, BD_EV_KICK);
	assert_int_equal(out.t.events[1].kind, BD_EV_TABLE);
	assert_false(out.review);
	r = judge(&out.t);
	assert_int_equal(r.points[BD_TEAM_A], 1);	/* BD-K5 */
	assert_false(r.review);

	/* Touched 1.3 s before the call: the touch came first. */
	seq[2].t_ns = 2500 * MS;
	seq[3].t_ns = 2700 * MS;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_int_equal(out.t.events[0].kind, BD_EV_TABLE);
	assert_int_equal(out.t.events[1].kind, BD_EV_KICK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fusion_bd_k9_kicked_to_floor_unlanded_is_ruled_without_review),
		cmocka_unit_test(test_fusion_bd_k5_late_kick_call_goes_before_the_touch_it_caused),
		cmocka_unit_test(test_fusion_bd_k1_kick_call_near_the_touch_before_a_sink_goes_to_review),
		cmocka_unit_test(test_fusion_bd_k2a_guessed_kick_order_at_game_point_goes_to_review),
		cmocka_unit_test(test_fusion_bd_k1_guessed_kick_order_off_game_point_rules_without_review),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
