/*
 * `dyeref serve` holds fusion while the camera reads a resting die's face
 * off the loop (daemon/face_reader.c): the synchronous read held the whole
 * loop, so a rest always joined its throw before the throw could time out,
 * and it still must. The camera glue is replaced through the linker
 * (--wrap, daemon/module.mk): a fake camera on serve's clock (a manual one
 * its loop steps) reports a toss and a landing, then a rest whose face is
 * "being read" across fusion's timeout ([fusion] timeout_ms = 500): it says so at once
 * (DD_OBS_REST_PENDING, as the face reader does when it queues a read) and
 * hands the rest over only after the timeout. The stored throw must end in
 * that rest (BD-O2 reads its face), not be cut off by the timeout: neither
 * by fusion's timer nor by an observation made after the timeout while the
 * face is read (an official's "dye up" missed, entered late), which joins
 * the throw rather than ending it at its own time (the match step).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
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
#include "db/db.h"
#include "tests/support/fake_glue.h"

#define MS 1000000LL	/* the steps' times are in ns */

struct dd_camera *__wrap_dd_camera_new(struct dd_config *cfg, sd_event *ev, struct dd_clock *clock,
				       bool sim, dd_obs_sink sink, void *user,
				       struct dd_health_item *health, char *err, size_t errlen);
void __wrap_dd_camera_free(struct dd_camera *c);
int __wrap_dd_camera_snapshot(struct dd_camera *c, struct db *db, int64_t match, int throw_no,
			      int64_t since_ns, char *err, size_t errlen);

/* The fake camera. */
static struct {
	struct fake_glue g;		/* serve's sink, the steps */
	int64_t rest_ns;		/* when the die came to rest */
	int snapshots;			/* throws the referee asked a picture for */
} cam;

static void obs(enum dd_obs_kind kind, enum bd_ev_kind ev, int64_t now)
{
	struct dd_obs o;

	memset(&o, 0, sizeof(o));
	o.kind = kind;
	o.source = DD_SRC_CAMERA;
	o.t_ns = now;
	o.confidence = 0.95;
	if (kind == DD_OBS_EVENT) {
		o.ev.kind = ev;
		o.ev.half = BD_HALF_B;
		o.ev.player = BD_NOBODY;
		o.ev.has_xy = true;
		o.ev.x = 1.8;
		o.ev.y = 0.6;
		o.ev.has_confidence = true;
		o.ev.confidence = 0.95;
		o.ev.t_ns = o.t_ns;
	}
	cam.g.sink(cam.g.user, &o);
}

static void on_step(struct fake_glue *g, size_t i, int64_t now)
{
	struct dd_obs o;

	(void)g;
	switch (i) {
	case 0:	/* the throw: a toss, the die lands on B's half */
		obs(DD_OBS_TOSS, 0, now);
		obs(DD_OBS_EVENT, BD_EV_TABLE, now);
		break;
	case 1:	/* it rests; its face is being read */
		cam.rest_ns = now;
		memset(&o, 0, sizeof(o));
		o.kind = DD_OBS_REST_PENDING;
		o.source = DD_SRC_CAMERA;
		o.t_ns = cam.rest_ns;
		o.confidence = 1;
		o.ev.has_xy = true;
		o.ev.x = 1.8;
		o.ev.y = 0.6;
		cam.g.sink(cam.g.user, &o);
		break;
	case 2:	/* while it is read, after the timeout: the official's call */
		memset(&o, 0, sizeof(o));
		o.kind = DD_OBS_DYE_UP_MISSED;
		o.source = DD_SRC_CONSOLE;
		o.t_ns = now;
		o.confidence = 1;
		cam.g.sink(cam.g.user, &o);
		break;
	case 3:	/* the read is done, after fusion's timeout */
		dd_obs_rest(cam.rest_ns, 1.8, 0.6, 3, 0.97, &o);
		cam.g.sink(cam.g.user, &o);
		break;
	default:
		kill(getpid(), SIGTERM);	/* serve stops after its commit */
		break;
	}
}

struct dd_camera *__wrap_dd_camera_new(struct dd_config *cfg, sd_event *ev, struct dd_clock *clock,
				       bool sim, dd_obs_sink sink, void *user,
				       struct dd_health_item *health, char *err, size_t errlen)
{
	/* fusion's deadline is 500 ms after the landing */
	static const int64_t at[5] = { 200 * MS, 300 * MS, 1000 * MS, 1300 * MS, 2300 * MS };

	(void)cfg;
	(void)ev;
	(void)sim;
	(void)err;
	(void)errlen;
	fake_glue_attach(&cam.g, clock, sink, user, health, "fake camera", at, 5, on_step);
	return (struct dd_camera *)&cam;
}

void __wrap_dd_camera_free(struct dd_camera *c)
{
	if (c)
		fake_glue_detach(&cam.g);
}

/* The referee asks the camera for each stored throw's picture: none here. */
int __wrap_dd_camera_snapshot(struct dd_camera *c, struct db *db, int64_t match, int throw_no,
			      int64_t since_ns, char *err, size_t errlen)
{
	(void)db;
	(void)match;
	(void)throw_no;
	(void)since_ns;
	(void)err;
	(void)errlen;
	assert_ptr_equal(c, &cam);
	cam.snapshots++;
	return 0;
}

FAKE_GLUE_CLOCK()

static void test_serve_holds_fusion_while_a_face_is_read(void **state)
{
	struct db_test_fx *f = *state;
	struct mlog_bd *log = NULL;
	struct mlog_bd_result res;
	char err[256];
	const struct bd_throw *t = NULL;
	int64_t m;

	fake_glue_serve(f, "[sensors]\nchip = /nonexistent/gpiochip\n"
			"[fusion]\ntimeout_ms = 500\nsettle_ms = 50\n", &m);
	assert_int_equal(db_bd_load(f->db, m, &log, &res, err, sizeof(err)), 0);
	assert_int_equal(log->n_throws, 1);
	for (size_t i = 0; i < log->n_entries; i++)
		if (log->entries[i].kind == MLOG_THROW)
			t = &log->entries[i].t;
	assert_non_null(t);
	assert_int_equal(t->n_events, 2);
	assert_int_equal(t->events[0].kind, BD_EV_TABLE);
	assert_int_equal(t->events[1].kind, BD_EV_REST);
	assert_int_equal(t->events[1].face, 3);
	assert_false(t->dye_up);	/* the call made while the face was read */
	assert_int_equal(cam.snapshots, 1);	/* the throw's picture asked of the camera */
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_serve_holds_fusion_while_a_face_is_read,
						db_test_setup, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
