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
#include "daemon/referee.h"
#include "db/db.h"
#include "tests/support/db_fx.h"
#include "tests/support/db_sim.h"

int __real_db_matches(struct db *db, struct db_match_info **out, size_t *n, char *err,
		      size_t errlen);
int __wrap_db_matches(struct db *db, struct db_match_info **out, size_t *n, char *err,
		      size_t errlen);
int __real_db_match_get(struct db *db, int64_t match, struct db_match_info *info, char *err,
			size_t errlen);
int __wrap_db_match_get(struct db *db, int64_t match, struct db_match_info *info, char *err,
			size_t errlen);
int __real_db_bd_load(struct db *db, int64_t match, struct mlog_bd **log,
		      struct mlog_bd_result *res, char *err, size_t errlen);
int __wrap_db_bd_load(struct db *db, int64_t match, struct mlog_bd **log,
		      struct mlog_bd_result *res, char *err, size_t errlen);
int __real_db_replay(struct db *db, int64_t match, int throw_no,
		     int (*fn)(const struct db_item *item, void *ctx), void *ctx,
		     char *err, size_t errlen);
int __wrap_db_replay(struct db *db, int64_t match, int throw_no,
		     int (*fn)(const struct db_item *item, void *ctx), void *ctx,
		     char *err, size_t errlen);
void __wrap_dd_log(enum dd_log_level level, const char *fmt, ...);

static int fail_with;		/* 0: the real function; else its return */
static int fail_load;		/* db_bd_load: 0 real, else its return */
static int fail_replay;		/* db_replay: 0 real, else its return */
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

int __wrap_db_bd_load(struct db *db, int64_t match, struct mlog_bd **log,
		      struct mlog_bd_result *res, char *err, size_t errlen)
{
	if (!fail_load)
		return __real_db_bd_load(db, match, log, res, err, errlen);
	snprintf(err, errlen, "t.db: reading match %lld: disk I/O error", (long long)match);
	return fail_load;
}

int __wrap_db_replay(struct db *db, int64_t match, int throw_no,
		     int (*fn)(const struct db_item *item, void *ctx), void *ctx,
		     char *err, size_t errlen)
{
	if (!fail_replay)
		return __real_db_replay(db, match, throw_no, fn, ctx, err, errlen);
	snprintf(err, errlen, "t.db: replay: database disk image is malformed");
	return fail_replay;
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

/* A stored match's throw page: 404 only for a match or throw that does
 * not exist (or a dice game, which has no Beer Die throws); the database
 * failing at any of its reads (the match, its log, the throw's notes) is
 * a 5xx with the database's message logged, where it once was a 404. */
static void test_referee_throw_detail_db_failure_is_not_a_missing_throw(void **state)
{
	struct db_test_fx *f = *state;
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct sim_rng rng;
	struct dd_referee *r;
	char err[256], *json = NULL;
	int64_t m, dice;
	int rc;

	fail_with = fail_load = fail_replay = 0;
	sim_rng_seed(&rng, 3);
	db_test_long_match(&cfg);
	assert_int_equal(db_test_start(f->db, "t", &cfg, 1000000000, &m, err, sizeof(err)), 0);
	bd_state_init(&s, &cfg);
	for (int k = 1; k <= 2; k++) {
		struct bd_throw t;
		struct bd_ruling ru;

		assert_int_equal(db_test_store_throw(f->db, m, &rng, &cfg, &s, k * 3000000000LL, NULL, 0,
						     &t, &ru, err, sizeof(err)), 0);
		bd_apply(&s, &cfg, &ru);
	}
	assert_int_equal(db_match_start(f->db, "{\"type\":\"match\",\"game\":\"yatzy\"}", 9000000000LL,
					&dice, err, sizeof(err)), 0);
	r = referee(f->db);
	assert_int_equal(dd_referee_throw_detail(r, (long)m, 2, &json), 0);
	assert_non_null(strstr(json, "\"throw\":2"));
	free(json);
	assert_int_equal(dd_referee_throw_detail(r, (long)m, 3, &json), -ENOENT);
	assert_int_equal(dd_referee_throw_detail(r, (long)m + 9, 1, &json), -ENOENT);
	assert_int_equal(dd_referee_throw_detail(r, (long)dice, 1, &json), -ENOENT);

	static const int faults[] = { -EIO, -EBUSY, -EINVAL, -EACCES, -ENOSPC };
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		for (int at = 0; at < 3; at++) {
			fail_with = at == 0 ? faults[i] : 0;
			fail_load = at == 1 ? faults[i] : 0;
			fail_replay = at == 2 ? faults[i] : 0;
			logged[0] = 0;
			json = (char *)"untouched";
			rc = dd_referee_throw_detail(r, (long)m, 1, &json);
			assert_server_fault(rc);
			assert_null(json);
			assert_non_null(strstr(logged, "throw detail: t.db: "));
			assert_non_null(strstr(logged, at == 0 ? "database is locked" :
						       at == 1 ? "disk I/O error" : "malformed"));
		}
	}
	/* The database saying there is no such match is still a 404. */
	fail_replay = fail_load = 0;
	fail_with = -ENOENT;
	assert_int_equal(dd_referee_throw_detail(r, (long)m, 1, &json), -ENOENT);
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
		cmocka_unit_test_setup_teardown(test_referee_throw_detail_db_failure_is_not_a_missing_throw,
						db_test_setup, db_test_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
