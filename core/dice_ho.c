/* dice_ho: Horse, aces wild (HO): reading a hand, the 45/3 notation, the
 * roll-off, elimination rounds, tie rounds, the final two and the loser. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

int dice_ho_hand_of(const int dice[DICE_N], int rolls, struct dice_ho_hand *h)
{
	int cnt[7] = { 0 };

	if (rolls < 1 || rolls > DICE_MAX_ROLLS)
		return -EINVAL;
	for (int i = 0; i < DICE_N; i++) {
		if (dice[i] < 1 || dice[i] > 6)
			return -EINVAL;
		cnt[dice[i]]++;
	}
	memset(h, 0, sizeof(*h));
	h->rolls = rolls;
	h->valid = cnt[1] > 0;		/* HO-3: an ace is required */
	if (cnt[1] == DICE_N) {		/* HO-9: all aces are five sixes */
		h->count = 5;
		h->face = 6;
		return 0;
	}
	/* HO-9: the aces join the face that makes the highest hand. */
	for (int f = 2; f <= 6; f++) {
		int c = cnt[f] + cnt[1];

		if (cnt[f] == 0)
			continue;
		if (c > h->count || (c == h->count && f > h->face)) {
			h->count = c;
			h->face = f;
		}
	}
	return 0;
}

int dice_ho_compare(const struct dice_ho_hand *a, const struct dice_ho_hand *b)
{
	if (a->valid != b->valid)
		return a->valid ? 1 : -1;	/* HO-3 */
	if (!a->valid)
		return 0;			/* neither has a value */
	if (a->count != b->count)
		return a->count - b->count;	/* HO-4: the rank */
	if (a->face != b->face)
		return a->face - b->face;	/* HO-4: the higher face */
	return b->rolls - a->rolls;		/* HO-5: fewer rolls */
}

int dice_ho_format(const struct dice_ho_hand *h, char *buf, size_t n)
{
	int len;

	if (h->valid)
		len = snprintf(buf, n, "%d%d/%d", h->count, h->face, h->rolls);
	else
		len = snprintf(buf, n, "-/%d", h->rolls);
	if (len < 0 || (size_t)len >= n) {
		if (n)
			buf[0] = '\0';
		return -ENOSPC;
	}
	return len;
}

int dice_ho_parse(const char *s, struct dice_ho_hand *h)
{
	memset(h, 0, sizeof(*h));
	if (s[0] == '-' && s[1] == '/' && s[2] >= '1' && s[2] <= '3' && s[3] == '\0') {
		h->rolls = s[2] - '0';
		return 0;
	}
	if (s[0] < '2' || s[0] > '5' || s[1] < '2' || s[1] > '6' || s[2] != '/' ||
	    s[3] < '1' || s[3] > '3' || s[4] != '\0')
		return -EINVAL;
	h->valid = true;
	h->count = s[0] - '0';
	h->face = s[1] - '0';
	h->rolls = s[3] - '0';
	return 0;
}

void dice_ho_house_defaults(struct dice_ho_house *h)
{
	h->final_best_of_three = false;
	h->five_aces_ends = false;
}

void dice_ho_state_init(struct dice_ho_state *s, const struct dice_ho_cfg *cfg)
{
	memset(s, 0, sizeof(*s));
	s->phase = DICE_HO_ROLLOFF;
	for (size_t p = 0; p < cfg->n_players; p++) {
		s->rolloff_in[p] = true;
		s->in[p] = true;
	}
	s->n_in = (int)cfg->n_players;
	s->mark_player = DICE_NOBODY;
	s->loser = DICE_NOBODY;
	s->final = s->n_in == 2;
}

int dice_ho_next_player(const struct dice_ho_cfg *cfg, const struct dice_ho_state *s)
{
	if (s->phase == DICE_HO_OVER)
		return DICE_NOBODY;
	if (s->phase == DICE_HO_ROLLOFF)
		return s->rolloff_tied ? DICE_NOBODY : 0;	/* no roll-off: the first listed */
	(void)cfg;
	return s->order[s->pos];
}

/* A round among the players marked in who[], in seat order from first
 * (or the next of them after it). */
static void begin_round(const struct dice_ho_cfg *cfg, struct dice_ho_state *s,
			const bool who[DICE_MAX_PLAYERS], int first, bool tie)
{
	int n = (int)cfg->n_players;

	s->n_order = 0;
	for (int k = 0; k < n; k++) {
		int p = (first + k) % n;

		if (who[p])
			s->order[s->n_order++] = p;
	}
	s->pos = 0;
	s->round++;
	s->tie_round = tie;
	s->mark_player = DICE_NOBODY;
	memset(s->hand, 0, sizeof(s->hand));
	s->final = s->n_in == 2;
}

/* The next player still in, to the left of p. */
static int next_in(const struct dice_ho_cfg *cfg, const struct dice_ho_state *s, int p)
{
	int n = (int)cfg->n_players;

	for (int k = 1; k <= n; k++)
		if (s->in[(p + k) % n])
			return (p + k) % n;
	return p;
}

static void start_play(const struct dice_ho_cfg *cfg, struct dice_ho_state *s, int starter)
{
	s->phase = DICE_HO_PLAY;
	s->starter = starter;
	begin_round(cfg, s, s->in, starter, false);
}

static void why_add(struct dice_ho_ruling *r, const char *id)
{
	for (size_t i = 0; i < r->n_why; i++)
		if (!strcmp(r->why[i], id))
			return;
	if (r->n_why < DICE_MAX_WHY)
		r->why[r->n_why++] = id;
}

int dice_ho_rolloff_step(const struct dice_ho_cfg *cfg, const struct dice_ho_state *s,
			 const struct dice_ho_rolloff *ro, struct dice_ho_ruling *r,
			 struct dice_ho_state *next, char *err, size_t errlen)
{
	struct dice_ho_state n = *s;
	int best = 0, n_best = 0, top = DICE_NOBODY;

	memset(r, 0, sizeof(*r));
	if (s->phase != DICE_HO_ROLLOFF) {
		snprintf(err, errlen, "type: the roll-off is over: %s", s->phase == DICE_HO_OVER
			 ? "the game is over" : "turns have begun (HO-1)");
		return -EINVAL;
	}
	for (size_t p = 0; p < cfg->n_players; p++) {
		if (ro->rolled[p] != s->rolloff_in[p]) {
			snprintf(err, errlen, ro->rolled[p] ? "rolls: %s is not in this roll-off (HO-1)"
				 : "rolls: %s did not roll (HO-1)", cfg->players[p]);
			return -EINVAL;
		}
		if (!ro->rolled[p])
			continue;
		if (ro->value[p] < 1 || ro->value[p] > 6) {
			snprintf(err, errlen, "rolls: %s: a die shows 1 to 6, not %d", cfg->players[p],
				 ro->value[p]);
			return -EINVAL;
		}
		if (ro->value[p] > best) {
			best = ro->value[p];
			n_best = 1;
			top = (int)p;
		} else if (ro->value[p] == best) {
			n_best++;
		}
	}
	why_add(r, "HO-1");
	r->loser = DICE_NOBODY;
	r->out = DICE_NOBODY;
	r->mark_player = DICE_NOBODY;
	if (n_best > 1) {		/* HO-1: ties roll again */
		for (size_t p = 0; p < cfg->n_players; p++) {
			n.rolloff_in[p] = ro->rolled[p] && ro->value[p] == best;
			r->tied[p] = n.rolloff_in[p];
		}
		r->any_tied = true;
		n.rolloff_tied = true;
		r->player = DICE_NOBODY;
	} else {
		n.rolloff_tied = false;
		start_play(cfg, &n, top);
		r->player = top;
		r->round = n.round;
	}
	*next = n;
	return 0;
}

static int hand_value(const int hand[DICE_N], void *ctx)
{
	struct dice_ho_hand h;

	(void)ctx;
	dice_ho_hand_of(hand, 1, &h);
	return h.valid ? 1 + h.count * 10 + h.face : 0;
}

/* The round just finished: the best goes out, a tie plays again (HO-6, HO-7). */
static void finish_round(const struct dice_ho_cfg *cfg, struct dice_ho_state *n,
			 struct dice_ho_ruling *r)
{
	int best = n->order[0], n_best = 0;
	bool tied[DICE_MAX_PLAYERS] = { false };

	r->round_over = true;
	why_add(r, "HO-4");
	for (int i = 1; i < n->n_order; i++)
		if (dice_ho_compare(&n->hand[n->order[i]], &n->hand[best]) > 0)
			best = n->order[i];
	for (int i = 0; i < n->n_order; i++) {
		int p = n->order[i];

		if (dice_ho_compare(&n->hand[p], &n->hand[best]) == 0) {
			tied[p] = true;
			n_best++;
		}
		/* The rolls decided it: same count and face as the best. */
		if (p != best && n->hand[p].valid && n->hand[p].count == n->hand[best].count &&
		    n->hand[p].face == n->hand[best].face && n->hand[p].rolls != n->hand[best].rolls)
			why_add(r, "HO-5");
	}
	if (n_best > 1) {		/* HO-7: the tied play a round between them */
		memcpy(r->tied, tied, sizeof(r->tied));
		r->any_tied = true;
		why_add(r, "HO-7");
		begin_round(cfg, n, tied, n->order[0], true);
		return;
	}
	if (n->final && cfg->house.final_best_of_three) {
		n->legs[best]++;
		why_add(r, "HO-6");
		if (n->legs[best] < 2) {
			n->starter = next_in(cfg, n, n->starter);
			begin_round(cfg, n, n->in, n->starter, false);
			return;
		}
	}
	why_add(r, "HO-6");
	n->in[best] = false;
	n->n_in--;
	n->out[n->n_out++] = best;
	r->out = best;
	if (n->n_in == 1) {
		for (size_t p = 0; p < cfg->n_players; p++)
			if (n->in[p])
				n->loser = (int)p;
		n->phase = DICE_HO_OVER;
		return;
	}
	n->starter = next_in(cfg, n, n->starter);
	begin_round(cfg, n, n->in, n->starter, false);
}

int dice_ho_step(const struct dice_ho_cfg *cfg, const struct dice_ho_state *s,
		 const struct dice_ho_turn *t, struct dice_ho_ruling *r,
		 struct dice_ho_state *next, char *err, size_t errlen)
{
	struct dice_ho_state n = *s;
	int player, rc, aces = 0;
	bool all_aces_first = true;

	memset(r, 0, sizeof(*r));
	if (cfg->n_players < DICE_HO_MIN_PLAYERS || cfg->n_players > DICE_MAX_PLAYERS) {
		snprintf(err, errlen, "players: Horse needs %d to %d players", DICE_HO_MIN_PLAYERS,
			 DICE_MAX_PLAYERS);
		return -EINVAL;
	}
	if (s->phase == DICE_HO_OVER) {
		snprintf(err, errlen, "type: the game is over: %s has lost", cfg->players[s->loser]);
		return -EINVAL;
	}
	if (s->phase == DICE_HO_ROLLOFF) {
		if (s->rolloff_tied) {
			snprintf(err, errlen, "type: the roll-off tied: the tied players roll again (HO-1)");
			return -EINVAL;
		}
		start_play(cfg, &n, 0);
	}
	player = n.order[n.pos];
	if (t->player != DICE_NOBODY && t->player != player) {
		snprintf(err, errlen, "player: it is %s's turn, not %s's (HO-2)", cfg->players[player],
			 t->player >= 0 && (size_t)t->player < cfg->n_players ? cfg->players[t->player] : "?");
		return -EINVAL;
	}
	if (t->rolls.n_rolls > DICE_MAX_ROLLS) {
		snprintf(err, errlen, "rolls: a turn has at most %d rolls, this one has %d (HO-2)",
			 DICE_MAX_ROLLS, t->rolls.n_rolls);
		return -EINVAL;
	}
	rc = dice_rolls_best(&t->rolls, DICE_MAX_ROLLS, hand_value, NULL, r->dice, r->kept,
			     err, errlen);
	if (rc)
		return -EINVAL;
	for (int i = 0; i < DICE_N; i++)
		all_aces_first &= t->rolls.dice[0][i] == 1;
	if (cfg->house.five_aces_ends && all_aces_first && t->rolls.n_rolls > 1) {
		snprintf(err, errlen, "rolls[1]: five aces on the first roll ended the game, "
			 "so the turn ended there (HO-8)");
		return -EINVAL;
	}
	dice_ho_hand_of(r->dice, t->rolls.n_rolls, &r->hand);
	n.hand[player] = r->hand;
	r->player = player;
	r->round = n.round;
	r->tie_round = n.tie_round;
	r->out = DICE_NOBODY;
	r->loser = DICE_NOBODY;
	r->mark_player = DICE_NOBODY;
	n.n_turns++;
	r->turn = n.n_turns;

	why_add(r, "HO-2");
	why_add(r, "HO-5");
	if (n.tie_round)
		why_add(r, "HO-7");
	why_add(r, "HO-3");
	for (int i = 0; i < DICE_N; i++)
		aces += r->dice[i] == 1;
	if (aces)
		why_add(r, "HO-9");
	if (t->rolls.n_rolls < DICE_MAX_ROLLS)
		why_add(r, "HO-10");

	if (cfg->house.five_aces_ends && all_aces_first) {	/* HO-8 */
		why_add(r, "HO-8");
		n.loser = player;
		n.phase = DICE_HO_OVER;
	} else {
		if (n.mark_player == DICE_NOBODY || dice_ho_compare(&r->hand, &n.hand[n.mark_player]) > 0)
			n.mark_player = player;
		r->mark_player = n.mark_player;
		r->mark = n.hand[n.mark_player];
		n.pos++;
		if (n.pos == n.n_order)
			finish_round(cfg, &n, r);
	}
	memcpy(r->legs, n.legs, sizeof(r->legs));
	r->loser = n.loser;
	r->over = n.phase == DICE_HO_OVER;
	*next = n;
	return 0;
}

void dice_ho_sheet(const struct dice_ho_cfg *cfg, const struct dice_ho_state *s,
		   struct dice_sheet *out)
{
	memset(out, 0, sizeof(*out));
	out->game = DICE_HO;
	out->n_players = cfg->n_players;
	memcpy(out->players, cfg->players, sizeof(out->players));
	snprintf(out->row[0], DICE_SHEET_TEXT, "hand");
	snprintf(out->row[1], DICE_SHEET_TEXT, "status");
	snprintf(out->row[2], DICE_SHEET_TEXT, "legs");
	for (int i = 0; i < s->pos && s->phase == DICE_HO_PLAY; i++) {
		int p = s->order[i];

		out->cell[0][p].filled = true;
		dice_ho_format(&s->hand[p], out->cell[0][p].text, DICE_SHEET_TEXT);
	}
	for (size_t p = 0; p < cfg->n_players; p++) {
		struct dice_sheet_cell *c = &out->cell[1][p];

		c->filled = true;
		if ((int)p == s->loser)
			snprintf(c->text, DICE_SHEET_TEXT, "loser");
		else if (s->in[p])
			snprintf(c->text, DICE_SHEET_TEXT, "in");
		for (int k = 0; k < s->n_out; k++)
			if (s->out[k] == (int)p) {
				c->value = k + 1;
				snprintf(c->text, DICE_SHEET_TEXT, "out %d", k + 1);
			}
		out->cell[2][p].filled = s->final && cfg->house.final_best_of_three;
		out->cell[2][p].value = s->legs[p];
	}
	out->n_rows = 3;
	out->turn = dice_ho_next_player(cfg, s);
	out->round = s->round;
	out->over = s->phase == DICE_HO_OVER;
	out->winner = DICE_NOBODY;
	out->loser = s->loser;
	out->dreiermann = DICE_NOBODY;
	out->mark_player = s->phase == DICE_HO_PLAY ? s->mark_player : DICE_NOBODY;
	if (out->mark_player != DICE_NOBODY)
		dice_ho_format(&s->hand[s->mark_player], out->mark, DICE_SHEET_TEXT);
}
