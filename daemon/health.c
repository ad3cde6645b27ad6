/* The health strip's items: a public text and the console's detail. */
#include <stdio.h>
#include <string.h>

#include "daemon/daemon.h"

/* Bytes of the UTF-8 sequence at s as jansson takes it (no overlong form,
 * no surrogate, at most U+10FFFF), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0], need, min, cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 1, min = 0x80, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		need = 2, min = 0x800, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 3, min = 0x10000, cp = c & 0x07;
	else
		return 0;
	for (unsigned i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also the NUL a cut left */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return need + 1;
}

/* Each byte of s that is not part of valid UTF-8 becomes '?': a message
 * cut inside a character (a player's name in a refused line), or a path
 * in another encoding, would otherwise make jansson refuse the whole
 * item, and the state would go out without its health. */
void dd_utf8_scrub(char *s)
{
	for (unsigned char *p = (unsigned char *)s; *p;) {
		size_t n = utf8_len(p);

		if (n)
			p += n;
		else
			*p++ = '?';
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
