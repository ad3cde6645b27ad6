/* dice_dm: Dreiermann (DM): choosing the (double) Dreiermann, the rounds
 * with the revenge, the penalties of a roll of two dice and the tally. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

void dice_dm_house_defaults(struct dice_dm_house *h)
{
	memset(h, 0, sizeof(*h));
	h->rounds = 5;				/* DM-14 */
	/* DM-11: in the revenge every penalty of the Dreiermann, DM-5's sum
	 * of 3 included, goes to the others (the seed's "Dreiermann-
	 * Bestrafung"); false is the narrower reading of house rule DM-11a. */
	h->revenge_sum3_to_others = true;
}

void dice_dm_state_init(struct dice_dm_state *s, const struct dice_dm_cfg *cfg)
{
	(void)cfg;
	memset(s, 0, sizeof(*s));
	s->phase = DICE_DM_CHOOSING;
	s->round = 1;
	s->dreiermann = DICE_NOBODY;
	s->last_dreiermann = DICE_NOBODY;
	s->chooser = 0;
}

int dice_dm_next_player(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s)
{
	int n = (int)cfg->n_players;

	switch (s->phase) {
	case DICE_DM_CHOOSING:
		return s->chooser;
	case DICE_DM_ROUND:		/* DM-3: left of the Dreiermann first, the Dreiermann last */
		return (s->dreiermann + 1 + s->turns_done) % n;
	default:
		return DICE_NOBODY;
	}
}

static void why_add(const char **why, size_t *n_why, const char *id)
{
	for (size_t i = 0; i < *n_why; i++)
		if (!strcmp(why[i], id))
			return;
	if (*n_why < DICE_MAX_WHY)
		why[(*n_why)++] = id;
}

/* A penalty that names the Dreiermann: to him, or in his revenge to every
 * other player (DM-11), doubled for a double Dreiermann. */
static void dreiermann_penalty(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s,
			       bool revenge, int points, int pen[DICE_MAX_PLAYERS])
{
	int mult = s->dm_double || s->declared ? 2 : 1;

	if (!revenge) {
		pen[s->dreiermann] += points * mult;
		return;
	}
	for (size_t p = 0; p < cfg->n_players; p++)
		if ((int)p != s->dreiermann)
			pen[p] += points * mult;
}

int dice_dm_roll_penalties(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s,
			   int roller, const struct dice_dm_roll *roll,
			   int pen[DICE_MAX_PLAYERS], int empties[DICE_MAX_PLAYERS],
			   const char **why, size_t *n_why, char *err, size_t errlen)
{
	int n = (int)cfg->n_players;
	int a = roll->d[0], b = roll->d[1], sum = a + b;
	bool revenge = roller == s->dreiermann;
	bool dbl = a == b;
	const struct dice_dm_house *h = &cfg->house;

	if (s->dreiermann < 0 || s->dreiermann >= n || roller < 0 || roller >= n) {
		snprintf(err, errlen, "player: no Dreiermann or roller for this roll");
		return -EINVAL;
	}
	if (roll->dropped) {
		if (roll->has_share) {
			snprintf(err, errlen, "share: a dropped roll does not count, nothing to share");
			return -EINVAL;
		}
		if (h->drop_in_round_penalty) {	/* DM-12 */
			pen[roller] += 1;
			why_add(why, n_why, "DM-12");
		}
		return 0;
	}
	if (a < 1 || a > 6 || b < 1 || b > 6) {
		snprintf(err, errlen, "dice: a die shows 1 to 6, not %d", a < 1 || a > 6 ? a : b);
		return -EINVAL;
	}
	if (revenge)
		why_add(why, n_why, "DM-11");

	/* DM-5, by the sum (DM-10: doubles too). */
	switch (sum) {
	case 3:
		/* House rule DM-11a (off): the revenge's 3 stays his own. */
		if (revenge && !h->revenge_sum3_to_others) {
			int mult = s->dm_double || s->declared ? 2 : 1;

			pen[s->dreiermann] += mult;
		} else {
			dreiermann_penalty(cfg, s, revenge, 1, pen);
		}
		why_add(why, n_why, "DM-5");
		break;
	case 7:
		pen[(roller + 1) % n] += 1;
		why_add(why, n_why, "DM-5");
		break;
	case 8:
		pen[roller] += 1;
		why_add(why, n_why, "DM-5");
		if (dbl)
			why_add(why, n_why, "DM-10");
		break;
	case 9:
		pen[(roller + n - 1) % n] += 1;
		why_add(why, n_why, "DM-5");
		break;
	case 11:
		for (int p = 0; p < n; p++)
			pen[p] += 1;
		why_add(why, n_why, "DM-5");
		break;
	default:
		break;
	}

	/* DM-6, or DM-8 for a double three. */
	if (a == 3 && b == 3) {
		dreiermann_penalty(cfg, s, revenge, 3, pen);
		why_add(why, n_why, "DM-8");
		why_add(why, n_why, "DM-10");
	} else if (a == 3 || b == 3) {
		dreiermann_penalty(cfg, s, revenge, 1, pen);
		why_add(why, n_why, "DM-6");
	}

	/* DM-7: a double's face value, shared out by the roller. */
	if (!dbl) {
		if (roll->has_share) {
			snprintf(err, errlen, "share: only a double is shared out (DM-7), %d+%d is none", a, b);
			return -EINVAL;
		}
		return 0;
	}
	int given = 0, receivers = 0;

	if (roll->has_share) {
		for (int p = 0; p < n; p++) {
			if (roll->share[p] < 0) {
				snprintf(err, errlen, "share: %s: a share is a positive number of points",
					 cfg->players[p]);
				return -EINVAL;
			}
			given += roll->share[p];
			receivers += roll->share[p] > 0;
		}
	}
	if (h->doubles_to_dreiermann) {	/* DM-12: wholly to the Dreiermann */
		if (roll->has_share && (given != a || roll->share[s->dreiermann] != a)) {
			snprintf(err, errlen,
				 "share: every double goes wholly to the Dreiermann %s (DM-12)",
				 cfg->players[s->dreiermann]);
			return -EINVAL;
		}
		if (h->double_six_empties && a == 6) {
			empties[s->dreiermann] += 1;
			why_add(why, n_why, "DM-13");
		} else {
			pen[s->dreiermann] += a;
		}
		why_add(why, n_why, "DM-12");
		return 0;
	}
	if (!roll->has_share || receivers == 0) {
		snprintf(err, errlen, "share: the double %d gives %d points to share out (DM-7)", a, a);
		return -EINVAL;
	}
	if (given != a) {
		snprintf(err, errlen, "share: the double %d gives %d points, the share adds up to %d (DM-7)",
			 a, a, given);
		return -EINVAL;
	}
	for (int p = 0; p < n; p++) {
		if (roll->share[p] == 0)
			continue;
		if (h->double_six_empties && a == 6) {
			empties[p] += 1;	/* DM-13: instead of the sips */
			why_add(why, n_why, "DM-13");
		} else {
			pen[p] += roll->share[p];
		}
	}
	why_add(why, n_why, a == 3 ? "DM-8" : "DM-7");
	why_add(why, n_why, "DM-7");
	if (a == 6 && receivers > 1) {	/* DM-9: split although it should not be */
		pen[roller] += 1;
		why_add(why, n_why, "DM-9");
	}
	return 0;
}

static bool any_penalty(const int pen[DICE_MAX_PLAYERS], const int emp[DICE_MAX_PLAYERS], int n)
{
	for (int p = 0; p < n; p++)
		if (pen[p] || emp[p])
			return true;
	return false;
}

static void end_round(const struct dice_dm_cfg *cfg, struct dice_dm_state *n)
{
	n->round++;
	if (n->round > cfg->house.rounds) {
		n->round = cfg->house.rounds;
		n->phase = DICE_DM_OVER;
		return;
	}
	/* DM-2: a new choice; the Dreiermann just gone cannot be chosen. */
	n->phase = DICE_DM_CHOOSING;
	n->last_dreiermann = n->dreiermann;
	n->chooser = (n->dreiermann + 1) % (int)cfg->n_players;
	n->dreiermann = DICE_NOBODY;
	n->dm_double = false;
	n->declared = false;
	n->turns_done = 0;
}

static int step_choose(const struct dice_dm_cfg *cfg, struct dice_dm_state *n,
		       const struct dice_dm_move *m, struct dice_dm_ruling *r,
		       char *err, size_t errlen)
{
	const struct dice_dm_roll *roll = &m->rolls[0];
	int roller = n->chooser;
	int threes;

	if (m->n_rolls != 1) {
		snprintf(err, errlen, "roll: choosing is one roll of two dice at a time (DM-1)");
		return -EINVAL;
	}
	if (roll->has_share) {
		snprintf(err, errlen, "share: nothing is shared while choosing the Dreiermann (DM-1)");
		return -EINVAL;
	}
	why_add(r->why, &r->n_why, "DM-1");
	if (roll->dropped) {
		why_add(r->why, &r->n_why, "DM-12");
		if (cfg->house.drop_choosing_makes_dreiermann && roller != n->last_dreiermann) {
			n->dreiermann = roller;
			n->dm_double = false;
			n->phase = DICE_DM_ROUND;
			n->turns_done = 0;
		}
		/* Otherwise the roll does not count: the same player rolls again. */
		return 0;
	}
	if (roll->d[0] < 1 || roll->d[0] > 6 || roll->d[1] < 1 || roll->d[1] > 6) {
		snprintf(err, errlen, "roll: a die shows 1 to 6");
		return -EINVAL;
	}
	threes = (roll->d[0] == 3) + (roll->d[1] == 3);
	if (threes && roller == n->last_dreiermann) {
		why_add(r->why, &r->n_why, "DM-2");	/* his threes do not count */
		threes = 0;
	}
	if (threes) {
		n->dreiermann = roller;
		n->dm_double = threes == 2;
		n->phase = DICE_DM_ROUND;
		n->turns_done = 0;
	} else {
		n->chooser = (roller + 1) % (int)cfg->n_players;
	}
	return 0;
}

static int step_turn(const struct dice_dm_cfg *cfg, struct dice_dm_state *n,
		     const struct dice_dm_move *m, struct dice_dm_ruling *r,
		     char *err, size_t errlen)
{
	int np = (int)cfg->n_players;
	int roller = r->player;
	bool counted_before = false;
	char sub[160];

	if (m->n_rolls < 1 || m->n_rolls > DICE_DM_MAX_ROLLS) {
		snprintf(err, errlen, "rolls: a turn has 1 to %d rolls", DICE_DM_MAX_ROLLS);
		return -EINVAL;
	}
	r->revenge = roller == n->dreiermann;
	why_add(r->why, &r->n_why, "DM-3");
	why_add(r->why, &r->n_why, "DM-4");
	for (size_t i = 0; i < m->n_rolls; i++) {
		int pen[DICE_MAX_PLAYERS] = { 0 }, emp[DICE_MAX_PLAYERS] = { 0 };
		const struct dice_dm_roll *roll = &m->rolls[i];
		bool last = i + 1 == m->n_rolls;
		bool harmless;

		if (dice_dm_roll_penalties(cfg, n, roller, roll, pen, emp, r->why, &r->n_why,
					   sub, sizeof(sub))) {
			snprintf(err, errlen, "rolls[%zu].%s", i, sub);
			return -EINVAL;
		}
		harmless = !roll->dropped && !any_penalty(pen, emp, np);
		if (roll->dropped && last) {
			snprintf(err, errlen, "rolls[%zu]: a dropped roll does not end a turn (DM-4)", i);
			return -EINVAL;
		}
		if (harmless && !last) {
			snprintf(err, errlen,
				 "rolls[%zu]: %d+%d gives nobody a penalty, so the turn ended there (DM-4)",
				 i, roll->d[0], roll->d[1]);
			return -EINVAL;
		}
		if (!harmless && last && !roll->dropped) {
			snprintf(err, errlen,
				 "rolls[%zu]: %d+%d gives a penalty, so the turn goes on (DM-4)",
				 i, roll->d[0], roll->d[1]);
			return -EINVAL;
		}
		if (harmless && !counted_before && cfg->house.first_roll_miss_sip) {
			pen[roller] += 1;	/* DM-12: a harmless first roll */
			why_add(r->why, &r->n_why, "DM-12");
		}
		if (!roll->dropped)
			counted_before = true;
		for (int p = 0; p < np; p++) {
			r->penalties[p] += pen[p];
			r->empties[p] += emp[p];
		}
	}
	for (int p = 0; p < np; p++) {
		n->sips[p] += r->penalties[p];
		n->empties[p] += r->empties[p];
		r->points += r->penalties[p];
	}
	n->n_turns++;
	r->turn = n->n_turns;
	n->turns_done++;
	if (n->turns_done == np)
		end_round(cfg, n);
	return 0;
}

int dice_dm_step(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s,
		 const struct dice_dm_move *m, struct dice_dm_ruling *r,
		 struct dice_dm_state *next, char *err, size_t errlen)
{
	struct dice_dm_state n = *s;
	int expect, rc = 0;

	memset(r, 0, sizeof(*r));
	if (cfg->n_players < DICE_DM_MIN_PLAYERS || cfg->n_players > DICE_MAX_PLAYERS) {
		snprintf(err, errlen, "players: Dreiermann needs %d to %d players", DICE_DM_MIN_PLAYERS,
			 DICE_MAX_PLAYERS);
		return -EINVAL;
	}
	if (s->phase == DICE_DM_OVER) {
		snprintf(err, errlen, "type: the game is over after %d rounds (DM-14)", cfg->house.rounds);
		return -EINVAL;
	}
	if (m->player != DICE_NOBODY && (m->player < 0 || (size_t)m->player >= cfg->n_players)) {
		snprintf(err, errlen, "player: not a player of this match");
		return -EINVAL;
	}
	expect = dice_dm_next_player(cfg, s);
	r->kind = m->kind;
	r->round = s->round;
	switch (m->kind) {
	case DICE_DM_MOVE_CHOOSE:
		if (s->phase != DICE_DM_CHOOSING) {
			snprintf(err, errlen, "type: the Dreiermann %s is chosen; the round is under way",
				 cfg->players[s->dreiermann]);
			return -EINVAL;
		}
		if (m->player != DICE_NOBODY && m->player != expect) {
			snprintf(err, errlen, "player: %s rolls next to choose the Dreiermann, not %s",
				 cfg->players[expect], cfg->players[m->player]);
			return -EINVAL;
		}
		r->player = expect;
		rc = step_choose(cfg, &n, m, r, err, errlen);
		break;
	case DICE_DM_MOVE_DECLARE_DOUBLE:
		if (!cfg->house.declare_double) {
			snprintf(err, errlen, "type: declaring a double round is a house rule that is off (DM-12)");
			return -EINVAL;
		}
		if (s->phase != DICE_DM_ROUND || s->turns_done != 0 || s->declared) {
			snprintf(err, errlen, "type: the Dreiermann declares before the round's first turn (DM-12)");
			return -EINVAL;
		}
		if (m->player != DICE_NOBODY && m->player != s->dreiermann) {
			snprintf(err, errlen, "player: only the Dreiermann %s may declare (DM-12)",
				 cfg->players[s->dreiermann]);
			return -EINVAL;
		}
		r->player = s->dreiermann;
		n.declared = true;
		why_add(r->why, &r->n_why, "DM-12");
		break;
	case DICE_DM_MOVE_TURN:
		if (s->phase != DICE_DM_ROUND) {
			snprintf(err, errlen, "type: no Dreiermann yet: roll to choose one first (DM-1)");
			return -EINVAL;
		}
		if (m->player != DICE_NOBODY && m->player != expect) {
			snprintf(err, errlen, "player: it is %s's turn, not %s's (DM-3)",
				 cfg->players[expect], cfg->players[m->player]);
			return -EINVAL;
		}
		r->player = expect;
		rc = step_turn(cfg, &n, m, r, err, errlen);
		break;
	case DICE_DM_MOVE_SIP: {
		bool on = m->reason == DICE_DM_SIP_BREACH ? cfg->house.breach_sip
							  : cfg->house.leave_join_sip;

		if (!on) {
			snprintf(err, errlen, "reason: that penalty sip is a house rule that is off (DM-12)");
			return -EINVAL;
		}
		if (m->player == DICE_NOBODY) {
			snprintf(err, errlen, "player: a penalty sip names its player");
			return -EINVAL;
		}
		r->player = m->player;
		r->penalties[m->player] = 1;
		r->points = 1;
		n.sips[m->player] += 1;
		why_add(r->why, &r->n_why, "DM-12");
		break;
	}
	default:
		snprintf(err, errlen, "type: unknown move");
		return -EINVAL;
	}
	if (rc)
		return rc;
	n.n_moves++;
	r->move = n.n_moves;
	r->dreiermann = n.dreiermann != DICE_NOBODY ? n.dreiermann : (m->kind == DICE_DM_MOVE_TURN ? s->dreiermann : DICE_NOBODY);
	r->dm_double = n.dreiermann != DICE_NOBODY ? n.dm_double || n.declared : s->dm_double || s->declared;
	r->over = n.phase == DICE_DM_OVER;
	*next = n;
	return 0;
}

/* Penalty weight for the winner: an emptied drink counts as six sips. */
static int weight(const struct dice_dm_state *s, int p)
{
	return s->sips[p] + 6 * s->empties[p];
}

int dice_dm_winner(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s)
{
	int best = DICE_NOBODY;
	bool tied = false;

	for (int p = 0; p < (int)cfg->n_players; p++) {
		if (best == DICE_NOBODY || weight(s, p) < weight(s, best)) {
			best = p;
			tied = false;
		} else if (weight(s, p) == weight(s, best)) {
			tied = true;
		}
	}
	return tied ? DICE_NOBODY : best;
}

void dice_dm_sheet(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s,
		   struct dice_sheet *out)
{
	memset(out, 0, sizeof(*out));
	out->game = DICE_DM;
	out->n_players = cfg->n_players;
	memcpy(out->players, cfg->players, sizeof(out->players));
	snprintf(out->row[0], DICE_SHEET_TEXT, "sips");
	snprintf(out->row[1], DICE_SHEET_TEXT, "empties");
	snprintf(out->row[2], DICE_SHEET_TEXT, "role");
	for (size_t p = 0; p < cfg->n_players; p++) {
		out->cell[0][p].filled = true;
		out->cell[0][p].value = s->sips[p];
		out->cell[1][p].filled = true;
		out->cell[1][p].value = s->empties[p];
		if ((int)p == s->dreiermann) {
			out->cell[2][p].filled = true;
			snprintf(out->cell[2][p].text, DICE_SHEET_TEXT, "%s",
				 s->dm_double || s->declared ? "double" : "dreiermann");
		}
	}
	out->n_rows = 3;
	out->turn = dice_dm_next_player(cfg, s);
	out->round = s->round;
	out->over = s->phase == DICE_DM_OVER;
	out->winner = out->over ? dice_dm_winner(cfg, s) : DICE_NOBODY;
	out->loser = DICE_NOBODY;
	out->dreiermann = s->dreiermann;
	out->dm_double = s->dm_double || s->declared;
	out->mark_player = DICE_NOBODY;
}
