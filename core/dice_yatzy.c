/* dice_yatzy: Scandinavian Yatzy (YZ) and Yatzy with bonus and joker (YJ):
 * box scores, the score card, and a turn's placement with the joker rules. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

static const char *const box_names[DICE_BOX_COUNT] = {
	"ones", "twos", "threes", "fours", "fives", "sixes",
	"one_pair", "two_pairs", "three_of_a_kind", "four_of_a_kind",
	"small_straight", "large_straight", "full_house", "chance", "yatzy",
};

static const char *const yz_rules[DICE_BOX_COUNT] = {
	"YZ-4", "YZ-4", "YZ-4", "YZ-4", "YZ-4", "YZ-4",
	"YZ-6", "YZ-7", "YZ-8", "YZ-9", "YZ-10", "YZ-11", "YZ-12", "YZ-13", "YZ-14",
};

static const char *const yj_rules[DICE_BOX_COUNT] = {
	"YJ-3", "YJ-3", "YJ-3", "YJ-3", "YJ-3", "YJ-3",
	NULL, NULL, "YJ-5", "YJ-6", "YJ-8", "YJ-9", "YJ-7", "YJ-11", "YJ-10",
};

#define UPPER_TARGET 63		/* YZ-5, YJ-4 */

int dice_box_parse(const char *name)
{
	for (int b = 0; b < DICE_BOX_COUNT; b++)
		if (!strcmp(name, box_names[b]))
			return b;
	return -EINVAL;
}

const char *dice_box_name(enum dice_box b)
{
	return (unsigned)b < DICE_BOX_COUNT ? box_names[b] : "?";
}

bool dice_game_has_box(enum dice_game g, enum dice_box b)
{
	if ((unsigned)b >= DICE_BOX_COUNT)
		return false;
	if (g == DICE_YZ)
		return true;
	if (g == DICE_YJ)
		return b != DICE_BOX_ONE_PAIR && b != DICE_BOX_TWO_PAIRS;
	return false;
}

const char *dice_box_rule(enum dice_game g, enum dice_box b)
{
	if (!dice_game_has_box(g, b))
		return NULL;
	return g == DICE_YZ ? yz_rules[b] : yj_rules[b];
}

void dice_yatzy_house_defaults(struct dice_yatzy_house *h)
{
	h->yatzy_fixed_50 = false;
	h->joker_after_scratched_yatzy = false;
}

static int upper_bonus_value(enum dice_game g)
{
	return g == DICE_YZ ? 50 : 35;	/* YZ-5, YJ-4 */
}

static int box_count(enum dice_game g)
{
	return g == DICE_YZ ? 15 : 13;	/* YZ-3, YJ (13 rounds) */
}

/* Counts per face, sum; false if a die is outside 1..6. */
static bool tally(const int dice[DICE_N], int cnt[7], int *sum)
{
	memset(cnt, 0, 7 * sizeof(int));
	*sum = 0;
	for (int i = 0; i < DICE_N; i++) {
		if (dice[i] < 1 || dice[i] > 6)
			return false;
		cnt[dice[i]]++;
		*sum += dice[i];
	}
	return true;
}

/* Longest run of consecutive faces present. */
static int longest_run(const int cnt[7])
{
	int best = 0, run = 0;

	for (int f = 1; f <= 6; f++) {
		run = cnt[f] ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

/* The face with at least n dice (the highest), or 0. */
static int face_with(const int cnt[7], int n)
{
	for (int f = 6; f >= 1; f--)
		if (cnt[f] >= n)
			return f;
	return 0;
}

static bool full_house(const int cnt[7])
{
	bool three = false, two = false;

	for (int f = 1; f <= 6; f++) {
		three |= cnt[f] == 3;
		two |= cnt[f] == 2;
	}
	return three && two;
}

static int yz_score(const struct dice_yatzy_house *h, enum dice_box b, const int cnt[7], int sum)
{
	int f, g;

	switch (b) {
	case DICE_BOX_ONES: case DICE_BOX_TWOS: case DICE_BOX_THREES:
	case DICE_BOX_FOURS: case DICE_BOX_FIVES: case DICE_BOX_SIXES:
		f = (int)b + 1;
		return cnt[f] * f;		/* YZ-4 */
	case DICE_BOX_ONE_PAIR:
		return 2 * face_with(cnt, 2);	/* YZ-6 */
	case DICE_BOX_TWO_PAIRS:		/* YZ-7: two different pairs */
		f = face_with(cnt, 2);
		if (!f)
			return 0;
		for (g = f - 1; g >= 1; g--)
			if (cnt[g] >= 2)
				return 2 * f + 2 * g;
		return 0;
	case DICE_BOX_THREE_OF_A_KIND:
		return 3 * face_with(cnt, 3);	/* YZ-8 */
	case DICE_BOX_FOUR_OF_A_KIND:
		return 4 * face_with(cnt, 4);	/* YZ-9 */
	case DICE_BOX_SMALL_STRAIGHT:		/* YZ-10: exactly 1-2-3-4-5 */
		return cnt[1] == 1 && cnt[2] == 1 && cnt[3] == 1 && cnt[4] == 1 && cnt[5] == 1 ? 15 : 0;
	case DICE_BOX_LARGE_STRAIGHT:		/* YZ-11: exactly 2-3-4-5-6 */
		return cnt[2] == 1 && cnt[3] == 1 && cnt[4] == 1 && cnt[5] == 1 && cnt[6] == 1 ? 20 : 0;
	case DICE_BOX_FULL_HOUSE:
		return full_house(cnt) ? sum : 0;	/* YZ-12 */
	case DICE_BOX_CHANCE:
		return sum;			/* YZ-13 */
	case DICE_BOX_YATZY:			/* YZ-14 */
		if (!face_with(cnt, 5))
			return 0;
		return h && h->yatzy_fixed_50 ? 50 : sum + 50;
	default:
		return -EINVAL;
	}
}

static int yj_score(enum dice_box b, const int cnt[7], int sum)
{
	int f;

	switch (b) {
	case DICE_BOX_ONES: case DICE_BOX_TWOS: case DICE_BOX_THREES:
	case DICE_BOX_FOURS: case DICE_BOX_FIVES: case DICE_BOX_SIXES:
		f = (int)b + 1;
		return cnt[f] * f;		/* YJ-3 */
	case DICE_BOX_THREE_OF_A_KIND:
		return face_with(cnt, 3) ? sum : 0;	/* YJ-5 */
	case DICE_BOX_FOUR_OF_A_KIND:
		return face_with(cnt, 4) ? sum : 0;	/* YJ-6 */
	case DICE_BOX_FULL_HOUSE:
		return full_house(cnt) ? 25 : 0;	/* YJ-7 */
	case DICE_BOX_SMALL_STRAIGHT:
		return longest_run(cnt) >= 4 ? 30 : 0;	/* YJ-8 */
	case DICE_BOX_LARGE_STRAIGHT:
		return longest_run(cnt) >= 5 ? 40 : 0;	/* YJ-9 */
	case DICE_BOX_YATZY:
		return face_with(cnt, 5) ? 50 : 0;	/* YJ-10 */
	case DICE_BOX_CHANCE:
		return sum;			/* YJ-11 */
	default:
		return -EINVAL;
	}
}

int dice_box_score(enum dice_game g, const struct dice_yatzy_house *h,
		   enum dice_box b, const int dice[DICE_N])
{
	int cnt[7], sum;

	if (!dice_game_has_box(g, b) || !tally(dice, cnt, &sum))
		return -EINVAL;
	return g == DICE_YZ ? yz_score(h, b, cnt, sum) : yj_score(b, cnt, sum);
}

void dice_yatzy_totals(enum dice_game g, const struct dice_yatzy_card *c,
		       int *upper, int *bonus, int *total)
{
	int up = 0, all = 0;

	for (int b = 0; b < DICE_BOX_COUNT; b++) {
		if (!c->used[b])
			continue;
		if (b <= DICE_BOX_SIXES)
			up += c->box[b];
		all += c->box[b];
	}
	if (upper)
		*upper = up;
	if (bonus)
		*bonus = up >= UPPER_TARGET ? upper_bonus_value(g) : 0;
	if (total)
		*total = all + (up >= UPPER_TARGET ? upper_bonus_value(g) : 0) + c->yatzy_bonus;
}

void dice_yatzy_state_init(struct dice_yatzy_state *s)
{
	memset(s, 0, sizeof(*s));
}

int dice_yatzy_next_player(const struct dice_yatzy_cfg *cfg, const struct dice_yatzy_state *s)
{
	if (s->over || cfg->n_players == 0)
		return DICE_NOBODY;
	return s->n_turns % (int)cfg->n_players;
}

/* Where a hand may go and what it scores there (YJ-12, YJ-13, YJ-13a,
 * YJ-12a for YJ). Fills points/bonus/joker and, when the placement is
 * refused, a message; returns 0 or -EINVAL. */
struct placement {
	int points;			/* written in the box */
	int yatzy_bonus;		/* YJ-12: 0 or 100 */
	bool joker;			/* YJ-13 decides the box */
	bool scratched_no_joker;	/* YJ-12a: a yatzy after a scratched Yatzy box */
};

static bool is_lower_yj(int b)
{
	return b >= DICE_BOX_THREE_OF_A_KIND && b <= DICE_BOX_YATZY;
}

static int place(const struct dice_yatzy_cfg *cfg, const struct dice_yatzy_card *c,
		 enum dice_box b, const int hand[DICE_N], struct placement *p,
		 char *err, size_t errlen)
{
	int cnt[7], sum, face;

	memset(p, 0, sizeof(*p));
	tally(hand, cnt, &sum);
	face = face_with(cnt, 5);
	if (cfg->game == DICE_YJ && face && c->used[DICE_BOX_YATZY]) {
		if (c->box[DICE_BOX_YATZY] == 50) {
			p->yatzy_bonus = 100;		/* YJ-12 */
			p->joker = true;
		} else {
			p->joker = cfg->house.joker_after_scratched_yatzy;	/* YJ-12a */
			p->scratched_no_joker = !p->joker;
		}
	}
	if (!p->joker) {
		p->points = dice_box_score(cfg->game, &cfg->house, b, hand);
		return 0;
	}
	/* YJ-13: the matching upper box, then any free lower box, then a 0
	 * in any free upper box. */
	int upper = face - 1;
	bool lower_free = false;

	for (int x = DICE_BOX_THREE_OF_A_KIND; x <= DICE_BOX_YATZY; x++)
		lower_free |= dice_game_has_box(cfg->game, (enum dice_box)x) && !c->used[x];
	if (!c->used[upper]) {
		if ((int)b != upper) {
			snprintf(err, errlen, "box: a joker of %ds goes in the free %s box (YJ-13)",
				 face, box_names[upper]);
			return -EINVAL;
		}
		p->points = 5 * face;
		return 0;
	}
	if (lower_free) {
		if (!is_lower_yj(b)) {
			snprintf(err, errlen, "box: a joker goes in a free lower box while one is left (YJ-13)");
			return -EINVAL;
		}
		switch (b) {		/* YJ-13a */
		case DICE_BOX_FULL_HOUSE: p->points = 25; break;
		case DICE_BOX_SMALL_STRAIGHT: p->points = 30; break;
		case DICE_BOX_LARGE_STRAIGHT: p->points = 40; break;
		default: p->points = sum; break;
		}
		return 0;
	}
	p->points = 0;			/* only upper boxes are free: a 0 there */
	return 0;
}

struct value_ctx {
	const struct dice_yatzy_cfg *cfg;	/* the game and its house rules */
	const struct dice_yatzy_card *card;	/* the player's card before the turn */
	enum dice_box box;			/* the box the player chose */
};

/* The player's benefit of the doubt: points the hand brings in the box. */
static int placement_value(const int hand[DICE_N], void *vctx)
{
	const struct value_ctx *v = vctx;
	struct placement p;
	char scratch[8];

	if (place(v->cfg, v->card, v->box, hand, &p, scratch, sizeof(scratch)))
		return -1;
	return p.points + p.yatzy_bonus;
}

static void why_add(struct dice_yatzy_ruling *r, const char *id)
{
	for (size_t i = 0; i < r->n_why; i++)
		if (!strcmp(r->why[i], id))
			return;
	if (id && r->n_why < DICE_MAX_WHY)
		r->why[r->n_why++] = id;
}

int dice_yatzy_step(const struct dice_yatzy_cfg *cfg, const struct dice_yatzy_state *s,
		    const struct dice_yatzy_turn *t, struct dice_yatzy_ruling *r,
		    struct dice_yatzy_state *next, char *err, size_t errlen)
{
	struct dice_yatzy_state n = *s;
	struct dice_yatzy_card *c;
	struct value_ctx vctx;
	struct placement p;
	bool yz = cfg->game == DICE_YZ;
	int player, rc, up_before, up_after, total_boxes;

	if (cfg->game != DICE_YZ && cfg->game != DICE_YJ) {
		snprintf(err, errlen, "game: not a Yatzy game");
		return -EINVAL;
	}
	if (s->over) {
		snprintf(err, errlen, "type: the game is over: every box is written (%s)",
			 yz ? "YZ-3" : "YJ-2");
		return -EINVAL;
	}
	player = dice_yatzy_next_player(cfg, s);
	if (t->player != DICE_NOBODY && t->player != player) {
		snprintf(err, errlen, "player: it is %s's turn, not %s's",
			 cfg->players[player],
			 t->player >= 0 && (size_t)t->player < cfg->n_players ? cfg->players[t->player] : "?");
		return -EINVAL;
	}
	if (!dice_game_has_box(cfg->game, t->box)) {
		snprintf(err, errlen, "box: %s has no %s box", dice_game_name(cfg->game),
			 dice_box_name(t->box));
		return -EINVAL;
	}
	c = &n.card[player];
	if (c->used[t->box]) {
		snprintf(err, errlen, "box: %s has already used %s (%s)", cfg->players[player],
			 box_names[t->box], yz ? "YZ-3" : "YJ-2");
		return -EINVAL;
	}

	if (t->rolls.n_rolls > DICE_MAX_ROLLS) {
		snprintf(err, errlen, "rolls: a turn has at most %d rolls, this one has %d (%s)",
			 DICE_MAX_ROLLS, t->rolls.n_rolls, yz ? "YZ-1" : "YJ-1");
		return -EINVAL;
	}
	memset(r, 0, sizeof(*r));
	vctx.cfg = cfg;
	vctx.card = c;
	vctx.box = t->box;
	rc = dice_rolls_best(&t->rolls, DICE_MAX_ROLLS, placement_value, &vctx, r->hand, r->kept,
			     err, errlen);
	if (rc == -ENOENT) {
		/* Every reading is refused: name why for the plainest one. */
		place(cfg, c, t->box, r->hand, &p, err, errlen);
		return -EINVAL;
	}
	if (rc)
		return rc;
	if (place(cfg, c, t->box, r->hand, &p, err, errlen))
		return -EINVAL;

	dice_yatzy_totals(cfg->game, c, &up_before, NULL, NULL);
	c->used[t->box] = true;
	c->box[t->box] = p.points;
	c->yatzy_bonus += p.yatzy_bonus;
	c->jokers += p.joker;
	dice_yatzy_totals(cfg->game, c, &up_after, NULL, &r->total);
	n.n_turns++;
	total_boxes = box_count(cfg->game) * (int)cfg->n_players;
	n.over = n.n_turns >= total_boxes;

	r->turn = n.n_turns;
	r->player = player;
	r->box = t->box;
	r->points = p.points;
	r->yatzy_bonus = p.yatzy_bonus;
	r->joker = p.joker;
	r->over = n.over;
	if (up_before < UPPER_TARGET && up_after >= UPPER_TARGET)
		r->upper_bonus = upper_bonus_value(cfg->game);

	why_add(r, yz ? "YZ-1" : "YJ-1");
	why_add(r, yz ? "YZ-3" : "YJ-2");
	if (p.joker) {
		if (p.yatzy_bonus)
			why_add(r, "YJ-12");
		else
			why_add(r, "YJ-12a");
		why_add(r, "YJ-13");
		if (is_lower_yj(t->box))
			why_add(r, "YJ-13a");
	} else {
		if (p.scratched_no_joker)
			why_add(r, "YJ-12a");
		why_add(r, dice_box_rule(cfg->game, t->box));
		if (p.points == 0)
			why_add(r, yz ? "YZ-2" : "YJ-2");
	}
	if (r->upper_bonus)
		why_add(r, yz ? "YZ-5" : "YJ-4");
	*next = n;
	return 0;
}

int dice_yatzy_winner(const struct dice_yatzy_cfg *cfg, const struct dice_yatzy_state *s)
{
	int best = DICE_NOBODY, best_total = -1;
	bool tied = false;

	for (size_t i = 0; i < cfg->n_players; i++) {
		int total;

		dice_yatzy_totals(cfg->game, &s->card[i], NULL, NULL, &total);
		if (total > best_total) {
			best_total = total;
			best = (int)i;
			tied = false;
		} else if (total == best_total) {
			tied = true;
		}
	}
	return tied ? DICE_NOBODY : best;
}

void dice_yatzy_sheet(const struct dice_yatzy_cfg *cfg, const struct dice_yatzy_state *s,
		      struct dice_sheet *out)
{
	size_t row = 0;

	memset(out, 0, sizeof(*out));
	out->game = cfg->game;
	out->n_players = cfg->n_players;
	memcpy(out->players, cfg->players, sizeof(out->players));
	for (int b = 0; b < DICE_BOX_COUNT; b++) {
		if (!dice_game_has_box(cfg->game, (enum dice_box)b))
			continue;
		snprintf(out->row[row], DICE_SHEET_TEXT, "%s", box_names[b]);
		for (size_t p = 0; p < cfg->n_players; p++) {
			out->cell[row][p].filled = s->card[p].used[b];
			out->cell[row][p].value = s->card[p].box[b];
		}
		row++;
		if (b == DICE_BOX_SIXES) {
			snprintf(out->row[row], DICE_SHEET_TEXT, "upper");
			snprintf(out->row[row + 1], DICE_SHEET_TEXT, "bonus");
			for (size_t p = 0; p < cfg->n_players; p++) {
				int up, bonus;

				dice_yatzy_totals(cfg->game, &s->card[p], &up, &bonus, NULL);
				out->cell[row][p].filled = true;
				out->cell[row][p].value = up;
				out->cell[row + 1][p].filled = true;
				out->cell[row + 1][p].value = bonus;
			}
			row += 2;
		}
	}
	if (cfg->game == DICE_YJ) {
		snprintf(out->row[row], DICE_SHEET_TEXT, "yatzy_bonus");
		for (size_t p = 0; p < cfg->n_players; p++) {
			out->cell[row][p].filled = true;
			out->cell[row][p].value = s->card[p].yatzy_bonus;
		}
		row++;
	}
	snprintf(out->row[row], DICE_SHEET_TEXT, "total");
	for (size_t p = 0; p < cfg->n_players; p++) {
		int total;

		dice_yatzy_totals(cfg->game, &s->card[p], NULL, NULL, &total);
		out->cell[row][p].filled = true;
		out->cell[row][p].value = total;
	}
	row++;
	out->n_rows = row;
	out->turn = dice_yatzy_next_player(cfg, s);
	out->round = cfg->n_players ? s->n_turns / (int)cfg->n_players + 1 : 1;
	if (out->round > box_count(cfg->game))
		out->round = box_count(cfg->game);
	out->over = s->over;
	out->winner = s->over ? dice_yatzy_winner(cfg, s) : DICE_NOBODY;
	out->loser = DICE_NOBODY;
	out->dreiermann = DICE_NOBODY;
	out->mark_player = DICE_NOBODY;
}
