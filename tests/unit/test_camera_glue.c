/* The camera glue (daemon/camera_glue.c): its [camera] section, read as
 * `dyeref serve --check-config` reads it (nothing opened): calibrate's
 * lines accepted, malformed values refused with their line; and a rendered
 * throw played from a Y4M file on a manual clock (daemon/clock.h) the
 * test steps frame by frame: no real time passes, and a file gives no face
 * read (the full-resolution stream is a camera's), so no thread runs. */
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

#include "core/core.h"
#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/face_reader.h"
#include "daemon/fusion.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "sim/sim.h"
#include "tests/support/resting_throw.h"
#include "vision/vision.h"

#define MS 1000000LL

/* [camera] read as --check-config reads it: 0 or the error, err filled;
 * when read, every key claimed. */
static int check(const char *text, char *err, size_t errlen)
{
	struct dd_config cfg;
	int rc;

	assert_int_equal(dd_config_load_string(&cfg, "t.ini", text, err, errlen), 0);
	err[0] = '\0';
	rc = dd_camera_check_config(&cfg, err, errlen);
	if (rc == 0)
		assert_int_equal(dd_config_check_claimed(&cfg, err, errlen), 0);
	dd_config_free(&cfg);
	return rc;
}

static void test_camera_config_takes_calibrate_output(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(check("[camera]\n"
			       "corner_a_left = 55.00,45.00\n"
			       "corner_a_right = 79.67,303.39\n"
			       "corner_b_right = 532.19,258.48\n"
			       "corner_b_left = 540.07,14.65\n"
			       "homography = 0.00467,-0.00049,-0.2347,0.00024,0.0042,-0.2022,-0.00012,-0.00011,1\n"
			       "calibrated_size = 4608,2592\nfps = 56\n"
			       "enable = no\nid = /base/soc/i2c0mux/imx708@1a\n"
			       "low_width = 640\nlow_height = 360\nfull_width = 2304\nfull_height = 1296\n",
			       err, sizeof(err)), 0);
	/* Corners alone are a calibration too. */
	assert_int_equal(check("[camera]\ncorner_a_left = 55,45\ncorner_a_right = 79.67, 303.39\n"
			       "corner_b_right = 532.19,258.48\ncorner_b_left = 540.07,14.65\n",
			       err, sizeof(err)), 0);
	assert_int_equal(check("", err, sizeof(err)), 0);
}

static void test_camera_config_errors_name_their_line(void **state)
{
	static const struct {
		const char *text;	/* the file */
		const char *want;	/* part of the message */
	} bad[] = {
		{ "[camera]\n\nhomography = 1,2,3\n", "t.ini:3: camera.homography: needs 9 numbers" },
		{ "[camera]\nhomography = 1,0,0,0,1,0,0,0,1,5\n", "t.ini:2: camera.homography: needs 9" },
		{ "[camera]\nhomography = 0,0,0,0,0,0,0,0,0\n", "t.ini:2: camera.homography: singular" },
		{ "[camera]\nhomography = 1,0,0,0,1,0,0,0,nan\n", "t.ini:2: camera.homography" },
		{ "[camera]\ncorner_a_left = 10,x\n", "t.ini:2: camera.corner_a_left" },
		{ "[camera]\ncorner_a_left = 10,20\n", "camera.corner_a_right: missing" },
		{ "[camera]\ncorner_a_left = 1,1\ncorner_a_right = 1,1\ncorner_b_right = 1,1\ncorner_b_left = 1,1\n",
		  "t.ini:2: camera: the four corners do not outline a table" },
		{ "[camera]\nlow_width = 8\n", "t.ini:2" },
		{ "[camera]\nfull_height = 99999\n", "t.ini:2" },
		{ "[camera]\nfull_width = 1920\n", "t.ini:2: camera: full_width and full_height go together" },
		{ "[camera]\nenable = perhaps\n", "t.ini:2" },
		{ "[camera]\ny4m =\n", "t.ini:2: camera.y4m: needs a file name" },
		{ "[camera]\ny4m = /nonexistent/throw.y4m\n", "t.ini:2: camera.y4m: /nonexistent/throw.y4m: No such file" },
		{ "[camera]\ncorner_a_left = 55,45\ncorner_a_right = 79,303\ncorner_b_right = 532,258\n"
		  "corner_b_left = 540,14\ncalibrated_size = 4608\n", "t.ini:6: camera.calibrated_size: needs 2" },
		{ "[camera]\nhomography = 1,0,0,0,1,0,0,0,1\ncalibrated_size = 640.5,360\n",
		  "t.ini:3: camera.calibrated_size: needs the picture's width,height in whole pixels" },
		{ "[camera]\nhomography = 1,0,0,0,1,0,0,0,1\ncalibrated_size = 640,99999\n",
		  "t.ini:3: camera.calibrated_size: needs the picture's width,height" },
		{ "[camera]\ncalibrated_size = 640,360\n",
		  "t.ini:2: camera.calibrated_size: given without the corners or homography" },
		{ "[camera]\nfps = 1000\n", "t.ini:2" },
		{ "[camera]\nfps = -1\n", "t.ini:2" },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = check(bad[i].text, err, sizeof(err));

		if (rc != -EINVAL || !strstr(err, bad[i].want))
			fail_msg("case %zu: rc %d, '%s', want '%s'", i, rc, err, bad[i].want);
	}
}

/* Fusion fed a toss, a piezo landing on B's half and the camera's rest at
 * 2 s; returns the time the throw completed (the ruling in *r). */
static int64_t rest_after_landing(int face, double conf, struct dd_fused *out, struct bd_ruling *r)
{
	struct dd_fusion_cfg c;
	struct dd_fusion f;
	struct dd_obs o;
	struct bd_match_cfg mc;
	struct bd_state s;
	char err[256];
	int64_t at;

	dd_fusion_cfg_defaults(&c);
	c.piezo_present = true;
	c.camera_present = true;
	dd_fusion_init(&f, &c);
	memset(&o, 0, sizeof(o));
	o.kind = DD_OBS_TOSS;
	o.source = DD_SRC_CAMERA;
	o.confidence = 1;
	assert_int_equal(dd_fusion_add(&f, &o, out), 0);
	memset(&o, 0, sizeof(o));
	o.kind = DD_OBS_EVENT;
	o.source = DD_SRC_PIEZO;
	o.t_ns = 1200 * MS;
	o.confidence = 1;
	o.ev.kind = BD_EV_TABLE;
	o.ev.half = BD_HALF_B;
	o.ev.player = BD_NOBODY;
	assert_int_equal(dd_fusion_add(&f, &o, out), 0);
	o.source = DD_SRC_CAMERA;	/* the camera saw the same landing */
	o.t_ns = 1210 * MS;
	assert_int_equal(dd_fusion_add(&f, &o, out), 0);
	dd_obs_rest(2000 * MS, 1.8, 0.6, face, conf, &o);
	assert_int_equal(o.kind, DD_OBS_EVENT);
	assert_int_equal(o.source, DD_SRC_CAMERA);
	assert_int_equal(dd_fusion_add(&f, &o, out), 0);
	at = dd_fusion_deadline(&f);
	assert_true(at < INT64_MAX);
	assert_int_equal(dd_fusion_tick(&f, at, out), 1);
	bd_match_cfg_init(&mc);
	bd_state_init(&s, &mc);
	assert_int_equal(bd_judge(&mc, &s, &out->t, r, err, sizeof(err)), 0);
	return at;
}

/* A rest whose face the camera could not read still ends the throw at
 * once (fusion's settle time after the rest, not its timeout) and sends
 * the ruling to review: the face decides BD-O2, and nobody read it. */
static void test_camera_unread_rest_ends_throw_at_once_in_review(void **state)
{
	struct dd_fusion_cfg c;
	struct dd_fused out;
	struct bd_ruling r;
	int64_t at;

	(void)state;
	dd_fusion_cfg_defaults(&c);
	at = rest_after_landing(0, 0.97, &out, &r);
	assert_int_equal(at, 2000 * MS + c.settle_ns);
	assert_true(at < 1200 * MS + c.timeout_ns);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[1].kind, BD_EV_REST);
	assert_true(out.t.events[1].confidence == 0);
	assert_true(r.review);

	/* A face read with confidence: the same throw, ruled without review. */
	at = rest_after_landing(4, 0.97, &out, &r);
	assert_int_equal(at, 2000 * MS + c.settle_ns);
	assert_int_equal(out.t.events[1].face, 4);
	assert_true(out.t.events[1].confidence > 0.9);
	assert_false(r.review);
}

/* BD-O2: a five read at house.review_below (0.8) or more rules without
 * review (the thrower kills n' fills); one read just under it is doubtful
 * and goes to an official, with the same provisional duty. */
static void test_camera_bd_o2_five_below_review_below_goes_to_review(void **state)
{
	struct dd_fused out;
	struct bd_ruling r;

	(void)state;
	rest_after_landing(5, 0.8, &out, &r);
	assert_int_equal(out.t.events[1].face, 5);
	assert_false(r.review);
	assert_int_equal(r.n_duties, 1);
	assert_int_equal(r.duties[0].kind, BD_DUTY_KILL_N_FILL);
	rest_after_landing(5, 0.79, &out, &r);
	assert_true(r.review);
	assert_int_equal(r.n_duties, 1);
}

/* The camera locates a resting die from its low-resolution stream, a
 * quarter of a die per pixel: the die may lie more than the one side
 * around that point that vision's reader accepts. The glue's read looks
 * one side around too (up to two sides away), never farther. */
static void test_camera_reads_a_die_off_its_located_point(void **state)
{
	struct sim_noise n;
	struct bd_table tb;
	struct sim_rng rng;
	struct vis_die d;
	char err[256];

	(void)state;
	sim_noise_defaults(&n, 1);
	bd_table_defaults(&tb);
	sim_rng_seed(&rng, 5);
	for (int face = 1; face <= 6; face++) {
		/* located 24 mm (1.5 sides, 48 px) left of the die: a 128 px
		 * crop centred there, the die at (112, 64) */
		struct vis_image *img = sim_render_rest_crop(&n, &tb, 0.70, 0.40, 0.676, 0.40, face,
							     0.3, 128, &rng);

		assert_non_null(img);
		assert_int_not_equal(vis_read_face_at(img, 64, 64, 32, &d, err, sizeof(err)), 0);
		assert_int_equal(vis_read_face_near(img, 64, 64, 32, NULL, &d), 0);
		assert_int_equal(d.face, face);
		assert_true(fabs(d.x - 112) < 6 && fabs(d.y - 64) < 6);
		/* located 72 px (2.25 sides) from the die: another die's place */
		assert_int_equal(vis_read_face_near(img, 40, 64, 32, NULL, &d), -ENOENT);
		vis_image_free(img);
	}
}

struct landing {
	bool found;
	double x, y;
};

/* Keeps the first table landing the camera places. */
static void landing_sink(void *user, const struct dd_obs *o)
{
	struct landing *l = user;

	if (!l->found && o->kind == DD_OBS_EVENT && o->source == DD_SRC_CAMERA &&
	    o->ev.kind == BD_EV_TABLE && o->ev.has_xy) {
		l->found = true;
		l->x = o->ev.x;
		l->y = o->ev.y;
	}
}

/* What a play started: freed by the case's teardown too, should an
 * assertion end it half-way. */
struct play {
	sd_event *ev;			/* owned */
	struct dd_clock *clock;		/* owned: manual */
	struct dd_camera *cam;		/* owned, or NULL */
	struct dd_config cfg;		/* loaded while have_cfg */
	bool have_cfg;
	char dir[64];			/* the rendered throw's folder, or "" */
	char file[96];			/* the throw's Y4M in it */
};

static void play_stop(struct play *p)
{
	dd_camera_free(p->cam);
	p->cam = NULL;
	dd_clock_free(p->clock);
	p->clock = NULL;
	p->ev = sd_event_unref(p->ev);
	if (p->have_cfg)
		dd_config_free(&p->cfg);
	p->have_cfg = false;
}

static int play_setup(void **state)
{
	*state = calloc(1, sizeof(struct play));
	return *state ? 0 : -1;
}

static int play_teardown(void **state)
{
	struct play *p = *state;

	play_stop(p);
	if (p->dir[0]) {
		unlink(p->file);
		rmdir(p->dir);
	}
	free(p);
	return 0;
}

#define PLAY_NS (6 * 1000 * MS)	/* a throw's frames: a landing comes within */

/* Plays path (a rendered throw, Y4M) through the glue with [camera]
 * lines extra besides the file, stepping p's manual clock from one frame
 * to the next until the camera places the first landing or 6 s of the
 * clock pass. 0, or the constructor's error (-errno, err filled). */
static int play_throw(struct play *p, const char *path, const char *extra, struct landing *l,
		      char *err, size_t errlen)
{
	char text[1024];
	struct dd_health_item h;
	int64_t end;
	int rc = 0;

	memset(l, 0, sizeof(*l));
	memset(&h, 0, sizeof(h));
	snprintf(text, sizeof(text), "[camera]\ny4m = %s\n%s", path, extra);
	assert_int_equal(dd_config_load_string(&p->cfg, "t.ini", text, err, errlen), 0);
	p->have_cfg = true;
	assert_int_equal(sd_event_new(&p->ev), 0);
	p->clock = dd_clock_new_manual(1000 * MS);
	assert_non_null(p->clock);
	end = dd_clock_now(p->clock) + PLAY_NS;
	p->cam = dd_camera_new(&p->cfg, p->ev, p->clock, false, landing_sink, l, &h, err, errlen);
	if (!p->cam)
		rc = -errno;
	else
		assert_true(h.ok);
	while (p->cam && !l->found && dd_clock_next_due(p->clock) <= end)
		dd_clock_advance(p->clock, dd_clock_next_due(p->clock));
	play_stop(p);
	return rc;
}

/* Calibrated on a picture twice the frames' size (calibrate's
 * calibrated_size), the camera places a landing where it places it with
 * the frames' own calibration; without calibrated_size the same lines
 * would be taken as frame pixels and place it far off, or not at all;
 * a picture of another shape is refused, naming both sizes. */
static void test_camera_calibration_taken_to_the_frames(void **state)
{
	struct play *p = *state;
	char extra[512], err[256];
	struct vis_render_scene view;
	struct sim_noise n;
	struct bd_table tb;
	static struct sim_throw t;	/* large */
	struct landing own, big, bare;
	double to_big[9], big_to_table[9];
	int64_t t0;
	int frames, len;

	snprintf(p->dir, sizeof(p->dir), "/tmp/dyeref-glue-XXXXXX");
	assert_non_null(mkdtemp(p->dir));
	snprintf(p->file, sizeof(p->file), "%s/throw.y4m", p->dir);
	sim_noise_defaults(&n, 1);
	bd_table_defaults(&tb);
	resting_throw(18, &tb, &t);
	assert_int_equal(sim_frames_write_y4m(p->file, &n, &tb, &t, 5, &t0, &frames, err, sizeof(err)), 0);

	/* The renderer's view (what the glue takes for a file with no
	 * calibration), for a picture of 1280x720: pixel centres kept. */
	vis_render_scene_default(&view);
	const double a[9] = { 2, 0, 0.5, 0, 2, 0.5, 0, 0, 1 };
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			to_big[3 * i + j] = a[3 * i] * view.h[j] + a[3 * i + 1] * view.h[3 + j] +
					    a[3 * i + 2] * view.h[6 + j];
	assert_int_equal(vis_homography_invert(to_big, big_to_table), 0);
	len = snprintf(extra, sizeof(extra), "homography = ");
	for (int k = 0; k < 9; k++)
		len += snprintf(extra + len, sizeof(extra) - (size_t)len, "%.12g%s", big_to_table[k],
				k < 8 ? "," : "\n");

	assert_int_equal(play_throw(p, p->file, "", &own, err, sizeof(err)), 0);
	assert_true(own.found);
	snprintf(extra + len, sizeof(extra) - (size_t)len, "calibrated_size = 1280,720\n");
	assert_int_equal(play_throw(p, p->file, extra, &big, err, sizeof(err)), 0);
	assert_true(big.found);
	fprintf(stderr, "landing: own view %.3f,%.3f; from 1280x720 %.3f,%.3f\n", own.x, own.y, big.x, big.y);
	assert_true(hypot(big.x - own.x, big.y - own.y) < 0.01);
	extra[len] = '\0';	/* no calibrated_size: frame pixels */
	assert_int_equal(play_throw(p, p->file, extra, &bare, err, sizeof(err)), 0);
	assert_true(!bare.found || hypot(bare.x - own.x, bare.y - own.y) > 0.3);
	snprintf(extra + len, sizeof(extra) - (size_t)len, "calibrated_size = 1280,960\n");
	assert_int_equal(play_throw(p, p->file, extra, &big, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "calibrated on 1280x960, frames 640x360: another shape"));
}

/* A small grey Y4M of n frames (64x36 mono, 30 fps) at path; with cut,
 * its last frame is cut short. */
static void write_grey(const char *path, int n, bool cut)
{
	FILE *f = fopen(path, "wb");
	unsigned char px[64 * 36];

	assert_non_null(f);
	memset(px, 90, sizeof(px));
	fprintf(f, "YUV4MPEG2 W64 H36 F30:1 Ip A1:1 Cmono\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "FRAME\n");
		fwrite(px, 1, i == n - 1 && cut ? sizeof(px) / 2 : sizeof(px), f);
	}
	assert_int_equal(fclose(f), 0);
}

/* Steps the manual clock by ms, running every timer due. */
static void step(struct play *p, int64_t ms)
{
	int64_t to = dd_clock_now(p->clock) + ms * MS;

	while (dd_clock_next_due(p->clock) <= to)
		dd_clock_advance(p->clock, dd_clock_next_due(p->clock));
	dd_clock_advance(p->clock, to);
}

static void ignore_obs(void *user, const struct dd_obs *o)
{
	(void)user;
	(void)o;
}

/* A camera that comes back turns green by itself: the video file removed
 * is red at the end of its pass (its frames were read from the open file
 * till then), tried again every second on the daemon's clock, and green
 * within a second of being put back; a file that fails within its frames
 * (cut short) is not played again until it changes, so the strip does not
 * flicker green on its good frames; rewritten whole, it is. The old glue
 * stayed red for good. */
static void test_camera_file_put_back_turns_green_again(void **state)
{
	struct play *p = *state;
	struct dd_health_item h;
	char text[256], err[256];

	snprintf(p->dir, sizeof(p->dir), "/tmp/dyeref-glue-XXXXXX");
	assert_non_null(mkdtemp(p->dir));
	snprintf(p->file, sizeof(p->file), "%s/live.y4m", p->dir);
	write_grey(p->file, 15, false);	/* half a second a pass */
	snprintf(text, sizeof(text), "[camera]\ny4m = %s\n", p->file);
	assert_int_equal(dd_config_load_string(&p->cfg, "t.ini", text, err, sizeof(err)), 0);
	p->have_cfg = true;
	assert_int_equal(sd_event_new(&p->ev), 0);
	p->clock = dd_clock_new_manual(1000 * MS);
	assert_non_null(p->clock);
	memset(&h, 0, sizeof(h));
	p->cam = dd_camera_new(&p->cfg, p->ev, p->clock, false, ignore_obs, NULL, &h, err, sizeof(err));
	assert_non_null(p->cam);
	step(p, 1200);
	assert_true(h.ok);

	assert_int_equal(unlink(p->file), 0);
	step(p, 600);	/* past the pass's end */
	assert_false(h.ok);
	assert_string_equal(h.text, "camera: the video file could not be read");
	assert_non_null(strstr(h.detail, "live.y4m"));
	step(p, 3000);
	assert_false(h.ok);
	write_grey(p->file, 15, false);
	step(p, 1000);
	assert_true(h.ok);
	assert_non_null(strstr(h.text, "camera 64x36"));

	/* cut short: red at its cut frame, and stays so while it is as it was */
	write_grey(p->file, 15, true);
	step(p, 1100);
	assert_false(h.ok);
	assert_non_null(strstr(h.detail, "frame 15"));
	for (int i = 0; i < 5; i++) {
		step(p, 1000);
		assert_false(h.ok);
	}
	write_grey(p->file, 15, false);
	step(p, 1000);
	assert_true(h.ok);
	/* frames of another size are refused, the reason named */
	unlink(p->file);
	step(p, 1000);
	assert_false(h.ok);
	{
		FILE *f = fopen(p->file, "wb");

		assert_non_null(f);
		fprintf(f, "YUV4MPEG2 W32 H18 F30:1 Cmono\nFRAME\n");
		for (int i = 0; i < 32 * 18; i++)
			fputc(90, f);
		assert_int_equal(fclose(f), 0);
	}
	step(p, 1000);
	assert_false(h.ok);
	assert_non_null(strstr(h.detail, "32x18 frames, not the 64x36 it had"));
	play_stop(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_camera_config_takes_calibrate_output),
		cmocka_unit_test(test_camera_config_errors_name_their_line),
		cmocka_unit_test(test_camera_unread_rest_ends_throw_at_once_in_review),
		cmocka_unit_test(test_camera_bd_o2_five_below_review_below_goes_to_review),
		cmocka_unit_test(test_camera_reads_a_die_off_its_located_point),
		cmocka_unit_test_setup_teardown(test_camera_calibration_taken_to_the_frames,
						play_setup, play_teardown),
		cmocka_unit_test_setup_teardown(test_camera_file_put_back_turns_green_again,
						play_setup, play_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
