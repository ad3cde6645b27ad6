/* The referee: the match under way as a match log, judged, committed, then shown. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/daemon.h"
#include "daemon/obs_time.h"
#include "db/db.h"
#include "web/web.h"

#pragma weak dd_camera_snapshot	/* only with the camera glue */

#define NAME_MAX_TEAM 32	/* bytes of a team's name, with the NUL */

/* What the log does not hold about a throw: why it was doubtful, whether an
 * official confirmed it, and the raw observations behind it. */
struct note {
	char review_why[DD_WHY_MAX];	/* fusion's reason, "" when none */
	bool confirmed;		/* an official looked and agreed */
	json_t *obs;		/* owned: the raw observations (array), or NULL */
};

/* A match read back: its log, the fold, the notes. */
struct loaded {
	int64_t id;			/* match id in the database */
	struct mlog_bd *log;		/* owned */
	struct mlog_bd_result res;	/* owned contents */
	bool have_res;			/* res holds a fold */
	char teams[2][NAME_MAX_TEAM];	/* team names, may be "" */
	struct note *notes;		/* owned, one per throw */
	size_t n_notes;			/* allocated entries of notes */
};

/* A doubtful throw held for an official (review = wait): what commit_throw()
 * needs, and nothing that cannot be read back from its "held" note. */
struct held {
	struct bd_throw t;		/* as observed */
	char why[DD_WHY_MAX];		/* fusion's reason, "" when none */
	int64_t t_start_ns;		/* its first raw input, 0 unknown */
	json_t *obs;			/* owned: the raw observations (array), or NULL */
	struct bd_ruling ruling;	/* its provisional ruling */
};

struct dd_referee {
	struct dd_referee_cfg cfg;	/* house defaults, review mode */
	struct db *db;			/* borrowed: the event log */
	struct loaded m;		/* the match under way (m.log NULL: none) */
	bool pending;			/* a doubtful throw awaits an official */
	struct held pend;		/* it (valid while pending) */
	int64_t dice_id;		/* the dice match under way, 0 none */
	char dice_game[32];		/* its game ("yatzy", ...) */
	struct bd_final last_final;	/* final of the last ended match */
};

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

void dd_referee_free(struct dd_referee *r)
{
	if (!r)
		return;
	loaded_free(&r->m);
	drop_pending(r);
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
		loaded_free(&r->m);
	drop_pending(r);
	r->dice_id = 0;
	r->dice_game[0] = '\0';
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

/* ---- Dice games ------------------------------------------------------------
 * The stored log is the state: each move is judged by the dice engine as
 * the last line of the whole log (short: a few dozen lines), so the engine's
 * own checks and messages answer the console, and what is stored is exactly
 * what `dyeref judge` would say about the exported log. */

/* The match's stored lines joined with "\n", then extra (may be NULL) as
 * one more line. *out is the caller's (free()). */
static int dice_text(struct dd_referee *r, int64_t id, const char *extra, char **out,
		     size_t *outlen, char *err, size_t errlen)
{
	return db_match_text(r->db, id, extra, out, outlen, err, errlen);
}

/* The engine's output for a log, split into lines (pointers into *text, which
 * the caller frees): rulings, then the final line last. */
static int dice_judge(const char *name, const char *buf, size_t len, char **text,
		      char ***lines, size_t *n, char *err, size_t errlen)
{
	size_t outlen, cap = 0;
	char *save = NULL, *l;
	int rc = mlog_dice_judge(name, buf, len, text, &outlen, err, errlen);

	*lines = NULL;
	*n = 0;
	if (rc)
		return rc;
	for (size_t i = 0; i < outlen; i++)
		cap += (*text)[i] == '\n';
	*lines = calloc(cap + 1, sizeof(**lines));
	if (!*lines) {
		free(*text);
		*text = NULL;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (l = strtok_r(*text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		(*lines)[(*n)++] = l;
	return 0;
}

int dd_referee_dice_start(struct dd_referee *r, const char *header, char *err, size_t errlen)
{
	char *text = NULL, *buf = NULL, **out = NULL, name[32];
	size_t n, len = strlen(header);
	json_t *h;
	int rc;

	if (r->m.log || r->dice_id) {
		snprintf(err, errlen, "a match is under way: end it first");
		return -EBUSY;
	}
	h = json_loads(header, 0, NULL);
	snprintf(name, sizeof(name), "%s", json_string_value(json_object_get(h, "game")) ?
		 json_string_value(json_object_get(h, "game")) : "");
	json_decref(h);
	if (dice_game_parse(name) < 0) {
		snprintf(err, errlen, "game: expected yatzy, yatzy-joker, dreiermann or horse");
		return -EINVAL;
	}
	buf = malloc(len + 2);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, header, len);
	memcpy(buf + len, "\n", 2);
	/* The engine reads the match line first: players and house rules. */
	rc = dice_judge("match", buf, len + 1, &text, &out, &n, err, errlen);
	if (rc == 0)
		rc = db_match_start(r->db, header, dd_mono_ns(), &r->dice_id, err, errlen);
	if (rc == 0)
		snprintf(r->dice_game, sizeof(r->dice_game), "%s", name);
	free(out);
	free(text);
	free(buf);
	return rc;
}

/* Ends the dice match with the engine's final line. */
static int dice_end(struct dd_referee *r, char *err, size_t errlen)
{
	char *buf = NULL, *text = NULL, **out = NULL, name[32];
	size_t len, n = 0;
	int rc;

	snprintf(name, sizeof(name), "match %lld", (long long)r->dice_id);
	rc = dice_text(r, r->dice_id, NULL, &buf, &len, err, errlen);
	if (rc == 0)
		rc = dice_judge(name, buf, len, &text, &out, &n, err, errlen);
	if (rc == 0)
		rc = db_match_end(r->db, r->dice_id, out[n - 1], dd_mono_ns(), err, errlen);
	if (rc == 0 || rc == -EALREADY)
		r->dice_id = 0;
	free(out);
	free(text);
	free(buf);
	return rc == -EALREADY ? 0 : rc;
}

int dd_referee_dice_move(struct dd_referee *r, const char *line, char *err, size_t errlen)
{
	char *before = NULL, *after = NULL, *t0 = NULL, *t1 = NULL, **o0 = NULL, **o1 = NULL;
	char name[32];
	size_t l0, l1, n0 = 0, n1 = 0;
	struct dice_sheet *sheet = NULL;
	int rc;

	if (!r->dice_id) {
		snprintf(err, errlen, "no dice game under way");
		return -ENOENT;
	}
	snprintf(name, sizeof(name), "match %lld", (long long)r->dice_id);
	rc = dice_text(r, r->dice_id, NULL, &before, &l0, err, errlen);
	if (rc == 0)
		rc = dice_text(r, r->dice_id, line, &after, &l1, err, errlen);
	if (rc == 0)
		rc = dice_judge(name, before, l0, &t0, &o0, &n0, err, errlen);
	/* The engine refuses an illegal move with the line, field and rule. */
	if (rc == 0)
		rc = dice_judge(name, after, l1, &t1, &o1, &n1, err, errlen);
	if (rc)
		goto free_all;
	{
		/* Its rulings: those the new line added (the final line is last). */
		struct db_entry e = { .line = line, .t_ns = dd_mono_ns(),
				      .rulings = (const char *const *)o1 + (n0 - 1),
				      .n_rulings = n1 - n0 };

		rc = db_append(r->db, r->dice_id, &e, NULL, err, errlen);
	}
	if (rc)
		goto free_all;
	sheet = malloc(sizeof(*sheet));
	if (sheet && mlog_dice_sheet(name, after, l1, sheet, err, errlen) == 0 && sheet->over)
		rc = dice_end(r, err, errlen);
free_all:
	free(sheet);
	free(o0);
	free(o1);
	free(t0);
	free(t1);
	free(before);
	free(after);
	return rc;
}

/* The live dice match for the state: game, sheet (inline, so the screen
 * redraws it on each push without asking). */
static json_t *dice_state(struct dd_referee *r, int64_t id, const char *game)
{
	char *sheet = NULL;
	json_t *o = json_pack("{s:I,s:s}", "match", (json_int_t)id, "game", game);

	if (o && dd_referee_sheet(r, id, &sheet) == 0)
		json_object_set_new(o, "sheet", json_loads(sheet, 0, NULL));
	free(sheet);
	return o;
}

/* ---- Starting, restoring, ending ----------------------------------------- */

int dd_referee_start(struct dd_referee *r, const struct bd_match_cfg *cfg,
		     const char team_names[2][32], char *err, size_t errlen)
{
	struct loaded m = { 0 };
	char *head = NULL;
	size_t len;
	int rc;

	if (r->m.log || r->dice_id) {
		snprintf(err, errlen, "a match is under way: end it first");
		return -EBUSY;
	}
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
	}
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
	loaded_free(&m);
	return rc;
}

/* Picks a throw's notes out of what the database holds behind it. */
static int collect_note(const struct db_item *it, void *ctx)
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

		if (db_replay(r->db, id, (int)k, collect_note, &m->notes[k - 1], why, sizeof(why)))
			dd_log(DD_LOG_WARN, "match %lld throw %zu: %s", (long long)id, k, why);
	}
	return 0;

free_match:
	loaded_free(m);
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

/* A dice game whose last move was committed but not its end (the daemon
 * was killed between the two) is over: end it now, as the move would have,
 * rather than restore a finished game as the one under way. */
static void dice_end_if_over(struct dd_referee *r)
{
	char *log = NULL, err[256] = "", name[32];
	struct dice_sheet *sheet = malloc(sizeof(*sheet));
	size_t len;
	int rc = sheet ? dice_text(r, r->dice_id, NULL, &log, &len, err, sizeof(err)) : -ENOMEM;

	snprintf(name, sizeof(name), "match %lld", (long long)r->dice_id);
	if (rc == 0)
		rc = mlog_dice_sheet(name, log, len, sheet, err, sizeof(err));
	if (rc == 0 && sheet->over) {
		rc = dice_end(r, err, sizeof(err));
		if (rc == 0)
			dd_log(DD_LOG_INFO, "%s: its last move was stored, its end was not: ended now", name);
	}
	if (rc)
		dd_log(DD_LOG_WARN, "%s: %s", name, err[0] ? err : strerror(-rc));
	free(sheet);
	free(log);
}

int dd_referee_restore(struct dd_referee *r, char *err, size_t errlen)
{
	struct db_match_info *ms = NULL;
	size_t n = 0;
	int rc;

	if (!r->db || r->m.log)
		return 0;
	rc = db_matches(r->db, &ms, &n, err, errlen);
	if (rc)
		return rc;
	/* The match under way is the newest match not ended. */
	for (size_t i = n; i-- > 0;) {
		if (ms[i].ended)
			continue;
		if (!strcmp(ms[i].game, "beerdie")) {
			rc = load_match(r, ms[i].id, &r->m, err, errlen);
			if (rc == 0)
				restore_held(r);
		} else {
			r->dice_id = ms[i].id;
			snprintf(r->dice_game, sizeof(r->dice_game), "%s", ms[i].game);
			dice_end_if_over(r);
		}
		break;
	}
	free(ms);
	return rc;
}

int dd_referee_end(struct dd_referee *r, char *err, size_t errlen)
{
	int rc;

	if (r->dice_id)
		return dice_end(r, err, errlen);
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
	loaded_free(&r->m);
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
		if (dd_camera_snapshot &&
		    dd_camera_snapshot(r->db, r->m.id, k, t_start_ns, err, errlen) < 0)
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


int dd_referee_confirm(struct dd_referee *r, int throw_no, char *err, size_t errlen)
{
	if (!r->m.log) {
		snprintf(err, errlen, "no match under way");
		return -ENOENT;
	}
	if (r->pending && (throw_no == 0 || throw_no == last_throw(r) + 1)) {
		const struct held *h = &r->pend;
		int rc = commit_throw(r, &h->t, h->why, h->t_start_ns, json_incref(h->obs), true,
				      err, errlen);

		if (rc == 0)
			drop_pending(r);
		return rc;
	}
	if (throw_no < 1 || throw_no > last_throw(r)) {
		snprintf(err, errlen, "throw %d: no such throw", throw_no);
		return -ENOENT;
	}
	/* Confirmed already: a second tap writes nothing more. */
	if (r->m.notes[throw_no - 1].confirmed)
		return 0;
	r->m.notes[throw_no - 1].confirmed = true;
	note_raw(r, throw_no, "console", "confirm", json_pack("{s:i}", "throw", throw_no), true);
	return 0;
}

int dd_referee_correct(struct dd_referee *r, int throw_no, const struct bd_throw *t,
		       char *err, size_t errlen)
{
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
		return rc;
	}
	if (throw_no < 1 || throw_no > last_throw(r)) {
		snprintf(err, errlen, "throw %d: no such throw", throw_no);
		return -ENOENT;
	}
	/* The database refolds before it commits: a correction that leaves a
	 * later throw unjudgeable (the game would have ended) is refused. */
	rc = db_bd_correct(r->db, r->m.id, throw_no, t, dd_mono_ns(), NULL, err, errlen);
	if (rc)
		return rc;
	return take_line(r, t, throw_no, err, errlen);
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
		note_raw(r, last_throw(r) + 1, "console", "dropped",
			 json_pack("{s:O?}", "obs", r->pend.obs), true);
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

/* Throw i+1 was ruled doubtful (by the judge, or fusion gave a reason). */
static bool doubtful(const struct loaded *m, size_t i)
{
	return m->res.rulings[i].review || m->notes[i].review_why[0];
}

/* Still awaits an official: a correction (undo included) settles it as
 * surely as a confirmation (docs/daemon.md, "until confirmed or corrected"). */
static bool review_open(const struct loaded *m, size_t i)
{
	return doubtful(m, i) && !m->notes[i].confirmed && !m->res.corrected[i];
}

int dd_referee_state(struct dd_referee *r, json_t **out)
{
	const struct loaded *m = &r->m;
	const struct bd_match_cfg *cfg;
	json_t *o, *duties, *history;
	size_t n, first = 0, open = 0;
	int next;

	if (r->dice_id) {
		o = json_pack("{s:I,s:s,s:b,s:o}", "match", (json_int_t)r->dice_id,
			      "game", r->dice_game, "over", 0,
			      "dice_match", dice_state(r, r->dice_id, r->dice_game));
		*out = o;
		return o ? 0 : -ENOMEM;
	}
	if (!m->log) {
		struct db_match_info *ms = NULL;
		size_t nm = 0;
		char err[256];

		o = json_pack("{s:n,s:s,s:n}", "match", "game", "beerdie", "last");
		if (o && r->last_final.over)
			json_object_set_new(o, "previous_winner",
					    json_string(r->last_final.winner == BD_TEAM_A ? "A" : "B"));
		/* Between Beer Die matches the screen shows the newest dice
		 * game's sheet, when the newest match is one. */
		if (o && db_matches(r->db, &ms, &nm, err, sizeof(err)) == 0 && nm &&
		    strcmp(ms[nm - 1].game, "beerdie"))
			json_object_set_new(o, "dice_match",
					    dice_state(r, ms[nm - 1].id, ms[nm - 1].game));
		free(ms);
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
			"review", doubtful(m, i),
			"confirmed", m->notes[i].confirmed, "corrected", m->res.corrected[i]));
	}
	json_object_set_new(o, "history", history);
	/* The banner stays on a counted doubtful ruling until an official
	 * settles it, however many throws follow: the earliest open one is
	 * shown, "awaiting" counts them all. A held ruling comes first: play
	 * waits on it. */
	for (size_t i = n; i-- > 0;)
		if (review_open(m, i)) {
			first = i;
			open++;
		}
	if (r->pending) {
		json_t *pr = ruling_json(cfg, &r->pend.ruling, false);

		json_object_set_new(o, "review", json_pack("{s:i,s:s,s:o?,s:i}", "throw", (int)n + 1,
			"why", r->pend.why[0] ? r->pend.why : "doubtful evidence",
			"ruling", pr, "awaiting", (int)open + 1));
	} else if (open) {
		json_object_set_new(o, "review", json_pack("{s:i,s:s,s:b,s:i}", "throw", (int)first + 1,
			"why", m->notes[first].review_why[0] ? m->notes[first].review_why
							   : "doubtful evidence",
			"counted", 1, "awaiting", (int)open));
	}
	*out = o;
	return 0;
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
	long want;		/* which one, or 0 */
	long seen;		/* snapshots walked so far */
	char *jpeg;		/* the copy found (malloc), or NULL */
	size_t len;		/* its bytes */
};

static int find_snapshot(const struct db_item *it, void *ctx)
{
	struct snap_find *sf = ctx;

	if (it->kind != DB_ITEM_SNAPSHOT || ++sf->seen != sf->want)
		return 0;
	sf->jpeg = malloc(it->len ? it->len : 1);
	if (!sf->jpeg)
		return -ENOMEM;
	memcpy(sf->jpeg, it->data, it->len);
	sf->len = it->len;
	return 1;	/* found: stop the walk */
}

static long count_snapshots(struct dd_referee *r, long id, long throw_no)
{
	struct snap_find sf = { 0 };
	char err[256];

	if (!r->db || db_replay(r->db, id, (int)throw_no, find_snapshot, &sf, err, sizeof(err)) < 0)
		return 0;
	return sf.seen;
}

/* What one walk behind a stored throw gives its page: its notes and how
 * many snapshots it has. */
struct throw_walk {
	struct note note;	/* as load_match() collects it */
	long snapshots;		/* DB_ITEM_SNAPSHOT items seen */
};

static int walk_throw(const struct db_item *it, void *ctx)
{
	struct throw_walk *w = ctx;

	if (it->kind == DB_ITEM_SNAPSHOT)
		w->snapshots++;
	return collect_note(it, &w->note);
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

int dd_referee_snapshot(struct dd_referee *r, long id, long throw_no, long index,
			char **jpeg, size_t *len)
{
	struct snap_find sf = { .want = index };
	char err[256];
	int rc;

	*jpeg = NULL;
	*len = 0;
	if (!r->db || throw_no < 1 || throw_no > 1000000000L || index < 1)
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
	struct throw_walk w = { 0 };
	const struct note *nt;
	json_t *o = NULL, *corrections;
	char err[256];
	long k = 0;
	int rc;

	*out = NULL;
	if (r->m.log && id == r->m.id) {
		m = &r->m;
	} else {
		rc = load_old(r, id, &tmp);
		if (rc) {
			loaded_free(&tmp);
			return rc;
		}
	}
	if (throw_no < 1 || (size_t)throw_no > m->res.n)
		goto not_found;
	if (m == &r->m) {
		nt = &m->notes[throw_no - 1];
		w.snapshots = count_snapshots(r, id, throw_no);
	} else {
		rc = db_replay(r->db, id, (int)throw_no, walk_throw, &w, err, sizeof(err));
		if (rc < 0 && rc != -ENOENT) {
			json_decref(w.note.obs);
			loaded_free(&tmp);
			return read_fault("throw detail", rc, err);
		}
		nt = &w.note;	/* -ENOENT: the log has it, the replay not: no notes, as before */
	}
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
	/* The camera's pictures: /api/matches/N/throws/K/snapshots/1.jpg .. */
	if (o)
		json_object_set_new(o, "snapshots", json_integer(w.snapshots));
	if (o)
		*out = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6));
	json_decref(o);
	json_decref(w.note.obs);
	loaded_free(&tmp);
	return *out ? 0 : -ENOMEM;
not_found:
	loaded_free(&tmp);
	return -ENOENT;
}
