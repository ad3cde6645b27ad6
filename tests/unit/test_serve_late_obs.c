/*
 * `dyeref serve` when its loop reads the next throw's observations after
 * the last throw settled but before fusion's timer ran (the loop held up:
 * a slow commit, or the timer and a line's descriptor ready at once). The
 * last throw is complete without them, as `dyeref evaluate` has it; they
 * joined it and the two throws were judged as one. The sensors glue is
 * replaced through the linker (--wrap, daemon/module.mk), and serve's
 * clock is a manual one the loop steps: on that clock it hands over, in
 * one go, a1's throw (a landing on B's half, b1's one-handed catch from B's button: BD-P4) and a2's (a landing on B's
 * half, the floor: BD-P1), each observation stamped when it happened.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "daemon/daemon.h"
#include "daemon/fusion.h"
#include "db/db.h"
#include "tests/support/fake_glue.h"

#define NS_PER_MS 1000000LL

static struct fake_glue sens;	/* the fake sensors */

/* An event of kind ms_ago milliseconds before now, from source. */
static void obs(int64_t now, int64_t ms_ago, enum dd_source source, enum bd_ev_kind kind, int player)
{
	struct dd_obs o;

	memset(&o, 0, sizeof(o));
	o.kind = DD_OBS_EVENT;
	o.source = source;
	o.t_ns = now - ms_ago * NS_PER_MS;
	o.confidence = 1.0;
	o.ev.kind = kind;
	o.ev.half = BD_HALF_B;
	o.ev.player = player;
	o.ev.hands = kind == BD_EV_CATCH ? 1 : 0;
	o.ev.t_ns = o.t_ns;
	snprintf(o.ev.source, sizeof(o.ev.source), "%s", dd_source_name(source));
	sens.sink(sens.user, &o);
}

static void on_step(struct fake_glue *g, size_t i, int64_t now)
{
	(void)g;
	if (i) {
		kill(getpid(), SIGTERM);	/* serve stops after its commits */
		return;
	}
	/* Two throws read at once, 1.4 s after the first settled (400 ms
	 * after b1's catch). */
	obs(now, 2000, DD_SRC_PIEZO, BD_EV_TABLE, BD_NOBODY);
	obs(now, 1800, DD_SRC_BUTTON, BD_EV_CATCH, 2);
	obs(now, 600, DD_SRC_PIEZO, BD_EV_TABLE, BD_NOBODY);
	obs(now, 500, DD_SRC_PIEZO, BD_EV_FLOOR, BD_NOBODY);
}

/* the two throws, and the end */
static const int64_t steps_at[2] = { 200 * NS_PER_MS, 1500 * NS_PER_MS };
FAKE_GLUE_SENSORS(sens, steps_at, on_step)
FAKE_GLUE_CLOCK()

static void test_serve_late_observations_start_the_next_throw(void **state)
{
	struct db_test_fx *f = *state;
	struct mlog_bd *log = NULL;
	struct mlog_bd_result res;
	char err[256];
	const struct bd_throw *t[2] = { NULL, NULL };
	size_t n = 0;
	int64_t m;

	fake_glue_serve(f, "", &m);
	assert_int_equal(db_bd_load(f->db, m, &log, &res, err, sizeof(err)), 0);
	assert_int_equal(log->n_throws, 2);
	for (size_t i = 0; i < log->n_entries; i++)
		if (log->entries[i].kind == MLOG_THROW && n < 2)
			t[n++] = &log->entries[i].t;
	assert_int_equal(n, 2);
	assert_int_equal(t[0]->n_events, 2);
	assert_int_equal(t[0]->events[0].kind, BD_EV_TABLE);
	assert_int_equal(t[0]->events[1].kind, BD_EV_CATCH);
	assert_int_equal(t[0]->events[1].player, 2);
	assert_int_equal(t[1]->n_events, 2);
	assert_int_equal(t[1]->events[0].kind, BD_EV_TABLE);
	assert_int_equal(t[1]->events[1].kind, BD_EV_FLOOR);
	/* a1's throw caught (BD-P4), a2's on the floor (BD-P1) */
	assert_int_equal(res.rulings[0].points[BD_TEAM_A], 0);
	assert_int_equal(res.rulings[1].points[BD_TEAM_A], 1);
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_serve_late_observations_start_the_next_throw,
						db_test_setup, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
