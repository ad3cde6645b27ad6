/* web console commands: the JSON of POST /console/api/command (START,
 * THROW, CALL, CORRECT, a dice move, ...) and its events, on plain bytes;
 * the house rules a START takes are house.c's. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "web/internal.h"
#include "web/web.h"

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

int web_get_bool(const json_t *o, const char *key, bool *out, char *err, size_t errlen)
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

int web_get_number(const json_t *o, const char *key, double min, double max, bool *given,
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
			if (web_get_number(o, "x", 0, tb.length_m, NULL, &ev->x, err, errlen) ||
			    web_get_number(o, "y", 0, tb.width_m, NULL, &ev->y, err, errlen))
				return -EINVAL;
			ev->has_xy = true;
		}
		break;
	case BD_EV_CUP:
		v = json_object_get(o, "owner");
		if (player_of(v, names, "owner", &ev->player, err, errlen) ||
		    web_get_bool(o, "sink", &ev->sink, err, errlen) ||
		    web_get_bool(o, "popout", &ev->popout, err, errlen))
			return -EINVAL;
		break;
	case BD_EV_REST:
		if (!json_object_get(o, "face") ||
		    web_get_number(o, "face", 1, 6, NULL, &face, err, errlen) || face != floor(face)) {
			snprintf(err, errlen, "face: expected a whole number 1..6");
			return -EINVAL;
		}
		ev->face = (int)face;
		break;
	case BD_EV_CATCH:
		if (player_of(json_object_get(o, "by"), names, "by", &ev->player, err, errlen) ||
		    web_get_number(o, "hands", 1, 2, NULL, &hands, err, errlen) ||
		    web_get_bool(o, "trapped", &ev->trapped, err, errlen) ||
		    web_get_bool(o, "over_table", &ev->over_table, err, errlen))
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
	    web_get_number(o, "confidence", 0, 1, &ev->has_confidence, &ev->confidence, err, errlen))
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
	if (v && web_parse_house(v, &cmd->house, err, errlen))
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

/* A face label's die and word: "snapshot" (its id) 1.., and "face" 1-6 or
 * "confirm": true (exactly one of them). */
static int parse_face(const json_t *o, struct web_command *cmd, char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, "snapshot"), *face = json_object_get(o, "face");
	bool confirm = false;

	if (!json_is_integer(v) || json_integer_value(v) < 1) {
		snprintf(err, errlen, "snapshot: expected a snapshot's id (its \"id\" in the throw's detail)");
		return -EINVAL;
	}
	cmd->snapshot = json_integer_value(v);
	if (web_get_bool(o, "confirm", &confirm, err, errlen))
		return -EINVAL;
	if (confirm == !!face) {
		snprintf(err, errlen, "face: give the face (1-6) or \"confirm\":true, one of them");
		return -EINVAL;
	}
	if (face && (!json_is_integer(face) || json_integer_value(face) < 1 ||
		     json_integer_value(face) > 6)) {
		snprintf(err, errlen, "face: expected 1-6");
		return -EINVAL;
	}
	cmd->face = face ? (int)json_integer_value(face) : 0;
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
		{ "dismiss_wall", WEB_CMD_DISMISS_WALL }, { "face", WEB_CMD_FACE },
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
		if (web_get_bool(o, "accept_zero", &cmd->accept_zero, err, errlen))
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
			if (web_get_bool(o, "accept_zero", &cmd->accept_zero, err, errlen))
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
		if (web_get_bool(o, "dye_up", &cmd->dye_up, err, errlen))
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
	case WEB_CMD_FACE:
		if (parse_face(o, cmd, err, errlen))
			goto free_json;
		__attribute__((fallthrough));
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
