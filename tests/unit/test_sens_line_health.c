/* The pipeline's line health (sens_pipeline_health): chattering, stuck,
 * floating, silent and missing lines named, their edges held back from
 * impacts while they are faulty, and a line green again once it has
 * looked sane. The impacts themselves: test_sens_pipeline.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sensors/sensors.h"
#include "sim/sim.h"
#include "tests/unit/sens_rig.h"

static void test_sens_health_chattering_line(void **state)
{
	struct rig r;
	struct sens_line_health h[SENS_MAX_LINES];
	size_t cup = 0;

	(void)state;
	rig_init(&r, 8);
	cup = line_index(&r, "cup_a2");
	/* each hit comes with 25 edges 0.3 ms apart: a comparator at the
	 * edge of its threshold */
	for (int hit = 0; hit < 6; hit++) {
		struct sens_edge e[25];

		for (int k = 0; k < 25; k++) {
			e[k].line = r.cfg.lines[cup].offset;
			e[k].ts_ns = (int64_t)(hit + 1) * 1000000000LL + k * 300000;
		}
		rig_push(&r, e, 25);
	}
	rig_flush(&r);
	sens_pipeline_health(r.p, 7000000000LL, h, SENS_MAX_LINES);
	assert_int_equal(h[cup].state, SENS_HEALTH_CHATTERING);
	assert_string_equal(h[cup].why, "3 hits in a row of 25 edges or more");
	/* the third hit's 7th edge shows it, 1.8 ms in: that hit is still
	 * being judged and reaches no impact, nor do the hits after it */
	assert_int_equal(h[cup].accepted, 3);
	assert_int_equal(h[cup].quarantined, 3 * 25 + 19);
	assert_int_equal(r.n_obs, 2);
	sens_pipeline_free(r.p);
}

static void test_sens_health_stuck_line(void **state)
{
	struct rig r;
	struct sens_line_health h[SENS_MAX_LINES];
	size_t mine;

	(void)state;
	rig_init(&r, 9);
	mine = line_index(&r, "mine");
	/* fires again the moment each hold-off ends, for a second */
	for (int k = 0; k < 50; k++) {
		struct sens_edge e = { r.cfg.lines[mine].offset, 1000000000LL + k * 21000000LL };

		rig_push(&r, &e, 1);
		r.n_obs = 0;
	}
	sens_pipeline_health(r.p, 3000000000LL, h, SENS_MAX_LINES);
	assert_int_equal(h[mine].state, SENS_HEALTH_STUCK);
	/* the others are merely untested */
	assert_int_equal(h[0].state, SENS_HEALTH_UNTESTED);
	sens_pipeline_free(r.p);
}

/* The reference wiring with a floor strip on line 24. */
static void rig_init_floor(struct rig *r, uint64_t seed)
{
	struct sens_line_cfg *f;

	sens_config_defaults(&r->cfg);
	f = &r->cfg.lines[r->cfg.n_lines++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "floor0");
	f->role = SENS_ROLE_FLOOR;
	f->offset = 24;
	sim_piezo_defaults(&r->m);
	sim_rng_seed(&r->rng, seed);
	r->n_obs = 0;
	r->p = sens_pipeline_new(&r->cfg);
	assert_non_null(r->p);
}

/* The recording: floor0 floating, one edge, then 1,499 edges 1 us
 * apart. The old pipeline handed the first to fusion as a floor hit (a
 * throw of its own) and called the line ok. Now the burst is seen before
 * its first edge is let through, the line is floating until it has looked
 * sane for 10 s, and then a hit is a hit again. */
static void test_sens_floating_floor_line_reaches_no_impact(void **state)
{
	struct rig r;
	struct sens_line_health h[SENS_MAX_LINES];
	size_t floor;
	const int64_t t0 = 1000000000LL, last = t0 + 1499 * 1000LL;
	struct sens_edge hit = { 24, last + 10000000000LL };

	(void)state;
	rig_init_floor(&r, 40);
	floor = line_index(&r, "floor0");
	for (int k = 0; k < 1500; k++) {
		struct sens_edge e = { 24, t0 + k * 1000LL };

		rig_push(&r, &e, 1);
	}
	r.n_obs += sens_pipeline_flush(r.p, last + 1000000000LL, r.obs + r.n_obs, CAP - r.n_obs);
	assert_int_equal(r.n_obs, 0);
	sens_pipeline_health(r.p, last + 10000000000LL - 1, h, SENS_MAX_LINES);
	assert_string_equal(sens_health_name(h[floor].state), "floating");
	assert_int_equal(h[floor].edges, 1500);
	assert_int_equal(h[floor].accepted, 1);	/* past the hold-off, then held back */
	/* settled: green again by itself, and the next hit reaches fusion */
	sens_pipeline_health(r.p, last + 10000000000LL, h, SENS_MAX_LINES);
	assert_string_equal(sens_health_name(h[floor].state), "ok");
	rig_push(&r, &hit, 1);
	rig_flush(&r);
	assert_int_equal(r.n_obs, 1);
	assert_int_equal(r.obs[0].ev.kind, BD_EV_FLOOR);
	assert_int_equal(r.obs[0].ev.t_ns, hit.ts_ns);
	sens_pipeline_free(r.p);
}

/* A hit is let through once the line has been watched for 2 ms after it
 * (a floating input shows within them): a real hit just before a burst
 * still counts; the table's impact comes out in time order with it. */
static void test_sens_hit_before_a_burst_still_counts(void **state)
{
	struct rig r;
	struct sens_edge e[64];
	size_t n;

	(void)state;
	rig_init_floor(&r, 41);
	n = sim_piezo_table_hit(&r.m, &r.cfg, &r.rng, 1.8, 0.6, 1000000000LL, e, 64);
	e[n].line = 24;
	e[n++].ts_ns = 1001000000LL;	/* within the impact's window */
	sens_edges_sort(e, n);
	rig_push(&r, e, n);
	/* 2 ms after the floor edge it is judged sane: out with the impact */
	for (int k = 0; k < 40; k++) {
		struct sens_edge b = { 24, 1003000000LL + k * 1000LL };

		rig_push(&r, &b, 1);
	}
	rig_flush(&r);
	assert_int_equal(r.n_obs, 2);
	assert_int_equal(r.obs[0].ev.kind, BD_EV_TABLE);
	assert_int_equal(r.obs[1].ev.kind, BD_EV_FLOOR);
	assert_int_equal(r.obs[1].ev.t_ns, 1001000000LL);
	sens_pipeline_free(r.p);
}

/* A table disc floating as a die lands: its edge is no arrival of the
 * impact (the old pipeline took it as one, the fit then used a false
 * edge); the three others still locate the landing on its half. */
static void test_sens_floating_table_line_is_no_arrival(void **state)
{
	struct rig r;
	struct sens_edge e[64];
	struct sens_line_health h[SENS_MAX_LINES];
	size_t n;

	(void)state;
	rig_init(&r, 42);
	r.m.dead = 0x8;	/* table3 hears no wave ... */
	n = sim_piezo_table_hit(&r.m, &r.cfg, &r.rng, 1.8, 0.6, 1000000000LL, e, 64);
	for (int k = 0; k < 30; k++) {	/* ... it floats from the impact on */
		e[n].line = 23;
		e[n++].ts_ns = 1000000000LL + 100000 + k * 2000LL;
	}
	sens_edges_sort(e, n);
	rig_alone(&r, e, n);
	assert_int_equal(r.n_obs, 1);
	assert_int_equal(r.obs[0].table_seen, 0x7);
	assert_true(r.obs[0].has_fix);
	assert_int_equal(r.obs[0].fix.n_used, 3);
	assert_int_equal(r.obs[0].ev.half, BD_HALF_B);
	sens_pipeline_health(r.p, 2000000000LL, h, SENS_MAX_LINES);
	assert_string_equal(sens_health_name(h[3].state), "floating");
	sens_pipeline_free(r.p);
}

/* Chatter at 8 edges a hit, which the old check (10 a hit on average)
 * never flagged: the third such hit shows it (its 7th edge, 4.8 ms in,
 * after it was let through) and the line is named; the hits after it are
 * held back. */
static void test_sens_chatter_at_8_edges_a_hit_is_quarantined(void **state)
{
	struct rig r;
	struct sens_line_health h[SENS_MAX_LINES];
	size_t floor;

	(void)state;
	rig_init_floor(&r, 43);
	floor = line_index(&r, "floor0");
	for (int hit = 0; hit < 5; hit++)
		for (int k = 0; k < 8; k++) {
			struct sens_edge e = { 24, (int64_t)(hit + 1) * 2000000000LL + k * 800000LL };

			rig_push(&r, &e, 1);
		}
	rig_flush(&r);
	assert_int_equal(r.n_obs, 3);
	sens_pipeline_health(r.p, 11000000000LL, h, SENS_MAX_LINES);
	assert_string_equal(sens_health_name(h[floor].state), "chattering");
	sens_pipeline_health(r.p, 10000000000LL + 5600000LL + 10000000000LL, h, SENS_MAX_LINES);
	assert_string_equal(sens_health_name(h[floor].state), "ok");
	sens_pipeline_free(r.p);
}

static void test_sens_health_silent_and_missing_table_lines(void **state)
{
	struct rig r;
	struct sens_line_health h[SENS_MAX_LINES];

	(void)state;
	rig_init(&r, 10);
	r.m.dead = 1u << 1;	/* table1 never fires */
	rig_impact(&r, 0.5, 0.5, 1000000000LL);
	rig_impact(&r, 1.5, 0.5, 2000000000LL);
	rig_flush(&r);
	sens_pipeline_health(r.p, 3000000000LL, h, SENS_MAX_LINES);
	assert_int_equal(h[1].state, SENS_HEALTH_UNTESTED);	/* two impacts: too early */
	rig_impact(&r, 2.0, 0.8, 3000000000LL);
	rig_flush(&r);
	sens_pipeline_health(r.p, 4000000000LL, h, SENS_MAX_LINES);
	assert_int_equal(h[1].state, SENS_HEALTH_SILENT);
	assert_int_equal(h[1].missed, 3);
	assert_int_equal(h[0].state, SENS_HEALTH_OK);
	assert_int_equal(h[0].impacts, 3);
	/* every impact was still located, from three sensors */
	for (size_t i = 0; i < r.n_obs; i++) {
		assert_true(r.obs[i].has_fix);
		assert_int_equal(r.obs[i].fix.n_used, 3);
	}

	/* table3 works, then drops out: missing, not silent */
	r.m.dead = 0;
	rig_impact(&r, 1.0, 0.5, 5000000000LL);
	r.m.dead = 1u << 3;
	for (int i = 0; i < 4; i++)
		rig_impact(&r, 0.7 + i * 0.3, 0.5, (6 + i) * 1000000000LL);
	rig_flush(&r);
	sens_pipeline_health(r.p, 11000000000LL, h, SENS_MAX_LINES);
	assert_int_equal(h[3].state, SENS_HEALTH_MISSING);
	assert_string_equal(sens_health_name(h[3].state), "missing");
	sens_pipeline_free(r.p);
}

static void test_sens_health_cup_silent_after_configured_time(void **state)
{
	struct rig r;
	struct sens_line_health h[SENS_MAX_LINES];
	size_t cup;

	(void)state;
	rig_init(&r, 11);
	cup = line_index(&r, "cup_b2");
	rig_impact(&r, 0.5, 0.5, 1000000000LL);
	rig_flush(&r);
	sens_pipeline_health(r.p, 1000000000LL + 3599LL * 1000000000LL, h, SENS_MAX_LINES);
	assert_int_equal(h[cup].state, SENS_HEALTH_UNTESTED);
	sens_pipeline_health(r.p, 1000000000LL + 3601LL * 1000000000LL, h, SENS_MAX_LINES);
	assert_int_equal(h[cup].state, SENS_HEALTH_SILENT);
	sens_pipeline_free(r.p);
}

/* A cup disc that fires once and then goes dead is as silent as one that
 * never fired: silent_after_s counts from the line's last edge. */
static void test_sens_health_cup_silent_after_its_last_edge(void **state)
{
	struct rig r;
	struct sens_line_health h[SENS_MAX_LINES];
	struct sens_edge e[8];
	const int64_t s = 1000000000LL;
	size_t cup, n;

	(void)state;
	rig_init(&r, 12);
	cup = line_index(&r, "cup_a1");
	rig_impact(&r, 0.5, 0.5, s);
	n = sim_piezo_line_hit(&r.m, &r.cfg, &r.rng, cup, 2 * s, e, 8);
	rig_push(&r, e, n);
	rig_flush(&r);
	for (int64_t t = 3; t < 3700; t += 100)	/* the table keeps working */
		rig_impact(&r, 1.5, 0.5, t * s);
	rig_flush(&r);
	sens_pipeline_health(r.p, 2 * s + 3599 * s, h, SENS_MAX_LINES);
	assert_int_equal(h[cup].state, SENS_HEALTH_OK);
	sens_pipeline_health(r.p, 2 * s + 3601 * s, h, SENS_MAX_LINES);
	assert_int_equal(h[cup].state, SENS_HEALTH_SILENT);
	assert_int_equal(h[0].state, SENS_HEALTH_OK);
	sens_pipeline_free(r.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sens_health_chattering_line),
		cmocka_unit_test(test_sens_health_stuck_line),
		cmocka_unit_test(test_sens_floating_floor_line_reaches_no_impact),
		cmocka_unit_test(test_sens_hit_before_a_burst_still_counts),
		cmocka_unit_test(test_sens_floating_table_line_is_no_arrival),
		cmocka_unit_test(test_sens_chatter_at_8_edges_a_hit_is_quarantined),
		cmocka_unit_test(test_sens_health_silent_and_missing_table_lines),
		cmocka_unit_test(test_sens_health_cup_silent_after_configured_time),
		cmocka_unit_test(test_sens_health_cup_silent_after_its_last_edge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
