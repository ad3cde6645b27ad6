/* vision: image type and its resizing, PNM/PNG/JPEG decoders, file loading and Y4M video;
 * every error path names its file and says why. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "vision/vision.h"

#define PHOTO "tests/data/dice-photos/IMG_20191208_111228.jpg"

static char tmpdir[] = "/tmp/test_vis_image.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *tmp_path(const char *name)
{
	static char p[256];
	snprintf(p, sizeof p, "%s/%s", tmpdir, name);
	return p;
}

static void write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void test_vis_image_new_refuses_sizes_beyond_limits(void **state)
{
	(void)state;
	assert_null(vis_image_new(0, 10, VIS_GRAY8));
	assert_int_equal(errno, EINVAL);
	assert_null(vis_image_new(VIS_MAX_SIDE + 1, 10, VIS_GRAY8));
	assert_null(vis_image_new(VIS_MAX_SIDE, VIS_MAX_SIDE, VIS_RGB24));
	struct vis_image *img = vis_image_new(3, 2, VIS_RGB24);
	assert_non_null(img);
	assert_int_equal(img->stride, 9);
	vis_image_free(img);
}

/* A GRAY8 image of w x h from a row-major list of values. */
static struct vis_image *gray_from(int w, int h, const uint8_t *v)
{
	struct vis_image *img = vis_image_new(w, h, VIS_GRAY8);
	assert_non_null(img);
	for (int y = 0; y < h; y++)
		memcpy(img->data + (size_t)y * img->stride, v + (size_t)y * w, (size_t)w);
	return img;
}

/* Enlarging keeps pixel centres aligned: output x samples the source at
 * (x + 0.5) / s - 0.5, bilinear, clamped at the edges; each channel alone. */
static void test_vis_image_scaled_enlarges_bilinear_centres_aligned(void **state)
{
	(void)state;
	uint8_t row[] = { 0, 160 };
	struct vis_image *src = gray_from(2, 1, row);
	struct vis_image *o = vis_image_scaled(src, 2);
	assert_non_null(o);
	assert_int_equal(o->width, 4);
	assert_int_equal(o->height, 2);
	assert_int_equal(o->format, VIS_GRAY8);
	uint8_t want2[] = { 0, 40, 120, 160 };
	for (int y = 0; y < 2; y++)
		assert_memory_equal(o->data + (size_t)y * o->stride, want2, 4);
	vis_image_free(o);
	o = vis_image_scaled(src, 3);
	assert_non_null(o);
	uint8_t want3[] = { 0, 0, 53, 107, 160, 160 };	/* 160/3 and 320/3 rounded */
	assert_int_equal(o->width, 6);
	assert_memory_equal(o->data, want3, 6);
	vis_image_free(o);
	vis_image_free(src);

	struct vis_image *rgb = vis_image_new(2, 1, VIS_RGB24);
	assert_non_null(rgb);
	memcpy(rgb->data, (uint8_t[]){ 0, 100, 200, 160, 20, 40 }, 6);
	o = vis_image_scaled(rgb, 2);
	assert_non_null(o);
	assert_int_equal(o->format, VIS_RGB24);
	uint8_t want_rgb[] = { 0, 100, 200, 40, 80, 160, 120, 40, 80, 160, 20, 40 };
	assert_memory_equal(o->data + o->stride, want_rgb, 12);
	vis_image_free(o);
	vis_image_free(rgb);
}

/* Shrinking averages every source pixel whose centre falls in the output
 * pixel's footprint: a ramp stays a ramp at 0.7 (footprints of one and two
 * pixels in turn), 2 x 2 and 3 x 3 blocks at a half and a third. */
static void test_vis_image_scaled_shrinks_by_footprint_means(void **state)
{
	(void)state;
	uint8_t ramp[20];
	for (int i = 0; i < 20; i++)
		ramp[i] = (uint8_t)(10 * (i % 10));
	struct vis_image *src = gray_from(10, 2, ramp);
	struct vis_image *o = vis_image_scaled(src, 0.7);
	assert_non_null(o);
	assert_int_equal(o->width, 7);
	assert_int_equal(o->height, 1);	/* floor(1.4) */
	uint8_t want[] = { 0, 15, 30, 45, 60, 75, 90 };
	assert_memory_equal(o->data, want, 7);
	vis_image_free(o);
	vis_image_free(src);

	uint8_t v[36];
	for (int i = 0; i < 36; i++)
		v[i] = (uint8_t)i;	/* v = 6y + x */
	src = gray_from(6, 6, v);
	o = vis_image_scaled(src, 0.5);
	assert_non_null(o);
	assert_int_equal(o->width, 3);
	/* (0 + 1 + 6 + 7) / 4 = 3.5 rounds up; (28 + 29 + 34 + 35) / 4 = 31.5 */
	assert_int_equal(o->data[0], 4);
	assert_int_equal(o->data[2 * o->stride + 2], 32);
	vis_image_free(o);
	o = vis_image_scaled(src, 1.0 / 3);
	assert_non_null(o);
	assert_int_equal(o->width, 2);
	assert_int_equal(o->height, 2);
	/* a 3 x 3 block's mean is its middle: 7, 10, 25, 28 */
	assert_int_equal(o->data[0], 7);
	assert_int_equal(o->data[1], 10);
	assert_int_equal(o->data[o->stride], 25);
	assert_int_equal(o->data[o->stride + 1], 28);
	vis_image_free(o);
	vis_image_free(src);
}

/* The mean of each channel of an RGB24 image into m. */
static void mean_rgb(const struct vis_image *img, double m[3])
{
	double sum[3] = { 0 };
	for (int y = 0; y < img->height; y++)
		for (int x = 0; x < img->width; x++)
			for (int c = 0; c < 3; c++)
				sum[c] += img->data[(size_t)y * img->stride + 3 * (size_t)x + c];
	for (int c = 0; c < 3; c++)
		m[c] = sum[c] / ((double)img->width * img->height);
}

/* A real photo keeps its mean colour at any scale, and a scale of 1 is a
 * copy; sizes are floor(side x s) even when s is stored a little short. */
static void test_vis_image_scaled_keeps_colour_and_sizes(void **state)
{
	(void)state;
	char err[256];
	struct vis_image *img;
	assert_int_equal(vis_image_load(PHOTO, &img, err, sizeof err), 0);
	img->ts_ns = 1234;
	double mean[3];
	mean_rgb(img, mean);
	const double scales[] = { 0.37, 0.5, 0.7, 1, 1.5, 2 };
	for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
		struct vis_image *o = vis_image_scaled(img, scales[k]);
		assert_non_null(o);
		assert_int_equal(o->width, (int)(img->width * scales[k] + 1e-6));
		assert_int_equal(o->ts_ns, 1234);
		double m[3];
		mean_rgb(o, m);
		for (int c = 0; c < 3; c++)
			assert_true(fabs(mean[c] - m[c]) < 1.0);
		if (scales[k] == 1)
			for (int y = 0; y < img->height; y++)
				assert_memory_equal(o->data + (size_t)y * o->stride,
						    img->data + (size_t)y * img->stride, 3 * (size_t)img->width);
		vis_image_free(o);
	}
	vis_image_free(img);

	img = vis_image_new(4032, 3, VIS_GRAY8);
	assert_non_null(img);
	struct vis_image *o = vis_image_scaled(img, 1.0 / 3);
	assert_non_null(o);
	assert_int_equal(o->width, 1344);
	assert_int_equal(o->height, 1);
	vis_image_free(o);
	const double bad[] = { 0, -1, NAN, INFINITY, 1e-4, 5 };	/* 5: 20160 wide */
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		errno = 0;
		assert_null(vis_image_scaled(img, bad[k]));
		assert_int_equal(errno, EINVAL);
	}
	errno = 0;
	assert_null(vis_image_scaled(NULL, 2));
	assert_int_equal(errno, EINVAL);
	vis_image_free(img);
}

static void test_vis_pnm_p5_and_p6_decode_with_comments_and_maxval(void **state)
{
	(void)state;
	char err[256];
	struct vis_image *img;
	static const uint8_t p5[] = "P5\n# a comment\n2 2\n255\n\x01\x02\x03\xff";
	assert_int_equal(vis_decode_pnm(p5, sizeof p5 - 1, "a.pgm", &img, err, sizeof err), 0);
	assert_int_equal(img->format, VIS_GRAY8);
	assert_int_equal(img->width, 2);
	assert_int_equal(img->data[3], 255);
	assert_int_equal(img->data[2], 3);
	vis_image_free(img);
	/* maxval 15 scales to 0..255 */
	static const uint8_t p6[] = "P6 1 1 15\n\x0f\x00\x05";
	assert_int_equal(vis_decode_pnm(p6, sizeof p6 - 1, "b.ppm", &img, err, sizeof err), 0);
	assert_int_equal(img->format, VIS_RGB24);
	assert_int_equal(img->data[0], 255);
	assert_int_equal(img->data[1], 0);
	assert_int_equal(img->data[2], 85);
	vis_image_free(img);
}

static void test_vis_pnm_malformed_headers_are_named_errors(void **state)
{
	(void)state;
	char err[256];
	struct vis_image *img = (struct vis_image *)1;
	static const struct {
		const char *data;
		int ret;
		const char *why;
	} cases[] = {
		{ "P3\n1 1\n255\n", -EINVAL, "not a binary PGM/PPM" },
		{ "P5\n1\n", -EINVAL, "width, height or maxval missing" },
		{ "P5\n99999999 1 255\n", -EINVAL, "missing or above" },
		{ "P5\n0 1 255\n", -EINVAL, "outside" },
		{ "P5\n16384 16384 255\n", -E2BIG, "outside" },
		{ "P5\n1 1 65535\n\x01\x02", -EINVAL, "only 8-bit" },
		{ "P5\n1 1 255", -EINVAL, "not followed by whitespace" },
		{ "P5\n4 4 255\n\x01\x02", -EINVAL, "truncated (2 of 16 bytes)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int r = vis_decode_pnm((const uint8_t *)cases[i].data, strlen(cases[i].data), "x.pgm",
				       &img, err, sizeof err);
		assert_int_equal(r, cases[i].ret);
		assert_null(img);
		assert_non_null(strstr(err, "x.pgm: "));
		assert_non_null(strstr(err, cases[i].why));
	}
}

static void test_vis_png_round_trip_gray_and_rgb(void **state)
{
	(void)state;
	char err[256];
	for (int f = 0; f < 2; f++) {
		enum vis_format fmt = f ? VIS_RGB24 : VIS_GRAY8;
		struct vis_image *img = vis_image_new(17, 5, fmt), *back;
		for (size_t i = 0; i < img->stride * 5; i++)
			img->data[i] = (uint8_t)(i * 7);
		assert_int_equal(vis_image_save_png(img, tmp_path("rt.png"), err, sizeof err), 0);
		assert_int_equal(vis_image_load(tmp_path("rt.png"), &back, err, sizeof err), 0);
		assert_int_equal(back->format, fmt);
		assert_int_equal(back->width, 17);
		assert_memory_equal(back->data, img->data, img->stride * 5);
		vis_image_free(back);
		assert_int_equal(vis_image_save_pnm(img, tmp_path("rt.pnm"), err, sizeof err), 0);
		assert_int_equal(vis_image_load(tmp_path("rt.pnm"), &back, err, sizeof err), 0);
		assert_memory_equal(back->data, img->data, img->stride * 5);
		vis_image_free(back);
		vis_image_free(img);
	}
}

static void test_vis_png_corrupt_and_truncated_fail_cleanly(void **state)
{
	(void)state;
	char err[256];
	struct vis_image *img = vis_image_new(8, 8, VIS_RGB24), *back;
	assert_int_equal(vis_image_save_png(img, tmp_path("c.png"), err, sizeof err), 0);
	vis_image_free(img);
	FILE *f = fopen(tmp_path("c.png"), "rb");
	uint8_t buf[4096];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	buf[20] ^= 0x55;	/* inside IHDR: its CRC no longer matches */
	assert_int_equal(vis_decode_png(buf, n, "c.png", &back, err, sizeof err), -EINVAL);
	assert_null(back);
	assert_non_null(strstr(err, "c.png: PNG: "));
	buf[20] ^= 0x55;
	assert_int_equal(vis_decode_png(buf, n / 2, "c.png", &back, err, sizeof err), -EINVAL);
	assert_null(back);
	/* An IHDR claiming 100000 x 100000 pixels is refused before decoding. */
	static const uint8_t big[] = {
		0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
		0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0, 8, 2, 0, 0, 0, 0x46, 0x5e, 0x9a, 0x3d,
	};
	assert_true(vis_decode_png(big, sizeof big, "big.png", &back, err, sizeof err) < 0);
	assert_null(back);
}

static void test_vis_jpeg_real_photo_and_truncated(void **state)
{
	(void)state;
	char err[256];
	struct vis_image *img;
	assert_int_equal(vis_image_load(PHOTO, &img, err, sizeof err), 0);
	assert_int_equal(img->width, 640);
	assert_int_equal(img->height, 640);
	assert_int_equal(img->format, VIS_RGB24);
	struct vis_image *g = vis_image_to_gray(img);
	assert_non_null(g);
	assert_int_equal(g->format, VIS_GRAY8);
	vis_image_free(g);
	vis_image_free(img);
	FILE *f = fopen(PHOTO, "rb");
	static uint8_t buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	assert_int_equal(vis_decode_jpeg(buf, 300, "t.jpg", &img, err, sizeof err), -EINVAL);
	assert_null(img);
	assert_non_null(strstr(err, "t.jpg: JPEG: "));
	assert_int_equal(vis_decode_jpeg(buf, 2, "t.jpg", &img, err, sizeof err), -EINVAL);
	(void)n;
}

static void test_vis_load_file_errors_name_the_file(void **state)
{
	(void)state;
	char err[256];
	struct vis_image *img;
	assert_int_equal(vis_image_load(tmp_path("missing.png"), &img, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "missing.png: No such file"));
	assert_int_equal(vis_image_load(tmpdir, &img, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	write_file(tmp_path("empty.png"), "", 0);
	assert_int_equal(vis_image_load(tmp_path("empty.png"), &img, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "empty.png: empty file"));
	write_file(tmp_path("text.jpg"), "hello", 5);
	assert_int_equal(vis_image_load(tmp_path("text.jpg"), &img, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "text.jpg: not a PNG, JPEG or binary PGM/PPM image"));
	assert_null(img);
}

static void test_vis_y4m_frames_timestamps_and_truncation(void **state)
{
	(void)state;
	char err[256];
	/* Two 4x2 4:2:0 frames at 25 fps: 8 luma + 2*2 chroma bytes each. */
	static const char hdr[] = "YUV4MPEG2 W4 H2 F25:1 Ip A1:1 C420jpeg\n";
	uint8_t buf[256];
	size_t n = 0;
	memcpy(buf, hdr, sizeof hdr - 1);
	n = sizeof hdr - 1;
	for (int f = 0; f < 2; f++) {
		memcpy(buf + n, "FRAME\n", 6);
		n += 6;
		for (int i = 0; i < 8; i++)
			buf[n++] = (uint8_t)(f * 100 + i);
		for (int i = 0; i < 4; i++)
			buf[n++] = 128;
	}
	write_file(tmp_path("v.y4m"), buf, n);
	struct vis_y4m *y = vis_y4m_open(tmp_path("v.y4m"), err, sizeof err);
	assert_non_null(y);
	int w, h, fn, fd;
	vis_y4m_info(y, &w, &h, &fn, &fd);
	assert_int_equal(w, 4);
	assert_int_equal(fn, 25);
	struct vis_image *img;
	assert_int_equal(vis_y4m_read(y, &img, err, sizeof err), 1);
	assert_int_equal(img->data[7], 7);
	assert_int_equal(img->ts_ns, 0);
	vis_image_free(img);
	assert_int_equal(vis_y4m_read(y, &img, err, sizeof err), 1);
	assert_int_equal(img->data[0], 100);
	assert_int_equal(img->ts_ns, 40000000);
	vis_image_free(img);
	assert_int_equal(vis_y4m_read(y, &img, err, sizeof err), 0);
	vis_y4m_close(y);
	/* The second frame cut short. */
	write_file(tmp_path("cut.y4m"), buf, n - 5);
	y = vis_y4m_open(tmp_path("cut.y4m"), err, sizeof err);
	assert_non_null(y);
	assert_int_equal(vis_y4m_read(y, &img, err, sizeof err), 1);
	vis_image_free(img);
	assert_int_equal(vis_y4m_read(y, &img, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "cut.y4m: frame 2: truncated"));
	vis_y4m_close(y);
	write_file(tmp_path("bad.y4m"), "YUV4MPEG2 W4 H2 C420p10\n", 24);
	assert_null(vis_y4m_open(tmp_path("bad.y4m"), err, sizeof err));
	assert_non_null(strstr(err, "C420p10 unsupported"));
	write_file(tmp_path("bad2.y4m"), "YUV4MPEG2 W-4 H2\n", 17);
	assert_null(vis_y4m_open(tmp_path("bad2.y4m"), err, sizeof err));
	assert_non_null(strstr(err, "bad field 'W-4'"));
	assert_null(vis_y4m_open(tmp_path("nope.y4m"), err, sizeof err));
	assert_int_equal(errno, ENOENT);
}

/* Header numbers are range-checked before they are narrowed to int:
 * W4294967297 once wrapped to 1 and passed; a frame rate beyond int was
 * undefined behaviour in sscanf. */
static void test_vis_y4m_header_numbers_out_of_range_are_refused(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"YUV4MPEG2 W4294967297 H2\n", "YUV4MPEG2 W4 H4294967298\n",
		"YUV4MPEG2 W99999999999999999999999 H2\n", "YUV4MPEG2 W4 H2 F4294967321:1\n",
		"YUV4MPEG2 W4 H2 F25:4294967297\n", "YUV4MPEG2 W4 H2 F99999999999999999999:1\n",
		"YUV4MPEG2 W4 H2 F25:\n", "YUV4MPEG2 W4 H2 F25\n", "YUV4MPEG2 W4 H2 F-25:1\n",
		"YUV4MPEG2 W4 H2 F25:0\n", "YUV4MPEG2 W+4 H2\n", "YUV4MPEG2 W4 H2 F25:1x\n",
	};
	char err[256];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		write_file(tmp_path("range.y4m"), bad[i], strlen(bad[i]));
		struct vis_y4m *y = vis_y4m_open(tmp_path("range.y4m"), err, sizeof err);
		if (y)
			fprintf(stderr, "accepted: %s", bad[i]);
		assert_null(y);
		assert_non_null(strstr(err, "Y4M header: bad field '"));
	}
	write_file(tmp_path("ok.y4m"), "YUV4MPEG2 W4 H2 F2147483647:2147483647\n", 39);
	struct vis_y4m *y = vis_y4m_open(tmp_path("ok.y4m"), err, sizeof err);
	assert_non_null(y);
	int w, h, fn, fd;
	vis_y4m_info(y, &w, &h, &fn, &fd);
	assert_int_equal(fn, 2147483647);
	assert_int_equal(fd, 2147483647);
	vis_y4m_close(y);
}

/* Mono 1x1 frames: header, then n frames of one byte each. */
static size_t mono_frames(uint8_t *buf, const char *hdr, int n)
{
	size_t k = strlen(hdr);
	memcpy(buf, hdr, k);
	for (int f = 0; f < n; f++) {
		memcpy(buf + k, "FRAME\n", 6);
		k += 6;
		buf[k++] = (uint8_t)f;
	}
	return k;
}

/* One frame every 2e9 seconds: frame 6 is 1e19 ns in, beyond int64 (the
 * product once overflowed, undefined behaviour): refused with a message. */
static void test_vis_y4m_timestamp_beyond_int64_is_an_error(void **state)
{
	(void)state;
	uint8_t buf[256];
	size_t n = mono_frames(buf, "YUV4MPEG2 W1 H1 F1:2000000000 Cmono\n", 6);
	write_file(tmp_path("slow.y4m"), buf, n);
	char err[256];
	struct vis_y4m *y = vis_y4m_open(tmp_path("slow.y4m"), err, sizeof err);
	assert_non_null(y);
	struct vis_image *img;
	for (int f = 0; f < 5; f++) {
		assert_int_equal(vis_y4m_read(y, &img, err, sizeof err), 1);
		assert_true(img->ts_ns == (int64_t)f * 2000000000 * 1000000000);
		vis_image_free(img);
	}
	assert_int_equal(vis_y4m_read(y, &img, err, sizeof err), -EINVAL);
	assert_null(img);
	assert_non_null(strstr(err, "slow.y4m: frame 6: time beyond"));
	vis_y4m_close(y);
	/* Exact for rates that do not divide a second: 30000/1001 fps. */
	n = mono_frames(buf, "YUV4MPEG2 W1 H1 F30000:1001 Cmono\n", 4);
	write_file(tmp_path("ntsc.y4m"), buf, n);
	y = vis_y4m_open(tmp_path("ntsc.y4m"), err, sizeof err);
	assert_non_null(y);
	for (int f = 0; f < 4; f++) {
		assert_int_equal(vis_y4m_read(y, &img, err, sizeof err), 1);
		assert_true(img->ts_ns == (int64_t)f * 1001 * 1000000000 / 30000);
		vis_image_free(img);
	}
	vis_y4m_close(y);
}

/* A 4:2:0 stream on a pipe (stdin): chroma cannot be seeked over, it is
 * read and dropped; every frame arrives and a cut one is still named. */
static void test_vis_y4m_420_from_a_pipe(void **state)
{
	(void)state;
	static const char hdr[] = "YUV4MPEG2 W5 H3 F10:1 C420\n";
	uint8_t buf[512];
	size_t n = sizeof hdr - 1;
	memcpy(buf, hdr, n);
	for (int f = 0; f < 3; f++) {
		memcpy(buf + n, "FRAME\n", 6);
		n += 6;
		for (int i = 0; i < 15; i++)
			buf[n++] = (uint8_t)(f * 50 + i);
		for (int i = 0; i < 2 * 3 * 2; i++)	/* 2 planes of 3x2 */
			buf[n++] = 128;
	}
	for (int cut = 0; cut < 2; cut++) {
		int fds[2];
		assert_int_equal(pipe(fds), 0);
		size_t len = cut ? n - 3 : n;	/* fits the pipe's buffer */
		assert_int_equal(write(fds[1], buf, len), (ssize_t)len);
		close(fds[1]);
		FILE *f = fdopen(fds[0], "rb");
		assert_non_null(f);
		char err[256];
		struct vis_y4m *y = vis_y4m_open_stream(f, "<stdin>", err, sizeof err);
		assert_non_null(y);
		struct vis_image *img;
		for (int k = 0; k < 2; k++) {
			int r = vis_y4m_read(y, &img, err, sizeof err);
			if (r != 1)
				fprintf(stderr, "%s\n", err);
			assert_int_equal(r, 1);
			assert_int_equal(img->data[0], k * 50);
			assert_int_equal(img->data[14], k * 50 + 14);
			assert_true(img->ts_ns == (int64_t)k * 100000000);
			vis_image_free(img);
		}
		if (cut) {
			assert_int_equal(vis_y4m_read(y, &img, err, sizeof err), -EINVAL);
			assert_non_null(strstr(err, "<stdin>: frame 3: truncated"));
		} else {
			assert_int_equal(vis_y4m_read(y, &img, err, sizeof err), 1);
			assert_int_equal(img->data[0], 100);
			vis_image_free(img);
			assert_int_equal(vis_y4m_read(y, &img, err, sizeof err), 0);
		}
		vis_y4m_close(y);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vis_image_new_refuses_sizes_beyond_limits),
		cmocka_unit_test(test_vis_image_scaled_enlarges_bilinear_centres_aligned),
		cmocka_unit_test(test_vis_image_scaled_shrinks_by_footprint_means),
		cmocka_unit_test(test_vis_image_scaled_keeps_colour_and_sizes),
		cmocka_unit_test(test_vis_pnm_p5_and_p6_decode_with_comments_and_maxval),
		cmocka_unit_test(test_vis_pnm_malformed_headers_are_named_errors),
		cmocka_unit_test(test_vis_png_round_trip_gray_and_rgb),
		cmocka_unit_test(test_vis_png_corrupt_and_truncated_fail_cleanly),
		cmocka_unit_test(test_vis_jpeg_real_photo_and_truncated),
		cmocka_unit_test(test_vis_load_file_errors_name_the_file),
		cmocka_unit_test(test_vis_y4m_frames_timestamps_and_truncation),
		cmocka_unit_test(test_vis_y4m_header_numbers_out_of_range_are_refused),
		cmocka_unit_test(test_vis_y4m_timestamp_beyond_int64_is_an_error),
		cmocka_unit_test(test_vis_y4m_420_from_a_pipe),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
