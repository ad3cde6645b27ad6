/* The MQTT outbox (docs/event-log.md, v5): the rulings table read in id
 * order, each ruling a message whose sequence number is its row's id, and
 * the one row that keeps the last number the broker acknowledged. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/internal.h"

/* A ruling's revision is its rank among its slot's rulings (rulings_throw
 * finds them); a correction's line says whether it was an undo. */
static const char next_sql[] =
	"SELECT r.id, r.match_id, r.throw_no, r.line,"
	" (SELECT count(*) FROM rulings r2 WHERE r2.match_id = r.match_id"
	"   AND r2.throw_no = r.throw_no AND r2.id <= r.id),"
	" CASE WHEN e.type <> 'correct' THEN 'ruling'"
	"  WHEN json_valid(e.line) AND json_extract(e.line, '$.undo') THEN 'undo'"
	"  ELSE 'correction' END,"
	" m.table_id"
	" FROM rulings r JOIN entries e ON e.id = r.entry_id JOIN matches m ON m.id = r.match_id"
	" WHERE r.id > ?1 ORDER BY r.id LIMIT 1";

int db_outbox_next(struct db *db, int64_t after, struct db_outbox_msg *m, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	const char *s;
	int rc = sqlite3_prepare_v2(db->h, next_sql, -1, &st, NULL), ret = 0;

	memset(m, 0, sizeof(*m));
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "reading the outbox", err, errlen);
	sqlite3_bind_int64(st, 1, after);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		db_msg(err, errlen, "%s: no ruling after %lld", db->path, (long long)after);
		ret = -ENOENT;
		goto finalize;
	}
	if (rc != SQLITE_ROW) {
		ret = db_fail(db, rc, "reading the outbox", err, errlen);
		goto finalize;
	}
	m->seq = sqlite3_column_int64(st, 0);
	m->match = sqlite3_column_int64(st, 1);
	m->throw_no = sqlite3_column_int(st, 2);
	s = (const char *)sqlite3_column_text(st, 3);
	m->line = strdup(s ? s : "");
	m->revision = sqlite3_column_int(st, 4);
	s = (const char *)sqlite3_column_text(st, 5);
	snprintf(m->kind, sizeof(m->kind), "%s", s ? s : "ruling");
	s = (const char *)sqlite3_column_text(st, 6);
	snprintf(m->table_id, sizeof(m->table_id), "%s", s ? s : "");
	if (!m->line)
		ret = db_nomem(db, err, errlen);
finalize:
	sqlite3_finalize(st);
	return ret;
}

void db_outbox_msg_free(struct db_outbox_msg *m)
{
	free(m->line);
	m->line = NULL;
}

int db_outbox_last(struct db *db, int64_t *seq, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h, "SELECT coalesce(max(id), 0) FROM rulings", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_fail(db, rc, "reading the outbox", err, errlen);
	rc = sqlite3_step(st);
	*seq = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(db, rc, "reading the outbox", err, errlen);
}

int db_mqtt_acked_get(struct db *db, int64_t *seq, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h, "SELECT seq FROM mqtt_acked WHERE id = 1", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_fail(db, rc, "reading the acknowledged MQTT message", err, errlen);
	rc = sqlite3_step(st);
	*seq = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(db, rc, "reading the acknowledged MQTT message", err, errlen);
	return 0;
}

int db_mqtt_acked_set(struct db *db, int64_t seq, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	if (db->readonly) {
		db_msg(err, errlen, "%s: opened read-only", db->path);
		return -EROFS;
	}
	/* Never backwards: an acknowledgement that arrives late changes nothing. */
	rc = sqlite3_prepare_v2(db->h,
		"INSERT INTO mqtt_acked (id, seq) VALUES (1, ?1)"
		" ON CONFLICT (id) DO UPDATE SET seq = excluded.seq WHERE excluded.seq > seq",
		-1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "keeping the acknowledged MQTT message", err, errlen);
	sqlite3_bind_int64(st, 1, seq);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, rc, "keeping the acknowledged MQTT message", err, errlen);
	return db_wrote(db, "keeping the acknowledged MQTT message", err, errlen);
}
