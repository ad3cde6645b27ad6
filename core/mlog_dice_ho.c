/* mlog_dice: the lines of a Horse log (roll-offs, turns) and its final
 * line, ruled by the engine in dice_ho.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "core/mlog_dice_internal.h"

static json_t *tied_json(const struct mlog_dice_names *pl, const bool *tied)
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

int mlog_dice_ho_line(struct mlog_dice_run *st, json_t *obj, char *err, size_t errlen)
{
	static const char *const roll_f[] = { "type", "rolls", NULL };
	static const char *const turn_f[] = { "type", "player", "rolls", "keep", NULL };
	const struct dice_ho_cfg *cfg = &st->m.ho;
	const struct mlog_dice_names *pl = &st->m.pl;
	const char *type = mlog_dice_type_of(obj);
	struct dice_ho_ruling r;
	int zero[DICE_MAX_PLAYERS] = { 0 };
	json_t *o;

	if (!strcmp(type, "rolloff")) {
		struct dice_ho_rolloff ro;
		json_t *rolls = json_object_get(obj, "rolls"), *v;
		const char *key;

		memset(&ro, 0, sizeof(ro));
		if (mlog_dice_check_fields(obj, roll_f, err, errlen))
			return -EINVAL;
		if (!json_is_object(rolls)) {
			snprintf(err, errlen, "rolls: an object of player: the one die rolled");
			return -EINVAL;
		}
		json_object_foreach(rolls, key, v) {
			int p = mlog_dice_player_index(pl, key);
			char f[64];

			if (p == DICE_NOBODY) {
				char b[48];

				snprintf(err, errlen, "rolls: '%s' is not a player of this match", mlog_dice_shown(key, b));
				return -EINVAL;
			}
			snprintf(f, sizeof(f), "rolls.%s", key);
			if (mlog_dice_get_small_int(v, f, 1, 6, &ro.value[p], err, errlen))
				return -EINVAL;
			ro.rolled[p] = true;
		}
		if (dice_ho_rolloff_step(cfg, &st->ho, &ro, &r, &st->ho, err, errlen))
			return -EINVAL;
		o = json_pack("{s:s,s:s,s:o,s:i,s:o,s:o}", "type", "ruling", "kind", "rolloff",
			      "starts", mlog_dice_name_or_null(pl, r.player), "points", 0,
			      "penalties", json_object(), "why", mlog_dice_why_json(r.why, r.n_why));
		if (o && r.any_tied)
			json_object_set_new(o, "tied", tied_json(pl, r.tied));
		return mlog_dice_emit(st, o);
	}
	if (strcmp(type, "turn"))
		return mlog_dice_wrong_type(st, type, err, errlen);

	struct dice_ho_turn t;

	if (mlog_dice_check_fields(obj, turn_f, err, errlen) ||
	    mlog_dice_get_player(obj, pl, &t.player, false, err, errlen) ||
	    mlog_dice_get_rolls(obj, &t.rolls, err, errlen))
		return -EINVAL;
	if (dice_ho_step(cfg, &st->ho, &t, &r, &st->ho, err, errlen))
		return -EINVAL;
	o = json_pack("{s:s,s:i,s:s,s:i,s:b,s:o,s:o,s:o,s:i,s:o,s:o}",
		      "type", "ruling", "turn", r.turn, "player", cfg->players[r.player],
		      "round", r.round, "tie_round", r.tie_round,
		      "dice", mlog_dice_faces_json(r.dice, DICE_N),
		      "kept", mlog_dice_kept_json(&t.rolls, r.kept),
		      "hand", hand_json(&r.hand), "points", 0,
		      "penalties", mlog_dice_per_player(pl, zero, false),
		      "why", mlog_dice_why_json(r.why, r.n_why));
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
		json_object_set_new(o, "legs", mlog_dice_per_player(pl, r.legs, false));
	if (r.over) {
		json_object_set_new(o, "loser", json_string(cfg->players[r.loser]));
		json_object_set_new(o, "over", json_true());
	}
	return mlog_dice_emit(st, o);
}

int mlog_dice_ho_final(struct mlog_dice_run *st)
{
	const struct mlog_dice_names *pl = &st->m.pl;
	json_t *out = json_array(), *o;

	for (int k = 0; out && k < st->ho.n_out; k++)
		json_array_append_new(out, json_string(pl->name[st->ho.out[k]]));
	o = json_pack("{s:s,s:o,s:b,s:o}", "type", "final", "out", out,
		      "over", st->ho.phase == DICE_HO_OVER, "loser", mlog_dice_name_or_null(pl, st->ho.loser));
	return mlog_dice_emit(st, o);
}
