/* The referee: the match under way as a match log, judged, committed, then shown. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/fusion.h"
#include "daemon/referee.h"
#include "daemon/obs_time.h"
#include "db/db.h"

#include "daemon/referee_internal.h"


static int last_throw(const struct dd_referee *r)
{
	return (int)r->m.log->n_throws;
}

static void drop_pending(struct dd_referee *r)
{
	json_decref(r->pend.obs);
	memset(&r->pend, 0, sizeof(r->pend));
	r->pending = false;
}

void dd_ref_loaded_free(struct loaded *m)
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

struct dd_referee *dd_referee_new(const struct dd_referee_cfg *cfg, struct db *db)
{
	struct dd_referee *r;

	if (!db) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->cfg = *cfg;
	r->db = db;
	return r;
}

void dd_referee_set_snapshot(struct dd_referee *r, dd_snapshot_fn fn, void *user)
{
	r->snapshot = fn;
	r->snapshot_user = user;
}

void dd_referee_free(struct dd_referee *r)
{
	if (!r)
		return;
	dd_ref_loaded_free(&r->m);
	drop_pending(r);
	json_decref(r->last_won);
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

bool dd_referee_match_is(const struct dd_referee *r, const struct bd_match_cfg *cfg,
			 const char team_names[2][32])
{
	if (!r->m.log)
		return false;
	for (int p = 0; p < BD_PLAYERS; p++)
		if (strcmp(r->m.log->cfg.players[p], cfg->players[p]))
			return false;
	for (int t = 0; t < 2; t++)
		if (strcmp(r->m.teams[t], team_names[t]))
			return false;
	return true;
}

int64_t dd_referee_current_id(const struct dd_referee *r)
{
	return r->m.log ? r->m.id : r->dice_id;
}

int64_t dd_referee_set_aside(struct dd_referee *r, char *game, size_t gamelen)
{
	int64_t id = dd_referee_current_id(r);

	snprintf(game, gamelen, "%s", r->m.log ? "beerdie" : r->dice_game);
	if (r->m.log)
		dd_ref_loaded_free(&r->m);
	drop_pending(r);
	r->dice_id = 0;
	r->dice_game[0] = '\0';
	r->dice_over = false;
	return id;
}

bool dd_referee_waiting(const struct dd_referee *r)
{
	return r->pending;
}

bool dd_referee_over(const struct dd_referee *r)
{
	return r->m.log && r->m.res.state.over;
}

bool dd_referee_dice_over(const struct dd_referee *r)
{
	return r->dice_id && r->dice_over;
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
	[DD_OBS_OFF_TABLE] = "off_table", [DD_OBS_TABLE_DEAF] = "table_deaf",
	[DD_OBS_REST_PENDING] = "rest_pending",
};

/* Milliseconds from fx's start to t, an observation's time from outside. */
static double ms_since(const struct dd_fused *fx, int64_t t)
{
	return (double)dd_time_span(fx->t_start_ns, t) / 1e6;
}

static json_t *obs_json(const struct bd_match_cfg *cfg, const struct dd_fused *fx)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < fx->n_obs; i++) {
		const struct dd_obs *o = &fx->obs[i];
		json_t *j = json_pack("{s:s,s:s,s:f,s:f}", "kind", obs_kinds[o->kind],
				      "source", dd_source_name(o->source),
				      "t_ms", ms_since(fx, o->t_ns),
				      "confidence", o->confidence);

		if (!j)
			continue;
		if (o->kind == DD_OBS_EVENT)
			json_object_set_new(j, "event", event_json(cfg, &o->ev));
		if (o->kind == DD_OBS_APEX)
			json_object_set_new(j, "apex_m", json_real(o->apex_m));
		if (o->kind == DD_OBS_APEX && o->apex_sd_m > 0)
			json_object_set_new(j, "apex_sd_m", json_real(o->apex_sd_m));
		if (o->kind == DD_OBS_TABLE_DEAF)
			json_object_set_new(j, "until_ms",
					    json_real(ms_since(fx, o->until_ns)));
		if (o->sigma_m > 0)
			json_object_set_new(j, "sigma_m", json_real(o->sigma_m));
		if (o->n_arrivals > 0) {
			json_t *a = json_array();

			for (int k = 0; k < o->n_arrivals && k < DD_OBS_ARRIVALS; k++)
				json_array_append_new(a, json_pack("{s:i,s:f}", "sensor",
					o->arrival_sensor[k], "t_ms",
					ms_since(fx, o->arrival_ns[k])));
			json_object_set_new(j, "arrivals", a);
		}
		if (o->snapshot[0])
			json_object_set_new(j, "snapshot", json_string(o->snapshot));
		json_array_append_new(arr, j);
	}
	return arr;
}

/* Adds a note (JSON, taken) about throw throw_no to the database as a raw
 * input from source: the evidence and the officials' decisions behind a
 * ruling that the match log does not hold. It is committed with the next
 * throw, or now when flush is set. Best effort: the log is the truth; the
 * result (0 or a db_ error, logged) says whether the file took it. */
static int note_raw(struct dd_referee *r, int throw_no, const char *source, const char *kind,
		    json_t *o, bool flush)
{
	char err[256], *text = NULL;
	struct db_raw raw;
	int rc = 0;

	if (!r->db || !o)
		goto free_json;
	text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6));
	if (!text)
		goto free_json;
	memset(&raw, 0, sizeof(raw));
	raw.t_ns = dd_mono_ns();
	raw.throw_no = throw_no;
	raw.source = source;
	raw.kind = kind;
	raw.channel = -1;
	raw.payload = text;
	raw.len = strlen(text);
	rc = db_raw_append(r->db, r->m.id, &raw, 1, err, sizeof(err));
	if (rc == 0 && flush)
		rc = db_raw_flush(r->db, err, sizeof(err));
	if (rc)
		dd_log(DD_LOG_WARN, "%s", err);
free_json:
	free(text);
	json_decref(o);
	return rc;
}

/* ---- Starting, restoring, ending ----------------------------------------- */

int dd_referee_start(struct dd_referee *r, const struct bd_match_cfg *cfg,
		     const char team_names[2][32], const char colors[2][MLOG_COLOR_MAX],
		     char *err, size_t errlen)
{
	struct loaded m = { 0 };
	char *head = NULL;
	size_t len;
	int rc;

	if (r->m.log) {
		snprintf(err, errlen, "a match is under way: end it first");
		return -EBUSY;
	}
	rc = dd_ref_dice_make_way(r, err, errlen);
	if (rc)
		return rc;
	m.log = mlog_bd_new("match", cfg);
	if (!m.log) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto free_match;
	}
	/* The names ride in the match line, so a restart shows them again. */
	for (int t = 0; t < 2; t++) {
		snprintf(m.teams[t], sizeof(m.teams[t]), "%s", team_names ? team_names[t] : "");
		snprintf(m.log->team_names[t], sizeof(m.log->team_names[t]), "%s", m.teams[t]);
		if (colors && colors[t][0] && mlog_bd_color_ok(colors[t]))
			snprintf(m.log->colors[t], sizeof(m.log->colors[t]), "%s", colors[t]);
	}
	/* So is the table: a log carried elsewhere still says where it was played. */
	snprintf(m.log->table_id, sizeof(m.log->table_id), "%s", r->cfg.table_id);
	snprintf(m.log->table_name, sizeof(m.log->table_name), "%s", r->cfg.table_name);
	if (mlog_bd_write(m.log, &head, &len)) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto free_match;
	}
	rc = db_bd_start(r->db, m.log, dd_mono_ns(), &m.id, err, errlen);
	if (rc)
		goto free_match;
	rc = refold(&m, err, errlen);
	if (rc)
		goto free_match;
	free(head);
	r->m = m;
	drop_pending(r);
	return 0;

free_match:
	free(head);
	dd_ref_loaded_free(&m);
	return rc;
}

/* Picks a throw's notes out of what the database holds behind it. */
int dd_ref_collect_note(const struct db_item *it, void *ctx)
{
	struct note *nt = ctx;
	json_t *o;

	if (it->kind != DB_ITEM_RAW || !it->text)
		return 0;
	if (!strcmp(it->what, "obs") && !strcmp(it->source, "fusion")) {
		o = json_loads(it->text, 0, NULL);
		if (o) {
			const char *why = json_string_value(json_object_get(o, "review"));

			json_decref(nt->obs);
			nt->obs = json_incref(json_object_get(o, "obs"));
			snprintf(nt->review_why, sizeof(nt->review_why), "%s", why ? why : "");
			nt->confirmed |= json_is_true(json_object_get(o, "confirmed"));
			json_decref(o);
		}
	} else if (!strcmp(it->what, "confirm")) {
		nt->confirmed = true;
	}
	return 0;
}

/* Reads match id from the database: log, fold and notes. */
static int load_match(struct dd_referee *r, int64_t id, struct loaded *m, char *err, size_t errlen)
{
	int rc;

	memset(m, 0, sizeof(*m));
	m->id = id;
	rc = db_bd_load(r->db, id, &m->log, &m->res, err, errlen);
	if (rc)
		return rc;
	m->have_res = true;
	for (int t = 0; t < 2; t++)
		snprintf(m->teams[t], sizeof(m->teams[t]), "%s", m->log->team_names[t]);
	rc = notes_reserve(m, m->log->n_throws);
	if (rc)
		goto free_match;
	for (size_t k = 1; k <= m->log->n_throws; k++) {
		char why[256];

		if (db_replay(r->db, id, (int)k, dd_ref_collect_note, &m->notes[k - 1], why, sizeof(why)))
			dd_log(DD_LOG_WARN, "match %lld throw %zu: %s", (long long)id, k, why);
	}
	return 0;

free_match:
	dd_ref_loaded_free(m);
	return rc;
}

/* Keeps the payload of the newest "held" or "dropped" note of a throw. */
static int newest_hold(const struct db_item *it, void *ctx)
{
	char **last = ctx;

	if (!strcmp(it->what, "held") && !strcmp(it->source, "fusion") && it->text) {
		free(*last);
		*last = strdup(it->text);
		if (!*last)
			return -ENOMEM;
	} else if (!strcmp(it->what, "dropped")) {
		free(*last);
		*last = NULL;
	}
	return 0;
}

/* The throw line of a held note, parsed in the match's own terms (its
 * players' names) by the codec: the match header, then the line. */
static int held_throw(const struct mlog_bd *log, const json_t *line, struct bd_throw *t,
		      char *err, size_t errlen)
{
	struct mlog_bd head = *log, *parsed = NULL;
	char *text = NULL, *tl = json_dumps(line, JSON_COMPACT), *both;
	size_t len;
	int rc = -ENOMEM;

	head.n_entries = 0;
	head.n_throws = 0;
	if (!tl || mlog_bd_write(&head, &text, &len))
		goto free_text;
	both = realloc(text, len + strlen(tl) + 2);
	if (!both)
		goto free_text;
	text = both;
	sprintf(text + len, "%s\n", tl);
	rc = mlog_bd_parse("held throw", text, strlen(text), &parsed, err, errlen);
	if (rc == 0 && parsed->n_entries == 1 && parsed->entries[0].kind == MLOG_THROW)
		*t = parsed->entries[0].t;
	else if (rc == 0)
		rc = -EINVAL;
	mlog_bd_free(parsed);
free_text:
	free(tl);
	free(text);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* Brings back a throw held for review when the daemon stopped: the newest
 * note of the next throw is a "held" one not since dropped. Judged again
 * against the match as it stands (the same fold, so the same ruling). */
static void restore_held(struct dd_referee *r)
{
	int k = last_throw(r) + 1;
	struct held h = { 0 };
	char *text = NULL, err[256] = "";
	json_t *o = NULL;
	int rc;

	rc = db_raw_tagged(r->db, r->m.id, k, newest_hold, &text, err, sizeof(err));
	if (rc || !text)
		goto free_text;
	o = json_loads(text, 0, NULL);
	rc = -EINVAL;
	snprintf(err, sizeof(err), "unreadable held note");
	if (!o || !json_is_object(json_object_get(o, "throw")))
		goto free_text;
	rc = held_throw(r->m.log, json_object_get(o, "throw"), &h.t, err, sizeof(err));
	if (rc)
		goto free_text;
	rc = bd_judge(&r->m.log->cfg, &r->m.res.state, &h.t, &h.ruling, err, sizeof(err));
	if (rc)
		goto free_text;
	snprintf(h.why, sizeof(h.why), "%s",
		 json_string_value(json_object_get(o, "review")) ?
		 json_string_value(json_object_get(o, "review")) : "");
	h.t_start_ns = json_integer_value(json_object_get(o, "t_start_ns"));
	h.obs = json_incref(json_object_get(o, "obs"));
	h.ruling.review = true;
	drop_pending(r);
	r->pend = h;
	r->pending = true;
	dd_log(DD_LOG_INFO, "match %lld: throw %d still awaits review", (long long)r->m.id, k);
free_text:
	if (rc)
		dd_log(DD_LOG_WARN, "match %lld throw %d: held ruling not restored: %s",
		       (long long)r->m.id, k, err);
	json_decref(o);
	free(text);
}

int dd_referee_restore(struct dd_referee *r, char *err, size_t errlen)
{
	struct db_match_info m;
	int rc;

	if (!r->db || r->m.log)
		return 0;
	/* The match under way is the newest match not ended. */
	rc = db_match_newest(r->db, true, &m, err, errlen);
	if (rc)
		return rc == -ENOENT ? 0 : rc;
	if (!strcmp(m.game, "beerdie")) {
		rc = load_match(r, m.id, &r->m, err, errlen);
		if (rc == 0)
			restore_held(r);
	} else {
		r->dice_id = m.id;
		snprintf(r->dice_game, sizeof(r->dice_game), "%s", m.game);
		dd_ref_dice_read_over(r);
	}
	return rc;
}

/* What the win screen shows of the match under way, kept past its end so
 * that a wall loaded between matches shows it too (NULL when not won, or
 * out of memory: the screen then shows no winner, as before a match). */
static void keep_won(struct dd_referee *r)
{
	static const char *const keys[] = { "match", "team_names", "colors", "score", "winner", "duties" };
	json_t *st = NULL, *won;

	json_decref(r->last_won);
	r->last_won = NULL;
	if (!r->m.res.state.over || dd_referee_state(r, &st))
		return;
	won = json_object();
	for (size_t i = 0; won && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_object_get(st, keys[i]))
			json_object_set(won, keys[i], json_object_get(st, keys[i]));
	json_decref(st);
	r->last_won = won;
}

int dd_referee_end(struct dd_referee *r, char *err, size_t errlen)
{
	int rc;

	if (r->dice_id)
		return dd_ref_dice_end(r, err, errlen);
	if (!r->m.log) {
		snprintf(err, errlen, "no match under way");
		return -ENOENT;
	}
	if (r->db) {
		rc = db_bd_end(r->db, r->m.id, dd_mono_ns(), err, errlen);
		if (rc)
			return rc;
	}
	bd_final(&r->m.log->cfg, &r->m.res.state, &r->last_final);
	keep_won(r);
	dd_ref_loaded_free(&r->m);
	drop_pending(r);
	return 0;
}

/* ---- Throws ------------------------------------------------------------- */

/* Takes a committed line into the match in memory and refolds. */
static int take_line(struct dd_referee *r, const struct bd_throw *t, int correct_of,
		     char *err, size_t errlen)
{
	int rc = correct_of ? mlog_bd_add_correct(r->m.log, correct_of, t)
			    : (mlog_bd_add_throw(r->m.log, t) < 0 ? -ENOMEM : 0);

	if (rc) {
		snprintf(err, errlen, "cannot add the throw to the match");
		return rc;
	}
	return refold(&r->m, err, errlen);
}

/* Judges t as the next throw, commits it (with fusion's evidence, when
 * there is some) and only then takes it into the match: the disk first. */
static int commit_throw(struct dd_referee *r, const struct bd_throw *t, const char *why,
			int64_t t_start_ns, json_t *obs, bool confirmed, char *err, size_t errlen)
{
	const struct bd_match_cfg *cfg = &r->m.log->cfg;
	int k = (int)r->m.log->n_throws + 1;
	struct bd_ruling ruling;
	struct note *nt;
	int rc;

	rc = bd_judge(cfg, &r->m.res.state, t, &ruling, err, errlen);
	if (rc)
		goto free_obs;
	if (r->db) {
		/* The evidence rides in the same transaction as the throw. A
		 * file another program keeps locked refuses the throw too: say
		 * so now rather than wait for the lock a second time. */
		if (note_raw(r, k, "fusion", "obs", json_pack("{s:s,s:b,s:O?}",
			     "review", why, "confirmed", confirmed, "obs", obs), false) == -EBUSY) {
			snprintf(err, errlen, "%s: storing the throw: database is locked "
				 "(another program is writing to it)", db_path(r->db));
			rc = -EBUSY;
			goto free_obs;
		}
		if (r->snapshot &&
		    r->snapshot(r->snapshot_user, r->db, r->m.id, k, t_start_ns, err, errlen) < 0)
			dd_log(DD_LOG_WARN, "throw %d: %s (ruled without it)", k, err);
		rc = db_bd_throw(r->db, r->m.id, cfg, t, &ruling, t_start_ns,
				 dd_mono_ns(), err, errlen);
		if (rc)
			goto free_obs;
	}
	rc = take_line(r, t, 0, err, errlen);
	if (rc)
		goto free_obs;
	nt = &r->m.notes[k - 1];
	snprintf(nt->review_why, sizeof(nt->review_why), "%s", why);
	nt->confirmed = confirmed;
	json_decref(nt->obs);
	nt->obs = obs;
	return 0;
free_obs:
	json_decref(obs);
	return rc;
}

/* Holds fx for an official. The held throw is noted in the database
 * (flushed) before anyone sees the review banner, so a restart brings the
 * same question back instead of losing the throw (restore_held()). */
static int hold(struct dd_referee *r, const struct dd_fused *fx, const char *why,
		const struct bd_ruling *ruling, char *err, size_t errlen)
{
	struct held h = { .t = fx->t, .t_start_ns = fx->t_start_ns, .ruling = *ruling };
	char *line = NULL;
	size_t len;
	json_t *tl;

	snprintf(h.why, sizeof(h.why), "%s", why);
	h.obs = obs_json(&r->m.log->cfg, fx);
	h.ruling.review = true;
	if (mlog_bd_throw_line(&r->m.log->cfg, &fx->t, 0, &line, &len)) {
		json_decref(h.obs);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	tl = json_loadb(line, len, 0, NULL);
	free(line);
	note_raw(r, last_throw(r) + 1, "fusion", "held", json_pack("{s:o?,s:s,s:I,s:O?}",
		 "throw", tl, "review", h.why, "t_start_ns", (json_int_t)h.t_start_ns,
		 "obs", h.obs), true);
	drop_pending(r);
	r->pend = h;
	r->pending = true;
	return 0;
}

int dd_referee_throw(struct dd_referee *r, const struct dd_fused *fx, char *err, size_t errlen)
{
	struct bd_ruling ruling;
	char why[sizeof(fx->review_why)];
	int rc;

	if (!r->m.log) {
		snprintf(err, errlen, "no match under way");
		return -ENOENT;
	}
	if (r->pending) {
		snprintf(err, errlen, "a ruling awaits review: confirm or correct it first");
		return -EBUSY;
	}
	/* A kick whose order fusion guessed is judged both ways (BD-K1, BD-K2a). */
	rc = dd_fused_judge(&r->m.log->cfg, &r->m.res.state, fx, &ruling, why, sizeof(why),
			    err, errlen);
	if (rc)
		return rc;
	if (ruling.review && r->cfg.review == DD_REVIEW_WAIT)
		return hold(r, fx, why, &ruling, err, errlen);
	return commit_throw(r, &fx->t, why, fx->t_start_ns,
			    obs_json(&r->m.log->cfg, fx), false, err, errlen);
}


/* The audit as the match log keeps it: none without an official. */
static void log_audit(const struct dd_audit *a, struct mlog_audit *out)
{
	memset(out, 0, sizeof(*out));
	if (!a)
		return;
	out->present = true;
	snprintf(out->official, sizeof(out->official), "%s", a->official[0] ? a->official : "official");
	out->wall_ms = a->wall_ms > 0 ? a->wall_ms : 0;
	snprintf(out->reason, sizeof(out->reason), "%s", a->reason);
}

/* The confirm line of throw_no (committed), and the entry in memory. */
static int store_confirm(struct dd_referee *r, int throw_no, const struct dd_audit *audit,
			 char *err, size_t errlen)
{
	struct mlog_audit a;
	int rc;

	if (!audit)
		return 0;
	log_audit(audit, &a);
	rc = r->db ? db_bd_confirm(r->db, r->m.id, throw_no, &a, dd_mono_ns(), err, errlen) : 0;
	if (rc == 0 && mlog_bd_add_confirm(r->m.log, throw_no, &a)) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
	}
	return rc;
}

int dd_referee_confirm(struct dd_referee *r, int throw_no, const struct dd_audit *audit,
		       char *err, size_t errlen)
{
	int rc;

	if (!r->m.log) {
		snprintf(err, errlen, "no match under way");
		return -ENOENT;
	}
	if (r->pending && (throw_no == 0 || throw_no == last_throw(r) + 1)) {
		const struct held *h = &r->pend;

		rc = commit_throw(r, &h->t, h->why, h->t_start_ns, json_incref(h->obs), true,
				  err, errlen);
		if (rc == 0)
			drop_pending(r);
		return rc ? rc : store_confirm(r, last_throw(r), audit, err, errlen);
	}
	if (throw_no == 0) {
		for (size_t i = 0; i < r->m.res.n && !throw_no; i++)
			if (dd_ref_review_open(&r->m, i))
				throw_no = (int)i + 1;
		if (!throw_no) {
			snprintf(err, errlen, "no ruling is under review");
			return -EBUSY;
		}
	}
	if (throw_no < 1 || throw_no > last_throw(r)) {
		snprintf(err, errlen, "throw %d: no such throw", throw_no);
		return -ENOENT;
	}
	/* Confirmed already: a second tap writes nothing more. */
	if (r->m.notes[throw_no - 1].confirmed && dd_ref_doubtful(&r->m, (size_t)throw_no - 1))
		return 0;
	if (!dd_ref_review_open(&r->m, (size_t)throw_no - 1)) {
		snprintf(err, errlen, "throw %d is not under review", throw_no);
		return -EBUSY;
	}
	rc = store_confirm(r, throw_no, audit, err, errlen);
	if (rc)
		return rc;
	r->m.notes[throw_no - 1].confirmed = true;
	/* Older readers know a confirmation by this note. */
	note_raw(r, throw_no, "console", "confirm", json_pack("{s:i}", "throw", throw_no), true);
	return 0;
}

int dd_referee_duty_done(struct dd_referee *r, const char *duty, bool done,
			 const struct dd_audit *audit, char *err, size_t errlen)
{
	struct mlog_audit a;
	int rc;

	if (!r->m.log) {
		snprintf(err, errlen, "no match under way");
		return -ENOENT;
	}
	if (!dd_ref_duty_exists(&r->m, duty)) {
		snprintf(err, errlen, "duty %.47s: no such duty in this match", duty);
		return -ENOENT;
	}
	if (mlog_bd_duty_done(r->m.log, duty, NULL) == done)
		return 0;
	log_audit(audit, &a);
	rc = r->db ? db_bd_duty(r->db, r->m.id, duty, done, &a, dd_mono_ns(), err, errlen) : 0;
	if (rc == 0 && mlog_bd_add_duty(r->m.log, duty, done, &a)) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
	}
	return rc;
}

static int correct(struct dd_referee *r, int throw_no, const struct bd_throw *t, bool undo,
		   const struct dd_audit *audit, char *err, size_t errlen)
{
	struct mlog_audit a;
	int rc;

	if (!r->m.log) {
		snprintf(err, errlen, "no match under way");
		return -ENOENT;
	}
	if (r->pending && (throw_no == 0 || throw_no == last_throw(r) + 1)) {
		const struct held *h = &r->pend;

		/* The official's version is what counts; the sensors' stays as evidence. */
		rc = commit_throw(r, t, h->why, h->t_start_ns, json_incref(h->obs), true,
				  err, errlen);
		if (rc == 0)
			drop_pending(r);
		return rc ? rc : store_confirm(r, last_throw(r), audit, err, errlen);
	}
	if (throw_no < 1 || throw_no > last_throw(r)) {
		snprintf(err, errlen, "throw %d: no such throw", throw_no);
		return -ENOENT;
	}
	/* The database refolds before it commits: a correction that leaves a
	 * later throw unjudgeable (the game would have ended) is refused. */
	log_audit(audit, &a);
	rc = db_bd_correct_audited(r->db, r->m.id, throw_no, t, undo, &a, dd_mono_ns(), NULL,
				   err, errlen);
	if (rc)
		return rc;
	rc = take_line(r, t, throw_no, err, errlen);
	if (rc == 0) {
		r->m.log->entries[r->m.log->n_entries - 1].undo = undo;
		r->m.log->entries[r->m.log->n_entries - 1].audit = a;
	}
	return rc;
}

int dd_referee_correct(struct dd_referee *r, int throw_no, const struct bd_throw *t,
		       const struct dd_audit *audit, char *err, size_t errlen)
{
	return correct(r, throw_no, t, false, audit, err, errlen);
}

int dd_referee_throws(const struct dd_referee *r)
{
	return r->m.log ? last_throw(r) : 0;
}

int dd_referee_review_throw(const struct dd_referee *r)
{
	if (!r->m.log)
		return 0;
	if (r->pending)
		return last_throw(r) + 1;
	for (size_t i = 0; i < r->m.res.n; i++)
		if (dd_ref_review_open(&r->m, i))
			return (int)i + 1;
	return 0;
}

int dd_referee_players(const struct dd_referee *r, char names[BD_PLAYERS][BD_NAME_MAX])
{
	if (!r->m.log)
		return -ENOENT;
	memcpy(names, r->m.log->cfg.players, sizeof(r->m.log->cfg.players));
	return 0;
}

int dd_referee_undo(struct dd_referee *r, const struct dd_audit *audit, char *err, size_t errlen)
{
	struct mlog_audit a;
	struct bd_throw t;
	int n;

	if (!r->m.log) {
		snprintf(err, errlen, "no match under way");
		return -ENOENT;
	}
	if (r->pending) {
		log_audit(audit, &a);
		note_raw(r, last_throw(r) + 1, "console", "dropped",
			 json_pack("{s:O?,s:s,s:I,s:s}", "obs", r->pend.obs,
				   "official", a.official, "wall_ms", (json_int_t)a.wall_ms,
				   "reason", a.reason), true);
		drop_pending(r);
		return 0;
	}
	n = last_throw(r);
	if (n == 0) {
		snprintf(err, errlen, "no throw to undo");
		return -ENOENT;
	}
	/* Undoing it again would only write the same correction once more: a
	 * second tap must not grow the log. */
	if (r->m.have_res && (size_t)n <= r->m.res.n && r->m.res.rulings[n - 1].retoss) {
		snprintf(err, errlen, "throw %d is a re-toss already: nothing to undo", n);
		return -ENOENT;
	}
	memset(&t, 0, sizeof(t));
	/* The thrower it named stays: the same one throws again (BD-P9). */
	t.thrower = dd_ref_judged(r->m.log, n) ? dd_ref_judged(r->m.log, n)->thrower : BD_NOBODY;
	t.dye_up = true;
	t.apex_m = -1;
	t.n_events = 1;
	t.events[0].kind = BD_EV_RETOSS;
	t.events[0].player = BD_NOBODY;
	t.events[0].confidence = 1;
	snprintf(t.events[0].source, sizeof(t.events[0].source), "console");
	return correct(r, n, &t, true, audit, err, errlen);
}
