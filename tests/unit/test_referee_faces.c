/* daemon/referee_faces.c: an official's face label on a stored
 * snapshot's die. The crop is cut from the snapshot without re-encoding,
 * holds the die where the label's box says (also at the picture's edge),
 * and decodes; a confirmation takes the face read; what cannot be
 * labelled (no throw, no snapshot, no die, nothing read to confirm, a
 * picture that does not decode) is refused and stores nothing; the
 * throw's detail shows the label. */
#include <errno.h>
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/referee.h"
#include "daemon/snapshot.h"
#include "db/db.h"
#include "db/internal.h"
#include "tests/support/db_fx.h"
#include "vision/vision.h"

static const char LOG[] =
	"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]}}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"rest\",\"face\":5}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"A\"},{\"at\":\"floor\"}]}\n";

#define W 320
#define H 240
#define SIDE 20		/* the drawn die's side, pixels */

/* A dark picture with a white square die of SIDE centred at (cx, cy). */
static struct vis_image *picture(int cx, int cy)
{
	struct vis_image *img = vis_image_new(W, H, VIS_RGB24);

	assert_non_null(img);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			bool die = abs(x - cx) < SIDE / 2 && abs(y - cy) < SIDE / 2;

			memset(img->data + (size_t)y * img->stride + (size_t)x * 3, die ? 240 : 30, 3);
		}
	return img;
}

/* Stores the picture as throw 1's snapshot taken at t_ns, the die at (cx,
 * cy), its face read as face (0: unread). */
static void store_snapshot_at(struct db *db, int64_t match, int64_t t_ns, int cx, int cy, int face,
			      bool die)
{
	struct vis_image *img = picture(cx, cy);
	struct dd_snapshot_meta m = { .t_ns = t_ns, .width = W, .height = H, .face = face,
				      .confidence = face ? 0.7 : -1, .has_die = die,
				      .die_x = cx, .die_y = cy, .die_r = SIDE * 0.75 };
	char err[256];
	size_t len;
	void *jpeg = dd_jpeg_encode(img, &len, err, sizeof(err));

	assert_non_null(jpeg);
	assert_int_equal(dd_snapshot_store(db, match, 1, 1, jpeg, len, &m, err, sizeof(err)), 1);
	assert_int_equal(db_raw_flush(db, err, sizeof(err)), 0);
	free(jpeg);
	vis_image_free(img);
}

static void store_snapshot(struct db *db, int64_t match, int cx, int cy, int face, bool die)
{
	store_snapshot_at(db, match, 5, cx, cy, face, die);
}

struct fx {
	struct db_test_fx *db;
	struct dd_referee *r;
	int64_t match;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct dd_referee_cfg cfg;
	char err[256];

	if (!f || db_test_setup((void **)&f->db))
		return -1;
	memset(&cfg, 0, sizeof(cfg));
	bd_house_defaults(&cfg.house);
	f->r = dd_referee_new(&cfg, f->db->db);
	if (!f->r || db_import(f->db->db, "t.jsonl", LOG, sizeof(LOG) - 1, 1, &f->match, err,
			       sizeof(err)))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	dd_referee_free(f->r);
	db_test_teardown((void **)&f->db);
	free(f);
	return 0;
}

static const struct dd_audit KIM = { .official = "Kim", .wall_ms = 1700000000000LL, .reason = "" };

struct got {
	struct db_face_label l;
	struct vis_image *crop;
	int n;
};

static int take(const struct db_face_label *l, void *ctx)
{
	struct got *g = ctx;
	char err[256];

	g->n++;
	g->l = *l;
	vis_image_free(g->crop);
	assert_int_equal(vis_decode_jpeg(l->crop, l->crop_len, "crop", &g->crop, err, sizeof(err)), 0);
	g->l.crop = NULL;
	g->l.official = g->l.reason = NULL;
	return 0;
}

/* The crop's pixel at the box's centre is the die's white, and one a
 * side away is the table's dark. */
static void assert_die_in_box(const struct got *g)
{
	const struct vis_image *c = g->crop;
	int x = (int)g->l.x, y = (int)g->l.y;

	assert_int_equal(c->width, g->l.width);
	assert_int_equal(c->height, g->l.height);
	assert_true(c->data[(size_t)y * c->stride + (size_t)x * c->format] > 200);
	if (x + SIDE < c->width)
		assert_true(c->data[(size_t)y * c->stride + (size_t)(x + SIDE) * c->format] < 80);
	assert_true(g->l.w > SIDE - 1 && g->l.w < SIDE + 1);
}

static void test_referee_faces_crop_holds_the_die_and_confirm_takes_the_face_read(void **state)
{
	struct fx *f = *state;
	struct got g = { 0 };
	char err[256], *detail;
	json_t *out = NULL;

	store_snapshot(f->db->db, f->match, 150, 110, 5, true);
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 1, 1, 0, &KIM, 9, &out, err,
					       sizeof(err)), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(out, "label"), "face")), 5);
	json_decref(out);
	assert_int_equal(db_face_labels(f->db->db, 0, 0, take, &g, err, sizeof(err)), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.l.face, 5);
	assert_true(g.l.confirmed);
	assert_int_equal(g.l.read_face, 5);
	assert_int_equal(g.l.wall_ms, KIM.wall_ms);
	/* About three sides across, not the whole picture. */
	assert_true(g.crop->width >= 3 * SIDE && g.crop->width <= 3 * SIDE + 17);
	assert_die_in_box(&g);
	/* Set by hand: the later word stands, and the page shows it. */
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 1, 1, 2, &KIM, 10, &out, err,
					       sizeof(err)), 0);
	json_decref(out);
	assert_int_equal(dd_referee_throw_detail(f->r, (long)f->match, 1, &detail), 0);
	assert_non_null(strstr(detail, "\"label\":{\"face\":2,\"confirmed\":false,\"read_face\":5,"
			       "\"official\":\"Kim\",\"wall_ms\":1700000000000,\"reason\":\"\"}"));
	free(detail);
	vis_image_free(g.crop);
}

/* A die at the picture's corner: the crop is clipped to the picture and
 * still holds it where the box says. */
static void test_referee_faces_die_at_the_edge(void **state)
{
	struct fx *f = *state;
	struct got g = { 0 };
	char err[256];
	json_t *out = NULL;

	store_snapshot(f->db->db, f->match, W - 8, 6, 0, true);
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 1, 1, 6, &KIM, 9, &out, err,
					       sizeof(err)), 0);
	json_decref(out);
	assert_int_equal(db_face_labels(f->db->db, 0, 0, take, &g, err, sizeof(err)), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.l.read_face, 0);
	assert_false(g.l.confirmed);
	assert_die_in_box(&g);
	vis_image_free(g.crop);
}

static int count(const struct db_face_label *l, void *ctx)
{
	(void)l;
	++*(int *)ctx;
	return 0;
}

static void test_referee_faces_refusals_store_nothing(void **state)
{
	struct fx *f = *state;
	static const unsigned char junk[64] = { 0xff, 0xd8, 0xff, 0xe0, 1, 2, 3 };
	struct dd_snapshot_meta m = { .t_ns = 7, .width = W, .height = H, .confidence = -1,
				      .has_die = true, .die_x = 50, .die_y = 50, .die_r = 15 };
	char err[256];
	json_t *out = NULL;
	int n = 0;

	store_snapshot(f->db->db, f->match, 100, 100, 0, true);	/* snapshot 1: nothing read */
	store_snapshot(f->db->db, f->match, 100, 100, 4, false);	/* 2: no die located */
	assert_int_equal(dd_snapshot_store(f->db->db, f->match, 1, 1, junk, sizeof(junk), &m, err,
					   sizeof(err)), 1);		/* 3: does not decode */
	assert_int_equal(db_raw_flush(f->db->db, err, sizeof(err)), 0);
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 1, 1, 0, &KIM, 9, &out, err,
					       sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no face was read"));
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 1, 2, 3, &KIM, 9, &out, err,
					       sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no die"));
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 1, 3, 3, &KIM, 9, &out, err,
					       sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "snapshot 3"));
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 1, 4, 3, &KIM, 9, &out, err,
					       sizeof(err)), -ENOENT);
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 2, 1, 3, &KIM, 9, &out, err,
					       sizeof(err)), -ENOENT);
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 3, 1, 3, &KIM, 9, &out, err,
					       sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no throw 3"));
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match + 1, 1, 1, 3, &KIM, 9, &out, err,
					       sizeof(err)), -ENOENT);
	assert_null(out);
	assert_int_equal(db_face_labels(f->db->db, 0, 0, count, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
}

/* A snapshot whose header claims a picture past the vision's limits
 * (20000x20000) is refused before it is cut, storing nothing. */
static void test_referee_faces_picture_too_big_is_refused(void **state)
{
	struct fx *f = *state;
	struct vis_image *img = picture(100, 100);
	struct dd_snapshot_meta m = { .t_ns = 5, .width = W, .height = H, .face = 3,
				      .confidence = 0.7, .has_die = true, .die_x = 100, .die_y = 100,
				      .die_r = 15 };
	char err[256];
	size_t len, i;
	unsigned char *jpeg = dd_jpeg_encode(img, &len, err, sizeof(err));
	json_t *out = NULL;
	int n = 0;

	assert_non_null(jpeg);
	for (i = 2; i + 9 < len && !(jpeg[i] == 0xff && jpeg[i + 1] == 0xc0); i++)
		;
	assert_true(i + 9 < len);
	/* SOF0: length 2, precision 1, then height 2 and width 2. */
	jpeg[i + 5] = jpeg[i + 7] = 20000 >> 8;
	jpeg[i + 6] = jpeg[i + 8] = 20000 & 0xff;
	assert_int_equal(dd_snapshot_store(f->db->db, f->match, 1, 1, jpeg, len, &m, err,
					   sizeof(err)), 1);
	assert_int_equal(db_raw_flush(f->db->db, err, sizeof(err)), 0);
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 1, 1, 3, &KIM, 9, &out, err,
					       sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "too big"));
	assert_null(out);
	assert_int_equal(db_face_labels(f->db->db, 0, 0, count, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	free(jpeg);
	vis_image_free(img);
}

/* faces[snapshot id] = its label's face (ids below 8). */
static int faces_of(const struct db_face_label *l, void *ctx)
{
	assert_true(l->snapshot >= 1 && l->snapshot < 8);
	((int *)ctx)[l->snapshot] = l->face;
	return 0;
}

/* A label names its snapshot, not its place in the throw: two snapshots
 * of one throw, each die labelled; retention prunes the first; the second
 * keeps its own label (not the first's), and a new word on it replaces
 * its own, not the pruned one's. The pruned die's label stays stored.
 * Its picture, asked for by id, is the same before and after. */
static void test_referee_faces_label_stays_with_its_snapshot_when_another_is_pruned(void **state)
{
	struct fx *f = *state;
	char err[256], *detail;
	json_t *out = NULL, *d, *snaps, *s;
	int64_t first, second;
	int faces[8] = { 0 };
	char *jpeg, *by_id;
	size_t len, len_id;

	store_snapshot_at(f->db->db, f->match, 5, 60, 60, 5, true);
	store_snapshot_at(f->db->db, f->match, 6, 250, 180, 2, true);
	assert_int_equal(dd_referee_throw_detail(f->r, (long)f->match, 1, &detail), 0);
	d = json_loads(detail, 0, NULL);
	free(detail);
	snaps = json_object_get(d, "snapshots");
	assert_int_equal(json_array_size(snaps), 2);
	first = json_integer_value(json_object_get(json_array_get(snaps, 0), "id"));
	second = json_integer_value(json_object_get(json_array_get(snaps, 1), "id"));
	json_decref(d);
	assert_true(first >= 1 && second >= 1 && first < 8 && second < 8 && first != second);
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 1, first, 3, &KIM, 9, &out, err,
					       sizeof(err)), 0);
	json_decref(out);
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 1, second, 4, &KIM, 10, &out,
					       err, sizeof(err)), 0);
	json_decref(out);
	/* The second picture by its place and by its id: the same bytes. */
	assert_int_equal(dd_referee_snapshot(f->r, (long)f->match, 1, 2, 0, &jpeg, &len), 0);
	assert_int_equal(dd_referee_snapshot(f->r, (long)f->match, 1, 1, second, &by_id, &len_id), 0);
	assert_true(len == len_id && memcmp(jpeg, by_id, len) == 0);
	free(by_id);
	/* Retention's way: the first snapshot's row goes, its metadata stays. */
	assert_int_equal(sqlite3_exec(db_handle(f->db->db), "DELETE FROM snapshots WHERE t_ns = 5",
				      NULL, NULL, NULL), SQLITE_OK);
	/* Place 1 is now the second picture; its id still names it, and the
	 * pruned one's id names nothing (a page listed before the prune asks
	 * by id, and shows no picture rather than another's). */
	assert_int_equal(dd_referee_snapshot(f->r, (long)f->match, 1, 1, 0, &by_id, &len_id), 0);
	assert_true(len == len_id && memcmp(jpeg, by_id, len) == 0);
	free(by_id);
	assert_int_equal(dd_referee_snapshot(f->r, (long)f->match, 1, 2, second, &by_id, &len_id), 0);
	assert_true(len == len_id && memcmp(jpeg, by_id, len) == 0);
	free(by_id);
	free(jpeg);
	assert_int_equal(dd_referee_snapshot(f->r, (long)f->match, 1, 1, first, &by_id, &len_id),
			 -ENOENT);
	assert_null(by_id);
	assert_int_equal(dd_referee_snapshot(f->r, (long)f->match, 2, 1, second, &by_id, &len_id),
			 -ENOENT);	/* another throw's id */
	assert_int_equal(dd_referee_throw_detail(f->r, (long)f->match, 1, &detail), 0);
	d = json_loads(detail, 0, NULL);
	free(detail);
	snaps = json_object_get(d, "snapshots");
	assert_int_equal(json_array_size(snaps), 1);
	s = json_array_get(snaps, 0);
	assert_int_equal(json_integer_value(json_object_get(s, "face")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(s, "label"), "face")), 4);
	json_decref(d);
	/* A word on the picture left is its own. */
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 1, second, 6, &KIM, 11, &out,
					       err, sizeof(err)), 0);
	json_decref(out);
	assert_int_equal(dd_referee_face_label(f->r, (long)f->match, 1, first, 1, &KIM, 12, &out,
					       err, sizeof(err)), -ENOENT);
	assert_null(out);
	assert_int_equal(db_face_labels(f->db->db, f->match, 1, faces_of, faces, err, sizeof(err)), 0);
	assert_int_equal(faces[first], 3);
	assert_int_equal(faces[second], 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_referee_faces_crop_holds_the_die_and_confirm_takes_the_face_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_referee_faces_die_at_the_edge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_referee_faces_refusals_store_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_referee_faces_label_stays_with_its_snapshot_when_another_is_pruned, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_referee_faces_picture_too_big_is_refused, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
