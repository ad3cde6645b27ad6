/* sensors/ private: what both libgpiod backends say the same way. */
#ifndef DYEREF_SENSORS_GPIO_COMMON_H
#define DYEREF_SENSORS_GPIO_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

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

#endif
