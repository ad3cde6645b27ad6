/* vision: the libcamera shim through its C interface. This machine has no
 * camera: opening must fail cleanly with a message, never crash or throw;
 * bad configurations are refused before libcamera is touched; and the
 * YUV -> RGB conversion the shim uses is checked on known colours. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "vision/vision.h"

static void test_vis_camera_defaults_are_the_tracking_stream(void **state)
{
	(void)state;
	struct vis_camera_cfg cfg;
	vis_camera_cfg_default(&cfg);
	assert_int_equal(cfg.low_width, 640);
	assert_int_equal(cfg.low_height, 360);
	assert_int_equal(cfg.full_width, 0);
	assert_int_equal(cfg.buffers, 4);
	assert_null(cfg.id);
}

static void test_vis_camera_bad_config_refused_with_einval(void **state)
{
	(void)state;
	struct vis_camera_cfg cfg;
	char err[256] = "";
	vis_camera_cfg_default(&cfg);
	cfg.buffers = 1;
	errno = 0;
	assert_null(vis_camera_open(&cfg, err, sizeof err));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, "camera: bad configuration"));
	vis_camera_cfg_default(&cfg);
	cfg.low_width = 0;
	assert_null(vis_camera_open(&cfg, err, sizeof err));
	assert_int_equal(errno, EINVAL);
	assert_null(vis_camera_open(NULL, err, sizeof err));
}

/* No camera here (a container, a CI runner): a clean NULL and a message;
 * ENODEV when libcamera runs and finds none, EIO when it cannot start. */
static void test_vis_camera_absent_camera_is_a_clear_error(void **state)
{
	(void)state;
	struct vis_camera_cfg cfg;
	char err[256] = "";
	vis_camera_cfg_default(&cfg);
	errno = 0;
	struct vis_camera *cam = vis_camera_open(&cfg, err, sizeof err);
	if (cam) {
		/* A machine with a real camera: nothing to check here. */
		vis_camera_close(cam);
		skip();
	}
	fprintf(stderr, "open: %s (errno %d)\n", err, errno);
	assert_true(errno == ENODEV || errno == EIO || errno == EBUSY);
	assert_true(strncmp(err, "camera: ", 8) == 0);
	if (errno == ENODEV)
		assert_non_null(strstr(err, "no camera"));
	/* Asking for a named camera that does not exist. */
	cfg.id = "/base/no/such/camera";
	assert_null(vis_camera_open(&cfg, err, sizeof err));
	assert_true(errno == ENODEV || errno == EIO);
	vis_camera_close(NULL);
}

static void test_vis_yuv420_known_colours(void **state)
{
	(void)state;
	/* 2x2 image, one chroma sample: black, white, and BT.601 red. */
	struct {
		uint8_t y, u, v, r, g, b;
	} cases[] = {
		{ 16, 128, 128, 0, 0, 0 },
		{ 235, 128, 128, 255, 255, 255 },
		{ 81, 90, 240, 255, 0, 0 },
		{ 145, 54, 34, 0, 255, 0 },
		{ 41, 240, 110, 0, 0, 255 },
	};
	struct vis_image *img = vis_image_new(2, 2, VIS_RGB24);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t y[4] = { cases[i].y, cases[i].y, cases[i].y, cases[i].y };
		vis_yuv420_to_rgb(y, 2, &cases[i].u, &cases[i].v, 1, img);
		for (int p = 0; p < 4; p++) {
			const uint8_t *o = img->data + (p / 2) * img->stride + 3 * (p % 2);
			assert_true(abs(o[0] - cases[i].r) <= 3);
			assert_true(abs(o[1] - cases[i].g) <= 3);
			assert_true(abs(o[2] - cases[i].b) <= 3);
		}
	}
	vis_image_free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vis_camera_defaults_are_the_tracking_stream),
		cmocka_unit_test(test_vis_camera_bad_config_refused_with_einval),
		cmocka_unit_test(test_vis_camera_absent_camera_is_a_clear_error),
		cmocka_unit_test(test_vis_yuv420_known_colours),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
