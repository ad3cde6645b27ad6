/* web server: libmicrohttpd on the caller's event loop (MHD_USE_EPOLL),
 * routes, limits and console sessions; the server-sent event stream is
 * sse.c's. */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include "web/internal.h"
#include "web/web.h"

#define COOKIE_NAME "dyeref_session"
/* From a connection's opening, or the end of its last answer, to its next
 * request in full (head and body): the idle timeout restarts on every
 * byte, so without this a client sending a byte every few seconds held
 * its connection as long as it liked. Ample for a 16 KiB request from a
 * phone on a poor Wi-Fi. */
#define REQUEST_DEADLINE_MS 10000
/* Connections from one address: a wall screen and a console there (a
 * browser opens up to 6 to a host), WEB_SSE_PER_CLIENT event streams, and
 * room to spare. */
#define PER_ADDRESS_DEFAULT 32

/* One open connection, for the request deadline. */
struct conn {
	struct conn *next, *prev;	/* in web_server.conns */
	struct MHD_Connection *mhd;	/* its connection */
	int64_t waiting_ms;		/* CLOCK_MONOTONIC ms since which a request is
					 * awaited; 0: it is being answered */
	bool cut;			/* shut down at the deadline, MHD to close it */
};

/* One request while its body arrives. */
struct request {
	char *body;		/* owned, NUL-terminated */
	size_t len;		/* bytes of body */
	int too_big;		/* body passed the limit: answer 413 */
};

static int64_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- Responses --------------------------------------------------------- */

void web_common_headers(struct MHD_Response *r, const char *type, int no_store)
{
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "X-Frame-Options", "DENY");
	MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
	/* Everything is served from here: no inline script, nothing from elsewhere. */
	MHD_add_response_header(r, "Content-Security-Policy",
				"default-src 'self'; img-src 'self' data:; style-src 'self'; "
				"script-src 'self'; connect-src 'self'; frame-ancestors 'none'");
	if (no_store)
		MHD_add_response_header(r, "Cache-Control", "no-store");
}

/* Sends body (taken: freed by MHD) with status. */
static enum MHD_Result send_owned(struct MHD_Connection *c, unsigned status, const char *type,
				  char *body, size_t len, const char *cookie)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	web_common_headers(r, type, 1);
	if (cookie)
		MHD_add_response_header(r, "Set-Cookie", cookie);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result send_static(struct MHD_Connection *c, const struct web_file *f)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(f->len, (void *)f->data, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	web_common_headers(r, f->type, 0);
	MHD_add_response_header(r, "Cache-Control", "no-cache");
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* A CSV download: text/csv, saved as filename. */
static enum MHD_Result send_csv(struct MHD_Connection *c, char *body, const char *filename)
{
	struct MHD_Response *r;
	enum MHD_Result ret;
	char disp[96];

	r = MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	web_common_headers(r, "text/csv; charset=utf-8", 1);
	snprintf(disp, sizeof(disp), "attachment; filename=\"%s\"", filename);
	MHD_add_response_header(r, "Content-Disposition", disp);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* {"error": why} with status. */
enum MHD_Result web_send_error(struct MHD_Connection *c, unsigned status, const char *why)
{
	json_t *o = json_pack("{s:s}", "error", why);
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	size_t n;

	json_decref(o);
	if (!text)
		return MHD_NO;
	n = strlen(text);
	return send_owned(c, status, "application/json", text, n, NULL);
}

/* A handler's answer: a body, or an errno mapped to a status. The message
 * is the handler's err, else where (the path) and the status's word. */
static enum MHD_Result send_result(struct MHD_Connection *c, int rc, char *body,
				   const char *type, const char *err, const char *where)
{
	unsigned status;
	const char *word;
	char why[300];

	if (rc == 0 && body)
		return send_owned(c, MHD_HTTP_OK, type, body, strlen(body), NULL);
	free(body);
	switch (rc) {
	case -ENOENT: status = MHD_HTTP_NOT_FOUND; word = "not found"; break;
	case -EINVAL: status = MHD_HTTP_BAD_REQUEST; word = "bad request"; break;
	case -EBUSY: status = MHD_HTTP_CONFLICT; word = "busy"; break;
	case -EPERM: status = MHD_HTTP_FORBIDDEN; word = "forbidden"; break;
	default: status = MHD_HTTP_INTERNAL_SERVER_ERROR; word = "internal error"; break;
	}
	if (err && *err)
		snprintf(why, sizeof(why), "%s", err);
	else if (where)
		snprintf(why, sizeof(why), "%.200s: %s", where, word);
	else
		snprintf(why, sizeof(why), "%s", word);
	return web_send_error(c, status, why);
}

/* ---- Client addresses -------------------------------------------------- */

/* An address as 16 bytes, IPv4 as ::ffff:a.b.c.d; false for neither. */
static bool addr16(const struct sockaddr *sa, unsigned char out[16])
{
	static const unsigned char v4_mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (sa && sa->sa_family == AF_INET) {
		memcpy(out, v4_mapped, sizeof(v4_mapped));
		memcpy(out + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		return true;
	}
	if (sa && sa->sa_family == AF_INET6) {
		memcpy(out, ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr, 16);
		return true;
	}
	return false;
}

/* The value of a request's last X-Forwarded-For header (a proxy that adds
 * a header of its own rather than appending puts it last). */
static enum MHD_Result last_forwarded(void *cls, enum MHD_ValueKind kind, const char *key,
				      const char *value)
{
	const char **last = cls;

	(void)kind;
	if (key && value && !strcasecmp(key, "X-Forwarded-For"))
		*last = value;
	return MHD_YES;
}

/* The key of a connection's client address, for the per-client limits:
 * the peer's, or when the peer is the trusted proxy, the address it put
 * last in X-Forwarded-For (the peer's still when that is missing or
 * malformed: a proxy that did not say counts as one client). */
void web_client_key(struct web_server *s, struct MHD_Connection *c,
		    unsigned char key[WEB_CLIENT_KEY])
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *peer = info ? info->client_addr : NULL;
	unsigned char a[16];
	const char *xff = NULL;
	struct sockaddr_storage fwd;

	if (s->have_proxy && addr16(peer, a) && !memcmp(a, s->proxy, sizeof(a))) {
		MHD_get_connection_values(c, MHD_HEADER_KIND, last_forwarded, &xff);
		if (xff && web_parse_forwarded_for(xff, strlen(xff), &fwd) == 0)
			peer = (const struct sockaddr *)&fwd;
	}
	web_auth_client_key(peer, key);
}

/* ---- Console ----------------------------------------------------------- */

/* Whether the request's Content-Type is the media type want (parameters
 * such as "; charset=utf-8" allowed, case ignored). */
static bool content_type_is(struct MHD_Connection *c, const char *want)
{
	const char *v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
	size_t n = strlen(want);

	if (!v)
		return false;
	while (*v == ' ' || *v == '\t')
		v++;
	if (strncasecmp(v, want, n))
		return false;
	v += n;
	while (*v == ' ' || *v == '\t')
		v++;
	return *v == '\0' || *v == ';';
}

const struct web_session *web_session_of(struct web_server *s, struct MHD_Connection *c)
{
	const char *cookie = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Cookie");
	char token[WEB_TOKEN_HEX + 1];

	if (!cookie ||
	    web_parse_cookie(cookie, strlen(cookie), COOKIE_NAME, token, sizeof(token)) < 0)
		return NULL;
	return web_auth_find(&s->auth, token, now_s());
}

/* An official's name as the match log keeps it: UTF-8 (jansson checks
 * it), no control characters. */
static bool official_name_ok(const char *name, size_t n)
{
	json_t *j = json_stringn(name, n);

	json_decref(j);
	if (!j || strlen(name) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return false;
	return true;
}

static enum MHD_Result console_login(struct web_server *s, struct MHD_Connection *c,
				     const struct request *rq)
{
	char pin[64], cookie[160], name[WEB_OFFICIAL_MAX];
	unsigned char key[WEB_CLIENT_KEY];
	const struct web_session *ss;
	json_t *o;
	char *text;
	int rc;

	/* A page on another site can make the official's browser post here
	 * (a form needs no CORS). Refused before the PIN is read, so it does
	 * not spend that address's tries. */
	if (web_cross_site(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-Fetch-Site"),
			   MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin"),
			   MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host")))
		return web_send_error(c, MHD_HTTP_FORBIDDEN, "cross-site login refused");
	if (!content_type_is(c, "application/x-www-form-urlencoded"))
		return web_send_error(c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
				      "Content-Type: expected application/x-www-form-urlencoded");
	rc = web_parse_form(rq->body ? rq->body : "", rq->len, "pin", pin, sizeof(pin));
	if (rc < 0)
		return web_send_error(c, MHD_HTTP_BAD_REQUEST, "body: expected pin=...");
	rc = web_parse_form(rq->body ? rq->body : "", rq->len, "name", name, sizeof(name));
	if (rc == -ENOENT)
		snprintf(name, sizeof(name), "official");
	else if (rc < 1 || !official_name_ok(name, (size_t)rc))
		return web_send_error(c, MHD_HTTP_BAD_REQUEST, "name: 1 to 32 bytes of printable "
				      "UTF-8 text (the official's name)");
	web_client_key(s, c, key);
	rc = web_auth_login(&s->auth, key, pin, now_s(), &ss);
	if (rc == -EAGAIN)
		return web_send_error(c, MHD_HTTP_TOO_MANY_REQUESTS, "too many wrong PINs: wait");
	if (rc == -EPERM)
		return web_send_error(c, MHD_HTTP_FORBIDDEN, "wrong PIN");
	if (rc)
		return web_send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "no session");
	web_auth_set_official(&s->auth, ss, name);
	snprintf(cookie, sizeof(cookie), COOKIE_NAME "=%s; Path=/; HttpOnly; SameSite=Strict; Max-Age=%d",
		 ss->token, WEB_SESSION_TTL_S);
	o = json_pack("{s:s,s:s}", "csrf", ss->csrf, "official", ss->official);
	text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (!text)
		return MHD_NO;
	return send_owned(c, MHD_HTTP_OK, "application/json", text, strlen(text), cookie);
}

/* A state-changing console request: a session and its CSRF token. */
static const struct web_session *console_guard(struct web_server *s, struct MHD_Connection *c)
{
	const struct web_session *ss = web_session_of(s, c);
	const char *csrf = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-CSRF-Token");

	if (!ss || !csrf || !web_auth_equal(csrf, ss->csrf))
		return NULL;
	return ss;
}

/* The official's question before a command is carried out: 409 with
 * "ask":true, so the page asks and sends it again, confirmed. */
static enum MHD_Result send_ask(struct MHD_Connection *c, const char *question)
{
	json_t *o = json_pack("{s:s,s:b}", "error", question, "ask", 1);
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;

	json_decref(o);
	return text ? send_owned(c, MHD_HTTP_CONFLICT, "application/json", text, strlen(text), NULL)
		    : MHD_NO;
}

/* {"ok":true,"result":R}: R is the handler's JSON text (taken), null
 * when it gave none. */
static enum MHD_Result send_ok(struct MHD_Connection *c, char *result)
{
	json_t *r = result ? json_loads(result, JSON_DECODE_ANY, NULL) : json_null();
	json_t *o = r ? json_pack("{s:b,s:o}", "ok", 1, "result", r) : NULL;
	char *text = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;

	free(result);
	json_decref(o);
	return text ? send_owned(c, MHD_HTTP_OK, "application/json", text, strlen(text), NULL)
		    : MHD_NO;
}

static enum MHD_Result console_command(struct web_server *s, struct MHD_Connection *c,
				       const struct web_session *ss, const struct request *rq)
{
	struct web_command *cmd = malloc(sizeof(*cmd));
	char names[BD_PLAYERS][BD_NAME_MAX], err[256] = "", *result = NULL;
	bool named;
	int rc;

	if (!cmd)
		return MHD_NO;
	/* Players by name as the match under way knows them, or by seat. */
	named = s->h.players && s->h.players(s->user, names) == 0;
	rc = web_parse_command(rq->body ? rq->body : "", rq->len, &s->house,
			       named ? (const char (*)[BD_NAME_MAX])names : NULL, cmd,
			       err, sizeof(err));
	if (rc == 0) {
		snprintf(cmd->official, sizeof(cmd->official), "%s", ss->official);
		rc = s->h.command ? s->h.command(s->user, cmd, &result, err, sizeof(err)) : -ENOENT;
	}
	free(cmd);
	if (rc == 0)
		return send_ok(c, result);
	free(result);
	if (rc == -EAGAIN && err[0])
		return send_ask(c, err);
	return send_result(c, rc, NULL, "application/json", err, "command");
}

/* ---- Routing ----------------------------------------------------------- */

/* "/api/matches/12/throws/3" style numbers: 1..10^9, digits only. Summed
 * in 64 bits: ten digits overflow a 32-bit long (Raspberry Pi OS armhf). */
static int parse_num(const char *p, const char **end, long *out)
{
	int64_t n = 0;
	const char *q = p;

	while (*q >= '0' && *q <= '9' && q - p < 10)
		n = n * 10 + (*q++ - '0');
	if (q == p || (*q >= '0' && *q <= '9') || n < 1 || n > 1000000000)
		return -EINVAL;
	*end = q;
	*out = (long)n;
	return 0;
}

/* A handler's JSON object (text, taken) with the session's "official"
 * added; NULL when it is not an object or memory ran out. */
static char *with_official(char *body, const struct web_session *ss)
{
	json_t *o = json_loads(body, 0, NULL);
	char *text = NULL;

	free(body);
	if (json_is_object(o) && !json_object_set_new(o, "official", json_string(ss->official)))
		text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6));
	json_decref(o);
	return text;
}

/* GET /api/house: every house rule a START takes, with the daemon's
 * default for a new match and the rule book's. */
static char *house_json(const struct web_server *s)
{
	struct bd_house book;
	size_t n;
	const struct web_house_rule *hr = web_house_rules(&n);
	json_t *rules = json_array(), *o;
	char *text;

	bd_house_defaults(&book);
	for (size_t i = 0; rules && i < n; i++) {
		json_t *r = json_pack("{s:s,s:s,s:o,s:o,s:s,s:s}", "key", hr[i].key, "type", hr[i].type,
				      "default", web_house_value(&s->house, hr[i].key),
				      "book", web_house_value(&book, hr[i].key),
				      "rule", hr[i].rule, "text", hr[i].text);

		if (r && !strcmp(hr[i].type, "enum"))
			json_object_set_new(r, "values", json_pack("[s,s]", "manual", "auto"));
		else if (r && !strcmp(hr[i].type, "int")) {
			json_object_set_new(r, "min", json_integer((json_int_t)hr[i].min));
			json_object_set_new(r, "max", json_integer((json_int_t)hr[i].max));
		} else if (r && !strcmp(hr[i].type, "number")) {
			json_object_set_new(r, "min", json_real(hr[i].min));
			json_object_set_new(r, "max", json_real(hr[i].max));
		}
		json_array_append_new(rules, r);
	}
	o = json_pack("{s:o}", "rules", rules);
	text = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;
	json_decref(o);
	return text;
}

static enum MHD_Result route_get(struct web_server *s, struct MHD_Connection *c, const char *url)
{
	const struct web_file *f;
	char *body = NULL;
	const char *p;
	long m, k;
	int rc;

	if (!strcmp(url, "/"))
		url = "/index.html";
	else if (!strcmp(url, "/console"))
		url = "/console.html";
	else if (!strcmp(url, "/rules"))
		url = "/rules.html";
	else if (!strncmp(url, "/replay/", 8) && !parse_num(url + 8, &p, &m) && !*p)
		url = "/replay.html";
	else if (!strcmp(url, "/matches") || !strcmp(url, "/players"))
		url = "/history.html";	/* history.js reads which from the path */
	else if (!strcmp(url, "/favicon.ico"))
		url = "/favicon.svg";
	else if (!strncmp(url, "/matches/", 9) && !parse_num(url + 9, &p, &m)) {
		if (!*p)
			url = "/history.html";
		else if (!strcmp(p, ".csv")) {
			char fn[48];

			rc = s->h.match_csv ? s->h.match_csv(s->user, m, &body) : -ENOENT;
			if (rc || !body)
				return send_result(c, rc ? rc : -ENOENT, body, "application/json", NULL, url);
			snprintf(fn, sizeof(fn), "match-%ld.csv", m);
			return send_csv(c, body, fn);
		}
	} else if (!strcmp(url, "/players.csv")) {
		rc = s->h.players_csv ? s->h.players_csv(s->user, &body) : -ENOENT;
		if (rc || !body)
			return send_result(c, rc ? rc : -ENOENT, body, "application/json", NULL, url);
		return send_csv(c, body, "players.csv");
	} else if (!strncmp(url, "/players/", 9) || !strncmp(url, "/api/players/", 13)) {
		bool api = url[1] == 'a';
		const char *seg = url + (api ? 13 : 9);
		char name[WEB_PLAYER_NAME_MAX];

		rc = web_parse_name(seg, strlen(seg), name, sizeof(name));
		if (rc)
			return web_send_error(c, MHD_HTTP_BAD_REQUEST,
					      rc == -E2BIG ? "player: name too long" : "player: not a name");
		rc = s->h.player_stats ? s->h.player_stats(s->user, name, &body) : -ENOENT;
		if (api || rc)
			return send_result(c, rc, body, "application/json", NULL, "player");
		/* The page for a player who is there, else a 404 like the API's. */
		free(body);
		body = NULL;
		url = "/history.html";
	}
	f = web_file_find(url);
	if (f)
		return send_static(c, f);

	if (!strcmp(url, "/api/state")) {
		rc = s->h.state ? s->h.state(s->user, &body) : -ENOENT;
		return send_result(c, rc, body, "application/json", NULL, url);
	}
	if (!strcmp(url, "/api/events"))
		return web_sse_open(s, c);
	if (!strcmp(url, "/api/house")) {
		body = house_json(s);
		return send_result(c, body ? 0 : -ENOMEM, body, "application/json", NULL, url);
	}
	if (!strcmp(url, "/api/players")) {
		rc = s->h.player_stats ? s->h.player_stats(s->user, NULL, &body) : -ENOENT;
		return send_result(c, rc, body, "application/json", NULL, url);
	}
	if (!strcmp(url, "/api/matches")) {
		const char *pg = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "page");
		const char *per = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "per");

		if (pg || per) {
			long np = 1, nper = 20;

			if ((pg && (parse_num(pg, &p, &np) || *p)) ||
			    (per && (parse_num(per, &p, &nper) || *p || nper > 100)))
				return web_send_error(c, MHD_HTTP_BAD_REQUEST,
						      "page: a number from 1, per: 1 to 100");
			rc = s->h.matches_page ? s->h.matches_page(s->user, np, nper, &body) : -ENOENT;
			return send_result(c, rc, body, "application/json", NULL, url);
		}
		rc = s->h.matches ? s->h.matches(s->user, &body) : -ENOENT;
		return send_result(c, rc, body, "application/json", NULL, url);
	}
	if (!strncmp(url, "/api/matches/", 13) && !parse_num(url + 13, &p, &m)) {
		if (!strcmp(p, "/log")) {
			rc = s->h.match_log ? s->h.match_log(s->user, m, &body) : -ENOENT;
			return send_result(c, rc, body, "application/x-ndjson", NULL, url);
		}
		if (!strcmp(p, "/throws")) {
			rc = s->h.throws ? s->h.throws(s->user, m, &body) : -ENOENT;
			return send_result(c, rc, body, "application/json", NULL, url);
		}
		if (!strcmp(p, "/sheet")) {
			rc = s->h.sheet ? s->h.sheet(s->user, m, &body) : -ENOENT;
			return send_result(c, rc, body, "application/json", NULL, url);
		}
		if (!strncmp(p, "/throws/", 8) && !parse_num(p + 8, &p, &k)) {
			long i;
			size_t len = 0;

			if (!*p) {
				rc = s->h.throw_detail ? s->h.throw_detail(s->user, m, k, &body) : -ENOENT;
				return send_result(c, rc, body, "application/json", NULL, url);
			}
			if (!strncmp(p, "/snapshots/", 11) && !parse_num(p + 11, &p, &i) &&
			    !strcmp(p, ".jpg")) {
				rc = s->h.snapshot ? s->h.snapshot(s->user, m, k, i, &body, &len) : -ENOENT;
				if (rc == 0 && body)
					return send_owned(c, MHD_HTTP_OK, "image/jpeg", body, len, NULL);
				return send_result(c, rc ? rc : -ENOENT, body, "image/jpeg", NULL, url);
			}
		}
	}
	if (!strcmp(url, "/console/api/status")) {
		const struct web_session *ss = web_session_of(s, c);

		if (!ss)
			return web_send_error(c, MHD_HTTP_FORBIDDEN, "not logged in");
		rc = s->h.console_status ? s->h.console_status(s->user, &body) : -ENOENT;
		if (rc == 0 && body)
			body = with_official(body, ss);
		return send_result(c, rc, body, "application/json", NULL, url);
	}
	if (!strcmp(url, "/console/session")) {
		const struct web_session *ss = web_session_of(s, c);
		json_t *o;
		char *text;

		if (!ss)
			return web_send_error(c, MHD_HTTP_FORBIDDEN, "not logged in");
		o = json_pack("{s:s,s:s}", "csrf", ss->csrf, "official", ss->official);
		text = o ? json_dumps(o, JSON_COMPACT) : NULL;
		json_decref(o);
		return text ? send_owned(c, MHD_HTTP_OK, "application/json", text, strlen(text), NULL)
			    : MHD_NO;
	}
	return web_send_error(c, MHD_HTTP_NOT_FOUND, "no such page");
}

static enum MHD_Result route_post(struct web_server *s, struct MHD_Connection *c, const char *url,
				  const struct request *rq)
{
	if (!strcmp(url, "/console/login"))
		return console_login(s, c, rq);
	if (!strcmp(url, "/console/logout")) {
		const struct web_session *ss = console_guard(s, c);
		char *ok;

		if (!ss)
			return web_send_error(c, MHD_HTTP_FORBIDDEN, "needs a console session and its CSRF token");
		web_auth_logout(&s->auth, ss->token);
		ok = strdup("{\"ok\":true}");
		return ok ? send_owned(c, MHD_HTTP_OK, "application/json", ok, strlen(ok),
				       COOKIE_NAME "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")
			  : MHD_NO;
	}
	if (!strcmp(url, "/console/api/command")) {
		const struct web_session *ss = console_guard(s, c);

		if (!ss)
			return web_send_error(c, MHD_HTTP_FORBIDDEN, "needs a console session and its CSRF token");
		if (!content_type_is(c, "application/json"))
			return web_send_error(c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
					      "Content-Type: expected application/json");
		return console_command(s, c, ss, rq);
	}
	return web_send_error(c, MHD_HTTP_NOT_FOUND, "no such endpoint");
}

/* ---- Connections and the request deadline ------------------------------ */

static struct conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return info ? info->socket_context : NULL;
}

/* Its request is in: the deadline stops while it is answered. */
static void conn_answering(struct MHD_Connection *c)
{
	struct conn *cn = conn_of(c);

	if (cn)
		cn->waiting_ms = 0;
}

/* MHD has no call to close a connection from outside a request; shutting
 * its socket down makes MHD's next read find the end and close it. */
static void conn_cut(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

	if (info)
		shutdown(info->connect_fd, SHUT_RDWR);
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct web_server *s = cls;
	struct conn *cn = *socket_context;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		cn = calloc(1, sizeof(*cn));
		if (!cn) {
			conn_cut(c);	/* no memory to keep its deadline */
			return;
		}
		cn->mhd = c;
		cn->waiting_ms = now_ms();
		cn->next = s->conns;
		if (s->conns)
			s->conns->prev = cn;
		s->conns = cn;
		*socket_context = cn;
		return;
	}
	if (!cn)
		return;
	if (cn->prev)
		cn->prev->next = cn->next;
	else
		s->conns = cn->next;
	if (cn->next)
		cn->next->prev = cn->prev;
	free(cn);
	*socket_context = NULL;
}

/* The milliseconds until the next connection's deadline (0: one is past
 * it), or -1 when none awaits a request; with cut, first shuts down those
 * past it. */
static int64_t conns_deadline(struct web_server *s, bool cut)
{
	int64_t now = now_ms(), next = -1;

	for (struct conn *cn = s->conns; cn; cn = cn->next) {
		int64_t left;

		if (!cn->waiting_ms || cn->cut)
			continue;
		left = cn->waiting_ms + REQUEST_DEADLINE_MS - now;
		if (left <= 0 && cut) {
			conn_cut(cn->mhd);
			cn->cut = true;
			continue;
		}
		if (left < 0)
			left = 0;
		if (next < 0 || left < next)
			next = left;
	}
	return next;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct web_server *s = cls;
	struct request *rq = *con_cls;
	int is_get = !strcmp(method, MHD_HTTP_METHOD_GET) || !strcmp(method, MHD_HTTP_METHOD_HEAD);

	(void)version;
	if (!rq) {
		rq = calloc(1, sizeof(*rq));
		if (!rq)
			return MHD_NO;
		*con_cls = rq;
		return MHD_YES;
	}
	if (*upload_size) {
		if (!rq->too_big && rq->len + *upload_size <= s->cfg.max_body) {
			char *grown = realloc(rq->body, rq->len + *upload_size + 1);

			if (!grown)
				return MHD_NO;
			rq->body = grown;
			memcpy(rq->body + rq->len, upload, *upload_size);
			rq->len += *upload_size;
			rq->body[rq->len] = '\0';
		} else {
			rq->too_big = 1;	/* keep reading, answer 413 at the end */
		}
		*upload_size = 0;
		return MHD_YES;
	}
	conn_answering(c);
	if (rq->too_big)
		return web_send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, "request body too large");
	if (url[0] != '/' || strstr(url, ".."))
		return web_send_error(c, MHD_HTTP_BAD_REQUEST, "bad path");
	if (is_get)
		return route_get(s, c, url);
	if (!strcmp(method, MHD_HTTP_METHOD_POST))
		return route_post(s, c, url, rq);
	return web_send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed");
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct request *rq = *con_cls;
	struct conn *cn = conn_of(c);

	(void)cls;
	(void)toe;
	/* Kept alive: the next request has the same time to come in full. */
	if (cn)
		cn->waiting_ms = now_ms();
	if (rq) {
		free(rq->body);
		free(rq);
		*con_cls = NULL;
	}
}

/* ---- Life cycle -------------------------------------------------------- */

/* Our paths are plain ASCII: leaving %-escapes undecoded means "/%00" or
 * "/%2e%2e/" is just an unknown path (404), never a NUL or a dot-dot. */
static size_t keep_escapes(void *cls, struct MHD_Connection *c, char *s)
{
	(void)cls;
	(void)c;
	return strlen(s);
}

struct web_server *web_server_new(const struct web_config *cfg, const struct web_handlers *h,
				  void *user, char *err, size_t errlen)
{
	struct web_server *s = calloc(1, sizeof(*s));
	struct sockaddr_storage ss;
	socklen_t sslen;
	unsigned flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
	const union MHD_DaemonInfo *info;
	int e;

	if (!s) {
		snprintf(err, errlen, "web: out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	s->h = *h;
	s->user = user;
	if (!s->cfg.max_connections)
		s->cfg.max_connections = 512;
	/* Behind a trusted proxy every connection is the proxy's: the limit
	 * would be shared by all its clients (the proxy holds slow ones). */
	if (!s->cfg.max_per_ip)
		s->cfg.max_per_ip = cfg->trusted_proxy ? s->cfg.max_connections : PER_ADDRESS_DEFAULT;
	if (!s->cfg.timeout_s)
		s->cfg.timeout_s = 20;
	if (!s->cfg.max_body)
		s->cfg.max_body = 16 * 1024;
	if (!s->cfg.max_request)
		s->cfg.max_request = 16 * 1024;
	s->bind = strdup(cfg->bind ? cfg->bind : "127.0.0.1");
	if (!s->bind || web_auth_set_pin(&s->auth, cfg->pin)) {
		snprintf(err, errlen, "web: out of memory");
		e = ENOMEM;
		goto free_server;
	}
	s->cfg.bind = s->bind;
	s->cfg.pin = NULL;
	s->cfg.trusted_proxy = NULL;
	if (cfg->trusted_proxy) {
		struct sockaddr_storage p;

		if (web_parse_forwarded_for(cfg->trusted_proxy, strlen(cfg->trusted_proxy), &p) ||
		    strchr(cfg->trusted_proxy, ',') || !addr16((struct sockaddr *)&p, s->proxy)) {
			snprintf(err, errlen, "web: trusted_proxy '%.60s' is not an IPv4 or IPv6 address",
				 cfg->trusted_proxy);
			e = EINVAL;
			goto free_server;
		}
		s->have_proxy = true;
	}
	s->cfg.house = NULL;
	if (cfg->house)
		s->house = *cfg->house;
	else
		bd_house_defaults(&s->house);
	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET, s->bind, &((struct sockaddr_in *)&ss)->sin_addr) == 1) {
		((struct sockaddr_in *)&ss)->sin_family = AF_INET;
		((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)cfg->port);
		sslen = sizeof(struct sockaddr_in);
	} else if (inet_pton(AF_INET6, s->bind, &((struct sockaddr_in6 *)&ss)->sin6_addr) == 1) {
		((struct sockaddr_in6 *)&ss)->sin6_family = AF_INET6;
		((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)cfg->port);
		sslen = sizeof(struct sockaddr_in6);
		flags |= MHD_USE_IPv6;
	} else {
		snprintf(err, errlen, "web: bind '%s' is not an IPv4 or IPv6 address", s->bind);
		e = EINVAL;
		goto free_server;
	}
	(void)sslen;
	s->mhd = MHD_start_daemon(flags, (uint16_t)cfg->port, NULL, NULL, on_request, s,
				  MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
				  MHD_OPTION_CONNECTION_LIMIT, (unsigned)s->cfg.max_connections,
				  MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)s->cfg.max_per_ip,
				  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)s->cfg.timeout_s,
				  MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)s->cfg.max_request,
				  MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
				  MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
				  MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)128,
				  /* Host required, bad header lines refused: 400. */
				  MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
				  MHD_OPTION_UNESCAPE_CALLBACK, keep_escapes, NULL,
				  MHD_OPTION_END);
	if (!s->mhd) {
		e = errno ? errno : EADDRINUSE;
		snprintf(err, errlen, "web: cannot listen on %s port %u: %s", s->bind, cfg->port,
			 strerror(e));
		goto free_server;
	}
	info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_EPOLL_FD);
	s->epoll_fd = info ? info->epoll_fd : -1;
	info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT);
	s->port = info ? info->port : cfg->port;
	if (s->epoll_fd < 0) {
		snprintf(err, errlen, "web: libmicrohttpd gave no epoll fd");
		e = ENOTSUP;
		goto stop_daemon;
	}
	return s;

stop_daemon:
	MHD_stop_daemon(s->mhd);
free_server:
	web_auth_free(&s->auth);
	free(s->bind);
	free(s);
	errno = e;
	return NULL;
}

void web_server_free(struct web_server *s)
{
	if (!s)
		return;
	/* Suspended connections must be resumed before MHD stops. */
	for (struct sse_client *cl = s->clients; cl; cl = cl->next) {
		cl->closing = 1;
		web_sse_wake(cl);
	}
	MHD_run(s->mhd);
	for (struct sse_client *cl = s->clients; cl; cl = cl->next)
		web_sse_wake(cl);
	MHD_stop_daemon(s->mhd);
	web_auth_free(&s->auth);
	free(s->bind);
	free(s);
}

unsigned web_server_port(const struct web_server *s)
{
	return s->port;
}

int web_server_fd(const struct web_server *s)
{
	return s->epoll_fd;
}

int64_t web_server_timeout_ms(struct web_server *s)
{
	MHD_UNSIGNED_LONG_LONG ms;
	int64_t deadline = conns_deadline(s, false);

	if (s->resumed)
		return 0;
	if (MHD_get_timeout(s->mhd, &ms) != MHD_YES)
		return deadline;
	if (ms > INT64_MAX)
		ms = INT64_MAX;
	return deadline >= 0 && deadline < (int64_t)ms ? deadline : (int64_t)ms;
}

int web_server_process(struct web_server *s)
{
	s->resumed = 0;
	conns_deadline(s, true);
	return MHD_run(s->mhd) == MHD_YES ? 0 : -EIO;
}

void web_server_set_house(struct web_server *s, const struct bd_house *house)
{
	s->house = *house;
}

int web_server_set_pin(struct web_server *s, const char *pin)
{
	return web_auth_set_pin(&s->auth, pin);
}
