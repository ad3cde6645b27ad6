/*
 * Raw inputs and snapshots: many small rows a second, so they go into one
 * open transaction (the batch) that the caller commits at most every
 * 100 ms with db_raw_flush(); db_append() commits it with the next ruling.
 * The calibration is rare and committed at once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/internal.h"

int db_batch_begin(struct db *db, char *err, size_t errlen)
{
	int ret;

	if (db->in_batch)
		return 0;
	ret = db_exec(db, "BEGIN IMMEDIATE", err, errlen);
	if (!ret)
		db->in_batch = true;
	return ret;
}

/* After a failed insert in the batch: SQLite may have rolled the whole
 * transaction back (SQLITE_FULL can); keep in_batch true to the truth. */
static void batch_after_failure(struct db *db)
{
	if (sqlite3_get_autocommit(db->h))
		db->in_batch = false;
}

/* Runs a cached statement that returns no rows, ready for the next time:
 * SQLITE_OK or the failure. */
static int run(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int db_raw_append(struct db *db, int64_t match, const struct db_raw *raw,
		  size_t n, char *err, size_t errlen)
{
	sqlite3_stmt *st = db->raw_ins;
	int rc, ret;

	/* Refused before anything is written: a call is all or nothing. */
	for (size_t i = 0; i < n; i++) {
		const struct db_raw *r = &raw[i];

		if (!r->source || !r->kind) {
			db_msg(err, errlen, "raw input %zu: needs a source and a kind", i + 1);
			return -EINVAL;
		}
		if (r->len > DB_BLOB_MAX) {
			db_msg(err, errlen, "raw input %zu: payload of %zu bytes (at most %d)", i + 1,
			       r->len, DB_BLOB_MAX);
			return -EINVAL;
		}
	}
	ret = db_batch_begin(db, err, errlen);
	if (ret)
		return ret;
	/* The caller keeps a failed call's rows and offers them again: rows
	 * of it left in the batch would be committed twice. */
	rc = run(db->raw_begin);
	if (rc != SQLITE_OK) {
		ret = db_fail(db, rc, "storing raw inputs", err, errlen);
		batch_after_failure(db);
		return ret;
	}
	for (size_t i = 0; i < n && rc == SQLITE_OK; i++) {
		const struct db_raw *r = &raw[i];

		sqlite3_bind_int64(st, 1, match);
		if (r->throw_no > 0)
			sqlite3_bind_int(st, 2, r->throw_no);
		else
			sqlite3_bind_null(st, 2);
		sqlite3_bind_int64(st, 3, r->t_ns);
		sqlite3_bind_text(st, 4, r->source, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, r->kind, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 6, r->channel);
		if (r->payload)
			sqlite3_bind_blob(st, 7, r->payload, (int)r->len, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 7);
		rc = run(st);
	}
	if (rc == SQLITE_OK) {
		run(db->raw_release);	/* a savepoint's release inside the batch commits nothing */
		return 0;
	}
	ret = db_fail(db, rc, "storing raw inputs", err, errlen);
	/* Unless SQLite rolled the whole batch back (batch_after_failure). */
	if (!sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "ROLLBACK TO raw; RELEASE raw", NULL, NULL, NULL);
	batch_after_failure(db);
	return ret;
}

int db_raw_flush(struct db *db, char *err, size_t errlen)
{
	return db->in_batch ? db_commit(db, "committing raw inputs", err, errlen) : 0;
}

int db_snapshot_add(struct db *db, int64_t match, int throw_no, int64_t t_ns,
		    const void *jpeg, size_t len, char *err, size_t errlen)
{
	sqlite3_stmt *st = db->snap_ins;
	int rc, ret;

	if (!jpeg || len < 4 || ((const unsigned char *)jpeg)[0] != 0xff ||
	    ((const unsigned char *)jpeg)[1] != 0xd8) {
		db_msg(err, errlen, "snapshot: not a JPEG (no SOI marker)");
		return -EINVAL;
	}
	if (len > DB_BLOB_MAX) {
		db_msg(err, errlen, "snapshot: %zu bytes (at most %d)", len, DB_BLOB_MAX);
		return -EINVAL;
	}
	ret = db_batch_begin(db, err, errlen);
	if (ret)
		return ret;
	sqlite3_bind_int64(st, 1, match);
	if (throw_no > 0)
		sqlite3_bind_int(st, 2, throw_no);
	else
		sqlite3_bind_null(st, 2);
	sqlite3_bind_int64(st, 3, t_ns);
	sqlite3_bind_blob(st, 4, jpeg, (int)len, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		ret = db_fail(db, rc, "storing a snapshot", err, errlen);
		batch_after_failure(db);
	}
	return ret;
}

int db_calibration_add(struct db *db, const char *kind, const char *json,
		       int64_t t_ns, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (!kind || !*kind || !json || !*json) {
		db_msg(err, errlen, "calibration: needs a kind and JSON text");
		return -EINVAL;
	}
	rc = sqlite3_prepare_v2(db->h,
		"INSERT INTO calibrations (kind, t_ns, wall_ms, json) VALUES (?, ?, ?, ?)",
		-1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, t_ns);
		sqlite3_bind_int64(st, 3, db_wall_ms());
		sqlite3_bind_text(st, 4, json, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		ret = db_fail(db, rc, "storing a calibration", err, errlen);
		batch_after_failure(db);
		return ret;
	}
	/* Committed at once: a calibration is rare and must not be lost. */
	return db_wrote(db, "storing a calibration", err, errlen);
}

int db_calibration_get(struct db *db, const char *kind, int64_t at_wall_ms,
		       char **json, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	rc = sqlite3_prepare_v2(db->h,
		"SELECT json FROM calibrations WHERE kind = ? AND wall_ms <= ?"
		" ORDER BY wall_ms DESC, id DESC LIMIT 1", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "reading the calibration", err, errlen);
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, at_wall_ms > 0 ? at_wall_ms : INT64_MAX);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*json = strdup((const char *)sqlite3_column_text(st, 0));
		if (!*json)
			ret = db_nomem(db, err, errlen);
	} else if (rc == SQLITE_DONE) {
		db_msg(err, errlen, "%s: no %s calibration in force", db->path, kind);
		ret = -ENOENT;
	} else {
		ret = db_fail(db, rc, "reading the calibration", err, errlen);
	}
	sqlite3_finalize(st);
	return ret;
}
