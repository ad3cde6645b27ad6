/* vision: face reading on rendered dice (vis_render_random_dice, fixed
 * seeds): every face, rotations in [0, 90) degrees, light and dark dice of
 * many colours, die sizes 18-50 pixels, light levels and gradients, noise
 * 0-6 grey levels. Issue 6's targets: 99.5 % of the found dice read right
 * and no wrong face with confidence >= 0.9 (see the checks below).
 * Plus the renderer's own contract and the homography it draws through. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "vision/vision.h"

#define IMAGES 1000	/* x 4 dice asked, about 2400 placed (no overlaps) */
#define SMALL_IMAGES 200	/* ... of them seen from twice as far */
#define FLOOR_SMALL_RIGHT 0.95	/* share of those read right: 476 of 477 measured, 298 before */

/* s rendered and read with the defaults into out (16 dice); how many. */
static int read_scene(const struct vis_render_scene *s, struct vis_die out[16])
{
	struct vis_image *img;
	char err[256];
	assert_int_equal(vis_render(s, &img, err, sizeof err), 0);
	int n = vis_dice_find(img, NULL, out, 16, err, sizeof err);
	vis_image_free(img);
	assert_true(n >= 0 && n <= 16);
	return n;
}

static void test_vis_rendered_dice_read_at_target_accuracy(void **state)
{
	(void)state;
	int dice = 0, found = 0, right = 0, sure_wrong = 0, stray = 0;
	int per_face[7] = { 0 };
	for (int i = 0; i < IMAGES; i++) {
		struct vis_render_scene s = { .width = 200, .height = 200 };
		vis_render_random_dice(&s, (uint64_t)i + 1, 4);
		struct vis_die out[16];
		int n = read_scene(&s, out);
		int used[16] = { 0 };
		for (int k = 0; k < s.n_dice; k++) {
			double u, v, half = s.die_side_m * s.h[0] / 2;
			assert_int_equal(vis_homography_apply(s.h, s.dice[k].x, s.dice[k].y, &u, &v), 0);
			dice++;
			per_face[s.dice[k].face]++;
			for (int j = 0; j < n; j++) {
				if (used[j] || fabs(out[j].x - u) > half || fabs(out[j].y - v) > half)
					continue;
				used[j] = 1;
				found++;
				if (out[j].face == s.dice[k].face)
					right++;
				else if (out[j].confidence >= 0.9)
					sure_wrong++;
				break;
			}
		}
		for (int j = 0; j < n; j++)
			stray += !used[j];
	}
	fprintf(stderr, "rendered: %d dice, %d found, %d right, %d sure-wrong, %d stray\n", dice, found,
		right, sure_wrong, stray);
	for (int f = 1; f <= 6; f++)
		assert_true(per_face[f] > dice / 10);	/* every face well covered */
	/* This set measured 2353 found of 2380, 2349 right (99.83 %), none
	 * wrong with confidence >= 0.9. Asserted: issue 6's target itself for
	 * accuracy, and a die of slack on the sure-wrong count. */
	assert_true(dice > 2000);
	assert_true(found >= 0.97 * dice);
	assert_true(right >= 0.995 * found);
	assert_true(sure_wrong <= 1);
	assert_int_equal(stray, 0);
}

/* The same dice seen from twice as far (9-25 pixels in 100x100): too
 * small for the reader's clean-up and below min_die_px, most were not
 * found; such a picture is also read enlarged. */
static void test_vis_rendered_small_dice_read_enlarged(void **state)
{
	(void)state;
	int dice = 0, right = 0, sure_wrong = 0;
	for (int i = 0; i < SMALL_IMAGES; i++) {
		struct vis_render_scene s = { .width = 200, .height = 200 };
		vis_render_random_dice(&s, (uint64_t)i + 1, 4);
		s.width = s.height = 100;
		for (int k = 0; k < 6; k++)
			s.h[k] /= 2;	/* image rows of the homography: half the pixels */
		struct vis_die out[16];
		int n = read_scene(&s, out);
		for (int k = 0; k < s.n_dice; k++) {
			double u, v, half = s.die_side_m * s.h[0] / 2;
			assert_int_equal(vis_homography_apply(s.h, s.dice[k].x, s.dice[k].y, &u, &v), 0);
			dice++;
			for (int j = 0; j < n; j++)
				if (fabs(out[j].x - u) <= half && fabs(out[j].y - v) <= half) {
					right += out[j].face == s.dice[k].face;
					sure_wrong += out[j].face != s.dice[k].face && out[j].confidence >= 0.9;
					break;
				}
		}
	}
	fprintf(stderr, "small rendered: %d dice, %d right, %d sure-wrong\n", dice, right, sure_wrong);
	assert_true(dice > 400);
	assert_true(right >= FLOOR_SMALL_RIGHT * dice);
	assert_true(sure_wrong <= 1);
}

static void test_vis_render_is_deterministic_and_checks_its_input(void **state)
{
	(void)state;
	struct vis_render_scene s = { .width = 64, .height = 48 };
	struct vis_image *a, *b;
	char err[256];
	vis_render_random_dice(&s, 42, 2);
	s.width = 64;
	assert_int_equal(vis_render(&s, &a, err, sizeof err), 0);
	assert_int_equal(vis_render(&s, &b, err, sizeof err), 0);
	assert_memory_equal(a->data, b->data, a->stride * (size_t)a->height);
	vis_image_free(a);
	vis_image_free(b);
	s.dice[0].face = 7;
	assert_int_equal(vis_render(&s, &a, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "face 7 outside 1-6"));
	s.dice[0].face = 1;
	memset(s.h, 0, sizeof s.h);
	assert_int_equal(vis_render(&s, &a, err, sizeof err), -EINVAL);
	assert_null(a);
}

/* The whole-table view: the cups are where bd_table_defaults puts them. */
static void test_vis_render_table_cups_and_line_where_layout_says(void **state)
{
	(void)state;
	struct vis_render_scene s;
	struct vis_image *img;
	char err[256];
	vis_render_scene_default(&s);
	s.noise_sigma = 0;
	s.light_gradient = 0;
	assert_int_equal(vis_render(&s, &img, err, sizeof err), 0);
	double u, v;
	vis_homography_apply(s.h, s.table.cup_x[2], s.table.cup_y[2], &u, &v);
	const uint8_t *p = img->data + (size_t)(int)v * img->stride + 3 * (size_t)(int)u;
	assert_true(p[0] > 150 && p[2] < 80);	/* beer in b1's cup */
	vis_homography_apply(s.h, s.table.length_m / 2, 0.3, &u, &v);
	p = img->data + (size_t)(int)v * img->stride + 3 * (size_t)(int)u;
	assert_true(p[0] > 200 && p[1] > 200);	/* the white centre line */
	vis_homography_apply(s.h, 0.6, 0.3, &u, &v);
	p = img->data + (size_t)(int)v * img->stride + 3 * (size_t)(int)u;
	assert_true(p[1] > p[0] + 30);	/* green table top */
	vis_image_free(img);
}

/* The second look (docs/vision.md, step 6): dice the tray's own colour
 * leave no body to find, only their pips; with dice of another colour
 * read surely in the same image (they give the size), the white dice are
 * read by their pips and the plain rim around them. */
static void test_vis_dice_tray_coloured_dice_read_by_their_pips(void **state)
{
	(void)state;
	struct vis_render_scene s;
	vis_render_scene_default(&s);
	s.width = 360;
	s.height = 240;
	s.show_table = 0;
	s.tray[0] = s.tray[1] = s.tray[2] = 205;
	s.light_gradient = 0;
	s.noise_sigma = 2;
	vis_render_view_topdown(&s, 1.0, 0.3, 0.24);	/* 1500 px/m: a 24 px die */
	static const int faces[6] = { 3, 5, 6, 4, 5, 6 };
	s.n_dice = 6;
	for (int i = 0; i < 6; i++) {
		struct vis_render_die *d = &s.dice[i];
		memset(d, 0, sizeof *d);
		d->x = 0.92 + 0.055 * (i % 3);
		d->y = 0.26 + 0.075 * (i / 3);
		d->angle = 0.2 * i;
		d->face = faces[i];
		/* Top row red with white pips; bottom row the tray's white, black pips. */
		uint8_t body = i < 3 ? 0 : 205;
		d->body[0] = i < 3 ? 200 : body;
		d->body[1] = d->body[2] = i < 3 ? 30 : body;
		memset(d->pip, i < 3 ? 250 : 20, 3);
	}
	struct vis_image *img;
	char err[256];
	assert_int_equal(vis_render(&s, &img, err, sizeof err), 0);
	struct vis_die out[16];
	int n = vis_dice_find(img, NULL, out, 16, err, sizeof err);
	vis_image_free(img);
	assert_true(n >= 0 && n <= 16);
	int right = 0;
	for (int i = 0; i < 6; i++) {
		double u, v;
		assert_int_equal(vis_homography_apply(s.h, s.dice[i].x, s.dice[i].y, &u, &v), 0);
		for (int j = 0; j < n; j++)
			if (hypot(out[j].x - u, out[j].y - v) < 8 && out[j].face == faces[i]) {
				right++;
				break;
			}
	}
	fprintf(stderr, "tray-coloured: %d of 6 read, %d detections\n", right, n);
	assert_int_equal(right, 6);
	assert_int_equal(n, 6);
}

/* The tracker says where a die rests; the full-resolution frame is read
 * there: a 1600x900 view of a stretch of table with one die at rest. */
static void test_vis_read_face_at_a_resting_die_in_a_full_frame(void **state)
{
	(void)state;
	struct vis_render_scene s;
	vis_render_scene_default(&s);
	s.width = 1600;
	s.height = 900;
	vis_render_view_topdown(&s, 1.6, 0.6, 0.5);	/* 0.5 m across: 51 px a die */
	s.n_dice = 1;
	memset(&s.dice[0], 0, sizeof s.dice[0]);
	s.dice[0].x = 1.7;
	s.dice[0].y = 0.55;
	s.dice[0].face = 6;
	s.dice[0].angle = 0.4;
	memcpy(s.dice[0].body, (uint8_t[3]){ 240, 240, 235 }, 3);
	memcpy(s.dice[0].pip, (uint8_t[3]){ 20, 20, 20 }, 3);
	struct vis_image *img;
	char err[256];
	assert_int_equal(vis_render(&s, &img, err, sizeof err), 0);
	double u, v;
	vis_homography_apply(s.h, 1.7, 0.55, &u, &v);
	struct vis_die d;
	/* the tracker's estimate is a few pixels off: so is the call */
	assert_int_equal(vis_read_face_at(img, u + 6, v - 4, 51, &d, err, sizeof err), 0);
	assert_int_equal(d.face, 6);
	fprintf(stderr, "read at %.1f,%.1f, die at %.1f,%.1f\n", d.x, d.y, u, v);
	/* within a seventh of the die: its shadow pulls the blob a little */
	assert_true(fabs(d.x - u) < 7 && fabs(d.y - v) < 7);
	/* nothing there, and outside the image */
	assert_int_equal(vis_read_face_at(img, 200, 200, 51, &d, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "no die read near"));
	assert_int_equal(vis_read_face_at(img, 5000, 200, 51, &d, err, sizeof err), -EINVAL);
	vis_image_free(img);
}

/* vis_dice_find refuses what it cannot read at every size, the big
 * pictures it reads at two sizes too: a clear -EINVAL, nothing read. */
static void test_vis_dice_find_checks_its_input_at_any_size(void **state)
{
	(void)state;
	char err[128] = "";
	struct vis_die d[4];
	assert_int_equal(vis_dice_find(NULL, NULL, d, 4, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "unknown format"));
	struct vis_image *tiny = vis_image_new(4, 4, VIS_RGB24);
	assert_non_null(tiny);
	err[0] = 0;
	assert_int_equal(vis_dice_find(tiny, NULL, d, 4, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "below 8x8"));
	vis_image_free(tiny);
	/* Over 1600 a side (read downscaled) and over 800 (read at two
	 * sizes): a format the reader does not know is still refused. */
	for (int side = 900; side <= 2000; side += 1100) {
		struct vis_image *big = vis_image_new(side, side, VIS_GRAY8);
		assert_non_null(big);
		memset(big->data, 128, (size_t)big->stride * big->height);
		/* a plain grey picture: no die, and a count asked with no array */
		assert_int_equal(vis_dice_find(big, NULL, NULL, 0, err, sizeof err), 0);
		big->format = (enum vis_format)7;
		err[0] = 0;
		assert_int_equal(vis_dice_find(big, NULL, d, 4, err, sizeof err), -EINVAL);
		assert_non_null(strstr(err, "unknown format"));
		big->format = VIS_GRAY8;
		vis_image_free(big);
	}
}

/* A strip of the longest side allowed and 8 pixels high is read
 * box-averaged 11 x 11 and 22 x 22 (16384 is over DICE_MAX_SIDE): no row
 * is left. vis_dice_find refuses it up front with -EINVAL naming the
 * picture and the scale, not "out of memory" nor its copy's size. */
static void test_vis_dice_find_strip_too_thin_to_downscale_refused(void **state)
{
	(void)state;
	/* Read at 1/11 and 1/22 (16384 wide), at 1/2 and 1/4 (3200 wide):
	 * the message names the user's picture, not a copy of it. 3200x24
	 * is thick enough at 1/2 and not at 1/4. */
	static const struct { int w, h, at; } thin[] = { { VIS_MAX_SIDE, 8, 22 }, { 3200, 10, 4 }, { 3200, 24, 4 } };
	char err[160] = "", want[160];
	struct vis_die d[4];

	for (size_t i = 0; i < sizeof(thin) / sizeof(thin[0]); i++) {
		struct vis_image *strip = vis_image_new(thin[i].w, thin[i].h, VIS_GRAY8);

		assert_non_null(strip);
		memset(strip->data, 128, (size_t)strip->stride * strip->height);
		assert_int_equal(vis_dice_find(strip, NULL, d, 4, err, sizeof err), -EINVAL);
		snprintf(want, sizeof(want), "dice: a %dx%d image is too thin to read: at 1/%d of its size",
			 thin[i].w, thin[i].h, thin[i].at);
		assert_non_null(strstr(err, want));
		vis_image_free(strip);
	}
	/* Thick enough at its coarsest scale: read (nothing on it). */
	struct vis_image *ok = vis_image_new(3200, 32, VIS_GRAY8);
	assert_non_null(ok);
	memset(ok->data, 128, (size_t)ok->stride * ok->height);
	assert_int_equal(vis_dice_find(ok, NULL, d, 4, err, sizeof err), 0);
	vis_image_free(ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vis_render_is_deterministic_and_checks_its_input),
		cmocka_unit_test(test_vis_dice_find_checks_its_input_at_any_size),
		cmocka_unit_test(test_vis_dice_find_strip_too_thin_to_downscale_refused),
		cmocka_unit_test(test_vis_render_table_cups_and_line_where_layout_says),
		cmocka_unit_test(test_vis_read_face_at_a_resting_die_in_a_full_frame),
		cmocka_unit_test(test_vis_dice_tray_coloured_dice_read_by_their_pips),
		cmocka_unit_test(test_vis_rendered_dice_read_at_target_accuracy),
		cmocka_unit_test(test_vis_rendered_small_dice_read_enlarged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
