/*
 * The schema and its forward-only migrations. migrations[v] turns a
 * version v-1 database into version v; a new version is a new entry at the
 * end, never an edit of an old one (fixtures of every earlier version live
 * in tests/data/db/ and the tests migrate them).
 */
#include <errno.h>
#include <stdio.h>

#include "db/internal.h"

static const char *const migrations[DB_SCHEMA_VERSION + 1] = {
	[1] =
	/* A match: its log header line as written, and when it started. */
	"CREATE TABLE matches ("
	" id INTEGER PRIMARY KEY,"
	" game TEXT NOT NULL,"
	" header TEXT NOT NULL,"		/* the "type":"match" line */
	" start_ns INTEGER NOT NULL,"		/* CLOCK_MONOTONIC */
	" start_wall_ms INTEGER NOT NULL);"	/* display only */
	/* Ending is a row of its own: nothing is updated in place. */
	"CREATE TABLE match_ends ("
	" match_id INTEGER PRIMARY KEY REFERENCES matches(id),"
	" final TEXT NOT NULL,"			/* the "type":"final" line */
	" t_ns INTEGER NOT NULL,"
	" wall_ms INTEGER NOT NULL);"
	/* Every log line after the header, in order: throw, turn, correct,
	 * rolloff. Export concatenates header and these. */
	"CREATE TABLE entries ("
	" id INTEGER PRIMARY KEY,"
	" match_id INTEGER NOT NULL REFERENCES matches(id),"
	" seq INTEGER NOT NULL,"		/* 1.. after the header */
	" type TEXT NOT NULL,"
	" throw_no INTEGER,"			/* throw/turn: its number; correct: the one corrected */
	" t_start_ns INTEGER NOT NULL,"		/* first raw input of a throw, 0 unknown */
	" t_ns INTEGER NOT NULL,"		/* when it was decided */
	" line TEXT NOT NULL,"
	" UNIQUE (match_id, seq));"
	"CREATE INDEX entries_throw ON entries(match_id, throw_no);"
	/* Rulings as shown; a correction adds the recomputed ones. */
	"CREATE TABLE rulings ("
	" id INTEGER PRIMARY KEY,"
	" entry_id INTEGER NOT NULL REFERENCES entries(id),"
	" match_id INTEGER NOT NULL,"
	" throw_no INTEGER NOT NULL,"
	" review INTEGER NOT NULL,"
	" score TEXT NOT NULL,"			/* JSON text of "score", or "" */
	" line TEXT NOT NULL);"
	"CREATE INDEX rulings_throw ON rulings(match_id, throw_no);"
	"CREATE TABLE observations ("
	" id INTEGER PRIMARY KEY,"
	" entry_id INTEGER NOT NULL REFERENCES entries(id),"
	" t_ns INTEGER NOT NULL,"
	" kind TEXT NOT NULL,"
	" source TEXT NOT NULL,"
	" confidence REAL NOT NULL,"
	" detail TEXT);"
	"CREATE INDEX observations_entry ON observations(entry_id);"
	"CREATE TABLE raw_inputs ("
	" id INTEGER PRIMARY KEY,"
	" match_id INTEGER NOT NULL,"
	" throw_no INTEGER,"			/* NULL: belongs to the throw whose span holds t_ns */
	" t_ns INTEGER NOT NULL,"
	" source TEXT NOT NULL,"
	" kind TEXT NOT NULL,"
	" channel INTEGER NOT NULL,"
	" payload BLOB);"
	"CREATE INDEX raw_inputs_time ON raw_inputs(match_id, t_ns);"
	/* Append-only, enforced: only retention deletes (raw inputs, snapshots). */
	"CREATE TRIGGER matches_append_only_u BEFORE UPDATE ON matches BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER matches_append_only_d BEFORE DELETE ON matches BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER match_ends_append_only_u BEFORE UPDATE ON match_ends BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER match_ends_append_only_d BEFORE DELETE ON match_ends BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER entries_append_only_u BEFORE UPDATE ON entries BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER entries_append_only_d BEFORE DELETE ON entries BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER rulings_append_only_u BEFORE UPDATE ON rulings BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER rulings_append_only_d BEFORE DELETE ON rulings BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER observations_append_only_u BEFORE UPDATE ON observations BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER observations_append_only_d BEFORE DELETE ON observations BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER raw_inputs_append_only_u BEFORE UPDATE ON raw_inputs BEGIN SELECT RAISE(ABORT, 'append-only'); END;",

	[2] =
	/* Camera snapshots for replay, and the calibration in force. */
	"CREATE TABLE snapshots ("
	" id INTEGER PRIMARY KEY,"
	" match_id INTEGER NOT NULL REFERENCES matches(id),"
	" throw_no INTEGER,"			/* NULL: found by time like raw inputs */
	" t_ns INTEGER NOT NULL,"
	" jpeg BLOB NOT NULL);"
	"CREATE INDEX snapshots_time ON snapshots(match_id, t_ns);"
	"CREATE TABLE calibrations ("
	" id INTEGER PRIMARY KEY,"
	" kind TEXT NOT NULL,"			/* "piezo", "camera", ... */
	" t_ns INTEGER NOT NULL,"
	" wall_ms INTEGER NOT NULL,"		/* in force from then on */
	" json TEXT NOT NULL);"
	"CREATE INDEX calibrations_kind ON calibrations(kind, wall_ms);"
	"CREATE TRIGGER snapshots_append_only_u BEFORE UPDATE ON snapshots BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER calibrations_append_only_u BEFORE UPDATE ON calibrations BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER calibrations_append_only_d BEFORE DELETE ON calibrations BEGIN SELECT RAISE(ABORT, 'append-only'); END;",

	[3] =
	/* The match list counts corrections and doubtful throws by these,
	 * not by reading every stored throw (both are few). */
	"CREATE INDEX entries_correct ON entries(match_id) WHERE type = 'correct';"
	"CREATE INDEX rulings_review ON rulings(match_id, throw_no) WHERE review;",

	[4] =
	/* A match log's identity (db/digest.c: SHA-256 of the lines export
	 * writes), recorded when the match ends, so that importing a log
	 * already stored stores nothing. Matches ended before v4 have none. */
	"CREATE TABLE match_digests ("
	" match_id INTEGER PRIMARY KEY REFERENCES matches(id),"
	" digest TEXT NOT NULL);"		/* 64 hex digits */
	"CREATE INDEX match_digests_digest ON match_digests(digest);"
	"CREATE TRIGGER match_digests_append_only_u BEFORE UPDATE ON match_digests BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER match_digests_append_only_d BEFORE DELETE ON match_digests BEGIN SELECT RAISE(ABORT, 'append-only'); END;",

	[5] =
	/* The table that played a match (its header's "table"."id"), for
	 * lists that gather many tables' matches; '' before v5 or unnamed. */
	"ALTER TABLE matches ADD COLUMN table_id TEXT NOT NULL DEFAULT '';"
	/* MQTT's outbox is the rulings table itself (a ruling's id is its
	 * message's sequence number: rows are never deleted, so the numbers
	 * run on without a gap); this one row is the last number the broker
	 * acknowledged, the only state that is updated in place. */
	"CREATE TABLE mqtt_acked ("
	" id INTEGER PRIMARY KEY CHECK (id = 1),"
	" seq INTEGER NOT NULL);",

	[6] =
	/* An official's word on a die the camera read at rest (the replay
	 * page's confirm or face 1-6): a label for retraining the reader on
	 * this table. It carries its own crop, cut losslessly from the
	 * snapshot, so that retention, which prunes snapshots, never takes a
	 * labelled die; the latest row of a die is its label. */
	"CREATE TABLE face_labels ("
	" id INTEGER PRIMARY KEY,"
	" match_id INTEGER NOT NULL REFERENCES matches(id),"
	" throw_no INTEGER NOT NULL,"
	" snapshot_id INTEGER NOT NULL,"	/* snapshots.id: a pruned one's stays its own */
	" face INTEGER NOT NULL CHECK (face BETWEEN 1 AND 6),"
	" confirmed INTEGER NOT NULL,"		/* 1: the face read, confirmed; 0: set by hand */
	" read_face INTEGER NOT NULL,"		/* the camera's, 0 none */
	" read_confidence REAL NOT NULL,"	/* its confidence, -1 none */
	" crop BLOB NOT NULL,"			/* JPEG */
	" width INTEGER NOT NULL, height INTEGER NOT NULL,"	/* the crop's pixels */
	" x REAL NOT NULL, y REAL NOT NULL, w REAL NOT NULL, h REAL NOT NULL,"	/* the die's box in it */
	" official TEXT NOT NULL,"
	" reason TEXT NOT NULL,"
	" t_ns INTEGER NOT NULL,"
	" wall_ms INTEGER NOT NULL);"
	"CREATE INDEX face_labels_die ON face_labels(match_id, throw_no, snapshot_id);"
	"CREATE TRIGGER face_labels_append_only_u BEFORE UPDATE ON face_labels BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
	"CREATE TRIGGER face_labels_append_only_d BEFORE DELETE ON face_labels BEGIN SELECT RAISE(ABORT, 'append-only'); END;",
};

int db_schema_migrate(sqlite3 *h, int from, int to, char *err, size_t errlen)
{
	char *msg = NULL;
	char sql[64];

	if (from < 0 || to > DB_SCHEMA_VERSION || from > to) {
		db_msg(err, errlen, "no migration from schema v%d to v%d", from, to);
		return -EINVAL;
	}
	for (int v = from + 1; v <= to; v++) {
		if (sqlite3_exec(h, migrations[v], NULL, NULL, &msg) != SQLITE_OK) {
			db_msg(err, errlen, "migration to schema v%d: %s", v, msg ? msg : "failed");
			sqlite3_free(msg);
			return sqlite3_errcode(h) == SQLITE_FULL ? -ENOSPC : -EIO;
		}
	}
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", to);
	if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		db_msg(err, errlen, "setting the schema version: %s", msg ? msg : "failed");
		sqlite3_free(msg);
		return -EIO;
	}
	return 0;
}

int db_schema_create(sqlite3 *h, int version, char *err, size_t errlen)
{
	char *msg = NULL;
	char sql[96];
	int rc;

	/* auto_vacuum must be chosen before the first table: retention gives
	 * freed pages back with PRAGMA incremental_vacuum. */
	snprintf(sql, sizeof(sql),
		 "PRAGMA auto_vacuum = INCREMENTAL; BEGIN IMMEDIATE; PRAGMA application_id = %d;",
		 DB_APPLICATION_ID);
	if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		db_msg(err, errlen, "creating the schema: %s", msg ? msg : "failed");
		sqlite3_free(msg);
		return sqlite3_errcode(h) == SQLITE_FULL ? -ENOSPC : -EIO;
	}
	rc = db_schema_migrate(h, 0, version, err, errlen);
	if (rc == 0 && sqlite3_exec(h, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
		db_msg(err, errlen, "creating the schema: %s", msg ? msg : "commit failed");
		sqlite3_free(msg);
		rc = -EIO;
	}
	if (rc)
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}
