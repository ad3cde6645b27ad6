/* db/faces.c: an official's face labels, each die's latest the one read
 * back, kept through a reopen and through retention (which prunes the
 * snapshots they were cut from); what is refused stores nothing; rows
 * doctored in the file are refused on reading, not passed on. */
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
#include "db/internal.h"
#include "tests/support/db_fx.h"

static const char LOG[] =
	"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]}}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"rest\",\"face\":5}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\"},{\"at\":\"floor\"}]}\n";

static const char CROP[] = "\xff\xd8\xff\xe0 not really a JPEG";

static struct db_face_label label(int64_t match, int throw_no, int face, bool confirmed)
{
	return (struct db_face_label){
		.match = match, .throw_no = throw_no, .snapshot = 1, .face = face,
		.confirmed = confirmed, .read_face = 5, .read_confidence = 0.8,
		.crop = CROP, .crop_len = sizeof(CROP) - 1, .width = 48, .height = 40,
		.x = 24, .y = 20, .w = 12, .h = 12, .official = "Kim", .reason = "", .t_ns = 7,
	};
}

/* LOG stored: its match's id. */
static int64_t imported(struct db *db)
{
	char err[256];
	int64_t match = 0;

	if (db_import(db, "t.jsonl", LOG, sizeof(LOG) - 1, 1, &match, err, sizeof(err)))
		fail_msg("%s", err);
	return match;
}

/* Imports a match into db and gives it one label (throw 1 read as a 5). */
static void labelled(struct db *db, bool confirmed)
{
	struct db_face_label l;
	char err[256];
	int64_t match = imported(db);

	l = label(match, 1, 5, confirmed);
	assert_int_equal(db_face_label_add(db, &l, err, sizeof(err)), 0);
}

struct seen {
	struct db_face_label l[8];
	char official[8][40];
	unsigned char crop[8][64];
	size_t n;
};

static int collect(const struct db_face_label *l, void *ctx)
{
	struct seen *s = ctx;

	assert_true(s->n < 8);
	s->l[s->n] = *l;
	snprintf(s->official[s->n], sizeof(s->official[0]), "%s", l->official);
	assert_true(l->crop_len <= sizeof(s->crop[0]));
	memcpy(s->crop[s->n], l->crop, l->crop_len);
	s->n++;
	return 0;
}

static void test_db_faces_latest_label_of_each_die_is_read_back(void **state)
{
	struct db_test_fx *f = *state;
	struct db_face_label l;
	struct seen s = { 0 };
	char err[256];
	int64_t match;
	unsigned long commits;

	match = imported(f->db);
	commits = db_commits(f->db);
	l = label(match, 1, 5, true);
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), 0);
	/* Committed before returning, as a correction is. */
	assert_true(db_commits(f->db) > commits);
	/* The official changes their mind: the later word stands. */
	l = label(match, 1, 6, false);
	l.official = "Lee";
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), 0);
	l = label(match, 2, 3, false);
	l.read_face = 0;
	l.read_confidence = -1;
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), 0);
	db_close(f->db);
	f->db = db_open(f->path, 0, err, sizeof(err));
	assert_non_null(f->db);
	assert_int_equal(db_face_labels(f->db, 0, 0, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.l[0].throw_no, 1);
	assert_int_equal(s.l[0].face, 6);
	assert_false(s.l[0].confirmed);
	assert_int_equal(s.l[0].read_face, 5);
	assert_string_equal(s.official[0], "Lee");
	assert_true(s.l[0].wall_ms > 1600000000000LL);
	assert_int_equal(s.l[0].width, 48);
	assert_memory_equal(s.crop[0], CROP, sizeof(CROP) - 1);
	assert_int_equal(s.l[1].throw_no, 2);
	assert_int_equal(s.l[1].face, 3);
	assert_int_equal(s.l[1].read_face, 0);
	assert_true(s.l[1].read_confidence < 0);
	/* One throw's. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(db_face_labels(f->db, match, 2, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.l[0].face, 3);
	memset(&s, 0, sizeof(s));
	assert_int_equal(db_face_labels(f->db, match + 1, 0, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 0);
}

static void test_db_faces_refuses_what_is_out_of_range_storing_nothing(void **state)
{
	struct db_test_fx *f = *state;
	struct db_face_label l;
	struct seen s = { 0 };
	char err[256];
	int64_t match;

	match = imported(f->db);
	l = label(match, 1, 7, false);
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "face"));
	l = label(match, 1, 0, false);
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), -EINVAL);
	/* Confirming is the face read, nothing else. */
	l = label(match, 1, 4, true);
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), -EINVAL);
	l = label(match, 1, 4, false);
	l.snapshot = 0;
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), -EINVAL);
	l = label(match, 1, 4, false);
	l.crop_len = 0;
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), -EINVAL);
	l = label(match, 1, 4, false);
	l.x = 49;
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), -EINVAL);
	l = label(match, 1, 4, false);
	l.official = "";
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), -EINVAL);
	l = label(match, 3, 4, false);
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no throw 3"));
	l = label(match + 1, 1, 4, false);
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), -ENOENT);
	assert_int_equal(db_face_labels(f->db, 0, 0, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 0);
}

/* Retention prunes a finished match's snapshots; its labels stay. */
static void test_db_faces_outlive_retention(void **state)
{
	struct db_test_fx *f = *state;
	struct db_face_label l;
	struct db_retention_report rep;
	struct seen s = { 0 };
	static char jpeg[200000];
	char err[256];
	int64_t match;

	match = imported(f->db);
	jpeg[0] = (char)0xff;
	jpeg[1] = (char)0xd8;
	assert_int_equal(db_snapshot_add(f->db, match, 1, 5, jpeg, sizeof(jpeg), err, sizeof(err)), 0);
	assert_int_equal(db_raw_flush(f->db, err, sizeof(err)), 0);
	l = label(match, 1, 5, true);
	assert_int_equal(db_face_label_add(f->db, &l, err, sizeof(err)), 0);
	assert_int_equal(db_retention_run(f->db, 1, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.snapshots, 1);
	assert_int_equal(db_face_labels(f->db, 0, 0, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.l[0].face, 5);
	assert_true(s.l[0].confirmed);
}

/* A row made in the file by other hands (the triggers stop an UPDATE,
 * not another writer's INSERT) is refused on reading. */
static void test_db_faces_doctored_rows_are_refused_on_reading(void **state)
{
	struct db_test_fx *f = *state;
	struct seen s = { 0 };
	char err[256];

	labelled(f->db, true);
	assert_int_not_equal(sqlite3_exec(db_handle(f->db), "UPDATE face_labels SET face = 2", NULL, NULL,
					  NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db_handle(f->db),
		"INSERT INTO face_labels SELECT id + 1, match_id, throw_no, snapshot_id, face, confirmed,"
		" read_face, read_confidence, crop, width, height, 1e9, y, w, h, official, reason, t_ns,"
		" wall_ms FROM face_labels", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(db_face_labels(f->db, 0, 0, collect, &s, err, sizeof(err)), -EILSEQ);
	assert_non_null(strstr(err, "face label 2"));
	assert_int_equal(s.n, 0);
}

/* 64-bit values doctored into the file are refused by row, not cut to
 * 32 bits (4294967297 would read as throw 1, 4294967344 as width 48;
 * the schema's CHECK keeps face in 1-6). */
static void test_db_faces_doctored_64_bit_values_are_refused(void **state)
{
	static const char *const cases[][3] = {
		{ "4294967297", "face", "width" },
		{ "throw_no", "face", "4294967344" },
	};
	struct db_test_fx *f = *state;
	char err[256], sql[640], want[32];

	labelled(f->db, false);
	/* The test's own file: each doctored row goes before the next. */
	assert_int_equal(sqlite3_exec(db_handle(f->db), "DROP TRIGGER face_labels_append_only_d",
				      NULL, NULL, NULL), SQLITE_OK);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct seen s = { 0 };

		snprintf(sql, sizeof(sql), "INSERT INTO face_labels (id, match_id, throw_no, snapshot_id,"
			 " face, confirmed, read_face, read_confidence, crop, width, height, x, y, w, h,"
			 " official, reason, t_ns, wall_ms) SELECT 9, match_id, %s, snapshot_id + 1, %s,"
			 " confirmed, read_face, read_confidence, crop, %s, height, x, y, w, h, official,"
			 " reason, t_ns, wall_ms FROM face_labels WHERE id = 1",
			 cases[i][0], cases[i][1], cases[i][2]);
		assert_int_equal(sqlite3_exec(db_handle(f->db), sql, NULL, NULL, NULL), SQLITE_OK);
		assert_int_equal(db_face_labels(f->db, 0, 0, collect, &s, err, sizeof(err)), -EILSEQ);
		snprintf(want, sizeof(want), "face label 9");
		assert_non_null(strstr(err, want));
		assert_non_null(strstr(err, f->path));
		assert_int_equal(sqlite3_exec(db_handle(f->db), "DELETE FROM face_labels WHERE id = 9",
					      NULL, NULL, NULL), SQLITE_OK);
	}
}

/* A crop doctored past DB_BLOB_MAX is refused by row without being
 * loaded: SQLite's memory stays well under its size. */
static void test_db_faces_oversized_crop_is_refused_unread(void **state)
{
	struct db_test_fx *f = *state;
	struct seen s = { 0 };
	char err[256];

	labelled(f->db, false);
	assert_int_equal(sqlite3_exec(db_handle(f->db),
		"INSERT INTO face_labels (match_id, throw_no, snapshot_id, face, confirmed, read_face,"
		" read_confidence, crop, width, height, x, y, w, h, official, reason, t_ns, wall_ms)"
		" SELECT match_id, throw_no, snapshot_id + 1, face, confirmed, read_face,"
		" read_confidence, X'FFD8' || zeroblob(67108864), width, height, x, y, w, h, official,"
		" reason, t_ns, wall_ms FROM face_labels WHERE id = 1", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_memory_highwater(1);
	assert_int_equal(db_face_labels(f->db, 0, 0, collect, &s, err, sizeof(err)), -EILSEQ);
	assert_non_null(strstr(err, "face label 2: crop"));
	assert_true(sqlite3_memory_highwater(0) < DB_BLOB_MAX / 4);
	assert_int_equal(s.n, 1);	/* the good one before it */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_db_faces_latest_label_of_each_die_is_read_back,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_faces_refuses_what_is_out_of_range_storing_nothing,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_faces_outlive_retention,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_faces_doctored_rows_are_refused_on_reading,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_faces_doctored_64_bit_values_are_refused,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_db_faces_oversized_crop_is_refused_unread,
						db_test_setup, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
