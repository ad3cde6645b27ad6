/* Edge source on libgpiod 2.x (newer distributions).
 *
 * v2 requests every line in one call and gives one descriptor for all
 * of them; events carry their line offset and a CLOCK_MONOTONIC stamp.
 * The kernel's debounce is left off: ringing is suppressed by timestamp
 * in the pipeline, so v1 and v2 behave alike. A failed request does not
 * say which line was at fault, so the lines are asked about one by one. */
#include <errno.h>
#include <gpiod.h>
#include <stdlib.h>
#include <string.h>

#include "sensors/gpio_common.h"
#include "sensors/internal.h"

#define EVENT_BUFFER 64	/* edge events read per call */

struct v2_state {
	struct gpiod_chip *chip;		/* owned */
	struct gpiod_line_request *request;	/* owned */
	struct gpiod_edge_event_buffer *buffer;	/* owned */
};

static ssize_t v2_read(struct sens_source *s, struct sens_edge *out, size_t cap,
		       bool *eof, char *err, size_t errlen)
{
	struct v2_state *st = s->priv;
	size_t n = 0;
	int ready, got;

	*eof = false;
	ready = gpiod_line_request_wait_edge_events(st->request, 0);
	if (ready < 0) {
		int e = errno ? errno : EIO;

		if (e == EINTR)
			return 0;
		return sens_gpio_sys_error(err, errlen, e, "waiting for edges");
	}
	if (ready == 0)
		return 0;
	got = gpiod_line_request_read_edge_events(st->request, st->buffer,
						  cap < EVENT_BUFFER ? cap : EVENT_BUFFER);
	if (got < 0) {
		int e = errno ? errno : EIO;

		if (e == EAGAIN || e == EINTR)
			return 0;
		return sens_gpio_sys_error(err, errlen, e, "reading edges");
	}
	for (int k = 0; k < got && n < cap; k++) {
		struct gpiod_edge_event *ev = gpiod_edge_event_buffer_get_event(st->buffer,
									       (unsigned long)k);

		if (!ev || gpiod_edge_event_get_event_type(ev) != GPIOD_EDGE_EVENT_RISING_EDGE)
			continue;
		out[n].line = gpiod_edge_event_get_line_offset(ev);
		uint64_t ts = gpiod_edge_event_get_timestamp_ns(ev);
		out[n].ts_ns = ts > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)ts;
		n++;
	}
	sens_edges_sort(out, n);
	return (ssize_t)n;
}

static void v2_close(struct sens_source *s)
{
	struct v2_state *st = s->priv;

	if (!st)
		return;
	/* The request owns the descriptor we handed out. */
	s->fd = -1;
	if (st->buffer)
		gpiod_edge_event_buffer_free(st->buffer);
	if (st->request)
		gpiod_line_request_release(st->request);
	if (st->chip)
		gpiod_chip_close(st->chip);
	free(st);
	s->priv = NULL;
}

static const struct sens_source_ops v2_ops = {
	.name = "libgpiod v2",
	.read = v2_read,
	.close = v2_close,
};

const char *sens_gpio_backend(void)
{
	return v2_ops.name;
}

/* After a failed request: the first line in use by someone else. */
static void name_culprit(struct gpiod_chip *chip, const struct sens_config *c, int e,
			 char *err, size_t errlen)
{
	for (size_t i = 0; i < c->n_lines; i++) {
		struct gpiod_line_info *info = gpiod_chip_get_line_info(chip, c->lines[i].offset);

		if (!info)
			continue;
		if (gpiod_line_info_is_used(info)) {
			sens_gpio_error(err, errlen, c->chip, &c->lines[i], EBUSY,
					gpiod_line_info_get_consumer(info));
			gpiod_line_info_free(info);
			return;
		}
		gpiod_line_info_free(info);
	}
	sens_gpio_error(err, errlen, c->chip, c->n_lines == 1 ? &c->lines[0] : NULL, e, NULL);
}

struct sens_source *sens_gpio_open(const struct sens_config *c, char *err, size_t errlen)
{
	struct gpiod_line_settings *settings = NULL;
	struct gpiod_line_config *line_cfg = NULL;
	struct gpiod_request_config *req_cfg = NULL;
	struct gpiod_chip_info *info;
	unsigned offsets[SENS_MAX_LINES];
	struct sens_source *s;
	struct v2_state *st;
	char path[80];
	int e = 0;

	s = sens_gpio_source_new(&v2_ops, sizeof(*st), err, errlen);
	if (!s)
		return NULL;
	st = s->priv;
	/* v2 opens chips by path only. */
	snprintf(path, sizeof(path), "%s%s", c->chip[0] == '/' ? "" : "/dev/", c->chip);
	st->chip = gpiod_chip_open(path);
	if (!st->chip) {
		e = errno ? errno : ENODEV;
		sens_gpio_error(err, errlen, c->chip, NULL, e, NULL);
		goto close_source;
	}
	info = gpiod_chip_get_info(st->chip);
	if (info) {
		size_t n_chip = gpiod_chip_info_get_num_lines(info);

		sens_gpio_label_warning(c->chip, gpiod_chip_info_get_label(info), c->chip_set,
					s->warning, sizeof(s->warning));
		gpiod_chip_info_free(info);
		for (size_t i = 0; i < c->n_lines; i++)
			if (c->lines[i].offset >= n_chip) {
				e = EINVAL;
				sens_gpio_error(err, errlen, c->chip, &c->lines[i], e, NULL);
				goto close_source;
			}
	}
	settings = gpiod_line_settings_new();
	line_cfg = gpiod_line_config_new();
	req_cfg = gpiod_request_config_new();
	if (!settings || !line_cfg || !req_cfg) {
		e = sens_gpio_nomem(err, errlen);
		goto free_configs;
	}
	if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) < 0 ||
	    gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_RISING) < 0 ||
	    gpiod_line_settings_set_bias(settings, GPIOD_LINE_BIAS_PULL_DOWN) < 0 ||
	    gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC) < 0) {
		e = errno ? errno : EINVAL;
		sens_gpio_error(err, errlen, c->chip, NULL, e, NULL);
		goto free_configs;
	}
	gpiod_line_settings_set_debounce_period_us(settings, 0);
	for (size_t i = 0; i < c->n_lines; i++)
		offsets[i] = c->lines[i].offset;
	if (gpiod_line_config_add_line_settings(line_cfg, offsets, c->n_lines, settings) < 0) {
		e = errno ? errno : EINVAL;
		sens_gpio_error(err, errlen, c->chip, NULL, e, NULL);
		goto free_configs;
	}
	gpiod_request_config_set_consumer(req_cfg, SENS_CONSUMER);
	st->request = gpiod_chip_request_lines(st->chip, req_cfg, line_cfg);
	if (!st->request) {
		e = errno ? errno : EIO;
		if (e == EBUSY)
			name_culprit(st->chip, c, e, err, errlen);
		else
			sens_gpio_error(err, errlen, c->chip, c->n_lines == 1 ? &c->lines[0] : NULL,
					e, NULL);
		goto free_configs;
	}
	st->buffer = gpiod_edge_event_buffer_new(EVENT_BUFFER);
	if (!st->buffer) {
		e = sens_gpio_nomem(err, errlen);
		goto free_configs;
	}
	s->fd = gpiod_line_request_get_fd(st->request);
	gpiod_request_config_free(req_cfg);
	gpiod_line_config_free(line_cfg);
	gpiod_line_settings_free(settings);
	return s;

free_configs:
	if (req_cfg)
		gpiod_request_config_free(req_cfg);
	if (line_cfg)
		gpiod_line_config_free(line_cfg);
	if (settings)
		gpiod_line_settings_free(settings);
close_source:
	sens_source_close(s);
	errno = e;
	return NULL;
}
