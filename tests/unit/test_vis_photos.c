/* vision: reading dice on the 100 real photos (tests/data/dice-photos,
 * BSD-3 by Nell Byler, labels by her). A die is read when a detection's
 * centre lies in its labelled box with the labelled face.
 *
 * Two kinds of check:
 * - golden: every die listed in tests/data/dice-photos-golden.txt (the
 *   labelled dice the reader got right when it was last tuned; their
 *   values are the labels', not the reader's) must still be read;
 * - floors: the share read and the wrong-face / stray-detection counts per
 *   split must not get worse than a little below (or above) what was
 *   measured (see BENCHMARKS.md "## vision"). The floors are set a few
 *   points from the measured figures on purpose, so an unrelated change
 *   that moves one die does not fail the build, while a real regression
 *   does. 2019-12-08 photos were used for tuning, 2019-12-09 ones held out. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "vision/vision.h"
#include "tests/unit/photo_labels.h"

#define DIR "tests/data/dice-photos"
#define GOLDEN "tests/data/dice-photos-golden.txt"

/* Measured when the floors were set (the face net weighed against the
 * pips, tools/fnet/, and two guesses of the typical die; the labels as
 * corrected in tests/data/dice-photos/README.md): tuning 94.5 % read (the
 * net was trained on those photos, the rules tuned on them: a regression
 * guard, not evidence), held out 92.9 %; 1 and 1 stray detections.
 * Wrong faces at >= 0.9: 0 and 0; one is allowed per split for the
 * sanitizer build, whose -O1 moves confidences in the last digits. */
#define FLOOR_READ_TUNING   0.92
#define FLOOR_READ_HELDOUT  0.89
#define MAX_STRAY           4	/* per split */
#define MAX_SURE_WRONG      1	/* wrong face with confidence >= 0.9, per split */
/* Dice found but unreadable (keep_unreadable, as `dyeref dice` reports
 * them): of the 51 labelled dice not read, 21 were found unreadable (19
 * of 37 since the second guess of the typical die reads more), and 3
 * and 2 unreadable finds were no labelled die's (53 and 85, mostly the
 * tray's screw holes, before the net's "no die" weeded them out). This
 * test pairs each find with one die, so a find inside two boxes counts
 * once and a second find in one box is a stray; bench/vision_photos counts
 * any find inside a box (22 found; 3 and 0 strays, 53 and 82 before). */
#define FLOOR_UNREAD_FOUND  16	/* both splits */
#define MAX_UNREAD_STRAY    6	/* per split */
/* Labelled dice with two or more finds in their box (read or not) nearer
 * to them than to any other labelled die: 19 (6 and 13) before finds
 * nearer than 0.75 of a side were taken for one die, 7 (2 and 5) after,
 * their finds 0.8-0.85 of a side apart, as near as two dice come. */
#define MAX_FOUND_TWICE     9	/* both splits */
#define SMALL_PHOTOS	    12	/* photos read at half size (labels.json order) */
#define FLOOR_SMALL_AGAIN   0.85	/* share of their sure dice read again */

struct found {
	char name[64];		/* image file */
	int n;			/* detections */
	struct vis_die dice[128];	/* what the reader gave */
};

static struct found *results;	/* one per image, in labels.json order */
static size_t n_results;
static json_t *labels;

static int setup(void **state)
{
	(void)state;
	json_error_t jerr;
	labels = json_load_file(DIR "/labels.json", 0, &jerr);
	if (!labels)
		return -1;
	results = calloc(json_object_size(labels), sizeof(*results));
	if (!results)
		return -1;
	const char *name;
	json_t *entry;
	json_object_foreach(labels, name, entry) {
		struct found *f = &results[n_results++];
		snprintf(f->name, sizeof f->name, "%s", name);
		f->n = photo_read(DIR, name, f->dice, 128);
		if (f->n < 0 || f->n > 128)
			return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(results);
	json_decref(labels);
	return 0;
}

static const struct found *found_for(const char *name)
{
	for (size_t i = 0; i < n_results; i++)
		if (!strcmp(results[i].name, name))
			return &results[i];
	return NULL;
}

/* photo_nearest() inside the box of f's finds. */
static int in_box(const struct found *f, double x, double y, double w, double h, const int *used,
		  int unread)
{
	return photo_nearest(f->dice, f->n, used, unread, x, y, w, h, 0);
}

/* in_box() for labels.json's die l. */
static int in_label(const struct found *f, json_t *l, const int *used, int unread)
{
	return in_box(f, json_real_value(json_object_get(l, "x")), json_real_value(json_object_get(l, "y")),
		      json_real_value(json_object_get(l, "w")), json_real_value(json_object_get(l, "h")),
		      used, unread);
}

static void test_vis_photos_golden_dice_still_read(void **state)
{
	(void)state;
	FILE *g = fopen(GOLDEN, "r");
	assert_non_null(g);
	char name[64];
	int face, lines = 0, lost = 0;
	double x, y, w, h;
	while (fscanf(g, "%63s %d %lf %lf %lf %lf", name, &face, &x, &y, &w, &h) == 6) {
		lines++;
		const struct found *f = found_for(name);
		assert_non_null(f);
		int i = in_box(f, x, y, w, h, NULL, 0);
		if (i < 0 || f->dice[i].face != face) {
			fprintf(stderr, "golden: %s: the %d at %.0f,%.0f read as %d\n", name, face, x, y,
				i < 0 ? -1 : f->dice[i].face);
			lost++;
		}
	}
	fclose(g);
	assert_true(lines > 300);
	/* The sanitizer build runs at -O1, whose floating point can move a
	 * die that sits on a confidence edge: a handful may go, no more. */
	assert_true(lost <= 3);
}

static void test_vis_photos_read_share_above_floor_per_split(void **state)
{
	(void)state;
	int dice[2] = { 0 }, right[2] = { 0 }, stray[2] = { 0 }, sure_wrong[2] = { 0 };
	const char *name;
	json_t *entry;
	json_object_foreach(labels, name, entry) {
		int split = strstr(name, "20191208") ? 0 : 1;
		const struct found *f = found_for(name);
		int used[128] = { 0 };
		json_t *arr = json_object_get(entry, "dice");
		for (size_t k = 0; k < json_array_size(arr); k++) {
			json_t *l = json_array_get(arr, k);
			int i = in_label(f, l, used, 0);
			dice[split]++;
			if (i < 0)
				continue;
			used[i] = 1;
			if (f->dice[i].face == json_integer_value(json_object_get(l, "face")))
				right[split]++;
			else if (f->dice[i].confidence >= 0.9)
				sure_wrong[split]++;
		}
		for (int i = 0; i < f->n; i++)
			stray[split] += !used[i] && f->dice[i].face > 0;
	}
	fprintf(stderr, "read: tuning %d/%d, held out %d/%d; stray %d %d; sure wrong %d %d\n",
		right[0], dice[0], right[1], dice[1], stray[0], stray[1], sure_wrong[0], sure_wrong[1]);
	assert_int_equal(dice[0] + dice[1], 727);
	assert_true(right[0] >= FLOOR_READ_TUNING * dice[0]);
	assert_true(right[1] >= FLOOR_READ_HELDOUT * dice[1]);
	assert_true(stray[0] <= MAX_STRAY && stray[1] <= MAX_STRAY);
	assert_true(sure_wrong[0] <= MAX_SURE_WRONG && sure_wrong[1] <= MAX_SURE_WRONG);
}

/* A die found but not read is reported as such (face 0), so that a
 * tray's official knows one is missing and where; what the detector finds
 * that is no die (the tray's screw holes) is not. */
static void test_vis_photos_unreadable_dice_reported_not_the_tray(void **state)
{
	(void)state;
	int found_unread = 0, stray[2] = { 0 };
	const char *name;
	json_t *entry;
	json_object_foreach(labels, name, entry) {
		int split = strstr(name, "20191208") ? 0 : 1;
		const struct found *f = found_for(name);
		int used[128] = { 0 };
		json_t *arr = json_object_get(entry, "dice");
		for (size_t k = 0; k < json_array_size(arr); k++) {
			json_t *l = json_array_get(arr, k);
			int r = in_label(f, l, NULL, 0), u = in_label(f, l, used, 1);
			if (u >= 0)
				used[u] = 1;
			found_unread += r < 0 && u >= 0;
		}
		for (int i = 0; i < f->n; i++)
			stray[split] += f->dice[i].face == 0 && !used[i];
	}
	fprintf(stderr, "unreadable: %d labelled dice found so; at no die %d %d\n", found_unread,
		stray[0], stray[1]);
	assert_true(found_unread >= FLOOR_UNREAD_FOUND);
	assert_true(stray[0] <= MAX_UNREAD_STRAY && stray[1] <= MAX_UNREAD_STRAY);
}

/* One die is one find: a body split at its shadow, or looked at again
 * beside the first look, is not counted as two dice (perhaps one at a
 * face read from half of it). */
static void test_vis_photos_no_die_found_twice(void **state)
{
	(void)state;
	int twice = 0;
	const char *name;
	json_t *entry;
	json_object_foreach(labels, name, entry) {
		const struct found *f = found_for(name);
		twice += photo_labels_found_twice(json_object_get(entry, "dice"), 0, f->dice, f->n);
	}
	fprintf(stderr, "found twice: %d labelled dice\n", twice);
	assert_true(twice <= MAX_FOUND_TWICE);
}

/* img scaled s times (vis_image_scaled: bilinear up, box-averaged down). */
static struct vis_image *scaled(const struct vis_image *img, double s)
{
	struct vis_image *o = vis_image_scaled(img, s);
	assert_non_null(o);
	return o;
}

/* The 640x640 photo enlarged s times (to side x side) finds the same dice
 * at the same places (scaled), with the same faces unless both readings
 * are doubtful. */
static void expect_read_alike(const char *photo, double s, int side)
{
	char err[256];
	struct vis_image *img, *big;
	assert_int_equal(vis_image_load(photo, &img, err, sizeof err), 0);
	assert_int_equal(img->width, 640);
	assert_int_equal(img->height, 640);
	big = scaled(img, s);
	assert_int_equal(big->width, side);
	assert_int_equal(big->height, side);
	/* Unreadable dice kept: a die read doubtfully at one scale may be
	 * unreadable at the other, but it is found at both. */
	struct vis_dice_params p;
	vis_dice_params_default(&p);
	p.keep_unreadable = 1;
	struct vis_die a[16], b[16];
	int na = vis_dice_find(img, &p, a, 16, err, sizeof err);
	int nb = vis_dice_find(big, &p, b, 16, err, sizeof err);
	assert_true(na >= 3 && na <= 16);
	assert_int_equal(nb, na);
	/* Every die is found at the same place; its face is the same
	 * unless both readings are doubtful (under 0.8, unreadable as 0: a
	 * 1 or a 2 whose evidence is thin may tip either way at another
	 * scale). */
	for (int i = 0; i < na; i++) {
		int found = 0;
		for (int j = 0; j < nb; j++)
			found |= (b[j].face == a[i].face ||
				  (a[i].confidence < 0.8 && b[j].confidence < 0.8)) &&
				 fabs(b[j].x - s * a[i].x) < 4 * s && fabs(b[j].y - s * a[i].y) < 4 * s;
		assert_true(found);
	}
	vis_image_free(big);
	vis_image_free(img);
}

/* A photo three times the size (1920x1920, as a phone would take it) is
 * read downscaled twice (960) and four times (480), the half kept when it
 * reads more: the same faces at three times the coordinates. */
static void test_vis_photos_big_photo_read_like_the_small_one(void **state)
{
	(void)state;
	expect_read_alike(DIR "/IMG_20191209_100553.jpg", 3, 1920);
}

/* Just over 1600 pixels a side (1601x1601) the photo is read
 * box-averaged twice, to 800 a side with a pixel column and row left
 * over, and (800 being no more than TWO_SCALES_FROM) at no other size:
 * read alike all the same. Which sizes were read is not observable
 * here; this is the only picture size that takes that path, run under
 * the sanitizers too. */
static void test_vis_photos_photo_just_over_the_limit_read_alike(void **state)
{
	(void)state;
	expect_read_alike(DIR "/IMG_20191209_100553.jpg", 1601 / 640.0, 1601);
}

/* A photo turned (a camera mounted the other way round) is read alike:
 * on every fourth photo, turned one, two or three quarter turns, each
 * die found upright is found at the same place turned, with the same
 * face unless both readings are doubtful (as expect_read_alike). The
 * reader's blocks, lattices and scans start at the picture's top left,
 * so a die on the edge of being found may go either way: on all 100
 * photos, 2-4 of the 727 labelled dice were read differently at each
 * turn (bench/vision_photos --turn). */
#define MAX_TURNED_APART 4	/* finds of the 25 photos */
static void test_vis_photos_turned_photo_read_alike(void **state)
{
	(void)state;
	int finds = 0, apart = 0;
	for (size_t i = 0; i < n_results; i += 4) {
		char path[256], err[256];
		struct vis_image *img, *turned;
		snprintf(path, sizeof path, DIR "/%s", results[i].name);
		assert_int_equal(vis_image_load(path, &img, err, sizeof err), 0);
		int q = 1 + (int)(i / 4) % 3;
		turned = photo_turned(img, q);
		assert_non_null(turned);
		assert_int_equal(turned->width, q % 2 ? img->height : img->width);
		struct vis_dice_params p;
		vis_dice_params_default(&p);
		p.keep_unreadable = 1;	/* as the upright readings were made */
		struct vis_die d[128];
		int n = vis_dice_find(turned, &p, d, 128, err, sizeof err);
		assert_true(n >= 0 && n <= 128);
		photo_turn_back(d, n, q, img->width, img->height);
		const struct found *f = &results[i];
		for (int a = 0; a < f->n; a++) {
			int alike = 0;
			for (int b = 0; b < n && !alike; b++)
				alike = (d[b].face == f->dice[a].face ||
					 (d[b].confidence < 0.8 && f->dice[a].confidence < 0.8)) &&
					hypot(d[b].x - f->dice[a].x, d[b].y - f->dice[a].y) < 0.25 * f->dice[a].side;
			if (!alike)
				fprintf(stderr, "turned %d: %s: the %d at %.0f,%.0f (%.2f) not read alike\n", q,
					f->name, f->dice[a].face, f->dice[a].x, f->dice[a].y, f->dice[a].confidence);
			apart += !alike;
		}
		finds += f->n;
		apart += abs(n - f->n) > 1;	/* many more finds turned */
		vis_image_free(turned);
		vis_image_free(img);
	}
	fprintf(stderr, "turned: %d of %d finds not read alike\n", apart, finds);
	assert_true(finds > 100);
	assert_true(apart <= MAX_TURNED_APART);
}

/* White dice on the pale tray, twice the size (1280x1280): their bodies
 * hardly differ from the tray, and at that size only their pips did,
 * each read as a 1 (seven 1s and nine unreadable finds for five dice).
 * A big picture is also read at half its size, and that reading kept
 * when it reads more dice surely: the same dice as the photo's own. */
static void test_vis_photos_big_dice_not_read_as_their_pips(void **state)
{
	(void)state;
	char err[256];
	struct vis_image *img, *big;
	assert_int_equal(vis_image_load(DIR "/IMG_20191209_100719.jpg", &img, err, sizeof err), 0);
	big = scaled(img, 2);
	struct vis_die a[32], b[32];
	int na = vis_dice_find(img, NULL, a, 32, err, sizeof err);
	int nb = vis_dice_find(big, NULL, b, 32, err, sizeof err);
	assert_true(na >= 5 && na <= 32);
	assert_int_equal(nb, na);
	/* how many, with no array to write them to */
	assert_int_equal(vis_dice_find(big, NULL, NULL, 0, err, sizeof err), nb);
	for (int i = 0; i < na; i++) {
		int found = 0;
		for (int j = 0; j < nb; j++)
			found |= b[j].face == a[i].face && fabs(b[j].x - 2 * a[i].x) < 8 &&
				 fabs(b[j].y - 2 * a[i].y) < 8;
		assert_true(found);
	}
	vis_image_free(big);
	vis_image_free(img);
}

/* Photos at half size (320x320, dice of 11-24 pixels, as a camera twice
 * as far would see them): the dice read surely at full size are read
 * there too, at half the coordinates. Dice that small lost their pips to
 * the clean-up and fell below min_die_px; they are now read enlarged
 * as well (104 of the 135 sure dice read again before, 124 now). */
static void test_vis_photos_small_dice_read_enlarged(void **state)
{
	(void)state;
	int sure = 0, again = 0;
	for (size_t i = 0; i < n_results && i < SMALL_PHOTOS; i++) {
		char path[256], err[256];
		struct vis_image *img, *small;
		struct vis_die d[128];
		snprintf(path, sizeof path, DIR "/%s", results[i].name);
		assert_int_equal(vis_image_load(path, &img, err, sizeof err), 0);
		small = scaled(img, 0.5);
		int n = vis_dice_find(small, NULL, d, 128, err, sizeof err);
		assert_true(n >= 0 && n <= 128);
		/* The same dice read when the unreadable ones are asked for
		 * too: whether a picture is read again does not hang on it. */
		struct vis_dice_params keep;
		struct vis_die dk[128];
		vis_dice_params_default(&keep);
		keep.keep_unreadable = 1;
		int nk = vis_dice_find(small, &keep, dk, 128, err, sizeof err), read = 0;
		assert_true(nk >= n && nk <= 128);
		for (int j = 0; j < nk; j++)
			if (dk[j].face > 0) {
				assert_true(read < n);
				assert_true(dk[j].face == d[read].face && dk[j].x == d[read].x &&
					    dk[j].y == d[read].y && dk[j].side == d[read].side &&
					    dk[j].confidence == d[read].confidence);
				read++;
			}
		assert_int_equal(read, n);
		for (int k = 0; k < results[i].n; k++) {
			const struct vis_die *a = &results[i].dice[k];
			if (a->face == 0 || a->confidence < 0.9)
				continue;
			sure++;
			int found = 0;
			for (int j = 0; j < n && !found; j++)
				found = d[j].face == a->face && hypot(2 * d[j].x + 0.5 - a->x, 2 * d[j].y + 0.5 - a->y) <
									  0.25 * a->side;
			again += found;
		}
		vis_image_free(small);
		vis_image_free(img);
	}
	fprintf(stderr, "half size: %d of %d sure dice read again\n", again, sure);
	assert_true(sure >= 50);
	assert_true(again >= FLOOR_SMALL_AGAIN * sure);
}

/* pips_only leaves the face net out (tools/fnet/ trains and weighs it on
 * the pips' own readings): on these photos some faces or confidences
 * differ from the full reader's. */
static void test_vis_photos_pips_only_leaves_the_net_out(void **state)
{
	(void)state;
	struct vis_dice_params p;
	vis_dice_params_default(&p);
	p.pips_only = 1;
	p.keep_unreadable = 1;	/* as the full reader's results were read */
	int differ = 0;
	for (size_t i = 0; i < n_results && i < 12; i++) {
		char path[256], err[256];
		struct vis_image *img;
		struct vis_die d[128];
		snprintf(path, sizeof path, DIR "/%s", results[i].name);
		assert_int_equal(vis_image_load(path, &img, err, sizeof err), 0);
		int n = vis_dice_find(img, &p, d, 128, err, sizeof err);
		vis_image_free(img);
		assert_true(n >= 0 && n <= 128);
		differ += n != results[i].n;
		for (int k = 0; k < n && k < results[i].n; k++)
			differ += d[k].face != results[i].dice[k].face ||
				  d[k].confidence != results[i].dice[k].confidence;
	}
	assert_true(differ > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vis_photos_golden_dice_still_read),
		cmocka_unit_test(test_vis_photos_read_share_above_floor_per_split),
		cmocka_unit_test(test_vis_photos_unreadable_dice_reported_not_the_tray),
		cmocka_unit_test(test_vis_photos_no_die_found_twice),
		cmocka_unit_test(test_vis_photos_big_photo_read_like_the_small_one),
		cmocka_unit_test(test_vis_photos_photo_just_over_the_limit_read_alike),
		cmocka_unit_test(test_vis_photos_turned_photo_read_alike),
		cmocka_unit_test(test_vis_photos_big_dice_not_read_as_their_pips),
		cmocka_unit_test(test_vis_photos_small_dice_read_enlarged),
		cmocka_unit_test(test_vis_photos_pips_only_leaves_the_net_out),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
