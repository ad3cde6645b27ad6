/* The real-time bound a unit test waits a worker for: it only catches a
 * hang, it is no figure. 60 s times DYEREF_TEST_SLOWDOWN (a factor >= 1,
 * default 1, for sanitizers or emulated builds). Time the test steps goes
 * on a manual clock (daemon/clock.h); this is the one real wait, always on
 * CLOCK_MONOTONIC. Header-only. */
#ifndef DYEREF_TEST_HANG_BOUND_H
#define DYEREF_TEST_HANG_BOUND_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "tests/support/slowdown.h"

static inline int64_t hang_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline int64_t hang_bound_ns(void)
{
	return dyt_slow_ns(60000000000LL);
}

/* The absolute CLOCK_MONOTONIC time a hang_cond_init() condition waits to. */
static inline struct timespec hang_deadline(void)
{
	int64_t t = hang_real_ns() + hang_bound_ns();
	struct timespec ts = { .tv_sec = t / 1000000000LL, .tv_nsec = t % 1000000000LL };

	return ts;
}

/* A condition whose timed waits read CLOCK_MONOTONIC (never the wall
 * clock, which may be stepped). */
static inline void hang_cond_init(pthread_cond_t *c)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
}

#endif /* DYEREF_TEST_HANG_BOUND_H */
