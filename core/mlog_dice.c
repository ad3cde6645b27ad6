/* mlog_dice: the dice-game match log (JSON Lines) in, rulings out.
 *
 * DESIGN.md fixes the shape ("Dice games use the same shape"); the lines
 * this file adds (keep, Dreiermann choosing, Horse roll-offs, ...) are in
 * docs/dice-games.md. Every line is hostile input: a bad one stops the
 * run with "NAME:LINE: FIELD: why" and no output at all.
 *
 * This file reads the match line and folds the log; each game's lines are
 * read and ruled in its own file (mlog_dice_internal.h lists them). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "core/mlog_internal.h"
#include "core/mlog_dice_internal.h"

#define MSG 256

/* ---- Output ---- */

/* Appends obj as one compact line (NULL t: nothing). */
int mlog_dice_put(struct mlog_buf *t, const json_t *obj)
{
	char *s;

	if (!t)
		return 0;
	s = json_dumps(obj, JSON_COMPACT);
	if (!s)
		return -ENOMEM;
	mlog_buf_puts(t, s);
	mlog_buf_put(t, "\n", 1);
	free(s);
	return t->oom ? -ENOMEM : 0;
}

/* A line's ruling: written out, and kept as st->ruling (which takes obj)
 * for the turn it rules. */
int mlog_dice_emit(struct mlog_dice_run *st, json_t *obj)
{
	if (!obj)
		return -ENOMEM;
	json_decref(st->ruling);
	st->ruling = obj;
	return mlog_dice_put(st->out, obj);
}

/* ---- Reading fields ---- */

/* s for a one-line message: at most n - 1 bytes, control characters as
 * '?' (a name with a newline must not split the message). */
static const char *shown_n(const char *s, char *buf, size_t n)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < n; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
	return buf;
}

const char *mlog_dice_shown(const char *s, char buf[48])
{
	return shown_n(s, buf, 41);
}

int mlog_dice_player_index(const struct mlog_dice_names *pl, const char *s)
{
	for (size_t i = 0; i < pl->n; i++)
		if (!strcmp(pl->name[i], s))
			return (int)i;
	return DICE_NOBODY;
}

/* Only the named fields (and the comment/source/confidence every line may
 * carry) are allowed: a misspelt "keep" must not be silently ignored. */
int mlog_dice_check_fields(json_t *obj, const char *const *allowed, char *err, size_t errlen)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		bool ok = !strcmp(key, "comment") || !strcmp(key, "source") || !strcmp(key, "confidence");

		for (size_t i = 0; allowed[i] && !ok; i++)
			ok = !strcmp(key, allowed[i]);
		if (!ok) {
			char b[48];

			snprintf(err, errlen, "%s: unknown field for this line", mlog_dice_shown(key, b));
			return -EINVAL;
		}
	}
	return 0;
}

int mlog_dice_get_bool(json_t *v, const char *field, bool *out, char *err, size_t errlen)
{
	if (!json_is_boolean(v)) {
		snprintf(err, errlen, "%s: true or false", field);
		return -EINVAL;
	}
	*out = json_is_true(v);
	return 0;
}

int mlog_dice_get_small_int(json_t *v, const char *field, long lo, long hi, int *out,
			    char *err, size_t errlen)
{
	json_int_t x;

	if (!json_is_integer(v)) {
		snprintf(err, errlen, "%s: a whole number", field);
		return -EINVAL;
	}
	x = json_integer_value(v);
	if (x < lo || x > hi) {
		snprintf(err, errlen, "%s: %lld is outside %ld..%ld", field, (long long)x, lo, hi);
		return -EINVAL;
	}
	*out = (int)x;
	return 0;
}

/* "player": optional; DICE_NOBODY when absent. */
int mlog_dice_get_player(json_t *obj, const struct mlog_dice_names *pl, int *out, bool required,
			 char *err, size_t errlen)
{
	json_t *v = json_object_get(obj, "player");

	*out = DICE_NOBODY;
	if (!v) {
		if (required) {
			snprintf(err, errlen, "player: missing");
			return -EINVAL;
		}
		return 0;
	}
	if (!json_is_string(v)) {
		snprintf(err, errlen, "player: a player's name");
		return -EINVAL;
	}
	*out = mlog_dice_player_index(pl, json_string_value(v));
	if (*out == DICE_NOBODY) {
		char b[48];

		snprintf(err, errlen, "player: '%s' is not a player of this match",
			 mlog_dice_shown(json_string_value(v), b));
		return -EINVAL;
	}
	return 0;
}

/* A list of dice: at most max values, each a whole number (the engine
 * checks 1..6 and says which rule; values far outside are refused here
 * so they fit an int). */
int mlog_dice_get_dice(json_t *v, const char *field, int max, int *out, int *n,
		       char *err, size_t errlen)
{
	size_t i;
	json_t *d;

	if (!json_is_array(v)) {
		snprintf(err, errlen, "%s: a list of dice", field);
		return -EINVAL;
	}
	if (json_array_size(v) > (size_t)max) {
		snprintf(err, errlen, "%s: %zu dice, at most %d", field, json_array_size(v), max);
		return -EINVAL;
	}
	json_array_foreach(v, i, d) {
		char f[48];

		snprintf(f, sizeof(f), "%s[%zu]", field, i);
		if (mlog_dice_get_small_int(d, f, -1000, 1000, &out[i], err, errlen))
			return -EINVAL;
		if (out[i] < 1 || out[i] > 6) {
			snprintf(err, errlen, "%s: a die shows 1 to 6, not %d", f, out[i]);
			return -EINVAL;
		}
	}
	*n = (int)json_array_size(v);
	return 0;
}

/* "rolls" and "keep" of a Yatzy or Horse turn. */
int mlog_dice_get_rolls(json_t *obj, struct dice_rolls *r, char *err, size_t errlen)
{
	json_t *rolls = json_object_get(obj, "rolls"), *keep = json_object_get(obj, "keep"), *v;
	size_t i;

	memset(r, 0, sizeof(*r));
	if (!json_is_array(rolls) || json_array_size(rolls) == 0) {
		snprintf(err, errlen, "rolls: a list of rolls, each a list of dice");
		return -EINVAL;
	}
	/* Past three rolls only the count matters: the engine refuses the
	 * turn naming it, and reads no dice of those rolls. */
	r->n_rolls = json_array_size(rolls) > INT_MAX ? INT_MAX : (int)json_array_size(rolls);
	for (i = 0; i < (size_t)r->n_rolls && i <= DICE_MAX_ROLLS; i++) {
		char f[40];

		snprintf(f, sizeof(f), "rolls[%zu]", i);
		if (mlog_dice_get_dice(json_array_get(rolls, i), f, DICE_N, r->dice[i], &r->n[i], err, errlen))
			return -EINVAL;
	}
	if (json_array_size(rolls) > DICE_MAX_ROLLS)
		return 0;
	if (!keep)
		return 0;
	if (!json_is_array(keep) || json_array_size(keep) > DICE_MAX_ROLLS) {
		snprintf(err, errlen, "keep: a list with one list of kept dice per later roll");
		return -EINVAL;
	}
	r->has_keep = true;
	r->n_keep = (int)json_array_size(keep);
	json_array_foreach(keep, i, v) {
		char f[40];

		snprintf(f, sizeof(f), "keep[%zu]", i);
		if (mlog_dice_get_dice(v, f, DICE_N, r->keep[i], &r->keep_n[i], err, errlen))
			return -EINVAL;
	}
	return 0;
}

json_t *mlog_dice_faces_json(const int *d, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, json_integer(d[i]));
	return a;
}

json_t *mlog_dice_why_json(const char *const *why, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(why[i]));
	return a;
}

/* {"name": v, ...} over players with a nonzero value (all when all is set). */
json_t *mlog_dice_per_player(const struct mlog_dice_names *pl, const int *v, bool all)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < pl->n; i++)
		if (all || v[i])
			json_object_set_new(o, pl->name[i], json_integer(v[i]));
	return o;
}

json_t *mlog_dice_name_or_null(const struct mlog_dice_names *pl, int p)
{
	return p >= 0 && (size_t)p < pl->n ? json_string(pl->name[p]) : json_null();
}

json_t *mlog_dice_kept_json(const struct dice_rolls *r, const int kept[DICE_MAX_ROLLS][DICE_N])
{
	json_t *a = json_array();

	for (int k = 1; a && k < r->n_rolls; k++)
		json_array_append_new(a, mlog_dice_faces_json(kept[k - 1], DICE_N - r->n[k]));
	return a;
}

/* ---- The match line ---- */

struct house_key {
	const char *name;	/* as in the log's "house" */
	bool *flag;		/* a boolean setting, or NULL */
	int *num;		/* a number, or NULL */
	int lo, hi;		/* num's allowed range */
};

static int read_house(json_t *house, const struct house_key *keys, enum dice_game g,
		      char *err, size_t errlen)
{
	const char *key;
	json_t *v;

	if (!house)
		return 0;
	if (!json_is_object(house)) {
		snprintf(err, errlen, "house: an object of house rules");
		return -EINVAL;
	}
	json_object_foreach(house, key, v) {
		const struct house_key *k = keys;
		char f[64];

		while (k->name && strcmp(k->name, key))
			k++;
		if (!k->name) {
			char b[48];

			snprintf(err, errlen, "house.%s: not a house rule of %s", mlog_dice_shown(key, b),
				 dice_game_name(g));
			return -EINVAL;
		}
		snprintf(f, sizeof(f), "house.%s", key);
		if (k->flag ? mlog_dice_get_bool(v, f, k->flag, err, errlen)
			    : mlog_dice_get_small_int(v, f, k->lo, k->hi, k->num, err, errlen))
			return -EINVAL;
	}
	return 0;
}

/* "table", as a Beer Die match line has it (docs/match-log.md): where
 * the game was played; judging ignores it. */
static int read_table(json_t *t, char *err, size_t errlen)
{
	static const char *const fields[] = { "id", "name", NULL };
	json_t *id = json_object_get(t, "id"), *name = json_object_get(t, "name");

	if (!json_is_object(t)) {
		snprintf(err, errlen, "table: expected {\"id\":id,\"name\":name}");
		return -EINVAL;
	}
	if (mlog_dice_check_fields(t, fields, err, errlen))
		return -EINVAL;
	if (!json_is_string(id) || !mlog_table_id_ok(json_string_value(id))) {
		snprintf(err, errlen, "table.id: expected 1 to %d of a-z, 0-9 and '-'", MLOG_TABLE_ID_MAX - 1);
		return -EINVAL;
	}
	if (name && (!json_is_string(name) || !json_string_length(name) ||
		     json_string_length(name) >= MLOG_TABLE_NAME_MAX)) {
		snprintf(err, errlen, "table.name: a name of 1 to %d bytes", MLOG_TABLE_NAME_MAX - 1);
		return -EINVAL;
	}
	for (const char *c = name ? json_string_value(name) : ""; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			snprintf(err, errlen, "table.name: a name without control characters");
			return -EINVAL;
		}
	return 0;
}

static int read_match(json_t *obj, struct mlog_dice_match *m, char *err, size_t errlen)
{
	static const char *const fields[] = { "type", "game", "players", "house", "table", NULL };
	json_t *game = json_object_get(obj, "game"), *players = json_object_get(obj, "players"), *v;
	json_t *house = json_object_get(obj, "house");
	size_t i, min_players = 1;
	int g;

	memset(m, 0, sizeof(*m));
	if (mlog_dice_check_fields(obj, fields, err, errlen))
		return -EINVAL;
	if (json_object_get(obj, "table") && read_table(json_object_get(obj, "table"), err, errlen))
		return -EINVAL;
	if (!json_is_string(game)) {
		snprintf(err, errlen, "game: missing: one of yatzy, yatzy-joker, dreiermann, horse");
		return -EINVAL;
	}
	g = dice_game_parse(json_string_value(game));
	if (g < 0) {
		char b[48];

		snprintf(err, errlen, "game: '%s' is not a dice game (yatzy, yatzy-joker, dreiermann, horse)",
			 mlog_dice_shown(json_string_value(game), b));
		return -EINVAL;
	}
	m->game = (enum dice_game)g;
	if (m->game == DICE_DM)
		min_players = DICE_DM_MIN_PLAYERS;
	else if (m->game == DICE_HO)
		min_players = DICE_HO_MIN_PLAYERS;
	if (!json_is_array(players) || json_array_size(players) < min_players ||
	    json_array_size(players) > DICE_MAX_PLAYERS) {
		snprintf(err, errlen, "players: a list of %zu to %d names for %s", min_players,
			 DICE_MAX_PLAYERS, dice_game_name(m->game));
		return -EINVAL;
	}
	json_array_foreach(players, i, v) {
		const char *s = json_string_value(v);

		if (!s || !s[0] || strlen(s) >= DICE_NAME_MAX) {
			snprintf(err, errlen, "players[%zu]: a name of 1 to %d bytes", i, DICE_NAME_MAX - 1);
			return -EINVAL;
		}
		for (const char *c = s; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f) {
				snprintf(err, errlen, "players[%zu]: a name without control characters", i);
				return -EINVAL;
			}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(m->players[j], s)) {
				snprintf(err, errlen, "players[%zu]: '%s' is listed twice", i, s);
				return -EINVAL;
			}
		snprintf(m->players[i], DICE_NAME_MAX, "%s", s);
	}
	m->n_players = json_array_size(players);
	m->pl.n = m->n_players;
	m->pl.name = (const char (*)[DICE_NAME_MAX])m->players;

	switch (m->game) {
	case DICE_YZ:
	case DICE_YJ: {
		struct dice_yatzy_cfg *c = &m->yz;
		struct house_key yz_keys[] = {
			{ "yatzy_fixed_50", &c->house.yatzy_fixed_50, NULL, 0, 0 },
			{ NULL, NULL, NULL, 0, 0 },
		};
		struct house_key yj_keys[] = {
			{ "joker_after_scratched_yatzy", &c->house.joker_after_scratched_yatzy, NULL, 0, 0 },
			{ NULL, NULL, NULL, 0, 0 },
		};

		c->game = m->game;
		c->n_players = m->n_players;
		memcpy(c->players, m->players, sizeof(c->players));
		dice_yatzy_house_defaults(&c->house);
		return read_house(house, m->game == DICE_YZ ? yz_keys : yj_keys, m->game, err, errlen);
	}
	case DICE_DM: {
		struct dice_dm_cfg *c = &m->dm;
		struct dice_dm_house *h = &c->house;
		struct house_key keys[] = {
			{ "rounds", NULL, &h->rounds, 1, 1000 },
			{ "revenge_sum3_to_others", &h->revenge_sum3_to_others, NULL, 0, 0 },
			{ "drop_choosing_makes_dreiermann", &h->drop_choosing_makes_dreiermann, NULL, 0, 0 },
			{ "drop_in_round_penalty", &h->drop_in_round_penalty, NULL, 0, 0 },
			{ "breach_sip", &h->breach_sip, NULL, 0, 0 },
			{ "leave_join_sip", &h->leave_join_sip, NULL, 0, 0 },
			{ "first_roll_miss_sip", &h->first_roll_miss_sip, NULL, 0, 0 },
			{ "doubles_to_dreiermann", &h->doubles_to_dreiermann, NULL, 0, 0 },
			{ "declare_double", &h->declare_double, NULL, 0, 0 },
			{ "double_six_empties", &h->double_six_empties, NULL, 0, 0 },
			{ NULL, NULL, NULL, 0, 0 },
		};

		c->n_players = m->n_players;
		memcpy(c->players, m->players, sizeof(c->players));
		dice_dm_house_defaults(h);
		return read_house(house, keys, m->game, err, errlen);
	}
	case DICE_HO: {
		struct dice_ho_cfg *c = &m->ho;
		struct house_key keys[] = {
			{ "final_best_of_three", &c->house.final_best_of_three, NULL, 0, 0 },
			{ "five_aces_ends", &c->house.five_aces_ends, NULL, 0, 0 },
			{ NULL, NULL, NULL, 0, 0 },
		};

		c->n_players = m->n_players;
		memcpy(c->players, m->players, sizeof(c->players));
		dice_ho_house_defaults(&c->house);
		return read_house(house, keys, m->game, err, errlen);
	}
	}
	return -EINVAL;
}

/* ---- One game's lines: what every game's file (mlog_dice_yatzy.c,
 * mlog_dice_dm.c, mlog_dice_ho.c) reads them with ---- */

const char *mlog_dice_type_of(json_t *obj)
{
	const char *t = json_string_value(json_object_get(obj, "type"));

	return t ? t : "";
}

int mlog_dice_wrong_type(struct mlog_dice_run *st, const char *type, char *err, size_t errlen)
{
	char b[48];

	snprintf(err, errlen, "type: '%s' is not a line of a %s match", mlog_dice_shown(type, b),
		 dice_game_name(st->m.game));
	return -EINVAL;
}

/* ---- The fold over the log ---- */

static int fold(const char *name, const char *buf, size_t len, struct mlog_dice_run *st,
		char *err, size_t errlen)
{
	struct mlog_line l;
	size_t pos = 0;
	int line = 0, rc = 0;
	bool have_match = false;
	char msg[MSG];

	while (mlog_next_line(buf, len, &pos, &line, &l)) {
		json_error_t jerr;
		json_t *obj;
		bool oom;

		if (mlog_line_blank(&l))
			continue;
		obj = json_loadb(l.start, l.len, JSON_REJECT_DUPLICATES, &jerr);
		if (!obj) {
			char b[160];

			snprintf(err, errlen, "%s:%d: json: %s", name, line, shown_n(mlog_json_why(&jerr, &oom), b, sizeof(b)));
			return oom ? -ENOMEM : -EINVAL;
		}
		if (!json_is_object(obj)) {
			snprintf(msg, sizeof(msg), "type: each line is a JSON object");
			rc = -EINVAL;
		} else if (!have_match) {
			if (strcmp(mlog_dice_type_of(obj), "match")) {
				snprintf(msg, sizeof(msg), "type: a match log starts with a match line");
				rc = -EINVAL;
			} else {
				rc = read_match(obj, &st->m, msg, sizeof(msg));
				if (!rc) {
					have_match = true;
					mlog_dice_reset(st);
				}
			}
		} else if (!strcmp(mlog_dice_type_of(obj), "match")) {
			snprintf(msg, sizeof(msg), "type: one match line per log, at the top");
			rc = -EINVAL;
		} else {
			rc = mlog_dice_entry_line(st, obj, msg, sizeof(msg));
		}
		json_decref(obj);
		if (rc == -ENOMEM) {
			snprintf(err, errlen, "%s:%d: out of memory", name, line);
			return rc;
		}
		if (rc) {
			snprintf(err, errlen, "%s:%d: %s", name, line, msg);
			return rc;
		}
	}
	if (!have_match) {
		snprintf(err, errlen, "%s:%d: type: the log is empty; it starts with a match line", name,
			 line ? line : 1);
		return -EINVAL;
	}
	return 0;
}

int mlog_dice_judge(const char *name, const char *buf, size_t len,
		    char **out, size_t *outlen, char *err, size_t errlen)
{
	struct mlog_buf text = { 0 };
	struct mlog_dice_run *st;
	int rc;

	*out = NULL;
	*outlen = 0;
	st = calloc(1, sizeof(*st));
	if (!st) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	st->out = &text;
	rc = fold(name, buf, len, st, err, errlen);
	if (!rc) {
		switch (st->m.game) {
		case DICE_YZ: case DICE_YJ: rc = mlog_dice_yatzy_final(st); break;
		case DICE_DM: rc = mlog_dice_dm_final(st); break;
		case DICE_HO: rc = mlog_dice_ho_final(st); break;
		}
		if (rc)
			snprintf(err, errlen, "%s: out of memory", name);
	}
	mlog_dice_run_release(st);
	free(st);
	if (rc) {
		mlog_buf_release(&text);
		return rc;
	}
	rc = mlog_buf_finish(&text, out, outlen);
	if (rc)
		snprintf(err, errlen, "%s: out of memory", name);
	return rc;
}

int mlog_dice_sheet(const char *name, const char *buf, size_t len,
		    struct dice_sheet *sheet, char *err, size_t errlen)
{
	struct mlog_dice_run *st = calloc(1, sizeof(*st));
	int rc;

	if (!st) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	rc = fold(name, buf, len, st, err, errlen);
	if (!rc) {
		switch (st->m.game) {
		case DICE_YZ: case DICE_YJ: dice_yatzy_sheet(&st->m.yz, &st->yz, sheet); break;
		case DICE_DM: dice_dm_sheet(&st->m.dm, &st->dm, sheet); break;
		case DICE_HO: dice_ho_sheet(&st->m.ho, &st->ho, sheet); break;
		}
		/* mlog_dice_sheet_json() folds it again for the turns. */
		sheet->log = buf;
		sheet->log_len = len;
	}
	mlog_dice_run_release(st);
	free(st);
	return rc;
}

/* The turns of the log the sheet was folded from, and what comes next
 * (mlog_dice_sheet_extra). -ENOMEM, or 0 (also when the log no longer
 * folds: it did for the sheet). */
static int sheet_turns(const struct dice_sheet *sh, json_t *o)
{
	struct mlog_dice_run *st = calloc(1, sizeof(*st));
	char err[MSG];
	int rc;

	if (!st)
		return -ENOMEM;
	rc = fold("sheet", sh->log, sh->log_len, st, err, sizeof(err));
	if (rc == 0)
		rc = mlog_dice_sheet_extra(st, o);
	mlog_dice_run_release(st);
	free(st);
	return rc == -ENOMEM ? rc : 0;
}

int mlog_dice_sheet_json(const struct dice_sheet *sh, char **out, size_t *outlen)
{
	const struct mlog_dice_names pl = { sh->n_players, (const char (*)[DICE_NAME_MAX])sh->players };
	json_t *o = json_object(), *players = json_array(), *rows = json_array();
	char *s;

	*out = NULL;
	*outlen = 0;
	if (!o || !players || !rows) {
		json_decref(o);
		json_decref(players);
		json_decref(rows);
		return -ENOMEM;
	}
	for (size_t p = 0; p < sh->n_players; p++)
		json_array_append_new(players, json_string(sh->players[p]));
	for (size_t i = 0; i < sh->n_rows && i < DICE_SHEET_ROWS; i++) {
		json_t *cells = json_array();

		for (size_t p = 0; cells && p < sh->n_players; p++) {
			const struct dice_sheet_cell *c = &sh->cell[i][p];

			if (!c->filled)
				json_array_append_new(cells, json_null());
			else if (c->text[0])
				json_array_append_new(cells, json_string(c->text));
			else
				json_array_append_new(cells, json_integer(c->value));
		}
		json_array_append_new(rows, json_pack("{s:s,s:o}", "name", sh->row[i], "cells", cells));
	}
	json_object_set_new(o, "game", json_string(dice_game_name(sh->game)));
	json_object_set_new(o, "players", players);
	json_object_set_new(o, "rows", rows);
	json_object_set_new(o, "turn", mlog_dice_name_or_null(&pl, sh->turn));
	json_object_set_new(o, "round", json_integer(sh->round));
	json_object_set_new(o, "over", json_boolean(sh->over));
	json_object_set_new(o, "winner", mlog_dice_name_or_null(&pl, sh->winner));
	json_object_set_new(o, "loser", mlog_dice_name_or_null(&pl, sh->loser));
	json_object_set_new(o, "dreiermann", mlog_dice_name_or_null(&pl, sh->dreiermann));
	json_object_set_new(o, "double", json_boolean(sh->dm_double));
	json_object_set_new(o, "mark", sh->mark[0] ? json_string(sh->mark) : json_null());
	json_object_set_new(o, "mark_player", mlog_dice_name_or_null(&pl, sh->mark_player));
	if (sh->log && sheet_turns(sh, o)) {
		json_decref(o);
		return -ENOMEM;
	}
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (!s)
		return -ENOMEM;
	*out = s;
	*outlen = strlen(s);
	return 0;
}
