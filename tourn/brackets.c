/*
 * brackets.c: each format's slots, and where each slot's two teams come
 * from (docs/tournament.md). Match ids are in dependency order: a source
 * names only matches before its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tourn/internal.h"

/* Bracket positions of seeds 0..p-1 (p a power of 2): seed s meets seed
 * p-1-s in round 1 and the top 2^j seeds are in different 2^j-ths of the
 * draw, so the empty spots (the lowest seeds) never meet each other. */
static void seed_order(int *pos, int p)
{
	pos[0] = 0;
	for (int size = 1; size < p; size *= 2) {
		for (int i = size - 1; i >= 0; i--) {
			pos[2 * i] = pos[i];
			pos[2 * i + 1] = 2 * size - 1 - pos[i];
		}
	}
}

static void slot_init(struct slot *sl, int id, enum tourn_bracket b, int round)
{
	memset(sl, 0, sizeof(*sl));
	sl->m.id = id;
	sl->m.bracket = b;
	sl->m.round = round;
	sl->out_stage = -1;
	sl->src[0].kind = sl->src[1].kind = SRC_SET;
}

static void set_src(struct slot *sl, int side, enum src_kind k, int v)
{
	sl->src[side].kind = k;
	sl->src[side].v = v;
}

static int log2i(int p)
{
	int k = 0;

	while ((1 << k) < p)
		k++;
	return k;
}

/* Matches of the winners' bracket: rounds 1..k of p/2, p/4, ... 1. */
static int build_winners(struct tourn *t, int p, int id, int *first)
{
	int pos[2 * TOURN_MAX_TEAMS];
	int k = log2i(p);

	seed_order(pos, p);
	for (int r = 1; r <= k; r++) {
		int count = p >> r;

		first[r] = id;
		for (int i = 0; i < count; i++, id++) {
			struct slot *sl = &t->s[id];

			slot_init(sl, id, TOURN_WINNERS, r);
			if (r == 1) {
				for (int side = 0; side < 2; side++) {
					int seed = pos[2 * i + side];

					set_src(sl, side, SRC_TEAM, seed < t->n ? seed : TOURN_BYE);
				}
			} else {
				set_src(sl, 0, SRC_WINNER, first[r - 1] + 2 * i);
				set_src(sl, 1, SRC_WINNER, first[r - 1] + 2 * i + 1);
			}
			if (t->format == TOURN_SINGLE)
				sl->out_stage = r;
		}
	}
	return id;
}

/* The losers' bracket: round 1 pairs the winners' round 1 losers (side by
 * side in the draw, so with at most p/4 empty spots none meet); each even
 * round 2j brings in the losers of winners' round j+1, in reverse order
 * (to put off rematches); each odd round after that halves the field. */
static int build_losers(struct tourn *t, int p, int id, const int *wfirst)
{
	int k = log2i(p);
	int prev = -1, prev_count = 0;

	for (int lr = 1; lr <= 2 * (k - 1); lr++) {
		int count, start = id;

		if (lr == 1)
			count = p / 4;
		else if (lr % 2 == 0)
			count = prev_count;
		else
			count = prev_count / 2;
		for (int i = 0; i < count; i++, id++) {
			struct slot *sl = &t->s[id];

			slot_init(sl, id, TOURN_LOSERS, lr);
			sl->out_stage = lr;
			if (lr == 1) {
				set_src(sl, 0, SRC_LOSER, wfirst[1] + 2 * i);
				set_src(sl, 1, SRC_LOSER, wfirst[1] + 2 * i + 1);
			} else if (lr % 2 == 0) {
				set_src(sl, 0, SRC_WINNER, prev + i);
				set_src(sl, 1, SRC_LOSER, wfirst[lr / 2 + 1] + count - 1 - i);
			} else {
				set_src(sl, 0, SRC_WINNER, prev + 2 * i);
				set_src(sl, 1, SRC_WINNER, prev + 2 * i + 1);
			}
		}
		prev = start;
		prev_count = count;
	}
	return id;
}

int tourn_build_elim(struct tourn *t)
{
	int p = 2;
	int wfirst[16];
	int id, k, lb_last = -1;

	while (p < t->n)
		p *= 2;
	k = log2i(p);
	t->n_matches = t->format == TOURN_SINGLE ? p - 1 : (p - 1) + (p - 2) + 2;
	t->s = calloc((size_t)t->n_matches, sizeof(*t->s));
	if (!t->s)
		return -ENOMEM;
	id = build_winners(t, p, 0, wfirst);
	if (t->format == TOURN_SINGLE)
		return 0;
	if (k > 1) {
		id = build_losers(t, p, id, wfirst);
		lb_last = id - 1;
	}
	t->gf = id;
	t->final_stage = 2 * (k - 1) + 1;
	slot_init(&t->s[id], id, TOURN_FINAL, 1);
	set_src(&t->s[id], 0, SRC_WINNER, wfirst[k]);
	/* With two teams the winners' final's loser is the losers' champion. */
	if (lb_last >= 0)
		set_src(&t->s[id], 1, SRC_WINNER, lb_last);
	else
		set_src(&t->s[id], 1, SRC_LOSER, wfirst[k]);
	slot_init(&t->s[id + 1], id + 1, TOURN_FINAL, 2);
	t->s[id + 1].out_stage = t->final_stage;
	return 0;
}

/* League slots; round robin's teams are fixed here by the circle method
 * (team 0 stays, the others turn), Swiss's are set by the fold. */
int tourn_build_league(struct tourn *t)
{
	int np = t->n + t->n % 2;	/* with a bye when odd */
	int arr[TOURN_MAX_TEAMS + 1];

	if (t->format == TOURN_ROUND_ROBIN) {
		t->rounds = np - 1;
		t->per_round = t->n / 2;
	} else {
		t->per_round = np / 2;	/* the bye is a match of its own */
	}
	t->n_matches = t->rounds * t->per_round;
	t->s = calloc((size_t)t->n_matches, sizeof(*t->s));
	if (!t->s)
		return -ENOMEM;
	for (int i = 0; i < np; i++)
		arr[i] = i;
	for (int r = 0, id = 0; r < t->rounds; r++) {
		for (int i = 0; i < t->per_round; i++)
			slot_init(&t->s[id + i], id + i, TOURN_LEAGUE, r + 1);
		if (t->format != TOURN_ROUND_ROBIN) {
			id += t->per_round;
			continue;
		}
		for (int i = 0; i < np / 2; i++) {
			int a = arr[i], b = arr[np - 1 - i];

			if (a == t->n || b == t->n)
				continue;	/* the odd one out sits this round out */
			/* Alternate sides so the fixed team is not always team[0]. */
			if (i == 0 && r % 2 == 1) {
				int x = a;

				a = b;
				b = x;
			}
			set_src(&t->s[id], 0, SRC_TEAM, a);
			set_src(&t->s[id], 1, SRC_TEAM, b);
			id++;
		}
		int last = arr[np - 1];

		memmove(&arr[2], &arr[1], (size_t)(np - 2) * sizeof(int));
		arr[1] = last;
	}
	return 0;
}

