/* Control of the libgpiod link-seam stubs (gpiod_v1_stub.c, gpiod_v2_stub.c):
 * what the fake chip is like, what fails, and what the code under test did. */
#ifndef DYEREF_STUB_GPIOD_STUB_H
#define DYEREF_STUB_GPIOD_STUB_H

#include <stdbool.h>
#include <stdint.h>

#define STUB_MAX_LINES 64	/* lines the fake chip can have */
#define STUB_MAX_EVENTS 256	/* queued events */

struct gpiod_stub {
	/* set by the test */
	unsigned num_lines;	/* lines on the fake chip (54, a Pi) */
	const char *label;	/* the chip's label ("pinctrl-bcm2711", a Pi 4's header) */
	int open_errno;		/* chip open fails with this errno (0: opens) */
	int busy_offset;	/* this line is held by busy_consumer (-1: none) */
	const char *busy_consumer;	/* as gpioinfo would show */
	int request_errno;	/* requests fail with this errno (0: succeed) */
	int read_errno;		/* reads fail with this errno (0: succeed) */
	/* recorded from the code under test */
	char opened[128];	/* path or name the chip was opened by */
	bool opened_by_name;	/* v1: gpiod_chip_open_by_name */
	int chips_open;		/* opened minus closed */
	int lines_held;		/* requested minus released (lines) */
	char consumer[32];	/* consumer given at the last request */
	int flags;		/* v1: request flags */
	int edge, bias, direction, clock;	/* v2: settings given */
	long debounce_us;	/* v2: debounce given (-1: never set) */
	int objects_live;	/* v2: settings/configs/buffers/infos not yet freed */
};

extern struct gpiod_stub gpiod_stub;

/* A fresh fake chip with 54 lines, a Pi 4's header, nothing failing; closes descriptors
 * of the previous test. */
void gpiod_stub_reset(void);

/* Queues an edge on a requested line as the kernel would: makes its
 * descriptor readable. rising false queues a falling edge. 0, or -1 if
 * the line is not requested. */
int gpiod_stub_event(unsigned offset, int64_t ts_ns, bool rising);

#endif
