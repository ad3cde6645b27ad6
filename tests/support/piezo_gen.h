/* An impact generator for the piezo fix, written from the physics and not
 * from sim/ (issue 31): the check on sensors/ must not share the
 * simulator's assumptions. Header-only, so that a benchmark (bench/, which
 * links no test support) and the unit tests use the same one.
 *
 * One impact at (x, y), at t0 on the table: a bending wave leaves it at
 * this impact's speed v = v0 (1 + speed_sd N(0,1)) (the force and spectrum
 * of each hit differ, and bending waves are dispersive), reaches disc i
 * after |p - s_i| / v, goes through the channel's delay, the Pi's interrupt
 * latency (uniform in [lat_min, lat_max]) and Gaussian jitter. Faults, at
 * most one an impact: a disc that does not fire (p_missing), a disc whose
 * comparator misses the weak first arrival and fires on a later cycle,
 * late_min..late_max after (p_late). Each edge may ring: up to `ring`
 * more edges a period apart, which the hold-off must swallow. Impacts are
 * uniform on the top, except a share band_p in a band of +-band_m about
 * the centre line, where the half is hardest and matters most (BD-P1,
 * BD-P6). Deterministic from the seed (splitmix64). */
#ifndef DYEREF_TEST_PIEZO_GEN_H
#define DYEREF_TEST_PIEZO_GEN_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "sensors/sensors.h"

struct pzg {
	uint64_t state;		/* splitmix64 */
	double jitter_s;	/* sd of each edge's Gaussian jitter */
	double lat_min_s, lat_max_s;	/* interrupt latency, uniform */
	double speed_sd;	/* relative sd of one impact's wave speed */
	double p_missing;	/* an impact with one disc silent */
	double p_late;		/* an impact with one disc late by late_min..late_max */
	double late_min_s, late_max_s;
	int ring;		/* ringing: up to this many edges after each, 0 none */
	double ring_period_s;	/* their spacing */
	double band_p, band_m;	/* share of impacts within band_m of the line's middle */
};

struct pzg_truth {
	double x, y;		/* where it landed */
	double speed_mps;	/* this impact's wave speed */
	int fault;		/* 0 none, 1 a disc late, 2 a disc missing */
	int disc;		/* the faulty disc's index among the table lines, or -1 */
	double late_s;		/* how late, fault 1 */
};

/* The table: 7-20 us latency, 5 % speed spread, 2 % late (0.2-1
 * ms), 2 % missing, ringing, half the impacts within 10 cm of the line. */
static inline void pzg_defaults(struct pzg *g, uint64_t seed, double jitter_s)
{
	*g = (struct pzg){ .state = seed * 0x9e3779b97f4a7c15ULL + 1, .jitter_s = jitter_s,
			   .lat_min_s = 7e-6, .lat_max_s = 20e-6, .speed_sd = 0.05,
			   .p_missing = 0.02, .p_late = 0.02, .late_min_s = 0.2e-3,
			   .late_max_s = 1.0e-3, .ring = 3, .ring_period_s = 0.5e-3,
			   .band_p = 0.5, .band_m = 0.10 };
}

/* The timing sigma an installer would measure on such a table: the
 * jitter and the latency's spread. */
static inline double pzg_sigma_s(const struct pzg *g)
{
	double l = g->lat_max_s - g->lat_min_s;

	return sqrt(g->jitter_s * g->jitter_s + l * l / 12);
}

static inline uint64_t pzg_next(struct pzg *g)
{
	uint64_t z = (g->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1). */
static inline double pzg_uniform(struct pzg *g)
{
	return ((double)(pzg_next(g) >> 11) + 0.5) / 9007199254740992.0;
}

/* Standard normal (Box-Muller, one of the pair). */
static inline double pzg_normal(struct pzg *g)
{
	double u = pzg_uniform(g), v = pzg_uniform(g);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* The truth's point for the next impact on c's table. */
static inline void pzg_point(struct pzg *g, const struct sens_config *c, double *x, double *y)
{
	double L = c->table.length_m, W = c->table.width_m;

	if (pzg_uniform(g) < g->band_p)
		*x = L / 2 + (2 * pzg_uniform(g) - 1) * g->band_m;
	else
		*x = pzg_uniform(g) * L;
	*y = pzg_uniform(g) * W;
}

/* Edges of one impact at (x, y) at t0_ns on c's table lines (the truth's
 * positions and delays are c's), in time order, into out (at most cap);
 * returns how many. tr (may be NULL) gets the truth. */
static inline size_t pzg_impact_at(struct pzg *g, const struct sens_config *c, double x, double y,
				   int64_t t0_ns, struct pzg_truth *tr, struct sens_edge *out,
				   size_t cap)
{
	struct pzg_truth t = { .x = x, .y = y, .disc = -1 };
	size_t n = 0, n_table = 0;
	double u;

	for (size_t i = 0; i < c->n_lines; i++)
		n_table += c->lines[i].role == SENS_ROLE_TABLE;
	t.speed_mps = c->wave_speed_mps * (1 + g->speed_sd * pzg_normal(g));
	u = pzg_uniform(g);
	if (n_table > 0 && u < g->p_missing + g->p_late) {
		t.fault = u < g->p_missing ? 2 : 1;
		t.disc = (int)(pzg_uniform(g) * (double)n_table);
		if (t.fault == 1)
			t.late_s = g->late_min_s + (g->late_max_s - g->late_min_s) * pzg_uniform(g);
	}
	for (size_t i = 0, k = 0; i < c->n_lines; i++) {
		const struct sens_line_cfg *l = &c->lines[i];
		double ts;
		int rings;

		if (l->role != SENS_ROLE_TABLE)
			continue;
		if (t.fault == 2 && (int)k == t.disc) {
			k++;
			continue;
		}
		ts = hypot(x - l->x, y - l->y) / t.speed_mps + l->delay_s + g->jitter_s * pzg_normal(g) +
		     g->lat_min_s + (g->lat_max_s - g->lat_min_s) * pzg_uniform(g) +
		     (t.fault == 1 && (int)k == t.disc ? t.late_s : 0);
		rings = g->ring > 0 ? (int)(pzg_uniform(g) * (g->ring + 1)) : 0;
		for (int r = 0; r <= rings && n < cap; r++)
			out[n++] = (struct sens_edge){
				.line = l->offset,
				.ts_ns = t0_ns + (int64_t)llround((ts + r * g->ring_period_s) * 1e9),
			};
		k++;
	}
	sens_edges_sort(out, n);
	if (tr)
		*tr = t;
	return n;
}

/* pzg_impact_at() at a point drawn by pzg_point(). */
static inline size_t pzg_impact(struct pzg *g, const struct sens_config *c, int64_t t0_ns,
				struct pzg_truth *tr, struct sens_edge *out, size_t cap)
{
	double x, y;

	pzg_point(g, c, &x, &y);
	return pzg_impact_at(g, c, x, y, t0_ns, tr, out, cap);
}

/* What a run of generated impacts through the pipeline measured. */
struct pzg_stats {
	size_t n;		/* impacts */
	size_t located;		/* with a fix */
	double median_cm, p95_cm;	/* error of the located ones */
	size_t far, far_right;	/* beyond 3 cm of the line's edges: halves right */
	size_t beyond_3sigma;	/* located, error beyond 3 sigma_m */
	size_t sure;		/* halves given at p >= 0.99 */
	size_t sure_wrong;	/* of those, wrong */
	size_t sure_wrong_silent;	/* of those, not sent to review (near_line unset) */
	size_t wrong_silent;	/* any wrong half not sent to review */
};

static inline int pzg_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* n impacts from g, one a second, through a pipeline for c (the truth's
 * table too), into st. err_cm (the caller's, n entries) holds the errors
 * of the located ones, sorted. 0, or -1 when the pipeline cannot be made
 * or an impact gives no table observation. */
static inline int pzg_run(struct pzg *g, const struct sens_config *c, size_t n, double *err_cm,
			  struct pzg_stats *st)
{
	struct sens_pipeline *p = sens_pipeline_new(c);
	const double mid = c->table.length_m / 2, edge = c->table.line_width_m / 2;

	*st = (struct pzg_stats){ .n = n };
	if (!p)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct sens_edge e[64];
		struct sens_obs o[8];
		struct pzg_truth tr;
		int64_t t0 = (int64_t)(i + 1) * 1000000000LL;
		size_t ne = pzg_impact(g, c, t0, &tr, e, 64), no = 0;
		const struct sens_obs *t = NULL;

		for (size_t k = 0; k < ne; k++)
			no += sens_pipeline_push(p, &e[k], o + no, 8 - no);
		no += sens_pipeline_flush(p, t0 + 500000000LL, o + no, 8 - no);
		for (size_t k = 0; k < no; k++)
			if (o[k].kind == SENS_OBS_IMPACT && o[k].ev.kind == BD_EV_TABLE)
				t = &o[k];
		if (!t) {
			sens_pipeline_free(p);
			return -1;
		}
		enum bd_half truth = bd_table_half(&c->table, tr.x);
		bool wrong = t->ev.half != truth, review = !t->has_fix || t->fix.near_line;

		st->wrong_silent += wrong && !review;
		if (t->ev.confidence >= 0.99) {
			st->sure++;
			st->sure_wrong += wrong;
			st->sure_wrong_silent += wrong && !review;
		}
		if (fabs(tr.x - mid) > edge + 0.03) {
			st->far++;
			st->far_right += !wrong;
		}
		if (!t->has_fix)
			continue;
		double d = hypot(t->fix.x - tr.x, t->fix.y - tr.y);

		err_cm[st->located++] = d * 100;
		st->beyond_3sigma += d > 3 * t->fix.sigma_m;
	}
	sens_pipeline_free(p);
	if (st->located > 0) {
		qsort(err_cm, st->located, sizeof(double), pzg_cmp_double);
		st->median_cm = err_cm[(st->located - 1) / 2];
		st->p95_cm = err_cm[(size_t)(0.95 * (double)(st->located - 1) + 0.5)];
	}
	return 0;
}

#endif /* DYEREF_TEST_PIEZO_GEN_H */
