/*
 * db/ private: what the files of db/ share. Not a public header; tests
 * include it only to reach the SQLite handle (page limits, raw checks).
 */
#ifndef DYEREF_DB_INTERNAL_H
#define DYEREF_DB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "db/db.h"

struct db {
	sqlite3 *h;		/* the connection */
	char *path;		/* owned copy of the path opened */
	bool readonly;		/* opened with DB_OPEN_READONLY */
	bool opening;		/* inside db_open: a missing file is the caller's path */
	bool left_open;		/* a writer left the file without closing it (db_left_open) */
	bool in_batch;		/* a raw-input transaction is open (db_raw_flush ends it) */
	bool hold;		/* a multi-step write (import, correction) owns the transaction: no commits */
	sqlite3_stmt *raw_ins;	/* cached INSERT INTO raw_inputs */
	sqlite3_stmt *snap_ins;	/* cached INSERT INTO snapshots */
	sqlite3_stmt *raw_begin;	/* cached SAVEPOINT raw: one db_raw_append call */
	sqlite3_stmt *raw_release;	/* cached RELEASE raw */
	unsigned long faults;	/* the database's own failures since db_open (db_fault) */
	unsigned long commits;	/* write transactions committed since db_open returned (db_commits) */
	char fault[96];		/* the last one's words, without path or statement */
};

/* The schema as created from nothing at a given version (1..DB_SCHEMA_VERSION):
 * the migrations 1..version run in order on an empty database. */
int db_schema_create(sqlite3 *h, int version, char *err, size_t errlen);
/* Runs migrations from+1..to inside the caller's transaction. */
int db_schema_migrate(sqlite3 *h, int from, int to, char *err, size_t errlen);

/* The negative errno for an SQLite result code (SQLITE_FULL -> -ENOSPC, ...),
 * writing "PATH: what: sqlite's message" into err; counted as a fault
 * (db_fault). */
int db_fail(struct db *db, int rc, const char *what, char *err, size_t errlen);

/* "PATH: out of memory" into err, counted as a fault (db_fault); -ENOMEM. */
int db_nomem(struct db *db, char *err, size_t errlen);

/* Runs SQL without results; on failure as db_fail. */
int db_exec(struct db *db, const char *sql, char *err, size_t errlen);

/* Opens the batch transaction when none is open. */
int db_batch_begin(struct db *db, char *err, size_t errlen);

/* Commits the write transaction (with the batch), unless db->hold, and
 * counts it (db_commits); rolls back on failure. */
int db_commit(struct db *db, const char *what, char *err, size_t errlen);

/* After a statement that wrote: commits it with the open batch
 * (db_commit), or outside one counts the commit SQLite made of it alone. */
int db_wrote(struct db *db, const char *what, char *err, size_t errlen);

/* The wall clock in ms since 1970 (display only). */
int64_t db_wall_ms(void);

/* For tests: the SQLite connection behind db. */
sqlite3 *db_handle(struct db *db);

/* Writes "fmt..." into err (when err is not NULL), always NUL-terminated. */
void db_msg(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* SHA-256 of a match log, line by line (digest.c): its identity. */
#define DB_DIGEST_HEX 65	/* hex digits and the NUL */
struct db_digest {
	struct core_sha256 sha;
};
void db_digest_init(struct db_digest *d);
void db_digest_add(struct db_digest *d, const void *data, size_t len);
/* line[0..len) and its "\n", as export writes it. */
void db_digest_line(struct db_digest *d, const char *line, size_t len);
/* Ends it: 64 hex digits and a NUL into hex. */
void db_digest_hex(struct db_digest *d, char hex[DB_DIGEST_HEX]);

/* The match already stored under digest (lowest id), 0 when none, or a
 * negative errno as db_fail. */
int64_t db_match_by_digest(struct db *db, const char *digest, char *err, size_t errlen);

#endif /* DYEREF_DB_INTERNAL_H */
