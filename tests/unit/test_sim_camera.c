/* sim_sense_camera: the modelled camera's reports during a throw (first
 * landing, mine contacts, exits over an edge), as vision's tracker makes
 * them on rendered frames (docs/simulator.md). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/sim.h"

static struct sim_match *play(uint64_t seed)
{
	struct sim_match_cfg c;
	struct bd_table tb;
	struct sim_rng r;
	struct sim_match *m = NULL;
	char err[256];

	sim_match_cfg_defaults(&c);
	bd_table_defaults(&tb);
	sim_rng_seed(&r, seed);
	assert_int_equal(sim_match_play(&c, &tb, 1000000000LL, &r, &m, err, sizeof(err)), 0);
	return m;
}

static size_t count(const struct sim_cam *c, size_t n, enum sim_cam_kind k)
{
	size_t got = 0;

	for (size_t i = 0; i < n; i++)
		got += c[i].kind == k;
	return got;
}

/* With no misses, every first top landing has a landing report near it
 * in place and time, every mine contact (BD-O1) a mine report, every die
 * that left the table over an edge to the floor or a hand an exit at the
 * edge; and the reports are the same every time (a stream of the throw's
 * own). */
static void test_sim_camera_reports_landing_mine_and_exit(void **state)
{
	struct sim_noise n;
	struct bd_table tb;
	long mines = 0, exits = 0, landings = 0;

	(void)state;
	sim_noise_defaults(&n, 1);
	n.cam_p_land_miss = n.cam_p_mine_miss = n.cam_p_exit_miss = n.cam_p_exit_false = n.cam_p_miss = 0;
	bd_table_defaults(&tb);
	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct sim_match *m = play(seed);

		for (size_t i = 0; i < m->n_throws; i++) {
			const struct sim_throw *t = &m->throws[i];
			struct sim_cam a[8], b[8];
			struct sim_rng ra, rb;
			size_t na, nb, nmine = 0;
			const struct sim_contact *first = NULL, *last = &t->contacts[t->n_contacts - 1];

			sim_rng_seed(&ra, 5);
			sim_rng_seed(&rb, 5);
			na = sim_sense_camera(&n, t, &ra, a, 8);
			nb = sim_sense_camera(&n, t, &rb, b, 8);
			assert_int_equal(na, nb);
			assert_memory_equal(a, b, na * sizeof(a[0]));
			for (size_t j = 0; j < t->n_contacts; j++) {
				if (t->contacts[j].kind == SIM_CONTACT_TABLE && !first)
					first = &t->contacts[j];
				nmine += t->contacts[j].kind == SIM_CONTACT_MINE;
			}
			assert_int_equal(count(a, na, SIM_CAM_MINE), nmine);
			mines += (long)nmine;
			if (first && first->z >= tb.height_m) {
				const struct sim_cam *l = NULL;

				for (size_t j = 0; j < na && !l; j++)
					l = a[j].kind == SIM_CAM_LANDING ? &a[j] : NULL;
				assert_non_null(l);
				assert_true(hypot(l->x - first->x, l->y - first->y) < 0.03);
				assert_true(llabs(l->t_ns - first->t_ns) < 60000000LL);
				assert_true(l->confidence >= 0.6 && l->confidence <= 0.95);
				landings++;
			}
			assert_true(count(a, na, SIM_CAM_LANDING) <= 1);
			if (last->kind != SIM_CONTACT_FLOOR && last->kind != SIM_CONTACT_CATCH)
				assert_int_equal(count(a, na, SIM_CAM_EXIT), 0);	/* no false exits here */
			for (size_t j = 0; j < na; j++)
				if (a[j].kind == SIM_CAM_EXIT) {
					exits++;
					/* On an edge, before the die died. */
					assert_true(a[j].x == 0 || a[j].y == 0 || a[j].x == tb.length_m ||
						    a[j].y == tb.width_m);
					assert_true(a[j].t_ns <= t->t_dead_ns);
					assert_true(a[j].confidence > 0.8);
				}
		}
		sim_match_free(m);
	}
	assert_true(landings > 100);
	assert_true(exits > 50);
	assert_true(mines >= 1);
}

/* The camera's reports during the throw draw from a stream of their own:
 * the shared stream (the piezo and console noise that follows) is where it
 * would be without them, so adding them moved no other instrument. */
static void test_sim_camera_track_reports_leave_the_shared_stream_alone(void **state)
{
	struct sim_noise with, without;
	struct sim_match *m = play(3);

	(void)state;
	sim_noise_defaults(&with, 1);
	without = with;
	without.cam_p_land_miss = without.cam_p_mine_miss = without.cam_p_exit_miss = 1;
	without.cam_p_exit_false = 0;
	for (size_t i = 0; i < m->n_throws; i++) {
		struct sim_cam a[8], b[8];
		struct sim_rng ra, rb;
		size_t na, nb;

		sim_rng_seed(&ra, 9);
		sim_rng_seed(&rb, 9);
		na = sim_sense_camera(&with, &m->throws[i], &ra, a, 8);
		nb = sim_sense_camera(&without, &m->throws[i], &rb, b, 8);
		assert_memory_equal(&ra, &rb, sizeof(ra));
		assert_true(na >= nb);
		assert_int_equal(count(b, nb, SIM_CAM_LANDING) + count(b, nb, SIM_CAM_MINE) +
				 count(b, nb, SIM_CAM_EXIT), 0);
		/* The toss, sink and rest reports are the same either way. */
		assert_memory_equal(a, b, nb * sizeof(a[0]));
	}
	sim_match_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_camera_reports_landing_mine_and_exit),
		cmocka_unit_test(test_sim_camera_track_reports_leave_the_shared_stream_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
