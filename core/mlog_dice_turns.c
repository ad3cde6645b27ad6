/* mlog_dice: the moves as entered, kept so that an undo or a correction
 * line can refold the game from the moves that stand (docs/dice-games.md,
 * "Undo and correction"), and what the score sheet says of them: each
 * turn, what the last line did and what the next move takes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/mlog_dice_internal.h"

#define MSG 256

void mlog_dice_reset(struct mlog_dice_run *st)
{
	dice_yatzy_state_init(&st->yz);
	dice_dm_state_init(&st->dm, &st->m.dm);
	dice_ho_state_init(&st->ho, &st->m.ho);
}

int mlog_dice_game_line(struct mlog_dice_run *st, json_t *obj, char *err, size_t errlen)
{
	switch (st->m.game) {
	case DICE_YZ:
	case DICE_YJ:
		return mlog_dice_yatzy_line(st, obj, err, errlen);
	case DICE_DM:
		return mlog_dice_dm_line(st, obj, err, errlen);
	case DICE_HO:
		return mlog_dice_ho_line(st, obj, err, errlen);
	}
	return -EINVAL;
}

void mlog_dice_run_release(struct mlog_dice_run *st)
{
	for (size_t i = 0; i < st->n_e; i++) {
		json_decref(st->e[i].move);
		json_decref(st->e[i].ruling);
		json_decref(st->e[i].audit);
	}
	free(st->e);
	json_decref(st->ruling);
	st->e = NULL;
	st->n_e = st->cap_e = 0;
	st->ruling = NULL;
}

/* Any line may say who entered it: "audit":{"official":..,"wall_ms":..,
 * "reason":..}. Taken out of obj into *audit (NULL: none), so the games'
 * readers never see it. */
static int take_audit(json_t *obj, json_t **audit, char *err, size_t errlen)
{
	static const char *const fields[] = { "official", "wall_ms", "reason", NULL };
	json_t *a = json_object_get(obj, "audit"), *v;
	char sub[160];

	*audit = NULL;
	if (!a)
		return 0;
	if (!json_is_object(a)) {
		snprintf(err, errlen, "audit: an object of official, wall_ms and reason");
		return -EINVAL;
	}
	if (mlog_dice_check_fields(a, fields, sub, sizeof(sub))) {
		snprintf(err, errlen, "audit.%s", sub);
		return -EINVAL;
	}
	v = json_object_get(a, "official");
	if (v && (!json_is_string(v) || json_string_length(v) > 32)) {
		snprintf(err, errlen, "audit.official: a name of at most 32 bytes");
		return -EINVAL;
	}
	v = json_object_get(a, "wall_ms");
	if (v && (!json_is_integer(v) || json_integer_value(v) < 0)) {
		snprintf(err, errlen, "audit.wall_ms: Unix time in ms, a whole number");
		return -EINVAL;
	}
	v = json_object_get(a, "reason");
	if (v && (!json_is_string(v) || json_string_length(v) > 200)) {
		snprintf(err, errlen, "audit.reason: text of at most 200 bytes");
		return -EINVAL;
	}
	*audit = json_incref(a);
	json_object_del(obj, "audit");
	return 0;
}

/* The move standing as turn, or NULL. */
static struct mlog_dice_entry *standing(struct mlog_dice_run *st, int turn)
{
	for (size_t i = st->n_e; i-- > 0;)
		if (!st->e[i].undone && st->e[i].turn == turn)
			return &st->e[i];
	return NULL;
}

static void set_json(json_t **slot, json_t *v)
{
	json_decref(*slot);
	*slot = v;
}

/* Folds the standing moves again from the start. Those from turn `from`
 * on (0: none) write their new rulings, marked "refold":from. A move that
 * no longer fits is named: "turn K: FIELD: why". */
static int refold(struct mlog_dice_run *st, int from, char *err, size_t errlen)
{
	struct mlog_buf *out = st->out;
	char msg[MSG];
	int rc = 0;

	mlog_dice_reset(st);
	st->out = NULL;
	for (size_t i = 0; i < st->n_e && rc == 0; i++) {
		struct mlog_dice_entry *e = &st->e[i];

		if (e->undone)
			continue;
		rc = mlog_dice_game_line(st, e->move, msg, sizeof(msg));
		if (rc == -EINVAL)
			snprintf(err, errlen, "turn %d%s: %s", e->turn,
				 from && e->turn > from ? " no longer fits" : "", msg);
		if (rc)
			break;
		set_json(&e->ruling, json_incref(st->ruling));
		if (from && e->turn >= from && out) {
			json_t *r = json_deep_copy(st->ruling);

			rc = r ? json_object_set_new(r, "refold", json_integer(from)) : -ENOMEM;
			rc = rc ? -ENOMEM : mlog_dice_put(out, r);
			json_decref(r);
		}
	}
	st->out = out;
	return rc;
}

static int push_entry(struct mlog_dice_run *st, json_t *move, json_t *audit)
{
	struct mlog_dice_entry *e;

	if (st->n_e == st->cap_e) {
		size_t cap = st->cap_e ? 2 * st->cap_e : 32;
		struct mlog_dice_entry *n = realloc(st->e, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		st->e = n;
		st->cap_e = cap;
	}
	e = &st->e[st->n_e++];
	memset(e, 0, sizeof(*e));
	e->move = json_incref(move);
	e->ruling = json_incref(st->ruling);
	e->audit = json_incref(audit);
	e->turn = ++st->standing;
	st->action = MLOG_DICE_MOVE;
	st->action_turn = e->turn;
	return 0;
}

static int get_turn(json_t *obj, int *turn, char *err, size_t errlen)
{
	json_t *v = json_object_get(obj, "turn");

	if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 1000000) {
		snprintf(err, errlen, "turn: the number of a turn, from 1");
		return -EINVAL;
	}
	*turn = (int)json_integer_value(v);
	return 0;
}

/* {"type":"undo","turn":N}: withdraws the last move standing, N. */
static int undo_line(struct mlog_dice_run *st, json_t *obj, json_t *audit, char *err, size_t errlen)
{
	static const char *const fields[] = { "type", "turn", NULL };
	struct mlog_dice_entry *e;
	json_t *player;
	int turn, rc;

	if (mlog_dice_check_fields(obj, fields, err, errlen) || get_turn(obj, &turn, err, errlen))
		return -EINVAL;
	if (st->standing == 0) {
		snprintf(err, errlen, "turn: no turn to undo");
		return -EINVAL;
	}
	if (turn != st->standing) {
		snprintf(err, errlen, "turn: only the last turn, %d, can be undone, not %d", st->standing,
			 turn);
		return -EINVAL;
	}
	e = standing(st, turn);
	e->undone = true;
	if (audit)
		set_json(&e->audit, json_incref(audit));
	st->standing--;
	rc = refold(st, 0, err, errlen);
	if (rc)
		return rc;
	st->action = MLOG_DICE_UNDO;
	st->action_turn = turn;
	player = e->ruling ? json_object_get(e->ruling, "player") : NULL;
	return mlog_dice_emit(st, json_pack("{s:s,s:s,s:i,s:O?}", "type", "ruling", "kind", "undo",
					    "turn", turn, "player", player));
}

/* {"type":"replace","turn":N,"move":{..}}, a correction: turn N is now
 * move; the game is folded again and every ruling from N on written anew. */
static int replace_line(struct mlog_dice_run *st, json_t *obj, json_t *audit, char *err,
			size_t errlen)
{
	static const char *const fields[] = { "type", "turn", "move", NULL };
	json_t *move = json_object_get(obj, "move");
	const char *type = mlog_dice_type_of(move);
	struct mlog_dice_entry *e;
	int turn, rc;

	if (mlog_dice_check_fields(obj, fields, err, errlen) || get_turn(obj, &turn, err, errlen))
		return -EINVAL;
	e = standing(st, turn);
	if (!e) {
		snprintf(err, errlen, "turn: no turn %d stands (turns 1 to %d do)", turn, st->standing);
		return -EINVAL;
	}
	if (!json_is_object(move) || !type[0] || !strcmp(type, "match") || !strcmp(type, "undo") ||
	    !strcmp(type, "replace")) {
		snprintf(err, errlen, "move: the turn's new line, {\"type\":\"turn\",...}");
		return -EINVAL;
	}
	set_json(&e->move, json_incref(move));
	if (audit)
		set_json(&e->audit, json_incref(audit));
	e->corrected = true;
	rc = refold(st, turn, err, errlen);
	if (rc)
		return rc;
	st->action = MLOG_DICE_CORRECT;
	st->action_turn = turn;
	return 0;
}

int mlog_dice_entry_line(struct mlog_dice_run *st, json_t *obj, char *err, size_t errlen)
{
	const char *type = mlog_dice_type_of(obj);
	json_t *audit;
	int rc;

	if (take_audit(obj, &audit, err, errlen))
		return -EINVAL;
	if (!strcmp(type, "undo"))
		rc = undo_line(st, obj, audit, err, errlen);
	else if (!strcmp(type, "replace"))
		rc = replace_line(st, obj, audit, err, errlen);
	else if ((rc = mlog_dice_game_line(st, obj, err, errlen)) == 0)
		rc = push_entry(st, obj, audit);
	json_decref(audit);
	return rc;
}

/* ---- The sheet: turns, the last line, the next move ---- */

static const char *str_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static int int_of(const json_t *o, const char *key)
{
	return (int)json_integer_value(json_object_get(o, key));
}

/* "ann 5, cid 1" from {"ann":5,"cid":1}. */
static void per_player_words(const json_t *pen, char *buf, size_t n)
{
	const char *key;
	json_t *v;
	size_t len = 0;

	buf[0] = '\0';
	json_object_foreach((json_t *)pen, key, v) {
		int k = snprintf(buf + len, n - len, "%s%s %lld", len ? ", " : "", key,
				 (long long)json_integer_value(v));

		if (k < 0 || (size_t)k >= n - len)
			break;
		len += (size_t)k;
	}
}

static void names_words(const json_t *names, char *buf, size_t n)
{
	size_t i, len = 0;
	json_t *v;

	buf[0] = '\0';
	json_array_foreach((json_t *)names, i, v) {
		int k = snprintf(buf + len, n - len, "%s%s", i ? ", " : "", json_string_value(v));

		if (k < 0 || (size_t)k >= n - len)
			break;
		len += (size_t)k;
	}
}

/* What a move did, in words for the console ("Wrote 0 in full_house for
 * Kim"). */
static void words(const struct mlog_dice_run *st, const struct mlog_dice_entry *e, char *buf,
		  size_t n)
{
	const json_t *r = e->ruling, *m = e->move;
	const char *type = mlog_dice_type_of((json_t *)m), *who = str_of(r, "player");
	char list[160];

	if (!r) {
		snprintf(buf, n, "turn %d", e->turn);
		return;
	}
	if (st->m.game == DICE_YZ || st->m.game == DICE_YJ) {
		snprintf(buf, n, "Wrote %d in %s for %s%s%s", int_of(r, "points"), str_of(r, "box"), who,
			 json_is_true(json_object_get(r, "joker")) ? " (a joker)" : "",
			 int_of(r, "yatzy_bonus") ? ", and a yatzy bonus of 100" : "");
	} else if (st->m.game == DICE_DM) {
		per_player_words(json_object_get(r, "penalties"), list, sizeof(list));
		if (!strcmp(type, "turn"))
			snprintf(buf, n, "%s's %s: %s", who,
				 json_is_true(json_object_get(r, "revenge")) ? "revenge" : "turn",
				 list[0] ? list : "no sips");
		else if (!strcmp(type, "choose") && json_is_string(json_object_get(r, "dreiermann")))
			snprintf(buf, n, "%s is the %sDreiermann", str_of(r, "dreiermann"),
				 json_is_true(json_object_get(r, "double")) ? "double " : "");
		else if (!strcmp(type, "choose") && json_is_true(json_object_get(m, "dropped")))
			snprintf(buf, n, "%s dropped a die: no Dreiermann yet", who);
		else if (!strcmp(type, "choose"))
			snprintf(buf, n, "%s rolled %d-%d: no Dreiermann yet", who,
				 (int)json_integer_value(json_array_get(json_object_get(m, "roll"), 0)),
				 (int)json_integer_value(json_array_get(json_object_get(m, "roll"), 1)));
		else if (!strcmp(type, "declare_double"))
			snprintf(buf, n, "%s declared the round double", who);
		else
			snprintf(buf, n, "%s takes a sip (%s)", who, str_of(m, "reason"));
	} else if (!strcmp(type, "rolloff")) {
		names_words(json_object_get(r, "tied"), list, sizeof(list));
		if (json_is_string(json_object_get(r, "starts")))
			snprintf(buf, n, "%s starts", str_of(r, "starts"));
		else
			snprintf(buf, n, "Tied: %s roll again", list);
	} else {
		size_t len = (size_t)snprintf(buf, n, "%s: %s", who, str_of(r, "hand"));

		names_words(json_object_get(r, "tied"), list, sizeof(list));
		if (len < n && json_is_string(json_object_get(r, "loser")))
			snprintf(buf + len, n - len, "; %s loses", str_of(r, "loser"));
		else if (len < n && json_is_string(json_object_get(r, "out")))
			snprintf(buf + len, n - len, "; %s is out (safe)", str_of(r, "out"));
		else if (len < n && list[0])
			snprintf(buf + len, n - len, "; tied: %s play a tie round", list);
		else if (len < n && !strcmp(str_of(r, "mark_player"), who))
			snprintf(buf + len, n - len, ", the mark to beat");
	}
}

static json_t *copy_of(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return v ? json_deep_copy(v) : json_null();
}

static json_t *turn_json(const struct mlog_dice_run *st, const struct mlog_dice_entry *e)
{
	const json_t *r = e->ruling, *m = e->move;
	const char *type = mlog_dice_type_of((json_t *)m);
	json_t *rolls = json_object_get(m, "rolls");
	char text[256];

	words(st, e, text, sizeof(text));
	/* A choosing roll is one roll: listed as the turns' are, a list. */
	if (!rolls && json_object_get(m, "roll"))
		rolls = json_pack("[O]", json_object_get(m, "roll"));
	else
		rolls = rolls ? json_deep_copy(rolls) : json_array();
	return json_pack("{s:i,s:s,s:o,s:o,s:i,s:o,s:o,s:o,s:o,s:o,s:s,s:b,s:b,s:o,s:o}",
			 "turn", e->turn, "kind", type, "player", copy_of(r, "player"),
			 "box", copy_of(r, "box"), "points", int_of(r, "points"),
			 "rolls", rolls, "dice", copy_of(r, "dice"), "hand", copy_of(r, "hand"),
			 "penalties", r && json_object_get(r, "penalties") ?
				      json_deep_copy(json_object_get(r, "penalties")) : json_object(),
			 "kept", copy_of(r, "kept"), "text", text, "undone", e->undone,
			 "corrected", e->corrected, "move", json_deep_copy(m),
			 "audit", e->audit ? json_deep_copy(e->audit) : json_null());
}

/* What the last line did: {"action":"move","turn":N,"player":..,"box":..,
 * "points":..,"wrote":true,"text":"Wrote 0 in full_house for Kim"}, or
 * null before the first move. */
static json_t *last_json(const struct mlog_dice_run *st)
{
	static const char *const actions[] = { "", "move", "undo", "correct" };
	const struct mlog_dice_entry *e = NULL;
	char text[256], said[300];

	for (size_t i = st->n_e; i-- > 0 && !e;)
		if (st->e[i].turn == st->action_turn &&
		    st->e[i].undone == (st->action == MLOG_DICE_UNDO))
			e = &st->e[i];
	if (st->action == MLOG_DICE_NONE || !e)
		return json_null();
	words(st, e, text, sizeof(text));
	if (st->action == MLOG_DICE_UNDO)
		snprintf(said, sizeof(said), "Turn %d undone. It was: %s", e->turn, text);
	else if (st->action == MLOG_DICE_CORRECT)
		snprintf(said, sizeof(said), "Turn %d corrected. %s", e->turn, text);
	else
		snprintf(said, sizeof(said), "%s", text);
	return json_pack("{s:s,s:i,s:o,s:o,s:i,s:b,s:s}", "action", actions[st->action],
			 "turn", e->turn, "player", copy_of(e->ruling, "player"),
			 "box", copy_of(e->ruling, "box"), "points", int_of(e->ruling, "points"),
			 "wrote", st->action != MLOG_DICE_UNDO, "text", said);
}

static json_t *name_json(const struct mlog_dice_run *st, int p)
{
	return mlog_dice_name_or_null(&st->m.pl, p);
}

/* What the next move takes, for the console's form (docs/dice-games.md,
 * "Score sheets"): {"move":"turn"|"choose"|"rolloff"|null,...}. */
static json_t *input_json(const struct mlog_dice_run *st)
{
	json_t *o = json_object(), *a;

	if (!o)
		return NULL;
	switch (st->m.game) {
	case DICE_YZ:
	case DICE_YJ: {
		int p = dice_yatzy_next_player(&st->m.yz, &st->yz);

		if (st->yz.over || p < 0)
			break;
		a = json_array();
		for (int b = 0; a && b < DICE_BOX_COUNT; b++)
			if (dice_game_has_box(st->m.game, (enum dice_box)b) && !st->yz.card[p].used[b])
				json_array_append_new(a, json_string(dice_box_name((enum dice_box)b)));
		json_object_set_new(o, "move", json_string("turn"));
		json_object_set_new(o, "player", name_json(st, p));
		json_object_set_new(o, "dice", json_integer(DICE_N));
		json_object_set_new(o, "rolls", json_integer(DICE_MAX_ROLLS));
		json_object_set_new(o, "free", a);
		return o;
	}
	case DICE_DM: {
		const struct dice_dm_house *h = &st->m.dm.house;
		int p = dice_dm_next_player(&st->m.dm, &st->dm);

		if (st->dm.phase == DICE_DM_OVER)
			break;
		json_object_set_new(o, "move", json_string(st->dm.phase == DICE_DM_CHOOSING ? "choose" : "turn"));
		json_object_set_new(o, "player", name_json(st, p));
		json_object_set_new(o, "dice", json_integer(2));
		json_object_set_new(o, "revenge", json_boolean(st->dm.phase == DICE_DM_ROUND &&
							       p == st->dm.dreiermann));
		json_object_set_new(o, "share", json_boolean(!h->doubles_to_dreiermann));
		a = json_array();
		if (a && h->declare_double)
			json_array_append_new(a, json_string("declare_double"));
		if (a && (h->breach_sip || h->leave_join_sip))
			json_array_append_new(a, json_string("sip"));
		json_object_set_new(o, "also", a);
		return o;
	}
	case DICE_HO: {
		int p = dice_ho_next_player(&st->m.ho, &st->ho);

		if (st->ho.phase == DICE_HO_OVER)
			break;
		if (st->ho.phase == DICE_HO_ROLLOFF) {
			a = json_array();
			for (size_t q = 0; a && q < st->m.n_players; q++)
				if (st->ho.rolloff_in[q])
					json_array_append_new(a, name_json(st, (int)q));
			json_object_set_new(o, "move", json_string("rolloff"));
			json_object_set_new(o, "players", a);
			json_object_set_new(o, "dice", json_integer(1));
			/* Untied, a turn may come instead (HO-1: no roll-off). */
			json_object_set_new(o, "or_turn", json_boolean(!st->ho.rolloff_tied));
			json_object_set_new(o, "player", name_json(st, p));
			return o;
		}
		json_object_set_new(o, "move", json_string("turn"));
		json_object_set_new(o, "player", name_json(st, p));
		json_object_set_new(o, "dice", json_integer(DICE_N));
		json_object_set_new(o, "rolls", json_integer(DICE_MAX_ROLLS));
		return o;
	}
	}
	json_object_set_new(o, "move", json_null());
	return o;
}

int mlog_dice_sheet_extra(const struct mlog_dice_run *st, json_t *o)
{
	json_t *boxes = json_array(), *turns = json_array();
	int rc = 0;

	for (int b = 0; boxes && b < DICE_BOX_COUNT; b++)
		if ((st->m.game == DICE_YZ || st->m.game == DICE_YJ) &&
		    dice_game_has_box(st->m.game, (enum dice_box)b))
			rc |= json_array_append_new(boxes, json_string(dice_box_name((enum dice_box)b)));
	for (size_t i = 0; turns && i < st->n_e; i++)
		rc |= json_array_append_new(turns, turn_json(st, &st->e[i]));
	rc |= json_object_set_new(o, "boxes", boxes);
	rc |= json_object_set_new(o, "turns", turns);
	rc |= json_object_set_new(o, "last", last_json(st));
	rc |= json_object_set_new(o, "input", input_json(st));
	return rc ? -ENOMEM : 0;
}
