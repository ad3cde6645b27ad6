/*
 * tourn.c: the fold of results over the formats' slots, and the public
 * functions (docs/tournament.md). The slots are laid out in brackets.c,
 * Swiss rounds paired in swiss.c, the standings ranked in standings.c.
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

#include "tourn/internal.h"

static void say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
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
			tourn_swiss_place(t, r);
		} else if (tourn_swiss_pair(t, r)) {
			memcpy(keep, t->pairs, bytes);
			t->cached[r] = true;
			tourn_swiss_place(t, r);
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
	tourn_rank(t, t->n_matches, t->table);
	t->winner = t->done ? t->table[0].team : TOURN_NONE;
	for (int i = 0; i < t->n; i++) {
		struct tourn_standing *x = &t->table[i];

		if (tourn_is_elim(t)) {
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
	rc = tourn_is_elim(t) ? tourn_build_elim(t) : tourn_build_league(t);
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
	if (score_a == score_b && tourn_is_elim(t)) {
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
