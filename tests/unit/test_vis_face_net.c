/* vision: the face net (vision/face_net.c): its crops and its forward pass.
 *
 * The forward pass is checked against torch's own output for the same
 * weights (tests/data/face-net-check.txt, written by
 * tools/fnet/train_face_net.py with them): a layer in the wrong order, a
 * kernel flipped, a transposed weight or a pooling off by one gives other
 * probabilities. What the net reads on real dice is judged by
 * test_vis_photos.c and bench/vision_photos.c. */
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

#define CHECK "tests/data/face-net-check.txt"
#define N (VIS_FNET_SIDE * VIS_FNET_SIDE * 3)

static struct vis_image *gradient(int w, int h)
{
	struct vis_image *img = vis_image_new(w, h, VIS_RGB24);
	assert_non_null(img);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint8_t *p = img->data + (size_t)y * img->stride + 3 * x;
			p[0] = (uint8_t)x;		/* red grows to the right */
			p[1] = (uint8_t)y;		/* green grows downwards */
			p[2] = 77;
		}
	return img;
}

static uint8_t *at(uint8_t *crop, int x, int y)
{
	return crop + (y * VIS_FNET_SIDE + x) * 3;
}

/* A crop of span = VIS_FNET_SIDE pixels at angle 0 is the image itself
 * (pixel centres sampled exactly), and a quarter turn maps the image's
 * x axis onto the crop's y axis. */
static void test_crop_axes_and_turn(void **state)
{
	(void)state;
	struct vis_image *img = gradient(200, 150);
	uint8_t crop[N], turned[N];
	/* Pixel k's centre is at k: crop pixel i samples x - SIDE/2 + 0.5 + i,
	 * so a centre at a half lands every sample on a pixel's centre. */
	double cx = 100.5, cy = 70.5;
	vis_fnet_crop(img, cx, cy, VIS_FNET_SIDE, 0, crop);
	for (int j = 0; j < VIS_FNET_SIDE; j++)
		for (int i = 0; i < VIS_FNET_SIDE; i++) {
			assert_int_equal(at(crop, i, j)[0], 101 - VIS_FNET_SIDE / 2 + i);
			assert_int_equal(at(crop, i, j)[1], 71 - VIS_FNET_SIDE / 2 + j);
			assert_int_equal(at(crop, i, j)[2], 77);
		}
	vis_fnet_crop(img, cx, cy, VIS_FNET_SIDE, M_PI / 2, turned);
	/* Turned a quarter (image y down, so clockwise on screen): moving
	 * down the crop moves left in the image, along a row. */
	for (int j = 1; j < VIS_FNET_SIDE; j++) {
		assert_int_equal(at(turned, 5, j)[0], at(turned, 5, j - 1)[0] - 1);
		assert_int_equal(at(turned, 5, j)[1], at(turned, 5, 0)[1]);
	}
	vis_image_free(img);
}

/* A big span is averaged, not point-sampled: a fine checkerboard gives a
 * flat grey, not an alias pattern. Beyond the image, its edge pixels. */
static void test_crop_averages_and_clamps(void **state)
{
	(void)state;
	struct vis_image *img = vis_image_new(300, 300, VIS_GRAY8);
	assert_non_null(img);
	for (int y = 0; y < 300; y++)
		for (int x = 0; x < 300; x++)
			img->data[(size_t)y * img->stride + x] = ((x + y) & 1) ? 200 : 0;
	uint8_t crop[N];
	/* Unturned and centred on a pixel, a step of 4 pixels puts every
	 * point sample on a pixel of one parity: all 0 or all 200. */
	vis_fnet_crop(img, 150, 150, 4.0 * VIS_FNET_SIDE, 0, crop);
	for (int k = 0; k < N; k++)
		assert_in_range(crop[k], 70, 130);
	img->data[0] = 99;
	vis_fnet_crop(img, -500, -500, VIS_FNET_SIDE, 0, crop);
	for (int k = 0; k < N; k++)
		assert_int_equal(crop[k], 99);
	vis_image_free(img);
}

/* The C forward pass gives torch's probabilities for the committed
 * weights. */
static void test_forward_matches_torch(void **state)
{
	(void)state;
	FILE *f = fopen(CHECK, "r");
	assert_non_null(f);
	static char line[2 * N + 64];
	int cases = 0;
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		assert_int_equal(strlen(line), 2 * N + 1);
		uint8_t crop[N];
		for (int k = 0; k < N; k++) {
			unsigned v;
			assert_int_equal(sscanf(line + 2 * k, "%2x", &v), 1);
			crop[k] = (uint8_t)v;
		}
		assert_non_null(fgets(line, sizeof line, f));
		double want[VIS_FNET_CLASSES];
		char *s = line;
		for (int k = 0; k < VIS_FNET_CLASSES; k++)
			want[k] = strtod(s, &s);
		float got[VIS_FNET_CLASSES];
		vis_fnet_classify(vis_fnet_builtin(), crop, got);
		double sum = 0;
		for (int k = 0; k < VIS_FNET_CLASSES; k++) {
			assert_true(fabs(got[k] - want[k]) < 1e-5);
			sum += got[k];
		}
		assert_true(fabs(sum - 1) < 1e-5);
		cases++;
	}
	fclose(f);
	assert_true(cases >= 4);
}

/* The crop is normalised by its own mean: a die lit more evenly brighter
 * reads the same (a gain changes the spread, which FNET_NORM_EPS floors,
 * so only an offset gives exactly the same net input). */
static void test_brightness_does_not_matter(void **state)
{
	(void)state;
	FILE *f = fopen(CHECK, "r");
	assert_non_null(f);
	static char line[2 * N + 64];
	do
		assert_non_null(fgets(line, sizeof line, f));
	while (line[0] == '#');
	fclose(f);
	uint8_t crop[N], lit[N];
	int top = 0;
	for (int k = 0; k < N; k++) {
		unsigned v;
		assert_int_equal(sscanf(line + 2 * k, "%2x", &v), 1);
		crop[k] = (uint8_t)v;
		if (crop[k] > top)
			top = crop[k];
	}
	int off = 255 - top < 30 ? 255 - top : 30;
	assert_true(off > 0);
	for (int k = 0; k < N; k++)
		lit[k] = (uint8_t)(crop[k] + off);
	float a[VIS_FNET_CLASSES], b[VIS_FNET_CLASSES];
	vis_fnet_classify(vis_fnet_builtin(), crop, a);
	vis_fnet_classify(vis_fnet_builtin(), lit, b);
	for (int k = 0; k < VIS_FNET_CLASSES; k++)
		assert_true(fabs(a[k] - b[k]) < 1e-5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crop_axes_and_turn),
		cmocka_unit_test(test_crop_averages_and_clamps),
		cmocka_unit_test(test_forward_matches_torch),
		cmocka_unit_test(test_brightness_does_not_matter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
