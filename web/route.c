/* web routes: the answers (JSON, CSV, the static pages), the console's
 * login, logout, session and command, and the GET and POST routing that
 * server.c's request callback hands a complete request to. */
#include <errno.h>
#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "web/internal.h"
#include "web/web.h"

#define COOKIE_NAME "dyeref_session"
#define DEVICE_COOKIE "dyeref_device"	/* a browser that has logged in (web_auth_login) */

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

/* Sends body (taken: freed by MHD) with status, and with the headers
 * extra names (name, value pairs ending in NULL; may be NULL). */
static enum MHD_Result send_with(struct MHD_Connection *c, unsigned status, const char *type,
				 char *body, size_t len, const char *const *extra)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	web_common_headers(r, type, 1);
	for (size_t i = 0; extra && extra[i]; i += 2)
		MHD_add_response_header(r, extra[i], extra[i + 1]);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* send_with() and one Set-Cookie (NULL: none). */
static enum MHD_Result send_owned(struct MHD_Connection *c, unsigned status, const char *type,
				  char *body, size_t len, const char *cookie)
{
	const char *extra[] = { "Set-Cookie", cookie, NULL };

	return send_with(c, status, type, body, len, cookie ? extra : NULL);
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

/* {"error": why} with status and the headers extra (send_with's). */
static enum MHD_Result send_error_with(struct MHD_Connection *c, unsigned status, const char *why,
				       const char *const *extra)
{
	json_t *o = json_pack("{s:s}", "error", why);
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	size_t n;

	json_decref(o);
	if (!text)
		return MHD_NO;
	n = strlen(text);
	return send_with(c, status, "application/json", text, n, extra);
}

enum MHD_Result web_send_error(struct MHD_Connection *c, unsigned status, const char *why)
{
	return send_error_with(c, status, why, NULL);
}

enum MHD_Result web_send_error_close(struct MHD_Connection *c, unsigned status, const char *why)
{
	static const char *const close_it[] = { "Connection", "close", NULL };

	return send_error_with(c, status, why, close_it);
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
	if (rc == -EAGAIN) {	/* a handler doing its work in slices (history) */
		static const char *const retry[] = { "Retry-After", "1", NULL };

		snprintf(why, sizeof(why), "%.200s: still reading the stored matches: try again", where ? where : "");
		return send_error_with(c, MHD_HTTP_SERVICE_UNAVAILABLE, why, retry);
	}
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
	return web_auth_find(&s->auth, token, web_now_ms(s) / 1000);
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
	char pin[64], cookie[160], name[WEB_OFFICIAL_MAX], device[WEB_DEVICE_COOKIE_HEX + 1];
	char device_out[WEB_DEVICE_COOKIE_HEX + 1], device_cookie[200];
	const char *jar = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Cookie");
	unsigned char key[WEB_CLIENT_KEY];
	const struct web_session *ss;
	json_t *o;
	char *text;
	int rc;

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
	if (!jar || web_parse_cookie(jar, strlen(jar), DEVICE_COOKIE, device, sizeof(device)) < 0)
		device[0] = '\0';
	rc = web_auth_login(&s->auth, key, device[0] ? device : NULL, pin, web_now_ms(s) / 1000, &ss,
			    device_out);
	if (rc == -EAGAIN)
		return web_send_error(c, MHD_HTTP_TOO_MANY_REQUESTS, "too many wrong PINs: wait");
	if (rc == -EPERM)
		return web_send_error(c, MHD_HTTP_FORBIDDEN, "wrong PIN");
	if (rc)
		return web_send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "no session");
	web_auth_set_official(&s->auth, ss, name);
	snprintf(cookie, sizeof(cookie), COOKIE_NAME "=%s; Path=/; HttpOnly; SameSite=Strict; Max-Age=%d",
		 ss->token, WEB_SESSION_TTL_S);
	/* Sent back to the login only: it says this browser once had the PIN,
	 * so others' guessing never holds it back. */
	snprintf(device_cookie, sizeof(device_cookie),
		 DEVICE_COOKIE "=%s; Path=/console/login; HttpOnly; SameSite=Strict; Max-Age=%d",
		 device_out, WEB_DEVICE_TTL_S);
	o = json_pack("{s:s,s:s}", "csrf", ss->csrf, "official", ss->official);
	text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (!text)
		return MHD_NO;
	return send_with(c, MHD_HTTP_OK, "application/json", text, strlen(text),
			 (const char *const[]){ "Set-Cookie", cookie, "Set-Cookie", device_cookie, NULL });
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

/* A number of up to `digits` digits alone, 1..max, summed in 64 bits (ten
 * digits overflow a 32-bit long: Raspberry Pi OS armhf); *end after it. */
static int parse_digits(const char *p, int digits, int64_t max, const char **end, int64_t *out)
{
	int64_t n = 0;
	const char *q = p;

	while (*q >= '0' && *q <= '9' && q - p < digits)
		n = n * 10 + (*q++ - '0');
	if (q == p || (*q >= '0' && *q <= '9') || n < 1 || n > max)
		return -EINVAL;
	*end = q;
	*out = n;
	return 0;
}

/* "/api/matches/12/throws/3" style numbers: 1..10^9. */
static int parse_num(const char *p, const char **end, long *out)
{
	int64_t n;

	if (parse_digits(p, 10, 1000000000, end, &n))
		return -EINVAL;
	*out = (long)n;
	return 0;
}

/* A row id in the database, the whole of p: 1 to 10^15 (an event log
 * grows for years; a snapshot's id is the throw detail's "id"). */
static int parse_id(const char *p, int64_t *out)
{
	const char *end;

	return parse_digits(p, 16, 1000000000000000LL, &end, out) || *end ? -EINVAL : 0;
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

enum MHD_Result web_route_get(struct web_server *s, struct MHD_Connection *c, const char *url)
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
		/* Still reading (-EAGAIN): the page, whose script asks again. */
		if (api || (rc && rc != -EAGAIN))
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
				const char *sid = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "id");
				int64_t id = 0;

				if (sid && parse_id(sid, &id))
					return web_send_error(c, MHD_HTTP_BAD_REQUEST,
							      "id: a snapshot's id, a number from 1");
				rc = s->h.snapshot ? s->h.snapshot(s->user, m, k, i, id, &body, &len)
						   : -ENOENT;
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

enum MHD_Result web_route_post(struct web_server *s, struct MHD_Connection *c, const char *url,
			       const struct request *rq)
{
	/* A page on another site can make the official's browser post here
	 * (a form needs no CORS), with the cookie when SameSite is not kept.
	 * Refused before anything is read: a login's PIN does not spend that
	 * address's tries, a command's token is not even compared. */
	if (!strncmp(url, "/console/", 9) && web_request_cross_site(c))
		return web_send_error(c, MHD_HTTP_FORBIDDEN, !strcmp(url, "/console/login")
				      ? "cross-site login refused" : "cross-site request refused");
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
