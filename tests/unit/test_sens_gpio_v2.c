/* libgpiod v2 backend (sensors/gpio_v2.c) against a link-seam stub of
 * libgpiod v2 (tests/stubs/gpiod_v2_stub.c): request, read, timestamp
 * conversion and every error path. Built by sensors/module.mk. */
#define STUB_V 2
#include "tests/stubs/gpio_cases.h"
