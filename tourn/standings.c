/*
 * standings.c: the table of a tournament's decided matches, with the
 * tie-breaks of docs/tournament.md (stage, match points, head to head,
 * difference, points for).
 */
#include <string.h>

#include "tourn/internal.h"

static long long diff(const struct tourn_standing *x)
{
	return (long long)x->points_for - x->points_against;
}

/* <0 when x ranks above y. Stage first (elimination), then the league keys;
 * full: with head to head and the points, else only match points. */
static int cmp_rows(const struct tourn *t, const struct tourn_standing *x,
		    const struct tourn_standing *y, bool full)
{
	int sx = t->stage[x->team], sy = t->stage[y->team];

	if (tourn_is_elim(t) && sx != sy)
		return sx > sy ? -1 : 1;
	if (x->match_points != y->match_points)
		return x->match_points > y->match_points ? -1 : 1;
	if (full) {
		if (x->h2h_points != y->h2h_points)
			return x->h2h_points > y->h2h_points ? -1 : 1;
		if (diff(x) != diff(y))
			return diff(x) > diff(y) ? -1 : 1;
		if (x->points_for != y->points_for)
			return x->points_for > y->points_for ? -1 : 1;
	}
	return x->team < y->team ? -1 : 1;
}

/* Insertion sort: n is small, and qsort has no context argument. */
static void sort_rows(const struct tourn *t, struct tourn_standing *rows, int n, bool full)
{
	for (int i = 1; i < n; i++) {
		struct tourn_standing x = rows[i];
		int j = i;

		while (j > 0 && cmp_rows(t, &x, &rows[j - 1], full) < 0) {
			rows[j] = rows[j - 1];
			j--;
		}
		rows[j] = x;
	}
}

void tourn_rank(struct tourn *t, int limit, struct tourn_standing *rows)
{
	struct tourn_standing *by = t->rows;	/* by team */
	int g = 0;

	memset(by, 0, (size_t)t->n * sizeof(*by));
	for (int i = 0; i < t->n; i++)
		by[i].team = i;
	for (int id = 0; id < limit; id++) {
		const struct tourn_match *m = &t->s[id].m;

		if (m->state == TOURN_M_WALKOVER && t->format == TOURN_SWISS) {
			by[m->winner].wins++;
			by[m->winner].byes++;
			by[m->winner].match_points += 2;
		}
		if (m->state != TOURN_M_PLAYED)
			continue;
		for (int side = 0; side < 2; side++) {
			struct tourn_standing *x = &by[m->team[side]];

			x->played++;
			x->points_for += m->score[side];
			x->points_against += m->score[1 - side];
			if (m->winner == TOURN_NONE) {
				x->draws++;
				x->match_points++;
			} else if (m->winner == m->team[side]) {
				x->wins++;
				x->match_points += 2;
			} else {
				x->losses++;
			}
		}
	}
	memcpy(rows, by, (size_t)t->n * sizeof(*rows));
	sort_rows(t, rows, t->n, false);
	/* Groups of teams level so far; head to head counts only games inside one. */
	for (int i = 0; i < t->n; i++) {
		if (i > 0 && (rows[i - 1].match_points != rows[i].match_points ||
			      (tourn_is_elim(t) && t->stage[rows[i - 1].team] != t->stage[rows[i].team])))
			g++;
		t->group[rows[i].team] = g;
	}
	for (int id = 0; id < limit; id++) {
		const struct tourn_match *m = &t->s[id].m;

		if (m->state != TOURN_M_PLAYED || t->group[m->team[0]] != t->group[m->team[1]])
			continue;
		for (int side = 0; side < 2; side++) {
			if (m->winner == TOURN_NONE)
				by[m->team[side]].h2h_points++;
			else if (m->winner == m->team[side])
				by[m->team[side]].h2h_points += 2;
		}
	}
	for (int i = 0; i < t->n; i++)
		rows[i].h2h_points = by[rows[i].team].h2h_points;
	sort_rows(t, rows, t->n, true);
}

