/*
 * db: the event log. Every match in SQLite, append-only, durable, replayable.
 *
 * What is stored (docs/event-log.md has the schema):
 *  - each match's log lines exactly as the match log codec writes them (the
 *    `match` header, then `rolloff`, `throw`/`turn` and `correct` lines), so
 *    exporting a match is concatenating its lines;
 *  - the rulings as shown (their line text, with the fields queries need);
 *  - the raw inputs (sensor edges, vision detections, manual calls) with
 *    their monotonic timestamps and sources; the observations assembled into
 *    each throw; camera snapshots (JPEG) and the calibration in force.
 * Nothing is updated in place or deleted, except by the retention policy
 * (db_retention_run): a correction is a new row.
 *
 * Durability: a throw (or correction) and its rulings are committed in one
 * transaction with synchronous=FULL before db_append() returns, so a ruling
 * is on disk before anyone is told of it. Raw inputs and snapshots are
 * batched: db_raw_append() adds them to an open transaction that the caller
 * commits with db_raw_flush() at most every 100 ms (and every db_append()
 * commits it too). A crash loses at most the unflushed raw inputs.
 *
 * Errors: 0 or a negative errno, with a one-line message in (err, errlen)
 * where the function takes them. -ENOSPC: the disk (or the page limit) is
 * full; the database stays readable and keeps everything committed before.
 *
 * Threads: one struct db per thread. Several processes may open one file
 * (WAL: readers do not block the writer).
 */
#ifndef DYEREF_DB_H
#define DYEREF_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The schema this build writes; files from earlier versions are migrated
 * forward on open, files from later ones are refused. */
#define DB_SCHEMA_VERSION 6
/* PRAGMA application_id of a dyeref database: "DYER". */
#define DB_APPLICATION_ID 0x44594552
/* Largest raw payload or snapshot stored, in bytes (SQLite's own limit is 1e9). */
#define DB_BLOB_MAX (64 << 20)
/* Retention budget when none is configured: 2 GiB (docs/event-log.md). */
#define DB_BUDGET_DEFAULT ((int64_t)2 << 30)

struct db;

/* ---- Open, close ----------------------------------------------------- */

enum db_open_flags {
	DB_OPEN_CREATE = 1 << 0,	/* create the file when it does not exist */
	DB_OPEN_READONLY = 1 << 1,	/* no writes; no migration (an old file is refused); no check */
	DB_OPEN_NOCHECK = 1 << 2,	/* no quick_check even after a writer left the file
					 * open: readers (export, matches, replay), and callers
					 * that check later (db_left_open, db_check) */
};

/* Opens (or with DB_OPEN_CREATE creates) a dyeref database, then turns on
 * WAL and migrates an older schema forward. When a writer left the file
 * without closing it (a crash, a power cut: its -wal is still there), the
 * file is first checked with PRAGMA quick_check, which reads every page,
 * unless the flags say no check; a file closed cleanly is not read whole,
 * so opening takes the same time at any size. A file that is not a
 * dyeref database, is found corrupt or has a newer schema is refused and
 * left byte for byte as it was: NULL, errno set
 * (ENOENT missing, EACCES permission denied, ENOTSUP non-dyeref, EILSEQ
 * corrupt, EPROTO newer, ENOSPC, EROFS, EIO)
 * and "FILE: reason" (one line) in err. Free with db_close(). */
struct db *db_open(const char *path, unsigned flags, char *err, size_t errlen);

/* Whether, when db_open() found it, a writer had left the file without
 * closing it (its -wal was there): what a DB_OPEN_NOCHECK caller should
 * db_check() (the daemon does it in the background). */
bool db_left_open(const struct db *db);

/* PRAGMA quick_check now (it reads every page: seconds for a large file):
 * 0, -EINTR when db_interrupt() stopped it, or -EILSEQ with "FILE: corrupt database (quick_check: why)" on one
 * line in err, or the store's own error (-EBUSY, -ENOMEM...). */
int db_check(struct db *db, char *err, size_t errlen);

/* Makes the statement db runs on another thread (a db_check) stop soon:
 * it fails with -EINTR. The one call that may be made from a thread not
 * db's own, while db is open. */
void db_interrupt(struct db *db);

/* Commits pending raw inputs (best effort) and closes. NULL is a no-op. */
void db_close(struct db *db);

/* The path given to db_open (owned by db). */
const char *db_path(const struct db *db);

/* The database's own failures since db_open (SQLite's: locked by another
 * program, disk full, read-only, I/O error, corrupt; and running out of
 * memory), not a request it refused (no such match, a bad line): *count
 * (may be NULL) gets how many, and the text returned is the last one's in
 * words that name neither the file nor the statement ("database is
 * locked"; "" before the first; db's, until its next failure). The err of
 * the failing call says it with the path, for the owner; this is for
 * readers who may know that the log failed but not where it is (the
 * public health strip), and a count that moved tells a caller its call
 * failed for the store's sake, not for what it asked. */
const char *db_fault(const struct db *db, unsigned long *count);

/* How many of db's write transactions have reached the file since db_open
 * returned: a throw's or correction's lines, a match's start or end, a
 * flushed batch of raw inputs, a calibration, a pruning step. A call that
 * wrote nothing (refused, read only, held in the batch) leaves it where it
 * was, so a count that moved tells a caller that the store took a write,
 * where db_fault's unchanged count says only that nothing failed. */
unsigned long db_commits(const struct db *db);

/* How long a write waits for another program's lock on the file before it
 * fails with -EBUSY (db_open sets 5000 ms). The daemon waits less: it
 * writes on its event loop, which must not stall past the watchdog. */
void db_set_busy_timeout(struct db *db, int ms);

/* ---- Matches --------------------------------------------------------- */

/* Starts a match from its log header line (a JSON object with
 * "type":"match" and "game"; stored verbatim, without a newline).
 * t_ns: CLOCK_MONOTONIC of the start. *match gets the new match's id. */
int db_match_start(struct db *db, const char *header_line, int64_t t_ns,
		   int64_t *match, char *err, size_t errlen);

/* Ends a match, storing its final line (JSON object, "type":"final").
 * A match ends once; -EALREADY after. Finished matches are what retention
 * may prune. */
int db_match_end(struct db *db, int64_t match, const char *final_line,
		 int64_t t_ns, char *err, size_t errlen);

struct db_match_info {
	int64_t id;		/* the match id (db_match_start) */
	char game[32];		/* "beerdie", "yatzy", ... */
	char table_id[33];	/* the header's "table"."id", "" none */
	int64_t start_ns;	/* CLOCK_MONOTONIC at the start */
	int64_t start_wall_ms;	/* wall clock at the start, ms since 1970, for display */
	bool ended;		/* db_match_end() was called */
	int throws;		/* throw/turn lines */
	int corrections;	/* correct lines */
	int reviews;		/* throws whose current ruling asks for review */
	char score[64];		/* "score" of the latest ruling (JSON text), or "" */
};

/* Every match, oldest first. *out (n of them) is the caller's: free(). */
int db_matches(struct db *db, struct db_match_info **out, size_t *n,
	       char *err, size_t errlen);

/* One match; -ENOENT if there is none with that id. */
int db_match_get(struct db *db, int64_t match, struct db_match_info *info,
		 char *err, size_t errlen);

/* The newest match, or with unended the newest not ended (the daemon's
 * match under way), without listing every match (start-up and the
 * scoreboard between matches must not grow with the log); -ENOENT when
 * there is none. */
int db_match_newest(struct db *db, bool unended, struct db_match_info *info,
		    char *err, size_t errlen);

/* ---- The log of a match: throws, rulings, corrections ---------------- */

/* One observation assembled into a throw: what a sensor, the camera or the
 * console contributed, and how sure it was. */
struct db_observation {
	int64_t t_ns;		/* CLOCK_MONOTONIC */
	const char *kind;	/* "table", "cup", "floor", "catch", ... */
	const char *source;	/* "piezo", "camera", "console", ... */
	double confidence;	/* 0..1 */
	const char *detail;	/* JSON text (the event as logged), or NULL */
};

/* One line of a match log after the header, with what it caused. */
struct db_entry {
	const char *line;	/* JSON object: "type" throw, turn, correct, rolloff, ... */
	int64_t t_ns;		/* when it was decided (the ruling was shown) */
	int64_t t_start_ns;	/* throw/turn: first raw input that belongs to it, 0 unknown */
	const struct db_observation *obs;	/* throw/turn: its observations */
	size_t n_obs;		/* entries in obs */
	const char *const *rulings;	/* ruling lines ("type":"ruling", "throw":K) */
	size_t n_rulings;	/* throw/turn: 1; correct: the recomputed ones */
};

/* Appends one log line with its observations and rulings, in one
 * transaction (with any pending raw inputs), committed before returning.
 * Throw and turn lines are numbered 1, 2, ... in order (*throw_no, may be
 * NULL); their single ruling must name that number. A correct line names a
 * throw that exists. Lines must be one-line JSON objects. -EINVAL with the
 * reason; -EALREADY when the match has ended; -ENOENT no such match. */
int db_append(struct db *db, int64_t match, const struct db_entry *e,
	      int *throw_no, char *err, size_t errlen);

/* Writes the match's log: the header and every later line in order, each
 * with "\n" (the match log of DESIGN.md). */
int db_export(struct db *db, int64_t match, FILE *out, char *err, size_t errlen);

/* The match's stored lines, header first: *lines (n, each a string) is the
 * caller's; free with db_lines_free(). */
int db_lines(struct db *db, int64_t match, char ***lines, size_t *n,
	     char *err, size_t errlen);
void db_lines_free(char **lines, size_t n);

/* The match's stored lines as one log: each line and a "\n", header first,
 * then extra (NULL: none) as one more line, the way the codec reads a log
 * (the daemon judges a dice move as the last line of its match's log).
 * *text (NUL-terminated, *len bytes without the NUL) is the caller's
 * (free()). */
int db_match_text(struct db *db, int64_t match, const char *extra, char **text, size_t *len,
		  char *err, size_t errlen);

/* Writes the rulings as last shown: for each throw its latest ruling line
 * (a correction supersedes), then the final line if the match has ended. */
int db_rulings_write(struct db *db, int64_t match, FILE *out,
		     char *err, size_t errlen);

/* ---- Raw inputs and snapshots (batched) ------------------------------ */

/* One raw input as it arrived. */
struct db_raw {
	int64_t t_ns;		/* CLOCK_MONOTONIC (kernel timestamp for edges) */
	int throw_no;		/* the throw it belongs to, or 0 (found by time) */
	const char *source;	/* "piezo", "camera", "console", "button", ... */
	const char *kind;	/* "edge", "detection", "call", ... */
	int channel;		/* GPIO line, camera stream, ...; -1 none */
	const void *payload;	/* source-specific bytes (often JSON), may be NULL */
	size_t len;		/* bytes of payload */
};

/* Adds n raw inputs to the open batch (opening one if needed). They are
 * durable after the next db_raw_flush() or db_append(); the caller flushes
 * at most every 100 ms. All or nothing: after an error none of the n is in
 * the batch (so the caller may offer them again), and the batch's earlier
 * rows stay unless SQLite rolled the whole transaction back (a full disk
 * can). -EINVAL: no source/kind, payload over DB_BLOB_MAX. */
int db_raw_append(struct db *db, int64_t match, const struct db_raw *raw,
		  size_t n, char *err, size_t errlen);

/* Commits the open batch of raw inputs and snapshots (no-op without one). */
int db_raw_flush(struct db *db, char *err, size_t errlen);

/* Adds a camera snapshot (JPEG bytes, copied) to the open batch. throw_no
 * 0: found by time like raw inputs. */
int db_snapshot_add(struct db *db, int64_t match, int throw_no, int64_t t_ns,
		    const void *jpeg, size_t len, char *err, size_t errlen);

/* ---- Calibration ------------------------------------------------------ */

/* Records a calibration (kind "piezo", "camera", ...; JSON text), in force
 * from now on (committed before returning). */
int db_calibration_add(struct db *db, const char *kind, const char *json,
		       int64_t t_ns, char *err, size_t errlen);

/* The calibration of that kind in force at wall time at_wall_ms (0: now):
 * *json is the caller's (free()); -ENOENT when none was recorded. */
int db_calibration_get(struct db *db, const char *kind, int64_t at_wall_ms,
		       char **json, char *err, size_t errlen);

/* ---- Face labels (db/faces.c) ----------------------------------------- */

/* An official's word on a die the camera read at rest, one snapshot's
 * die: a label for retraining the face reader on this table, with its own
 * crop (retention, which prunes snapshots, never prunes a label). Labels
 * are appended, never changed: a die's latest is its label. */
struct db_face_label {
	int64_t id;		/* db_face_labels: the row's id; ignored by db_face_label_add */
	int64_t match;		/* the match */
	int throw_no;		/* the throw, 1.. */
	int64_t snapshot;	/* the snapshot holding the die: its id (db_item.id), 1.., which
				 * outlives its pruning, unlike its place in the throw */
	int face;		/* the face, 1-6 */
	bool confirmed;		/* the face read was confirmed (else set by hand) */
	int read_face;		/* what the camera read, 1-6; 0 none */
	double read_confidence;	/* its confidence 0-1; < 0 none */
	const void *crop;	/* the die's crop, JPEG bytes (1..DB_BLOB_MAX) */
	size_t crop_len;	/* bytes of crop */
	int width, height;	/* the crop's size, pixels (1..65535) */
	double x, y, w, h;	/* the die's box in the crop: centre, width and height, pixels */
	const char *official;	/* who (1..MLOG_OFFICIAL_MAX-1 bytes) */
	const char *reason;	/* why, "" or NULL none */
	int64_t t_ns;		/* CLOCK_MONOTONIC when it was given */
	int64_t wall_ms;	/* when, ms since 1970 (display only; db_face_label_add: 0 now) */
};

/* Stores a label, committed (with any open batch) before returning. The
 * match must exist and have throw throw_no; -EINVAL with the reason for a
 * field out of range, -ENOENT no such match or throw. */
int db_face_label_add(struct db *db, const struct db_face_label *l, char *err, size_t errlen);

/* Calls fn with each die's label (its latest) of match (0: every match),
 * throw throw_no (0: every throw), ordered by match, throw and snapshot;
 * pointers valid during the call. fn's non-zero return stops and is
 * returned as it is. The stored rows are read as hostile: a row out of
 * range is -EILSEQ ("FILE: face label ID: why"). */
int db_face_labels(struct db *db, int64_t match, int throw_no,
		   int (*fn)(const struct db_face_label *l, void *ctx), void *ctx,
		   char *err, size_t errlen);

/* ---- Replay ----------------------------------------------------------- */

/* Bytes in the well-formed UTF-8 sequence at p (at most n of them), or 0
 * when there is none there (RFC 3629: no overlongs, surrogates or past
 * U+10FFFF): what a JSON string of the replay, or any text jansson is
 * given, may carry. */
size_t db_utf8_seq(const unsigned char *p, size_t n);

enum db_item_kind {
	DB_ITEM_RAW,		/* a raw input */
	DB_ITEM_SNAPSHOT,	/* a camera snapshot (data = JPEG) */
	DB_ITEM_OBSERVATION,	/* an observation assembled into the throw */
	DB_ITEM_THROW,		/* the throw line itself */
	DB_ITEM_RULING,		/* a ruling shown for the throw */
	DB_ITEM_CORRECTION,	/* a correct line for the throw */
};

/* One item behind a throw. Strings and data are valid during the callback. */
struct db_item {
	enum db_item_kind kind;	/* what it is */
	int64_t t_ns;		/* CLOCK_MONOTONIC */
	const char *source;	/* RAW, OBSERVATION: source; else "" */
	const char *what;	/* RAW, OBSERVATION: kind; else "" */
	int channel;		/* RAW: channel; else -1 */
	double confidence;	/* OBSERVATION: 0..1; else -1 */
	const char *text;	/* JSON text: THROW/RULING/CORRECTION line, OBSERVATION detail, RAW payload when it is UTF-8 text; else NULL */
	const void *data;	/* RAW payload, SNAPSHOT JPEG */
	size_t len;		/* bytes of data */
	int64_t id;		/* SNAPSHOT: its row's id (what a face label names); else 0 */
};

/* Calls fn for everything behind throw K of a match in time order (ties
 * in the order stored): raw inputs and snapshots of the throw's time span,
 * its observations, the throw line, the rulings shown for it and its
 * corrections. fn returning non-zero stops and is returned as it is, with
 * nothing written to err. -ENOENT when the throw does not exist. */
int db_replay(struct db *db, int64_t match, int throw_no,
	      int (*fn)(const struct db_item *item, void *ctx), void *ctx,
	      char *err, size_t errlen);

/* Calls fn for each raw input of the match tagged with throw throw_no
 * (db_raw.throw_no), in the order stored, whether or not that throw exists
 * yet: what was noted about a throw still being decided (the daemon's held
 * ruling). Items as for db_replay(); fn's non-zero return stops and is
 * returned. Includes the open batch. */
int db_raw_tagged(struct db *db, int64_t match, int throw_no,
		  int (*fn)(const struct db_item *item, void *ctx), void *ctx,
		  char *err, size_t errlen);

/* The item as one JSON line ({"t_ns":..,"item":"raw",...}) into out.
 * 0, or -EIO when out is in error (no message: it takes no err). */
int db_item_write(const struct db_item *item, FILE *out);

/* ---- Retention -------------------------------------------------------- */

struct db_retention_report {
	int64_t bytes_before;	/* in use before (pages in use x page size) */
	int64_t bytes_after;	/* in use after */
	int64_t snapshots;	/* snapshots deleted */
	int64_t raw;		/* raw inputs deleted */
};

/* Bytes the database uses (pages in use, freelist excluded). */
int64_t db_bytes_used(struct db *db);

/* Call it now and then (the daemon: when a match ends and at start-up).
 * When the database uses more than budget bytes (<= 0: DB_BUDGET_DEFAULT),
 * deletes the snapshots, then the raw inputs, of finished matches, oldest
 * first, until it fits or nothing prunable is left, and returns the freed
 * pages to the file system. Throws, rulings, corrections, observations and
 * everything of unfinished matches are never pruned. rep may be NULL. */
int db_retention_run(struct db *db, int64_t budget, struct db_retention_report *rep,
		     char *err, size_t errlen);

/* ---- The MQTT outbox (db/outbox.c) ------------------------------------ */

/* A ruling as a message: every ruling row is one (a throw's, each one a
 * correction or an undo recomputed), numbered by its row id, which runs
 * 1, 2, ... without a gap as rulings are never deleted. */
struct db_outbox_msg {
	int64_t seq;		/* the ruling row's id */
	int64_t match;		/* its match */
	int throw_no;		/* its slot (a Beer Die throw's number) */
	int revision;		/* 1 for the slot's first ruling, 2 for the next, ... */
	char kind[16];		/* "ruling" (a throw or turn), "correction" or "undo" */
	char table_id[33];	/* its match's table id (the header's), "" none */
	char *line;		/* owned: the ruling line as stored */
};

/* The first ruling after sequence number after into *m (free its line with
 * db_outbox_msg_free); -ENOENT when there is none yet. */
int db_outbox_next(struct db *db, int64_t after, struct db_outbox_msg *m, char *err, size_t errlen);
void db_outbox_msg_free(struct db_outbox_msg *m);
/* The newest ruling's sequence number (0 none), at once at any size. */
int db_outbox_last(struct db *db, int64_t *seq, char *err, size_t errlen);
/* The last sequence number the broker acknowledged (0 none yet). */
int db_mqtt_acked_get(struct db *db, int64_t *seq, char *err, size_t errlen);
/* Keeps seq as acknowledged, unless a later one already is; committed at
 * once, with the open batch of raw inputs so far when there is one. */
int db_mqtt_acked_set(struct db *db, int64_t seq, char *err, size_t errlen);

/* ---- Match logs through the codec (core/ mlog_) ------------------------ */

#include "core/core.h"

/* Stores a whole match log (any game mlog_judge() judges) as a new, ended
 * match: its lines as given (blank lines dropped), each throw with the
 * ruling it had when it was logged, each correction with the rulings it
 * recomputed, and the final line. One transaction: a bad log stores
 * nothing (-EINVAL, "NAME:LINE: ..." in err). *match gets the new id.
 * A log whose lines (blank ones dropped, line ends as export writes
 * them) are those of a match already stored is not stored again:
 * -EEXIST, "NAME: already stored as match N", *match N. */
int db_import(struct db *db, const char *name, const char *buf, size_t len,
	      int64_t t_ns, int64_t *match, char *err, size_t errlen);

/* The same as the log is read, line by line (`dyeref import` of a log of
 * any length): a Beer Die log is checked, judged and stored a line at a
 * time inside one transaction, committed by db_import_end() only once the
 * whole log was good and is not stored yet; memory is bounded by the
 * match (its state, the latest correction of each corrected throw), not
 * by the log. A correction refolds the match from the lines stored so
 * far (its time grows with the match). Other games' logs are held whole,
 * at most MLOG_MAX_INPUT bytes (a dice game is short), and stored at the
 * end. While an import is under way the database's write lock is its. */
struct db_import;

/* An import into db (borrowed) of the log named name (copied) for
 * messages, its match started at t_ns. NULL with errno ENOMEM. */
struct db_import *db_import_new(struct db *db, const char *name, int64_t t_ns);

/* The next line, line[0..len) without its '\n' (a '\r' before it is
 * fine), blank lines included so that numbers match. 0, or db_import()'s
 * errors ("NAME:LINE: why"); -EFBIG past MLOG_MAX_INPUT (other games).
 * After an error the import is done with: free it (nothing is stored). */
int db_import_line(struct db_import *im, const char *line, size_t len,
		   char *err, size_t errlen);

/* The end of the log: stores the final line and commits (*match the new
 * id), or -EEXIST as db_import() (nothing stored), or its errors. */
int db_import_end(struct db_import *im, int64_t *match, char *err, size_t errlen);

/* Rolls back whatever db_import_end() did not commit. NULL is fine. */
void db_import_free(struct db_import *im);

/* Starts a Beer Die match: the header (and roll-off line, when log has
 * one) in canonical form from log's cfg and rolloff; its entries are
 * ignored. */
int db_bd_start(struct db *db, const struct mlog_bd *log, int64_t t_ns,
		int64_t *match, char *err, size_t errlen);

/* Stores throw t with the ruling r that bd_judge() gave for it (the next
 * throw of the match), and the throw's events as observations, committed
 * before returning: call it before showing r. t_start_ns: the throw's
 * first raw input (0 unknown); t_ns: now. */
int db_bd_throw(struct db *db, int64_t match, const struct bd_match_cfg *cfg,
		const struct bd_throw *t, const struct bd_ruling *r,
		int64_t t_start_ns, int64_t t_ns, char *err, size_t errlen);

/* Corrects throw throw_no (an official's decision): stores the correct
 * line and every ruling it changes (throw_no onwards, recomputed by
 * replaying the stored log), in one transaction. state (may be NULL) gets
 * the match state after it. -EINVAL when the correction leaves a later
 * throw unjudgeable (the game would have ended before it). */
int db_bd_correct(struct db *db, int64_t match, int throw_no, const struct bd_throw *t,
		  int64_t t_ns, struct bd_state *state, char *err, size_t errlen);
/* The same with the correct line's "undo" mark and audit (NULL: none). */
int db_bd_correct_audited(struct db *db, int64_t match, int throw_no, const struct bd_throw *t,
			  bool undo, const struct mlog_audit *audit, int64_t t_ns,
			  struct bd_state *state, char *err, size_t errlen);

/* An official confirmed throw throw_no's ruling: appends the confirm line
 * ({"type":"confirm","throw":N,"audit":{..}}, no ruling: judging skips it),
 * committed before returning. -EINVAL no such throw. */
int db_bd_confirm(struct db *db, int64_t match, int throw_no, const struct mlog_audit *audit,
		  int64_t t_ns, char *err, size_t errlen);

/* An official marked duty (its id) done or not: appends the duty line
 * ({"type":"duty","duty":ID,"done":B,"audit":{..}}, no ruling: judging
 * skips it), committed before returning. -EINVAL a bad id. */
int db_bd_duty(struct db *db, int64_t match, const char *duty, bool done,
	       const struct mlog_audit *audit, int64_t t_ns, char *err, size_t errlen);

/* Loads a Beer Die match and refolds it through core/: *log (free with
 * mlog_bd_free()) is the parsed stored log, res (contents freed with
 * mlog_bd_result_free()) every current ruling and the current state.
 * -EINVAL, not a fault (db_fault), when the stored lines do not parse or
 * judge: err then names the match and the line ("match N:LINE: why"),
 * never the file. */
int db_bd_load(struct db *db, int64_t match, struct mlog_bd **log,
	       struct mlog_bd_result *res, char *err, size_t errlen);

/* Ends a Beer Die match with its final line computed from the refold. */
int db_bd_end(struct db *db, int64_t match, int64_t t_ns, char *err, size_t errlen);

#endif /* DYEREF_DB_H */
