#include "tests/support/slowdown.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double dyt_slowdown(void)
{
	static double factor;	/* 0: not read yet */
	const char *s;
	char *end;
	double f;

	if (factor > 0)
		return factor;
	s = getenv("DYEREF_TEST_SLOWDOWN");
	if (!s || !*s) {
		factor = 1;
		return factor;
	}
	f = strtod(s, &end);
	if (*end || !isfinite(f) || f <= 0) {
		fprintf(stderr, "DYEREF_TEST_SLOWDOWN='%s' is not a positive number\n", s);
		exit(2);
	}
	factor = f;
	return factor;
}

int64_t dyt_slow_ns(int64_t ns)
{
	double v = ceil((double)ns * dyt_slowdown());

	if (v < 1)
		return 1;
	return v > (double)INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)v;
}

int dyt_slow_ms(int ms)
{
	double v = ceil((double)ms * dyt_slowdown());

	if (v < 1)
		return 1;
	return v > (double)(1 << 30) ? 1 << 30 : (int)v;
}
