/* web internals shared by server.c and auth.c; not part of the contract. */
#ifndef DYEREF_WEB_INTERNAL_H
#define DYEREF_WEB_INTERNAL_H

#include <stdint.h>

#define WEB_TOKEN_HEX 64		/* hex digits of a session or CSRF token */
#define WEB_SESSIONS_MAX 32		/* officials' phones, tablets, a laptop */
#define WEB_SESSION_TTL_S (12 * 3600)	/* a long evening */
#define WEB_LOGIN_FAILS 5		/* wrong PINs before a lockout */
#define WEB_LOGIN_LOCK_S 30		/* seconds the lockout lasts */

struct web_session {
	char token[WEB_TOKEN_HEX + 1];	/* the cookie's value; "" = free slot */
	char csrf[WEB_TOKEN_HEX + 1];	/* sent back in X-CSRF-Token */
	int64_t expires_s;		/* CLOCK_MONOTONIC seconds */
};

struct web_auth {
	char *pin;			/* owned; NULL: the console is locked */
	struct web_session sessions[WEB_SESSIONS_MAX];	/* open sessions */
	int fails;			/* wrong PINs since the last success or lock */
	int64_t locked_until_s;		/* CLOCK_MONOTONIC seconds */
};

/* 0; -ENOMEM. The PIN is copied; NULL or "" locks the console. */
int web_auth_set_pin(struct web_auth *a, const char *pin);
void web_auth_free(struct web_auth *a);

/* Checks a PIN and opens a session. 0 with *s the new session; -EPERM
 * wrong PIN or console locked; -EAGAIN locked out after failures; -EIO
 * no randomness. now_s is CLOCK_MONOTONIC seconds. */
int web_auth_login(struct web_auth *a, const char *pin, int64_t now_s,
		   const struct web_session **s);

/* The live session with this token, or NULL. */
const struct web_session *web_auth_find(struct web_auth *a, const char *token, int64_t now_s);

/* Ends the session with this token, if any. */
void web_auth_logout(struct web_auth *a, const char *token);

/* Constant-time comparison of two NUL-terminated strings: 1 when equal. */
int web_auth_equal(const char *x, const char *y);

#endif /* DYEREF_WEB_INTERNAL_H */
