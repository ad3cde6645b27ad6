/*
 * Retention: keep the file under a byte budget. What goes, in order: the
 * snapshots of finished matches, then their raw inputs, oldest match first,
 * in small chunks so that no more is deleted than needed. The log itself
 * (throws, rulings, corrections, observations) and everything of a match
 * still being played stays. Freed pages go back to the file system with
 * PRAGMA incremental_vacuum (the schema is created with auto_vacuum =
 * INCREMENTAL).
 */
#include <errno.h>
#include <stdlib.h>

#include "db/internal.h"

#define SNAPSHOT_CHUNK 16	/* snapshots per delete: ~50-200 KiB each */
#define RAW_CHUNK 2048		/* raw inputs per delete: ~60 bytes each */

static int64_t pragma_int(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int64_t db_bytes_used(struct db *db)
{
	int64_t pages = pragma_int(db->h, "PRAGMA page_count");
	int64_t free_pages = pragma_int(db->h, "PRAGMA freelist_count");
	int64_t size = pragma_int(db->h, "PRAGMA page_size");

	if (pages < 0 || free_pages < 0 || size < 0)
		return -1;
	return (pages - free_pages) * size;
}

/* Deletes up to limit rows of table (raw_inputs or snapshots) of one match,
 * oldest first; *deleted gets how many. */
static int prune(struct db *db, const char *sql, int64_t match, int limit,
		 int64_t *deleted, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_fail(db, rc, "retention", err, errlen);
	sqlite3_bind_int64(st, 1, match);
	sqlite3_bind_int(st, 2, limit);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, rc, "retention", err, errlen);
	*deleted = sqlite3_changes(db->h);
	return 0;
}

static int finished_matches(struct db *db, int64_t **ids, size_t *n, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int64_t *v = NULL, *nv;
	size_t cap = 0, len = 0;
	int rc = sqlite3_prepare_v2(db->h,
		"SELECT match_id FROM match_ends ORDER BY match_id", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_fail(db, rc, "retention", err, errlen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (len == cap) {
			cap = cap ? 2 * cap : 32;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				sqlite3_finalize(st);
				free(v);
				return db_nomem(db, err, errlen);
			}
			v = nv;
		}
		v[len++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(v);
		return db_fail(db, rc, "retention", err, errlen);
	}
	*ids = v;
	*n = len;
	return 0;
}

int db_retention_run(struct db *db, int64_t budget, struct db_retention_report *rep,
		     char *err, size_t errlen)
{
	static const char *const sql[2] = {
		"DELETE FROM snapshots WHERE id IN"
		" (SELECT id FROM snapshots WHERE match_id = ? ORDER BY t_ns, id LIMIT ?)",
		"DELETE FROM raw_inputs WHERE id IN"
		" (SELECT id FROM raw_inputs WHERE match_id = ? ORDER BY t_ns, id LIMIT ?)",
	};
	static const int chunk[2] = { SNAPSHOT_CHUNK, RAW_CHUNK };
	struct db_retention_report r = { 0 };
	int64_t *ids = NULL, used, deleted = 0;
	size_t n = 0;
	int ret;

	if (budget <= 0)
		budget = DB_BUDGET_DEFAULT;
	ret = db_raw_flush(db, err, errlen);
	if (ret)
		return ret;
	used = r.bytes_before = db_bytes_used(db);
	if (used > budget)
		ret = finished_matches(db, &ids, &n, err, errlen);
	/* Snapshots of all finished matches go before any raw input: they are
	 * the bulk, and raw inputs are what a replay needs most. */
	for (int pass = 0; pass < 2 && !ret && used > budget; pass++) {
		for (size_t i = 0; i < n && !ret && used > budget; i++) {
			do {
				ret = db_exec(db, "BEGIN IMMEDIATE", err, errlen);
				if (ret)
					break;
				ret = prune(db, sql[pass], ids[i], chunk[pass], &deleted, err, errlen);
				if (!ret)
					ret = db_commit(db, "pruning", err, errlen);
				if (ret) {
					sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
					break;
				}
				*(pass ? &r.raw : &r.snapshots) += deleted;
				used = db_bytes_used(db);
			} while (deleted > 0 && used > budget);
		}
	}
	free(ids);
	if (!ret && (r.snapshots || r.raw))
		ret = db_exec(db, "PRAGMA incremental_vacuum", err, errlen);
	r.bytes_after = db_bytes_used(db);
	if (rep)
		*rep = r;
	return ret;
}
