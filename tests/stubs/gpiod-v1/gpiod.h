/* Link-seam stub: the part of libgpiod 1.6's <gpiod.h> that
 * sensors/gpio_v1.c uses, with the same names and signatures. Built
 * against gpiod_v1_stub.c for tests, on machines with either version. */
#ifndef DYEREF_STUB_GPIOD_V1_H
#define DYEREF_STUB_GPIOD_V1_H

#include <time.h>

struct gpiod_chip;
struct gpiod_line;

struct gpiod_line_event {
	struct timespec ts;	/* best estimate of the event's time */
	int event_type;		/* GPIOD_LINE_EVENT_* */
};

enum {
	GPIOD_LINE_EVENT_RISING_EDGE = 1,
	GPIOD_LINE_EVENT_FALLING_EDGE,
};

enum {
	GPIOD_LINE_REQUEST_FLAG_OPEN_DRAIN = 1 << 0,
	GPIOD_LINE_REQUEST_FLAG_OPEN_SOURCE = 1 << 1,
	GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW = 1 << 2,
	GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE = 1 << 3,
	GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN = 1 << 4,
	GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP = 1 << 5,
};

struct gpiod_chip *gpiod_chip_open(const char *path);
struct gpiod_chip *gpiod_chip_open_by_name(const char *name);
void gpiod_chip_close(struct gpiod_chip *chip);
unsigned int gpiod_chip_num_lines(struct gpiod_chip *chip);
const char *gpiod_chip_label(struct gpiod_chip *chip);
struct gpiod_line *gpiod_chip_get_line(struct gpiod_chip *chip, unsigned int offset);
int gpiod_line_request_rising_edge_events_flags(struct gpiod_line *line, const char *consumer,
						int flags);
int gpiod_line_update(struct gpiod_line *line);
const char *gpiod_line_consumer(struct gpiod_line *line);
void gpiod_line_release(struct gpiod_line *line);
int gpiod_line_event_get_fd(struct gpiod_line *line);
int gpiod_line_event_read_fd_multiple(int fd, struct gpiod_line_event *events,
				      unsigned int num_events);

#endif
