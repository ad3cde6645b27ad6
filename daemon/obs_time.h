/*
 * Sums and differences of observation times. Times come from outside (the
 * GPIO chip's edge clock, the camera's, the simulator's reports) and may be
 * anywhere in int64: each of these saturates, so that a time near either
 * end compares as far away and never wraps to near. Private to daemon/.
 */
#ifndef DYEREF_OBS_TIME_H
#define DYEREF_OBS_TIME_H

#include <stdint.h>

/* t + d, saturated. */
static inline int64_t dd_time_shifted(int64_t t, int64_t d)
{
	int64_t r;

	if (__builtin_add_overflow(t, d, &r))
		return d > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* later - earlier, saturated: its sign is always that of the difference. */
static inline int64_t dd_time_span(int64_t earlier, int64_t later)
{
	int64_t d;

	if (__builtin_sub_overflow(later, earlier, &d))
		return later > earlier ? INT64_MAX : INT64_MIN;
	return d;
}

/* |a - b|, saturated. */
static inline int64_t dd_time_gap(int64_t a, int64_t b)
{
	int64_t d = dd_time_span(b, a);

	return d == INT64_MIN ? INT64_MAX : d < 0 ? -d : d;
}

#endif /* DYEREF_OBS_TIME_H */
