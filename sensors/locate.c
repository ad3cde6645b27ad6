/* sens_locate: impact point from arrival times (time difference of arrival).
 *
 * Model, per table sensor i at s_i with channel delay delta_i:
 *     t_i = t0 + delta_i + |p - s_i| / v,   v = v0 * exp(k)
 * The unknowns are p = (x, y), t0 and k, the impact's own speed: bending
 * waves are dispersive, so each hit (its force, its spectrum) travels at a
 * slightly different speed; a prior k ~ N(0, speed_spread^2) keeps four
 * equations from fitting four unknowns blindly. Times are scaled to metres
 * (multiplied by v0) so every unknown has the same unit. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sensors/sensors.h"

#define MAX_ARR 16	/* arrivals one fit takes */

struct problem {
	size_t n;		/* arrivals */
	double sx[MAX_ARR], sy[MAX_ARR];	/* sensor positions, m */
	double tau[MAX_ARR];	/* (t_i - tref - delta_i) * v0, m */
	double sig_tau;		/* timing sd in metres */
	double sig_k;		/* prior sd of the log speed ratio */
	double len, wid;	/* the table: the die lands on it */
};

#define ROWS (MAX_ARR + 3)	/* arrivals, speed prior, two table bounds */
#define SIG_BOUND 0.005		/* metres: how softly the table's edge holds a fix */

/* How far outside [0, max] v is (signed), 0 inside. */
static double outside(double v, double max)
{
	return v < 0 ? v : v > max ? v - max : 0;
}

/* Residuals (scaled to unit variance) and, when J is given, their Jacobian
 * rows over (x, y, T, k); the last row is the speed prior. Returns chi2. */
static double residuals(const struct problem *pb, const double p[4], double *r, double (*J)[4])
{
	double ek = exp(-p[3]), chi2 = 0;

	for (size_t i = 0; i < pb->n; i++) {
		double dx = p[0] - pb->sx[i], dy = p[1] - pb->sy[i];
		double d = fmax(hypot(dx, dy), 1e-6);

		r[i] = (pb->tau[i] - p[2] - d * ek) / pb->sig_tau;
		chi2 += r[i] * r[i];
		if (J) {
			J[i][0] = -ek * dx / d / pb->sig_tau;
			J[i][1] = -ek * dy / d / pb->sig_tau;
			J[i][2] = -1.0 / pb->sig_tau;
			J[i][3] = d * ek / pb->sig_tau;
		}
	}
	r[pb->n] = p[3] / pb->sig_k;
	chi2 += r[pb->n] * r[pb->n];
	/* Near an end sensor, points along the table's axis beyond it have
	 * the same arrival differences: without the table's edge the fit
	 * could slide off the table. A die lands on the table. */
	r[pb->n + 1] = outside(p[0], pb->len) / SIG_BOUND;
	r[pb->n + 2] = outside(p[1], pb->wid) / SIG_BOUND;
	chi2 += r[pb->n + 1] * r[pb->n + 1] + r[pb->n + 2] * r[pb->n + 2];
	if (J) {
		memset(J[pb->n], 0, 3 * sizeof(J[0]));
		J[pb->n][3] = 1.0 / pb->sig_k;
		J[pb->n + 1][0] = r[pb->n + 1] != 0 ? 1.0 / SIG_BOUND : 0;
		J[pb->n + 2][1] = r[pb->n + 2] != 0 ? 1.0 / SIG_BOUND : 0;
	}
	return chi2;
}

/* Solves the 4x4 system A x = b by Gaussian elimination with partial
 * pivoting; A and b are destroyed. -1 when singular. */
static int solve4(double A[4][4], double b[4], double x[4])
{
	for (int c = 0; c < 4; c++) {
		int piv = c;

		for (int r = c + 1; r < 4; r++)
			if (fabs(A[r][c]) > fabs(A[piv][c]))
				piv = r;
		if (fabs(A[piv][c]) < 1e-300)
			return -1;
		if (piv != c) {
			for (int k = 0; k < 4; k++) {
				double t = A[c][k];
				A[c][k] = A[piv][k];
				A[piv][k] = t;
			}
			double t = b[c];
			b[c] = b[piv];
			b[piv] = t;
		}
		for (int r = c + 1; r < 4; r++) {
			double f = A[r][c] / A[c][c];

			for (int k = c; k < 4; k++)
				A[r][k] -= f * A[c][k];
			b[r] -= f * b[c];
		}
	}
	for (int c = 3; c >= 0; c--) {
		double s = b[c];

		for (int k = c + 1; k < 4; k++)
			s -= A[c][k] * x[k];
		x[c] = s / A[c][c];
	}
	return 0;
}

static void normal_eq(const struct problem *pb, const double p[4], double JTJ[4][4],
		      double JTr[4], double *chi2)
{
	double r[ROWS], J[ROWS][4];

	*chi2 = residuals(pb, p, r, J);
	memset(JTJ, 0, sizeof(double[4][4]));
	memset(JTr, 0, sizeof(double[4]));
	for (size_t i = 0; i < pb->n + 3; i++)
		for (int a = 0; a < 4; a++) {
			JTr[a] += J[i][a] * r[i];
			for (int b = 0; b < 4; b++)
				JTJ[a][b] += J[i][a] * J[i][b];
		}
}

/* A start that is not a guess: the best point of a 10 cm grid over the
 * table (and a margin), with t0 solved in closed form at each. The cost
 * surface of TDOA has hyperbolic valleys; 10 cm lands in the right one
 * (a 5 cm grid measured the same accuracy at 4x the time). */
static void grid_start(const struct problem *pb, const struct bd_table *t, const double *avoid,
		       double p[4])
{
	const double step = 0.10, margin = 0.05;
	double best = INFINITY;

	for (double x = -margin; x <= t->length_m + margin + 1e-9; x += step)
		for (double y = -margin; y <= t->width_m + margin + 1e-9; y += step) {
			double d[MAX_ARR], T = 0, cost = 0;

			if (avoid && hypot(x - avoid[0], y - avoid[1]) < 0.25)
				continue;

			for (size_t i = 0; i < pb->n; i++) {
				d[i] = hypot(x - pb->sx[i], y - pb->sy[i]);
				T += pb->tau[i] - d[i];
			}
			T /= (double)pb->n;
			for (size_t i = 0; i < pb->n; i++) {
				double e = pb->tau[i] - T - d[i];
				cost += e * e;
			}
			if (cost < best) {
				best = cost;
				p[0] = x;
				p[1] = y;
				p[2] = T;
				p[3] = 0;
			}
		}
}

/* Levenberg-Marquardt from p; returns the final chi2. */
static double refine(const struct problem *pb, double p[4])
{
	double lambda = 1e-3, chi2;
	double JTJ[4][4], JTr[4];

	normal_eq(pb, p, JTJ, JTr, &chi2);
	for (int it = 0; it < 100; it++) {
		double A[4][4], b[4], step[4], q[4], r[ROWS];

		memcpy(A, JTJ, sizeof(A));
		for (int a = 0; a < 4; a++) {
			A[a][a] += lambda * fmax(JTJ[a][a], 1e-12);
			b[a] = -JTr[a];
		}
		if (solve4(A, b, step) < 0)
			break;
		for (int a = 0; a < 4; a++)
			q[a] = p[a] + step[a];
		double c2 = residuals(pb, q, r, NULL);
		if (c2 < chi2) {
			double moved = fabs(step[0]) + fabs(step[1]) + fabs(step[2]);

			memcpy(p, q, sizeof(q));
			normal_eq(pb, p, JTJ, JTr, &chi2);
			lambda = fmax(lambda / 3, 1e-9);
			if (moved < 1e-8 && fabs(step[3]) < 1e-8)
				break;
		} else {
			lambda *= 4;
			if (lambda > 1e9)
				break;
		}
	}
	return chi2;
}

/* Inverse of the 4x4 JTJ by solving for each unit vector. */
static int invert4(double JTJ[4][4], double C[4][4])
{
	for (int c = 0; c < 4; c++) {
		double A[4][4], b[4] = { 0 }, x[4];

		memcpy(A, JTJ, sizeof(A));
		b[c] = 1;
		if (solve4(A, b, x) < 0)
			return -1;
		for (int r = 0; r < 4; r++)
			C[r][c] = x[r];
	}
	return 0;
}

static double phi(double z)	/* standard normal CDF */
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

struct solution {
	double p[4];		/* x, y, T, k */
	double chi2;		/* residual sum of squares, scaled */
	double C[4][4];		/* covariance */
	bool ok;		/* converged to a finite point, covariance exists */
};

static void solve(const struct problem *pb, const struct bd_table *t, const double *avoid,
		  struct solution *s)
{
	double JTJ[4][4], JTr[4];

	grid_start(pb, t, avoid, s->p);
	s->chi2 = refine(pb, s->p);
	normal_eq(pb, s->p, JTJ, JTr, &s->chi2);
	s->ok = invert4(JTJ, s->C) == 0 && isfinite(s->p[0]) && isfinite(s->p[1]);
}

/* sub = pb without arrival skip (SIZE_MAX: without none). */
static void leave_out(const struct problem *pb, size_t skip, struct problem *sub)
{
	*sub = *pb;
	sub->n = 0;
	for (size_t i = 0; i < pb->n; i++) {
		if (i == skip)
			continue;
		sub->sx[sub->n] = pb->sx[i];
		sub->sy[sub->n] = pb->sy[i];
		sub->tau[sub->n] = pb->tau[i];
		sub->n++;
	}
}

/* P(x lies on `half`) for a point x with standard deviation sx. */
static double p_on_half(const struct bd_table *t, double x, double sx, enum bd_half half)
{
	double half_w = t->line_width_m / 2, mid = t->length_m / 2;
	double pa = phi((mid - half_w - x) / sx), pb = phi((x - mid - half_w) / sx);

	return half == BD_HALF_A ? pa : half == BD_HALF_B ? pb : fmax(0, 1 - pa - pb);
}

/* A poor fit may hide one wild arrival, which can put the point anywhere.
 * The half stands if every fit that leaves one arrival out puts the die on
 * it too: then no single arrival decided it. Returns the least sure of those
 * fits' P(half), 0 when one disagrees or fails. */
static double half_without_any_one(const struct problem *pb, const struct bd_table *t,
				   enum bd_half half)
{
	double least = 1;

	if (pb->n < 4)
		return 0;
	for (size_t skip = 0; skip < pb->n; skip++) {
		struct problem sub;
		struct solution s;

		leave_out(pb, skip, &sub);
		solve(&sub, t, NULL, &s);
		if (!s.ok || !(s.C[0][0] >= 0))
			return 0;
		least = fmin(least, p_on_half(t, s.p[0], fmax(sqrt(s.C[0][0]), 1e-5), half));
	}
	return least;
}

int sens_locate(const struct sens_config *c, const struct sens_arrival *a, size_t n,
		struct sens_fix *fix)
{
	const struct bd_table *t = &c->table;
	const double v0 = c->wave_speed_mps;
	struct problem pb = { 0 };
	struct solution best;
	int64_t tref;
	size_t dof;

	memset(fix, 0, sizeof(*fix));
	fix->dropped = -1;
	if (n < 3 || n > MAX_ARR)
		return -EINVAL;
	tref = a[0].ts_ns;
	for (size_t i = 1; i < n; i++)
		if (a[i].ts_ns < tref)
			tref = a[i].ts_ns;
	pb.n = n;
	pb.sig_tau = c->timing_sigma_s * v0;
	pb.sig_k = c->speed_spread;
	pb.len = t->length_m;
	pb.wid = t->width_m;
	for (size_t i = 0; i < n; i++) {
		int64_t d;

		/* One impact's arrivals lie milliseconds apart; anything over a
		 * second is not one impact (and could overflow below). */
		if (__builtin_sub_overflow(a[i].ts_ns, tref, &d) || d > 1000000000LL)
			return -EINVAL;
		pb.sx[i] = a[i].x;
		pb.sy[i] = a[i].y;
		pb.tau[i] = ((double)d * 1e-9 - a[i].delay_s) * v0;
	}
	solve(&pb, t, NULL, &best);
	if (!best.ok)
		return -EDOM;
	dof = n - 3;	/* n times + the prior, against 4 unknowns */

	/* With five or more arrivals a single wild one (a false trigger,
	 * a late comparator) shows as a bad fit that one omission repairs.
	 * With four, every omission fits exactly: nothing to choose by. */
	if (n >= 5 && best.chi2 / (double)dof > 9.0) {
		for (size_t skip = 0; skip < n; skip++) {
			struct problem sub;
			struct solution s;

			leave_out(&pb, skip, &sub);
			solve(&sub, t, NULL, &s);
			if (s.ok && s.chi2 < best.chi2 * 0.25 &&
			    (fix->dropped < 0 || s.chi2 < best.chi2)) {
				best = s;
				fix->dropped = (int)skip;
			}
		}
		if (fix->dropped >= 0) {
			n--;
			dof--;
		}
	}

	/* Three arrivals fit exactly, and the hyperbolae of three sensors
	 * can cross twice: when another point elsewhere fits as well, the
	 * fix is one of two, and its uncertainty must span both. */
	double other[2] = { 0, 0 };
	bool ambiguous = false;
	if (dof == 0) {
		struct solution alt;

		solve(&pb, t, best.p, &alt);
		if (alt.ok && alt.chi2 < best.chi2 + 1.0 &&
		    hypot(alt.p[0] - best.p[0], alt.p[1] - best.p[1]) > 0.05) {
			ambiguous = true;
			other[0] = alt.p[0];
			other[1] = alt.p[1];
		}
	}

	double x = best.p[0], y = best.p[1];
	const double margin = 0.25;
	if (x < -margin || x > t->length_m + margin || y < -margin || y > t->width_m + margin)
		return -EDOM;

	/* The covariance assumes the stated timing noise; when the residual
	 * says the noise was larger, believe the residual. */
	double scale = 1.0, quality, fit_q = 1.0;
	if (dof >= 1) {
		double red = best.chi2 / (double)dof;

		scale = fmax(1.0, red);
		fit_q = red <= 4.0 ? 1.0 : 4.0 / red;
		quality = fit_q;
	} else {
		quality = 0.9;	/* exactly determined: no residual to check */
	}
	if (fix->dropped >= 0)
		quality *= 0.9;

	double cxx = best.C[0][0] * scale, cyy = best.C[1][1] * scale, cxy = best.C[0][1] * scale;
	if (ambiguous) {
		double hx = (other[0] - x) / 2, hy = (other[1] - y) / 2;

		/* as if the point were spread over both: half the gap each way */
		cxx += 4 * hx * hx;
		cyy += 4 * hy * hy;
		cxy += 4 * hx * hy;
		quality *= 0.5;
	}
	double tr = cxx + cyy, det = cxx * cyy - cxy * cxy;
	double lmax = tr / 2 + sqrt(fmax(0, tr * tr / 4 - det));

	fix->x = x;
	fix->y = y;
	{
		double off = best.p[2] / v0 * 1e9;	/* impact time from tref, ns */

		if (!(fabs(off) < 1e12) || __builtin_add_overflow(tref, (int64_t)llround(off), &fix->t_ns))
			return -EDOM;
	}
	fix->speed_mps = v0 * exp(best.p[3]);
	fix->sigma_x = sqrt(fmax(cxx, 0));
	fix->sigma_y = sqrt(fmax(cyy, 0));
	fix->sigma_m = sqrt(fmax(lmax, 0));
	{
		double r[ROWS], ss = 0;

		/* rms in seconds over the arrivals actually used */
		struct problem used;

		leave_out(&pb, fix->dropped >= 0 ? (size_t)fix->dropped : SIZE_MAX, &used);
		residuals(&used, best.p, r, NULL);
		for (size_t i = 0; i < used.n; i++)
			ss += r[i] * r[i];
		fix->rms_s = sqrt(ss / (double)used.n) * c->timing_sigma_s;
	}
	fix->quality = quality;
	fix->n_used = (int)n;

	double half_w = t->line_width_m / 2, mid = t->length_m / 2;
	double sx = fmax(fix->sigma_x, 1e-5);
	fix->p_half[BD_HALF_A] = phi((mid - half_w - x) / sx);
	fix->p_half[BD_HALF_B] = phi((x - mid - half_w) / sx);
	fix->p_half[BD_HALF_LINE] = fmax(0, 1 - fix->p_half[BD_HALF_A] - fix->p_half[BD_HALF_B]);
	fix->half = bd_table_half(t, x);
	/* The ruling rests on the half, so the confidence is P(half). A poor
	 * residual (already widening sigma) still lowers it, unless the half
	 * holds with any one arrival left out. */
	double robust = 1.0;
	if (fit_q < 1.0) {
		struct problem used;

		leave_out(&pb, fix->dropped >= 0 ? (size_t)fix->dropped : SIZE_MAX, &used);
		robust = fmax(fit_q, half_without_any_one(&used, t, fix->half));
	}
	fix->confidence = fmin(fix->p_half[fix->half], robust) * (quality / fit_q);
	fix->near_line = fix->half == BD_HALF_LINE || fabs(x - mid) <= half_w + c->near_line_m ||
			 fix->p_half[fix->half] < c->near_line_p;
	return 0;
}
