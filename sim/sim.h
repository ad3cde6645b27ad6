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



/* ---- Throws, matches and truth (sim_throw_, sim_match_) -------------- */



#endif /* DYEREF_SIM_H */
