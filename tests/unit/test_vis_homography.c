/* vision: homographies between image pixels and table metres (DLT). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vis_homography_four_corners_recover_a_tilted_view),
		cmocka_unit_test(test_vis_homography_least_squares_on_noisy_points),
		cmocka_unit_test(test_vis_homography_degenerate_points_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
