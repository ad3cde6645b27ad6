/* A sensor pipeline under test, fed from the simulated table's piezo
 * model (test_sens_pipeline.c, test_sens_line_health.c): the reference
 * wiring, a seeded noise source and what the pipeline has observed so far.
 * Header-only: each test includes it once. */
#ifndef DYEREF_TEST_SENS_RIG_H
#define DYEREF_TEST_SENS_RIG_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sensors/sensors.h"
#include "sim/sim.h"

#define CAP 64

struct rig {
	struct sens_config cfg;
	struct sim_piezo m;
	struct sim_rng rng;
	struct sens_pipeline *p;
	struct sens_obs obs[CAP];	/* everything observed so far */
	size_t n_obs;
};

static inline void rig_init(struct rig *r, uint64_t seed)
{
	sens_config_defaults(&r->cfg);
	sim_piezo_defaults(&r->m);
	sim_rng_seed(&r->rng, seed);
	r->n_obs = 0;
	r->p = sens_pipeline_new(&r->cfg);
	assert_non_null(r->p);
}

static inline void rig_push(struct rig *r, const struct sens_edge *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		r->n_obs += sens_pipeline_push(r->p, &e[i], r->obs + r->n_obs, CAP - r->n_obs);
}

static inline void rig_flush(struct rig *r)
{
	r->n_obs += sens_pipeline_flush(r->p, INT64_MAX, r->obs + r->n_obs, CAP - r->n_obs);
}

/* Edges e[0..n) of one happening, sorted, through a fresh pipeline run:
 * r's observations are that happening's alone. */
static inline void rig_alone(struct rig *r, struct sens_edge *e, size_t n)
{
	sens_edges_sort(e, n);
	r->n_obs = 0;
	rig_push(r, e, n);
	rig_flush(r);
}

static inline void rig_impact(struct rig *r, double x, double y, int64_t t)
{
	struct sens_edge e[64];
	size_t n = sim_piezo_table_hit(&r->m, &r->cfg, &r->rng, x, y, t, e, 64);

	rig_push(r, e, n < 64 ? n : 64);
}

static inline size_t line_index(const struct rig *r, const char *name)
{
	for (size_t i = 0; i < r->cfg.n_lines; i++)
		if (!strcmp(r->cfg.lines[i].name, name))
			return i;
	fail_msg("no line %s", name);
	return 0;
}

#endif /* DYEREF_TEST_SENS_RIG_H */
