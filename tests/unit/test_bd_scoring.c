/* Beer Die rules engine: scoring (BD-P), one test (at least) per rule ID
 * of docs/beer-die-rules.md, plus the interactions that are easy to get wrong.
 * Players and throw specs: bd_match.h, bd_spec.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/bd_match.h"

/* ---- Scoring (BD-P) -------------------------------------------------- */

/* BD-P1: defenders' half, then the floor uncaught: 1. */
static void test_bd_p1_defenders_half_then_floor_scores_one(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, BD_NOBODY, "tB f");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_int_equal(m.r.points[BD_TEAM_B], 0);
	assert_int_equal(m.r.score[BD_TEAM_A], 1);
	assert_false(m.r.dead);
	assert_string_equal(m.why, "BD-P1");
	/* Resting on the table never reached the floor. */
	play(&m, BD_NOBODY, "tB r3");
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_string_equal(m.why, "BD-P1");
}

/* BD-P2: no "DYE UP!": no points, every other rule applies. */
static void test_bd_p2_no_dye_up_scores_nothing(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play_no_dye_up(&m, A1, "tB c2 f");
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_string_equal(m.why, "BD-P2 BD-P7");
	/* A sink still makes its owner kill n' fill. */
	play_no_dye_up(&m, A1, "tB s3");
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_int_equal(n_duties(&m.r, KILL, B2), 1);
	assert_true(m.s.must_follow[B2]);
}

/* BD-P2, BD-P2a: without "DYE UP!" the throw cannot score any points:
 * the defenders' FIFA point (BD-K1) is scored by the throw, not a penalty
 * (BD-P2a names only BD-P10 and BD-P12), so it goes too; the throw is
 * still a FIFA and every duty stays. */
static void test_bd_p2_no_dye_up_voids_the_fifa_point(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, B1, "tA s0");		/* a1 sunk: follows on B's next point */
	play_no_dye_up(&m, A1, "k2 C3");
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_int_equal(m.r.points[BD_TEAM_B], 0);
	assert_int_equal(m.r.score[BD_TEAM_B], 2);
	assert_true(m.r.fifa);
	assert_false(m.r.dead);
	assert_int_equal(m.r.n_duties, 0);	/* no point, so nobody follows yet */
	assert_true(m.s.must_follow[A1]);
	assert_string_equal(m.why, "BD-P2 BD-K1");
	/* The same FIFA with the call scores, and a1 follows. */
	play(&m, A1, "k2 C3");
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
	assert_int_equal(n_duties(&m.r, FOLLOW, A1), 1);
	assert_string_equal(m.why, "BD-K1 BD-P11");
}

/* BD-P2a with BD-P10: an over-table catch on a no-dye-up throw still
 * gives the point. */
static void test_bd_p2a_p10_penalty_on_no_dye_up_throw(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play_no_dye_up(&m, A1, "tB X2");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_int_equal(m.r.score[BD_TEAM_A], 1);
	assert_string_equal(m.why, "BD-P2 BD-P10 BD-P2a");
}

/* BD-P2a with BD-P12 on a dead throw (BD-P6, BD-P13). */
static void test_bd_p2a_p12_penalty_on_dead_throw(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tA s1");	/* short, then into a2's cup */
	assert_true(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_B], 2);
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_int_equal(n_duties(&m.r, KILL, A2), 1);
	assert_string_equal(duty_why(&m.r, KILL, A2), "BD-P12");
	assert_string_equal(m.why, "BD-P6 BD-P12 BD-P2a");
}

/* BD-P2a with BD-P10 on a dead (low) throw. */
static void test_bd_p2a_p10_penalty_on_low_throw(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "l2 tB X3");
	assert_true(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_string_equal(m.why, "BD-P5 BD-P10 BD-P2a");
}

/* BD-P3: after landing on the defenders' half it may leave anywhere. */
static void test_bd_p3_bounce_back_past_thrower_still_scores(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB tL tA f");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_false(m.r.dead);
	assert_string_equal(m.why, "BD-P1 BD-P3");
}

/* BD-P4: a defender's one-handed catch in free air stops the point. */
static void test_bd_p4_one_handed_catch_stops_the_point(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB C3");
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_string_equal(m.why, "BD-P4");
	play(&m, A1, "tB c2 C2");
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	/* An attacker's catch (not over the table) also keeps it off the floor. */
	play(&m, A1, "tB C1");
	assert_int_equal(m.r.points[BD_TEAM_A] + m.r.points[BD_TEAM_B], 0);
}

/* BD-P4, BD-P4a: two hands or trapped is not a catch; after a cup hit
 * that is 2 (BD-P7). With the house rule off, an illegal catch is 1. */
static void test_bd_p4a_two_hands_or_trapped_counts_as_floor(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB 22");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_string_equal(m.why, "BD-P1 BD-P4a");
	play(&m, A1, "tB T3");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	play(&m, A1, "tB c3 23");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_string_equal(m.why, "BD-P7 BD-P4a");
	m.cfg.house.illegal_catch_counts_as_floor = false;
	bd_state_init(&m.s, &m.cfg);
	play(&m, A1, "tB c3 23");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_string_equal(m.why, "BD-P4");
}

/* BD-P5: a defender's low call before the table makes the throw dead;
 * an attacker's call, or one after the landing, does not. */
static void test_bd_p5_low_call_before_table_is_dead(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "l3 tB c2 f");
	assert_true(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_string_equal(m.why, "BD-P5");
	play(&m, A1, "L tB f");	/* a call by an unnamed player counts */
	assert_true(m.r.dead);
	play(&m, A1, "l1 tB f");	/* the thrower's partner cannot call low */
	assert_false(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	play(&m, A1, "tB l2 f");	/* too late */
	assert_false(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
}

/* BD-P6: short (own half) or on the line: dead. */
static void test_bd_p6_short_or_line_is_dead(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tA f");
	assert_true(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_string_equal(m.why, "BD-P6");
	play(&m, A1, "tL tB c2 f");
	assert_true(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	play(&m, B1, "tB f");	/* B's own half, for B */
	assert_true(m.r.dead);
	play(&m, B1, "tA f");
	assert_false(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
}

/* BD-P7: a cup hit then the floor uncaught: 2; also a direct cup hit
 * without touching the table. */
static void test_bd_p7_cup_hit_then_floor_scores_two(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB c2 f");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_string_equal(m.why, "BD-P7");
	play(&m, A1, "c3 f");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	play(&m, A1, "c3 tB f");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	/* A direct hit on the thrower's own team's cup is not a landing. */
	play(&m, A1, "c1 f");
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
}

/* BD-P8: a sink is 2 and the sunk player kills n' fills. */
static void test_bd_p8_sink_scores_two_and_owner_kills(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB s2");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_int_equal(n_duties(&m.r, KILL, B1), 1);
	assert_string_equal(duty_why(&m.r, KILL, B1), "BD-P8");
	assert_true(m.r.sunk[B1]);
	assert_true(m.s.must_follow[B1]);
	assert_string_equal(m.why, "BD-P8");
	play(&m, A1, "s3");	/* directly, without the table */
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_int_equal(n_duties(&m.r, KILL, B2), 1);
}

/* BD-P9: a re-toss is void: no points, no duties, same thrower. */
static void test_bd_p9_retoss_is_void(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB f");
	play(&m, BD_NOBODY, "tB s2 R");
	assert_true(m.r.retoss);
	assert_int_equal(m.r.thrower, A2);
	assert_int_equal(m.r.points[0] + m.r.points[1], 0);
	assert_int_equal(m.r.score[BD_TEAM_A], 1);
	assert_int_equal(m.r.n_duties, 0);
	assert_string_equal(m.why, "BD-P9");
	assert_false(m.s.must_follow[B1]);
	assert_int_equal(bd_next_thrower(&m.s, &m.cfg), A2);
	assert_int_equal(m.s.n_throws, 2);
}

/* BD-P10: an over-table catch gives the catcher's opponents 1, whoever
 * catches and whatever else happened. */
static void test_bd_p10_over_table_catch_point_to_opponents(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB X2");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_string_equal(m.why, "BD-P10");
	play(&m, A1, "tB c2 X3");	/* a cup hit caught: only the penalty */
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	play(&m, A1, "tB X1");		/* the thrower's partner */
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
	play(&m, A1, "X2");		/* never touched the table */
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
}

/* BD-P11: a sunk player follows on the opponents' next point only. */
static void test_bd_p11_follow_partner_on_opponents_next_point(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB s2");		/* b1 sunk */
	assert_int_equal(n_duties(&m.r, FOLLOW, B1), 0);	/* not on the sink itself */
	assert_true(m.s.must_follow[B1]);
	play(&m, B1, "tA f");		/* B scores: not b1's opponents */
	assert_int_equal(n_duties(&m.r, FOLLOW, B1), 0);
	play(&m, A1, "tB C2");		/* A throws, no point */
	assert_int_equal(n_duties(&m.r, FOLLOW, B1), 0);
	assert_true(m.s.must_follow[B1]);
	play(&m, A2, "tB f");		/* A's next point */
	assert_int_equal(n_duties(&m.r, FOLLOW, B1), 1);
	assert_string_equal(duty_why(&m.r, FOLLOW, B1), "BD-P11");
	assert_string_equal(m.why, "BD-P1 BD-P11");
	assert_false(m.s.must_follow[B1]);
	play(&m, A2, "tB f");		/* once only */
	assert_int_equal(n_duties(&m.r, FOLLOW, B1), 0);
}

/* BD-P11: a penalty point is a point the opponents score too. */
static void test_bd_p11_follow_on_a_penalty_point(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, B1, "tA s0");		/* a1 sunk */
	play(&m, A2, "tB X0");		/* a1 catches over the table: 1 to B */
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
	assert_int_equal(n_duties(&m.r, FOLLOW, A1), 1);
}

/* BD-P12: sinking one's own team's cup: 2 to the opponents, kill n' fill
 * and follow for the owner, even on a no-dye-up throw. */
static void test_bd_p12_own_cup_sink(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB tA s0");	/* landed, bounced back into the thrower's own cup */
	assert_int_equal(m.r.points[BD_TEAM_B], 2);
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_int_equal(n_duties(&m.r, KILL, A1), 1);
	assert_true(m.s.must_follow[A1]);
	assert_string_equal(m.why, "BD-P12");
	play_no_dye_up(&m, A2, "s0");
	assert_int_equal(m.r.points[BD_TEAM_B], 2);
	/* a1, sunk on the throw before, follows on B's points (BD-P11). */
	assert_string_equal(m.why, "BD-P2 BD-P12 BD-P2a BD-P11");
}

/* BD-P13: a dead throw's sink still makes the owner kill n' fill. */
static void test_bd_p13_dead_throw_sink_still_kills(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "l2 s3");
	assert_true(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_int_equal(n_duties(&m.r, KILL, B2), 1);
	assert_string_equal(duty_why(&m.r, KILL, B2), "BD-P13");
	assert_string_equal(m.why, "BD-P5 BD-P13");
}

/* BD-P14: never touches the table, not kicked: nothing. */
static void test_bd_p14_no_table_no_kick_scores_nothing(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "f");
	assert_int_equal(m.r.points[0] + m.r.points[1], 0);
	assert_false(m.r.dead);
	assert_string_equal(m.why, "BD-P14");
	play(&m, A1, "C2");
	assert_string_equal(m.why, "BD-P14");
	play(&m, A1, "22");	/* an illegal catch of a die that never landed */
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	play(&m, A1, "");
	assert_string_equal(m.why, "BD-P14");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bd_p1_defenders_half_then_floor_scores_one),
		cmocka_unit_test(test_bd_p2_no_dye_up_scores_nothing),
		cmocka_unit_test(test_bd_p2_no_dye_up_voids_the_fifa_point),
		cmocka_unit_test(test_bd_p2a_p10_penalty_on_no_dye_up_throw),
		cmocka_unit_test(test_bd_p2a_p12_penalty_on_dead_throw),
		cmocka_unit_test(test_bd_p2a_p10_penalty_on_low_throw),
		cmocka_unit_test(test_bd_p3_bounce_back_past_thrower_still_scores),
		cmocka_unit_test(test_bd_p4_one_handed_catch_stops_the_point),
		cmocka_unit_test(test_bd_p4a_two_hands_or_trapped_counts_as_floor),
		cmocka_unit_test(test_bd_p5_low_call_before_table_is_dead),
		cmocka_unit_test(test_bd_p6_short_or_line_is_dead),
		cmocka_unit_test(test_bd_p7_cup_hit_then_floor_scores_two),
		cmocka_unit_test(test_bd_p8_sink_scores_two_and_owner_kills),
		cmocka_unit_test(test_bd_p9_retoss_is_void),
		cmocka_unit_test(test_bd_p10_over_table_catch_point_to_opponents),
		cmocka_unit_test(test_bd_p11_follow_partner_on_opponents_next_point),
		cmocka_unit_test(test_bd_p11_follow_on_a_penalty_point),
		cmocka_unit_test(test_bd_p12_own_cup_sink),
		cmocka_unit_test(test_bd_p13_dead_throw_sink_still_kills),
		cmocka_unit_test(test_bd_p14_no_table_no_kick_scores_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
