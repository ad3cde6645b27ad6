/*
 * The daemon's one clock (daemon/clock.c): the manual backend the tests
 * step runs due timers in time order, synchronously, each seeing its own
 * time; the real backend's timers fire on the loop, and a clock faster
 * than real time ([sim] speed) reads and fires that much sooner.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "tests/support/hang_bound.h"

#define MS 1000000LL

struct hit {
	struct dd_clock *c;
	int order[8];		/* which timer ran, in turn */
	int64_t at[8];		/* the clock's reading as it ran */
	int n;
	struct dd_timer *rearm;	/* armed again 10 ms on by timer 1, once */
	struct dd_timer *victim;	/* freed by timer 2 */
};

struct who {
	struct hit *h;
	int id;
};

static void on_timer(void *user)
{
	struct who *w = user;
	struct hit *h = w->h;

	assert_true(h->n < 8);
	h->order[h->n] = w->id;
	h->at[h->n++] = dd_clock_now(h->c);
	if (w->id == 1 && h->rearm) {
		dd_timer_arm(h->rearm, dd_clock_now(h->c) + 10 * MS);
		h->rearm = NULL;
	}
	if (w->id == 2 && h->victim) {
		dd_timer_free(h->victim);
		h->victim = NULL;
	}
}

/* Timers at 30, 10, 20 and 20 ms run as 10, 20, 20 (armed first first),
 * 30; one armed again from its own run at 20 runs at 20 too when that is
 * within the step; one freed by another never runs; off is off. */
static void test_manual_clock_runs_due_timers_in_time_order(void **state)
{
	struct hit h = { 0 };
	struct who w[5];
	struct dd_timer *t[5];

	(void)state;
	h.c = dd_clock_new_manual(1000 * MS);
	assert_non_null(h.c);
	for (int i = 0; i < 5; i++) {
		w[i].h = &h;
		w[i].id = i;
		t[i] = dd_timer_new(h.c, on_timer, &w[i]);
		assert_non_null(t[i]);
	}
	dd_timer_arm(t[0], 1030 * MS);
	dd_timer_arm(t[1], 1010 * MS);
	dd_timer_arm(t[3], 1020 * MS);
	dd_timer_arm(t[2], 1020 * MS);
	dd_timer_arm(t[4], 1025 * MS);
	h.rearm = t[1];
	h.victim = t[4];
	assert_int_equal(dd_clock_next_due(h.c), 1010 * MS);
	dd_clock_advance(h.c, 1005 * MS);
	assert_int_equal(h.n, 0);
	assert_int_equal(dd_clock_now(h.c), 1005 * MS);
	dd_clock_advance(h.c, 1100 * MS);
	assert_int_equal(h.n, 5);
	assert_int_equal(h.order[0], 1);
	assert_int_equal(h.at[0], 1010 * MS);
	assert_int_equal(h.order[1], 3);	/* armed before 2 at the same time */
	assert_int_equal(h.order[2], 2);
	assert_int_equal(h.order[3], 1);	/* again, 10 ms after its first run, after those armed earlier */
	assert_int_equal(h.at[3], 1020 * MS);
	assert_int_equal(h.order[4], 0);
	assert_int_equal(h.at[4], 1030 * MS);
	assert_int_equal(dd_clock_now(h.c), 1100 * MS);
	assert_int_equal(dd_clock_next_due(h.c), INT64_MAX);
	dd_timer_arm(t[0], 1200 * MS);
	dd_timer_arm(t[0], INT64_MAX);
	dd_clock_advance(h.c, 2000 * MS);
	assert_int_equal(h.n, 5);
	dd_clock_advance(h.c, 1500 * MS);	/* no going back */
	assert_int_equal(dd_clock_now(h.c), 2000 * MS);
	for (int i = 0; i < 4; i++)
		dd_timer_free(t[i]);
	dd_clock_free(h.c);
}

static void on_real(void *user)
{
	struct hit *h = user;

	h->at[h->n++] = dd_clock_now(h->c);
}

/* The real clock at speed 1 reads CLOCK_MONOTONIC; at 100 times real
 * time, a timer 2 s ahead on it fires within a bound of the 20 ms it is
 * in real time (the bound only catches a hang), and reads its time. */
static void test_real_clock_fires_on_the_loop_at_its_speed(void **state)
{
	struct hit h = { 0 };
	sd_event *ev;
	struct dd_timer *t;
	int64_t a, b, start, until;

	(void)state;
	assert_int_equal(sd_event_new(&ev), 0);
	assert_null(dd_clock_new_real(ev, 0));
	h.c = dd_clock_new_real(ev, 1);
	assert_non_null(h.c);
	a = dd_mono_ns();
	b = dd_clock_now(h.c);
	assert_true(b >= a && b - a < 1000 * MS);
	dd_clock_free(h.c);

	h.c = dd_clock_new_real(ev, 100);
	assert_non_null(h.c);
	/* a real second is 100 of its seconds; a span past int64 saturates */
	assert_int_equal(dd_clock_span(h.c, 1000 * MS), 100000 * MS);
	assert_int_equal(dd_clock_span(h.c, INT64_MAX / 2), INT64_MAX);
	t = dd_timer_new(h.c, on_real, &h);
	assert_non_null(t);
	start = dd_clock_now(h.c);
	dd_timer_arm(t, start + 2000 * MS);
	until = hang_real_ns() + hang_bound_ns();
	while (h.n == 0 && hang_real_ns() < until)
		assert_true(sd_event_run(ev, 100000) >= 0);
	assert_int_equal(h.n, 1);
	assert_true(h.at[0] >= start + 2000 * MS);
	assert_int_equal(dd_timer_due(t), INT64_MAX);
	dd_timer_free(t);
	dd_clock_free(h.c);
	sd_event_unref(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_manual_clock_runs_due_timers_in_time_order),
		cmocka_unit_test(test_real_clock_fires_on_the_loop_at_its_speed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
