/* The pipeline (sensors/pipeline.c): hold-off, grouping into impacts,
 * cup/mine/floor observations as core events, localisation past a false
 * trigger, a cup's shake told from a landing, the config it refuses. Line
 * health: test_sens_line_health.c. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sensors/sensors.h"
#include "sim/sim.h"
#include "tests/unit/sens_rig.h"

static void test_sens_ringing_removed_one_observation_per_impact(void **state)
{
	struct rig r;
	uint64_t suppressed = 0;
	struct sens_line_health h[SENS_MAX_LINES];

	(void)state;
	rig_init(&r, 1);
	r.m.ring_max = 6;	/* up to 6 extra edges per disc per hit */
	for (int i = 0; i < 40; i++) {
		r.n_obs = 0;
		rig_impact(&r, 0.3 + (i % 10) * 0.2, 0.2 + (i % 4) * 0.25, (int64_t)(i + 1) * 500000000LL);
		rig_flush(&r);
		assert_int_equal(r.n_obs, 1);
		assert_int_equal(r.obs[0].ev.kind, BD_EV_TABLE);
		assert_true(r.obs[0].has_fix);
		assert_int_equal(r.obs[0].fix.n_used, 4);
	}
	sens_pipeline_health(r.p, 41 * 500000000LL, h, SENS_MAX_LINES);
	for (size_t i = 0; i < 4; i++) {
		suppressed += h[i].suppressed;
		assert_int_equal(h[i].state, SENS_HEALTH_OK);
		assert_int_equal(h[i].accepted, 40);
	}
	assert_true(suppressed > 40);
	sens_pipeline_free(r.p);
}

/* A hold-off shorter than the grouping window (5 ms against 7.4 ms: an
 * installer's, which the config allows): a disc still ringing after it is
 * past its hold-off while the impact is open. A line gives one arrival an
 * impact: the ring is held off and counted (health: suppressed), not a
 * second arrival of its line that would take the first's place. */
static void test_sens_ring_past_a_short_hold_off_is_no_second_arrival(void **state)
{
	struct rig r;
	struct sens_edge e[16], ring;
	struct sens_line_health h[SENS_MAX_LINES];
	size_t n, first;
	int64_t w;

	(void)state;
	rig_init(&r, 31);
	sens_pipeline_free(r.p);
	w = sens_config_group_window_ns(&r.cfg);
	r.cfg.holdoff_s = 0.005;
	assert_true(r.cfg.holdoff_s * 1e9 < (double)w - 1e6);
	r.p = sens_pipeline_new(&r.cfg);
	assert_non_null(r.p);
	n = sim_piezo_table_hit(&r.m, &r.cfg, &r.rng, 1.7, 0.6, 1000000000LL, e, 16);
	assert_int_equal(n, 4);
	first = (size_t)sens_config_line_by_offset(&r.cfg, e[0].line);	/* edges come in time order */
	ring = (struct sens_edge){ .line = e[0].line, .ts_ns = e[0].ts_ns + 6000000 };	/* 6 ms */
	rig_push(&r, e, n);
	rig_push(&r, &ring, 1);
	rig_flush(&r);
	assert_int_equal(r.n_obs, 1);
	assert_true(r.obs[0].has_fix);
	assert_int_equal(r.obs[0].fix.n_used, 4);
	assert_int_equal(r.obs[0].fix.dropped, -1);
	assert_true(r.obs[0].table_ts_ns[first] == e[0].ts_ns);
	assert_true(hypot(r.obs[0].fix.x - 1.7, r.obs[0].fix.y - 0.6) < 0.03);
	sens_pipeline_health(r.p, 2000000000LL, h, SENS_MAX_LINES);
	assert_int_equal(h[first].accepted, 1);
	assert_int_equal(h[first].suppressed, 1);
	sens_pipeline_free(r.p);
}

static void test_sens_table_observation_is_a_core_event(void **state)
{
	struct rig r;
	const struct bd_event *ev;

	(void)state;
	rig_init(&r, 2);
	rig_impact(&r, 1.9, 0.4, 1000000000LL);
	rig_flush(&r);
	assert_int_equal(r.n_obs, 1);
	ev = &r.obs[0].ev;
	assert_int_equal(ev->kind, BD_EV_TABLE);
	assert_int_equal(ev->half, BD_HALF_B);
	assert_true(ev->has_xy);
	assert_true(fabs(ev->x - 1.9) < 0.03 && fabs(ev->y - 0.4) < 0.03);
	assert_true(ev->has_confidence);
	assert_true(ev->confidence > 0.9 && ev->confidence <= 1.0);
	assert_string_equal(ev->source, "piezo");
	assert_int_equal(ev->player, BD_NOBODY);
	/* the impact's own time, before its waves reached the sensors */
	assert_true(llabs(ev->t_ns - 1000000000LL) < 60000);
	assert_int_equal(r.obs[0].table_seen, 0xf);
	sens_pipeline_free(r.p);
}

static void test_sens_cup_mine_floor_channels_give_events_in_time_order(void **state)
{
	struct rig r;
	struct sens_edge e[32];
	size_t n;

	(void)state;
	sens_config_defaults(&r.cfg);
	/* add a floor strip */
	struct sens_line_cfg *f = &r.cfg.lines[r.cfg.n_lines++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "floor0");
	f->role = SENS_ROLE_FLOOR;
	f->offset = 4;
	sim_piezo_defaults(&r.m);
	sim_rng_seed(&r.rng, 3);
	r.n_obs = 0;
	r.p = sens_pipeline_new(&r.cfg);
	assert_non_null(r.p);

	/* Table at t, b1's cup 2 ms later (inside the table's window: it
	 * must still come out after the table), then the mine, the floor. */
	n = sim_piezo_table_hit(&r.m, &r.cfg, &r.rng, 2.0, 0.3, 1000000000LL, e, 32);
	n += sim_piezo_line_hit(&r.m, &r.cfg, &r.rng, line_index(&r, "cup_b1"), 1002000000LL, e + n, 32 - n);
	sens_edges_sort(e, n);
	rig_push(&r, e, n);
	n = sim_piezo_line_hit(&r.m, &r.cfg, &r.rng, line_index(&r, "mine"), 1300000000LL, e, 32);
	n += sim_piezo_line_hit(&r.m, &r.cfg, &r.rng, line_index(&r, "floor0"), 1600000000LL, e + n, 32 - n);
	rig_push(&r, e, n);
	rig_flush(&r);
	assert_int_equal(r.n_obs, 4);
	assert_int_equal(r.obs[0].ev.kind, BD_EV_TABLE);
	assert_int_equal(r.obs[1].ev.kind, BD_EV_CUP);
	assert_int_equal(r.obs[1].ev.player, 2);	/* b1 */
	assert_false(r.obs[1].ev.sink);
	assert_false(r.obs[1].has_strength);
	assert_string_equal(r.obs[1].ev.source, "piezo");
	assert_true(r.obs[1].ev.t_ns >= 1002000000LL && r.obs[1].ev.t_ns < 1002100000LL);
	assert_int_equal(r.obs[2].ev.kind, BD_EV_MINE);
	assert_int_equal(r.obs[3].ev.kind, BD_EV_FLOOR);
	for (size_t i = 1; i < r.n_obs; i++)
		assert_true(r.obs[i].ev.t_ns >= r.obs[i - 1].ev.t_ns);
	sens_pipeline_free(r.p);
}

static void test_sens_separate_impacts_are_not_merged(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 4);
	/* a die's bounces: 60 ms apart, beyond the hold-off */
	rig_impact(&r, 1.8, 0.6, 1000000000LL);
	rig_impact(&r, 2.0, 0.7, 1060000000LL);
	rig_flush(&r);
	assert_int_equal(r.n_obs, 2);
	assert_true(fabs(r.obs[0].ev.x - 1.8) < 0.03);
	assert_true(fabs(r.obs[1].ev.x - 2.0) < 0.03);
	sens_pipeline_free(r.p);
}

static void test_sens_flush_waits_for_the_window(void **state)
{
	struct rig r;
	struct sens_obs o[4];
	int64_t w;

	(void)state;
	rig_init(&r, 5);
	rig_impact(&r, 0.6, 0.6, 1000000000LL);
	w = sens_config_group_window_ns(&r.cfg);
	assert_true(w > 4000000 && w < 10000000);	/* a few ms for a 2.4 m table */
	/* the impact is not complete before its window has passed */
	assert_int_equal(sens_pipeline_flush(r.p, 1000000000LL + w / 2, o, 4), 0);
	assert_int_equal(sens_pipeline_flush(r.p, 1000000000LL + 2 * w, o, 4), 1);
	sens_pipeline_free(r.p);
}

/* Edges from outside may carry any time: an impact begun within one window
 * of INT64_MAX has a window no int64 can reach the end of, and the flush
 * at the end of a replay (INT64_MAX) still completes it. */
static void test_sens_flush_at_int64_max_completes_an_impact_at_the_end_of_time(void **state)
{
	struct rig r;
	const int64_t end = INT64_MAX;
	const struct sens_edge e[3] = { { 17, end - 3000000 }, { 27, end - 2000000 }, { 22, end - 1000 } };

	(void)state;
	rig_init(&r, 32);
	rig_push(&r, e, 3);
	assert_int_equal(r.n_obs, 0);
	rig_flush(&r);
	assert_int_equal(r.n_obs, 1);
	assert_int_equal(r.obs[0].ev.kind, BD_EV_TABLE);
	assert_int_equal(r.obs[0].table_seen, 0x7);
	sens_pipeline_free(r.p);
}

static void test_sens_two_sensors_give_an_unlocated_doubtful_table_event(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 6);
	r.m.dead = 0x5;	/* table0 and table2 */
	rig_impact(&r, 1.8, 0.6, 1000000000LL);
	rig_flush(&r);
	assert_int_equal(r.n_obs, 1);
	assert_int_equal(r.obs[0].ev.kind, BD_EV_TABLE);
	assert_false(r.obs[0].ev.has_xy);
	assert_true(r.obs[0].ev.confidence <= 0.5);
	sens_pipeline_free(r.p);
}

static void test_sens_unknown_lines_are_counted_and_ignored(void **state)
{
	struct rig r;
	struct sens_edge e[3] = { { 40, 1000 }, { 4095, 2000 }, { 100000, 3000 } };

	(void)state;
	rig_init(&r, 7);
	rig_push(&r, e, 3);
	rig_flush(&r);
	assert_int_equal(r.n_obs, 0);
	assert_int_equal(sens_pipeline_unknown_edges(r.p), 3);
	sens_pipeline_free(r.p);
}


/* Table line 0 knocked 1 ms before an impact at (1.7, 0.6) at t; its wave
 * edge dropped when miss_wave. Returns line 0's wave edge time, or 0. */
static int64_t knocked_impact(struct rig *r, int64_t t, bool miss_wave)
{
	struct sens_edge knock = { .line = r->cfg.lines[0].offset, .ts_ns = t - 1000000 };
	struct sens_edge e[64];
	size_t n = sim_piezo_table_hit(&r->m, &r->cfg, &r->rng, 1.7, 0.6, t, e, 64), k = 0;
	int64_t wave = 0;

	r->n_obs = 0;
	rig_push(r, &knock, 1);
	for (size_t i = 0; i < n; i++) {
		if (e[i].line == knock.line && !wave)
			wave = e[i].ts_ns;
		if (!miss_wave || e[i].line != knock.line)
			e[k++] = e[i];
	}
	rig_push(r, e, k);
	rig_flush(r);
	return miss_wave ? 0 : wave;
}

static void test_sens_false_trigger_before_impact_still_locates(void **state)
{
	/* A knock on table0 just before a real impact opens the window
	 * early; the real edges that follow complete it. */
	struct rig r;
	struct sens_edge e[64];
	size_t n;
	int64_t wave;

	(void)state;
	rig_init(&r, 12);
	n = sim_piezo_table_hit(&r.m, &r.cfg, &r.rng, 1.7, 0.6, 1000000000LL, e, 64);
	rig_push(&r, e, n);
	rig_flush(&r);
	assert_int_equal(r.n_obs, 1);
	assert_true(r.obs[0].has_fix);
	assert_true(r.obs[0].ev.confidence > 0.9);

	/* table0 knocked 1 ms before the same impact: its wave edge falls in
	 * the hold-off and the knock stands in for it. With four arrivals
	 * any three fit, so which one is false cannot be told from them; the
	 * edge the hold-off threw away can: "the knock was false, that edge
	 * the wave" fits all four, and the right half is called without
	 * review (BD-P1), from the wave's own edge. */
	wave = knocked_impact(&r, 2000000000LL, false);
	assert_true(wave > 0);
	assert_int_equal(r.n_obs, 1);
	assert_int_equal(r.obs[0].ev.kind, BD_EV_TABLE);
	assert_true(r.obs[0].has_fix);
	assert_int_equal(r.obs[0].fix.swapped, 0);	/* the knock came first */
	assert_int_equal(r.obs[0].fix.dropped, -1);
	assert_int_equal(r.obs[0].ev.half, BD_HALF_B);
	assert_true(r.obs[0].ev.confidence >= 0.8);
	assert_true(hypot(r.obs[0].fix.x - 1.7, r.obs[0].fix.y - 0.6) < 0.03);
	assert_true(r.obs[0].table_ts_ns[0] == wave);

	/* the knock on a line that missed the wave: nothing was thrown away,
	 * the explanations disagree on the half, and an official is asked
	 * (BD review) rather than the wrong half ruled */
	knocked_impact(&r, 3000000000LL, true);
	assert_int_equal(r.n_obs, 1);
	assert_true(r.obs[0].has_fix);
	assert_int_equal(r.obs[0].fix.swapped, -1);
	assert_true(r.obs[0].fix.dropped >= 0);
	assert_true(r.obs[0].ev.half == BD_HALF_B || r.obs[0].ev.confidence < 0.8);
	sens_pipeline_free(r.p);
}

static void test_sens_obs_format_names_half_and_uncertainty(void **state)
{
	struct rig r;
	char line[200];

	(void)state;
	rig_init(&r, 13);
	rig_impact(&r, 1.9, 0.4, 1000000000LL);
	rig_flush(&r);
	sens_obs_format(&r.obs[0], line, sizeof(line));
	assert_non_null(strstr(line, "half B"));
	assert_non_null(strstr(line, "cm"));
	assert_non_null(strstr(line, "(4 sensors)"));
	sens_pipeline_free(r.p);
}

static void test_sens_pipeline_rejects_bad_config(void **state)
{
	struct sens_config c;
	char err[200];

	(void)state;
	sens_config_defaults(&c);
	c.lines[5].offset = c.lines[0].offset;
	assert_int_equal(sens_config_check(&c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "both use line 17"));
	errno = 0;
	assert_null(sens_pipeline_new(&c));
	assert_int_equal(errno, EINVAL);
	sens_config_defaults(&c);
	c.lines[0].x = 3.0;
	assert_int_equal(sens_config_check(&c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "table0"));
	assert_non_null(strstr(err, "off the"));
}

/* Two table sensors at one spot hear one arrival twice; the fit takes it
 * for two and localisation called wrong halves at confidence 0.999. */
static void test_sens_config_refuses_table_sensors_closer_than_5_cm(void **state)
{
	struct sens_config c;
	char err[200];
	int at = 7;

	(void)state;
	sens_config_defaults(&c);
	c.lines[3].x = c.lines[0].x;
	c.lines[3].y = c.lines[0].y;
	assert_int_equal(sens_config_check(&c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "sensors: table3: at (0.05, 0.61) m, 0.0 cm from table0 at "
			    "(0.05, 0.61) m: table sensors must be at least 5 cm apart");
	assert_int_equal(sens_config_check_at(&c, &at, NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(at, 3);
	errno = 0;
	assert_null(sens_pipeline_new(&c));
	assert_int_equal(errno, EINVAL);
	c.lines[3].x = c.lines[0].x + 0.049;
	assert_int_equal(sens_config_check(&c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "4.9 cm from table0"));
	c.lines[3].x = c.lines[0].x + 0.051;
	assert_int_equal(sens_config_check_at(&c, &at, NULL, err, sizeof(err)), 0);
	assert_int_equal(at, -1);
	/* a reason about the whole config is about no line */
	c.n_lines = 2;
	assert_int_equal(sens_config_check_at(&c, &at, NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(at, -1);
}

/* The one observation of that kind among those seen. */
static const struct sens_obs *find(const struct rig *r, enum bd_ev_kind kind)
{
	const struct sens_obs *o = NULL;

	for (size_t i = 0; i < r->n_obs; i++)
		if (r->obs[i].ev.kind == kind) {
			assert_null(o);
			o = &r->obs[i];
		}
	assert_non_null(o);
	return o;
}

/* A cup hit shakes the table: the table sensors locate an impact at the
 * cup, at the cup's own edge time. That impact is marked as the cup's
 * shake (not a landing), so fusion sees one cup hit, not a phantom table
 * landing before it (BD-P7: a cup hit, not a table landing first). */
static void test_sens_cup_hit_shaking_the_table_is_not_a_landing(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 21);
	r.m.ring_max = 3;
	for (int cup = 0; cup < BD_PLAYERS; cup++) {
		static const char *const names[BD_PLAYERS] = { "cup_a1", "cup_a2", "cup_b1", "cup_b2" };
		size_t line = line_index(&r, names[cup]);

		for (int k = 0; k < 10; k++) {
			int64_t t = (int64_t)(cup * 10 + k + 1) * 1000000000LL;
			struct sens_edge e[64];
			size_t n;
			/* anywhere on the cup's base */
			double x = r.cfg.table.cup_x[cup] + (k % 3 - 1) * 0.02;
			double y = r.cfg.table.cup_y[cup] + (k % 2 ? 0.02 : -0.02);

			n = sim_piezo_line_hit(&r.m, &r.cfg, &r.rng, line, t, e, 16);
			n += sim_piezo_table_hit(&r.m, &r.cfg, &r.rng, x, y, t, e + n, 48);
			rig_alone(&r, e, n);
			assert_int_equal(r.n_obs, 2);
			assert_true(find(&r, BD_EV_TABLE)->has_fix);
			assert_int_equal(find(&r, BD_EV_TABLE)->shaken_by, (int)line);
			assert_int_equal(find(&r, BD_EV_CUP)->ev.player, cup);
			assert_int_equal(find(&r, BD_EV_CUP)->shaken_by, -1);
		}
	}
	/* The mine shakes it too (BD-O1). */
	{
		struct sens_edge e[64];
		size_t n = sim_piezo_line_hit(&r.m, &r.cfg, &r.rng, line_index(&r, "mine"), 90000000000LL, e, 16);

		n += sim_piezo_table_hit(&r.m, &r.cfg, &r.rng, r.cfg.table.mine_x + 0.02,
					 r.cfg.table.mine_y, 90000000000LL, e + n, 48);
		rig_alone(&r, e, n);
		assert_int_equal(r.n_obs, 2);
		assert_int_equal(find(&r, BD_EV_TABLE)->shaken_by, (int)line_index(&r, "mine"));
	}
	sens_pipeline_free(r.p);
}

/* Only a coincidence in time and place is a shake: a landing 40 cm from
 * the cup at the same moment (another die, a hand), or at the cup but
 * 50 ms (or 5 ms) before the cup is hit (bounce, then cup), stays a
 * landing. An impact too thin to locate is judged on the time alone. */
static void test_sens_landing_apart_from_a_cup_hit_stays_a_landing(void **state)
{
	struct rig r;
	struct sens_edge e[64];
	size_t n, cup = 4;	/* cup_a1 */
	double cx, cy;

	(void)state;
	rig_init(&r, 22);
	cx = r.cfg.table.cup_x[0];
	cy = r.cfg.table.cup_y[0];
	assert_string_equal(r.cfg.lines[cup].name, "cup_a1");

	n = sim_piezo_line_hit(&r.m, &r.cfg, &r.rng, cup, 1000000000LL, e, 16);
	n += sim_piezo_table_hit(&r.m, &r.cfg, &r.rng, cx + 0.35, cy + 0.2, 1000000000LL, e + n, 48);
	rig_alone(&r, e, n);
	assert_int_equal(r.n_obs, 2);
	assert_int_equal(find(&r, BD_EV_TABLE)->shaken_by, -1);

	n = sim_piezo_table_hit(&r.m, &r.cfg, &r.rng, cx + 0.03, cy, 2000000000LL, e, 48);
	n += sim_piezo_line_hit(&r.m, &r.cfg, &r.rng, cup, 2050000000LL, e + n, 16);
	rig_alone(&r, e, n);
	assert_int_equal(r.n_obs, 2);
	assert_true(find(&r, BD_EV_TABLE)->has_fix);
	assert_int_equal(find(&r, BD_EV_TABLE)->shaken_by, -1);

	/* Beside the cup and inside one window: landed 3 cm off and hit the
	 * cup 5 ms later (the die at 6 m/s) is a landing, BD-P7's "defenders'
	 * half first"; so is coming down 3 ms after a cup hit; a start within
	 * half a millisecond of the hit either way is the shake. */
	for (int k = 0; k < 30; k++) {
		int64_t t = (int64_t)(5 + k) * 1000000000LL;
		int64_t gap = k < 10 ? 5000000LL : k < 20 ? -3000000LL : (k % 2 ? 500000LL : -500000LL);

		n = sim_piezo_table_hit(&r.m, &r.cfg, &r.rng, cx + 0.03, cy + 0.01 * (k % 3), t, e, 48);
		n += sim_piezo_line_hit(&r.m, &r.cfg, &r.rng, cup, t + gap, e + n, 16);
		rig_alone(&r, e, n);
		assert_int_equal(r.n_obs, 2);
		assert_true(find(&r, BD_EV_TABLE)->has_fix);
		assert_int_equal(find(&r, BD_EV_TABLE)->shaken_by, k < 20 ? -1 : (int)cup);
	}

	/* Two table sensors and the cup at once: the shake; 50 ms apart: not. */
	const struct sens_edge thin[3] = { { 5, 3000000000LL }, { 17, 3000400000LL }, { 27, 3000900000LL } };
	r.n_obs = 0;
	rig_push(&r, thin, 3);
	rig_flush(&r);
	assert_int_equal(r.n_obs, 2);
	assert_false(find(&r, BD_EV_TABLE)->has_fix);
	assert_int_equal(find(&r, BD_EV_TABLE)->shaken_by, (int)cup);
	const struct sens_edge late[3] = { { 5, 4000000000LL }, { 17, 4050400000LL }, { 27, 4050900000LL } };
	r.n_obs = 0;
	rig_push(&r, late, 3);
	rig_flush(&r);
	assert_int_equal(r.n_obs, 2);
	assert_int_equal(find(&r, BD_EV_TABLE)->shaken_by, -1);
	sens_pipeline_free(r.p);
}

/* One impact near the line through pipeline p: its fix's sigma along x. */
static double sigma_x_of(struct sens_pipeline *p, const struct sens_edge *e, size_t n, int64_t at)
{
	struct sens_obs o[8];
	size_t no = 0;

	for (size_t i = 0; i < n; i++)
		no += sens_pipeline_push(p, &e[i], o + no, 8 - no);
	no += sens_pipeline_flush(p, at + 500000000LL, o + no, 8 - no);
	assert_int_equal(no, 1);
	assert_true(o[0].has_fix);
	return o[0].fix.sigma_x;
}

/* BD-P6: a table three times as noisy as its config (30 us of jitter
 * against 10, a 15 % speed spread against 5) shows it in the residuals of
 * its fits (with four discs, through the speeds they need); after 40
 * impacts the pipeline widens a fix near the line accordingly, where a
 * fresh pipeline takes the same arrivals at the configured noise. */
static void test_sens_pipeline_learns_a_noisier_table(void **state)
{
	struct rig r;
	struct sens_pipeline *fresh;
	struct sens_edge e[64];
	size_t n;
	int64_t t = 1000000000LL;
	double learned, configured;

	(void)state;
	rig_init(&r, 21);
	r.m.jitter_s = 30e-6;
	r.m.speed_spread = 0.15;
	for (int i = 0; i < 40; i++, t += 1000000000LL) {
		r.n_obs = 0;
		rig_impact(&r, 0.3 + 0.045 * i, 0.2 + 0.02 * i, t);
		rig_flush(&r);
	}
	fresh = sens_pipeline_new(&r.cfg);
	assert_non_null(fresh);
	/* the probe's arrivals fit exactly: its own residual says nothing */
	r.m.jitter_s = 0;
	r.m.latency_min_s = r.m.latency_max_s = 10e-6;
	r.m.speed_spread = 0;
	n = sim_piezo_table_hit(&r.m, &r.cfg, &r.rng, 1.25, 0.5, t, e, 64);
	assert_int_equal(n, 4);
	learned = sigma_x_of(r.p, e, n, t);
	configured = sigma_x_of(fresh, e, n, t);
	assert_true(learned > 2 * configured);
	sens_pipeline_free(fresh);
	sens_pipeline_free(r.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sens_ringing_removed_one_observation_per_impact),
		cmocka_unit_test(test_sens_pipeline_learns_a_noisier_table),
		cmocka_unit_test(test_sens_ring_past_a_short_hold_off_is_no_second_arrival),
		cmocka_unit_test(test_sens_table_observation_is_a_core_event),
		cmocka_unit_test(test_sens_cup_mine_floor_channels_give_events_in_time_order),
		cmocka_unit_test(test_sens_separate_impacts_are_not_merged),
		cmocka_unit_test(test_sens_flush_waits_for_the_window),
		cmocka_unit_test(test_sens_flush_at_int64_max_completes_an_impact_at_the_end_of_time),
		cmocka_unit_test(test_sens_two_sensors_give_an_unlocated_doubtful_table_event),
		cmocka_unit_test(test_sens_unknown_lines_are_counted_and_ignored),
		cmocka_unit_test(test_sens_false_trigger_before_impact_still_locates),
		cmocka_unit_test(test_sens_obs_format_names_half_and_uncertainty),
		cmocka_unit_test(test_sens_pipeline_rejects_bad_config),
		cmocka_unit_test(test_sens_config_refuses_table_sensors_closer_than_5_cm),
		cmocka_unit_test(test_sens_cup_hit_shaking_the_table_is_not_a_landing),
		cmocka_unit_test(test_sens_landing_apart_from_a_cup_hit_stays_a_landing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
