/* dyeref calibrate camera IMAGE [--flip]: finds the table's corners in a
 * camera image and prints the [camera] config lines: the corners, the
 * image -> table homography, and (as comments) where the cups and mine of
 * the standard layout fall in the image. Nothing is printed unless the
 * whole result is ready. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "daemon/daemon.h"
#include "vision/vision.h"

#define CALIB_MIN_W 64	/* smallest calibration picture, pixels */
#define CALIB_MIN_H 48

static const char usage[] =
	"usage: dyeref calibrate camera IMAGE [--flip]  (--flip: A's end on the image's right)";

int dd_calibrate_camera(int argc, char **argv)
{
	const char *path = NULL;
	int flip = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("%s\n", usage);
			return DD_EXIT_OK;
		}
		if (!strcmp(argv[i], "--flip"))
			flip = 1;
		else if (!path && argv[i][0] != '-')
			path = argv[i];
		else {
			dd_log(DD_LOG_ERR, "calibrate camera: unexpected argument '%s'", argv[i]);
			return DD_EXIT_USAGE;
		}
	}
	if (!path) {
		dd_log(DD_LOG_ERR, "%s", usage);
		return DD_EXIT_USAGE;
	}
	char err[512];
	struct vis_image *img;
	int r = vis_image_load(path, &img, err, sizeof err);
	if (r) {
		dd_log(DD_LOG_ERR, "%s", err);
		return r == -ENOMEM ? DD_EXIT_FAIL : DD_EXIT_USAGE;
	}
	/* A picture of the whole table from above is hundreds of pixels a side:
	 * corners found in a thumbnail would be too coarse to place cups by, so
	 * say so rather than print a calibration. (The corner finder itself
	 * copes with any size: tests/unit/test_vis_homography.c.) */
	if (img->width < CALIB_MIN_W || img->height < CALIB_MIN_H) {
		dd_log(DD_LOG_ERR, "%s: %dx%d pixels: too small for a calibration picture "
		       "(at least %dx%d)", path, img->width, img->height, CALIB_MIN_W, CALIB_MIN_H);
		vis_image_free(img);
		return DD_EXIT_USAGE;
	}
	double c[4][2], h[9], inv[9];
	struct bd_table tb;
	bd_table_defaults(&tb);
	const double tab[4][2] = { { 0, 0 }, { 0, tb.width_m }, { tb.length_m, tb.width_m }, { tb.length_m, 0 } };
	int w = img->width, hh = img->height;
	r = vis_find_table_corners(img, flip, c, err, sizeof err);
	vis_image_free(img);
	if (r) {
		dd_log(DD_LOG_ERR, "%s: %s", path, err);
		return r == -ENOMEM ? DD_EXIT_FAIL : DD_EXIT_USAGE;
	}
	if (vis_homography_fit(c, tab, 4, h) || vis_homography_invert(h, inv)) {
		dd_log(DD_LOG_ERR, "%s: calibrate: the corners found are degenerate", path);
		return DD_EXIT_USAGE;
	}
	static const char *names[4] = { "corner_a_left", "corner_a_right", "corner_b_right", "corner_b_left" };
	static const char *players[BD_PLAYERS] = { "a1", "a2", "b1", "b2" };
	printf("[camera]\n");
	printf("# dyeref calibrate camera %s (%dx%d): table corners, image pixels\n", path, w, hh);
	for (int k = 0; k < 4; k++)
		printf("%s = %.2f,%.2f\n", names[k], c[k][0], c[k][1]);
	printf("# image pixels -> table metres, row-major, h33 = 1\nhomography = ");
	for (int k = 0; k < 9; k++)
		printf("%.9g%s", h[k], k < 8 ? "," : "\n");
	printf("# the picture's size, pixels: the daemon scales the calibration to its tracking frames\n"
	       "calibrated_size = %d,%d\n", w, hh);
	printf("# from the standard layout (bd_table_defaults): centre u,v and radius, pixels\n");
	for (int p = 0; p <= BD_TABLE_MINE; p++) {
		double x, y, rad, u, v, u2, v2;

		bd_table_spot(&tb, p, &x, &y, &rad);
		vis_homography_apply(inv, x, y, &u, &v);
		vis_homography_apply(inv, x + rad, y, &u2, &v2);
		printf("# %s%s = %.1f,%.1f,%.1f\n", p < BD_PLAYERS ? "cup_" : "mine",
		       p < BD_PLAYERS ? players[p] : "", u, v, hypot(u2 - u, v2 - v));
	}
	if (fflush(stdout)) {
		dd_log(DD_LOG_ERR, "calibrate camera: writing stdout: %s", strerror(errno));
		return DD_EXIT_FAIL;
	}
	return DD_EXIT_OK;
}
