/* Beer Die rules engine: FIFA, kicks (BD-K), one test (at least) per rule
 * ID of docs/beer-die-rules.md, plus the interactions that are easy to get wrong.
 * Players and throw specs: bd_match.h, bd_spec.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "tests/unit/bd_match.h"

/* ---- FIFA (BD-K) ----------------------------------------------------- */

/* BD-K1: kicked by one defender, caught by the other: 1 to the defenders. */
static void test_bd_k1_fifa_kick_and_partner_catch(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "k2 C3");
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_true(m.r.fifa);
	assert_string_equal(m.why, "BD-K1");
	/* Two hands: still caught by the partner. */
	play(&m, A1, "k3 22");
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
	/* An attacker's kick is no FIFA. */
	play(&m, A1, "k1 C3");
	assert_int_equal(m.r.points[BD_TEAM_B], 0);
	assert_false(m.r.fifa);
	/* BD-K2a does not stop a FIFA point that ends nothing (BD-P2 does:
	 * see test_bd_p2_no_dye_up_voids_the_fifa_point). */
	play(&m, A1, "k2 C3");
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
	assert_string_equal(m.why, "BD-K1");
}

/* BD-K2, BD-K2a: FIFA points that would end the game are not awarded;
 * duties still apply. */
static void test_bd_k2_k2a_fifa_cannot_end_the_game(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	m.s.score[BD_TEAM_A] = 7;
	m.s.score[BD_TEAM_B] = 9;
	play(&m, A1, "k2 C3");		/* would be 7-10 */
	assert_int_equal(m.r.points[BD_TEAM_B], 0);
	assert_false(m.r.over);
	assert_string_equal(m.why, "BD-K1 BD-K2a");

	m.s.score[BD_TEAM_A] = 9;
	m.s.score[BD_TEAM_B] = 7;
	play(&m, A1, "k2 tB f");	/* would be 10-7 for the attackers */
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_false(m.s.over);
	play(&m, A1, "k2 s3");		/* a kicked sink at 9-7: no points, b2 still kills */
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_int_equal(n_duties(&m.r, KILL, B2), 1);
	assert_string_equal(m.why, "BD-K7 BD-K2a");
	/* A FIFA that does not end the game is awarded: 9-8. */
	play(&m, A1, "k2 C3");
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
	/* House rule off: the FIFA may end the game. */
	m.cfg.house.fifa_cannot_end_game = false;
	play(&m, A1, "k2 tB c3 f");	/* 9-8 + 2 = 11-8 */
	assert_true(m.r.over);
	assert_int_equal(m.r.winner, BD_TEAM_A);
}

/* BD-K3: any body part but the thigh. BD-K3a: a thigh kick is judged as
 * if not kicked. */
static void test_bd_k3_k3a_thigh_kick_is_no_fifa(void **state)
{
	struct match m;
	struct bd_throw t = spec_throw("k2 C3");

	(void)state;
	match_new(&m);
	snprintf(t.events[0].part, sizeof(t.events[0].part), "head");
	t.thrower = A1;
	play_throw(&m, &t);
	assert_int_equal(m.r.points[BD_TEAM_B], 1);	/* BD-K3 */
	play(&m, A1, "K2 C3");
	assert_int_equal(m.r.points[BD_TEAM_B], 0);
	assert_false(m.r.fifa);
	assert_string_equal(m.why, "BD-P14 BD-K3a");
	/* Thigh, then a landing: scored as an ordinary throw. */
	play(&m, A1, "K2 tB f");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_string_equal(m.why, "BD-P1 BD-K3a");
}

/* BD-K3a: "no FIFA point can follow" a thigh kick, whatever other kicks
 * come before or after it: a defenders' kick sequence with a thigh in it
 * is judged as if nobody had kicked. */
static void test_bd_k3a_thigh_anywhere_in_the_kicks_is_no_fifa(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	/* Foot, then the partner's thigh, then the partner's catch. */
	play(&m, A1, "k2 K3 C3");
	assert_int_equal(m.r.points[BD_TEAM_A] + m.r.points[BD_TEAM_B], 0);
	assert_false(m.r.fifa);
	assert_false(m.r.dead);
	assert_string_equal(m.why, "BD-P14 BD-K3a");
	/* Thigh first, then a foot: no FIFA either. */
	play(&m, A1, "K2 k3 C2");
	assert_int_equal(m.r.points[BD_TEAM_B], 0);
	assert_false(m.r.fifa);
	assert_string_equal(m.why, "BD-P14 BD-K3a");
	/* Foot, thigh, onto the attackers' half: not kicked, so short and
	 * dead (BD-P6), not BD-K8. */
	play(&m, A1, "k2 K3 tA f");
	assert_true(m.r.dead);
	assert_false(m.r.fifa);
	assert_string_equal(m.why, "BD-P6 BD-K3a");
	assert_int_equal(m.s.score[BD_TEAM_A] + m.s.score[BD_TEAM_B], 0);
}

/* BD-K3, BD-K3a: only the thigh is barred, in any letter case; a knee
 * kick is a kick like any other. */
static void test_bd_k3_only_the_thigh_is_barred(void **state)
{
	struct match m;
	struct bd_throw t = spec_throw("k3 C2");

	(void)state;
	match_new(&m);
	t.thrower = A2;
	snprintf(t.events[0].part, sizeof(t.events[0].part), "knee");
	play_throw(&m, &t);
	assert_true(m.r.fifa);
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
	snprintf(t.events[0].part, sizeof(t.events[0].part), "THIGH");
	play_throw(&m, &t);
	assert_false(m.r.fifa);
	assert_int_equal(m.r.points[BD_TEAM_B], 0);
	assert_string_equal(m.why, "BD-P14 BD-K3a");
}

/* Interpretation (docs: "How the referee reads a throw", 7), where RULES is
 * silent on two kicks: the seed's FIFA is "kicked up by one defender and
 * caught by the other", so a catch counts when the catcher's partner made
 * any of the kicks; the kicker of BD-K8 is the one whose kick came last. */
static void test_bd_k1_k8_both_defenders_kick(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	/* b1 kicks, b2 kicks it on, b1 catches b2's kick: a FIFA. */
	play(&m, A1, "k2 k3 C2");
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
	assert_true(m.r.fifa);
	assert_string_equal(m.why, "BD-K1");
	/* b1 juggles alone and catches: nobody else kicked (BD-K9). */
	play(&m, A2, "k2 k2 C2");
	assert_int_equal(m.r.points[BD_TEAM_B], 0);
	assert_string_equal(m.why, "BD-K9");
	/* b1, then b2 sends it into a1's cup: b2 kills n' fills (BD-K8). */
	play(&m, A1, "k2 k3 tA s0");
	assert_int_equal(m.r.points[0] + m.r.points[1], 0);
	assert_int_equal(m.r.n_duties, 1);
	assert_int_equal(n_duties(&m.r, KILL, B2), 1);
	assert_string_equal(duty_why(&m.r, KILL, B2), "BD-K8");
	assert_false(m.s.must_follow[A1]);
	assert_string_equal(m.why, "BD-K8");
}

/* BD-K1, BD-T3: the defenders keep the die after a FIFA, but the
 * throwing order goes on unchanged. */
static void test_bd_k1_fifa_does_not_change_the_order(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, BD_NOBODY, "k2 C3");	/* a1 throws, B's FIFA */
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
	assert_int_equal(bd_next_thrower(&m.s, &m.cfg), A2);
}

/* BD-K4: a kicked die stays live: a one-handed catch after the landing
 * stops the point as usual; an over-table catch is BD-P10. */
static void test_bd_k4_kicked_die_stays_live(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "k2 tB C3");
	assert_int_equal(m.r.points[0] + m.r.points[1], 0);
	assert_string_equal(m.why, "BD-P4 BD-K4");
	play(&m, A1, "k2 tB X3");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_string_equal(m.why, "BD-P10");
	/* A kick after the table contact is no kick at all. */
	play(&m, A1, "tB k2 C3");
	assert_false(m.r.fifa);
	assert_int_equal(m.r.points[BD_TEAM_B], 0);
}

/* BD-K5: kicked, onto the defenders' half, off uncaught: 1 to attackers. */
static void test_bd_k5_kicked_onto_defenders_half_scores_one(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "k3 tB f");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_string_equal(m.why, "BD-K5");
}

/* BD-K6: kicked, off a defenders' cup, to the floor: 2 to attackers. */
static void test_bd_k6_kicked_cup_hit_then_floor_scores_two(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "k3 c2 f");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_string_equal(m.why, "BD-K6");
	play(&m, A1, "k3 tB c3 f");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
}

/* BD-K7: kicked into a defenders' cup: a sink. */
static void test_bd_k7_kicked_sink(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "k3 s3");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_int_equal(n_duties(&m.r, KILL, B2), 1);
	assert_string_equal(duty_why(&m.r, KILL, B2), "BD-K7");
	assert_true(m.s.must_follow[B2]);
	assert_string_equal(m.why, "BD-K7");
}

/* BD-K8: kicked onto the attackers' half or cup: nothing; a sink of an
 * attackers' cup makes the kicker kill n' fill (not BD-P12). */
static void test_bd_k8_kicked_back_to_attackers(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "k2 tA f");
	assert_int_equal(m.r.points[0] + m.r.points[1], 0);
	assert_false(m.r.dead);
	assert_string_equal(m.why, "BD-K8");
	play(&m, A1, "k2 c0 f");
	assert_int_equal(m.r.points[0] + m.r.points[1], 0);
	play(&m, A1, "k2 s1");
	assert_int_equal(m.r.points[0] + m.r.points[1], 0);
	assert_int_equal(n_duties(&m.r, KILL, B1), 1);
	assert_int_equal(n_duties(&m.r, KILL, A2), 0);
	assert_string_equal(duty_why(&m.r, KILL, B1), "BD-K8");
	assert_false(m.s.must_follow[A2]);
}

/* BD-K9: caught by the kicker, or on the floor without the table: nothing. */
static void test_bd_k9_kicker_catch_or_floor_scores_nothing(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "k2 C2");
	assert_int_equal(m.r.points[0] + m.r.points[1], 0);
	assert_string_equal(m.why, "BD-K9");
	play(&m, A1, "k2 f");
	assert_int_equal(m.r.points[0] + m.r.points[1], 0);
	assert_string_equal(m.why, "BD-K9");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bd_k1_fifa_kick_and_partner_catch),
		cmocka_unit_test(test_bd_k2_k2a_fifa_cannot_end_the_game),
		cmocka_unit_test(test_bd_k3_k3a_thigh_kick_is_no_fifa),
		cmocka_unit_test(test_bd_k3a_thigh_anywhere_in_the_kicks_is_no_fifa),
		cmocka_unit_test(test_bd_k3_only_the_thigh_is_barred),
		cmocka_unit_test(test_bd_k1_k8_both_defenders_kick),
		cmocka_unit_test(test_bd_k1_fifa_does_not_change_the_order),
		cmocka_unit_test(test_bd_k4_kicked_die_stays_live),
		cmocka_unit_test(test_bd_k5_kicked_onto_defenders_half_scores_one),
		cmocka_unit_test(test_bd_k6_kicked_cup_hit_then_floor_scores_two),
		cmocka_unit_test(test_bd_k7_kicked_sink),
		cmocka_unit_test(test_bd_k8_kicked_back_to_attackers),
		cmocka_unit_test(test_bd_k9_kicker_catch_or_floor_scores_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
