/* A simulated throw that comes to rest on the table, from a seed: the
 * throw the camera tests render as frames (tests/data/camera/cam_throw.c,
 * test_sim_match, test_camera_glue). Header-only: cam_throw links no
 * test support objects. */
#ifndef DYEREF_RESTING_THROW_H
#define DYEREF_RESTING_THROW_H

#include "sim/sim.h"

/* Plays the default thrower's throws (seeded) on tb into *t until one
 * rests on the table. */
static inline void resting_throw(uint64_t seed, const struct bd_table *tb, struct sim_throw *t)
{
	struct sim_throw_cfg c;
	struct sim_rng r;

	sim_throw_cfg_defaults(&c);
	sim_rng_seed(&r, seed);
	do
		sim_throw_play(&c, tb, 0, 0, &r, t);
	while (!t->rests_on_table);
}

#endif /* DYEREF_RESTING_THROW_H */
