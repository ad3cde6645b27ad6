/* Console sessions: a PIN buys a session cookie and a CSRF token. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "web/internal.h"

int web_auth_equal(const char *x, const char *y)
{
	size_t nx = strlen(x), ny = strlen(y);
	unsigned char diff = nx != ny;

	/* Walk the longer string in full so the time says nothing of where
	 * they differ. */
	for (size_t i = 0; i < (nx > ny ? nx : ny); i++)
		diff |= (unsigned char)(x[i < nx ? i : 0] ^ y[i < ny ? i : 0]);
	return diff == 0;
}

int web_auth_set_pin(struct web_auth *a, const char *pin)
{
	char *copy = NULL;

	if (pin && *pin) {
		copy = strdup(pin);
		if (!copy)
			return -ENOMEM;
	}
	free(a->pin);
	a->pin = copy;
	memset(a->sessions, 0, sizeof(a->sessions));
	a->fails = 0;
	a->locked_until_s = 0;
	return 0;
}

void web_auth_free(struct web_auth *a)
{
	free(a->pin);
	memset(a, 0, sizeof(*a));
}

static int random_hex(char *out)
{
	unsigned char raw[WEB_TOKEN_HEX / 2];
	static const char hex[] = "0123456789abcdef";

	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
		return -EIO;
	for (size_t i = 0; i < sizeof(raw); i++) {
		out[2 * i] = hex[raw[i] >> 4];
		out[2 * i + 1] = hex[raw[i] & 15];
	}
	out[WEB_TOKEN_HEX] = '\0';
	return 0;
}

int web_auth_login(struct web_auth *a, const char *pin, int64_t now_s,
		   const struct web_session **s)
{
	struct web_session *slot = &a->sessions[0];

	if (now_s < a->locked_until_s)
		return -EAGAIN;
	if (!a->pin || !web_auth_equal(pin, a->pin)) {
		/* Slow down guessing: a four-digit PIN falls to a loop otherwise. */
		if (++a->fails >= WEB_LOGIN_FAILS) {
			a->fails = 0;
			a->locked_until_s = now_s + WEB_LOGIN_LOCK_S;
		}
		return -EPERM;
	}
	a->fails = 0;
	/* A free or expired slot, else the one closest to expiry. */
	for (size_t i = 0; i < WEB_SESSIONS_MAX; i++) {
		struct web_session *c = &a->sessions[i];

		if (!c->token[0] || c->expires_s <= now_s) {
			slot = c;
			break;
		}
		if (c->expires_s < slot->expires_s)
			slot = c;
	}
	if (random_hex(slot->token) || random_hex(slot->csrf)) {
		memset(slot, 0, sizeof(*slot));
		return -EIO;
	}
	slot->expires_s = now_s + WEB_SESSION_TTL_S;
	*s = slot;
	return 0;
}

const struct web_session *web_auth_find(struct web_auth *a, const char *token, int64_t now_s)
{
	if (!a->pin || strlen(token) != WEB_TOKEN_HEX)
		return NULL;
	for (size_t i = 0; i < WEB_SESSIONS_MAX; i++) {
		struct web_session *c = &a->sessions[i];

		if (c->token[0] && c->expires_s > now_s && web_auth_equal(token, c->token))
			return c;
	}
	return NULL;
}

void web_auth_logout(struct web_auth *a, const char *token)
{
	for (size_t i = 0; i < WEB_SESSIONS_MAX; i++)
		if (a->sessions[i].token[0] && web_auth_equal(token, a->sessions[i].token))
			memset(&a->sessions[i], 0, sizeof(a->sessions[i]));
}
