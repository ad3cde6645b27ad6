/* Health items: what the strip on the wall and the console say of each
 * input and of the store (daemon/health.c). */
#ifndef DYEREF_DAEMON_HEALTH_H
#define DYEREF_DAEMON_HEALTH_H

#include <stdbool.h>

struct dd_health_item {
	bool ok;		/* working */
	char text[120];		/* the public health strip's (the wall screen, anyone on the
				 * network): the state and a short reason, no path, device,
				 * id or remedy: "4 piezo lines ok", "camera: not found" */
	char detail[512];	/* the official's (/console/api/status): the whole message,
				 * with the paths and the remedy */
	void (*changed)(void *user);	/* the owner's: told when ok or text changes (the
					 * screens are), or NULL */
	void *user;		/* for changed */
};

/* Sets h: ok and its public text (printf-style), the detail the same
 * words, and tells h->changed when ok or the text is not what it was;
 * dd_health_detail() then gives the console the whole message where the
 * text leaves something out. What does not fit is cut, and a byte that is
 * not UTF-8 (a character cut in two, a path in another encoding) becomes
 * '?': both stay strings jansson takes. */
void dd_health_set(struct dd_health_item *h, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void dd_health_detail(struct dd_health_item *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Each byte of s (NUL-terminated, changed in place) that is not part of
 * valid UTF-8 becomes '?', so jansson takes it: for text from outside
 * that goes into JSON whole, a configured path in another encoding. */
void dd_utf8_scrub(char *s);

#endif /* DYEREF_DAEMON_HEALTH_H */
