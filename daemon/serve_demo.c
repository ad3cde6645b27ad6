/* dyeref serve --sim: the simulator's table (--sim=table) or the sample
 * match feeding fusion, and one match after another, [sim] pause_s apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/feeds.h"
#include "daemon/fusion.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "daemon/obs_time.h"
#include "daemon/referee.h"
#include "daemon/serve.h"
#include "db/db.h"
#include "web/web.h"

/* Whether the Beer Die match under way plays on: not won, and the
 * simulator's throws still come. */
static bool sim_match_plays_on(const struct serve *sv)
{
	return dd_referee_in_match(sv->ref) && !dd_sim_feed_spent(sv->simfeed) &&
	       !dd_referee_over(sv->ref);
}

/* On the simulated table, the next match [sim] pause_s (real seconds,
 * whatever the clock's speed) after this one ends, after
 * the simulator's ends (its last throw is out and the referee's score, its
 * own rulings, has not reached the target), or after an official ended it
 * from the console (the simulator's throws then come outside a match): the
 * demo must never wait for ever. */
void dd_serve_sim_next_match_due(struct serve *sv)
{
	int64_t pause_ns;

	if (!sv->sim || !(sv->demo || sv->simfeed) || dd_timer_due(sv->restart) != INT64_MAX)
		return;
	/* A dice game an official began is played on the tray, not the
	 * table: the simulator's throws, spent or not, do not end it. Once
	 * complete it waits pause_s for corrections, then the demo ends it. */
	if (dd_referee_current_id(sv->ref) && !dd_referee_in_match(sv->ref) &&
	    !dd_referee_dice_over(sv->ref))
		return;
	if (sim_match_plays_on(sv))
		return;
	sv->restart_for = dd_referee_current_id(sv->ref);
	pause_ns = dd_clock_span(sv->clock, (int64_t)(sv->sc.sim_pause_s * 1e9));
	dd_timer_arm(sv->restart, dd_time_shifted(dd_clock_now(sv->clock), pause_ns));
}

void dd_serve_sim_reopened(struct serve *sv)
{
	bool dice;

	if (!sv->sim || dd_timer_due(sv->restart) == INT64_MAX ||
	    dd_referee_current_id(sv->ref) != sv->restart_for)
		return;
	dice = dd_referee_current_id(sv->ref) && !dd_referee_in_match(sv->ref) &&
	       !dd_referee_dice_over(sv->ref);
	if (!dice && !sim_match_plays_on(sv))
		return;
	dd_timer_arm(sv->restart, INT64_MAX);
	dd_log(DD_LOG_INFO, "demo: %smatch %lld reopened from the console, plays on",
	       dice ? "dice " : "", (long long)sv->restart_for);
}

/* --sim: the simulator's virtual table (--sim=table) or the built-in
 * sample match. */
bool dd_serve_feeder_start(struct serve *sv, char *err, size_t errlen)
{
	if (sv->sim_table) {
		sv->simfeed = dd_sim_feed_new(sv->ev, sv->clock, sv->sim_matches++,
					      sv->sc.sim_max_throws, dd_serve_on_obs, sv, err, errlen);
		return sv->simfeed != NULL;
	}
	sv->demo = dd_demo_new(sv->clock, dd_serve_on_obs, sv, err, errlen);
	return sv->demo != NULL;
}

void dd_serve_feeder_stop(struct serve *sv)
{
	dd_sim_feed_free(sv->simfeed);
	sv->simfeed = NULL;
	dd_demo_free(sv->demo);
	sv->demo = NULL;
}

static void demo_match_cfg(struct serve *sv, struct bd_match_cfg *cfg, char teams[2][32])
{
	if (sv->sim_table)
		dd_sim_feed_match_cfg(cfg, teams);
	else
		dd_demo_match_cfg(cfg, teams);
	cfg->house = sv->sc.ref.house;
}

/*
 * The simulator needs the table for its own match. What is under way
 * (restored after a restart, or started from the console) is:
 * - the simulator's own match (its players and team names): ended, as the
 *   console's End would; it was a demo, and it may be waiting for a review
 *   nobody will give;
 * - a dice game that is complete: ended, as End would (it waited pause_s
 *   open for corrections);
 * - anything else (a dice game, somebody's Beer Die match): set aside.
 *   Nothing is written to it (the demo must not put made-up throws into a
 *   real match, nor end a game people mean to finish), so it stays in the
 *   log as it stood and is the match under way again at the next start
 *   without --sim (the demo ends its own match when it stops).
 */
static void demo_clear_table(struct serve *sv)
{
	struct bd_match_cfg cfg;
	char teams[2][32], err[256], game[32];
	int64_t id;

	demo_match_cfg(sv, &cfg, teams);
	if ((dd_referee_match_is(sv->ref, &cfg, (const char (*)[32])teams) ||
	     dd_referee_dice_over(sv->ref)) &&
	    dd_referee_end(sv->ref, err, sizeof(err)) == 0)
		return;
	id = dd_referee_set_aside(sv->ref, game, sizeof(game));
	if (id)
		dd_log(DD_LOG_INFO, "demo: match %lld (%s) set aside, not ended: the simulator "
		       "plays its own match; it is under way again at a start without --sim",
		       (long long)id, game);
}

/* A demo that stops ends its own match, so the newest match not ended is
 * again the one a start without --sim should pick up. */
void dd_serve_demo_end_own(struct serve *sv)
{
	struct bd_match_cfg cfg;
	char teams[2][32], err[256];

	demo_match_cfg(sv, &cfg, teams);
	if (dd_referee_match_is(sv->ref, &cfg, (const char (*)[32])teams) &&
	    dd_referee_end(sv->ref, err, sizeof(err)))
		dd_log(DD_LOG_WARN, "demo: ending its match: %s", err);
}

void dd_serve_start_demo_match(struct serve *sv)
{
	struct bd_match_cfg cfg;
	char teams[2][32], err[256];

	demo_clear_table(sv);
	demo_match_cfg(sv, &cfg, teams);
	if (dd_referee_start(sv->ref, &cfg, (const char (*)[32])teams, NULL, err, sizeof(err)))
		dd_log(DD_LOG_ERR, "demo: %s", err);
	else
		dd_serve_fusion_restart(sv);
}

void dd_serve_on_restart(void *user)
{
	struct serve *sv = user;
	char err[256];

	/* A match begun since (an official's, from the console, Beer Die or
	 * dice) is not the demo's to set aside. */
	if (dd_referee_current_id(sv->ref) && dd_referee_current_id(sv->ref) != sv->restart_for) {
		dd_log(DD_LOG_INFO, "demo: match %lld, begun from the console, stands",
		       (long long)dd_referee_current_id(sv->ref));
		return;
	}
	/* An undo reopened the finished dice game since: it is played on,
	 * and its next last move sets the next match due again. */
	if (dd_referee_current_id(sv->ref) && !dd_referee_in_match(sv->ref) &&
	    !dd_referee_dice_over(sv->ref)) {
		dd_log(DD_LOG_INFO, "demo: dice match %lld reopened from the console, plays on",
		       (long long)sv->restart_for);
		return;
	}
	/* An official's undo or correction reopened the won game since: the
	 * simulator's throws play it on, and its next win (or the
	 * simulator's end) sets the next match due again. */
	if (sim_match_plays_on(sv)) {
		dd_log(DD_LOG_INFO, "demo: match %lld reopened from the console, plays on",
		       (long long)sv->restart_for);
		return;
	}
	dd_serve_feeder_stop(sv);
	dd_serve_start_demo_match(sv);
	if (!dd_serve_feeder_start(sv, err, sizeof(err)))
		dd_log(DD_LOG_ERR, "demo: %s", err);
	dd_serve_push_state(sv);
}
