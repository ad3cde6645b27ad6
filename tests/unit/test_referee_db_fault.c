/*
 * A database that fails under the web pages is a server fault, not an
 * empty or missing answer: db_matches and db_match_get are wrapped (linked
 * with -Wl,--wrap, daemon/module.mk) to fail on demand, and dd_log to
 * catch what the daemon says about it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/daemon.h"
#include "db/db.h"
#include "tests/support/db_fx.h"

int __real_db_matches(struct db *db, struct db_match_info **out, size_t *n, char *err,
		      size_t errlen);
int __wrap_db_matches(struct db *db, struct db_match_info **out, size_t *n, char *err,
		      size_t errlen);
int __real_db_match_get(struct db *db, int64_t match, struct db_match_info *info, char *err,
			size_t errlen);
int __wrap_db_match_get(struct db *db, int64_t match, struct db_match_info *info, char *err,
			size_t errlen);
void __wrap_dd_log(enum dd_log_level level, const char *fmt, ...);

static int fail_with;		/* 0: the real function; else its return */
static char logged[512];	/* the last dd_log message */

int __wrap_db_matches(struct db *db, struct db_match_info **out, size_t *n, char *err,
		      size_t errlen)
{
	if (!fail_with)
		return __real_db_matches(db, out, n, err, errlen);
	snprintf(err, errlen, "t.db: listing matches: disk I/O error");
	return fail_with;
}

int __wrap_db_match_get(struct db *db, int64_t match, struct db_match_info *info, char *err,
			size_t errlen)
{
	if (!fail_with)
		return __real_db_match_get(db, match, info, err, errlen);
	snprintf(err, errlen, "t.db: reading match %lld: database is locked", (long long)match);
	return fail_with;
}

void __wrap_dd_log(enum dd_log_level level, const char *fmt, ...)
{
	va_list ap;

	(void)level;
	va_start(ap, fmt);
	vsnprintf(logged, sizeof(logged), fmt, ap);
	va_end(ap);
}

/* The web's 4xx codes (web/web.h): a database fault must not map to one. */
static void assert_server_fault(int rc)
{
	assert_true(rc < 0);
	assert_int_not_equal(rc, -ENOENT);
	assert_int_not_equal(rc, -EINVAL);
	assert_int_not_equal(rc, -EBUSY);
	assert_int_not_equal(rc, -EPERM);
}

static struct dd_referee *referee(struct db *db)
{
	struct dd_referee_cfg cfg;

	memset(&cfg, 0, sizeof(cfg));
	bd_house_defaults(&cfg.house);
	struct dd_referee *r = dd_referee_new(&cfg, db);
	assert_non_null(r);
	return r;
}

/* A failing db_matches once showed as "[]" with 200: now a 5xx and the
 * database's own message in the log. */
static void test_referee_match_list_db_failure_is_a_server_error(void **state)
{
	struct db_test_fx *f = *state;
	struct dd_referee *r = referee(f->db);
	char *json = NULL;

	fail_with = 0;
	assert_int_equal(dd_referee_matches(r, &json), 0);
	assert_string_equal(json, "[]");
	free(json);
	static const int faults[] = { -EIO, -EBUSY, -ENOENT, -EACCES, -ENOSPC };
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		fail_with = faults[i];
		logged[0] = 0;
		json = (char *)"untouched";
		int rc = dd_referee_matches(r, &json);
		assert_server_fault(rc);
		assert_null(json);
		assert_non_null(strstr(logged, "match list: t.db: listing matches: disk I/O error"));
	}
	fail_with = 0;
	dd_referee_free(r);
}

/* The score sheet: no such match is 404, a locked database is not. */
static void test_referee_sheet_db_failure_is_not_a_missing_match(void **state)
{
	struct db_test_fx *f = *state;
	struct dd_referee *r = referee(f->db);
	char *json = NULL;

	fail_with = 0;
	assert_int_equal(dd_referee_sheet(r, 7, &json), -ENOENT);
	fail_with = -EBUSY;
	logged[0] = 0;
	int rc = dd_referee_sheet(r, 7, &json);
	assert_server_fault(rc);
	assert_null(json);
	assert_non_null(strstr(logged, "score sheet: t.db: reading match 7: database is locked"));
	fail_with = -ENOENT;
	assert_int_equal(dd_referee_sheet(r, 7, &json), -ENOENT);
	fail_with = 0;
	dd_referee_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_referee_match_list_db_failure_is_a_server_error,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_referee_sheet_db_failure_is_not_a_missing_match,
						db_test_setup, db_test_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
