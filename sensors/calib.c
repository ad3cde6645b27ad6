/* Calibration: wave speed and per-sensor delays from taps at known points.
 *
 * arrival(tap k, sensor j) = t0_k + delay_j + distance_kj * u,  u = 1/speed
 * is linear in (u, delays, t0s), so the fit is an ordinary least-squares
 * solve, not a search. Delays are fixed only up to a common constant (it
 * moves into every t0), so they are pinned to mean zero. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sensors/sensors.h"

#define MAX_TAPS 128

size_t sens_calib_points(const struct sens_config *c, double *xy, size_t cap)
{
	/* 4 columns x 3 rows: both halves, near and far from the line, and
	 * both sides: every sensor pair sees distance differences of both
	 * signs, which is what separates speed from delays. */
	static const double fx[] = { 0.15, 0.38, 0.62, 0.85 };
	static const double fy[] = { 0.25, 0.50, 0.75 };
	size_t n = 0;

	for (size_t r = 0; r < 3; r++)
		for (size_t k = 0; k < 4; k++) {
			if (n < cap) {
				xy[2 * n] = fx[k] * c->table.length_m;
				xy[2 * n + 1] = fy[r] * c->table.width_m;
			}
			n++;
		}
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A tap's earliest arrival among its nt sensors: times are taken from it. */
static int64_t first_arrival(const struct sens_tap *t, size_t nt)
{
	int64_t ref = INT64_MAX;

	for (size_t j = 0; j < nt; j++)
		if (t->seen[j] && t->ts_ns[j] < ref)
			ref = t->ts_ns[j];
	return ref;
}

/* The timing noise of the taps: each tap's arrivals, less the fitted
 * delays, against distance (its own start and speed: taps differ in speed
 * by a percent or so, 25 us over a metre, more than the jitter), so the
 * rest is the edges' own jitter; its sum of squares over what is left of
 * its degrees of freedom (two a tap, and the delays'). fallback when too
 * few are left. */
static double tap_jitter(const struct sens_tap *taps, const size_t *use, size_t K, size_t nt,
			 const struct sens_line_cfg *const *tl, const double *delay, double fallback)
{
	double ss = 0;
	long dof = 1 - (long)nt;	/* the delays, mean zero */

	for (size_t kk = 0; kk < K; kk++) {
		const struct sens_tap *t = &taps[use[kk]];
		double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, n = 0;
		int64_t ref = first_arrival(t, nt);
		for (size_t j = 0; j < nt; j++) {
			if (!t->seen[j])
				continue;
			double d = hypot(t->x - tl[j]->x, t->y - tl[j]->y);
			double y = (double)(t->ts_ns[j] - ref) * 1e-9 - delay[j];

			sx += d;
			sy += y;
			sxx += d * d;
			sxy += d * y;
			syy += y * y;
			n++;
		}
		double vxx = sxx - sx * sx / n, vxy = sxy - sx * sy / n, vyy = syy - sy * sy / n;

		if (n < 3 || !(vxx > 0))
			continue;
		ss += fmax(0, vyy - vxy * vxy / vxx);
		dof += (long)n - 2;
	}
	return dof >= 4 ? sqrt(ss / (double)dof) : fallback;
}

int sens_calibrate(const struct sens_config *c, const struct sens_tap *taps, size_t n,
		   struct sens_calibration *out, char *err, size_t errlen)
{
	const struct sens_line_cfg *tl[SENS_MAX_TABLE];
	size_t nt = 0, K = 0, use[MAX_TAPS], P;
	double *A = NULL, *b = NULL, *x = NULL, errs[MAX_TAPS];
	int rc = -EINVAL;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < c->n_lines && nt < SENS_MAX_TABLE; i++)
		if (c->lines[i].role == SENS_ROLE_TABLE)
			tl[nt++] = &c->lines[i];
	if (nt < 3) {
		snprintf(err, errlen, "%zu table sensors configured, 3 or more needed", nt);
		return -EINVAL;
	}
	for (size_t k = 0; k < n && K < MAX_TAPS; k++) {
		size_t seen = 0;
		int64_t lo = INT64_MAX, hi = INT64_MIN, d;

		for (size_t j = 0; j < nt; j++) {
			if (!taps[k].seen[j])
				continue;
			seen++;
			lo = taps[k].ts_ns[j] < lo ? taps[k].ts_ns[j] : lo;
			hi = taps[k].ts_ns[j] > hi ? taps[k].ts_ns[j] : hi;
		}
		/* a tap's arrivals lie milliseconds apart */
		if (seen >= 3 && !__builtin_sub_overflow(hi, lo, &d) && d < 1000000000LL)
			use[K++] = k;
	}
	if (K < 3) {
		snprintf(err, errlen, "%zu usable taps (3 sensors each), 3 or more needed", K);
		return -EINVAL;
	}
	/* A sensor heard in no tap meets the fit only in the mean-zero gauge,
	 * so its delay comes out anything (and shifts the others); heard in
	 * one, that arrival alone sets it. */
	for (size_t j = 0; j < nt; j++) {
		size_t heard = 0;

		for (size_t kk = 0; kk < K; kk++)
			heard += taps[use[kk]].seen[j];
		if (heard < 2) {
			snprintf(err, errlen, "%s was heard in %zu of %zu taps, 2 or more "
				 "needed to fit its delay: check its disc, comparator and wiring "
				 "(dyeref sensors --watch shows its edges)", tl[j]->name, heard, K);
			return -EINVAL;
		}
	}

	/* Unknowns: [0] u, [1..nt] delays, [nt+1..nt+K] tap times. */
	P = 1 + nt + K;
	A = calloc(P * P, sizeof(*A));
	b = calloc(P, sizeof(*b));
	x = calloc(P, sizeof(*x));
	if (!A || !b || !x) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
		goto free_all;
	}
	for (size_t kk = 0; kk < K; kk++) {
		const struct sens_tap *t = &taps[use[kk]];
		int64_t ref = first_arrival(t, nt);

		for (size_t j = 0; j < nt; j++) {
			double row[1 + SENS_MAX_TABLE + 1];
			size_t col[3] = { 0, 1 + j, 1 + nt + kk };
			double y;

			if (!t->seen[j])
				continue;
			row[0] = hypot(t->x - tl[j]->x, t->y - tl[j]->y);
			row[1] = 1;
			row[2] = 1;
			y = (double)(t->ts_ns[j] - ref) * 1e-9;
			for (size_t a = 0; a < 3; a++) {
				for (size_t bb = 0; bb < 3; bb++)
					A[col[a] * P + col[bb]] += row[a] * row[bb];
				b[col[a]] += row[a] * y;
			}
		}
	}
	/* The gauge: sum of delays = 0, added as one more equation. */
	for (size_t a = 0; a < nt; a++)
		for (size_t bb = 0; bb < nt; bb++)
			A[(1 + a) * P + 1 + bb] += 1;
	if (core_solve(A, b, x, P, 1e-18) < 0 || !(x[0] > 0)) {
		snprintf(err, errlen, "the taps do not determine a wave speed "
			 "(were they all at the same distance pattern?)");
		goto free_all;
	}
	out->wave_speed_mps = 1.0 / x[0];
	if (out->wave_speed_mps < 50 || out->wave_speed_mps > 5000) {
		snprintf(err, errlen, "fitted speed %.0f m/s is not plausible for a table "
			 "top (50..5000): were the taps at the points shown?", out->wave_speed_mps);
		goto free_all;
	}
	out->n_table = nt;
	for (size_t j = 0; j < nt; j++)
		out->delay_s[j] = x[1 + j];
	out->n_taps = K;

	/* Residuals, and each tap located again with the fitted values. */
	{
		struct sens_config fitted = *c;
		double ss = 0;
		size_t m = 0, ne = 0;
		char why[200];

		sens_calibration_apply(out, &fitted);
		/* What is written must load: a delay beyond the loader's range
		 * (a comparator 1.4 ms late) would leave a config that `sensors`
		 * and `serve` refuse. */
		if (sens_config_check(&fitted, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "the fit would not load (%s): check that "
				 "sensor's comparator and wiring, and its position in the config", why);
			goto free_all;
		}
		for (size_t kk = 0; kk < K; kk++) {
			const struct sens_tap *t = &taps[use[kk]];
			struct sens_arrival arr[SENS_MAX_TABLE];
			struct sens_fix fix;
			int64_t ref = first_arrival(t, nt);
			size_t na = 0;

			for (size_t j = 0; j < nt; j++) {
				if (!t->seen[j])
					continue;
				double pred = x[1 + nt + kk] + x[1 + j] +
					      hypot(t->x - tl[j]->x, t->y - tl[j]->y) * x[0];
				double r = (double)(t->ts_ns[j] - ref) * 1e-9 - pred;

				ss += r * r;
				m++;
				arr[na].x = tl[j]->x;
				arr[na].y = tl[j]->y;
				arr[na].delay_s = out->delay_s[j];
				arr[na].ts_ns = t->ts_ns[j];
				na++;
			}
			if (sens_locate(&fitted, arr, na, &fix) == 0)
				errs[ne++] = hypot(fix.x - t->x, fix.y - t->y) * 100;
		}
		out->rms_s = sqrt(ss / (double)m);
		out->timing_sigma_s = tap_jitter(taps, use, K, nt, tl, out->delay_s, out->rms_s);
		out->rms_cm = out->rms_s * out->wave_speed_mps * 100;
		if (ne) {
			qsort(errs, ne, sizeof(double), cmp_double);
			out->median_err_cm = errs[ne / 2];
			out->max_err_cm = errs[ne - 1];
		}
	}
	rc = 0;

free_all:
	free(A);
	free(b);
	free(x);
	return rc;
}

void sens_calibration_apply(const struct sens_calibration *cal, struct sens_config *c)
{
	size_t j = 0;

	c->wave_speed_mps = cal->wave_speed_mps;
	for (size_t i = 0; i < c->n_lines && j < cal->n_table; i++)
		if (c->lines[i].role == SENS_ROLE_TABLE)
			c->lines[i].delay_s = cal->delay_s[j++];
}
