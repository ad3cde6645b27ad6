/*
 * The simulated table's rests (`dyeref serve --sim=table`, the demo) are
 * read through the face reader, off the event loop, as the camera glue's
 * are (daemon/sim_feed.c, daemon/face_reader.c): a face read on the loop
 * stalled the wall screen. BD-O2 needs the faces these reads give.
 *
 * The feeder runs on a manual clock (daemon/clock.h) the test steps: its
 * timers, and its reader's give-up limit, run in dd_clock_advance on the
 * test's thread. The reads run on the reader's own thread, really; after
 * each step the test waits for those under way (each announced by its
 * DD_OBS_REST_PENDING) on a real bound that only catches a hang. Linked
 * with --wrap (daemon/module.mk): vis_read_face_near counts its calls by
 * thread and can be held, so a read "under way" lasts as long as the test
 * wants.
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
#include <cmocka.h>

#include "core/core.h"
#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/feeds.h"
#include "daemon/fusion.h"
#include "sensors/sensors.h"
#include "sim/sim.h"
#include "tests/support/hang_bound.h"
#include "vision/vision.h"

#define MS 1000000LL
#define MAX_SEEN 4096

int __real_vis_read_face_near(const struct vis_image *full, double u, double v, double die_px,
			     const struct vis_fnet *net, struct vis_die *out);
int __wrap_vis_read_face_near(const struct vis_image *full, double u, double v, double die_px,
			     const struct vis_fnet *net, struct vis_die *out);

static pthread_t main_thread;

/* The reads, by thread (under lock). */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	int on_loop;		/* reads made on the test's (the loop's) thread */
	int off_loop;		/* reads made on another thread */
	int started;		/* reads begun */
	bool hold;		/* reads wait until this is cleared */
} rd = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, false };	/* changed: made monotonic in main */

int __wrap_vis_read_face_near(const struct vis_image *full, double u, double v, double die_px,
			     const struct vis_fnet *net, struct vis_die *out)
{
	pthread_mutex_lock(&rd.lock);
	if (pthread_equal(pthread_self(), main_thread))
		rd.on_loop++;
	else
		rd.off_loop++;
	rd.started++;
	pthread_cond_broadcast(&rd.changed);
	while (rd.hold)
		pthread_cond_wait(&rd.changed, &rd.lock);
	pthread_mutex_unlock(&rd.lock);
	return __real_vis_read_face_near(full, u, v, die_px, net, out);
}

struct seen {
	size_t n;			/* observations given to the sink, but... */
	struct dd_obs obs[MAX_SEEN];	/* in arrival order */
	int64_t at[MAX_SEEN];		/* the test's clock when each arrived */
	size_t n_pending;		/* ... the reads' DD_OBS_REST_PENDING, counted here */
	size_t n_rests;			/* the rests among obs */
};

/* What a test started, stopped by the teardown whether it passed or not. */
struct fx {
	sd_event *ev;			/* the reads come back through it */
	struct dd_clock *clock;		/* manual: the test steps it */
	struct dd_sim_feed *f;		/* the feeder under test */
	struct seen s;			/* what reached the sink */
};

static bool is_rest(const struct dd_obs *o)
{
	return o->kind == DD_OBS_EVENT && o->source == DD_SRC_CAMERA && o->ev.kind == BD_EV_REST;
}

static void sink(void *user, const struct dd_obs *o)
{
	struct fx *x = user;
	struct seen *s = &x->s;

	assert_true(pthread_equal(pthread_self(), main_thread));	/* on the loop */
	if (o->kind == DD_OBS_REST_PENDING) {
		/* a read queued, its rest to come, before anything after it */
		assert_int_equal(o->source, DD_SRC_CAMERA);
		assert_int_equal(o->t_ns, dd_clock_now(x->clock));	/* queued when the rest is due */
		s->n_pending++;
		return;
	}
	assert_true(s->n < MAX_SEEN);
	s->n_rests += is_rest(o);
	s->at[s->n] = dd_clock_now(x->clock);
	s->obs[s->n++] = *o;
}

/* Reads announced whose rest has not come. */
static size_t pending(const struct fx *x)
{
	return x->s.n_pending > x->s.n_rests ? x->s.n_pending - x->s.n_rests : 0;
}

static int fx_setup(void **state)
{
	struct fx *x = calloc(1, sizeof(*x));

	assert_non_null(x);
	assert_int_equal(sd_event_new(&x->ev), 0);
	x->clock = dd_clock_new_manual(1000 * MS);
	assert_non_null(x->clock);
	*state = x;
	return 0;
}

static void set_hold(bool hold)
{
	pthread_mutex_lock(&rd.lock);
	rd.hold = hold;
	pthread_cond_broadcast(&rd.changed);
	pthread_mutex_unlock(&rd.lock);
}

static int fx_teardown(void **state)
{
	struct fx *x = *state;

	dd_sim_feed_free(x->f);	/* does not wait for a held read... */
	set_hold(false);	/* ... which its worker then frees */
	dd_clock_free(x->clock);
	sd_event_unref(x->ev);
	free(x);
	return 0;
}

static void start(struct fx *x, uint64_t seed)
{
	char err[256];

	x->f = dd_sim_feed_new(x->ev, x->clock, seed, 0, sink, x, err, sizeof(err));
	if (!x->f)
		fail_msg("%s", err);
}

/* Waits for the reads under way to come back (each is announced at once,
 * so after a step the test knows how many there are). */
static void settle(struct fx *x)
{
	for (int64_t until = hang_real_ns() + hang_bound_ns(); pending(x) > 0 &&
						      hang_real_ns() < until;)
		assert_true(sd_event_run(x->ev, 100 * 1000ULL) >= 0);
	assert_int_equal(pending(x), 0);
}

/* Steps the clock by ms and waits for what the step started. */
static void step(struct fx *x, int64_t ms)
{
	dd_clock_advance(x->clock, dd_clock_now(x->clock) + ms * MS);
	settle(x);
}

static int reads(int *on_loop, int *off_loop)
{
	int started;

	pthread_mutex_lock(&rd.lock);
	*on_loop = rd.on_loop;
	*off_loop = rd.off_loop;
	started = rd.started;
	pthread_mutex_unlock(&rd.lock);
	return started;
}

/* Starts the feeder of seed's match and plays its first ms milliseconds
 * in steps of step_ms. */
static void play(struct fx *x, uint64_t seed, int64_t ms, int64_t step_ms)
{
	int64_t until = dd_clock_now(x->clock) + ms * MS;

	start(x, seed);
	while (dd_clock_now(x->clock) < until)
		step(x, step_ms);
}

/* Four minutes of a simulated match: every rest the sink gets was read by
 * the face reader's thread, none on the loop, one read a rest; the faces
 * are read (not sent unread) and the rests keep their own times, in the
 * match's order. */
static void test_sim_table_rests_are_read_off_the_loop(void **state)
{
	struct fx *x = *state;
	struct seen *s = &x->s;
	int on_loop, off_loop, rests = 0, read = 0;
	int64_t last_rest = 0;

	play(x, 3, 240000, 500);
	reads(&on_loop, &off_loop);
	for (size_t i = 0; i < s->n; i++)
		if (is_rest(&s->obs[i])) {
			rests++;
			read += s->obs[i].ev.face >= 1 && s->obs[i].confidence > 0;
			assert_true(s->obs[i].t_ns > last_rest);	/* the rest's time, in order */
			assert_true(s->obs[i].t_ns <= dd_clock_now(x->clock));
			last_rest = s->obs[i].t_ns;
		}
	assert_int_equal(on_loop, 0);
	assert_true(rests >= 6);	/* seed 3: 9 of its throws end at rest */
	assert_int_equal(off_loop, rests);
	assert_int_equal(s->n_pending, (size_t)rests);	/* each read announced */
	assert_true(read >= rests * 3 / 4);
}

/* The table's impacts reach fusion as the sensors glue sends them: a
 * grouping window after the impact, not when the next edge comes. That
 * may be the next throw's landing seconds later, and then a throw's last
 * bounce was taken for the next throw's first landing (22 of 41 throws
 * of a demo match ruled from the wrong throw's evidence). And once the
 * match's last observation is out, the feeder says it is spent. On the
 * test's stepped clock; how late they come on a real loop is
 * bench/daemon_sim_impacts.c's. */
static void test_sim_table_impacts_arrive_a_window_after_they_happen(void **state)
{
	struct fx *x = *state;
	struct seen *s = &x->s;
	struct sens_config sc;
	int64_t until = dd_clock_now(x->clock) + 1800000 * MS, late = 0, window;
	int piezo = 0;

	sim_sens_config(&sc);
	window = sens_config_group_window_ns(&sc);
	start(x, 7);
	while (!dd_sim_feed_spent(x->f) && dd_clock_now(x->clock) < until)
		step(x, 10);
	assert_true(dd_sim_feed_spent(x->f));
	for (size_t i = 0; i < s->n; i++)
		if (s->obs[i].source == DD_SRC_PIEZO) {
			int64_t after = s->at[i] - s->obs[i].t_ns;

			piezo++;
			if (after > late)
				late = after;
		}
	assert_true(piezo > 50);
	assert_true(late <= window + 40 * MS);	/* an impact's edges span a few ms; the test steps 10 */
}

/* A cup hit that shook the table reaches fusion as the span the table
 * lines were deaf (DD_OBS_TABLE_DEAF, docs/daemon.md), its end on the
 * daemon's clock as its start is. The feeder moved the start onto it and
 * left the end on the match's clock, so the span ended before it began,
 * fusion refused every shake ("piezo observation ignored (bad confidence
 * or kind)" in a demo's log) and judged the landings beside the cups
 * without it. Seed 6: a shake 15 s into the match. */
static void test_sim_table_shakes_reach_fusion_on_the_daemons_clock(void **state)
{
	struct fx *x = *state;
	struct seen *s = &x->s;
	struct dd_fusion_cfg cfg;
	struct dd_fusion fu;
	struct dd_fused *fx = malloc(sizeof(*fx));
	int shakes = 0;

	assert_non_null(fx);
	play(x, 6, 30000, 50);
	dd_fusion_cfg_defaults(&cfg);
	for (size_t i = 0; i < s->n; i++)
		if (s->obs[i].kind == DD_OBS_TABLE_DEAF) {
			shakes++;
			/* the table lines' hold-off (20 ms) and an impact's spread */
			assert_true(s->obs[i].until_ns >= s->obs[i].t_ns);
			assert_true(s->obs[i].until_ns - s->obs[i].t_ns < 100 * MS);
			dd_fusion_init(&fu, &cfg);
			if (dd_fusion_add(&fu, &s->obs[i], fx) < 0)
				shakes = -1000;	/* refused (freed below, not leaked on failing) */
		}
	free(fx);
	assert_true(shakes >= 1);
}

/* While a rest's face is being read, what the table reports after it
 * waits behind it (the camera's order, as the reader keeps the glue's),
 * and serve sees the read pending (it holds fusion's timer on it). */
static void test_sim_table_holds_later_observations_behind_a_read(void **state)
{
	struct fx *x = *state;
	struct seen *s = &x->s;
	struct timespec until = hang_deadline();
	int on_loop, off_loop;
	size_t before, rest_at;
	int64_t end = dd_clock_now(x->clock) + 60000 * MS;

	pthread_mutex_lock(&rd.lock);
	rd.hold = true;
	rd.started = 0;
	pthread_mutex_unlock(&rd.lock);
	start(x, 5);
	/* Ten seconds of match held behind one read are not to give it up
	 * (that is test_face_reader_stuck's). */
	dd_sim_feed_set_read_limit(x->f, 3600000 * MS);
	/* Up to the first rest: its read is announced, starts and is held. */
	while (x->s.n_pending == 0 && dd_clock_now(x->clock) < end)
		dd_clock_advance(x->clock, dd_clock_now(x->clock) + 50 * MS);
	assert_int_equal(pending(x), 1);
	pthread_mutex_lock(&rd.lock);
	while (rd.started == 0 && pthread_cond_timedwait(&rd.changed, &rd.lock, &until) == 0)
		;
	pthread_mutex_unlock(&rd.lock);
	assert_int_equal(reads(&on_loop, &off_loop), 1);
	before = s->n;
	for (size_t i = 0; i < before; i++)
		assert_false(is_rest(&s->obs[i]));
	/* Ten more seconds of the match: all of it waits behind the read. */
	for (int k = 0; k < 200; k++) {
		dd_clock_advance(x->clock, dd_clock_now(x->clock) + 50 * MS);
		assert_true(sd_event_run(x->ev, 0) >= 0);
	}
	assert_int_equal(s->n, before);
	assert_true(pending(x) >= 1);
	set_hold(false);
	settle(x);
	rest_at = before;
	assert_true(s->n > before + 1);
	assert_true(is_rest(&s->obs[rest_at]));	/* the rest first, then what came after it */
	assert_true(s->obs[rest_at].ev.face >= 1);
	reads(&on_loop, &off_loop);
	assert_int_equal(on_loop, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sim_table_rests_are_read_off_the_loop,
						fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_sim_table_impacts_arrive_a_window_after_they_happen,
						fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_sim_table_holds_later_observations_behind_a_read,
						fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_sim_table_shakes_reach_fusion_on_the_daemons_clock,
						fx_setup, fx_teardown),
	};

	main_thread = pthread_self();
	pthread_cond_destroy(&rd.changed);
	hang_cond_init(&rd.changed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
