/* Beer Die rules engine: set-up (BD-S), the first throw and turns (BD-F,
 * BD-T) and winning (BD-W), one test (at least) per rule ID of
 * docs/beer-die-rules.md, plus the interactions that are easy to get wrong.
 * Players and throw specs: bd_match.h, bd_spec.h. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/bd_match.h"

/* ---- Set-up (BD-S) --------------------------------------------------- */

/* BD-S1: 8 ft x 4 ft, 3-3.5 ft high, a centre line splitting the halves. */
static void test_bd_s1_table_size_and_halves(void **state)
{
	struct bd_table t;

	(void)state;
	bd_table_defaults(&t);
	assert_true(t.length_m > 2.43 && t.length_m < 2.45);
	assert_true(t.width_m > 1.21 && t.width_m < 1.23);
	assert_true(t.height_m >= 0.91 && t.height_m <= 1.07);
	assert_int_equal(bd_table_half(&t, 0.5), BD_HALF_A);
	assert_int_equal(bd_table_half(&t, 2.0), BD_HALF_B);
	assert_int_equal(bd_table_half(&t, t.length_m / 2), BD_HALF_LINE);
	/* The line is 2 cm wide: 1 cm either side of the middle is on it,
	 * though 1.23 - 1.22 is not 0.01 in doubles. */
	assert_int_equal(bd_table_half(&t, 1.23), BD_HALF_LINE);
	assert_int_equal(bd_table_half(&t, 1.21), BD_HALF_LINE);
	assert_int_equal(bd_table_half(&t, 1.2301), BD_HALF_B);
	assert_int_equal(bd_table_half(&t, 1.2099), BD_HALF_A);
	/* A point just off an edge is moved onto the top, one on it stays. */
	double x = -0.0014, y = 0.6;
	assert_true(bd_table_clamp(&t, &x, &y));
	assert_true(x == 0 && y == 0.6);
	x = 2.5, y = 1.3;
	assert_true(bd_table_clamp(&t, &x, &y));
	assert_true(x == t.length_m && y == t.width_m);
	x = 1.9, y = 0;
	assert_false(bd_table_clamp(&t, &x, &y));
	assert_true(x == 1.9 && y == 0);
}

/* BD-S2: four cups, one per corner, each at its owner's team's end. */
static void test_bd_s2_one_cup_per_player_in_the_corners(void **state)
{
	struct bd_table t;

	(void)state;
	bd_table_defaults(&t);
	for (int p = 0; p < BD_PLAYERS; p++) {
		enum bd_half end = BD_TEAM_OF(p) == BD_TEAM_A ? BD_HALF_A : BD_HALF_B;

		assert_int_equal(bd_table_half(&t, t.cup_x[p]), end);
		assert_true(t.cup_y[p] < 0.25 || t.cup_y[p] > t.width_m - 0.25);
	}
	/* Partners' cups are in different corners. */
	assert_true(t.cup_y[A1] != t.cup_y[A2]);
	assert_true(t.cup_y[B1] != t.cup_y[B2]);
}

/* BD-S3, BD-S4: two dice; four players in two teams of two. */
static void test_bd_s3_s4_two_dice_four_players_two_teams(void **state)
{
	struct bd_match_cfg cfg;

	(void)state;
	assert_int_equal(BD_DICE, 2);
	assert_int_equal(BD_PLAYERS, 4);
	assert_int_equal(BD_TEAMS, 2);
	assert_int_equal(BD_TEAM_OF(A1), BD_TEAM_A);
	assert_int_equal(BD_TEAM_OF(A2), BD_TEAM_A);
	assert_int_equal(BD_TEAM_OF(B1), BD_TEAM_B);
	assert_int_equal(BD_TEAM_OF(B2), BD_TEAM_B);
	bd_match_cfg_init(&cfg);
	assert_string_equal(cfg.players[A1], "a1");
	assert_string_equal(cfg.players[B2], "b2");
}

/* BD-S5: every cup starts full: a new match owes nothing and nobody must
 * follow; the first kill n' fill comes only from play. */
static void test_bd_s5_match_starts_with_full_cups_and_no_duties(void **state)
{
	struct match m;
	struct bd_final f;

	(void)state;
	match_new(&m);
	assert_int_equal(m.s.score[0] + m.s.score[1], 0);
	for (int p = 0; p < BD_PLAYERS; p++)
		assert_false(m.s.must_follow[p]);
	bd_final(&m.cfg, &m.s, &f);
	assert_false(f.over);
	assert_int_equal(f.n_duties, 0);
	assert_int_equal(f.winner, BD_NOBODY);
}

/* BD-S6: the mine stands in the middle of the table. */
static void test_bd_s6_mine_in_the_middle(void **state)
{
	struct bd_table t;

	(void)state;
	bd_table_defaults(&t);
	assert_true(t.mine_x > t.length_m / 2 - 0.001 && t.mine_x < t.length_m / 2 + 0.001);
	assert_true(t.mine_y > t.width_m / 2 - 0.001 && t.mine_y < t.width_m / 2 + 0.001);
}

/* BD-S2, BD-S6: bd_table_spot gives each cup where bd_table_defaults
 * documents it (0.12 m in from its corner: a1, a2 at A's end, b1, b2 at
 * B's; a1 and b1 on the left edge) and the mine at the centre, with their
 * radii; it reads the table it is given, and refuses any other index. */
static void test_bd_s2_s6_table_spot_of_each_cup_and_the_mine(void **state)
{
	const double in = 0.12;
	struct bd_table t;
	double x, y, r;

	(void)state;
	bd_table_defaults(&t);
	const double want[BD_PLAYERS + 1][3] = {
		[A1] = { in, in, 0.045 },
		[A2] = { in, t.width_m - in, 0.045 },
		[B1] = { t.length_m - in, in, 0.045 },
		[B2] = { t.length_m - in, t.width_m - in, 0.045 },
		[BD_TABLE_MINE] = { t.length_m / 2, t.width_m / 2, 0.033 },
	};
	for (int i = 0; i <= BD_TABLE_MINE; i++) {
		assert_int_equal(bd_table_spot(&t, i, &x, &y, &r), 0);
		assert_true(fabs(x - want[i][0]) < 1e-12);
		assert_true(fabs(y - want[i][1]) < 1e-12);
		assert_true(fabs(r - want[i][2]) < 1e-12);
	}
	/* The radius is optional. */
	assert_int_equal(bd_table_spot(&t, B2, &x, &y, NULL), 0);
	assert_true(fabs(x - want[B2][0]) < 1e-12);

	/* A table laid out otherwise: its own places, not the defaults. */
	t.cup_x[A2] = 0.3;
	t.cup_y[A2] = 0.9;
	t.cup_radius_m = 0.05;
	t.mine_x = 1.0;
	t.mine_y = 0.5;
	t.mine_radius_m = 0.04;
	assert_int_equal(bd_table_spot(&t, A2, &x, &y, &r), 0);
	assert_true(x == 0.3 && y == 0.9 && r == 0.05);
	assert_int_equal(bd_table_spot(&t, BD_TABLE_MINE, &x, &y, &r), 0);
	assert_true(x == 1.0 && y == 0.5 && r == 0.04);

	/* Nobody's cup, or past the mine: refused, nothing written. */
	const int bad[] = { BD_NOBODY, -7, BD_TABLE_MINE + 1, 100 };
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		x = y = r = -1;
		assert_int_equal(bd_table_spot(&t, bad[k], &x, &y, &r), -EINVAL);
		assert_true(x == -1 && y == -1 && r == -1);
	}
}

/* BD-S7: minimum toss height, 3.0 m by default; with low_call=auto a
 * measured apex below it is low (BD-P5), at it is not. */
static void test_bd_s7_min_toss_height_default_and_auto_low(void **state)
{
	struct match m;
	struct bd_throw t = spec_throw("tB f");

	(void)state;
	match_new(&m);
	assert_true(m.cfg.house.min_toss_height_m > 2.999 && m.cfg.house.min_toss_height_m < 3.001);
	m.cfg.house.low_call = BD_LOW_AUTO;
	t.thrower = A1;
	t.apex_m = 2.9;
	play_throw(&m, &t);
	assert_true(m.r.dead);
	assert_string_equal(m.why, "BD-P5");
	t.apex_m = 3.0;
	play_throw(&m, &t);
	assert_false(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	/* Unknown height (< 0): no automatic call. */
	t.apex_m = -1;
	play_throw(&m, &t);
	assert_false(m.r.dead);
	/* Manual (the default): the measured height alone calls nothing. */
	m.cfg.house.low_call = BD_LOW_MANUAL;
	t.apex_m = 1.0;
	play_throw(&m, &t);
	assert_false(m.r.dead);
}

/* ---- First throw, turns (BD-F, BD-T) --------------------------------- */

/* BD-F1: 4-6 high, 1-3 low; the team that called right throws first. */
static void test_bd_f1_rolloff_high_low(void **state)
{
	(void)state;
	assert_int_equal(bd_rolloff_winner(5, BD_TEAM_B, true), BD_TEAM_B);
	assert_int_equal(bd_rolloff_winner(4, BD_TEAM_B, false), BD_TEAM_A);
	assert_int_equal(bd_rolloff_winner(3, BD_TEAM_A, true), BD_TEAM_B);
	assert_int_equal(bd_rolloff_winner(1, BD_TEAM_A, false), BD_TEAM_A);
	assert_int_equal(bd_rolloff_winner(6, BD_TEAM_A, true), BD_TEAM_A);
	assert_int_equal(bd_rolloff_winner(0, BD_TEAM_A, true), -EINVAL);
	assert_int_equal(bd_rolloff_winner(7, BD_TEAM_A, true), -EINVAL);
	assert_int_equal(bd_rolloff_winner(3, 2, true), -EINVAL);
}

/* BD-T1: one throw at a time; a team's turn is one throw per player. */
static void test_bd_t1_turn_is_one_throw_per_player(void **state)
{
	struct match m;
	int seen[8];

	(void)state;
	match_new(&m);
	for (int i = 0; i < 8; i++) {
		seen[i] = bd_next_thrower(&m.s, &m.cfg);
		play(&m, BD_NOBODY, "f");	/* BD-P14: changes no score */
		assert_int_equal(m.r.thrower, seen[i]);
	}
	int expect[8] = { A1, A2, B1, B2, A1, A2, B1, B2 };

	assert_memory_equal(seen, expect, sizeof(seen));
}

/* BD-T2: a throw ends when the die is dead; what the log says after that
 * (a caught die later dropped on the floor) is not part of the throw. */
static void test_bd_t2_events_after_dead_die_are_ignored(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB C2 f");
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	assert_string_equal(m.why, "BD-P4");
	play(&m, A1, "tB f C2");
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
}

/* BD-T3: fixed order from the roll-off winner; a re-toss repeats the
 * thrower; a named thrower is credited and the order still advances. */
static void test_bd_t3_order_retoss_and_named_thrower(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	m.cfg.first_team = BD_TEAM_B;
	assert_int_equal(bd_next_thrower(&m.s, &m.cfg), B1);
	play(&m, BD_NOBODY, "tA f");
	assert_int_equal(m.r.thrower, B1);
	assert_int_equal(m.r.team, BD_TEAM_B);
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
	play(&m, BD_NOBODY, "R");
	assert_int_equal(m.r.thrower, B2);
	assert_int_equal(bd_next_thrower(&m.s, &m.cfg), B2);
	play(&m, BD_NOBODY, "tA f");
	assert_int_equal(m.r.thrower, B2);
	assert_int_equal(bd_next_thrower(&m.s, &m.cfg), A1);
	/* The log says a2 threw out of turn: a2 (team A) is credited. */
	play(&m, A2, "tB f");
	assert_int_equal(m.r.thrower, A2);
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	assert_int_equal(bd_next_thrower(&m.s, &m.cfg), A2);
	assert_int_equal(m.s.n_throws, 4);
	assert_int_equal(m.r.throw_no, 4);
	/* b2 named out of turn in a2's slot, and the throw re-tossed: b2
	 * throws again, not the order's a2 (the one who threw repeats);
	 * then the order goes on from that slot: b1. */
	play(&m, B2, "tA f R");
	assert_true(m.r.retoss);
	assert_int_equal(bd_next_thrower(&m.s, &m.cfg), B2);
	play(&m, BD_NOBODY, "tA f");
	assert_int_equal(m.r.thrower, B2);
	assert_int_equal(m.r.points[BD_TEAM_B], 1);
	assert_int_equal(bd_next_thrower(&m.s, &m.cfg), B1);
}

/* ---- Winning (BD-W) -------------------------------------------------- */

/* BD-W1: to 10, by 2. */
static void test_bd_w1_ten_points_won_by_two(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	m.s.score[BD_TEAM_A] = 9;
	m.s.score[BD_TEAM_B] = 9;
	play(&m, A1, "tB f");
	assert_false(m.r.over);	/* 10-9 */
	play(&m, B1, "tA c0 f");	/* 10-11 */
	assert_false(m.r.over);
	play(&m, B2, "tA f");		/* 10-12 */
	assert_true(m.r.over);
	assert_int_equal(m.r.winner, BD_TEAM_B);
	assert_string_equal(m.why, "BD-P1 BD-W1");
	assert_true(m.s.over);

	match_new(&m);
	m.s.score[BD_TEAM_A] = 9;
	m.s.score[BD_TEAM_B] = 7;
	play(&m, A1, "tB f");
	assert_true(m.r.over);
	assert_int_equal(m.r.winner, BD_TEAM_A);
}

/* BD-W1: deuce past 10-10 goes on until a two-point lead. */
static void test_bd_w1_deuce_past_ten_all(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	m.s.score[BD_TEAM_A] = 10;
	m.s.score[BD_TEAM_B] = 10;
	play(&m, A1, "tB f");		/* 11-10 */
	assert_false(m.r.over);
	play(&m, B1, "tA f");		/* 11-11 */
	assert_false(m.r.over);
	play(&m, B2, "tA f");		/* 11-12 */
	assert_false(m.r.over);
	play(&m, A1, "tB f");		/* 12-12 */
	assert_false(m.r.over);
	play(&m, A2, "tB c2 f");	/* 14-12 */
	assert_true(m.r.over);
	assert_int_equal(m.r.score[BD_TEAM_A], 14);
	assert_int_equal(m.r.winner, BD_TEAM_A);
	/* BD-W2: 15 would be the next multiple; 14 passes none. */
	assert_int_equal(n_duties(&m.r, KILL, B1), 0);
}

/* BD-W1: a throw after the game is over is refused. */
static void test_bd_w1_throw_after_game_over_is_an_error(void **state)
{
	struct match m;
	struct bd_throw t = spec_throw("tB f");
	char err[128];

	(void)state;
	match_new(&m);
	m.s.score[BD_TEAM_A] = 9;
	play(&m, A1, "tB f");
	assert_true(m.s.over);
	assert_int_equal(bd_judge(&m.cfg, &m.s, &t, &m.r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "the game is over");
}

/* BD-W2: reaching 5 makes both opponents kill n' fill. */
static void test_bd_w2_kill_n_fill_at_five(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	m.s.score[BD_TEAM_A] = 4;
	play(&m, A1, "tB f");
	assert_int_equal(m.r.score[BD_TEAM_A], 5);
	assert_int_equal(n_duties(&m.r, KILL, B1), 1);
	assert_int_equal(n_duties(&m.r, KILL, B2), 1);
	assert_int_equal(n_duties(&m.r, KILL, A1), 0);
	assert_string_equal(duty_why(&m.r, KILL, B2), "BD-W2");
	assert_string_equal(m.why, "BD-P1 BD-W2");
	play(&m, A2, "tB f");		/* 6: no new multiple */
	assert_int_equal(m.r.n_duties, 0);
}

/* BD-W2: a +2 from 4 to 6 passes 5, and 9 to 11 passes 10. */
static void test_bd_w2_plus_two_passing_a_multiple_of_five(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	m.s.score[BD_TEAM_B] = 4;
	play(&m, B1, "tA c0 f");
	assert_int_equal(m.r.score[BD_TEAM_B], 6);
	assert_int_equal(n_duties(&m.r, KILL, A1), 1);
	assert_int_equal(n_duties(&m.r, KILL, A2), 1);
	assert_string_equal(m.why, "BD-P7 BD-W2");
	m.s.score[BD_TEAM_A] = 10;
	m.s.score[BD_TEAM_B] = 9;
	play(&m, B2, "tA c1 f");
	assert_int_equal(m.r.score[BD_TEAM_B], 11);
	assert_int_equal(n_duties(&m.r, KILL, A1), 1);
	assert_int_equal(n_duties(&m.r, KILL, A2), 1);
	assert_false(m.r.over);	/* 10-11 */
}

/* BD-W3: the losers drink what is left in the winners' cups. */
static void test_bd_w3_losers_finish_winners_cups(void **state)
{
	struct match m;
	struct bd_final f;

	(void)state;
	match_new(&m);
	m.s.score[BD_TEAM_A] = 9;
	m.s.score[BD_TEAM_B] = 3;
	play(&m, A1, "tB f");
	bd_final(&m.cfg, &m.s, &f);
	assert_true(f.over);
	assert_int_equal(f.winner, BD_TEAM_A);
	assert_int_equal(f.score[0], 10);
	assert_int_equal(f.score[1], 3);
	assert_int_equal(f.n_duties, 1);
	assert_int_equal(f.duties[0].kind, BD_DUTY_FINISH_WINNERS_CUPS);
	assert_int_equal(f.duties[0].team, BD_TEAM_B);
	assert_int_equal(f.duties[0].player, BD_NOBODY);
	assert_string_equal(f.duties[0].why, "BD-W3");
}

/* BD-W4: losers on 0 run the naked lap; not before the game is over. */
static void test_bd_w4_naked_lap_when_losers_on_zero(void **state)
{
	struct match m;
	struct bd_final f;

	(void)state;
	match_new(&m);
	m.s.score[BD_TEAM_B] = 9;
	bd_final(&m.cfg, &m.s, &f);
	assert_int_equal(f.n_duties, 0);	/* not over yet */
	play(&m, B1, "tA f");
	bd_final(&m.cfg, &m.s, &f);
	assert_int_equal(f.winner, BD_TEAM_B);
	assert_int_equal(f.n_duties, 2);
	assert_int_equal(f.duties[1].kind, BD_DUTY_NAKED_LAP);
	assert_int_equal(f.duties[1].team, BD_TEAM_A);
	assert_string_equal(f.duties[1].why, "BD-W4");
	assert_string_equal(bd_duty_name(f.duties[1].kind), "naked_lap");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bd_s1_table_size_and_halves),
		cmocka_unit_test(test_bd_s2_one_cup_per_player_in_the_corners),
		cmocka_unit_test(test_bd_s3_s4_two_dice_four_players_two_teams),
		cmocka_unit_test(test_bd_s5_match_starts_with_full_cups_and_no_duties),
		cmocka_unit_test(test_bd_s6_mine_in_the_middle),
		cmocka_unit_test(test_bd_s2_s6_table_spot_of_each_cup_and_the_mine),
		cmocka_unit_test(test_bd_s7_min_toss_height_default_and_auto_low),
		cmocka_unit_test(test_bd_f1_rolloff_high_low),
		cmocka_unit_test(test_bd_t1_turn_is_one_throw_per_player),
		cmocka_unit_test(test_bd_t2_events_after_dead_die_are_ignored),
		cmocka_unit_test(test_bd_t3_order_retoss_and_named_thrower),
		cmocka_unit_test(test_bd_w1_ten_points_won_by_two),
		cmocka_unit_test(test_bd_w1_deuce_past_ten_all),
		cmocka_unit_test(test_bd_w1_throw_after_game_over_is_an_error),
		cmocka_unit_test(test_bd_w2_kill_n_fill_at_five),
		cmocka_unit_test(test_bd_w2_plus_two_passing_a_multiple_of_five),
		cmocka_unit_test(test_bd_w3_losers_finish_winners_cups),
		cmocka_unit_test(test_bd_w4_naked_lap_when_losers_on_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
