/* Fusion: synthetic observation sequences in, one judged throw out; a rest
 * pending (the face being read, BD-O2) holds the throw until the rest.
 * The observations: fusion_obs.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/fusion_obs.h"

/* A die the camera saw come to rest at t, (1.8, 0.6), whose face is being
 * read (the face reader's: the rest follows). */
static struct dd_obs obs_pending(int64_t t)
{
	struct dd_obs o = obs_kind(DD_OBS_REST_PENDING, DD_SRC_CAMERA, t);

	o.confidence = 1;
	o.ev.has_xy = true;
	o.ev.x = 1.8;
	o.ev.y = 0.6;
	return o;
}

/* The rest the pending announced, read: face 4, dead at t. */
static struct dd_obs obs_rest(int64_t t)
{
	struct dd_obs o = obs_event(DD_SRC_CAMERA, t, 0.95, BD_EV_REST);

	o.ev.face = 4;
	return o;
}

/* BD-O2 reads the face of a die at rest: while that face is being read,
 * the throw neither settles (after a dead die) nor times out; the rest,
 * once in, ends it and the settle runs from its own time. */
static void test_rest_pending_holds_settle_until_rest(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs land = obs_table(DD_SRC_PIEZO, 1000 * MS, 0.95, BD_HALF_B);
	struct dd_obs sink = obs_event(DD_SRC_PIEZO, 1100 * MS, 0.95, BD_EV_CUP);
	struct dd_obs pend = obs_pending(1200 * MS), rest = obs_rest(1200 * MS);

	(void)state;
	c.timeout_ns = 500 * MS;
	dd_fusion_init(&f, &c);
	/* the timeout: waits for the rest, not 500 ms after the landing */
	assert_int_equal(dd_fusion_add(&f, &land, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &pend, &out), 0);
	assert_int_equal(dd_fusion_deadline(&f), 1200 * MS + c.rest_wait_ns);
	assert_int_equal(dd_fusion_tick(&f, 3000 * MS, &out), 0);
	assert_true(dd_fusion_active(&f));
	assert_int_equal(dd_fusion_add(&f, &rest, &out), 0);
	assert_int_equal(dd_fusion_deadline(&f), 1200 * MS + c.settle_ns);
	assert_int_equal(dd_fusion_tick(&f, 3000 * MS, &out), 1);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[1].kind, BD_EV_REST);
	assert_int_equal(out.t.events[1].face, 4);
	assert_int_equal(out.n_obs, 2);	/* the pending is no observation of the throw */

	/* the settle: a dead die (a sink) waits too, for each face being read */
	sink.ev.sink = true;
	sink.ev.player = 2;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &land, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &sink, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &pend, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &pend, &out), 0);
	assert_int_equal(dd_fusion_tick(&f, 1100 * MS + c.settle_ns, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &rest, &out), 0);
	assert_int_equal(dd_fusion_tick(&f, 1100 * MS + c.settle_ns, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &rest, &out), 0);
	assert_int_equal(dd_fusion_deadline(&f), 1100 * MS + c.settle_ns);
	assert_int_equal(dd_fusion_tick(&f, 1100 * MS + c.settle_ns, &out), 1);
	assert_int_equal(out.t.n_events, 4);
}

/* A read whose rest never comes (the reader stuck past its own limit)
 * holds the throw rest_wait after the pending, no longer: the throw then
 * ends on what it has (nobody saw it end: review), and the rest that
 * comes after that is too late for it. */
static void test_rest_pending_gives_up_after_rest_wait(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs land = obs_table(DD_SRC_PIEZO, 1000 * MS, 0.95, BD_HALF_B);
	struct dd_obs pend = obs_pending(1200 * MS), rest = obs_rest(1200 * MS);
	int64_t until = 1200 * MS + c.rest_wait_ns;

	(void)state;
	assert_true(c.rest_wait_ns > 5000 * MS);	/* the face reader gives up first */
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &land, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &pend, &out), 0);
	assert_int_equal(dd_fusion_deadline(&f), until);
	assert_int_equal(dd_fusion_tick(&f, until - 1, &out), 0);
	assert_int_equal(dd_fusion_tick(&f, until, &out), 1);
	assert_int_equal(out.t.n_events, 1);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "no end"));
	assert_int_equal(dd_fusion_add(&f, &rest, &out), DD_FUSION_LATE);
	assert_false(dd_fusion_active(&f));
}

/* A pending is handled as its rest will be: made before the last throw
 * closed, it is as late as that rest; with no throw under way it starts
 * none and holds nothing (its rest starts the throw it belongs to); a new
 * toss ends the throw that waits, and its rest is then late. */
static void test_rest_pending_without_its_throw_is_handled_as_its_rest(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1000 * MS, 0.95, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct dd_obs late = obs_pending(1600 * MS), idle = obs_pending(3000 * MS);
	struct dd_obs rest = obs_rest(3000 * MS);
	struct dd_obs land = obs_table(DD_SRC_PIEZO, 4000 * MS, 0.95, BD_HALF_B);
	struct dd_obs pend = obs_pending(4200 * MS);
	struct dd_obs toss = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 5000 * MS);

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_int_equal(dd_fusion_add(&f, &late, &out), DD_FUSION_LATE);
	assert_int_equal(dd_fusion_add(&f, &idle, &out), 0);
	assert_false(dd_fusion_active(&f));
	assert_int_equal(dd_fusion_deadline(&f), INT64_MAX);
	assert_int_equal(dd_fusion_add(&f, &rest, &out), 0);
	assert_int_equal(dd_fusion_deadline(&f), 3000 * MS + c.settle_ns);
	assert_int_equal(dd_fusion_tick(&f, 3000 * MS + c.settle_ns, &out), 1);
	assert_int_equal(out.t.n_events, 1);
	assert_int_equal(out.t.events[0].kind, BD_EV_REST);

	assert_int_equal(dd_fusion_add(&f, &land, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &pend, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &toss, &out), 1);
	assert_int_equal(out.t.n_events, 1);
	assert_int_equal(dd_fusion_deadline(&f), 5000 * MS + c.timeout_ns);	/* nothing awaited */
	rest.t_ns = rest.ev.t_ns = 4200 * MS;
	assert_int_equal(dd_fusion_add(&f, &rest, &out), DD_FUSION_LATE);
}

/* Only the camera announces a rest it reads: a rest from the console (an
 * official's entry) is an observation of the throw, and the face being
 * read still holds it until the camera's own rest comes. */
static void test_rest_pending_not_released_by_a_console_rest(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs land = obs_table(DD_SRC_PIEZO, 1000 * MS, 0.95, BD_HALF_B);
	struct dd_obs pend = obs_pending(1200 * MS), rest = obs_rest(1300 * MS);
	struct dd_obs typed = obs_event(DD_SRC_CONSOLE, 1250 * MS, 1, BD_EV_REST);

	(void)state;
	typed.ev.face = 4;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &land, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &pend, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &typed, &out), 0);
	assert_int_equal(dd_fusion_deadline(&f), 1200 * MS + c.rest_wait_ns);
	assert_int_equal(dd_fusion_tick(&f, 1250 * MS + c.settle_ns, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &rest, &out), 0);
	assert_int_equal(dd_fusion_tick(&f, 1300 * MS + c.settle_ns, &out), 1);
	assert_int_equal(out.n_obs, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rest_pending_holds_settle_until_rest),
		cmocka_unit_test(test_rest_pending_not_released_by_a_console_rest),
		cmocka_unit_test(test_rest_pending_gives_up_after_rest_wait),
		cmocka_unit_test(test_rest_pending_without_its_throw_is_handled_as_its_rest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
