/* vision: homographies between image pixels and table metres (DLT), and
 * calibration: the table's corners found in rendered views, straight and
 * tilted, give a homography that maps the cups where they are. */
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

/* A tilted camera: some projective h, the table's corners through it,
 * and the fit from those four pairs must give back h (to scale). */
static void test_vis_homography_four_corners_recover_a_tilted_view(void **state)
{
	(void)state;
	const double h[9] = { 210, 12, 40, -8, 195, 30, 0.02, -0.05, 1 };
	const double tab[4][2] = { { 0, 0 }, { 0, 1.22 }, { 2.44, 1.22 }, { 2.44, 0 } };
	double img[4][2], fit[9];
	for (int i = 0; i < 4; i++)
		assert_int_equal(vis_homography_apply(h, tab[i][0], tab[i][1], &img[i][0], &img[i][1]), 0);
	assert_int_equal(vis_homography_fit(tab, img, 4, fit), 0);
	for (int k = 0; k < 9; k++)
		assert_true(fabs(fit[k] - h[k]) < 1e-6 * (1 + fabs(h[k])));
	/* image -> table, and any inner point maps both ways */
	double back[9];
	assert_int_equal(vis_homography_fit(img, tab, 4, back), 0);
	double u, v, x, y;
	vis_homography_apply(h, 1.9, 0.4, &u, &v);
	vis_homography_apply(back, u, v, &x, &y);
	assert_true(fabs(x - 1.9) < 1e-9 && fabs(y - 0.4) < 1e-9);
	double inv[9];
	assert_int_equal(vis_homography_invert(h, inv), 0);
	vis_homography_apply(inv, u, v, &x, &y);
	assert_true(fabs(x - 1.9) < 1e-9 && fabs(y - 0.4) < 1e-9);
}

/* More than four noisy points: least squares stays within the noise. */
static void test_vis_homography_least_squares_on_noisy_points(void **state)
{
	(void)state;
	const double h[9] = { 250, 0, 20, 0, 250, 15, 0, 0, 1 };
	double tab[12][2], img[12][2], fit[9];
	for (int i = 0; i < 12; i++) {
		tab[i][0] = (i % 4) * 0.8;
		tab[i][1] = (i / 4) * 0.6;
		vis_homography_apply(h, tab[i][0], tab[i][1], &img[i][0], &img[i][1]);
		img[i][0] += (i % 3 - 1) * 0.5;	/* half-pixel errors */
		img[i][1] += ((i + 1) % 3 - 1) * 0.5;
	}
	assert_int_equal(vis_homography_fit(img, tab, 12, fit), 0);
	double x, y, u, v;
	vis_homography_apply(h, 1.2, 0.7, &u, &v);
	vis_homography_apply(fit, u, v, &x, &y);
	assert_true(fabs(x - 1.2) < 0.003 && fabs(y - 0.7) < 0.003);	/* mm over metres */
}

static void test_vis_homography_degenerate_points_refused(void **state)
{
	(void)state;
	const double line[4][2] = { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 } };
	const double sq[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
	double fit[9];
	assert_int_equal(vis_homography_fit(line, sq, 4, fit), -EDOM);
	assert_int_equal(vis_homography_fit(sq, sq, 3, fit), -EINVAL);
	const double same[4][2] = { { 1, 1 }, { 1, 1 }, { 1, 1 }, { 1, 1 } };
	assert_int_equal(vis_homography_fit(same, sq, 4, fit), -EDOM);
	const double zero[9] = { 0 };
	double inv[9];
	assert_int_equal(vis_homography_invert(zero, inv), -EDOM);
}

/* Renders the table through h (table -> image) and finds its corners. */
static void check_corners(const double h[9], int flip, double tol_px)
{
	struct vis_render_scene s;
	vis_render_scene_default(&s);
	memcpy(s.h, h, sizeof s.h);
	struct vis_image *img;
	char err[256];
	assert_int_equal(vis_render(&s, &img, err, sizeof err), 0);
	double c[4][2];
	int r = vis_find_table_corners(img, flip, c, err, sizeof err);
	if (r)
		fprintf(stderr, "%s\n", err);
	assert_int_equal(r, 0);
	const double tab[4][2] = { { 0, 0 }, { 0, 1.22 }, { 2.44, 1.22 }, { 2.44, 0 } };
	for (int k = 0; k < 4; k++) {
		double u, v;
		vis_homography_apply(h, tab[k][0], tab[k][1], &u, &v);
		fprintf(stderr, "corner %d: found %.2f,%.2f true %.2f,%.2f\n", k, c[k][0], c[k][1], u, v);
		assert_true(hypot(c[k][0] - u, c[k][1] - v) < tol_px);
	}
	/* The calibration: image -> table; b1's cup centre maps within 1 cm. */
	double cal[9], x, y, u, v;
	assert_int_equal(vis_homography_fit(c, tab, 4, cal), 0);
	vis_homography_apply(h, s.table.cup_x[2], s.table.cup_y[2], &u, &v);
	vis_homography_apply(cal, u, v, &x, &y);
	assert_true(hypot(x - s.table.cup_x[2], y - s.table.cup_y[2]) < 0.01);
	vis_image_free(img);
}

static void test_vis_calibrate_corners_of_a_straight_view(void **state)
{
	(void)state;
	struct vis_render_scene s;
	vis_render_scene_default(&s);
	check_corners(s.h, 0, 1.0);
}

/* A camera off to one side and turned a little: a projective view. */
static void test_vis_calibrate_corners_of_a_tilted_view(void **state)
{
	(void)state;
	const double h[9] = { 215, 25, 55, -12, 230, 45, 0.03, 0.06, 1 };
	check_corners(h, 0, 1.5);
}

/* Mounted the other way round: A's end on the image's right. */
static void test_vis_calibrate_flipped_ends(void **state)
{
	(void)state;
	/* table (x, y) -> image (W - k x, H - k y) */
	const double h[9] = { -230, 0, 320 + 230 * 1.22, 0, -230, 180 + 230 * 0.61, 0, 0, 1 };
	check_corners(h, 1, 1.0);
}

static void test_vis_calibrate_no_table_in_view(void **state)
{
	(void)state;
	struct vis_image *img = vis_image_new(64, 48, VIS_GRAY8);
	memset(img->data, 90, img->stride * 48);
	double c[4][2];
	char err[256];
	assert_int_equal(vis_find_table_corners(img, 0, c, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "no table in view"));
	vis_image_free(img);
}

/* Calibrated on a photo three times the tracking stream's size (the
 * sensor's full size, as rpicam-still takes it), the homography taken to
 * the stream's pixels places b1's cup within 1 cm; used as it is, on
 * stream pixels, it would place it far off the table's corner. A photo
 * of another shape is refused. */
static void test_vis_homography_resized_to_the_tracking_stream(void **state)
{
	(void)state;
	const double h[9] = { 215, 25, 55, -12, 230, 45, 0.03, 0.06, 1 };
	struct vis_render_scene s;
	vis_render_scene_default(&s);
	memcpy(s.h, h, sizeof s.h);
	struct vis_image *img, *big;
	char err[256];
	assert_int_equal(vis_render(&s, &img, err, sizeof err), 0);
	big = vis_image_scaled(img, 3);
	assert_non_null(big);
	assert_int_equal(big->width, 3 * img->width);
	double c[4][2], cal[9], to_stream[9], u, v, x, y;
	const double tab[4][2] = { { 0, 0 }, { 0, 1.22 }, { 2.44, 1.22 }, { 2.44, 0 } };
	assert_int_equal(vis_find_table_corners(big, 0, c, err, sizeof err), 0);
	assert_int_equal(vis_homography_fit(c, tab, 4, cal), 0);
	assert_int_equal(vis_homography_resized(cal, big->width, big->height, img->width, img->height,
						to_stream), 0);
	vis_homography_apply(h, s.table.cup_x[2], s.table.cup_y[2], &u, &v);
	vis_homography_apply(to_stream, u, v, &x, &y);
	assert_true(hypot(x - s.table.cup_x[2], y - s.table.cup_y[2]) < 0.01);
	vis_homography_apply(cal, u, v, &x, &y);
	assert_true(hypot(x - s.table.cup_x[2], y - s.table.cup_y[2]) > 0.5);
	/* The same size: unchanged. */
	assert_int_equal(vis_homography_resized(cal, 640, 360, 640, 360, to_stream), 0);
	for (int k = 0; k < 9; k++)
		assert_true(fabs(to_stream[k] - cal[k]) < 1e-12 * (1 + fabs(cal[k])));
	/* 16:9 against 4:3 is another crop of the sensor; sizes must be real. */
	assert_int_equal(vis_homography_resized(cal, 4608, 2592, 640, 480, to_stream), -EINVAL);
	assert_int_equal(vis_homography_resized(cal, 0, 2592, 640, 360, to_stream), -EINVAL);
	assert_int_equal(vis_homography_resized(cal, 4608, 2592, 640, -1, to_stream), -EINVAL);
	vis_image_free(big);
	vis_image_free(img);
}

/* A bright rectangle on a dark floor, w x h pixels, table on [x0,x1) x [y0,y1). */
static struct vis_image *rect_image(int w, int h, int x0, int y0, int x1, int y1)
{
	struct vis_image *img = vis_image_new(w, h, VIS_GRAY8);
	assert_non_null(img);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			img->data[(size_t)y * img->stride + (size_t)x] =
				x >= x0 && x < x1 && y >= y0 && y < y1 ? 200 : 40;
	return img;
}

/* A 24x24 picture has 96 border pixels but each side is sampled 99 times:
 * the side points once overflowed a buffer sized by the border (heap
 * corruption). The corners must come out right, at pixel edges. */
static void test_vis_calibrate_tiny_picture_finds_the_corners(void **state)
{
	(void)state;
	struct vis_image *img = rect_image(24, 24, 4, 5, 20, 18);
	double c[4][2];
	char err[256];
	int r = vis_find_table_corners(img, 0, c, err, sizeof err);
	if (r)
		fprintf(stderr, "%s\n", err);
	assert_int_equal(r, 0);
	/* top-left, bottom-left, bottom-right, top-right (A's end on the left) */
	const double want[4][2] = { { 4, 5 }, { 4, 18 }, { 20, 18 }, { 20, 5 } };
	for (int k = 0; k < 4; k++)
		assert_true(hypot(c[k][0] - want[k][0], c[k][1] - want[k][1]) < 1.0);
	vis_image_free(img);
}

/* Every small and odd size, from one pixel up, with a table filling the
 * middle: found or refused with a message, never a crash or overrun (the
 * ASan build runs this too). */
static void test_vis_calibrate_tiny_and_odd_sizes_never_overrun(void **state)
{
	(void)state;
	int found = 0;
	for (int w = 1; w <= 40; w += (w < 12 ? 1 : 7))
		for (int h = 1; h <= 40; h += (h < 12 ? 1 : 5)) {
			struct vis_image *img = rect_image(w, h, w / 5, h / 5, w - w / 5, h - h / 5);
			double c[4][2];
			char err[256] = "";
			int r = vis_find_table_corners(img, (w + h) & 1, c, err, sizeof err);
			if (r == 0) {
				found++;
				for (int k = 0; k < 4; k++)
					assert_true(isfinite(c[k][0]) && isfinite(c[k][1]));
			} else {
				assert_int_equal(r, -ENOENT);
				assert_true(strncmp(err, "calibrate: ", 11) == 0);
			}
			vis_image_free(img);
		}
	assert_true(found > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vis_homography_four_corners_recover_a_tilted_view),
		cmocka_unit_test(test_vis_homography_least_squares_on_noisy_points),
		cmocka_unit_test(test_vis_homography_degenerate_points_refused),
		cmocka_unit_test(test_vis_calibrate_corners_of_a_straight_view),
		cmocka_unit_test(test_vis_calibrate_corners_of_a_tilted_view),
		cmocka_unit_test(test_vis_calibrate_flipped_ends),
		cmocka_unit_test(test_vis_calibrate_no_table_in_view),
		cmocka_unit_test(test_vis_homography_resized_to_the_tracking_stream),
		cmocka_unit_test(test_vis_calibrate_tiny_picture_finds_the_corners),
		cmocka_unit_test(test_vis_calibrate_tiny_and_odd_sizes_never_overrun),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
