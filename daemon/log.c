/* dd_log and dd_mono_ns: messages for people (stderr) and the time base. */
#include <stdio.h>
#include <time.h>

#include "daemon/daemon.h"

static const char *const level_names[] = { "error", "warning", "info", "debug" };

void dd_log(enum dd_log_level level, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "dyeref: ");
	if (level != DD_LOG_ERR)
		fprintf(stderr, "%s: ", level_names[level]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int64_t dd_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
