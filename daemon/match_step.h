/* One match step (daemon/match_step.c): an observation, or time passing,
 * through fusion and the rules around it, with each throw fusion completes
 * handed to a judge. `dyeref serve` (the referee) and `dyeref evaluate`
 * (its own fold, dd_fused_judge) both go through it, so the accuracy
 * benchmark measures the daemon's own path.
 *
 * Pure: no clock (times come in on the observation and on tick), no I/O;
 * the judge, the won rule and the log are the caller's callbacks.
 * Logging goes through the log callback (dd_log's signature; NULL: none),
 * so `dyeref evaluate` can run silent where serve passes dd_log. */
#ifndef DYEREF_DAEMON_MATCH_STEP_H
#define DYEREF_DAEMON_MATCH_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/daemon.h"
#include "daemon/fusion.h"

/* What the step works on; all of it the caller's, borrowed per call. */
struct dd_step {
	struct dd_fusion *fusion;	/* the throw under way */
	struct dd_fused *fx;		/* room for a completed throw (large: no stack of its own) */
	/* A throw fusion completed, for the caller to judge: fx is the step's
	 * room (valid during the call), at_ns the observation time it was
	 * completed at (the tick's now, or the completing observation's t_ns). */
	void (*judge)(void *user, const struct dd_fused *fx, int64_t at_ns);
	/* Whether the game under way is won (BD-W1): what the table and
	 * camera sense then stays out of fusion. NULL: never won. */
	bool (*won)(void *user);
	/* Messages for people, as dd_log; NULL: none. */
	void (*log)(enum dd_log_level level, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	void *user;			/* for judge and won */
};

/* The step left o out: the game is won (BD-W1). */
#define DD_STEP_WON 4

/* Takes o (the caller's). First, the throw under way may be complete
 * before o was made (its settle or timeout passed, the caller's timer not
 * yet run): it is judged at o's time, without o, and o starts the next;
 * then, in a won game, o is left out; else fusion takes it, a throw it
 * completes (a toss after one never seen to end, a re-toss) is judged,
 * and a toss that then starts a throw in a game that throw won is
 * forgotten (dd_fusion_drop). Returns dd_fusion_add's result for o (0, 1,
 * DD_FUSION_LATE, DD_FUSION_REPEAT, -EINVAL; each but 0 and 1 logged), or
 * DD_STEP_WON. */
int dd_step_obs(const struct dd_step *st, const struct dd_obs *o);

/* Time passes to now_ns: a throw complete by then (dd_fusion_tick) is
 * judged at now_ns. 1 when one was, else 0. */
int dd_step_tick(const struct dd_step *st, int64_t now_ns);

#endif /* DYEREF_DAEMON_MATCH_STEP_H */
