/* The daemon's clock: CLOCK_MONOTONIC with timers on sd-event, or a manual
 * one the tests step (daemon/clock.h). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "daemon/clock.h"
#include "daemon/daemon.h"

struct dd_clock {
	sd_event *ev;			/* real: borrowed, carries the timers; NULL manual */
	double speed;			/* real: clock ns per real ns */
	int64_t origin_ns;		/* real, speed != 1: CLOCK_MONOTONIC at the start, where both read the same */
	int64_t now_ns;			/* manual: the time it reads */
	uint64_t armed;			/* manual: armings so far, the tie-break */
	struct dd_timer *timers;	/* manual: every timer, in no order */
};

struct dd_timer {
	struct dd_clock *c;		/* borrowed */
	dd_timer_fn fn;			/* what runs when due */
	void *user;			/* for fn */
	int64_t at_ns;			/* armed for, INT64_MAX off */
	sd_event_source *src;		/* real: its time source */
	uint64_t seq;			/* manual: when it was armed, for ties */
	struct dd_timer *next;		/* manual: the clock's list */
};

struct dd_clock *dd_clock_new_real(sd_event *ev, double speed)
{
	struct dd_clock *c;

	if (!ev || !(speed > 0) || !isfinite(speed)) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->ev = ev;
	c->speed = speed;
	c->origin_ns = dd_mono_ns();
	return c;
}

struct dd_clock *dd_clock_new_manual(int64_t start_ns)
{
	struct dd_clock *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->speed = 1;
	c->now_ns = start_ns;
	return c;
}

void dd_clock_free(struct dd_clock *c)
{
	free(c);
}

/* Clock time to real CLOCK_MONOTONIC and back, for a speed other than 1
 * (saturated at either end of int64). */
static int64_t clamp_ns(double t)
{
	if (t >= 9.2e18)
		return INT64_MAX;
	if (t <= -9.2e18)
		return INT64_MIN;
	return (int64_t)t;
}

static int64_t to_clock(const struct dd_clock *c, int64_t real_ns)
{
	if (c->speed == 1)
		return real_ns;
	return c->origin_ns + clamp_ns((double)(real_ns - c->origin_ns) * c->speed);
}

static int64_t to_real(const struct dd_clock *c, int64_t clock_ns)
{
	if (c->speed == 1)
		return clock_ns;
	/* Up, so that a timer armed for clock_ns never runs before it. */
	return c->origin_ns + clamp_ns(ceil(((double)clock_ns - (double)c->origin_ns) / c->speed));
}

int64_t dd_clock_now(const struct dd_clock *c)
{
	return c->ev ? to_clock(c, dd_mono_ns()) : c->now_ns;
}

double dd_clock_speed(const struct dd_clock *c)
{
	return c->speed;
}

int64_t dd_clock_span(const struct dd_clock *c, int64_t real_ns)
{
	return clamp_ns((double)real_ns * dd_clock_speed(c));
}

int64_t dd_clock_next_due(const struct dd_clock *c)
{
	int64_t best = INT64_MAX;

	for (const struct dd_timer *t = c->timers; t; t = t->next)
		if (t->at_ns < best)
			best = t->at_ns;
	return best;
}

/* The manual clock's earliest armed timer due by to_ns, or NULL. */
static struct dd_timer *earliest_due(struct dd_clock *c, int64_t to_ns)
{
	struct dd_timer *best = NULL;

	for (struct dd_timer *t = c->timers; t; t = t->next)
		if (t->at_ns != INT64_MAX && t->at_ns <= to_ns &&
		    (!best || t->at_ns < best->at_ns || (t->at_ns == best->at_ns && t->seq < best->seq)))
			best = t;
	return best;
}

void dd_clock_advance(struct dd_clock *c, int64_t to_ns)
{
	struct dd_timer *t;

	if (c->ev)
		return;
	/* One at a time, found afresh: a timer's fn may arm, disarm or free
	 * any timer, itself included. */
	while ((t = earliest_due(c, to_ns))) {
		if (t->at_ns > c->now_ns)
			c->now_ns = t->at_ns;
		t->at_ns = INT64_MAX;
		t->fn(t->user);
	}
	if (to_ns > c->now_ns)
		c->now_ns = to_ns;
}

static int on_time(sd_event_source *s, uint64_t usec, void *user)
{
	struct dd_timer *t = user;

	(void)s;
	(void)usec;
	t->at_ns = INT64_MAX;
	t->fn(t->user);
	return 0;
}

struct dd_timer *dd_timer_new(struct dd_clock *c, dd_timer_fn fn, void *user)
{
	struct dd_timer *t = calloc(1, sizeof(*t));
	int rc;

	if (!t)
		return NULL;
	t->c = c;
	t->fn = fn;
	t->user = user;
	t->at_ns = INT64_MAX;
	if (!c->ev) {
		t->next = c->timers;
		c->timers = t;
		return t;
	}
	/* Accuracy 1 us: sd-event's default lets a wake-up wait up to 250 ms
	 * to coalesce with others, which a ruling on its way to the screen
	 * (or an impact on its way to fusion) should not. */
	rc = sd_event_add_time(c->ev, &t->src, CLOCK_MONOTONIC, 0, 1, on_time, t);
	if (rc < 0) {
		free(t);
		errno = -rc;
		return NULL;
	}
	sd_event_source_set_enabled(t->src, SD_EVENT_OFF);
	return t;
}

void dd_timer_arm(struct dd_timer *t, int64_t at_ns)
{
	int64_t real;

	t->at_ns = at_ns;
	if (!t->c->ev) {
		t->seq = t->c->armed++;
		return;
	}
	if (at_ns == INT64_MAX) {
		sd_event_source_set_enabled(t->src, SD_EVENT_OFF);
		return;
	}
	/* The first microsecond not before it: a due timer finds its time
	 * come when it reads the clock. */
	real = to_real(t->c, at_ns);
	sd_event_source_set_time(t->src, real < 0 ? 0 : ((uint64_t)real + 999) / 1000);
	sd_event_source_set_enabled(t->src, SD_EVENT_ONESHOT);
}

int64_t dd_timer_due(const struct dd_timer *t)
{
	return t->at_ns;
}

void dd_timer_free(struct dd_timer *t)
{
	if (!t)
		return;
	if (t->c->ev) {
		sd_event_source_disable_unref(t->src);
	} else {
		struct dd_timer **p = &t->c->timers;

		while (*p && *p != t)
			p = &(*p)->next;
		if (*p)
			*p = t->next;
	}
	free(t);
}
