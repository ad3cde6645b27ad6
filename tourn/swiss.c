/*
 * swiss.c: a Swiss round's pairs from the standings before it, without a
 * rematch, and their places in the round's slots (docs/tournament.md).
 */
#include <string.h>

#include "tourn/internal.h"

static bool can_meet(const struct tourn *t, int i, int j)
{
	return i != j && !t->used[i] && !t->used[j] &&
	       !t->met[t->order[i] * (t->n + 1) + t->order[j]];
}

/* Edmonds' blossom algorithm on the positions of order[] not used, edges
 * between teams that have not met: true when they can all be paired. */
static int lca(struct tourn *t, int a, int b)
{
	int w = t->n + 1;
	int *match = t->bl, *p = t->bl + w, *base = t->bl + 2 * w, *mark = t->bl + 6 * w;

	memset(mark, 0, (size_t)(t->n + 1) * sizeof(int));
	for (;;) {
		a = base[a];
		mark[a] = 1;
		if (match[a] < 0)
			break;
		a = p[match[a]];
	}
	for (;;) {
		b = base[b];
		if (mark[b])
			return b;
		b = p[match[b]];
	}
}

static void mark_path(struct tourn *t, int v, int b, int child)
{
	int w = t->n + 1;
	int *match = t->bl, *p = t->bl + w, *base = t->bl + 2 * w, *blossom = t->bl + 4 * w;

	while (base[v] != b) {
		blossom[base[v]] = blossom[base[match[v]]] = 1;
		p[v] = child;
		child = match[v];
		v = p[match[v]];
	}
}

static int find_path(struct tourn *t, int np, int root)
{
	int w = t->n + 1;
	int *match = t->bl, *p = t->bl + w, *base = t->bl + 2 * w, *q = t->bl + 3 * w;
	int *blossom = t->bl + 4 * w, *seen = t->bl + 5 * w;
	int head = 0, tail = 0;

	for (int i = 0; i < np; i++) {
		p[i] = -1;
		base[i] = i;
		seen[i] = 0;
	}
	seen[root] = 1;
	q[tail++] = root;
	while (head < tail) {
		int v = q[head++];

		for (int to = 0; to < np; to++) {
			if (!can_meet(t, v, to) || base[v] == base[to] || match[v] == to)
				continue;
			if (to == root || (match[to] >= 0 && p[match[to]] >= 0)) {
				int cb = lca(t, v, to);

				memset(blossom, 0, (size_t)w * sizeof(int));
				mark_path(t, v, cb, to);
				mark_path(t, to, cb, v);
				for (int i = 0; i < np; i++) {
					if (!blossom[base[i]])
						continue;
					base[i] = cb;
					if (!seen[i]) {
						seen[i] = 1;
						q[tail++] = i;
					}
				}
			} else if (p[to] < 0) {
				p[to] = v;
				if (match[to] < 0)
					return to;
				seen[match[to]] = 1;
				q[tail++] = match[to];
			}
		}
	}
	return -1;
}

static bool can_all_pair(struct tourn *t, int np)
{
	int *match = t->bl, *p = t->bl + t->n + 1;

	for (int i = 0; i < np; i++)
		match[i] = -1;
	for (int i = 0; i < np; i++) {
		if (t->used[i] || match[i] >= 0)
			continue;
		int v = find_path(t, np, i);

		if (v < 0)
			return false;
		while (v >= 0) {
			int pv = p[v], ppv = match[pv];

			match[v] = pv;
			match[pv] = v;
			v = ppv;
		}
	}
	return true;
}

/* Pairs order[] (best first, used[] marks the taken) top down, each with
 * the best-placed team it has not met such that the rest can still be
 * paired (the blossom check): the pairing a full backtracking search would
 * find first, in polynomial time. */
static bool pair_rest(struct tourn *t, int np, int *out)
{
	if (!can_all_pair(t, np))
		return false;
	for (int i = 0; i < np; i++) {
		if (t->used[i])
			continue;
		t->used[i] = true;
		for (int j = i + 1; j < np; j++) {
			if (t->used[j] || t->met[t->order[i] * (t->n + 1) + t->order[j]])
				continue;
			t->used[j] = true;
			if (can_all_pair(t, np)) {
				*out++ = t->order[i];
				*out++ = t->order[j];
				break;
			}
			t->used[j] = false;
		}
	}
	return true;
}

bool tourn_swiss_pair(struct tourn *t, int r)
{
	int w = t->n + 1;
	int limit = r * t->per_round;
	struct tourn_standing *rows = t->table;

	tourn_rank(t, limit, rows);
	memset(t->met, 0, (size_t)w * (size_t)w);
	for (int id = 0; id < limit; id++) {
		const struct tourn_match *m = &t->s[id].m;
		int a = m->team[0] == TOURN_BYE ? t->n : m->team[0];
		int b = m->team[1] == TOURN_BYE ? t->n : m->team[1];

		t->met[a * w + b] = t->met[b * w + a] = 1;
	}
	for (int i = 0; i < t->n; i++)
		t->order[i] = rows[i].team;
	memset(t->used, 0, (size_t)w * sizeof(bool));
	if (t->n % 2 == 0)
		return pair_rest(t, t->n, t->pairs);
	/* The bye: to the lowest-placed team without one that leaves a pairing. */
	for (int i = t->n - 1; i >= 0; i--) {
		int team = t->order[i];

		if (t->met[team * w + t->n])
			continue;
		t->used[i] = true;
		if (pair_rest(t, t->n, t->pairs)) {
			t->pairs[2 * (t->per_round - 1)] = team;
			t->pairs[2 * (t->per_round - 1) + 1] = TOURN_BYE;
			return true;
		}
		t->used[i] = false;
	}
	return false;
}

void tourn_swiss_place(struct tourn *t, int r)
{
	int base = r * t->per_round;
	bool taken[TOURN_MAX_TEAMS];
	bool placed[TOURN_MAX_TEAMS];

	memset(taken, 0, sizeof(taken));
	memset(placed, 0, sizeof(placed));
	for (int p = 0; p < t->per_round; p++) {
		int a = t->pairs[2 * p], b = t->pairs[2 * p + 1];

		for (int i = 0; i < t->per_round && b != TOURN_BYE; i++) {
			const struct result *res = &t->r[base + i];

			if (taken[i] || !res->has)
				continue;
			if ((res->team[0] == a && res->team[1] == b) ||
			    (res->team[0] == b && res->team[1] == a)) {
				t->s[base + i].m.team[0] = res->team[0];
				t->s[base + i].m.team[1] = res->team[1];
				taken[i] = placed[p] = true;
				break;
			}
		}
	}
	for (int p = 0, i = 0; p < t->per_round; p++) {
		if (placed[p])
			continue;
		while (taken[i])
			i++;
		t->s[base + i].m.team[0] = t->pairs[2 * p];
		t->s[base + i].m.team[1] = t->pairs[2 * p + 1];
		taken[i] = true;
	}
}

