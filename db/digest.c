/*
 * A match log's identity: SHA-256 (FIPS 180-4) of its lines as stored,
 * the header first, each with a "\n" — the text `dyeref export` writes.
 * Import looks it up so that the same log is never stored twice.
 */
#include <stdio.h>
#include <string.h>

#include "db/internal.h"

void db_digest_init(struct db_digest *d)
{
	core_sha256_init(&d->sha);
}

void db_digest_add(struct db_digest *d, const void *data, size_t len)
{
	core_sha256_add(&d->sha, data, len);
}

void db_digest_line(struct db_digest *d, const char *line, size_t len)
{
	db_digest_add(d, line, len);
	db_digest_add(d, "\n", 1);
}

void db_digest_hex(struct db_digest *d, char hex[DB_DIGEST_HEX])
{
	unsigned char sum[CORE_SHA256_LEN];

	core_sha256_end(&d->sha, sum);
	for (int i = 0; i < CORE_SHA256_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", sum[i]);
}

int64_t db_match_by_digest(struct db *db, const char *digest, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int64_t id = 0;
	int rc = sqlite3_prepare_v2(db->h,
		"SELECT min(match_id) FROM match_digests WHERE digest = ?", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_fail(db, rc, "looking the log up", err, errlen);
	sqlite3_bind_text(st, 1, digest, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, rc, "looking the log up", err, errlen);
	return id;
}
