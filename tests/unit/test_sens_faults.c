/* A late or missing trigger never gives a confident wrong half (issue 31).
 * Which half the die hit first decides most Beer Die points (BD-P1, BD-P6):
 * a comparator that misses a weak first arrival and fires a cycle or two
 * later (0.2-1 ms), or a disc that does not fire at all, must leave the
 * half right or doubtful (near_line, P below near_line_p), never the wrong
 * half at P >= 0.99. Arrivals here are exact (no noise): the fault alone. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sensors/sensors.h"
#include "tests/support/piezo_gen.h"

#define T0_NS 1000000000LL

/* The fix is right, or doubtful: never the wrong half at P >= 0.99. */
static bool right_or_doubtful(const struct sens_config *c, const struct sens_fix *f, double x)
{
	enum bd_half truth = bd_table_half(&c->table, x);

	if (f->half == truth)
		return true;
	return f->near_line && f->p_half[f->half] < 0.99;
}

/* Exact arrivals at (x, y) on the diamond at the configured speed, table
 * sensor `late` (-1 none) late by late_s, sensor `missing` (-1 none) left
 * out. Returns how many. */
static size_t exact(const struct sens_config *c, double x, double y, int late, double late_s,
		    int missing, struct sens_arrival *a)
{
	size_t n = 0;
	int k = 0;

	for (size_t i = 0; i < c->n_lines; i++) {
		const struct sens_line_cfg *l = &c->lines[i];

		if (l->role != SENS_ROLE_TABLE)
			continue;
		if (k != missing) {
			double t = hypot(x - l->x, y - l->y) / c->wave_speed_mps + (k == late ? late_s : 0);

			a[n] = (struct sens_arrival){ .x = l->x, .y = l->y, .delay_s = 0,
						      .ts_ns = T0_NS + (int64_t)llround(t * 1e9) };
			n++;
		}
		k++;
	}
	return n;
}

static void say(const char *what, double x, double y, const struct sens_fix *f)
{
	print_message("%s at (%.3f, %.3f): fix (%.3f, %.3f) half %d p %.4f near_line %d +-%.1f cm\n",
		      what, x, y, f->x, f->y, (int)f->half, f->p_half[f->half], (int)f->near_line,
		      f->sigma_m * 100);
}

/* The issue's clean reproduction: truth (1.19, 0.30), A's half, table0
 * (A's end disc) 500 us late; the old fit said B at p 0.994, no review. */
static void test_sens_faults_issue_reproduction(void **state)
{
	static const int64_t ts[4] = { 1003453494, 1000629484, 1003098488, 1002176293 };
	struct sens_config c;
	struct sens_arrival a[4];
	struct sens_fix f;

	(void)state;
	sens_config_defaults(&c);
	for (int i = 0; i < 4; i++)
		a[i] = (struct sens_arrival){ .x = c.lines[i].x, .y = c.lines[i].y, .ts_ns = ts[i] };
	assert_int_equal(sens_locate(&c, a, 4, &f), 0);
	say("reproduction", 1.19, 0.30, &f);
	assert_true(right_or_doubtful(&c, &f, 1.19));	/* BD-P1 */
}

static size_t n_table(const struct sens_config *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n_lines; i++)
		n += c->lines[i].role == SENS_ROLE_TABLE;
	return n;
}

/* Points 1, 3 and 5 cm from the line's edges, on both halves, across the
 * table's width. */
static const double from_line_cm[] = { 1, 3, 5 };
static const double ys[] = { 0.12, 0.30, 0.61, 0.92, 1.10 };

static double at(const struct sens_config *c, double cm, int side)
{
	double edge = c->table.line_width_m / 2 + cm / 100;

	return c->table.length_m / 2 + (side ? edge : -edge);
}

/* The points above with table sensor `disc` late by late_s (missing:
 * left out instead); returns how many fixes were the wrong half at P >=
 * 0.99 or not doubtful (strict: not right), printing each. */
static int sweep(const struct sens_config *c, int disc, double late_s, bool missing, bool strict)
{
	int bad = 0;

	for (size_t d = 0; d < sizeof(from_line_cm) / sizeof(from_line_cm[0]); d++)
		for (int side = 0; side < 2; side++)
			for (size_t k = 0; k < sizeof(ys) / sizeof(ys[0]); k++) {
				double x = at(c, from_line_cm[d], side);
				struct sens_arrival a[SENS_MAX_TABLE];
				struct sens_fix f;
				size_t n = exact(c, x, ys[k], missing ? -1 : disc, late_s,
						 missing ? disc : -1, a);

				assert_int_equal(n, n_table(c) - (missing ? 1 : 0));
				if (sens_locate(c, a, n, &f) != 0) {
					assert_true(missing);	/* not located: the pipeline's guess is 0.3 */
					continue;
				}
				if (strict ? f.half != bd_table_half(&c->table, x) : !right_or_doubtful(c, &f, x)) {
					char what[64];

					snprintf(what, sizeof(what), "table%d %.0f us late%s", disc,
						 late_s * 1e6, missing ? " (missing)" : "");
					say(what, x, ys[k], &f);
					bad++;
				}
			}
	return bad;
}

/* Every disc of c late by 0.2 to 1 ms, then every disc missing: the
 * fixes that were not right or doubtful. */
static int sweep_all(const struct sens_config *c, bool missing, bool strict)
{
	static const double late_s[] = { 0.2e-3, 0.35e-3, 0.5e-3, 0.75e-3, 1.0e-3 };
	int bad = 0;

	for (int disc = 0; disc < (int)n_table(c); disc++)
		for (size_t l = 0; l < (missing ? 1 : sizeof(late_s) / sizeof(late_s[0])); l++)
			bad += sweep(c, disc, missing ? 0 : late_s[l], missing, strict);
	return bad;
}

/* Each disc late by 0.2 to 1 ms: BD-P1, BD-P6. */
static void test_sens_faults_each_disc_late(void **state)
{
	struct sens_config c;

	(void)state;
	sens_config_defaults(&c);
	assert_int_equal(sweep_all(&c, false, false), 0);
}

/* Each disc missing: three arrivals. */
static void test_sens_faults_each_disc_missing(void **state)
{
	struct sens_config c;

	(void)state;
	sens_config_defaults(&c);
	assert_int_equal(sweep_all(&c, true, false), 0);
}

/* The recommended six discs (the diamond and two on the long axis 45 cm
 * either side of the line, docs/sensors.md "More discs"): any one late or
 * missing, and the half stays right, not merely doubtful. */
static void test_sens_faults_six_discs_keep_the_half(void **state)
{
	static const double ax[2] = { 0.77, 1.67 };
	struct sens_config c;

	(void)state;
	sens_config_defaults(&c);
	for (int i = 0; i < 2; i++) {
		struct sens_line_cfg *l = &c.lines[c.n_lines++];
		static const char *const names[] = { "table4", "table5" };

		*l = (struct sens_line_cfg){ .role = SENS_ROLE_TABLE, .offset = 24 + (unsigned)i,
					     .x = ax[i], .y = 0.61, .owner = -1 };
		/* Names, not a printf: -O1's range analysis sees no bound on i. */
		snprintf(l->name, sizeof(l->name), "%s", names[i]);
	}
	assert_int_equal(sens_config_check(&c, NULL, 0), 0);
	assert_int_equal(sweep_all(&c, false, true), 0);
	assert_int_equal(sweep_all(&c, true, true), 0);
}

/* Calibration over generated impacts (tests/support/piezo_gen.h, the
 * physics and not sim/): 5,000 a run, half within 10 cm of the line, 2 %
 * with a disc 0.2-1 ms late and 2 % with one missing, latency 7-20 us,
 * ringing, seeded. Ceilings: at most 1 % of errors beyond 3 sigma, at most
 * 1 in 1,000 of the halves given at p >= 0.99 wrong, none of those without
 * review (BD-P1, BD-P6). */
static void calibration(double jitter_us, uint64_t seed)
{
	enum { N = 5000 };
	static double err[N];
	struct sens_config c;
	struct pzg g;
	struct pzg_stats st;

	sens_config_defaults(&c);
	pzg_defaults(&g, seed, jitter_us * 1e-6);
	c.timing_sigma_s = pzg_sigma_s(&g);
	assert_int_equal(pzg_run(&g, &c, N, err, &st), 0);
	print_message("%.0f us: %zu located, median %.2f cm, p95 %.2f cm, %zu beyond 3 sigma, "
		      "%zu of %zu at p >= 0.99 wrong (%zu not reviewed)\n", jitter_us, st.located,
		      st.median_cm, st.p95_cm, st.beyond_3sigma, st.sure_wrong, st.sure,
		      st.sure_wrong_silent);
	assert_true(st.located >= N * 99 / 100);
	assert_true(st.beyond_3sigma * 100 <= st.located);
	assert_true(st.sure_wrong * 1000 <= st.sure);
	assert_int_equal(st.sure_wrong_silent, 0);	/* the issue's target: none without review */
}

static void test_sens_faults_calibration_10us(void **state)
{
	(void)state;
	calibration(10, 2031);
}

static void test_sens_faults_calibration_20us(void **state)
{
	(void)state;
	calibration(20, 2032);
}

/* The same impact alone (a fresh pipeline: the configured noise) and
 * inside a long recording (the noise the last 32 fits measured, at most
 * 3x the configured) gives the same half, p within P_TOL, and the same
 * call on review. */
#define P_TOL 0.05
static void test_sens_faults_alone_as_in_a_recording(void **state)
{
	enum { N = 400 };
	struct sens_config c;
	struct pzg g;
	struct sens_pipeline *rec;
	double worst = 0;

	(void)state;
	sens_config_defaults(&c);
	pzg_defaults(&g, 77, 10e-6);
	c.timing_sigma_s = pzg_sigma_s(&g);
	rec = sens_pipeline_new(&c);
	assert_non_null(rec);
	for (int i = 0; i < N; i++) {
		struct sens_edge e[64];
		struct sens_obs in[8], alone[8];
		int64_t t0 = (int64_t)(i + 1) * 1000000000LL;
		size_t ne = pzg_impact(&g, &c, t0, NULL, e, 64), ni = 0, na = 0;
		struct sens_pipeline *one = sens_pipeline_new(&c);

		assert_non_null(one);
		for (size_t k = 0; k < ne; k++) {
			ni += sens_pipeline_push(rec, &e[k], in + ni, 8 - ni);
			na += sens_pipeline_push(one, &e[k], alone + na, 8 - na);
		}
		ni += sens_pipeline_flush(rec, t0 + 500000000LL, in + ni, 8 - ni);
		na += sens_pipeline_flush(one, t0 + 500000000LL, alone + na, 8 - na);
		sens_pipeline_free(one);
		assert_int_equal(ni, 1);
		assert_int_equal(na, 1);
		double dp = fabs(in[0].ev.confidence - alone[0].ev.confidence);

		if (in[0].ev.half != alone[0].ev.half || dp > P_TOL ||
		    in[0].fix.near_line != alone[0].fix.near_line)
			fail_msg("impact %d: half %d p %.4f review %d in the recording, half %d p %.4f "
				 "review %d alone", i, (int)in[0].ev.half, in[0].ev.confidence,
				 (int)in[0].fix.near_line, (int)alone[0].ev.half, alone[0].ev.confidence,
				 (int)alone[0].fix.near_line);
		worst = fmax(worst, dp);
	}
	print_message("worst p difference %.4f (tolerance %.2f)\n", worst, P_TOL);
	sens_pipeline_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sens_faults_issue_reproduction),
		cmocka_unit_test(test_sens_faults_each_disc_late),
		cmocka_unit_test(test_sens_faults_each_disc_missing),
		cmocka_unit_test(test_sens_faults_six_discs_keep_the_half),
		cmocka_unit_test(test_sens_faults_calibration_10us),
		cmocka_unit_test(test_sens_faults_calibration_20us),
		cmocka_unit_test(test_sens_faults_alone_as_in_a_recording),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
