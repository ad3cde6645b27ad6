/* mlog_dice: the lines of a Yatzy or Yatzy-with-joker log (turns) and
 * their final line, ruled by the engine in dice_yatzy.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "core/mlog_dice_internal.h"

int mlog_dice_yatzy_line(struct mlog_dice_run *st, json_t *obj, char *err, size_t errlen)
{
	static const char *const fields[] = { "type", "player", "rolls", "keep", "box", NULL };
	const struct dice_yatzy_cfg *cfg = &st->m.yz;
	struct dice_yatzy_turn t;
	struct dice_yatzy_ruling r;
	json_t *box = json_object_get(obj, "box"), *o;
	int b, tot[DICE_MAX_PLAYERS];

	if (strcmp(mlog_dice_type_of(obj), "turn"))
		return mlog_dice_wrong_type(st, mlog_dice_type_of(obj), err, errlen);
	if (mlog_dice_check_fields(obj, fields, err, errlen) ||
	    mlog_dice_get_player(obj, &st->m.pl, &t.player, false, err, errlen))
		return -EINVAL;
	if (!json_is_string(box)) {
		snprintf(err, errlen, "box: missing: the box the result is written in");
		return -EINVAL;
	}
	b = dice_box_parse(json_string_value(box));
	if (b < 0 || !dice_game_has_box(cfg->game, (enum dice_box)b)) {
		char b[48];

		snprintf(err, errlen, "box: '%s' is not a box of %s", mlog_dice_shown(json_string_value(box), b),
			 dice_game_name(cfg->game));
		return -EINVAL;
	}
	t.box = (enum dice_box)b;
	if (mlog_dice_get_rolls(obj, &t.rolls, err, errlen))
		return -EINVAL;
	if (dice_yatzy_step(cfg, &st->yz, &t, &r, &st->yz, err, errlen))
		return -EINVAL;
	for (size_t p = 0; p < cfg->n_players; p++)
		tot[p] = 0;
	o = json_pack("{s:s,s:i,s:s,s:o,s:o,s:s,s:i,s:o,s:o,s:i}",
		      "type", "ruling", "turn", r.turn, "player", cfg->players[r.player],
		      "dice", mlog_dice_faces_json(r.hand, DICE_N), "kept", mlog_dice_kept_json(&t.rolls, r.kept),
		      "box", dice_box_name(r.box), "points", r.points,
		      "penalties", mlog_dice_per_player(&st->m.pl, tot, false),
		      "why", mlog_dice_why_json(r.why, r.n_why), "total", r.total);
	if (o && r.upper_bonus)
		json_object_set_new(o, "bonus", json_integer(r.upper_bonus));
	if (o && r.yatzy_bonus)
		json_object_set_new(o, "yatzy_bonus", json_integer(r.yatzy_bonus));
	if (o && r.joker)
		json_object_set_new(o, "joker", json_true());
	if (o && r.over)
		json_object_set_new(o, "over", json_true());
	return mlog_dice_emit(st, o);
}

int mlog_dice_yatzy_final(struct mlog_dice_run *st)
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
		      "totals", mlog_dice_per_player(&st->m.pl, total, true),
		      "upper", mlog_dice_per_player(&st->m.pl, up, true),
		      "bonus", mlog_dice_per_player(&st->m.pl, bonus, true));
	if (o && cfg->game == DICE_YJ)
		json_object_set_new(o, "yatzy_bonus", mlog_dice_per_player(&st->m.pl, yb, true));
	if (o) {
		json_object_set_new(o, "over", json_boolean(st->yz.over));
		json_object_set_new(o, "winner", mlog_dice_name_or_null(&st->m.pl, w));
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
	return mlog_dice_emit(st, o);
}
