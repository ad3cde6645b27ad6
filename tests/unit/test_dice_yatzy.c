/* Yatzy (YZ) and Yatzy with bonus and joker (YJ): every box against a
 * brute-force oracle over all 7776 ordered rolls, the seeds' examples,
 * the kept dice of a turn, the card, the bonuses and the joker order. */
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

/* ---- The oracle: written apart from the engine, on sorted dice and
 * explicit patterns rather than face counts. ---- */

static void sorted(const int d[5], int s[5])
{
	memcpy(s, d, 5 * sizeof(int));
	for (int i = 0; i < 5; i++)
		for (int j = i + 1; j < 5; j++)
			if (s[j] < s[i]) {
				int t = s[i];

				s[i] = s[j];
				s[j] = t;
			}
}

static int oracle_sum(const int s[5])
{
	return s[0] + s[1] + s[2] + s[3] + s[4];
}

static int is_full_house(const int s[5])
{
	return (s[0] == s[1] && s[1] == s[2] && s[3] == s[4] && s[2] != s[3]) ||
	       (s[0] == s[1] && s[2] == s[3] && s[3] == s[4] && s[1] != s[2]);
}

static int has_values(const int s[5], const char *want)
{
	/* every digit of want appears among the dice */
	for (const char *w = want; *w; w++) {
		int found = 0;

		for (int i = 0; i < 5; i++)
			found |= s[i] == *w - '0';
		if (!found)
			return 0;
	}
	return 1;
}

static int oracle(enum dice_game g, bool fixed50, int box, const int d[5])
{
	int s[5];

	sorted(d, s);
	if (box <= DICE_BOX_SIXES) {
		int f = box + 1, t = 0;

		for (int i = 0; i < 5; i++)
			if (d[i] == f)
				t += f;
		return t;
	}
	if (g == DICE_YZ) {
		switch (box) {
		case DICE_BOX_ONE_PAIR:
			for (int i = 4; i >= 1; i--)
				if (s[i] == s[i - 1])
					return 2 * s[i];
			return 0;
		case DICE_BOX_TWO_PAIRS: {
			int pairs[2], n = 0;

			for (int i = 4; i >= 1 && n < 2; i--)
				if (s[i] == s[i - 1] && (n == 0 || pairs[0] != s[i])) {
					pairs[n++] = s[i];
					i--;
				}
			return n == 2 ? 2 * pairs[0] + 2 * pairs[1] : 0;
		}
		case DICE_BOX_THREE_OF_A_KIND:
			return (s[0] == s[2] || s[1] == s[3] || s[2] == s[4]) ? 3 * s[2] : 0;
		case DICE_BOX_FOUR_OF_A_KIND:
			return (s[0] == s[3] || s[1] == s[4]) ? 4 * s[1] : 0;
		case DICE_BOX_SMALL_STRAIGHT:
			return s[0] == 1 && s[1] == 2 && s[2] == 3 && s[3] == 4 && s[4] == 5 ? 15 : 0;
		case DICE_BOX_LARGE_STRAIGHT:
			return s[0] == 2 && s[1] == 3 && s[2] == 4 && s[3] == 5 && s[4] == 6 ? 20 : 0;
		case DICE_BOX_FULL_HOUSE:
			return is_full_house(s) ? oracle_sum(s) : 0;
		case DICE_BOX_CHANCE:
			return oracle_sum(s);
		case DICE_BOX_YATZY:
			return s[0] == s[4] ? (fixed50 ? 50 : oracle_sum(s) + 50) : 0;
		}
	} else {
		switch (box) {
		case DICE_BOX_THREE_OF_A_KIND:
			return (s[0] == s[2] || s[1] == s[3] || s[2] == s[4]) ? oracle_sum(s) : 0;
		case DICE_BOX_FOUR_OF_A_KIND:
			return (s[0] == s[3] || s[1] == s[4]) ? oracle_sum(s) : 0;
		case DICE_BOX_FULL_HOUSE:
			return is_full_house(s) ? 25 : 0;
		case DICE_BOX_SMALL_STRAIGHT:
			return has_values(s, "1234") || has_values(s, "2345") || has_values(s, "3456") ? 30 : 0;
		case DICE_BOX_LARGE_STRAIGHT:
			return has_values(s, "12345") || has_values(s, "23456") ? 40 : 0;
		case DICE_BOX_CHANCE:
			return oracle_sum(s);
		case DICE_BOX_YATZY:
			return s[0] == s[4] ? 50 : 0;
		}
	}
	return -1;
}

/* Every box of the game, every one of the 6^5 ordered rolls. */
static void check_all_rolls(enum dice_game g, bool fixed50)
{
	struct dice_yatzy_house h;
	int boxes = 0;

	dice_yatzy_house_defaults(&h);
	h.yatzy_fixed_50 = fixed50;
	for (int b = 0; b < DICE_BOX_COUNT; b++) {
		if (!dice_game_has_box(g, (enum dice_box)b))
			continue;
		boxes++;
		for (int code = 0; code < 7776; code++) {
			int d[5], c = code;

			for (int i = 0; i < 5; i++) {
				d[i] = c % 6 + 1;
				c /= 6;
			}
			int want = oracle(g, fixed50, b, d), got = dice_box_score(g, &h, (enum dice_box)b, d);

			if (want != got)
				fail_msg("%s %s %d-%d-%d-%d-%d: engine %d, oracle %d", dice_game_name(g),
					 dice_box_name((enum dice_box)b), d[0], d[1], d[2], d[3], d[4], got, want);
		}
	}
	assert_int_equal(boxes, g == DICE_YZ ? 15 : 13);	/* YZ-3; YJ: 13 rounds */
}

/* YZ-4, YZ-6..YZ-14 */
static void test_dice_yz_every_box_every_roll_matches_oracle(void **state)
{
	(void)state;
	check_all_rolls(DICE_YZ, false);
	check_all_rolls(DICE_YZ, true);		/* YZ-14 house rule yatzy_fixed_50 */
}

/* YJ-3, YJ-5..YJ-11 */
static void test_dice_yj_every_box_every_roll_matches_oracle(void **state)
{
	(void)state;
	check_all_rolls(DICE_YJ, false);
}

static int score(enum dice_game g, const char *box, int a, int b, int c, int d, int e)
{
	struct dice_yatzy_house h;
	int dice[5] = { a, b, c, d, e };

	dice_yatzy_house_defaults(&h);
	return dice_box_score(g, &h, (enum dice_box)dice_box_parse(box), dice);
}

/* The seed's own examples and the rules' worked numbers. */
static void test_dice_yz_seed_examples(void **state)
{
	(void)state;
	assert_int_equal(score(DICE_YZ, "full_house", 4, 4, 4, 1, 1), 14);	/* YZ-12 */
	assert_int_equal(score(DICE_YZ, "fours", 4, 4, 4, 3, 1), 12);		/* YZ-4 */
	assert_int_equal(score(DICE_YZ, "yatzy", 6, 6, 6, 6, 6), 80);		/* YZ-14 */
	assert_int_equal(score(DICE_YZ, "one_pair", 6, 6, 5, 5, 1), 12);	/* YZ-6: the highest pair */
	assert_int_equal(score(DICE_YZ, "two_pairs", 6, 6, 5, 5, 1), 22);	/* YZ-7 */
	assert_int_equal(score(DICE_YZ, "two_pairs", 6, 6, 6, 6, 1), 0);	/* YZ-7: two *different* pairs */
	assert_int_equal(score(DICE_YZ, "three_of_a_kind", 2, 2, 2, 5, 6), 6);	/* YZ-8 */
	assert_int_equal(score(DICE_YZ, "four_of_a_kind", 3, 3, 3, 3, 6), 12);	/* YZ-9 */
	assert_int_equal(score(DICE_YZ, "small_straight", 5, 4, 3, 2, 1), 15);	/* YZ-10 */
	assert_int_equal(score(DICE_YZ, "large_straight", 2, 3, 4, 5, 6), 20);	/* YZ-11 */
	assert_int_equal(score(DICE_YZ, "large_straight", 1, 2, 3, 4, 5), 0);	/* YZ-11 */
	assert_int_equal(score(DICE_YZ, "full_house", 5, 5, 5, 5, 5), 0);	/* YZ-12: different numbers */
	assert_int_equal(score(DICE_YZ, "chance", 1, 4, 4, 6, 3), 18);		/* YZ-13 */
	assert_int_equal(score(DICE_YZ, "full_house", 1, 4, 4, 6, 3), 0);	/* YZ-2: does not fit, 0 */
}

static void test_dice_yj_seed_examples(void **state)
{
	(void)state;
	assert_int_equal(score(DICE_YJ, "three_of_a_kind", 5, 5, 5, 2, 4), 21);	/* YJ-5 */
	assert_int_equal(score(DICE_YJ, "four_of_a_kind", 1, 1, 1, 1, 3), 7);	/* YJ-6 */
	assert_int_equal(score(DICE_YJ, "full_house", 2, 2, 2, 3, 3), 25);	/* YJ-7 */
	assert_int_equal(score(DICE_YJ, "small_straight", 2, 3, 4, 5, 5), 30);	/* YJ-8 */
	assert_int_equal(score(DICE_YJ, "large_straight", 2, 3, 4, 5, 6), 40);	/* YJ-9 */
	assert_int_equal(score(DICE_YJ, "yatzy", 3, 3, 3, 3, 3), 50);		/* YJ-10 */
	assert_int_equal(score(DICE_YJ, "chance", 2, 3, 5, 6, 6), 22);		/* YJ-11 */
	assert_int_equal(score(DICE_YJ, "threes", 3, 3, 1, 2, 3), 9);		/* YJ-3 */
	assert_int_equal(score(DICE_YJ, "one_pair", 3, 3, 1, 2, 3), -EINVAL);	/* 13 boxes */
	assert_int_equal(score(DICE_YZ, "fours", 4, 4, 4, 3, 7), -EINVAL);	/* a die 1..6 */
}

/* ---- Turns and the card ---- */

static void cfg_init(struct dice_yatzy_cfg *cfg, enum dice_game g, int players)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->game = g;
	cfg->n_players = (size_t)players;
	for (int p = 0; p < players; p++)
		snprintf(cfg->players[p], DICE_NAME_MAX, "p%d", p + 1);
	dice_yatzy_house_defaults(&cfg->house);
}

/* rolls as strings: "14463", "254", "11". */
static void turn_init(struct dice_yatzy_turn *t, const char *box, const char *r0,
		      const char *r1, const char *r2)
{
	const char *rolls[3] = { r0, r1, r2 };

	memset(t, 0, sizeof(*t));
	t->player = DICE_NOBODY;
	t->box = (enum dice_box)dice_box_parse(box);
	for (int k = 0; k < 3 && rolls[k]; k++) {
		t->rolls.n_rolls = k + 1;
		t->rolls.n[k] = (int)strlen(rolls[k]);
		for (int i = 0; i < t->rolls.n[k]; i++)
			t->rolls.dice[k][i] = rolls[k][i] - '0';
	}
}

static int step_ok(const struct dice_yatzy_cfg *cfg, struct dice_yatzy_state *s,
		   const struct dice_yatzy_turn *t, struct dice_yatzy_ruling *r)
{
	char err[256] = "";

	if (dice_yatzy_step(cfg, s, t, r, s, err, sizeof(err)))
		fail_msg("step failed: %s", err);
	return r->points;
}

static void step_bad(const struct dice_yatzy_cfg *cfg, const struct dice_yatzy_state *s,
		     const struct dice_yatzy_turn *t, const char *want)
{
	struct dice_yatzy_ruling r;
	struct dice_yatzy_state n;
	char err[256] = "";

	assert_int_equal(dice_yatzy_step(cfg, s, t, &r, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, want);
}

/* YZ-1 (the seed's turn): 1-4-4-6-3, keep the fours, 2-5-4, keep the
 * fours, 1-1: the referee finds 4-4-4-1-1, a full house of 14 (YZ-12).
 * YZ-1a: without keep[], the kept dice are read in the player's favour. */
static void test_dice_yz1_seed_turn_kept_fours_full_house_14(void **state)
{
	struct dice_yatzy_cfg cfg;
	struct dice_yatzy_state s;
	struct dice_yatzy_turn t;
	struct dice_yatzy_ruling r;
	static const int want[5] = { 4, 4, 4, 1, 1 };

	(void)state;
	cfg_init(&cfg, DICE_YZ, 2);
	dice_yatzy_state_init(&s);
	turn_init(&t, "full_house", "14463", "254", "11");
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 14);
	assert_memory_equal(r.hand, want, sizeof(want));
	assert_int_equal(r.kept[0][0], 4);
	assert_int_equal(r.kept[0][1], 4);
	assert_true(CITES(&r, "YZ-1") && CITES(&r, "YZ-12") && CITES(&r, "YZ-3"));
	/* The other ending of the seed: 3-1, written in the fours: 12. */
	turn_init(&t, "fours", "14463", "254", "31");
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 12);
	assert_true(CITES(&r, "YZ-4"));
}

/* keep[] names the kept dice: no choosing then, and it must be possible. */
static void test_dice_yz1_explicit_keep_is_followed_and_checked(void **state)
{
	struct dice_yatzy_cfg cfg;
	struct dice_yatzy_state s, s0;
	struct dice_yatzy_turn t;
	struct dice_yatzy_ruling r;

	(void)state;
	cfg_init(&cfg, DICE_YZ, 1);
	dice_yatzy_state_init(&s);
	s0 = s;
	turn_init(&t, "full_house", "14463", "254", "11");
	t.rolls.has_keep = true;
	t.rolls.n_keep = 2;
	t.rolls.keep_n[0] = 2;
	t.rolls.keep[0][0] = 1;
	t.rolls.keep[0][1] = 4;		/* 1,4 + 2,5,4 -> keep 1,4,4 + 1,1: 4-4-1-1-1 */
	t.rolls.keep_n[1] = 3;
	t.rolls.keep[1][0] = 1;
	t.rolls.keep[1][1] = 4;
	t.rolls.keep[1][2] = 4;
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 11);
	assert_int_equal(r.hand[0], 4);
	assert_int_equal(r.hand[4], 1);
	t.rolls.keep[1][0] = 6;		/* no six left after roll 2 */
	step_bad(&cfg, &s0, &t, "keep[1]: these dice are not in the hand before roll 3");
	t.rolls.keep_n[1] = 2;
	step_bad(&cfg, &s0, &t, "keep[1]: 2 dice kept and 2 rolled again make 4, not 5");
	t.rolls.n_keep = 1;
	step_bad(&cfg, &s0, &t, "keep: 1 lists for 2 later rolls");
}

/* YZ-1: no fourth roll; dice are 1..6; the first roll has five dice. */
static void test_dice_yz1_fourth_roll_and_bad_dice_refused(void **state)
{
	struct dice_yatzy_cfg cfg;
	struct dice_yatzy_state s;
	struct dice_yatzy_turn t;

	(void)state;
	cfg_init(&cfg, DICE_YZ, 1);
	dice_yatzy_state_init(&s);
	turn_init(&t, "chance", "14463", "254", "11");
	t.rolls.n_rolls = 4;
	t.rolls.n[3] = 1;
	t.rolls.dice[3][0] = 6;
	step_bad(&cfg, &s, &t, "rolls: a turn has at most 3 rolls, this one has 4 (YZ-1)");
	turn_init(&t, "chance", "1446", NULL, NULL);
	step_bad(&cfg, &s, &t, "rolls[0]: the first roll has 4 dice, not 5");
	turn_init(&t, "chance", "14467", NULL, NULL);
	step_bad(&cfg, &s, &t, "rolls[0][4]: a die shows 1 to 6, not 7");
	/* A later roll rolls at least one die: an empty one is no roll. */
	turn_init(&t, "chance", "14463", "254", NULL);
	t.rolls.n[1] = 0;
	step_bad(&cfg, &s, &t, "rolls[1]: a later roll rolls 1 to 5 dice, not 0");
}

/* YZ-1, YJ-1, HO-2: dice_rolls_best itself holds a turn to max_rolls,
 * whatever the engine calling it checked first. */
static void test_dice_yz1_rolls_best_holds_the_roll_limit(void **state)
{
	struct dice_yatzy_turn t;
	int hand[5], kept[DICE_MAX_ROLLS][DICE_N];
	char err[128] = "";

	(void)state;
	turn_init(&t, "chance", "14463", "254", "11");
	assert_int_equal(dice_rolls_best(&t.rolls, 2, NULL, NULL, hand, kept, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "rolls: a turn has at most 2 rolls, this one has 3");
	t.rolls.n_rolls = 0;
	assert_int_equal(dice_rolls_best(&t.rolls, 3, NULL, NULL, hand, kept, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "rolls: a turn has at least one roll");
}

/* YZ: the player with most points wins; equal leaders name no winner. */
static void test_dice_yz_tied_leaders_name_no_winner(void **state)
{
	struct dice_yatzy_cfg cfg;
	struct dice_yatzy_state s;

	(void)state;
	cfg_init(&cfg, DICE_YZ, 3);
	dice_yatzy_state_init(&s);
	s.card[0].used[DICE_BOX_CHANCE] = s.card[1].used[DICE_BOX_CHANCE] = true;
	s.card[0].box[DICE_BOX_CHANCE] = s.card[1].box[DICE_BOX_CHANCE] = 20;
	assert_int_equal(dice_yatzy_winner(&cfg, &s), DICE_NOBODY);
	s.card[2].used[DICE_BOX_ONES] = true;
	s.card[2].box[DICE_BOX_ONES] = 5;
	assert_int_equal(dice_yatzy_winner(&cfg, &s), DICE_NOBODY);	/* a lower third changes nothing */
	s.card[1].box[DICE_BOX_CHANCE] = 21;
	assert_int_equal(dice_yatzy_winner(&cfg, &s), 1);
}

/* YZ-2, YZ-3: any unused box, 0 where it does not fit, each box once,
 * 15 turns; the wrong player is refused. */
static void test_dice_yz2_yz3_scratch_used_box_and_order(void **state)
{
	struct dice_yatzy_cfg cfg;
	struct dice_yatzy_state s;
	struct dice_yatzy_turn t;
	struct dice_yatzy_ruling r;

	(void)state;
	cfg_init(&cfg, DICE_YZ, 2);
	dice_yatzy_state_init(&s);
	turn_init(&t, "yatzy", "12346", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 0);	/* YZ-2 */
	assert_true(CITES(&r, "YZ-2"));
	t.player = 0;
	step_bad(&cfg, &s, &t, "player: it is p2's turn, not p1's");
	turn_init(&t, "chance", "12346", NULL, NULL);
	step_ok(&cfg, &s, &t, &r);			/* p2 */
	turn_init(&t, "yatzy", "66666", NULL, NULL);
	step_bad(&cfg, &s, &t, "box: p1 has already used yatzy (YZ-3)");
}

/* YZ-5: 63 in the upper section gives 50; a full game ends after 15
 * turns each (YZ-3) and names the winner. */
static void test_dice_yz5_upper_bonus_and_full_game(void **state)
{
	static const char *const boxes[15] = {
		"ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs",
		"three_of_a_kind", "four_of_a_kind", "small_straight", "large_straight",
		"full_house", "chance", "yatzy",
	};
	static const char *const rolls[15] = {
		"11123", "22234", "33345", "44456", "55561", "66612", "66543", "66553",
		"44421", "33332", "12345", "23456", "22333", "66655", "55555",
	};
	struct dice_yatzy_cfg cfg;
	struct dice_yatzy_state s;
	struct dice_yatzy_turn t;
	struct dice_yatzy_ruling r;
	int up, bonus, total, sum = 0;

	(void)state;
	cfg_init(&cfg, DICE_YZ, 1);
	dice_yatzy_state_init(&s);
	for (int i = 0; i < 15; i++) {
		turn_init(&t, boxes[i], rolls[i], NULL, NULL);
		sum += step_ok(&cfg, &s, &t, &r);
		if (i == 5) {
			assert_int_equal(r.upper_bonus, 50);	/* 3+6+9+12+15+18 = 63 */
			assert_true(CITES(&r, "YZ-5"));
		}
	}
	assert_true(r.over && s.over);
	dice_yatzy_totals(DICE_YZ, &s.card[0], &up, &bonus, &total);
	assert_int_equal(up, 63);
	assert_int_equal(bonus, 50);
	assert_int_equal(total, sum + 50);
	assert_int_equal(dice_yatzy_winner(&cfg, &s), 0);
	turn_init(&t, "chance", "12345", NULL, NULL);
	step_bad(&cfg, &s, &t, "type: the game is over: every box is written (YZ-3)");
}

/* YJ-4: the upper bonus is 35. YJ-1, YJ-2 are cited on every turn. */
static void test_dice_yj4_upper_bonus_35(void **state)
{
	struct dice_yatzy_card c;
	int up, bonus, total;

	(void)state;
	memset(&c, 0, sizeof(c));
	for (int b = 0; b <= DICE_BOX_SIXES; b++) {
		c.used[b] = true;
		c.box[b] = 3 * (b + 1);
	}
	dice_yatzy_totals(DICE_YJ, &c, &up, &bonus, &total);
	assert_int_equal(up, 63);
	assert_int_equal(bonus, 35);
	assert_int_equal(total, 98);
	c.box[0] = 2;
	dice_yatzy_totals(DICE_YJ, &c, &up, &bonus, &total);
	assert_int_equal(bonus, 0);
}

/* YJ-12, YJ-13, YJ-13a: a second yatzy with 50 in the box: 100 bonus and
 * a joker, placed in the matching upper box first, then any free lower
 * box at full value, then a 0 in an upper box. */
static void test_dice_yj12_yj13_joker_order(void **state)
{
	struct dice_yatzy_cfg cfg;
	struct dice_yatzy_state s;
	struct dice_yatzy_turn t;
	struct dice_yatzy_ruling r;

	(void)state;
	cfg_init(&cfg, DICE_YJ, 1);
	dice_yatzy_state_init(&s);
	turn_init(&t, "yatzy", "44444", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 50);	/* YJ-10 */
	assert_int_equal(r.yatzy_bonus, 0);
	turn_init(&t, "full_house", "44444", NULL, NULL);
	step_bad(&cfg, &s, &t, "box: a joker of 4s goes in the free fours box (YJ-13)");
	turn_init(&t, "fours", "44444", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 20);
	assert_int_equal(r.yatzy_bonus, 100);			/* YJ-12 */
	assert_true(r.joker && CITES(&r, "YJ-12") && CITES(&r, "YJ-13"));
	turn_init(&t, "sixes", "44444", NULL, NULL);
	step_bad(&cfg, &s, &t, "box: a joker goes in a free lower box while one is left (YJ-13)");
	turn_init(&t, "large_straight", "44444", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 40);	/* YJ-13a */
	assert_true(CITES(&r, "YJ-13a"));
	turn_init(&t, "full_house", "44444", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 25);	/* YJ-13a */
	turn_init(&t, "small_straight", "44444", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 30);	/* YJ-13a */
	turn_init(&t, "three_of_a_kind", "44444", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 20);	/* YJ-13a: the sum */
	turn_init(&t, "four_of_a_kind", "44444", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 20);
	turn_init(&t, "chance", "44444", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 20);
	/* No lower box is left: a 0 in any free upper box. */
	turn_init(&t, "sixes", "44444", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 0);
	assert_int_equal(r.yatzy_bonus, 100);
	assert_int_equal(s.card[0].yatzy_bonus, 800);	/* eight jokers after the first yatzy */
	assert_int_equal(s.card[0].jokers, 8);
}

/* YJ-12a: with 0 in the Yatzy box a further yatzy has no bonus and no
 * joker (five of a kind is then no full house); the house rule
 * joker_after_scratched_yatzy gives the joker without the bonus. */
static void test_dice_yj12a_scratched_yatzy_box(void **state)
{
	struct dice_yatzy_cfg cfg;
	struct dice_yatzy_state s, s2;
	struct dice_yatzy_turn t;
	struct dice_yatzy_ruling r;

	(void)state;
	cfg_init(&cfg, DICE_YJ, 1);
	dice_yatzy_state_init(&s);
	turn_init(&t, "yatzy", "12346", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 0);
	s2 = s;
	turn_init(&t, "full_house", "55555", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 0);
	assert_false(r.joker);
	assert_int_equal(r.yatzy_bonus, 0);
	assert_true(CITES(&r, "YJ-12a"));
	cfg.house.joker_after_scratched_yatzy = true;
	step_bad(&cfg, &s2, &t, "box: a joker of 5s goes in the free fives box (YJ-13)");
	turn_init(&t, "fives", "55555", NULL, NULL);
	assert_int_equal(step_ok(&cfg, &s2, &t, &r), 25);
	assert_true(r.joker && CITES(&r, "YJ-12a"));
	assert_int_equal(r.yatzy_bonus, 0);
}

/* YJ-13 with YZ-1a: the benefit of the doubt never picks a reading the
 * joker rule forbids. After a 50 in the Yatzy box, 4-4-4-4-2 and one die
 * rolled again showing 4 is either 4-4-4-4-4 (re-rolling the 2: a joker
 * that must go in the free fours) or 4-4-4-4-2 (re-rolling a 4). Written
 * in Chance, only the second reading is allowed: 18, no joker, no bonus.
 * Written in the fours, the joker reading is the player's best: 20 + 100. */
static void test_dice_yj13_choice_avoids_forbidden_joker(void **state)
{
	struct dice_yatzy_cfg cfg;
	struct dice_yatzy_state s, s0;
	struct dice_yatzy_turn t;
	struct dice_yatzy_ruling r;
	static const int plain[5] = { 4, 4, 4, 4, 2 };

	(void)state;
	cfg_init(&cfg, DICE_YJ, 1);
	dice_yatzy_state_init(&s);
	turn_init(&t, "yatzy", "66666", NULL, NULL);
	step_ok(&cfg, &s, &t, &r);
	s0 = s;
	turn_init(&t, "chance", "44442", "4", NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 18);
	assert_memory_equal(r.hand, plain, sizeof(plain));
	assert_false(r.joker);
	assert_int_equal(r.yatzy_bonus, 0);
	assert_false(CITES(&r, "YJ-13"));
	s = s0;
	turn_init(&t, "fours", "44442", "4", NULL);
	assert_int_equal(step_ok(&cfg, &s, &t, &r), 20);
	assert_true(r.joker);
	assert_int_equal(r.yatzy_bonus, 100);
	/* One roll of five fours has no other reading: Chance is refused. */
	s = s0;
	turn_init(&t, "chance", "44444", NULL, NULL);
	step_bad(&cfg, &s, &t, "box: a joker of 4s goes in the free fours box (YJ-13)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dice_yz_every_box_every_roll_matches_oracle),
		cmocka_unit_test(test_dice_yj_every_box_every_roll_matches_oracle),
		cmocka_unit_test(test_dice_yz_seed_examples),
		cmocka_unit_test(test_dice_yj_seed_examples),
		cmocka_unit_test(test_dice_yz1_seed_turn_kept_fours_full_house_14),
		cmocka_unit_test(test_dice_yz1_explicit_keep_is_followed_and_checked),
		cmocka_unit_test(test_dice_yz1_fourth_roll_and_bad_dice_refused),
		cmocka_unit_test(test_dice_yz1_rolls_best_holds_the_roll_limit),
		cmocka_unit_test(test_dice_yz_tied_leaders_name_no_winner),
		cmocka_unit_test(test_dice_yz2_yz3_scratch_used_box_and_order),
		cmocka_unit_test(test_dice_yz5_upper_bonus_and_full_game),
		cmocka_unit_test(test_dice_yj4_upper_bonus_35),
		cmocka_unit_test(test_dice_yj12_yj13_joker_order),
		cmocka_unit_test(test_dice_yj12a_scratched_yatzy_box),
		cmocka_unit_test(test_dice_yj13_choice_avoids_forbidden_joker),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
