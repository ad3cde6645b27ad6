/* The health strip's items: a public text and the console's detail. */
#include <stdio.h>

#include "daemon/daemon.h"

void dd_health_set(struct dd_health_item *h, bool ok, const char *fmt, ...)
{
	va_list ap;

	h->ok = ok;
	va_start(ap, fmt);
	vsnprintf(h->text, sizeof(h->text), fmt, ap);
	va_end(ap);
	snprintf(h->detail, sizeof(h->detail), "%s", h->text);
}

void dd_health_detail(struct dd_health_item *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->detail, sizeof(h->detail), fmt, ap);
	va_end(ap);
}
