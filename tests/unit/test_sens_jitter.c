/* The measured jitter (sensors/jitter.c, issue 31 item 3): the table's
 * timing noise estimated from the fits' residuals, against the configured
 * timing_sigma; a table noisier than the config says is flagged, one as
 * noisy as it says is not. First on residuals drawn from a seeded
 * generator (the estimator alone), then on simulated impacts through the
 * whole pipeline (six discs; the diamond cannot measure it). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sensors/sensors.h"
#include "sim/sim.h"

#define US 1e-6

/* One fit's residual rms over n arrivals: n - 4 degrees of freedom of
 * residuals drawn at sd true_s. */
static double draw_rms(struct sim_rng *rng, double true_s, int n)
{
	double ss = 0;

	for (int k = 0; k < n - 4; k++) {
		double r = true_s * sim_rng_normal(rng);

		ss += r * r;
	}
	return sqrt(ss / n);
}

/* fits fits at true_s with n arrivals each (config cfg_s); the estimate,
 * and whether the table was ever called noisier. */
static double estimate(uint64_t seed, double true_s, double cfg_s, int n, size_t fits,
		       bool *flagged_ever)
{
	struct sens_jitter e;
	struct sim_rng rng;

	sens_jitter_init(&e, cfg_s);
	sim_rng_seed(&rng, seed);
	*flagged_ever = false;
	for (size_t i = 0; i < fits; i++) {
		sens_jitter_add(&e, draw_rms(&rng, true_s, n), n);
		*flagged_ever |= sens_jitter_noisier(&e);
	}
	assert_int_equal(e.n, fits < SENS_JITTER_FITS ? fits : SENS_JITTER_FITS);
	assert_true(e.fits == fits);
	return sens_jitter_sigma_s(&e);
}

/* Nothing before SENS_JITTER_MIN_FITS fits; four arrivals, or no
 * residual, are not counted; the flag waits for SENS_JITTER_FLAG_FITS. */
static void test_sens_jitter_needs_fits(void **state)
{
	const double med1 = pow(1 - 2.0 / 9, 3);
	/* rms of 5 arrivals whose one dof reads exactly 20 us */
	const double rms20 = 20 * US * sqrt(med1 / 5);
	struct sens_jitter e;

	(void)state;
	sens_jitter_init(&e, 10 * US);
	for (int i = 0; i < SENS_JITTER_MIN_FITS - 1; i++)
		sens_jitter_add(&e, rms20, 5);
	assert_true(sens_jitter_sigma_s(&e) == 0);
	assert_true(sens_jitter_ratio(&e) == 0);
	sens_jitter_add(&e, rms20, 4);		/* no degree of freedom left */
	sens_jitter_add(&e, 0, 5);
	sens_jitter_add(&e, NAN, 5);
	assert_int_equal(e.n, SENS_JITTER_MIN_FITS - 1);
	sens_jitter_add(&e, rms20, 5);
	assert_true(fabs(sens_jitter_sigma_s(&e) - 20 * US) < 1e-12);
	assert_true(fabs(sens_jitter_ratio(&e) - 2.0) < 1e-9);
	assert_false(sens_jitter_noisier(&e));
	for (int i = SENS_JITTER_MIN_FITS; i < SENS_JITTER_FLAG_FITS; i++)
		sens_jitter_add(&e, rms20, 5);
	assert_true(sens_jitter_noisier(&e));
	/* bounded: the window keeps the last SENS_JITTER_FITS */
	for (int i = 0; i < 3 * SENS_JITTER_FITS; i++)
		sens_jitter_add(&e, rms20 / 2, 5);
	assert_int_equal(e.n, SENS_JITTER_FITS);
	assert_true(fabs(sens_jitter_sigma_s(&e) - 10 * US) < 1e-12);
	assert_false(sens_jitter_noisier(&e));
}

/* Residuals at 10 us and at 20 us, one degree of freedom a fit (five
 * arrivals) and two (six), config at 10 us, a full window: over 20 seeds
 * each estimate within 20 % of the truth (the median of 128 one-dof fits
 * scatters by about 10 % in sigma), their mean within 5 %. */
static void test_sens_jitter_estimates_the_jitter(void **state)
{
	static const double truth_us[] = { 10, 20 };
	static const int arrivals[] = { 5, 6 };

	(void)state;
	for (size_t t = 0; t < 2; t++)
		for (size_t d = 0; d < 2; d++) {
			double sum = 0;

			for (uint64_t seed = 1; seed <= 20; seed++) {
				bool flagged;
				double s = estimate(seed * 7919, truth_us[t] * US, 10 * US, arrivals[d],
						    400, &flagged);

				if (fabs(s / (truth_us[t] * US) - 1) > 0.20)
					fail_msg("truth %.0f us, %d arrivals, seed %llu: estimate %.1f us",
						 truth_us[t], arrivals[d], (unsigned long long)seed, s / US);
				sum += s;
			}
			double mean = sum / 20 / (truth_us[t] * US);

			if (fabs(mean - 1) > 0.05)
				fail_msg("truth %.0f us, %d arrivals: mean estimate %.3fx", truth_us[t],
					 arrivals[d], mean);
		}
}

/* The config at 10 us on a 20 us table is flagged once SENS_JITTER_FLAG_FITS
 * fits are in; a clean table (10 us, config 10 us) is never flagged over
 * 5,000 fits, on any of 10 seeds. */
static void test_sens_jitter_flags_a_noisier_table(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		struct sens_jitter e;
		struct sim_rng rng;
		bool flagged;

		sens_jitter_init(&e, 10 * US);
		sim_rng_seed(&rng, seed);
		for (int i = 0; i < SENS_JITTER_FLAG_FITS; i++)
			sens_jitter_add(&e, draw_rms(&rng, 20 * US, 5), 5);
		if (!sens_jitter_noisier(&e))
			fail_msg("seed %llu: 20 us on a 10 us config not flagged (%.1f us)",
				 (unsigned long long)seed, sens_jitter_sigma_s(&e) / US);

		estimate(seed, 10 * US, 10 * US, 5, 5000, &flagged);
		if (flagged)
			fail_msg("seed %llu: a table as noisy as configured flagged",
				 (unsigned long long)seed);
	}
}

/* Simulated impacts through the pipeline: the six-disc layout (docs/
 * sensors.md "More discs"), latency 7-20 us, speed spread 5 %, config
 * timing_sigma 10 us. Jitter 20 us: flagged, measured 16-26 us; jitter
 * 10 us (10.7 us with the latency's spread): not flagged, 8-13 us. The
 * diamond: no estimate (no fit has a residual of the jitter's own). */
static void run_table(size_t discs, double jitter_s, double *measured_s, bool *noisier)
{
	struct sens_config c;
	struct sim_piezo m;
	struct sim_rng rng;
	struct sens_pipeline *p;

	sens_config_defaults(&c);
	for (size_t q = 0; discs == 6 && q < 2; q++) {
		struct sens_line_cfg *l = &c.lines[c.n_lines++];

		*l = c.lines[0];
		snprintf(l->name, sizeof(l->name), "table%zu", 4 + q);
		l->offset = 24 + (unsigned)q;
		l->x = q ? 1.67 : 0.77;
		l->y = 0.61;
	}
	sim_piezo_defaults(&m);
	m.jitter_s = jitter_s;
	p = sens_pipeline_new(&c);
	assert_non_null(p);
	sim_rng_seed(&rng, 31);
	for (int i = 0; i < 300; i++) {
		struct sens_edge e[16];
		struct sens_obs o[4];
		double x = sim_rng_uniform(&rng) * c.table.length_m;
		double y = sim_rng_uniform(&rng) * c.table.width_m;
		int64_t t0 = (int64_t)(i + 1) * 1000000000LL;
		size_t ne = sim_piezo_table_hit(&m, &c, &rng, x, y, t0, e, 16);

		for (size_t k = 0; k < ne && k < 16; k++)
			sens_pipeline_push(p, &e[k], o, 4);
		sens_pipeline_flush(p, t0 + 500000000LL, o, 4);
	}
	*measured_s = sens_jitter_sigma_s(sens_pipeline_jitter(p));
	*noisier = sens_jitter_noisier(sens_pipeline_jitter(p));
	sens_pipeline_free(p);
}

static void test_sens_jitter_in_the_pipeline(void **state)
{
	double s;
	bool noisier;

	(void)state;
	run_table(6, 20 * US, &s, &noisier);
	print_message("six discs, jitter 20 us, config 10: measured %.1f us, %s\n", s / US,
		      noisier ? "noisier" : "not flagged");
	assert_true(noisier);
	assert_true(s > 16 * US && s < 26 * US);
	run_table(6, 10 * US, &s, &noisier);
	print_message("six discs, jitter 10 us, config 10: measured %.1f us, %s\n", s / US,
		      noisier ? "noisier" : "not flagged");
	assert_false(noisier);
	assert_true(s > 8 * US && s < 13 * US);
	run_table(4, 20 * US, &s, &noisier);
	assert_false(noisier);
	assert_true(s == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sens_jitter_needs_fits),
		cmocka_unit_test(test_sens_jitter_estimates_the_jitter),
		cmocka_unit_test(test_sens_jitter_flags_a_noisier_table),
		cmocka_unit_test(test_sens_jitter_in_the_pipeline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
