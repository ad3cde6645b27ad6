/* db/: the event log's API, one behaviour per test (docs/event-log.md). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "db/db.h"
#include "db/internal.h"
#include "tests/support/db_fx.h"

#define HEADER "{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]}}"
#define THROW1 "{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}"
#define THROW2 "{\"type\":\"throw\",\"events\":[{\"at\":\"catch\",\"by\":\"a1\",\"hands\":1}]}"
#define RULING(n, a, b, rev) "{\"type\":\"ruling\",\"throw\":" #n ",\"score\":{\"A\":" #a ",\"B\":" #b "},\"review\":" rev "}"
#define FINAL "{\"type\":\"final\",\"score\":{\"A\":1,\"B\":0},\"over\":false}"

/* Starts a match and appends throws 1 and 2 with their rulings. */
static int64_t two_throws(struct db *db)
{
	const char *r1[] = { RULING(1, 1, 0, "false") }, *r2[] = { RULING(2, 1, 0, "true") };
	struct db_observation o = { 1600, "table", "piezo", 0.9, "{\"at\":\"table\",\"half\":\"B\"}" };
	struct db_entry e1 = { .line = THROW1, .t_ns = 2000, .obs = &o, .n_obs = 1, .rulings = r1, .n_rulings = 1 };
	struct db_entry e2 = { .line = THROW2, .t_ns = 4000, .rulings = r2, .n_rulings = 1 };
	char err[256];
	int64_t m;
	int no = 0;

	assert_int_equal(db_match_start(db, HEADER, 1000, &m, err, sizeof(err)), 0);
	assert_int_equal(db_append(db, m, &e1, &no, err, sizeof(err)), 0);
	assert_int_equal(no, 1);
	assert_int_equal(db_append(db, m, &e2, &no, err, sizeof(err)), 0);
	assert_int_equal(no, 2);
	return m;
}

/* Everything a FILE* received, as a malloc'd string. */
struct capture {
	char *buf;		/* open_memstream's buffer */
	size_t len;		/* bytes in buf */
	FILE *f;		/* the stream writing into buf */
};

static void cap_open(struct capture *c)
{
	c->buf = NULL;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

static char *cap_close(struct capture *c)
{
	fclose(c->f);
	return c->buf;
}

static void test_db_create_sets_wal_version_and_id(void **state)
{
	struct db_test_fx *f = *state;
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_prepare_v2(db_handle(f->db), "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(db_handle(f->db), "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), DB_SCHEMA_VERSION);
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(db_handle(f->db), "PRAGMA application_id", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), DB_APPLICATION_ID);
	sqlite3_finalize(st);
	assert_string_equal(db_path(f->db), f->path);
}

static void test_db_open_missing_without_create_is_enoent(void **state)
{
	struct db_test_fx *f = *state;
	char path[128], err[256];

	snprintf(path, sizeof(path), "%s/none.db", f->dir);
	assert_null(db_open(path, 0, err, sizeof(err)));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "none.db"));
	assert_int_not_equal(access(path, F_OK), 0);
}

/* The header's "table"."id" is the match's table in every list; a header
 * without one (an old log, another program's) has "". */
static void test_db_match_keeps_its_table(void **state)
{
	struct db_test_fx *f = *state;
	char err[256];
	int64_t a, b;
	struct db_match_info info;

	assert_int_equal(db_match_start(f->db, "{\"type\":\"match\",\"game\":\"beerdie\","
					"\"table\":{\"id\":\"bar-3\",\"name\":\"Bar 3\"}}", 1, &a,
					err, sizeof(err)), 0);
	assert_int_equal(db_match_start(f->db, HEADER, 2, &b, err, sizeof(err)), 0);
	assert_int_equal(db_match_get(f->db, a, &info, err, sizeof(err)), 0);
	assert_string_equal(info.table_id, "bar-3");
	assert_int_equal(db_match_get(f->db, b, &info, err, sizeof(err)), 0);
	assert_string_equal(info.table_id, "");
}

static void test_db_match_start_rejects_a_bad_header(void **state)
{
	struct db_test_fx *f = *state;
	char err[256];
	int64_t m;
	size_t n;
	struct db_match_info *v;

	assert_int_equal(db_match_start(f->db, "{\"type\":\"throw\"}", 1, &m, err, sizeof(err)), -EINVAL);
	assert_int_equal(db_match_start(f->db, "{\"type\":\"match\"}", 1, &m, err, sizeof(err)), -EINVAL);
	assert_int_equal(db_match_start(f->db, "not json", 1, &m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "match header"));
	assert_int_equal(db_match_start(f->db, HEADER "\n" HEADER, 1, &m, err, sizeof(err)), -EINVAL);
	assert_int_equal(db_matches(f->db, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	free(v);
}

static void test_db_append_numbers_throws_and_lists_the_match(void **state)
{
	struct db_test_fx *f = *state;
	struct db_match_info *v, one;
	char err[256];
	size_t n;
	int64_t m = two_throws(f->db);

	assert_int_equal(db_matches(f->db, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].id, m);
	assert_string_equal(v[0].game, "beerdie");
	assert_int_equal(v[0].throws, 2);
	assert_int_equal(v[0].corrections, 0);
	assert_int_equal(v[0].reviews, 1);
	assert_false(v[0].ended);
	assert_int_equal(v[0].start_ns, 1000);
	assert_string_equal(v[0].score, "{\"A\":1,\"B\":0}");
	free(v);
	assert_int_equal(db_match_get(f->db, m, &one, err, sizeof(err)), 0);
	assert_int_equal(one.throws, 2);
	assert_int_equal(db_match_get(f->db, m + 7, &one, err, sizeof(err)), -ENOENT);
}

static void test_db_append_rejects_a_ruling_for_another_throw_and_writes_nothing(void **state)
{
	struct db_test_fx *f = *state;
	const char *bad[] = { RULING(5, 1, 0, "false") };
	struct db_entry e = { .line = THROW1, .t_ns = 9000, .rulings = bad, .n_rulings = 1 };
	struct db_entry none = { .line = THROW1, .t_ns = 9000 };
	struct db_match_info info;
	char err[256];
	int64_t m = two_throws(f->db);

	assert_int_equal(db_append(f->db, m, &e, NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "throw 5, expected 3"));
	assert_int_equal(db_append(f->db, m, &none, NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(db_match_get(f->db, m, &info, err, sizeof(err)), 0);
	assert_int_equal(info.throws, 2);
	assert_int_equal(db_append(f->db, m + 1, &none, NULL, err, sizeof(err)), -ENOENT);
}

static void test_db_correction_is_a_new_row_and_supersedes_later_rulings(void **state)
{
	struct db_test_fx *f = *state;
	const char *rs[] = { RULING(1, 0, 0, "false"), RULING(2, 0, 0, "false") };
	struct db_entry c = { .line = "{\"type\":\"correct\",\"throw\":1,\"events\":[{\"at\":\"floor\"}]}",
			      .t_ns = 5000, .rulings = rs, .n_rulings = 2 };
	struct db_entry bad = { .line = "{\"type\":\"correct\",\"throw\":3,\"events\":[]}", .t_ns = 6000 };
	struct db_match_info info;
	struct capture cap;
	char err[256], *out;
	int64_t m = two_throws(f->db);

	assert_int_equal(db_append(f->db, m, &c, NULL, err, sizeof(err)), 0);
	assert_int_equal(db_append(f->db, m, &bad, NULL, err, sizeof(err)), -EINVAL);
	cap_open(&cap);
	assert_int_equal(db_rulings_write(f->db, m, cap.f, err, sizeof(err)), 0);
	out = cap_close(&cap);
	assert_string_equal(out, RULING(1, 0, 0, "false") "\n" RULING(2, 0, 0, "false") "\n");
	free(out);
	assert_int_equal(db_match_get(f->db, m, &info, err, sizeof(err)), 0);
	assert_int_equal(info.corrections, 1);
	assert_int_equal(info.reviews, 0);	/* throw 2's review was superseded */
	assert_string_equal(info.score, "{\"A\":0,\"B\":0}");
	/* The original rulings are still there: 2 + 2 rows. */
	{
		sqlite3_stmt *st;

		sqlite3_prepare_v2(db_handle(f->db), "SELECT count(*) FROM rulings", -1, &st, NULL);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int(st, 0), 4);
		sqlite3_finalize(st);
	}
}

struct seen {
	char text[4096];	/* db_item_write output of every item */
	int n;			/* items */
};

static int record(const struct db_item *it, void *ctx)
{
	struct seen *s = ctx;
	FILE *f = fmemopen(s->text + strlen(s->text), sizeof(s->text) - strlen(s->text), "w");

	db_item_write(it, f);
	fclose(f);
	s->n++;
	return 0;
}

/* Dice games rule other lines too (choose, roll-off): rulings fill slots in
 * the judge's order, whatever line gave them. */
static void test_db_rulings_of_any_line_kind_keep_the_judges_order(void **state)
{
	struct db_test_fx *f = *state;
	const char *r1[] = { "{\"type\":\"ruling\",\"move\":1,\"kind\":\"choose\"}" };
	const char *r2[] = { "{\"type\":\"ruling\",\"move\":2,\"turn\":1}" };
	struct db_entry choose = { .line = "{\"type\":\"choose\",\"player\":\"ann\",\"roll\":[2,5]}",
				   .t_ns = 10, .rulings = r1, .n_rulings = 1 };
	struct db_entry turn = { .line = "{\"type\":\"turn\",\"player\":\"bob\",\"rolls\":[[3,4]]}",
				 .t_ns = 20, .rulings = r2, .n_rulings = 1 };
	struct seen s = { "", 0 };
	struct capture cap;
	char err[256], *out;
	int64_t m;
	int no = 0;

	assert_int_equal(db_match_start(f->db, "{\"type\":\"match\",\"game\":\"dreiermann\",\"players\":[\"ann\",\"bob\"]}",
					1, &m, err, sizeof(err)), 0);
	assert_int_equal(db_append(f->db, m, &choose, &no, err, sizeof(err)), 0);
	assert_int_equal(no, 0);	/* a choose line is not a turn */
	assert_int_equal(db_append(f->db, m, &turn, &no, err, sizeof(err)), 0);
	assert_int_equal(no, 1);
	cap_open(&cap);
	assert_int_equal(db_rulings_write(f->db, m, cap.f, err, sizeof(err)), 0);
	out = cap_close(&cap);
	assert_string_equal(out, "{\"type\":\"ruling\",\"move\":1,\"kind\":\"choose\"}\n"
				 "{\"type\":\"ruling\",\"move\":2,\"turn\":1}\n");
	free(out);
	assert_int_equal(db_replay(f->db, m, 1, record, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);	/* the turn and its own ruling */
	assert_non_null(strstr(s.text, "\"move\":2"));
	assert_null(strstr(s.text, "\"move\":1"));
}

static void test_db_log_rows_cannot_be_updated_or_deleted(void **state)
{
	struct db_test_fx *f = *state;

	two_throws(f->db);
	assert_int_not_equal(sqlite3_exec(db_handle(f->db), "UPDATE rulings SET review = 0", NULL, NULL, NULL), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db_handle(f->db), "DELETE FROM entries", NULL, NULL, NULL), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db_handle(f->db), "UPDATE matches SET game = 'x'", NULL, NULL, NULL), SQLITE_OK);
}

static void test_db_export_is_the_lines_in_order(void **state)
{
	struct db_test_fx *f = *state;
	struct capture cap;
	char err[256], *out, **lines;
	size_t n;
	int64_t m = two_throws(f->db);

	cap_open(&cap);
	assert_int_equal(db_export(f->db, m, cap.f, err, sizeof(err)), 0);
	out = cap_close(&cap);
	assert_string_equal(out, HEADER "\n" THROW1 "\n" THROW2 "\n");
	free(out);
	assert_int_equal(db_lines(f->db, m, &lines, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(lines[2], THROW2);
	db_lines_free(lines, n);
	cap_open(&cap);
	assert_int_equal(db_export(f->db, m + 1, cap.f, err, sizeof(err)), -ENOENT);
	free(cap_close(&cap));
}

static void test_db_match_end_stores_final_and_closes_the_match(void **state)
{
	struct db_test_fx *f = *state;
	struct db_entry e = { .line = THROW1, .t_ns = 9000 };
	struct capture cap;
	char err[256], *out;
	int64_t m = two_throws(f->db);

	assert_int_equal(db_match_end(f->db, m, "{\"type\":\"ruling\"}", 8000, err, sizeof(err)), -EINVAL);
	assert_int_equal(db_match_end(f->db, m, FINAL, 8000, err, sizeof(err)), 0);
	assert_int_equal(db_match_end(f->db, m, FINAL, 8000, err, sizeof(err)), -EALREADY);
	assert_int_equal(db_append(f->db, m, &e, NULL, err, sizeof(err)), -EALREADY);
	cap_open(&cap);
	assert_int_equal(db_rulings_write(f->db, m, cap.f, err, sizeof(err)), 0);
	out = cap_close(&cap);
	assert_string_equal(out, RULING(1, 1, 0, "false") "\n" RULING(2, 1, 0, "true") "\n" FINAL "\n");
	free(out);
}

/* The daemon's start-up and the scoreboard between matches ask for the
 * newest match (not ended: the one under way) without listing them all. */
static void test_db_match_newest_finds_the_newest_and_the_newest_not_ended(void **state)
{
	struct db_test_fx *f = *state;
	struct db_match_info info;
	char err[256];
	int64_t a, b, c;

	assert_int_equal(db_match_newest(f->db, false, &info, err, sizeof(err)), -ENOENT);
	assert_int_equal(db_match_newest(f->db, true, &info, err, sizeof(err)), -ENOENT);
	a = two_throws(f->db);
	b = two_throws(f->db);
	c = two_throws(f->db);
	assert_int_equal(db_match_end(f->db, c, FINAL, 8000, err, sizeof(err)), 0);
	assert_int_equal(db_match_newest(f->db, false, &info, err, sizeof(err)), 0);
	assert_int_equal(info.id, c);
	assert_true(info.ended);
	assert_int_equal(info.throws, 2);
	assert_int_equal(db_match_newest(f->db, true, &info, err, sizeof(err)), 0);
	assert_int_equal(info.id, b);
	assert_false(info.ended);
	assert_int_equal(db_match_end(f->db, b, FINAL, 8000, err, sizeof(err)), 0);
	assert_int_equal(db_match_end(f->db, a, FINAL, 8000, err, sizeof(err)), 0);
	assert_int_equal(db_match_newest(f->db, true, &info, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no match under way"));
}

static void test_db_replay_gives_a_throws_inputs_in_time_order(void **state)
{
	struct db_test_fx *f = *state;
	static const unsigned char jpeg[] = { 0xff, 0xd8, 0xff, 0xe0, 1, 2, 3 };
	struct db_raw raw[] = {
		{ 1500, 0, "piezo", "edge", 3, "{\"line\":3}", 10 },	/* throw 1 */
		{ 1200, 0, "camera", "detection", 0, "{\"x\":1}", 7 },	/* throw 1, earlier */
		{ 3000, 0, "piezo", "edge", 1, NULL, 0 },		/* throw 2 */
		{ 3100, 1, "console", "call", -1, "{}", 2 },		/* tagged throw 1 */
	};
	const char *rs[] = { RULING(1, 0, 0, "false"), RULING(2, 1, 0, "false") };
	struct db_entry c = { .line = "{\"type\":\"correct\",\"throw\":1,\"events\":[{\"at\":\"floor\"}]}",
			      .t_ns = 5000, .rulings = rs, .n_rulings = 2 };
	struct seen s = { "", 0 };
	char err[256];
	int64_t m;

	assert_int_equal(db_match_start(f->db, HEADER, 1000, &m, err, sizeof(err)), 0);
	assert_int_equal(db_raw_append(f->db, m, raw, 4, err, sizeof(err)), 0);
	assert_int_equal(db_snapshot_add(f->db, m, 0, 1900, jpeg, sizeof(jpeg), err, sizeof(err)), 0);
	assert_int_equal(db_raw_flush(f->db, err, sizeof(err)), 0);
	{
		const char *r1[] = { RULING(1, 1, 0, "false") }, *r2[] = { RULING(2, 1, 0, "true") };
		struct db_observation o = { 1600, "table", "piezo", 0.9, "{\"at\":\"table\"}" };
		struct db_entry e1 = { .line = THROW1, .t_ns = 2000, .obs = &o, .n_obs = 1, .rulings = r1, .n_rulings = 1 };
		struct db_entry e2 = { .line = THROW2, .t_ns = 4000, .rulings = r2, .n_rulings = 1 };

		assert_int_equal(db_append(f->db, m, &e1, NULL, err, sizeof(err)), 0);
		assert_int_equal(db_append(f->db, m, &e2, NULL, err, sizeof(err)), 0);
	}
	assert_int_equal(db_append(f->db, m, &c, NULL, err, sizeof(err)), 0);
	assert_int_equal(db_replay(f->db, m, 1, record, &s, err, sizeof(err)), 0);
	assert_string_equal(s.text,
		"{\"t_ns\":1200,\"item\":\"raw\",\"source\":\"camera\",\"kind\":\"detection\",\"channel\":0,\"payload\":\"{\\\"x\\\":1}\"}\n"
		"{\"t_ns\":1500,\"item\":\"raw\",\"source\":\"piezo\",\"kind\":\"edge\",\"channel\":3,\"payload\":\"{\\\"line\\\":3}\"}\n"
		"{\"t_ns\":1600,\"item\":\"observation\",\"source\":\"piezo\",\"kind\":\"table\",\"confidence\":0.9,\"detail\":{\"at\":\"table\"}}\n"
		"{\"t_ns\":1900,\"item\":\"snapshot\",\"bytes\":7}\n"
		"{\"t_ns\":2000,\"item\":\"throw\",\"line\":" THROW1 "}\n"
		"{\"t_ns\":2000,\"item\":\"ruling\",\"line\":" RULING(1, 1, 0, "false") "}\n"
		"{\"t_ns\":3100,\"item\":\"raw\",\"source\":\"console\",\"kind\":\"call\",\"payload\":\"{}\"}\n"
		"{\"t_ns\":5000,\"item\":\"correction\",\"line\":{\"type\":\"correct\",\"throw\":1,\"events\":[{\"at\":\"floor\"}]}}\n"
		"{\"t_ns\":5000,\"item\":\"ruling\",\"line\":" RULING(1, 0, 0, "false") "}\n");
	assert_int_equal(db_replay(f->db, m, 3, record, &s, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, ": match 1 has no throw 3"));
}

/* A match that is not stored is named as such, not as a missing throw. */
static void test_db_replay_names_a_missing_match(void **state)
{
	struct db_test_fx *f = *state;
	struct seen s = { "", 0 };
	char err[256];
	int64_t m;

	assert_int_equal(db_match_start(f->db, HEADER, 1000, &m, err, sizeof(err)), 0);
	assert_int_equal(db_replay(f->db, m + 1, 1, record, &s, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, ": no match 2"));
	assert_null(strstr(err, "throw"));
	assert_int_equal(s.n, 0);
}

/* db_raw_tagged: only the raw inputs tagged with that throw number, in the
 * order stored (pending batch included), even before the throw exists;
 * untagged inputs (found by time) and other throws' are not given. */
static void test_db_raw_tagged_gives_a_throw_not_yet_logged(void **state)
{
	struct db_test_fx *f = *state;
	struct db_raw raw[] = {
		{ 1500, 0, "piezo", "edge", 3, "{\"line\":3}", 10 },	/* untagged */
		{ 1600, 2, "fusion", "held", -1, "{\"a\":1}", 7 },	/* tagged 2 */
		{ 1400, 1, "console", "call", -1, "{}", 2 },		/* tagged 1 */
		{ 1300, 2, "console", "dropped", -1, "{\"b\":2}", 7 },	/* tagged 2, earlier time */
	};
	struct seen s = { "", 0 };
	char err[256];
	int64_t m;

	assert_int_equal(db_match_start(f->db, HEADER, 1000, &m, err, sizeof(err)), 0);
	assert_int_equal(db_raw_append(f->db, m, raw, 4, err, sizeof(err)), 0);
	assert_int_equal(db_raw_tagged(f->db, m, 2, record, &s, err, sizeof(err)), 0);
	assert_string_equal(s.text,
		"{\"t_ns\":1600,\"item\":\"raw\",\"source\":\"fusion\",\"kind\":\"held\",\"payload\":\"{\\\"a\\\":1}\"}\n"
		"{\"t_ns\":1300,\"item\":\"raw\",\"source\":\"console\",\"kind\":\"dropped\",\"payload\":\"{\\\"b\\\":2}\"}\n");
	assert_int_equal(s.n, 2);
	s.text[0] = '\0';
	s.n = 0;
	assert_int_equal(db_raw_tagged(f->db, m, 3, record, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 0);
}

/* Replay lines stay JSON whatever bytes were stored: a payload is shown as
 * text only when it is UTF-8 (else by its size), and a source or kind that
 * is not UTF-8 shows U+FFFD for each bad byte. */
static void test_db_replay_writes_json_for_any_stored_bytes(void **state)
{
	struct db_test_fx *f = *state;
	struct db_raw raw[] = {
		{ 1100, 1, "piezo", "edge", 1, "\xff\xfe\x01", 3 },		/* not UTF-8, no NUL */
		{ 1200, 1, "piezo", "edge", 2, "\xc0\xaf", 2 },		/* overlong '/' */
		{ 1300, 1, "camera", "note", 3, "caf\xc3\xa9", 5 },		/* UTF-8 text */
		{ 1400, 1, "pi\xffzo", "ed\xe2\x82ge", 4, "{}", 2 },	/* bad source and kind */
	};
	const char *r1[] = { RULING(1, 1, 0, "false") };
	struct db_entry e1 = { .line = THROW1, .t_ns = 2000, .rulings = r1, .n_rulings = 1 };
	struct seen s = { "", 0 };
	char err[256];
	int64_t m;

	assert_int_equal(db_match_start(f->db, HEADER, 1000, &m, err, sizeof(err)), 0);
	assert_int_equal(db_raw_append(f->db, m, raw, 4, err, sizeof(err)), 0);
	assert_int_equal(db_append(f->db, m, &e1, NULL, err, sizeof(err)), 0);
	assert_int_equal(db_replay(f->db, m, 1, record, &s, err, sizeof(err)), 0);
	assert_string_equal(s.text,
		"{\"t_ns\":1100,\"item\":\"raw\",\"source\":\"piezo\",\"kind\":\"edge\",\"channel\":1,\"bytes\":3}\n"
		"{\"t_ns\":1200,\"item\":\"raw\",\"source\":\"piezo\",\"kind\":\"edge\",\"channel\":2,\"bytes\":2}\n"
		"{\"t_ns\":1300,\"item\":\"raw\",\"source\":\"camera\",\"kind\":\"note\",\"channel\":3,\"payload\":\"caf\xc3\xa9\"}\n"
		"{\"t_ns\":1400,\"item\":\"raw\",\"source\":\"pi\\ufffdzo\",\"kind\":\"ed\\ufffd\\ufffdge\",\"channel\":4,\"payload\":\"{}\"}\n"
		"{\"t_ns\":2000,\"item\":\"throw\",\"line\":" THROW1 "}\n"
		"{\"t_ns\":2000,\"item\":\"ruling\",\"line\":" RULING(1, 1, 0, "false") "}\n");
}

static void test_db_raw_inputs_are_durable_only_after_flush(void **state)
{
	struct db_test_fx *f = *state;
	struct db_raw r = { 10, 0, "piezo", "edge", 1, NULL, 0 };
	char err[256];
	struct db *other;
	sqlite3_stmt *st;
	int64_t m;

	assert_int_equal(db_match_start(f->db, HEADER, 1, &m, err, sizeof(err)), 0);
	assert_int_equal(db_raw_append(f->db, m, &r, 1, err, sizeof(err)), 0);
	other = db_open(f->path, DB_OPEN_READONLY, err, sizeof(err));
	assert_non_null(other);
	sqlite3_prepare_v2(db_handle(other), "SELECT count(*) FROM raw_inputs", -1, &st, NULL);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 0);	/* the batch is not committed yet */
	sqlite3_reset(st);
	assert_int_equal(db_raw_flush(f->db, err, sizeof(err)), 0);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 1);
	sqlite3_finalize(st);
	db_close(other);
	r.source = NULL;
	assert_int_equal(db_raw_append(f->db, m, &r, 1, err, sizeof(err)), -EINVAL);
	assert_int_equal(db_snapshot_add(f->db, m, 0, 1, "GIF8", 4, err, sizeof(err)), -EINVAL);
}

static void test_db_calibration_in_force_is_the_latest(void **state)
{
	struct db_test_fx *f = *state;
	char err[256], *json;

	assert_int_equal(db_calibration_get(f->db, "piezo", 0, &json, err, sizeof(err)), -ENOENT);
	assert_int_equal(db_calibration_add(f->db, "piezo", "{\"v\":1}", 1, err, sizeof(err)), 0);
	assert_int_equal(db_calibration_add(f->db, "piezo", "{\"v\":2}", 2, err, sizeof(err)), 0);
	assert_int_equal(db_calibration_add(f->db, "camera", "{\"c\":1}", 3, err, sizeof(err)), 0);
	assert_int_equal(db_calibration_get(f->db, "piezo", 0, &json, err, sizeof(err)), 0);
	assert_string_equal(json, "{\"v\":2}");
	free(json);
	assert_int_equal(db_calibration_get(f->db, "piezo", 1000, &json, err, sizeof(err)), -ENOENT);
}

/* Fills a match with n raw inputs of 200 bytes and n/50 snapshots of 20 KiB. */
static void fill(struct db *db, int64_t m, int n)
{
	static unsigned char jpeg[20000] = { 0xff, 0xd8 };
	char payload[200];
	char err[256];

	memset(payload, 'p', sizeof(payload));
	for (int i = 0; i < n; i++) {
		struct db_raw r = { 100 + i, 0, "piezo", "edge", i % 8, payload, sizeof(payload) };

		assert_int_equal(db_raw_append(db, m, &r, 1, err, sizeof(err)), 0);
		if (i % 50 == 0)
			assert_int_equal(db_snapshot_add(db, m, 0, 100 + i, jpeg, sizeof(jpeg), err, sizeof(err)), 0);
	}
	assert_int_equal(db_raw_flush(db, err, sizeof(err)), 0);
}

static int64_t count(struct db *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v;

	assert_int_equal(sqlite3_prepare_v2(db_handle(db), sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* db_raw_append is all or nothing inside the batch: its caller keeps a
 * failed call's rows and offers them again, so a row of that call left in
 * the batch would be committed twice. Refused at its 3rd row (no kind) or
 * failed there in SQLite (a trigger aborting the insert), no row of the
 * call is committed, while an earlier call's rows in that batch are. A
 * failure that rolled SQLite's whole transaction back takes the batch with
 * it, and the next call opens another. */
static void test_db_raw_append_is_all_or_nothing_within_the_batch(void **state)
{
	struct db_test_fx *f = *state;
	struct db_raw ok[2] = {
		{ 10, 0, "piezo", "edge", 1, NULL, 0 },
		{ 11, 0, "piezo", "edge", 2, NULL, 0 },
	};
	struct db_raw bad[3] = {
		{ 20, 0, "piezo", "edge", 3, NULL, 0 },
		{ 21, 0, "piezo", "edge", 4, NULL, 0 },
		{ 22, 0, "piezo", NULL, 5, NULL, 0 },
	};
	char err[256];
	int64_t m;

	assert_int_equal(db_match_start(f->db, HEADER, 1, &m, err, sizeof(err)), 0);
	assert_int_equal(sqlite3_exec(db_handle(f->db),
		"CREATE TEMP TRIGGER test_abort BEFORE INSERT ON raw_inputs WHEN NEW.kind = 'abort'"
		" BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;"
		"CREATE TEMP TRIGGER test_rollback BEFORE INSERT ON raw_inputs WHEN NEW.kind = 'rollback'"
		" BEGIN SELECT RAISE(ROLLBACK, 'rolled back by the test'); END;", NULL, NULL, NULL), SQLITE_OK);

	assert_int_equal(db_raw_append(f->db, m, ok, 2, err, sizeof(err)), 0);
	assert_int_equal(db_raw_append(f->db, m, bad, 3, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "raw input 3: needs a source and a kind");
	bad[2].kind = "abort";
	assert_int_equal(db_raw_append(f->db, m, bad, 3, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "refused by the test"));
	assert_int_equal(db_raw_flush(f->db, err, sizeof(err)), 0);
	assert_int_equal(count(f->db, "SELECT count(*) FROM raw_inputs"), 2);
	assert_int_equal(count(f->db, "SELECT count(*) FROM raw_inputs WHERE t_ns IN (10, 11)"), 2);

	/* SQLite ends the transaction: the batch's earlier rows go with it. */
	ok[0].t_ns = 30;
	ok[1].t_ns = 31;
	bad[2].kind = "rollback";
	assert_int_equal(db_raw_append(f->db, m, ok, 1, err, sizeof(err)), 0);
	assert_int_equal(db_raw_append(f->db, m, bad, 3, err, sizeof(err)), -EINVAL);
	assert_int_equal(db_raw_flush(f->db, err, sizeof(err)), 0);
	assert_int_equal(db_raw_append(f->db, m, &ok[1], 1, err, sizeof(err)), 0);
	assert_int_equal(db_raw_flush(f->db, err, sizeof(err)), 0);
	assert_int_equal(count(f->db, "SELECT count(*) FROM raw_inputs"), 3);
	assert_int_equal(count(f->db, "SELECT count(*) FROM raw_inputs WHERE t_ns = 31"), 1);
}

static void test_db_retention_prunes_finished_matches_snapshots_first(void **state)
{
	struct db_test_fx *f = *state;
	struct db_retention_report rep;
	char err[256];
	int64_t old, live, used;

	old = two_throws(f->db);
	fill(f->db, old, 2000);
	assert_int_equal(db_match_end(f->db, old, FINAL, 9000, err, sizeof(err)), 0);
	live = two_throws(f->db);
	fill(f->db, live, 2000);
	used = db_bytes_used(f->db);
	assert_true(used > 1000000);

	/* Under budget: nothing goes. */
	assert_int_equal(db_retention_run(f->db, used + 1, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.snapshots + rep.raw, 0);

	/* A little over: some of the old match's snapshots, no raw inputs. */
	assert_int_equal(db_retention_run(f->db, used - 100000, &rep, err, sizeof(err)), 0);
	assert_true(rep.snapshots > 0);
	assert_int_equal(rep.raw, 0);
	assert_true(rep.bytes_after <= used - 100000);
	assert_int_equal(count(f->db, "SELECT count(*) FROM snapshots WHERE match_id = 2"), 40);

	/* Far over: everything prunable of the old match, nothing of the live one. */
	assert_int_equal(db_retention_run(f->db, 1, &rep, err, sizeof(err)), 0);
	assert_int_equal(count(f->db, "SELECT count(*) FROM snapshots WHERE match_id = 1"), 0);
	assert_int_equal(count(f->db, "SELECT count(*) FROM raw_inputs WHERE match_id = 1"), 0);
	assert_int_equal(count(f->db, "SELECT count(*) FROM raw_inputs WHERE match_id = 2"), 2000);
	assert_int_equal(count(f->db, "SELECT count(*) FROM rulings"), 4);
	assert_int_equal(count(f->db, "SELECT count(*) FROM entries"), 4);
	assert_int_equal(count(f->db, "SELECT count(*) FROM observations"), 2);
	/* The pages went back to the file system. */
	assert_int_equal(count(f->db, "PRAGMA freelist_count"), 0);
	assert_true(db_bytes_used(f->db) < used / 2 + 200000);
}

/* The first row of a one-column text query, copied into buf. */
static const char *text_of(struct db *db, const char *sql, char *buf, size_t len)
{
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_prepare_v2(db_handle(db), sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return buf;
}

static void test_db_disk_full_fails_clearly_and_keeps_earlier_data(void **state)
{
	struct db_test_fx *f = *state;
	static unsigned char jpeg[60000] = { 0xff, 0xd8 };
	static char big[20000];
	const char *r3[] = { RULING(3, 2, 0, "false") };
	struct db_entry e3 = { .line = big, .t_ns = 7000, .rulings = r3, .n_rulings = 1 };
	struct db_match_info info;
	struct capture cap;
	char err[256], sql[64], ok[16], *out;
	int64_t m = two_throws(f->db);

	/* A throw line long enough to need new pages (overflow pages). */
	snprintf(big, sizeof(big), "{\"type\":\"throw\",\"note\":\"%0*d\"}", 15000, 0);
	snprintf(sql, sizeof(sql), "PRAGMA max_page_count = %lld",
		 (long long)count(f->db, "PRAGMA page_count"));
	count(f->db, sql);

	assert_int_equal(db_append(f->db, m, &e3, NULL, err, sizeof(err)), -ENOSPC);
	assert_non_null(strstr(err, "full"));
	assert_non_null(strstr(err, f->path));
	assert_string_equal(db_fault(f->db, NULL), "database or disk is full");
	/* No throw without its ruling, nothing half-written. */
	assert_int_equal(db_match_get(f->db, m, &info, err, sizeof(err)), 0);
	assert_int_equal(info.throws, 2);
	assert_int_equal(count(f->db, "SELECT count(*) FROM rulings"), 2);
	/* A batched snapshot fails the same way, at the insert or the flush. */
	{
		int rc = db_snapshot_add(f->db, m, 0, 5000, jpeg, sizeof(jpeg), err, sizeof(err));

		if (!rc)
			rc = db_raw_flush(f->db, err, sizeof(err));
		assert_int_equal(rc, -ENOSPC);
	}
	db_close(f->db);
	/* Readable afterwards, with everything committed before. */
	f->db = db_open(f->path, 0, err, sizeof(err));
	assert_non_null(f->db);
	cap_open(&cap);
	assert_int_equal(db_export(f->db, m, cap.f, err, sizeof(err)), 0);
	out = cap_close(&cap);
	assert_string_equal(out, HEADER "\n" THROW1 "\n" THROW2 "\n");
	free(out);
	assert_string_equal(text_of(f->db, "PRAGMA integrity_check", ok, sizeof(ok)), "ok");
	/* And it takes the throw once there is room. */
	assert_int_equal(db_append(f->db, m, &e3, NULL, err, sizeof(err)), 0);
}

/* What the store itself failed at is counted and worded without the path
 * (the public health strip's); a request it refuses is not its failure. */
static void test_db_fault_counts_the_files_failures_not_refused_requests(void **state)
{
	struct db_test_fx *f = *state;
	const char *r3[] = { RULING(3, 2, 0, "false") }, *r9[] = { RULING(9, 2, 0, "false") };
	struct db_entry e3 = { .line = THROW1, .t_ns = 7000, .rulings = r3, .n_rulings = 1 };
	struct db_entry e9 = { .line = THROW1, .t_ns = 7000, .rulings = r9, .n_rulings = 1 };
	int64_t m = two_throws(f->db);
	unsigned long n;
	sqlite3 *other;
	char err[256];

	assert_string_equal(db_fault(f->db, &n), "");
	assert_int_equal(n, 0);
	assert_int_equal(db_append(f->db, m + 9, &e3, NULL, err, sizeof(err)), -ENOENT);
	assert_int_equal(db_append(f->db, m, &e9, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(db_fault(f->db, &n), "");
	assert_int_equal(n, 0);

	/* Another program holds the write lock. */
	assert_int_equal(sqlite3_open(f->path, &other), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
	db_set_busy_timeout(f->db, 0);
	assert_int_equal(db_append(f->db, m, &e3, NULL, err, sizeof(err)), -EBUSY);
	assert_non_null(strstr(err, f->path));
	assert_string_equal(db_fault(f->db, &n), "database is locked");
	assert_int_equal(n, 1);
	sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(other);

	/* Writing again leaves the count where it was. */
	assert_int_equal(db_append(f->db, m, &e3, NULL, err, sizeof(err)), 0);
	db_fault(f->db, &n);
	assert_int_equal(n, 1);
}

/* A write that reached the file is counted; a refused one, a read, a raw
 * input still in the batch and a write the lock kept out are not: the
 * health strip turns green on this count, not on nothing having failed. */
static void test_db_commits_counts_writes_that_reached_the_file(void **state)
{
	struct db_test_fx *f = *state;
	const char *r3[] = { RULING(3, 2, 0, "false") }, *r9[] = { RULING(9, 2, 0, "false") };
	struct db_entry e3 = { .line = THROW1, .t_ns = 7000, .rulings = r3, .n_rulings = 1 };
	struct db_entry e9 = { .line = THROW1, .t_ns = 7000, .rulings = r9, .n_rulings = 1 };
	struct db_raw raw = { .t_ns = 6000, .source = "console", .kind = "confirm", .channel = -1 };
	struct db_match_info *ms = NULL;
	int64_t m = two_throws(f->db);
	unsigned long n = db_commits(f->db);
	size_t nm;
	sqlite3 *other;
	char err[256];

	assert_int_equal(n, 3);	/* the start and two throws */
	assert_int_equal(db_append(f->db, m, &e9, NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(db_matches(f->db, &ms, &nm, err, sizeof(err)), 0);
	free(ms);
	assert_int_equal(db_raw_append(f->db, m, &raw, 1, err, sizeof(err)), 0);
	assert_int_equal(db_commits(f->db), n);
	assert_int_equal(db_raw_flush(f->db, err, sizeof(err)), 0);
	assert_int_equal(db_commits(f->db), ++n);
	assert_int_equal(db_raw_flush(f->db, err, sizeof(err)), 0);	/* nothing to commit */
	assert_int_equal(db_commits(f->db), n);
	assert_int_equal(db_calibration_add(f->db, "piezo", "{}", 6500, err, sizeof(err)), 0);
	assert_int_equal(db_commits(f->db), ++n);

	/* Another program holds the write lock: the throw does not reach the file. */
	assert_int_equal(sqlite3_open(f->path, &other), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
	db_set_busy_timeout(f->db, 0);
	assert_int_equal(db_append(f->db, m, &e3, NULL, err, sizeof(err)), -EBUSY);
	assert_int_equal(db_commits(f->db), n);
	sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(other);
	assert_int_equal(db_append(f->db, m, &e3, NULL, err, sizeof(err)), 0);
	assert_int_equal(db_commits(f->db), ++n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_db_create_sets_wal_version_and_id, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_open_missing_without_create_is_enoent, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_match_start_rejects_a_bad_header, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_append_numbers_throws_and_lists_the_match, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_append_rejects_a_ruling_for_another_throw_and_writes_nothing, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_correction_is_a_new_row_and_supersedes_later_rulings, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_rulings_of_any_line_kind_keep_the_judges_order, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_log_rows_cannot_be_updated_or_deleted, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_export_is_the_lines_in_order, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_match_end_stores_final_and_closes_the_match, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_match_newest_finds_the_newest_and_the_newest_not_ended, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_replay_gives_a_throws_inputs_in_time_order, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_replay_names_a_missing_match, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_raw_tagged_gives_a_throw_not_yet_logged, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_replay_writes_json_for_any_stored_bytes, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_raw_inputs_are_durable_only_after_flush, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_calibration_in_force_is_the_latest, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_raw_append_is_all_or_nothing_within_the_batch, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_retention_prunes_finished_matches_snapshots_first, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_disk_full_fails_clearly_and_keeps_earlier_data, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_fault_counts_the_files_failures_not_refused_requests, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_commits_counts_writes_that_reached_the_file, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_match_keeps_its_table, db_test_setup, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
