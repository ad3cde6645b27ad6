/* The daemon's one clock (daemon/clock.c): every wait in daemon/ (serve's
 * timers, the face reader's give-up limit, the feeders' timed observations,
 * the camera glue's playback, the sensors glue's silence and health timers)
 * reads it and arms its timers on it, so a test can step time instead of
 * waiting it out.
 *
 * Two backends behind one interface:
 * - real: CLOCK_MONOTONIC (dd_mono_ns), timers are sd-event time sources
 *   on the loop, accuracy 1 us. A speed other than 1 runs the clock that
 *   many times faster than real time from its start (`dyeref serve --sim`
 *   with [sim] speed): what reads the clock (the feeders' timelines,
 *   fusion's settle and timeout, observation times) sees the table's own
 *   time, only sooner, so rulings are the same as at speed 1.
 * - manual: time stands until dd_clock_advance() moves it; due timers run
 *   in that call, synchronously, in time order (ties: the order they were
 *   armed in).
 *
 * Times are int64 ns; INT64_MAX means never. A clock's timers must be freed
 * before it. */
#ifndef DYEREF_DAEMON_CLOCK_H
#define DYEREF_DAEMON_CLOCK_H

#include <stdint.h>
#include <systemd/sd-event.h>

struct dd_clock;
struct dd_timer;

typedef void (*dd_timer_fn)(void *user);

/* The real clock on ev (borrowed: it must outlive the clock), speed times
 * real time (1: CLOCK_MONOTONIC itself; > 0). NULL with errno (EINVAL for
 * a bad speed, ENOMEM). Free with dd_clock_free(). */
struct dd_clock *dd_clock_new_real(sd_event *ev, double speed);
/* A manual clock reading start_ns until advanced. NULL with errno. */
struct dd_clock *dd_clock_new_manual(int64_t start_ns);
/* NULL is fine. Its timers must be gone. */
void dd_clock_free(struct dd_clock *c);

/* The clock's time now, ns. */
int64_t dd_clock_now(const struct dd_clock *c);
/* How many times faster than real time it runs (manual: 1). */
double dd_clock_speed(const struct dd_clock *c);
/* A span of real_ns of real time in the clock's ns (speed times as many,
 * saturated): for what stays real time on a faster clock, a person's wait
 * or a face read's. */
int64_t dd_clock_span(const struct dd_clock *c, int64_t real_ns);
/* Manual clock: runs every timer due at or before to_ns, earliest first,
 * the clock reading each one's time while it runs (a timer armed by one of
 * them runs too if it falls due by to_ns), then reads to_ns. A to_ns before
 * now changes nothing. Ignored on a real clock. */
void dd_clock_advance(struct dd_clock *c, int64_t to_ns);
/* Manual clock: the earliest time a timer is armed at, INT64_MAX none. */
int64_t dd_clock_next_due(const struct dd_clock *c);

/* A timer on c calling fn(user) when due, off until armed. NULL with
 * errno. Free with dd_timer_free() (also from inside fn). */
struct dd_timer *dd_timer_new(struct dd_clock *c, dd_timer_fn fn, void *user);
/* Runs fn once at at_ns on the clock (at once, on the loop's next turn or
 * the next advance, if that is past); INT64_MAX: off. Replaces any earlier
 * arming. */
void dd_timer_arm(struct dd_timer *t, int64_t at_ns);
/* When it is armed to run, INT64_MAX when off. */
int64_t dd_timer_due(const struct dd_timer *t);
/* NULL is fine. */
void dd_timer_free(struct dd_timer *t);

#endif /* DYEREF_DAEMON_CLOCK_H */
