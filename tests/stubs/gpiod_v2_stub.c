/* Link-seam stub of libgpiod 2.x (the calls sensors/gpio_v2.c makes): a
 * fake chip whose failures the test chooses; the request's descriptor is
 * a real eventfd (a timerfd playing a script, gpiod_script.c), readable
 * while edge events wait. Every object it hands out is counted, so a test
 * sees leaks. */
#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "tests/stubs/gpiod_stub.h"

struct gpiod_chip {
	int unused;		/* one fake chip */
};

struct gpiod_chip_info {
	size_t num_lines;	/* as the chip reports */
	const char *label;	/* as the chip reports */
};

struct gpiod_line_info {
	bool used;		/* held by someone */
	const char *consumer;	/* who */
};

struct gpiod_line_settings {
	int unused;		/* values go to gpiod_stub */
};

struct gpiod_line_config {
	size_t n;		/* offsets added */
	unsigned offsets[STUB_MAX_LINES];	/* in order added */
};

struct gpiod_request_config {
	char consumer[32];	/* as set */
};

struct gpiod_line_request {
	int fd;			/* eventfd, or the script's timerfd */
	size_t n;		/* lines held */
	uint64_t lines;		/* bit i: offset i is held (offsets below 64) */
	int edge;		/* edge detection requested (enum gpiod_line_edge) */
};

struct gpiod_edge_event {
	enum gpiod_edge_event_type type;	/* rising or falling */
	uint64_t ts_ns;		/* kernel timestamp */
	unsigned offset;	/* line */
};

struct gpiod_edge_event_buffer {
	size_t capacity, n;	/* events it can hold, holds */
	struct gpiod_edge_event ev[];	/* capacity of them */
};

struct gpiod_stub gpiod_stub;
static struct gpiod_chip chip;
static struct gpiod_line_request *live_request;	/* the one request */
static size_t n_queued;
static struct gpiod_edge_event queued[STUB_MAX_EVENTS];

void gpiod_stub_reset(void)
{
	memset(&gpiod_stub, 0, sizeof(gpiod_stub));
	gpiod_stub.num_lines = 54;
	gpiod_stub.label = "pinctrl-bcm2711";
	gpiod_stub.busy_offset = -1;
	gpiod_stub.debounce_us = -1;
	live_request = NULL;
	n_queued = 0;
	gpiod_stub_script_clear();
}

static void *object(size_t size)
{
	void *p = calloc(1, size);

	if (p)
		gpiod_stub.objects_live++;
	return p;
}

static void object_free(void *p)
{
	if (!p)
		return;
	gpiod_stub.objects_live--;
	free(p);
}

struct gpiod_chip *gpiod_chip_open(const char *path)
{
	if (gpiod_stub.open_errno) {
		errno = gpiod_stub.open_errno;
		return NULL;
	}
	snprintf(gpiod_stub.opened, sizeof(gpiod_stub.opened), "%s", path);
	gpiod_stub.chips_open++;
	return &chip;
}

void gpiod_chip_close(struct gpiod_chip *c)
{
	(void)c;
	gpiod_stub.chips_open--;
}

struct gpiod_chip_info *gpiod_chip_get_info(struct gpiod_chip *c)
{
	struct gpiod_chip_info *i = object(sizeof(*i));

	(void)c;
	if (i) {
		i->num_lines = gpiod_stub.num_lines;
		i->label = gpiod_stub.label;
	}
	return i;
}

size_t gpiod_chip_info_get_num_lines(struct gpiod_chip_info *info)
{
	return info->num_lines;
}

const char *gpiod_chip_info_get_label(struct gpiod_chip_info *info)
{
	return info->label;
}

void gpiod_chip_info_free(struct gpiod_chip_info *info)
{
	object_free(info);
}

struct gpiod_line_info *gpiod_chip_get_line_info(struct gpiod_chip *c, unsigned int offset)
{
	struct gpiod_line_info *i;

	(void)c;
	if (offset >= gpiod_stub.num_lines) {
		errno = EINVAL;
		return NULL;
	}
	i = object(sizeof(*i));
	if (i) {
		i->used = (int)offset == gpiod_stub.busy_offset;
		i->consumer = i->used ? gpiod_stub.busy_consumer : NULL;
	}
	return i;
}

bool gpiod_line_info_is_used(struct gpiod_line_info *info)
{
	return info->used;
}

const char *gpiod_line_info_get_consumer(struct gpiod_line_info *info)
{
	return info->consumer;
}

void gpiod_line_info_free(struct gpiod_line_info *info)
{
	object_free(info);
}

struct gpiod_line_settings *gpiod_line_settings_new(void)
{
	return object(sizeof(struct gpiod_line_settings));
}

void gpiod_line_settings_free(struct gpiod_line_settings *settings)
{
	object_free(settings);
}

int gpiod_line_settings_set_direction(struct gpiod_line_settings *s, enum gpiod_line_direction d)
{
	(void)s;
	gpiod_stub.direction = d;
	return 0;
}

int gpiod_line_settings_set_edge_detection(struct gpiod_line_settings *s, enum gpiod_line_edge e)
{
	(void)s;
	gpiod_stub.edge = e;
	return 0;
}

int gpiod_line_settings_set_bias(struct gpiod_line_settings *s, enum gpiod_line_bias b)
{
	(void)s;
	gpiod_stub.bias = b;
	return 0;
}

void gpiod_line_settings_set_debounce_period_us(struct gpiod_line_settings *s, unsigned long period)
{
	(void)s;
	gpiod_stub.debounce_us = (long)period;
}

int gpiod_line_settings_set_event_clock(struct gpiod_line_settings *s, enum gpiod_line_clock c)
{
	(void)s;
	gpiod_stub.clock = c;
	return 0;
}

struct gpiod_line_config *gpiod_line_config_new(void)
{
	return object(sizeof(struct gpiod_line_config));
}

void gpiod_line_config_free(struct gpiod_line_config *config)
{
	object_free(config);
}

int gpiod_line_config_add_line_settings(struct gpiod_line_config *config,
					const unsigned int *offsets, size_t num_offsets,
					struct gpiod_line_settings *settings)
{
	(void)settings;
	if (config->n + num_offsets > STUB_MAX_LINES) {
		errno = E2BIG;
		return -1;
	}
	memcpy(config->offsets + config->n, offsets, num_offsets * sizeof(*offsets));
	config->n += num_offsets;
	return 0;
}

struct gpiod_request_config *gpiod_request_config_new(void)
{
	return object(sizeof(struct gpiod_request_config));
}

void gpiod_request_config_free(struct gpiod_request_config *config)
{
	object_free(config);
}

void gpiod_request_config_set_consumer(struct gpiod_request_config *config, const char *consumer)
{
	snprintf(config->consumer, sizeof(config->consumer), "%s", consumer);
}

struct gpiod_line_request *gpiod_chip_request_lines(struct gpiod_chip *c,
						    struct gpiod_request_config *req_cfg,
						    struct gpiod_line_config *line_cfg)
{
	struct gpiod_line_request *r;

	(void)c;
	for (size_t i = 0; i < line_cfg->n; i++) {
		if (line_cfg->offsets[i] >= gpiod_stub.num_lines) {
			errno = EINVAL;
			return NULL;
		}
		if ((int)line_cfg->offsets[i] == gpiod_stub.busy_offset) {
			errno = EBUSY;
			return NULL;
		}
	}
	if (gpiod_stub.request_errno) {
		errno = gpiod_stub.request_errno;
		return NULL;
	}
	r = object(sizeof(*r));
	if (!r)
		return NULL;
	for (size_t i = 0; i < line_cfg->n; i++)
		if (line_cfg->offsets[i] < 64)
			r->lines |= 1ULL << line_cfg->offsets[i];
	r->edge = gpiod_stub.edge;
	if (gpiod_stub_script_on()) {
		gpiod_stub_script_start();
		r->fd = gpiod_stub_script_fd(r->lines);
	} else {
		r->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	}
	if (r->fd < 0) {
		object_free(r);
		return NULL;
	}
	r->n = line_cfg->n;
	snprintf(gpiod_stub.consumer, sizeof(gpiod_stub.consumer), "%s", req_cfg->consumer);
	gpiod_stub.lines_held += (int)r->n;
	live_request = r;
	return r;
}

void gpiod_line_request_release(struct gpiod_line_request *request)
{
	gpiod_stub.lines_held -= (int)request->n;
	gpiod_stub_script_release(request->lines);
	close(request->fd);
	if (live_request == request)
		live_request = NULL;
	object_free(request);
}

int gpiod_line_request_get_fd(struct gpiod_line_request *request)
{
	return request->fd;
}

/* Whether the request asked to see this edge (its edge detection). */
static bool detected(const struct gpiod_line_request *r, bool rising)
{
	return r->edge == GPIOD_LINE_EDGE_BOTH ||
	       r->edge == (rising ? GPIOD_LINE_EDGE_RISING : GPIOD_LINE_EDGE_FALLING);
}

/* The script's next instant, when it is due and on the request's lines,
 * into the empty queue: one instant a read. An instant of edges the
 * request does not detect is never queued: the next is taken instead. */
static void take_scripted(const struct gpiod_line_request *r)
{
	struct gpiod_stub_edge e[STUB_MAX_EVENTS];
	size_t n;

	while (n_queued == 0 && (n = gpiod_stub_script_take(r->lines, e, STUB_MAX_EVENTS))) {
		for (size_t i = 0; i < n; i++) {
			if (!detected(r, e[i].rising))
				continue;
			queued[n_queued].type = e[i].rising ? GPIOD_EDGE_EVENT_RISING_EDGE :
							      GPIOD_EDGE_EVENT_FALLING_EDGE;
			queued[n_queued].ts_ns = (uint64_t)e[i].at_ns;
			queued[n_queued].offset = e[i].offset;
			n_queued++;
		}
	}
}

int gpiod_line_request_wait_edge_events(struct gpiod_line_request *request, int64_t timeout_ns)
{
	(void)timeout_ns;
	if (gpiod_stub.read_errno) {
		errno = gpiod_stub.read_errno;
		return -1;
	}
	if (gpiod_stub_script_on())
		take_scripted(request);
	/* An edge the request does not detect woke the script's timer. */
	if (!n_queued)
		gpiod_stub_drained(request->fd, request->lines);
	return n_queued > 0;
}

int gpiod_line_request_read_edge_events(struct gpiod_line_request *request,
					struct gpiod_edge_event_buffer *buffer, size_t max_events)
{
	size_t n;

	if (gpiod_stub.read_errno) {
		errno = gpiod_stub.read_errno;
		return -1;
	}
	if (gpiod_stub_script_on())
		take_scripted(request);
	n = n_queued;
	if (n > max_events)
		n = max_events;
	if (n > buffer->capacity)
		n = buffer->capacity;
	memcpy(buffer->ev, queued, n * sizeof(queued[0]));
	buffer->n = n;
	memmove(queued, queued + n, (n_queued - n) * sizeof(queued[0]));
	n_queued -= n;
	if (!n_queued)
		gpiod_stub_drained(request->fd, request->lines);
	return (int)n;
}

struct gpiod_edge_event_buffer *gpiod_edge_event_buffer_new(size_t capacity)
{
	struct gpiod_edge_event_buffer *b =
		object(sizeof(*b) + capacity * sizeof(struct gpiod_edge_event));

	if (b)
		b->capacity = capacity;
	return b;
}

void gpiod_edge_event_buffer_free(struct gpiod_edge_event_buffer *buffer)
{
	object_free(buffer);
}

struct gpiod_edge_event *gpiod_edge_event_buffer_get_event(struct gpiod_edge_event_buffer *buffer,
							   unsigned long index)
{
	return index < buffer->n ? &buffer->ev[index] : NULL;
}

enum gpiod_edge_event_type gpiod_edge_event_get_event_type(struct gpiod_edge_event *event)
{
	return event->type;
}

uint64_t gpiod_edge_event_get_timestamp_ns(struct gpiod_edge_event *event)
{
	return event->ts_ns;
}

unsigned int gpiod_edge_event_get_line_offset(struct gpiod_edge_event *event)
{
	return event->offset;
}

int gpiod_stub_event(unsigned offset, int64_t ts_ns, bool rising)
{
	uint64_t one = 1;

	if (!live_request || n_queued == STUB_MAX_EVENTS)
		return -1;
	queued[n_queued].type = rising ? GPIOD_EDGE_EVENT_RISING_EDGE : GPIOD_EDGE_EVENT_FALLING_EDGE;
	queued[n_queued].ts_ns = (uint64_t)ts_ns;
	queued[n_queued].offset = offset;
	n_queued++;
	return write(live_request->fd, &one, sizeof(one)) == sizeof(one) ? 0 : -1;
}
