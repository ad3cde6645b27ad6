/* libgpiod v1 backend (sensors/gpio_v1.c) against a link-seam stub of
 * libgpiod v1 (tests/stubs/gpiod_v1_stub.c): request, read, timestamp
 * conversion and every error path. Built by sensors/module.mk. */
#define STUB_V 1
#include "tests/stubs/gpio_cases.h"
