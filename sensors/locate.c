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

#include "sensors/internal.h"

#define MAX_ARR 16	/* arrivals one fit takes */

struct problem {
	size_t n;		/* arrivals */
	double sx[MAX_ARR], sy[MAX_ARR];	/* sensor positions, m */
	double tau[MAX_ARR];	/* (t_i - tref - delta_i) * v0, m */
	double sig_tau;		/* timing sd in metres */
	double sig_k;		/* prior sd of the log speed ratio */
	double v0;		/* nominal speed, m/s: seconds to metres */
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
static void grid_start(const struct problem *pb, const struct bd_table *t, double p[4])
{
	const double step = 0.10, margin = 0.05;
	double best = INFINITY;

	for (double x = -margin; x <= t->length_m + margin + 1e-9; x += step)
		for (double y = -margin; y <= t->width_m + margin + 1e-9; y += step) {
			double d[MAX_ARR], T = 0, cost = 0;


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

/* The starts for a fit of three arrivals, which may fit two points
 * (their hyperbolae cross twice): the local minima of the same 10 cm grid,
 * best first, at most max of them. One start, the grid's best 25 cm or
 * more from the first point, missed the second next to a disc, where the
 * cost is a cusp (a late disc's other explanation, on the other half). */
#define GRID_NX 32
#define GRID_NY 20
static size_t grid_minima(const struct problem *pb, const struct bd_table *t, double (*p)[4],
			  size_t max)
{
	const double margin = 0.05;
	/* 10 cm, coarser on a table too large for the grid's cells */
	const double sx = fmax(0.10, (t->length_m + 2 * margin) / (GRID_NX - 1));
	const double sy = fmax(0.10, (t->width_m + 2 * margin) / (GRID_NY - 1));
	double cost[GRID_NX][GRID_NY], T[GRID_NX][GRID_NY];
	int nx = 0, ny = 0;
	size_t nb = 0;

	for (double x = -margin; x <= t->length_m + margin + 1e-9 && nx < GRID_NX; x += sx, nx++) {
		ny = 0;
		for (double y = -margin; y <= t->width_m + margin + 1e-9 && ny < GRID_NY; y += sy, ny++) {
			double d[MAX_ARR], tt = 0, c = 0;

			for (size_t i = 0; i < pb->n; i++) {
				d[i] = hypot(x - pb->sx[i], y - pb->sy[i]);
				tt += pb->tau[i] - d[i];
			}
			tt /= (double)pb->n;
			for (size_t i = 0; i < pb->n; i++)
				c += (pb->tau[i] - tt - d[i]) * (pb->tau[i] - tt - d[i]);
			cost[nx][ny] = c;
			T[nx][ny] = tt;
		}
	}
	/* the local minima, then the best max of them */
	double mc[GRID_NX * GRID_NY];
	int mi[GRID_NX * GRID_NY], mj[GRID_NX * GRID_NY];
	size_t nm = 0;

	for (int i = 0; i < nx; i++)
		for (int j = 0; j < ny; j++) {
			bool low = true;

			for (int di = -1; di <= 1; di++)
				for (int dj = -1; dj <= 1; dj++) {
					int u = i + di, v = j + dj;

					if ((di || dj) && u >= 0 && u < nx && v >= 0 && v < ny &&
					    cost[u][v] < cost[i][j])
						low = false;
				}
			if (low) {
				mc[nm] = cost[i][j];
				mi[nm] = i;
				mj[nm++] = j;
			}
		}
	for (; nb < max && nb < nm; nb++) {
		size_t k = nb;

		for (size_t q = nb + 1; q < nm; q++)
			if (mc[q] < mc[k])
				k = q;
		double c = mc[k];
		int ki = mi[k], kj = mj[k];

		mc[k] = mc[nb];
		mi[k] = mi[nb];
		mj[k] = mj[nb];
		mc[nb] = c;
		p[nb][0] = -margin + ki * sx;
		p[nb][1] = -margin + kj * sy;
		p[nb][2] = T[ki][kj];
		p[nb][3] = 0;
	}
	return nb;
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
		if (core_solve(&A[0][0], b, step, 4, 1e-300) < 0)
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
		if (core_solve(&A[0][0], b, x, 4, 1e-300) < 0)
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

/* The fit from start p0 (NULL: the grid's best). */
static void solve(const struct problem *pb, const struct bd_table *t, const double *p0,
		  struct solution *s)
{
	double JTJ[4][4], JTr[4];

	if (p0)
		memcpy(s->p, p0, sizeof(s->p));
	else
		grid_start(pb, t, s->p);
	s->chi2 = refine(pb, s->p);
	normal_eq(pb, s->p, JTJ, JTr, &s->chi2);
	/* The die is on the table: a uniform prior over it (variance
	 * length^2 / 12) bounds a direction the arrivals leave open. A point
	 * on the line through two discs, beyond one of them, has the same
	 * arrival difference all along it: three arrivals there leave the
	 * point loose along the line, and without the prior that explanation
	 * (often a late disc's right one, beside a side disc) was dropped as
	 * no point. Elsewhere it changes the covariance by 1e-5. */
	JTJ[0][0] += 12 / (t->length_m * t->length_m);
	JTJ[1][1] += 12 / (t->width_m * t->width_m);
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

/* The half is what a ruling takes from a landing, so its probability is
 * the posterior over every explanation of the arrivals (docs/sensors.md,
 * "Confidence is about the half"): all arrivals are the impact's wave, or
 * one of them is not (a false edge ahead of the wave; less often one after
 * it), each with every point its arrivals fit (three arrivals can fit two
 * points), and the timing noise as configured or twice that (the
 * installer's figure may be low). Each explanation is weighed by how well
 * it fits (chi-square) and its prior; an arrival that is not the wave is
 * uniform over the grouping window. */
#define OUTLIER_P 0.01		/* prior chance one arrival is not the impact's wave */
#define LATE_P 0.3		/* a false edge after the wave, against one before it */
/* A comparator that misses a weak first arrival fires on a later cycle of
 * the ring: its arrival is then only an upper bound, late by an unknown
 * delay of a cycle or two (0.2-1 ms at ~2 kHz; uniform over [0,
 * LATE_MAX_S] here). Later than that it is weighed as a false edge: a
 * wider bound would also explain two dice landing 1 ms apart as one die
 * and a late disc, at a point where neither landed. LATE_DISC_P is its
 * prior per disc and impact, set on the fault generator
 * (tests/support/piezo_gen.h, 0.5 % per disc): 0.2 % leaves late end discs
 * near the line at a confident wrong half; 1 % halves the silent wrong
 * halves of 0.5 % and keeps the fault-free figures; 4 % leaves none in
 * 20,000 but makes clean impacts 18 cm from the line less than 0.99 sure
 * (docs/sensors.md "Late and missing discs"). */
#define LATE_DISC_P 0.01
#define LATE_MAX_S 1.0e-3
/* Leaving one of four arrivals out leaves an exact fit whose covariance
 * is larger than the full fit's (log det by 5.5 on the diamond, typically):
 * the Occam factor of that explanation. Its own Laplace volume measures
 * how glancingly its hyperbolae cross (widely near the edges), not which
 * arrival was wrong: weighing by it made a wrong half at confidence 0.9
 * one time in four on simulated false edges, so every such explanation
 * gets the typical one (log sqrt(det) = 2.75), and so do the two points of
 * one set of arrivals. */
#define LOO_VOLUME 2.75
/* An edge the hold-off threw away after an arrival (sens_locate_alt): if
 * the arrival was the wave, that edge was its ringing or another false
 * edge, taken as likely as not (ALT_Q) and spread over ALT_RING_S after
 * it; if the arrival was a false trigger ahead of the wave, the edge was
 * the wave. */
#define ALT_Q 0.5
#define ALT_RING_S 2e-3
/* The stated sigma covers every explanation with this much of the
 * posterior or more: each lies within COVER_K sigma of the reported point
 * along its own direction (docs/sensors.md "Late and missing discs"). */
#define COVER_W 1e-3
#define COVER_K 3.0
#define MAX_MODES (2 * (MAX_ARR + 1) + 1 + MAX_ARR)	/* two points per hypothesis, "unknown", swaps */
#define N_SCALES 2		/* timing noise x1 and x2 */

struct mode {
	struct solution s;	/* the fit */
	int skip;		/* arrival taken as not the wave, -1 none */
	int swap;		/* arrival taken as a false trigger, its line's thrown-away
				 * edge as the wave, -1 none */
	size_t n_arr;		/* arrivals the fit explains */
	bool unknown;		/* one of three arrivals is not the wave: no point at all */
};

/* The explanations above are all one point's; two impacts inside one
 * grouping window (two dice landing at once) are none of them, and their
 * arrivals, each line's the earlier wave, came out as a point between
 * them, sure of its half (the noise-twice explanation took the residual).
 * When the most probable explanation, of four or more arrivals, has a
 * residual at the stated noise (in the pipeline, the noise the table
 * shows) that one impact's arrivals exceed once in 10,000, no point
 * explains them: the half is unknown. Many such pairs still fit one point
 * within the noise (four arrivals leave one degree of freedom), and those
 * it cannot tell. */
#define FIT_P 1e-4

double sens_chi2_tail(double x, int d)
{
	double term, sum;

	if (d < 1 || !(x > 0))
		return 1.0;
	if (d % 2 == 0) {	/* e^(-x/2) (1 + x/2 + (x/2)^2/2! + ... , d/2 terms) */
		term = sum = 1.0;
		for (int k = 1; k < d / 2; k++)
			sum += term *= x / (2.0 * k);
		return exp(-x / 2) * sum;
	}
	/* odd: erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) (1 + x/3 + x^2/(3*5) + ...,
	 * (d-1)/2 terms) */
	term = 1.0;
	sum = 0;
	for (int k = 0; k < (d - 1) / 2; k++) {
		sum += term;
		term *= x / (2.0 * k + 3);
	}
	return erfc(sqrt(x / 2)) + sqrt(2 * x / M_PI) * exp(-x / 2) * sum;
}

/* Whether mode m's point explains its arrivals (see FIT_P), judged on the
 * arrivals and the speed prior only: the table's soft edge rows are the
 * place's prior, not its evidence. Exact fits of three have no residual
 * to tell. */
static bool places_the_die(const struct mode *m, const struct bd_table *t)
{
	double bx = outside(m->s.p[0], t->length_m) / SIG_BOUND;
	double by = outside(m->s.p[1], t->width_m) / SIG_BOUND;

	return m->n_arr <= 3 || sens_chi2_tail(m->s.chi2 - bx * bx - by * by, (int)m->n_arr - 3) >= FIT_P;
}

/* A fit whose covariance is not a point on the table (singular, or wider
 * than the table itself: the arrivals leave a direction open) is no
 * explanation with a place; its Laplace volume would be meaningless. */
static bool fixes_a_point(const struct solution *s, const struct bd_table *t)
{
	return s->C[0][0] > 0 && s->C[1][1] > 0 && isfinite(s->C[0][0]) && isfinite(s->C[1][1]) &&
	       s->C[0][0] < t->length_m * t->length_m && s->C[1][1] < t->width_m * t->width_m;
}

static size_t add_modes(const struct problem *pb, const struct bd_table *t, int skip,
			struct mode *m, size_t nm)
{
	struct problem sub;
	struct solution s;

	leave_out(pb, skip < 0 ? SIZE_MAX : (size_t)skip, &sub);
	solve(&sub, t, NULL, &s);
	if (sub.n != 3) {
		if (s.ok && fixes_a_point(&s, t) && nm < MAX_MODES)
			m[nm++] = (struct mode){ .s = s, .skip = skip, .swap = -1, .n_arr = sub.n };
		return nm;
	}
	/* Three hyperbolae may cross twice: the two best points fitted from
	 * the grid's best, its other minima and beside the disc that heard
	 * it first (inward: a point that near a disc lies in a cusp the grid
	 * steps over, and a late disc's other explanation may be there). */
	double starts[5][4];
	size_t ns = grid_minima(&sub, t, starts, 4), first = 0;
	struct solution best[2] = { { .ok = false }, { .ok = false } }, alt;

	for (size_t i = 1; i < sub.n; i++)
		if (sub.tau[i] < sub.tau[first])
			first = i;
	double cx = t->length_m / 2 - sub.sx[first], cy = t->width_m / 2 - sub.sy[first];
	double r = fmax(hypot(cx, cy), 1e-9);

	starts[ns][0] = sub.sx[first] + 0.03 * cx / r;
	starts[ns][1] = sub.sy[first] + 0.03 * cy / r;
	starts[ns][2] = sub.tau[first] - 0.03;
	starts[ns++][3] = 0;
	for (size_t k = 0; k <= ns; k++) {
		if (k > 0)
			solve(&sub, t, starts[k - 1], &alt);
		else
			alt = s;
		if (!alt.ok || !fixes_a_point(&alt, t))
			continue;
		if (best[0].ok && hypot(alt.p[0] - best[0].p[0], alt.p[1] - best[0].p[1]) <= 0.05) {
			if (alt.chi2 < best[0].chi2)
				best[0] = alt;
		} else if (!best[0].ok || alt.chi2 < best[0].chi2) {
			best[1] = best[0];
			best[0] = alt;
		} else if (!best[1].ok || alt.chi2 < best[1].chi2) {
			best[1] = alt;
		}
	}
	for (int k = 0; k < 2; k++)
		if (best[k].ok && nm < MAX_MODES)
			m[nm++] = (struct mode){ .s = best[k], .skip = skip, .swap = -1, .n_arr = 3 };
	return nm;
}

/* The explanation "arrival i was a false trigger and alt_tau (its line's
 * thrown-away edge) the wave". */
static size_t add_swap(const struct problem *pb, const struct bd_table *t, size_t i,
		       double alt_tau, struct mode *m, size_t nm)
{
	struct problem sub = *pb;
	struct solution s;

	sub.tau[i] = alt_tau;
	solve(&sub, t, NULL, &s);
	if (!s.ok || !fixes_a_point(&s, t) || nm >= MAX_MODES)
		return nm;
	m[nm++] = (struct mode){ .s = s, .skip = -1, .swap = (int)i, .n_arr = sub.n };
	return nm;
}

/* Adds weight w to p_half as "the half unknown": each half by its share of
 * the table's length. */
static void add_unknown_half(const struct bd_table *t, double w, double p_half[3])
{
	double line = t->line_width_m / t->length_m;

	p_half[BD_HALF_A] += w * (1 - line) / 2;
	p_half[BD_HALF_B] += w * (1 - line) / 2;
	p_half[BD_HALF_LINE] += w * line;
}

/* Posterior of the halves over the explanations m (p_half out, summing to
 * 1); returns the index of the explanation whose point is reported. */
static size_t posterior(const struct problem *pb, const struct bd_table *t, double window_m,
			const struct mode *m, size_t nm, double p_half[3], double *w_out)
{
	static const double scale[N_SCALES] = { 1, 2 }, prior[N_SCALES] = { 0.85, 0.15 };
	const double log_out = log(OUTLIER_P / (1 - OUTLIER_P)) +
			       log(sqrt(2 * M_PI) * pb->sig_tau / window_m);
	const double log_swap = log_out - log(ALT_Q) -
				log(sqrt(2 * M_PI) * pb->sig_tau / (ALT_RING_S * pb->v0));
	double lw[MAX_MODES][N_SCALES], wsum[MAX_MODES], top = -INFINITY, sum = 0, best_w = -1;
	size_t best = 0;
	int likely = 0;

	/* An arrival left out is a false edge or a late wave. A comparator
	 * that fires falsely before the wave arrives holds the wave's own edge
	 * off, so a false edge is early; one later than the wave needs the
	 * wave missed as well (and a false edge after). A late wave is only
	 * later: the arrival an upper bound, by up to LATE_MAX_S. */
	double fault[MAX_MODES];
	const double p_false = OUTLIER_P / (1 - OUTLIER_P) / window_m, late_max = LATE_MAX_S * pb->v0;
	for (size_t i = 0; i < nm; i++) {
		fault[i] = 0;
		if (m[i].skip >= 0 && !m[i].unknown) {
			size_t j = (size_t)m[i].skip;
			double d = hypot(m[i].s.p[0] - pb->sx[j], m[i].s.p[1] - pb->sy[j]);
			double e = pb->tau[j] - m[i].s.p[2] - d * exp(-m[i].s.p[3]);
			double g = (phi(e / pb->sig_tau) - phi((e - late_max) / pb->sig_tau)) / late_max;

			fault[i] = log(p_false * (e > 3 * pb->sig_tau ? LATE_P : 1) + LATE_DISC_P * g) +
				   log(sqrt(2 * M_PI) * pb->sig_tau);
		}
	}
	for (size_t i = 0; i < nm; i++)
		for (int k = 0; k < N_SCALES; k++) {
			double ls = log(scale[k]);

			if (m[i].unknown) {
				/* The three arrivals fit exactly whatever they are;
				 * only the fitted speed tells: a wrong arrival gives
				 * any speed (log ratio uniform over +-0.5), the wave
				 * one within the spread. */
				lw[i][k] = log(prior[k]) + log(3 * OUTLIER_P / (1 - OUTLIER_P)) +
					   4 * ls - 3 * ls +
					   log(sqrt(2 * M_PI) * pb->sig_k);
			} else {
				/* A swap trades its edge's "not the wave" (every
				 * other explanation's) for a false trigger. */
				lw[i][k] = log(prior[k]) + (m[i].skip >= 0 ? fault[i] : 0) +
					   (m[i].swap >= 0 ? log_swap : 0) -
					   m[i].s.chi2 / (2 * scale[k] * scale[k]) +
					   (m[i].skip >= 0 ? LOO_VOLUME : 0) +
					   4 * ls - (double)(m[i].n_arr + 1) * ls;
			}
			top = fmax(top, lw[i][k]);
		}
	p_half[0] = p_half[1] = p_half[2] = 0;
	for (size_t i = 0; i < nm; i++) {
		double wi = 0;

		for (int k = 0; k < N_SCALES; k++) {
			double w = exp(lw[i][k] - top), sx;

			wi += w;
			sum += w;
			if (m[i].unknown) {
				add_unknown_half(t, w, p_half);
				continue;
			}
			/* A residual larger than the stated noise widens the
			 * point (measured: it calibrates P(half) near the line). */
			double red = m[i].n_arr > 3 ? m[i].s.chi2 / (double)(m[i].n_arr - 3) : 0;

			sx = fmax(sqrt(fmax(m[i].s.C[0][0], 0) * fmax(1.0, red)) * scale[k], 1e-5);
			for (int h = 0; h < 3; h++)
				p_half[h] += w * p_on_half(t, m[i].s.p[0], sx, (enum bd_half)h);
		}
		wsum[i] = wi;
	}
	for (int h = 0; h < 3; h++) {
		p_half[h] /= sum;
		if (p_half[h] > p_half[likely])
			likely = h;
	}
	for (size_t i = 0; i < nm; i++)
		w_out[i] = wsum[i] / sum;
	/* The point reported: the most probable explanation on the most
	 * probable half (the one the ruling takes), else the most probable. */
	for (int pass = 0; pass < 2 && best_w < 0; pass++)
		for (size_t i = 0; i < nm; i++)
			if (!m[i].unknown && wsum[i] > best_w &&
			    (pass || bd_table_half(t, m[i].s.p[0]) == (enum bd_half)likely)) {
				best_w = wsum[i];
				best = i;
			}
	return best;
}

int sens_locate(const struct sens_config *c, const struct sens_arrival *a, size_t n,
		struct sens_fix *fix)
{
	return sens_locate_alt(c, a, NULL, n, fix);
}

int sens_locate_alt(const struct sens_config *c, const struct sens_arrival *a,
		    const int64_t *alt_ns, size_t n, struct sens_fix *fix)
{
	const struct bd_table *t = &c->table;
	const double v0 = c->wave_speed_mps;
	struct problem pb = { 0 };
	struct mode modes[MAX_MODES];
	double alt_tau[MAX_ARR];
	bool has_alt[MAX_ARR] = { false };
	size_t nm = 0, bi;
	int64_t tref;

	memset(fix, 0, sizeof(*fix));
	fix->dropped = -1;
	fix->swapped = -1;
	if (n < 3 || n > MAX_ARR)
		return -EINVAL;
	tref = a[0].ts_ns;
	for (size_t i = 1; i < n; i++)
		if (a[i].ts_ns < tref)
			tref = a[i].ts_ns;
	pb.n = n;
	pb.sig_tau = c->timing_sigma_s * v0;
	pb.sig_k = c->speed_spread;
	pb.v0 = v0;
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
		/* a thrown-away edge after the arrival, within the second */
		if (alt_ns && n >= 4 && alt_ns[i] > a[i].ts_ns &&
		    !__builtin_sub_overflow(alt_ns[i], tref, &d) && d <= 1000000000LL) {
			has_alt[i] = true;
			alt_tau[i] = ((double)d * 1e-9 - a[i].delay_s) * v0;
		}
	}

	/* Every explanation: all arrivals the wave, or (with four or more)
	 * any one of them not. Three arrivals cannot show which one is
	 * wrong, only that the speed they need is implausible. */
	nm = add_modes(&pb, t, -1, modes, nm);
	if (n >= 4) {
		for (size_t skip = 0; skip < n; skip++)
			nm = add_modes(&pb, t, (int)skip, modes, nm);
		for (size_t i = 0; i < n; i++)
			if (has_alt[i])
				nm = add_swap(&pb, t, i, alt_tau[i], modes, nm);
	} else if (nm > 0 && nm < MAX_MODES) {
		modes[nm] = modes[0];
		modes[nm].unknown = true;
		nm++;
	}
	if (nm == 0)
		return -EDOM;
	double window_m = (double)sens_config_group_window_ns(c) * 1e-9 * v0;
	double w[MAX_MODES];
	bi = posterior(&pb, t, window_m, modes, nm, fix->p_half, w);

	/* The residual of the fit to every arrival: the pipeline's measure
	 * of the table's noise (a wild arrival among them is rare, and its
	 * median ignores it). */
	if (modes[0].skip < 0 && modes[0].swap < 0 && n >= 4)
		fix->red_chi2 = modes[0].s.chi2 / (double)(n - 3);

	const struct mode *bm = &modes[bi];
	struct solution best = bm->s;
	size_t dof = bm->n_arr - 3;	/* n times + the prior, against 4 unknowns */
	if (bm->skip >= 0) {
		fix->dropped = bm->skip;
		n--;
	}
	fix->swapped = bm->swap;
	/* The most probable explanation does not place the die: no point
	 * does, and the half is unknown. */
	fix->no_point = !places_the_die(bm, t);
	if (fix->no_point) {
		memset(fix->p_half, 0, sizeof(fix->p_half));
		add_unknown_half(t, 1.0, fix->p_half);
	}

	/* Was the chosen point one of two (three arrivals)? */
	bool ambiguous = false;
	double other[2] = { 0, 0 };
	for (size_t i = 0; i < nm; i++)
		if (i != bi && !modes[i].unknown && modes[i].skip == bm->skip &&
		    modes[i].swap == bm->swap &&
		    modes[i].s.chi2 < best.chi2 + 1.0) {
			ambiguous = true;
			other[0] = modes[i].s.p[0];
			other[1] = modes[i].s.p[1];
		}

	double x = best.p[0], y = best.p[1];
	const double margin = 0.25;
	if (x < -margin || x > t->length_m + margin || y < -margin || y > t->width_m + margin)
		return -EDOM;

	/* The covariance assumes the stated timing noise; when the residual
	 * says the noise was larger, believe the residual (for sigma; the
	 * half's probability weighs the noise itself, above). */
	double scale = 1.0, quality;
	if (dof >= 1) {
		double red = best.chi2 / (double)dof;

		scale = fmax(1.0, red);
		quality = red <= 4.0 ? 1.0 : 4.0 / red;
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
	/* Every explanation that fits (COVER_W of the posterior or more)
	 * is within 3 sigma of the point, and one on another half is doubt:
	 * a late disc that fits another point nearly as well as no fault
	 * does. (Doubt also where such a point's own spread reaches the other
	 * half caught one more wrong half in 20,000, at p 0.9965, and asked
	 * for review on 1.8 % of fault-free impacts beyond 3 cm, not 0.9 %.) */
	bool doubt = false;
	for (size_t i = 0; i < nm; i++) {
		double dx = modes[i].s.p[0] - x, dy = modes[i].s.p[1] - y;

		if (i == bi || modes[i].unknown || !(w[i] >= COVER_W))
			continue;
		cxx += dx * dx / (COVER_K * COVER_K);
		cyy += dy * dy / (COVER_K * COVER_K);
		cxy += dx * dy / (COVER_K * COVER_K);
		if (bd_table_half(t, modes[i].s.p[0]) != bd_table_half(t, x))
			doubt = true;
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
		if (fix->swapped >= 0)
			used.tau[fix->swapped] = alt_tau[fix->swapped];
		residuals(&used, best.p, r, NULL);
		for (size_t i = 0; i < used.n; i++)
			ss += r[i] * r[i];
		fix->rms_s = sqrt(ss / (double)used.n) * c->timing_sigma_s;
	}
	fix->quality = quality;
	fix->n_used = (int)n;

	double half_w = t->line_width_m / 2, mid = t->length_m / 2;
	fix->half = bd_table_half(t, x);
	fix->confidence = fix->p_half[fix->half];
	fix->near_line = fix->half == BD_HALF_LINE || fabs(x - mid) <= half_w + c->near_line_m ||
			 fix->p_half[fix->half] < c->near_line_p || doubt;
	return 0;
}

enum bd_half sens_half_of_two(const struct sens_config *c, const struct sens_arrival a[2],
			      double p_half[3])
{
	const struct bd_table *t = &c->table;
	const double v0 = c->wave_speed_mps, step = 0.02;
	double sig = c->timing_sigma_s * v0, z[3] = { 0, 0, 0 }, n = 0, good, out, w, obs;
	enum bd_half best = BD_HALF_A;
	int64_t dt;

	/* Edges from outside may carry any time: a second apart is not one
	 * impact, and says nothing of where. */
	if (__builtin_sub_overflow(a[0].ts_ns, a[1].ts_ns, &dt) || dt > 1000000000LL ||
	    dt < -1000000000LL)
		dt = 1000000000LL;
	obs = ((double)dt * 1e-9 - (a[0].delay_s - a[1].delay_s)) * v0;

	/* The arrival difference over the top (uniform prior), the speed's
	 * spread scaling the travel difference: where on the table could a
	 * wave reach these two discs this far apart? */
	/* Along the table the columns are centred on the line's middle, a
	 * quarter line wide: the line (BD-P6) is then whole columns, none on
	 * its edges; a grid from the end put the line a centimetre off (an
	 * impact on its B side came out B at 0.99). */
	double sx = fmax(0.002, fmin(step, t->line_width_m / 4));
	int kx = (int)floor(t->length_m / 2 / sx);

	for (int i = -kx; i < kx; i++) {
		double x = t->length_m / 2 + (i + 0.5) * sx;

		for (double y = step / 2; y < t->width_m; y += step) {
			double dd = hypot(x - a[0].x, y - a[0].y) - hypot(x - a[1].x, y - a[1].y);
			double var = 2 * sig * sig + dd * dd * c->speed_spread * c->speed_spread;
			double e = obs - dd;

			w = exp(-e * e / (2 * var)) / sqrt(2 * M_PI * var);
			z[bd_table_half(t, x)] += w;
			n++;
		}
	}
	good = (z[0] + z[1] + z[2]) / n;
	/* One of the two not the wave: the difference is anything within
	 * the grouping window, and the half unknown. */
	out = 2 * OUTLIER_P / (1 - OUTLIER_P) / (2 * (double)sens_config_group_window_ns(c) * 1e-9 * v0);
	{
		double line = t->line_width_m / t->length_m, tot = good + out;

		for (int h = 0; h < 3; h++) {
			double prior_h = h == BD_HALF_LINE ? line : (1 - line) / 2;
			double zs = z[0] + z[1] + z[2];

			p_half[h] = ((zs > 0 ? good * z[h] / zs : 0) + out * prior_h) / tot;
			if (p_half[h] > p_half[best])
				best = (enum bd_half)h;
		}
	}
	return best;
}
