/*
 * sim: the virtual table. Throws with known truth, producing what the real
 * sensors and camera would: piezo edges and camera frames. Used by the demo
 * (`dyeref serve --sim`), the tests and the accuracy benchmarks.
 *
 * Deterministic: every random draw comes from a caller-seeded generator
 * (struct sim_rng); nothing reads a clock.
 *
 * Sections: random numbers; piezo table model (sim_piezo_); throws,
 * matches and truth (sim_throw_, sim_match_).
 */
#ifndef DYEREF_SIM_H
#define DYEREF_SIM_H

#include <stdint.h>

#include "core/core.h"

/* ---- Random numbers ------------------------------------------------- */

/* xoshiro256** state; seed with sim_rng_seed(). Plain data, copy freely. */
struct sim_rng {
	uint64_t s[4];		/* generator state */
};

void sim_rng_seed(struct sim_rng *r, uint64_t seed);
uint64_t sim_rng_next(struct sim_rng *r);
double sim_rng_uniform(struct sim_rng *r);		/* [0, 1) */
double sim_rng_normal(struct sim_rng *r);		/* mean 0, sd 1 */

/* ---- Piezo table model (sim_piezo_) ---------------------------------- */

/* What the piezo discs under a table would report: arrival = impact time
 * + distance / speed + the channel's delay + the Pi's interrupt latency,
 * with timing jitter, a per-impact speed (dispersion), missed edges,
 * false triggers and ringing. The truth (sensor positions, delays, speed)
 * is a struct sens_config: tests hand the same or a perturbed one to the
 * localiser. */
#include "sensors/sensors.h"

struct sim_piezo {
	double jitter_s;	/* sd of the Gaussian timing jitter per edge (10e-6) */
	double latency_min_s;	/* Pi interrupt latency, uniform in [min, max] */
	double latency_max_s;	/* (7e-6 .. 20e-6) */
	double speed_spread;	/* relative sd of one impact's wave speed (0.05) */
	double p_miss;		/* chance a table sensor misses an impact (0) */
	double p_false;		/* chance, per impact and table line, of a false edge in its window (0) */
	int ring_max;		/* ringing: up to this many extra edges after each real one (0) */
	double ring_period_s;	/* spacing of ringing edges (0.8e-3) */
	uint32_t dead;		/* bit i: config line i never fires */
};

/* The defaults in the comments above. */
void sim_piezo_defaults(struct sim_piezo *m);

/* Edges of one impact on the table top at (x, y) metres at time t0_ns,
 * on every table line of truth: written to out (at most cap), in time
 * order; returns how many were produced (may exceed cap: then out holds
 * the first cap). All randomness from rng. */
size_t sim_piezo_table_hit(const struct sim_piezo *m, const struct sens_config *truth,
			   struct sim_rng *rng, double x, double y, int64_t t0_ns,
			   struct sens_edge *out, size_t cap);

/* Edges of a hit on one non-table channel (config line index line: a
 * cup, the mine, a floor strip) at t_ns, with latency, jitter and
 * ringing; as sim_piezo_table_hit(). */
size_t sim_piezo_line_hit(const struct sim_piezo *m, const struct sens_config *truth,
			  struct sim_rng *rng, size_t line, int64_t t_ns,
			  struct sens_edge *out, size_t cap);

/* Sorts edges by time (stable), as a kernel's single event queue would
 * deliver them. */
void sim_piezo_sort(struct sens_edge *e, size_t n);

/* ---- Throws, matches and truth (sim_throw_, sim_match_) -------------- */



#endif /* DYEREF_SIM_H */
