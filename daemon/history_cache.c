/*
 * history: what the history pages show of each stored Beer Die match,
 * folded once and kept. A request folds only the matches that changed
 * since the last one (the one under way, mostly), so /api/players costs
 * a list of the matches and a sum, not a fold of every stored match:
 * asked in a loop, it cannot hold up the referee.
 */
#include "daemon/history.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* One stored Beer Die match as folded. key: what changes when its log
 * does (a throw, a correction or undo, its end); a confirmation changes
 * nothing these figures show. */
struct hist_match {
	int64_t id;
	int throws, corrections;
	bool ended;
	int64_t start_wall_ms;
	char teams[2][BD_NAME_MAX];
	int score[2];
	int winner;				/* 0 A, 1 B, -1 not over */
	size_t n_part;
	struct dd_pstats part[BD_PLAYERS];	/* this match's figures, a player each */
	int team[BD_PLAYERS];			/* part[i]'s team */
	bool seat_of[BD_PLAYERS][BD_PLAYERS];	/* seat s is part[i] (for the players list) */
};

struct dd_history {
	struct hist_match *m;	/* by id, ascending */
	size_t n;
	int bad_rc;		/* a match that would not fold (left out), or 0 */
	char bad[256];		/* why */
};

struct dd_history *dd_history_new(void)
{
	return calloc(1, sizeof(struct dd_history));
}

void dd_history_free(struct dd_history *h)
{
	if (!h)
		return;
	free(h->m);
	free(h);
}

static const struct hist_match *cached(const struct dd_history *h, size_t *at, const struct db_match_info *mi)
{
	while (*at < h->n && h->m[*at].id < mi->id)
		(*at)++;
	if (*at < h->n && h->m[*at].id == mi->id && h->m[*at].throws == mi->throws &&
	    h->m[*at].corrections == mi->corrections && h->m[*at].ended == mi->ended)
		return &h->m[*at];
	return NULL;
}

/* Folds match mi into hm. */
static int fold_match(struct db *db, const struct db_match_info *mi, struct hist_match *hm,
		      char *err, size_t errlen)
{
	struct mlog_bd *log = NULL;
	struct mlog_bd_result res = { 0 };
	struct dd_stats st = { 0 };
	int rc = db_bd_load(db, mi->id, &log, &res, err, errlen);

	memset(hm, 0, sizeof(*hm));
	if (!rc)
		rc = dd_stats_add(&st, log, &res);
	if (rc)
		goto out_free;
	hm->id = mi->id;
	hm->throws = mi->throws;
	hm->corrections = mi->corrections;
	hm->ended = mi->ended;
	hm->start_wall_ms = mi->start_wall_ms;
	for (int t = 0; t < 2; t++) {
		snprintf(hm->teams[t], sizeof(hm->teams[t]), "%s", log->team_names[t]);
		hm->score[t] = res.final.score[t];
	}
	hm->winner = res.final.over && res.final.winner >= 0 ? res.final.winner : -1;
	/* dd_stats_add made one entry a name, in seat order: at most four. */
	hm->n_part = st.n < BD_PLAYERS ? st.n : BD_PLAYERS;
	for (size_t i = 0; i < hm->n_part; i++) {
		hm->part[i] = st.p[i];
		hm->team[i] = -1;
		for (int s = 0; s < BD_PLAYERS; s++)
			if (!strcmp(log->cfg.players[s], st.p[i].name)) {
				hm->seat_of[s][i] = true;
				if (hm->team[i] < 0)
					hm->team[i] = s / 2;
			}
	}
out_free:
	dd_stats_free(&st);
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
	return rc;
}

int dd_history_refresh(struct dd_history *h, struct db *db, size_t max_folds, char *err,
		       size_t errlen)
{
	struct db_match_info *ms = NULL;
	size_t n = 0, k = 0, at = 0;
	struct hist_match *next;
	char why[256];
	size_t folds = 0, left = 0;
	int rc = db_matches(db, &ms, &n, err, errlen);

	if (rc)
		return rc;
	h->bad_rc = 0;
	next = calloc(n ? n : 1, sizeof(*next));
	if (!next) {
		free(ms);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct hist_match *old;

		if (strcmp(ms[i].game, "beerdie"))
			continue;
		if (i && ms[i].id <= ms[i - 1].id) {	/* db_matches is by id: keep to it */
			rc = -EIO;
			snprintf(err, errlen, "matches out of order at %lld", (long long)ms[i].id);
			break;
		}
		old = cached(h, &at, &ms[i]);
		if (old) {
			next[k++] = *old;
			continue;
		}
		/* Past the budget, the rest waits for the next call: what is
		 * folded so far is kept, so each call gets further. */
		if (folds == max_folds) {
			left++;
			continue;
		}
		folds++;
		/* A match that does not fold is left out of the pages and
		 * tried again next time; the players' figures, which would be
		 * wrong without it, answer its error (dd_history_stats). */
		rc = fold_match(db, &ms[i], &next[k], why, sizeof(why));
		if (rc == -ENOMEM)
			break;
		if (!rc)
			k++;
		else if (!h->bad_rc) {
			h->bad_rc = rc;
			snprintf(h->bad, sizeof(h->bad), "%s", why);
		}
		rc = 0;
	}
	free(ms);
	if (rc) {
		free(next);
		return rc;
	}
	free(h->m);
	h->m = next;
	h->n = k;
	if (left) {
		snprintf(err, errlen, "still reading the stored matches (%zu of %zu): try again", k, k + left);
		return -EAGAIN;
	}
	return 0;
}

int dd_history_stats(const struct dd_history *h, struct dd_stats *st, char *err, size_t errlen)
{
	if (h->bad_rc) {
		snprintf(err, errlen, "%s", h->bad);
		return h->bad_rc;
	}
	for (size_t i = 0; i < h->n; i++)
		for (size_t j = 0; j < h->m[i].n_part; j++) {
			const struct dd_pstats *a = &h->m[i].part[j];
			struct dd_pstats *p = dd_stats_player(st, a->name);

			if (!p)
				return -ENOMEM;
			p->matches += a->matches;
			p->won += a->won;
			p->points += a->points;
			p->sinks += a->sinks;
			p->cup_hits += a->cup_hits;
			p->catches += a->catches;
			p->drops += a->drops;
			p->fives += a->fives;
			p->kill_n_fills += a->kill_n_fills;
		}
	dd_stats_sort(st);
	return 0;
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *stats_json(const struct dd_pstats *p)
{
	return json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "name", p->name,
			 "matches", p->matches, "won", p->won, "points", p->points,
			 "sinks", p->sinks, "cup_hits", p->cup_hits, "catches", p->catches,
			 "drops", p->drops, "fives", p->fives, "kill_n_fills", p->kill_n_fills);
}

static int dump(json_t *o, char **json)
{
	*json = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return *json ? 0 : -ENOMEM;
}

/* Match hm as a line of part[i]'s list of matches. */
static json_t *played_item(const struct hist_match *hm, int team)
{
	return json_pack("{s:I,s:I,s:s,s:s,s:s,s:{s:i,s:i},s:o}", "match", (json_int_t)hm->id,
			 "start_wall_ms", (json_int_t)hm->start_wall_ms, "team", team ? "B" : "A",
			 "team_name", hm->teams[team], "against", hm->teams[!team],
			 "score", "A", hm->score[0], "B", hm->score[1],
			 "won", hm->winner >= 0 ? json_boolean(hm->winner == team) : json_null());
}

int dd_history_players(struct dd_history *h, struct db *db, const char *name, char **json,
		       char *err, size_t errlen)
{
	struct dd_stats st = { 0 };
	json_t *o = NULL;
	int rc = dd_history_refresh(h, db, DD_HISTORY_FOLDS, err, errlen);

	*json = NULL;
	if (!rc)
		rc = dd_history_stats(h, &st, err, errlen);
	if (rc)
		goto out;
	if (name) {
		const struct dd_pstats *p = dd_stats_find(&st, name);
		json_t *played = json_array();

		rc = -ENOENT;
		if (!p) {
			json_decref(played);
			goto out;
		}
		/* Newest first, at most DD_PLAYED_MAX. */
		for (size_t i = h->n; played && i-- > 0 && json_array_size(played) < DD_PLAYED_MAX;)
			for (size_t j = 0; j < h->m[i].n_part; j++)
				if (!strcmp(h->m[i].part[j].name, name))
					json_array_append_new(played, played_item(&h->m[i], h->m[i].team[j]));
		o = stats_json(p);
		if (o)
			json_object_set_new(o, "played", played);
		else
			json_decref(played);
	} else {
		json_t *arr = json_array();

		for (size_t i = 0; arr && i < st.n; i++)
			json_array_append_new(arr, stats_json(&st.p[i]));
		o = json_pack("{s:o*}", "players", arr);
	}
	rc = dump(o, json);
out:
	dd_stats_free(&st);
	return rc;
}

/* One match of a page: what the list shows; a Beer Die one from h. */
static json_t *page_item(const struct dd_history *h, const struct db_match_info *mi)
{
	json_t *m = json_pack("{s:I,s:s,s:b,s:i,s:i,s:I}", "match", (json_int_t)mi->id,
			      "game", mi->game, "ended", mi->ended, "throws", mi->throws,
			      "corrections", mi->corrections, "start_wall_ms",
			      (json_int_t)mi->start_wall_ms);
	const struct hist_match *hm = NULL;
	const char *pl[BD_PLAYERS] = { "", "", "", "" };
	size_t lo = 0, hi = h->n;

	if (!m)
		return NULL;
	if (mi->score[0])
		json_object_set_new(m, "score", json_loads(mi->score, 0, NULL));
	while (lo < hi) {	/* h->m is by id */
		size_t mid = lo + (hi - lo) / 2;

		if (h->m[mid].id < mi->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (strcmp(mi->game, "beerdie") || lo >= h->n || h->m[lo].id != mi->id)
		return m;
	hm = &h->m[lo];
	for (int s = 0; s < BD_PLAYERS; s++)
		for (size_t j = 0; j < hm->n_part; j++)
			if (hm->seat_of[s][j])
				pl[s] = hm->part[j].name;
	json_object_set_new(m, "teams", json_pack("{s:s,s:s}", "A", hm->teams[0], "B", hm->teams[1]));
	json_object_set_new(m, "players", json_pack("{s:[s,s],s:[s,s]}", "A", pl[0], pl[1],
						    "B", pl[2], pl[3]));
	json_object_set_new(m, "score", json_pack("{s:i,s:i}", "A", hm->score[0], "B", hm->score[1]));
	json_object_set_new(m, "winner", hm->winner >= 0 ? json_string(hm->winner ? "B" : "A")
							 : json_null());
	return m;
}

int dd_history_page(struct dd_history *h, struct db *db, long page, long per, char **json,
		    char *err, size_t errlen)
{
	struct db_match_info *ms = NULL;
	size_t n = 0, pages;
	json_t *arr;
	int rc = dd_history_refresh(h, db, DD_HISTORY_FOLDS, err, errlen);

	*json = NULL;
	if (!rc)
		rc = db_matches(db, &ms, &n, err, errlen);
	if (rc)
		return rc;
	pages = n ? (n + (size_t)per - 1) / (size_t)per : 1;
	if ((size_t)page > pages) {
		free(ms);
		snprintf(err, errlen, "page %ld: there are %zu", page, pages);
		return -ENOENT;
	}
	arr = json_array();
	/* Newest first: page 1 is the last per matches stored. */
	for (size_t k = (size_t)(page - 1) * (size_t)per; arr && k < n && k < (size_t)page * (size_t)per; k++)
		json_array_append_new(arr, page_item(h, &ms[n - 1 - k]));
	free(ms);
	return dump(json_pack("{s:I,s:I,s:I,s:I,s:o*}", "total", (json_int_t)n, "page",
			      (json_int_t)page, "per", (json_int_t)per, "pages",
			      (json_int_t)pages, "matches", arr), json);
}
