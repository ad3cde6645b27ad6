/* Control of the libgpiod link-seam stubs (gpiod_v1_stub.c, gpiod_v2_stub.c):
 * what the fake chip is like, what fails, what the code under test did,
 * and edges it is to see: queued at once, or scripted in time
 * (gpiod_script.c). */
#ifndef DYEREF_STUB_GPIOD_STUB_H
#define DYEREF_STUB_GPIOD_STUB_H

#include <stdbool.h>
#include <stdint.h>

#define STUB_MAX_LINES 64	/* lines the fake chip can have */
#define STUB_MAX_EVENTS 256	/* queued events */
#define STUB_MAX_SCRIPT 4096	/* edges of a script */

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

/* A fresh fake chip with 54 lines, a Pi 4's header, nothing failing, no
 * script; closes descriptors of the previous test. */
void gpiod_stub_reset(void);

/* Queues an edge on a requested line as the kernel would: makes its
 * descriptor readable. rising false queues a falling edge. 0, or -1 if
 * the line is not requested. */
int gpiod_stub_event(unsigned offset, int64_t ts_ns, bool rising);

/* ---- Scripted edges (gpiod_script.c) ----
 * A script is a text file, one edge a line:
 *     OFFSET rising|falling DELAY_MS
 * the line's offset on the fake chip, the edge, and the milliseconds (up
 * to 6 decimals, at most an hour) after the previous edge (the first's:
 * after the script's time 0). Besides, at most once:
 *     now DELAY_MS
 * the lines are first requested DELAY_MS after the edge before it (or
 * time 0): the edges before that time came while nobody read, and wait in
 * the queue as the kernel's would, stamped in the past, so a test need not
 * wait them out; the next edge's delay still counts from the edge before
 * it. Without it the first request is time 0. Spaces or tabs
 * between fields; '#' starts a comment; blank lines are allowed; lines up
 * to 256 bytes; at most STUB_MAX_SCRIPT edges.
 * Each edge is delivered once its time has come (with a script loaded, the
 * stubs' event descriptors are timerfds that turn readable then), stamped
 * with that time (CLOCK_MONOTONIC), as the kernel stamps it, and with the
 * edges of the same instant only: a read takes one instant (or as much of
 * it as the reader asks), in the script's order across the lines, so the
 * code under test sees the same edges in the same reads however slow the
 * machine. As
 * the kernel, a stub delivers an edge only on a requested line and of the
 * kind requested (v1: rising; v2: as the settings' edge detection says);
 * the rest are never seen. gpiod_stub_event() does not work with a
 * script. */
struct gpiod_stub_edge {
	unsigned offset;	/* line */
	bool rising;		/* else falling */
	int64_t at_ns;		/* in the script: from its start; taken: CLOCK_MONOTONIC */
};

/* Reads and checks the script at path; it replaces any earlier one. 0, or
 * a negative errno with "path:line: why" (or "path: why") in err, and then
 * no script at all. */
int gpiod_stub_script_load(const char *path, char *err, size_t errlen);
void gpiod_stub_script_clear(void);
/* Whether a script is loaded. */
bool gpiod_stub_script_on(void);

/* For the stubs. Starts the script's clock (the first request does). */
void gpiod_stub_script_start(void);
/* A timerfd armed for the first edge on lines (bit i: offset i), after
 * the clock started; -1 with errno. The lines are watched from then on. */
int gpiod_stub_script_fd(uint64_t lines);
/* The lines are watched no longer (released): their edges are never seen. */
void gpiod_stub_script_release(uint64_t lines);
/* Nothing waits on fd, a stub's descriptor for lines: it is no longer
 * readable (an eventfd cleared), and a script's timer waits for the next
 * edge not yet taken on lines (disarmed when there is none). */
void gpiod_stub_drained(int fd, uint64_t lines);
/* The script's next instant: its next edge not yet taken on a watched
 * line, when that is on lines and due now, and the edges right after it
 * at the same time on lines; at most cap of them, into out, each taken.
 * How many (0: none). */
size_t gpiod_stub_script_take(uint64_t lines, struct gpiod_stub_edge *out, size_t cap);

#endif
