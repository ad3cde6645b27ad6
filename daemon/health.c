/* The health strip's items: a public text and the console's detail. */
#include <stdio.h>
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/health.h"
#include "db/db.h"

/* Each byte of s that is not part of valid UTF-8 becomes '?': a message
 * cut inside a character (a player's name in a refused line), or a path
 * in another encoding, would otherwise make jansson refuse the whole
 * item, and the state would go out without its health. */
void dd_utf8_scrub(char *s)
{
	unsigned char *p = (unsigned char *)s;
	size_t left = strlen(s);

	while (*p) {
		size_t n = db_utf8_seq(p, left);

		if (!n) {
			*p = '?';
			n = 1;
		}
		p += n;
		left -= n;
	}
}

void dd_health_set(struct dd_health_item *h, bool ok, const char *fmt, ...)
{
	char text[sizeof(h->text)];
	bool same;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	dd_utf8_scrub(text);
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
	dd_utf8_scrub(h->detail);
}
