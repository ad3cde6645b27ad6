/* Edge source on libgpiod 1.x (Debian 12, Raspberry Pi OS bookworm).
 *
 * v1 gives one event descriptor per line and no debounce: the lines are
 * requested one by one (so a busy or forbidden line is named), their
 * descriptors gathered in an epoll set whose descriptor the event loop
 * polls, and ringing is left to the pipeline's hold-off. Its event
 * timestamps are CLOCK_MONOTONIC on kernels from 5.7 (bookworm has 6.1);
 * older kernels stamped CLOCK_REALTIME, which the pipeline's flush by
 * monotonic "now" would not match. */
#include <errno.h>
#include <gpiod.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "sensors/gpio_common.h"
#include "sensors/internal.h"

#define READ_BATCH 16	/* events read from one line per call */

struct v1_state {
	struct gpiod_chip *chip;	/* owned */
	size_t n;			/* lines requested */
	struct gpiod_line *line[SENS_MAX_LINES];	/* owned by the chip */
	int line_fd[SENS_MAX_LINES];	/* owned by libgpiod */
	unsigned offset[SENS_MAX_LINES];	/* per requested line */
};

static ssize_t v1_read(struct sens_source *s, struct sens_edge *out, size_t cap,
		       bool *eof, char *err, size_t errlen)
{
	struct v1_state *st = s->priv;
	struct epoll_event ready[SENS_MAX_LINES];
	size_t n = 0;
	int nready;

	*eof = false;
	nready = epoll_wait(s->fd, ready, SENS_MAX_LINES, 0);
	if (nready < 0) {
		if (errno == EINTR)
			return 0;
		return sens_gpio_sys_error(err, errlen, errno, "epoll_wait");
	}
	for (int r = 0; r < nready && n < cap; r++) {
		size_t i = ready[r].data.u32;
		struct gpiod_line_event ev[READ_BATCH];
		unsigned want = (unsigned)(cap - n < READ_BATCH ? cap - n : READ_BATCH);
		int got = gpiod_line_event_read_fd_multiple(st->line_fd[i], ev, want);

		if (got < 0) {
			int e = errno;

			if (e == EAGAIN || e == EINTR)
				continue;
			return sens_gpio_sys_error(err, errlen, e, "reading line %u", st->offset[i]);
		}
		for (int k = 0; k < got; k++) {
			if (ev[k].event_type != GPIOD_LINE_EVENT_RISING_EDGE)
				continue;
			out[n].line = st->offset[i];
			out[n].ts_ns = sens_ts_ns(ev[k].ts.tv_sec, ev[k].ts.tv_nsec);
			n++;
		}
	}
	sens_edges_sort(out, n);
	return (ssize_t)n;
}

static void v1_close(struct sens_source *s)
{
	struct v1_state *st = s->priv;

	if (!st)
		return;
	for (size_t i = 0; i < st->n; i++)
		gpiod_line_release(st->line[i]);
	if (st->chip)
		gpiod_chip_close(st->chip);
	free(st);
	s->priv = NULL;
}

static const struct sens_source_ops v1_ops = {
	.name = "libgpiod v1",
	.read = v1_read,
	.close = v1_close,
};

const char *sens_gpio_backend(void)
{
	return v1_ops.name;
}

struct sens_source *sens_gpio_open(const struct sens_config *c, char *err, size_t errlen)
{
	struct sens_source *s;
	struct v1_state *st;
	int e;

	s = sens_gpio_source_new(&v1_ops, sizeof(*st), err, errlen);
	if (!s)
		return NULL;
	st = s->priv;
	st->chip = c->chip[0] == '/' ? gpiod_chip_open(c->chip) : gpiod_chip_open_by_name(c->chip);
	if (!st->chip) {
		e = errno ? errno : ENODEV;
		sens_gpio_error(err, errlen, c->chip, NULL, e, NULL);
		goto close_source;
	}
	sens_gpio_label_warning(c->chip, gpiod_chip_label(st->chip), c->chip_set, s->warning,
				sizeof(s->warning));
	s->fd = epoll_create1(EPOLL_CLOEXEC);
	if (s->fd < 0) {
		e = -sens_gpio_sys_error(err, errlen, errno, "epoll_create1");
		goto close_source;
	}
	for (size_t i = 0; i < c->n_lines; i++) {
		const struct sens_line_cfg *l = &c->lines[i];
		struct gpiod_line *line;
		struct epoll_event ev = { .events = EPOLLIN };

		if (l->offset >= gpiod_chip_num_lines(st->chip)) {
			e = EINVAL;
			sens_gpio_error(err, errlen, c->chip, l, e, NULL);
			goto close_source;
		}
		line = gpiod_chip_get_line(st->chip, l->offset);
		if (!line) {
			e = errno ? errno : EINVAL;
			sens_gpio_error(err, errlen, c->chip, l, e, NULL);
			goto close_source;
		}
		if (gpiod_line_request_rising_edge_events_flags(line, SENS_CONSUMER,
				GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN) < 0) {
			e = errno ? errno : EIO;
			/* Refresh the line's info to name who holds it. */
			if (e == EBUSY && gpiod_line_update(line) == 0)
				sens_gpio_error(err, errlen, c->chip, l, e, gpiod_line_consumer(line));
			else
				sens_gpio_error(err, errlen, c->chip, l, e, NULL);
			goto close_source;
		}
		st->line[st->n] = line;
		st->offset[st->n] = l->offset;
		st->line_fd[st->n] = gpiod_line_event_get_fd(line);
		st->n++;
		ev.data.u32 = (uint32_t)(st->n - 1);
		if (st->line_fd[st->n - 1] < 0 ||
		    epoll_ctl(s->fd, EPOLL_CTL_ADD, st->line_fd[st->n - 1], &ev) < 0) {
			e = errno ? errno : EBADF;
			sens_gpio_error(err, errlen, c->chip, l, e, NULL);
			goto close_source;
		}
	}
	return s;

close_source:
	sens_source_close(s);
	errno = e;
	return NULL;
}
