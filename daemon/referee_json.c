/* The referee's JSON for the web: the state, the matches, a sheet, a
 * log, a throw's detail and snapshots. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/referee.h"
#include "daemon/referee_internal.h"
#include "daemon/snapshot.h"
#include "db/db.h"
#include "web/web.h"

/* ---- JSON for the web ----------------------------------------------------- */

static json_t *ruling_json(const struct bd_match_cfg *cfg, const struct bd_ruling *ru,
			   bool corrected)
{
	char *line = NULL;
	size_t len;
	json_t *o, *texts;

	if (mlog_bd_ruling_line(cfg, ru, corrected, &line, &len))
		return NULL;
	o = json_loadb(line, len, 0, NULL);
	free(line);
	if (!o)
		return NULL;
	texts = json_array();
	for (size_t i = 0; i < ru->n_why; i++) {
		char txt[BD_RULE_TEXT_MAX];

		bd_rule_text(ru->why[i], &cfg->house, txt, sizeof(txt));
		json_array_append_new(texts, json_pack("{s:s,s:s}", "id", ru->why[i], "text", txt));
	}
	json_object_set_new(o, "rules", texts);
	return o;
}

static json_t *players_json(const struct bd_match_cfg *cfg)
{
	return json_pack("{s:[s,s],s:[s,s]}", "A", cfg->players[0], cfg->players[1],
			 "B", cfg->players[2], cfg->players[3]);
}

/* Every house rule of the match, as START's "house" names them. */
static json_t *house_json(const struct bd_house *h)
{
	size_t n;
	const struct web_house_rule *hr = web_house_rules(&n);
	json_t *o = json_object();

	for (size_t i = 0; o && i < n; i++)
		json_object_set_new(o, hr[i].key, web_house_value(h, hr[i].key));
	return o;
}

void dd_ref_duty_id(const struct bd_duty *d, int throw_no, char *buf, size_t len)
{
	char at[16];

	if (throw_no)
		snprintf(at, sizeof(at), "%d", throw_no);
	else
		snprintf(at, sizeof(at), "F");
	snprintf(buf, len, "%s:%s:%s", at, bd_duty_name(d->kind),
		 d->player != BD_NOBODY ? web_slot_name(d->player)
		 : d->team == BD_TEAM_A ? "A" : "B");
}

bool dd_ref_duty_exists(const struct loaded *m, const char *id)
{
	char buf[MLOG_DUTY_ID_MAX];

	for (size_t i = 0; i < m->res.n; i++)
		for (size_t d = 0; d < m->res.rulings[i].n_duties; d++) {
			dd_ref_duty_id(&m->res.rulings[i].duties[d], (int)i + 1, buf, sizeof(buf));
			if (!strcmp(buf, id))
				return true;
		}
	for (size_t d = 0; m->res.state.over && d < m->res.final.n_duties; d++) {
		dd_ref_duty_id(&m->res.final.duties[d], 0, buf, sizeof(buf));
		if (!strcmp(buf, id))
			return true;
	}
	return false;
}

static json_t *duty_json(const struct mlog_bd *log, const struct bd_duty *d, int throw_no)
{
	const struct bd_match_cfg *cfg = &log->cfg;
	const struct mlog_bd_entry *by;
	char id[MLOG_DUTY_ID_MAX];
	json_t *o;
	bool done;

	dd_ref_duty_id(d, throw_no, id, sizeof(id));
	done = mlog_bd_duty_done(log, id, &by);
	o = json_pack("{s:s,s:s,s:s,s:b}", "duty", bd_duty_name(d->kind), "why", d->why,
		      "id", id, "done", done);
	if (!o)
		return NULL;
	if (done && by->audit.present)
		json_object_set_new(o, "done_by", json_string(by->audit.official));

	if (d->player != BD_NOBODY)
		json_object_set_new(o, "player", json_string(cfg->players[d->player]));
	else
		json_object_set_new(o, "team", json_string(d->team == BD_TEAM_A ? "A" : "B"));
	if (throw_no)
		json_object_set_new(o, "throw", json_integer(throw_no));
	return o;
}

bool dd_ref_doubtful(const struct loaded *m, size_t i)
{
	return m->res.rulings[i].review || m->notes[i].review_why[0];
}

bool dd_ref_review_open(const struct loaded *m, size_t i)
{
	return dd_ref_doubtful(m, i) && !m->notes[i].confirmed && !m->res.corrected[i];
}

const struct bd_throw *dd_ref_judged(const struct mlog_bd *log, int k)
{
	const struct bd_throw *t = NULL;
	int seen = 0;

	for (size_t i = 0; i < log->n_entries; i++) {
		const struct mlog_bd_entry *e = &log->entries[i];

		if (e->kind == MLOG_THROW && ++seen == k)
			t = &e->t;
		else if (e->kind == MLOG_CORRECT && e->throw_no == k)
			t = &e->t;
	}
	return t;
}

/* How sure the evidence of t is: its least sure event's confidence (1 for
 * none given: an official's entry). */
static double throw_confidence(const struct bd_throw *t)
{
	double c = 1;

	for (size_t i = 0; t && i < t->n_events; i++)
		if (t->events[i].has_confidence && t->events[i].confidence < c)
			c = t->events[i].confidence;
	return c;
}

static json_t *throw_json(const struct bd_match_cfg *cfg, const struct bd_throw *t);

/* Throw k's events as judged now (its throw line's, or its last
 * correction's), players by name, for the wall's words; [] when none. */
static json_t *events_by_name(const struct loaded *m, int k)
{
	const struct bd_match_cfg *cfg = &m->log->cfg;
	json_t *line = throw_json(cfg, dd_ref_judged(m->log, k));
	json_t *evs = json_incref(json_object_get(line, "events"));
	static const char *const who[] = { "by", "owner" };
	size_t i;
	json_t *e;

	json_decref(line);
	if (!json_is_array(evs)) {
		json_decref(evs);
		return json_array();
	}
	json_array_foreach(evs, i, e)
		for (size_t w = 0; w < 2; w++) {
			const char *seat = json_string_value(json_object_get(e, who[w]));
			for (int p = 0; seat && p < BD_PLAYERS; p++)
				if (!strcmp(seat, web_slot_name(p))) {
					json_object_set_new(e, who[w], json_string(cfg->players[p]));
					break;
				}
		}
	return evs;
}

/* Whether throw k stands withdrawn: its last correction is an undo. */
static bool throw_undone(const struct mlog_bd *log, int k)
{
	bool undone = false;

	for (size_t i = 0; i < log->n_entries; i++)
		if (log->entries[i].kind == MLOG_CORRECT && log->entries[i].throw_no == k)
			undone = log->entries[i].undo;
	return undone;
}

/* The last thing that changed the match, for the wall's announcements:
 * the log's last throw, correction, undo or confirmation (other lines,
 * such as duty marks, change no ruling). A correction or undo also says
 * the score before it ("before"), folded from the log up to it; null when
 * the log has nothing yet. */
static json_t *event_json(const struct loaded *m)
{
	const struct mlog_bd *log = m->log;
	const struct mlog_bd_entry *e = NULL;
	size_t at = log->n_entries;
	const char *kind;
	json_t *o;

	while (at-- > 0) {
		e = &log->entries[at];
		if (e->kind == MLOG_THROW || e->kind == MLOG_CORRECT || e->kind == MLOG_CONFIRM)
			break;
		e = NULL;
	}
	if (!e)
		return json_null();
	kind = e->kind == MLOG_THROW ? "ruling" : e->kind == MLOG_CONFIRM ? "confirm"
	       : e->undo ? "undo" : "correct";
	o = json_pack("{s:s,s:i,s:o,s:{s:i,s:i},s:b}", "kind", kind,
		      "throw", e->kind == MLOG_THROW ? (int)log->n_throws : e->throw_no,
		      "official", e->kind != MLOG_THROW && e->audit.present
		      ? json_string(e->audit.official) : json_null(),
		      "score", "A", m->res.state.score[0], "B", m->res.state.score[1],
		      "review", e->kind != MLOG_THROW && e->throw_no >= 1 &&
		      (size_t)e->throw_no <= m->res.n && dd_ref_doubtful(m, (size_t)e->throw_no - 1));
	if (o && e->kind == MLOG_CORRECT) {
		struct mlog_bd upto = *log;
		struct mlog_bd_result res;
		char err[256];

		upto.n_entries = at;
		if (mlog_bd_replay(&upto, &res, err, sizeof(err)) == 0) {
			json_object_set_new(o, "before", json_pack("{s:i,s:i}", "A", res.state.score[0],
								   "B", res.state.score[1]));
			mlog_bd_result_free(&res);
		}
	}
	return o;
}

int dd_referee_state(struct dd_referee *r, json_t **out)
{
	const struct loaded *m = &r->m;
	const struct bd_match_cfg *cfg;
	json_t *o, *duties, *history;
	size_t n, first = 0, open = 0;
	int next;

	if (r->dice_id) {
		json_t *dm = dd_ref_dice_state(r, r->dice_id, r->dice_game);
		json_t *sheet = json_object_get(dm, "sheet");

		/* Complete but not ended: over, with its winner (Horse: loser),
		 * and still open for corrections. */
		o = json_pack("{s:I,s:s,s:b,s:o}", "match", (json_int_t)r->dice_id,
			      "game", r->dice_game, "over", r->dice_over, "dice_match", dm);
		if (o && r->dice_over && json_is_string(json_object_get(sheet, "winner")))
			json_object_set(o, "winner", json_object_get(sheet, "winner"));
		if (o && r->dice_over && json_is_string(json_object_get(sheet, "loser")))
			json_object_set(o, "loser", json_object_get(sheet, "loser"));
		*out = o;
		return o ? 0 : -ENOMEM;
	}
	if (!m->log) {
		struct db_match_info newest;
		char err[256];

		o = json_pack("{s:n,s:s,s:n}", "match", "game", "beerdie", "last");
		if (o && r->last_final.over)
			json_object_set_new(o, "previous_winner",
					    json_string(r->last_final.winner == BD_TEAM_A ? "A" : "B"));
		if (o && r->last_won)
			json_object_set(o, "previous", r->last_won);
		/* Between Beer Die matches the screen shows the newest dice
		 * game's sheet, when the newest match is one. */
		if (o && db_match_newest(r->db, false, &newest, err, sizeof(err)) == 0 &&
		    strcmp(newest.game, "beerdie"))
			json_object_set_new(o, "dice_match",
					    dd_ref_dice_state(r, newest.id, newest.game));
		*out = o;
		return o ? 0 : -ENOMEM;
	}
	cfg = &m->log->cfg;
	n = m->res.n;
	next = m->res.state.over ? BD_NOBODY : bd_next_thrower(&m->res.state, cfg);
	o = json_pack("{s:I,s:s,s:{s:s,s:s},s:o,s:{s:i,s:i},s:i,s:b,s:o}",
		      "match", (json_int_t)m->id, "game", "beerdie",
		      "team_names", "A", m->teams[0], "B", m->teams[1],
		      "players", players_json(cfg),
		      "score", "A", m->res.state.score[0], "B", m->res.state.score[1],
		      "throws", (int)n, "over", m->res.state.over,
		      "house", house_json(&cfg->house));
	if (!o)
		return -ENOMEM;
	json_object_set_new(o, "colors", json_pack("{s:s,s:s}", "A", mlog_bd_color(m->log, 0),
						   "B", mlog_bd_color(m->log, 1)));
	json_object_set_new(o, "event", event_json(m));
	if (m->res.state.over)
		json_object_set_new(o, "winner",
				    json_string(m->res.state.winner == BD_TEAM_A ? "A" : "B"));
	if (next != BD_NOBODY)
		json_object_set_new(o, "next", json_pack("{s:s,s:s,s:s}", "player", cfg->players[next],
							 "slot", web_slot_name(next), "team",
							 BD_TEAM_OF(next) == BD_TEAM_A ? "A" : "B"));
	if (n) {
		json_t *last = ruling_json(cfg, &m->res.rulings[n - 1], m->res.corrected[n - 1]);

		if (last) {
			json_object_set_new(last, "review_why",
					    json_string(m->notes[n - 1].review_why));
			json_object_set_new(last, "confirmed", json_boolean(m->notes[n - 1].confirmed));
			json_object_set_new(last, "events", events_by_name(m, (int)n));
			json_object_set_new(last, "undone", json_boolean(throw_undone(m->log, (int)n)));
		}
		json_object_set_new(o, "last", last);
	} else {
		json_object_set_new(o, "last", json_null());
	}
	/* Every duty so far, newest first: the screen shows the top few. */
	duties = json_array();
	for (size_t i = n; i-- > 0;)
		for (size_t d = 0; d < m->res.rulings[i].n_duties; d++)
			json_array_append_new(duties, duty_json(m->log, &m->res.rulings[i].duties[d],
								(int)i + 1));
	if (m->res.state.over)
		for (size_t d = 0; d < m->res.final.n_duties; d++)
			json_array_insert_new(duties, 0, duty_json(m->log, &m->res.final.duties[d], 0));
	json_object_set_new(o, "duties", duties);
	history = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct bd_ruling *ru = &m->res.rulings[i];

		json_array_append_new(history, json_pack(
			"{s:i,s:s,s:{s:i,s:i},s:{s:i,s:i},s:b,s:b,s:b,s:b,s:b,s:b}",
			"throw", (int)i + 1, "thrower", cfg->players[ru->thrower],
			"points", "A", ru->points[0], "B", ru->points[1],
			"score", "A", ru->score[0], "B", ru->score[1],
			"review", dd_ref_doubtful(m, i),
			"confirmed", m->notes[i].confirmed, "corrected", m->res.corrected[i],
			"undone", throw_undone(m->log, (int)i + 1), "retoss", ru->retoss,
			"dead", ru->dead));
	}
	json_object_set_new(o, "history", history);
	/* The banner stays on a counted doubtful ruling until an official
	 * settles it, however many throws follow: the earliest open one is
	 * shown, "awaiting" counts them all. A held ruling comes first: play
	 * waits on it. */
	for (size_t i = n; i-- > 0;)
		if (dd_ref_review_open(m, i)) {
			first = i;
			open++;
		}
	if (r->pending) {
		json_t *pr = ruling_json(cfg, &r->pend.ruling, false);

		json_object_set_new(o, "review", json_pack("{s:i,s:s,s:o?,s:f,s:b,s:i}",
			"throw", (int)n + 1,
			"why", r->pend.why[0] ? r->pend.why : "doubtful evidence", "ruling", pr,
			"confidence", throw_confidence(&r->pend.t), "counted", 0,
			"awaiting", (int)open + 1));
	} else if (open) {
		json_object_set_new(o, "review", json_pack("{s:i,s:s,s:o?,s:f,s:b,s:i}",
			"throw", (int)first + 1,
			"why", m->notes[first].review_why[0] ? m->notes[first].review_why
							   : "doubtful evidence",
			"ruling", ruling_json(cfg, &m->res.rulings[first], m->res.corrected[first]),
			"confidence", throw_confidence(dd_ref_judged(m->log, (int)first + 1)),
			"counted", 1, "awaiting", (int)open));
	}
	*out = o;
	return 0;
}

int dd_referee_result(struct dd_referee *r, int throw_no, json_t **out)
{
	const struct loaded *m = &r->m;
	json_t *o, *ru = NULL;

	*out = NULL;
	if (!m->log)
		return 0;
	if (throw_no >= 1 && (size_t)throw_no <= m->res.n) {
		ru = ruling_json(&m->log->cfg, &m->res.rulings[throw_no - 1],
				 m->res.corrected[throw_no - 1]);
	} else if (r->pending && (size_t)throw_no == m->res.n + 1) {
		ru = ruling_json(&m->log->cfg, &r->pend.ruling, false);
		if (ru)
			json_object_set_new(ru, "held", json_true());
	}
	o = json_pack("{s:I,s:o,s:o,s:{s:i,s:i},s:{s:s,s:s}}", "match", (json_int_t)m->id,
		      "throw", throw_no > 0 ? json_integer(throw_no) : json_null(),
		      "ruling", ru ? ru : json_null(),
		      "score", "A", m->res.state.score[0], "B", m->res.state.score[1],
		      "team_names", "A", m->teams[0], "B", m->teams[1]);
	*out = o;
	return o ? 0 : -ENOMEM;
}

/* A database failure behind a page: logged with db/'s message (file and
 * why) and returned as an errno the web layer answers with a 5xx; its 4xx
 * codes (-ENOENT, -EINVAL, -EBUSY, -EPERM) would blame the request. */
static int read_fault(const char *what, int rc, const char *err)
{
	dd_log(DD_LOG_ERR, "%s: %s", what, err);
	return rc == -ENOENT || rc == -EINVAL || rc == -EBUSY || rc == -EPERM ? -EIO : rc;
}

int dd_referee_matches(struct dd_referee *r, char **out)
{
	json_t *arr;
	struct db_match_info *ms = NULL;
	size_t n = 0;
	char err[256] = "";
	int rc;

	*out = NULL;
	/* An empty list only when there is no log at all, not when reading it failed. */
	if (r->db) {
		rc = db_matches(r->db, &ms, &n, err, sizeof(err));
		if (rc)
			return read_fault("match list", rc, err);
	}
	arr = json_array();
	if (!arr) {
		free(ms);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *m = json_pack("{s:I,s:s,s:b,s:b,s:i,s:i,s:i}",
			"match", (json_int_t)ms[i].id, "game", ms[i].game,
			"current", ms[i].id == dd_referee_current_id(r), "ended", ms[i].ended,
			"throws", ms[i].throws, "corrections", ms[i].corrections,
			"reviews", ms[i].reviews);

		if (m && ms[i].score[0])
			json_object_set_new(m, "score", json_loads(ms[i].score, 0, NULL));
		if (m)
			json_object_set_new(m, "table", json_string(ms[i].table_id));
		json_array_append_new(arr, m);
	}
	free(ms);
	*out = json_dumps(arr, JSON_COMPACT | JSON_REAL_PRECISION(6));
	json_decref(arr);
	return *out ? 0 : -ENOMEM;
}

int dd_referee_sheet(struct dd_referee *r, long id, char **out)
{
	struct db_match_info info;
	struct dice_sheet *sheet;
	char *log = NULL, err[256], name[32];
	size_t len;
	int rc;

	*out = NULL;
	if (!r->db)
		return -ENOENT;
	rc = db_match_get(r->db, id, &info, err, sizeof(err));
	if (rc == -ENOENT || (rc == 0 && !strcmp(info.game, "beerdie")))
		return -ENOENT;
	if (rc)
		return read_fault("score sheet", rc, err);
	rc = dd_referee_log(r, id, &log);
	if (rc)
		return rc;
	sheet = malloc(sizeof(*sheet));
	if (!sheet) {
		free(log);
		return -ENOMEM;
	}
	snprintf(name, sizeof(name), "match %ld", id);
	rc = mlog_dice_sheet(name, log, strlen(log), sheet, err, sizeof(err));
	if (rc == 0)
		rc = mlog_dice_sheet_json(sheet, out, &len);
	else
		dd_log(DD_LOG_WARN, "%s", err);
	free(sheet);
	free(log);
	return rc;
}

int dd_referee_log(struct dd_referee *r, long id, char **out)
{
	char **lines = NULL, err[256], *text, *p;
	size_t n = 0, total = 1;
	int rc;

	*out = NULL;
	if (!r->db)
		return -ENOENT;
	rc = db_lines(r->db, id, &lines, &n, err, sizeof(err));
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++)
		total += strlen(lines[i]) + 1;
	text = p = malloc(total);
	if (text) {
		for (size_t i = 0; i < n; i++) {
			size_t l = strlen(lines[i]);

			memcpy(p, lines[i], l);
			p[l] = '\n';
			p += l + 1;
		}
		*p = '\0';
	}
	db_lines_free(lines, n);
	*out = text;
	return text ? 0 : -ENOMEM;
}

static json_t *throw_json(const struct bd_match_cfg *cfg, const struct bd_throw *t)
{
	char *line = NULL;
	size_t len;
	json_t *o;

	if (mlog_bd_throw_line(cfg, t, 0, &line, &len))
		return NULL;
	o = json_loadb(line, len, 0, NULL);
	free(line);
	return o;
}

/* An official's audit, null for none ("reason" "" when none was given). */
static json_t *audit_json(const struct mlog_audit *a)
{
	if (!a->present)
		return json_null();
	return json_pack("{s:s,s:I,s:s}", "official", a->official, "wall_ms", (json_int_t)a->wall_ms,
			 "reason", a->reason);
}

static json_t *table_json(void)
{
	struct bd_table t;
	json_t *cups = json_array();

	bd_table_defaults(&t);
	for (int p = 0; p < BD_PLAYERS; p++)
		json_array_append_new(cups, json_pack("{s:f,s:f}", "x", t.cup_x[p], "y", t.cup_y[p]));
	return json_pack("{s:f,s:f,s:o,s:f,s:{s:f,s:f},s:f}", "length_m", t.length_m,
			 "width_m", t.width_m, "cups", cups, "cup_radius_m", t.cup_radius_m,
			 "mine", "x", t.mine_x, "y", t.mine_y, "mine_radius_m", t.mine_radius_m);
}

/* Finds snapshot `want` (1-based) of a throw in db_replay's walk; want 0 only counts. */
struct snap_find {
	long want;		/* which one, by place */
	int64_t want_id;	/* which one, by id; 0: by place */
	long seen;		/* snapshots walked so far */
	char *jpeg;		/* the copy found (malloc), or NULL */
	size_t len;		/* its bytes */
};

static int find_snapshot(const struct db_item *it, void *ctx)
{
	struct snap_find *sf = ctx;

	if (it->kind != DB_ITEM_SNAPSHOT)
		return 0;
	++sf->seen;
	if (sf->want_id ? it->id != sf->want_id : sf->seen != sf->want)
		return 0;
	sf->jpeg = malloc(it->len ? it->len : 1);
	if (!sf->jpeg)
		return -ENOMEM;
	memcpy(sf->jpeg, it->data, it->len);
	sf->len = it->len;
	return 1;	/* found: stop the walk */
}

static int list_snapshot(const struct db_item *it, void *ctx)
{
	return dd_snap_list_add(ctx, it);
}

/* The throw's pictures with what is known of each (none when the database
 * cannot say). */
static void list_snapshots(struct dd_referee *r, long id, long throw_no, struct dd_snap_list *l)
{
	char err[256];

	if (r->db)
		db_replay(r->db, id, (int)throw_no, list_snapshot, l, err, sizeof(err));
}

/* What one walk behind a stored throw gives its page: its notes and its
 * snapshots. */
struct throw_walk {
	struct note note;		/* as load_match() collects it */
	struct dd_snap_list snaps;	/* the snapshots and their metadata */
};

static int walk_throw(const struct db_item *it, void *ctx)
{
	struct throw_walk *w = ctx;
	int rc = dd_snap_list_add(&w->snaps, it);

	return rc ? rc : dd_ref_collect_note(it, &w->note);
}

/* A stored match that is not the one under way, for its throw pages: its
 * log and fold only (a throw's notes are read with its page, one walk, not
 * every throw's). -ENOENT when there is no such Beer Die match; any other
 * failure is the database's (logged; a 5xx). */
static int load_old(struct dd_referee *r, long id, struct loaded *m)
{
	struct db_match_info info;
	char err[256];
	int rc;

	memset(m, 0, sizeof(*m));
	if (!r->db)
		return -ENOENT;
	rc = db_match_get(r->db, id, &info, err, sizeof(err));
	if (rc == -ENOENT || (rc == 0 && strcmp(info.game, "beerdie")))
		return -ENOENT;
	if (rc)
		return read_fault("throw detail", rc, err);
	m->id = id;
	rc = db_bd_load(r->db, id, &m->log, &m->res, err, sizeof(err));
	if (rc)
		return read_fault("throw detail", rc, err);
	m->have_res = true;
	return 0;
}

/* Match id for a page: the one under way (*m = &r->m), else read into tmp
 * (*m = tmp, freed by the caller). Errors as load_old(), tmp freed. */
static int load_any(struct dd_referee *r, long id, struct loaded *tmp, struct loaded **m)
{
	int rc;

	*m = &r->m;
	if (r->m.log && id == r->m.id)
		return 0;
	*m = tmp;
	rc = load_old(r, id, tmp);
	if (rc) {
		dd_ref_loaded_free(tmp);
		return rc;
	}
	for (int t = 0; t < 2; t++)
		snprintf(tmp->teams[t], sizeof(tmp->teams[t]), "%s", tmp->log->team_names[t]);
	return 0;
}

int dd_referee_snapshot(struct dd_referee *r, long id, long throw_no, long index,
			int64_t snapshot_id, char **jpeg, size_t *len)
{
	struct snap_find sf = { .want = index, .want_id = snapshot_id };
	char err[256];
	int rc;

	*jpeg = NULL;
	*len = 0;
	if (!r->db || throw_no < 1 || throw_no > 1000000000L || index < 1 || snapshot_id < 0)
		return -ENOENT;
	rc = db_replay(r->db, id, (int)throw_no, find_snapshot, &sf, err, sizeof(err));
	if (rc == 1) {
		*jpeg = sf.jpeg;
		*len = sf.len;
		return 0;
	}
	free(sf.jpeg);
	return rc < 0 && rc != -ENOENT ? rc : -ENOENT;
}

int dd_referee_throw_detail(struct dd_referee *r, long id, long throw_no, char **out)
{
	struct loaded tmp = { 0 }, *m = &tmp;
	const struct bd_match_cfg *cfg;
	const struct bd_throw *orig = NULL, *now = NULL;
	const struct mlog_bd_entry *undo = NULL;	/* the correction that undid it, if the last */
	struct throw_walk w = { 0 };
	const struct note *nt;
	json_t *o = NULL, *corrections, *confirmations;
	char err[256];
	long k = 0;
	int rc;

	*out = NULL;
	rc = load_any(r, id, &tmp, &m);
	if (rc)
		return rc;
	if (throw_no < 1 || (size_t)throw_no > m->res.n)
		goto not_found;
	if (m == &r->m) {
		nt = &m->notes[throw_no - 1];
		list_snapshots(r, id, throw_no, &w.snaps);
	} else {
		rc = db_replay(r->db, id, (int)throw_no, walk_throw, &w, err, sizeof(err));
		if (rc < 0 && rc != -ENOENT) {
			json_decref(w.note.obs);
			json_decref(dd_snap_list_json(&w.snaps));
			dd_ref_loaded_free(&tmp);
			return read_fault("throw detail", rc, err);
		}
		nt = &w.note;	/* -ENOENT: the log has it, the replay not: no notes, as before */
	}
	cfg = &m->log->cfg;
	corrections = json_array();
	confirmations = json_array();
	for (size_t i = 0; i < m->log->n_entries; i++) {
		const struct mlog_bd_entry *e = &m->log->entries[i];

		if (e->kind == MLOG_THROW && ++k == throw_no) {
			orig = now = &e->t;
		} else if (e->kind == MLOG_CORRECT && e->throw_no == throw_no) {
			json_t *c = throw_json(cfg, &e->t);

			now = &e->t;
			undo = e->undo ? e : NULL;
			if (c) {
				json_object_set_new(c, "undo", json_boolean(e->undo));
				json_object_set_new(c, "audit", audit_json(&e->audit));
			}
			json_array_append_new(corrections, c);
		} else if (e->kind == MLOG_CONFIRM && e->throw_no == throw_no) {
			json_array_append_new(confirmations, audit_json(&e->audit));
		}
	}
	o = json_pack("{s:I,s:I,s:o,s:{s:s,s:s},s:o,s:o,s:o,s:o,s:s,s:b,s:O?,s:o}",
		      "match", (json_int_t)id, "throw", (json_int_t)throw_no,
		      "players", players_json(cfg),
		      "team_names", "A", m->log->team_names[0], "B", m->log->team_names[1],
		      "observed", throw_json(cfg, orig), "judged", throw_json(cfg, now),
		      "corrections", corrections,
		      "ruling", ruling_json(cfg, &m->res.rulings[throw_no - 1],
					    m->res.corrected[throw_no - 1]),
		      "review_why", nt->review_why,
		      "confirmed", nt->confirmed,
		      "observations", nt->obs,
		      "table", table_json());
	/* Who settled it: each correction's audit is inside it. */
	if (o) {
		json_object_set_new(o, "undo", !undo ? json_null() : undo->audit.present
				    ? audit_json(&undo->audit) : json_object());
		json_object_set_new(o, "confirmations", confirmations);
		json_object_set_new(o, "house", house_json(&cfg->house));
		json_object_set_new(o, "confidence", json_real(throw_confidence(now)));
	} else {
		json_decref(confirmations);
	}
	/* The camera's pictures, /api/matches/N/throws/K/snapshots/1.jpg ..,
	 * with what is known of each. */
	if (o) {
		json_t *snaps = dd_snap_list_json(&w.snaps);

		dd_ref_face_labels_attach(r, id, throw_no, snaps);
		json_object_set_new(o, "snapshots", snaps);
	} else
		json_decref(dd_snap_list_json(&w.snaps));
	if (o)
		*out = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6));
	json_decref(o);
	json_decref(w.note.obs);
	dd_ref_loaded_free(&tmp);
	return *out ? 0 : -ENOMEM;
not_found:
	dd_ref_loaded_free(&tmp);
	return -ENOENT;
}

/* A ruling in a player's words: "1 to Orange", "re-toss", "no points". */
static json_t *words_json(const struct loaded *m, const struct bd_ruling *ru)
{
	char buf[160];
	size_t o = 0;

	if (ru->retoss)
		return json_string("re-toss");
	for (int t = 0; t < 2 && o < sizeof(buf); t++)
		if (ru->points[t])
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%d to %s", o ? ", " : "",
					      ru->points[t], m->teams[t][0] ? m->teams[t]
					      : t == BD_TEAM_A ? "A" : "B");
	if (!o)
		snprintf(buf, sizeof(buf), "%s", ru->dead ? "dead: no points" : "no points");
	return json_string(buf);
}

/* A throw's line of the list. */
static json_t *list_item(const struct loaded *m, const struct bd_ruling *ru, int k,
			 const struct bd_throw *t, bool review, bool confirmed, bool corrected,
			 bool undone, bool held)
{
	const struct bd_match_cfg *cfg = &m->log->cfg;

	return json_pack("{s:i,s:s,s:s,s:o,s:o,s:f,s:b,s:b,s:b,s:b,s:b,s:{s:i,s:i}}",
			 "throw", k, "thrower", web_slot_name(ru->thrower),
			 "thrower_name", cfg->players[ru->thrower],
			 "ruling", ruling_json(cfg, ru, corrected), "words", words_json(m, ru),
			 "confidence", throw_confidence(t), "review", review, "confirmed", confirmed, "corrected", corrected,
			 "undone", undone, "held", held,
			 "score", "A", ru->score[0], "B", ru->score[1]);
}

int dd_referee_throws_list(struct dd_referee *r, long id, char **out)
{
	struct loaded tmp = { 0 }, *m = &tmp;
	bool live = r->m.log && id == r->m.id;
	json_t *o, *list;
	bool *undone = NULL, *confirmed = NULL;
	int rc;

	*out = NULL;
	rc = load_any(r, id, &tmp, &m);
	if (rc)
		return rc;
	undone = calloc(m->res.n + 1, sizeof(*undone));
	confirmed = calloc(m->res.n + 1, sizeof(*confirmed));
	list = json_array();
	rc = -ENOMEM;
	if (!undone || !confirmed || !list)
		goto free_all;
	/* A throw's last correction says whether it stands undone. */
	for (size_t i = 0; i < m->log->n_entries; i++) {
		const struct mlog_bd_entry *e = &m->log->entries[i];

		if (e->kind == MLOG_CORRECT && (size_t)e->throw_no <= m->res.n)
			undone[e->throw_no - 1] = e->undo;
		else if (e->kind == MLOG_CONFIRM && (size_t)e->throw_no <= m->res.n)
			confirmed[e->throw_no - 1] = true;
	}
	for (size_t i = 0; i < m->res.n; i++) {
		/* An old match's notes are read with its throw's page: here its
		 * ruling and log say what they can. */
		bool review = live ? dd_ref_doubtful(m, i) : m->res.rulings[i].review;
		bool conf = confirmed[i] || (live && m->notes[i].confirmed);

		json_array_append_new(list, list_item(m, &m->res.rulings[i], (int)i + 1,
						      dd_ref_judged(m->log, (int)i + 1), review, conf,
						      m->res.corrected[i], undone[i], false));
	}
	if (live && r->pending) {
		struct bd_ruling ru = r->pend.ruling;

		json_array_append_new(list, list_item(m, &ru, (int)m->res.n + 1, &r->pend.t, true,
						      false, false, false, true));
	}
	o = json_pack("{s:I,s:o,s:{s:s,s:s},s:o,s:o}", "match", (json_int_t)id,
		      "players", players_json(&m->log->cfg),
		      "team_names", "A", m->teams[0], "B", m->teams[1],
		      "house", house_json(&m->log->cfg.house), "throws", list);
	list = NULL;
	*out = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;
	json_decref(o);
	rc = *out ? 0 : -ENOMEM;
free_all:
	json_decref(list);
	free(undone);
	free(confirmed);
	dd_ref_loaded_free(&tmp);
	return rc;
}
