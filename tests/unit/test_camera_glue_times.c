/*
 * The camera glue compares an observation's time with the last toss and
 * the last dead die (daemon/camera_glue.c, deliver()) to tell a new throw
 * from the same die found again. Camera times come from outside and may be
 * anywhere in int64: a time near one end, after one near the other, is far
 * later (daemon/obs_time.h), never wrapped round to just before. The
 * tracker is replaced through the linker (--wrap=vis_tracker_feed,
 * daemon/module.mk): the glue plays a small Y4M file on a real event loop
 * and the fake tracker reports the test's observations on the first frame.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

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

/* Plays a 64x48 grey Y4M through the glue until the fake tracker's
 * observations have been delivered (they all come on the first frame). */
static void play(void)
{
	char dir[] = "/tmp/dyeref-times-XXXXXX", path[64], text[128], err[256];
	struct dd_health_item h;
	struct dd_config cfg;
	sd_event *ev;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/grey.y4m", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "YUV4MPEG2 W64 H48 F30:1 Cmono\n");
	for (int k = 0; k < 2; k++) {
		fprintf(f, "FRAME\n");
		for (int i = 0; i < 64 * 48; i++)
			fputc(128, f);
	}
	assert_int_equal(fclose(f), 0);
	snprintf(text, sizeof(text), "[camera]\ny4m = %s\n", path);
	assert_int_equal(dd_config_load_string(&cfg, "t.ini", text, err, sizeof(err)), 0);
	memset(&h, 0, sizeof(h));
	assert_int_equal(sd_event_new(&ev), 0);
	assert_int_equal(dd_camera_attach(&cfg, ev, false, sink, NULL, &h, err, sizeof(err)), 0);
	while (fake.n_obs)
		assert_true(sd_event_run(ev, 1000000) >= 0);
	dd_camera_detach();
	sd_event_unref(ev);
	dd_config_free(&cfg);
	unlink(path);
	rmdir(dir);
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
		cmocka_unit_test(test_camera_release_far_after_the_last_toss_is_a_toss),
		cmocka_unit_test(test_camera_release_far_after_the_last_rest_is_a_toss),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
