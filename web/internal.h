/* web internals shared by the files of web/; not part of the contract. */
#ifndef DYEREF_WEB_INTERNAL_H
#define DYEREF_WEB_INTERNAL_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "web/web.h"

#define WEB_TOKEN_HEX 64		/* hex digits of a session or CSRF token */
#define WEB_SESSIONS_MAX 32		/* officials' phones, tablets, a laptop */
#define WEB_SESSION_TTL_S (12 * 3600)	/* a long evening */
/* Wrong PINs: a browser that has logged in holds a device cookie and is
 * counted alone (OWASP's device cookies); any other is an unknown device,
 * counted by address, IPv6 /64 and all together. */
#define WEB_LOGIN_FAILS 5		/* wrong PINs from one unknown address before a lockout */
#define WEB_LOGIN_NET_FAILS 20		/* from one IPv6 /64 (any of its addresses) */
#define WEB_LOGIN_DEVICE_FAILS 5	/* from one known device, wherever it is */
#define WEB_LOGIN_LOCK_S 30		/* the first lockout of a count; each next one doubles */
#define WEB_LOGIN_LOCK_DOUBLINGS 5	/* ... up to 30 s x 2^5 = 16 min */
/* Seconds without a wrong PIN after which a count forgets its wrong PINs:
 * as long as a first lockout, so pacing tries to dodge one is no faster
 * than sitting it out, and the age at which the table may evict the entry. */
#define WEB_LOGIN_FORGET_S WEB_LOGIN_LOCK_S
#define WEB_LOGIN_LEVEL_FORGET_S 3600	/* quiet seconds after which lockouts start at 30 s again */
#define WEB_LOGIN_ALL_FAILS 20		/* wrong PINs from all unknown devices together ... */
#define WEB_LOGIN_ALL_S 60		/* ... in this many seconds: then unknown ones wait */
#define WEB_LOGIN_CLIENTS 64		/* addresses and /64s whose wrong PINs are counted */
#define WEB_LOGIN_DEVICES 32		/* known devices whose wrong PINs are counted */
#define WEB_DEVICE_ID 16		/* bytes of a device's random id */
#define WEB_DEVICE_COOKIE_HEX 64	/* hex digits of a device cookie: its id, its MAC */
#define WEB_DEVICE_TTL_S (400 * 24 * 3600)	/* the cookie's Max-Age: browsers cap it there */
#define WEB_CLIENT_KEY 16		/* bytes of a client key (web_auth_client_key) */
#define WEB_SSE_PER_CLIENT 8		/* open /api/events streams per client address */
/* ... and per IPv6 /64, any of its addresses: one host rotating through
 * its /64 holds at most 64 x 256 KiB of unsent state, and 448 of the 512
 * connections stay for everyone else; a bar's guests on its one /64 are
 * seldom more than 64 screens watching at once. */
#define WEB_SSE_PER_NET 64
/* Streams in all, not counting the console's: past it a new one ends the
 * oldest (the page reconnects). 384 x 256 KiB of unsent state
 * at the worst; an honest screen holds none. */
#define WEB_SSE_MAX 384

struct web_session {
	char token[WEB_TOKEN_HEX + 1];	/* the cookie's value; "" = free slot */
	char csrf[WEB_TOKEN_HEX + 1];	/* sent back in X-CSRF-Token */
	int64_t expires_s;		/* CLOCK_MONOTONIC seconds */
	char official[WEB_OFFICIAL_MAX];	/* who logged in ("official" unnamed) */
};

/* Wrong PINs from one client address, one IPv6 /64, or one known device. */
struct web_login_client {
	unsigned char key[WEB_CLIENT_KEY];	/* web_auth_client_key() or _net(), or
					 * the device's id */
	int used;			/* 0: a free entry */
	int net;			/* 1: an IPv6 /64 (budget WEB_LOGIN_NET_FAILS) */
	int fails;			/* wrong PINs since its last success or lock, none
					 * of them WEB_LOGIN_FORGET_S before the next */
	int lockouts;			/* since WEB_LOGIN_LEVEL_FORGET_S quiet: the
					 * next lasts WEB_LOGIN_LOCK_S << lockouts */
	int64_t last_s;			/* its last wrong PIN, CLOCK_MONOTONIC seconds */
	int64_t locked_until_s;		/* CLOCK_MONOTONIC seconds */
};

struct web_auth {
	char *pin;			/* owned; NULL: the console is locked */
	struct web_session sessions[WEB_SESSIONS_MAX];	/* open sessions */
	/* Random, new with a new PIN; the daemon keeps it across restarts
	 * (web_config.device_key), so a restart forgets no device. */
	unsigned char device_secret[WEB_DEVICE_KEY];
	/* Signs device cookies: HMAC of the PIN under device_secret, so a PIN
	 * changed while the daemon was down ends every device too. */
	unsigned char device_key[32];
	/* Lockouts of unknown devices are per client, so a guessing guest
	 * does not lock out the official; a fixed table, so hostile clients
	 * cannot grow memory. */
	struct web_login_client clients[WEB_LOGIN_CLIENTS];
	/* Known devices' own counts: only a browser that had the PIN holds a
	 * cookie, so guessers cannot fill it. */
	struct web_login_client devices[WEB_LOGIN_DEVICES];
	/* The times of the last wrong PINs from unknown devices, a ring:
	 * however many addresses guess, together they get WEB_LOGIN_ALL_FAILS
	 * tries in WEB_LOGIN_ALL_S (a 4-digit PIN takes hours, not minutes);
	 * known devices are not held back by it. */
	int64_t wrong_s[WEB_LOGIN_ALL_FAILS];	/* CLOCK_MONOTONIC seconds */
	size_t n_wrong;			/* entries of wrong_s filled */
	size_t next_wrong;		/* the next to write: the oldest once full */
};

/* 0; -ENOMEM; -EIO no randomness. The PIN is copied; NULL or "" locks
 * the console. Sessions and counts end; devices too when the PIN is a new
 * one (a new random device_secret). */
int web_auth_set_pin(struct web_auth *a, const char *pin);
/* Replaces device_secret with secret (copied; a kept one from the last
 * run), under the PIN set: devices it signed for this PIN are known. */
void web_auth_set_secret(struct web_auth *a, const unsigned char secret[WEB_DEVICE_KEY]);
void web_auth_free(struct web_auth *a);

/* The key of a client address: an IPv4 address (also IPv4-mapped IPv6) as
 * ::ffff:a.b.c.d, an IPv6 address whole; all zeros for NULL or another
 * family. */
void web_auth_client_key(const struct sockaddr *sa, unsigned char key[WEB_CLIENT_KEY]);

/* The network of a key: for an IPv6 address its /64, the rest zeros (one
 * host has a whole /64 to pick addresses from), and true; else a copy of
 * the key, and false. net may be key. */
bool web_auth_client_net(const unsigned char key[WEB_CLIENT_KEY], unsigned char net[WEB_CLIENT_KEY]);

/* The device cookie's value for a device id: its hex and the hex of its
 * MAC under a's device key (128 bits of HMAC-SHA-256), NUL-terminated. */
void web_auth_device_cookie(const struct web_auth *a, const unsigned char id[WEB_DEVICE_ID],
			    char out[WEB_DEVICE_COOKIE_HEX + 1]);

/* Whether value is a device cookie a signed (with this key): true and its
 * id. Constant time in the MAC. */
bool web_auth_device_check(const struct web_auth *a, const char *value,
			   unsigned char id[WEB_DEVICE_ID]);

/* Checks a PIN from the client with this key (web_auth_client_key) and
 * the device cookie it sent (NULL none), and opens a session. 0 with *s
 * the new session and device_out the device cookie to set (the same
 * device, or a new one for a client that had none or a bad one). -EPERM
 * wrong PIN or console locked. -EAGAIN refused before the PIN is compared:
 * a known device after WEB_LOGIN_DEVICE_FAILS wrong PINs of its own, and
 * nothing else; an unknown one after WEB_LOGIN_FAILS from its address, or
 * WEB_LOGIN_NET_FAILS from its IPv6 /64, or when WEB_LOGIN_ALL_FAILS came
 * from unknown devices in the last WEB_LOGIN_ALL_S, or the table had no
 * room for its address (a guessing attack from many addresses). Each
 * lockout of a count lasts twice its last (WEB_LOGIN_LOCK_S up to
 * WEB_LOGIN_LOCK_DOUBLINGS times), back to WEB_LOGIN_LOCK_S after
 * WEB_LOGIN_LEVEL_FORGET_S without a wrong PIN. A right PIN forgives its
 * device's or address's wrong PINs, not its /64's; WEB_LOGIN_FORGET_S
 * without one forgets a count's wrong PINs. -EIO no randomness. now_s is
 * CLOCK_MONOTONIC seconds. */
int web_auth_login(struct web_auth *a, const unsigned char key[WEB_CLIENT_KEY], const char *device,
		   const char *pin, int64_t now_s, const struct web_session **s,
		   char device_out[WEB_DEVICE_COOKIE_HEX + 1]);

/* HMAC-SHA-256 of msg under key (hmac.c). */
void web_hmac_sha256(const unsigned char *key, size_t klen, const unsigned char *msg, size_t mlen,
		     unsigned char out[32]);

/* Names the official of s, a session of a (web_auth_login's), name a
 * checked one (1..WEB_OFFICIAL_MAX - 1 bytes). */
void web_auth_set_official(struct web_auth *a, const struct web_session *s, const char *name);

/* The live session with this token, or NULL. */
const struct web_session *web_auth_find(struct web_auth *a, const char *token, int64_t now_s);

/* Ends the session with this token, if any. */
void web_auth_logout(struct web_auth *a, const char *token);

/* Constant-time comparison of two NUL-terminated strings: 1 when equal. */
int web_auth_equal(const char *x, const char *y);

/* ---- The console command parser (command.c, house.c) ------------------ */

struct json_t;

/* command.c: o's boolean key into *out when there; -EINVAL, with err, when not a boolean. */
int web_get_bool(const struct json_t *o, const char *key, bool *out, char *err, size_t errlen);

/* command.c: o's number key, in min..max, into *out (and given set); -EINVAL with err. */
int web_get_number(const struct json_t *o, const char *key, double min, double max, bool *given,
		   double *out, char *err, size_t errlen);

/* house.c: START's "house" over *house (the defaults); -EINVAL with err for a bad rule. */
int web_parse_house(const struct json_t *h, struct bd_house *house, char *err, size_t errlen);

/* ---- The server (server.c, route.c, sse.c) ----------------------------- */

struct conn;

struct sse_client {
	struct sse_client *next;	/* in web_server.clients */
	struct web_server *server;	/* back pointer */
	struct MHD_Connection *conn;	/* to resume */
	struct conn *owner;		/* its connection's record (server.c), NULL
					 * once that has gone */
	unsigned char key[WEB_CLIENT_KEY];	/* its client's address (web_auth_client_key) */
	bool console;			/* opened with a live console session */
	char *buf;			/* owned: bytes not yet sent */
	size_t len, off;		/* filled, sent */
	size_t cap;			/* allocated */
	int64_t opened_ms;		/* CLOCK_MONOTONIC: it ends stream_max_s after */
	int fd;				/* its socket, watched in web_server.outer_fd
					 * while suspended */
	int suspended;			/* waiting for data */
	int closing;			/* end the stream at the next read */
};


/* One request while its body arrives. */
struct request {
	char *body;		/* owned, NUL-terminated */
	size_t len;		/* bytes of body */
	int too_big;		/* body passed the limit: answer 413 */
};

struct web_server {
	struct MHD_Daemon *mhd;		/* owned */
	struct web_handlers h;		/* copied */
	void *user;			/* for the handlers */
	struct web_config cfg;		/* limits, with defaults filled in */
	char *bind;			/* owned copy of cfg.bind */
	bool have_proxy;		/* cfg.trusted_proxy was given */
	unsigned char proxy[16];	/* it, as IPv6 (IPv4 as ::ffff:a.b.c.d) */
	struct web_auth auth;		/* console sessions */
	struct bd_house house;		/* defaults of a console START */
	struct sse_client *clients;	/* open /api/events streams */
	struct conn *conns;		/* every open connection */
	size_t n_clients;
	unsigned port;			/* bound */
	int epoll_fd;			/* MHD's */
	int outer_fd;			/* owned epoll: MHD's and the parked streams */
	int run_again;			/* a stream was woken or a connection closed:
					 * run MHD at once (web_server_timeout_ms 0) */
	size_t anon_cap;		/* connections not the console's before the
					 * oldest idle is closed for a new one */
	int listen_fd;			/* MHD's listen socket (borrowed) */
	uint64_t accepted;		/* connections accepted since start */
	uint64_t accepted_seen;		/* that at the last web_server_accepting() */
	int64_t stuck_since_ms;		/* since when a backlog waits unaccepted; -1 none */
	/* Names a Host may give (web_host_name's form): cfg.hosts and the
	 * defaults (web_hosts_init). */
	char hosts[WEB_HOSTS_MAX + 6][WEB_HOST_MAX];
	size_t n_hosts;
};

/* server.c: CLOCK_MONOTONIC milliseconds. */
int64_t web_now_ms(void);

/* server.c: ties a connection to its event stream, both ways (cl->owner),
 * so the caps may close the stream to make room. */
void web_conn_set_stream(struct MHD_Connection *c, struct sse_client *cl);
/* server.c: unties cl from its connection (its stream is freed). */
void web_conn_drop_stream(struct sse_client *cl);

/* sse.c: the milliseconds until the next stream reaches stream_max_s (0:
 * one has), -1 none open; with cut, first ends those that have. */
int64_t web_sse_deadline(struct web_server *s, bool cut);


/* route.c: the headers every answer carries; no_store adds Cache-Control. */
void web_common_headers(struct MHD_Response *r, const char *type, int no_store);

/* route.c: {"error": why} with status. */
enum MHD_Result web_send_error(struct MHD_Connection *c, unsigned status, const char *why);

/* route.c: web_send_error, and the connection closed after it. */
enum MHD_Result web_send_error_close(struct MHD_Connection *c, unsigned status, const char *why);

/* hygiene.c: s->hosts from list (web_config.hosts, may be NULL) and the
 * defaults. 0; -EINVAL with err. */
int web_hosts_init(struct web_server *s, const char *list, char *err, size_t errlen);

/* hygiene.c: whether the request's head is refused, answered (*ret) and
 * its connection closed: 400 for a body framed more than one way (two
 * Content-Length headers, one not a number, or one with
 * Transfer-Encoding), 421 for a Host that is not one of the server's
 * names. Call once, when the head is in. */
bool web_hygiene_refuse(struct web_server *s, struct MHD_Connection *c, enum MHD_Result *ret);

/* hygiene.c: web_cross_site() of the request's headers: every console
 * write, the login too, is refused when true. */
bool web_request_cross_site(struct MHD_Connection *c);

/* route.c: the console session of the request's cookie, or NULL. */
const struct web_session *web_session_of(struct web_server *s, struct MHD_Connection *c);

/* server.c: the key of a connection's client address, for the per-client
 * limits: the peer's, or behind the trusted proxy the address it put last
 * in X-Forwarded-For. */
void web_client_key(struct web_server *s, struct MHD_Connection *c,
		    unsigned char key[WEB_CLIENT_KEY]);

/* route.c: answers a complete GET or HEAD request for url. */
enum MHD_Result web_route_get(struct web_server *s, struct MHD_Connection *c, const char *url);

/* route.c: answers a complete POST request for url, its body in rq. */
enum MHD_Result web_route_post(struct web_server *s, struct MHD_Connection *c, const char *url,
			       const struct request *rq);

/* sse.c: answers GET /api/events: a stream that starts with the state, or
 * 429 past the streams allowed per address or per IPv6 /64. */
enum MHD_Result web_sse_open(struct web_server *s, struct MHD_Connection *c);

/* sse.c: resumes a stream parked for want of data. */
void web_sse_wake(struct sse_client *cl);

#endif /* DYEREF_WEB_INTERNAL_H */
