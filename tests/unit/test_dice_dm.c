/* Dreiermann (DM): choosing, the round order and the revenge, every
 * penalty of DM-5..DM-11, the DM-12 house rules, the tally and rounds. */
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

/* Four players p1..p4 in seat order: p2 is left of p1, p4 right of p1. */
static void cfg_init(struct dice_dm_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->n_players = 4;
	for (int p = 0; p < 4; p++)
		snprintf(cfg->players[p], DICE_NAME_MAX, "p%d", p + 1);
	dice_dm_house_defaults(&cfg->house);
}

/* A round under way with Dreiermann dm, `done` turns played. */
static void round_state(const struct dice_dm_cfg *cfg, struct dice_dm_state *s, int dm, bool dbl,
			int done)
{
	dice_dm_state_init(s, cfg);
	s->phase = DICE_DM_ROUND;
	s->dreiermann = dm;
	s->dm_double = dbl;
	s->turns_done = done;
}

struct pen {
	int p[DICE_MAX_PLAYERS];
	int e[DICE_MAX_PLAYERS];
	const char *why[DICE_MAX_WHY];
	size_t n_why;
	int rc;
	char err[160];
};

/* Penalties of one roll a+b by roller; share per player, or NULL. */
static struct pen roll(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s, int roller,
		       int a, int b, const int *share)
{
	struct dice_dm_roll r;
	struct pen x;

	memset(&r, 0, sizeof(r));
	memset(&x, 0, sizeof(x));
	r.d[0] = a;
	r.d[1] = b;
	if (share) {
		r.has_share = true;
		memcpy(r.share, share, 4 * sizeof(int));
	}
	x.rc = dice_dm_roll_penalties(cfg, s, roller, &r, x.p, x.e, x.why, &x.n_why, x.err, sizeof(x.err));
	return x;
}

#define PEN(x, a, b, c, d) do { \
	assert_int_equal((x).rc, 0); \
	assert_int_equal((x).p[0], a); assert_int_equal((x).p[1], b); \
	assert_int_equal((x).p[2], c); assert_int_equal((x).p[3], d); \
} while (0)

/* DM-5: by the sum. Dreiermann p1, roller p3 (left p4, right p2). */
static void test_dice_dm5_penalties_by_sum(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct pen x;

	(void)state;
	cfg_init(&cfg);
	round_state(&cfg, &s, 0, false, 1);
	x = roll(&cfg, &s, 2, 1, 2, NULL);	/* 3: the Dreiermann 1 */
	PEN(x, 1, 0, 0, 0);
	assert_true(CITES(&x, "DM-5"));
	x = roll(&cfg, &s, 2, 2, 5, NULL);	/* 7: left of the roller */
	PEN(x, 0, 0, 0, 1);
	x = roll(&cfg, &s, 2, 2, 6, NULL);	/* 8: the roller */
	PEN(x, 0, 0, 1, 0);
	x = roll(&cfg, &s, 2, 4, 5, NULL);	/* 9: right of the roller */
	PEN(x, 0, 1, 0, 0);
	x = roll(&cfg, &s, 2, 5, 6, NULL);	/* 11: everybody */
	PEN(x, 1, 1, 1, 1);
	x = roll(&cfg, &s, 2, 2, 4, NULL);	/* 6: nobody */
	PEN(x, 0, 0, 0, 0);
	assert_int_equal(x.n_why, 0);
	x = roll(&cfg, &s, 3, 1, 6, NULL);	/* 7 by p4: left is p1 (the circle closes) */
	PEN(x, 1, 0, 0, 0);
	round_state(&cfg, &s, 0, true, 1);
	x = roll(&cfg, &s, 2, 2, 1, NULL);	/* 3 with a double Dreiermann: 2 */
	PEN(x, 2, 0, 0, 0);
}

/* DM-6: every die showing a three gives the Dreiermann 1 (double: 2). */
static void test_dice_dm6_each_three_hits_the_dreiermann(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct pen x;

	(void)state;
	cfg_init(&cfg);
	round_state(&cfg, &s, 0, false, 1);
	x = roll(&cfg, &s, 2, 3, 1, NULL);	/* sum 4, one three */
	PEN(x, 1, 0, 0, 0);
	assert_true(CITES(&x, "DM-6"));
	x = roll(&cfg, &s, 2, 3, 6, NULL);	/* sum 9 (right of p3: p2) and a three */
	PEN(x, 1, 1, 0, 0);
	x = roll(&cfg, &s, 2, 3, 4, NULL);	/* sum 7 (left: p4) and a three */
	PEN(x, 1, 0, 0, 1);
	round_state(&cfg, &s, 0, true, 1);
	x = roll(&cfg, &s, 2, 3, 5, NULL);	/* sum 8 (roller) and a three, double: 2 */
	PEN(x, 2, 0, 1, 0);
}

/* DM-7: the seed's double five shared 2 + 3; the share must add up, be
 * given, and only for a double. */
static void test_dice_dm7_double_five_shared_two_and_three(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct pen x;
	int share[4] = { 3, 2, 0, 0 };	/* p1 3, p2 2 */
	int bad[4] = { 2, 2, 0, 0 };

	(void)state;
	cfg_init(&cfg);
	round_state(&cfg, &s, 3, false, 0);
	x = roll(&cfg, &s, 0, 5, 5, share);
	PEN(x, 3, 2, 0, 0);
	assert_true(CITES(&x, "DM-7"));
	x = roll(&cfg, &s, 0, 5, 5, bad);
	assert_int_equal(x.rc, -EINVAL);
	assert_string_equal(x.err, "share: the double 5 gives 5 points, the share adds up to 4 (DM-7)");
	x = roll(&cfg, &s, 0, 5, 5, NULL);
	assert_int_equal(x.rc, -EINVAL);
	assert_string_equal(x.err, "share: the double 5 gives 5 points to share out (DM-7)");
	x = roll(&cfg, &s, 0, 5, 4, share);
	assert_int_equal(x.rc, -EINVAL);
	assert_string_equal(x.err, "share: only a double is shared out (DM-7), 5+4 is none");
	int neg[4] = { 6, -1, 0, 0 };

	x = roll(&cfg, &s, 0, 5, 5, neg);	/* adds up to 5, but no one takes points back */
	assert_int_equal(x.rc, -EINVAL);
	assert_string_equal(x.err, "share: p2: a share is a positive number of points");
	int one[4] = { 0, 0, 1, 0 };

	x = roll(&cfg, &s, 0, 1, 1, one);	/* a double one: 1 point */
	PEN(x, 0, 0, 1, 0);
}

/* DM-8: a double three: 3 shared out, and the Dreiermann 3 (double
 * Dreiermann: 6) instead of DM-6's 2 (4). */
static void test_dice_dm8_double_three_with_double_dreiermann_gives_six(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct pen x;
	int share[4] = { 0, 0, 0, 3 };

	(void)state;
	cfg_init(&cfg);
	round_state(&cfg, &s, 0, true, 1);
	x = roll(&cfg, &s, 2, 3, 3, share);
	PEN(x, 6, 0, 0, 3);
	assert_true(CITES(&x, "DM-8"));
	round_state(&cfg, &s, 0, false, 1);
	x = roll(&cfg, &s, 2, 3, 3, share);
	PEN(x, 3, 0, 0, 3);
	assert_false(CITES(&x, "DM-6"));
}

/* DM-9: a double six split among players costs the roller 1 more. */
static void test_dice_dm9_split_double_six_costs_the_roller(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct pen x;
	int whole[4] = { 0, 6, 0, 0 }, split[4] = { 0, 3, 0, 3 };

	(void)state;
	cfg_init(&cfg);
	round_state(&cfg, &s, 0, false, 1);
	x = roll(&cfg, &s, 2, 6, 6, whole);
	PEN(x, 0, 6, 0, 0);
	assert_false(CITES(&x, "DM-9"));
	x = roll(&cfg, &s, 2, 6, 6, split);
	PEN(x, 0, 3, 1, 3);
	assert_true(CITES(&x, "DM-9"));
}

/* DM-10: the sum rules apply to doubles too: a double four gives the
 * roller 1 for the 8, on top of the 4 shared. */
static void test_dice_dm10_double_four_also_counts_as_eight(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct pen x;
	int share[4] = { 4, 0, 0, 0 };

	(void)state;
	cfg_init(&cfg);
	round_state(&cfg, &s, 1, false, 1);
	x = roll(&cfg, &s, 2, 4, 4, share);
	PEN(x, 4, 0, 1, 0);
	assert_true(CITES(&x, "DM-10"));
}

/* DM-11: in the revenge the Dreiermann's own penalties of DM-6 and DM-8
 * go to every other player, doubled for a double Dreiermann; the other
 * results stay (a 7 hits the player to his left). */
static void test_dice_dm11_revenge_turns_the_threes_on_the_others(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct pen x;
	int share[4] = { 0, 0, 3, 0 };

	(void)state;
	cfg_init(&cfg);
	round_state(&cfg, &s, 0, false, 3);
	x = roll(&cfg, &s, 0, 3, 1, NULL);
	PEN(x, 0, 1, 1, 1);
	assert_true(CITES(&x, "DM-11"));
	x = roll(&cfg, &s, 0, 2, 5, NULL);	/* 7: left of the Dreiermann */
	PEN(x, 0, 1, 0, 0);
	round_state(&cfg, &s, 0, true, 3);
	x = roll(&cfg, &s, 0, 3, 3, share);	/* double three, double Dreiermann: 6 each + 3 shared */
	PEN(x, 0, 6, 9, 6);
}

/* DM-11: every penalty the rules give the Dreiermann goes to the others in
 * his revenge, DM-5's sum of 3 included (the seed's "Dreiermann-Bestrafung
 * ... gilt während der Rache für alle anderen Spieler"): the default. */
static void test_dice_dm11_revenge_sum_three_goes_to_the_others(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct pen x;

	(void)state;
	cfg_init(&cfg);
	assert_true(cfg.house.revenge_sum3_to_others);
	round_state(&cfg, &s, 0, false, 3);
	x = roll(&cfg, &s, 0, 1, 2, NULL);	/* 3 in his revenge: one each for the others */
	PEN(x, 0, 1, 1, 1);
	assert_true(CITES(&x, "DM-5") && CITES(&x, "DM-11"));
	round_state(&cfg, &s, 0, true, 3);
	x = roll(&cfg, &s, 0, 2, 1, NULL);	/* double Dreiermann: 2 each */
	PEN(x, 0, 2, 2, 2);
	round_state(&cfg, &s, 1, false, 1);
	x = roll(&cfg, &s, 0, 1, 2, NULL);	/* not his revenge: the Dreiermann's own */
	PEN(x, 0, 1, 0, 0);
}

/* House rule DM-11a, revenge_sum3_to_others = false: the narrower reading,
 * in which DM-11 turns only DM-6 and DM-8 on the others and a sum of 3 in
 * the revenge still costs the Dreiermann himself. */
static void test_dice_dm11a_house_rule_keeps_sum_three_with_the_dreiermann(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct pen x;

	(void)state;
	cfg_init(&cfg);
	cfg.house.revenge_sum3_to_others = false;
	round_state(&cfg, &s, 0, false, 3);
	x = roll(&cfg, &s, 0, 1, 2, NULL);	/* 3 in his revenge: his own point */
	PEN(x, 1, 0, 0, 0);
	assert_true(CITES(&x, "DM-5") && CITES(&x, "DM-11"));
	round_state(&cfg, &s, 0, true, 3);
	x = roll(&cfg, &s, 0, 2, 1, NULL);	/* double Dreiermann: 2 */
	PEN(x, 2, 0, 0, 0);
	x = roll(&cfg, &s, 0, 3, 1, NULL);	/* DM-6's three still goes to the others */
	PEN(x, 0, 2, 2, 2);
}

static struct dice_dm_move mv_choose(int a, int b)
{
	struct dice_dm_move m;

	memset(&m, 0, sizeof(m));
	m.kind = DICE_DM_MOVE_CHOOSE;
	m.player = DICE_NOBODY;
	m.n_rolls = 1;
	m.rolls[0].d[0] = a;
	m.rolls[0].d[1] = b;
	return m;
}

/* A turn of plain rolls "25,24" (each two digits). */
static struct dice_dm_move mv_turn(const char *rolls)
{
	struct dice_dm_move m;

	memset(&m, 0, sizeof(m));
	m.kind = DICE_DM_MOVE_TURN;
	m.player = DICE_NOBODY;
	for (const char *r = rolls; *r; r += r[2] ? 3 : 2) {
		m.rolls[m.n_rolls].d[0] = r[0] - '0';
		m.rolls[m.n_rolls].d[1] = r[1] - '0';
		m.n_rolls++;
		if (!r[2])
			break;
	}
	return m;
}

static void ok(const struct dice_dm_cfg *cfg, struct dice_dm_state *s, const struct dice_dm_move *m,
	       struct dice_dm_ruling *r)
{
	char err[256] = "";

	if (dice_dm_step(cfg, s, m, r, s, err, sizeof(err)))
		fail_msg("step failed: %s", err);
}

static void bad(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s,
		const struct dice_dm_move *m, const char *want)
{
	struct dice_dm_ruling r;
	struct dice_dm_state n;
	char err[256] = "";

	assert_int_equal(dice_dm_step(cfg, s, m, &r, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, want);
}

/* DM-1, DM-2, DM-3: rolling in turn until a three; two threes make a
 * double Dreiermann; the round starts left of him and ends with his
 * revenge; the next choice starts left of him and ignores his threes. */
static void test_dice_dm1_dm2_dm3_choosing_and_order(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct dice_dm_ruling r;
	struct dice_dm_move m;

	(void)state;
	cfg_init(&cfg);
	dice_dm_state_init(&s, &cfg);
	m = mv_choose(2, 5);
	ok(&cfg, &s, &m, &r);			/* p1: no three */
	assert_int_equal(r.dreiermann, DICE_NOBODY);
	assert_int_equal(dice_dm_next_player(&cfg, &s), 1);
	m.player = 3;
	bad(&cfg, &s, &m, "player: p2 rolls next to choose the Dreiermann, not p4");
	m = mv_choose(3, 3);
	ok(&cfg, &s, &m, &r);			/* p2: a double Dreiermann */
	assert_int_equal(r.dreiermann, 1);
	assert_true(r.dm_double);
	assert_true(CITES(&r, "DM-1"));
	m = mv_choose(1, 1);
	bad(&cfg, &s, &m, "type: the Dreiermann p2 is chosen; the round is under way");
	/* DM-3: p3, p4, p1, then p2's revenge. */
	static const int order[4] = { 2, 3, 0, 1 };

	for (int k = 0; k < 4; k++) {
		assert_int_equal(dice_dm_next_player(&cfg, &s), order[k]);
		m = mv_turn("24");
		if (k == 0) {
			struct dice_dm_move w = m;

			w.player = 0;
			bad(&cfg, &s, &w, "player: it is p3's turn, not p1's (DM-3)");
		}
		ok(&cfg, &s, &m, &r);
		assert_int_equal(r.revenge, k == 3);
	}
	/* DM-2: round 2's choice starts left of p2; p2's threes do not count. */
	assert_int_equal(s.phase, DICE_DM_CHOOSING);
	assert_int_equal(s.round, 2);
	assert_int_equal(dice_dm_next_player(&cfg, &s), 2);
	m = mv_choose(1, 2);
	ok(&cfg, &s, &m, &r);			/* p3 */
	m = mv_choose(2, 2);
	ok(&cfg, &s, &m, &r);			/* p4 */
	m = mv_choose(4, 4);
	ok(&cfg, &s, &m, &r);			/* p1 */
	m = mv_choose(3, 1);
	ok(&cfg, &s, &m, &r);			/* p2: last round's Dreiermann */
	assert_int_equal(r.dreiermann, DICE_NOBODY);
	assert_true(CITES(&r, "DM-2"));
	for (int k = 0; k < 3; k++) {		/* p3, p4, p1 again: no three */
		m = mv_choose(2, 2);
		ok(&cfg, &s, &m, &r);
	}
	m = mv_choose(3, 3);
	ok(&cfg, &s, &m, &r);			/* p2: nor a double Dreiermann */
	assert_int_equal(r.dreiermann, DICE_NOBODY);
	assert_false(r.dm_double);
	m = mv_choose(6, 3);
	ok(&cfg, &s, &m, &r);			/* p3 */
	assert_int_equal(r.dreiermann, 2);
	assert_false(r.dm_double);
}

/* DM-4: a turn goes on while a roll penalises someone and ends with the
 * first roll that penalises nobody; the log must say exactly that. */
static void test_dice_dm4_turn_ends_on_the_first_harmless_roll(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct dice_dm_ruling r;
	struct dice_dm_move m;

	(void)state;
	cfg_init(&cfg);
	round_state(&cfg, &s, 0, false, 0);	/* p2 rolls */
	m = mv_turn("25,26,12,24");		/* 7 -> p3, 8 -> p2, 3 -> p1, then 6: harmless */
	ok(&cfg, &s, &m, &r);
	assert_int_equal(r.points, 3);
	assert_int_equal(r.penalties[0], 1);
	assert_int_equal(r.penalties[1], 1);
	assert_int_equal(r.penalties[2], 1);
	assert_true(CITES(&r, "DM-4"));
	m = mv_turn("24,25");
	bad(&cfg, &s, &m, "rolls[0]: 2+4 gives nobody a penalty, so the turn ended there (DM-4)");
	m = mv_turn("25");
	bad(&cfg, &s, &m, "rolls[0]: 2+5 gives a penalty, so the turn goes on (DM-4)");
	m = mv_turn("55,24");
	bad(&cfg, &s, &m, "rolls[0].share: the double 5 gives 5 points to share out (DM-7)");
}

/* DM-12, each house rule off by default and then on. */
static void test_dice_dm12_advanced_house_rules(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s, s0;
	struct dice_dm_ruling r;
	struct dice_dm_move m;

	(void)state;
	cfg_init(&cfg);
	/* Dropping a die while choosing: off, the roll does not count. */
	dice_dm_state_init(&s, &cfg);
	m = mv_choose(0, 0);
	m.rolls[0].dropped = true;
	ok(&cfg, &s, &m, &r);
	assert_int_equal(s.phase, DICE_DM_CHOOSING);
	assert_int_equal(dice_dm_next_player(&cfg, &s), 0);
	cfg.house.drop_choosing_makes_dreiermann = true;
	s0 = s;
	s0.last_dreiermann = 0;			/* DM-2 wins: last round's Dreiermann */
	ok(&cfg, &s0, &m, &r);
	assert_int_equal(r.dreiermann, DICE_NOBODY);
	assert_int_equal(s0.phase, DICE_DM_CHOOSING);
	ok(&cfg, &s, &m, &r);
	assert_int_equal(r.dreiermann, 0);
	assert_true(CITES(&r, "DM-12"));

	/* Declaring the round double. */
	s0 = s;
	m.kind = DICE_DM_MOVE_DECLARE_DOUBLE;
	m.player = DICE_NOBODY;
	bad(&cfg, &s, &m, "type: declaring a double round is a house rule that is off (DM-12)");
	cfg.house.declare_double = true;
	m.player = 1;
	bad(&cfg, &s, &m, "player: only the Dreiermann p1 may declare (DM-12)");
	m.player = DICE_NOBODY;
	ok(&cfg, &s, &m, &r);
	assert_true(r.dm_double);
	bad(&cfg, &s, &m, "type: the Dreiermann declares before the round's first turn (DM-12)");
	{
		struct dice_dm_state later = s0;
		struct dice_dm_move t24 = mv_turn("24");

		ok(&cfg, &later, &t24, &r);	/* one turn played: too late */
		bad(&cfg, &later, &m, "type: the Dreiermann declares before the round's first turn (DM-12)");
	}
	m = mv_turn("13,24");			/* p2: 1+3: sum 4, a three: 2 for a double round */
	ok(&cfg, &s, &m, &r);
	assert_int_equal(r.penalties[0], 2);
	s = s0;

	/* Dropping a die in a round: 1 with the house rule, and the turn goes on. */
	m = mv_turn("11,24");
	m.rolls[0].dropped = true;
	ok(&cfg, &s, &m, &r);
	assert_int_equal(r.points, 0);
	s = s0;
	cfg.house.drop_in_round_penalty = true;
	ok(&cfg, &s, &m, &r);
	assert_int_equal(r.penalties[1], 1);
	s = s0;
	/* DM-4: a dropped roll does not count, so it cannot end the turn. */
	m = mv_turn("25,11");
	m.rolls[1].dropped = true;
	bad(&cfg, &s, &m, "rolls[1]: a dropped roll does not end a turn (DM-4)");

	/* A harmless first roll: a sip and the turn is over. */
	m = mv_turn("24");
	ok(&cfg, &s, &m, &r);
	assert_int_equal(r.points, 0);
	s = s0;
	cfg.house.first_roll_miss_sip = true;
	ok(&cfg, &s, &m, &r);
	assert_int_equal(r.penalties[1], 1);
	s = s0;

	/* Every double wholly to the Dreiermann (no share needed). */
	m = mv_turn("55,24");
	cfg.house.doubles_to_dreiermann = true;
	ok(&cfg, &s, &m, &r);
	assert_int_equal(r.penalties[0], 5);
	s = s0;
	m.rolls[0].has_share = true;		/* a share naming anyone else is refused */
	m.rolls[0].share[2] = 5;
	bad(&cfg, &s, &m, "rolls[0].share: every double goes wholly to the Dreiermann p1 (DM-12)");
	m.rolls[0].share[2] = 0;
	m.rolls[0].share[0] = 5;
	ok(&cfg, &s, &m, &r);
	assert_int_equal(r.penalties[0], 5);
	s = s0;

	/* Breach, leaving, joining: a penalty sip each when on. */
	memset(&m, 0, sizeof(m));
	m.kind = DICE_DM_MOVE_SIP;
	m.player = 2;
	m.reason = DICE_DM_SIP_BREACH;
	bad(&cfg, &s, &m, "reason: that penalty sip is a house rule that is off (DM-12)");
	cfg.house.breach_sip = true;
	ok(&cfg, &s, &m, &r);
	assert_int_equal(s.sips[2], 1);
	m.reason = DICE_DM_SIP_JOIN;
	bad(&cfg, &s, &m, "reason: that penalty sip is a house rule that is off (DM-12)");
	cfg.house.leave_join_sip = true;
	ok(&cfg, &s, &m, &r);
	assert_int_equal(s.sips[2], 2);
}

/* DM-13: penalty points are sips, tallied; optionally a double six
 * empties the drink instead of six sips. */
static void test_dice_dm13_sips_tally_and_double_six_empties(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct pen x;
	int share[4] = { 0, 6, 0, 0 };

	(void)state;
	cfg_init(&cfg);
	cfg.house.double_six_empties = true;
	round_state(&cfg, &s, 0, false, 1);
	x = roll(&cfg, &s, 2, 6, 6, share);
	PEN(x, 0, 0, 0, 0);
	assert_int_equal(x.e[1], 1);
	assert_true(CITES(&x, "DM-13"));
	/* DM-14a: an emptied drink weighs six sips in the tally. */
	s.sips[0] = 7;
	s.sips[1] = 2;
	s.empties[1] = 1;
	s.sips[2] = 9;
	s.sips[3] = 8;
	assert_int_equal(dice_dm_winner(&cfg, &s), 0);	/* 7 < 2 + 6 */
	s.sips[0] = 8;
	assert_int_equal(dice_dm_winner(&cfg, &s), DICE_NOBODY);	/* 8 = 2 + 6 = 8 */
}

/* DM-14: a game is 5 rounds by default; the tally decides the winner
 * (DM-14a: the fewest, none when tied), and no move is taken after the
 * last round. */
static void test_dice_dm14_five_rounds_then_over(void **state)
{
	struct dice_dm_cfg cfg;
	struct dice_dm_state s;
	struct dice_dm_ruling r;
	struct dice_dm_move m;

	(void)state;
	cfg_init(&cfg);
	assert_int_equal(cfg.house.rounds, 5);
	dice_dm_state_init(&s, &cfg);
	for (int round = 1; round <= 5; round++) {
		int dm = round % 4;	/* each round a new Dreiermann (DM-2) */

		while (dice_dm_next_player(&cfg, &s) != dm) {
			m = mv_choose(1, 1);
			ok(&cfg, &s, &m, &r);
		}
		m = mv_choose(3, 5);
		ok(&cfg, &s, &m, &r);
		assert_int_equal(s.dreiermann, dm);
		for (int k = 0; k < 4; k++) {
			/* the player left of the Dreiermann rolls 8 once: 1 for himself */
			m = mv_turn(k == 0 ? "26,24" : "24");
			ok(&cfg, &s, &m, &r);
		}
	}
	assert_true(r.over);
	assert_int_equal(s.phase, DICE_DM_OVER);
	/* Left of p2, p3, p4, p1, p2: p3, p4, p1, p2, p3. */
	assert_int_equal(s.sips[0], 1);
	assert_int_equal(s.sips[1], 1);
	assert_int_equal(s.sips[2], 2);
	assert_int_equal(s.sips[3], 1);
	assert_int_equal(dice_dm_winner(&cfg, &s), DICE_NOBODY);	/* three tied on 1 */
	m = mv_turn("24");
	bad(&cfg, &s, &m, "type: the game is over after 5 rounds (DM-14)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dice_dm5_penalties_by_sum),
		cmocka_unit_test(test_dice_dm6_each_three_hits_the_dreiermann),
		cmocka_unit_test(test_dice_dm7_double_five_shared_two_and_three),
		cmocka_unit_test(test_dice_dm8_double_three_with_double_dreiermann_gives_six),
		cmocka_unit_test(test_dice_dm9_split_double_six_costs_the_roller),
		cmocka_unit_test(test_dice_dm10_double_four_also_counts_as_eight),
		cmocka_unit_test(test_dice_dm11_revenge_turns_the_threes_on_the_others),
		cmocka_unit_test(test_dice_dm11_revenge_sum_three_goes_to_the_others),
		cmocka_unit_test(test_dice_dm11a_house_rule_keeps_sum_three_with_the_dreiermann),
		cmocka_unit_test(test_dice_dm1_dm2_dm3_choosing_and_order),
		cmocka_unit_test(test_dice_dm4_turn_ends_on_the_first_harmless_roll),
		cmocka_unit_test(test_dice_dm12_advanced_house_rules),
		cmocka_unit_test(test_dice_dm13_sips_tally_and_double_six_empties),
		cmocka_unit_test(test_dice_dm14_five_rounds_then_over),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
