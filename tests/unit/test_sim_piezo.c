/* sim_piezo on the simulated table: a cup or mine hit shakes the top, so
 * the table discs fire with the cup's (sim_piezo_shake, sim_sense_edges),
 * as docs/sensors.md "A cup hit also shakes the table" expects. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/sim.h"

#define N_HITS 10	/* per cup and for the mine */
#define CAP 16

static struct sim_throw one;	/* a throw of one contact (about 10 kB) */

/* Config line index of hit k's target: cups a1..b2 (k 0..3), the mine (4). */
static int target_line(const struct sens_config *sc, int k)
{
	for (size_t i = 0; i < sc->n_lines; i++) {
		const struct sens_line_cfg *l = &sc->lines[i];

		if ((k < BD_PLAYERS && l->role == SENS_ROLE_CUP && l->owner == k) ||
		    (k == BD_PLAYERS && l->role == SENS_ROLE_MINE))
			return (int)i;
	}
	fail();
	return -1;
}

/* The centre of target k's base on the table. */
static void target_xy(const struct bd_table *tb, int k, double *x, double *y)
{
	*x = k < BD_PLAYERS ? tb->cup_x[k] : tb->mine_x;
	*y = k < BD_PLAYERS ? tb->cup_y[k] : tb->mine_y;
}

static double radius(const struct bd_table *tb, int k)
{
	return k < BD_PLAYERS ? tb->cup_radius_m : tb->mine_radius_m;
}

/* The edges of a hit at v m/s on the side of target k at t_ns, from
 * sim_sense_edges (malloc'd, *n of them, sorted). */
static struct sens_edge *hit(const struct sim_noise *n, const struct sens_config *sc, int k, double v,
			     int64_t t_ns, struct sim_rng *rng, size_t *ne)
{
	struct sens_edge *e = NULL;
	size_t cap = 0;
	double x, y, r = radius(&sc->table, k);

	*ne = 0;
	target_xy(&sc->table, k, &x, &y);
	memset(&one, 0, sizeof(one));
	one.n_contacts = 1;
	one.contacts[0] = (struct sim_contact){
		.t_ns = t_ns, .kind = k < BD_PLAYERS ? SIM_CONTACT_CUP : SIM_CONTACT_MINE,
		.x = x + r, .y = y, .z = sc->table.height_m + 0.06, .strength = v,
		.player = k < BD_PLAYERS ? k : BD_NOBODY,
	};
	assert_int_equal(sim_sense_edges(n, sc, &one, rng, &e, ne, &cap), 0);
	sens_edges_sort(e, *ne);
	return e;
}

static bool on_table(const struct sens_config *sc, const struct sens_edge *e)
{
	int line = sens_config_line_by_offset(sc, e->line);

	assert_true(line >= 0);
	return sc->lines[line].role == SENS_ROLE_TABLE;
}

/* The observations of edges e[0..n) through a fresh pipeline. */
static size_t observe(const struct sens_config *sc, const struct sens_edge *e, size_t n,
		      struct sens_obs *obs)
{
	struct sens_pipeline *p = sens_pipeline_new(sc);
	size_t k = 0;

	assert_non_null(p);
	for (size_t i = 0; i < n; i++)
		k += sens_pipeline_push(p, &e[i], obs + k, CAP - k);
	k += sens_pipeline_flush(p, INT64_MAX, obs + k, CAP - k);
	sens_pipeline_free(p);
	return k;
}

/* With every hit shaking the top (p_shake 1) and no noise (but the Pi's
 * latency), the table discs locate an impact on the cup's (mine's) base,
 * starting within the sync window of the cup's own edge: the pipeline's
 * shake, not a landing. A hit under min_strength shakes nothing. */
static void test_sim_cup_hit_shakes_the_table_at_the_cup(void **state)
{
	struct sim_noise n;
	struct sens_config sc;
	struct sim_rng rng;

	(void)state;
	sim_noise_defaults(&n, 0);
	n.piezo.p_shake = 1;
	sim_sens_config(&sc);
	sim_rng_seed(&rng, 31);
	for (int k = 0; k <= BD_PLAYERS; k++) {
		int line = target_line(&sc, k);

		for (int j = 0; j < N_HITS; j++) {
			struct sens_obs obs[CAP];
			const struct sens_obs *cup = NULL, *table = NULL;
			size_t ne, no;
			struct sens_edge *e = hit(&n, &sc, k, 2.0, (int64_t)(k * N_HITS + j + 1) * 1000000000LL,
						  &rng, &ne);
			double x, y;

			no = observe(&sc, e, ne, obs);
			assert_int_equal(no, 2);
			for (size_t i = 0; i < no; i++) {
				if (obs[i].ev.kind == BD_EV_TABLE)
					table = &obs[i];
				else
					cup = &obs[i];
			}
			assert_non_null(cup);
			assert_non_null(table);
			assert_int_equal(cup->line, line);
			assert_true(table->has_fix);
			target_xy(&sc.table, k, &x, &y);
			assert_true(hypot(table->fix.x - x, table->fix.y - y) < radius(&sc.table, k));
			assert_true(llabs(table->ev.t_ns - cup->ev.t_ns) <= SENS_SHAKE_SYNC_NS);
			assert_int_equal(table->shaken_by, line);
			free(e);
		}
		/* A hit too soft to trip a comparator shakes the top no harder:
		 * no table disc fires; at the threshold each fires once. */
		for (int at = 0; at < 2; at++) {
			size_t ne, table = 0;
			struct sens_edge *e = hit(&n, &sc, k, (at ? 1.0 : 0.9) * n.min_strength,
						  (int64_t)(100 + 2 * k + at) * 1000000000LL, &rng, &ne);

			for (size_t i = 0; i < ne; i++)
				table += on_table(&sc, &e[i]);
			assert_int_equal(table, at ? 4 : 0);
			free(e);
		}
	}
}

/* At the default noise too, every shake the simulator makes is one the
 * pipeline marks; with p_shake 0 no table disc fires at all. Either way
 * the shake draws from a stream of its own: the cup's edges and the shared
 * stream after the hit are the same as without it. */
static void test_sim_cup_hit_shake_leaves_the_shared_stream_alone(void **state)
{
	struct sim_noise with, without;
	struct sens_config sc;
	struct sim_rng ra, rb;
	int shaken = 0;

	(void)state;
	sim_noise_defaults(&with, 1);
	with.p_line_miss = 0;
	with.piezo.p_shake = 1;
	without = with;
	without.piezo.p_shake = 0;
	sim_sens_config(&sc);
	sim_rng_seed(&ra, 32);
	sim_rng_seed(&rb, 32);
	for (int k = 0; k <= BD_PLAYERS; k++) {
		for (int j = 0; j < N_HITS; j++) {
			int64_t t = (int64_t)(k * N_HITS + j + 1) * 1000000000LL;
			struct sens_obs obs[CAP];
			size_t na, nb, no, rest = 0;
			struct sens_edge *a = hit(&with, &sc, k, 2.0, t, &ra, &na);
			struct sens_edge *b = hit(&without, &sc, k, 2.0, t, &rb, &nb);

			assert_memory_equal(&ra, &rb, sizeof(ra));
			for (size_t i = 0; i < nb; i++)
				assert_false(on_table(&sc, &b[i]));
			for (size_t i = 0; i < na; i++) {
				if (on_table(&sc, &a[i]))
					continue;
				assert_true(rest < nb);
				assert_int_equal(a[i].line, b[rest].line);
				assert_int_equal(a[i].ts_ns, b[rest].ts_ns);
				rest++;
			}
			assert_int_equal(rest, nb);
			no = observe(&sc, a, na, obs);
			for (size_t i = 0; i < no; i++) {
				if (obs[i].ev.kind != BD_EV_TABLE)
					continue;
				assert_int_equal(obs[i].shaken_by, target_line(&sc, k));
				shaken++;
			}
			free(a);
			free(b);
		}
	}
	/* (a table disc may miss, 1 %, but an impact needs only 2 of 4) */
	assert_int_equal(shaken, (BD_PLAYERS + 1) * N_HITS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_cup_hit_shakes_the_table_at_the_cup),
		cmocka_unit_test(test_sim_cup_hit_shake_leaves_the_shared_stream_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
