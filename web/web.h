/*
 * web: the HTTP face of the referee (libmicrohttpd). The public scoreboard,
 * the official's console, the replay page and the JSON API, with live
 * updates as server-sent events.
 *
 * The server owns no match data: the daemon hands it callbacks that render
 * state, matches, logs and throws as text, and a command callback for the
 * console's state-changing requests. The server never blocks: it runs on
 * the caller's event loop (web_server_fd() is an epoll fd to watch for
 * input, web_server_timeout_ms() the longest the loop may sleep, then
 * web_server_process()).
 *
 * Everything a client sends is hostile. Requests over the size limits or
 * malformed get a 4xx; the console needs a session cookie from
 * POST /console/login (the PIN) and, on every state-changing request, the
 * session's CSRF token in the X-CSRF-Token header, else 403.
 *
 * The parsers (form bodies, cookies, console commands) are plain functions
 * on bytes, so they are unit-tested and fuzzed without a socket.
 */
#ifndef DYEREF_WEB_H
#define DYEREF_WEB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/* ---- Parsers on bytes ------------------------------------------------ */

/* Finds name in an application/x-www-form-urlencoded body of len bytes
 * (no NUL needed) and writes its decoded value, NUL-terminated, to out.
 * Returns the value's length, -ENOENT when absent, -EINVAL when the body is
 * malformed (bad %-escape, a NUL byte), -E2BIG when the value does not fit. */
int web_parse_form(const char *body, size_t len, const char *name, char *out, size_t outlen);

/* Finds cookie name in a Cookie header value ("a=1; b=2"); as
 * web_parse_form (no decoding: cookie values are taken as they are). */
int web_parse_cookie(const char *header, size_t len, const char *name, char *out, size_t outlen);

/* The client address a reverse proxy appended to an X-Forwarded-For
 * header value of len bytes (no NUL needed): the entry after the last
 * comma, spaces and tabs around it dropped, must be a bare IPv4 or IPv6
 * literal (no port, brackets or zone); the entries before it are not read.
 * 0 and *out (ss_family AF_INET or AF_INET6, the address set, port 0);
 * -EINVAL for anything else (*out zeroed). */
struct sockaddr_storage;
int web_parse_forwarded_for(const char *header, size_t len, struct sockaddr_storage *out);

/* Whether a request came from another site's page, by its Sec-Fetch-Site,
 * Origin and Host header values (each NULL when absent): Sec-Fetch-Site
 * other than "same-origin" or "none" (a browser's own word); without it, an
 * Origin whose host[:port] after "http://" or "https://" is not Host's (case
 * ignored), or that has neither scheme ("null"). Neither header: not
 * cross-site (curl; browsers send one of them on every POST). */
bool web_cross_site(const char *sec_fetch_site, const char *origin, const char *host);

#define WEB_HOST_MAX 256	/* bytes of a host name, with the NUL */
#define WEB_HOSTS_MAX 16	/* names web_config.hosts may list */

/* One host name of len bytes (no NUL needed), as a Host header gives it
 * (port_ok: "name:port", "[v6]:port") or a configuration lists it (a
 * bare IPv6 literal too): the name lower-cased, a trailing dot dropped, an
 * IP literal in inet_ntop's form, brackets dropped, into out. 0; -EINVAL
 * for anything but letters, digits, '-', '.', '_' or an IP literal, a bad
 * port, or a name of WEB_HOST_MAX bytes or more. */
int web_host_name(const char *v, size_t len, bool port_ok, char *out, size_t outlen);

/* A list of names separated by commas or spaces (web_host_name's, no
 * ports), at most max, into names and *n. 0; -EINVAL or -E2BIG with err
 * naming the bad entry. */
int web_parse_hosts(const char *list, char (*names)[WEB_HOST_MAX], size_t max, size_t *n,
		    char *err, size_t errlen);

/* The console's state-changing requests, as JSON objects with "cmd". */
enum web_cmd_kind {
	WEB_CMD_START,		/* start a match: teams, players, house rules */
	WEB_CMD_END,		/* end the current match */
	WEB_CMD_CALL,		/* one manual observation in the throw under way (events[0]) */
	WEB_CMD_DYE_UP_MISSED,	/* the thrower did not call "DYE UP!" (BD-P2) */
	WEB_CMD_THROW,		/* a whole throw entered by hand (events) */
	WEB_CMD_CONFIRM,	/* confirm the ruling under review as it stands */
	WEB_CMD_CORRECT,	/* replace throw_no's observations, or a dice game's
				 * turn with line (a refold) */
	WEB_CMD_UNDO,		/* withdraw the last throw (logged as a re-toss, BD-P9)
				 * or the dice game's last turn */
	WEB_CMD_DICE,		/* one move of the dice game under way (line) */
	WEB_CMD_DUTY_DONE,	/* mark a duty (duty: its id) done or not (done) */
	WEB_CMD_SHOW_ON_WALL,	/* show throw throw_no of match as a challenge replay on the wall */
	WEB_CMD_DISMISS_WALL,	/* take the challenge replay off the wall */
	WEB_CMD_FACE,		/* label the die of snapshot snapshot of throw throw_no
				 * of match: face 1-6, or 0 to confirm the face read */
};

#define WEB_TEAM_NAME_MAX 32	/* bytes of a team's name, with the NUL */
#define WEB_LINE_MAX 2048	/* bytes of a dice game's log line, with the NUL */
#define WEB_OFFICIAL_MAX 33	/* bytes of an official's name, with the NUL */
#define WEB_REASON_MAX 201	/* bytes of a command's reason, with the NUL */
#define WEB_DUTY_ID_MAX 48	/* bytes of a duty's id ("8:kill_n_fill:b1"), with the NUL */

struct web_command {
	enum web_cmd_kind kind;	/* which command */
	int throw_no;		/* CORRECT, CONFIRM: 1-based; 0 = the one under review;
				 * SHOW_ON_WALL, FACE: 1-based */
	long match;		/* SHOW_ON_WALL, FACE: the match's id (1, 2, ...) */
	int64_t snapshot;	/* FACE: the snapshot holding the die, its id (the throw
				 * detail's snapshots' "id"), 1.. */
	int face;		/* FACE: 1-6, or 0: confirm the face the camera read */
	int turn;		/* CORRECT of a dice game: the turn replaced (1-based);
				 * 0: a Beer Die correction */
	bool accept_zero;	/* DICE, dice CORRECT: write a box that scores 0 without asking */
	bool dye_up;		/* THROW, CORRECT: "DYE UP!" was called; default true */
	int thrower;		/* THROW, CORRECT: player, or BD_NOBODY (from the order) */
	size_t n_events;	/* CALL: 1; THROW, CORRECT: 0..BD_MAX_EVENTS */
	struct bd_event events[BD_MAX_EVENTS];	/* in time order */
	char game[16];		/* START: "beerdie", or a dice game ("yatzy", ...) */
	char line[WEB_LINE_MAX];	/* START of a dice game: its match line; DICE:
				 * the move's log line (compact JSON; the engine checks it) */
	char teams[2][WEB_TEAM_NAME_MAX];	/* START: team names, may be "" */
	char colors[2][MLOG_COLOR_MAX];	/* START: team colours (mlog_bd_palette), "" default */
	char players[BD_PLAYERS][BD_NAME_MAX];	/* START: a1, a2, b1, b2 */
	int first_team;		/* START: BD_TEAM_A or BD_TEAM_B */
	struct bd_house house;	/* START: the defaults given, with "house" applied */
	char duty[WEB_DUTY_ID_MAX];	/* DUTY_DONE: the duty's id, as /api/state's
					 * "duties" give it */
	bool done;		/* DUTY_DONE: true marks it done, false takes that back */
	char reason[WEB_REASON_MAX];	/* any: the official's why, "" none */
	char official[WEB_OFFICIAL_MAX];	/* the session's official (the server's,
					 * never the body's) */
};

/* Parses one console command of len bytes of JSON. A player ("by",
 * "owner", "thrower") is named by the seat ("a1", "a2", "b1", "b2"), by
 * the name names (may be NULL: seats only) gives it, exact or else
 * case-insensitive when only one player fits, or by an index 0..3; cmd
 * holds the seat. house_defaults (may be NULL: RULES.md defaults) is where
 * a START's "house" starts from. Returns 0, or -EINVAL with "field: why"
 * in err. */
int web_parse_command(const char *json, size_t len, const struct bd_house *house_defaults,
		      const char (*names)[BD_NAME_MAX], struct web_command *cmd,
		      char *err, size_t errlen);

struct json_t;

/* Parses one match-log event object ({"at":"table","half":"B",...}, as in
 * DESIGN.md). Players as web_parse_command() takes them, names may be
 * NULL. Returns 0 or -EINVAL with "field: why" in err. */
int web_parse_event(const struct json_t *event, const char (*names)[BD_NAME_MAX],
		    struct bd_event *ev, char *err, size_t errlen);

/* A house rule START's "house" takes (every field of struct bd_house). */
struct web_house_rule {
	const char *key;	/* "target_points", ... */
	const char *type;	/* "int", "number", "bool" or "enum" */
	double min, max;	/* int, number: the range taken */
	const char *rule;	/* the RULES.md ID it changes, "" none */
	const char *text;	/* one line for people */
};

/* The house rules, in RULES.md's order: *n of them, static. */
const struct web_house_rule *web_house_rules(size_t *n);
/* The value of rule key in h as JSON (a new reference), NULL for no such key. */
struct json_t *web_house_value(const struct bd_house *h, const char *key);

/* The slot name of a player index ("a1".."b2"), "" for BD_NOBODY. */
const char *web_slot_name(int player);

/* ---- The server ------------------------------------------------------ */

#define WEB_DEVICE_KEY 32	/* bytes of the secret that signs device cookies */

struct web_config {
	const char *bind;		/* IPv4 or IPv6 literal; "127.0.0.1" when NULL */
	const char *trusted_proxy;	/* IP literal of a reverse proxy whose connections count
					 * as their last X-Forwarded-For address; NULL: none */
	/* Names the Host header may give, separated by commas (a proxy's
	 * public name, the Pi's address in DNS), besides the defaults:
	 * localhost, 127.0.0.1, ::1, bind, the machine's hostname and
	 * hostname.local, and always the address the client connected to;
	 * another gets 421. NULL: the defaults only. */
	const char *hosts;
	unsigned port;			/* 0: any free port (see web_server_port) */
	const char *pin;		/* console PIN; NULL or "" locks the console */
	/* WEB_DEVICE_KEY bytes (copied): the secret that, with the PIN,
	 * signs the console's device cookies, as web_server_device_key gave
	 * it to the last run, so a restart forgets no device; NULL: a fresh
	 * random one. */
	const unsigned char *device_key;
	unsigned max_connections;	/* 0: 512 */
	unsigned max_per_ip;		/* 0: 32 (a screen, a console, event streams);
					 * max_connections with a trusted_proxy */
	unsigned stream_max_s;		/* an event stream's lifetime; 0: 900 s (the page
					 * reconnects and gets the state) */
	unsigned timeout_s;		/* idle connection timeout; 0: 20 s (besides, a
					 * request must be in 10 s after the last answer) */
	size_t max_body;		/* request body bytes; 0: 16 KiB */
	size_t max_request;		/* per-connection buffer for the request line and
					 * headers; 0: 16 KiB */
	const struct bd_house *house;	/* copied: a console START's defaults; NULL: RULES.md's */
	/* The owner's clock in ns, on CLOCK_MONOTONIC's scale (the daemon's
	 * injected one, a test's fake): the request deadline, an event
	 * stream's lifetime, the sessions and the PIN lockouts read it, so a
	 * test steps them. NULL: CLOCK_MONOTONIC. libmicrohttpd's own idle
	 * timeout (timeout_s) keeps CLOCK_MONOTONIC. */
	int64_t (*now_ns)(void *clock_user);
	void *clock_user;		/* for now_ns */
};

/* What the daemon renders for the server. Each returns 0 and a body the
 * server takes and frees with free(), or a negative errno: -ENOENT (404),
 * -EINVAL (400, err says why), -EBUSY (409), -EPERM (403), anything else
 * (500). user is web_server_new's. A NULL callback answers 404. */
struct web_handlers {
	int (*state)(void *user, char **json);			/* GET /api/state */
	int (*matches)(void *user, char **json);		/* GET /api/matches */
	int (*match_log)(void *user, long match, char **jsonl);	/* GET /api/matches/N/log */
	int (*throw_detail)(void *user, long match, long throw_no,
			    char **json);			/* GET /api/matches/N/throws/K */
	int (*throws)(void *user, long match, char **json);	/* GET /api/matches/N/throws */
	/* POST /console/api/command: 0 and *result, the JSON the answer's
	 * "result" holds (malloc'd, the server frees it; NULL: none); -EAGAIN
	 * asks the official first (409 with "ask":true, err the question). */
	int (*command)(void *user, const struct web_command *cmd, char **result,
		       char *err, size_t errlen);
	/* The names of the Beer Die match under way's players, by seat, for
	 * a command that names them: 0, or -ENOENT with none under way. */
	int (*players)(void *user, char names[BD_PLAYERS][BD_NAME_MAX]);
	int (*sheet)(void *user, long match, char **json);	/* GET /api/matches/N/sheet (dice) */
	/* GET /api/matches/N/throws/K/snapshots/I.jpg[?id=ID]: id 0 without
	 * ?id=, else the picture of that id, whatever its place now */
	int (*snapshot)(void *user, long match, long throw_no, long index, int64_t id,
			char **jpeg, size_t *len);
	int (*console_status)(void *user, char **json);	/* GET /console/api/status: what only
							 * the official sees; 403 without a session */
	/* GET /api/matches?page=P[&per=N]: one page (P >= 1, N 1..100,
	 * default 20) of the matches, newest first, with teams, players,
	 * winner and date: {"total":T,"page":P,"per":N,"pages":Q,"matches":[...]};
	 * -ENOENT past the last page. */
	int (*matches_page)(void *user, long page, long per, char **json);
	/* GET /api/players (name NULL: {"players":[...]}) and /api/players/NAME
	 * (name decoded and checked by the server: 1..WEB_PLAYER_NAME_MAX-1
	 * bytes of UTF-8, no control characters or '/'); -ENOENT unknown. */
	int (*player_stats)(void *user, const char *name, char **json);
	int (*players_csv)(void *user, char **csv);		/* GET /players.csv */
	int (*match_csv)(void *user, long match, char **csv);	/* GET /matches/N.csv */
};

#define WEB_PLAYER_NAME_MAX BD_NAME_MAX	/* bytes of a player's name in a path, with the NUL */

/* Decodes a %-escaped path segment of len bytes (no NUL needed) into out
 * as a player's name: 0, or -EINVAL (a bad escape, '+' kept as is, a
 * control character, '/', invalid UTF-8, empty) or -E2BIG (too long for
 * outlen with the NUL). */
int web_parse_name(const char *seg, size_t len, char *out, size_t outlen);

struct web_server;

/* Binds and starts listening. Returns a server to free with
 * web_server_free(), or NULL with errno set and a message in err. The
 * strings in cfg are copied. */
struct web_server *web_server_new(const struct web_config *cfg, const struct web_handlers *h,
				  void *user, char *err, size_t errlen);
void web_server_free(struct web_server *s);

/* The port actually bound (useful with port 0). */
unsigned web_server_port(const struct web_server *s);

/* An epoll fd that becomes readable when the server has work. */
int web_server_fd(const struct web_server *s);

/* The most milliseconds the loop may wait before web_server_process();
 * -1 for no limit. */
int64_t web_server_timeout_ms(struct web_server *s);

/* Does whatever work is ready, without blocking. 0 or -EIO. */
int web_server_process(struct web_server *s);

/* Whether the server still takes connections: false once connections
 * have waited in the listen backlog for limit_ms with none accepted
 * between two calls (now_ms and limit_ms on the caller's clock; call every
 * second or so). For the watchdog: a loop that still turns must not keep a
 * server alive that no longer accepts. */
bool web_server_accepting(struct web_server *s, int64_t now_ms, int64_t limit_ms);

/* Queues a server-sent event (event name, one line of JSON data) to every
 * /api/events client. A client that falls too far behind is dropped. The
 * bytes leave on the next web_server_process(): web_server_timeout_ms()
 * returns 0 until then, so ask it again after broadcasting. */
void web_server_broadcast(struct web_server *s, const char *event, const char *data);

/* Sends a comment line to every SSE client, so proxies and idle timers
 * keep the stream open; call every ~15 s. */
void web_server_keepalive(struct web_server *s);

/* Replaces the console PIN (SIGHUP) and ends every console session; a
 * PIN other than the last draws a new device key (every device is a
 * stranger again). 0, -ENOMEM, or -EIO (no randomness). */
int web_server_set_pin(struct web_server *s, const char *pin);

/* The device key in use into key (the caller's), for the caller to keep:
 * it changes only with web_server_new and a new PIN. Secret: with it,
 * known devices can be minted (a short PIN is no obstacle offline), each
 * with wrong PINs of its own to spend. */
void web_server_device_key(const struct web_server *s, unsigned char key[WEB_DEVICE_KEY]);

/* New defaults for a console START's house rules (SIGHUP); copied. */
void web_server_set_house(struct web_server *s, const struct bd_house *house);

/* Open SSE clients (tests, health). */
size_t web_server_sse_clients(const struct web_server *s);

/* ---- Embedded files (generated from web/static/ at build time) ------- */

struct web_file {
	const char *path;		/* "/app.css" */
	const char *type;		/* MIME type */
	const unsigned char *data;	/* static */
	size_t len;			/* bytes of data */
};

/* The embedded file at path, or NULL. */
const struct web_file *web_file_find(const char *path);

#endif /* DYEREF_WEB_H */
