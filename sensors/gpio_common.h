/* sensors/ private: what both libgpiod backends say the same way. */
#ifndef DYEREF_SENSORS_GPIO_COMMON_H
#define DYEREF_SENSORS_GPIO_COMMON_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sensors/internal.h"
#include "sensors/sensors.h"

#define SENS_CONSUMER "dyeref"	/* shown by gpioinfo as the line's user */

/* The one-line message for a failed open/request: names the chip, the
 * line (when known) and the fix. */
static inline void sens_gpio_error(char *err, size_t errlen, const char *chip,
				   const struct sens_line_cfg *l, int e, const char *consumer)
{
	char what[96];

	if (l)
		snprintf(what, sizeof(what), "%s line %u (%s)", chip, l->offset, l->name);
	else
		snprintf(what, sizeof(what), "%s", chip);
	switch (e) {
	case EACCES:
	case EPERM:
		snprintf(err, errlen, "%s: permission denied: add the user to group gpio "
			 "(sudo usermod -aG gpio $USER, then log in again)", what);
		break;
	case ENOENT:
	case ENODEV:
		snprintf(err, errlen, "%s: no such GPIO chip (ls /dev/gpiochip*; set [sensors] chip)",
			 what);
		break;
	case EBUSY:
		snprintf(err, errlen, "%s: busy: %s%s%s holds it (gpioinfo %s shows users; stop it or "
			 "pick another line)", what, consumer && *consumer ? "'" : "another program",
			 consumer && *consumer ? consumer : "", consumer && *consumer ? "'" : "", chip);
		break;
	case EINVAL:
		snprintf(err, errlen, "%s: not a line of this chip (gpioinfo %s lists them)", what, chip);
		break;
	default:
		snprintf(err, errlen, "%s: %s", what, strerror(e));
		break;
	}
}

/* "gpio: " and what failed (printf-style) with strerror(e) into err, as
 * both backends word a failing system call; returns -e. */
static inline int sens_gpio_sys_error(char *err, size_t errlen, int e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline int sens_gpio_sys_error(char *err, size_t errlen, int e, const char *fmt, ...)
{
	char what[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "gpio: %s: %s", what, strerror(e));
	return -e;
}

/* "gpio: out of memory" into err; returns ENOMEM (for the caller's errno). */
static inline int sens_gpio_nomem(char *err, size_t errlen)
{
	snprintf(err, errlen, "gpio: out of memory");
	return ENOMEM;
}

/* A new edge source for a backend: ops set, no descriptor yet, priv a
 * zeroed state of state_size bytes (freed by ops->close). NULL with errno
 * ENOMEM and "gpio: out of memory" in err. */
static inline struct sens_source *sens_gpio_source_new(const struct sens_source_ops *ops,
							size_t state_size, char *err,
							size_t errlen)
{
	struct sens_source *s = calloc(1, sizeof(*s));

	if (s) {
		s->ops = ops;
		s->fd = -1;
		s->priv = calloc(1, state_size);
		if (s->priv)
			return s;
		sens_source_close(s);
	}
	errno = sens_gpio_nomem(err, errlen);
	return NULL;
}

#endif
