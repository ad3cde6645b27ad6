/* Link-seam stub of libgpiod 1.6 (the calls sensors/gpio_v1.c makes): a
 * fake chip whose failures the test chooses, and whose line descriptors
 * are real eventfds (timerfds playing a script, gpiod_script.c), so epoll
 * in the backend works unchanged. */
#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "tests/stubs/gpiod_stub.h"

struct gpiod_chip {
	int unused;		/* one fake chip */
};

struct gpiod_line {
	unsigned offset;	/* on the fake chip */
	bool requested;		/* held for events */
	int fd;			/* eventfd, or the script's timerfd: readable while events wait */
	size_t n_ev;		/* queued */
	struct gpiod_line_event ev[STUB_MAX_EVENTS];	/* queued, oldest first */
};

struct gpiod_stub gpiod_stub;
static struct gpiod_chip chip;
static struct gpiod_line lines[STUB_MAX_LINES];

void gpiod_stub_reset(void)
{
	for (size_t i = 0; i < STUB_MAX_LINES; i++)
		if (lines[i].requested)
			close(lines[i].fd);
	memset(lines, 0, sizeof(lines));
	gpiod_stub_script_clear();
	memset(&gpiod_stub, 0, sizeof(gpiod_stub));
	gpiod_stub.num_lines = 54;
	gpiod_stub.label = "pinctrl-bcm2711";
	gpiod_stub.busy_offset = -1;
	gpiod_stub.debounce_us = -1;
}

static struct gpiod_chip *open_chip(const char *what, bool by_name)
{
	if (gpiod_stub.open_errno) {
		errno = gpiod_stub.open_errno;
		return NULL;
	}
	snprintf(gpiod_stub.opened, sizeof(gpiod_stub.opened), "%s", what);
	gpiod_stub.opened_by_name = by_name;
	gpiod_stub.chips_open++;
	return &chip;
}

struct gpiod_chip *gpiod_chip_open(const char *path)
{
	return open_chip(path, false);
}

struct gpiod_chip *gpiod_chip_open_by_name(const char *name)
{
	return open_chip(name, true);
}

void gpiod_chip_close(struct gpiod_chip *c)
{
	(void)c;
	gpiod_stub.chips_open--;
}

unsigned int gpiod_chip_num_lines(struct gpiod_chip *c)
{
	(void)c;
	return gpiod_stub.num_lines;
}

const char *gpiod_chip_label(struct gpiod_chip *c)
{
	(void)c;
	return gpiod_stub.label;
}

struct gpiod_line *gpiod_chip_get_line(struct gpiod_chip *c, unsigned int offset)
{
	(void)c;
	if (offset >= gpiod_stub.num_lines || offset >= STUB_MAX_LINES) {
		errno = EINVAL;
		return NULL;
	}
	lines[offset].offset = offset;
	return &lines[offset];
}

int gpiod_line_request_rising_edge_events_flags(struct gpiod_line *line, const char *consumer,
						int flags)
{
	if ((int)line->offset == gpiod_stub.busy_offset) {
		errno = EBUSY;
		return -1;
	}
	if (gpiod_stub.request_errno) {
		errno = gpiod_stub.request_errno;
		return -1;
	}
	if (gpiod_stub_script_on()) {
		gpiod_stub_script_start();
		line->fd = gpiod_stub_script_fd(1ULL << line->offset);
	} else {
		line->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	}
	if (line->fd < 0)
		return -1;
	line->requested = true;
	snprintf(gpiod_stub.consumer, sizeof(gpiod_stub.consumer), "%s", consumer);
	gpiod_stub.flags = flags;
	gpiod_stub.lines_held++;
	return 0;
}

int gpiod_line_update(struct gpiod_line *line)
{
	(void)line;
	return 0;
}

const char *gpiod_line_consumer(struct gpiod_line *line)
{
	if ((int)line->offset == gpiod_stub.busy_offset)
		return gpiod_stub.busy_consumer;
	return line->requested ? gpiod_stub.consumer : NULL;
}

void gpiod_line_release(struct gpiod_line *line)
{
	if (!line->requested)
		return;
	gpiod_stub_script_release(1ULL << line->offset);
	close(line->fd);
	line->requested = false;
	line->n_ev = 0;
	gpiod_stub.lines_held--;
}

int gpiod_line_event_get_fd(struct gpiod_line *line)
{
	if (!line->requested) {
		errno = EPERM;
		return -1;
	}
	return line->fd;
}

/* The script's next instant, when it is due and on line, into its empty
 * queue (one instant a read): rising edges only, as requested
 * (gpiod_line_request_rising_edge_events_flags); an instant of falling
 * ones is never queued, the next is taken instead. */
static void take_scripted(struct gpiod_line *line)
{
	struct gpiod_stub_edge e[STUB_MAX_EVENTS];
	size_t n;

	while (line->n_ev == 0 &&
	       (n = gpiod_stub_script_take(1ULL << line->offset, e, STUB_MAX_EVENTS))) {
		for (size_t i = 0; i < n; i++) {
			struct gpiod_line_event *ev = &line->ev[line->n_ev];

			if (!e[i].rising)
				continue;
			ev->ts.tv_sec = e[i].at_ns / 1000000000;
			ev->ts.tv_nsec = e[i].at_ns % 1000000000;
			ev->event_type = GPIOD_LINE_EVENT_RISING_EDGE;
			line->n_ev++;
		}
	}
}

int gpiod_line_event_read_fd_multiple(int fd, struct gpiod_line_event *events,
				      unsigned int num_events)
{
	struct gpiod_line *line = NULL;
	unsigned n;

	for (size_t i = 0; i < STUB_MAX_LINES; i++)
		if (lines[i].requested && lines[i].fd == fd)
			line = &lines[i];
	if (!line) {
		errno = EBADF;
		return -1;
	}
	if (gpiod_stub.read_errno) {
		errno = gpiod_stub.read_errno;
		return -1;
	}
	if (gpiod_stub_script_on())
		take_scripted(line);
	if (line->n_ev == 0) {
		gpiod_stub_drained(line->fd, 1ULL << line->offset);
		errno = EAGAIN;
		return -1;
	}
	n = line->n_ev < num_events ? (unsigned)line->n_ev : num_events;
	memcpy(events, line->ev, n * sizeof(*events));
	memmove(line->ev, line->ev + n, (line->n_ev - n) * sizeof(*events));
	line->n_ev -= n;
	if (line->n_ev == 0)
		gpiod_stub_drained(line->fd, 1ULL << line->offset);
	return (int)n;
}

int gpiod_stub_event(unsigned offset, int64_t ts_ns, bool rising)
{
	struct gpiod_line *line;
	uint64_t one = 1;

	if (offset >= STUB_MAX_LINES || !lines[offset].requested)
		return -1;
	line = &lines[offset];
	if (line->n_ev == STUB_MAX_EVENTS)
		return -1;
	line->ev[line->n_ev].ts.tv_sec = ts_ns / 1000000000;
	line->ev[line->n_ev].ts.tv_nsec = ts_ns % 1000000000;
	line->ev[line->n_ev].event_type = rising ? GPIOD_LINE_EVENT_RISING_EDGE :
						   GPIOD_LINE_EVENT_FALLING_EDGE;
	line->n_ev++;
	return write(line->fd, &one, sizeof(one)) == sizeof(one) ? 0 : -1;
}
