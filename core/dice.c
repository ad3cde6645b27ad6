/* dice: what the dice games share: names, and the dice of a turn of up to
 * three rolls (YZ-1, YJ-1, HO-2), including choosing the kept dice in the
 * player's favour when the log does not name them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

static const char *const game_names[] = { "yatzy", "yatzy-joker", "dreiermann", "horse" };

int dice_game_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(game_names) / sizeof(game_names[0]); i++)
		if (!strcmp(name, game_names[i]))
			return (int)i;
	return -EINVAL;
}

const char *dice_game_name(enum dice_game g)
{
	return (unsigned)g < sizeof(game_names) / sizeof(game_names[0]) ? game_names[g] : "?";
}

/* Sorts five values high to low (insertion sort: five elements). */
static void sort_desc(int *v, int n)
{
	for (int i = 1; i < n; i++) {
		int x = v[i], j = i - 1;

		while (j >= 0 && v[j] < x) {
			v[j + 1] = v[j];
			j--;
		}
		v[j + 1] = x;
	}
}

/* Removes the multiset sub[0..m) from hand[0..5); false if it is not in it. */
static bool take_out(const int hand[DICE_N], const int *sub, int m, int *rest)
{
	int cnt[7] = { 0 };

	for (int i = 0; i < DICE_N; i++)
		cnt[hand[i]]++;
	for (int i = 0; i < m; i++) {
		if (sub[i] < 1 || sub[i] > 6 || cnt[sub[i]] == 0)
			return false;
		cnt[sub[i]]--;
	}
	if (rest) {
		int k = 0;

		for (int f = 6; f >= 1; f--)
			while (cnt[f]-- > 0)
				rest[k++] = f;
	}
	return true;
}

static int check_rolls(const struct dice_rolls *r, int max_rolls, char *err, size_t errlen)
{
	if (r->n_rolls < 1) {
		snprintf(err, errlen, "rolls: a turn has at least one roll");
		return -EINVAL;
	}
	if (r->n_rolls > max_rolls) {
		snprintf(err, errlen, "rolls: a turn has at most %d rolls, this one has %d", max_rolls,
			 r->n_rolls);
		return -EINVAL;
	}
	for (int k = 0; k < r->n_rolls; k++) {
		if (k == 0 && r->n[0] != DICE_N) {
			snprintf(err, errlen, "rolls[0]: the first roll has %d dice, not %d", r->n[0], DICE_N);
			return -EINVAL;
		}
		if (k > 0 && (r->n[k] < 1 || r->n[k] > DICE_N)) {
			snprintf(err, errlen, "rolls[%d]: a later roll rolls 1 to %d dice, not %d", k, DICE_N,
				 r->n[k]);
			return -EINVAL;
		}
		for (int i = 0; i < r->n[k]; i++)
			if (r->dice[k][i] < 1 || r->dice[k][i] > 6) {
				snprintf(err, errlen, "rolls[%d][%d]: a die shows 1 to 6, not %d", k, i,
					 r->dice[k][i]);
				return -EINVAL;
			}
	}
	return 0;
}

/* The search over kept dice: one level per later roll. */
struct search {
	const struct dice_rolls *r;	/* the turn being read */
	dice_hand_value_fn value;	/* the caller's measure of a hand */
	void *ctx;			/* passed to value */
	int cur_kept[DICE_MAX_ROLLS][DICE_N];	/* the choice being tried */
	bool found;			/* best holds an accepted hand */
	int best_value;			/* value of best */
	int best[DICE_N];		/* sorted high to low */
	int best_kept[DICE_MAX_ROLLS][DICE_N];	/* the choice that gave best */
	bool any;			/* first_hand is set */
	int first_hand[DICE_N];		/* the tie-break's best over all hands */
	int first_kept[DICE_MAX_ROLLS][DICE_N];	/* the choice that gave first_hand */
};

/* Greater in the tie-break order: sorted high to low, compared in turn. */
static bool hand_greater(const int a[DICE_N], const int b[DICE_N])
{
	for (int i = 0; i < DICE_N; i++)
		if (a[i] != b[i])
			return a[i] > b[i];
	return false;
}

static void consider(struct search *s, const int hand[DICE_N])
{
	int h[DICE_N];
	int v;

	memcpy(h, hand, sizeof(h));
	sort_desc(h, DICE_N);
	if (!s->any || hand_greater(h, s->first_hand)) {
		s->any = true;
		memcpy(s->first_hand, h, sizeof(h));
		memcpy(s->first_kept, s->cur_kept, sizeof(s->first_kept));
	}
	v = s->value ? s->value(h, s->ctx) : 0;
	if (v < 0)
		return;
	if (!s->found || v > s->best_value || (v == s->best_value && hand_greater(h, s->best))) {
		s->found = true;
		s->best_value = v;
		memcpy(s->best, h, sizeof(h));
		memcpy(s->best_kept, s->cur_kept, sizeof(s->best_kept));
	}
}

/* Hand before roll k is `hand`; tries every choice of 5 - n[k] dice to keep. */
static void search_from(struct search *s, int k, const int hand[DICE_N])
{
	const struct dice_rolls *r = s->r;
	int m, next[DICE_N];

	if (k == r->n_rolls) {
		consider(s, hand);
		return;
	}
	m = DICE_N - r->n[k];
	for (unsigned mask = 0; mask < (1u << DICE_N); mask++) {
		int c = 0;

		if (__builtin_popcount(mask) != m)
			continue;
		for (int i = 0; i < DICE_N; i++)
			if (mask & (1u << i))
				next[c++] = hand[i];
		/* Equal values at different positions give the same hand:
		 * keep only the choice that is sorted high to low as chosen
		 * from a sorted hand, i.e. skip masks that pick a later copy
		 * of a value while leaving an earlier copy. */
		bool dup = false;

		for (int i = 1; i < DICE_N && !dup; i++)
			if (hand[i] == hand[i - 1] && (mask & (1u << i)) && !(mask & (1u << (i - 1))))
				dup = true;
		if (dup)
			continue;
		memset(s->cur_kept[k - 1], 0, sizeof(s->cur_kept[k - 1]));
		memcpy(s->cur_kept[k - 1], next, (size_t)m * sizeof(int));
		for (int i = 0; i < r->n[k]; i++)
			next[m + i] = r->dice[k][i];
		sort_desc(next, DICE_N);
		search_from(s, k + 1, next);
	}
}

int dice_rolls_best(const struct dice_rolls *r, int max_rolls,
		    dice_hand_value_fn value, void *ctx,
		    int hand[DICE_N], int kept[DICE_MAX_ROLLS][DICE_N],
		    char *err, size_t errlen)
{
	struct search s;
	int h[DICE_N];
	int rc;

	rc = check_rolls(r, max_rolls, err, errlen);
	if (rc)
		return rc;
	memset(&s, 0, sizeof(s));
	memcpy(h, r->dice[0], sizeof(h));
	sort_desc(h, DICE_N);

	if (r->has_keep) {
		if (r->n_keep != r->n_rolls - 1) {
			snprintf(err, errlen, "keep: %d lists for %d later rolls", r->n_keep, r->n_rolls - 1);
			return -EINVAL;
		}
		for (int k = 1; k < r->n_rolls; k++) {
			int m = r->keep_n[k - 1], rest[DICE_N], next[DICE_N];

			if (m + r->n[k] != DICE_N) {
				snprintf(err, errlen,
					 "keep[%d]: %d dice kept and %d rolled again make %d, not %d",
					 k - 1, m, r->n[k], m + r->n[k], DICE_N);
				return -EINVAL;
			}
			if (!take_out(h, r->keep[k - 1], m, rest)) {
				snprintf(err, errlen, "keep[%d]: these dice are not in the hand before roll %d",
					 k - 1, k + 1);
				return -EINVAL;
			}
			memcpy(next, r->keep[k - 1], (size_t)m * sizeof(int));
			memcpy(s.cur_kept[k - 1], r->keep[k - 1], (size_t)m * sizeof(int));
			sort_desc(s.cur_kept[k - 1], m);
			for (int i = 0; i < r->n[k]; i++)
				next[m + i] = r->dice[k][i];
			sort_desc(next, DICE_N);
			memcpy(h, next, sizeof(h));
		}
		s.r = r;
		s.value = value;
		s.ctx = ctx;
		consider(&s, h);
	} else {
		s.r = r;
		s.value = value;
		s.ctx = ctx;
		search_from(&s, 1, h);
	}
	if (!s.found) {
		memcpy(hand, s.first_hand, sizeof(s.first_hand));
		if (kept)
			memcpy(kept, s.first_kept, sizeof(s.first_kept));
		return -ENOENT;
	}
	memcpy(hand, s.best, sizeof(s.best));
	if (kept)
		memcpy(kept, s.best_kept, sizeof(s.best_kept));
	return 0;
}
