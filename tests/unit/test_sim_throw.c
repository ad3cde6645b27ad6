/* sim_throw: deterministic physics, energy, rest, and a well-formed truth. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sim/sim.h"

#define N_THROWS 600

static struct sim_throw_cfg cfg;
static struct bd_table table;

static int setup(void **state)
{
	(void)state;
	sim_throw_cfg_defaults(&cfg);
	bd_table_defaults(&table);
	return 0;
}

static void test_sim_throw_same_seed_same_throw(void **state)
{
	static struct sim_throw a, b;
	struct sim_rng ra, rb;

	(void)state;
	sim_rng_seed(&ra, 42);
	sim_rng_seed(&rb, 42);
	for (int i = 0; i < 50; i++) {
		assert_int_equal(sim_throw_play(&cfg, &table, i % 4, 1000, &ra, &a), 0);
		assert_int_equal(sim_throw_play(&cfg, &table, i % 4, 1000, &rb, &b), 0);
		assert_memory_equal(&a, &b, sizeof(a));
	}
	sim_rng_seed(&rb, 43);
	assert_int_equal(sim_throw_play(&cfg, &table, 0, 1000, &rb, &b), 0);
	assert_true(a.apex_m != b.apex_m);
}

static void test_sim_throw_rejects_bad_thrower(void **state)
{
	static struct sim_throw t;
	struct sim_rng r;

	(void)state;
	sim_rng_seed(&r, 1);
	assert_int_equal(sim_throw_play(&cfg, &table, 4, 0, &r, &t), -EINVAL);
	assert_int_equal(sim_throw_play(&cfg, &table, -1, 0, &r, &t), -EINVAL);
}

static double energy(const double p[3], const double v[3])
{
	return 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + cfg.g * p[2];
}

/* A contact of this kind at exactly t: a foot or the beer adds energy. */
static bool driven_at(const struct sim_throw *t, int64_t t_ns)
{
	for (size_t i = 0; i < t->n_contacts; i++)
		if (t->contacts[i].t_ns == t_ns &&
		    (t->contacts[i].kind == SIM_CONTACT_KICK || t->contacts[i].kind == SIM_CONTACT_SINK))
			return true;
	return false;
}

static void test_sim_throw_energy_never_grows_across_contacts(void **state)
{
	static struct sim_throw t;
	struct sim_rng r;
	int checked = 0;

	(void)state;
	sim_rng_seed(&r, 7);
	for (int n = 0; n < N_THROWS; n++) {
		assert_int_equal(sim_throw_play(&cfg, &table, n % 4, 0, &r, &t), 0);
		for (size_t i = 1; i < t.n_segments; i++) {
			double pb[3], vb[3], pa[3], va[3];
			int64_t at = t.seg[i].t0_ns;

			if (driven_at(&t, at) || at == t.seg[i - 1].t0_ns)
				continue;
			assert_true(sim_throw_state_at(&t, at - 1, pb, vb, NULL));
			assert_true(sim_throw_state_at(&t, at, pa, va, NULL));
			assert_true(energy(pa, va) <= energy(pb, vb) + 1e-6);
			checked++;
		}
	}
	assert_true(checked > N_THROWS);
}

static void test_sim_throw_die_at_rest_stays_at_rest(void **state)
{
	static struct sim_throw t;
	struct sim_rng r;
	int rests = 0;

	(void)state;
	sim_rng_seed(&r, 8);
	for (int n = 0; n < N_THROWS; n++) {
		double p[3], v[3];

		assert_int_equal(sim_throw_play(&cfg, &table, n % 4, 0, &r, &t), 0);
		if (!t.rests_on_table)
			continue;
		rests++;
		assert_true(t.rest_face >= 1 && t.rest_face <= 6);
		for (int k = 0; k < 4; k++) {
			int64_t at = t.t_dead_ns + (int64_t)k * 3000000000LL;

			assert_true(sim_throw_state_at(&t, at, p, v, NULL));
			assert_float_equal(p[0], t.rest_x, 1e-9);
			assert_float_equal(p[1], t.rest_y, 1e-9);
			assert_float_equal(p[2], table.height_m + cfg.die_half_m, 1e-9);
			assert_float_equal(fabs(v[0]) + fabs(v[1]) + fabs(v[2]), 0, 1e-12);
		}
		assert_true(t.rest_x >= 0 && t.rest_x <= table.length_m);
		assert_true(t.rest_y >= 0 && t.rest_y <= table.width_m);
		assert_int_equal(t.contacts[t.n_contacts - 1].kind, SIM_CONTACT_REST);
	}
	assert_true(rests > N_THROWS / 10);
}

/* Events in time order, exactly one way of dying and it comes last (a low
 * call aside), every impact a sensor could feel has its contact. */
static void test_sim_throw_truth_is_well_formed(void **state)
{
	static struct sim_throw t;
	struct sim_rng r;

	(void)state;
	sim_rng_seed(&r, 9);
	for (int n = 0; n < N_THROWS; n++) {
		const struct bd_throw *tr = &t.truth;
		int ends = 0;

		assert_int_equal(sim_throw_play(&cfg, &table, n % 4, 5000, &r, &t), 0);
		assert_int_equal(tr->thrower, n % 4);
		assert_true(tr->n_events >= 1);
		for (size_t i = 0; i < tr->n_events; i++) {
			const struct bd_event *e = &tr->events[i];
			bool end = e->kind == BD_EV_FLOOR || e->kind == BD_EV_REST ||
				   e->kind == BD_EV_CATCH || (e->kind == BD_EV_CUP && e->sink);

			if (i > 0)
				assert_true(e->t_ns >= tr->events[i - 1].t_ns);
			if (end) {
				ends++;
				for (size_t j = i + 1; j < tr->n_events; j++)
					assert_int_equal(tr->events[j].kind, BD_EV_LOW_CALL);
			}
			if (e->kind == BD_EV_TABLE) {
				assert_true(e->has_xy);
				assert_int_equal(e->half, bd_table_half(&table, e->x));
			}
			if (e->kind == BD_EV_CUP && e->sink)
				assert_true(t.in_cup);
			if (e->kind == BD_EV_TABLE || e->kind == BD_EV_CUP ||
			    e->kind == BD_EV_MINE || e->kind == BD_EV_FLOOR) {
				bool found = false;

				for (size_t k = 0; k < t.n_contacts; k++)
					found |= t.contacts[k].t_ns == e->t_ns &&
						 t.contacts[k].kind != SIM_CONTACT_RELEASE;
				assert_true(found);
			}
			if (e->kind == BD_EV_CATCH || e->kind == BD_EV_KICK || e->kind == BD_EV_LOW_CALL)
				/* Defenders catch, kick and call low. */
				assert_int_equal(BD_TEAM_OF(e->player), BD_OTHER(BD_TEAM_OF(n % 4)));
		}
		assert_int_equal(ends, 1);
		assert_true(t.t_dead_ns > t.t_release_ns);
		assert_int_equal(t.t_release_ns, 5000);
	}
}

/* Over enough throws every situation of the rules turns up: the simulator
 * is only useful for measuring the referee if it exercises every path. */
static void test_sim_throw_covers_every_situation(void **state)
{
	static struct sim_throw t;
	struct sim_rng r;
	int first_def = 0, first_own = 0, first_line = 0, missed = 0, sink = 0, popout = 0,
	    rim = 0, mine = 0, one = 0, two = 0, trapped = 0, over = 0, kick = 0, thigh = 0,
	    low = 0, low_on_high = 0, below_min = 0, floor = 0, dye_down = 0, faces[7] = { 0 };

	(void)state;
	sim_rng_seed(&r, 10);
	for (int n = 0; n < 4000; n++) {
		const struct bd_throw *tr = &t.truth;
		int att = BD_TEAM_OF(n % 4);
		bool seen_table = false;

		sim_throw_play(&cfg, &table, n % 4, 0, &r, &t);
		below_min += t.apex_m < cfg.min_toss_height_m;
		dye_down += !tr->dye_up;
		for (size_t i = 0; i < tr->n_events; i++) {
			const struct bd_event *e = &tr->events[i];

			switch (e->kind) {
			case BD_EV_TABLE:
				if (!seen_table) {
					first_line += e->half == BD_HALF_LINE;
					first_own += (int)e->half == att;
					first_def += (int)e->half == BD_OTHER(att);
				}
				seen_table = true;
				break;
			case BD_EV_CUP:
				sink += e->sink;
				popout += e->popout;
				rim += !e->sink && !e->popout;
				break;
			case BD_EV_MINE: mine++; break;
			case BD_EV_FLOOR: floor++; break;
			case BD_EV_REST: faces[e->face]++; break;
			case BD_EV_CATCH:
				over += e->over_table;
				trapped += e->trapped;
				two += e->hands == 2;
				one += e->hands == 1 && !e->trapped && !e->over_table;
				break;
			case BD_EV_KICK:
				kick++;
				thigh += !strcmp(e->part, "thigh");
				break;
			case BD_EV_LOW_CALL:
				low++;
				low_on_high += t.apex_m > cfg.min_toss_height_m + 0.3;
				break;
			default: break;
			}
		}
		missed += !seen_table;
	}
	/* Most throws land where they should; every other case still occurs. */
	assert_true(first_def > 3000);
	assert_true(first_own > 10 && first_line > 2 && missed > 50);
	assert_true(sink > 10 && popout > 0 && rim > 10 && mine > 5);
	assert_true(one > 200 && two > 20 && trapped > 10 && over > 10);
	assert_true(kick > 20 && thigh > 0);
	assert_true(floor > 1000);
	for (int f = 1; f <= 6; f++)
		assert_true(faces[f] > 50);
	/* Low calls follow low throws (BD-P5): some throws are low, and
	 * defenders hardly ever call a clearly high one. */
	assert_true(below_min > 40 && below_min < 400);
	assert_true(low > below_min / 2);
	assert_true(low_on_high <= 2);
	assert_true(dye_down > 20);
}

/* The table is a board on legs: a die meets its top, the side of its
 * edge (board and frame, edge_depth_m deep) or, rising beneath it, its
 * underside; anything lower passes under it to the floor. Every such touch
 * is a table contact with its point and strength, so the discs under the
 * top feel it like any other (sim_sense_edges). */
static void test_sim_throw_table_is_a_board_on_legs(void **state)
{
	static struct sim_throw t;
	struct sim_rng r;
	double d = cfg.die_half_m, under = table.height_m - cfg.edge_depth_m - d;
	int side = 0, underside = 0, passed_under = 0;

	(void)state;
	sim_rng_seed(&r, 11);
	for (int n = 0; n < 6000; n++) {
		sim_throw_play(&cfg, &table, n % 4, 0, &r, &t);
		for (size_t i = 0; i < t.n_contacts; i++) {
			const struct sim_contact *c = &t.contacts[i];
			bool inside = c->x > 0 && c->x < table.length_m && c->y > 0 &&
				      c->y < table.width_m;

			if (c->kind == SIM_CONTACT_TABLE) {
				/* Never below the board, never in thin air. */
				assert_true(c->z > under - 0.001);
				assert_true(c->z < table.height_m + d + 0.001);
				if (c->z < under + 0.001) {
					underside++;
					assert_true(c->strength > 0);
				} else if (c->z < table.height_m + d - 0.001) {
					side++;
				}
			}
			if (c->kind == SIM_CONTACT_FLOOR && inside)
				passed_under++;
		}
	}
	assert_true(side > 0);
	assert_true(underside > 0);
	assert_true(passed_under > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_throw_same_seed_same_throw),
		cmocka_unit_test(test_sim_throw_rejects_bad_thrower),
		cmocka_unit_test(test_sim_throw_table_is_a_board_on_legs),
		cmocka_unit_test(test_sim_throw_energy_never_grows_across_contacts),
		cmocka_unit_test(test_sim_throw_die_at_rest_stays_at_rest),
		cmocka_unit_test(test_sim_throw_truth_is_well_formed),
		cmocka_unit_test(test_sim_throw_covers_every_situation),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
