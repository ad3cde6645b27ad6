/* Calibration (sensors/calib.c): wave speed and per-sensor delays from
 * simulated taps at the guided points, with a known truth. */
#include <errno.h>
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

/* taps at the guided points on a table whose truth is given */
static size_t make_taps(const struct sens_config *installed, const struct sens_config *truth,
			const struct sim_piezo *m, int repeat, uint64_t seed, struct sens_tap *taps)
{
	double pts[64 * 2];
	size_t np = sens_calib_points(installed, pts, 64), nt = 0;
	struct sim_rng rng;

	sim_rng_seed(&rng, seed);
	for (int r = 0; r < repeat; r++)
		for (size_t k = 0; k < np; k++) {
			struct sens_edge e[16];
			struct sens_tap *t = &taps[nt++];
			size_t n = sim_piezo_table_hit(m, truth, &rng, pts[2 * k], pts[2 * k + 1],
						       (int64_t)(nt + 1) * 1000000000LL, e, 16);

			memset(t, 0, sizeof(*t));
			t->x = pts[2 * k];
			t->y = pts[2 * k + 1];
			for (size_t i = 0; i < n; i++) {
				int idx = sens_config_line_by_offset(truth, e[i].line);

				/* table lines come first in the defaults: index = ordinal */
				t->seen[idx] = true;
				t->ts_ns[idx] = e[i].ts_ns;
			}
		}
	return nt;
}

/* The table as installed (the defaults: 400 m/s, no delays), as it truly
 * is (455 m/s, each comparator's own delay) and the discs' model. */
static void table_of(struct sens_config *installed, struct sens_config *truth, struct sim_piezo *m)
{
	static const double delays_us[4] = { 12.0, -7.0, 25.0, -3.0 };

	sens_config_defaults(installed);
	sim_piezo_defaults(m);	/* 10 us jitter, 7-20 us latency */
	sens_config_defaults(truth);
	truth->wave_speed_mps = 455.0;
	for (size_t i = 0; i < 4; i++)
		truth->lines[i].delay_s = delays_us[i] * 1e-6;
}

static void check(const struct sens_calibration *cal, const struct sens_config *truth,
		  double speed_tol, double delay_tol_us)
{
	double mean = 0;

	for (size_t i = 0; i < 4; i++)
		mean += truth->lines[i].delay_s / 4;
	if (fabs(cal->wave_speed_mps / truth->wave_speed_mps - 1) > speed_tol)
		fail_msg("speed %.1f, truth %.1f", cal->wave_speed_mps, truth->wave_speed_mps);
	assert_int_equal(cal->n_table, 4);
	for (size_t i = 0; i < 4; i++) {
		double want = (truth->lines[i].delay_s - mean) * 1e6, got = cal->delay_s[i] * 1e6;

		if (fabs(got - want) > delay_tol_us)
			fail_msg("table%zu delay %.2f us, truth %.2f us", i, got, want);
	}
}

static void test_sens_calibrate_noise_free_recovers_speed_and_delays_exactly(void **state)
{
	struct sens_config installed, truth;
	struct sim_piezo m;
	struct sens_tap taps[64];
	struct sens_calibration cal;
	char err[200];
	size_t n;

	(void)state;
	table_of(&installed, &truth, &m);
	m.jitter_s = 0;
	m.latency_min_s = m.latency_max_s = 0;
	m.speed_spread = 0;
	n = make_taps(&installed, &truth, &m, 1, 1, taps);
	assert_int_equal(n, 12);
	assert_int_equal(sens_calibrate(&installed, taps, n, &cal, err, sizeof(err)), 0);
	check(&cal, &truth, 1e-4, 0.05);
	assert_true(cal.rms_s < 1e-8);
	assert_true(cal.max_err_cm < 0.1);
	assert_int_equal(cal.n_taps, 12);
}

static void test_sens_calibrate_recovers_speed_and_delays_from_noisy_taps(void **state)
{
	struct sens_config installed, truth;
	struct sim_piezo m;
	struct sens_tap taps[64];
	struct sens_calibration cal;
	char err[200];
	size_t n;

	(void)state;
	table_of(&installed, &truth, &m);
	m.speed_spread = 0.005;	/* an installer's taps are much alike */
	n = make_taps(&installed, &truth, &m, 3, 2, taps);
	assert_int_equal(sens_calibrate(&installed, taps, n, &cal, err, sizeof(err)), 0);
	check(&cal, &truth, 0.01, 5.0);
	/* applying it makes the table locate well */
	sens_calibration_apply(&cal, &installed);
	assert_true(fabs(installed.wave_speed_mps - cal.wave_speed_mps) < 1e-9);
	assert_true(fabs(installed.lines[2].delay_s - cal.delay_s[2]) < 1e-12);
	assert_true(cal.median_err_cm < 1.0);
	assert_true(cal.rms_s > 3e-6 && cal.rms_s < 30e-6);
}

/* The taps' timing noise (written as timing_sigma_us): at 10 and 20 us of
 * jitter (with the 7-20 us latency's 3.75 us) and taps 1 % apart in speed,
 * 36 taps, within 25 % of the truth on 5 seeds each; noise-free, none. */
static void test_sens_calibrate_measures_the_timing_noise(void **state)
{
	static const double jitter_us[] = { 10, 20 };
	struct sens_config installed, truth;
	struct sim_piezo m;
	struct sens_tap taps[64];
	struct sens_calibration cal;
	char err[200];

	(void)state;
	for (size_t j = 0; j < 2; j++)
		for (uint64_t seed = 1; seed <= 5; seed++) {
			double want = hypot(jitter_us[j], 3.75);
			size_t n;

			table_of(&installed, &truth, &m);
			m.jitter_s = jitter_us[j] * 1e-6;
			m.speed_spread = 0.01;
			n = make_taps(&installed, &truth, &m, 3, seed, taps);
			assert_int_equal(sens_calibrate(&installed, taps, n, &cal, err, sizeof(err)), 0);
			if (fabs(cal.timing_sigma_s * 1e6 / want - 1) > 0.25)
				fail_msg("jitter %.0f us, seed %llu: measured %.1f us, truth %.1f us",
					 jitter_us[j], (unsigned long long)seed, cal.timing_sigma_s * 1e6,
					 want);
		}
	table_of(&installed, &truth, &m);
	m.jitter_s = 0;
	m.latency_min_s = m.latency_max_s = 0;
	m.speed_spread = 0;
	assert_int_equal(sens_calibrate(&installed, taps, make_taps(&installed, &truth, &m, 1, 1, taps),
					&cal, err, sizeof(err)), 0);
	assert_true(cal.timing_sigma_s < 1e-8);
}

static void test_sens_calibrate_survives_a_missed_edge(void **state)
{
	struct sens_config installed, truth;
	struct sim_piezo m;
	struct sens_tap taps[64];
	struct sens_calibration cal;
	char err[200];
	size_t n;

	(void)state;
	table_of(&installed, &truth, &m);
	m.jitter_s = 2e-6;
	m.speed_spread = 0.002;
	n = make_taps(&installed, &truth, &m, 2, 3, taps);
	taps[4].seen[2] = false;	/* one sensor did not hear one tap */
	assert_int_equal(sens_calibrate(&installed, taps, n, &cal, err, sizeof(err)), 0);
	check(&cal, &truth, 0.01, 3.0);
}

static void test_sens_calibrate_too_few_taps_is_an_error(void **state)
{
	struct sens_config c;
	struct sens_tap taps[2];
	struct sens_calibration cal;
	char err[200];

	(void)state;
	sens_config_defaults(&c);
	memset(taps, 0, sizeof(taps));
	for (int k = 0; k < 2; k++)
		for (int j = 0; j < 4; j++)
			taps[k].seen[j] = true;
	assert_int_equal(sens_calibrate(&c, taps, 2, &cal, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "2 usable taps (3 sensors each), 3 or more needed");
}

/* A table disc that never fires meets the fit only in the mean-zero gauge:
 * its delay can be anything (+12644 us on a dead table3, the others
 * shifted to match), at a small rms. Refused, naming the sensor. */
static void test_sens_calibrate_refuses_a_sensor_heard_in_fewer_than_two_taps(void **state)
{
	struct sens_config installed, truth;
	struct sim_piezo m;
	struct sens_tap taps[64];
	struct sens_calibration cal;
	char err[300];
	size_t n;

	(void)state;
	table_of(&installed, &truth, &m);
	m.dead = 1u << 3;
	n = make_taps(&installed, &truth, &m, 1, 4, taps);
	assert_int_equal(sens_calibrate(&installed, taps, n, &cal, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "table3 was heard in 0 of 12 taps"));
	assert_non_null(strstr(err, "wiring"));

	/* one tap is not enough either: that arrival alone sets its delay */
	m.dead = 0;
	n = make_taps(&installed, &truth, &m, 1, 4, taps);
	for (size_t k = 1; k < n; k++)
		taps[k].seen[3] = false;
	assert_int_equal(sens_calibrate(&installed, taps, n, &cal, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "table3 was heard in 1 of 12 taps"));
	taps[1].seen[3] = true;
	assert_int_equal(sens_calibrate(&installed, taps, n, &cal, err, sizeof(err)), 0);
}

/* A comparator 1.4 ms late fits a delay beyond the +-1000 us the config
 * loader accepts: a calibration that writes it leaves a config that
 * `sensors` and `serve` refuse. The fit is refused with the check's words. */
static void test_sens_calibrate_refuses_a_fit_the_config_check_would_refuse(void **state)
{
	struct sens_config installed, truth;
	struct sim_piezo m;
	struct sens_tap taps[64];
	struct sens_calibration cal;
	char err[300];
	size_t n;

	(void)state;
	table_of(&installed, &truth, &m);
	truth.lines[0].delay_s = 1400e-6;	/* 1046 us above the mean */
	m.speed_spread = 0.005;	/* an installer's taps are much alike */
	n = make_taps(&installed, &truth, &m, 1, 5, taps);
	assert_int_equal(sens_calibrate(&installed, taps, n, &cal, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "sensors: table0: delay 1"));
	assert_non_null(strstr(err, "is beyond 1000 us"));

	/* 1.2 ms late is 896 us above the mean: it loads, so it is written */
	truth.lines[0].delay_s = 1200e-6;
	n = make_taps(&installed, &truth, &m, 1, 5, taps);
	assert_int_equal(sens_calibrate(&installed, taps, n, &cal, err, sizeof(err)), 0);
	sens_calibration_apply(&cal, &installed);
	assert_int_equal(sens_config_check(&installed, err, sizeof(err)), 0);
}

static void test_sens_calibrate_taps_at_wrong_points_are_refused(void **state)
{
	/* All arrivals equal: no distance pattern, no speed. */
	struct sens_config c;
	struct sens_tap taps[12];
	struct sens_calibration cal;
	char err[200] = "";
	double pts[24];

	(void)state;
	sens_config_defaults(&c);
	sens_calib_points(&c, pts, 12);
	memset(taps, 0, sizeof(taps));
	for (int k = 0; k < 12; k++) {
		taps[k].x = pts[2 * k];
		taps[k].y = pts[2 * k + 1];
		for (int j = 0; j < 4; j++) {
			taps[k].seen[j] = true;
			taps[k].ts_ns[j] = (k + 1) * 1000000000LL + (j == 0 ? 3000000 : 0);
		}
	}
	assert_int_equal(sens_calibrate(&c, taps, 12, &cal, err, sizeof(err)), -EINVAL);
	assert_true(err[0] != '\0' && strncmp(err, "calibrate:", 10) != 0);
}

static void test_sens_calib_points_cover_both_halves_away_from_sensors(void **state)
{
	struct sens_config c;
	double pts[64];
	size_t n, a = 0, b = 0;

	(void)state;
	sens_config_defaults(&c);
	n = sens_calib_points(&c, pts, 32);
	assert_int_equal(n, 12);
	for (size_t k = 0; k < n; k++) {
		double x = pts[2 * k], y = pts[2 * k + 1];

		assert_true(x > 0 && x < c.table.length_m && y > 0 && y < c.table.width_m);
		for (size_t i = 0; i < 4; i++)
			assert_true(hypot(x - c.lines[i].x, y - c.lines[i].y) > 0.1);
		a += bd_table_half(&c.table, x) == BD_HALF_A;
		b += bd_table_half(&c.table, x) == BD_HALF_B;
	}
	assert_int_equal(a, 6);
	assert_int_equal(b, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sens_calibrate_noise_free_recovers_speed_and_delays_exactly),
		cmocka_unit_test(test_sens_calibrate_recovers_speed_and_delays_from_noisy_taps),
		cmocka_unit_test(test_sens_calibrate_measures_the_timing_noise),
		cmocka_unit_test(test_sens_calibrate_survives_a_missed_edge),
		cmocka_unit_test(test_sens_calibrate_too_few_taps_is_an_error),
		cmocka_unit_test(test_sens_calibrate_refuses_a_sensor_heard_in_fewer_than_two_taps),
		cmocka_unit_test(test_sens_calibrate_refuses_a_fit_the_config_check_would_refuse),
		cmocka_unit_test(test_sens_calibrate_taps_at_wrong_points_are_refused),
		cmocka_unit_test(test_sens_calib_points_cover_both_halves_away_from_sensors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
