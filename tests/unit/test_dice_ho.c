/* Horse, aces wild (HO): reading hands, the 45/3 notation, the roll-off,
 * rounds, elimination, tie rounds, the final two and the five-aces variant. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "tests/support/cites.h"

static struct dice_ho_hand hand(const char *dice, int rolls)
{
	struct dice_ho_hand h;
	int d[5];

	for (int i = 0; i < 5; i++)
		d[i] = dice[i] - '0';
	assert_int_equal(dice_ho_hand_of(d, rolls, &h), 0);
	return h;
}

static struct dice_ho_hand parsed(const char *s)
{
	struct dice_ho_hand h;

	assert_int_equal(dice_ho_parse(s, &h), 0);
	return h;
}

static const char *fmt(struct dice_ho_hand h)
{
	static char buf[16];

	assert_true(dice_ho_format(&h, buf, sizeof(buf)) > 0);
	return buf;
}

/* HO-5, HO-4: the seed's 45/3 is beaten by 45/2 and by any five of a kind. */
static void test_dice_ho5_45_3_beaten_by_45_2_and_five_of_a_kind(void **state)
{
	struct dice_ho_hand m = parsed("45/3");

	(void)state;
	assert_true(dice_ho_compare(&(struct dice_ho_hand){ 0 }, &m) < 0);
	assert_true(dice_ho_compare(&(struct dice_ho_hand){ true, 4, 5, 2 }, &m) > 0);
	assert_true(dice_ho_compare(&(struct dice_ho_hand){ true, 4, 5, 1 }, &m) > 0);
	for (int f = 2; f <= 6; f++)
		for (int r = 1; r <= 3; r++) {
			struct dice_ho_hand five = { true, 5, f, r };

			assert_true(dice_ho_compare(&five, &m) > 0);
		}
	assert_true(dice_ho_compare(&(struct dice_ho_hand){ true, 4, 6, 3 }, &m) > 0);	/* four sixes */
	assert_true(dice_ho_compare(&(struct dice_ho_hand){ true, 4, 4, 1 }, &m) < 0);	/* four fours */
	assert_int_equal(dice_ho_compare(&m, &(struct dice_ho_hand){ true, 4, 5, 3 }), 0);
	assert_string_equal(fmt(m), "45/3");
	assert_string_equal(fmt(hand("55511", 3)), "55/3");
}

/* HO-3, HO-9: 3-3-4-1-1 reads as 43 (the aces join the threes); no ace,
 * no value; all aces are five sixes. */
static void test_dice_ho3_ho9_aces_wild_and_required(void **state)
{
	(void)state;
	assert_string_equal(fmt(hand("33411", 1)), "43/1");
	assert_string_equal(fmt(hand("24456", 3)), "-/3");
	assert_false(hand("24456", 3).valid);
	assert_string_equal(fmt(hand("11111", 2)), "56/2");
	assert_string_equal(fmt(hand("12345", 1)), "25/1");	/* one ace joins the five */
	assert_string_equal(fmt(hand("66612", 2)), "46/2");
	/* Any hand with an ace beats every hand without. */
	struct dice_ho_hand none = hand("66666", 1), pair = hand("12345", 3);

	assert_true(dice_ho_compare(&pair, &none) > 0);
}

/* HO-4: five, four, three of a kind, a pair; no straights, full houses or
 * two pairs; the higher face wins within a rank. */
static void test_dice_ho4_ranking(void **state)
{
	struct dice_ho_hand three = hand("22316", 3), fh = hand("22133", 1);
	struct dice_ho_hand four = hand("22213", 3), fives = hand("55551", 3);

	(void)state;
	assert_string_equal(fmt(fh), "33/1");	/* 2-2-3-3-1: three threes, not a full house */
	assert_true(dice_ho_compare(&four, &three) > 0);
	assert_true(dice_ho_compare(&fives, &four) > 0);
	assert_true(dice_ho_compare(&fh, &three) > 0);	/* three threes beat three twos */
}

/* HO-5: the notation, parsed and printed, and its bad forms. */
static void test_dice_ho5_notation_parse_and_print(void **state)
{
	static const char *const good[] = { "45/3", "56/1", "22/2", "-/1", "33/3" };
	static const char *const badv[] = { "", "45", "45/4", "15/3", "61/2", "47/1", "45/0", "45/3x", "-/4", "a5/3" };
	struct dice_ho_hand h;
	char small[3];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_string_equal(fmt(parsed(good[i])), good[i]);
	for (size_t i = 0; i < sizeof(badv) / sizeof(badv[0]); i++)
		assert_int_equal(dice_ho_parse(badv[i], &h), -EINVAL);
	assert_int_equal(dice_ho_format(&(struct dice_ho_hand){ true, 4, 5, 3 }, small, sizeof(small)), -ENOSPC);
	assert_string_equal(small, "");
}

static void cfg_init(struct dice_ho_cfg *cfg, int n)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->n_players = (size_t)n;
	for (int p = 0; p < n; p++)
		snprintf(cfg->players[p], DICE_NAME_MAX, "p%d", p + 1);
	dice_ho_house_defaults(&cfg->house);
}

/* A one-roll turn, or two rolls as "first,second" (second re-rolled dice). */
static struct dice_ho_turn turn(const char *r0, const char *r1)
{
	struct dice_ho_turn t;

	memset(&t, 0, sizeof(t));
	t.player = DICE_NOBODY;
	t.rolls.n_rolls = r1 ? 2 : 1;
	t.rolls.n[0] = 5;
	for (int i = 0; i < 5; i++)
		t.rolls.dice[0][i] = r0[i] - '0';
	if (r1) {
		t.rolls.n[1] = (int)strlen(r1);
		for (int i = 0; r1[i]; i++)
			t.rolls.dice[1][i] = r1[i] - '0';
	}
	return t;
}

static void ok(const struct dice_ho_cfg *cfg, struct dice_ho_state *s, const struct dice_ho_turn *t,
	       struct dice_ho_ruling *r)
{
	char err[256] = "";

	if (dice_ho_step(cfg, s, t, r, s, err, sizeof(err)))
		fail_msg("step failed: %s", err);
}

/* HO-1: the highest single die starts; ties roll again among themselves. */
static void test_dice_ho1_rolloff_ties_roll_again(void **state)
{
	struct dice_ho_cfg cfg;
	struct dice_ho_state s;
	struct dice_ho_ruling r;
	struct dice_ho_rolloff ro = { { true, true, true }, { 5, 2, 5 } };
	struct dice_ho_turn t = turn("11111", NULL);
	char err[256];

	(void)state;
	cfg_init(&cfg, 3);
	dice_ho_state_init(&s, &cfg);
	assert_int_equal(dice_ho_rolloff_step(&cfg, &s, &ro, &r, &s, err, sizeof(err)), 0);
	assert_true(r.any_tied && r.tied[0] && r.tied[2] && !r.tied[1]);
	assert_int_equal(r.player, DICE_NOBODY);
	assert_int_equal(dice_ho_next_player(&cfg, &s), DICE_NOBODY);	/* nobody until it is settled */
	assert_int_equal(dice_ho_step(&cfg, &s, &t, &r, &s, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "type: the roll-off tied: the tied players roll again (HO-1)");
	/* p2 may not roll in the tie-break. */
	assert_int_equal(dice_ho_rolloff_step(&cfg, &s, &ro, &r, &s, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "rolls: p2 is not in this roll-off (HO-1)");
	ro = (struct dice_ho_rolloff){ { true, false, true }, { 1, 0, 4 } };
	assert_int_equal(dice_ho_rolloff_step(&cfg, &s, &ro, &r, &s, err, sizeof(err)), 0);
	assert_int_equal(r.player, 2);
	assert_true(CITES(&r, "HO-1"));
	assert_int_equal(dice_ho_next_player(&cfg, &s), 2);	/* p3, then p1, p2 */
}

/* HO-2, HO-6: the first player sets the mark, the best hand goes out, the
 * rounds go on until two remain; the last left loses. HO-10: 1..3 rolls. */
static void test_dice_ho2_ho6_mark_elimination_and_loser(void **state)
{
	struct dice_ho_cfg cfg;
	struct dice_ho_state s;
	struct dice_ho_ruling r;
	struct dice_ho_turn t;
	char err[256];

	(void)state;
	cfg_init(&cfg, 3);
	dice_ho_state_init(&s, &cfg);
	t = turn("55512", NULL);		/* p1: 45/1 sets the mark */
	ok(&cfg, &s, &t, &r);
	assert_string_equal(fmt(r.mark), "45/1");
	assert_true(CITES(&r, "HO-2") && CITES(&r, "HO-10"));
	t = turn("66612", "61");		/* p2: 6-6-6-1 kept, then 6-1: 56/2 */
	ok(&cfg, &s, &t, &r);
	assert_string_equal(fmt(r.hand), "56/2");
	assert_int_equal(r.mark_player, 1);
	t = turn("22345", NULL);		/* p3: no ace, nothing */
	t.player = 0;
	assert_int_equal(dice_ho_step(&cfg, &s, &t, &r, &s, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "player: it is p3's turn, not p1's (HO-2)");
	t.player = DICE_NOBODY;
	ok(&cfg, &s, &t, &r);
	assert_true(r.round_over);
	assert_int_equal(r.out, 1);		/* p2 is safe */
	assert_true(CITES(&r, "HO-6"));
	/* HO-2a: round 2 (p3 and p1) starts with the next player still in left of p1: p3. */
	assert_int_equal(dice_ho_next_player(&cfg, &s), 2);
	t = turn("44123", NULL);		/* p3: 34/1 */
	ok(&cfg, &s, &t, &r);
	t = turn("33123", NULL);		/* p1: 43/1 */
	ok(&cfg, &s, &t, &r);
	assert_int_equal(r.out, 0);
	assert_true(r.over);
	assert_int_equal(r.loser, 2);
	assert_int_equal(dice_ho_step(&cfg, &s, &t, &r, &s, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "type: the game is over: p3 has lost");
}

/* HO-7: tied best hands play a round between them; HO-5 breaks equal
 * hands by rolls first. */
static void test_dice_ho7_tie_round_and_rolls_tie_break(void **state)
{
	struct dice_ho_cfg cfg;
	struct dice_ho_state s;
	struct dice_ho_ruling r;
	struct dice_ho_turn t;

	(void)state;
	cfg_init(&cfg, 3);
	dice_ho_state_init(&s, &cfg);
	t = turn("55512", NULL);		/* p1 45/1 */
	ok(&cfg, &s, &t, &r);
	t = turn("55156", NULL);		/* p2 45/1 */
	ok(&cfg, &s, &t, &r);
	t = turn("55123", "5");			/* p3 45/2: loses on rolls */
	ok(&cfg, &s, &t, &r);
	assert_true(r.any_tied && r.tied[0] && r.tied[1] && !r.tied[2]);
	assert_true(CITES(&r, "HO-7"));
	assert_int_equal(r.out, DICE_NOBODY);
	assert_true(s.tie_round);
	t = turn("22213", NULL);		/* p1 in the tie round: 42/1 */
	ok(&cfg, &s, &t, &r);
	assert_true(r.tie_round);
	t = turn("33312", NULL);		/* p2: 43/1 */
	ok(&cfg, &s, &t, &r);
	assert_int_equal(r.out, 1);
	/* HO-5: the same four fives, fewer rolls wins. */
	cfg_init(&cfg, 2);
	dice_ho_state_init(&s, &cfg);
	t = turn("55123", "5");
	ok(&cfg, &s, &t, &r);			/* p1 45/2 */
	t = turn("55512", NULL);
	ok(&cfg, &s, &t, &r);			/* p2 45/1 */
	assert_int_equal(r.out, 1);
	assert_true(CITES(&r, "HO-5"));
	assert_int_equal(r.loser, 0);
}

/* HO-6 house rule: the final two play best two of three; a tied round
 * does not count. */
static void test_dice_ho6_final_best_of_three(void **state)
{
	struct dice_ho_cfg cfg;
	struct dice_ho_state s;
	struct dice_ho_ruling r;
	struct dice_ho_turn t;

	(void)state;
	cfg_init(&cfg, 2);
	cfg.house.final_best_of_three = true;
	dice_ho_state_init(&s, &cfg);
	t = turn("66612", NULL);
	ok(&cfg, &s, &t, &r);			/* p1 46/1 */
	t = turn("22213", NULL);
	ok(&cfg, &s, &t, &r);			/* p2 42/1: p1 wins leg 1 */
	assert_int_equal(r.legs[0], 1);
	assert_int_equal(r.out, DICE_NOBODY);
	assert_false(r.over);
	/* Leg 2, started by p2. */
	assert_int_equal(dice_ho_next_player(&cfg, &s), 1);
	t = turn("33312", NULL);
	ok(&cfg, &s, &t, &r);			/* p2 43/1 */
	t = turn("33312", NULL);
	ok(&cfg, &s, &t, &r);			/* p1 43/1: tied, again */
	assert_true(r.any_tied);
	t = turn("33312", NULL);
	ok(&cfg, &s, &t, &r);			/* p2 first again in the tie round */
	t = turn("44412", NULL);
	ok(&cfg, &s, &t, &r);			/* p1 44/1: second leg */
	assert_int_equal(r.legs[0], 2);
	assert_int_equal(r.out, 0);
	assert_true(r.over);
	assert_int_equal(r.loser, 1);
}

/* HO-8 (house rule): five aces on a first roll ends the game; that player buys. */
static void test_dice_ho8_five_aces_variant(void **state)
{
	struct dice_ho_cfg cfg;
	struct dice_ho_state s;
	struct dice_ho_ruling r;
	struct dice_ho_turn t = turn("11111", NULL);

	(void)state;
	cfg_init(&cfg, 4);
	dice_ho_state_init(&s, &cfg);
	ok(&cfg, &s, &t, &r);
	assert_false(r.over);			/* off by default: the best hand, 56/1 */
	cfg.house.five_aces_ends = true;
	dice_ho_state_init(&s, &cfg);
	ok(&cfg, &s, &t, &r);
	assert_true(r.over && CITES(&r, "HO-8"));
	assert_int_equal(r.loser, 0);
	/* The game ended with that roll: a roll after it is refused, not
	 * ruled as another hand (52/2). */
	dice_ho_state_init(&s, &cfg);
	t = turn("11111", "2");
	char err[160];
	assert_int_equal(dice_ho_step(&cfg, &s, &t, &r, &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "rolls[1]: five aces on the first roll ended the game"));
	assert_int_equal(s.phase, DICE_HO_ROLLOFF);	/* nothing taken */
	/* Five aces made on a later roll are only the best hand, 56/2. */
	dice_ho_state_init(&s, &cfg);
	t = turn("23411", "111");
	ok(&cfg, &s, &t, &r);
	assert_string_equal(fmt(r.hand), "56/2");
	assert_false(r.over);
	assert_false(CITES(&r, "HO-8"));
	assert_int_equal(r.loser, DICE_NOBODY);
}

/* YZ-1a as Horse applies it: the kept dice are read in the player's
 * favour (the best hand) when the log does not name them. */
static void test_dice_ho2_best_kept_dice(void **state)
{
	struct dice_ho_cfg cfg;
	struct dice_ho_state s;
	struct dice_ho_ruling r;
	struct dice_ho_turn t = turn("33411", "44");	/* keep 4-1-1 or 3-3-1... re-roll two */

	(void)state;
	cfg_init(&cfg, 2);
	dice_ho_state_init(&s, &cfg);
	ok(&cfg, &s, &t, &r);
	assert_string_equal(fmt(r.hand), "54/2");	/* 4-1-1 kept, 4-4 rolled */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dice_ho5_45_3_beaten_by_45_2_and_five_of_a_kind),
		cmocka_unit_test(test_dice_ho3_ho9_aces_wild_and_required),
		cmocka_unit_test(test_dice_ho4_ranking),
		cmocka_unit_test(test_dice_ho5_notation_parse_and_print),
		cmocka_unit_test(test_dice_ho1_rolloff_ties_roll_again),
		cmocka_unit_test(test_dice_ho2_ho6_mark_elimination_and_loser),
		cmocka_unit_test(test_dice_ho7_tie_round_and_rolls_tie_break),
		cmocka_unit_test(test_dice_ho6_final_best_of_three),
		cmocka_unit_test(test_dice_ho8_five_aces_variant),
		cmocka_unit_test(test_dice_ho2_best_kept_dice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
