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
	assert_int_equal(cfg.fps, 0);	/* as fast as the sensor mode allows */
	assert_null(cfg.id);
}

/* The rate asked at start: libcamera's Raspberry Pi pipeline stays at 30
 * frames a second unless given FrameDurationLimits, and the tracker times
 * a toss by frames. */
static void test_vis_camera_frame_durations_within_the_mode(void **state)
{
	(void)state;
	int64_t d[2] = { -1, -1 };
	/* As fast as the mode allows: its shortest frame, fixed. */
	assert_int_equal(vis_camera_frame_durations(0, 8333, 1000000, d), 0);
	assert_true(d[0] == 8333 && d[1] == 8333);
	/* A rate asked for, rounded to the microsecond. */
	assert_int_equal(vis_camera_frame_durations(60, 8333, 1000000, d), 0);
	assert_true(d[0] == 16667 && d[1] == 16667);
	/* Faster than the mode: its shortest; slower: its longest. */
	assert_int_equal(vis_camera_frame_durations(240, 17849, 1000000, d), 0);
	assert_true(d[0] == 17849 && d[1] == 17849);
	assert_int_equal(vis_camera_frame_durations(1, 8333, 500000, d), 0);
	assert_true(d[0] == 500000 && d[1] == 500000);
	/* No limits stated: a rate asked for is asked as it is. */
	assert_int_equal(vis_camera_frame_durations(30, 0, 0, d), 0);
	assert_true(d[0] == 33333 && d[1] == 33333);
	/* As fast as possible with no limit known: nothing to ask. */
	assert_int_equal(vis_camera_frame_durations(0, 0, 0, d), -ENOENT);
	assert_int_equal(vis_camera_frame_durations(-1, 0, 0, d), -EINVAL);
	assert_int_equal(vis_camera_frame_durations(VIS_CAMERA_MAX_FPS + 1, 0, 0, d), -EINVAL);
	assert_int_equal(vis_camera_frame_durations(0, 9000, 8000, d), -EINVAL);
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

/* The health strip's public words for each errno the shim gives (no
 * camera id, no fix: those are the console's), and one for the rest. */
static void test_vis_camera_reason_words_for_each_errno(void **state)
{
	(void)state;
	assert_string_equal(vis_camera_reason(ENODEV), "not found");
	assert_string_equal(vis_camera_reason(EBUSY), "in use by another program");
	assert_string_equal(vis_camera_reason(EINVAL), "cannot give the configured streams");
	assert_string_equal(vis_camera_reason(EACCES), "no permission");
	assert_string_equal(vis_camera_reason(EPERM), "no permission");
	assert_string_equal(vis_camera_reason(ENOMEM), "out of memory");
	assert_string_equal(vis_camera_reason(EIO), "could not be started");
	assert_string_equal(vis_camera_reason(0), "could not be started");
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

/* 640x360 YUV420 at stride 640: Y 230400 bytes, U and V 57600 each. */
#define Y_LEN (640u * 360)
#define C_LEN (320u * 180)

/* All three planes in one dmabuf (the usual case): one mapping, as long
 * as the furthest plane's end. */
static void test_vis_fb_plan_shared_dmabuf_is_mapped_once(void **state)
{
	(void)state;
	struct vis_fb_plane pl[3] = { { 7, 0, Y_LEN, -1 }, { 7, Y_LEN, C_LEN, -1 },
				      { 7, Y_LEN + C_LEN, C_LEN, -1 } };
	struct vis_fb_map m[3];
	char err[256];
	assert_int_equal(vis_fb_plan(pl, 3, m, err, sizeof err), 1);
	assert_int_equal(m[0].fd, 7);
	assert_int_equal(m[0].len, Y_LEN + 2 * C_LEN);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pl[i].map, 0);
}

/* Each plane in its own dmabuf, each at offset 0 of it: three mappings,
 * and a plane is addressed in its own (the shim once read every plane's
 * offset from plane 0's mapping). Mixed layouts too: Y alone, U and V
 * sharing another dmabuf. */
static void test_vis_fb_plan_separate_dmabufs_each_mapped(void **state)
{
	(void)state;
	struct vis_fb_plane pl[3] = { { 7, 0, Y_LEN, -1 }, { 8, 0, C_LEN, -1 }, { 9, 0, C_LEN, -1 } };
	struct vis_fb_map m[3];
	char err[256];
	assert_int_equal(vis_fb_plan(pl, 3, m, err, sizeof err), 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(pl[i].map, i);
		assert_int_equal(m[i].fd, 7 + i);
	}
	assert_int_equal(m[0].len, Y_LEN);
	assert_int_equal(m[1].len, C_LEN);
	assert_int_equal(m[2].len, C_LEN);
	struct vis_fb_plane mix[3] = { { 4, 4096, Y_LEN, -1 }, { 5, 0, C_LEN, -1 }, { 5, C_LEN, C_LEN, -1 } };
	assert_int_equal(vis_fb_plan(mix, 3, m, err, sizeof err), 2);
	assert_int_equal(m[0].len, 4096 + Y_LEN);
	assert_int_equal(m[1].fd, 5);
	assert_int_equal(m[1].len, 2 * C_LEN);
	assert_int_equal(mix[0].map, 0);
	assert_int_equal(mix[1].map, 1);
	assert_int_equal(mix[2].map, 1);
}

static void test_vis_fb_plan_bad_planes_refused(void **state)
{
	(void)state;
	struct vis_fb_map m[3];
	char err[256];
	struct vis_fb_plane nofd[1] = { { -1, 0, Y_LEN, -1 } };
	assert_int_equal(vis_fb_plan(nofd, 1, m, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "plane 0 has no dmabuf"));
	struct vis_fb_plane unset[2] = { { 3, 0, Y_LEN, -1 }, { 3, 0xffffffffu, C_LEN, -1 } };
	assert_int_equal(vis_fb_plan(unset, 2, m, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "plane 1 has no offset"));
	assert_int_equal(vis_fb_plan(unset, 0, m, err, sizeof err), -EINVAL);
	struct vis_fb_plane empty[1] = { { 3, 0, 0, -1 } };
	assert_int_equal(vis_fb_plan(empty, 1, m, err, sizeof err), -EINVAL);
}

/* A plane's rows must lie inside the plane and its mapping: a buffer one
 * byte short is refused with a message instead of read past. */
static void test_vis_fb_plane_rows_beyond_the_mapping_refused(void **state)
{
	(void)state;
	struct vis_fb_plane pl[3] = { { 7, 0, Y_LEN, -1 }, { 7, Y_LEN, C_LEN, -1 },
				      { 7, Y_LEN + C_LEN, C_LEN, -1 } };
	struct vis_fb_map m[3];
	char err[256] = "";
	assert_int_equal(vis_fb_plan(pl, 3, m, err, sizeof err), 1);
	assert_int_equal(vis_fb_plane_fits(&pl[0], &m[0], 0, 640, 640, 360, err, sizeof err), 0);
	assert_int_equal(vis_fb_plane_fits(&pl[2], &m[0], 2, 320, 320, 180, err, sizeof err), 0);
	/* a stride wider than the plane was sized for */
	assert_int_equal(vis_fb_plane_fits(&pl[0], &m[0], 0, 641, 640, 360, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "camera: plane 0: 360 rows at stride 641 need 230759 bytes, the buffer has 230400"));
	/* the last plane's length says more than was mapped */
	struct vis_fb_plane longer = pl[2];
	longer.length = C_LEN + 1;
	assert_int_equal(vis_fb_plane_fits(&longer, &m[0], 2, 320, 320, 181, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "plane 2:"));
	/* the last row need not be padded to the stride */
	struct vis_fb_plane tight = { 7, 0, 639 * 359 + 600, 0 };
	struct vis_fb_map tm = { 7, tight.length };
	assert_int_equal(vis_fb_plane_fits(&tight, &tm, 0, 639, 600, 360, err, sizeof err), 0);
	assert_int_equal(vis_fb_plane_fits(&tight, &tm, 0, 639, 601, 360, err, sizeof err), -EINVAL);
	/* an offset beyond the mapping, rows wider than the stride, a wrap */
	struct vis_fb_plane far = { 7, 0x7fffffffu, 100, 0 };
	assert_int_equal(vis_fb_plane_fits(&far, &m[0], 1, 10, 10, 1, err, sizeof err), -EINVAL);
	assert_int_equal(vis_fb_plane_fits(&pl[0], &m[0], 0, 10, 11, 1, err, sizeof err), -EINVAL);
	assert_int_equal(vis_fb_plane_fits(&pl[0], &m[0], 0, SIZE_MAX / 2, 1, 4, err, sizeof err), -EINVAL);
}

/* A frame taken as the camera gives it (vis_yuv420_new: packed planes,
 * odd sides rounding the chroma up) converts to the image the shim made on
 * the spot, each pixel from its own block's chroma, the time kept; sizes
 * outside the image limits are refused. */
static void test_vis_yuv420_frame_converts_as_the_shim_did(void **state)
{
	struct vis_yuv420 *f = vis_yuv420_new(5, 3);
	struct vis_image *img, *want;

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->y_stride, 5);
	assert_int_equal(f->uv_stride, 3);
	for (int i = 0; i < 15; i++)
		f->y[i] = (uint8_t)(16 + 14 * i);
	for (int i = 0; i < 6; i++) {
		f->u[i] = (uint8_t)(60 + 25 * i);
		f->v[i] = (uint8_t)(200 - 20 * i);
	}
	f->ts_ns = 123456789;
	img = vis_yuv420_image(f);
	assert_non_null(img);
	assert_int_equal(img->width, 5);
	assert_int_equal(img->height, 3);
	assert_int_equal(img->ts_ns, 123456789);
	want = vis_image_new(5, 3, VIS_RGB24);
	assert_non_null(want);
	vis_yuv420_to_rgb(f->y, 5, f->u, f->v, 3, want);
	assert_memory_equal(img->data, want->data, 3 * want->stride);
	/* the last column's chroma is the third sample of its rows' pair */
	assert_int_not_equal(img->data[3 * 4], img->data[3 * 1]);
	vis_image_free(want);
	vis_image_free(img);
	vis_yuv420_free(f);
	errno = 0;
	assert_null(vis_yuv420_new(0, 3));
	assert_int_equal(errno, EINVAL);
	assert_null(vis_yuv420_new(VIS_MAX_SIDE + 1, 2));
	vis_yuv420_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vis_camera_defaults_are_the_tracking_stream),
		cmocka_unit_test(test_vis_camera_frame_durations_within_the_mode),
		cmocka_unit_test(test_vis_camera_bad_config_refused_with_einval),
		cmocka_unit_test(test_vis_camera_absent_camera_is_a_clear_error),
		cmocka_unit_test(test_vis_camera_reason_words_for_each_errno),
		cmocka_unit_test(test_vis_yuv420_known_colours),
		cmocka_unit_test(test_vis_yuv420_frame_converts_as_the_shim_did),
		cmocka_unit_test(test_vis_fb_plan_shared_dmabuf_is_mapped_once),
		cmocka_unit_test(test_vis_fb_plan_separate_dmabufs_each_mapped),
		cmocka_unit_test(test_vis_fb_plan_bad_planes_refused),
		cmocka_unit_test(test_vis_fb_plane_rows_beyond_the_mapping_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
