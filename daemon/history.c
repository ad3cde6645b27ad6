/*
 * history: player figures across stored Beer Die matches and the CSV of
 * the history pages, folded from the stored logs through core/.
 */
#include "daemon/history.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct dd_pstats *dd_stats_player(struct dd_stats *st, const char *name)
{
	for (size_t i = 0; i < st->n; i++)
		if (!strcmp(st->p[i].name, name))
			return &st->p[i];
	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 16;
		struct dd_pstats *p = realloc(st->p, cap * sizeof(*p));

		if (!p)
			return NULL;
		st->p = p;
		st->cap = cap;
	}
	memset(&st->p[st->n], 0, sizeof(st->p[0]));
	snprintf(st->p[st->n].name, sizeof(st->p[0].name), "%s", name);
	return &st->p[st->n++];
}

/* The throws as they stand after every correction (the fold's input). */
static const struct bd_throw *current_throw(const struct mlog_bd *log, int throw_no)
{
	const struct bd_throw *t = NULL;

	for (size_t i = 0; i < log->n_entries; i++) {
		const struct mlog_bd_entry *e = &log->entries[i];

		if (e->throw_no == throw_no && (e->kind == MLOG_THROW || e->kind == MLOG_CORRECT))
			t = &e->t;
	}
	return t;
}

int dd_stats_add(struct dd_stats *st, const struct mlog_bd *log, const struct mlog_bd_result *res)
{
	struct dd_pstats *ps[BD_PLAYERS];

	for (int i = 0; i < BD_PLAYERS; i++) {
		/* Two seats with one name are one player: counted once a match. */
		bool seen = false;

		for (int j = 0; j < i; j++)
			seen |= !strcmp(log->cfg.players[j], log->cfg.players[i]);
		ps[i] = dd_stats_player(st, log->cfg.players[i]);
		if (!ps[i])
			return -ENOMEM;
		if (!seen) {
			ps[i]->matches++;
			if (res->final.over && res->final.winner == i / 2)
				ps[i]->won++;
		}
	}
	for (size_t k = 0; k < res->n; k++) {
		const struct bd_ruling *r = &res->rulings[k];
		const struct bd_throw *t = current_throw(log, (int)k + 1);
		int thr = r->thrower;

		if (r->retoss || thr < 0 || thr >= BD_PLAYERS)
			continue;
		ps[thr]->points += r->points[r->team];
		for (int p = 0; p < BD_PLAYERS; p++)
			ps[thr]->sinks += r->sunk[p];
		for (size_t d = 0; d < r->n_duties; d++)
			if (r->duties[d].kind == BD_DUTY_KILL_N_FILL && r->duties[d].player >= 0 &&
			    r->duties[d].player < BD_PLAYERS)
				ps[r->duties[d].player]->kill_n_fills++;
		if (!t)
			continue;
		for (size_t e = 0; e < t->n_events; e++) {
			const struct bd_event *ev = &t->events[e];

			if (ev->kind == BD_EV_CUP && !ev->sink)
				ps[thr]->cup_hits++;
			else if (ev->kind == BD_EV_REST && ev->face == 5)
				ps[thr]->fives++;
			else if (ev->kind == BD_EV_CATCH && ev->player >= 0 && ev->player < BD_PLAYERS) {
				ps[ev->player]->catches++;
				for (size_t f = e + 1; f < t->n_events; f++)
					if (t->events[f].kind == BD_EV_FLOOR) {
						ps[ev->player]->drops++;
						break;
					}
			}
		}
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct dd_pstats *)a)->name, ((const struct dd_pstats *)b)->name);
}

void dd_stats_sort(struct dd_stats *st)
{
	if (st->n)
		qsort(st->p, st->n, sizeof(st->p[0]), by_name);
}

void dd_stats_free(struct dd_stats *st)
{
	free(st->p);
	*st = (struct dd_stats){ 0 };
}

const struct dd_pstats *dd_stats_find(const struct dd_stats *st, const char *name)
{
	for (size_t i = 0; i < st->n; i++)
		if (!strcmp(st->p[i].name, name))
			return &st->p[i];
	return NULL;
}

int dd_stats_collect(struct db *db, struct dd_stats *st, char *err, size_t errlen)
{
	struct db_match_info *ms = NULL;
	size_t n = 0;
	int rc = db_matches(db, &ms, &n, err, errlen);

	for (size_t i = 0; !rc && i < n; i++) {
		struct mlog_bd *log = NULL;
		struct mlog_bd_result res = { 0 };

		if (strcmp(ms[i].game, "beerdie"))
			continue;
		/* One match in memory at a time: bounded by the largest match. */
		rc = db_bd_load(db, ms[i].id, &log, &res, err, errlen);
		if (!rc)
			rc = dd_stats_add(st, log, &res);
		mlog_bd_result_free(&res);
		mlog_bd_free(log);
	}
	free(ms);
	dd_stats_sort(st);
	return rc;
}

void dd_csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void dd_stats_csv(const struct dd_stats *st, FILE *out)
{
	fputs("player,matches,won,points,sinks,cup_hits,catches,drops,fives,kill_n_fills\r\n", out);
	for (size_t i = 0; i < st->n; i++) {
		const struct dd_pstats *p = &st->p[i];

		dd_csv_field(out, p->name);
		fprintf(out, ",%d,%d,%d,%d,%d,%d,%d,%d,%d\r\n", p->matches, p->won, p->points,
			p->sinks, p->cup_hits, p->catches, p->drops, p->fives, p->kill_n_fills);
	}
}

static const char *const ev_words[] = {
	[BD_EV_TABLE] = "table", [BD_EV_CUP] = "cup", [BD_EV_MINE] = "mine",
	[BD_EV_FLOOR] = "floor", [BD_EV_REST] = "rest", [BD_EV_CATCH] = "catch",
	[BD_EV_KICK] = "kick", [BD_EV_LOW_CALL] = "low_call", [BD_EV_RETOSS] = "retoss",
};

static void events_text(FILE *out, const struct bd_match_cfg *cfg, const struct bd_throw *t)
{
	char buf[1024];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t e = 0; t && e < t->n_events && len < sizeof(buf) - 64; e++) {
		const struct bd_event *ev = &t->events[e];
		unsigned k = (unsigned)ev->kind;
		const char *w = k < sizeof(ev_words) / sizeof(ev_words[0]) && ev_words[k] ? ev_words[k] : "?";
		int m = snprintf(buf + len, sizeof(buf) - len, "%s%s", e ? " " : "", w);

		len += m > 0 ? (size_t)m : 0;
		if (ev->player >= 0 && ev->player < BD_PLAYERS && len < sizeof(buf) - 40)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, ":%s",
						cfg->players[ev->player]);
		if (ev->kind == BD_EV_CUP && ev->sink && len < sizeof(buf) - 8)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, ":sink");
		if (ev->kind == BD_EV_REST && len < sizeof(buf) - 8)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, ":%d", ev->face);
	}
	dd_csv_field(out, buf);
}

int dd_match_csv(struct db *db, int64_t match, FILE *out, char *err, size_t errlen)
{
	struct db_match_info info;
	struct mlog_bd *log = NULL;
	struct mlog_bd_result res = { 0 };
	int rc = db_match_get(db, match, &info, err, errlen);

	if (rc)
		return rc;
	if (strcmp(info.game, "beerdie")) {
		snprintf(err, errlen, "match %lld: a %s game has no throws to export as CSV",
			 (long long)match, info.game);
		return -EINVAL;
	}
	rc = db_bd_load(db, match, &log, &res, err, errlen);
	if (rc)
		return rc;
	fputs("match,throw,thrower,team,events,points_A,points_B,score_A,score_B,rules,"
	      "retoss,dead,corrected,duties\r\n", out);
	for (size_t k = 0; k < res.n; k++) {
		const struct bd_ruling *r = &res.rulings[k];
		char rules[256] = "", duties[512] = "";
		size_t rl = 0, dl = 0;

		for (size_t w = 0; w < r->n_why && rl < sizeof(rules) - 16; w++)
			rl += (size_t)snprintf(rules + rl, sizeof(rules) - rl, "%s%s", w ? " " : "", r->why[w]);
		for (size_t d = 0; d < r->n_duties && dl < sizeof(duties) - 64; d++) {
			const struct bd_duty *du = &r->duties[d];
			const char *who = du->player >= 0 && du->player < BD_PLAYERS
					  ? log->cfg.players[du->player] : (du->team ? "B" : "A");

			dl += (size_t)snprintf(duties + dl, sizeof(duties) - dl, "%s%s:%s", d ? " " : "",
					       bd_duty_name(du->kind), who);
		}
		fprintf(out, "%lld,%zu,", (long long)match, k + 1);
		dd_csv_field(out, r->thrower >= 0 && r->thrower < BD_PLAYERS
				  ? log->cfg.players[r->thrower] : "");
		fprintf(out, ",%s,", r->team ? "B" : "A");
		events_text(out, &log->cfg, current_throw(log, (int)k + 1));
		fprintf(out, ",%d,%d,%d,%d,", r->points[0], r->points[1], r->score[0], r->score[1]);
		dd_csv_field(out, rules);
		fprintf(out, ",%s,%s,%s,", r->retoss ? "true" : "false", r->dead ? "true" : "false",
			res.corrected[k] ? "true" : "false");
		dd_csv_field(out, duties);
		fputs("\r\n", out);
	}
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
	return 0;
}
