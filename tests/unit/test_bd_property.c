/* Beer Die engine properties over thousands of random legal matches (fixed
 * seed, so a failure is reproducible): scores never decrease, the game ends
 * exactly when BD-W1 says, judging throw by throw equals bd_fold, folding
 * twice gives identical rulings, and BD-D1/BD-T3/BD-P9 hold throughout, as
 * do BD-W2 and BD-P11 written again independently of the engine. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "tests/unit/bd_spec.h"
#include "tests/support/cites.h"

#define MATCHES    10000
#define MAX_THROWS 600

/* splitmix64: small, and independent of the code under test. */
static uint64_t rng_next(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static int pick(uint64_t *x, int n)
{
	return (int)(rng_next(x) % (uint64_t)n);
}

static bool chance(uint64_t *x, int percent)
{
	return pick(x, 100) < percent;
}

static struct bd_event *push(struct bd_throw *t, enum bd_ev_kind kind)
{
	return spec_push(t, kind);
}

/* A random legal throw: plausible paths, and also odd ones (kicks, pops,
 * catches over the table, the mine), with every field in range. */
static void random_throw(uint64_t *x, struct bd_throw *t)
{
	struct bd_event *e;

	memset(t, 0, sizeof(*t));
	t->thrower = chance(x, 10) ? pick(x, BD_PLAYERS) : BD_NOBODY;
	t->dye_up = !chance(x, 5);
	t->apex_m = chance(x, 30) ? 1.5 + pick(x, 300) / 100.0 : -1;
	if (chance(x, 3))
		push(t, BD_EV_LOW_CALL)->player = chance(x, 20) ? BD_NOBODY : pick(x, BD_PLAYERS);
	if (chance(x, 8)) {
		e = push(t, BD_EV_KICK);
		e->player = pick(x, BD_PLAYERS);
		snprintf(e->part, sizeof(e->part), "%s", chance(x, 25) ? "thigh" : "foot");
	}
	int contacts = pick(x, 4);

	for (int i = 0; i < contacts; i++) {
		if (chance(x, 70)) {
			e = push(t, BD_EV_TABLE);
			e->half = pick(x, 10) < 8 ? (pick(x, 2) ? BD_HALF_A : BD_HALF_B) : BD_HALF_LINE;
		} else {
			e = push(t, BD_EV_CUP);
			e->player = pick(x, BD_PLAYERS);
			e->popout = chance(x, 15);
			e->sink = e->popout;
		}
		if (chance(x, 10)) {
			e->has_confidence = true;
			e->confidence = pick(x, 101) / 100.0;
		}
		if (chance(x, 3))
			push(t, BD_EV_MINE);
	}
	switch (pick(x, 6)) {
	case 0:
	case 1:
		push(t, BD_EV_FLOOR);
		break;
	case 2:
		e = push(t, BD_EV_CATCH);
		e->player = pick(x, BD_PLAYERS);
		e->hands = chance(x, 80) ? 1 : 2;
		e->trapped = chance(x, 10);
		e->over_table = chance(x, 10);
		break;
	case 3:
		e = push(t, BD_EV_CUP);
		e->player = pick(x, BD_PLAYERS);
		e->sink = true;
		break;
	case 4:
		push(t, BD_EV_REST)->face = 1 + pick(x, 6);
		break;
	default:
		break;	/* the log ends mid-flight */
	}
	if (chance(x, 3))
		push(t, BD_EV_RETOSS);
}

static void random_cfg(uint64_t *x, struct bd_match_cfg *cfg)
{
	bd_match_cfg_init(cfg);
	cfg->first_team = pick(x, 2);
	if (chance(x, 50))
		return;	/* the defaults, half the time */
	cfg->house.target_points = 1 + pick(x, 15);
	cfg->house.win_by = 1 + pick(x, 3);
	cfg->house.kill_every = pick(x, 7);
	cfg->house.low_call = chance(x, 50) ? BD_LOW_AUTO : BD_LOW_MANUAL;
	cfg->house.illegal_catch_counts_as_floor = chance(x, 50);
	cfg->house.fifa_cannot_end_game = chance(x, 50);
	cfg->house.popout_is_sink = chance(x, 50);
	cfg->house.mine_voids_points = chance(x, 50);
}

/* BD-W1 written again, independently of bd_score_over(). */
static bool oracle_over(const struct bd_house *h, const int score[2])
{
	int hi = score[0] > score[1] ? score[0] : score[1];
	int lo = score[0] > score[1] ? score[1] : score[0];

	return hi >= h->target_points && hi - lo >= h->win_by;
}

static int count_duties(const struct bd_ruling *r, enum bd_duty_kind kind, int player)
{
	int n = 0;

	for (size_t i = 0; i < r->n_duties; i++)
		n += r->duties[i].kind == kind && r->duties[i].player == player;
	return n;
}

/* BD-W2 written again: a team passing a multiple of kill_every makes both
 * opponents kill n' fill; a BD-W2 kill n' fill only comes from that. */
static void check_kill_at_multiples(const struct bd_house *h, const struct bd_state *before,
				    const struct bd_ruling *r)
{
	bool passed[BD_TEAMS] = { false, false };

	if (r->retoss)
		return;
	for (int team = 0; team < BD_TEAMS; team++)
		passed[team] = h->kill_every > 0 &&
			       r->score[team] / h->kill_every > before->score[team] / h->kill_every;
	for (int p = 0; p < BD_PLAYERS; p++) {
		bool owed = passed[1 - p / 2];

		if (owed)
			assert_int_equal(count_duties(r, BD_DUTY_KILL_N_FILL, p), 1);
		for (size_t i = 0; i < r->n_duties; i++)
			if (r->duties[i].player == p && strcmp(r->duties[i].why, "BD-W2") == 0)
				assert_true(owed);
	}
	assert_int_equal(CITES(r, "BD-W2"), passed[0] || passed[1]);
}

/* BD-P11 written again, from the sinks alone: a sunk player follows on the
 * first later throw that gives the opponents points, once. */
static void check_follow(bool follow[BD_PLAYERS], const struct bd_ruling *r)
{
	if (r->retoss) {
		for (int p = 0; p < BD_PLAYERS; p++)
			assert_int_equal(count_duties(r, BD_DUTY_FOLLOW_PARTNER, p), 0);
		return;
	}
	for (int p = 0; p < BD_PLAYERS; p++) {
		bool due = follow[p] && r->points[1 - p / 2] > 0;

		assert_int_equal(count_duties(r, BD_DUTY_FOLLOW_PARTNER, p), due);
		if (due)
			follow[p] = false;
		if (r->sunk[p])
			follow[p] = true;
	}
}

static struct bd_throw throws[MAX_THROWS];
static struct bd_ruling live[MAX_THROWS], fold1[MAX_THROWS], fold2[MAX_THROWS];

static void check_ruling(const struct bd_match_cfg *cfg, const struct bd_state *before,
			 const struct bd_throw *t, const struct bd_ruling *r)
{
	/* BD-T3: the order names the thrower unless the log does. */
	int expect = t->thrower != BD_NOBODY ? t->thrower : bd_next_thrower(before, cfg);
	char text[BD_RULE_TEXT_MAX];

	assert_int_equal(r->thrower, expect);
	assert_int_equal(r->team, BD_TEAM_OF(expect));
	for (int team = 0; team < BD_TEAMS; team++) {
		assert_true(r->points[team] >= 0);
		assert_int_equal(r->score[team], before->score[team] + r->points[team]);
	}
	/* BD-W1, exactly. */
	assert_int_equal(r->over, oracle_over(&cfg->house, r->score));
	if (r->over)
		assert_int_equal(r->winner, r->score[0] > r->score[1] ? BD_TEAM_A : BD_TEAM_B);
	else
		assert_int_equal(r->winner, BD_NOBODY);
	/* BD-P9: void. */
	if (r->retoss) {
		assert_int_equal(r->points[0] + r->points[1], 0);
		assert_int_equal(r->n_duties, 0);
	}
	/* BD-D1: at most one kill n' fill per player; every rule ID known,
	 * none twice. */
	for (size_t i = 0; i < r->n_duties; i++) {
		assert_non_null(bd_rule_text(r->duties[i].why, &cfg->house, text, sizeof(text)));
		for (size_t k = i + 1; k < r->n_duties; k++)
			assert_false(r->duties[i].kind == r->duties[k].kind &&
				     r->duties[i].player == r->duties[k].player &&
				     r->duties[i].kind == BD_DUTY_KILL_N_FILL);
	}
	assert_true(r->n_why >= 1);
	for (size_t i = 0; i < r->n_why; i++) {
		assert_non_null(bd_rule_text(r->why[i], &cfg->house, text, sizeof(text)));
		for (size_t k = i + 1; k < r->n_why; k++)
			assert_string_not_equal(r->why[i], r->why[k]);
	}
}

static void test_bd_property_random_matches(void **state)
{
	uint64_t x = 20261122;
	int ended = 0, fifa = 0, reviews = 0, penalties_on_void = 0;

	(void)state;
	for (int match = 0; match < MATCHES; match++) {
		struct bd_match_cfg cfg;
		struct bd_state s, s1, s2;
		char err[256];
		size_t n = 0, bad = 0;
		bool follow[BD_PLAYERS] = { false };

		random_cfg(&x, &cfg);
		bd_state_init(&s, &cfg);
		while (!s.over && n < MAX_THROWS) {
			struct bd_state before = s;

			random_throw(&x, &throws[n]);
			assert_int_equal(bd_judge(&cfg, &s, &throws[n], &live[n], err, sizeof(err)), 0);
			check_ruling(&cfg, &before, &throws[n], &live[n]);
			check_kill_at_multiples(&cfg.house, &before, &live[n]);
			check_follow(follow, &live[n]);
			bd_apply(&s, &cfg, &live[n]);
			/* Scores never decrease. */
			assert_true(s.score[0] >= before.score[0] && s.score[1] >= before.score[1]);
			assert_int_equal(s.slot, before.slot + (live[n].retoss ? 0 : 1));
			fifa += live[n].fifa;
			reviews += live[n].review;
			for (size_t w = 0; w < live[n].n_why; w++)
				penalties_on_void += strcmp(live[n].why[w], "BD-P2a") == 0;
			n++;
		}
		if (s.over) {
			struct bd_throw more;
			struct bd_ruling refused;

			ended++;
			random_throw(&x, &more);
			assert_int_equal(bd_judge(&cfg, &s, &more, &refused, err, sizeof(err)), -EINVAL);
			assert_string_equal(err, "the game is over");
		}
		/* Folding equals judging one by one, and twice gives the same. */
		assert_int_equal(bd_fold(&cfg, throws, n, &s1, fold1, &bad, err, sizeof(err)), 0);
		assert_int_equal(bd_fold(&cfg, throws, n, &s2, fold2, &bad, err, sizeof(err)), 0);
		assert_memory_equal(&s1, &s, sizeof(s));
		assert_memory_equal(&s1, &s2, sizeof(s));
		for (size_t i = 0; i < n; i++) {
			assert_true(ruling_same(&fold1[i], &fold2[i]));
			assert_true(ruling_same(&fold1[i], &live[i]));
		}
	}
	/* The generator reaches the interesting parts of the rules. */
	assert_true(ended > MATCHES * 9 / 10);
	assert_true(fifa > 100);
	assert_true(reviews > 100);
	assert_true(penalties_on_void > 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bd_property_random_matches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
