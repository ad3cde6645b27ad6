/* The sensors glue of `dyeref serve` on the libgpiod stub's fake chip
 * (tests/stubs/gpiod_stub.h: edges queued as the test says), on a manual
 * clock: when the glue's timer and its chip's descriptor are due at once,
 * which the loop may run in either order, the edges that wait are read
 * before the timer completes anything. Linked with the stub's objects
 * (daemon/module.mk). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/clock.h"
#include "daemon/config.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "tests/stubs/gpiod_stub.h"

#define US 1000LL
#define MS 1000000LL
#define T0 (1000 * 1000 * MS)
#define FLOOR 24		/* floor0's line */

struct run {
	sd_event *ev;			/* owned */
	struct dd_clock *clock;		/* owned: manual */
	struct dd_sensors *s;		/* owned, or NULL */
	struct dd_config cfg;		/* loaded while have_cfg */
	bool have_cfg;
	struct dd_health_item h;	/* the glue's health item */
	int obs;			/* observations it gave fusion */
};

static void count_obs(void *user, const struct dd_obs *o)
{
	struct run *r = user;

	(void)o;
	r->obs++;
}

static int setup(void **state)
{
	struct run *r = calloc(1, sizeof(*r));
	char err[256];

	gpiod_stub_reset();
	if (!r || sd_event_new(&r->ev) < 0 || !(r->clock = dd_clock_new_manual(T0)))
		return -1;
	*state = r;
	if (dd_config_load_string(&r->cfg, "t.ini", "[sensors]\nfloor0 = 24\n", err, sizeof(err)))
		return -1;
	r->have_cfg = true;
	r->s = dd_sensors_new(&r->cfg, r->ev, r->clock, false, count_obs, r, &r->h, err, sizeof(err));
	return r->s ? 0 : -1;
}

/* Frees what the case made, even when an assertion ended it half-way. */
static int teardown(void **state)
{
	struct run *r = *state;

	dd_sensors_free(r->s);
	dd_clock_free(r->clock);
	sd_event_unref(r->ev);
	if (r->have_cfg)
		dd_config_free(&r->cfg);
	free(r);
	gpiod_stub_reset();
	return 0;
}

/* Runs the loop's ready sources (the chip's descriptor) until none is,
 * a bounded number of times; no time passes on the manual clock. */
static void read_waiting(struct run *r)
{
	for (int i = 0; i < 100 && sd_event_run(r->ev, 0) > 0; i++)
		;
}

/* The floating floor strip (one edge, then edges 1 us apart): the
 * first edge is read alone, its floor observation waits for the line's
 * check; the next 15 wait unread when the glue's timer, armed by that
 * read, falls due. The timer reads them first: the 16th shows the line
 * floating, and the first edge's floor observation never reaches fusion.
 * (Completing first, the glue let it through: a floor-only throw.) */
static void test_glue_timer_reads_waiting_edges_first(void **state)
{
	struct run *r = *state;

	assert_int_equal(gpiod_stub_event(FLOOR, T0, true), 0);
	read_waiting(r);
	assert_int_equal(r->obs, 0);
	assert_true(dd_clock_next_due(r->clock) < T0 + MS);	/* the impact's window */
	for (int i = 1; i < 16; i++)
		assert_int_equal(gpiod_stub_event(FLOOR, T0 + i * US, true), 0);
	dd_clock_advance(r->clock, T0 + 1000 * MS);
	assert_int_equal(r->obs, 0);
	assert_false(r->h.ok);
	assert_string_equal(r->h.text, "0 of 1 piezo lines ok; floor0 floating");
	/* Nothing left waiting, and a sane hit 11 s on reaches fusion. */
	read_waiting(r);
	assert_int_equal(gpiod_stub_event(FLOOR, T0 + 11000 * MS, true), 0);
	dd_clock_advance(r->clock, T0 + 11000 * MS);
	read_waiting(r);
	dd_clock_advance(r->clock, T0 + 11100 * MS);
	assert_int_equal(r->obs, 1);
	assert_true(r->h.ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_glue_timer_reads_waiting_edges_first, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
