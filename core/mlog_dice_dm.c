/* mlog_dice: the lines of a Dreiermann log (rolls, choosing, shares) and
 * its final line, ruled by the engine in dice_dm.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/mlog_dice_internal.h"

/* A Dreiermann roll: [a, b] or {"dice":[a,b],"share":{..},"dropped":true}. */
static int dm_roll(const struct mlog_dice_names *pl, json_t *v, const char *field,
		   struct dice_dm_roll *roll, char *err, size_t errlen)
{
	static const char *const fields[] = { "dice", "share", "dropped", NULL };
	json_t *dice = v, *share = NULL, *dropped = NULL;
	char f[64];
	int n = 0;

	memset(roll, 0, sizeof(*roll));
	if (json_is_object(v)) {
		char sub[128];

		if (mlog_dice_check_fields(v, fields, sub, sizeof(sub))) {
			snprintf(err, errlen, "%.40s.%.120s", field, sub);
			return -EINVAL;
		}
		dice = json_object_get(v, "dice");
		share = json_object_get(v, "share");
		dropped = json_object_get(v, "dropped");
		snprintf(f, sizeof(f), "%s.dropped", field);
		if (dropped && mlog_dice_get_bool(dropped, f, &roll->dropped, err, errlen))
			return -EINVAL;
		snprintf(f, sizeof(f), "%s.dice", field);
	} else {
		snprintf(f, sizeof(f), "%s", field);
	}
	if (!dice && roll->dropped)
		return 0;
	if (!dice || mlog_dice_get_dice(dice, f, 2, roll->d, &n, err, errlen))
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
			int p = mlog_dice_player_index(pl, key);
			char g[96];

			if (p == DICE_NOBODY) {
				char b[48];

				snprintf(err, errlen, "%s: '%s' is not a player of this match", f, mlog_dice_shown(key, b));
				return -EINVAL;
			}
			snprintf(g, sizeof(g), "%s.%s", f, key);
			if (mlog_dice_get_small_int(x, g, 1, 6, &roll->share[p], err, errlen))
				return -EINVAL;
		}
		roll->has_share = true;
	}
	return 0;
}

static int dm_emit(struct mlog_dice_run *st, const struct dice_dm_ruling *r, const char *kind)
{
	const struct mlog_dice_names *pl = &st->m.pl;
	json_t *o = json_pack("{s:s}", "type", "ruling");
	bool any_empty = false;

	if (!o)
		return -ENOMEM;
	json_object_set_new(o, "move", json_integer(r->move));
	if (kind)
		json_object_set_new(o, "kind", json_string(kind));
	else
		json_object_set_new(o, "turn", json_integer(r->turn));
	json_object_set_new(o, "player", mlog_dice_name_or_null(pl, r->player));
	json_object_set_new(o, "round", json_integer(r->round));
	if (!kind)
		json_object_set_new(o, "revenge", json_boolean(r->revenge));
	json_object_set_new(o, "points", json_integer(r->points));
	json_object_set_new(o, "penalties", mlog_dice_per_player(pl, r->penalties, false));
	for (size_t p = 0; p < pl->n; p++)
		any_empty |= r->empties[p] != 0;
	if (any_empty)
		json_object_set_new(o, "empties", mlog_dice_per_player(pl, r->empties, false));
	json_object_set_new(o, "why", mlog_dice_why_json(r->why, r->n_why));
	json_object_set_new(o, "dreiermann", mlog_dice_name_or_null(pl, r->dreiermann));
	json_object_set_new(o, "double", json_boolean(r->dm_double));
	json_object_set_new(o, "sips", mlog_dice_per_player(pl, st->dm.sips, true));
	if (r->over)
		json_object_set_new(o, "over", json_true());
	return mlog_dice_emit(st, o);
}

int mlog_dice_dm_line(struct mlog_dice_run *st, json_t *obj, char *err, size_t errlen)
{
	static const char *const choose_f[] = { "type", "player", "roll", "dropped", NULL };
	static const char *const turn_f[] = { "type", "player", "rolls", "share", NULL };
	static const char *const decl_f[] = { "type", "player", NULL };
	static const char *const sip_f[] = { "type", "player", "reason", NULL };
	const struct dice_dm_cfg *cfg = &st->m.dm;
	const char *type = mlog_dice_type_of(obj), *kind = NULL;
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
		if (mlog_dice_check_fields(obj, choose_f, err, errlen) ||
		    mlog_dice_get_player(obj, &st->m.pl, &mv->player, false, err, errlen) ||
		    (dropped && mlog_dice_get_bool(dropped, "dropped", &mv->rolls[0].dropped, err, errlen)))
			goto free_move;
		if (!mv->rolls[0].dropped || roll) {
			if (!roll) {
				snprintf(err, errlen, "roll: missing: the two dice rolled");
				goto free_move;
			}
			if (mlog_dice_get_dice(roll, "roll", 2, mv->rolls[0].d, &n, err, errlen))
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
		if (mlog_dice_check_fields(obj, turn_f, err, errlen) ||
		    mlog_dice_get_player(obj, &st->m.pl, &mv->player, false, err, errlen))
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
		if (mlog_dice_check_fields(obj, decl_f, err, errlen) ||
		    mlog_dice_get_player(obj, &st->m.pl, &mv->player, false, err, errlen))
			goto free_move;
	} else if (!strcmp(type, "sip")) {
		const char *reason = json_string_value(json_object_get(obj, "reason"));

		kind = "sip";
		mv->kind = DICE_DM_MOVE_SIP;
		if (mlog_dice_check_fields(obj, sip_f, err, errlen) ||
		    mlog_dice_get_player(obj, &st->m.pl, &mv->player, true, err, errlen))
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
		rc = mlog_dice_wrong_type(st, type, err, errlen);
		goto free_move;
	}
	if (dice_dm_step(cfg, &st->dm, mv, &r, &st->dm, err, errlen))
		goto free_move;
	rc = dm_emit(st, &r, kind);
free_move:
	free(mv);
	return rc;
}

int mlog_dice_dm_final(struct mlog_dice_run *st)
{
	const struct dice_dm_cfg *cfg = &st->m.dm;
	bool over = st->dm.phase == DICE_DM_OVER;
	int played = st->dm.phase == DICE_DM_OVER ? st->dm.round : st->dm.round - 1;
	json_t *o = json_pack("{s:s,s:o}", "type", "final",
			      "sips", mlog_dice_per_player(&st->m.pl, st->dm.sips, true));

	if (!o)
		return -ENOMEM;
	if (cfg->house.double_six_empties)
		json_object_set_new(o, "empties", mlog_dice_per_player(&st->m.pl, st->dm.empties, true));
	json_object_set_new(o, "rounds", json_integer(played));
	json_object_set_new(o, "over", json_boolean(over));
	json_object_set_new(o, "winner", mlog_dice_name_or_null(&st->m.pl,
				over ? dice_dm_winner(cfg, &st->dm) : DICE_NOBODY));
	return mlog_dice_emit(st, o);
}
