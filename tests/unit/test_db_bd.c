/* db/ with the codec and the Beer Die engine: storing throws as the daemon
 * does, corrections, load and refold, and the import/export round trips. */
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
#include "tests/support/db_sim.h"

static void assert_same_state(const struct bd_state *a, const struct bd_state *b)
{
	assert_int_equal(a->score[0], b->score[0]);
	assert_int_equal(a->score[1], b->score[1]);
	assert_int_equal(a->n_throws, b->n_throws);
	assert_int_equal(a->slot, b->slot);
	assert_int_equal(a->over, b->over);
	assert_int_equal(a->winner, b->winner);
	for (int p = 0; p < BD_PLAYERS; p++)
		assert_int_equal(a->must_follow[p], b->must_follow[p]);
}

/* Plays n throws of a simulated match into db as the daemon would, with a
 * correction every 40 throws; *out the state it was told after the last. */
static int64_t play(struct db *db, uint64_t seed, int n, bool end, struct bd_state *out)
{
	struct mlog_bd *log;
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct sim_rng rng;
	char err[256];
	int64_t m, t_ns = 1000000000;

	sim_rng_seed(&rng, seed);
	db_test_long_match(&cfg);
	cfg.house.target_points = 60;
	log = mlog_bd_new("sim", &cfg);
	assert_non_null(log);
	assert_int_equal(mlog_bd_set_rolloff(log, 5, BD_TEAM_B, true), 0);
	assert_int_equal(db_bd_start(db, log, t_ns, &m, err, sizeof(err)), 0);
	cfg = log->cfg;
	mlog_bd_free(log);
	bd_state_init(&s, &cfg);
	for (int i = 1; i <= n && !s.over; i++) {
		struct bd_throw t;
		struct bd_ruling r;

		t_ns += 2000000000;
		if (db_test_store_throw(db, m, &rng, &cfg, &s, t_ns, NULL, 0, &t, &r, err, sizeof(err)))
			fail_msg("throw %d: %s", i, err);
		bd_apply(&s, &cfg, &r);
		if (i % 40 == 0) {
			/* An official turns throw i - 3 into a plain catch. */
			memset(&t, 0, sizeof(t));
			t.thrower = BD_NOBODY;
			t.dye_up = true;
			t.events[t.n_events++] = (struct bd_event){ .kind = BD_EV_FLOOR, .player = BD_NOBODY };
			if (db_bd_correct(db, m, i - 3, &t, t_ns + 1, &s, err, sizeof(err)))
				fail_msg("correct %d: %s", i - 3, err);
		}
	}
	if (end)
		assert_int_equal(db_bd_end(db, m, t_ns + 1, err, sizeof(err)), 0);
	*out = s;
	return m;
}

static char *capture_export(struct db *db, int64_t m, size_t *len)
{
	char *buf = NULL, err[256];
	FILE *f = open_memstream(&buf, len);

	assert_int_equal(db_export(db, m, f, err, sizeof(err)), 0);
	fclose(f);
	return buf;
}

static char *capture_rulings(struct db *db, int64_t m)
{
	char *buf = NULL, err[256];
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(db_rulings_write(db, m, f, err, sizeof(err)), 0);
	fclose(f);
	return buf;
}

static void test_db_bd_refold_equals_the_state_the_daemon_was_told(void **state)
{
	struct db_test_fx *f = *state;
	struct mlog_bd_result res;
	struct mlog_bd *log;
	struct bd_state told;
	struct db_match_info info;
	char err[256];
	int64_t m = play(f->db, 7, 120, false, &told);

	assert_int_equal(db_bd_load(f->db, m, &log, &res, err, sizeof(err)), 0);
	assert_same_state(&res.state, &told);
	assert_int_equal(res.n, (size_t)told.n_throws);
	assert_true(log->rolloff.present);
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
	assert_int_equal(db_match_get(f->db, m, &info, err, sizeof(err)), 0);
	assert_int_equal(info.corrections, 3);
	assert_int_equal(info.throws, told.n_throws);
	/* Each throw's events became observations, with their sources. */
	{
		sqlite3_stmt *st;

		sqlite3_prepare_v2(db_handle(f->db),
			"SELECT count(*), count(DISTINCT source) FROM observations", -1, &st, NULL);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_true(sqlite3_column_int(st, 0) >= 120);
		assert_true(sqlite3_column_int(st, 1) >= 2);
		sqlite3_finalize(st);
	}
}

static void test_db_bd_judge_of_export_reproduces_the_stored_rulings(void **state)
{
	struct db_test_fx *f = *state;
	struct bd_state told;
	char err[256], *judged, *exported, *stored;
	size_t len, jlen;
	int64_t m = play(f->db, 11, 200, true, &told);

	exported = capture_export(f->db, m, &len);
	assert_int_equal(mlog_judge("export", exported, len, &judged, &jlen, err, sizeof(err)), 0);
	stored = capture_rulings(f->db, m);
	assert_string_equal(judged, stored);
	assert_non_null(strstr(stored, "\"corrected\":true"));
	free(judged);
	free(stored);
	free(exported);
}

static void test_db_bd_import_of_export_same_rulings_export_of_import_same_bytes(void **state)
{
	struct db_test_fx *f = *state;
	struct bd_state told;
	char err[256], path2[128], *a, *b, *ra, *rb;
	size_t la, lb;
	int64_t m = play(f->db, 23, 200, true, &told), m2;
	struct db *other;

	snprintf(path2, sizeof(path2), "%s/other.db", f->dir);
	other = db_open(path2, DB_OPEN_CREATE, err, sizeof(err));
	assert_non_null(other);
	a = capture_export(f->db, m, &la);
	if (db_import(other, "exported", a, la, 5, &m2, err, sizeof(err)))
		fail_msg("%s", err);
	b = capture_export(other, m2, &lb);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	ra = capture_rulings(f->db, m);
	rb = capture_rulings(other, m2);
	assert_string_equal(ra, rb);
	/* The import's throws carry the rulings shown at the time: throw 1's
	 * first ruling and its corrected one are both there. */
	{
		sqlite3_stmt *st;
		int64_t n1, n2;

		sqlite3_prepare_v2(db_handle(f->db), "SELECT count(*) FROM rulings", -1, &st, NULL);
		sqlite3_step(st);
		n1 = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		sqlite3_prepare_v2(db_handle(other), "SELECT count(*) FROM rulings", -1, &st, NULL);
		sqlite3_step(st);
		n2 = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		assert_int_equal(n1, n2);
	}
	free(a);
	free(b);
	free(ra);
	free(rb);
	db_close(other);
}

static void test_db_bd_import_refuses_a_bad_log_and_stores_nothing(void **state)
{
	struct db_test_fx *f = *state;
	static const char bad[] =
		"{\"type\":\"match\",\"game\":\"beerdie\"}\n"
		"{\"type\":\"throw\",\"events\":[{\"at\":\"floor\"}]}\n"
		"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"C\"}]}\n";
	struct db_match_info *v;
	char err[256];
	size_t n;
	int64_t m;

	assert_int_equal(db_import(f->db, "bad.jsonl", bad, sizeof(bad) - 1, 1, &m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "bad.jsonl:3"));
	assert_int_equal(db_import(f->db, "empty", "", 0, 1, &m, err, sizeof(err)), -EINVAL);
	assert_int_equal(db_matches(f->db, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	free(v);
}

static void test_db_bd_correction_of_a_missing_throw_is_refused(void **state)
{
	struct db_test_fx *f = *state;
	struct bd_state told;
	struct bd_throw t = { .thrower = BD_NOBODY, .dye_up = true, .n_events = 1,
			      .events = { { .kind = BD_EV_FLOOR, .player = BD_NOBODY } } };
	struct db_match_info info;
	char err[256];
	int64_t m = play(f->db, 3, 5, false, &told);

	assert_int_equal(db_bd_correct(f->db, m, 9, &t, 1, NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(db_match_get(f->db, m, &info, err, sizeof(err)), 0);
	assert_int_equal(info.corrections, 0);
	assert_int_equal(db_bd_correct(f->db, m, 2, &t, 1, NULL, err, sizeof(err)), 0);
}

static int write_item(const struct db_item *it, void *ctx)
{
	return db_item_write(it, ctx);
}

static void test_db_bd_replay_of_a_stored_throw_has_its_raw_inputs(void **state)
{
	struct db_test_fx *f = *state;
	struct bd_state told;
	char *buf = NULL, err[256];
	size_t len;
	FILE *mem = open_memstream(&buf, &len);
	int64_t m = play(f->db, 5, 3, false, &told);
	int raw = 0;

	assert_int_equal(db_replay(f->db, m, 2, write_item,
				   mem, err, sizeof(err)), 0);
	fclose(mem);
	for (char *p = buf; (p = strstr(p, "\"item\":\"raw\"")); p++)
		raw++;
	assert_int_equal(raw, DB_TEST_RAW_PER_THROW);
	assert_non_null(strstr(buf, "\"item\":\"observation\""));
	assert_non_null(strstr(buf, "\"item\":\"ruling\""));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_db_bd_refold_equals_the_state_the_daemon_was_told, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_bd_judge_of_export_reproduces_the_stored_rulings, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_bd_import_of_export_same_rulings_export_of_import_same_bytes, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_bd_import_refuses_a_bad_log_and_stores_nothing, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_bd_correction_of_a_missing_throw_is_refused, db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_bd_replay_of_a_stored_throw_has_its_raw_inputs, db_test_setup, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
