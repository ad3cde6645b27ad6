/* tourn: every format played to its end (2, 3, 5, 8, 13, 64 teams) by
 * deterministic result rules, byes and walkovers, double elimination's
 * losers' bracket and grand final, Swiss without rematches, round robin's
 * pairs, corrections re-folding the bracket, bad input refused
 * (docs/tournament.md). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tourn/tourn.h"

static const int sizes[] = { 2, 3, 5, 8, 13, 64 };
#define N_SIZES (sizeof(sizes) / sizeof(sizes[0]))

static char names[TOURN_MAX_TEAMS + 1][TOURN_NAME_MAX];
static const char *name_ptrs[TOURN_MAX_TEAMS + 1];

static const char *const *team_names(int n)
{
	for (int i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "Team %d", i + 1);
		name_ptrs[i] = names[i];
	}
	return name_ptrs;
}

static struct tourn *mk(enum tourn_format f, int n, int rounds)
{
	struct tourn_cfg cfg = { .format = f, .rounds = rounds };
	char err[160] = "";
	struct tourn *t = tourn_new(&cfg, team_names(n), n, err, sizeof(err));

	if (!t)
		fail_msg("tourn_new(%d teams): %s", n, err);
	return t;
}

/* Who wins a match between a and b: each rule a fixed strength per team. */
typedef int (*rule_fn)(int team);
static int by_seed(int team) { return -team; }
static int by_reverse(int team) { return team; }
static int by_hash(int team) { return (team * 37 + 11) % 101; }
static const rule_fn rules[] = { by_seed, by_reverse, by_hash };
#define N_RULES (sizeof(rules) / sizeof(rules[0]))

static struct tourn_match get(const struct tourn *t, int id)
{
	struct tourn_match m;

	assert_int_equal(tourn_match(t, id, &m), 0);
	return m;
}

static void result(struct tourn *t, int id, int a, int b)
{
	char err[160] = "";

	if (tourn_result(t, id, a, b, err, sizeof(err)) != 0)
		fail_msg("result of match %d: %s", id, err);
}

/* Plays every ready match by rule (the stronger wins 10 to its own
 * strength mod 9) until none is ready; returns the results entered. */
static int play_out(struct tourn *t, rule_fn rule)
{
	int ids[TOURN_MAX_TEAMS * TOURN_MAX_TEAMS];
	int entered = 0;

	for (int pass = 0; pass <= tourn_n_matches(t); pass++) {
		int k = tourn_ready(t, ids, (int)(sizeof(ids) / sizeof(ids[0])));

		assert_true(k >= 0);
		if (k == 0)
			return entered;
		for (int i = 0; i < k; i++) {
			struct tourn_match m = get(t, ids[i]);
			int sa = rule(m.team[0]), sb = rule(m.team[1]);
			int lose = abs(sa < sb ? sa : sb) % 9;

			assert_int_equal(m.state, TOURN_M_READY);
			if (sa > sb)
				result(t, ids[i], 10, lose);
			else
				result(t, ids[i], lose, 10);
			entered++;
		}
	}
	fail_msg("still matches ready after every match was played");
	return entered;
}

static int strongest(int n, rule_fn rule)
{
	int best = 0;

	for (int i = 1; i < n; i++)
		if (rule(i) > rule(best))
			best = i;
	return best;
}

/* No team twice in one (bracket, round); no empty spot in a match to play. */
static void check_rounds(const struct tourn *t)
{
	int n = tourn_n_teams(t);
	static int seen[4][2 * TOURN_MAX_TEAMS][TOURN_MAX_TEAMS];

	memset(seen, 0, sizeof(seen));
	for (int id = 0; id < tourn_n_matches(t); id++) {
		struct tourn_match m = get(t, id);

		assert_true(m.round >= 1 && m.round < 2 * TOURN_MAX_TEAMS);
		for (int s = 0; s < 2; s++) {
			int team = m.team[s];

			if (team < 0)
				continue;
			assert_true(team < n);
			seen[m.bracket][m.round][team]++;
			assert_int_equal(seen[m.bracket][m.round][team], 1);
		}
		if (m.state == TOURN_M_READY || m.state == TOURN_M_PLAYED)
			assert_true(m.team[0] >= 0 && m.team[1] >= 0 && m.team[0] != m.team[1]);
		/* Seeding keeps two empty spots apart in the draw itself. */
		if (m.bracket != TOURN_LOSERS)
			assert_int_not_equal(m.state, TOURN_M_VACANT);
	}
}

static void check_done(const struct tourn *t)
{
	struct tourn_standing rows[TOURN_MAX_TEAMS];
	int n = tourn_n_teams(t);

	assert_true(tourn_done(t));
	for (int id = 0; id < tourn_n_matches(t); id++) {
		struct tourn_match m = get(t, id);

		assert_int_not_equal(m.state, TOURN_M_READY);
		assert_int_not_equal(m.state, TOURN_M_PENDING);
	}
	assert_int_equal(tourn_standings(t, rows, TOURN_MAX_TEAMS), n);
	assert_int_equal(rows[0].team, tourn_winner(t));
	assert_int_equal(rows[0].placing, 1);
	for (int i = 1; i < n; i++)
		assert_true(rows[i].placing >= rows[i - 1].placing && rows[i].placing > 1);
}

static void test_tourn_single_every_size_played_to_the_end(void **state)
{
	(void)state;
	for (size_t z = 0; z < N_SIZES; z++) {
		for (size_t r = 0; r < N_RULES; r++) {
			int n = sizes[z], p = 1;
			struct tourn *t = mk(TOURN_SINGLE, n, 0);

			while (p < n)
				p *= 2;
			assert_int_equal(tourn_n_matches(t), p - 1);
			assert_int_equal(play_out(t, rules[r]), n - 1);	/* the byes are not played */
			check_rounds(t);
			check_done(t);
			assert_int_equal(tourn_winner(t), strongest(n, rules[r]));
			tourn_free(t);
		}
	}
}

/* Round 1 of 5 teams in 8 spots: the top three seeds get the byes, each
 * against an empty spot, and seed 4 meets seed 5. */
static void test_tourn_single_byes_go_to_top_seeds_and_never_meet(void **state)
{
	struct tourn *t = mk(TOURN_SINGLE, 5, 0);
	int walkovers = 0;

	(void)state;
	for (int id = 0; id < 4; id++) {
		struct tourn_match m = get(t, id);

		assert_int_equal(m.round, 1);
		if (m.state == TOURN_M_WALKOVER) {
			walkovers++;
			assert_true(m.winner >= 0 && m.winner <= 2);
			assert_int_equal(m.loser, TOURN_BYE);
		} else {
			assert_int_equal(m.state, TOURN_M_READY);
			assert_int_equal(m.team[0], 3);
			assert_int_equal(m.team[1], 4);
		}
	}
	assert_int_equal(walkovers, 3);
	/* Seed 1 goes straight to round 2 and waits for the 4-5 winner. */
	assert_int_equal(get(t, 4).team[0], 0);
	assert_int_equal(get(t, 4).team[1], TOURN_NONE);
	assert_int_equal(get(t, 4).state, TOURN_M_PENDING);
	tourn_free(t);
}

static void test_tourn_single_placings(void **state)
{
	struct tourn_standing rows[8];
	struct tourn *t = mk(TOURN_SINGLE, 8, 0);

	(void)state;
	play_out(t, by_seed);
	assert_int_equal(tourn_standings(t, rows, 8), 8);
	/* 1, 2, two thirds, four fifths. */
	const int want[8] = { 1, 2, 3, 3, 5, 5, 5, 5 };
	for (int i = 0; i < 8; i++)
		assert_int_equal(rows[i].placing, want[i]);
	assert_int_equal(rows[0].team, 0);
	assert_int_equal(rows[1].team, 1);
	tourn_free(t);
}

/* Losses per team from the played matches, in id order (a team's matches
 * come in id order: winners' rounds, losers' rounds, the final). */
static void check_two_losses_out(const struct tourn *t)
{
	int losses[TOURN_MAX_TEAMS] = { 0 };
	int n = tourn_n_teams(t), champ = tourn_winner(t);

	for (int id = 0; id < tourn_n_matches(t); id++) {
		struct tourn_match m = get(t, id);

		if (m.state != TOURN_M_PLAYED)
			continue;
		/* Nobody plays after a second loss. */
		assert_true(losses[m.team[0]] < 2 && losses[m.team[1]] < 2);
		losses[m.loser]++;
	}
	for (int i = 0; i < n; i++)
		assert_int_equal(losses[i], i == champ ? losses[i] : 2);
	assert_true(losses[champ] <= 1);
}

static void test_tourn_double_every_size_played_to_the_end(void **state)
{
	(void)state;
	for (size_t z = 0; z < N_SIZES; z++) {
		for (size_t r = 0; r < N_RULES; r++) {
			int n = sizes[z];
			struct tourn *t = mk(TOURN_DOUBLE, n, 0);

			play_out(t, rules[r]);
			check_rounds(t);
			check_done(t);
			check_two_losses_out(t);
			assert_int_equal(tourn_winner(t), strongest(n, rules[r]));
			tourn_free(t);
		}
	}
}

/* The losers' bracket of 8: 4 + 2 + 2 + 1 + 1 matches fed by the right
 * winners' losers, an empty spot there never played. */
static void test_tourn_double_losers_bracket_shape(void **state)
{
	struct tourn *t = mk(TOURN_DOUBLE, 8, 0);
	int per_round[7] = { 0 };
	int lb = 0;

	(void)state;
	assert_int_equal(tourn_n_matches(t), 7 + 6 + 2);
	for (int id = 0; id < tourn_n_matches(t); id++) {
		struct tourn_match m = get(t, id);

		if (m.bracket == TOURN_LOSERS) {
			lb++;
			per_round[m.round]++;
		}
	}
	assert_int_equal(lb, 6);
	assert_int_equal(per_round[1], 2);
	assert_int_equal(per_round[2], 2);
	assert_int_equal(per_round[3], 1);
	assert_int_equal(per_round[4], 1);
	/* After winners' round 1 (the seeds win), its losers meet in LB round 1. */
	for (int id = 0; id < 4; id++) {
		struct tourn_match m = get(t, id);

		result(t, id, m.team[0] < m.team[1] ? 10 : 3, m.team[0] < m.team[1] ? 3 : 10);
	}
	struct tourn_match l1 = get(t, 7), l2 = get(t, 8);
	assert_int_equal(l1.bracket, TOURN_LOSERS);
	assert_int_equal(l1.state, TOURN_M_READY);
	assert_int_equal(l2.state, TOURN_M_READY);
	/* Losers of matches 0 (1v8) and 1 (4v5): seeds 8 and 5. */
	assert_int_equal(l1.team[0], 7);
	assert_int_equal(l1.team[1], 4);
	tourn_free(t);
}

/* With 5 teams in 8 spots, three empty spots fall into the losers' first
 * round: two of them make a vacant match, which nobody plays; the teams
 * that come down get walkovers, never a match against nobody. */
static void test_tourn_double_empty_spots_in_losers_bracket(void **state)
{
	struct tourn *t = mk(TOURN_DOUBLE, 5, 0);
	int vacant = 0;

	(void)state;
	play_out(t, by_hash);
	for (int id = 0; id < tourn_n_matches(t); id++) {
		struct tourn_match m = get(t, id);

		if (m.state == TOURN_M_VACANT) {
			vacant++;
			assert_int_equal(m.bracket, TOURN_LOSERS);
			assert_int_equal(m.round, 1);
		}
	}
	assert_int_equal(vacant, 1);
	check_done(t);
	check_two_losses_out(t);
	tourn_free(t);
}

/* Plays a 4-team double elimination up to the grand final; returns its id. */
static int to_grand_final(struct tourn *t)
{
	int ids[8];

	for (int guard = 0; guard < 16; guard++) {
		int k = tourn_ready(t, ids, 8);

		assert_true(k > 0);
		for (int i = 0; i < k; i++) {
			struct tourn_match m = get(t, ids[i]);

			if (m.bracket == TOURN_FINAL)
				return ids[i];
			/* The lower entry wins. */
			result(t, ids[i], m.team[0] < m.team[1] ? 10 : 4, m.team[0] < m.team[1] ? 4 : 10);
		}
	}
	fail_msg("no grand final");
	return -1;
}

static void test_tourn_double_grand_final_winners_side_wins_no_reset(void **state)
{
	struct tourn *t = mk(TOURN_DOUBLE, 4, 0);
	int gf = to_grand_final(t);
	struct tourn_match m = get(t, gf);

	(void)state;
	assert_int_equal(m.round, 1);
	assert_int_equal(m.team[0], 0);	/* unbeaten */
	assert_int_equal(m.team[1], 1);	/* lost once, to team 0 */
	result(t, gf, 10, 6);
	assert_int_equal(get(t, gf + 1).state, TOURN_M_NOT_NEEDED);
	assert_true(tourn_done(t));
	assert_int_equal(tourn_winner(t), 0);
	check_two_losses_out(t);
	tourn_free(t);
}

static void test_tourn_double_grand_final_reset_when_losers_side_wins(void **state)
{
	struct tourn_standing rows[4];
	struct tourn *t = mk(TOURN_DOUBLE, 4, 0);
	int gf = to_grand_final(t), ids[4];
	char err[160] = "";

	(void)state;
	result(t, gf, 6, 10);
	assert_false(tourn_done(t));
	struct tourn_match reset = get(t, gf + 1);
	assert_int_equal(reset.bracket, TOURN_FINAL);
	assert_int_equal(reset.round, 2);
	assert_int_equal(reset.state, TOURN_M_READY);
	assert_int_equal(reset.team[0], 0);
	assert_int_equal(reset.team[1], 1);
	assert_int_equal(tourn_ready(t, ids, 4), 1);
	assert_int_equal(ids[0], gf + 1);
	result(t, gf + 1, 7, 10);
	assert_true(tourn_done(t));
	assert_int_equal(tourn_winner(t), 1);
	check_two_losses_out(t);
	assert_int_equal(tourn_standings(t, rows, 4), 4);
	assert_int_equal(rows[0].team, 1);
	assert_int_equal(rows[1].team, 0);
	assert_int_equal(rows[1].placing, 2);
	/* Correcting the first final to a win of the winners' side drops the reset. */
	assert_int_equal(tourn_result(t, gf, 10, 2, err, sizeof(err)), 0);
	assert_int_equal(get(t, gf + 1).state, TOURN_M_NOT_NEEDED);
	assert_int_equal(tourn_winner(t), 0);
	/* And back: the reset is to be played again, its old result gone. */
	assert_int_equal(tourn_result(t, gf, 2, 10, err, sizeof(err)), 0);
	assert_int_equal(get(t, gf + 1).state, TOURN_M_READY);
	assert_false(tourn_done(t));
	tourn_free(t);
}

static void test_tourn_round_robin_every_pair_once(void **state)
{
	(void)state;
	for (size_t z = 0; z < N_SIZES; z++) {
		int n = sizes[z];
		struct tourn *t = mk(TOURN_ROUND_ROBIN, n, 0);
		static int met[TOURN_MAX_TEAMS][TOURN_MAX_TEAMS];
		int np = n + n % 2;

		assert_int_equal(tourn_n_matches(t), n * (n - 1) / 2);
		assert_int_equal(play_out(t, by_hash), n * (n - 1) / 2);
		memset(met, 0, sizeof(met));
		for (int id = 0; id < tourn_n_matches(t); id++) {
			struct tourn_match m = get(t, id);

			assert_true(m.round >= 1 && m.round <= np - 1);
			met[m.team[0]][m.team[1]]++;
			met[m.team[1]][m.team[0]]++;
		}
		for (int a = 0; a < n; a++)
			for (int b = 0; b < n; b++)
				assert_int_equal(met[a][b], a == b ? 0 : 1);
		check_rounds(t);
		check_done(t);
		assert_int_equal(tourn_winner(t), strongest(n, by_hash));
		tourn_free(t);
	}
}

/* No rematch, at most one bye per team, one bye per round when odd. */
static void check_swiss(const struct tourn *t, int rounds)
{
	static int met[TOURN_MAX_TEAMS + 1][TOURN_MAX_TEAMS + 1];
	int byes[TOURN_MAX_TEAMS] = { 0 };
	int round_byes[TOURN_MAX_TEAMS] = { 0 };
	int n = tourn_n_teams(t);

	memset(met, 0, sizeof(met));
	for (int id = 0; id < tourn_n_matches(t); id++) {
		struct tourn_match m = get(t, id);
		int a = m.team[0], b = m.team[1] == TOURN_BYE ? n : m.team[1];

		assert_true(a >= 0 && b >= 0);
		assert_int_equal(met[a][b], 0);
		met[a][b] = met[b][a] = 1;
		if (b == n) {
			assert_int_equal(m.state, TOURN_M_WALKOVER);
			byes[a]++;
			round_byes[m.round]++;
		}
	}
	for (int i = 0; i < n; i++)
		assert_true(byes[i] <= 1);
	for (int r = 1; r <= rounds; r++)
		assert_int_equal(round_byes[r], n % 2);
}

static void test_tourn_swiss_every_size_played_to_the_end(void **state)
{
	(void)state;
	for (size_t z = 0; z < N_SIZES; z++) {
		for (size_t r = 0; r < N_RULES; r++) {
			int n = sizes[z], rounds = 1;
			struct tourn_standing rows[TOURN_MAX_TEAMS];

			while ((1 << rounds) < n)
				rounds++;
			if (rounds > tourn_swiss_max_rounds(n))
				rounds = tourn_swiss_max_rounds(n);
			struct tourn *t = mk(TOURN_SWISS, n, rounds);

			play_out(t, rules[r]);
			check_rounds(t);
			check_done(t);
			check_swiss(t, rounds);
			/* The strongest never loses, so the winner is unbeaten too (with
			 * an odd field another team can be: a bye in the way of their
			 * meeting, 5 teams in 3 rounds). */
			assert_int_equal(tourn_standings(t, rows, TOURN_MAX_TEAMS), n);
			assert_int_equal(rows[0].wins, rounds);
			for (int i = 0; i < n; i++)
				if (rows[i].team == strongest(n, rules[r]))
					assert_int_equal(rows[i].wins, rounds);
			if (n % 2 == 0)
				assert_int_equal(tourn_winner(t), strongest(n, rules[r]));
			tourn_free(t);
		}
	}
}

/* Every round the most rounds allow, for each result rule: always paired
 * (2..16 teams, and 63 and 64). */
static void test_tourn_swiss_most_rounds_always_pair(void **state)
{
	(void)state;
	for (int n = 2; n <= 64; n = n == 16 ? 63 : n + 1) {
		for (size_t r = 0; r < N_RULES; r++) {
			int rounds = tourn_swiss_max_rounds(n);
			struct tourn *t = mk(TOURN_SWISS, n, rounds);

			play_out(t, rules[r]);
			check_done(t);
			check_swiss(t, rounds);
			tourn_free(t);
		}
	}
}

static void test_tourn_swiss_five_rounds_of_8_and_9_no_rematch(void **state)
{
	(void)state;
	for (int n = 8; n <= 9; n++) {
		for (size_t r = 0; r < N_RULES; r++) {
			struct tourn *t = mk(TOURN_SWISS, n, 5);

			assert_int_equal(tourn_n_matches(t), 5 * ((n + 1) / 2));
			play_out(t, rules[r]);
			check_done(t);
			check_swiss(t, 5);
			tourn_free(t);
		}
	}
}

/* 9 teams: round 1's bye goes to the last entered; round 2 is paired by
 * score, winners with winners. */
static void test_tourn_swiss_bye_to_lowest_and_pairing_by_score(void **state)
{
	struct tourn *t = mk(TOURN_SWISS, 9, 5);
	struct tourn_standing rows[9];
	int ids[9];

	(void)state;
	assert_int_equal(tourn_ready(t, ids, 9), 4);
	struct tourn_match bye = get(t, 4);
	assert_int_equal(bye.state, TOURN_M_WALKOVER);
	assert_int_equal(bye.team[0], 8);
	assert_int_equal(bye.team[1], TOURN_BYE);
	assert_int_equal(get(t, 5).state, TOURN_M_PENDING);	/* round 2 waits */
	/* Round 1: 1v2, 3v4, 5v6, 7v8; the higher entry wins. */
	for (int i = 0; i < 4; i++) {
		struct tourn_match m = get(t, i);

		assert_int_equal(m.team[0], 2 * i);
		assert_int_equal(m.team[1], 2 * i + 1);
		result(t, i, 3, 10);
	}
	/* Five on one win (team 8's bye among them): round 2 pairs them from
	 * the top, 1v3, 5v7, and 8 plays the best loser. */
	assert_int_equal(tourn_standings(t, rows, 9), 9);
	for (int i = 0; i < 9; i++) {
		if (rows[i].team != 8)
			continue;
		assert_int_equal(rows[i].byes, 1);
		assert_int_equal(rows[i].wins, 1);
		assert_int_equal(rows[i].played, 0);
	}
	/* Round 2: the winners pair among themselves; one drops to the losers'
	 * group, and the bye goes to the lowest loser (team 7). */
	struct tourn_match b2 = get(t, 9);
	assert_int_equal(b2.state, TOURN_M_WALKOVER);
	assert_int_equal(b2.team[0], 6);
	for (int id = 5; id < 9; id++) {
		struct tourn_match m = get(t, id);

		assert_int_equal(m.state, TOURN_M_READY);
	}
	assert_int_equal(get(t, 5).team[0], 1);
	assert_int_equal(get(t, 5).team[1], 3);
	assert_int_equal(get(t, 6).team[0], 5);
	assert_int_equal(get(t, 6).team[1], 7);
	assert_int_equal(get(t, 7).team[0], 8);
	assert_int_equal(get(t, 7).team[1], 0);
	tourn_free(t);
}

/* Correcting round 1 changes round 2's pairs: the matches whose teams
 * changed lose their results, the one that did not keeps it. */
static void test_tourn_swiss_correction_repairs_later_rounds(void **state)
{
	struct tourn *t = mk(TOURN_SWISS, 8, 3);
	struct tourn_match before[4], after[4];
	int kept = 0, dropped = 0;

	(void)state;
	for (int i = 0; i < 4; i++)
		result(t, i, 10, 3);	/* 0, 2, 4, 6 win */
	for (int i = 4; i < 8; i++)
		result(t, i, 10, 5);
	for (int i = 0; i < 4; i++)
		before[i] = get(t, 4 + i);
	assert_int_equal(before[0].team[0], 0);
	assert_int_equal(before[0].team[1], 2);
	/* Round 3 is paired already. */
	assert_int_equal(get(t, 8).state, TOURN_M_READY);
	result(t, 0, 3, 10);	/* team 1 beat team 0 after all */
	for (int i = 0; i < 4; i++) {
		after[i] = get(t, 4 + i);
		if (after[i].state == TOURN_M_PLAYED)
			kept++;
		else
			dropped++;
	}
	assert_true(kept >= 1);
	assert_true(dropped >= 1);
	/* No result of a changed pair survives, round 3 waits for round 2. */
	for (int i = 0; i < 4; i++)
		if (after[i].state == TOURN_M_PLAYED)
			assert_true(after[i].team[0] == before[i].team[0] &&
				    after[i].team[1] == before[i].team[1]);
	assert_int_equal(get(t, 8).state, TOURN_M_PENDING);
	play_out(t, by_hash);
	check_done(t);
	check_swiss(t, 3);
	tourn_free(t);
}

/* Single elimination of 4: correcting a semi-final changes the final's
 * team, and the final goes back to be played. */
static void test_tourn_single_correction_changes_bracket(void **state)
{
	struct tourn *t = mk(TOURN_SINGLE, 4, 0);
	int ids[4];

	(void)state;
	result(t, 0, 10, 2);	/* 1 v 4 */
	result(t, 1, 10, 2);	/* 2 v 3 */
	assert_int_equal(get(t, 2).team[0], 0);
	result(t, 2, 10, 8);
	assert_true(tourn_done(t));
	assert_int_equal(tourn_winner(t), 0);
	result(t, 0, 5, 10);	/* team 4 won the first semi */
	struct tourn_match f = get(t, 2);
	assert_int_equal(f.team[0], 3);
	assert_int_equal(f.team[1], 1);
	assert_int_equal(f.state, TOURN_M_READY);
	assert_false(tourn_done(t));
	assert_int_equal(tourn_winner(t), TOURN_NONE);
	assert_int_equal(tourn_ready(t, ids, 4), 1);
	assert_int_equal(ids[0], 2);
	/* Correcting the second semi's score only keeps the final's result. */
	result(t, 2, 10, 9);
	result(t, 1, 10, 7);
	assert_int_equal(get(t, 2).state, TOURN_M_PLAYED);
	assert_int_equal(tourn_winner(t), 3);
	tourn_free(t);
}

/* Double elimination of 8: a corrected winners' round 1 result moves a
 * team between the brackets, and what depended on it is replayed. */
static void test_tourn_double_correction_moves_team_between_brackets(void **state)
{
	struct tourn *t = mk(TOURN_DOUBLE, 8, 0);

	(void)state;
	play_out(t, by_seed);
	assert_int_equal(tourn_winner(t), 0);
	result(t, 0, 3, 10);	/* seed 8 beat seed 1 */
	assert_false(tourn_done(t));
	assert_int_equal(get(t, 4).team[0], 7);	/* winners' round 2 */
	assert_int_equal(get(t, 7).team[0], 0);	/* seed 1 in the losers' round 1 */
	play_out(t, by_seed);
	check_done(t);
	check_two_losses_out(t);
	assert_int_equal(tourn_winner(t), 0);	/* through the losers' bracket */
	tourn_free(t);
}

static void test_tourn_swiss_max_rounds(void **state)
{
	(void)state;
	assert_int_equal(tourn_swiss_max_rounds(1), 0);
	assert_int_equal(tourn_swiss_max_rounds(2), 1);
	assert_int_equal(tourn_swiss_max_rounds(3), 3);
	assert_int_equal(tourn_swiss_max_rounds(6), 3);
	assert_int_equal(tourn_swiss_max_rounds(8), 5);
	assert_int_equal(tourn_swiss_max_rounds(9), 5);
	assert_int_equal(tourn_swiss_max_rounds(64), 33);
	assert_int_equal(tourn_swiss_max_rounds(TOURN_MAX_TEAMS + 1), 0);
}

static void refused(enum tourn_format f, const char *const *teams, int n, int rounds,
		    const char *want)
{
	struct tourn_cfg cfg = { .format = f, .rounds = rounds };
	char err[160] = "";

	errno = 0;
	assert_null(tourn_new(&cfg, teams, n, err, sizeof(err)));
	assert_int_equal(errno, EINVAL);
	if (!strstr(err, want))
		fail_msg("message \"%s\" lacks \"%s\"", err, want);
}

static void test_tourn_new_refuses_what_cannot_be_played(void **state)
{
	const char *two[] = { "Ann", "Ann" };
	const char *empty[] = { "Ann", "" };
	const char *nul[] = { "Ann", NULL };
	const char *ctl[] = { "Ann", "B\nob" };
	char longname[TOURN_NAME_MAX + 1];
	const char *lng[] = { "Ann", longname };
	char err[160] = "";

	(void)state;
	memset(longname, 'x', TOURN_NAME_MAX);
	longname[TOURN_NAME_MAX] = '\0';
	refused(TOURN_SINGLE, team_names(1), 1, 0, "at least 2");
	refused(TOURN_SINGLE, team_names(1), 0, 0, "at least 2");
	refused(TOURN_ROUND_ROBIN, team_names(1), -3, 0, "at least 2");
	refused(TOURN_DOUBLE, team_names(TOURN_MAX_TEAMS + 1), TOURN_MAX_TEAMS + 1, 0, "at most 128");
	refused(TOURN_SINGLE, two, 2, 0, "already team 1");
	refused(TOURN_SINGLE, empty, 2, 0, "empty name");
	refused(TOURN_SINGLE, nul, 2, 0, "no name");
	refused(TOURN_SINGLE, ctl, 2, 0, "control character");
	refused(TOURN_SINGLE, lng, 2, 0, "longer than");
	refused(TOURN_SWISS, team_names(8), 8, 0, "1..5 rounds");
	refused(TOURN_SWISS, team_names(8), 8, 6, "1..5 rounds");
	refused((enum tourn_format)9, team_names(8), 8, 0, "format");
	assert_null(tourn_new(NULL, team_names(2), 2, err, sizeof(err)));
	assert_non_null(strstr(err, "format"));
	assert_null(tourn_new(&(struct tourn_cfg){ .format = TOURN_SINGLE }, NULL, 2, err, sizeof(err)));
	assert_non_null(strstr(err, "teams"));
	/* The largest field is accepted, in every format. */
	for (int f = TOURN_SINGLE; f <= TOURN_SWISS; f++) {
		struct tourn *t = mk((enum tourn_format)f, TOURN_MAX_TEAMS, 7);

		assert_int_equal(tourn_n_teams(t), TOURN_MAX_TEAMS);
		assert_string_equal(tourn_team_name(t, 127), "Team 128");
		assert_null(tourn_team_name(t, 128));
		assert_null(tourn_team_name(t, -1));
		tourn_free(t);
	}
}

/* Each refused result leaves every match as it was. */
static void test_tourn_result_refuses_bad_input(void **state)
{
	struct tourn *t = mk(TOURN_SINGLE, 5, 0);
	struct tourn_match before[8], m;
	char err[160];
	int ids[8];
	struct {
		int id, a, b;
		const char *want;
	} bad[] = {
		{ -1, 10, 2, "no such match" },
		{ 7, 10, 2, "no such match" },
		{ 1 << 30, 10, 2, "no such match" },
		{ 0, 10, 2, "walkover" },	/* seed 1 against an empty spot */
		{ 4, 10, 2, "not known yet" },
		{ 1, -1, 2, "0..9999" },
		{ 1, 10, 10000, "0..9999" },
		{ 1, 7, 7, "draw" },
	};

	(void)state;
	for (int id = 0; id < 7; id++)
		before[id] = get(t, id);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(tourn_result(t, bad[i].id, bad[i].a, bad[i].b, err, sizeof(err)),
				 -EINVAL);
		if (!strstr(err, bad[i].want))
			fail_msg("case %zu: message \"%s\" lacks \"%s\"", i, err, bad[i].want);
		for (int id = 0; id < 7; id++) {
			m = get(t, id);
			assert_memory_equal(&m, &before[id], sizeof(m));
		}
	}
	assert_int_equal(tourn_result(NULL, 0, 1, 2, err, sizeof(err)), -EINVAL);
	assert_int_equal(tourn_match(t, -1, &m), -EINVAL);
	assert_int_equal(tourn_match(t, 7, &m), -EINVAL);
	assert_int_equal(tourn_ready(NULL, ids, 8), -EINVAL);
	assert_int_equal(tourn_ready(t, NULL, 8), -EINVAL);
	assert_int_equal(tourn_ready(t, NULL, 0), 2);	/* counting only: 4v5, 2v3 */
	assert_int_equal(tourn_ready(t, ids, -1), -EINVAL);
	assert_int_equal(tourn_standings(t, (struct tourn_standing[4]){ 0 }, 4), -EINVAL);
	/* A null message buffer is fine. */
	assert_int_equal(tourn_result(t, 9, 1, 2, NULL, 0), -EINVAL);
	tourn_free(t);
	tourn_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tourn_single_every_size_played_to_the_end),
		cmocka_unit_test(test_tourn_single_byes_go_to_top_seeds_and_never_meet),
		cmocka_unit_test(test_tourn_single_placings),
		cmocka_unit_test(test_tourn_double_every_size_played_to_the_end),
		cmocka_unit_test(test_tourn_double_losers_bracket_shape),
		cmocka_unit_test(test_tourn_double_empty_spots_in_losers_bracket),
		cmocka_unit_test(test_tourn_double_grand_final_winners_side_wins_no_reset),
		cmocka_unit_test(test_tourn_double_grand_final_reset_when_losers_side_wins),
		cmocka_unit_test(test_tourn_round_robin_every_pair_once),
		cmocka_unit_test(test_tourn_swiss_every_size_played_to_the_end),
		cmocka_unit_test(test_tourn_swiss_most_rounds_always_pair),
		cmocka_unit_test(test_tourn_swiss_five_rounds_of_8_and_9_no_rematch),
		cmocka_unit_test(test_tourn_swiss_bye_to_lowest_and_pairing_by_score),
		cmocka_unit_test(test_tourn_swiss_correction_repairs_later_rounds),
		cmocka_unit_test(test_tourn_single_correction_changes_bracket),
		cmocka_unit_test(test_tourn_double_correction_moves_team_between_brackets),
		cmocka_unit_test(test_tourn_swiss_max_rounds),
		cmocka_unit_test(test_tourn_new_refuses_what_cannot_be_played),
		cmocka_unit_test(test_tourn_result_refuses_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
