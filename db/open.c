/*
 * Opening a database: check before touching. Everything that could refuse
 * the file (not SQLite, not ours, newer, corrupt) is decided with reads
 * only, so a refused file is left byte for byte as it was; only then is WAL
 * turned on and an older schema migrated.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db/internal.h"

void db_msg(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int64_t db_wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* SQLITE_CANTOPEN says only "unable to open database file": the OS's
 * errno says why. A permission problem is -EACCES (a system fault: exit 1,
 * HTTP 500), never -ENOENT, which callers read as "no such match" (404). A
 * file missing while opening is the caller's bad path (-ENOENT); missing
 * later (the WAL, the directory) the store failed (-EIO). */
static int cantopen_errno(struct db *db)
{
	switch (sqlite3_system_errno(db->h)) {
	case EACCES: case EPERM: return -EACCES;
	case EROFS: return -EROFS;
	case ENOENT: return db->opening ? -ENOENT : -EIO;
	default: return -EIO;
	}
}

/* A full disk often comes back as "disk I/O error" (SQLITE_IOERR: the
 * -shm or -wal could not grow), and only the OS's errno says why. */
static bool full_disk(struct db *db)
{
	return sqlite3_system_errno(db->h) == ENOSPC;
}

static int errno_of(struct db *db, int rc)
{
	switch (rc & 0xff) {
	case SQLITE_FULL: return -ENOSPC;
	case SQLITE_CORRUPT: return -EILSEQ;
	case SQLITE_NOTADB: return -ENOTSUP;
	case SQLITE_CONSTRAINT: return -EINVAL;
	case SQLITE_BUSY: case SQLITE_LOCKED: return -EBUSY;
	case SQLITE_READONLY: return -EROFS;
	case SQLITE_NOMEM: return -ENOMEM;
	case SQLITE_CANTOPEN: return cantopen_errno(db);
	default: return full_disk(db) ? -ENOSPC : -EIO;
	}
}

int db_fail(struct db *db, int rc, const char *what, char *err, size_t errlen)
{
	int sys = sqlite3_system_errno(db->h);

	db->faults++;
	if ((rc & 0xff) == SQLITE_IOERR && full_disk(db))
		rc = SQLITE_FULL;
	if ((rc & 0xff) == SQLITE_CANTOPEN && sys)
		snprintf(db->fault, sizeof(db->fault), "cannot open the file: %s", strerror(sys));
	else	/* SQLite's words for the code: sqlite3_errmsg may say more */
		snprintf(db->fault, sizeof(db->fault), "%s", sqlite3_errstr(rc));
	if ((rc & 0xff) == SQLITE_FULL)
		db_msg(err, errlen, "%s: %s: database or disk is full (earlier data is kept)",
		       db->path, what);
	else if ((rc & 0xff) == SQLITE_CANTOPEN && sys)
		db_msg(err, errlen, "%s: %s: cannot open %s: %s", db->path, what,
		       sys == ENOENT ? "the file or its directory" : "the file (or its -wal, -shm)",
		       strerror(sys));
	else
		db_msg(err, errlen, "%s: %s: %s", db->path, what, sqlite3_errmsg(db->h));
	return errno_of(db, rc);
}

int db_nomem(struct db *db, char *err, size_t errlen)
{
	db->faults++;
	snprintf(db->fault, sizeof(db->fault), "out of memory");
	db_msg(err, errlen, "%s: out of memory", db->path);
	return -ENOMEM;
}

const char *db_fault(const struct db *db, unsigned long *count)
{
	if (count)
		*count = db->faults;
	return db->fault;
}

unsigned long db_commits(const struct db *db)
{
	return db->commits;
}

int db_exec(struct db *db, const char *sql, char *err, size_t errlen)
{
	int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : db_fail(db, rc, sql, err, errlen);
}

sqlite3 *db_handle(struct db *db)
{
	return db->h;
}

const char *db_path(const struct db *db)
{
	return db->path;
}

/* One integer from a single-row query; SQLite's code on failure. */
static int query_int(sqlite3 *h, const char *sql, int64_t *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* quick_check's complaint on one line: SQLite puts "*** in database main
 * ***" and a newline before the first, and newlines between several. */
static void one_line(char *out, size_t outlen, const char *r)
{
	static const char head[] = "*** in database main ***";
	size_t n = 0;

	if (!strncmp(r, head, sizeof(head) - 1))
		r += sizeof(head) - 1;
	r += strspn(r, " \r\n");
	for (; *r && n + 1 < outlen; r++)
		out[n++] = *r == '\n' || *r == '\r' ? ' ' : *r;
	out[n] = 0;
}

int db_check(struct db *db, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h, "PRAGMA quick_check(1)", -1, &st, NULL);
	char why[200];
	int ret = 0;

	if (rc != SQLITE_OK) {
		ret = db_fail(db, rc, "quick_check", err, errlen);
		return ret == -EIO ? -EILSEQ : ret;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *r = (const char *)sqlite3_column_text(st, 0);
		if (!r || strcmp(r, "ok")) {
			one_line(why, sizeof(why), r ? r : "no answer");
			db_msg(err, errlen, "%s: corrupt database (quick_check: %s)", db->path, why);
			ret = -EILSEQ;
		}
	} else if ((rc & 0xff) == SQLITE_INTERRUPT) {
		db_msg(err, errlen, "%s: quick_check: interrupted", db->path);
		ret = -EINTR;
	} else {
		one_line(why, sizeof(why), sqlite3_errmsg(db->h));
		db_msg(err, errlen, "%s: corrupt database (quick_check: %s)", db->path, why);
		ret = -EILSEQ;
	}
	sqlite3_finalize(st);
	return ret;
}

void db_interrupt(struct db *db)
{
	sqlite3_interrupt(db->h);
}

bool db_left_open(const struct db *db)
{
	return db->left_open;
}

/* Whether a writer left path without closing it: SQLite deletes the -wal
 * when the last connection closes, so one with content at open was left
 * by a crash or a power cut, or belongs to a program that has the file
 * open now (then the check is only slower than it needs to be). */
static bool wal_left(const char *path)
{
	size_t n = strlen(path) + sizeof("-wal");
	char *wal = malloc(n);
	struct stat sb;
	bool left;

	if (!wal)
		return true;	/* cannot tell: check */
	snprintf(wal, n, "%s-wal", path);
	left = stat(wal, &sb) == 0 && sb.st_size > 0;
	free(wal);
	return left;
}

/* Reads what decides whether the file is ours, writing nothing. *fresh:
 * an empty database to create the schema in. */
static int inspect(struct db *db, bool *fresh, int *version, char *err, size_t errlen)
{
	int64_t appid = 0, uv = 0, objects = 0;
	int rc;

	*fresh = false;
	rc = query_int(db->h, "PRAGMA application_id", &appid);
	if (rc == SQLITE_OK)
		rc = query_int(db->h, "PRAGMA user_version", &uv);
	if (rc == SQLITE_OK)
		rc = query_int(db->h, "SELECT count(*) FROM sqlite_master", &objects);
	if ((rc & 0xff) == SQLITE_NOTADB) {
		db_msg(err, errlen, "%s: not a dyeref database (not an SQLite file)", db->path);
		return -ENOTSUP;
	}
	if ((rc & 0xff) == SQLITE_CORRUPT) {
		db_msg(err, errlen, "%s: corrupt database (%s)", db->path, sqlite3_errmsg(db->h));
		return -EILSEQ;
	}
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "reading the header", err, errlen);
	if (appid == 0 && uv == 0 && objects == 0) {
		*fresh = true;
		return 0;
	}
	if (appid != DB_APPLICATION_ID) {
		db_msg(err, errlen, "%s: not a dyeref database (application_id 0x%08llx)",
		       db->path, (unsigned long long)(uint32_t)appid);
		return -ENOTSUP;
	}
	if (uv > DB_SCHEMA_VERSION) {
		db_msg(err, errlen, "%s: schema v%lld is newer than this dyeref (v%d): upgrade dyeref",
		       db->path, (long long)uv, DB_SCHEMA_VERSION);
		return -EPROTO;
	}
	if (uv < 1) {
		db_msg(err, errlen, "%s: corrupt database (dyeref id without a schema version)",
		       db->path);
		return -EILSEQ;
	}
	*version = (int)uv;
	return 0;
}

static int prepare_cached(struct db *db, char *err, size_t errlen)
{
	int rc = sqlite3_prepare_v3(db->h,
		"INSERT INTO raw_inputs (match_id, throw_no, t_ns, source, kind, channel, payload)"
		" VALUES (?, ?, ?, ?, ?, ?, ?)", -1, SQLITE_PREPARE_PERSISTENT, &db->raw_ins, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v3(db->h,
			"INSERT INTO snapshots (match_id, throw_no, t_ns, jpeg) VALUES (?, ?, ?, ?)",
			-1, SQLITE_PREPARE_PERSISTENT, &db->snap_ins, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v3(db->h, "SAVEPOINT raw", -1, SQLITE_PREPARE_PERSISTENT,
					&db->raw_begin, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v3(db->h, "RELEASE raw", -1, SQLITE_PREPARE_PERSISTENT,
					&db->raw_release, NULL);
	return rc == SQLITE_OK ? 0 : db_fail(db, rc, "preparing statements", err, errlen);
}

/* Migrates the schema from version to DB_SCHEMA_VERSION in one
 * transaction: all of it or, on failure, none (why gets the reason). */
static int migrate(struct db *db, int version, char *why, size_t whylen)
{
	int ret = db_exec(db, "BEGIN IMMEDIATE", why, whylen);

	if (!ret)
		ret = db_schema_migrate(db->h, version, DB_SCHEMA_VERSION, why, whylen);
	if (!ret)
		ret = db_exec(db, "COMMIT", why, whylen);
	if (ret)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

/* The files an open may create: the database itself and those SQLite
 * keeps beside it. */
static const char *const side_files[] = { "", "-wal", "-shm", "-journal" };
#define N_SIDE_FILES (sizeof(side_files) / sizeof(side_files[0]))

/* Which of them exist (bit i: side_files[i]); all when it cannot tell. */
static unsigned files_present(const char *path)
{
	size_t n = strlen(path) + sizeof("-journal");
	char *name = malloc(n);
	unsigned have = 0;
	struct stat sb;

	if (!name)
		return ~0u;
	for (size_t i = 0; i < N_SIDE_FILES; i++) {
		snprintf(name, n, "%s%s", path, side_files[i]);
		if (lstat(name, &sb) == 0)
			have |= 1u << i;
	}
	free(name);
	return have;
}

/* Removes what a failed open created (those not in before): a new
 * database with its side files, or beside an old one an empty -wal and
 * its -shm, so that a refusal or a full disk leaves nothing behind. A
 * -wal with frames in it is kept with its -shm: a checkpoint may have
 * begun copying them into the file, which is whole only with them. Only
 * this open could have made them: another program opening the same file
 * in that instant is not provided for. */
static void remove_created(const char *path, unsigned before)
{
	unsigned now = files_present(path), gone;
	size_t n = strlen(path) + sizeof("-journal");
	struct stat sb;
	char *name;

	if (now == ~0u || !(now & ~before) || !(name = malloc(n)))
		return;
	gone = now & ~before;
	snprintf(name, n, "%s-wal", path);
	if ((before & 1) && stat(name, &sb) == 0 && sb.st_size > 0)
		gone &= ~(2u | 4u);
	for (size_t i = 0; i < N_SIDE_FILES; i++)
		if (gone & (1u << i)) {
			snprintf(name, n, "%s%s", path, side_files[i]);
			unlink(name);
		}
	free(name);
}

/* Frees db and what it holds, with no flush: db_open's failures and db_close. */
int db_stmt(struct db *db, enum db_stmt_id id, const char *sql, sqlite3_stmt **st)
{
	int rc = SQLITE_OK;

	if (!db->stmts[id])
		rc = sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &db->stmts[id],
					NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_reset(db->stmts[id]);
	sqlite3_clear_bindings(db->stmts[id]);
	*st = db->stmts[id];
	return SQLITE_OK;
}

static void release(struct db *db)
{
	for (int i = 0; i < DB_ST_COUNT; i++)
		sqlite3_finalize(db->stmts[i]);
	sqlite3_finalize(db->raw_ins);
	sqlite3_finalize(db->snap_ins);
	sqlite3_finalize(db->raw_begin);
	sqlite3_finalize(db->raw_release);
	sqlite3_close(db->h);
	free(db->path);
	free(db);
}

struct db *db_open(const char *path, unsigned flags, char *err, size_t errlen)
{
	struct db *db;
	struct stat sb;
	bool fresh = false;
	int version = 0, oflags, rc, ret = 0;
	unsigned before;
	bool had_data = false;

	if (stat(path, &sb) != 0) {
		if (errno != ENOENT || !(flags & DB_OPEN_CREATE) || (flags & DB_OPEN_READONLY)) {
			db_msg(err, errlen, "%s: %s", path, strerror(errno));
			return NULL;
		}
	} else if (!S_ISREG(sb.st_mode)) {
		db_msg(err, errlen, "%s: not a dyeref database (not a regular file)", path);
		errno = ENOTSUP;
		return NULL;
	} else {
		had_data = sb.st_size > 0;
	}
	before = files_present(path);
	db = calloc(1, sizeof(*db));
	if (!db || !(db->path = strdup(path))) {
		free(db);
		db_msg(err, errlen, "%s: out of memory", path);
		errno = ENOMEM;
		return NULL;
	}
	db->readonly = flags & DB_OPEN_READONLY;
	db->opening = true;
	db->left_open = wal_left(path);
	oflags = db->readonly ? SQLITE_OPEN_READONLY
			      : SQLITE_OPEN_READWRITE | ((flags & DB_OPEN_CREATE) ? SQLITE_OPEN_CREATE : 0);
	rc = sqlite3_open_v2(path, &db->h, oflags | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		ret = db_fail(db, rc, "opening", err, errlen);
		goto close_db;
	}
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_timeout(db->h, 5000);
	/* A refused file keeps a -wal left beside it: closing must not
	 * checkpoint it into the file (nor delete it) until the open succeeds. */
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);

	ret = inspect(db, &fresh, &version, err, errlen);
	if (ret)
		goto close_db;
	if (fresh && !(flags & DB_OPEN_CREATE)) {
		db_msg(err, errlen, "%s: not a dyeref database (empty file)", path);
		ret = -ENOTSUP;
		goto close_db;
	}
	/* Reading every page costs start-up time in proportion to the file
	 * (tens of seconds for 2 GiB on an SD card): only after a writer that
	 * did not close it, and only for callers that check now. */
	if (!fresh && db->left_open && !(flags & (DB_OPEN_NOCHECK | DB_OPEN_READONLY))) {
		ret = db_check(db, err, errlen);
		if (ret)
			goto close_db;
	}
	if (db->readonly && version < DB_SCHEMA_VERSION) {
		db_msg(err, errlen, "%s: schema v%d must be migrated to v%d: open it read-write once",
		       path, version, DB_SCHEMA_VERSION);
		ret = -EPROTO;
		goto close_db;
	}
	if (!db->readonly) {
		/* synchronous=FULL: a commit (a ruling) is on disk when it returns. */
		/* auto_vacuum first: it cannot change once WAL has written page 1. */
		if (fresh)
			ret = db_exec(db, "PRAGMA auto_vacuum = INCREMENTAL", err, errlen);
		if (!ret)
			ret = db_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL",
				      err, errlen);
		if (ret)
			goto close_db;
		if (fresh || version < DB_SCHEMA_VERSION) {
			char why[200] = "";

			ret = fresh ? db_schema_create(db->h, DB_SCHEMA_VERSION, why, sizeof(why))
				    : migrate(db, version, why, sizeof(why));
			if (ret) {
				db_msg(err, errlen, "%s: %s schema v%d: %s", path,
				       fresh ? "creating" : "migrating to", DB_SCHEMA_VERSION, why);
				goto close_db;
			}
		}
	}
	ret = prepare_cached(db, err, errlen);
	if (ret)
		goto close_db;
	/* From here a clean close checkpoints and deletes the -wal, so the
	 * next open knows the file was closed (wal_left). */
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, NULL);
	db->opening = false;
	return db;

close_db:
	release(db);
	remove_created(path, before);
	if (ret == -ENOSPC)	/* whatever step met it: the owner must free space */
		db_msg(err, errlen, "%s: disk full: the database cannot be %s (%s)", path,
		       had_data ? "opened" : "created",
		       before & 1 ? "the file is as it was" : "no file was left");
	errno = -ret;
	return NULL;
}

void db_set_busy_timeout(struct db *db, int ms)
{
	sqlite3_busy_timeout(db->h, ms);
}

void db_close(struct db *db)
{
	if (!db)
		return;
	if (db->in_batch)
		db_raw_flush(db, NULL, 0);
	release(db);
}
