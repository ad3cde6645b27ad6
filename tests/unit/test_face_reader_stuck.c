/*
 * A face read that does not come back (daemon/face_reader.c): serve holds
 * fusion's timer while a read is pending, so without a bound one stuck
 * read would hold the throw, and every observation behind it, forever.
 * Past its limit the rest goes to fusion unread (confidence 0, which sends
 * the ruling to review: BD-O2 needs the face), and freeing the reader does
 * not wait for the stuck read.
 *
 * vis_read_face_near is replaced through the linker (--wrap, daemon/module.mk)
 * by one that waits until the test lets it go: a stuck read, with no timing
 * in the test: the reader's limit runs on a manual clock the test steps,
 * and the test waits for the worker on a condition (a real bound that
 * only catches a hang, tests/support/hang_bound.h). vis_fnet_free is
 * wrapped too, to see when the reader's face net is freed.
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
#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/face_reader.h"
#include "daemon/fusion.h"
#include "sim/sim.h"
#include "tests/support/hang_bound.h"
#include "vision/vision.h"

#define MS 1000000LL
#define MAX_SEEN 16

int __real_vis_read_face_near(const struct vis_image *full, double u, double v, double die_px,
			     const struct vis_fnet *net, struct vis_die *out);
int __wrap_vis_read_face_near(const struct vis_image *full, double u, double v, double die_px,
			     const struct vis_fnet *net, struct vis_die *out);
void __real_vis_fnet_free(struct vis_fnet *net);
void __wrap_vis_fnet_free(struct vis_fnet *net);

/* The reads (under lock). */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	int started;		/* reads begun */
	int returned;		/* reads that came back */
	bool hold;		/* reads wait until this is cleared: stuck */
	bool freed;		/* the helper's dd_face_reader_free returned */
	const struct vis_fnet *net;	/* the net the last read was given */
	const struct vis_fnet *watched;	/* the net whose freeing is counted */
	int net_freed;		/* vis_fnet_free(watched) calls */
	int returned_at_free;	/* returned when watched was freed */
} rd = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, false, false, NULL, NULL, 0, 0 };	/* changed: made monotonic in main */

int __wrap_vis_read_face_near(const struct vis_image *full, double u, double v, double die_px,
			     const struct vis_fnet *net, struct vis_die *out)
{
	int rc;

	pthread_mutex_lock(&rd.lock);
	rd.started++;
	rd.net = net;
	pthread_cond_broadcast(&rd.changed);
	while (rd.hold)
		pthread_cond_wait(&rd.changed, &rd.lock);
	pthread_mutex_unlock(&rd.lock);
	rc = __real_vis_read_face_near(full, u, v, die_px, net, out);
	pthread_mutex_lock(&rd.lock);
	rd.returned++;
	pthread_cond_broadcast(&rd.changed);
	pthread_mutex_unlock(&rd.lock);
	return rc;
}

void __wrap_vis_fnet_free(struct vis_fnet *net)
{
	pthread_mutex_lock(&rd.lock);
	if (net && net == rd.watched) {
		rd.net_freed++;
		rd.returned_at_free = rd.returned;
		pthread_cond_broadcast(&rd.changed);
	}
	pthread_mutex_unlock(&rd.lock);
	__real_vis_fnet_free(net);
}

/* Waits until *what reaches n; the bound is a hang, not a figure. */
static void wait_for(const int *what, int n)
{
	struct timespec until = hang_deadline();

	pthread_mutex_lock(&rd.lock);
	while (*what < n && pthread_cond_timedwait(&rd.changed, &rd.lock, &until) == 0)
		;
	bool reached = *what >= n;
	pthread_mutex_unlock(&rd.lock);	/* before a failure leaves: the teardown locks it */
	assert_true(reached);
}

static void set_hold(bool hold)
{
	pthread_mutex_lock(&rd.lock);
	rd.hold = hold;
	pthread_cond_broadcast(&rd.changed);
	pthread_mutex_unlock(&rd.lock);
}

struct seen {
	size_t n;			/* observations given to the sink, but... */
	struct dd_obs obs[MAX_SEEN];	/* in arrival order */
	size_t n_pending;		/* ... the DD_OBS_REST_PENDING, kept here */
	struct dd_obs pending[MAX_SEEN];
};

static void sink(void *user, const struct dd_obs *o)
{
	struct seen *s = user;

	if (o->kind == DD_OBS_REST_PENDING) {
		assert_true(s->n_pending < MAX_SEEN);
		s->pending[s->n_pending++] = *o;
		return;
	}
	assert_true(s->n < MAX_SEEN);
	s->obs[s->n++] = *o;
}

/* What each test started, stopped by the teardown whether it passed or
 * not (a held read released, so the worker ends). */
struct fx {
	sd_event *ev;			/* the worker's results come back here */
	struct dd_clock *clock;		/* manual: the reader's limit */
	struct dd_face_reader *fr;	/* or NULL once the test freed it */
	struct vis_image *img;		/* the die */
	struct seen s;			/* what reached the sink */
};

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char err[256];

	assert_non_null(f);
	assert_int_equal(sd_event_new(&f->ev), 0);
	f->clock = dd_clock_new_manual(1000 * MS);
	assert_non_null(f->clock);
	f->fr = dd_face_reader_new(f->ev, f->clock, sink, &f->s, err, sizeof(err));
	assert_non_null(f->fr);
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;

	set_hold(false);
	dd_face_reader_free(f->fr);
	vis_image_free(f->img);
	dd_clock_free(f->clock);
	sd_event_unref(f->ev);
	free(f);
	return 0;
}

/* Runs ev until s holds n observations; a reader that never sends them
 * fails at the hang bound, it does not hang. */
static void run_until(sd_event *ev, struct seen *s, size_t n)
{
	for (int64_t until = hang_real_ns() + hang_bound_ns(); s->n < n && hang_real_ns() < until;)
		assert_true(sd_event_run(ev, 100000) >= 0);
	assert_int_equal(s->n, n);
}

/* The rest of job is on its way: said at once, with its time and place. */
static void assert_pending(const struct seen *s, size_t k, int64_t t_ns)
{
	assert_true(s->n_pending > k);
	assert_int_equal(s->pending[k].source, DD_SRC_CAMERA);
	assert_int_equal(s->pending[k].t_ns, t_ns);
	assert_true(s->pending[k].confidence == 1);
	assert_true(s->pending[k].ev.x == 0.70 && s->pending[k].ev.y == 0.40);
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
	struct fx *f = *state;
	struct dd_face_reader *fr = f->fr;
	sd_event *ev = f->ev;
	struct vis_image *img = f->img = die_image(4);
	struct dd_face_job job;
	struct dd_obs toss;
	int64_t t;

	set_hold(true);
	dd_face_reader_set_limit(fr, 500 * MS);
	job_at(&job, 1000 * MS, 1);
	assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
	assert_int_equal(f->s.n_pending, 1);	/* at once, before any read */
	assert_pending(&f->s, 0, 1000 * MS);
	wait_for(&rd.started, 1);	/* under way, and stuck */
	memset(&toss, 0, sizeof(toss));
	toss.kind = DD_OBS_TOSS;
	toss.source = DD_SRC_CAMERA;
	toss.t_ns = 2000 * MS;
	assert_int_equal(dd_face_reader_pass(fr, &toss), 0);
	assert_int_equal(f->s.n, 0);	/* the toss waits behind the read */
	t = dd_clock_now(f->clock);
	dd_clock_advance(f->clock, t + 499 * MS);
	assert_true(sd_event_run(ev, 0) >= 0);
	assert_int_equal(f->s.n, 0);	/* not yet past the limit */
	dd_clock_advance(f->clock, t + 500 * MS);	/* the limit runs now, on the test's thread */
	assert_int_equal(f->s.n, 2);
	assert_unread_rest(&f->s.obs[0], 1000 * MS);
	assert_int_equal(f->s.obs[1].kind, DD_OBS_TOSS);
	assert_int_equal(f->s.obs[1].t_ns, 2000 * MS);
	assert_int_equal(dd_face_reader_pending(fr), 0);	/* fusion's timer runs again */

	/* The worker is still stuck: a read queued behind it is given up too. */
	job_at(&job, 3000 * MS, 2);
	assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
	assert_pending(&f->s, 1, 3000 * MS);
	dd_clock_advance(f->clock, dd_clock_now(f->clock) + 500 * MS);
	assert_int_equal(f->s.n, 3);
	assert_unread_rest(&f->s.obs[2], 3000 * MS);
	assert_int_equal(dd_face_reader_pending(fr), 0);

	/* The stuck read returns: it was sent already, nothing more comes. */
	set_hold(false);
	wait_for(&rd.returned, 1);
	dd_face_reader_set_limit(fr, DD_FACE_READ_LIMIT_NS);
	job_at(&job, 4000 * MS, 3);
	assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
	run_until(ev, &f->s, 4);
	assert_pending(&f->s, 2, 4000 * MS);
	assert_int_equal(f->s.n_pending, 3);
	assert_int_equal(f->s.obs[3].t_ns, 4000 * MS);
	assert_int_equal(f->s.obs[3].ev.face, 4);
	assert_true(f->s.obs[3].confidence > 0);
	pthread_mutex_lock(&rd.lock);
	assert_int_equal(rd.started, 2);	/* the read given up while queued never ran */
	pthread_mutex_unlock(&rd.lock);
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
	struct fx *f = *state;
	struct dd_face_reader *fr = f->fr;
	struct vis_image *img = f->img = die_image(2);
	struct dd_face_job job;
	struct timespec until;
	pthread_t t;
	int started, returned;

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
	f->fr = NULL;	/* the helper frees it */
	assert_int_equal(pthread_create(&t, NULL, free_reader, fr), 0);
	until = hang_deadline();
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
	assert_true(sd_event_run(f->ev, 0) >= 0);
	dd_clock_advance(f->clock, dd_clock_now(f->clock) + 2 * DD_FACE_READ_LIMIT_NS);
	assert_int_equal(f->s.n, 0);
	pthread_mutex_lock(&rd.lock);
	assert_int_equal(rd.started, started + 1);	/* the queued one was dropped unread */
	pthread_mutex_unlock(&rd.lock);
}

/* [camera] face_net's net, given to the reader, and the reader freed
 * while a read with it is stuck: the net is freed after that read
 * returns, by the reader (its owner), never under the read (as when the
 * camera freed it straight after dd_face_reader_free). */
static void test_face_reader_frees_its_net_after_a_stuck_read(void **state)
{
	struct fx *f = *state;
	struct dd_face_reader *fr = f->fr;
	struct vis_image *img = f->img = die_image(3);
	struct vis_fnet *net = vis_fnet_copy(vis_fnet_builtin(), 1, 1);
	struct vis_fnet *other = vis_fnet_copy(vis_fnet_builtin(), 1, 1);
	struct dd_face_job job;
	int started, returned;

	assert_non_null(net);
	assert_non_null(other);
	pthread_mutex_lock(&rd.lock);
	started = rd.started;
	returned = rd.returned;
	rd.hold = true;
	rd.watched = net;
	rd.net_freed = 0;
	pthread_mutex_unlock(&rd.lock);
	assert_int_equal(dd_face_reader_set_net(fr, net), 0);
	assert_int_equal(dd_face_reader_set_net(fr, other), -EBUSY);	/* still ours */
	vis_fnet_free(other);
	job_at(&job, 1000 * MS, 1);
	assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
	wait_for(&rd.started, started + 1);
	pthread_mutex_lock(&rd.lock);
	assert_ptr_equal(rd.net, net);
	pthread_mutex_unlock(&rd.lock);
	f->fr = NULL;
	dd_face_reader_free(fr);	/* returns with the read stuck */
	pthread_mutex_lock(&rd.lock);
	assert_int_equal(rd.net_freed, 0);	/* not under the read */
	pthread_mutex_unlock(&rd.lock);
	set_hold(false);
	wait_for(&rd.net_freed, 1);	/* the worker's end frees it, once */
	pthread_mutex_lock(&rd.lock);
	assert_int_equal(rd.net_freed, 1);
	assert_int_equal(rd.returned_at_free, returned + 1);
	rd.watched = NULL;
	pthread_mutex_unlock(&rd.lock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_face_read_stuck_past_its_limit_is_sent_unread,
						fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_face_reader_freed_while_a_read_is_stuck_returns,
						fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_face_reader_frees_its_net_after_a_stuck_read,
						fx_setup, fx_teardown),
	};

	pthread_cond_destroy(&rd.changed);
	hang_cond_init(&rd.changed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
