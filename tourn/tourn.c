/*
 * tourn.c: the formats' structures and the fold of results over them
 * (docs/tournament.md).
 *
 * Every match has two sides, each fed by a source: a fixed team (or an
 * empty spot), the winner of an earlier match or its loser. Match ids are
 * in dependency order, so one pass over them in id order resolves every
 * side. Swiss rounds are paired in that pass too, each once the rounds
 * before it are decided. Results are kept per match with the teams they
 * were entered for; a result whose match now has other teams is dropped.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tourn/tourn.h"

enum src_kind { SRC_TEAM, SRC_WINNER, SRC_LOSER, SRC_SET };

struct src {
	enum src_kind kind;
	int v;			/* TEAM: team or TOURN_BYE; WINNER, LOSER: match id */
};

struct slot {
	struct tourn_match m;	/* what the last fold made of it */
	struct src src[2];	/* SET: the fold sets the teams (league, reset) */
	int out_stage;		/* elimination: the stage its loser goes out at; -1 stays in */
};

struct result {
	bool has;
	int team[2];		/* the teams it was entered for */
	int score[2];
};

struct tourn {
	enum tourn_format format;
	int n;			/* teams */
	int rounds;		/* league rounds */
	int per_round;		/* league: matches per round */
	int gf;			/* double elimination: the grand final's id (the reset is gf + 1) */
	int final_stage;	/* double elimination: the stage the grand final's loser goes out at */
	char (*names)[TOURN_NAME_MAX];
	int n_matches;
	struct slot *s;
	struct result *r;
	int *stage;		/* per team: elimination stage it went out at, INT_MAX still in */
	struct tourn_standing *table;	/* the standings of the last fold */
	bool done;
	int winner;
	/* Scratch for the fold (so a result never fails for memory). */
	struct tourn_standing *rows;	/* n */
	int *group;		/* n: per team, its group in the standings sort */
	unsigned char *met;	/* (n + 1)^2: teams that met; index n is the bye */
	int *order;		/* n + 1 */
	bool *used;		/* n + 1 */
	int *pairs;		/* 2 * per_round */
	int *bl;		/* 7 * (n + 1): the blossom algorithm's arrays */
	/* Swiss: each round's pairs, kept until a result before the round changes
	 * (they depend on nothing else), so a fold pairs only what it must. */
	int *cache;		/* rounds * 2 * per_round */
	bool *cached;		/* rounds */
};

static void say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static bool is_elim(const struct tourn *t)
{
	return t->format == TOURN_SINGLE || t->format == TOURN_DOUBLE;
}

/* Even n: the remaining graph after k rounds is (n-1-k)-regular on n
 * vertices; it has a perfect matching when its degree is at least n/2
 * (Dirac), or n/2 - 1 when that is odd (Tutte's condition by counting
 * edges). Odd n gets a bye as an extra vertex. Beyond that, some results
 * leave no pairing (6 teams after 3 rounds: two triangles). */
int tourn_swiss_max_rounds(int n)
{
	int m;

	if (n < 2 || n > TOURN_MAX_TEAMS)
		return 0;
	m = (n + 1) / 2;
	return m % 2 == 0 ? m + 1 : m;
}

static int check_names(const char *const *teams, int n, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		const char *a = teams[i];
		size_t len;

		if (!a) {
			say(err, errlen, "team %d: no name", i + 1);
			return -EINVAL;
		}
		len = strlen(a);
		if (len == 0) {
			say(err, errlen, "team %d: empty name", i + 1);
			return -EINVAL;
		}
		if (len >= TOURN_NAME_MAX) {
			say(err, errlen, "team %d: name longer than %d bytes", i + 1, TOURN_NAME_MAX - 1);
			return -EINVAL;
		}
		for (size_t c = 0; c < len; c++) {
			if ((unsigned char)a[c] < 0x20 || a[c] == 0x7f) {
				say(err, errlen, "team %d: control character in the name", i + 1);
				return -EINVAL;
			}
		}
		for (int j = 0; j < i; j++) {
			if (strcmp(a, teams[j]) == 0) {
				say(err, errlen, "team %d: \"%s\" is already team %d", i + 1, a, j + 1);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static int check_cfg(const struct tourn_cfg *cfg, int n, char *err, size_t errlen)
{
	int max;

	if (cfg->format < TOURN_SINGLE || cfg->format > TOURN_SWISS) {
		say(err, errlen, "format: unknown (%d)", (int)cfg->format);
		return -EINVAL;
	}
	if (n < 2) {
		say(err, errlen, "teams: %d, a tournament needs at least 2", n);
		return -EINVAL;
	}
	if (n > TOURN_MAX_TEAMS) {
		say(err, errlen, "teams: %d, at most %d", n, TOURN_MAX_TEAMS);
		return -EINVAL;
	}
	max = tourn_swiss_max_rounds(n);
	if (cfg->format == TOURN_SWISS && (cfg->rounds < 1 || cfg->rounds > max)) {
		say(err, errlen, "rounds: %d, Swiss with %d teams can pair 1..%d rounds without a rematch",
		    cfg->rounds, n, max);
		return -EINVAL;
	}
	return 0;
}

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

static int build_elim(struct tourn *t)
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
static int build_league(struct tourn *t)
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

static int src_team(const struct tourn *t, const struct src *src)
{
	const struct tourn_match *m;

	switch (src->kind) {
	case SRC_TEAM:
		return src->v;
	case SRC_WINNER:
	case SRC_LOSER:
		m = &t->s[src->v].m;
		if (m->state == TOURN_M_VACANT)
			return TOURN_BYE;
		if (m->state == TOURN_M_PENDING || m->state == TOURN_M_READY)
			return TOURN_NONE;
		return src->kind == SRC_WINNER ? m->winner : m->loser;
	case SRC_SET:
		break;
	}
	return TOURN_NONE;
}

/* Decides match id from its teams (already set) and its kept result. */
static void decide(struct tourn *t, int id)
{
	struct tourn_match *m = &t->s[id].m;
	struct result *r = &t->r[id];
	int a = m->team[0], b = m->team[1];

	m->score[0] = m->score[1] = 0;
	m->winner = m->loser = TOURN_NONE;
	if (a == TOURN_NONE || b == TOURN_NONE) {
		m->state = TOURN_M_PENDING;
	} else if (a == TOURN_BYE && b == TOURN_BYE) {
		m->state = TOURN_M_VACANT;
		m->winner = m->loser = TOURN_BYE;
	} else if (a == TOURN_BYE || b == TOURN_BYE) {
		m->state = TOURN_M_WALKOVER;
		m->winner = a == TOURN_BYE ? b : a;
		m->loser = TOURN_BYE;
	} else if (r->has && r->team[0] == a && r->team[1] == b) {
		m->state = TOURN_M_PLAYED;
		m->score[0] = r->score[0];
		m->score[1] = r->score[1];
		if (r->score[0] != r->score[1]) {
			m->winner = r->score[0] > r->score[1] ? a : b;
			m->loser = r->score[0] > r->score[1] ? b : a;
		}
	} else {
		m->state = TOURN_M_READY;
	}
	if (m->state != TOURN_M_PLAYED)
		r->has = false;	/* entered for other teams: back to not played */
}

static bool decided(const struct tourn_match *m)
{
	return m->state != TOURN_M_PENDING && m->state != TOURN_M_READY;
}

/* ---- standings ---- */

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

	if (is_elim(t) && sx != sy)
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

/* The standings from the decided matches with id < limit, into rows. */
static void standings(struct tourn *t, int limit, struct tourn_standing *rows)
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
			      (is_elim(t) && t->stage[rows[i - 1].team] != t->stage[rows[i].team])))
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

/* ---- Swiss pairing ---- */

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

/* Round r's pairs into t->pairs (the bye last, as (team, TOURN_BYE)), from
 * the decided rounds before it. False when none exists (not with the
 * rounds tourn_new allows). */
static bool swiss_pair(struct tourn *t, int r)
{
	int w = t->n + 1;
	int limit = r * t->per_round;
	struct tourn_standing *rows = t->table;

	standings(t, limit, rows);
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

/* Puts round r's pairs in its slots: a pair whose result is kept takes that
 * match back (as it was entered), the others fill the rest in order. */
static void swiss_place(struct tourn *t, int r)
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

/* ---- the fold ---- */

static void fold_swiss(struct tourn *t)
{
	bool open = true;	/* the rounds before are all decided */

	for (int r = 0; r < t->rounds; r++) {
		int base = r * t->per_round;

		for (int i = 0; i < t->per_round; i++)
			t->s[base + i].m.team[0] = t->s[base + i].m.team[1] = TOURN_NONE;
		int *keep = t->cache + (size_t)r * 2 * (size_t)t->per_round;
		size_t bytes = 2 * (size_t)t->per_round * sizeof(int);

		if (!open) {
			t->cached[r] = false;
		} else if (t->cached[r]) {
			memcpy(t->pairs, keep, bytes);
			swiss_place(t, r);
		} else if (swiss_pair(t, r)) {
			memcpy(keep, t->pairs, bytes);
			t->cached[r] = true;
			swiss_place(t, r);
		}
		for (int i = 0; i < t->per_round; i++) {
			decide(t, base + i);
			if (!decided(&t->s[base + i].m))
				open = false;
		}
	}
}

static void fold_slots(struct tourn *t)
{
	for (int id = 0; id < t->n_matches; id++) {
		struct slot *sl = &t->s[id];

		if (t->format == TOURN_DOUBLE && id == t->gf + 1) {
			const struct tourn_match *gf = &t->s[t->gf].m;

			sl->m.team[0] = sl->m.team[1] = TOURN_NONE;
			if (gf->state == TOURN_M_PLAYED && gf->winner == gf->team[0]) {
				sl->m.state = TOURN_M_NOT_NEEDED;
				sl->m.score[0] = sl->m.score[1] = 0;
				sl->m.winner = sl->m.loser = TOURN_NONE;
				t->r[id].has = false;
				continue;
			}
			/* The reset: the same two teams, once the losers' side won. */
			if (gf->state == TOURN_M_PLAYED) {
				sl->m.team[0] = gf->team[0];
				sl->m.team[1] = gf->team[1];
			}
			decide(t, id);
			continue;
		}
		sl->m.team[0] = src_team(t, &sl->src[0]);
		sl->m.team[1] = src_team(t, &sl->src[1]);
		decide(t, id);
	}
}

static void fold(struct tourn *t)
{
	if (t->format == TOURN_SWISS)
		fold_swiss(t);
	else
		fold_slots(t);

	for (int i = 0; i < t->n; i++)
		t->stage[i] = INT_MAX;
	t->done = true;
	for (int id = 0; id < t->n_matches; id++) {
		const struct slot *sl = &t->s[id];
		const struct tourn_match *m = &sl->m;

		if (!decided(m))
			t->done = false;
		if (m->state != TOURN_M_PLAYED || sl->out_stage < 0)
			continue;
		t->stage[m->loser] = sl->out_stage;
	}
	/* The grand final's first match puts out only the losers' side. */
	if (t->format == TOURN_DOUBLE) {
		const struct tourn_match *gf = &t->s[t->gf].m;

		if (gf->state == TOURN_M_PLAYED && gf->loser == gf->team[1])
			t->stage[gf->loser] = t->final_stage;
	}
	standings(t, t->n_matches, t->table);
	t->winner = t->done ? t->table[0].team : TOURN_NONE;
	for (int i = 0; i < t->n; i++) {
		struct tourn_standing *x = &t->table[i];

		if (is_elim(t)) {
			int above = 0;

			for (int j = 0; j < t->n; j++)
				above += t->stage[j] > t->stage[x->team];
			x->placing = t->stage[x->team] == INT_MAX && !t->done ? 0 : above + 1;
		} else {
			x->placing = t->done ? i + 1 : 0;
		}
	}
}

/* ---- the public functions ---- */

struct tourn *tourn_new(const struct tourn_cfg *cfg, const char *const *teams, int n, char *err,
			size_t errlen)
{
	struct tourn *t;
	int rc;

	if (!cfg || !teams) {
		say(err, errlen, "%s: missing", cfg ? "teams" : "format");
		errno = EINVAL;
		return NULL;
	}
	rc = check_cfg(cfg, n, err, errlen);
	if (rc == 0)
		rc = check_names(teams, n, err, errlen);
	if (rc < 0) {
		errno = -rc;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		goto fail_nomem;
	t->format = cfg->format;
	t->n = n;
	t->rounds = cfg->format == TOURN_SWISS ? cfg->rounds : 0;
	t->gf = -1;
	t->names = calloc((size_t)n, sizeof(*t->names));
	if (!t->names)
		goto free_tourn;
	for (int i = 0; i < n; i++)
		snprintf(t->names[i], TOURN_NAME_MAX, "%s", teams[i]);
	rc = is_elim(t) ? build_elim(t) : build_league(t);
	if (rc < 0)
		goto free_tourn;
	t->r = calloc((size_t)t->n_matches, sizeof(*t->r));
	t->stage = calloc((size_t)n, sizeof(*t->stage));
	t->table = calloc((size_t)n, sizeof(*t->table));
	t->rows = calloc((size_t)n, sizeof(*t->rows));
	t->group = calloc((size_t)n, sizeof(*t->group));
	t->met = calloc((size_t)(n + 1) * (size_t)(n + 1), 1);
	t->order = calloc((size_t)n + 1, sizeof(*t->order));
	t->used = calloc((size_t)n + 1, sizeof(*t->used));
	t->pairs = calloc(2 * (size_t)(t->per_round + 1), sizeof(*t->pairs));
	t->bl = calloc(7 * ((size_t)n + 1), sizeof(*t->bl));
	t->cache = calloc((size_t)t->rounds * 2 * (size_t)t->per_round + 1, sizeof(*t->cache));
	t->cached = calloc((size_t)t->rounds + 1, sizeof(*t->cached));
	if (!t->r || !t->stage || !t->table || !t->rows || !t->group || !t->met || !t->order ||
	    !t->used || !t->pairs || !t->bl || !t->cache || !t->cached)
		goto free_tourn;
	fold(t);
	return t;

free_tourn:
	tourn_free(t);
fail_nomem:
	say(err, errlen, "out of memory for %d teams", n);
	errno = ENOMEM;
	return NULL;
}

void tourn_free(struct tourn *t)
{
	if (!t)
		return;
	free(t->names);
	free(t->s);
	free(t->r);
	free(t->stage);
	free(t->table);
	free(t->rows);
	free(t->group);
	free(t->met);
	free(t->order);
	free(t->used);
	free(t->pairs);
	free(t->bl);
	free(t->cache);
	free(t->cached);
	free(t);
}

enum tourn_format tourn_format(const struct tourn *t)
{
	return t ? t->format : TOURN_SINGLE;
}

int tourn_n_teams(const struct tourn *t)
{
	return t ? t->n : 0;
}

const char *tourn_team_name(const struct tourn *t, int team)
{
	if (!t || team < 0 || team >= t->n)
		return NULL;
	return t->names[team];
}

int tourn_n_matches(const struct tourn *t)
{
	return t ? t->n_matches : 0;
}

int tourn_match(const struct tourn *t, int id, struct tourn_match *out)
{
	if (!t || !out || id < 0 || id >= t->n_matches)
		return -EINVAL;
	*out = t->s[id].m;
	return 0;
}

int tourn_ready(const struct tourn *t, int *ids, int max)
{
	int count = 0;

	if (!t || (!ids && max > 0) || max < 0)
		return -EINVAL;
	for (int id = 0; id < t->n_matches; id++) {
		if (t->s[id].m.state != TOURN_M_READY)
			continue;
		if (count < max)
			ids[count] = id;
		count++;
	}
	return count;
}

static const char *state_why(enum tourn_mstate st)
{
	switch (st) {
	case TOURN_M_PENDING:
		return "its teams are not known yet";
	case TOURN_M_WALKOVER:
		return "it is a walkover (an empty spot)";
	case TOURN_M_VACANT:
		return "both its spots are empty";
	case TOURN_M_NOT_NEEDED:
		return "the grand final needs no reset";
	default:
		return "it cannot be played";
	}
}

int tourn_result(struct tourn *t, int id, int score_a, int score_b, char *err, size_t errlen)
{
	const struct tourn_match *m;
	struct result *r;

	if (!t) {
		say(err, errlen, "no tournament");
		return -EINVAL;
	}
	if (id < 0 || id >= t->n_matches) {
		say(err, errlen, "match %d: no such match (0..%d)", id, t->n_matches - 1);
		return -EINVAL;
	}
	m = &t->s[id].m;
	if (m->state != TOURN_M_READY && m->state != TOURN_M_PLAYED) {
		say(err, errlen, "match %d: no result can be entered, %s", id, state_why(m->state));
		return -EINVAL;
	}
	if (score_a < 0 || score_a > TOURN_MAX_SCORE || score_b < 0 || score_b > TOURN_MAX_SCORE) {
		say(err, errlen, "match %d: score %d-%d, each must be 0..%d", id, score_a, score_b,
		    TOURN_MAX_SCORE);
		return -EINVAL;
	}
	if (score_a == score_b && is_elim(t)) {
		say(err, errlen, "match %d: a draw (%d-%d) cannot decide an elimination match", id,
		    score_a, score_b);
		return -EINVAL;
	}
	r = &t->r[id];
	r->has = true;
	r->team[0] = m->team[0];
	r->team[1] = m->team[1];
	r->score[0] = score_a;
	r->score[1] = score_b;
	for (int later = id / (t->per_round ? t->per_round : 1) + 1; later < t->rounds; later++)
		t->cached[later] = false;
	fold(t);
	return 0;
}

bool tourn_done(const struct tourn *t)
{
	return t && t->done;
}

int tourn_winner(const struct tourn *t)
{
	return t ? t->winner : TOURN_NONE;
}

int tourn_standings(const struct tourn *t, struct tourn_standing *rows, int max)
{
	if (!t || !rows || max < t->n)
		return -EINVAL;
	memcpy(rows, t->table, (size_t)t->n * sizeof(*rows));
	return t->n;
}
