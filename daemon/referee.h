/* The referee: the match under way (daemon/referee.c).
 * Holds the current match as a match log (core's mlog_bd), judges each
 * fused throw against the folded state, commits it to the event log (db/,
 * SQLite, synchronous) and only then reports it. Corrections and undo are
 * new log lines followed by a refold. Fusion's evidence (every observation,
 * the reason for doubt) and the officials' confirmations are stored as raw
 * inputs of the throw. Rulings on doubtful evidence wait for an official
 * (review=wait) or count and stay correctable (review=count). */
#ifndef DYEREF_DAEMON_REFEREE_H
#define DYEREF_DAEMON_REFEREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

struct json_t;
struct db;

enum dd_review_mode { DD_REVIEW_WAIT, DD_REVIEW_COUNT };

struct dd_referee_cfg {
	struct bd_house house;		/* defaults for a new match */
	enum dd_review_mode review;	/* what a doubtful ruling does */
	char table_id[MLOG_TABLE_ID_MAX];	/* [table] id: written into each new match's header */
	char table_name[MLOG_TABLE_NAME_MAX];	/* [table] name, "" none */
};

struct dd_referee;
struct dd_fused;

/* Who acted on a ruling, when and why: an official's correction, undo or
 * confirmation, stored with it in the match log. */
struct dd_audit {
	char official[33];	/* the session's official, "" unknown */
	int64_t wall_ms;	/* Unix time, ms (display only) */
	char reason[201];	/* optional, "" none */
};

/* A referee over db (borrowed, open for writing). NULL with errno. */
struct dd_referee *dd_referee_new(const struct dd_referee_cfg *cfg, struct db *db);
void dd_referee_free(struct dd_referee *r);

/* Stores the camera's picture of throw throw_no of match (taken at or
 * after since_ns) in db's open batch: 1 stored, 0 none, negative errno
 * with a message (the throw is ruled without it). */
typedef int (*dd_snapshot_fn)(void *user, struct db *db, int64_t match, int throw_no,
			      int64_t since_ns, char *err, size_t errlen);
/* Each throw stored from now on takes fn(user, ...)'s snapshot (user
 * borrowed, alive while it is set); NULL: none (no camera). */
void dd_referee_set_snapshot(struct dd_referee *r, dd_snapshot_fn fn, void *user);

/* Picks up the match under way after a restart (the newest match, Beer Die
 * or dice, not ended; a complete dice game not ended stays open for
 * corrections until its End): 0 (also when there is none), or -errno with why in err. A
 * ruling that was held for review when the daemon stopped is not restored
 * (it was never committed: its throw is thrown again). */
int dd_referee_restore(struct dd_referee *r, char *err, size_t errlen);

/* New house defaults (SIGHUP): used from the next match on. */
void dd_referee_set_defaults(struct dd_referee *r, const struct dd_referee_cfg *cfg);

/* Starts a match; -EBUSY while one is under way (end it first); a dice
 * game under way that is over (dd_referee_dice_over) is ended first.
 * colors (NULL: the default orange and blue; an entry "" its default) are
 * palette names (mlog_bd_palette), stored in the match line. */
int dd_referee_start(struct dd_referee *r, const struct bd_match_cfg *cfg,
		     const char team_names[2][32], const char colors[2][MLOG_COLOR_MAX],
		     char *err, size_t errlen);
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
/* The dice game under way is complete (its winner, or Horse's loser, is
 * known) but not ended: it stays open for undo and correction of any
 * turn, the last included, until it is ended or another match starts
 * (which ends it first). An undo of its last turn reopens it. */
bool dd_referee_dice_over(const struct dd_referee *r);

/* Judges a fused throw and commits it (or holds it for review). 0;
 * -ENOENT no match; -EBUSY a ruling awaits review; -EINVAL cannot be
 * judged (err says why: e.g. the game is over); -EIO the store failed. */
int dd_referee_throw(struct dd_referee *r, const struct dd_fused *fx, char *err, size_t errlen);

/* The official's acts below store audit (borrowed; NULL: none, as a
 * program's own) with them in the match log. */

/* Marks duty (an id /api/state's "duties" give, "8:kill_n_fill:b1") done
 * or, done false, takes the mark back: a duty line in the match log, so a
 * restart keeps it. -ENOENT "no such duty" when the match's rulings give
 * none by that id (a corrected throw's duty is gone); marking it as it
 * already stands writes nothing and is 0. */
int dd_referee_duty_done(struct dd_referee *r, const char *duty, bool done,
			 const struct dd_audit *audit, char *err, size_t errlen);

/* Confirms throw_no (0: the one held for review, else the earliest counted
 * one still open): a confirm line. -EBUSY "throw N is not under review"
 * for a throw not ruled doubtful or settled by a correction; a second
 * confirmation of one writes nothing and is 0. */
int dd_referee_confirm(struct dd_referee *r, int throw_no, const struct dd_audit *audit,
		       char *err, size_t errlen);

/* Replaces throw_no's observations (0: the one held for review) and
 * refolds. A held ruling the official corrects is stored as the
 * official's throw line and a confirm line with the audit. */
int dd_referee_correct(struct dd_referee *r, int throw_no, const struct bd_throw *t,
		       const struct dd_audit *audit, char *err, size_t errlen);

/* Withdraws the last throw: a held one is dropped, a committed one is
 * corrected into a re-toss (BD-P9, a correct line marked "undo"), so the
 * log keeps what happened. */
int dd_referee_undo(struct dd_referee *r, const struct dd_audit *audit, char *err, size_t errlen);

/* Throws committed in the Beer Die match under way (0: none, or no match). */
int dd_referee_throws(const struct dd_referee *r);
/* The throw a confirm of throw 0 acts on: the held one, else the earliest
 * counted one still open; 0 when none is under review. */
int dd_referee_review_throw(const struct dd_referee *r);

/* The Beer Die match under way's players by seat (a1, a2, b1, b2): 0, or
 * -ENOENT with none under way. */
int dd_referee_players(const struct dd_referee *r, char names[BD_PLAYERS][BD_NAME_MAX]);

/* A command's result for the console: the Beer Die match under way after
 * acting on throw throw_no: {"throw":N,"ruling":..,"score":{..},
 * "team_names":{..},"match":id} (ruling null when throw N is no more or
 * not yet; "held":true for a ruling awaiting review). *out the caller's
 * (json_decref), NULL when no Beer Die match is under way. 0 or -ENOMEM. */
int dd_referee_result(struct dd_referee *r, int throw_no, struct json_t **out);

/* JSON for the web: the scoreboard's state (caller json_decref()s), the
 * match list, a match's log (JSON Lines, malloc'd), one throw in detail.
 * 0, -ENOENT (no such match), -ENOMEM, or another negative errno when the
 * database could not be read (logged with its message; never -ENOENT or
 * -EINVAL, which the web answers with a 4xx). */
int dd_referee_state(struct dd_referee *r, struct json_t **out);
int dd_referee_matches(struct dd_referee *r, char **out);
int dd_referee_log(struct dd_referee *r, long id, char **out);
int dd_referee_throw_detail(struct dd_referee *r, long id, long throw_no, char **out);
/* Every throw of Beer Die match id, oldest first, for the console's list:
 * {"match":N,"players":..,"team_names":..,"house":..,"throws":[{"throw":1,
 * "thrower":"a1","thrower_name":..,"ruling":..,"words":"1 to Orange",
 * "review":..,"confirmed":..,"corrected":..,"undone":..,"held":..,
 * "score":{..}}..]}; a ruling held for review comes last, "held":true. */
int dd_referee_throws_list(struct dd_referee *r, long id, char **out);
/* Camera snapshot `index` (1-based, in time order) of throw throw_no of match
 * id, or where snapshot_id is not 0 the throw's snapshot of that id (the
 * throw detail's "id", which retention pruning an earlier picture does not
 * move): 0 with *jpeg (the caller's, free()) and *len; -ENOENT when there
 * is no such snapshot; another negative errno on a database failure. */
int dd_referee_snapshot(struct dd_referee *r, long id, long throw_no, long index,
			int64_t snapshot_id, char **jpeg, size_t *len);
/* The official's word on the die of the snapshot whose id (the throw
 * detail's snapshots' "id") is `snapshot`, of throw throw_no of match id
 * (a face label for retraining the reader: docs/vision.md, "Retraining on
 * your own table"): face 1-6, or 0 to confirm the face the
 * camera read; stored with the die's crop, cut from the snapshot, and
 * audit's who and when, committed before returning. *out (the caller's,
 * json_decref) {"match","throw","snapshot","label":{"face","confirmed",
 * "read_face","official","wall_ms","reason"}}. -ENOENT no such throw or
 * snapshot; -EINVAL no die located in it, or nothing read to confirm;
 * else the store's error; err says why. */
int dd_referee_face_label(struct dd_referee *r, long id, int throw_no, int64_t snapshot, int face,
			  const struct dd_audit *audit, int64_t t_ns, struct json_t **out,
			  char *err, size_t errlen);
/* A dice-game match's score sheet (mlog_dice_sheet_json); -ENOENT for none
 * or a Beer Die match. */
int dd_referee_sheet(struct dd_referee *r, long id, char **out);
/* Starts a dice game (yatzy, yatzy-joker, dreiermann, horse) from its match
 * line (JSON text, as docs/dice-games.md): the engine checks it first, then
 * it is committed (a complete dice game under way is ended first). -EBUSY
 * a match is under way; -EINVAL with the engine's
 * "NAME:LINE: field: why" in err. */
int dd_referee_dice_start(struct dd_referee *r, const char *header, char *err, size_t errlen);
/* Judges one move of the dice game under way (a log line: turn, choose,
 * ...) as the next line of its stored log and commits it with the rulings
 * it adds; a move that completes the game leaves the match open (see
 * dd_referee_dice_over) until dd_referee_end().
 * Its player may be named by index or without regard to case (the name is
 * stored); a move without one gets the engine's next. audit (may be NULL)
 * is stored with it. A Yatzy move that writes a box for 0 is only stored
 * with accept_zero: otherwise -EAGAIN and the question in err
 * ("full_house with 4-4-4-1-3 scores 0: write 0?"). -ENOENT no dice game;
 * -EINVAL an illegal move, the engine's message in err; nothing is stored
 * then. dd_referee_end() ends a dice game too. */
int dd_referee_dice_move(struct dd_referee *r, const char *line, bool accept_zero,
			 const struct dd_audit *audit, char *err, size_t errlen);
/* Withdraws the last turn standing of the dice game under way: an undo
 * line (with audit, may be NULL) and a refold. -ENOENT no dice game or no
 * turn to undo. */
int dd_referee_dice_undo(struct dd_referee *r, const struct dd_audit *audit, char *err,
			 size_t errlen);
/* Replaces turn `turn` (its number in the sheet's turns[]) by the move
 * line and refolds the game: a correction line, with audit. A move without
 * a player stays with the turn's. -EINVAL when there is no such turn, the
 * new move is illegal, or a later turn no longer fits ("turn 9 no longer
 * fits: box: ..."): nothing is stored then. -ENOENT no dice game. A
 * correction that writes the turn's box for 0 asks first, as a move does:
 * -EAGAIN with the question unless accept_zero. */
int dd_referee_dice_correct(struct dd_referee *r, int turn, const char *line, bool accept_zero,
			    const struct dd_audit *audit, char *err, size_t errlen);
/* The console's answer after a dice command on match id (it may have just
 * ended): its sheet's "last" ({"action","turn","player","box","points",
 * "wrote","text"}) with "match" and the whole "sheet"; *out the caller's
 * (json_decref()). -ENOENT no such dice match; -ENOMEM. */
int dd_referee_dice_result(struct dd_referee *r, int64_t id, struct json_t **out);

#endif /* DYEREF_DAEMON_REFEREE_H */
