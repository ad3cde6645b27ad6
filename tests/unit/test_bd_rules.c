/* Beer Die rules engine: one test (at least) per rule ID of
 * docs/beer-die-rules.md, plus the interactions that are easy to get wrong.
 * Players: 0=a1 1=a2 (team A), 2=b1 3=b2 (team B). Throw specs: bd_spec.h. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "tests/unit/bd_spec.h"

enum { A1, A2, B1, B2 };

struct match {
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct bd_ruling r;	/* the last ruling */
	char why[256];		/* its why list, space-separated */
};

static void match_new(struct match *m)
{
	memset(m, 0, sizeof(*m));
	bd_match_cfg_init(&m->cfg);
	bd_state_init(&m->s, &m->cfg);
}

/* Judges t against the match so far and applies it; the ruling stays in m->r. */
static const struct bd_ruling *play_throw(struct match *m, const struct bd_throw *t)
{
	char err[256] = "";
	int rc = bd_judge(&m->cfg, &m->s, t, &m->r, err, sizeof(err));

	if (rc != 0)
		fail_msg("bd_judge: %d %s", rc, err);
	bd_apply(&m->s, &m->cfg, &m->r);
	why_str(&m->r, m->why, sizeof(m->why));
	return &m->r;
}

/* Plays spec thrown by `thrower` (BD_NOBODY: by the order). */
static const struct bd_ruling *play(struct match *m, int thrower, const char *spec)
{
	struct bd_throw t = spec_throw(spec);

	t.thrower = thrower;
	return play_throw(m, &t);
}

static const struct bd_ruling *play_no_dye_up(struct match *m, int thrower, const char *spec)
{
	struct bd_throw t = spec_throw(spec);

	t.thrower = thrower;
	t.dye_up = false;
	return play_throw(m, &t);
}

static int n_duties(const struct bd_ruling *r, enum bd_duty_kind kind, int player)
{
	int n = 0;

	for (size_t i = 0; i < r->n_duties; i++)
		if (r->duties[i].kind == kind && r->duties[i].player == player)
			n++;
	return n;
}

static const char *duty_why(const struct bd_ruling *r, enum bd_duty_kind kind, int player)
{
	for (size_t i = 0; i < r->n_duties; i++)
		if (r->duties[i].kind == kind && r->duties[i].player == player)
			return r->duties[i].why;
	return "none";
}

#define KILL BD_DUTY_KILL_N_FILL
#define FOLLOW BD_DUTY_FOLLOW_PARTNER

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

/* ---- Review, errors, corrections -------------------------------------- */

/* Doubt is explicit: a low-confidence event, or an uncertain line call. */
static void test_bd_review_on_doubtful_evidence(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB ?0.95 f");
	assert_false(m.r.review);
	play(&m, A1, "tB ?0.5 f");
	assert_true(m.r.review);
	play(&m, A1, "tL ?0.5 f");	/* BD-P6 by a hair, or live */
	assert_true(m.r.review);
	assert_true(m.r.dead);
	play(&m, A1, "tL ?1 f");
	assert_false(m.r.review);
}

/* BD-P6: the line and the thrower's own half are both dead, so a line
 * call at confidence c is dead with probability at least c: it asks for
 * review below review_below like a call of either half, not at any doubt. */
static void test_bd_p6_line_call_reviewed_like_a_half(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tL ?0.95 f");
	assert_false(m.r.review);
	assert_true(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	play(&m, A1, "tL ?0.8 f");	/* exactly review_below: settled */
	assert_false(m.r.review);
	assert_true(m.r.dead);
	play(&m, A1, "tL ?0.79 f");
	assert_true(m.r.review);
	assert_true(m.r.dead);
	play(&m, A1, "tA ?0.79 f");	/* the same doubt about a short throw */
	assert_true(m.r.review);
	play(&m, A1, "tL ?0.9 tB ?0.3 f");	/* later bounces still ask nobody (BD-P3) */
	assert_false(m.r.review);
}

/* BD-P5: a throw dead by a sure low call before the landing scores nothing
 * wherever it landed, so doubt about the landing's half asks nobody; it
 * still does when the die ends in a cup, where the half names the kill n'
 * fill's rule (BD-R2 short, BD-P13 otherwise). */
static void test_bd_p5_low_call_makes_a_doubtful_landing_moot(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "l3 tB ?0.5 f");
	assert_false(m.r.review);
	assert_true(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	play(&m, A1, "l3 tL ?0.3 f");
	assert_false(m.r.review);
	play(&m, A1, "l3 ?0.5 tB f");	/* the low call itself in doubt */
	assert_true(m.r.review);
	play(&m, A1, "l1 tB ?0.5 f");	/* an attacker's call kills nothing */
	assert_true(m.r.review);
	play(&m, A1, "l3 tA ?0.5 s2");	/* BD-R2 or BD-P13 */
	assert_true(m.r.review);
	assert_true(m.r.dead);
}

/* BD-P3: once the die has landed on the defenders' half, later bounces
 * cannot change the ruling, so doubt about them asks nobody; the first
 * landing (BD-P1) and the die's end still do. */
static void test_bd_p3_review_ignores_doubtful_later_bounces(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB tA ?0.3 f");
	assert_false(m.r.review);
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	play(&m, A1, "tB tB ?0.4 tL ?0.9 f");	/* a later line touch is no BD-P6 */
	assert_false(m.r.review);
	assert_false(m.r.dead);
	play(&m, A1, "c2 tB ?0.2 f");	/* the cup was the first contact (BD-P7) */
	assert_false(m.r.review);
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
}

/* BD-P1, BD-P6: the first table contact decides live or dead, so doubt
 * about it goes to an official however sure the rest is. */
static void test_bd_p1_review_on_a_doubtful_first_landing(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB ?0.5 tB f");
	assert_true(m.r.review);
	play(&m, A1, "tA ?0.6 tB f");	/* short (BD-P6) by a doubtful call */
	assert_true(m.r.review);
	assert_true(m.r.dead);
	play(&m, A1, "k2 ?0.5 tB f");	/* a doubtful kick: BD-K1 or not */
	assert_true(m.r.review);
	play(&m, A1, "tB c2 ?0.5 f");	/* BD-P7: one point or two */
	assert_true(m.r.review);
	play(&m, A1, "tB C2 ?0.5");	/* BD-P4: the catch ends it */
	assert_true(m.r.review);
}

/* BD-P1: nothing after the die is dead changes the ruling; BD-O2: the
 * resting face does, when it is (or may be) a 5. */
static void test_bd_o2_review_on_the_face_not_after_death(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB f tB ?0.2 c2 ?0.3");
	assert_false(m.r.review);
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	play(&m, A1, "tB r3 ?0.5");	/* a doubtful read may hide a 5 */
	assert_true(m.r.review);
	play(&m, A1, "tB r5 ?0.95");
	assert_false(m.r.review);
	assert_string_equal(m.why, "BD-O2");
	play(&m, A1, "tB ?0.2 R");	/* BD-P9: void whatever the landing */
	assert_false(m.r.retoss && m.r.review);
	assert_true(m.r.retoss);
	play(&m, A1, "tB R ?0.5");	/* a doubtful re-toss call */
	assert_true(m.r.review);
}

/* BD-W1, house rules: the settings' bounds and the end-of-game test. */
static void test_bd_w1_house_check_and_score_over(void **state)
{
	struct bd_house h;
	char err[128];

	(void)state;
	bd_house_defaults(&h);
	assert_int_equal(bd_house_check(&h, err, sizeof(err)), 0);
	assert_int_equal(h.target_points, 10);
	assert_int_equal(h.win_by, 2);
	assert_int_equal(h.kill_every, 5);
	assert_int_equal(h.low_call, BD_LOW_MANUAL);
	assert_true(h.illegal_catch_counts_as_floor);
	assert_true(h.fifa_cannot_end_game);
	assert_false(h.popout_is_sink);
	assert_true(h.mine_voids_points);
	assert_true(bd_score_over(&h, (int[2]){ 10, 8 }));
	assert_false(bd_score_over(&h, (int[2]){ 10, 9 }));
	assert_false(bd_score_over(&h, (int[2]){ 9, 0 }));
	assert_true(bd_score_over(&h, (int[2]){ 11, 13 }));
	h.target_points = 0;
	assert_int_equal(bd_house_check(&h, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "house.target_points: 0 is not 1..1000");
	bd_house_defaults(&h);
	h.kill_every = -1;
	assert_int_equal(bd_house_check(&h, err, sizeof(err)), -EINVAL);
	bd_house_defaults(&h);
	h.min_toss_height_m = -0.5;
	assert_int_equal(bd_house_check(&h, err, sizeof(err)), -EINVAL);
	bd_house_defaults(&h);
	h.review_below = 2;
	assert_int_equal(bd_house_check(&h, err, sizeof(err)), -EINVAL);
}

/* BD-W2: kill_every=0 is the "no kill at 5" variant. */
static void test_bd_w2_kill_every_zero_turns_it_off(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	m.cfg.house.kill_every = 0;
	m.s.score[BD_TEAM_A] = 4;
	play(&m, A1, "tB f");
	assert_int_equal(m.r.n_duties, 0);
	assert_string_equal(m.why, "BD-P1");
}

/* BD-W2 with kill_every=1 (or 2, 3): +2 can pass two multiples at once;
 * each is a kill n' fill by BD-W2, and BD-D1 makes them one duty per
 * player, which the ruling must say. Penalty points count as score. */
static void test_bd_w2_d1_two_multiples_in_one_throw_are_one_duty(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	m.cfg.house.kill_every = 1;
	play(&m, A1, "tB c2 f");	/* 0 -> 2: passes 1 and 2 */
	assert_int_equal(m.r.score[BD_TEAM_A], 2);
	assert_int_equal(m.r.n_duties, 2);
	assert_int_equal(n_duties(&m.r, KILL, B1), 1);
	assert_int_equal(n_duties(&m.r, KILL, B2), 1);
	assert_string_equal(duty_why(&m.r, KILL, B1), "BD-W2");
	assert_string_equal(m.why, "BD-P7 BD-W2 BD-D1");
	/* One multiple: one duty, no merging to report. */
	play(&m, A2, "tB f");
	assert_int_equal(m.r.n_duties, 2);
	assert_string_equal(m.why, "BD-P1 BD-W2");
	/* A BD-P12 penalty of 2 passes two of B's multiples: A kills. */
	play(&m, A1, "tB s1");
	assert_int_equal(m.r.points[BD_TEAM_B], 2);
	assert_int_equal(n_duties(&m.r, KILL, A1), 1);
	assert_int_equal(n_duties(&m.r, KILL, A2), 1);
	assert_int_equal(n_duties(&m.r, KILL, B1), 0);
	assert_string_equal(duty_why(&m.r, KILL, A2), "BD-P12");
	assert_string_equal(duty_why(&m.r, KILL, A1), "BD-W2");
	assert_string_equal(m.why, "BD-P12 BD-W2 BD-D1");
	/* kill_every=3: 2 -> 4 passes only 3. */
	match_new(&m);
	m.cfg.house.kill_every = 3;
	m.s.score[BD_TEAM_B] = 2;
	play(&m, B1, "tA s0");
	assert_int_equal(m.r.score[BD_TEAM_B], 4);
	assert_int_equal(m.r.n_duties, 2);
	assert_string_equal(duty_why(&m.r, KILL, A1), "BD-P8");
	assert_string_equal(duty_why(&m.r, KILL, A2), "BD-W2");
	assert_string_equal(m.why, "BD-P8 BD-W2 BD-D1");
}

static void test_bd_judge_rejects_bad_players_and_faces(void **state)
{
	struct match m;
	struct bd_throw t;
	char err[128];

	(void)state;
	match_new(&m);
	t = spec_throw("tB f C7");
	assert_int_equal(bd_judge(&m.cfg, &m.s, &t, &m.r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "events[2].by: player 7 is not 0..3");
	t = spec_throw("tB s-1");
	assert_int_equal(bd_judge(&m.cfg, &m.s, &t, &m.r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "events[1].owner: player -1 is not 0..3");
	t = spec_throw("tB r7");
	assert_int_equal(bd_judge(&m.cfg, &m.s, &t, &m.r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "events[1].face: 7 is not 1..6");
	t = spec_throw("tB f");
	t.thrower = 4;
	assert_int_equal(bd_judge(&m.cfg, &m.s, &t, &m.r, err, sizeof(err)), -EINVAL);
	t = spec_throw("tB f");
	m.cfg.house.win_by = 0;
	assert_int_equal(bd_judge(&m.cfg, &m.s, &t, &m.r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "house.win_by: 0 is not 1..100");
}

/* Correcting throw 1 after throw 20: refolding recomputes every later
 * ruling; restating throw 1 unchanged changes nothing. */
static void test_bd_correction_of_throw_one_after_twenty(void **state)
{
	static const char *const specs[20] = {
		"tB f", "tB C3", "tA c0 f", "tA f", "tB f", "tA", "tB r2", "tB f",
		"tB c2 f", "tA f", "tB f", "tB 23", "tA s1", "k0 C1", "tB C2", "tB f",
		"tB f", "tA C0", "tB c3 f", "tA f",
	};
	struct bd_match_cfg cfg;
	struct bd_throw throws[20];
	struct bd_ruling before[20], again[20], after[20];
	struct bd_state s1, s2, s3;
	char err[128];
	size_t bad = 99;

	(void)state;
	bd_match_cfg_init(&cfg);
	for (int i = 0; i < 20; i++)
		throws[i] = spec_throw(specs[i]);
	assert_int_equal(bd_fold(&cfg, throws, 20, &s1, before, &bad, err, sizeof(err)), 0);
	assert_false(s1.over);
	assert_int_equal(s1.n_throws, 20);

	/* Restating throw 1 unchanged. */
	throws[0] = spec_throw("tB f");
	assert_int_equal(bd_fold(&cfg, throws, 20, &s2, again, &bad, err, sizeof(err)), 0);
	for (int i = 0; i < 20; i++)
		assert_true(ruling_same(&before[i], &again[i]));
	assert_memory_equal(&s1, &s2, sizeof(s1));

	/* Throw 1 was really a sink of b1's cup: +1 more for A from there on,
	 * and b1 must follow on A's next point (throw 5). */
	throws[0] = spec_throw("tB s2");
	assert_int_equal(bd_fold(&cfg, throws, 20, &s3, after, &bad, err, sizeof(err)), 0);
	assert_int_equal(after[0].points[BD_TEAM_A], 2);
	assert_int_equal(s3.score[BD_TEAM_A], s1.score[BD_TEAM_A] + 1);
	assert_int_equal(s3.score[BD_TEAM_B], s1.score[BD_TEAM_B]);
	for (int i = 1; i < 20; i++) {
		assert_int_equal(after[i].points[0], before[i].points[0]);
		assert_int_equal(after[i].score[BD_TEAM_A], before[i].score[BD_TEAM_A] + 1);
	}
	assert_int_equal(n_duties(&after[4], FOLLOW, B1), 1);
	assert_int_equal(n_duties(&before[4], FOLLOW, B1), 0);

	/* A correction that makes a later throw illegal names it. */
	struct bd_throw bad_throws[3] = { spec_throw("tB f"), spec_throw("tB f"), spec_throw("C9") };

	assert_int_equal(bd_fold(&cfg, bad_throws, 3, &s3, after, &bad, err, sizeof(err)), -EINVAL);
	assert_int_equal(bad, 2);
}

/* Every rule text exists and is one sentence, under the defaults and under
 * the largest values a house may hold (they fit BD_RULE_TEXT_MAX). */
static void test_bd_rule_text_for_every_id(void **state)
{
	struct bd_house big;
	char text[BD_RULE_TEXT_MAX];

	(void)state;
	bd_house_defaults(&big);
	big.target_points = 1000;
	big.win_by = 100;
	big.kill_every = 1000;
	big.min_toss_height_m = 19.875;
	assert_int_equal(bd_house_check(&big, text, sizeof(text)), 0);
	assert_true(bd_rule_count() >= 49);
	for (size_t i = 0; i < bd_rule_count(); i++) {
		const struct bd_house *houses[] = { NULL, &big };

		for (size_t k = 0; k < 2; k++) {
			assert_ptr_equal(bd_rule_text(bd_rule_id(i), houses[k], text, sizeof(text)), text);
			assert_true(strlen(text) > 10);
			assert_true(strlen(text) < sizeof(text) - 1);
			assert_int_equal(text[strlen(text) - 1], '.');
		}
	}
	assert_null(bd_rule_id(bd_rule_count()));
	assert_null(bd_rule_text("BD-X1", NULL, text, sizeof(text)));
	assert_string_equal(text, "");
	assert_null(bd_rule_text(NULL, NULL, text, sizeof(text)));
	assert_string_equal(bd_rule_text("BD-P7", NULL, text, sizeof(text)),
			    "A cup hit that reaches the floor uncaught scores 2.");
}

/* BD-W1, BD-W2 and BD-S7 state the match's own house rules: a match to 3
 * won by 1 does not read "10 points ... won by 2". */
static void test_bd_w1_w2_s7_texts_state_the_house(void **state)
{
	static const struct {
		int target_points, win_by, kill_every;	/* the house; 0 0 0: NULL, the defaults */
		double min_toss_height_m;
		const char *id, *text;
	} cases[] = {
		{ 10, 2, 5, 3.0, "BD-W1", "The game goes to 10 points and must be won by 2." },
		{ 0, 0, 0, 0, "BD-W1", "The game goes to 10 points and must be won by 2." },
		{ 10, 2, 5, 3.0, "BD-W2", "Each time a team reaches or passes a multiple of 5, both opponents kill n' fill." },
		{ 10, 2, 5, 3.0, "BD-S7", "Every throw must reach the agreed minimum height (3 m)." },
		{ 3, 1, 3, 2.5, "BD-W1", "The first team to 3 points with the lead wins." },
		{ 3, 1, 3, 2.5, "BD-W2", "Each time a team reaches or passes a multiple of 3, both opponents kill n' fill." },
		{ 3, 1, 3, 2.5, "BD-S7", "Every throw must reach the agreed minimum height (2.5 m)." },
		{ 1, 3, 0, 3.0, "BD-W1", "The game goes to 1 point and must be won by 3." },
		{ 1, 3, 0, 3.0, "BD-W2", "No kill n' fill for reaching a score in this match." },
	};
	char text[BD_RULE_TEXT_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bd_house h;

		bd_house_defaults(&h);
		h.target_points = cases[i].target_points;
		h.win_by = cases[i].win_by;
		h.kill_every = cases[i].kill_every;
		h.min_toss_height_m = cases[i].min_toss_height_m;
		assert_string_equal(bd_rule_text(cases[i].id, cases[i].win_by ? &h : NULL,
						 text, sizeof(text)), cases[i].text);
	}
	/* A short buffer gets the start of the text, ended. */
	assert_string_equal(bd_rule_text("BD-W1", NULL, text, 9), "The game");
}

/* docs/beer-die-rules.md and bd_rule_text() list the same IDs (the
 * scoreboard shows the one and links to the other). Runs from the top of
 * the tree, as tests/run does; skipped elsewhere. */
static void test_bd_rule_texts_match_the_rule_book(void **state)
{
	FILE *f = fopen("docs/beer-die-rules.md", "r");
	char line[1024], text[BD_RULE_TEXT_MAX];
	size_t n = 0;

	(void)state;
	if (!f)
		skip();
	while (fgets(line, sizeof(line), f)) {
		char id[16];

		if (sscanf(line, "- **%15[A-Za-z0-9-]**", id) != 1 || strncmp(id, "BD-", 3) != 0)
			continue;
		if (!bd_rule_text(id, NULL, text, sizeof(text)))
			fail_msg("%s is in the rule book but has no bd_rule_text()", id);
		n++;
	}
	fclose(f);
	assert_int_equal(n, bd_rule_count());
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
		cmocka_unit_test(test_bd_review_on_doubtful_evidence),
		cmocka_unit_test(test_bd_p6_line_call_reviewed_like_a_half),
		cmocka_unit_test(test_bd_p5_low_call_makes_a_doubtful_landing_moot),
		cmocka_unit_test(test_bd_p3_review_ignores_doubtful_later_bounces),
		cmocka_unit_test(test_bd_p1_review_on_a_doubtful_first_landing),
		cmocka_unit_test(test_bd_o2_review_on_the_face_not_after_death),
		cmocka_unit_test(test_bd_w1_house_check_and_score_over),
		cmocka_unit_test(test_bd_w2_kill_every_zero_turns_it_off),
		cmocka_unit_test(test_bd_w2_d1_two_multiples_in_one_throw_are_one_duty),
		cmocka_unit_test(test_bd_judge_rejects_bad_players_and_faces),
		cmocka_unit_test(test_bd_correction_of_throw_one_after_twenty),
		cmocka_unit_test(test_bd_rule_text_for_every_id),
		cmocka_unit_test(test_bd_w1_w2_s7_texts_state_the_house),
		cmocka_unit_test(test_bd_rule_texts_match_the_rule_book),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
