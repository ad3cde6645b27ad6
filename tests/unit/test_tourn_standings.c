/* tourn: the standings' tie-breaks, each deciding an order the ones after
 * it would have got wrong: match points (wins, draws), head to head among
 * the teams level, point difference, points scored, entry order
 * (docs/tournament.md "Standings"). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tourn/tourn.h"

#define MAXT 4

/* A round robin of n teams (A, B, C, D) played with pts[a][b] = what a
 * scores against b; the final standings into rows. */
static void league(int n, const int pts[MAXT][MAXT], struct tourn_standing *rows)
{
	static const char *const names[MAXT] = { "A", "B", "C", "D" };
	struct tourn_cfg cfg = { .format = TOURN_ROUND_ROBIN };
	char err[160] = "";
	struct tourn *t = tourn_new(&cfg, names, n, err, sizeof(err));

	assert_non_null(t);
	for (int id = 0; id < tourn_n_matches(t); id++) {
		struct tourn_match m;

		assert_int_equal(tourn_match(t, id, &m), 0);
		assert_int_equal(m.state, TOURN_M_READY);
		if (tourn_result(t, id, pts[m.team[0]][m.team[1]], pts[m.team[1]][m.team[0]], err,
				 sizeof(err)) != 0)
			fail_msg("match %d: %s", id, err);
	}
	assert_true(tourn_done(t));
	assert_int_equal(tourn_standings(t, rows, MAXT), n);
	assert_int_equal(tourn_winner(t), rows[0].team);
	for (int i = 0; i < n; i++)
		assert_int_equal(rows[i].placing, i + 1);
	tourn_free(t);
}

static void order_is(const struct tourn_standing *rows, int n, const char *want)
{
	char got[MAXT + 1];

	for (int i = 0; i < n; i++)
		got[i] = (char)('A' + rows[i].team);
	got[n] = '\0';
	assert_string_equal(got, want);
}

enum { A, B, C, D };

/* A and B win twice; A beat B, B has the far better difference: A first.
 * D (one win, difference -1) is below A (two wins, difference -8). */
static void test_tourn_h2h_before_point_difference_and_wins_first(void **state)
{
	struct tourn_standing rows[MAXT];
	int pts[MAXT][MAXT] = { { 0 } };

	(void)state;
	pts[A][B] = 10, pts[B][A] = 9;
	pts[C][A] = 10, pts[A][C] = 0;
	pts[A][D] = 10, pts[D][A] = 9;
	pts[B][C] = 10, pts[C][B] = 0;
	pts[B][D] = 10, pts[D][B] = 0;
	pts[D][C] = 10, pts[C][D] = 0;
	league(4, pts, rows);
	order_is(rows, 4, "ABDC");
	assert_int_equal(rows[0].match_points, 4);
	assert_int_equal(rows[0].h2h_points, 2);
	assert_int_equal(rows[1].h2h_points, 0);
	assert_true(rows[1].points_for - rows[1].points_against >
		    rows[0].points_for - rows[0].points_against);
	assert_true(rows[2].points_for - rows[2].points_against >
		    rows[0].points_for - rows[0].points_against);
	assert_int_equal(rows[2].wins, 1);
	assert_int_equal(rows[0].wins, 2);
}

/* A three-way cycle (head to head level): point difference decides. */
static void test_tourn_point_difference_breaks_a_cycle(void **state)
{
	struct tourn_standing rows[MAXT];
	int pts[MAXT][MAXT] = { { 0 } };

	(void)state;
	pts[A][B] = 10, pts[B][A] = 0;	/* A +10 */
	pts[B][C] = 10, pts[C][B] = 5;	/* B +5 */
	pts[C][A] = 10, pts[A][C] = 8;	/* C +2 */
	league(3, pts, rows);
	/* A +8, C -3, B -5 */
	order_is(rows, 3, "ACB");
	for (int i = 0; i < 3; i++)
		assert_int_equal(rows[i].h2h_points, 2);
}

/* Cycle, every difference 0: points scored decide. */
static void test_tourn_points_scored_after_difference(void **state)
{
	struct tourn_standing rows[MAXT];
	int pts[MAXT][MAXT] = { { 0 } };

	(void)state;
	pts[A][B] = 10, pts[B][A] = 8;
	pts[B][C] = 12, pts[C][B] = 10;
	pts[C][A] = 11, pts[A][C] = 9;
	league(3, pts, rows);
	order_is(rows, 3, "CBA");	/* 21, 20, 19 scored */
	for (int i = 0; i < 3; i++)
		assert_int_equal(rows[i].points_for, rows[i].points_against);
}

/* Everything level: entry order. */
static void test_tourn_entry_order_last(void **state)
{
	struct tourn_standing rows[MAXT];
	int pts[MAXT][MAXT] = { { 0 } };

	(void)state;
	pts[A][B] = 10, pts[B][A] = 5;
	pts[B][C] = 10, pts[C][B] = 5;
	pts[C][A] = 10, pts[A][C] = 5;
	league(3, pts, rows);
	order_is(rows, 3, "ABC");
}

/* A draw is a point each (half a win), in round robin; B's draw and win
 * beat C's win and loss. */
static void test_tourn_league_draw_is_half_a_win(void **state)
{
	struct tourn_standing rows[MAXT];
	int pts[MAXT][MAXT] = { { 0 } };

	(void)state;
	pts[A][B] = 7, pts[B][A] = 7;
	pts[A][C] = 10, pts[C][A] = 2;
	pts[B][C] = 10, pts[C][B] = 9;
	league(3, pts, rows);
	order_is(rows, 3, "ABC");
	assert_int_equal(rows[0].draws, 1);
	assert_int_equal(rows[0].match_points, 3);
	assert_int_equal(rows[1].match_points, 3);
	assert_int_equal(rows[2].match_points, 0);
	assert_int_equal(rows[2].losses, 2);
}

/* Head to head counts only the games among the teams level: B wins all
 * three; A, C and D beat each other in a cycle (level on head to head, B's
 * wins over them not counted), so the difference orders them. */
static void test_tourn_h2h_counts_only_games_among_the_level(void **state)
{
	struct tourn_standing rows[MAXT];
	int pts[MAXT][MAXT] = { { 0 } };

	(void)state;
	pts[B][A] = 10, pts[A][B] = 9;
	pts[B][C] = 10, pts[C][B] = 9;
	pts[B][D] = 10, pts[D][B] = 9;
	pts[A][C] = 10, pts[C][A] = 9;	/* A beats C */
	pts[C][D] = 10, pts[D][C] = 0;	/* C beats D by far: best difference */
	pts[D][A] = 10, pts[A][D] = 9;	/* D beats A */
	league(4, pts, rows);
	/* Differences: C +10-1-1 = 8, A +1-1-1 = -1, D -10+1-1 = -10. */
	order_is(rows, 4, "BCAD");
	assert_int_equal(rows[1].h2h_points, 2);
	assert_int_equal(rows[2].h2h_points, 2);
	assert_int_equal(rows[3].h2h_points, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tourn_h2h_before_point_difference_and_wins_first),
		cmocka_unit_test(test_tourn_point_difference_breaks_a_cycle),
		cmocka_unit_test(test_tourn_points_scored_after_difference),
		cmocka_unit_test(test_tourn_entry_order_last),
		cmocka_unit_test(test_tourn_league_draw_is_half_a_win),
		cmocka_unit_test(test_tourn_h2h_counts_only_games_among_the_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
