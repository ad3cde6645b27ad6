/*
 * `dyeref import` reads a Beer Die log once, folding it as it goes:
 * mlog_judge and mlog_bd_stream_new are wrapped (linked with
 * -Wl,--wrap=..., daemon/module.mk) and their calls counted. No whole
 * log is judged (that would hold it); one stream checks the lines as they
 * come, and each correction folds the stored match again in one stream of
 * its own (the rulings as they were shown, db/import.c); a refused log
 * leaves no new database behind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/core.h"
#include "daemon/daemon.h"
#include "db/db.h"
#include "tests/support/db_fx.h"

int __real_mlog_judge(const char *name, const char *buf, size_t len,
		      char **out, size_t *outlen, char *err, size_t errlen);
int __wrap_mlog_judge(const char *name, const char *buf, size_t len,
		      char **out, size_t *outlen, char *err, size_t errlen);
struct mlog_bd_stream *__real_mlog_bd_stream_new(const char *name);
struct mlog_bd_stream *__wrap_mlog_bd_stream_new(const char *name);

static int judged;	/* mlog_judge calls since the test reset them */
static int streams;	/* mlog_bd_stream_new calls, the same */

int __wrap_mlog_judge(const char *name, const char *buf, size_t len,
		      char **out, size_t *outlen, char *err, size_t errlen)
{
	judged++;
	return __real_mlog_judge(name, buf, len, out, outlen, err, errlen);
}

struct mlog_bd_stream *__wrap_mlog_bd_stream_new(const char *name)
{
	streams++;
	return __real_mlog_bd_stream_new(name);
}

#define HEADER "{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"maja\",\"jonas\"],\"B\":[\"freja\",\"oskar\"]}}\n" \
	"{\"type\":\"rolloff\",\"value\":4,\"call\":{\"team\":\"B\",\"call\":\"high\"}}\n"
#define THROW_FLOOR "{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.62,\"y\":0.41},{\"at\":\"floor\"}]}\n"
#define THROW_CATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.88,\"y\":0.95},{\"at\":\"catch\",\"by\":\"maja\",\"hands\":1}]}\n"
#define CORRECT_1 "{\"type\":\"correct\",\"throw\":1,\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.5,\"y\":0.5},{\"at\":\"rest\",\"face\":3}]}\n"

static const char plain_log[] = HEADER THROW_FLOOR THROW_CATCH THROW_FLOOR;
static const char corrected_log[] = HEADER THROW_FLOOR THROW_CATCH CORRECT_1 THROW_FLOOR;
/* Line 3 names a player the match does not have. */
static const char bad_log[] = HEADER "{\"type\":\"throw\",\"events\":[{\"at\":\"catch\",\"by\":\"nobody\"}]}\n";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static int run_import(struct db_test_fx *f, const char *log_text)
{
	char log[128];
	char *argv[] = { "import", "--db", f->path, log, NULL };

	snprintf(log, sizeof(log), "%s/in.jsonl", f->dir);
	write_file(log, log_text);
	judged = streams = 0;
	return dd_cmd_import(4, argv);
}

/* The CLI's import of a log without corrections: one stream, no whole
 * judgement (before, the log was held and judged whole, then again). */
static void test_import_reads_a_log_without_corrections_once(void **state)
{
	struct db_test_fx *f = *state;

	assert_int_equal(run_import(f, plain_log), DD_EXIT_OK);
	assert_int_equal(judged, 0);
	assert_int_equal(streams, 1);
	assert_int_equal(access(f->path, F_OK), 0);
}

/* One correction: the log's stream and the correction's refold. */
static void test_import_refolds_once_per_correction(void **state)
{
	struct db_test_fx *f = *state;

	assert_int_equal(run_import(f, corrected_log), DD_EXIT_OK);
	assert_int_equal(judged, 0);
	assert_int_equal(streams, 2);
}

/* db_import on its own: the same counts, and a stored match. */
static void test_db_import_refolds_once_per_correction(void **state)
{
	struct db_test_fx *f = *state;
	char err[256];
	int64_t m = 0;

	judged = streams = 0;
	assert_int_equal(db_import(f->db, "plain", plain_log, sizeof(plain_log) - 1, 1, &m,
				   err, sizeof(err)), 0);
	assert_int_equal(judged, 0);
	assert_int_equal(streams, 1);
	assert_int_equal(m, 1);
	judged = streams = 0;
	assert_int_equal(db_import(f->db, "corrected", corrected_log, sizeof(corrected_log) - 1,
				   1, &m, err, sizeof(err)), 0);
	assert_int_equal(judged, 0);
	assert_int_equal(streams, 2);
}

/* A refused log: exit 2, one stream, and no database file left. */
static void test_import_of_a_refused_log_leaves_no_new_database(void **state)
{
	struct db_test_fx *f = *state;

	assert_int_equal(run_import(f, bad_log), DD_EXIT_USAGE);
	assert_int_equal(streams, 1);
	assert_int_equal(access(f->path, F_OK), -1);
}

/* A refused log into an existing database keeps that database. */
static void test_import_of_a_refused_log_keeps_an_existing_database(void **state)
{
	struct db_test_fx *f = *state;

	assert_int_equal(run_import(f, plain_log), DD_EXIT_OK);
	assert_int_equal(run_import(f, bad_log), DD_EXIT_USAGE);
	assert_int_equal(access(f->path, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_import_reads_a_log_without_corrections_once,
						db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_import_refolds_once_per_correction,
						db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_import_refolds_once_per_correction,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_import_of_a_refused_log_leaves_no_new_database,
						db_test_setup_dir, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_import_of_a_refused_log_keeps_an_existing_database,
						db_test_setup_dir, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
