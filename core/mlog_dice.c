/* mlog_dice: the dice-game match log (JSON Lines) in, rulings out.
 *
 * DESIGN.md fixes the shape ("Dice games use the same shape"); the lines
 * this file adds (keep, Dreiermann choosing, Horse roll-offs, ...) are in
 * docs/dice-games.md. Every line is hostile input: a bad one stops the
 * run with "NAME:LINE: FIELD: why" and no output at all. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "core/mlog_internal.h"

#define MSG 256

/* ---- Output ---- */

/* Appends obj as one compact line and releases it. */
static int emit(struct mlog_buf *t, json_t *obj)
{
	char *s;

	if (!obj)
		return -ENOMEM;
	if (!t) {
		json_decref(obj);
		return 0;
	}
	s = json_dumps(obj, JSON_COMPACT);
	json_decref(obj);
	if (!s)
		return -ENOMEM;
	mlog_buf_puts(t, s);
	mlog_buf_put(t, "\n", 1);
	free(s);
	return t->oom ? -ENOMEM : 0;
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

static const char *shown(const char *s, char buf[48])
{
	return shown_n(s, buf, 41);
}

struct names {
	size_t n;				/* players */
	const char (*name)[DICE_NAME_MAX];	/* their names, not owned */
};

static int player_index(const struct names *pl, const char *s)
{
	for (size_t i = 0; i < pl->n; i++)
		if (!strcmp(pl->name[i], s))
			return (int)i;
	return DICE_NOBODY;
}

/* Only the named fields (and the comment/source/confidence every line may
 * carry) are allowed: a misspelt "keep" must not be silently ignored. */
static int check_fields(json_t *obj, const char *const *allowed, char *err, size_t errlen)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		bool ok = !strcmp(key, "comment") || !strcmp(key, "source") || !strcmp(key, "confidence");

		for (size_t i = 0; allowed[i] && !ok; i++)
			ok = !strcmp(key, allowed[i]);
		if (!ok) {
			char b[48];

			snprintf(err, errlen, "%s: unknown field for this line", shown(key, b));
			return -EINVAL;
		}
	}
	return 0;
}

static int get_bool(json_t *v, const char *field, bool *out, char *err, size_t errlen)
{
	if (!json_is_boolean(v)) {
		snprintf(err, errlen, "%s: true or false", field);
		return -EINVAL;
	}
	*out = json_is_true(v);
	return 0;
}

static int get_small_int(json_t *v, const char *field, long lo, long hi, int *out,
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
static int get_player(json_t *obj, const struct names *pl, int *out, bool required,
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
	*out = player_index(pl, json_string_value(v));
	if (*out == DICE_NOBODY) {
		char b[48];

		snprintf(err, errlen, "player: '%s' is not a player of this match",
			 shown(json_string_value(v), b));
		return -EINVAL;
	}
	return 0;
}

/* A list of dice: at most max values, each a whole number (the engine
 * checks 1..6 and says which rule; values far outside are refused here
 * so they fit an int). */
static int get_dice(json_t *v, const char *field, int max, int *out, int *n,
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
		if (get_small_int(d, f, -1000, 1000, &out[i], err, errlen))
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
static int get_rolls(json_t *obj, struct dice_rolls *r, char *err, size_t errlen)
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
		if (get_dice(json_array_get(rolls, i), f, DICE_N, r->dice[i], &r->n[i], err, errlen))
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
		if (get_dice(v, f, DICE_N, r->keep[i], &r->keep_n[i], err, errlen))
			return -EINVAL;
	}
	return 0;
}

static json_t *dice_json(const int *d, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, json_integer(d[i]));
	return a;
}

static json_t *why_json(const char *const *why, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(why[i]));
	return a;
}

/* {"name": v, ...} over players with a nonzero value (all when all is set). */
static json_t *per_player(const struct names *pl, const int *v, bool all)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < pl->n; i++)
		if (all || v[i])
			json_object_set_new(o, pl->name[i], json_integer(v[i]));
	return o;
}

static json_t *name_or_null(const struct names *pl, int p)
{
	return p >= 0 && (size_t)p < pl->n ? json_string(pl->name[p]) : json_null();
}

static json_t *kept_json(const struct dice_rolls *r, const int kept[DICE_MAX_ROLLS][DICE_N])
{
	json_t *a = json_array();

	for (int k = 1; a && k < r->n_rolls; k++)
		json_array_append_new(a, dice_json(kept[k - 1], DICE_N - r->n[k]));
	return a;
}

/* ---- The match line ---- */

struct match {
	enum dice_game game;		/* from the match line */
	struct names pl;		/* view of players */
	char players[DICE_MAX_PLAYERS][DICE_NAME_MAX];	/* in seat order */
	size_t n_players;		/* entries in players */
	struct dice_yatzy_cfg yz;	/* set for yatzy, yatzy-joker */
	struct dice_dm_cfg dm;		/* set for dreiermann */
	struct dice_ho_cfg ho;		/* set for horse */
};

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

			snprintf(err, errlen, "house.%s: not a house rule of %s", shown(key, b), dice_game_name(g));
			return -EINVAL;
		}
		snprintf(f, sizeof(f), "house.%s", key);
		if (k->flag ? get_bool(v, f, k->flag, err, errlen)
			    : get_small_int(v, f, k->lo, k->hi, k->num, err, errlen))
			return -EINVAL;
	}
	return 0;
}

static int read_match(json_t *obj, struct match *m, char *err, size_t errlen)
{
	static const char *const fields[] = { "type", "game", "players", "house", NULL };
	json_t *game = json_object_get(obj, "game"), *players = json_object_get(obj, "players"), *v;
	json_t *house = json_object_get(obj, "house");
	size_t i, min_players = 1;
	int g;

	memset(m, 0, sizeof(*m));
	if (check_fields(obj, fields, err, errlen))
		return -EINVAL;
	if (!json_is_string(game)) {
		snprintf(err, errlen, "game: missing: one of yatzy, yatzy-joker, dreiermann, horse");
		return -EINVAL;
	}
	g = dice_game_parse(json_string_value(game));
	if (g < 0) {
		char b[48];

		snprintf(err, errlen, "game: '%s' is not a dice game (yatzy, yatzy-joker, dreiermann, horse)",
			 shown(json_string_value(game), b));
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

/* ---- One game's lines ---- */

struct run {
	struct match m;			/* the match line */
	struct dice_yatzy_state yz;	/* the game so far, for yatzy and yatzy-joker */
	struct dice_dm_state dm;	/* ... for dreiermann */
	struct dice_ho_state ho;	/* ... for horse */
	struct mlog_buf *out;		/* NULL: fold only (the sheet) */
};

static const char *type_of(json_t *obj)
{
	const char *t = json_string_value(json_object_get(obj, "type"));

	return t ? t : "";
}

static int wrong_type(struct run *st, const char *type, char *err, size_t errlen)
{
	char b[48];

	snprintf(err, errlen, "type: '%s' is not a line of a %s match", shown(type, b),
		 dice_game_name(st->m.game));
	return -EINVAL;
}

static int yatzy_line(struct run *st, json_t *obj, char *err, size_t errlen)
{
	static const char *const fields[] = { "type", "player", "rolls", "keep", "box", NULL };
	const struct dice_yatzy_cfg *cfg = &st->m.yz;
	struct dice_yatzy_turn t;
	struct dice_yatzy_ruling r;
	json_t *box = json_object_get(obj, "box"), *o;
	int b, tot[DICE_MAX_PLAYERS];

	if (strcmp(type_of(obj), "turn"))
		return wrong_type(st, type_of(obj), err, errlen);
	if (check_fields(obj, fields, err, errlen) || get_player(obj, &st->m.pl, &t.player, false, err, errlen))
		return -EINVAL;
	if (!json_is_string(box)) {
		snprintf(err, errlen, "box: missing: the box the result is written in");
		return -EINVAL;
	}
	b = dice_box_parse(json_string_value(box));
	if (b < 0 || !dice_game_has_box(cfg->game, (enum dice_box)b)) {
		char b[48];

		snprintf(err, errlen, "box: '%s' is not a box of %s", shown(json_string_value(box), b),
			 dice_game_name(cfg->game));
		return -EINVAL;
	}
	t.box = (enum dice_box)b;
	if (get_rolls(obj, &t.rolls, err, errlen))
		return -EINVAL;
	if (dice_yatzy_step(cfg, &st->yz, &t, &r, &st->yz, err, errlen))
		return -EINVAL;
	for (size_t p = 0; p < cfg->n_players; p++)
		tot[p] = 0;
	o = json_pack("{s:s,s:i,s:s,s:o,s:o,s:s,s:i,s:o,s:o,s:i}",
		      "type", "ruling", "turn", r.turn, "player", cfg->players[r.player],
		      "dice", dice_json(r.hand, DICE_N), "kept", kept_json(&t.rolls, r.kept),
		      "box", dice_box_name(r.box), "points", r.points,
		      "penalties", per_player(&st->m.pl, tot, false),
		      "why", why_json(r.why, r.n_why), "total", r.total);
	if (o && r.upper_bonus)
		json_object_set_new(o, "bonus", json_integer(r.upper_bonus));
	if (o && r.yatzy_bonus)
		json_object_set_new(o, "yatzy_bonus", json_integer(r.yatzy_bonus));
	if (o && r.joker)
		json_object_set_new(o, "joker", json_true());
	if (o && r.over)
		json_object_set_new(o, "over", json_true());
	return emit(st->out, o);
}

static int yatzy_final(struct run *st)
{
	const struct dice_yatzy_cfg *cfg = &st->m.yz;
	int up[DICE_MAX_PLAYERS], bonus[DICE_MAX_PLAYERS], total[DICE_MAX_PLAYERS], yb[DICE_MAX_PLAYERS];
	int w = st->yz.over ? dice_yatzy_winner(cfg, &st->yz) : DICE_NOBODY;
	json_t *o;

	for (size_t p = 0; p < cfg->n_players; p++) {
		dice_yatzy_totals(cfg->game, &st->yz.card[p], &up[p], &bonus[p], &total[p]);
		yb[p] = st->yz.card[p].yatzy_bonus;
	}
	o = json_pack("{s:s,s:o,s:o,s:o}", "type", "final",
		      "totals", per_player(&st->m.pl, total, true),
		      "upper", per_player(&st->m.pl, up, true),
		      "bonus", per_player(&st->m.pl, bonus, true));
	if (o && cfg->game == DICE_YJ)
		json_object_set_new(o, "yatzy_bonus", per_player(&st->m.pl, yb, true));
	if (o) {
		json_object_set_new(o, "over", json_boolean(st->yz.over));
		json_object_set_new(o, "winner", name_or_null(&st->m.pl, w));
	}
	if (o && st->yz.over && w == DICE_NOBODY) {
		int best = 0;
		json_t *tied = json_array();

		for (size_t p = 0; p < cfg->n_players; p++)
			best = total[p] > best ? total[p] : best;
		for (size_t p = 0; tied && p < cfg->n_players; p++)
			if (total[p] == best)
				json_array_append_new(tied, json_string(cfg->players[p]));
		json_object_set_new(o, "tied", tied);
	}
	return emit(st->out, o);
}

/* A Dreiermann roll: [a, b] or {"dice":[a,b],"share":{..},"dropped":true}. */
static int dm_roll(const struct names *pl, json_t *v, const char *field, struct dice_dm_roll *roll,
		   char *err, size_t errlen)
{
	static const char *const fields[] = { "dice", "share", "dropped", NULL };
	json_t *dice = v, *share = NULL, *dropped = NULL;
	char f[64];
	int n = 0;

	memset(roll, 0, sizeof(*roll));
	if (json_is_object(v)) {
		char sub[128];

		if (check_fields(v, fields, sub, sizeof(sub))) {
			snprintf(err, errlen, "%.40s.%.120s", field, sub);
			return -EINVAL;
		}
		dice = json_object_get(v, "dice");
		share = json_object_get(v, "share");
		dropped = json_object_get(v, "dropped");
		snprintf(f, sizeof(f), "%s.dropped", field);
		if (dropped && get_bool(dropped, f, &roll->dropped, err, errlen))
			return -EINVAL;
		snprintf(f, sizeof(f), "%s.dice", field);
	} else {
		snprintf(f, sizeof(f), "%s", field);
	}
	if (!dice && roll->dropped)
		return 0;
	if (!dice || get_dice(dice, f, 2, roll->d, &n, err, errlen))
		return dice ? -EINVAL : (snprintf(err, errlen, "%s: two dice", f), -EINVAL);
	if (n != 2) {
		snprintf(err, errlen, "%s: two dice, not %d", f, n);
		return -EINVAL;
	}
	if (share) {
		const char *key;
		json_t *x;

		/* A turn-level share (dm_line) is read with field "": "share". */
		snprintf(f, sizeof(f), "%s%sshare", field, field[0] ? "." : "");
		if (!json_is_object(share)) {
			snprintf(err, errlen, "%s: an object of player: points", f);
			return -EINVAL;
		}
		json_object_foreach(share, key, x) {
			int p = player_index(pl, key);
			char g[96];

			if (p == DICE_NOBODY) {
				char b[48];

				snprintf(err, errlen, "%s: '%s' is not a player of this match", f, shown(key, b));
				return -EINVAL;
			}
			snprintf(g, sizeof(g), "%s.%s", f, key);
			if (get_small_int(x, g, 1, 6, &roll->share[p], err, errlen))
				return -EINVAL;
		}
		roll->has_share = true;
	}
	return 0;
}

static int dm_emit(struct run *st, const struct dice_dm_ruling *r, const char *kind)
{
	const struct names *pl = &st->m.pl;
	json_t *o = json_pack("{s:s}", "type", "ruling");
	bool any_empty = false;

	if (!o)
		return -ENOMEM;
	json_object_set_new(o, "move", json_integer(r->move));
	if (kind)
		json_object_set_new(o, "kind", json_string(kind));
	else
		json_object_set_new(o, "turn", json_integer(r->turn));
	json_object_set_new(o, "player", name_or_null(pl, r->player));
	json_object_set_new(o, "round", json_integer(r->round));
	if (!kind)
		json_object_set_new(o, "revenge", json_boolean(r->revenge));
	json_object_set_new(o, "points", json_integer(r->points));
	json_object_set_new(o, "penalties", per_player(pl, r->penalties, false));
	for (size_t p = 0; p < pl->n; p++)
		any_empty |= r->empties[p] != 0;
	if (any_empty)
		json_object_set_new(o, "empties", per_player(pl, r->empties, false));
	json_object_set_new(o, "why", why_json(r->why, r->n_why));
	json_object_set_new(o, "dreiermann", name_or_null(pl, r->dreiermann));
	json_object_set_new(o, "double", json_boolean(r->dm_double));
	json_object_set_new(o, "sips", per_player(pl, st->dm.sips, true));
	if (r->over)
		json_object_set_new(o, "over", json_true());
	return emit(st->out, o);
}

static int dm_line(struct run *st, json_t *obj, char *err, size_t errlen)
{
	static const char *const choose_f[] = { "type", "player", "roll", "dropped", NULL };
	static const char *const turn_f[] = { "type", "player", "rolls", "share", NULL };
	static const char *const decl_f[] = { "type", "player", NULL };
	static const char *const sip_f[] = { "type", "player", "reason", NULL };
	const struct dice_dm_cfg *cfg = &st->m.dm;
	const char *type = type_of(obj), *kind = NULL;
	struct dice_dm_move *mv;
	struct dice_dm_ruling r;
	int rc = -EINVAL;

	mv = calloc(1, sizeof(*mv));
	if (!mv)
		return -ENOMEM;
	if (!strcmp(type, "choose")) {
		json_t *roll = json_object_get(obj, "roll"), *dropped = json_object_get(obj, "dropped");
		int n = 0;

		kind = "choose";
		mv->kind = DICE_DM_MOVE_CHOOSE;
		mv->n_rolls = 1;
		if (check_fields(obj, choose_f, err, errlen) ||
		    get_player(obj, &st->m.pl, &mv->player, false, err, errlen) ||
		    (dropped && get_bool(dropped, "dropped", &mv->rolls[0].dropped, err, errlen)))
			goto free_move;
		if (!mv->rolls[0].dropped || roll) {
			if (!roll) {
				snprintf(err, errlen, "roll: missing: the two dice rolled");
				goto free_move;
			}
			if (get_dice(roll, "roll", 2, mv->rolls[0].d, &n, err, errlen))
				goto free_move;
			if (n != 2) {
				snprintf(err, errlen, "roll: two dice, not %d", n);
				goto free_move;
			}
		}
	} else if (!strcmp(type, "turn")) {
		json_t *rolls = json_object_get(obj, "rolls"), *share = json_object_get(obj, "share"), *v;
		size_t i, doubles = 0, which = 0;

		mv->kind = DICE_DM_MOVE_TURN;
		if (check_fields(obj, turn_f, err, errlen) ||
		    get_player(obj, &st->m.pl, &mv->player, false, err, errlen))
			goto free_move;
		if (!json_is_array(rolls) || json_array_size(rolls) == 0 ||
		    json_array_size(rolls) > DICE_DM_MAX_ROLLS) {
			snprintf(err, errlen, "rolls: a list of 1 to %d rolls of two dice", DICE_DM_MAX_ROLLS);
			goto free_move;
		}
		json_array_foreach(rolls, i, v) {
			char f[40];

			snprintf(f, sizeof(f), "rolls[%zu]", i);
			if (dm_roll(&st->m.pl, v, f, &mv->rolls[i], err, errlen))
				goto free_move;
			if (!mv->rolls[i].dropped && mv->rolls[i].d[0] == mv->rolls[i].d[1]) {
				doubles++;
				which = i;
			}
		}
		mv->n_rolls = json_array_size(rolls);
		if (share) {
			/* DESIGN.md's turn-level "share": the turn's one double. */
			json_t *wrap;
			struct dice_dm_roll tmp;

			if (doubles != 1 || mv->rolls[which].has_share) {
				snprintf(err, errlen, "share: the turn has %zu doubles not shared in their roll; "
					 "a turn-level share needs exactly one", doubles);
				goto free_move;
			}
			wrap = json_pack("{s:[i,i],s:O}", "dice", mv->rolls[which].d[0],
					 mv->rolls[which].d[1], "share", share);
			if (!wrap) {
				rc = -ENOMEM;
				goto free_move;
			}
			rc = dm_roll(&st->m.pl, wrap, "", &tmp, err, errlen);
			json_decref(wrap);
			if (rc)
				goto free_move;
			rc = -EINVAL;
			mv->rolls[which] = tmp;
		}
	} else if (!strcmp(type, "declare_double")) {
		kind = "declare_double";
		mv->kind = DICE_DM_MOVE_DECLARE_DOUBLE;
		if (check_fields(obj, decl_f, err, errlen) ||
		    get_player(obj, &st->m.pl, &mv->player, false, err, errlen))
			goto free_move;
	} else if (!strcmp(type, "sip")) {
		const char *reason = json_string_value(json_object_get(obj, "reason"));

		kind = "sip";
		mv->kind = DICE_DM_MOVE_SIP;
		if (check_fields(obj, sip_f, err, errlen) ||
		    get_player(obj, &st->m.pl, &mv->player, true, err, errlen))
			goto free_move;
		if (reason && !strcmp(reason, "breach"))
			mv->reason = DICE_DM_SIP_BREACH;
		else if (reason && !strcmp(reason, "leave"))
			mv->reason = DICE_DM_SIP_LEAVE;
		else if (reason && !strcmp(reason, "join"))
			mv->reason = DICE_DM_SIP_JOIN;
		else {
			snprintf(err, errlen, "reason: breach, leave or join");
			goto free_move;
		}
	} else {
		rc = wrong_type(st, type, err, errlen);
		goto free_move;
	}
	if (dice_dm_step(cfg, &st->dm, mv, &r, &st->dm, err, errlen))
		goto free_move;
	rc = dm_emit(st, &r, kind);
free_move:
	free(mv);
	return rc;
}

static int dm_final(struct run *st)
{
	const struct dice_dm_cfg *cfg = &st->m.dm;
	bool over = st->dm.phase == DICE_DM_OVER;
	int played = st->dm.phase == DICE_DM_OVER ? st->dm.round : st->dm.round - 1;
	json_t *o = json_pack("{s:s,s:o}", "type", "final", "sips", per_player(&st->m.pl, st->dm.sips, true));

	if (!o)
		return -ENOMEM;
	if (cfg->house.double_six_empties)
		json_object_set_new(o, "empties", per_player(&st->m.pl, st->dm.empties, true));
	json_object_set_new(o, "rounds", json_integer(played));
	json_object_set_new(o, "over", json_boolean(over));
	json_object_set_new(o, "winner", name_or_null(&st->m.pl, over ? dice_dm_winner(cfg, &st->dm) : DICE_NOBODY));
	return emit(st->out, o);
}

static json_t *tied_json(const struct names *pl, const bool *tied)
{
	json_t *a = json_array();

	for (size_t p = 0; a && p < pl->n; p++)
		if (tied[p])
			json_array_append_new(a, json_string(pl->name[p]));
	return a;
}

static json_t *hand_json(const struct dice_ho_hand *h)
{
	char buf[16];

	dice_ho_format(h, buf, sizeof(buf));
	return json_string(buf);
}

static int ho_line(struct run *st, json_t *obj, char *err, size_t errlen)
{
	static const char *const roll_f[] = { "type", "rolls", NULL };
	static const char *const turn_f[] = { "type", "player", "rolls", "keep", NULL };
	const struct dice_ho_cfg *cfg = &st->m.ho;
	const struct names *pl = &st->m.pl;
	const char *type = type_of(obj);
	struct dice_ho_ruling r;
	int zero[DICE_MAX_PLAYERS] = { 0 };
	json_t *o;

	if (!strcmp(type, "rolloff")) {
		struct dice_ho_rolloff ro;
		json_t *rolls = json_object_get(obj, "rolls"), *v;
		const char *key;

		memset(&ro, 0, sizeof(ro));
		if (check_fields(obj, roll_f, err, errlen))
			return -EINVAL;
		if (!json_is_object(rolls)) {
			snprintf(err, errlen, "rolls: an object of player: the one die rolled");
			return -EINVAL;
		}
		json_object_foreach(rolls, key, v) {
			int p = player_index(pl, key);
			char f[64];

			if (p == DICE_NOBODY) {
				char b[48];

				snprintf(err, errlen, "rolls: '%s' is not a player of this match", shown(key, b));
				return -EINVAL;
			}
			snprintf(f, sizeof(f), "rolls.%s", key);
			if (get_small_int(v, f, 1, 6, &ro.value[p], err, errlen))
				return -EINVAL;
			ro.rolled[p] = true;
		}
		if (dice_ho_rolloff_step(cfg, &st->ho, &ro, &r, &st->ho, err, errlen))
			return -EINVAL;
		o = json_pack("{s:s,s:s,s:o,s:i,s:o,s:o}", "type", "ruling", "kind", "rolloff",
			      "starts", name_or_null(pl, r.player), "points", 0,
			      "penalties", json_object(), "why", why_json(r.why, r.n_why));
		if (o && r.any_tied)
			json_object_set_new(o, "tied", tied_json(pl, r.tied));
		return emit(st->out, o);
	}
	if (strcmp(type, "turn"))
		return wrong_type(st, type, err, errlen);

	struct dice_ho_turn t;

	if (check_fields(obj, turn_f, err, errlen) || get_player(obj, pl, &t.player, false, err, errlen) ||
	    get_rolls(obj, &t.rolls, err, errlen))
		return -EINVAL;
	if (dice_ho_step(cfg, &st->ho, &t, &r, &st->ho, err, errlen))
		return -EINVAL;
	o = json_pack("{s:s,s:i,s:s,s:i,s:b,s:o,s:o,s:o,s:i,s:o,s:o}",
		      "type", "ruling", "turn", r.turn, "player", cfg->players[r.player],
		      "round", r.round, "tie_round", r.tie_round,
		      "dice", dice_json(r.dice, DICE_N), "kept", kept_json(&t.rolls, r.kept),
		      "hand", hand_json(&r.hand), "points", 0,
		      "penalties", per_player(pl, zero, false), "why", why_json(r.why, r.n_why));
	if (!o)
		return -ENOMEM;
	if (r.mark_player != DICE_NOBODY) {
		json_object_set_new(o, "mark", hand_json(&r.mark));
		json_object_set_new(o, "mark_player", json_string(cfg->players[r.mark_player]));
	}
	if (r.round_over)
		json_object_set_new(o, "round_over", json_true());
	if (r.out != DICE_NOBODY)
		json_object_set_new(o, "out", json_string(cfg->players[r.out]));
	if (r.any_tied)
		json_object_set_new(o, "tied", tied_json(pl, r.tied));
	if (cfg->house.final_best_of_three && st->ho.final)
		json_object_set_new(o, "legs", per_player(pl, r.legs, false));
	if (r.over) {
		json_object_set_new(o, "loser", json_string(cfg->players[r.loser]));
		json_object_set_new(o, "over", json_true());
	}
	return emit(st->out, o);
}

static int ho_final(struct run *st)
{
	const struct names *pl = &st->m.pl;
	json_t *out = json_array(), *o;

	for (int k = 0; out && k < st->ho.n_out; k++)
		json_array_append_new(out, json_string(pl->name[st->ho.out[k]]));
	o = json_pack("{s:s,s:o,s:b,s:o}", "type", "final", "out", out,
		      "over", st->ho.phase == DICE_HO_OVER, "loser", name_or_null(pl, st->ho.loser));
	return emit(st->out, o);
}

/* ---- The fold over the log ---- */

static int fold(const char *name, const char *buf, size_t len, struct run *st,
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

		if (mlog_line_blank(&l))
			continue;
		obj = json_loadb(l.start, l.len, JSON_REJECT_DUPLICATES, &jerr);
		if (!obj) {
			char b[160];

			snprintf(err, errlen, "%s:%d: json: %s", name, line, shown_n(jerr.text, b, sizeof(b)));
			return -EINVAL;
		}
		if (!json_is_object(obj)) {
			snprintf(msg, sizeof(msg), "type: each line is a JSON object");
			rc = -EINVAL;
		} else if (!have_match) {
			if (strcmp(type_of(obj), "match")) {
				snprintf(msg, sizeof(msg), "type: a match log starts with a match line");
				rc = -EINVAL;
			} else {
				rc = read_match(obj, &st->m, msg, sizeof(msg));
				if (!rc) {
					have_match = true;
					dice_yatzy_state_init(&st->yz);
					dice_dm_state_init(&st->dm, &st->m.dm);
					dice_ho_state_init(&st->ho, &st->m.ho);
				}
			}
		} else if (!strcmp(type_of(obj), "match")) {
			snprintf(msg, sizeof(msg), "type: one match line per log, at the top");
			rc = -EINVAL;
		} else if (st->m.game == DICE_YZ || st->m.game == DICE_YJ) {
			rc = yatzy_line(st, obj, msg, sizeof(msg));
		} else if (st->m.game == DICE_DM) {
			rc = dm_line(st, obj, msg, sizeof(msg));
		} else {
			rc = ho_line(st, obj, msg, sizeof(msg));
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
	struct run *st;
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
		case DICE_YZ: case DICE_YJ: rc = yatzy_final(st); break;
		case DICE_DM: rc = dm_final(st); break;
		case DICE_HO: rc = ho_final(st); break;
		}
		if (rc)
			snprintf(err, errlen, "%s: out of memory", name);
	}
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
	struct run *st = calloc(1, sizeof(*st));
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
	}
	free(st);
	return rc;
}

int mlog_dice_sheet_json(const struct dice_sheet *sh, char **out, size_t *outlen)
{
	const struct names pl = { sh->n_players, (const char (*)[DICE_NAME_MAX])sh->players };
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
	json_object_set_new(o, "turn", name_or_null(&pl, sh->turn));
	json_object_set_new(o, "round", json_integer(sh->round));
	json_object_set_new(o, "over", json_boolean(sh->over));
	json_object_set_new(o, "winner", name_or_null(&pl, sh->winner));
	json_object_set_new(o, "loser", name_or_null(&pl, sh->loser));
	json_object_set_new(o, "dreiermann", name_or_null(&pl, sh->dreiermann));
	json_object_set_new(o, "double", json_boolean(sh->dm_double));
	json_object_set_new(o, "mark", sh->mark[0] ? json_string(sh->mark) : json_null());
	json_object_set_new(o, "mark_player", name_or_null(&pl, sh->mark_player));
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (!s)
		return -ENOMEM;
	*out = s;
	*outlen = strlen(s);
	return 0;
}
