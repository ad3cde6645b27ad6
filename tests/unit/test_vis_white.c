/* vision: the white-dice webcam photos (tests/data/dice-photos-white, MIT,
 * its README: ivory dice on a wooden desk, seen at a slant so side faces
 * show; `face` is the top face). A die is read when a find's centre lies
 * within 0.75 w of its labelled centre with its face.
 *
 * The photos are split by layout, not by frame (consecutive numbers are
 * near-copies): the held-out split is the set's heldout.txt (its README),
 * the rest the tuning split; this test reads all 310 (the odd numbers
 * alone under the address sanitizer). DYEREF_WHITE_PHOTOS names another
 * folder of the same kind.
 *
 * What it holds the reader to: a die's side face is never reported as a
 * die of its own at confidence 0.9 or more (a find that is no labelled
 * die's, within 1.5 w of one: a side face, or a part of the die), few are at
 * all, and the share read stays above a floor. Figures: the comments at
 * the floors; how they were measured in docs/vision.md ("How faces are read", step 9). */
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

#include "tests/unit/photo_labels.h"
#include "vision/vision.h"

#define DIR "tests/data/dice-photos-white"

/* Measured (tuning / held out) before side faces were merged with their
 * top and after: finds that are no die's within 1.5 w of one, at >= 0.9:
 * 1 / 1 (a 3 at 0.92, a 5 at 0.94: side faces), after 0 / 0; all such
 * finds: 6 / 4, after 5 / 2; read 93.9 / 95.6 %, the same before and
 * after; wrong faces at >= 0.9: 1 / 0. */
#define MAX_SIDE_SURE	0	/* per split: finds beside a die at >= 0.9 */
#define MAX_SIDE	8	/* both splits: finds beside a die at all */
#define FLOOR_READ_TUNING  0.91
#ifdef __SANITIZE_ADDRESS__
/* the odd-numbered photos alone: 159 of 172 held-out dice (92.4 %) */
#define FLOOR_READ_HELDOUT 0.91
#else
#define FLOOR_READ_HELDOUT 0.93
#endif
#define MAX_SURE_WRONG	1	/* per split: wrong faces at >= 0.9 */

struct tally {
	int dice, right, sure_wrong, side, side_sure;
};

static const char *dir(void)
{
	const char *d = getenv("DYEREF_WHITE_PHOTOS");
	return d && *d ? d : DIR;
}

static json_t *labels;
static struct tally t[2];
static int photos;

static double num(json_t *o, const char *k)
{
	return json_real_value(json_object_get(o, k));
}

/* Reads the photos once, tallies per split. */
static int setup(void **state)
{
	(void)state;
	char path[4096];
	snprintf(path, sizeof path, "%s/labels.json", dir());
	json_error_t jerr;
	labels = json_load_file(path, 0, &jerr);
	if (!labels) {
		fprintf(stderr, "%s: %s\n", path, jerr.text);
		return -1;
	}
	char *held = photo_held_list(dir());
	if (!held)
		return -1;	/* the split is the set's own heldout.txt */
	const char *name;
	json_t *entry;
	json_object_foreach(labels, name, entry) {
#ifdef __SANITIZE_ADDRESS__
		const char *u = strrchr(name, '_');
		if (!u || atoi(u + 1) % 2 == 0)
			continue;
#endif
		struct tally *s = &t[photo_held_out(held, name)];
		char err[256];
		struct vis_image *img;
		snprintf(path, sizeof path, "%s/%s", dir(), name);
		if (vis_image_load(path, &img, err, sizeof err)) {
			fprintf(stderr, "%s\n", err);
			return -1;
		}
		struct vis_die d[128];
		int nd = vis_dice_find(img, NULL, d, 128, err, sizeof err);
		vis_image_free(img);
		if (nd < 0 || nd > 128)
			return -1;
		photos++;
		json_t *arr = json_object_get(entry, "dice");
		size_t nl = json_array_size(arr);
		int used[128] = { 0 };
		for (size_t k = 0; k < nl; k++) {
			json_t *l = json_array_get(arr, k);
			int best = -1;
			double bd = 0.75 * num(l, "w");
			for (int i = 0; i < nd; i++) {
				double dist = hypot(d[i].x - num(l, "x"), d[i].y - num(l, "y"));
				if (!used[i] && dist <= bd) {
					bd = dist;
					best = i;
				}
			}
			s->dice++;
			if (best < 0)
				continue;
			used[best] = 1;
			if (d[best].face == json_integer_value(json_object_get(l, "face")))
				s->right++;
			else
				s->sure_wrong += d[best].confidence >= 0.9;
		}
		for (int i = 0; i < nd; i++) {
			int beside = 0;
			for (size_t k = 0; k < nl && !used[i]; k++) {
				json_t *l = json_array_get(arr, k);
				double dist = hypot(d[i].x - num(l, "x"), d[i].y - num(l, "y"));
				beside |= dist <= 1.5 * num(l, "w");
			}
			if (beside) {
				s->side++;
				s->side_sure += d[i].confidence >= 0.9;
				fprintf(stderr, "%s: a find beside a die: face %d at %.0f,%.0f, %.2f\n", name,
					d[i].face, d[i].x, d[i].y, d[i].confidence);
			}
		}
	}
	for (int k = 0; k < 2; k++)
		fprintf(stderr, "white %s: %d dice, %d right, %d wrong at >= 0.9, %d finds beside a die "
			"(%d at >= 0.9)\n", k ? "held out" : "tuning", t[k].dice, t[k].right, t[k].sure_wrong,
			t[k].side, t[k].side_sure);
	free(held);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	json_decref(labels);
	return 0;
}

static void need_photos(void)
{
	if (!labels) {
		fprintf(stderr, "no %s/labels.json: skipped\n", dir());
		skip();
	}
}

static void test_vis_white_side_face_never_a_sure_die(void **state)
{
	(void)state;
	need_photos();
	assert_true(photos > 150);
	for (int k = 0; k < 2; k++)
		assert_true(t[k].side_sure <= MAX_SIDE_SURE);
	assert_true(t[0].side + t[1].side <= MAX_SIDE);
}

static void test_vis_white_read_share_above_floor_per_split(void **state)
{
	(void)state;
	need_photos();
	for (int k = 0; k < 2; k++) {
		assert_true(t[k].dice > 100);
		assert_true(t[k].right >= (k ? FLOOR_READ_HELDOUT : FLOOR_READ_TUNING) * t[k].dice);
		assert_true(t[k].sure_wrong <= MAX_SURE_WRONG);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vis_white_side_face_never_a_sure_die),
		cmocka_unit_test(test_vis_white_read_share_above_floor_per_split),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
