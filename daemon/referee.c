/* The referee: the match under way as a match log, judged, committed, then shown. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon.h"
#include "web/web.h"

#define NAME_MAX_TEAM 32	/* bytes of a team's name, with the NUL */

/* What the log does not hold about a throw: why it was doubtful, whether an
 * official confirmed it, and the raw observations behind it. */
struct note {
	char review_why[120];	/* fusion's reason, "" when none */
	bool confirmed;		/* an official looked and agreed */
	json_t *obs;		/* owned: the raw observations (array), or NULL */
};

/* A match read back: its log, the fold, the notes. */
struct loaded {
	long id;			/* match number */
	struct mlog_bd *log;		/* owned */
	struct mlog_bd_result res;	/* owned contents */
	bool have_res;			/* res holds a fold */
	char teams[2][NAME_MAX_TEAM];	/* team names, may be "" */
	struct note *notes;		/* owned, one per throw */
	size_t n_notes;			/* allocated entries of notes */
};

struct dd_referee {
	struct dd_referee_cfg cfg;	/* house defaults, review mode */
	struct dd_store *st;		/* borrowed; NULL: memory only */
	struct loaded m;		/* the match under way (m.log NULL: none) */
	long mem_last;			/* last match number when memory only */
	bool pending;			/* a doubtful throw awaits an official */
	struct dd_fused pend;		/* it, as fused */
	struct bd_ruling pend_ruling;	/* its provisional ruling */
	struct bd_final last_final;	/* final of the last ended match */
};

static void loaded_free(struct loaded *m)
{
	if (m->have_res)
		mlog_bd_result_free(&m->res);
	for (size_t i = 0; i < m->n_notes; i++)
		json_decref(m->notes[i].obs);
	free(m->notes);
	mlog_bd_free(m->log);
	memset(m, 0, sizeof(*m));
}

static int notes_reserve(struct loaded *m, size_t n)
{
	struct note *grown;

	if (n <= m->n_notes)
		return 0;
	grown = realloc(m->notes, n * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	memset(grown + m->n_notes, 0, (n - m->n_notes) * sizeof(*grown));
	m->notes = grown;
	m->n_notes = n;
	return 0;
}

static int refold(struct loaded *m, char *err, size_t errlen)
{
	struct mlog_bd_result res;
	int rc = mlog_bd_replay(m->log, &res, err, errlen);

	if (rc)
		return rc;
	if (m->have_res)
		mlog_bd_result_free(&m->res);
	m->res = res;
	m->have_res = true;
	return notes_reserve(m, m->log->n_throws);
}

struct dd_referee *dd_referee_new(const struct dd_referee_cfg *cfg, struct dd_store *st)
{
	struct dd_referee *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->cfg = *cfg;
	r->st = st;
	return r;
}

void dd_referee_free(struct dd_referee *r)
{
	if (!r)
		return;
	loaded_free(&r->m);
	free(r);
}

void dd_referee_set_defaults(struct dd_referee *r, const struct dd_referee_cfg *cfg)
{
	r->cfg = *cfg;
}

bool dd_referee_in_match(const struct dd_referee *r)
{
	return r->m.log != NULL;
}

bool dd_referee_waiting(const struct dd_referee *r)
{
	return r->pending;
}

/* ---- Observations as JSON ------------------------------------------------ */

/* One event as the match log writes it (core's canonical codec). */
static json_t *event_json(const struct bd_match_cfg *cfg, const struct bd_event *ev)
{
	struct bd_throw t;
	char *line = NULL;
	size_t len;
	json_t *o, *e = NULL;

	memset(&t, 0, sizeof(t));
	t.thrower = BD_NOBODY;
	t.dye_up = true;
	t.apex_m = -1;
	t.n_events = 1;
	t.events[0] = *ev;
	if (mlog_bd_throw_line(cfg, &t, 0, &line, &len))
		return NULL;
	o = json_loadb(line, len, 0, NULL);
	free(line);
	if (o)
		e = json_incref(json_array_get(json_object_get(o, "events"), 0));
	json_decref(o);
	return e;
}

static const char *const obs_kinds[] = {
	[DD_OBS_TOSS] = "toss", [DD_OBS_EVENT] = "event", [DD_OBS_NO_LANDING] = "no_landing",
	[DD_OBS_DYE_UP_MISSED] = "dye_up_missed", [DD_OBS_APEX] = "apex",
};

static json_t *obs_json(const struct bd_match_cfg *cfg, const struct dd_fused *fx)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < fx->n_obs; i++) {
		const struct dd_obs *o = &fx->obs[i];
		json_t *j = json_pack("{s:s,s:s,s:f,s:f}", "kind", obs_kinds[o->kind],
				      "source", dd_source_name(o->source),
				      "t_ms", (double)(o->t_ns - fx->t_start_ns) / 1e6,
				      "confidence", o->confidence);

		if (!j)
			continue;
		if (o->kind == DD_OBS_EVENT)
			json_object_set_new(j, "event", event_json(cfg, &o->ev));
		if (o->kind == DD_OBS_APEX)
			json_object_set_new(j, "apex_m", json_real(o->apex_m));
		if (o->sigma_m > 0)
			json_object_set_new(j, "sigma_m", json_real(o->sigma_m));
		if (o->n_arrivals > 0) {
			json_t *a = json_array();

			for (int k = 0; k < o->n_arrivals && k < DD_OBS_ARRIVALS; k++)
				json_array_append_new(a, json_pack("{s:i,s:f}", "sensor",
					o->arrival_sensor[k], "t_ms",
					(double)(o->arrival_ns[k] - fx->t_start_ns) / 1e6));
			json_object_set_new(j, "arrivals", a);
		}
		if (o->snapshot[0])
			json_object_set_new(j, "snapshot", json_string(o->snapshot));
		json_array_append_new(arr, j);
	}
	return arr;
}

/* Appends one JSON line to the match's observation file (best effort: the
 * match log, already written, is the truth; this is the evidence). */
static void note_line(struct dd_referee *r, json_t *o)
{
	char err[256], *text;

	if (!r->st || !o)
		goto free_json;
	text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6));
	if (text) {
		size_t n = strlen(text);

		text[n] = '\n';	/* json_dumps leaves room: replace the NUL */
		if (dd_store_append(r->st, r->m.id, DD_STORE_OBS, text, n + 1, err, sizeof(err)))
			dd_log(DD_LOG_WARN, "%s", err);
		free(text);
	}
free_json:
	json_decref(o);
}

/* ---- Starting, restoring, ending ----------------------------------------- */

int dd_referee_start(struct dd_referee *r, const struct bd_match_cfg *cfg,
		     const char team_names[2][32], char *err, size_t errlen)
{
	struct loaded m = { 0 };
	char *head = NULL;
	size_t len;
	int rc;

	if (r->m.log) {
		snprintf(err, errlen, "a match is under way: end it first");
		return -EBUSY;
	}
	m.log = mlog_bd_new("match", cfg);
	if (!m.log || mlog_bd_write(m.log, &head, &len)) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto free_match;
	}
	for (int t = 0; t < 2; t++)
		snprintf(m.teams[t], sizeof(m.teams[t]), "%s", team_names ? team_names[t] : "");
	if (r->st) {
		rc = dd_store_new_match(r->st, head, len, &m.id, err, errlen);
		if (rc)
			goto free_match;
	} else {
		m.id = ++r->mem_last;
	}
	rc = refold(&m, err, errlen);
	if (rc)
		goto free_match;
	free(head);
	r->m = m;
	r->pending = false;
	note_line(r, json_pack("{s:s,s:[s,s]}", "type", "teams", "names", m.teams[0], m.teams[1]));
	return 0;

free_match:
	free(head);
	loaded_free(&m);
	return rc;
}

/* Reads match id from the store: log, fold and notes. */
static int load_match(struct dd_referee *r, long id, struct loaded *m, char *err, size_t errlen)
{
	char *buf = NULL, name[64];
	size_t len;
	int rc;

	memset(m, 0, sizeof(*m));
	m->id = id;
	rc = dd_store_read(r->st, id, DD_STORE_LOG, &buf, &len);
	if (rc) {
		snprintf(err, errlen, "match %ld: %s", id, strerror(-rc));
		return rc;
	}
	snprintf(name, sizeof(name), "%ld.jsonl", id);
	rc = mlog_bd_parse(name, buf, len, &m->log, err, errlen);
	free(buf);
	if (rc)
		return rc;
	rc = refold(m, err, errlen);
	if (rc)
		goto free_match;
	if (dd_store_read(r->st, id, DD_STORE_OBS, &buf, &len) == 0) {
		char *line = buf, *nl;

		for (; (nl = strchr(line, '\n')); line = nl + 1) {
			json_t *o = json_loadb(line, (size_t)(nl - line), 0, NULL);
			const char *type = json_string_value(json_object_get(o, "type"));
			json_int_t k = json_integer_value(json_object_get(o, "throw"));

			if (type && !strcmp(type, "teams")) {
				for (int t = 0; t < 2; t++) {
					const char *tn = json_string_value(
						json_array_get(json_object_get(o, "names"), t));

					snprintf(m->teams[t], sizeof(m->teams[t]), "%s", tn ? tn : "");
				}
			} else if (type && k >= 1 && (size_t)k <= m->n_notes) {
				struct note *nt = &m->notes[k - 1];

				if (!strcmp(type, "obs")) {
					const char *why = json_string_value(json_object_get(o, "review"));

					json_decref(nt->obs);
					nt->obs = json_incref(json_object_get(o, "obs"));
					snprintf(nt->review_why, sizeof(nt->review_why), "%s", why ? why : "");
					nt->confirmed = json_is_true(json_object_get(o, "confirmed"));
				} else if (!strcmp(type, "confirm")) {
					nt->confirmed = true;
				}
			}
			json_decref(o);
		}
		free(buf);
	}
	return 0;

free_match:
	loaded_free(m);
	return rc;
}

int dd_referee_restore(struct dd_referee *r, char *err, size_t errlen)
{
	long id;
	int rc;

	if (!r->st || r->m.log)
		return 0;
	id = dd_store_current(r->st);
	if (!id)
		return 0;
	rc = load_match(r, id, &r->m, err, errlen);
	return rc;
}

int dd_referee_end(struct dd_referee *r, char *err, size_t errlen)
{
	int rc;

	if (!r->m.log) {
		snprintf(err, errlen, "no match under way");
		return -ENOENT;
	}
	if (r->st) {
		rc = dd_store_end_match(r->st, err, errlen);
		if (rc)
			return rc;
	}
	bd_final(&r->m.log->cfg, &r->m.res.state, &r->last_final);
	loaded_free(&r->m);
	r->pending = false;
	return 0;
}

/* ---- Throws ------------------------------------------------------------- */

/* Writes one log line, then takes it into the match: the disk first. */
static int commit_line(struct dd_referee *r, const struct bd_throw *t, int correct_of,
		       char *err, size_t errlen)
{
	char *line = NULL;
	size_t len;
	int rc;

	if (mlog_bd_throw_line(&r->m.log->cfg, t, correct_of, &line, &len)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (r->st) {
		rc = dd_store_append(r->st, r->m.id, DD_STORE_LOG, line, len, err, errlen);
		if (rc) {
			free(line);
			return -EIO;
		}
	}
	free(line);
	rc = correct_of ? mlog_bd_add_correct(r->m.log, correct_of, t)
			: (mlog_bd_add_throw(r->m.log, t) < 0 ? -ENOMEM : 0);
	if (rc) {
		snprintf(err, errlen, "cannot add the throw to the match");
		return rc;
	}
	return refold(&r->m, err, errlen);
}

static int commit_fused(struct dd_referee *r, const struct dd_fused *fx, const struct bd_throw *t,
			bool confirmed, char *err, size_t errlen)
{
	int rc = commit_line(r, t, 0, err, errlen);
	size_t k = r->m.log ? r->m.log->n_throws : 0;
	struct note *nt;

	if (rc)
		return rc;
	nt = &r->m.notes[k - 1];
	snprintf(nt->review_why, sizeof(nt->review_why), "%s", fx ? fx->review_why : "");
	nt->confirmed = confirmed;
	json_decref(nt->obs);
	nt->obs = fx ? obs_json(&r->m.log->cfg, fx) : NULL;
	note_line(r, json_pack("{s:s,s:i,s:s,s:b,s:O?}", "type", "obs", "throw", (int)k,
			       "review", nt->review_why, "confirmed", confirmed, "obs", nt->obs));
	return 0;
}

int dd_referee_throw(struct dd_referee *r, const struct dd_fused *fx, char *err, size_t errlen)
{
	struct bd_ruling ruling;
	int rc;

	if (!r->m.log) {
		snprintf(err, errlen, "no match under way");
		return -ENOENT;
	}
	if (r->pending) {
		snprintf(err, errlen, "a ruling awaits review: confirm or correct it first");
		return -EBUSY;
	}
	rc = bd_judge(&r->m.log->cfg, &r->m.res.state, &fx->t, &ruling, err, errlen);
	if (rc)
		return rc;
	if ((fx->review || ruling.review) && r->cfg.review == DD_REVIEW_WAIT) {
		r->pending = true;
		r->pend = *fx;
		r->pend_ruling = ruling;
		r->pend_ruling.review = true;
		return 0;
	}
	return commit_fused(r, fx, &fx->t, false, err, errlen);
}

static int last_throw(const struct dd_referee *r)
{
	return (int)r->m.log->n_throws;
}

int dd_referee_confirm(struct dd_referee *r, int throw_no, char *err, size_t errlen)
{
	if (!r->m.log) {
		snprintf(err, errlen, "no match under way");
		return -ENOENT;
	}
	if (r->pending && (throw_no == 0 || throw_no == last_throw(r) + 1)) {
		struct dd_fused fx = r->pend;
		int rc = commit_fused(r, &fx, &fx.t, true, err, errlen);

		if (rc == 0)
			r->pending = false;
		return rc;
	}
	if (throw_no < 1 || throw_no > last_throw(r)) {
		snprintf(err, errlen, "throw %d: no such throw", throw_no);
		return -ENOENT;
	}
	r->m.notes[throw_no - 1].confirmed = true;
	note_line(r, json_pack("{s:s,s:i}", "type", "confirm", "throw", throw_no));
	return 0;
}

int dd_referee_correct(struct dd_referee *r, int throw_no, const struct bd_throw *t,
		       char *err, size_t errlen)
{
	struct mlog_bd *trial = NULL;
	struct mlog_bd_result res;
	char *text = NULL, *line = NULL;
	size_t len, llen;
	int rc;

	if (!r->m.log) {
		snprintf(err, errlen, "no match under way");
		return -ENOENT;
	}
	if (r->pending && (throw_no == 0 || throw_no == last_throw(r) + 1)) {
		struct bd_ruling ruling;
		struct dd_fused fx = r->pend;

		rc = bd_judge(&r->m.log->cfg, &r->m.res.state, t, &ruling, err, errlen);
		if (rc)
			return rc;
		/* The official's version is what counts; the sensors' stays as evidence. */
		rc = commit_fused(r, &fx, t, true, err, errlen);
		if (rc == 0)
			r->pending = false;
		return rc;
	}
	if (throw_no < 1 || throw_no > last_throw(r)) {
		snprintf(err, errlen, "throw %d: no such throw", throw_no);
		return -ENOENT;
	}
	/* Try the refold on a copy first: a correction that makes a later
	 * throw unjudgeable (after the game ended) is refused untouched. */
	if (mlog_bd_write(r->m.log, &text, &len) ||
	    mlog_bd_throw_line(&r->m.log->cfg, t, throw_no, &line, &llen)) {
		rc = -ENOMEM;
		goto free_text;
	}
	{
		char *all = realloc(text, len + llen + 1);

		if (!all) {
			rc = -ENOMEM;
			goto free_text;
		}
		text = all;
		memcpy(text + len, line, llen + 1);
	}
	rc = mlog_bd_parse("correction", text, len + llen, &trial, err, errlen);
	if (rc)
		goto free_text;
	rc = mlog_bd_replay(trial, &res, err, errlen);
	mlog_bd_free(trial);
	if (rc)
		goto free_text;
	mlog_bd_result_free(&res);
	rc = commit_line(r, t, throw_no, err, errlen);
free_text:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(line);
	free(text);
	return rc;
}

int dd_referee_undo(struct dd_referee *r, char *err, size_t errlen)
{
	struct bd_throw t;
	int n;

	if (!r->m.log) {
		snprintf(err, errlen, "no match under way");
		return -ENOENT;
	}
	if (r->pending) {
		json_t *obs = obs_json(&r->m.log->cfg, &r->pend);

		note_line(r, json_pack("{s:s,s:i,s:o?}", "type", "dropped", "throw",
				       last_throw(r) + 1, "obs", obs));
		r->pending = false;
		return 0;
	}
	n = last_throw(r);
	if (n == 0) {
		snprintf(err, errlen, "no throw to undo");
		return -ENOENT;
	}
	memset(&t, 0, sizeof(t));
	t.thrower = BD_NOBODY;
	t.dye_up = true;
	t.apex_m = -1;
	t.n_events = 1;
	t.events[0].kind = BD_EV_RETOSS;
	t.events[0].player = BD_NOBODY;
	t.events[0].confidence = 1;
	snprintf(t.events[0].source, sizeof(t.events[0].source), "console");
	return dd_referee_correct(r, n, &t, err, errlen);
}

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
		const char *txt = bd_rule_text(ru->why[i]);

		json_array_append_new(texts, json_pack("{s:s,s:s}", "id", ru->why[i],
						       "text", txt ? txt : ""));
	}
	json_object_set_new(o, "rules", texts);
	return o;
}

static json_t *players_json(const struct bd_match_cfg *cfg)
{
	return json_pack("{s:[s,s],s:[s,s]}", "A", cfg->players[0], cfg->players[1],
			 "B", cfg->players[2], cfg->players[3]);
}

static json_t *house_json(const struct bd_house *h)
{
	return json_pack("{s:i,s:i,s:i,s:f,s:s,s:b,s:b,s:b,s:b}",
			 "target_points", h->target_points, "win_by", h->win_by,
			 "kill_every", h->kill_every, "min_toss_height_m", h->min_toss_height_m,
			 "low_call", h->low_call == BD_LOW_AUTO ? "auto" : "manual",
			 "illegal_catch_counts_as_floor", h->illegal_catch_counts_as_floor,
			 "fifa_cannot_end_game", h->fifa_cannot_end_game,
			 "popout_is_sink", h->popout_is_sink, "mine_voids_points", h->mine_voids_points);
}

static json_t *duty_json(const struct bd_match_cfg *cfg, const struct bd_duty *d, int throw_no)
{
	json_t *o = json_pack("{s:s,s:s}", "duty", bd_duty_name(d->kind), "why", d->why);

	if (d->player != BD_NOBODY)
		json_object_set_new(o, "player", json_string(cfg->players[d->player]));
	else
		json_object_set_new(o, "team", json_string(d->team == BD_TEAM_A ? "A" : "B"));
	if (throw_no)
		json_object_set_new(o, "throw", json_integer(throw_no));
	return o;
}

int dd_referee_state(struct dd_referee *r, json_t **out)
{
	const struct loaded *m = &r->m;
	const struct bd_match_cfg *cfg;
	json_t *o, *duties, *history;
	size_t n;
	int next;

	if (!m->log) {
		o = json_pack("{s:n,s:s,s:n}", "match", "game", "beerdie", "last");
		if (o && r->last_final.over)
			json_object_set_new(o, "previous_winner",
					    json_string(r->last_final.winner == BD_TEAM_A ? "A" : "B"));
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
		}
		json_object_set_new(o, "last", last);
	} else {
		json_object_set_new(o, "last", json_null());
	}
	/* Every duty so far, newest first: the screen shows the top few. */
	duties = json_array();
	for (size_t i = n; i-- > 0;)
		for (size_t d = 0; d < m->res.rulings[i].n_duties; d++)
			json_array_append_new(duties, duty_json(cfg, &m->res.rulings[i].duties[d],
								(int)i + 1));
	if (m->res.state.over)
		for (size_t d = 0; d < m->res.final.n_duties; d++)
			json_array_insert_new(duties, 0, duty_json(cfg, &m->res.final.duties[d], 0));
	json_object_set_new(o, "duties", duties);
	history = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct bd_ruling *ru = &m->res.rulings[i];

		json_array_append_new(history, json_pack("{s:i,s:s,s:{s:i,s:i},s:{s:i,s:i},s:b,s:b,s:b}",
			"throw", (int)i + 1, "thrower", cfg->players[ru->thrower],
			"points", "A", ru->points[0], "B", ru->points[1],
			"score", "A", ru->score[0], "B", ru->score[1],
			"review", ru->review || m->notes[i].review_why[0],
			"confirmed", m->notes[i].confirmed, "corrected", m->res.corrected[i]));
	}
	json_object_set_new(o, "history", history);
	if (r->pending) {
		json_t *pr = ruling_json(cfg, &r->pend_ruling, false);

		json_object_set_new(o, "review", json_pack("{s:i,s:s,s:o?}", "throw", (int)n + 1,
			"why", r->pend.review_why[0] ? r->pend.review_why : "doubtful evidence",
			"ruling", pr));
	} else if (n && (m->res.rulings[n - 1].review || m->notes[n - 1].review_why[0]) &&
		   !m->notes[n - 1].confirmed) {
		json_object_set_new(o, "review", json_pack("{s:i,s:s,s:b}", "throw", (int)n,
			"why", m->notes[n - 1].review_why[0] ? m->notes[n - 1].review_why
							      : "doubtful evidence",
			"counted", 1));
	}
	*out = o;
	return 0;
}

int dd_referee_matches(struct dd_referee *r, char **out)
{
	json_t *arr = json_array();
	long *ids = NULL;
	size_t n = 0;

	if (!arr)
		return -ENOMEM;
	if (r->st && dd_store_list(r->st, &ids, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			struct loaded m;
			char err[256];

			if (ids[i] == r->m.id && r->m.log) {
				json_array_append_new(arr, json_pack("{s:I,s:b,s:o,s:{s:i,s:i},s:i}",
					"match", (json_int_t)ids[i], "current", 1,
					"players", players_json(&r->m.log->cfg),
					"score", "A", r->m.res.state.score[0], "B", r->m.res.state.score[1],
					"throws", (int)r->m.res.n));
				continue;
			}
			if (load_match(r, ids[i], &m, err, sizeof(err))) {
				json_array_append_new(arr, json_pack("{s:I,s:s}", "match",
								     (json_int_t)ids[i], "error", err));
				continue;
			}
			json_array_append_new(arr, json_pack("{s:I,s:b,s:o,s:{s:i,s:i},s:i,s:b}",
				"match", (json_int_t)ids[i], "current", 0,
				"players", players_json(&m.log->cfg),
				"score", "A", m.res.state.score[0], "B", m.res.state.score[1],
				"throws", (int)m.res.n, "over", m.res.state.over));
			loaded_free(&m);
		}
	} else if (r->m.log) {
		json_array_append_new(arr, json_pack("{s:I,s:b,s:o,s:{s:i,s:i},s:i}",
			"match", (json_int_t)r->m.id, "current", 1, "players", players_json(&r->m.log->cfg),
			"score", "A", r->m.res.state.score[0], "B", r->m.res.state.score[1],
			"throws", (int)r->m.res.n));
	}
	free(ids);
	*out = json_dumps(arr, JSON_COMPACT | JSON_REAL_PRECISION(6));
	json_decref(arr);
	return *out ? 0 : -ENOMEM;
}

int dd_referee_log(struct dd_referee *r, long id, char **out)
{
	size_t len;

	*out = NULL;
	if (r->st)
		return dd_store_read(r->st, id, DD_STORE_LOG, out, &len);
	if (!r->m.log || id != r->m.id)
		return -ENOENT;
	return mlog_bd_write(r->m.log, out, &len) ? -ENOMEM : 0;
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

int dd_referee_throw_detail(struct dd_referee *r, long id, long throw_no, char **out)
{
	struct loaded tmp = { 0 }, *m = &tmp;
	const struct bd_match_cfg *cfg;
	const struct bd_throw *orig = NULL, *now = NULL;
	json_t *o = NULL, *corrections;
	char err[256];
	long k = 0;

	*out = NULL;
	if (r->m.log && id == r->m.id)
		m = &r->m;
	else if (!r->st || load_match(r, id, &tmp, err, sizeof(err)))
		return -ENOENT;
	if (throw_no < 1 || (size_t)throw_no > m->res.n)
		goto not_found;
	cfg = &m->log->cfg;
	corrections = json_array();
	for (size_t i = 0; i < m->log->n_entries; i++) {
		const struct mlog_bd_entry *e = &m->log->entries[i];

		if (e->kind == MLOG_THROW && ++k == throw_no)
			orig = now = &e->t;
		else if (e->kind == MLOG_CORRECT && e->throw_no == throw_no) {
			now = &e->t;
			json_array_append_new(corrections, throw_json(cfg, &e->t));
		}
	}
	o = json_pack("{s:I,s:I,s:o,s:o,s:o,s:o,s:o,s:s,s:b,s:O?,s:o}",
		      "match", (json_int_t)id, "throw", (json_int_t)throw_no,
		      "players", players_json(cfg),
		      "observed", throw_json(cfg, orig), "judged", throw_json(cfg, now),
		      "corrections", corrections,
		      "ruling", ruling_json(cfg, &m->res.rulings[throw_no - 1],
					    m->res.corrected[throw_no - 1]),
		      "review_why", m->notes[throw_no - 1].review_why,
		      "confirmed", m->notes[throw_no - 1].confirmed,
		      "observations", m->notes[throw_no - 1].obs,
		      "table", table_json());
	if (o)
		*out = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6));
	json_decref(o);
	loaded_free(&tmp);
	return *out ? 0 : -ENOMEM;
not_found:
	loaded_free(&tmp);
	return -ENOENT;
}
