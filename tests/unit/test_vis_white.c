/* vision: the white-dice webcam photos (tests/data/dice-photos-white, MIT
 * by Matteo Anthony Penlington, its README: ivory dice on a wooden desk,
 * seen at a slant so side faces show; `face` is the top face). A die is
 * read when a find's centre lies within 0.75 of its label's width from the
 * labelled centre with its face (the set's README).
 *
 * The photos are split by layout, not by frame (consecutive numbers are
 * near-copies): the held-out split is the set's heldout.txt (its README
 * gives the rule: layout groups the face net and the rules never saw), the
 * rest the tuning split. Every photo is read once, in setup; the address
 * sanitizer's build (-O1, several times slower) reads the odd-numbered
 * ones alone. DYEREF_WHITE_PHOTOS names another folder of the same kind.
 *
 * What it holds the reader to:
 * - a die's side face is never reported as a die of its own at confidence
 *   0.9 or more (a find that is no labelled die's, within 1.5 w of one: a
 *   side face, or a part of the die), and few are at all;
 * - per split, the share read right above a floor and at most one wrong
 *   face at >= 0.9;
 * - on the held-out split, recall, strays, strays at >= 0.9 and dice found
 *   twice within bounds, and every die of
 *   tests/data/dice-photos-white-golden.txt (331 held-out dice the reader
 *   reads right) still read.
 * The floors sit a little below the figures measured (at each floor), so
 * that a regression fails and one die moved does not. */
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
#define GOLDEN "tests/data/dice-photos-white-golden.txt"
#define WITHIN 0.75	/* a find counts for a die this far from its centre, in widths */
#define BESIDE 1.5	/* an unmatched find this near a die is a side face, or a part */

#if defined(__SANITIZE_ADDRESS__)
#define ODD_ONLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ODD_ONLY 1
#endif
#endif
#ifndef ODD_ONLY
#define ODD_ONLY 0
#endif

/* Measured: tuning 193 photos, 605 dice, 569 read right (94.0 %), 1
 * wrong face at >= 0.9; held out 117 photos, 346 dice, 335 found
 * (96.8 %), 331 read right (95.7 %), no wrong face at >= 0.9, 83 strays
 * (side faces mostly), 1 of them at >= 0.9, 1 die found twice; finds
 * beside a die 6 and 1, none at >= 0.9 (1 and 1 when side faces are not
 * merged with their top: docs/vision.md, "How faces are read", step 9).
 * The sanitizer's odd-numbered photos: held out 59 photos, 172 dice, 163
 * found (94.8 %), 159 read right (92.4 %), 43 strays, none at >= 0.9;
 * tuning 288 of 305 (94.4 %). The golden list is the held-out dice read
 * right, written by `build/bench/vision_photos
 * tests/data/dice-photos-white --within 0.75 --golden FILE`. */
#define FLOOR_READ_TUNING  0.91
#define FLOOR_READ_HELDOUT (ODD_ONLY ? 0.91 : 0.93)
#define FLOOR_RECALL	   (ODD_ONLY ? 0.92 : 0.94)	/* held out */
#define MAX_SURE_WRONG	   1	/* per split: wrong faces at >= 0.9 (-O1 moves last digits) */
#define MAX_BESIDE_SURE	   0	/* per split: finds beside a die at >= 0.9 */
#define MAX_BESIDE	   8	/* both splits: finds beside a die at all */
#define MAX_STRAY	   100	/* held out: read finds matching no die */
#define MAX_SURE_STRAY	   4	/* held out: strays at >= 0.9 */
#define MAX_FOUND_TWICE	   5	/* held out */
#define MAX_GOLDEN_LOST	   3

struct found {
	char name[64];
	int held;		/* in heldout.txt */
	json_t *dice;		/* the labels (borrowed from labels) */
	int n;
	struct vis_die d[128];
};

struct tally {
	int photos, dice, found, right, sure_wrong, stray, sure_stray, beside, beside_sure, twice;
};

static json_t *labels;
static struct found *results;
static size_t n_results;
static struct tally t[2];	/* tuning, held out */

static const char *dir(void)
{
	const char *d = getenv("DYEREF_WHITE_PHOTOS");
	return d && *d ? d : DIR;
}

static double num(json_t *o, const char *k)
{
	return json_real_value(json_object_get(o, k));
}

/* The read find nearest (x, y) within WITHIN of w, not used, or -1. */
static int near(const struct found *r, double x, double y, double w, const int *used)
{
	return photo_nearest(r->d, r->n, used, 0, x, y, w, w, WITHIN);
}

/* Adds photo r's counts to s. */
static void count(const struct found *r, struct tally *s)
{
	size_t nl = json_array_size(r->dice);
	int used[128] = { 0 };

	s->photos++;
	for (size_t k = 0; k < nl; k++) {
		json_t *l = json_array_get(r->dice, k);
		int i = near(r, num(l, "x"), num(l, "y"), num(l, "w"), used);
		s->dice++;
		if (i < 0)
			continue;
		used[i] = 1;
		s->found++;
		if (r->d[i].face == json_integer_value(json_object_get(l, "face")))
			s->right++;
		else
			s->sure_wrong += r->d[i].confidence >= 0.9;
	}
	for (int i = 0; i < r->n; i++) {
		if (used[i] || r->d[i].face == 0)
			continue;
		int beside = 0;
		s->stray++;
		s->sure_stray += r->d[i].confidence >= 0.9;
		for (size_t k = 0; k < nl && !beside; k++) {
			json_t *l = json_array_get(r->dice, k);
			beside = hypot(r->d[i].x - num(l, "x"), r->d[i].y - num(l, "y")) <= BESIDE * num(l, "w");
		}
		if (beside) {
			s->beside++;
			s->beside_sure += r->d[i].confidence >= 0.9;
			fprintf(stderr, "%s: a find beside a die: face %d at %.0f,%.0f, %.2f\n", r->name,
				r->d[i].face, r->d[i].x, r->d[i].y, r->d[i].confidence);
		}
	}
	s->twice += photo_labels_found_twice(r->dice, WITHIN, r->d, r->n);
}

/* Reads the photos once; tallies per split. Without the labels every test
 * skips. */
static int setup(void **state)
{
	(void)state;
	char path[4096], *held;
	json_error_t jerr;
	const char *name;
	json_t *entry;

	snprintf(path, sizeof path, "%s/labels.json", dir());
	labels = json_load_file(path, 0, &jerr);
	if (!labels)
		return 0;
	held = photo_held_list(dir());
	results = calloc(json_object_size(labels), sizeof(*results));
	if (!held || !results) {
		fprintf(stderr, "%s: no heldout.txt, or no memory\n", dir());
		free(held);
		return -1;
	}
	json_object_foreach(labels, name, entry) {
		const char *u = strrchr(name, '_');
		if (ODD_ONLY && (!u || atoi(u + 1) % 2 == 0))
			continue;
		struct found *r = &results[n_results++];
		snprintf(r->name, sizeof r->name, "%s", name);
		r->held = photo_held_out(held, name);
		r->dice = json_object_get(entry, "dice");
		r->n = photo_read(dir(), name, r->d, 128);
		if (r->n < 0) {
			free(held);
			return -1;
		}
		count(r, &t[r->held]);
	}
	free(held);
	for (int k = 0; k < 2; k++)
		fprintf(stderr, "white %s: %d photos, %d dice, %d found, %d right, %d wrong at >= 0.9; "
			"%d strays (%d at >= 0.9), %d beside a die (%d at >= 0.9), %d found twice\n",
			k ? "held out" : "tuning", t[k].photos, t[k].dice, t[k].found, t[k].right,
			t[k].sure_wrong, t[k].stray, t[k].sure_stray, t[k].beside, t[k].beside_sure,
			t[k].twice);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(results);
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
	assert_true(t[0].photos + t[1].photos > 150);
	for (int k = 0; k < 2; k++)
		assert_true(t[k].beside_sure <= MAX_BESIDE_SURE);
	assert_true(t[0].beside + t[1].beside <= MAX_BESIDE);
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

static void test_vis_white_held_out_within_bounds(void **state)
{
	(void)state;
	const struct tally *h = &t[1];
	int part = ODD_ONLY ? 2 : 1;

	need_photos();
	assert_true(h->photos >= 117 / part - 2);
	assert_true(h->found >= FLOOR_RECALL * h->dice);
	assert_true(h->stray <= MAX_STRAY / part + 2);
	assert_true(h->sure_stray <= MAX_SURE_STRAY);
	assert_true(h->twice <= MAX_FOUND_TWICE);
}

static void test_vis_white_golden_dice_still_read(void **state)
{
	(void)state;
	char name[64];
	int face, lines = 0, checked = 0, lost = 0;
	double x, y, w, h;
	FILE *g;

	need_photos();
	if (strcmp(dir(), DIR) != 0)
		skip();		/* the golden list is the shipped set's */
	g = fopen(GOLDEN, "r");
	assert_non_null(g);
	while (fscanf(g, "%63s %d %lf %lf %lf %lf", name, &face, &x, &y, &w, &h) == 6) {
		const struct found *r = NULL;
		int used[128] = { 0 };

		lines++;
		for (size_t i = 0; i < n_results && !r; i++)
			r = strcmp(results[i].name, name) ? NULL : &results[i];
		if (!r) {
			assert_true(ODD_ONLY);	/* every golden photo is read in full */
			continue;
		}
		assert_true(r->held);
		checked++;
		int i = near(r, x, y, w, used);
		if (i < 0 || r->d[i].face != face) {
			fprintf(stderr, "golden: %s: the %d at %.0f,%.0f read as %d\n", name, face, x, y,
				i < 0 ? -1 : r->d[i].face);
			lost++;
		}
	}
	fclose(g);
	fprintf(stderr, "golden: %d of %d checked, %d lost\n", checked, lines, lost);
	assert_true(lines > 300);
	assert_true(checked >= lines / 3);
	assert_true(lost <= MAX_GOLDEN_LOST);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vis_white_side_face_never_a_sure_die),
		cmocka_unit_test(test_vis_white_read_share_above_floor_per_split),
		cmocka_unit_test(test_vis_white_held_out_within_bounds),
		cmocka_unit_test(test_vis_white_golden_dice_still_read),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
