/* BD-P5 under house rule low_call=auto: "if in doubt, the throw was too
 * low", doubt measured as for any call (review_below): with the measured
 * apex's standard deviation known, the throw is low when P(apex >=
 * min_toss_height_m) < review_below. Also the match log's apex_sd_m field
 * (parser, canonical writer) and the ruling's note. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "bd_spec.h"

/* A first throw by a1 landing on B's half and reaching the floor (BD-P1:
 * a point unless dead), judged under house rule `low` with the given
 * measured apex and sd; err gets bd_judge's message. */
static int judge_apex(enum bd_low_call low, double apex, double sd, struct bd_ruling *r,
		      char *err, size_t errlen)
{
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct bd_throw t = spec_throw("tB f");

	bd_match_cfg_init(&cfg);
	cfg.house.low_call = low;
	bd_state_init(&s, &cfg);
	t.thrower = 0;
	t.apex_m = apex;
	t.apex_sd_m = sd;
	return bd_judge(&cfg, &s, &t, r, err, errlen);
}

static struct bd_ruling ruled(enum bd_low_call low, double apex, double sd)
{
	struct bd_ruling r;
	char err[256] = "";

	if (judge_apex(low, apex, sd, &r, err, sizeof(err)))
		fail_msg("bd_judge: %s", err);
	return r;
}

/* BD-P5: an apex several sd above the 3.0 m minimum is surely high: the
 * throw scores (BD-P1) and carries no note. */
static void test_bd_p5_auto_apex_well_above_minimum_is_not_low(void **state)
{
	struct bd_ruling r = ruled(BD_LOW_AUTO, 3.40, 0.08);

	(void)state;
	assert_false(r.dead);
	assert_int_equal(r.points[BD_TEAM_A], 1);
	assert_string_equal(r.note, "");
	/* One sd above: P 0.84, not in doubt at review_below 0.8. */
	r = ruled(BD_LOW_AUTO, 3.08, 0.08);
	assert_false(r.dead);
}

/* BD-P5 "if in doubt, the throw was too low": measured half a sd above
 * the minimum, P(apex >= 3.0) is 0.69 < review_below 0.8: low, dead, and
 * the note says why with the numbers. The old rule (apex < minimum) let
 * this throw score. */
static void test_bd_p5_auto_apex_a_fraction_of_a_sd_above_minimum_is_low(void **state)
{
	struct bd_ruling r = ruled(BD_LOW_AUTO, 3.04, 0.08);

	(void)state;
	assert_true(r.dead);
	assert_int_equal(r.points[BD_TEAM_A], 0);
	assert_int_equal(r.points[BD_TEAM_B], 0);
	assert_int_equal(r.n_why, 1);
	assert_string_equal(r.why[0], "BD-P5");
	assert_string_equal(r.note, "too low: the measured toss height, 3.04 m +- 0.08, is not "
			    "surely above the minimum, 3.00 m (P 0.69 < 0.80, BD-P5)");
}

/* bd_low_auto for t measured at apex +- sd, the house's review_below
 * set to below (h and t keep the values). */
static bool low_at(struct bd_house *h, struct bd_throw *t, double apex, double sd, double below)
{
	t->apex_m = apex;
	t->apex_sd_m = sd;
	h->review_below = below;
	return bd_low_auto(h, t, NULL, 0);
}

/* The doubt threshold is the house's review_below, not a constant: at
 * 0.6 the same half-sd margin (P 0.69) is no longer in doubt. */
static void test_bd_p5_auto_doubt_follows_review_below(void **state)
{
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct bd_throw t = spec_throw("tB f");
	struct bd_ruling r;
	char err[256] = "";

	(void)state;
	bd_match_cfg_init(&cfg);
	cfg.house.low_call = BD_LOW_AUTO;
	cfg.house.review_below = 0.6;
	bd_state_init(&s, &cfg);
	t.apex_m = 3.04;
	t.apex_sd_m = 0.08;
	assert_int_equal(bd_judge(&cfg, &s, &t, &r, err, sizeof(err)), 0);
	assert_false(r.dead);
	assert_false(bd_low_auto(&cfg.house, &t, NULL, 0));
	cfg.house.review_below = 0.8;
	assert_true(bd_low_auto(&cfg.house, &t, NULL, 0));
	/* A house that sends little to review still calls low a height
	 * measured below the minimum (BD-S7: every throw must go that high):
	 * 2.9 m +- 0.1 reaches 3.0 m with P 0.16, 1.0 m +- 0.05 never. */
	assert_true(low_at(&cfg.house, &t, 2.9, 0.1, 0.1));
	assert_int_equal(bd_judge(&cfg, &s, &t, &r, err, sizeof(err)), 0);
	assert_true(r.dead);
	assert_true(low_at(&cfg.house, &t, 1.0, 0.05, 0));
	/* Above it by a sd, P 0.84: high at that house, low at 0.9. */
	assert_false(low_at(&cfg.house, &t, 3.1, 0.1, 0.1));
	assert_true(low_at(&cfg.house, &t, 3.1, 0.1, 0.9));
}

/* BD-P5 manual (the default): the referee calls nothing from the apex,
 * however low or doubtful it is. */
static void test_bd_p5_manual_ignores_the_measured_apex(void **state)
{
	struct bd_ruling r = ruled(BD_LOW_MANUAL, 3.04, 0.08);

	(void)state;
	assert_false(r.dead);
	assert_int_equal(r.points[BD_TEAM_A], 1);
	assert_string_equal(r.note, "");
	r = ruled(BD_LOW_MANUAL, 1.0, 0.08);
	assert_false(r.dead);
}

/* BD-P5 auto without a known sd (0 or less): the rule as before, the
 * apex taken as exact: below the minimum low, at or above it not. */
static void test_bd_p5_auto_unknown_sd_keeps_the_exact_comparison(void **state)
{
	struct bd_ruling r = ruled(BD_LOW_AUTO, 3.04, -1);

	(void)state;
	assert_false(r.dead);
	r = ruled(BD_LOW_AUTO, 3.0, 0);
	assert_false(r.dead);
	r = ruled(BD_LOW_AUTO, 2.95, -1);
	assert_true(r.dead);
	assert_string_equal(r.note, "too low: the measured toss height, 2.95 m, is below the "
			    "minimum, 3.00 m (BD-P5)");
	/* No apex at all: no automatic call, whatever the sd says. */
	r = ruled(BD_LOW_AUTO, -1, 0.08);
	assert_false(r.dead);
}

/* A NaN or infinite sd is refused like a NaN apex_m. */
static void test_bd_judge_refuses_a_nan_or_infinite_apex_sd(void **state)
{
	struct bd_ruling r;
	char err[256] = "";

	(void)state;
	assert_int_equal(judge_apex(BD_LOW_AUTO, 3.2, NAN, &r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "apex_sd_m: not a finite number");
	assert_int_equal(judge_apex(BD_LOW_AUTO, 3.2, INFINITY, &r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "apex_sd_m: not a finite number");
}

/* ---- The match log's apex_sd_m ---------------------------------------- */

/* Parsed, judged (BD-P5: the note in the ruling line) and written back
 * byte for byte; a throw without it stays as it was (no field written). */
static void test_mlog_apex_sd_round_trips_and_judges_bd_p5(void **state)
{
	static const char text[] =
		"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],"
		"\"B\":[\"b1\",\"b2\"]},\"house\":{\"low_call\":\"auto\"}}\n"
		"{\"type\":\"throw\",\"dye_up\":true,\"apex_m\":3.04,\"apex_sd_m\":0.08,\"events\":"
		"[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}\n"
		"{\"type\":\"throw\",\"dye_up\":true,\"apex_m\":3.04,\"events\":"
		"[{\"at\":\"table\",\"half\":\"A\"},{\"at\":\"floor\"}]}\n";
	struct mlog_bd *log = NULL, *again = NULL;
	char err[256] = "";
	char *out = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(mlog_bd_parse("t.jsonl", text, strlen(text), &log, err, sizeof(err)), 0);
	assert_true(log->entries[0].t.apex_sd_m == 0.08);
	assert_false(log->entries[1].t.apex_sd_m > 0);
	assert_int_equal(mlog_bd_write(log, &out, &len), 0);
	assert_string_equal(out, text);
	assert_int_equal(mlog_bd_parse("t.jsonl", out, len, &again, err, sizeof(err)), 0);
	assert_true(mlog_bd_equal(log, again));
	again->entries[0].t.apex_sd_m = 0.09;
	assert_false(mlog_bd_equal(log, again));
	free(out);
	out = NULL;
	assert_int_equal(mlog_bd_judge(log, &out, &len, err, sizeof(err)), 0);
	assert_non_null(strstr(out, "\"dead\":true,\"review\":false,\"why\":[\"BD-P5\"],\"duties\":[],"
				    "\"note\":\"too low: the measured toss height, 3.04 m +- 0.08, is not "
				    "surely above the minimum, 3.00 m (P 0.69 < 0.80, BD-P5)\"}"));
	free(out);
	mlog_bd_free(again);
	mlog_bd_free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bd_p5_auto_apex_well_above_minimum_is_not_low),
		cmocka_unit_test(test_bd_p5_auto_apex_a_fraction_of_a_sd_above_minimum_is_low),
		cmocka_unit_test(test_bd_p5_auto_doubt_follows_review_below),
		cmocka_unit_test(test_bd_p5_manual_ignores_the_measured_apex),
		cmocka_unit_test(test_bd_p5_auto_unknown_sd_keeps_the_exact_comparison),
		cmocka_unit_test(test_bd_judge_refuses_a_nan_or_infinite_apex_sd),
		cmocka_unit_test(test_mlog_apex_sd_round_trips_and_judges_bd_p5),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
