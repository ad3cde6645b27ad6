/* dd_log: every message for people leaves through here, to stderr. */
#include <stdio.h>

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
