/* Beer Die rules engine: other rules (BD-O), rare cases (BD-R) and duties
 * (BD-D1), one test (at least) per rule ID of docs/beer-die-rules.md, plus
 * the interactions that are easy to get wrong.
 * Players and throw specs: bd_match.h, bd_spec.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/bd_match.h"

/* ---- Other rules (BD-O) ---------------------------------------------- */

/* BD-O1: a mine hit: the thrower shotguns, no points. */
static void test_bd_o1_mine_shotgun_no_points(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A2, "tB m f");
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_int_equal(n_duties(&m.r, BD_DUTY_SHOTGUN, A2), 1);
	assert_string_equal(duty_why(&m.r, BD_DUTY_SHOTGUN, A2), "BD-O1");
	assert_string_equal(m.why, "BD-O1 BD-O1a BD-P1");
	/* Even a dead throw's mine hit is a shotgun. */
	play(&m, A2, "tA m f");
	assert_int_equal(n_duties(&m.r, BD_DUTY_SHOTGUN, A2), 1);
}

/* BD-O1 "at any time" is any moment of the die's flight (docs, reading 2):
 * a mine report after the die is caught or on the floor is not the
 * thrower's: no shotgun, and the point stands. */
static void test_bd_o1_mine_after_the_die_is_dead_is_not_the_throwers(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB f m");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_int_equal(m.r.n_duties, 0);
	assert_string_equal(m.why, "BD-P1");
	play(&m, A2, "tB C2 m");
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_int_equal(m.r.n_duties, 0);
	assert_string_equal(m.why, "BD-P4");
	/* During the flight, even on a dead throw, it is. */
	play(&m, B1, "tB m f");
	assert_true(m.r.dead);
	assert_int_equal(n_duties(&m.r, BD_DUTY_SHOTGUN, B1), 1);
	assert_string_equal(m.why, "BD-P6 BD-O1 BD-O1a");
}

/* BD-O1a: no points for anyone but BD-P10/BD-P12; sink and five duties
 * stay; with mine_voids_points=false the throw scores as usual. */
static void test_bd_o1a_mine_voids_points_but_not_duties(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB m s2");
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_int_equal(n_duties(&m.r, KILL, B1), 1);
	play(&m, A1, "m k2 C3");	/* a FIFA point is voided too */
	assert_int_equal(m.r.points[BD_TEAM_B], 0);
	play(&m, A1, "tB m X2");	/* the penalty stays */
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	/* b1, sunk two throws before, follows on A's point (BD-P11). */
	assert_string_equal(m.why, "BD-O1 BD-O1a BD-P10 BD-P2a BD-P11");
	play(&m, A1, "m tB r5");
	assert_int_equal(n_duties(&m.r, KILL, A1), 1);
	m.cfg.house.mine_voids_points = false;
	play(&m, A1, "tB m c2 f");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_int_equal(n_duties(&m.r, BD_DUTY_SHOTGUN, A1), 1);
}

/* BD-O2: five on the table: the thrower kills n' fills, no points. */
static void test_bd_o2_five_on_the_table(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB r5");
	assert_int_equal(m.r.points[0] + m.r.points[1], 0);
	assert_int_equal(n_duties(&m.r, KILL, A1), 1);
	assert_string_equal(duty_why(&m.r, KILL, A1), "BD-O2");
	assert_string_equal(m.why, "BD-O2");
	assert_false(m.s.must_follow[A1]);
	play(&m, A1, "tB r6");
	assert_int_equal(m.r.n_duties, 0);
	play(&m, A1, "tA r5");	/* a dead throw's five still counts */
	assert_int_equal(n_duties(&m.r, KILL, A1), 1);
}

/* ---- Rare cases (BD-R) ----------------------------------------------- */

/* BD-R1, BD-R1a: a die that pops out of a cup may be caught; it is a cup
 * hit, not a sink. */
static void test_bd_r1_r1a_popout_is_a_cup_hit(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB o2 C3");
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_int_equal(m.r.n_duties, 0);
	assert_string_equal(m.why, "BD-P4 BD-R1 BD-R1a");
	play(&m, A1, "tB o2 f");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_int_equal(m.r.n_duties, 0);
	assert_string_equal(m.why, "BD-P7 BD-R1a");
	/* popout_is_sink=true: see test_bd_r1_popout_sink_may_still_be_caught. */
}

/* A new match whose house counts a popout as a sink. */
static void popout_match(struct match *m)
{
	match_new(m);
	m->cfg.house.popout_is_sink = true;
}

/* BD-R1 is a rule, not an interpretation, so it holds under the house rule
 * popout_is_sink=true too: the defenders may catch a sink that bounces out.
 * A legal catch (one hand, free air: BD-P4) saves it; uncaught, or caught
 * illegally or by an attacker, it is a sink (BD-P8); over the table it is
 * BD-P10. */
static void test_bd_r1_popout_sink_may_still_be_caught(void **state)
{
	struct match m;

	(void)state;
	popout_match(&m);
	play(&m, A1, "tB o2 C3");
	assert_int_equal(m.r.points[BD_TEAM_A] + m.r.points[BD_TEAM_B], 0);
	assert_int_equal(m.r.n_duties, 0);
	assert_false(m.r.sunk[B1]);
	assert_false(m.s.must_follow[B1]);
	assert_string_equal(m.why, "BD-P4 BD-R1");
	/* Uncaught: the sink stands. */
	popout_match(&m);
	play(&m, A1, "tB o2 f");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_int_equal(n_duties(&m.r, KILL, B1), 1);
	assert_true(m.r.sunk[B1]);
	assert_string_equal(m.why, "BD-P8");
	/* Two hands is no catch (BD-P4a): a sink. */
	popout_match(&m);
	play(&m, A1, "tB o3 22");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_int_equal(n_duties(&m.r, KILL, B2), 1);
	assert_string_equal(duty_why(&m.r, KILL, B2), "BD-P8");
	/* Over the table: 1 to the attackers, and no sink. */
	popout_match(&m);
	play(&m, A1, "tB o3 X2");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_int_equal(n_duties(&m.r, KILL, B2), 0);
	assert_false(m.r.sunk[B2]);
	assert_string_equal(m.why, "BD-P10");
	/* Only the defenders may catch it: an attacker's catch leaves the sink. */
	popout_match(&m);
	play(&m, A1, "tB o3 C1");
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_int_equal(n_duties(&m.r, KILL, B2), 1);
	/* Out of a cup and into another: the second sink decides. */
	popout_match(&m);
	play(&m, A1, "tB o3 s2");
	assert_int_equal(n_duties(&m.r, KILL, B1), 1);
	assert_int_equal(n_duties(&m.r, KILL, B2), 0);
}

/* BD-R1a's house rule popout_is_sink=true: a popout, as the match log
 * reports it ("popout": true; the codec refuses "sink": true with it),
 * counts as a sink: 2, and its owner kills n' fills and must follow. */
static void test_bd_r1a_popout_is_sink_house_rule_takes_effect(void **state)
{
	struct match m;
	struct bd_throw t = spec_throw("tB c2 f");

	(void)state;
	match_new(&m);
	m.cfg.house.popout_is_sink = true;
	t.thrower = A1;
	t.events[1].popout = true;
	t.events[1].sink = false;
	play_throw(&m, &t);
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_int_equal(m.r.n_duties, 1);
	assert_int_equal(n_duties(&m.r, KILL, B1), 1);
	assert_string_equal(duty_why(&m.r, KILL, B1), "BD-P8");
	assert_true(m.r.sunk[B1]);
	assert_true(m.s.must_follow[B1]);
	assert_string_equal(m.why, "BD-P8");
	/* Into the thrower's own team's cup and out: BD-P12. */
	play(&m, A2, "o0 f");
	assert_int_equal(m.r.points[BD_TEAM_B], 2);
	assert_int_equal(n_duties(&m.r, KILL, A1), 1);
	assert_string_equal(m.why, "BD-P12");
	/* The default: the same popout is a cup hit (BD-R1a). */
	m.cfg.house.popout_is_sink = false;
	play_throw(&m, &t);
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
	assert_int_equal(n_duties(&m.r, KILL, B1), 0);
	assert_int_equal(n_duties(&m.r, FOLLOW, B1), 1);	/* sunk before */
	assert_int_equal(m.r.n_duties, 1);
	assert_false(m.r.sunk[B1]);
	assert_string_equal(m.why, "BD-P7 BD-R1a BD-P11");
}

/* BD-R2: short, then sinking a defenders' cup: no points, owner kills. */
static void test_bd_r2_short_then_sink(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tA s2");
	assert_true(m.r.dead);
	assert_int_equal(m.r.points[0] + m.r.points[1], 0);
	assert_int_equal(n_duties(&m.r, KILL, B1), 1);
	assert_string_equal(duty_why(&m.r, KILL, B1), "BD-R2");
	assert_string_equal(m.why, "BD-P6 BD-R2 BD-P13");
	assert_true(m.s.must_follow[B1]);
}

/* BD-R2 is about the attackers' own half; a landing on the centre line
 * that then sinks a cup is dead by BD-P6 and the kill n' fill is BD-P13's
 * (which names BD-R2 only as its model): citing BD-R2 would tell the
 * players the die landed short. */
static void test_bd_p13_line_then_sink_is_not_r2(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tL s2");
	assert_true(m.r.dead);
	assert_int_equal(m.r.points[0] + m.r.points[1], 0);
	assert_int_equal(m.r.n_duties, 1);
	assert_string_equal(duty_why(&m.r, KILL, B1), "BD-P13");
	assert_string_equal(m.why, "BD-P6 BD-P13");
	assert_true(m.s.must_follow[B1]);
}

/* ---- Duties (BD-D1) -------------------------------------------------- */

/* BD-D1: a sink that also takes the score to 5: one kill n' fill for the
 * sunk player, one for the partner. */
static void test_bd_d1_sink_reaching_five_is_one_duty(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	m.s.score[BD_TEAM_A] = 3;
	play(&m, A1, "tB s3");
	assert_int_equal(m.r.score[BD_TEAM_A], 5);
	assert_int_equal(n_duties(&m.r, KILL, B2), 1);
	assert_int_equal(n_duties(&m.r, KILL, B1), 1);
	assert_int_equal(m.r.n_duties, 2);
	assert_string_equal(duty_why(&m.r, KILL, B2), "BD-P8");
	assert_string_equal(duty_why(&m.r, KILL, B1), "BD-W2");
	assert_string_equal(m.why, "BD-P8 BD-W2 BD-D1");
	assert_string_equal(bd_duty_name(BD_DUTY_KILL_N_FILL), "kill_n_fill");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bd_o1_mine_shotgun_no_points),
		cmocka_unit_test(test_bd_o1_mine_after_the_die_is_dead_is_not_the_throwers),
		cmocka_unit_test(test_bd_o1a_mine_voids_points_but_not_duties),
		cmocka_unit_test(test_bd_o2_five_on_the_table),
		cmocka_unit_test(test_bd_r1_r1a_popout_is_a_cup_hit),
		cmocka_unit_test(test_bd_r1a_popout_is_sink_house_rule_takes_effect),
		cmocka_unit_test(test_bd_r1_popout_sink_may_still_be_caught),
		cmocka_unit_test(test_bd_r2_short_then_sink),
		cmocka_unit_test(test_bd_p13_line_then_sink_is_not_r2),
		cmocka_unit_test(test_bd_d1_sink_reaching_five_is_one_duty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
