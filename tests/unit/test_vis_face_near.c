/* vision: reading the face of a die the camera has located
 * (vis_read_die_near), on rendered rest crops (tests/unit/vis_face_cases.h,
 * fixed seeds): every face and angle, on open table, on and over the white
 * centre line, beside and touching cups, the located point off by up to
 * 1.5 die sides; and dice of every colour and size. A resting die's face
 * decides BD-O2 (five on the table) and BD-F1 (the roll-off): a wrong face
 * at confidence >= 0.8 (house.review_below) is a silent error, an unread
 * one goes to an official. Floors set from bench/vision_face_near with a
 * margin (BENCHMARKS.md, "## face"). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/vis_face_cases.h"

#define SURE 0.8	/* house.review_below's default */

struct tally {
	int n, right, wrong_sure;	/* crops; right at >= SURE; wrong at >= SURE */
	int per_face[7];		/* crops of each true face */
};

static void count(struct tally *t, int rc, const struct vis_die *d, int face)
{
	t->n++;
	t->per_face[face]++;
	if (rc == 0 && d->face >= 1 && d->confidence >= SURE) {
		if (d->face == face)
			t->right++;
		else
			t->wrong_sure++;
	}
}

static void read_rest_crops(double noise, int crops, struct tally t[FC_PLACES])
{
	for (int i = 0; i < crops; i++) {
		struct face_case c;
		struct vis_image *img = face_case_render(noise > 1 ? 29 : 17, i, noise, &c);
		struct vis_die d;
		char err[256];
		double mid = FACE_CASE_CROP / 2.0;

		assert_non_null(img);
		count(&t[c.place], vis_read_die_near(img, mid, mid, FACE_CASE_DIE, &d, err, sizeof(err)),
		      &d, c.face);
		vis_image_free(img);
	}
	for (int p = 0; p < FC_PLACES; p++) {
		fprintf(stderr, "face near, noise x%.0f, %s: %d crops, %d right, %d wrong at >= %.1f\n",
			noise, face_case_place_name[p], t[p].n, t[p].right, t[p].wrong_sure, SURE);
		for (int f = 1; f <= 6; f++)
			assert_true(t[p].per_face[f] >= t[p].n / 7);	/* every face covered */
	}
}

/* BD-O2: a white die on the white centre line or against a cup reads as
 * one on open table (the general finder lost them in its segmentation). */
static void test_vis_face_near_reads_rest_crops_on_line_and_by_cups(void **state)
{
	struct tally t[FC_PLACES];

	(void)state;
	memset(t, 0, sizeof(t));
	read_rest_crops(1, 600, t);
	for (int p = 0; p < FC_PLACES; p++) {
		assert_int_equal(t[p].wrong_sure, 0);
		assert_true(t[p].right >= 0.985 * t[p].n);	/* measured 99.5-100 % */
	}
}

/* The same at doubled grain and blur (sim --noise 2). */
static void test_vis_face_near_reads_rest_crops_at_doubled_noise(void **state)
{
	struct tally t[FC_PLACES];

	(void)state;
	memset(t, 0, sizeof(t));
	read_rest_crops(2, 240, t);
	for (int p = 0; p < FC_PLACES; p++) {
		assert_int_equal(t[p].wrong_sure, 0);
		assert_true(t[p].right >= 0.98 * t[p].n);	/* measured 99.75-100 % */
	}
}

/* Light dice with dark pips and dark ones with light pips, 18-50 px. */
static void test_vis_face_near_reads_dice_of_any_colour(void **state)
{
	struct tally t = { 0 };

	(void)state;
	for (int i = 0; i < 210; i++) {
		struct face_case c;
		double u, v, die_px;
		struct vis_image *img = face_case_colour(19, i, &c, &u, &v, &die_px);
		struct vis_die d;
		char err[256];

		assert_non_null(img);
		count(&t, vis_read_die_near(img, u, v, die_px, &d, err, sizeof(err)), &d, c.face);
		vis_image_free(img);
	}
	fprintf(stderr, "face near, any colour: %d dice, %d right, %d wrong at >= %.1f\n", t.n,
		t.right, t.wrong_sure, SURE);
	assert_int_equal(t.wrong_sure, 0);
	assert_true(t.right >= 0.98 * t.n);	/* measured 99.67 % */
}

/* The die's size in pixels comes from the calibration: 12 % small or 15 %
 * large, faces are still read, and none wrong (a die 1.5 true sides off
 * lies beyond 1.5 of the smaller ones: some go unread). */
static void test_vis_face_near_tolerates_a_die_size_off_by_15_percent(void **state)
{
	const double scale[2] = { 0.88, 1.15 };

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct tally t = { 0 };

		for (int i = 0; i < 90; i++) {
			struct face_case c;
			struct vis_image *img = face_case_render(31, i, 1, &c);
			struct vis_die d;
			char err[256];
			double mid = FACE_CASE_CROP / 2.0;

			assert_non_null(img);
			count(&t, vis_read_die_near(img, mid, mid, FACE_CASE_DIE * scale[k], &d, err,
						    sizeof(err)), &d, c.face);
			vis_image_free(img);
		}
		fprintf(stderr, "face near, die size x%.2f: %d crops, %d right, %d wrong\n", scale[k],
			t.n, t.right, t.wrong_sure);
		assert_int_equal(t.wrong_sure, 0);
		assert_true(t.right >= (k == 0 ? 0.75 : 0.95) * t.n);
	}
}

/* A die 2.5 sides or more from the located point is not the one located:
 * nothing is read there with confidence, whatever the grain shows. */
static void test_vis_face_near_reads_nothing_where_no_die_is(void **state)
{
	struct sim_noise n;
	struct bd_table tb;
	struct sim_rng rng;

	(void)state;
	bd_table_defaults(&tb);
	sim_rng_seed(&rng, 23);
	for (int k = 0; k < 36; k++) {
		/* 192 px crop centred 2.5-2.9 sides (40-46 mm) from the die */
		double off = 0.040 + 0.006 * (k % 4) / 3, a = k * 0.7;
		struct vis_die d;
		char err[256];

		sim_noise_defaults(&n, 1 + k % 2);
		struct vis_image *img = sim_render_rest_crop(&n, &tb, 0.6, 0.5, 0.6 + off * cos(a),
							     0.5 + off * sin(a), 1 + k % 6, a,
							     FACE_CASE_CROP, &rng);

		assert_non_null(img);
		int rc = vis_read_die_near(img, FACE_CASE_CROP / 2.0, FACE_CASE_CROP / 2.0,
					   FACE_CASE_DIE, &d, err, sizeof(err));
		assert_true(rc == -ENOENT || (rc == 0 && d.confidence < SURE));
		vis_image_free(img);
	}
}

/* BD-O2: the general finder (vis_read_face_at, the camera glue's fallback
 * when vis_read_die_near is unsure) on a white die on the white line finds
 * part of it, and its pips and the face net then agree on a face with too
 * few pips; a blob well under the located size is never sure. Seed 11's
 * crops 346 (a 2 read as a 1 at 0.95) and 2386 (a 4 as a 2 at 0.96) did
 * that, and 300 more of the line's. */
static void test_vis_face_at_part_of_a_die_is_never_sure(void **state)
{
	(void)state;
	int reads = 0;
	for (int k = 0; k < 302; k++) {
		int i = k == 300 ? 346 : k == 301 ? 2386 : 3 * k + FC_LINE;
		struct face_case c;
		struct vis_image *img = face_case_render(11, i, 1, &c);
		struct vis_die d;
		char err[256];
		double mid = FACE_CASE_CROP / 2.0;

		assert_non_null(img);
		assert_int_equal(c.place, FC_LINE);
		int rc = vis_read_face_at(img, mid, mid, FACE_CASE_DIE, &d, err, sizeof(err));
		if (k >= 300)
			assert_int_equal(rc, 0);	/* the two are still found, */
		if (rc == 0) {
			reads++;
			if (d.confidence >= SURE)	/* but not given as sure */
				assert_int_equal(d.face, c.face);
		}
		vis_image_free(img);
	}
	fprintf(stderr, "face at, centre line: %d of 302 crops read\n", reads);
}

static void test_vis_face_near_refuses_bad_arguments(void **state)
{
	struct vis_image *img = vis_image_new(64, 64, VIS_GRAY8);
	struct vis_die d;
	char err[256];

	(void)state;
	assert_non_null(img);
	assert_int_equal(vis_read_die_near(NULL, 32, 32, 16, &d, err, sizeof(err)), -EINVAL);
	assert_int_equal(vis_read_die_near(img, 32, 32, 0, &d, err, sizeof(err)), -EINVAL);
	assert_int_equal(vis_read_die_near(img, 32, 32, NAN, &d, err, sizeof(err)), -EINVAL);
	assert_int_equal(vis_read_die_near(img, NAN, 32, 16, &d, err, sizeof(err)), -EINVAL);
	assert_int_equal(vis_read_die_near(img, -500, 32, 16, &d, err, sizeof(err)), -EINVAL);
	assert_int_equal(vis_read_die_near(img, 32, 32, 5000, &d, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "die size"));
	/* a plain grey image: no pips */
	memset(img->data, 128, (size_t)img->height * img->stride);
	assert_int_equal(vis_read_die_near(img, 32, 32, 16, &d, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no pips"));
	vis_image_free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vis_face_near_reads_rest_crops_on_line_and_by_cups),
		cmocka_unit_test(test_vis_face_near_reads_rest_crops_at_doubled_noise),
		cmocka_unit_test(test_vis_face_near_reads_dice_of_any_colour),
		cmocka_unit_test(test_vis_face_near_tolerates_a_die_size_off_by_15_percent),
		cmocka_unit_test(test_vis_face_near_reads_nothing_where_no_die_is),
		cmocka_unit_test(test_vis_face_at_part_of_a_die_is_never_sure),
		cmocka_unit_test(test_vis_face_near_refuses_bad_arguments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
