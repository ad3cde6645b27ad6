/* The health strip's items: a public text and the console's detail. */
#include <stdio.h>
#include <string.h>

#include "daemon/daemon.h"

void dd_health_set(struct dd_health_item *h, bool ok, const char *fmt, ...)
{
	char text[sizeof(h->text)];
	bool same;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	same = h->ok == ok && !strcmp(h->text, text);
	h->ok = ok;
	memcpy(h->text, text, sizeof(text));
	snprintf(h->detail, sizeof(h->detail), "%s", h->text);
	if (!same && h->changed)
		h->changed(h->user);
}

void dd_health_detail(struct dd_health_item *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->detail, sizeof(h->detail), fmt, ap);
	va_end(ap);
}
