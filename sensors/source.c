/* Edge sources: the common calls and the memory source (replays, sim). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "sensors/internal.h"

int sens_source_fd(const struct sens_source *s)
{
	return s->fd;
}

const char *sens_source_warning(const struct sens_source *s)
{
	return s->warning;
}

bool sens_gpio_label_is_pi_header(const char *label)
{
	static const char *const header[] = { "pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1" };

	for (size_t i = 0; label && i < sizeof(header) / sizeof(header[0]); i++)
		if (!strcmp(label, header[i]))
			return true;
	return false;
}

bool sens_gpio_label_warning(const char *chip, const char *label, bool chosen, char *msg,
			     size_t len)
{
	if (len)
		msg[0] = '\0';
	if (chosen || sens_gpio_label_is_pi_header(label))
		return false;
	snprintf(msg, len, "%s is '%s', not a Raspberry Pi's header (pinctrl-bcm2711, "
		 "pinctrl-bcm2835 or pinctrl-rp1): the sensors may be on the wrong pins; find the "
		 "header with gpiodetect and set [sensors] chip (a Pi 5 on an older kernel: "
		 "chip = gpiochip4)", chip, label && *label ? label : "unlabelled");
	return true;
}

/* The cases of sens_gpio_error (gpio_common.h), without its names. */
const char *sens_gpio_reason(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
		return "no permission for the GPIO chip";
	case ENOENT:
	case ENODEV:
		return "GPIO chip not found";
	case EBUSY:
		return "a sensor line is in use by another program";
	case EINVAL:
		return "a sensor line is not on the GPIO chip";
	case ENOMEM:
		return "out of memory";
	default:
		return "the GPIO chip could not be opened";
	}
}

ssize_t sens_source_read(struct sens_source *s, struct sens_edge *out, size_t cap,
			 bool *eof, char *err, size_t errlen)
{
	bool end = false;
	ssize_t n;

	if (err && errlen)
		err[0] = '\0';
	n = s->ops->read(s, out, cap, &end, err, errlen);
	if (eof)
		*eof = end;
	return n;
}

void sens_source_close(struct sens_source *s)
{
	if (!s)
		return;
	if (s->ops->close)
		s->ops->close(s);
	if (s->fd >= 0)
		close(s->fd);
	free(s->edges);
	free(s);
}

void sens_edges_sort(struct sens_edge *e, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct sens_edge k = e[i];
		size_t j = i;

		while (j > 0 && e[j - 1].ts_ns > k.ts_ns) {
			e[j] = e[j - 1];
			j--;
		}
		e[j] = k;
	}
}

int64_t sens_ts_ns(int64_t sec, int64_t nsec)
{
	if (sec < 0)
		return 0;
	if (sec > INT64_MAX / 1000000000 - 1)
		return INT64_MAX;
	return sec * 1000000000 + nsec;
}

/* The eventfd is readable exactly while edges remain. */
static void mem_signal(struct sens_source *s)
{
	uint64_t v;

	if (s->pos < s->n) {
		v = 1;
		if (write(s->fd, &v, sizeof(v)) < 0) {
			/* counter already non-zero (EAGAIN): still readable */
		}
	} else {
		if (read(s->fd, &v, sizeof(v)) < 0) {
			/* already zero (EAGAIN): already not readable */
		}
	}
}

static ssize_t mem_read(struct sens_source *s, struct sens_edge *out, size_t cap,
			bool *eof, char *err, size_t errlen)
{
	size_t n = s->n - s->pos;

	(void)err;
	(void)errlen;
	if (n > cap)
		n = cap;
	if (n) {	/* an empty source may have no array at all */
		memcpy(out, s->edges + s->pos, n * sizeof(*out));
		s->pos += n;
	}
	mem_signal(s);
	*eof = s->pos == s->n;
	return (ssize_t)n;
}

static const struct sens_source_ops mem_ops = {
	.name = "memory",
	.read = mem_read,
};

int sens_source_push(struct sens_source *s, const struct sens_edge *edges, size_t n)
{
	if (s->ops != &mem_ops)
		return -EINVAL;
	if (s->n + n > s->cap) {
		size_t cap = s->cap ? s->cap : 64;
		struct sens_edge *grown;

		while (cap < s->n + n)
			cap *= 2;
		grown = realloc(s->edges, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		s->edges = grown;
		s->cap = cap;
	}
	if (n)
		memcpy(s->edges + s->n, edges, n * sizeof(*edges));
	s->n += n;
	mem_signal(s);
	return 0;
}

struct sens_source *sens_memory_open(const struct sens_edge *edges, size_t n)
{
	struct sens_source *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->ops = &mem_ops;
	s->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->fd < 0)
		goto free_source;
	if (sens_source_push(s, edges, n) < 0) {
		errno = ENOMEM;
		goto free_source;
	}
	return s;

free_source:
	sens_source_close(s);
	return NULL;
}

struct sens_source *sens_memory_adopt(struct sens_edge *edges, size_t n)
{
	struct sens_source *s = sens_memory_open(NULL, 0);

	if (!s)
		return NULL;
	free(s->edges);
	s->edges = edges;
	s->n = s->cap = n;
	mem_signal(s);
	return s;
}
