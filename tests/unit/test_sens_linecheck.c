/* The line check (sensors/linecheck.c): a line's edges judged against what
 * impacts make, on their own timestamps; a faulty line quarantined until
 * it has looked sane for the settle time; the simulated table's hits, at
 * doubled noise, never taken for a fault (docs/sensors.md "Line check"). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sensors/sensors.h"
#include "sim/sim.h"

#define MS 1000000LL
#define S 1000000000LL

static struct sens_linecheck *check_for(enum sens_role role)
{
	struct sens_linecheck_cfg c;
	struct sens_linecheck *lc;

	sens_linecheck_defaults(&c, role);
	lc = sens_linecheck_new(&c);
	assert_non_null(lc);
	return lc;
}

/* Feeds n edges from t, gap apart; returns the fault of the last. */
static enum sens_line_fault feed(struct sens_linecheck *lc, int64_t t, int64_t gap, int n)
{
	enum sens_line_fault f = SENS_LINE_SANE;

	for (int i = 0; i < n; i++)
		f = sens_linecheck_edge(lc, t + i * gap);
	return f;
}

/* The recording: one edge, then 1,499 edges 1 us apart. The 16th
 * edge, 15 us in, shows it. */
static void test_sens_linecheck_floating_burst(void **state)
{
	struct sens_linecheck *lc = check_for(SENS_ROLE_FLOOR);

	(void)state;
	assert_int_equal(sens_linecheck_until(lc), INT64_MIN);
	assert_int_equal(feed(lc, 1 * S, 1000, 15), SENS_LINE_SANE);
	assert_int_equal(sens_linecheck_fault(lc, 1 * S + 14000), SENS_LINE_SANE);
	assert_int_equal(sens_linecheck_edge(lc, 1 * S + 15000), SENS_LINE_FLOATING);
	assert_string_equal(sens_linecheck_why(lc), "16 edges in 0.015 ms");
	assert_int_equal(feed(lc, 1 * S + 16000, 1000, 1484), SENS_LINE_FLOATING);
	assert_int_equal(sens_linecheck_fault(lc, 1 * S + 1499000), SENS_LINE_FLOATING);
	assert_string_equal(sens_line_fault_name(SENS_LINE_FLOATING), "floating");
	sens_linecheck_free(lc);
}

/* Recovery: sane again once the settle time (10 s) has passed since the
 * last faulty edge, not a nanosecond before; a faulty edge meanwhile
 * starts the settle again. */
static void test_sens_linecheck_recovers_after_the_settle_time(void **state)
{
	struct sens_linecheck *lc = check_for(SENS_ROLE_FLOOR);
	int64_t last = 1 * S + 1499000;

	(void)state;
	feed(lc, 1 * S, 1000, 1500);
	assert_int_equal(sens_linecheck_until(lc), last + 10 * S);
	assert_int_equal(sens_linecheck_fault(lc, last + 10 * S - 1), SENS_LINE_FLOATING);
	assert_int_equal(sens_linecheck_fault(lc, last + 10 * S), SENS_LINE_SANE);
	/* a hit during the settle is sane, and does not start it again */
	assert_int_equal(sens_linecheck_edge(lc, 5 * S), SENS_LINE_SANE);
	assert_int_equal(sens_linecheck_until(lc), last + 10 * S);
	/* a second burst does */
	assert_int_equal(feed(lc, 8 * S, 1000, 16), SENS_LINE_FLOATING);
	assert_int_equal(sens_linecheck_fault(lc, last + 10 * S), SENS_LINE_FLOATING);
	assert_int_equal(sens_linecheck_fault(lc, 8 * S + 15000 + 10 * S), SENS_LINE_SANE);
	/* and the line is trusted again: a hit is a hit */
	assert_int_equal(sens_linecheck_edge(lc, 30 * S), SENS_LINE_SANE);
	assert_int_equal(sens_linecheck_fault(lc, 30 * S), SENS_LINE_SANE);
	sens_linecheck_free(lc);
}

/* 8 edges a hit (ringing-like, 0.8 ms apart), a hit every 2 s: the old
 * check (10 a hit on average) never flagged it. The third such hit does. */
static void test_sens_linecheck_chatter_at_8_edges_a_hit(void **state)
{
	struct sens_linecheck *lc = check_for(SENS_ROLE_CUP);

	(void)state;
	assert_int_equal(feed(lc, 1 * S, 800000, 8), SENS_LINE_SANE);
	assert_int_equal(feed(lc, 3 * S, 800000, 8), SENS_LINE_SANE);
	assert_int_equal(feed(lc, 5 * S, 800000, 6), SENS_LINE_SANE);
	assert_int_equal(sens_linecheck_edge(lc, 5 * S + 6 * 800000), SENS_LINE_CHATTERING);
	assert_string_equal(sens_linecheck_why(lc), "3 hits in a row of 7 edges or more");
	assert_int_equal(sens_linecheck_fault(lc, 6 * S), SENS_LINE_CHATTERING);
	sens_linecheck_free(lc);
}

/* One edge a hit, but ten hits a second on a floor strip: no die hits a
 * strip that often (the simulated table: 1 a second at most). */
static void test_sens_linecheck_chatter_by_the_rate_of_hits(void **state)
{
	struct sens_linecheck *lc = check_for(SENS_ROLE_FLOOR);

	(void)state;
	assert_int_equal(feed(lc, 1 * S, 100 * MS, 7), SENS_LINE_SANE);
	assert_int_equal(sens_linecheck_edge(lc, 1 * S + 700 * MS), SENS_LINE_CHATTERING);
	assert_string_equal(sens_linecheck_why(lc), "8 hits in 0.70 s");
	sens_linecheck_free(lc);
	/* a table line's die bounces: 20 a second is not yet too many */
	lc = check_for(SENS_ROLE_TABLE);
	assert_int_equal(feed(lc, 1 * S, 50 * MS, 20), SENS_LINE_SANE);
	sens_linecheck_free(lc);
}

/* Firing again the moment each hit's window ends (21 ms apart): after
 * 200 ms it is stuck, longer than any die's bounces go on (30 ms on the
 * simulated table). */
static void test_sens_linecheck_stuck(void **state)
{
	struct sens_linecheck *lc = check_for(SENS_ROLE_TABLE);

	(void)state;
	assert_int_equal(feed(lc, 1 * S, 21 * MS, 10), SENS_LINE_SANE);	/* 189 ms */
	assert_int_equal(sens_linecheck_edge(lc, 1 * S + 210 * MS), SENS_LINE_STUCK);
	assert_string_equal(sens_linecheck_why(lc), "firing for 0.21 s");
	sens_linecheck_free(lc);
	/* a cup line held firing (an edge a millisecond): chatter first,
	 * then stuck */
	lc = check_for(SENS_ROLE_CUP);
	assert_int_equal(feed(lc, 1 * S, 1 * MS, 46), SENS_LINE_SANE);
	assert_int_equal(sens_linecheck_edge(lc, 1 * S + 46 * MS), SENS_LINE_CHATTERING);
	assert_int_equal(feed(lc, 1 * S + 47 * MS, 1 * MS, 1000), SENS_LINE_STUCK);
	assert_int_equal(sens_linecheck_fault(lc, 3 * S), SENS_LINE_STUCK);
	sens_linecheck_free(lc);
}

/* Edges out of order (descriptors read one after another) count at the
 * latest time: no wrap-around, no fault from disorder alone. */
static void test_sens_linecheck_disorder_and_extremes(void **state)
{
	struct sens_linecheck *lc = check_for(SENS_ROLE_MINE);
	struct sens_linecheck_cfg c;

	(void)state;
	assert_int_equal(sens_linecheck_edge(lc, INT64_MAX - 5), SENS_LINE_SANE);
	assert_int_equal(sens_linecheck_edge(lc, INT64_MIN), SENS_LINE_SANE);
	assert_int_equal(sens_linecheck_edge(lc, 0), SENS_LINE_SANE);
	sens_linecheck_free(lc);
	lc = check_for(SENS_ROLE_MINE);
	assert_int_equal(feed(lc, INT64_MAX - 100000, 1, 20), SENS_LINE_FLOATING);
	assert_int_equal(sens_linecheck_until(lc), INT64_MAX);
	sens_linecheck_free(lc);
	sens_linecheck_free(NULL);

	sens_linecheck_defaults(&c, SENS_ROLE_FLOOR);
	c.float_edges = SENS_FLOAT_RING + 1;
	errno = 0;
	assert_null(sens_linecheck_new(&c));
	assert_int_equal(errno, EINVAL);
	sens_linecheck_defaults(&c, SENS_ROLE_FLOOR);
	c.chatter_hits = 0;
	assert_null(sens_linecheck_new(&c));
	assert_null(sens_linecheck_new(NULL));
}

/* What the thresholds were set against: whole simulated matches at doubled
 * noise (ringing up to 4 edges a hit, false edges, misses), every line's
 * edges through its check, and not one fault. */
static void test_sens_linecheck_simulated_matches_stay_sane(void **state)
{
	struct sim_match_cfg mc;
	struct sim_noise noise;
	struct sens_config sc;
	struct bd_table tb;
	struct sim_rng play, sense;
	char err[256];
	size_t edges_seen = 0;

	(void)state;
	sim_match_cfg_defaults(&mc);
	sim_noise_defaults(&noise, 2);
	sim_sens_config(&sc);
	bd_table_defaults(&tb);
	sim_rng_seed(&play, 2026);
	sim_rng_seed(&sense, 2027);
	for (int m = 0; m < 24; m++) {
		struct sim_match *match = NULL;
		struct sens_edge *e = NULL;
		size_t n = 0, cap = 0;
		struct sens_linecheck *lc[SENS_MAX_LINES];

		assert_int_equal(sim_match_play(&mc, &tb, (int64_t)(m + 1) * 3600 * S, &play, &match,
						err, sizeof(err)), 0);
		for (size_t i = 0; i < match->n_throws; i++)
			assert_int_equal(sim_sense_edges(&noise, &sc, &match->throws[i], &sense, &e, &n,
							 &cap), 0);
		sens_edges_sort(e, n);
		for (size_t i = 0; i < sc.n_lines; i++)
			lc[i] = check_for(sc.lines[i].role);
		for (size_t i = 0; i < n; i++) {
			int idx = sens_config_line_by_offset(&sc, e[i].line);

			assert_true(idx >= 0);
			if (sens_linecheck_edge(lc[idx], e[i].ts_ns) != SENS_LINE_SANE)
				fail_msg("match %d: %s at %lld ns: %s", m, sc.lines[idx].name,
					 (long long)e[i].ts_ns, sens_linecheck_why(lc[idx]));
		}
		edges_seen += n;
		for (size_t i = 0; i < sc.n_lines; i++)
			sens_linecheck_free(lc[i]);
		free(e);
		sim_match_free(match);
	}
	assert_true(edges_seen > 15000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sens_linecheck_floating_burst),
		cmocka_unit_test(test_sens_linecheck_recovers_after_the_settle_time),
		cmocka_unit_test(test_sens_linecheck_chatter_at_8_edges_a_hit),
		cmocka_unit_test(test_sens_linecheck_chatter_by_the_rate_of_hits),
		cmocka_unit_test(test_sens_linecheck_stuck),
		cmocka_unit_test(test_sens_linecheck_disorder_and_extremes),
		cmocka_unit_test(test_sens_linecheck_simulated_matches_stay_sane),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
