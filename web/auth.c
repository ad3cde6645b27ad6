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
	memset(a->clients, 0, sizeof(a->clients));
	a->n_wrong = a->next_wrong = 0;
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

static struct web_login_client *client_find(struct web_auth *a,
					    const unsigned char key[WEB_CLIENT_KEY], int net)
{
	for (size_t i = 0; i < WEB_LOGIN_CLIENTS; i++)
		if (a->clients[i].used && a->clients[i].net == net &&
		    !memcmp(a->clients[i].key, key, WEB_CLIENT_KEY))
			return &a->clients[i];
	return NULL;
}

/* An entry for a client not in the table: a free one, else the stalest of
 * those with no lockout and no wrong PIN for WEB_LOGIN_FORGET_S (a count
 * that old is forgotten anyway), other than keep; NULL when there is none.
 * Recent entries are never evicted: a client rotating through more
 * addresses than the table holds would otherwise shed its count before it
 * reached a lockout. */
static struct web_login_client *client_new(struct web_auth *a,
					   const unsigned char key[WEB_CLIENT_KEY], int net,
					   int64_t now_s, const struct web_login_client *keep)
{
	struct web_login_client *best = NULL;

	for (size_t i = 0; i < WEB_LOGIN_CLIENTS; i++) {
		struct web_login_client *c = &a->clients[i];

		if (c == keep)
			continue;
		if (!c->used) {
			best = c;
			break;
		}
		if (now_s >= c->locked_until_s && now_s - c->last_s >= WEB_LOGIN_FORGET_S &&
		    (!best || c->last_s < best->last_s))
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
static void client_fail(struct web_login_client *c, int budget, int64_t now_s)
{
	/* The official's mistake now and then over an evening must not add up
	 * to a lockout: a quiet spell forgets the count. */
	if (now_s - c->last_s >= WEB_LOGIN_FORGET_S)
		c->fails = 0;
	c->last_s = now_s;
	/* Slow down guessing: a four-digit PIN falls to a loop otherwise. */
	if (++c->fails >= budget) {
		c->fails = 0;
		c->locked_until_s = now_s + WEB_LOGIN_LOCK_S;
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

int web_auth_login(struct web_auth *a, const unsigned char key[WEB_CLIENT_KEY],
		   const char *pin, int64_t now_s, const struct web_session **s)
{
	struct web_session *slot = &a->sessions[0];
	unsigned char net[WEB_CLIENT_KEY];
	/* An IPv6 client is counted twice: its own address with the budget of
	 * an IPv4 one, so a player on the bar's /64 locks out only itself, and
	 * its /64 with a larger one, so rotating through the /64's addresses
	 * does not buy thousands of tries. */
	bool v6 = web_auth_client_net(key, net);
	struct web_login_client *cl = client_find(a, key, 0);
	struct web_login_client *nl = v6 ? client_find(a, net, 1) : NULL;

	if ((cl && now_s < cl->locked_until_s) || (nl && now_s < nl->locked_until_s))
		return -EAGAIN;
	/* Guessing from many addresses: everyone waits, the official too, as
	 * a right guess must not leak; the official's open sessions live on. */
	if (all_locked(a, now_s))
		return -EAGAIN;
	/* An unknown client when every entry is recent: a guessing attack
	 * from many addresses. It is refused before its PIN is compared, so
	 * a right guess does not leak; the official's open sessions live on. */
	if (!cl && !(cl = client_new(a, key, 0, now_s, nl)))
		return -EAGAIN;
	if (v6 && !nl && !(nl = client_new(a, net, 1, now_s, cl)))
		return -EAGAIN;
	if (!a->pin || !web_auth_equal(pin, a->pin)) {
		client_fail(cl, WEB_LOGIN_FAILS, now_s);
		if (nl)
			client_fail(nl, WEB_LOGIN_NET_FAILS, now_s);
		all_fail(a, now_s);
		return -EPERM;
	}
	memset(cl, 0, sizeof(*cl));	/* a right PIN forgives that client's wrong ones */
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
