/*
 * daemon/history.c: the player figures folded from a judged log (core's
 * mlog_bd_replay, as db_bd_load runs it), the history kept between
 * requests and folded in slices (history_cache.c), the CSV writer's RFC 4180
 * quoting, and web_parse_name, the check on a player's name in a path.
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

#include <unistd.h>

#include "core/core.h"
#include "daemon/history.h"
#include "db/db.h"
#include "web/web.h"

#define HEADER "{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"ann\",\"bo\"],\"B\":[\"cy\",\"d, \\\"i\\\"\"]}}\n"

/* 1 ann: floor on B's half, 1 to A. 2 cy: caught by bo, later corrected
 * (line 8) to caught by bo and dropped. 3 bo: a cup hit on cy's cup. 4 di:
 * a five on the table (kill n' fill). 5 ann: a re-toss, counted for nothing
 * (its cup hit too). 6 ann: a sink in di's cup. */
static const char log_text[] = HEADER
	"{\"type\":\"throw\",\"thrower\":\"ann\",\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":1.9,\"y\":0.4},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"thrower\":\"cy\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.6,\"y\":0.4},{\"at\":\"catch\",\"by\":\"bo\",\"hands\":1}]}\n"
	"{\"type\":\"throw\",\"thrower\":\"bo\",\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":1.9,\"y\":0.4},{\"at\":\"cup\",\"owner\":\"cy\",\"sink\":false},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"thrower\":\"d, \\\"i\\\"\",\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.6,\"y\":0.4},{\"at\":\"rest\",\"face\":5}]}\n"
	"{\"type\":\"throw\",\"thrower\":\"ann\",\"events\":[{\"at\":\"cup\",\"owner\":\"cy\",\"sink\":false},{\"at\":\"retoss\"}]}\n"
	"{\"type\":\"throw\",\"thrower\":\"ann\",\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":1.9,\"y\":0.4},{\"at\":\"cup\",\"owner\":\"d, \\\"i\\\"\",\"sink\":true}]}\n"
	"{\"type\":\"correct\",\"throw\":2,\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.6,\"y\":0.4},{\"at\":\"catch\",\"by\":\"bo\",\"hands\":1},{\"at\":\"floor\"}]}\n";

static void fold(struct dd_stats *st, const char *text)
{
	struct mlog_bd *log = NULL;
	struct mlog_bd_result res = { 0 };
	char err[256];

	assert_int_equal(mlog_bd_parse("t.jsonl", text, strlen(text), &log, err, sizeof(err)), 0);
	assert_int_equal(mlog_bd_replay(log, &res, err, sizeof(err)), 0);
	assert_int_equal(dd_stats_add(st, log, &res), 0);
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
}

static void test_fold_figures(void **state)
{
	struct dd_stats st = { 0 };
	const struct dd_pstats *ann, *bo, *cy, *di;

	(void)state;
	fold(&st, log_text);
	fold(&st, log_text);	/* the same players twice: two matches each */
	dd_stats_sort(&st);
	assert_int_equal(st.n, 4);
	assert_string_equal(st.p[0].name, "ann");
	ann = dd_stats_find(&st, "ann");
	bo = dd_stats_find(&st, "bo");
	cy = dd_stats_find(&st, "cy");
	di = dd_stats_find(&st, "d, \"i\"");
	assert_non_null(ann);
	assert_non_null(bo);
	assert_non_null(cy);
	assert_non_null(di);
	assert_null(dd_stats_find(&st, "nobody"));
	assert_int_equal(ann->matches, 2);
	assert_int_equal(ann->won, 0);	/* not over */
	/* ann: throw 1 (1 point) and throw 6's sink; the re-toss's cup hit not. */
	assert_int_equal(ann->sinks, 2);
	assert_int_equal(ann->cup_hits, 0);
	assert_int_equal(bo->cup_hits, 2);
	assert_int_equal(bo->points, 2 * 2);	/* BD-P7: a cup hit on the floor scores 2 */
	/* The correction stands: bo's catch, then the floor. */
	assert_int_equal(bo->catches, 2);
	assert_int_equal(bo->drops, 2);
	assert_int_equal(cy->catches, 0);
	assert_int_equal(di->fives, 2);
	assert_true(di->kill_n_fills >= 2);	/* BD-O2, and the sink in di's cup */
	assert_int_equal(cy->sinks + cy->cup_hits + cy->fives, 0);
	dd_stats_free(&st);
	assert_int_equal(st.n, 0);
}

static char *csv_of(const char *field)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	dd_csv_field(f, field);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Five stored matches (the log above, each with its own team name) read
 * two folds at a time: -EAGAIN saying how far, then the same figures as
 * a fold of every match; a match changed later is folded again, the rest
 * not (a refresh allowed no fold at all still succeeds). */
static void test_cache_slices(void **state)
{
	char dir[] = "/tmp/dyeref-history-XXXXXX", path[64], err[256], text[sizeof(log_text) + 64];
	struct dd_stats all = { 0 }, kept = { 0 };
	struct dd_history *h = dd_history_new();
	struct db *db;
	int64_t id = 0;

	(void)state;
	assert_non_null(h);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/h.db", dir);
	db = db_open(path, DB_OPEN_CREATE, err, sizeof(err));
	assert_non_null(db);
	for (int i = 0; i < 5; i++) {
		/* The header without its closing brace and newline, then a name. */
		int n = snprintf(text, sizeof(text), "%.*s,\"names\":{\"A\":\"T%d\"}}\n%s",
				 (int)strlen(HEADER) - 2, HEADER, i, log_text + strlen(HEADER));

		assert_int_equal(db_import(db, "t.jsonl", text, (size_t)n, 0, &id, err, sizeof(err)), 0);
	}
	assert_int_equal(dd_history_refresh(h, db, 2, err, sizeof(err)), -EAGAIN);
	assert_non_null(strstr(err, "(2 of 5)"));
	assert_int_equal(dd_history_refresh(h, db, 2, err, sizeof(err)), -EAGAIN);
	assert_non_null(strstr(err, "(4 of 5)"));
	assert_int_equal(dd_history_refresh(h, db, 2, err, sizeof(err)), 0);
	assert_int_equal(dd_history_refresh(h, db, 0, err, sizeof(err)), 0);
	assert_int_equal(dd_history_stats(h, &kept, err, sizeof(err)), 0);
	assert_int_equal(dd_stats_collect(db, &all, err, sizeof(err)), 0);
	assert_int_equal(kept.n, all.n);
	assert_int_equal(kept.n, 4);
	assert_memory_equal(kept.p, all.p, all.n * sizeof(all.p[0]));
	assert_int_equal(dd_stats_find(&kept, "ann")->matches, 5);
	dd_stats_free(&kept);
	dd_stats_free(&all);
	/* One more stored: only it needs a fold. */
	assert_int_equal(db_import(db, "t.jsonl", log_text, strlen(log_text), 0, &id, err, sizeof(err)), 0);
	assert_int_equal(dd_history_refresh(h, db, 0, err, sizeof(err)), -EAGAIN);
	assert_non_null(strstr(err, "(5 of 6)"));
	assert_int_equal(dd_history_refresh(h, db, 1, err, sizeof(err)), 0);
	assert_int_equal(dd_history_stats(h, &kept, err, sizeof(err)), 0);
	assert_int_equal(dd_stats_find(&kept, "ann")->matches, 6);
	dd_stats_free(&kept);
	dd_history_free(h);
	db_close(db);
	unlink(path);
	snprintf(path, sizeof(path), "%s/h.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/h.db-shm", dir);
	unlink(path);
	rmdir(dir);
}

static void test_csv_field(void **state)
{
	static const char *const cases[][2] = {
		{ "plain", "plain" },
		{ "", "" },
		{ "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "two\nlines", "\"two\nlines\"" },
		{ "cr\r", "\"cr\r\"" },
		{ "Zo\xc3\xab", "Zo\xc3\xab" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = csv_of(cases[i][0]);

		assert_string_equal(got, cases[i][1]);
		free(got);
	}
}

static void test_stats_csv(void **state)
{
	struct dd_stats st = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	fold(&st, log_text);
	dd_stats_sort(&st);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	dd_stats_csv(&st, f);
	assert_int_equal(fclose(f), 0);
	assert_true(!strncmp(buf, "player,matches,won,points,sinks,cup_hits,catches,drops,fives,kill_n_fills\r\n", 74));
	/* One row per player, CRLF, the name with a comma and quotes quoted. */
	assert_non_null(strstr(buf, "\r\n\"d, \"\"i\"\"\",1,0,"));
	assert_non_null(strstr(buf, "\r\nbo,1,0,2,0,1,1,1,0,"));
	len = 0;
	for (const char *p = buf; (p = strstr(p, "\r\n")); p += 2)
		len++;
	assert_int_equal(len, 5);
	free(buf);
	dd_stats_free(&st);
}

static int name(const char *seg, char *out, size_t outlen)
{
	return web_parse_name(seg, strlen(seg), out, outlen);
}

static void test_parse_name(void **state)
{
	char out[WEB_PLAYER_NAME_MAX];
	static const char *const bad[] = {
		"", "%", "%4", "%zz", "a%2Fb", "a/b", "%00", "%0a", "tab%09", "%7f", "..", ".", "%2e%2e",
		"%C3", "%C3%28", "%ED%A0%80", "%F5%80%80%80", "%C0%AF", "back%5Cslash",
	};

	(void)state;
	assert_int_equal(name("Ann", out, sizeof(out)), 0);
	assert_string_equal(out, "Ann");
	assert_int_equal(name("Jo%20%22JJ%22%2C%20Jr", out, sizeof(out)), 0);
	assert_string_equal(out, "Jo \"JJ\", Jr");
	assert_int_equal(name("Zo%C3%AB", out, sizeof(out)), 0);
	assert_string_equal(out, "Zo\xc3\xab");
	assert_int_equal(name("a+b", out, sizeof(out)), 0);	/* a path: '+' is a plus */
	assert_string_equal(out, "a+b");
	assert_int_equal(name("...", out, sizeof(out)), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(name(bad[i], out, sizeof(out)), -EINVAL);
	assert_int_equal(name("0123456789012345678901234567890", out, sizeof(out)), 0);
	assert_int_equal(name("01234567890123456789012345678901", out, sizeof(out)), -E2BIG);
	assert_int_equal(name("abc", out, 3), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_figures),
		cmocka_unit_test(test_cache_slices),
		cmocka_unit_test(test_csv_field),
		cmocka_unit_test(test_stats_csv),
		cmocka_unit_test(test_parse_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
