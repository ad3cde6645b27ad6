/* web parsers: form bodies, cookies, X-Forwarded-For, a request's origin
 * and console commands, on plain bytes. */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "web/web.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decodes one form value (+ is a space, %XX a byte) into out. */
static int form_decode(const char *v, size_t n, char *out, size_t outlen)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)v[i];

		if (c == '+') {
			c = ' ';
		} else if (c == '%') {
			int hi, lo;

			if (i + 2 >= n)
				return -EINVAL;
			hi = hexval(v[i + 1]);
			lo = hexval(v[i + 2]);
			if (hi < 0 || lo < 0)
				return -EINVAL;
			c = hi * 16 + lo;
			i += 2;
		}
		if (c == 0)
			return -EINVAL;	/* a NUL would cut the value short unseen */
		if (o + 1 >= outlen)
			return -E2BIG;
		out[o++] = (char)c;
	}
	if (outlen == 0)
		return -E2BIG;
	out[o] = '\0';
	return (int)o;
}

int web_parse_form(const char *body, size_t len, const char *name, char *out, size_t outlen)
{
	size_t nlen = strlen(name);
	size_t i = 0;

	while (i < len) {
		size_t end = i, eq;

		while (end < len && body[end] != '&')
			end++;
		eq = i;
		while (eq < end && body[eq] != '=')
			eq++;
		if (memchr(body + i, '\0', end - i))
			return -EINVAL;
		if (eq - i == nlen && !memcmp(body + i, name, nlen)) {
			if (eq == end)
				return form_decode("", 0, out, outlen);
			return form_decode(body + eq + 1, end - eq - 1, out, outlen);
		}
		i = end + 1;
	}
	return -ENOENT;
}

int web_parse_forwarded_for(const char *header, size_t len, struct sockaddr_storage *out)
{
	char ip[INET6_ADDRSTRLEN];
	size_t b, e = len;

	memset(out, 0, sizeof(*out));
	/* Only the last entry: the trusted proxy wrote it; the ones before it
	 * are whatever the client sent, and must not decide anything (nor,
	 * being malformed, make the client's requests count as the proxy's). */
	b = len;
	while (b > 0 && header[b - 1] != ',')
		b--;
	while (b < e && (header[b] == ' ' || header[b] == '\t'))
		b++;
	while (e > b && (header[e - 1] == ' ' || header[e - 1] == '\t'))
		e--;
	if (e == b || e - b >= sizeof(ip))
		return -EINVAL;
	memcpy(ip, header + b, e - b);
	ip[e - b] = '\0';
	/* inet_pton takes bare literals only: no port, brackets, zone or NUL. */
	if (memchr(header + b, '\0', e - b) == NULL) {
		if (inet_pton(AF_INET, ip, &((struct sockaddr_in *)out)->sin_addr) == 1) {
			out->ss_family = AF_INET;
			return 0;
		}
		if (inet_pton(AF_INET6, ip, &((struct sockaddr_in6 *)out)->sin6_addr) == 1) {
			out->ss_family = AF_INET6;
			return 0;
		}
	}
	memset(out, 0, sizeof(*out));
	return -EINVAL;
}

bool web_cross_site(const char *sec_fetch_site, const char *origin, const char *host)
{
	static const char *const schemes[] = { "http://", "https://" };

	/* "same-site" is refused too: another port or subdomain of this host
	 * is another program, not the console. */
	if (sec_fetch_site)
		return strcmp(sec_fetch_site, "same-origin") && strcmp(sec_fetch_site, "none");
	if (!origin)
		return false;
	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
		size_t n = strlen(schemes[i]);

		if (!strncasecmp(origin, schemes[i], n))
			return !host || strcasecmp(origin + n, host);
	}
	return true;
}

int web_parse_cookie(const char *header, size_t len, const char *name, char *out, size_t outlen)
{
	size_t nlen = strlen(name);
	size_t i = 0;

	while (i < len) {
		size_t end = i, eq, vs, ve;

		while (i < len && (header[i] == ' ' || header[i] == '\t'))
			i++;
		end = i;
		while (end < len && header[end] != ';')
			end++;
		if (memchr(header + i, '\0', end - i))
			return -EINVAL;
		eq = i;
		while (eq < end && header[eq] != '=')
			eq++;
		if (eq < end && eq - i == nlen && !memcmp(header + i, name, nlen)) {
			vs = eq + 1;
			ve = end;
			while (ve > vs && (header[ve - 1] == ' ' || header[ve - 1] == '\t'))
				ve--;
			if (ve - vs + 1 > outlen)
				return -E2BIG;
			memcpy(out, header + vs, ve - vs);
			out[ve - vs] = '\0';
			return (int)(ve - vs);
		}
		i = end + 1;
	}
	return -ENOENT;
}

static const char *const slots[BD_PLAYERS] = { "a1", "a2", "b1", "b2" };

const char *web_slot_name(int player)
{
	if (player < 0 || player >= BD_PLAYERS)
		return "";
	return slots[player];
}

/* Where a name is given: the seats, or what the match calls its players. */
static void players_hint(const char (*names)[BD_NAME_MAX], char *out, size_t outlen)
{
	size_t o = 0;

	out[0] = '\0';
	for (int p = 0; names && p < BD_PLAYERS && o < outlen; p++)
		if (names[p][0] && strcmp(names[p], slots[p]))
			o += (size_t)snprintf(out + o, outlen - o, "%.20s, ", names[p]);
	if (o < outlen)
		snprintf(out + o, outlen - o, "a1, a2, b1 or b2");
}

/* A player given as a slot ("a1"), a name from names (exact, else
 * case-insensitive when only one player matches), or an index 0..3. */
static int player_of(const json_t *v, const char (*names)[BD_NAME_MAX], const char *field,
		     int *player, char *err, size_t errlen)
{
	char hint[160];

	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);

		if (i >= 0 && i < BD_PLAYERS) {
			*player = (int)i;
			return 0;
		}
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		int found = BD_NOBODY, alike = 0;

		for (int p = 0; p < BD_PLAYERS; p++)
			if (!strcmp(s, slots[p])) {
				*player = p;
				return 0;
			}
		for (int p = 0; names && p < BD_PLAYERS; p++)
			if (names[p][0] && !strcmp(s, names[p])) {
				*player = p;
				return 0;
			}
		for (int p = 0; names && p < BD_PLAYERS; p++)
			if (names[p][0] && !strcasecmp(s, names[p])) {
				found = p;
				alike++;
			}
		if (alike == 1) {
			*player = found;
			return 0;
		}
		if (alike > 1) {
			snprintf(err, errlen, "%s: '%.32s' fits %d players: give the seat (a1..b2)",
				 field, s, alike);
			return -EINVAL;
		}
	}
	players_hint(names, hint, sizeof(hint));
	snprintf(err, errlen, "%s: not a player (%s)", field, hint);
	return -EINVAL;
}

static int get_bool(const json_t *o, const char *key, bool *out, char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, key);

	if (!v)
		return 0;
	if (!json_is_boolean(v)) {
		snprintf(err, errlen, "%s: expected true or false", key);
		return -EINVAL;
	}
	*out = json_is_true(v);
	return 0;
}

static int get_number(const json_t *o, const char *key, double min, double max, bool *given,
		      double *out, char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, key);

	if (!v)
		return 0;
	if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
	    json_number_value(v) < min || json_number_value(v) > max) {
		snprintf(err, errlen, "%s: expected a number in %g..%g", key, min, max);
		return -EINVAL;
	}
	*out = json_number_value(v);
	if (given)
		*given = true;
	return 0;
}

static int get_string(const json_t *o, const char *key, char *out, size_t outlen,
		      char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, key);

	if (!v)
		return 0;
	if (!json_is_string(v) || json_string_length(v) + 1 > outlen ||
	    strlen(json_string_value(v)) != json_string_length(v)) {
		snprintf(err, errlen, "%s: expected a string of at most %zu bytes", key, outlen - 1);
		return -EINVAL;
	}
	memcpy(out, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

static const char *const kinds[] = {
	[BD_EV_TABLE] = "table", [BD_EV_CUP] = "cup", [BD_EV_MINE] = "mine",
	[BD_EV_FLOOR] = "floor", [BD_EV_REST] = "rest", [BD_EV_CATCH] = "catch",
	[BD_EV_KICK] = "kick", [BD_EV_LOW_CALL] = "low_call", [BD_EV_RETOSS] = "retoss",
};

int web_parse_event(const json_t *o, const char (*names)[BD_NAME_MAX],
		    struct bd_event *ev, char *err, size_t errlen)
{
	const json_t *at = json_object_get(o, "at"), *v;
	int rc = -EINVAL;
	double face = 0, hands = 1;

	memset(ev, 0, sizeof(*ev));
	ev->player = BD_NOBODY;
	ev->confidence = 1.0;
	ev->hands = 1;
	if (!json_is_object(o)) {
		snprintf(err, errlen, "event: expected an object");
		return -EINVAL;
	}
	if (!json_is_string(at)) {
		snprintf(err, errlen, "at: missing or not a string");
		return -EINVAL;
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (!strcmp(json_string_value(at), kinds[k])) {
			ev->kind = (enum bd_ev_kind)k;
			rc = 0;
		}
	if (rc) {
		snprintf(err, errlen, "at: unknown kind '%.40s'", json_string_value(at));
		return rc;
	}
	switch (ev->kind) {
	case BD_EV_TABLE:
		v = json_object_get(o, "half");
		if (!json_is_string(v)) {
			snprintf(err, errlen, "half: expected A, B or line");
			return -EINVAL;
		}
		if (!strcmp(json_string_value(v), "A"))
			ev->half = BD_HALF_A;
		else if (!strcmp(json_string_value(v), "B"))
			ev->half = BD_HALF_B;
		else if (!strcmp(json_string_value(v), "line"))
			ev->half = BD_HALF_LINE;
		else {
			snprintf(err, errlen, "half: expected A, B or line");
			return -EINVAL;
		}
		if (json_object_get(o, "x") || json_object_get(o, "y")) {
			if (!json_object_get(o, "x") || !json_object_get(o, "y")) {
				snprintf(err, errlen, "x, y: give both or neither");
				return -EINVAL;
			}
			/* On the table top, as the match log holds it: a point
			 * off it would be stored and then refused by every
			 * reading of the match (export, end, correct). */
			struct bd_table tb;

			bd_table_defaults(&tb);
			if (get_number(o, "x", 0, tb.length_m, NULL, &ev->x, err, errlen) ||
			    get_number(o, "y", 0, tb.width_m, NULL, &ev->y, err, errlen))
				return -EINVAL;
			ev->has_xy = true;
		}
		break;
	case BD_EV_CUP:
		v = json_object_get(o, "owner");
		if (player_of(v, names, "owner", &ev->player, err, errlen) ||
		    get_bool(o, "sink", &ev->sink, err, errlen) ||
		    get_bool(o, "popout", &ev->popout, err, errlen))
			return -EINVAL;
		break;
	case BD_EV_REST:
		if (!json_object_get(o, "face") ||
		    get_number(o, "face", 1, 6, NULL, &face, err, errlen) || face != floor(face)) {
			snprintf(err, errlen, "face: expected a whole number 1..6");
			return -EINVAL;
		}
		ev->face = (int)face;
		break;
	case BD_EV_CATCH:
		if (player_of(json_object_get(o, "by"), names, "by", &ev->player, err, errlen) ||
		    get_number(o, "hands", 1, 2, NULL, &hands, err, errlen) ||
		    get_bool(o, "trapped", &ev->trapped, err, errlen) ||
		    get_bool(o, "over_table", &ev->over_table, err, errlen))
			return -EINVAL;
		if (hands != floor(hands)) {
			snprintf(err, errlen, "hands: expected 1 or 2");
			return -EINVAL;
		}
		ev->hands = (int)hands;
		break;
	case BD_EV_KICK:
		if (player_of(json_object_get(o, "by"), names, "by", &ev->player, err, errlen))
			return -EINVAL;
		snprintf(ev->part, sizeof(ev->part), "foot");
		if (get_string(o, "part", ev->part, sizeof(ev->part), err, errlen))
			return -EINVAL;
		break;
	case BD_EV_LOW_CALL:
		v = json_object_get(o, "by");
		if (v && player_of(v, names, "by", &ev->player, err, errlen))
			return -EINVAL;
		break;
	case BD_EV_MINE:
	case BD_EV_FLOOR:
	case BD_EV_RETOSS:
		break;
	}
	if (get_string(o, "source", ev->source, sizeof(ev->source), err, errlen) ||
	    get_number(o, "confidence", 0, 1, &ev->has_confidence, &ev->confidence, err, errlen))
		return -EINVAL;
	return 0;
}

static int parse_events(const json_t *arr, const char (*names)[BD_NAME_MAX],
			struct web_command *cmd, char *err, size_t errlen)
{
	size_t i;
	const json_t *e;
	char why[160];

	if (!json_is_array(arr)) {
		snprintf(err, errlen, "events: expected an array");
		return -EINVAL;
	}
	if (json_array_size(arr) > BD_MAX_EVENTS) {
		snprintf(err, errlen, "events: more than %d", BD_MAX_EVENTS);
		return -EINVAL;
	}
	json_array_foreach(arr, i, e) {
		if (web_parse_event(e, names, &cmd->events[i], why, sizeof(why))) {
			snprintf(err, errlen, "events[%zu].%s", i, why);
			return -EINVAL;
		}
	}
	cmd->n_events = json_array_size(arr);
	return 0;
}

/* Every field of struct bd_house, as START's "house" and GET /api/house
 * name them; the ranges are parse_house()'s. */
static const struct web_house_rule house_rules[] = {
	{ "target_points", "int", 1, 99, "BD-W1", "Points to win the game" },
	{ "win_by", "int", 1, 10, "BD-W1", "Lead the winner needs at the end" },
	{ "kill_every", "int", 0, 99, "BD-W2",
	  "Kill n' fill each time a score passes a multiple of this (0: never)" },
	{ "min_toss_height_m", "number", 0, 20, "BD-S7", "Lowest legal toss, metres" },
	{ "low_call", "enum", 0, 0, "BD-P5",
	  "Who calls a throw too low: the defenders (manual) or the referee from the measured height (auto)" },
	{ "illegal_catch_counts_as_floor", "bool", 0, 1, "BD-P4a",
	  "A two-handed or trapped catch scores as if the die reached the floor" },
	{ "fifa_cannot_end_game", "bool", 0, 1, "BD-K2a",
	  "Points from a kick cannot end the game" },
	{ "popout_is_sink", "bool", 0, 1, "BD-R1a",
	  "A die that bounces back out of a cup counts as a sink" },
	{ "mine_voids_points", "bool", 0, 1, "BD-O1a",
	  "A throw that hits the mine scores nothing" },
	{ "review_below", "number", 0, 1, "",
	  "Ask an official when the deciding evidence is less sure than this (0-1)" },
};

const struct web_house_rule *web_house_rules(size_t *n)
{
	*n = sizeof(house_rules) / sizeof(house_rules[0]);
	return house_rules;
}

json_t *web_house_value(const struct bd_house *h, const char *key)
{
	if (!strcmp(key, "target_points"))
		return json_integer(h->target_points);
	if (!strcmp(key, "win_by"))
		return json_integer(h->win_by);
	if (!strcmp(key, "kill_every"))
		return json_integer(h->kill_every);
	if (!strcmp(key, "min_toss_height_m"))
		return json_real(h->min_toss_height_m);
	if (!strcmp(key, "low_call"))
		return json_string(h->low_call == BD_LOW_AUTO ? "auto" : "manual");
	if (!strcmp(key, "illegal_catch_counts_as_floor"))
		return json_boolean(h->illegal_catch_counts_as_floor);
	if (!strcmp(key, "fifa_cannot_end_game"))
		return json_boolean(h->fifa_cannot_end_game);
	if (!strcmp(key, "popout_is_sink"))
		return json_boolean(h->popout_is_sink);
	if (!strcmp(key, "mine_voids_points"))
		return json_boolean(h->mine_voids_points);
	if (!strcmp(key, "review_below"))
		return json_real(h->review_below);
	return NULL;
}

static int parse_house(const json_t *h, struct bd_house *house, char *err, size_t errlen)
{
	double target = house->target_points, win_by = house->win_by, kill = house->kill_every;
	const json_t *v;
	const char *key;

	if (!json_is_object(h)) {
		snprintf(err, errlen, "house: expected an object");
		return -EINVAL;
	}
	json_object_foreach((json_t *)h, key, v) {
		bool ok = false;

		(void)v;
		for (size_t k = 0; k < sizeof(house_rules) / sizeof(house_rules[0]); k++)
			ok |= !strcmp(key, house_rules[k].key);
		if (!ok) {
			snprintf(err, errlen, "house.%.40s: unknown house rule", key);
			return -EINVAL;
		}
	}
	if (get_number(h, "target_points", 1, 99, NULL, &target, err, errlen) ||
	    get_number(h, "win_by", 1, 10, NULL, &win_by, err, errlen) ||
	    get_number(h, "kill_every", 0, 99, NULL, &kill, err, errlen) ||
	    get_number(h, "min_toss_height_m", 0, 20, NULL, &house->min_toss_height_m, err, errlen) ||
	    get_number(h, "review_below", 0, 1, NULL, &house->review_below, err, errlen) ||
	    get_bool(h, "illegal_catch_counts_as_floor", &house->illegal_catch_counts_as_floor,
		     err, errlen) ||
	    get_bool(h, "fifa_cannot_end_game", &house->fifa_cannot_end_game, err, errlen) ||
	    get_bool(h, "popout_is_sink", &house->popout_is_sink, err, errlen) ||
	    get_bool(h, "mine_voids_points", &house->mine_voids_points, err, errlen))
		goto bad;
	if (target != floor(target) || win_by != floor(win_by) || kill != floor(kill)) {
		snprintf(err, errlen, "house: target_points, win_by, kill_every are whole numbers");
		return -EINVAL;
	}
	house->target_points = (int)target;
	house->win_by = (int)win_by;
	house->kill_every = (int)kill;
	v = json_object_get(h, "low_call");
	if (v) {
		if (json_is_string(v) && !strcmp(json_string_value(v), "manual"))
			house->low_call = BD_LOW_MANUAL;
		else if (json_is_string(v) && !strcmp(json_string_value(v), "auto"))
			house->low_call = BD_LOW_AUTO;
		else {
			snprintf(err, errlen, "house.low_call: expected manual or auto");
			return -EINVAL;
		}
	}
	return 0;
bad:
	{
		char why[160];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "house.%s", why);
	}
	return -EINVAL;
}

/* Names go into the match line, whose codec refuses NULs and control
 * characters: refuse them here, or the match could not be read back. */
static bool printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20)
			return false;
	return strlen(s) == n;
}

/* A JSON object into line, compact, as the match log holds it. */
static int put_line(const json_t *o, const char *field, char *line, char *err, size_t errlen)
{
	char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	size_t n = text ? strlen(text) : 0;

	if (!text) {
		snprintf(err, errlen, "%s: out of memory", field);
		return -ENOMEM;
	}
	if (n >= WEB_LINE_MAX) {
		free(text);
		snprintf(err, errlen, "%s: longer than %d bytes", field, WEB_LINE_MAX - 1);
		return -EINVAL;
	}
	memcpy(line, text, n + 1);
	free(text);
	return 0;
}

/* START of a dice game: its match line ({"type":"match","game":..,
 * "players":[..],"house":{..}}); the dice engine checks players and house
 * when the daemon starts the match. */
static int parse_dice_start(const json_t *o, struct web_command *cmd, char *err, size_t errlen)
{
	const json_t *players = json_object_get(o, "players"), *house = json_object_get(o, "house");
	json_t *head;
	int rc;

	if (dice_game_parse(cmd->game) < 0) {
		snprintf(err, errlen, "game: expected beerdie, yatzy, yatzy-joker, dreiermann or horse");
		return -EINVAL;
	}
	if (!json_is_array(players)) {
		snprintf(err, errlen, "players: expected a list of names in seat order");
		return -EINVAL;
	}
	if (house && !json_is_object(house)) {
		snprintf(err, errlen, "house: expected an object of house rules");
		return -EINVAL;
	}
	head = json_pack("{s:s,s:s,s:O}", "type", "match", "game", cmd->game, "players", players);
	if (head && house)
		json_object_set(head, "house", (json_t *)house);
	rc = head ? put_line(head, "players", cmd->line, err, errlen) : -ENOMEM;
	json_decref(head);
	return rc;
}

/* START's "colors": {"A":colour,"B":colour} from mlog_bd_palette, either
 * optional (orange and blue by default), never both teams alike. */
static int parse_colors(const json_t *v, struct web_command *cmd, char *err, size_t errlen)
{
	static const char *const tn[2] = { "A", "B" };
	const char *key;
	const json_t *c;

	if (!json_is_object(v)) {
		snprintf(err, errlen, "colors: expected {\"A\":colour,\"B\":colour}");
		return -EINVAL;
	}
	json_object_foreach((json_t *)v, key, c)
		if (strcmp(key, "A") && strcmp(key, "B")) {
			snprintf(err, errlen, "colors: unknown team (A or B)");
			return -EINVAL;
		}
	for (int t = 0; t < 2; t++) {
		c = json_object_get(v, tn[t]);
		if (!c)
			continue;
		if (!json_is_string(c) || json_string_length(c) >= MLOG_COLOR_MAX ||
		    !mlog_bd_color_ok(json_string_value(c))) {
			snprintf(err, errlen, "colors.%s: one of orange, blue, green, yellow, red, "
				 "purple, pink, white", tn[t]);
			return -EINVAL;
		}
		memcpy(cmd->colors[t], json_string_value(c), json_string_length(c) + 1);
	}
	if (!strcmp(cmd->colors[0][0] ? cmd->colors[0] : "orange",
		    cmd->colors[1][0] ? cmd->colors[1] : "blue")) {
		snprintf(err, errlen, "colors: both teams in one colour");
		return -EINVAL;
	}
	return 0;
}

static int parse_start(const json_t *o, const struct bd_house *defaults,
		       struct web_command *cmd, char *err, size_t errlen)
{
	const json_t *teams = json_object_get(o, "teams"), *v;

	snprintf(cmd->game, sizeof(cmd->game), "beerdie");
	if (get_string(o, "game", cmd->game, sizeof(cmd->game), err, errlen))
		return -EINVAL;
	if (strcmp(cmd->game, "beerdie"))
		return parse_dice_start(o, cmd, err, errlen);
	for (int p = 0; p < BD_PLAYERS; p++)
		snprintf(cmd->players[p], BD_NAME_MAX, "%s", slots[p]);
	if (defaults)
		cmd->house = *defaults;
	else
		bd_house_defaults(&cmd->house);
	if (teams) {
		const char *tn[2] = { "A", "B" };

		if (!json_is_object(teams)) {
			snprintf(err, errlen, "teams: expected {\"A\":[..],\"B\":[..]}");
			return -EINVAL;
		}
		for (int t = 0; t < 2; t++) {
			const json_t *pl = json_object_get(teams, tn[t]);

			if (!pl)
				continue;
			if (!json_is_array(pl) || json_array_size(pl) != 2) {
				snprintf(err, errlen, "teams.%s: expected two player names", tn[t]);
				return -EINVAL;
			}
			for (int i = 0; i < 2; i++) {
				v = json_array_get(pl, i);
				if (!json_is_string(v) || json_string_length(v) == 0 ||
				    json_string_length(v) >= BD_NAME_MAX ||
				    !printable(json_string_value(v), json_string_length(v))) {
					snprintf(err, errlen, "teams.%s[%d]: a name of 1..%d bytes, "
						 "no control characters", tn[t], i, BD_NAME_MAX - 1);
					return -EINVAL;
				}
				memcpy(cmd->players[t * 2 + i], json_string_value(v),
				       json_string_length(v) + 1);
			}
		}
	}
	for (int p = 1; p < BD_PLAYERS; p++)
		for (int q = 0; q < p; q++)
			if (!strcmp(cmd->players[p], cmd->players[q])) {
				snprintf(err, errlen, "teams: \"%s\" plays twice", cmd->players[p]);
				return -EINVAL;
			}
	v = json_object_get(o, "team_names");
	if (v) {
		if (!json_is_array(v) || json_array_size(v) != 2) {
			snprintf(err, errlen, "team_names: expected two names");
			return -EINVAL;
		}
		for (int t = 0; t < 2; t++) {
			const json_t *n = json_array_get(v, t);

			if (!json_is_string(n) || json_string_length(n) >= WEB_TEAM_NAME_MAX ||
			    !printable(json_string_value(n), json_string_length(n))) {
				snprintf(err, errlen, "team_names[%d]: a name under %d bytes, "
					 "no control characters", t, WEB_TEAM_NAME_MAX);
				return -EINVAL;
			}
			memcpy(cmd->teams[t], json_string_value(n), json_string_length(n) + 1);
		}
	}
	v = json_object_get(o, "colors");
	if (v && parse_colors(v, cmd, err, errlen))
		return -EINVAL;
	v = json_object_get(o, "first");
	cmd->first_team = BD_TEAM_A;
	if (v) {
		if (json_is_string(v) && !strcmp(json_string_value(v), "B"))
			cmd->first_team = BD_TEAM_B;
		else if (!json_is_string(v) || strcmp(json_string_value(v), "A")) {
			snprintf(err, errlen, "first: expected A or B");
			return -EINVAL;
		}
	}
	v = json_object_get(o, "house");
	if (v && parse_house(v, &cmd->house, err, errlen))
		return -EINVAL;
	return 0;
}

/* A dice move: "move", a match-log line the engine checks. */
static int parse_move(const json_t *o, struct web_command *cmd, char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, "move");

	if (!json_is_object(v) || !json_is_string(json_object_get(v, "type"))) {
		snprintf(err, errlen, "move: expected a match-log line ({\"type\":\"turn\",...})");
		return -EINVAL;
	}
	return put_line(v, "move", cmd->line, err, errlen);
}

/* "reason": the official's why, stored in the match log with the act. */
static int parse_reason(const json_t *o, struct web_command *cmd, char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, "reason");

	if (!v)
		return 0;
	if (!json_is_string(v) || json_string_length(v) >= WEB_REASON_MAX ||
	    !printable(json_string_value(v), json_string_length(v))) {
		snprintf(err, errlen, "reason: a text of at most %d bytes, no control characters",
			 WEB_REASON_MAX - 1);
		return -EINVAL;
	}
	memcpy(cmd->reason, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

int web_parse_command(const char *text, size_t len, const struct bd_house *house_defaults,
		      const char (*names)[BD_NAME_MAX], struct web_command *cmd,
		      char *err, size_t errlen)
{
	static const struct { const char *name; enum web_cmd_kind kind; } cmds[] = {
		{ "start", WEB_CMD_START }, { "end", WEB_CMD_END }, { "call", WEB_CMD_CALL },
		{ "dye_up_missed", WEB_CMD_DYE_UP_MISSED }, { "throw", WEB_CMD_THROW },
		{ "confirm", WEB_CMD_CONFIRM }, { "correct", WEB_CMD_CORRECT },
		{ "undo", WEB_CMD_UNDO }, { "dice", WEB_CMD_DICE },
		{ "duty_done", WEB_CMD_DUTY_DONE }, { "show_on_wall", WEB_CMD_SHOW_ON_WALL },
		{ "dismiss_wall", WEB_CMD_DISMISS_WALL },
	};
	json_error_t jerr;
	json_t *o;
	const json_t *c, *v;
	int rc = -EINVAL, found = 0;

	memset(cmd, 0, sizeof(*cmd));
	cmd->thrower = BD_NOBODY;
	cmd->dye_up = true;
	o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!o) {
		snprintf(err, errlen, "body: not JSON (%s at byte %d)", jerr.text, jerr.position);
		return -EINVAL;
	}
	if (!json_is_object(o)) {
		snprintf(err, errlen, "body: expected a JSON object");
		goto free_json;
	}
	c = json_object_get(o, "cmd");
	if (!json_is_string(c)) {
		snprintf(err, errlen, "cmd: missing or not a string");
		goto free_json;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(json_string_value(c), cmds[i].name)) {
			cmd->kind = cmds[i].kind;
			found = 1;
		}
	if (!found) {
		snprintf(err, errlen, "cmd: unknown command '%.40s'", json_string_value(c));
		goto free_json;
	}
	if (parse_reason(o, cmd, err, errlen))
		goto free_json;
	switch (cmd->kind) {
	case WEB_CMD_START:
		rc = parse_start(o, house_defaults, cmd, err, errlen);
		goto free_json;
	case WEB_CMD_DICE:
		if (get_bool(o, "accept_zero", &cmd->accept_zero, err, errlen))
			goto free_json;
		rc = parse_move(o, cmd, err, errlen);
		goto free_json;
	case WEB_CMD_CALL:
		v = json_object_get(o, "event");
		if (!v) {
			snprintf(err, errlen, "event: missing");
			goto free_json;
		}
		{
			char why[160];

			if (web_parse_event(v, names, &cmd->events[0], why, sizeof(why))) {
				snprintf(err, errlen, "event.%s", why);
				goto free_json;
			}
		}
		cmd->n_events = 1;
		snprintf(cmd->events[0].source, sizeof(cmd->events[0].source), "console");
		break;
	case WEB_CMD_CORRECT:
		v = json_object_get(o, "turn");
		if (v) {
			if (json_object_get(o, "throw")) {
				snprintf(err, errlen, "turn: a dice turn or a throw, not both");
				goto free_json;
			}
			if (!json_is_integer(v) || json_integer_value(v) < 1 ||
			    json_integer_value(v) > 100000) {
				snprintf(err, errlen, "turn: expected a turn number (1, 2, ...)");
				goto free_json;
			}
			cmd->turn = (int)json_integer_value(v);
			/* A correction that writes a box for 0 asks, as a move does. */
			if (get_bool(o, "accept_zero", &cmd->accept_zero, err, errlen))
				goto free_json;
			rc = parse_move(o, cmd, err, errlen);
			goto free_json;
		}
		__attribute__((fallthrough));
	case WEB_CMD_CONFIRM:
		v = json_object_get(o, "throw");
		if (v || cmd->kind == WEB_CMD_CORRECT) {
			if (!json_is_integer(v) || json_integer_value(v) < 0 ||
			    json_integer_value(v) > 100000) {
				snprintf(err, errlen, "throw: expected a throw number");
				goto free_json;
			}
			cmd->throw_no = (int)json_integer_value(v);
		}
		if (cmd->kind == WEB_CMD_CONFIRM)
			break;
		/* A correction carries a whole throw, as THROW does. */
		__attribute__((fallthrough));
	case WEB_CMD_THROW:
		if (get_bool(o, "dye_up", &cmd->dye_up, err, errlen))
			goto free_json;
		v = json_object_get(o, "thrower");
		if (v && player_of(v, names, "thrower", &cmd->thrower, err, errlen))
			goto free_json;
		if (parse_events(json_object_get(o, "events"), names, cmd, err, errlen))
			goto free_json;
		for (size_t i = 0; i < cmd->n_events; i++)
			if (!cmd->events[i].source[0])
				snprintf(cmd->events[i].source, sizeof(cmd->events[i].source),
					 "console");
		break;
	case WEB_CMD_DUTY_DONE:
		v = json_object_get(o, "duty");
		if (!json_is_string(v) || json_string_length(v) == 0 ||
		    json_string_length(v) >= WEB_DUTY_ID_MAX ||
		    !printable(json_string_value(v), json_string_length(v)) ||
		    strpbrk(json_string_value(v), "\"\\")) {
			snprintf(err, errlen, "duty: expected a duty's id (\"8:kill_n_fill:b1\"), "
				 "at most %d bytes", WEB_DUTY_ID_MAX - 1);
			goto free_json;
		}
		memcpy(cmd->duty, json_string_value(v), json_string_length(v) + 1);
		v = json_object_get(o, "done");
		if (!json_is_boolean(v)) {
			snprintf(err, errlen, "done: expected true or false");
			goto free_json;
		}
		cmd->done = json_is_true(v);
		break;
	case WEB_CMD_SHOW_ON_WALL:
		v = json_object_get(o, "match");
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > 1000000000) {
			snprintf(err, errlen, "match: expected a match's number (1, 2, ...)");
			goto free_json;
		}
		cmd->match = (long)json_integer_value(v);
		v = json_object_get(o, "throw");
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > 100000) {
			snprintf(err, errlen, "throw: expected a throw's number (1, 2, ...)");
			goto free_json;
		}
		cmd->throw_no = (int)json_integer_value(v);
		break;
	case WEB_CMD_END:
	case WEB_CMD_DYE_UP_MISSED:
	case WEB_CMD_UNDO:
	case WEB_CMD_DISMISS_WALL:
		break;
	}
	rc = 0;
free_json:
	json_decref(o);
	return rc;
}

/* ---- A player's name in a path ----------------------------------------- */

/* Bytes of the well-formed UTF-8 sequence at p (n left), 0 if none. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t k;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		k = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		k = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		k = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (n < k)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return k;
}

int web_parse_name(const char *seg, size_t len, char *out, size_t outlen)
{
	size_t o = 0;

	if (!outlen)
		return -E2BIG;
	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)seg[i];

		if (c == '%') {
			int h, l;

			if (i + 2 >= len)
				return -EINVAL;
			h = hexval(seg[i + 1]);
			l = hexval(seg[i + 2]);
			if (h < 0 || l < 0)
				return -EINVAL;
			c = h << 4 | l;
			i += 2;
		}
		if (c < 0x20 || c == 0x7f || c == '/' || c == '\\')
			return -EINVAL;
		if (o + 1 >= outlen)
			return -E2BIG;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	if (!o || !strcmp(out, ".") || !strcmp(out, ".."))
		return -EINVAL;
	for (size_t i = 0; i < o;) {
		size_t k = utf8_len((const unsigned char *)out + i, o - i);

		if (!k)
			return -EINVAL;
		i += k;
	}
	return 0;
}
