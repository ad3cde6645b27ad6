/* The match step: fusion, the won-game and late-observation rules, and the
 * judge callback, as serve and `dyeref evaluate` both run them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/fusion.h"
#include "daemon/match_step.h"

#define MS 1000000LL

/* What the callbacks saw. */
static struct {
	int judged;			/* throws handed to the judge */
	int64_t at_ns;			/* the last one's time */
	struct bd_throw t;		/* its events */
	bool won;			/* what won() answers */
	bool won_after_judge;		/* the judge wins the game */
	int logged;			/* messages */
	char last[256];			/* the last one */
} seen;

static struct dd_fusion fusion;
static struct dd_fused room;

static void judge(void *user, const struct dd_fused *fx, int64_t at_ns)
{
	(void)user;
	seen.judged++;
	seen.at_ns = at_ns;
	seen.t = fx->t;
	if (seen.won_after_judge)
		seen.won = true;
}

static bool won(void *user)
{
	(void)user;
	return seen.won;
}

static void catch_log(enum dd_log_level level, const char *fmt, ...)
{
	va_list ap;

	(void)level;
	va_start(ap, fmt);
	vsnprintf(seen.last, sizeof(seen.last), fmt, ap);
	va_end(ap);
	seen.logged++;
}

static struct dd_step step(void)
{
	return (struct dd_step){ .fusion = &fusion, .fx = &room, .judge = judge, .won = won,
				 .log = catch_log, .user = NULL };
}

static int setup(void **state)
{
	struct dd_fusion_cfg c;

	(void)state;
	memset(&seen, 0, sizeof(seen));
	dd_fusion_cfg_defaults(&c);
	dd_fusion_init(&fusion, &c);
	return 0;
}

static struct dd_obs obs_of(enum dd_obs_kind kind, enum dd_source src, int64_t t)
{
	struct dd_obs o;

	memset(&o, 0, sizeof(o));
	o.kind = kind;
	o.source = src;
	o.t_ns = t;
	o.confidence = 0.95;
	o.ev.player = BD_NOBODY;
	return o;
}

static struct dd_obs event(enum bd_ev_kind kind, enum dd_source src, int64_t t)
{
	struct dd_obs o = obs_of(DD_OBS_EVENT, src, t);

	o.ev.kind = kind;
	o.ev.half = BD_HALF_B;
	return o;
}

/* A throw that lands on B's half and reaches the floor, dead at 1500 ms. */
static void landing_then_floor(const struct dd_step *st)
{
	struct dd_obs land = event(BD_EV_TABLE, DD_SRC_PIEZO, 1000 * MS);
	struct dd_obs floor = event(BD_EV_FLOOR, DD_SRC_PIEZO, 1500 * MS);

	assert_int_equal(dd_step_obs(st, &land), 0);
	assert_int_equal(dd_step_obs(st, &floor), 0);
}

/* A throw whose settle passed before an observation was made (the timer
 * not yet run) is judged without it, at that observation's time; the
 * observation starts the next throw. */
static void test_step_judges_a_throw_settled_before_the_next_observation(void **state)
{
	struct dd_step st = step();
	int64_t settled = 1500 * MS + fusion.cfg.settle_ns;
	struct dd_obs toss = obs_of(DD_OBS_TOSS, DD_SRC_CAMERA, settled + 100 * MS);

	(void)state;
	landing_then_floor(&st);
	assert_int_equal(dd_step_obs(&st, &toss), 0);
	assert_int_equal(seen.judged, 1);
	assert_int_equal(seen.at_ns, toss.t_ns);
	assert_int_equal(seen.t.n_events, 2);
	assert_int_equal(seen.t.events[1].kind, BD_EV_FLOOR);
	assert_true(dd_fusion_active(&fusion));	/* the toss's throw */
}

/* dd_step_tick judges a settled throw once, at the time it is given. */
static void test_step_tick_judges_a_settled_throw_once(void **state)
{
	struct dd_step st = step();
	int64_t settled = 1500 * MS + fusion.cfg.settle_ns;

	(void)state;
	landing_then_floor(&st);
	assert_int_equal(dd_step_tick(&st, settled - 1), 0);
	assert_int_equal(dd_step_tick(&st, settled), 1);
	assert_int_equal(dd_step_tick(&st, settled + 1), 0);
	assert_int_equal(seen.judged, 1);
	assert_int_equal(seen.at_ns, settled);
	assert_false(dd_fusion_active(&fusion));
}

/* BD-W1: in a won game what is sensed stays out of fusion: no throw is
 * started, none judged. */
static void test_step_bd_w1_won_game_leaves_observations_out(void **state)
{
	struct dd_step st = step();
	struct dd_obs land = event(BD_EV_TABLE, DD_SRC_PIEZO, 1000 * MS);

	(void)state;
	seen.won = true;
	assert_int_equal(dd_step_obs(&st, &land), DD_STEP_WON);
	assert_false(dd_fusion_active(&fusion));
	assert_int_equal(seen.judged, 0);
	assert_int_equal(dd_fusion_deadline(&fusion), INT64_MAX);
}

/* BD-W1: a toss that ends a throw never seen to end starts the next; when
 * the throw it ended won the game, that next one is forgotten. */
static void test_step_bd_w1_toss_after_the_winning_throw_starts_none(void **state)
{
	struct dd_step st = step();
	struct dd_obs land = event(BD_EV_TABLE, DD_SRC_PIEZO, 1000 * MS);
	struct dd_obs toss = obs_of(DD_OBS_TOSS, DD_SRC_CAMERA, 2000 * MS);
	struct dd_obs late = event(BD_EV_TABLE, DD_SRC_PIEZO, 2500 * MS);

	(void)state;
	seen.won_after_judge = true;
	assert_int_equal(dd_step_obs(&st, &land), 0);
	assert_int_equal(dd_step_obs(&st, &toss), 1);
	assert_int_equal(seen.judged, 1);
	assert_false(dd_fusion_active(&fusion));
	assert_int_equal(dd_step_obs(&st, &late), DD_STEP_WON);
	assert_false(dd_fusion_active(&fusion));
}

/* A re-toss (BD-P9) completes its throw at once, judged at its time. */
static void test_step_bd_p9_retoss_is_judged_at_once(void **state)
{
	struct dd_step st = step();
	struct dd_obs land = event(BD_EV_TABLE, DD_SRC_PIEZO, 1000 * MS);
	struct dd_obs retoss = event(BD_EV_RETOSS, DD_SRC_CONSOLE, 1200 * MS);

	(void)state;
	assert_int_equal(dd_step_obs(&st, &land), 0);
	assert_int_equal(dd_step_obs(&st, &retoss), 1);
	assert_int_equal(seen.judged, 1);
	assert_int_equal(seen.at_ns, 1200 * MS);
	assert_int_equal(seen.t.events[seen.t.n_events - 1].kind, BD_EV_RETOSS);
}

/* What is not taken is said: an observation made before its throw closed,
 * a button's second call, nonsense; a step without a log says nothing. */
static void test_step_logs_late_repeated_and_bad_observations(void **state)
{
	struct dd_step st = step();
	int64_t settled = 1500 * MS + fusion.cfg.settle_ns;
	struct dd_obs late = event(BD_EV_REST, DD_SRC_CAMERA, 1600 * MS);
	struct dd_obs low = event(BD_EV_LOW_CALL, DD_SRC_BUTTON, settled + 100 * MS);
	struct dd_obs bad = event(BD_EV_TABLE, DD_SRC_PIEZO, settled + 300 * MS);

	(void)state;
	landing_then_floor(&st);
	assert_int_equal(dd_step_tick(&st, settled), 1);
	assert_int_equal(dd_step_obs(&st, &late), DD_FUSION_LATE);
	assert_int_equal(seen.logged, 1);
	assert_non_null(strstr(seen.last, "camera observation made 300 ms before its throw closed"));
	low.ev.player = 0;	/* A's end */
	assert_int_equal(dd_step_obs(&st, &low), 0);
	low.t_ns += 200 * MS;
	assert_int_equal(dd_step_obs(&st, &low), DD_FUSION_REPEAT);
	assert_int_equal(seen.logged, 2);
	assert_non_null(strstr(seen.last, "a button called again"));
	bad.confidence = 2;
	assert_int_equal(dd_step_obs(&st, &bad), -EINVAL);
	assert_int_equal(seen.logged, 3);
	assert_non_null(strstr(seen.last, "piezo observation ignored"));
	st.log = NULL;
	assert_int_equal(dd_step_obs(&st, &bad), -EINVAL);
	assert_int_equal(seen.logged, 3);
}

/* A face being read (DD_OBS_REST_PENDING) holds the throw through the
 * step: an observation made after the timeout joins it, and the rest,
 * once in, ends it (BD-O2 reads its face). */
static void test_step_holds_a_throw_whose_face_is_read(void **state)
{
	struct dd_step st = step();
	struct dd_obs land = event(BD_EV_TABLE, DD_SRC_PIEZO, 1000 * MS);
	struct dd_obs pend = obs_of(DD_OBS_REST_PENDING, DD_SRC_CAMERA, 1200 * MS);
	struct dd_obs call = obs_of(DD_OBS_DYE_UP_MISSED, DD_SRC_CONSOLE,
				    1000 * MS + fusion.cfg.timeout_ns + 100 * MS);
	struct dd_obs rest = event(BD_EV_REST, DD_SRC_CAMERA, 1200 * MS);

	(void)state;
	rest.ev.face = 3;
	assert_int_equal(dd_step_obs(&st, &land), 0);
	assert_int_equal(dd_step_obs(&st, &pend), 0);
	assert_int_equal(dd_step_obs(&st, &call), 0);
	assert_int_equal(seen.judged, 0);
	assert_int_equal(dd_step_obs(&st, &rest), 0);
	assert_int_equal(dd_step_tick(&st, call.t_ns), 1);
	assert_int_equal(seen.t.n_events, 2);
	assert_int_equal(seen.t.events[1].face, 3);
	assert_false(seen.t.dye_up);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_step_judges_a_throw_settled_before_the_next_observation, setup),
		cmocka_unit_test_setup(test_step_tick_judges_a_settled_throw_once, setup),
		cmocka_unit_test_setup(test_step_bd_w1_won_game_leaves_observations_out, setup),
		cmocka_unit_test_setup(test_step_bd_w1_toss_after_the_winning_throw_starts_none, setup),
		cmocka_unit_test_setup(test_step_bd_p9_retoss_is_judged_at_once, setup),
		cmocka_unit_test_setup(test_step_logs_late_repeated_and_bad_observations, setup),
		cmocka_unit_test_setup(test_step_holds_a_throw_whose_face_is_read, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
