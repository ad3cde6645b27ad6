/*
 * A face read that does not come back (daemon/face_reader.c): serve holds
 * fusion's timer while a read is pending, so without a bound one stuck
 * read would hold the throw, and every observation behind it, forever.
 * Past its limit the rest goes to fusion unread (confidence 0, which sends
 * the ruling to review: BD-O2 needs the face), and freeing the reader does
 * not wait for the stuck read.
 *
 * dd_read_face_near is replaced through the linker (--wrap, daemon/module.mk)
 * by one that waits until the test lets it go: a stuck read, with no timing
 * in the test (the limit is set to 0: the read is past it at once).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "core/core.h"
#include "daemon/daemon.h"
#include "daemon/face_reader.h"
#include "daemon/fusion.h"
#include "sim/sim.h"
#include "vision/vision.h"

#define MS 1000000LL
#define MAX_SEEN 16

int __real_dd_read_face_near(const struct vis_image *full, double u, double v, double die_px,
			     struct vis_die *out);
int __wrap_dd_read_face_near(const struct vis_image *full, double u, double v, double die_px,
			     struct vis_die *out);

/* The reads (under lock). */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	int started;		/* reads begun */
	int returned;		/* reads that came back */
	bool hold;		/* reads wait until this is cleared: stuck */
	bool freed;		/* the helper's dd_face_reader_free returned */
} rd = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, false, false };

int __wrap_dd_read_face_near(const struct vis_image *full, double u, double v, double die_px,
			     struct vis_die *out)
{
	int rc;

	pthread_mutex_lock(&rd.lock);
	rd.started++;
	pthread_cond_broadcast(&rd.changed);
	while (rd.hold)
		pthread_cond_wait(&rd.changed, &rd.lock);
	pthread_mutex_unlock(&rd.lock);
	rc = __real_dd_read_face_near(full, u, v, die_px, out);
	pthread_mutex_lock(&rd.lock);
	rd.returned++;
	pthread_cond_broadcast(&rd.changed);
	pthread_mutex_unlock(&rd.lock);
	return rc;
}

/* Waits until *what reaches n; a minute is a hang, not a figure. */
static void wait_for(const int *what, int n)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 60;
	pthread_mutex_lock(&rd.lock);
	while (*what < n && pthread_cond_timedwait(&rd.changed, &rd.lock, &until) == 0)
		;
	assert_true(*what >= n);
	pthread_mutex_unlock(&rd.lock);
}

static void set_hold(bool hold)
{
	pthread_mutex_lock(&rd.lock);
	rd.hold = hold;
	pthread_cond_broadcast(&rd.changed);
	pthread_mutex_unlock(&rd.lock);
}

struct seen {
	size_t n;			/* observations given to the sink */
	struct dd_obs obs[MAX_SEEN];	/* in arrival order */
};

static void sink(void *user, const struct dd_obs *o)
{
	struct seen *s = user;

	assert_true(s->n < MAX_SEEN);
	s->obs[s->n++] = *o;
}

static int64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Runs ev until s holds n observations; a reader that never sends them
 * fails after a minute, it does not hang. */
static void run_until(sd_event *ev, struct seen *s, size_t n)
{
	for (int64_t until = real_ns() + 60000 * MS; s->n < n && real_ns() < until;)
		assert_true(sd_event_run(ev, 100000) >= 0);
	assert_int_equal(s->n, n);
}

/* A rendered 128 px crop of a resting die showing face, the die at its centre. */
static struct vis_image *die_image(int face)
{
	struct sim_noise n;
	struct bd_table tb;
	struct sim_rng rng;
	struct vis_image *img;

	sim_noise_defaults(&n, 1);
	bd_table_defaults(&tb);
	sim_rng_seed(&rng, (uint64_t)face);
	img = sim_render_rest_crop(&n, &tb, 0.70, 0.40, 0.70, 0.40, face, 0.3, 128, &rng);
	assert_non_null(img);
	return img;
}

static void job_at(struct dd_face_job *job, int64_t t_ns, int track)
{
	memset(job, 0, sizeof(*job));
	job->t_ns = t_ns;
	job->x = 0.70;
	job->y = 0.40;
	job->track = track;
	job->u = 64;
	job->v = 64;
	job->die_px = 32;
}

static void assert_unread_rest(const struct dd_obs *o, int64_t t_ns)
{
	assert_int_equal(o->kind, DD_OBS_EVENT);
	assert_int_equal(o->source, DD_SRC_CAMERA);
	assert_int_equal(o->ev.kind, BD_EV_REST);
	assert_true(o->confidence == 0);	/* review: the official reads the face */
	assert_true(o->ev.has_confidence && o->ev.confidence == 0);
	assert_int_equal(o->t_ns, t_ns);	/* the rest's time, not the give-up's */
}

/* A read stuck past its limit: its rest goes to the sink unread, and the
 * toss given after it follows; a read queued behind the stuck one is also
 * sent unread at its limit without ever being read. When the stuck read
 * finally returns, nothing more reaches the sink, and the next read (with
 * the usual limit) reads its face again. */
static void test_face_read_stuck_past_its_limit_is_sent_unread(void **state)
{
	struct seen s = { 0 };
	struct vis_image *img = die_image(4);
	struct dd_face_job job;
	struct dd_obs toss;
	char err[256];
	sd_event *ev;
	struct dd_face_reader *fr;

	(void)state;
	assert_int_equal(sd_event_new(&ev), 0);
	fr = dd_face_reader_new(ev, sink, &s, err, sizeof(err));
	assert_non_null(fr);
	set_hold(true);
	dd_face_reader_set_limit(fr, 0);	/* past the limit as soon as the loop looks */
	job_at(&job, 1000 * MS, 1);
	assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
	wait_for(&rd.started, 1);	/* under way, and stuck */
	memset(&toss, 0, sizeof(toss));
	toss.kind = DD_OBS_TOSS;
	toss.source = DD_SRC_CAMERA;
	toss.t_ns = 2000 * MS;
	assert_int_equal(dd_face_reader_pass(fr, &toss), 0);
	assert_int_equal(s.n, 0);	/* the toss waits behind the read */
	run_until(ev, &s, 2);
	assert_unread_rest(&s.obs[0], 1000 * MS);
	assert_int_equal(s.obs[1].kind, DD_OBS_TOSS);
	assert_int_equal(s.obs[1].t_ns, 2000 * MS);
	assert_int_equal(dd_face_reader_pending(fr), 0);	/* fusion's timer runs again */

	/* The worker is still stuck: a read queued behind it is given up too. */
	job_at(&job, 3000 * MS, 2);
	assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
	run_until(ev, &s, 3);
	assert_unread_rest(&s.obs[2], 3000 * MS);
	assert_int_equal(dd_face_reader_pending(fr), 0);

	/* The stuck read returns: it was sent already, nothing more comes. */
	set_hold(false);
	wait_for(&rd.returned, 1);
	dd_face_reader_set_limit(fr, DD_FACE_READ_LIMIT_NS);
	job_at(&job, 4000 * MS, 3);
	assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
	run_until(ev, &s, 4);
	assert_int_equal(s.obs[3].t_ns, 4000 * MS);
	assert_int_equal(s.obs[3].ev.face, 4);
	assert_true(s.obs[3].confidence > 0);
	pthread_mutex_lock(&rd.lock);
	assert_int_equal(rd.started, 2);	/* the read given up while queued never ran */
	pthread_mutex_unlock(&rd.lock);
	dd_face_reader_free(fr);
	vis_image_free(img);
	sd_event_unref(ev);
}

static void *free_reader(void *arg)
{
	dd_face_reader_free(arg);
	pthread_mutex_lock(&rd.lock);
	rd.freed = true;
	pthread_cond_broadcast(&rd.changed);
	pthread_mutex_unlock(&rd.lock);
	return NULL;
}

/* The daemon stops (or the demo starts its next match) while a read is
 * stuck: freeing the reader does not wait for it, nothing reaches the
 * sink, and the worker ends when the read returns (ASan build: nothing
 * leaked, nothing touched after free). */
static void test_face_reader_freed_while_a_read_is_stuck_returns(void **state)
{
	struct seen s = { 0 };
	struct vis_image *img = die_image(2);
	struct dd_face_job job;
	struct timespec until;
	pthread_t t;
	char err[256];
	sd_event *ev;
	struct dd_face_reader *fr;
	int started, returned;

	(void)state;
	assert_int_equal(sd_event_new(&ev), 0);
	fr = dd_face_reader_new(ev, sink, &s, err, sizeof(err));
	assert_non_null(fr);
	pthread_mutex_lock(&rd.lock);
	started = rd.started;
	returned = rd.returned;
	rd.hold = true;
	rd.freed = false;
	pthread_mutex_unlock(&rd.lock);
	job_at(&job, 1000 * MS, 1);
	assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
	job_at(&job, 2000 * MS, 2);
	assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
	wait_for(&rd.started, started + 1);
	assert_int_equal(pthread_create(&t, NULL, free_reader, fr), 0);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 60;
	pthread_mutex_lock(&rd.lock);
	while (!rd.freed && pthread_cond_timedwait(&rd.changed, &rd.lock, &until) == 0)
		;
	assert_true(rd.freed);	/* while the read is still stuck */
	assert_int_equal(rd.returned, returned);
	rd.hold = false;
	pthread_cond_broadcast(&rd.changed);
	pthread_mutex_unlock(&rd.lock);
	assert_int_equal(pthread_join(t, NULL), 0);
	wait_for(&rd.returned, returned + 1);
	assert_true(sd_event_run(ev, 0) >= 0);
	assert_int_equal(s.n, 0);
	pthread_mutex_lock(&rd.lock);
	assert_int_equal(rd.started, started + 1);	/* the queued one was dropped unread */
	pthread_mutex_unlock(&rd.lock);
	vis_image_free(img);
	sd_event_unref(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_face_read_stuck_past_its_limit_is_sent_unread),
		cmocka_unit_test(test_face_reader_freed_while_a_read_is_stuck_returns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
