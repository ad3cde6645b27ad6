/*
 * daemon: the `dyeref` program. main(), its commands, configuration, the
 * event loop and the fusion of sensor, vision and manual inputs.
 *
 * Only this folder decides to exit. Each command is a function
 * `int dd_cmd_NAME(int argc, char **argv)` in its own file, returning the
 * process exit status: 0 done, 1 a failure of the system (I/O, a device),
 * 2 bad input or usage (with a one-line message naming where and why).
 */
#ifndef DYEREF_DAEMON_H
#define DYEREF_DAEMON_H

#include <stdarg.h>
#include <stdint.h>

enum dd_log_level { DD_LOG_ERR, DD_LOG_WARN, DD_LOG_INFO, DD_LOG_DEBUG };

/* The one function through which messages for people go (stderr). */
void dd_log(enum dd_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* CLOCK_MONOTONIC now, in nanoseconds: the time base of every event. */
int64_t dd_mono_ns(void);

/* Exit statuses of a command. */
#define DD_EXIT_OK    0
#define DD_EXIT_FAIL  1
#define DD_EXIT_USAGE 2

/* The commands (daemon/cmd_NAME.c). main.c refers to them weakly: a
 * command whose file is not built is simply not offered. */
int dd_cmd_judge(int argc, char **argv);
int dd_cmd_score(int argc, char **argv);
int dd_cmd_dice(int argc, char **argv);
int dd_cmd_serve(int argc, char **argv);
int dd_cmd_matches(int argc, char **argv);
int dd_cmd_export(int argc, char **argv);
int dd_cmd_import(int argc, char **argv);
int dd_cmd_replay(int argc, char **argv);
int dd_cmd_sensors(int argc, char **argv);
int dd_cmd_calibrate(int argc, char **argv);
int dd_cmd_sim(int argc, char **argv);
int dd_cmd_evaluate(int argc, char **argv);


/* ---- Configuration (INI, libinih) ----
 * The file is read once into entries that keep their line numbers; each
 * module reads and checks its own section ([table], [sensors], [camera],
 * [web], [db], [house], ...) and names the line of anything wrong. Keys
 * nobody claimed are reported by dd_config_check_claimed(). */
#include <stddef.h>

struct dd_config_entry {
	char *section;		/* owned by the config */
	char *key;		/* owned by the config */
	char *value;		/* owned by the config */
	int line;		/* 1-based line in path */
	int claimed;		/* a module read it */
};

struct dd_config {
	char *path;		/* owned; as given to dd_config_load */
	size_t n;		/* entries */
	size_t cap;		/* entries allocated */
	struct dd_config_entry *entries;	/* owned, in file order */
};

/* Reads an INI file. Returns 0; the -errno of opening or reading it
 * (-ENOENT, -EACCES, -EISDIR, ..., with "file: why" in err); -EINVAL for
 * bad syntax, a NUL byte or a line too long for inih (with "file:line:
 * why"). Free with dd_config_free() either way. */
int dd_config_load(struct dd_config *cfg, const char *path, char *err, size_t errlen);
/* Same, from a string (tests, the built-in defaults). */
int dd_config_load_string(struct dd_config *cfg, const char *name, const char *text,
			  char *err, size_t errlen);
void dd_config_free(struct dd_config *cfg);

/* The last value of section.key, marking it claimed; NULL when absent.
 * *line (may be NULL) gets its line number. The string stays owned by cfg. */
const char *dd_config_get(struct dd_config *cfg, const char *section, const char *key, int *line);

/* Typed getters: 0 and *out set; -ENOENT absent (out untouched); -EINVAL
 * with "file:line: section.key: why" in err when the value is malformed or
 * outside [min, max]. */
int dd_config_get_double(struct dd_config *cfg, const char *section, const char *key,
			 double min, double max, double *out, char *err, size_t errlen);
int dd_config_get_int(struct dd_config *cfg, const char *section, const char *key,
		      long min, long max, long *out, char *err, size_t errlen);
int dd_config_get_bool(struct dd_config *cfg, const char *section, const char *key,
		       int *out, char *err, size_t errlen);

/* For a section's reader that goes on past a bad value, so that every key
 * it knows is claimed (a later good key is not then "unknown"): rc is one
 * key's result, why its message. Returns first when that is already an
 * error or rc is not; otherwise rc, with why copied to err. */
int dd_config_keep_first(int first, int rc, const char *why, char *err, size_t errlen);

/* -EINVAL with "file:line: unknown key section.key" for the first entry
 * nobody claimed; 0 when all were. */
int dd_config_check_claimed(const struct dd_config *cfg, char *err, size_t errlen);

/* The file at path as `dyeref serve --check-config` checks it (every
 * module's section, every key nobody reads: daemon/cmd_serve.c), for the
 * commands that read only part of it. 0; the -errno of dd_config_load;
 * -ENOMEM; or -EINVAL with the first problem, "file:line: why", in err. */
int dd_config_check_file(const char *path, char *err, size_t errlen);

/* ---- Fusion: observations -> one throw (daemon/fusion.c) ----
 * Sensors, the camera and the console each report what they saw with a
 * source, a time and a confidence; fusion puts them in time order and
 * decides when a throw starts and when the die is dead, pairs the piezo's
 * and the camera's view of the same landing, and turns disagreement and
 * missing witnesses into lowered confidences. It asks for review itself only
 * for what it alone knows (witnesses in conflict or missing on the first
 * landing, a kicked die on the floor with no landing felt, a throw nobody
 * saw end, dropped observations); thin evidence on
 * the events that decide the ruling is bd_judge's to flag (review_below).
 * No I/O, no clock: times come in on the observations and on tick(). */
#include <stdbool.h>
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
	bool player_guessed;	/* ev.player stands for an end: a button knows its end, not the hand */
	char snapshot[48];	/* camera: snapshot id for the replay, or "" */
};

struct dd_fusion_cfg {
	int64_t pair_window_ns;	/* piezo and camera seeing one impact: 80 ms */
	int64_t settle_ns;	/* late observations still join after the die is dead: 400 ms */
	int64_t timeout_ns;	/* no sign of a dead die for this long ends the throw: 6 s */
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

struct dd_fusion {
	struct dd_fusion_cfg cfg;	/* copied */
	bool active;			/* a throw is under way */
	bool dead;			/* its die is dead: settling */
	int64_t t_dead_ns;		/* when it died */
	int64_t t_last_ns;		/* latest observation time */
	size_t n_obs;			/* entries of obs */
	struct dd_obs obs[DD_FUSION_MAX_OBS];	/* sorted by t_ns */
	bool overflow;			/* observations were dropped */
	bool kick_retimed;		/* a kick call was put before a touch (BD-K1): a guess */
	int64_t kick_retimed_ns;	/* then: the time it was given */
	bool idle_shake_kept;		/* idle_shake holds a shake that came while no throw
					 * was under way, for the next (still, under one that
					 * was over before it was made) */
	struct dd_obs idle_shake;	/* then: the latest (DD_OBS_TABLE_DEAF), for a throw
					 * starting within its reach (its hit may start one) */
	/* Kept from throw to throw (close_at sets or keeps them): */
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
 * window ending before it starts). */
#define DD_FUSION_LATE 2
#define DD_FUSION_REPEAT 3
int dd_fusion_add(struct dd_fusion *f, const struct dd_obs *o, struct dd_fused *out);

/* Time passes: returns 1 when the throw under way is complete at now_ns
 * (settled after a dead die, or timed out) and *out holds it; else 0. */
int dd_fusion_tick(struct dd_fusion *f, int64_t now_ns, struct dd_fused *out);

/* When tick() next needs calling, or INT64_MAX when nothing is under way.
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

/* ---- The referee: the match under way (daemon/referee.c) ----
 * Holds the current match as a match log (core's mlog_bd), judges each
 * fused throw against the folded state, commits it to the event log (db/,
 * SQLite, synchronous) and only then reports it. Corrections and undo are
 * new log lines followed by a refold. Fusion's evidence (every observation,
 * the reason for doubt) and the officials' confirmations are stored as raw
 * inputs of the throw. Rulings on doubtful evidence wait for an official
 * (review=wait) or count and stay correctable (review=count). */
struct json_t;
struct db;

enum dd_review_mode { DD_REVIEW_WAIT, DD_REVIEW_COUNT };

struct dd_referee_cfg {
	struct bd_house house;		/* defaults for a new match */
	enum dd_review_mode review;	/* what a doubtful ruling does */
};

struct dd_referee;

/* A referee over db (borrowed, open for writing). NULL with errno. */
struct dd_referee *dd_referee_new(const struct dd_referee_cfg *cfg, struct db *db);
void dd_referee_free(struct dd_referee *r);

/* Picks up the match under way after a restart (the newest Beer Die match
 * not ended): 0 (also when there is none), or -errno with why in err. A
 * ruling that was held for review when the daemon stopped is not restored
 * (it was never committed: its throw is thrown again). */
int dd_referee_restore(struct dd_referee *r, char *err, size_t errlen);

/* New house defaults (SIGHUP): used from the next match on. */
void dd_referee_set_defaults(struct dd_referee *r, const struct dd_referee_cfg *cfg);

/* Starts a match; -EBUSY while one is under way (end it first). */
int dd_referee_start(struct dd_referee *r, const struct bd_match_cfg *cfg,
		     const char team_names[2][32], char *err, size_t errlen);
/* Ends the match under way: -ENOENT when none. */
int dd_referee_end(struct dd_referee *r, char *err, size_t errlen);
bool dd_referee_in_match(const struct dd_referee *r);
/* The match under way, Beer Die or dice; 0 none (ids start at 1). */
int64_t dd_referee_current_id(const struct dd_referee *r);
/* Whether the match under way is a Beer Die match with exactly these
 * players and team names (the demo knows its own match after a restart). */
bool dd_referee_match_is(const struct dd_referee *r, const struct bd_match_cfg *cfg,
			 const char team_names[2][32]);
/* Lets go of the match under way (Beer Die or dice) without writing
 * anything: it stays in the log as it stood, not ended, and a later
 * dd_referee_restore() finds it again while it is the newest match not
 * ended. Returns its id (0: none) and its game in game[0..gamelen). */
int64_t dd_referee_set_aside(struct dd_referee *r, char *game, size_t gamelen);
/* The match is waiting for an official to confirm or correct a ruling. */
bool dd_referee_waiting(const struct dd_referee *r);
/* The Beer Die match under way is won (BD-W1): no throw counts until an
 * undo or a correction reopens it, or it is ended. */
bool dd_referee_over(const struct dd_referee *r);

/* Judges a fused throw and commits it (or holds it for review). 0;
 * -ENOENT no match; -EBUSY a ruling awaits review; -EINVAL cannot be
 * judged (err says why: e.g. the game is over); -EIO the store failed. */
int dd_referee_throw(struct dd_referee *r, const struct dd_fused *fx, char *err, size_t errlen);

/* Confirms throw_no (0: the one held for review). */
int dd_referee_confirm(struct dd_referee *r, int throw_no, char *err, size_t errlen);

/* Replaces throw_no's observations (0: the one held for review) and refolds. */
int dd_referee_correct(struct dd_referee *r, int throw_no, const struct bd_throw *t,
		       char *err, size_t errlen);

/* Withdraws the last throw: a held one is dropped, a committed one is
 * corrected into a re-toss (BD-P9), so the log keeps what happened. */
int dd_referee_undo(struct dd_referee *r, char *err, size_t errlen);

/* JSON for the web: the scoreboard's state (caller json_decref()s), the
 * match list, a match's log (JSON Lines, malloc'd), one throw in detail.
 * 0, -ENOENT (no such match), -ENOMEM, or another negative errno when the
 * database could not be read (logged with its message; never -ENOENT or
 * -EINVAL, which the web answers with a 4xx). */
int dd_referee_state(struct dd_referee *r, struct json_t **out);
int dd_referee_matches(struct dd_referee *r, char **out);
int dd_referee_log(struct dd_referee *r, long id, char **out);
int dd_referee_throw_detail(struct dd_referee *r, long id, long throw_no, char **out);
/* Camera snapshot `index` (1-based, in time order) of throw throw_no of match
 * id: 0 with *jpeg (the caller's, free()) and *len; -ENOENT when there is no
 * such snapshot; another negative errno on a database failure. */
int dd_referee_snapshot(struct dd_referee *r, long id, long throw_no, long index,
			char **jpeg, size_t *len);
/* A dice-game match's score sheet (mlog_dice_sheet_json); -ENOENT for none
 * or a Beer Die match. */
int dd_referee_sheet(struct dd_referee *r, long id, char **out);
/* Starts a dice game (yatzy, yatzy-joker, dreiermann, horse) from its match
 * line (JSON text, as docs/dice-games.md): the engine checks it first, then
 * it is committed. -EBUSY a match is under way; -EINVAL with the engine's
 * "NAME:LINE: field: why" in err. */
int dd_referee_dice_start(struct dd_referee *r, const char *header, char *err, size_t errlen);
/* Judges one move of the dice game under way (a log line: turn, choose,
 * ...) as the next line of its stored log and commits it with the rulings
 * it adds; a move that ends the game ends the match with the final line.
 * -ENOENT no dice game; -EINVAL an illegal move, the engine's message in
 * err; nothing is stored then. dd_referee_end() ends a dice game too. */
int dd_referee_dice_move(struct dd_referee *r, const char *line, char *err, size_t errlen);

/* ---- Inputs: sensors and camera glue (from the sensors and vision work) ----
 * dyeref serve calls these if they are linked (weak symbols): each reads
 * its own config section ([sensors], [camera]), adds its fds to the loop
 * and reports what it sees through sink. A missing chip or camera is not
 * fatal: the glue says so in its health line, returns 0 and the daemon
 * runs on what it has. -EINVAL (with "file:line: why") for a bad config. */
#include <systemd/sd-event.h>

struct dd_health_item {
	bool ok;		/* working */
	char text[120];		/* the public health strip's (the wall screen, anyone on the
				 * network): the state and a short reason, no path, device,
				 * id or remedy: "4 piezo lines ok", "camera: not found" */
	char detail[512];	/* the official's (/console/api/status): the whole message,
				 * with the paths and the remedy */
	void (*changed)(void *user);	/* the owner's: told when ok or text changes (the
					 * screens are), or NULL */
	void *user;		/* for changed */
};

/* Sets h: ok and its public text (printf-style), the detail the same
 * words, and tells h->changed when ok or the text is not what it was;
 * dd_health_detail() then gives the console the whole message where the
 * text leaves something out. What does not fit is cut, and a byte that is
 * not UTF-8 (a character cut in two, a path in another encoding) becomes
 * '?': both stay strings jansson takes. */
void dd_health_set(struct dd_health_item *h, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void dd_health_detail(struct dd_health_item *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Each byte of s (NUL-terminated, changed in place) that is not part of
 * valid UTF-8 becomes '?', so jansson takes it: for text from outside
 * that goes into JSON whole, a configured path in another encoding. */
void dd_utf8_scrub(char *s);

typedef void (*dd_obs_sink)(void *user, const struct dd_obs *o);

int dd_sensors_attach(struct dd_config *cfg, sd_event *ev, bool sim, dd_obs_sink sink,
		      void *user, struct dd_health_item *health, char *err, size_t errlen);
void dd_sensors_detach(void);
/* After dd_sensors_attach: whether the wiring has a disc under the mine
 * (without one fusion cannot weigh a camera-only mine against a felt
 * landing and sends it to review, BD-O1). */
bool dd_sensors_mine_wired(void);
/* After dd_sensors_attach: every edge the chip gives is handed to sink
 * too, as read and before the pipeline sees it, with the wiring it is on
 * (cfg: the glue's, valid while attached), so that the event log keeps
 * what a disputed throw's impacts were made from (docs/sensors.md "Edges
 * in the database"). NULL stops it. */
struct sens_edge;
struct sens_config;
typedef void (*dd_edges_sink)(void *user, const struct sens_config *cfg,
			      const struct sens_edge *e, size_t n);
void dd_sensors_keep_edges(dd_edges_sink sink, void *user);
/* One observation of the sensors' pipeline as fusion takes it, on every
 * path (the GPIO glue, `dyeref evaluate`, the simulated table; pure, in
 * daemon/sensors_obs.c): a piezo impact from source DD_SRC_PIEZO with the
 * located point's sigma, the arrivals behind it and whether one point
 * explains them (fix.no_point); a button press (SENS_OBS_BUTTON)
 * as its call from source DD_SRC_BUTTON, a catch (BD_EV_CATCH, which core/
 * refuses without a player) and a low call (BD_EV_LOW_CALL) made by the
 * first player of the button's end, so->team * 2: the button knows the
 * end, not the hand; BD-P4 asks only that a defender caught it, and the
 * judge takes a low call from a defender only (BD-P5: a press at the
 * thrower's end changes nothing); player_guessed says so, and fusion
 * sends a ruling to review where the guessed catcher decides it
 * (dd_fused_judge). A team that is neither A nor B, which no config
 * gives, leaves BD_NOBODY. A table impact that a cup's or the mine's hit
 * shook (shaken_by, docs/sensors.md) is no landing: it becomes
 * DD_OBS_TABLE_DEAF from the shake's start (t_ns) to the end of the
 * hold-off of the lines that heard it (until_ns, held_off_until_ns), with
 * its arrivals, for fusion to know the discs could not hear a landing
 * then. Fills *o (the caller's). */
struct sens_obs;
void dd_sensors_obs_to_fusion(const struct sens_obs *so, struct dd_obs *o);
int dd_camera_attach(struct dd_config *cfg, sd_event *ev, bool sim, dd_obs_sink sink,
		     void *user, struct dd_health_item *health, char *err, size_t errlen);
void dd_camera_detach(void);
/* A die the camera saw come to rest at (x, y) table metres at t_ns, as
 * fusion takes it (fills o): a rest event with face 1-6 and its confidence;
 * face 0 (the face could not be read) gives a placeholder face with
 * confidence 0, which sends the ruling to an official at once (BD-O2 needs
 * the face) instead of leaving fusion to wait for its timeout. The camera
 * glue and the simulator's camera reports both use it. */
void dd_obs_rest(int64_t t_ns, double x, double y, int face, double confidence, struct dd_obs *o);
/* Reads the face of the die the camera located at (u, v) in a full-resolution
 * image (die_px: a die's side in its pixels), as the camera glue does:
 * vision's vis_read_die_near there (the one die within 1.5 sides, found by
 * its pips alone: on the white line and against cups too), and when that is
 * unsure (below 0.8), again one die side around it, the die within two
 * sides of the point (the location comes from the low-resolution stream,
 * whose pixel is about a quarter of a die, and may be off by more). Still
 * unsure: the general finder's reading (vis_read_face_at around the
 * point), taken only if it names the same face or the pips showed none; two
 * faces named: confidence 0. 0 and *out (the caller's), or -ENOENT. */
struct vis_image;
struct vis_die;
int dd_read_face_near(const struct vis_image *full, double u, double v, double die_px,
		      struct vis_die *out);
/* Reads a resting die's face off the event loop (daemon/face_reader.c),
 * for the camera glue: one worker thread runs dd_read_face_near on a copy
 * of the region around the die and hands the result back through an
 * eventfd on the loop. Observations reach the sink on the loop, in the
 * order they were given: a read as the rest dd_obs_rest() makes of the
 * job's time and place (the rest's, not the read's end) with the face read
 * (0: unread, confidence 0), an observation passed through after the reads
 * given before it. */
struct dd_face_job {
	int64_t t_ns;		/* the rest's time (the frame's) */
	double x, y;		/* the rest's place, table metres */
	int track;		/* the tracker's id of the die */
	double u, v;		/* where the die was located in the full frame, pixels */
	double die_px;		/* a die's side there, pixels */
};

#define DD_FACE_READS_QUEUED 16	/* reads waiting at most: more is a tracker gone wrong */
/* A read not back this long after it was given (the loop's clock) is given
 * up: its rest goes to the sink unread (face 0, confidence 0: the official
 * reads it), so a stuck or far too slow read holds neither fusion's timer
 * nor the observations behind it for longer. A read takes a tenth to half
 * a second on a Pi; reads queued behind it wait too. */
#define DD_FACE_READ_LIMIT_NS (5000 * 1000000LL)

struct dd_face_reader;

/* A reader on ev handing observations to sink(user, o), giving up reads
 * after DD_FACE_READ_LIMIT_NS. NULL with errno and a message. Free with
 * dd_face_reader_free(). */
struct dd_face_reader *dd_face_reader_new(sd_event *ev, dd_obs_sink sink, void *user,
					  char *err, size_t errlen);
/* Queues a read of job's die in full (the caller's: the reader copies the
 * part it reads). 0; -EBUSY when DD_FACE_READS_QUEUED reads wait already,
 * -ENOMEM: nothing queued then. */
int dd_face_reader_read(struct dd_face_reader *fr, const struct vis_image *full,
			const struct dd_face_job *job);
/* Queues a read of job's die in raw, a frame as the camera gives it (the
 * reader's from here in every case, also on an error): the worker converts
 * it to RGB (the loop neither copies nor converts it), reads the face on
 * the whole frame and hands the converted frame to the reader's frame sink
 * (dd_face_reader_set_frame_sink) on the loop, just before the rest goes
 * to the sink. 0; -EBUSY, -ENOMEM: nothing queued (raw freed). */
struct vis_yuv420;
int dd_face_reader_read_yuv(struct dd_face_reader *fr, struct vis_yuv420 *raw,
			    const struct dd_face_job *job);
/* Receives a frame converted off the loop, the callee's (stolen), with
 * what prep made of it (blob, len bytes: the callee's, free() it; NULL
 * without prep or when prep gave nothing). */
typedef void (*dd_frame_sink)(void *user, struct vis_image *full, void *blob, size_t len);
/* Runs on the worker thread on each converted frame, after its read
 * (not for a read already given up): work the sink would otherwise do on
 * the loop (the camera glue's snapshot JPEG). The rest waits for it.
 * Returns a malloc'd blob and *len, or NULL. It must touch nothing but
 * full and what it allocates. */
typedef void *(*dd_frame_prep)(const struct vis_image *full, size_t *len);
/* Where converted frames go (user: the reader's) and what is made of them
 * first (prep, or NULL); without keep they are dropped. */
void dd_face_reader_set_frame_sink(struct dd_face_reader *fr, dd_frame_sink keep,
				   dd_frame_prep prep);
/* Hands o (copied) to the sink now when no read is waiting, else after
 * the reads queued before it. 0 or -ENOMEM (o is dropped). */
int dd_face_reader_pass(struct dd_face_reader *fr, const struct dd_obs *o);
/* Reads queued whose rest has not reached the sink yet (0 for NULL). */
size_t dd_face_reader_pending(const struct dd_face_reader *fr);
/* Gives up reads limit_ns after they were given (reads given from now on;
 * tests drive a stuck read with it). */
void dd_face_reader_set_limit(struct dd_face_reader *fr, int64_t limit_ns);
/* Drops what was not delivered, tells the worker to end and frees, at
 * once: a read under way is not waited for (it may never return); the
 * worker frees it and ends when it does. NULL is fine. */
void dd_face_reader_free(struct dd_face_reader *fr);
/* Camera reads whose rest fusion has not been given yet: the daemon holds
 * fusion's settle and timeout while there are any, as the loop was held
 * while the glue read a face on it. Weak: 0 without the camera glue. */
size_t dd_camera_reads_pending(void);
/* Stores the camera's latest telling frame (a landing, a sink, the resting
 * die) as a JPEG snapshot of throw throw_no, in db's open batch (it rides
 * in the throw's transaction), when it was taken at or after since_ns.
 * 1 stored, 0 nothing of this throw to store, negative errno with a
 * message. Weak: the referee calls it only when the camera glue is built. */
struct db;
int dd_camera_snapshot(struct db *db, int64_t match, int throw_no, int64_t since_ns,
		       char *err, size_t errlen);

/* ---- The demo feeder (daemon/demo_feed.c) ----
 * With --sim and no simulator linked: replays a built-in sample match's
 * throws as timed observation sequences (piezo, camera, console), at real
 * speed, into the same sink as the sensors. */
struct dd_demo;

/* Starts feeding on ev. NULL with errno. */
struct dd_demo *dd_demo_start(sd_event *ev, dd_obs_sink sink, void *user,
			      char *err, size_t errlen);
void dd_demo_stop(struct dd_demo *d);
/* The sample match's players (for starting a match in --sim mode). */
void dd_demo_match_cfg(struct bd_match_cfg *cfg, char team_names[2][32]);

/* ---- Sensors (daemon/sensors_config.c, cmd_sensors.c, cmd_calibrate.c) ---- */
struct sens_config;

/* Reads [table] (length_m, width_m, height_m, line_width_m) and [sensors]
 * (chip, table0..7 with _x, _y, _delay_us, cup_a1..cup_b2, mine,
 * floor0..3, wave_speed, speed_spread, timing_sigma_us, hold_off_ms,
 * near_line_p, near_line_cm, silent_after_s, button_CALL_END for CALL low,
 * retoss, catch1, catch2 and END a, b, button_debounce_ms,
 * button_repeat_ms; docs/sensors.md) into *out, starting from
 * sens_config_defaults(). When [sensors] names no piezo line, the reference
 * wiring is used (buttons are added to it). 0, or -EINVAL with
 * "file:line: section.key: why". */
int dd_sensors_config_load(struct dd_config *cfg, struct sens_config *out, char *err, size_t errlen);

/* The same from a file (NULL: the built-in defaults), also rejecting
 * unknown keys in [sensors] and [table]. 0, -ENOENT/-EACCES (file) or
 * -EINVAL, with the message in err. */
int dd_sensors_config_file(const char *path, struct sens_config *out, char *err, size_t errlen);

/* Sets keys[i] = values[i] in section of the INI file at path, keeping
 * every other line as it was: an existing key is replaced where it
 * stands, a missing one is added at the end of its section (the section
 * is created if absent; a missing file is created). Written to a
 * temporary file beside it, synced, renamed over it and the directory
 * synced: never half written, and the change survives a power cut once
 * this returns. A symbolic link is followed: its target is replaced, the
 * link stays. 0, or a negative errno with a message. */
int dd_config_set_keys(const char *path, const char *section, const char *const *keys,
		       const char *const *values, size_t n, char *err, size_t errlen);

/* Whether dd_config_set_keys could write path: a temporary file can be
 * made beside it (beside a link's target), and is removed again. For a
 * command that would otherwise fail only after the work (calibration's
 * taps). 0, or a negative errno with the message dd_config_set_keys would
 * give. */
int dd_config_check_writable(const char *path, char *err, size_t errlen);

/* `dyeref calibrate camera ...`: provided by the vision helper's file;
 * referenced weakly, NULL when not built. Returns an exit status. */
int dd_calibrate_camera(int argc, char **argv);

/* ---- Simulation and evaluation (daemon/cmd_sim.c, cmd_evaluate.c) ----
 * The sensors' observations reach fusion through dd_sensors_obs_to_fusion
 * here too, so the evaluation measures the path the Pi runs.
 *
 * A simulated console call (struct sim_call) or camera report (struct
 * sim_cam) as the console and the camera glue would hand it to fusion;
 * crop (may be NULL) is the full-resolution crop of a resting die, whose
 * face vision reads (vis_dice_find). Used by `dyeref evaluate` and the
 * live feeder alike. */
struct sim_call;
struct sim_cam;
struct vis_image;
void dd_obs_from_sim_call(const struct sim_call *c, struct dd_obs *o);
void dd_obs_from_sim_cam(const struct sim_cam *c, const struct vis_image *crop, struct dd_obs *o);
/* The face read of a simulated rest report c (SIM_CAM_REST) on its rendered
 * crop as a job for a face reader (the read dd_obs_from_sim_cam makes on
 * the spot): the rest's time and place, the crop's centre, a die a quarter
 * of its side. 0, or -EINVAL (not a rest, or no crop). */
int dd_face_job_from_sim_cam(const struct sim_cam *c, const struct vis_image *crop,
			     struct dd_face_job *job);

/* ---- The live simulator (daemon/sim_feed.c): `dyeref serve --sim=table` ----
 * Plays one simulated match (team A first, names as below) at real speed:
 * its piezo edges go through the sensors pipeline, its console calls and
 * camera reports through the conversions above, into sink, on ev's clock.
 * A rest's face is read off the loop by a face reader of its own (the
 * camera glue's dd_face_reader, the job dd_face_job_from_sim_cam makes);
 * every observation passes through that reader, so they reach sink in the
 * match's order, each with its own time. max_throws > 0 stops the match
 * after that many throws, whatever the score ([sim] max_throws); 0 plays
 * it to its end.
 * NULL with errno and a message. Stop (and free) with dd_sim_feed_stop(). */
struct dd_sim_feed;
struct dd_sim_feed *dd_sim_feed_start(sd_event *ev, uint64_t seed, int max_throws,
				      dd_obs_sink sink, void *user, char *err, size_t errlen);
void dd_sim_feed_stop(struct dd_sim_feed *f);
/* Rests whose face the feeder's face reader is reading (0 for NULL): as
 * the camera glue's (dd_camera_reads_pending), serve holds fusion's
 * settle and timeout while there are any. */
size_t dd_sim_feed_reads_pending(const struct dd_sim_feed *f);
/* Whether every observation of the match is out and every face read
 * (false for NULL): the simulator's match is over, whatever the
 * referee's score says (a ruling of its own may differ from the
 * simulator's, and then the two matches end at other throws). */
bool dd_sim_feed_spent(const struct dd_sim_feed *f);
void dd_sim_feed_match_cfg(struct bd_match_cfg *cfg, char team_names[2][32]);

#endif /* DYEREF_DAEMON_H */
