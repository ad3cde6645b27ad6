/*
 * DYEREF_TEST_SLOWDOWN for the unit tests: the factor (default 1; a
 * decimal such as 2.5 is fine) by which a slow or busy machine (qemu, a
 * loaded runner) stretches every real-time budget, as the end-to-end
 * scripts do (tests/e2e/lib/slow.sh). A budget is how long a test is
 * willing to wait for something that should happen; stretching it must
 * never change what the test asserts.
 */
#ifndef DYEREF_TEST_SLOWDOWN_H
#define DYEREF_TEST_SLOWDOWN_H

#include <stdint.h>

/* The factor, > 0. Read once; a value that is not a positive number stops
 * the test binary with exit status 2 and a message on stderr. */
double dyt_slowdown(void);

/* A budget of ns nanoseconds (ms milliseconds) times the factor, at least
 * 1. */
int64_t dyt_slow_ns(int64_t ns);
int dyt_slow_ms(int ms);

#endif
