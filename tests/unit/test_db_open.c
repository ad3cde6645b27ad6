/* db_open: refusing what is not ours (never touching it) and migrating
 * older schemas forward (fixtures of every earlier version in tests/data/db/). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "db/db.h"
#include "db/internal.h"
#include "tests/support/db_fx.h"

/* The whole file, malloc'd; *len its size. */
static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

static size_t slurp_len(const char *path)
{
	struct stat sb;

	assert_int_equal(stat(path, &sb), 0);
	return (size_t)sb.st_size;
}

static void spit(const char *path, const void *buf, size_t len)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(buf, 1, len, fp), len);
	fclose(fp);
}

/* db_open must refuse path with errno want, naming the file and why, and
 * leave the file byte for byte as it was (and create no WAL beside it). */
static void assert_refused_untouched(const char *path, int want, const char *why)
{
	char err[256], wal[128];
	size_t before_len, after_len;
	char *before = slurp(path, &before_len), *after;

	for (int i = 0; i < 2; i++) {
		errno = 0;
		assert_null(db_open(path, i ? DB_OPEN_CREATE : 0, err, sizeof(err)));
		assert_int_equal(errno, want);
		assert_non_null(strstr(err, path));
		assert_non_null(strstr(err, why));
	}
	after = slurp(path, &after_len);
	assert_int_equal(before_len, after_len);
	assert_memory_equal(before, after, before_len);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	assert_int_not_equal(access(wal, F_OK), 0);
	free(before);
	free(after);
}

/* A dyeref database with a match and enough rows for several pages. */
static void make_dyeref_db(const char *path)
{
	char err[256], line[600];
	struct db *db = db_open(path, DB_OPEN_CREATE, err, sizeof(err));
	int64_t m;

	assert_non_null(db);
	assert_int_equal(db_match_start(db, "{\"type\":\"match\",\"game\":\"beerdie\"}", 1, &m, err, sizeof(err)), 0);
	for (int i = 1; i <= 60; i++) {
		char ruling[96];
		const char *rs[] = { ruling };
		struct db_entry e = { .line = line, .t_ns = 10 + i, .rulings = rs, .n_rulings = 1 };

		snprintf(line, sizeof(line), "{\"type\":\"throw\",\"pad\":\"%0500d\"}", i);
		snprintf(ruling, sizeof(ruling), "{\"type\":\"ruling\",\"throw\":%d}", i);
		assert_int_equal(db_append(db, m, &e, NULL, err, sizeof(err)), 0);
	}
	db_close(db);
}

static void test_db_refuses_a_text_file_untouched(void **state)
{
	struct db_test_fx *f = *state;
	static const char text[] = "{\"type\":\"match\",\"game\":\"beerdie\"}\nnot a database at all, just text that is long enough to be a header maybe......\n";

	spit(f->path, text, sizeof(text) - 1);
	assert_refused_untouched(f->path, ENOTSUP, "not a dyeref database");
}

static void test_db_refuses_another_programs_sqlite_file_untouched(void **state)
{
	struct db_test_fx *f = *state;
	sqlite3 *h;

	assert_int_equal(sqlite3_open(f->path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "CREATE TABLE notes (x); INSERT INTO notes VALUES (1)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	assert_refused_untouched(f->path, ENOTSUP, "application_id");
}

static void test_db_refuses_an_empty_file_without_create(void **state)
{
	struct db_test_fx *f = *state;
	char err[256];
	struct db *db;

	spit(f->path, "", 0);
	assert_null(db_open(f->path, 0, err, sizeof(err)));
	assert_int_equal(errno, ENOTSUP);
	assert_non_null(strstr(err, "empty"));
	/* With DB_OPEN_CREATE an empty file is a new database. */
	db = db_open(f->path, DB_OPEN_CREATE, err, sizeof(err));
	assert_non_null(db);
	db_close(db);
}

static void test_db_refuses_a_newer_schema_untouched(void **state)
{
	struct db_test_fx *f = *state;
	char sql[64];
	sqlite3 *h;

	make_dyeref_db(f->path);
	assert_int_equal(sqlite3_open(f->path, &h), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", DB_SCHEMA_VERSION + 1);
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	assert_refused_untouched(f->path, EPROTO, "newer");
}

/* Leaves path as a writer killed mid-match would: a commit in its -wal,
 * never checkpointed (a child writes page 1 again and exits without
 * closing). */
static void leave_open(const char *path)
{
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (pid == 0) {
		sqlite3 *h;
		char sql[80];

		snprintf(sql, sizeof(sql), "BEGIN IMMEDIATE; PRAGMA user_version = %d; COMMIT",
			 DB_SCHEMA_VERSION);
		if (sqlite3_open(path, &h) != SQLITE_OK || sqlite3_exec(h, sql, NULL, NULL, NULL))
			_exit(3);
		_exit(0);	/* no sqlite3_close: the -wal stays */
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* Scribbles over pages 3 to 6 of path (b-tree pages of the log). */
static void scribble(const char *path)
{
	size_t len;
	char *buf = slurp(path, &len);

	assert_true(len > 8 * 4096);
	for (size_t i = 2 * 4096; i < 6 * 4096; i++)
		buf[i] = (char)(0x5a ^ (i * 7));
	spit(path, buf, len);
	free(buf);
}

/* After an unclean shutdown (a -wal left behind) db_open checks every
 * page: a corrupt file is refused, in one line naming it and why, and both
 * the file and its -wal are left byte for byte as they were (closing does
 * not checkpoint the one into the other). */
static void test_db_refuses_a_corrupt_file_left_open_untouched(void **state)
{
	struct db_test_fx *f = *state;
	char wal[128], err[256];
	size_t len, wlen, len2, wlen2;
	char *file, *walbuf, *file2, *walbuf2;

	make_dyeref_db(f->path);
	scribble(f->path);
	leave_open(f->path);
	snprintf(wal, sizeof(wal), "%s-wal", f->path);
	file = slurp(f->path, &len);
	walbuf = slurp(wal, &wlen);
	assert_true(wlen > 0);
	for (int i = 0; i < 2; i++) {
		errno = 0;
		assert_null(db_open(f->path, i ? DB_OPEN_CREATE : 0, err, sizeof(err)));
		assert_int_equal(errno, EILSEQ);
		assert_non_null(strstr(err, f->path));
		assert_non_null(strstr(err, "corrupt database (quick_check: "));
		assert_null(strchr(err, '\n'));
		assert_null(strstr(err, "***"));
	}
	file2 = slurp(f->path, &len2);
	walbuf2 = slurp(wal, &wlen2);
	assert_int_equal(len, len2);
	assert_memory_equal(file, file2, len);
	assert_int_equal(wlen, wlen2);
	assert_memory_equal(walbuf, walbuf2, wlen);
	free(file);
	free(file2);
	free(walbuf);
	free(walbuf2);
}

/* Pages the connection read from the file since it opened. */
static int pages_read(struct db *db)
{
	int cur = 0, hi = 0;

	assert_int_equal(sqlite3_db_status(db_handle(db), SQLITE_DBSTATUS_CACHE_MISS, &cur, &hi, 0),
			 SQLITE_OK);
	return cur;
}

/* Start-up must not grow with the file: a file closed cleanly is opened
 * without reading it whole (quick_check reads every page), so a corrupt
 * page is found by the read that meets it or by db_check(), whose
 * complaint is one line; after an unclean shutdown every page is read
 * before the open returns, unless the caller checks later
 * (DB_OPEN_NOCHECK, as the readers do) or only reads. */
static void test_db_open_reads_the_whole_file_only_after_an_unclean_shutdown(void **state)
{
	struct db_test_fx *f = *state;
	char err[256], wal[128];
	struct db *db;
	int pages;

	make_dyeref_db(f->path);
	snprintf(wal, sizeof(wal), "%s-wal", f->path);
	assert_int_not_equal(access(wal, F_OK), 0);	/* closed cleanly: no -wal */
	db = db_open(f->path, 0, err, sizeof(err));
	assert_non_null(db);
	assert_false(db_left_open(db));
	pages = (int)(slurp_len(f->path) / 4096);
	assert_true(pages > 12);
	assert_true(pages_read(db) <= 4);
	db_close(db);

	leave_open(f->path);
	db = db_open(f->path, 0, err, sizeof(err));
	assert_non_null(db);
	assert_true(db_left_open(db));
	assert_true(pages_read(db) >= pages - 1);
	db_close(db);
	assert_int_not_equal(access(wal, F_OK), 0);	/* closed cleanly again */

	for (int i = 0; i < 2; i++) {
		leave_open(f->path);
		db = db_open(f->path, i ? DB_OPEN_NOCHECK : DB_OPEN_READONLY, err, sizeof(err));
		assert_non_null(db);
		assert_true(db_left_open(db));
		assert_true(pages_read(db) <= 4);
		db_close(db);
	}
	assert_int_not_equal(access(wal, F_OK), 0);	/* the writer's close checkpointed it */

	/* Corrupt, closed cleanly: opens; the check says so on one line. */
	scribble(f->path);
	db = db_open(f->path, 0, err, sizeof(err));
	if (!db)
		fail_msg("%s", err);
	assert_int_equal(db_check(db, err, sizeof(err)), -EILSEQ);
	assert_non_null(strstr(err, f->path));
	assert_non_null(strstr(err, "corrupt database (quick_check: "));
	assert_null(strchr(err, '\n'));
	db_close(db);
}

static void test_db_refuses_a_truncated_header(void **state)
{
	struct db_test_fx *f = *state;
	size_t len;
	char *buf;

	make_dyeref_db(f->path);
	buf = slurp(f->path, &len);
	memset(buf, 'x', 16);	/* "SQLite format 3" gone */
	spit(f->path, buf, len);
	free(buf);
	assert_refused_untouched(f->path, ENOTSUP, "not a dyeref database");
}

/* The fixture of schema version v, copied to path. */
static void copy_fixture(int v, const char *path)
{
	const char *top = getenv("TOP");
	char src[512];
	size_t len;
	char *buf;

	snprintf(src, sizeof(src), "%s/tests/data/db/v%d.db", top ? top : ".", v);
	buf = slurp(src, &len);
	spit(path, buf, len);
	free(buf);
}

/* Sorted schema text of a database: what a fresh one and a migrated one
 * must agree on. */
static char *schema_of(struct db *db)
{
	sqlite3_stmt *st;
	char *s;

	assert_int_equal(sqlite3_prepare_v2(db_handle(db),
		"SELECT group_concat(sql, ';\n') FROM (SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name)",
		-1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	s = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return s;
}

static int count_label(const struct db_face_label *l, void *ctx)
{
	assert_int_equal(l->face, 4);
	++*(int *)ctx;
	return 0;
}

static void test_db_migrates_every_earlier_version_keeping_its_data(void **state)
{
	struct db_test_fx *f = *state;
	char err[256], fresh_path[128], *fresh_schema, *schema, *out = NULL;
	struct db *db, *fresh;
	struct db_match_info info;
	size_t outlen;
	FILE *mem;

	snprintf(fresh_path, sizeof(fresh_path), "%s/fresh.db", f->dir);
	fresh = db_open(fresh_path, DB_OPEN_CREATE, err, sizeof(err));
	assert_non_null(fresh);
	fresh_schema = schema_of(fresh);
	db_close(fresh);

	for (int v = 1; v < DB_SCHEMA_VERSION; v++) {
		unlink(f->path);
		copy_fixture(v, f->path);
		/* Read-only cannot migrate: refused, untouched. */
		assert_null(db_open(f->path, DB_OPEN_READONLY, err, sizeof(err)));
		assert_int_equal(errno, EPROTO);
		db = db_open(f->path, 0, err, sizeof(err));
		if (!db)
			fail_msg("v%d: %s", v, err);
		schema = schema_of(db);
		assert_string_equal(schema, fresh_schema);
		free(schema);
		assert_int_equal(db_match_get(db, 1, &info, err, sizeof(err)), 0);
		assert_true(info.ended);
		assert_int_equal(info.throws, 1);
		assert_string_equal(info.score, "{\"A\":1,\"B\":0}");
		mem = open_memstream(&out, &outlen);
		assert_int_equal(db_export(db, 1, mem, err, sizeof(err)), 0);
		assert_int_equal(db_rulings_write(db, 1, mem, err, sizeof(err)), 0);
		fclose(mem);
		assert_string_equal(out,
			"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]}}\n"
			"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}\n"
			"{\"type\":\"ruling\",\"throw\":1,\"score\":{\"A\":1,\"B\":0},\"review\":false}\n"
			"{\"type\":\"final\",\"score\":{\"A\":1,\"B\":0},\"over\":false}\n");
		free(out);
		/* What the new version added works on the migrated file. */
		assert_int_equal(db_calibration_add(db, "piezo", "{}", 1, err, sizeof(err)), 0);
		assert_int_equal(db_snapshot_add(db, 1, 1, 5, "\xff\xd8\xff\xe0", 4, err, sizeof(err)), 0);
		assert_int_equal(db_raw_flush(db, err, sizeof(err)), 0);
		/* v5: the match's table id (none before), the outbox and its
		 * acknowledged number. */
		assert_string_equal(info.table_id, "");
		{
			struct db_outbox_msg om;
			int64_t acked = -1;

			assert_int_equal(db_mqtt_acked_get(db, &acked, err, sizeof(err)), 0);
			assert_int_equal(acked, 0);
			assert_int_equal(db_outbox_next(db, 0, &om, err, sizeof(err)), 0);
			assert_int_equal(om.seq, 1);
			assert_int_equal(om.match, 1);
			assert_int_equal(om.revision, 1);
			assert_string_equal(om.kind, "ruling");
			assert_string_equal(om.table_id, "");
			db_outbox_msg_free(&om);
			assert_int_equal(db_mqtt_acked_set(db, 1, err, sizeof(err)), 0);
			assert_int_equal(db_mqtt_acked_get(db, &acked, err, sizeof(err)), 0);
			assert_int_equal(acked, 1);
		}
		/* v6: an official's face label, with its crop, on the old throw. */
		{
			struct db_face_label l = {
				.match = 1, .throw_no = 1, .snapshot = 1, .face = 4, .crop = "\xff\xd8\xff\xe0",
				.crop_len = 4, .width = 8, .height = 8, .x = 4, .y = 4, .w = 2, .h = 2,
				.read_confidence = -1, .official = "Kim",
			};
			int labels = 0;

			assert_int_equal(db_face_label_add(db, &l, err, sizeof(err)), 0);
			assert_int_equal(db_face_labels(db, 1, 1, count_label, &labels, err, sizeof(err)), 0);
			assert_int_equal(labels, 1);
		}
		db_close(db);
		/* And it opens as the current version from now on. */
		db = db_open(f->path, DB_OPEN_READONLY, err, sizeof(err));
		assert_non_null(db);
		db_close(db);
	}
	free(fresh_schema);
}

/* SQLite says only "unable to open database file" (SQLITE_CANTOPEN); it
 * once came out as ENOENT whatever the cause, which the CLI took for a bad
 * path (exit 2) and the web for a missing match (404). The OS's reason is
 * named and the errno follows it. */
static void test_db_cantopen_missing_directory_is_named_missing(void **state)
{
	struct db_test_fx *f = *state;
	char path[160], err[256];

	snprintf(path, sizeof(path), "%s/no-such-dir/t.db", f->dir);
	errno = 0;
	assert_null(db_open(path, DB_OPEN_CREATE, err, sizeof(err)));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "No such file or directory"));
}

/* A WAL file that cannot be opened (a directory in its place): a failure
 * of the store, EIO with the reason, not "missing". */
static void test_db_cantopen_wal_in_the_way_is_an_io_error(void **state)
{
	struct db_test_fx *f = *state;
	char wal[128], err[256];
	struct db *db = db_open(f->path, DB_OPEN_CREATE, err, sizeof(err));

	assert_non_null(db);
	db_close(db);
	snprintf(wal, sizeof(wal), "%s-wal", f->path);
	unlink(wal);
	assert_int_equal(mkdir(wal, 0755), 0);
	errno = 0;
	assert_null(db_open(f->path, 0, err, sizeof(err)));
	assert_int_equal(errno, EIO);
	assert_non_null(strstr(err, f->path));
	assert_non_null(strstr(err, "Is a directory"));
	rmdir(wal);
}

/* A file this user may not read: EACCES, "Permission denied". Root reads
 * anything, so as root the check runs in a child as nobody. */
static void test_db_cantopen_permission_is_named_as_such(void **state)
{
	struct db_test_fx *f = *state;
	char err[256];
	struct db *db = db_open(f->path, DB_OPEN_CREATE, err, sizeof(err));

	assert_non_null(db);
	db_close(db);
	assert_int_equal(chmod(f->dir, 0755), 0);
	assert_int_equal(chmod(f->path, 0), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0 && (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
				       setresuid(65534, 65534, 65534)))
			_exit(3);
		errno = 0;
		db = db_open(f->path, 0, err, sizeof(err));
		if (db)
			_exit(4);
		if (errno != EACCES || !strstr(err, "Permission denied") || !strstr(err, f->path)) {
			fprintf(stderr, "errno %d: %s\n", errno, err);
			_exit(5);
		}
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	chmod(f->path, 0644);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_db_refuses_a_text_file_untouched, db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_refuses_another_programs_sqlite_file_untouched, db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_refuses_an_empty_file_without_create, db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_refuses_a_newer_schema_untouched, db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_refuses_a_corrupt_file_left_open_untouched, db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_open_reads_the_whole_file_only_after_an_unclean_shutdown, db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_refuses_a_truncated_header, db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_migrates_every_earlier_version_keeping_its_data, db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_cantopen_missing_directory_is_named_missing, db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_cantopen_wal_in_the_way_is_an_io_error, db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_cantopen_permission_is_named_as_such, db_test_setup_dir, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
