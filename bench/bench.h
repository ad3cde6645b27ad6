/* What every benchmark here needs: a monotonic clock. Header-only, since
 * each bench/NAME.c links into a program of its own. */
#ifndef DYEREF_BENCH_H
#define DYEREF_BENCH_H

#include <time.h>

/* CLOCK_MONOTONIC, in seconds. */
static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CLOCK_MONOTONIC, in nanoseconds. */
static inline double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

#endif /* DYEREF_BENCH_H */
