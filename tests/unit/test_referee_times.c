/*
 * Observation times reach the referee from outside (the GPIO chip's edge
 * clock, the camera's, the simulator's) and may be anywhere in int64: the
 * throw's page measures each from the toss without wrapping, and a time
 * below 0 (an impact fitted ahead of edges near the clock's start) is
 * stored so that `dyeref judge` of the export still reproduces the ruling.
 */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/daemon.h"
#include "daemon/fusion.h"
#include "daemon/referee.h"
#include "db/db.h"
#include "tests/support/db_fx.h"

#define MS 1000000LL

/* An observation made at t_ns, sure. */
#define OBS(k, src, t) ((struct dd_obs){ .kind = (k), .source = (src), .t_ns = (t), .confidence = 1 })

/* A throw of a1's onto B's half, then the floor (BD-P1: 1 point to A),
 * seen from 5 ms before the clock's 0 to its last moment: the landing
 * fitted 0.3 ms before 0, its arrivals at both ends of the clock, the
 * floor's shake holding the table off until INT64_MAX. */
static void hostile_throw(struct dd_fused *fx)
{
	struct bd_event land = { .kind = BD_EV_TABLE, .half = BD_HALF_B, .player = BD_NOBODY,
				 .has_confidence = true, .confidence = 1, .t_ns = -300000 };
	struct bd_event floor = { .kind = BD_EV_FLOOR, .player = BD_NOBODY,
				  .has_confidence = true, .confidence = 1, .t_ns = INT64_MAX - 5 * MS };
	struct dd_obs *o;

	memset(fx, 0, sizeof(*fx));
	fx->t.thrower = 0;	/* a1 */
	fx->t.dye_up = true;
	fx->t.apex_m = -1;
	fx->t.apex_sd_m = -1;
	snprintf(land.source, sizeof(land.source), "piezo");
	snprintf(floor.source, sizeof(floor.source), "piezo");
	fx->t.events[fx->t.n_events++] = land;
	fx->t.events[fx->t.n_events++] = floor;
	fx->t_start_ns = -5 * MS;
	fx->t_dead_ns = floor.t_ns;
	fx->t_last_edge_ns = floor.t_ns;
	fx->obs[fx->n_obs++] = OBS(DD_OBS_TOSS, DD_SRC_CAMERA, fx->t_start_ns);
	o = &fx->obs[fx->n_obs++];
	*o = OBS(DD_OBS_EVENT, DD_SRC_PIEZO, land.t_ns);
	o->ev = land;
	o->n_arrivals = 2;
	o->arrival_sensor[0] = 0;
	o->arrival_ns[0] = INT64_MIN;
	o->arrival_sensor[1] = 1;
	o->arrival_ns[1] = INT64_MAX;
	o = &fx->obs[fx->n_obs++];
	*o = OBS(DD_OBS_EVENT, DD_SRC_PIEZO, floor.t_ns);
	o->ev = floor;
	o = &fx->obs[fx->n_obs++];
	*o = OBS(DD_OBS_TABLE_DEAF, DD_SRC_PIEZO, floor.t_ns);
	o->until_ns = INT64_MAX;
}

/* A match started in db (*r, the caller frees it) and hostile_throw()
 * ruled in it; returns the match's id. */
static int64_t refereed(struct db *db, struct dd_referee **r)
{
	static const char teams[2][32] = { "Orange", "Blue" };
	static struct dd_fused fx;	/* large */
	struct dd_referee_cfg cfg;
	struct bd_match_cfg mc;
	char err[256];

	memset(&cfg, 0, sizeof(cfg));
	bd_house_defaults(&cfg.house);
	cfg.review = DD_REVIEW_COUNT;
	*r = dd_referee_new(&cfg, db);
	assert_non_null(*r);
	bd_match_cfg_init(&mc);
	assert_int_equal(dd_referee_start(*r, &mc, teams, NULL, err, sizeof(err)), 0);
	hostile_throw(&fx);
	if (dd_referee_throw(*r, &fx, err, sizeof(err)))
		fail_msg("%s", err);
	return dd_referee_current_id(*r);
}

static double obs_ms(json_t *page, size_t i, const char *key)
{
	json_t *v = json_object_get(json_array_get(json_object_get(page, "observations"), i), key);

	assert_true(json_is_number(v));
	return json_number_value(v);
}

static char *captured(struct db *db, int64_t m, int (*write)(struct db *, int64_t, FILE *,
							     char *, size_t))
{
	char *buf = NULL, err[256];
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (write(db, m, f, err, sizeof(err)))
		fail_msg("%s", err);
	fclose(f);
	return buf;
}

/* The throw's page: each observation's t_ms from the toss keeps its sign
 * and is as far as the clock allows (the sum or difference saturates,
 * never wraps: 2^64 ns off, an arrival at INT64_MIN read as after the
 * toss). */
static void test_referee_observation_times_at_the_clock_ends_keep_their_order(void **state)
{
	struct db_test_fx *f = *state;
	struct dd_referee *r;
	char *page;
	json_t *j, *arr;
	int64_t id = refereed(f->db, &r);

	assert_int_equal(dd_referee_throw_detail(r, (long)id, 1, &page), 0);
	j = json_loads(page, 0, NULL);
	assert_non_null(j);
	assert_true(obs_ms(j, 0, "t_ms") == 0);
	assert_true(obs_ms(j, 1, "t_ms") > 0);
	assert_true(obs_ms(j, 2, "t_ms") > 9e12);	/* INT64_MAX ns is 9.2e12 ms */
	assert_true(obs_ms(j, 3, "until_ms") > 9e12);
	arr = json_object_get(json_array_get(json_object_get(j, "observations"), 1), "arrivals");
	assert_int_equal(json_array_size(arr), 2);
	assert_true(json_number_value(json_object_get(json_array_get(arr, 0), "t_ms")) < -9e12);
	assert_true(json_number_value(json_object_get(json_array_get(arr, 1), "t_ms")) > 9e12);
	json_decref(j);
	free(page);
	dd_referee_free(r);
}

/* DESIGN.md: `dyeref judge` of `dyeref export`'s output reproduces the
 * stored rulings, the landing fitted before the clock's 0 included (the
 * match log takes no time below 0: it is stored as unknown). */
static void test_referee_judge_of_export_takes_a_landing_fitted_before_zero(void **state)
{
	struct db_test_fx *f = *state;
	struct dd_referee *r;
	char err[256], *log, *rulings, *judged = NULL;
	size_t judged_len;
	int64_t id = refereed(f->db, &r);

	assert_int_equal(dd_referee_end(r, err, sizeof(err)), 0);
	log = captured(f->db, id, db_export);
	rulings = captured(f->db, id, db_rulings_write);
	assert_non_null(strstr(rulings, "\"points\":{\"A\":1,\"B\":0}"));
	if (mlog_judge("export", log, strlen(log), &judged, &judged_len, err, sizeof(err)))
		fail_msg("judge of the export: %s\n%s", err, log);
	assert_string_equal(judged, rulings);
	free(judged);
	free(rulings);
	free(log);
	dd_referee_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_referee_observation_times_at_the_clock_ends_keep_their_order,
			db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(
			test_referee_judge_of_export_takes_a_landing_fitted_before_zero,
			db_test_setup, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
