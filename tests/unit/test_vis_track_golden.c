/* vision: the tracker's per-frame path gives exactly the tracks and
 * observations it gave before it was optimised (bench/vision_opencv.cpp's
 * figures in BENCHMARKS.md "## vision").
 *
 * Each case renders a two-dice throw at 120 fps and feeds it to the
 * tracker; every frame's track list (state, position) and every
 * observation go into a 64-bit FNV-1a digest, positions rounded to a
 * micrometre so that only a real change (a pixel more or less in a blob,
 * a track born a frame late) moves it, not the last bit of a double. The
 * digests were first recorded with vision/track.c as of commit 252c155
 * (the straightforward per-pixel loops: absolute difference, channel sum,
 * shadow test, masked background update every 4th frame, flood fill) and
 * re-recorded only when the tracking itself changed, after
 * test_vis_track's rendered throws and the simulated matches showed the
 * new tracks right: dice followed above the view, the contact split
 * refined, the apex from the fall; then the model learning an eighth of
 * its rows a frame at 8x the rate (each row every 8th frame) instead of
 * every row every 4th frame at 4x, its step rounded up; then a lower
 * contact threshold (0.25 m/s and a fifth of the speed: same landings,
 * other confidences).
 * The cases cover what the fast path specialises: RGB and GRAY8 input, a
 * width that is not a multiple of any vector length, slow light drift and
 * a sudden light step (the model rescaled at once). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "vision/vision.h"
#include "tests/support/two_dice_throw.h"

#define FPS 120
#define FRAMES 180

struct golden_case {
	const char *name;	/* for the log */
	int width, height;	/* frame size */
	int gray;		/* feed GRAY8 (luma) instead of RGB */
	double drift;		/* light falls by this much over the run */
	double step;		/* light falls by this much at frame 90 */
	int diff_threshold;	/* the tracker's, 0: the default */
	uint64_t digest;	/* recorded (see the top) */
	int n_obs;		/* observations it gave */
};

static void mix(uint64_t *h, int64_t v)
{
	for (int i = 0; i < 8; i++) {
		*h ^= (uint64_t)(v >> (8 * i)) & 0xff;
		*h *= 1099511628211ULL;
	}
}

static int64_t um(double m)
{
	return (int64_t)llround(m * 1e6);
}

/* Feeds the case's throw to a new tracker; the digest and the count of
 * observations out. */
static void run_case(const struct golden_case *c, uint64_t *digest, int *n_obs)
{
	struct vis_render_scene s;
	vis_render_scene_default(&s);
	s.width = c->width;
	s.height = c->height;
	vis_render_view_topdown(&s, s.table.length_m / 2, s.table.width_m / 2, s.table.length_m * 1.12);
	double inv[9];
	assert_int_equal(vis_homography_invert(s.h, inv), 0);
	struct vis_tracker_cfg cfg;
	vis_tracker_cfg_default(&cfg, &s.table, inv);
	if (c->diff_threshold)
		cfg.diff_threshold = c->diff_threshold;
	struct vis_tracker *t = vis_tracker_new(&cfg, s.width, s.height);
	assert_non_null(t);
	char err[256];
	struct vis_image *img, *g;
	for (int f = 0; f < 3; f++) {
		s.seed = 100 + (uint64_t)f;
		assert_int_equal(vis_render(&s, &img, err, sizeof err), 0);
		g = c->gray ? vis_image_to_gray(img) : img;
		assert_non_null(g);
		assert_int_equal(vis_tracker_learn(t, g), 0);
		if (g != img)
			vis_image_free(g);
		vis_image_free(img);
	}
	/* tests/support/two_dice_throw.h: the benchmark's throw. */
	struct two_dice_throw thr;

	two_dice_throw_start(&thr);
	uint64_t h = 14695981039346656037ULL;
	*n_obs = 0;
	for (int f = 0; f < FRAMES; f++) {
		s.seed = 1000 + (uint64_t)f;
		s.light_level = 1.0 - c->drift * f / FRAMES - (f >= 90 ? c->step : 0);
		two_dice_throw_frame(&thr, &s, f, FPS);
		assert_int_equal(vis_render(&s, &img, err, sizeof err), 0);
		g = c->gray ? vis_image_to_gray(img) : img;
		assert_non_null(g);
		g->ts_ns = (int64_t)f * 1000000000LL / FPS;
		struct vis_obs o[16];
		int n = vis_tracker_feed(t, g, o, 16);
		if (g != img)
			vis_image_free(g);
		vis_image_free(img);
		assert_true(n >= 0 && n <= 16);
		for (int i = 0; i < n; i++) {
			fprintf(stderr, "  %s frame %d: obs %d track %d t %lld at %.6f,%.6f\n", c->name, f,
				o[i].kind, o[i].track, (long long)o[i].t_ns, o[i].x, o[i].y);
			mix(&h, o[i].kind);
			mix(&h, o[i].track);
			mix(&h, o[i].t_ns);
			mix(&h, um(o[i].x));
			mix(&h, um(o[i].y));
			mix(&h, o[i].player);
			mix(&h, um(o[i].apex_m));
			mix(&h, um(o[i].confidence));
		}
		*n_obs += n;
		enum vis_track_state st[8];
		double xy[8][2];
		int nt = vis_tracker_tracks(t, st, xy, 8);
		mix(&h, f);
		for (int i = 0; i < nt && i < 8; i++) {
			mix(&h, st[i]);
			mix(&h, um(xy[i][0]));
			mix(&h, um(xy[i][1]));
		}
	}
	vis_tracker_free(t);
	*digest = h;
}

static void check(const struct golden_case *c)
{
	uint64_t digest;
	int n;
	run_case(c, &digest, &n);
	fprintf(stderr, "%s: digest 0x%016llxULL, %d observations\n", c->name,
		(unsigned long long)digest, n);
	assert_int_equal(n, c->n_obs);
	assert_int_equal(digest, c->digest);
}

static void test_vis_track_same_as_before_rgb_throw(void **state)
{
	(void)state;
	static const struct golden_case c = { "rgb", 640, 360, 0, 0, 0, 0, 0x1d74994deeb1d442ULL, 6 };
	check(&c);
}

static void test_vis_track_same_as_before_gray_throw(void **state)
{
	(void)state;
	static const struct golden_case c = { "gray", 640, 360, 1, 0, 0, 0, 0xb9ea03f61d0117d3ULL, 6 };
	check(&c);
}

static void test_vis_track_same_as_before_odd_width_dimming(void **state)
{
	(void)state;
	static const struct golden_case c = { "odd+drift", 637, 357, 0, 0.2, 0, 0, 0xb23214e2ff042c1bULL, 8 };
	check(&c);
}

static void test_vis_track_same_as_before_light_step(void **state)
{
	(void)state;
	static const struct golden_case c = { "step", 640, 360, 0, 0, 0.1, 0, 0x2ea13158b83b4dfcULL, 6 };
	check(&c);
}

/* A threshold whose sums pass 255 (the wide path). */
static void test_vis_track_same_as_before_high_threshold(void **state)
{
	(void)state;
	static const struct golden_case c = { "high-threshold", 640, 360, 0, 0, 0, 180, 0xb19fcdb0423ac29cULL, 7 };
	check(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vis_track_same_as_before_rgb_throw),
		cmocka_unit_test(test_vis_track_same_as_before_gray_throw),
		cmocka_unit_test(test_vis_track_same_as_before_odd_width_dimming),
		cmocka_unit_test(test_vis_track_same_as_before_light_step),
		cmocka_unit_test(test_vis_track_same_as_before_high_threshold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
