/*
 * Beer Die match log parser: JSON Lines in, struct mlog_bd out.
 *
 * Everything that can be checked without judging is checked here, and
 * strictly: a field the format does not have is an error, so a typo
 * ("hieght") never silently changes a ruling. Every message names the
 * line and the field ("events[1].half") and says what was expected.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mlog_internal.h"

#define FIELD_MAX 64	/* bytes of a field's path ("events[31].over_table") */

static int fail(struct mlog_bd_parser *p, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct mlog_bd_parser *p, const char *field, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return mlog_fail(p->err, p->errlen, p->name, p->line, field, "%s", msg);
}

/* "prefix.key", or "key" without a prefix. */
static const char *path(char *dst, const char *prefix, const char *key)
{
	int n;

	if (prefix && *prefix)
		n = snprintf(dst, FIELD_MAX, "%s.%s", prefix, key);
	else
		n = snprintf(dst, FIELD_MAX, "%s", key);
	if (n < 0 || n >= FIELD_MAX)
		memcpy(dst + FIELD_MAX - 4, "...", 4);	/* cut short, still a string */
	return dst;
}

static bool in_list(const char *key, const char *const *keys)
{
	for (; *keys; keys++)
		if (!strcmp(key, *keys))
			return true;
	return false;
}

/* Rejects any key of obj not in keys (NULL-terminated): what lines of this
 * kind take is listed in the message. */
static int check_keys(struct mlog_bd_parser *p, json_t *obj, const char *prefix,
		      const char *what, const char *const *keys)
{
	const char *key;
	json_t *v;
	char f[FIELD_MAX], list[256];
	size_t n = 0;

	json_object_foreach(obj, key, v) {
		if (in_list(key, keys))
			continue;
		list[0] = '\0';
		for (const char *const *k = keys; *k && n < sizeof(list); k++)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
					      k == keys ? "" : ", ", *k);
		/* Name the key as written, cut short and without control bytes. */
		{
			char shown[36];
			size_t k = 0;

			for (; key[k] && k < 32; k++)
				shown[k] = (unsigned char)key[k] < 0x20 ? '?' : key[k];
			strcpy(shown + k, key[k] ? "..." : "");
			return fail(p, path(f, prefix, shown), "unknown field (%s take %s)", what, list);
		}
	}
	return 0;
}

/* A string without NUL or control characters, shorter than max bytes. */
static int get_string(struct mlog_bd_parser *p, json_t *v, const char *field,
		      char *dst, size_t max)
{
	const char *s;
	size_t n;

	if (!json_is_string(v))
		return fail(p, field, "expected a string");
	s = json_string_value(v);
	n = json_string_length(v);
	if (n == 0)
		return fail(p, field, "empty");
	if (n >= max)
		return fail(p, field, "too long (%zu bytes; at most %zu)", n, max - 1);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20)
			return fail(p, field, "control character in the string");
	memcpy(dst, s, n + 1);
	return 0;
}

static int get_bool(struct mlog_bd_parser *p, json_t *obj, const char *prefix,
		    const char *key, bool dflt, bool *out)
{
	json_t *v = json_object_get(obj, key);
	char f[FIELD_MAX];

	if (!v) {
		*out = dflt;
		return 0;
	}
	if (!json_is_boolean(v))
		return fail(p, path(f, prefix, key), "expected true or false");
	*out = json_is_true(v);
	return 0;
}

/* An integer in [min, max]; -ENOENT when absent (no message). */
static int get_int(struct mlog_bd_parser *p, json_t *obj, const char *prefix,
		   const char *key, json_int_t min, json_int_t max, json_int_t *out)
{
	json_t *v = json_object_get(obj, key);
	char f[FIELD_MAX];

	if (!v)
		return -ENOENT;
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
		return fail(p, path(f, prefix, key), "expected an integer %lld..%lld",
			    (long long)min, (long long)max);
	*out = json_integer_value(v);
	return 0;
}

/* A number in [min, max]; -ENOENT when absent (no message). */
static int get_real(struct mlog_bd_parser *p, json_t *obj, const char *prefix,
		    const char *key, double min, double max, const char *unit, double *out)
{
	json_t *v = json_object_get(obj, key);
	char f[FIELD_MAX];

	if (!v)
		return -ENOENT;
	if (!json_is_number(v) || json_number_value(v) < min || json_number_value(v) > max)
		return fail(p, path(f, prefix, key), "expected a number %g..%g%s", min, max, unit);
	*out = json_number_value(v);
	return 0;
}

static int find_player(const struct bd_match_cfg *cfg, const char *s)
{
	for (int i = 0; i < BD_PLAYERS; i++)
		if (!strcmp(cfg->players[i], s))
			return i;
	return BD_NOBODY;
}

/* A player named by the match line; *out BD_NOBODY when absent and not
 * required. */
static int get_player(struct mlog_bd_parser *p, json_t *obj, const char *prefix,
		      const char *key, bool required, int *out)
{
	const struct bd_match_cfg *cfg = &p->log->cfg;
	json_t *v = json_object_get(obj, key);
	char f[FIELD_MAX];

	*out = BD_NOBODY;
	path(f, prefix, key);
	if (!v)
		return required ? fail(p, f, "missing (a player)") : 0;
	if (!json_is_string(v))
		return fail(p, f, "expected a player's name");
	*out = find_player(cfg, json_string_value(v));
	if (*out == BD_NOBODY || strlen(json_string_value(v)) != json_string_length(v)) {
		char shown[BD_NAME_MAX + 8];
		const char *s = json_string_value(v);
		size_t n = 0;

		/* Show what was written, cut short and without control bytes. */
		for (; *s && n < BD_NAME_MAX; s++)
			shown[n++] = (unsigned char)*s < 0x20 || *s == '"' ? '?' : *s;
		shown[n] = '\0';
		return fail(p, f, "unknown player \"%s%s\" (players: %s, %s, %s, %s)", shown,
			    *s ? "..." : "", cfg->players[0], cfg->players[1],
			    cfg->players[2], cfg->players[3]);
	}
	return 0;
}

/* "A" or "B" (teams), 0 or 1 into *out. */
static int get_team(struct mlog_bd_parser *p, json_t *v, const char *field, int *out)
{
	const char *s = json_is_string(v) ? json_string_value(v) : "";

	if (!strcmp(s, "A"))
		*out = BD_TEAM_A;
	else if (!strcmp(s, "B"))
		*out = BD_TEAM_B;
	else
		return fail(p, field, "expected \"A\" or \"B\"");
	return 0;
}

static int parse_teams(struct mlog_bd_parser *p, json_t *teams)
{
	static const char *const keys[] = { "A", "B", NULL };
	struct bd_match_cfg *cfg = &p->log->cfg;
	char f[FIELD_MAX];
	int rc;

	if (!json_is_object(teams))
		return fail(p, "teams", "expected {\"A\":[name,name],\"B\":[name,name]}");
	rc = check_keys(p, teams, "teams", "teams", keys);
	if (rc)
		return rc;
	for (int team = 0; team < 2; team++) {
		json_t *arr = json_object_get(teams, mlog_team_name(team));

		snprintf(f, sizeof(f), "teams.%s", mlog_team_name(team));
		if (!arr)
			return fail(p, f, "missing (two players' names)");
		if (!json_is_array(arr) || json_array_size(arr) != 2)
			return fail(p, f, "expected two players' names");
		for (int i = 0; i < 2; i++) {
			snprintf(f, sizeof(f), "teams.%s[%d]", mlog_team_name(team), i);
			rc = get_string(p, json_array_get(arr, (size_t)i), f,
					cfg->players[team * 2 + i], BD_NAME_MAX);
			if (rc)
				return rc;
			for (int j = 0; j < team * 2 + i; j++)
				if (!strcmp(cfg->players[j], cfg->players[team * 2 + i]))
					return fail(p, f, "\"%s\" plays twice", cfg->players[j]);
		}
	}
	return 0;
}

/* "names": the teams' display names, each optional (scoreboards show them;
 * judging ignores them). */
static int parse_names(struct mlog_bd_parser *p, json_t *names)
{
	static const char *const keys[] = { "A", "B", NULL };
	char f[FIELD_MAX];
	int rc;

	if (!json_is_object(names))
		return fail(p, "names", "expected {\"A\":name,\"B\":name}");
	rc = check_keys(p, names, "names", "team names", keys);
	if (rc)
		return rc;
	for (int team = 0; team < 2; team++) {
		json_t *v = json_object_get(names, mlog_team_name(team));

		snprintf(f, sizeof(f), "names.%s", mlog_team_name(team));
		if (v && (rc = get_string(p, v, f, p->log->team_names[team], BD_NAME_MAX)))
			return rc;
	}
	return 0;
}

/* "colors": the teams' colours, each optional, from mlog_bd_palette. */
static int parse_colors(struct mlog_bd_parser *p, json_t *colors)
{
	static const char *const keys[] = { "A", "B", NULL };
	char f[FIELD_MAX];
	int rc;

	if (!json_is_object(colors))
		return fail(p, "colors", "expected {\"A\":colour,\"B\":colour}");
	rc = check_keys(p, colors, "colors", "teams", keys);
	if (rc)
		return rc;
	for (int team = 0; team < 2; team++) {
		json_t *v = json_object_get(colors, mlog_team_name(team));
		char *c = p->log->colors[team];

		snprintf(f, sizeof(f), "colors.%s", mlog_team_name(team));
		if (!v)
			continue;
		if (!json_is_string(v) || json_string_length(v) >= MLOG_COLOR_MAX ||
		    !mlog_bd_color_ok(json_string_value(v)))
			return fail(p, f, "expected a colour of the palette (orange, blue, green, "
				    "yellow, red, purple, pink, white)");
		memcpy(c, json_string_value(v), json_string_length(v) + 1);
	}
	if (!strcmp(mlog_bd_color(p->log, 0), mlog_bd_color(p->log, 1)))
		return fail(p, "colors", "both teams in %s: give them different colours",
			    mlog_bd_color(p->log, 0));
	return 0;
}

/* "table": the table that played the match, {"id":slug,"name":text}
 * (name optional); judging ignores it. */
static int parse_table(struct mlog_bd_parser *p, json_t *table)
{
	static const char *const keys[] = { "id", "name", NULL };
	json_t *id, *name;
	int rc;

	if (!json_is_object(table))
		return fail(p, "table", "expected {\"id\":id,\"name\":name}");
	rc = check_keys(p, table, "table", "tables", keys);
	if (rc)
		return rc;
	id = json_object_get(table, "id");
	if (!json_is_string(id) || !mlog_table_id_ok(json_string_value(id)))
		return fail(p, "table.id", "expected 1 to %d of a-z, 0-9 and '-'",
			    MLOG_TABLE_ID_MAX - 1);
	memcpy(p->log->table_id, json_string_value(id), json_string_length(id) + 1);
	name = json_object_get(table, "name");
	if (name && (rc = get_string(p, name, "table.name", p->log->table_name, MLOG_TABLE_NAME_MAX)))
		return rc;
	return 0;
}

static int parse_house(struct mlog_bd_parser *p, json_t *house)
{
	static const char *const keys[] = {
		"target_points", "win_by", "kill_every", "min_toss_height_m", "low_call",
		"illegal_catch_counts_as_floor", "fifa_cannot_end_game", "popout_is_sink",
		"mine_voids_points", "review_below", NULL
	};
	struct bd_house *h = &p->log->cfg.house;
	json_int_t i;
	json_t *v;
	int rc;

	if (!json_is_object(house))
		return fail(p, "house", "expected an object of house rules");
	rc = check_keys(p, house, "house", "house rules", keys);
	if (rc)
		return rc;
	if ((rc = get_int(p, house, "house", "target_points", 1, 1000, &i)) == 0)
		h->target_points = (int)i;
	else if (rc != -ENOENT)
		return rc;
	if ((rc = get_int(p, house, "house", "win_by", 1, 100, &i)) == 0)
		h->win_by = (int)i;
	else if (rc != -ENOENT)
		return rc;
	if ((rc = get_int(p, house, "house", "kill_every", 0, 1000, &i)) == 0)
		h->kill_every = (int)i;
	else if (rc != -ENOENT)
		return rc;
	rc = get_real(p, house, "house", "min_toss_height_m", 0, 20, " m", &h->min_toss_height_m);
	if (rc && rc != -ENOENT)
		return rc;
	rc = get_real(p, house, "house", "review_below", 0, 1, "", &h->review_below);
	if (rc && rc != -ENOENT)
		return rc;
	v = json_object_get(house, "low_call");
	if (v) {
		const char *s = json_is_string(v) ? json_string_value(v) : "";

		if (!strcmp(s, "manual"))
			h->low_call = BD_LOW_MANUAL;
		else if (!strcmp(s, "auto"))
			h->low_call = BD_LOW_AUTO;
		else
			return fail(p, "house.low_call", "expected \"manual\" or \"auto\"");
	}
	if ((rc = get_bool(p, house, "house", "illegal_catch_counts_as_floor",
			   h->illegal_catch_counts_as_floor, &h->illegal_catch_counts_as_floor)) ||
	    (rc = get_bool(p, house, "house", "fifa_cannot_end_game",
			   h->fifa_cannot_end_game, &h->fifa_cannot_end_game)) ||
	    (rc = get_bool(p, house, "house", "popout_is_sink",
			   h->popout_is_sink, &h->popout_is_sink)) ||
	    (rc = get_bool(p, house, "house", "mine_voids_points",
			   h->mine_voids_points, &h->mine_voids_points)))
		return rc;
	{
		/* The engine's own bounds, should they ever be narrower. */
		char msg[200];

		if (bd_house_check(h, msg, sizeof(msg)))
			return fail(p, NULL, "%s", msg);
	}
	return 0;
}

static int parse_match(struct mlog_bd_parser *p, json_t *root)
{
	static const char *const keys[] = { "type", "game", "teams", "names", "colors", "table",
					    "house", NULL };
	json_t *game, *v;
	int rc;

	rc = check_keys(p, root, NULL, "\"match\" lines", keys);
	if (rc)
		return rc;
	game = json_object_get(root, "game");
	if (!game)
		return fail(p, "game", "missing (\"beerdie\")");
	if (!json_is_string(game) || strcmp(json_string_value(game), "beerdie"))
		return fail(p, "game", "expected \"beerdie\"");
	v = json_object_get(root, "teams");
	if (v && (rc = parse_teams(p, v)))
		return rc;
	v = json_object_get(root, "names");
	if (v && (rc = parse_names(p, v)))
		return rc;
	v = json_object_get(root, "colors");
	if (v && (rc = parse_colors(p, v)))
		return rc;
	v = json_object_get(root, "table");
	if (v && (rc = parse_table(p, v)))
		return rc;
	v = json_object_get(root, "house");
	if (v && (rc = parse_house(p, v)))
		return rc;
	p->log->match_line = p->line;
	return 0;
}

static int parse_rolloff(struct mlog_bd_parser *p, json_t *root)
{
	static const char *const keys[] = { "type", "value", "call", NULL };
	static const char *const call_keys[] = { "team", "call", NULL };
	json_int_t value;
	json_t *call, *v;
	int team = BD_TEAM_A, rc;
	bool high;

	if (p->rolloff_line)
		return fail(p, "type", "a second roll-off (the first is on line %d)", p->rolloff_line);
	if (p->n_seen)
		return fail(p, "type", "the roll-off must come before the first throw");
	rc = check_keys(p, root, NULL, "\"rolloff\" lines", keys);
	if (rc)
		return rc;
	rc = get_int(p, root, NULL, "value", 1, 6, &value);
	if (rc == -ENOENT)
		return fail(p, "value", "missing (the die rolled, 1..6)");
	if (rc)
		return rc;
	call = json_object_get(root, "call");
	if (!call)
		return fail(p, "call", "missing ({\"team\":\"A\"|\"B\",\"call\":\"high\"|\"low\"})");
	if (!json_is_object(call))
		return fail(p, "call", "expected {\"team\":\"A\"|\"B\",\"call\":\"high\"|\"low\"}");
	rc = check_keys(p, call, "call", "calls", call_keys);
	if (rc)
		return rc;
	v = json_object_get(call, "team");
	if (!v)
		return fail(p, "call.team", "missing (\"A\" or \"B\")");
	rc = get_team(p, v, "call.team", &team);
	if (rc)
		return rc;
	v = json_object_get(call, "call");
	if (!v)
		return fail(p, "call.call", "missing (\"high\" or \"low\")");
	if (json_is_string(v) && !strcmp(json_string_value(v), "high"))
		high = true;
	else if (json_is_string(v) && !strcmp(json_string_value(v), "low"))
		high = false;
	else
		return fail(p, "call.call", "expected \"high\" or \"low\"");
	rc = mlog_bd_set_rolloff(p->log, (int)value, team, high);
	if (rc)
		return fail(p, "value", "not a roll-off the rules know");
	p->rolloff_line = p->line;
	return 0;
}

/* The fields each kind of event takes, "at" and the common ones included. */
#define COMMON "at", "source", "confidence", "t_ns"
static const char *const ev_keys[][9] = {
	[BD_EV_TABLE] = { COMMON, "half", "x", "y", NULL },
	[BD_EV_CUP] = { COMMON, "owner", "sink", "popout", NULL },
	[BD_EV_MINE] = { COMMON, NULL },
	[BD_EV_FLOOR] = { COMMON, NULL },
	[BD_EV_REST] = { COMMON, "face", NULL },
	[BD_EV_CATCH] = { COMMON, "by", "hands", "trapped", "over_table", NULL },
	[BD_EV_KICK] = { COMMON, "by", "part", NULL },
	[BD_EV_LOW_CALL] = { COMMON, "by", NULL },
	[BD_EV_RETOSS] = { COMMON, NULL },
};
#undef COMMON

static int parse_table_event(struct mlog_bd_parser *p, json_t *o, const char *pre, struct bd_event *e)
{
	json_t *half = json_object_get(o, "half");
	char f[FIELD_MAX];
	int rx, ry;

	rx = get_real(p, o, pre, "x", 0, p->table.length_m, " m (table length)", &e->x);
	if (rx && rx != -ENOENT)
		return rx;
	ry = get_real(p, o, pre, "y", 0, p->table.width_m, " m (table width)", &e->y);
	if (ry && ry != -ENOENT)
		return ry;
	if ((rx == 0) != (ry == 0))
		return fail(p, path(f, pre, rx ? "x" : "y"),
			    "missing (x and y are given together)");
	e->has_xy = rx == 0;
	if (half) {
		const char *s = json_is_string(half) ? json_string_value(half) : "";

		if (!strcmp(s, "A"))
			e->half = BD_HALF_A;
		else if (!strcmp(s, "B"))
			e->half = BD_HALF_B;
		else if (!strcmp(s, "line"))
			e->half = BD_HALF_LINE;
		else
			return fail(p, path(f, pre, "half"), "expected \"A\", \"B\" or \"line\"");
	} else if (e->has_xy) {
		e->half = bd_table_half(&p->table, e->x);
	} else {
		return fail(p, path(f, pre, "half"), "missing (\"A\", \"B\" or \"line\", or x and y)");
	}
	return 0;
}

static int parse_event(struct mlog_bd_parser *p, json_t *o, int idx, struct bd_event *e)
{
	char pre[FIELD_MAX], f[FIELD_MAX], what[32];
	json_t *at, *v;
	json_int_t i;
	int kind = -1, rc;

	snprintf(pre, sizeof(pre), "events[%d]", idx);
	memset(e, 0, sizeof(*e));
	e->player = BD_NOBODY;
	e->confidence = 1.0;
	if (!json_is_object(o))
		return fail(p, pre, "expected an object {\"at\":...}");
	at = json_object_get(o, "at");
	if (!at)
		return fail(p, path(f, pre, "at"), "missing (what happened: table, cup, ...)");
	for (int k = 0; k <= BD_EV_RETOSS; k++)
		if (json_is_string(at) && !strcmp(json_string_value(at), mlog_ev_names[k]))
			kind = k;
	if (kind < 0)
		return fail(p, path(f, pre, "at"), "unknown event (expected table, cup, mine, "
			    "floor, rest, catch, kick, low_call or retoss)");
	e->kind = (enum bd_ev_kind)kind;
	snprintf(what, sizeof(what), "%s events", mlog_ev_names[kind]);
	rc = check_keys(p, o, pre, what, ev_keys[kind]);
	if (rc)
		return rc;

	v = json_object_get(o, "source");
	if (v && (rc = get_string(p, v, path(f, pre, "source"), e->source, MLOG_SOURCE_MAX)))
		return rc;
	rc = get_real(p, o, pre, "confidence", 0, 1, "", &e->confidence);
	if (rc && rc != -ENOENT)
		return rc;
	e->has_confidence = rc == 0;
	rc = get_int(p, o, pre, "t_ns", 0, INT64_MAX, &i);
	if (rc && rc != -ENOENT)
		return rc;
	e->t_ns = rc == 0 ? (int64_t)i : 0;

	switch (e->kind) {
	case BD_EV_TABLE:
		return parse_table_event(p, o, pre, e);
	case BD_EV_CUP:
		if ((rc = get_player(p, o, pre, "owner", true, &e->player)) ||
		    (rc = get_bool(p, o, pre, "sink", false, &e->sink)) ||
		    (rc = get_bool(p, o, pre, "popout", false, &e->popout)))
			return rc;
		if (e->sink && e->popout)
			return fail(p, path(f, pre, "popout"),
				    "a die that popped out was not sunk (sink is true)");
		return 0;
	case BD_EV_REST:
		rc = get_int(p, o, pre, "face", 1, 6, &i);
		if (rc == -ENOENT)
			return fail(p, path(f, pre, "face"), "missing (1..6)");
		if (rc)
			return rc;
		e->face = (int)i;
		return 0;
	case BD_EV_CATCH:
		if ((rc = get_player(p, o, pre, "by", true, &e->player)) ||
		    (rc = get_bool(p, o, pre, "trapped", false, &e->trapped)) ||
		    (rc = get_bool(p, o, pre, "over_table", false, &e->over_table)))
			return rc;
		rc = get_int(p, o, pre, "hands", 1, 2, &i);
		if (rc && rc != -ENOENT)
			return rc;
		e->hands = rc == 0 ? (int)i : 1;
		return 0;
	case BD_EV_KICK:
		if ((rc = get_player(p, o, pre, "by", true, &e->player)))
			return rc;
		v = json_object_get(o, "part");
		if (v && (rc = get_string(p, v, path(f, pre, "part"), e->part, sizeof(e->part))))
			return rc;
		return 0;
	case BD_EV_LOW_CALL:
		return get_player(p, o, pre, "by", false, &e->player);
	case BD_EV_MINE:
	case BD_EV_FLOOR:
	case BD_EV_RETOSS:
		return 0;
	}
	return 0;
}

/* "audit": {"official":..,"wall_ms":..,"reason":..} into the log's last
 * entry; absent is fine unless required. */
static int parse_audit(struct mlog_bd_parser *p, json_t *root, bool required)
{
	static const char *const keys[] = { "official", "wall_ms", "reason", NULL };
	struct mlog_audit a;
	json_t *o = json_object_get(root, "audit"), *v;
	json_int_t ms = 0;
	int rc;

	memset(&a, 0, sizeof(a));
	if (!o)
		return required ? fail(p, "audit", "missing (who confirmed, and when)") : 0;
	if (!json_is_object(o))
		return fail(p, "audit", "expected {\"official\":..,\"wall_ms\":..}");
	if ((rc = check_keys(p, o, "audit", "audits", keys)))
		return rc;
	v = json_object_get(o, "official");
	if (!v)
		return fail(p, "audit.official", "missing (the official's name)");
	if ((rc = get_string(p, v, "audit.official", a.official, sizeof(a.official))))
		return rc;
	rc = get_int(p, o, "audit", "wall_ms", 0, INT64_MAX / 2, &ms);
	if (rc == -ENOENT)
		return fail(p, "audit.wall_ms", "missing (Unix time in ms)");
	if (rc)
		return rc;
	a.wall_ms = (int64_t)ms;
	v = json_object_get(o, "reason");
	if (v && (rc = get_string(p, v, "audit.reason", a.reason, sizeof(a.reason))))
		return rc;
	a.present = true;
	p->log->entries[p->log->n_entries - 1].audit = a;
	return 0;
}

/* A "confirm" line: an official agreed with a throw's ruling. */
static int parse_confirm(struct mlog_bd_parser *p, json_t *root)
{
	static const char *const keys[] = { "type", "throw", "audit", NULL };
	struct mlog_audit none = { 0 };
	json_t *v = json_object_get(root, "throw");
	int rc;

	if ((rc = check_keys(p, root, NULL, "\"confirm\" lines", keys)))
		return rc;
	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return fail(p, "throw", "expected a throw's number (1, 2, ...)");
	if ((size_t)json_integer_value(v) > p->log->n_throws)
		return fail(p, "throw", "no throw %lld before this line (%zu so far)",
			    (long long)json_integer_value(v), p->log->n_throws);
	rc = mlog_bd_add_confirm(p->log, (int)json_integer_value(v), &none);
	if (rc)
		return rc;
	p->log->entries[p->log->n_entries - 1].line = p->line;
	return parse_audit(p, root, true);
}

/* A "duty" line: an official marked a duty done (or took the mark back). */
static int parse_duty(struct mlog_bd_parser *p, json_t *root)
{
	static const char *const keys[] = { "type", "duty", "done", "audit", NULL };
	struct mlog_audit none = { 0 };
	char id[MLOG_DUTY_ID_MAX];
	json_t *done = json_object_get(root, "done");
	json_t *v = json_object_get(root, "duty");
	int rc;

	if ((rc = check_keys(p, root, NULL, "\"duty\" lines", keys)))
		return rc;
	if (!v)
		return fail(p, "duty", "missing (the duty's id, \"8:kill_n_fill:b1\")");
	if ((rc = get_string(p, v, "duty", id, sizeof(id))))
		return rc;
	if (!json_is_boolean(done))
		return fail(p, "done", "expected true or false");
	rc = mlog_bd_add_duty(p->log, id, json_is_true(done), &none);
	if (rc == -EINVAL)
		return fail(p, "duty", "not a duty's id");
	if (rc)
		return rc;
	p->log->entries[p->log->n_entries - 1].line = p->line;
	return parse_audit(p, root, true);
}

static int parse_throw(struct mlog_bd_parser *p, json_t *root, bool correct)
{
	static const char *const throw_keys[] = {
		"type", "thrower", "dye_up", "apex_m", "apex_sd_m", "events", NULL
	};
	static const char *const correct_keys[] = {
		"type", "throw", "thrower", "dye_up", "apex_m", "apex_sd_m", "events", "undo",
		"audit", NULL
	};
	struct bd_throw t;
	bool undo = false;
	json_int_t target = 0;
	json_t *events;
	size_t n;
	int rc;

	rc = check_keys(p, root, NULL, correct ? "\"correct\" lines" : "\"throw\" lines",
			correct ? correct_keys : throw_keys);
	if (rc)
		return rc;
	if (correct) {
		json_t *v = json_object_get(root, "throw");

		if (!v)
			return fail(p, "throw", "missing (the number of the throw it replaces)");
		if (!json_is_integer(v) || json_integer_value(v) < 1)
			return fail(p, "throw", "expected a throw's number (1, 2, ...)");
		target = json_integer_value(v);
		if ((size_t)target > p->log->n_throws)
			return fail(p, "throw", "no throw %lld before this line (%zu so far)",
				    (long long)target, p->log->n_throws);
	}
	memset(&t, 0, sizeof(t));
	if (correct && (rc = get_bool(p, root, NULL, "undo", false, &undo)))
		return rc;
	if ((rc = get_player(p, root, NULL, "thrower", false, &t.thrower)) ||
	    (rc = get_bool(p, root, NULL, "dye_up", true, &t.dye_up)))
		return rc;
	rc = get_real(p, root, NULL, "apex_m", 0, 100, " m", &t.apex_m);
	if (rc == -ENOENT)
		t.apex_m = -1;
	else if (rc)
		return rc;
	/* Its uncertainty: above 0 (an exact height is not measured), and
	 * only with the height it belongs to. */
	rc = get_real(p, root, NULL, "apex_sd_m", 0, 10, " m", &t.apex_sd_m);
	if (rc == -ENOENT)
		t.apex_sd_m = -1;
	else if (rc)
		return rc;
	else if (t.apex_sd_m <= 0)
		return fail(p, "apex_sd_m", "expected a number above 0, up to 10 m");
	else if (t.apex_m < 0)
		return fail(p, "apex_sd_m", "given without apex_m");
	events = json_object_get(root, "events");
	if (!events)
		return fail(p, "events", "missing (a list, [] when nothing was seen)");
	if (!json_is_array(events))
		return fail(p, "events", "expected a list of events");
	n = json_array_size(events);
	if (n > BD_MAX_EVENTS)
		return fail(p, "events", "too many events (%zu; at most %d)", n, BD_MAX_EVENTS);
	for (size_t i = 0; i < n; i++) {
		rc = parse_event(p, json_array_get(events, i), (int)i, &t.events[i]);
		if (rc)
			return rc;
	}
	t.n_events = n;
	if (correct)
		rc = mlog_bd_add_correct(p->log, (int)target, &t);
	else
		rc = mlog_bd_add_throw(p->log, &t);
	if (rc < 0)
		return rc == -ENOMEM ? rc : fail(p, NULL, "cannot add this line");
	p->log->entries[p->log->n_entries - 1].line = p->line;
	p->log->entries[p->log->n_entries - 1].undo = undo;
	return correct ? parse_audit(p, root, false) : 0;
}

/* One non-blank line. */
static int parse_line(struct mlog_bd_parser *p, const struct mlog_line *line, bool first)
{
	json_error_t jerr;
	json_t *root, *type;
	const char *s;
	int rc;

	root = json_loadb(line->start, line->len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return mlog_json_fail(p->err, p->errlen, p->name, p->line, &jerr);
	rc = -EINVAL;
	if (!json_is_object(root)) {
		fail(p, NULL, "expected a JSON object {\"type\":...}");
		goto free_root;
	}
	type = json_object_get(root, "type");
	s = json_is_string(type) ? json_string_value(type) : NULL;
	if (first) {
		if (!s || strcmp(s, "match"))
			fail(p, "type", "the first line must be a \"match\" line");
		else
			rc = parse_match(p, root);
	} else if (!type) {
		fail(p, "type", "missing (\"rolloff\", \"throw\", \"correct\", \"confirm\" or \"duty\")");
	} else if (s && !strcmp(s, "throw")) {
		rc = parse_throw(p, root, false);
	} else if (s && !strcmp(s, "correct")) {
		rc = parse_throw(p, root, true);
	} else if (s && !strcmp(s, "confirm")) {
		rc = parse_confirm(p, root);
	} else if (s && !strcmp(s, "duty")) {
		rc = parse_duty(p, root);
	} else if (s && !strcmp(s, "rolloff")) {
		rc = parse_rolloff(p, root);
	} else if (s && !strcmp(s, "match")) {
		fail(p, "type", "a second \"match\" line (a log holds one match)");
	} else {
		fail(p, "type", "expected \"rolloff\", \"throw\", \"correct\", \"confirm\" or \"duty\"");
	}
free_root:
	json_decref(root);
	return rc;
}

void mlog_bd_parser_init(struct mlog_bd_parser *p, struct mlog_bd *log)
{
	memset(p, 0, sizeof(*p));
	p->name = log->name;
	p->log = log;
	p->first = true;
	bd_table_defaults(&p->table);
}

int mlog_bd_parser_line(struct mlog_bd_parser *p, const struct mlog_line *line,
			char *err, size_t errlen)
{
	size_t before = p->log->n_entries;
	int rc;

	p->err = err;
	p->errlen = errlen;
	if (mlog_line_blank(line))
		return 0;
	p->line = line->no;
	rc = parse_line(p, line, p->first);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s:%d: out of memory", p->name, p->line);
	if (rc)
		return rc;
	p->first = false;
	p->n_seen += p->log->n_entries - before;
	return 0;
}

int mlog_bd_parse(const char *name, const char *buf, size_t len,
		  struct mlog_bd **out, char *err, size_t errlen)
{
	struct bd_match_cfg cfg;
	struct mlog_line line;
	struct mlog_bd_parser p;
	struct mlog_bd *log;
	size_t pos = 0;
	int no = 0, rc = 0;

	*out = NULL;
	bd_match_cfg_init(&cfg);
	log = mlog_bd_new(name ? name : "log", &cfg);
	if (!log) {
		snprintf(err, errlen, "%s: out of memory", name ? name : "log");
		return -ENOMEM;
	}
	mlog_bd_parser_init(&p, log);
	while (mlog_next_line(buf, len, &pos, &no, &line)) {
		rc = mlog_bd_parser_line(&p, &line, err, errlen);
		if (rc)
			goto free_log;
	}
	if (p.first) {
		rc = mlog_fail(err, errlen, p.name, no ? no : 1, NULL,
			       "empty log: the first line must be a \"match\" line");
		goto free_log;
	}
	*out = log;
	return 0;
free_log:
	mlog_bd_free(log);
	return rc;
}
