/* Properties of judging a match log, over thousands of random legal logs
 * (fixed seed), each built in memory and written with the canonical
 * writer, then read back as the judge would read it:
 *  - parse(write(x)) == x, and writing again gives the same bytes;
 *  - judging the same log twice gives byte-identical output;
 *  - a "correct" line that restates a throw unchanged changes nothing but
 *    that throw's "corrected" flag (event sourcing: corrections refold);
 *  - judging a prefix of the log gives the prefix of the rulings;
 *  - scores never decrease (BD-W1), and the game ends exactly when a team
 *    has at least target_points and leads by win_by (BD-W1, BD-K2a). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "sim/sim.h"

#define MATCHES    2000
#define MAX_THROWS 120	/* a match that runs longer stops unfinished */

static int pick(struct sim_rng *r, int n)
{
	return (int)(sim_rng_next(r) % (uint64_t)n);
}

static struct bd_event ev(enum bd_ev_kind kind)
{
	struct bd_event e;

	memset(&e, 0, sizeof(e));
	e.kind = kind;
	e.player = BD_NOBODY;
	e.confidence = 1.0;
	return e;
}

/* A table landing, with coordinates and measurement details at random. */
static struct bd_event table_ev(struct sim_rng *r, enum bd_half half)
{
	struct bd_event e = ev(BD_EV_TABLE);
	struct bd_table t;

	bd_table_defaults(&t);
	e.half = half;
	if (pick(r, 2)) {
		e.has_xy = true;
		e.y = sim_rng_uniform(r) * t.width_m;
		if (half == BD_HALF_A)
			e.x = sim_rng_uniform(r) * (t.length_m / 2 - t.line_width_m);
		else if (half == BD_HALF_B)
			e.x = t.length_m / 2 + t.line_width_m + sim_rng_uniform(r) * (t.length_m / 2 - t.line_width_m);
		else
			e.x = t.length_m / 2;
	}
	return e;
}

/* Doubt and provenance, sometimes, on any event. */
static void decorate(struct sim_rng *r, struct bd_event *e)
{
	static const char *const sources[] = { "piezo", "camera", "console" };

	if (pick(r, 3) == 0)
		snprintf(e->source, sizeof(e->source), "%s", sources[pick(r, 3)]);
	if (pick(r, 4) == 0) {
		e->has_confidence = true;
		e->confidence = pick(r, 2) ? 1.0 : sim_rng_uniform(r);
	}
	if (pick(r, 4) == 0)
		e->t_ns = (int64_t)(sim_rng_next(r) >> 2);
}

/* One throw by whoever is next: a realistic sequence most of the time,
 * a random jumble of events now and then (the engine judges any). */
static void random_throw(struct sim_rng *r, int attackers, struct bd_throw *t)
{
	int def = BD_OTHER(attackers);
	int d1 = def * 2 + pick(r, 2);		/* a defender */
	int d2 = def * 2 + (d1 % 2 ? 0 : 1);	/* the other */
	enum bd_half dh = def == BD_TEAM_A ? BD_HALF_A : BD_HALF_B;
	enum bd_half ah = dh == BD_HALF_A ? BD_HALF_B : BD_HALF_A;
	size_t n = 0;

	memset(t, 0, sizeof(*t));
	t->thrower = pick(r, 10) == 0 ? pick(r, BD_PLAYERS) : BD_NOBODY;
	t->dye_up = pick(r, 12) != 0;
	t->apex_m = pick(r, 3) == 0 ? 2 + sim_rng_uniform(r) * 3 : -1;
	/* Its sd, sometimes (none without an apex): written back exactly. */
	t->apex_sd_m = t->apex_m >= 0 && pick(r, 2) ? 0.005 + sim_rng_uniform(r) * 0.2 : -1;
	switch (pick(r, 14)) {
	case 0: case 1: case 2:		/* BD-P1: defenders' half, floor */
		t->events[n++] = table_ev(r, dh);
		t->events[n++] = ev(BD_EV_FLOOR);
		break;
	case 3: case 4:			/* BD-P4: caught, one hand or not */
		t->events[n++] = table_ev(r, dh);
		t->events[n] = ev(BD_EV_CATCH);
		t->events[n].player = d1;
		t->events[n].hands = 1 + pick(r, 2);
		t->events[n].trapped = pick(r, 5) == 0;
		t->events[n++].over_table = pick(r, 8) == 0;
		break;
	case 5:				/* BD-P7, BD-P8, BD-R1: a cup */
		t->events[n++] = table_ev(r, dh);
		t->events[n] = ev(BD_EV_CUP);
		t->events[n].player = pick(r, 6) ? d1 : pick(r, BD_PLAYERS);
		t->events[n].sink = pick(r, 2);
		t->events[n].popout = !t->events[n].sink && pick(r, 4) == 0;
		n++;
		if (!t->events[n - 1].sink)
			t->events[n++] = ev(pick(r, 3) ? BD_EV_FLOOR : BD_EV_CATCH);
		if (t->events[n - 1].kind == BD_EV_CATCH) {
			t->events[n - 1].player = d2;
			t->events[n - 1].hands = 1;
		}
		break;
	case 6:				/* BD-P6: short or on the line */
		t->events[n++] = table_ev(r, pick(r, 2) ? ah : BD_HALF_LINE);
		t->events[n++] = ev(BD_EV_FLOOR);
		break;
	case 7:				/* BD-P5: called low */
		t->events[n] = ev(BD_EV_LOW_CALL);
		t->events[n++].player = d1;
		t->events[n++] = table_ev(r, dh);
		t->events[n++] = ev(BD_EV_FLOOR);
		break;
	case 8:				/* BD-O1, BD-O2: the mine, a five */
		t->events[n++] = table_ev(r, dh);
		if (pick(r, 2))
			t->events[n++] = ev(BD_EV_MINE);
		t->events[n] = ev(BD_EV_REST);
		t->events[n++].face = 1 + pick(r, 6);
		break;
	case 9:				/* BD-K: a kick, then whatever */
		t->events[n] = ev(BD_EV_KICK);
		t->events[n].player = d1;
		snprintf(t->events[n++].part, sizeof(t->events[0].part), "%s",
			 pick(r, 4) ? "foot" : "thigh");
		if (pick(r, 2)) {
			t->events[n] = ev(BD_EV_CATCH);
			t->events[n].player = pick(r, 2) ? d2 : d1;
			t->events[n++].hands = 1;
		} else {
			t->events[n++] = table_ev(r, pick(r, 2) ? dh : ah);
			if (pick(r, 3) == 0) {
				t->events[n] = ev(BD_EV_CUP);
				t->events[n].player = pick(r, BD_PLAYERS);
				t->events[n++].sink = pick(r, 2);
			}
			t->events[n++] = ev(BD_EV_FLOOR);
		}
		break;
	case 10:			/* BD-P9 */
		t->events[n++] = table_ev(r, dh);
		t->events[n++] = ev(BD_EV_RETOSS);
		break;
	case 11:			/* BD-P14: never touches the table */
		t->events[n++] = ev(BD_EV_FLOOR);
		break;
	default: {			/* any events at all */
		int k = pick(r, 7);

		for (int i = 0; i < k; i++) {
			struct bd_event e = ev((enum bd_ev_kind)pick(r, BD_EV_RETOSS + 1));

			switch (e.kind) {
			case BD_EV_TABLE:
				e = table_ev(r, (enum bd_half)pick(r, 3));
				break;
			case BD_EV_CUP:
				e.player = pick(r, BD_PLAYERS);
				e.sink = pick(r, 2);
				e.popout = !e.sink && pick(r, 2);
				break;
			case BD_EV_REST:
				e.face = 1 + pick(r, 6);
				break;
			case BD_EV_CATCH:
				e.player = pick(r, BD_PLAYERS);
				e.hands = 1 + pick(r, 2);
				e.trapped = pick(r, 2);
				e.over_table = pick(r, 2);
				break;
			case BD_EV_KICK:
				e.player = pick(r, BD_PLAYERS);
				snprintf(e.part, sizeof(e.part), "%s", pick(r, 2) ? "foot" : "thigh");
				break;
			case BD_EV_LOW_CALL:
				e.player = pick(r, 2) ? pick(r, BD_PLAYERS) : BD_NOBODY;
				break;
			default:
				break;
			}
			t->events[n++] = e;
		}
	}
	}
	for (size_t i = 0; i < n; i++)
		decorate(r, &t->events[i]);
	t->n_events = n;
}

static void random_house(struct sim_rng *r, struct bd_house *h)
{
	bd_house_defaults(h);
	if (pick(r, 3))
		return;
	h->target_points = 1 + pick(r, 12);
	h->win_by = 1 + pick(r, 3);
	h->kill_every = pick(r, 7);	/* 0: no kill n' fill */
	h->illegal_catch_counts_as_floor = pick(r, 2);
	h->fifa_cannot_end_game = pick(r, 2);
	h->popout_is_sink = pick(r, 2);
	h->mine_voids_points = pick(r, 2);
	h->review_below = pick(r, 2) ? 0.8 : sim_rng_uniform(r);
	h->min_toss_height_m = pick(r, 2) ? 3.0 : 2 + sim_rng_uniform(r) * 2;
}

/* A legal log: throws until the game is over (or MAX_THROWS), with a few
 * corrections that change a throw along the way only when the refold
 * still leaves every later throw legal. */
static struct mlog_bd *random_log(struct sim_rng *r)
{
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct mlog_bd *log;

	bd_match_cfg_init(&cfg);
	random_house(r, &cfg.house);
	log = mlog_bd_new("prop", &cfg);
	assert_non_null(log);
	if (pick(r, 2))
		assert_int_equal(mlog_bd_set_rolloff(log, 1 + pick(r, 6), pick(r, 2), pick(r, 2)), 0);
	bd_state_init(&s, &log->cfg);
	while (!s.over && s.n_throws < MAX_THROWS) {
		struct bd_throw t;
		struct bd_ruling ru;
		char err[256];
		int attackers = BD_TEAM_OF(bd_next_thrower(&s, &log->cfg));

		random_throw(r, attackers, &t);
		assert_int_equal(bd_judge(&log->cfg, &s, &t, &ru, err, sizeof(err)), 0);
		bd_apply(&s, &log->cfg, &ru);
		assert_true(mlog_bd_add_throw(log, &t) > 0);
	}
	return log;
}

/* Writes, reads back, checks the round trip; returns the parsed copy. */
static struct mlog_bd *through_text(const struct mlog_bd *log, char **text, size_t *len)
{
	struct mlog_bd *back = NULL;
	char err[256] = "", *again = NULL;
	size_t againlen = 0;

	assert_int_equal(mlog_bd_write(log, text, len), 0);
	if (mlog_bd_parse("prop", *text, *len, &back, err, sizeof(err)))
		fail_msg("canonical log does not parse: %s\n%s", err, *text);
	assert_true(mlog_bd_equal(log, back));
	assert_int_equal(mlog_bd_write(back, &again, &againlen), 0);
	assert_int_equal(againlen, *len);
	assert_memory_equal(again, *text, *len);
	free(again);
	return back;
}

static char *judge_ok(const struct mlog_bd *log, size_t *len)
{
	char err[256] = "", *out = NULL;

	if (mlog_bd_judge(log, &out, len, err, sizeof(err)))
		fail_msg("a legal log fails to judge: %s", err);
	return out;
}

/* Line k (0-based) of text, without its newline, into a fresh string. */
static char *nth_line(const char *text, size_t k)
{
	const char *p = text, *nl;

	for (size_t i = 0; i < k; i++) {
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	nl = strchr(p, '\n');
	assert_non_null(nl);
	return strndup(p, (size_t)(nl - p));
}

static void check_scores(const struct mlog_bd *log)
{
	const struct bd_house *h = &log->cfg.house;
	struct mlog_bd_result res;
	char err[256] = "";
	int prev[2] = { 0, 0 };

	assert_int_equal(mlog_bd_replay(log, &res, err, sizeof(err)), 0);
	for (size_t i = 0; i < res.n; i++) {
		const struct bd_ruling *ru = &res.rulings[i];
		int lead = ru->score[0] - ru->score[1];
		int top = ru->score[0] > ru->score[1] ? ru->score[0] : ru->score[1];
		bool ends = (lead >= h->win_by || -lead >= h->win_by) && top >= h->target_points;

		assert_true(ru->score[0] >= prev[0] && ru->score[1] >= prev[1]);
		assert_int_equal(ru->score[0], prev[0] + ru->points[0]);
		assert_int_equal(ru->score[1], prev[1] + ru->points[1]);
		assert_int_equal(ru->over, ends);		/* BD-W1 */
		assert_true(!ru->over || i + 1 == res.n);	/* nothing after the end */
		if (ru->over)
			assert_int_equal(ru->winner, lead > 0 ? BD_TEAM_A : BD_TEAM_B);
		prev[0] = ru->score[0];
		prev[1] = ru->score[1];
	}
	assert_int_equal(res.final.score[0], prev[0]);
	assert_int_equal(res.final.score[1], prev[1]);
	mlog_bd_result_free(&res);
}

static void test_mlog_property_random_logs(void **state)
{
	struct sim_rng r;
	size_t throws = 0, corrections = 0, finished = 0;

	(void)state;
	sim_rng_seed(&r, 20261122);
	for (int m = 0; m < MATCHES; m++) {
		struct mlog_bd *log = random_log(&r), *back, *prefix;
		char *text, *out1, *out2, *out3, *want, *got;
		size_t len, len1, len2, len3;
		int k;

		throws += log->n_throws;
		back = through_text(log, &text, &len);

		/* Judging twice: the same bytes. */
		out1 = judge_ok(back, &len1);
		out2 = judge_ok(back, &len2);
		assert_int_equal(len1, len2);
		assert_memory_equal(out1, out2, len1);
		check_scores(back);
		if (strstr(out1, "\"over\":true,\"winner\""))
			finished++;

		/* A correct line restating throw k changes only its flag. */
		k = 1 + pick(&r, (int)back->n_throws);
		assert_int_equal(mlog_bd_add_correct(back, k, &back->entries[k - 1].t), 0);
		corrections++;
		free(text);
		mlog_bd_free(log);
		log = through_text(back, &text, &len);
		out3 = judge_ok(log, &len3);
		if (len3 != len1 + strlen(",\"corrected\":true"))
			fprintf(stderr, "match %d, correct of throw %d:\n%s\n---\n%s\n---\n%s", m, k, text, out1, out3), fail();
		assert_int_equal(len3, len1 + strlen(",\"corrected\":true"));
		for (size_t i = 0; i <= back->n_throws; i++) {
			want = nth_line(out1, i);
			got = nth_line(out3, i);
			if (i + 1 == (size_t)k) {
				size_t wl = strlen(want);

				assert_string_equal(got + wl - 1, ",\"corrected\":true}");
				assert_memory_equal(got, want, wl - 1);
			} else {
				assert_string_equal(got, want);
			}
			free(want);
			free(got);
		}

		/* A prefix of the log judges to the prefix of the rulings. */
		prefix = mlog_bd_new("prefix", &back->cfg);
		assert_non_null(prefix);
		prefix->rolloff = back->rolloff;
		for (size_t i = 0; i < (size_t)k; i++)
			assert_true(mlog_bd_add_throw(prefix, &back->entries[i].t) > 0);
		free(out2);
		out2 = judge_ok(prefix, &len2);
		for (size_t i = 0; i < (size_t)k; i++) {
			want = nth_line(out1, i);
			got = nth_line(out2, i);
			assert_string_equal(got, want);
			free(want);
			free(got);
		}

		free(out1);
		free(out2);
		free(out3);
		free(text);
		mlog_bd_free(prefix);
		mlog_bd_free(log);
		mlog_bd_free(back);
	}
	print_message("%d matches, %zu throws, %zu corrections, %zu finished\n", MATCHES,
		      throws, corrections, finished);
	assert_true(finished > MATCHES / 2);	/* the generator reaches game ends */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mlog_property_random_logs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
