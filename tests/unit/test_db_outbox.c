/* db/outbox.c: the rulings table read as MQTT's outbox (sequence numbers
 * without a gap, each throw's revisions, what kind of ruling each is) and
 * the acknowledged number kept across a reopen, never going backwards. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "db/db.h"
#include "tests/support/db_fx.h"

/* Three throws; throw 2 corrected, then throw 3 undone (a correction
 * with "undo"): each recomputes the rulings from its throw on. */
static const char LOG[] =
	"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]}}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\"},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"correct\",\"throw\":2,\"events\":[{\"at\":\"table\",\"half\":\"A\"},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"correct\",\"throw\":3,\"undo\":true,\"events\":[{\"at\":\"floor\"}]}\n";

static void test_db_outbox_numbers_every_ruling_once_in_order(void **state)
{
	struct db_test_fx *f = *state;
	/* throw, revision, kind of each ruling row in order */
	static const struct { int throw_no, revision; const char *kind; } want[] = {
		{ 1, 1, "ruling" }, { 2, 1, "ruling" }, { 3, 1, "ruling" },
		{ 2, 2, "correction" }, { 3, 2, "correction" },
		{ 3, 3, "undo" },
	};
	struct db_outbox_msg m;
	char err[256];
	int64_t match, after = 0, last = -1;
	size_t n = 0;

	assert_int_equal(db_outbox_last(f->db, &last, err, sizeof(err)), 0);
	assert_int_equal(last, 0);
	assert_int_equal(db_import(f->db, "t.jsonl", LOG, sizeof(LOG) - 1, 1, &match, err, sizeof(err)), 0);
	while (db_outbox_next(f->db, after, &m, err, sizeof(err)) == 0) {
		assert_true(n < sizeof(want) / sizeof(want[0]));
		assert_int_equal(m.seq, after + 1);
		assert_int_equal(m.match, match);
		assert_int_equal(m.throw_no, want[n].throw_no);
		assert_int_equal(m.revision, want[n].revision);
		assert_string_equal(m.kind, want[n].kind);
		assert_non_null(strstr(m.line, "\"type\":\"ruling\""));
		after = m.seq;
		db_outbox_msg_free(&m);
		n++;
	}
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	assert_int_equal(db_outbox_last(f->db, &last, err, sizeof(err)), 0);
	assert_int_equal(last, after);
	assert_int_equal(db_outbox_next(f->db, after, &m, err, sizeof(err)), -ENOENT);
	/* From the middle, as after a reconnect. */
	assert_int_equal(db_outbox_next(f->db, 3, &m, err, sizeof(err)), 0);
	assert_int_equal(m.seq, 4);
	assert_string_equal(m.table_id, "");	/* a header without a table */
	db_outbox_msg_free(&m);
}

/* Each ruling carries its own match's table id (another table's match
 * imported here is not this table's). */
static void test_db_outbox_gives_the_match_table(void **state)
{
	static const char T9[] = "{\"type\":\"match\",\"game\":\"beerdie\",\"table\":{\"id\":\"t9\"},"
				 "\"teams\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]}}\n"
				 "{\"type\":\"throw\",\"events\":[{\"at\":\"floor\"}]}\n";
	struct db_test_fx *f = *state;
	struct db_outbox_msg m;
	char err[256];
	int64_t match;

	assert_int_equal(db_import(f->db, "t9.jsonl", T9, sizeof(T9) - 1, 1, &match, err, sizeof(err)), 0);
	assert_int_equal(db_outbox_next(f->db, 0, &m, err, sizeof(err)), 0);
	assert_int_equal(m.match, match);
	assert_string_equal(m.table_id, "t9");
	db_outbox_msg_free(&m);
}

static void test_db_mqtt_acked_is_kept_and_never_goes_back(void **state)
{
	struct db_test_fx *f = *state;
	char err[256];
	int64_t seq = -1;

	assert_int_equal(db_mqtt_acked_get(f->db, &seq, err, sizeof(err)), 0);
	assert_int_equal(seq, 0);
	assert_int_equal(db_mqtt_acked_set(f->db, 7, err, sizeof(err)), 0);
	assert_int_equal(db_mqtt_acked_set(f->db, 5, err, sizeof(err)), 0);	/* a late one */
	assert_int_equal(db_mqtt_acked_get(f->db, &seq, err, sizeof(err)), 0);
	assert_int_equal(seq, 7);
	db_close(f->db);
	f->db = db_open(f->path, 0, err, sizeof(err));
	assert_non_null(f->db);
	assert_int_equal(db_mqtt_acked_get(f->db, &seq, err, sizeof(err)), 0);
	assert_int_equal(seq, 7);
	/* Inside a batch of raw inputs: committed at once, with the batch so
	 * far (another connection sees it before any flush). */
	{
		struct db_raw raw = { .t_ns = 1, .source = "piezo", .kind = "edge", .channel = 1 };
		struct db *other;
		int64_t m, seen = -1;

		assert_int_equal(db_match_start(f->db, "{\"type\":\"match\",\"game\":\"beerdie\"}", 1, &m,
						err, sizeof(err)), 0);
		assert_int_equal(db_raw_append(f->db, m, &raw, 1, err, sizeof(err)), 0);
		assert_int_equal(db_mqtt_acked_set(f->db, 9, err, sizeof(err)), 0);
		other = db_open(f->path, DB_OPEN_READONLY, err, sizeof(err));
		assert_non_null(other);
		assert_int_equal(db_mqtt_acked_get(other, &seen, err, sizeof(err)), 0);
		assert_int_equal(seen, 9);
		db_close(other);
		assert_int_equal(db_raw_flush(f->db, err, sizeof(err)), 0);
	}
	db_close(f->db);
	f->db = db_open(f->path, 0, err, sizeof(err));
	assert_non_null(f->db);
	assert_int_equal(db_mqtt_acked_get(f->db, &seq, err, sizeof(err)), 0);
	assert_int_equal(seq, 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_db_outbox_numbers_every_ruling_once_in_order,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_outbox_gives_the_match_table,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_mqtt_acked_is_kept_and_never_goes_back,
						db_test_setup, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
