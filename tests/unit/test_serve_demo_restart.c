/*
 * `dyeref serve --sim=table` starting its next match ([sim] pause_s after
 * the last ended) while fusion holds a throw under way: a landing sensed after the
 * simulator's last throw (as after an official's End, when the feeder's
 * throws still come). The console's start of a match clears fusion; the
 * demo's did not, so that landing joined the new match's first throw. The
 * sensors glue and the simulator's feeder are replaced through the linker
 * (--wrap, daemon/module.mk): the feeder is spent from the start, so the
 * next match is due once a throw is judged; the sensors hand over a1's
 * throw (a landing on B's half, the floor: BD-P1), then a landing alone;
 * the next feeder a landing and the floor, some 4 s of serve's clock (the
 * demo's pause between matches set to 2 s), a manual one its loop steps.
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
#include "daemon/feeds.h"
#include "daemon/fusion.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "db/db.h"
#include "tests/support/fake_glue.h"

#define NS_PER_MS 1000000LL

struct dd_sim_feed *__wrap_dd_sim_feed_new(sd_event *ev, struct dd_clock *clock, uint64_t seed,
					   int max_throws, dd_obs_sink sink, void *user, char *err,
					   size_t errlen);
void __wrap_dd_sim_feed_free(struct dd_sim_feed *f);
bool __wrap_dd_sim_feed_spent(const struct dd_sim_feed *f);
void __wrap_dd_sim_feed_match_cfg(struct bd_match_cfg *cfg, char team_names[2][32]);
int __wrap_dd_sim_feed_snapshot(struct dd_sim_feed *f, struct db *db, int64_t match, int throw_no,
				int64_t since_ns, char *err, size_t errlen);

static struct fake_glue sens;	/* the fake sensors */
static struct fake_glue feed;	/* the feeder of the match after the first */
static char feeder;		/* its address is the feeder's handle */
static int feeders;		/* started so far */

/* An event of kind at ms after now (a step's time on serve's clock). */
static void obs(struct fake_glue *g, int64_t now, int64_t ms, enum bd_ev_kind kind)
{
	struct dd_obs o;

	memset(&o, 0, sizeof(o));
	o.kind = DD_OBS_EVENT;
	o.source = DD_SRC_PIEZO;
	o.t_ns = now + ms * NS_PER_MS;
	o.confidence = 1.0;
	o.ev.kind = kind;
	o.ev.half = BD_HALF_B;
	o.ev.player = BD_NOBODY;
	o.ev.t_ns = o.t_ns;
	snprintf(o.ev.source, sizeof(o.ev.source), "%s", dd_source_name(o.source));
	g->sink(g->user, &o);
}

static void on_sensed(struct fake_glue *g, size_t i, int64_t now)
{
	if (!i) {
		/* a1's throw: settled 400 ms after the floor, then judged */
		obs(g, now, -150, BD_EV_TABLE);
		obs(g, now, -50, BD_EV_FLOOR);
	} else {
		/* after the last throw, long before the next match */
		obs(g, now, 0, BD_EV_TABLE);
	}
}

static void on_fed(struct fake_glue *g, size_t i, int64_t now)
{
	if (i) {
		kill(getpid(), SIGTERM);	/* serve stops after its commits */
		return;
	}
	obs(g, now, -60, BD_EV_TABLE);
	obs(g, now, -10, BD_EV_FLOOR);
}

/* a1's throw, the landing after it */
static const int64_t steps_at[2] = { 200 * NS_PER_MS, 1500 * NS_PER_MS };
FAKE_GLUE_SENSORS(sens, steps_at, on_sensed)
FAKE_GLUE_CLOCK()

struct dd_sim_feed *__wrap_dd_sim_feed_new(sd_event *ev, struct dd_clock *clock, uint64_t seed,
					   int max_throws, dd_obs_sink sink, void *user, char *err,
					   size_t errlen)
{
	static const int64_t at[2] = { 100 * NS_PER_MS, 1500 * NS_PER_MS };
	struct dd_health_item unused;

	(void)ev;
	(void)seed;
	(void)max_throws;
	(void)err;
	(void)errlen;
	/* The first match's throws come from the sensors; the next's from here. */
	if (feeders++ == 1)
		fake_glue_attach(&feed, clock, sink, user, &unused, "", at, 2, on_fed);
	return (struct dd_sim_feed *)&feeder;
}

void __wrap_dd_sim_feed_free(struct dd_sim_feed *f)
{
	(void)f;
	fake_glue_detach(&feed);
}

bool __wrap_dd_sim_feed_spent(const struct dd_sim_feed *f)
{
	return f != NULL;
}

void __wrap_dd_sim_feed_match_cfg(struct bd_match_cfg *cfg, char team_names[2][32])
{
	dd_demo_match_cfg(cfg, team_names);
}

/* The fake feeder has no camera: no picture. */
int __wrap_dd_sim_feed_snapshot(struct dd_sim_feed *f, struct db *db, int64_t match, int throw_no,
				int64_t since_ns, char *err, size_t errlen)
{
	(void)f;
	(void)db;
	(void)match;
	(void)throw_no;
	(void)since_ns;
	(void)err;
	(void)errlen;
	return 0;
}

static void test_serve_demo_next_match_starts_with_no_throw_under_way(void **state)
{
	struct db_test_fx *f = *state;
	struct mlog_bd *log = NULL;
	struct mlog_bd_result res;
	const struct bd_throw *t = NULL;
	char err[256], sim[] = "--sim=table";

	/* The landing alone would time out (and be judged in the first
	 * match) before the next began. */
	fake_glue_run_serve(f, "[fusion]\ntimeout_ms = 60000\n[sim]\npause_s = 2\n", sim);
	assert_int_equal(feeders, 2);
	/* The first match: a1's throw, judged before the next was due. */
	assert_int_equal(db_bd_load(f->db, 1, &log, &res, err, sizeof(err)), 0);
	assert_int_equal(log->n_throws, 1);
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
	/* The next: its feeder's throw alone, not joined to the landing. */
	assert_int_equal(db_bd_load(f->db, 2, &log, &res, err, sizeof(err)), 0);
	assert_int_equal(log->n_throws, 1);
	for (size_t i = 0; i < log->n_entries && !t; i++)
		if (log->entries[i].kind == MLOG_THROW)
			t = &log->entries[i].t;
	assert_non_null(t);
	assert_int_equal(t->n_events, 2);
	assert_int_equal(t->events[0].kind, BD_EV_TABLE);
	assert_int_equal(t->events[1].kind, BD_EV_FLOOR);
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_serve_demo_next_match_starts_with_no_throw_under_way,
						db_test_setup, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
