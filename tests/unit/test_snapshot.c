/*
 * A throw's snapshots as the replay reads them (daemon/snapshot.c): the
 * JPEG and the metadata stored beside it come back together, matched by
 * time, the size the JPEG's own; metadata that is not what the daemon
 * writes is null, never passed on.
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

#include "daemon/snapshot.h"
#include "db/db.h"
#include "tests/support/db_fx.h"
#include "vision/vision.h"

#define MS 1000000LL

static int collect(const struct db_item *it, void *ctx)
{
	return dd_snap_list_add(ctx, it);
}

static char *dump(json_t *o)
{
	char *s;

	assert_non_null(o);
	s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6));
	json_decref(o);
	assert_non_null(s);
	return s;
}

static void test_snapshot_metadata_comes_back_beside_its_jpeg(void **state)
{
	struct db_test_fx *f = *state;
	static const char log[] =
		"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]}}\n"
		"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}\n";
	struct vis_image *img = vis_image_new(40, 30, VIS_RGB24);
	struct dd_snapshot_meta m = { .t_ns = 1005 * MS, .face = 3, .confidence = 0.91,
				      .has_die = true, .die_x = 20, .die_y = 15, .die_r = 6 };
	struct dd_snap_list l = { 0 };
	char err[256], *got;
	int64_t match;
	size_t len;
	void *jpeg;

	assert_non_null(img);
	memset(img->data, 200, img->stride * (size_t)img->height);
	jpeg = dd_jpeg_encode(img, &len, err, sizeof(err));
	assert_non_null(jpeg);
	m.width = img->width;
	m.height = img->height;
	assert_int_equal(db_import(f->db, "t", log, sizeof(log) - 1, 1000 * MS, &match, err, sizeof(err)), 0);
	assert_int_equal(dd_snapshot_store(f->db, match, 1, 1000 * MS, jpeg, len, &m, err, sizeof(err)), 1);
	/* A second picture with nothing known of it (an older daemon's). */
	assert_int_equal(db_snapshot_add(f->db, match, 1, 1010 * MS, jpeg, len, err, sizeof(err)), 0);
	assert_int_equal(db_raw_flush(f->db, err, sizeof(err)), 0);
	assert_int_equal(db_replay(f->db, match, 1, collect, &l, err, sizeof(err)), 0);
	got = dump(dd_snap_list_json(&l));
	assert_string_equal(got,
		"[{\"index\":1,\"t_ms\":5.0,\"face\":3,\"confidence\":0.91,\"die\":{\"x\":20.0,\"y\":15.0,\"r\":6.0},"
		"\"width\":40,\"height\":30,\"id\":1},"
		"{\"index\":2,\"t_ms\":null,\"face\":null,\"confidence\":null,\"die\":null,"
		"\"width\":40,\"height\":30,\"id\":2}]");
	free(got);
	free(jpeg);
	vis_image_free(img);
}

static void test_snapshot_hostile_metadata_is_null(void **state)
{
	static const char *const metas[] = {
		"{\"t_ms\":-3,\"face\":7,\"confidence\":0.5,\"die\":{\"x\":1e300,\"y\":0,\"r\":2},"
		"\"width\":-5,\"height\":\"x\"}",
		"[1,2]",	/* not an object: as if absent */
		"{\"face\":2.5,\"confidence\":2,\"die\":{\"x\":1,\"y\":2,\"r\":-1},\"width\":9,\"height\":8}",
	};
	static const unsigned char not_jpeg[] = { 0xff, 0xd8, 0xff, 0x00, 0x01 };
	struct dd_snap_list l = { 0 };
	char *got;

	(void)state;
	for (int k = 0; k < 3; k++) {
		struct db_item meta = { .kind = DB_ITEM_RAW, .t_ns = k, .source = "camera",
					.what = "snapshot", .channel = -1, .confidence = -1,
					.text = metas[k] };
		struct db_item snap = { .kind = DB_ITEM_SNAPSHOT, .t_ns = k, .source = "", .what = "",
					.channel = -1, .confidence = -1, .data = not_jpeg,
					.len = sizeof(not_jpeg) };

		assert_int_equal(dd_snap_list_add(&l, &meta), 0);
		assert_int_equal(dd_snap_list_add(&l, &snap), 0);
	}
	got = dump(dd_snap_list_json(&l));
	/* An unreadable JPEG: the size is the metadata's, where it is a size. */
	assert_string_equal(got,
		"[{\"index\":1,\"t_ms\":null,\"face\":null,\"confidence\":null,\"die\":null,"
		"\"width\":null,\"height\":null,\"id\":0},"
		"{\"index\":2,\"t_ms\":null,\"face\":null,\"confidence\":null,\"die\":null,"
		"\"width\":null,\"height\":null,\"id\":0},"
		"{\"index\":3,\"t_ms\":null,\"face\":null,\"confidence\":null,\"die\":null,"
		"\"width\":9,\"height\":8,\"id\":0}]");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_snapshot_metadata_comes_back_beside_its_jpeg,
						db_test_setup, db_test_teardown),
		cmocka_unit_test(test_snapshot_hostile_metadata_is_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
