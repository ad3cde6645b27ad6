/* Fusion: observations -> one throw (daemon/fusion*.c).
 * Sensors, the camera and the console each report what they saw with a
 * source, a time and a confidence; fusion puts them in time order and
 * decides when a throw starts and when the die is dead, pairs the piezo's
 * and the camera's view of the same landing, and turns disagreement and
 * missing witnesses into lowered confidences. It asks for review itself only
 * for what it alone knows (witnesses in conflict or missing on the first
 * landing, a first landing whose piezo fix doubts its half (half_doubtful)
 * and no camera landing on that half backs, a kicked die on the floor with
 * no landing felt, a throw nobody saw end, dropped observations, a throw
 * that floor, cup or mine discs alone felt); thin evidence on
 * the events that decide the ruling is bd_judge's to flag (review_below).
 * No I/O, no clock: times come in on the observations and on tick().
 *
 * It lives in daemon/ (DESIGN.md puts fusion there) rather than core/:
 * core/ rules on a throw as the match log states it, while fusion weighs
 * witnesses whose doubt comes from the inputs (the tracker's landing sd,
 * the discs' wiring), the daemon's concern; it is pure all the same,
 * needing only core/ and vision/'s constants (vision/vision.h), so
 * `dyeref evaluate`, the tests and serve share it unchanged. */
#ifndef DYEREF_DAEMON_FUSION_H
#define DYEREF_DAEMON_FUSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"


enum dd_source { DD_SRC_PIEZO, DD_SRC_CAMERA, DD_SRC_CONSOLE, DD_SRC_BUTTON, DD_SRC_SIM };

enum dd_obs_kind {
	DD_OBS_TOSS,		/* the die left the thrower's hand: a throw starts */
	DD_OBS_EVENT,		/* something happened to the die: ev */
	DD_OBS_NO_LANDING,	/* the camera watched the table and saw no landing */
	DD_OBS_DYE_UP_MISSED,	/* the thrower did not call "DYE UP!" (BD-P2) */
	DD_OBS_APEX,		/* the toss's measured height: apex_m, apex_sd_m */
	DD_OBS_OFF_TABLE,	/* the camera saw the die leave the table over an edge (ev.x, ev.y) */
	DD_OBS_TABLE_DEAF,	/* a cup or mine hit shook the table at t_ns: the table lines that
				 * heard it are held off until until_ns, and hear no landing then
				 * (not an event; no throw starts with it) */
	DD_OBS_REST_PENDING,	/* a die came to rest at t_ns (ev.x, ev.y) and its face is
				 * being read: the rest follows (a DD_OBS_EVENT of kind
				 * BD_EV_REST, read or unread), and the throw under way
				 * waits for it (dd_fusion_add; not an event, never kept
				 * among the throw's observations) */
};

#define DD_OBS_ARRIVALS 8	/* piezo arrival times kept with a table impact */

struct dd_obs {
	enum dd_obs_kind kind;	/* what was observed */
	enum dd_source source;	/* who observed it */
	int64_t t_ns;		/* CLOCK_MONOTONIC ns of what was seen */
	double confidence;	/* 0..1 */
	struct bd_event ev;	/* EVENT: kind and fields as in the match log */
	double apex_m;		/* APEX: metres above the table */
	double apex_sd_m;	/* APEX: its standard deviation, metres; 0 unknown */
	double sigma_m;		/* EVENT table: 1-sigma of the located point, 0 unknown */
	int64_t until_ns;	/* TABLE_DEAF: when the last table line that heard the shake
				 * listens again */
	int n_arrivals;		/* piezo: sensors that heard the impact */
	int arrival_sensor[DD_OBS_ARRIVALS];	/* piezo: sensor index */
	int64_t arrival_ns[DD_OBS_ARRIVALS];	/* piezo: edge time */
	bool no_point;		/* piezo: arrivals no one impact explains (two at once?) */
	bool half_doubtful;	/* piezo: the fix's half is in doubt (fix.near_line: on or within
				 * near_line_cm of the line, P(half) below near_line_p, or an
				 * explanation that fits puts it on the other half): a first
				 * landing so reported goes to review unless a camera landing
				 * on the same half backs it */
	double half_p;		/* piezo: the fix's P(half), for the reason (0 unknown) */
	bool player_guessed;	/* ev.player stands for an end: a button knows its end, not the hand */
	char snapshot[48];	/* camera: snapshot id for the replay, or "" */
};

struct dd_fusion_cfg {
	int64_t pair_window_ns;	/* piezo and camera seeing one impact: 80 ms */
	int64_t settle_ns;	/* late observations still join after the die is dead: 400 ms */
	int64_t timeout_ns;	/* no sign of a dead die for this long ends the throw: 6 s */
	int64_t rest_wait_ns;	/* a face being read (DD_OBS_REST_PENDING) holds the throw's
				 * settle and timeout until its rest comes, at most this long
				 * after the pending's t_ns: 6 s, a little above the face
				 * reader's own limit (DD_FACE_READ_LIMIT_NS, 5 s, after which
				 * it sends the rest unread) */
	bool piezo_present;	/* the table sensors are working */
	bool mine_disc_present;	/* with them, the disc under the mine (true): a mine the camera
				 * alone reports at a landing the table discs felt is in conflict */
	bool camera_present;	/* the camera is working and watching the table: a first landing
				 * it reports without the discs is doubted (they feel every one);
				 * one the discs felt and it missed is not (it misses some) */
	struct bd_table table;	/* where the halves and the line are: bd_table_defaults */
};

#define DD_FUSION_MAX_OBS 64	/* observations kept for one throw */
#define DD_BUTTON_CALLS 7	/* the buttons' calls fusion tells apart: low, catch1 and catch2 at
				 * each end, and a re-toss (from either end: it voids the throw) */

/* Bytes of a throw's reasons for an official: the judge's notes (the low
 * call's, the catcher's, the kick order's, the moved landing's:
 * dd_fused_judge), each naming its rule at its end, then fusion's. All
 * four notes fit (checked at compile time); what a full buffer cuts is
 * fusion's last reasons. */
#define DD_WHY_MAX 512

/* A throw as fusion assembled it, with what it rests on. */
struct dd_fused {
	struct bd_throw t;		/* for bd_judge(): events in time order */
	bool review;			/* doubtful: an official should look */
	char review_why[DD_WHY_MAX];	/* why, in words (for an official, should the throw be reviewed); "" when nothing is doubtful */
	bool kick_guessed;		/* a kick call was put before a touch on a guess (BD-K1) */
	size_t kick_at;			/* then: that kick's index in t.events */
	bool landing_moved;		/* a first landing the camera alone timed just before a hit
					 * the discs heard, while they heard no landing, was put
					 * just after the hit (the table deaf then): a guess */
	size_t landing_at;		/* then: that landing's index in t.events */
	int64_t landing_seen_ns;	/* then: the camera's time for it */
	bool catch_guessed;		/* a catch's player is a guess (player_guessed, no witness named one) */
	size_t catch_at;		/* then: the first such catch's index in t.events */
	int64_t t_start_ns;		/* toss, or the first observation */
	int64_t t_dead_ns;		/* when the die was dead (or the timeout hit) */
	int64_t t_last_edge_ns;		/* the last piezo or camera observation */
	size_t n_obs;			/* entries of obs */
	struct dd_obs obs[DD_FUSION_MAX_OBS];	/* in time order */
};

/* The throw under way: all that a throw's end forgets (fusion.c resets
 * it whole when a throw closes, and what lies outside it is kept). */
struct dd_fusion_throw {
	bool active;			/* a throw is under way */
	bool dead;			/* its die is dead: settling */
	int64_t t_dead_ns;		/* when it died */
	int64_t t_last_ns;		/* latest observation time; INT64_MIN before one */
	size_t n_obs;			/* entries of obs */
	struct dd_obs obs[DD_FUSION_MAX_OBS];	/* sorted by t_ns */
	bool overflow;			/* observations were dropped */
	bool kick_retimed;		/* a kick call was put before a touch (BD-K1): a guess */
	int64_t kick_retimed_ns;	/* then: the time it was given */
	unsigned rests_pending;		/* DD_OBS_REST_PENDINGs whose rest has not come */
	int64_t rest_pending_ns;	/* then: the latest one's t_ns */
};

struct dd_fusion {
	struct dd_fusion_cfg cfg;	/* copied */
	struct dd_fusion_throw cur;	/* the throw under way, if any (cur.active) */
	/* Kept from throw to throw (close_at sets or keeps them): */
	bool idle_shake_kept;		/* idle_shake holds a shake that came while no throw
					 * was under way, for the next (still, under one that
					 * was over before it was made) */
	struct dd_obs idle_shake;	/* then: the latest (DD_OBS_TABLE_DEAF), for a throw
					 * starting within its reach (its hit may start one) */
	int64_t t_closed_ns;		/* the last throw was closed at (its settle or timeout
					 * deadline, a re-toss, the next toss); INT64_MIN before */
	int64_t t_toss_after_ns;	/* it timed out, its last observation then: a toss made
					 * after this is the next throw's, however late it comes;
					 * else INT64_MAX */
	int64_t button_ns[DD_BUTTON_CALLS];	/* when each button's call was last taken */
	unsigned buttons_taken;		/* bit k: button_ns[k] is set */
};

/* Defaults as in the comments of struct dd_fusion_cfg. */
void dd_fusion_cfg_defaults(struct dd_fusion_cfg *cfg);
void dd_fusion_init(struct dd_fusion *f, const struct dd_fusion_cfg *cfg);

/* Adds an observation. Returns 1 when a throw is complete and *out (the
 * caller's, not NULL) holds it: a re-toss completes at once, and a toss
 * while a throw was never seen to end completes that one (judged on what
 * it has, marked for review) and starts the next. 0 when it was taken,
 * or left out because the throw holds DD_FUSION_MAX_OBS already (the
 * throw then says observations were dropped; a re-toss is never left
 * out: it takes the latest one's place), or a DD_OBS_TABLE_DEAF while no
 * throw is under way (a shake alone starts none: the latest is kept for a
 * throw whose first observation, the hit that made it perhaps, is made
 * before its window's end, and that was not over before it was made);
 * DD_FUSION_LATE, not taken, for one made before the last throw closed
 * (a camera's report of a throw already judged: it would otherwise start
 * a throw of its own, a rest or a sink with no landing); DD_FUSION_REPEAT
 * when it was left out as a button's second call (a press held down calls
 * again on release): a call of a button that this throw already has, or
 * whose call fusion took less than 1.5 s before; -EINVAL for an observation
 * that makes no sense (confidence outside 0..1, unknown kind, a deaf
 * window ending before it starts).
 *
 * A DD_OBS_REST_PENDING is handled as its rest will be: DD_FUSION_LATE
 * when made before the last throw closed (its rest will be too late as
 * well); else 0, and while a throw is under way that throw's settle and
 * timeout wait (dd_fusion_deadline, dd_fusion_tick) until a rest event
 * comes for each pending taken, or until cfg.rest_wait_ns after the
 * latest pending's t_ns; then the throw closes on what it has (its rest,
 * should it come later, is DD_FUSION_LATE). With no throw under way it
 * holds nothing: its rest starts the throw it belongs to, as it would
 * without the pending, and is dead from the start. A toss or re-toss that
 * ends the throw ends it whatever it waits for. */
#define DD_FUSION_LATE 2
#define DD_FUSION_REPEAT 3
int dd_fusion_add(struct dd_fusion *f, const struct dd_obs *o, struct dd_fused *out);

/* Time passes: returns 1 when the throw under way is complete at now_ns
 * (settled after a dead die, or timed out) and *out holds it; else 0. */
int dd_fusion_tick(struct dd_fusion *f, int64_t now_ns, struct dd_fused *out);

/* When tick() next needs calling, or INT64_MAX when nothing is under way:
 * the settle or the timeout, or later while a rest is awaited (a
 * DD_OBS_REST_PENDING: dd_fusion_add), the end of that wait.
 * A throw whose times (from outside) put its end past INT64_MAX gets
 * INT64_MAX too, and no tick() ends it: the next toss or re-toss does. */
int64_t dd_fusion_deadline(const struct dd_fusion *f);

/* Whether a throw is under way. */
bool dd_fusion_active(const struct dd_fusion *f);

/* Forgets the throw under way, if any, as if it had not begun (the game it
 * would join is over), and a shake kept for the next (dd_fusion_add);
 * what was made before the last throw closed stays too late, and the
 * buttons' last calls are kept. */
void dd_fusion_drop(struct dd_fusion *f);

/* "piezo", "camera", "console", "button", "sim". */
const char *dd_source_name(enum dd_source s);

/* Judges fx as the next throw from state s, as the daemon (and `dyeref
 * evaluate`) rules it. When fusion guessed that a kick came before a touch
 * (fx->kick_guessed), the throw is also judged with the kick after that
 * touch; only where the two rulings differ (points, dead, re-toss, duties:
 * e.g. BD-K2a withholds a game's last BD-K5 point, not a BD-P1 one) is the
 * order a reason for review. A low call entered within the official's
 * second after the first touch is judged before that touch too (BD-P5: it
 * counts when made before the die hits the table), and reviewed the same
 * way where the order decides. A catch whose catcher a button guessed
 * (fx->catch_guessed) is judged with the other player of that end too, and
 * reviewed where the two rulings differ (points, dead, re-toss, duties or
 * the rules named: BD-K1's FIFA point against BD-K9's nothing). A first
 * landing fusion put after a hit (fx->landing_moved; fusion sends it to
 * review, as any camera-only first landing) is judged where the camera
 * timed it too; where the two rulings differ, why says so. *ruling
 * (the caller's) gets the kick-first, guessed-catcher ruling, its review
 * set when fx, the judge, the order or the catcher asks; why (the caller's,
 * whylen bytes) the judge's notes (the order's, the catcher's, the moved
 * landing's, each naming its rule) then fx's reasons when it is reviewed,
 * else "" (fx's notes, such as witnesses disagreeing on a half that
 * decides nothing, explain a review only); with DD_WHY_MAX bytes the
 * notes are whole, fx's last reasons cut where both do not fit. 0, or
 * bd_judge's error with why in err. */
int dd_fused_judge(const struct bd_match_cfg *cfg, const struct bd_state *s,
		   const struct dd_fused *fx, struct bd_ruling *ruling, char *why, size_t whylen,
		   char *err, size_t errlen);

/* Whether two rulings have the same outcome, what officials and players act
 * on: points, dead, re-toss and duties (in any order). */
bool dd_ruling_same_outcome(const struct bd_ruling *a, const struct bd_ruling *b);

#endif /* DYEREF_DAEMON_FUSION_H */
