/*
 * The camera glue compares an observation's time with the last toss and
 * the last dead die (daemon/camera_track.c, deliver()) to tell a new throw
 * from the same die found again. Camera times come from outside and may be
 * anywhere in int64: a time near one end, after one near the other, is far
 * later (daemon/obs_time.h), never wrapped round to just before. The
 * tracker is replaced through the linker (--wrap=vis_tracker_feed,
 * daemon/module.mk): the glue plays a small Y4M file on a manual clock the
 * test steps, and the fake tracker reports the test's observations on the
 * first frame.
 */
#include <errno.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/fusion.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "vision/vision.h"

int __wrap_vis_tracker_feed(struct vis_tracker *t, const struct vis_image *frame,
			    struct vis_obs *out, int max);

/* What the fake tracker reports on its first frame, and what reached fusion. */
static struct {
	struct vis_obs obs[4];	/* reported once */
	int n_obs;		/* obs in use; 0 once reported */
	int tosses;		/* DD_OBS_TOSS received */
	int rests;		/* rests received */
} fake;

int __wrap_vis_tracker_feed(struct vis_tracker *t, const struct vis_image *frame,
			    struct vis_obs *out, int max)
{
	int n = fake.n_obs < max ? fake.n_obs : max;

	(void)t;
	(void)frame;
	memcpy(out, fake.obs, (size_t)n * sizeof(*out));
	fake.n_obs = 0;
	return n;
}

static void sink(void *user, const struct dd_obs *o)
{
	(void)user;
	if (o->kind == DD_OBS_TOSS)
		fake.tosses++;
	else if (o->kind == DD_OBS_EVENT && o->ev.kind == BD_EV_REST)
		fake.rests++;
}

static void add_obs(enum vis_obs_kind kind, int64_t t_ns)
{
	struct vis_obs *o = &fake.obs[fake.n_obs++];

	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->track = 1;
	o->t_ns = t_ns;
	o->x = 1.2;
	o->y = 0.3;
	o->confidence = 1;
}

/* What play() started: freed by the case's teardown too, should an
 * assertion end it half-way. */
static struct {
	char dir[64];			/* the file's folder, or "" */
	char path[96];			/* the grey Y4M */
	sd_event *ev;			/* owned */
	struct dd_clock *clock;		/* owned: manual */
	struct dd_camera *cam;		/* owned */
	struct dd_config cfg;		/* loaded while have_cfg */
	bool have_cfg;
} run;

static int run_teardown(void **state)
{
	(void)state;
	dd_camera_free(run.cam);
	dd_clock_free(run.clock);
	sd_event_unref(run.ev);
	if (run.have_cfg)
		dd_config_free(&run.cfg);
	if (run.dir[0]) {
		unlink(run.path);
		rmdir(run.dir);
	}
	memset(&run, 0, sizeof(run));
	return 0;
}

/* Plays a 64x48 grey Y4M through the glue, a frame at a time on the
 * clock, until the fake tracker's observations have been delivered (they
 * all come on the first frame; a few frames bound it). */
static void play(void)
{
	char text[160], err[256];
	struct dd_health_item h;
	FILE *f;

	snprintf(run.dir, sizeof(run.dir), "/tmp/dyeref-times-XXXXXX");
	assert_non_null(mkdtemp(run.dir));
	snprintf(run.path, sizeof(run.path), "%s/grey.y4m", run.dir);
	f = fopen(run.path, "w");
	assert_non_null(f);
	fprintf(f, "YUV4MPEG2 W64 H48 F30:1 Cmono\n");
	for (int k = 0; k < 2; k++) {
		fprintf(f, "FRAME\n");
		for (int i = 0; i < 64 * 48; i++)
			fputc(128, f);
	}
	assert_int_equal(fclose(f), 0);
	snprintf(text, sizeof(text), "[camera]\ny4m = %s\n", run.path);
	assert_int_equal(dd_config_load_string(&run.cfg, "t.ini", text, err, sizeof(err)), 0);
	run.have_cfg = true;
	memset(&h, 0, sizeof(h));
	assert_int_equal(sd_event_new(&run.ev), 0);
	run.clock = dd_clock_new_manual(1000000000LL);
	assert_non_null(run.clock);
	run.cam = dd_camera_new(&run.cfg, run.ev, run.clock, false, sink, NULL, &h, err, sizeof(err));
	assert_non_null(run.cam);
	for (int i = 0; i < 8 && fake.n_obs; i++)
		dd_clock_advance(run.clock, dd_clock_next_due(run.clock));
	assert_int_equal(fake.n_obs, 0);
}

/* A release near INT64_MAX after a toss near INT64_MIN is a new throw:
 * a wrapped difference would make it 2 ns before the toss, the same die. */
static void test_camera_release_far_after_the_last_toss_is_a_toss(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof(fake));
	add_obs(VIS_OBS_RELEASE, INT64_MIN + 1);
	add_obs(VIS_OBS_RELEASE, INT64_MAX - 1);
	play();
	assert_int_equal(fake.tosses, 2);
}

/* The same after a die that came to rest near INT64_MIN. */
static void test_camera_release_far_after_the_last_rest_is_a_toss(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof(fake));
	add_obs(VIS_OBS_RELEASE, 1);
	add_obs(VIS_OBS_REST, INT64_MIN + 1);
	add_obs(VIS_OBS_RELEASE, INT64_MAX - 1);
	play();
	assert_int_equal(fake.rests, 1);
	assert_int_equal(fake.tosses, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_camera_release_far_after_the_last_toss_is_a_toss,
					  run_teardown),
		cmocka_unit_test_teardown(test_camera_release_far_after_the_last_rest_is_a_toss,
					  run_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
