/* Console sessions: a PIN buys a session cookie and a CSRF token. */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <netinet/in.h>
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

/* The signing key of a's secret and PIN. */
static void derive_key(struct web_auth *a)
{
	const char *pin = a->pin ? a->pin : "";

	web_hmac_sha256(a->device_secret, sizeof(a->device_secret), (const unsigned char *)pin,
			strlen(pin), a->device_key);
}

void web_auth_set_secret(struct web_auth *a, const unsigned char secret[WEB_DEVICE_KEY])
{
	memcpy(a->device_secret, secret, sizeof(a->device_secret));
	derive_key(a);
	memset(a->devices, 0, sizeof(a->devices));
}

int web_auth_set_pin(struct web_auth *a, const char *pin)
{
	char *copy = NULL;
	bool same = a->pin && pin && !strcmp(a->pin, pin);

	if (pin && *pin) {
		copy = strdup(pin);
		if (!copy)
			return -ENOMEM;
	}
	/* A new PIN: whoever knew the old one (a phone lost, a guest who saw
	 * it typed) holds no known device now. A reload with the same PIN
	 * keeps them: the official is not made a stranger mid-match. */
	if (!same) {
		if (getrandom(a->device_secret, sizeof(a->device_secret), 0) !=
		    (ssize_t)sizeof(a->device_secret)) {
			free(copy);
			return -EIO;
		}
		memset(a->devices, 0, sizeof(a->devices));
	}
	free(a->pin);
	a->pin = copy;
	derive_key(a);
	memset(a->sessions, 0, sizeof(a->sessions));
	memset(a->clients, 0, sizeof(a->clients));
	a->n_wrong = a->next_wrong = 0;
	return 0;
}

void web_auth_free(struct web_auth *a)
{
	free(a->pin);
	memset(a, 0, sizeof(*a));
}

/* n bytes as 2n hex digits, no NUL. */
static void to_hex(const unsigned char *raw, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hex[raw[i] >> 4];
		out[2 * i + 1] = hex[raw[i] & 15];
	}
}

static int random_hex(char *out)
{
	unsigned char raw[WEB_TOKEN_HEX / 2];

	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
		return -EIO;
	to_hex(raw, sizeof(raw), out);
	out[WEB_TOKEN_HEX] = '\0';
	return 0;
}

/* ---- Device cookies ---------------------------------------------------- */

_Static_assert(WEB_DEVICE_ID == WEB_CLIENT_KEY, "a device's id is the key of its count");

/* A lower-case hex digit's value (to_hex writes no other), else -1. */
static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The MAC's hex: what binds an id to this daemon and this PIN. */
static void device_mac_hex(const struct web_auth *a, const unsigned char id[WEB_DEVICE_ID],
			   char out[WEB_DEVICE_COOKIE_HEX / 2 + 1])
{
	static const char label[] = "dyeref device ";
	unsigned char msg[sizeof(label) - 1 + WEB_DEVICE_ID], mac[32];

	memcpy(msg, label, sizeof(label) - 1);
	memcpy(msg + sizeof(label) - 1, id, WEB_DEVICE_ID);
	web_hmac_sha256(a->device_key, sizeof(a->device_key), msg, sizeof(msg), mac);
	to_hex(mac, WEB_DEVICE_COOKIE_HEX / 4, out);
	out[WEB_DEVICE_COOKIE_HEX / 2] = '\0';
}

void web_auth_device_cookie(const struct web_auth *a, const unsigned char id[WEB_DEVICE_ID],
			    char out[WEB_DEVICE_COOKIE_HEX + 1])
{
	to_hex(id, WEB_DEVICE_ID, out);
	device_mac_hex(a, id, out + 2 * WEB_DEVICE_ID);
}

bool web_auth_device_check(const struct web_auth *a, const char *value,
			   unsigned char id[WEB_DEVICE_ID])
{
	char mac[WEB_DEVICE_COOKIE_HEX / 2 + 1];

	if (strlen(value) != WEB_DEVICE_COOKIE_HEX)
		return false;
	for (size_t i = 0; i < WEB_DEVICE_ID; i++) {
		int hi = hex_digit(value[2 * i]), lo = hex_digit(value[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		id[i] = (unsigned char)(hi << 4 | lo);
	}
	device_mac_hex(a, id, mac);
	return web_auth_equal(value + 2 * WEB_DEVICE_ID, mac);
}

static const unsigned char v4_mapped[12] = { [10] = 0xff, [11] = 0xff };

void web_auth_client_key(const struct sockaddr *sa, unsigned char key[WEB_CLIENT_KEY])
{
	memset(key, 0, WEB_CLIENT_KEY);
	if (sa && sa->sa_family == AF_INET) {
		memcpy(key, v4_mapped, sizeof(v4_mapped));
		memcpy(key + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (sa && sa->sa_family == AF_INET6) {
		memcpy(key, ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr, WEB_CLIENT_KEY);
	}
}

bool web_auth_client_net(const unsigned char key[WEB_CLIENT_KEY], unsigned char net[WEB_CLIENT_KEY])
{
	static const unsigned char none[WEB_CLIENT_KEY];

	memmove(net, key, WEB_CLIENT_KEY);
	if (!memcmp(key, v4_mapped, sizeof(v4_mapped)) || !memcmp(key, none, sizeof(none)))
		return false;
	memset(net + 8, 0, WEB_CLIENT_KEY - 8);
	return true;
}

static struct web_login_client *count_find(struct web_login_client *t, size_t n,
					   const unsigned char key[WEB_CLIENT_KEY], int net)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].used && t[i].net == net && !memcmp(t[i].key, key, WEB_CLIENT_KEY))
			return &t[i];
	return NULL;
}

/* Whether c holds nothing a guesser would gain by its loss: no lockout,
 * no wrong PIN for WEB_LOGIN_FORGET_S (a count that old is forgotten
 * anyway). */
static bool count_stale(const struct web_login_client *c, int64_t now_s)
{
	return now_s >= c->locked_until_s && now_s - c->last_s >= WEB_LOGIN_FORGET_S;
}

/* A new entry of t for key: a free one, else the stalest, other than
 * keep; with only_stale, the stalest of the count_stale ones, NULL when
 * there is none. Addresses take only stale entries: a client rotating
 * through more addresses than the table holds would otherwise shed its
 * counts before they reached a lockout. Devices take the oldest: only a
 * browser that had the PIN holds one, so guessers cannot flood them. */
static struct web_login_client *count_new(struct web_login_client *t, size_t n,
					  const unsigned char key[WEB_CLIENT_KEY], int net,
					  int64_t now_s, const struct web_login_client *keep,
					  bool only_stale)
{
	struct web_login_client *best = NULL;

	for (size_t i = 0; i < n; i++) {
		struct web_login_client *c = &t[i];

		if (c == keep)
			continue;
		if (!c->used) {
			best = c;
			break;
		}
		if ((!only_stale || count_stale(c, now_s)) && (!best || c->last_s < best->last_s))
			best = c;
	}
	if (best) {
		memset(best, 0, sizeof(*best));
		memcpy(best->key, key, WEB_CLIENT_KEY);
		best->used = 1;
		best->net = net;
	}
	return best;
}

/* One more wrong PIN against an entry that allows budget of them. */
static void count_fail(struct web_login_client *c, int budget, int64_t now_s)
{
	/* The official's mistake now and then over an evening must not add up
	 * to a lockout: a quiet spell forgets the count; a long one, the
	 * lockouts too. */
	if (now_s - c->last_s >= WEB_LOGIN_LEVEL_FORGET_S)
		c->lockouts = 0;
	if (now_s - c->last_s >= WEB_LOGIN_FORGET_S)
		c->fails = 0;
	c->last_s = now_s;
	/* Slow down guessing: a four-digit PIN falls to a loop otherwise, and
	 * each lockout twice the last makes a patient guesser slower still. */
	if (++c->fails >= budget) {
		int shift = c->lockouts < WEB_LOGIN_LOCK_DOUBLINGS ? c->lockouts : WEB_LOGIN_LOCK_DOUBLINGS;

		c->fails = 0;
		c->locked_until_s = now_s + ((int64_t)WEB_LOGIN_LOCK_S << shift);
		c->lockouts++;
	}
}

/* Whether WEB_LOGIN_ALL_FAILS wrong PINs came in the last WEB_LOGIN_ALL_S. */
static bool all_locked(const struct web_auth *a, int64_t now_s)
{
	return a->n_wrong == WEB_LOGIN_ALL_FAILS &&
	       now_s - a->wrong_s[a->next_wrong] < WEB_LOGIN_ALL_S;
}

static void all_fail(struct web_auth *a, int64_t now_s)
{
	a->wrong_s[a->next_wrong] = now_s;
	a->next_wrong = (a->next_wrong + 1) % WEB_LOGIN_ALL_FAILS;
	if (a->n_wrong < WEB_LOGIN_ALL_FAILS)
		a->n_wrong++;
}

/* A login from a known device: its own count only, wherever it is and
 * whoever else guesses. */
static int device_try(struct web_auth *a, const unsigned char id[WEB_DEVICE_ID], const char *pin,
		      int64_t now_s)
{
	struct web_login_client *dl = count_find(a->devices, WEB_LOGIN_DEVICES, id, 0);

	if (dl && now_s < dl->locked_until_s)
		return -EAGAIN;
	if (!a->pin || !web_auth_equal(pin, a->pin)) {
		if (!dl)
			dl = count_new(a->devices, WEB_LOGIN_DEVICES, id, 0, now_s, NULL, false);
		count_fail(dl, WEB_LOGIN_DEVICE_FAILS, now_s);
		return -EPERM;
	}
	if (dl)
		memset(dl, 0, sizeof(*dl));
	return 0;
}

/* A login from an unknown device: its address's count, its /64's, and
 * everyone's. */
static int unknown_try(struct web_auth *a, const unsigned char key[WEB_CLIENT_KEY],
		       const char *pin, int64_t now_s)
{
	unsigned char net[WEB_CLIENT_KEY];
	/* An IPv6 client is counted twice: its own address with the budget of
	 * an IPv4 one, so a player on the bar's /64 locks out only itself, and
	 * its /64 with a larger one, so rotating through the /64's addresses
	 * does not buy thousands of tries. */
	bool v6 = web_auth_client_net(key, net);
	struct web_login_client *cl = count_find(a->clients, WEB_LOGIN_CLIENTS, key, 0);
	struct web_login_client *nl = v6 ? count_find(a->clients, WEB_LOGIN_CLIENTS, net, 1) : NULL;

	if ((cl && now_s < cl->locked_until_s) || (nl && now_s < nl->locked_until_s))
		return -EAGAIN;
	/* Guessing from many addresses: every unknown device waits, as a
	 * right guess must not leak; known devices log in regardless. */
	if (all_locked(a, now_s))
		return -EAGAIN;
	/* No room for a new address when every entry is recent: a guessing
	 * attack from many addresses. Refused before its PIN is compared. */
	if (!cl && !(cl = count_new(a->clients, WEB_LOGIN_CLIENTS, key, 0, now_s, nl, true)))
		return -EAGAIN;
	if (v6 && !nl && !(nl = count_new(a->clients, WEB_LOGIN_CLIENTS, net, 1, now_s, cl, true)))
		return -EAGAIN;
	if (!a->pin || !web_auth_equal(pin, a->pin)) {
		count_fail(cl, WEB_LOGIN_FAILS, now_s);
		if (nl)
			count_fail(nl, WEB_LOGIN_NET_FAILS, now_s);
		all_fail(a, now_s);
		return -EPERM;
	}
	memset(cl, 0, sizeof(*cl));	/* a right PIN forgives that client's wrong ones */
	return 0;
}

int web_auth_login(struct web_auth *a, const unsigned char key[WEB_CLIENT_KEY], const char *device,
		   const char *pin, int64_t now_s, const struct web_session **s,
		   char device_out[WEB_DEVICE_COOKIE_HEX + 1])
{
	struct web_session *slot = &a->sessions[0];
	unsigned char id[WEB_DEVICE_ID];
	bool known = device && web_auth_device_check(a, device, id);
	int rc = known ? device_try(a, id, pin, now_s) : unknown_try(a, key, pin, now_s);

	if (rc)
		return rc;
	if (!known && getrandom(id, sizeof(id), 0) != (ssize_t)sizeof(id))
		return -EIO;
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
	snprintf(slot->official, sizeof(slot->official), "official");
	web_auth_device_cookie(a, id, device_out);
	*s = slot;
	return 0;
}

void web_auth_set_official(struct web_auth *a, const struct web_session *s, const char *name)
{
	struct web_session *w = &a->sessions[s - a->sessions];

	snprintf(w->official, sizeof(w->official), "%s", name);
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
