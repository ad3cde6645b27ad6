/*
 * `dyeref serve` once the game is won (BD-W1): what the table and camera
 * sense then (the die picked up, a celebration) stays out of fusion. Fed
 * to it, it started a throw that the screens showed in flight and that the
 * referee then refused out of the official's sight ("throw not judged: the
 * game is over"), or, had an undo reopened the game meanwhile, that joined
 * the game's next throw. The sensors glue is replaced through the linker
 * (--wrap, daemon/module.mk), serve's clock is a manual one its loop
 * steps, and dd_log caught. A game to 1 point: a1's
 * die lands on B's half and the camera sees it leave over B's end; the
 * camera's toss of the next throw ends it (BD-P1: the floor, won) and is
 * itself the first of what comes after the win; then a landing and the
 * floor, and another landing.
 */
#include <errno.h>
#include <inttypes.h>
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

#define MS 1000000LL		/* the steps' times are in ns */
#define NS_PER_MS MS

void __wrap_dd_log(enum dd_log_level level, const char *fmt, ...);

static struct fake_glue sens;	/* the fake sensors */
static int64_t t0;		/* the landing's time: the others' are from it */
static int not_judged;		/* "throw not judged" lines logged */
static int left_out;		/* info lines saying the won game's inputs are left out */
static char said[512];		/* the last of them */

/* An observation of kind at t0 + ms (the camera's exit at x, y). */
static void obs(int64_t ms, enum dd_obs_kind kind, enum dd_source source, enum bd_ev_kind ev)
{
	struct dd_obs o;

	memset(&o, 0, sizeof(o));
	o.kind = kind;
	o.source = source;
	o.t_ns = t0 + ms * NS_PER_MS;
	o.confidence = 1.0;
	o.ev.kind = ev;
	o.ev.half = BD_HALF_B;
	o.ev.player = BD_NOBODY;
	o.ev.x = 2.44;
	o.ev.y = 0.6;
	o.ev.t_ns = o.t_ns;
	snprintf(o.ev.source, sizeof(o.ev.source), "%s", dd_source_name(source));
	sens.sink(sens.user, &o);
}

static void on_step(struct fake_glue *g, size_t i, int64_t now)
{
	(void)g;
	switch (i) {
	case 0:
		t0 = now;
		obs(0, DD_OBS_EVENT, DD_SRC_PIEZO, BD_EV_TABLE);
		obs(100, DD_OBS_OFF_TABLE, DD_SRC_CAMERA, BD_EV_TABLE);
		break;
	case 1:		/* past the fall and the official's delay: no catch came */
		obs(1600, DD_OBS_TOSS, DD_SRC_CAMERA, BD_EV_TABLE);
		break;
	case 2:
		obs(1800, DD_OBS_EVENT, DD_SRC_PIEZO, BD_EV_TABLE);
		obs(1850, DD_OBS_EVENT, DD_SRC_PIEZO, BD_EV_FLOOR);
		break;
	case 3:
		obs(2000, DD_OBS_EVENT, DD_SRC_PIEZO, BD_EV_TABLE);
		break;
	default:
		/* Not before the toss's throw would have timed out (t0 + 3.6 s)
		 * and the floor's settled (t0 + 2.25 s), had fusion taken them. */
		assert_true(now >= t0 + 4000 * NS_PER_MS);
		kill(getpid(), SIGTERM);	/* serve stops after its commits */
	}
}

static const int64_t steps_at[5] = { 200 * MS, 1800 * MS, 2000 * MS, 2200 * MS, 4200 * MS };
FAKE_GLUE_SENSORS(sens, steps_at, on_step)
FAKE_GLUE_CLOCK()

void __wrap_dd_log(enum dd_log_level level, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (strstr(line, "throw not judged"))
		not_judged++;
	if (level == DD_LOG_INFO && strstr(line, "is won (BD-W1)")) {
		left_out++;
		snprintf(said, sizeof(said), "%s", line);
	}
}

static void test_serve_won_game_leaves_sensed_inputs_out_of_fusion(void **state)
{
	struct db_test_fx *f = *state;
	struct bd_match_cfg mc;
	struct mlog_bd *log = NULL;
	struct mlog_bd_result res;
	char err[256], want[256];
	int64_t m;

	bd_match_cfg_init(&mc);
	mc.house.target_points = 1;
	mc.house.win_by = 1;
	fake_glue_serve_match(f, &mc, "[fusion]\ntimeout_ms = 2000\n", &m);
	assert_int_equal(db_bd_load(f->db, m, &log, &res, err, sizeof(err)), 0);
	assert_int_equal(log->n_throws, 1);
	assert_true(res.state.over);
	assert_int_equal(res.rulings[0].points[BD_TEAM_A], 1);
	/* Nothing after the win reached the judge; the log said why, once. */
	assert_int_equal(not_judged, 0);
	assert_int_equal(left_out, 1);
	snprintf(want, sizeof(want), "fusion: match %" PRId64 " is won (BD-W1): what the sensors "
		 "and camera report is left out until an undo or a correction reopens it", m);
	assert_string_equal(said, want);
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_serve_won_game_leaves_sensed_inputs_out_of_fusion,
						db_test_setup, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
