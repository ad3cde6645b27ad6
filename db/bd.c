/*
 * Match logs through the codec: importing any game's log, and the Beer Die
 * calls the daemon makes (start, throw, correct, load and refold, end).
 * The lines stored are the codec's canonical lines, so export is the log
 * and `dyeref judge` of it gives back the rulings stored.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "db/internal.h"

/* Drops the codec's trailing "\n": stored lines have none. */
static char *chomp(char *s, size_t len)
{
	if (len && s[len - 1] == '\n')
		s[len - 1] = 0;
	return s;
}

/* Opens a transaction that the steps below do not commit. */
int db_hold_begin(struct db *db, char *err, size_t errlen)
{
	int ret = db_batch_begin(db, err, errlen);

	if (!ret)
		db->hold = true;
	return ret;
}

/* Ends it: commits when ok, else rolls everything back (pending raw inputs too). */
int db_hold_end(struct db *db, int ret, const char *what, char *err, size_t errlen)
{
	db->hold = false;
	if (!ret)
		return db_commit(db, what, err, errlen);
	if (!sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	db->in_batch = false;
	return ret;
}

/* ---- Import ----------------------------------------------------------- */

struct line {
	const char *p;		/* start, in the caller's buffer */
	size_t len;		/* bytes, without the line end ("\n" or "\r\n") */
	int no;			/* 1-based line number */
};

bool db_line_blank(const char *buf, size_t i, size_t end)
{
	for (; i < end; i++)
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r')
			return false;
	return true;
}

/* Splits buf into its non-blank lines, without the "\r" of a CRLF line
 * end: the judge reads both. *out is the caller's (free()). */
static int split_lines(const char *buf, size_t len, struct line **out, size_t *n)
{
	struct line *v = NULL, *nv;
	size_t cap = 0, k = 0;
	int no = 0;

	for (size_t i = 0; i < len;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len, stop = end;

		no++;
		if (stop > i && buf[stop - 1] == '\r')
			stop--;
		if (!db_line_blank(buf, i, stop)) {
			if (k == cap) {
				cap = cap ? 2 * cap : 256;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
			}
			v[k++] = (struct line){ buf + i, stop - i, no };
		}
		i = end + 1;
	}
	*out = v;
	*n = k;
	return 0;
}

/* The judge's output for buf[0..len) split into lines (rulings, then the
 * final line); *lines owned by *text. */
static int judge_prefix(const char *name, const char *buf, size_t len, char **text,
			struct line **lines, size_t *n, char *err, size_t errlen)
{
	size_t outlen;
	int ret = mlog_judge(name, buf, len, text, &outlen, err, errlen);

	if (ret)
		return ret;
	ret = split_lines(*text, outlen, lines, n);
	if (ret || *n == 0) {
		free(*text);
		*text = NULL;	/* the caller frees it again on its way out */
		db_msg(err, errlen, "%s: the judge gave no final line", name);
		return ret ? ret : -EINVAL;
	}
	return 0;
}

static char *dup_line(const struct line *l)
{
	char *s = malloc(l->len + 1);

	if (s) {
		memcpy(s, l->p, l->len);
		s[l->len] = 0;
	}
	return s;
}

/* "type" of a line, copied into type[0..16); "" when it has none. */
static void line_type(const struct line *l, char *type, size_t n)
{
	json_t *j = json_loadb(l->p, l->len, 0, NULL);
	const char *t = j ? json_string_value(json_object_get(j, "type")) : NULL;

	snprintf(type, n, "%s", t ? t : "");
	json_decref(j);
}

/* The events of an imported throw line as observations (source "log"
 * when the event names none). Free with db_events_free(), also on failure. */
int db_events_of(const char *p, size_t len, int64_t t_ns, struct db_observation **obs,
		 char ***details, size_t *n)
{
	json_t *j = json_loadb(p, len, 0, NULL), *evs = json_object_get(j, "events");
	size_t k = json_is_array(evs) ? json_array_size(evs) : 0;
	int ret = 0;

	*obs = NULL;
	*details = NULL;
	*n = 0;
	if (k) {
		*obs = calloc(k, sizeof(**obs));
		*details = calloc(k, sizeof(**details));
		if (!*obs || !*details)
			ret = -ENOMEM;
	}
	for (size_t i = 0; !ret && i < k; i++) {
		json_t *ev = json_array_get(evs, i), *c = json_object_get(ev, "confidence");
		const char *at = json_string_value(json_object_get(ev, "at"));
		const char *src = json_string_value(json_object_get(ev, "source"));
		struct db_observation *o = &(*obs)[i];

		*n = i + 1;
		(*details)[i] = json_dumps(ev, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
		o->t_ns = t_ns;
		o->kind = strdup(at ? at : "?");
		o->source = strdup(src ? src : "log");
		o->confidence = json_is_number(c) ? json_number_value(c) : 1.0;
		o->detail = (*details)[i];
		if (!(*details)[i] || !o->kind || !o->source)
			ret = -ENOMEM;
	}
	json_decref(j);
	return ret;
}

void db_events_free(struct db_observation *obs, char **details, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(details[i]);
		if (obs) {
			free((char *)obs[i].kind);
			free((char *)obs[i].source);
		}
	}
	free(obs);
	free(details);
}

/* -EEXIST with "NAME: already stored as match N" (*match N) when a match
 * with these lines is stored (their identity, digest.c), else 0. */
static int stored_as(struct db *db, const char *name, const struct line *lines, size_t n,
		     int64_t *match, char *err, size_t errlen)
{
	char hex[DB_DIGEST_HEX];
	struct db_digest d;

	db_digest_init(&d);
	for (size_t i = 0; i < n; i++)
		db_digest_line(&d, lines[i].p, lines[i].len);
	db_digest_hex(&d, hex);
	return db_stored_as(db, name, hex, match, err, errlen);
}

int db_stored_as(struct db *db, const char *name, const char *digest, int64_t *match,
		 char *err, size_t errlen)
{
	int64_t id = db_match_by_digest(db, digest, err, errlen);

	if (id <= 0)
		return (int)id;
	*match = id;
	db_msg(err, errlen, "%s: already stored as match %lld", name, (long long)id);
	return -EEXIST;
}

/*
 * A dice game's log, held whole (db/import.c gives it here): the rulings
 * as they were shown. Its lines rule lines of several kinds (choose,
 * roll-off, turn), so each line is judged as a prefix and gets the
 * rulings its judgement adds; the whole log is judged first, before
 * anything is written, and that judgement serves the last line. A dice
 * game is short (its players' boxes or rounds), the log at most
 * MLOG_MAX_INPUT bytes.
 */
int db_import_whole(struct db *db, const char *name, const char *buf, size_t len,
		    int64_t t_ns, int64_t *match, char *err, size_t errlen)
{
	struct line *lines = NULL, *judged = NULL, *whole = NULL, *cur;
	size_t n = 0, nj = 0, nw = 0, ncur, i;
	char *header = NULL, *text = NULL, *whole_text = NULL, *final = NULL;
	size_t done = 0;	/* rulings stored so far (the slots filled) */
	int ret;

	ret = split_lines(buf, len, &lines, &n);
	if (ret || n == 0) {
		db_msg(err, errlen, "%s: empty log", name);
		ret = ret ? ret : -EINVAL;
		goto free_lines;
	}
	ret = stored_as(db, name, lines, n, match, err, errlen);
	if (ret)
		goto free_lines;
	ret = judge_prefix(name, buf, len, &whole_text, &whole, &nw, err, errlen);
	if (ret)
		goto free_lines;
	header = dup_line(&lines[0]);
	if (!header) {
		ret = -ENOMEM;
		goto free_lines;
	}
	ret = db_hold_begin(db, err, errlen);
	if (ret)
		goto free_lines;
	ret = db_match_start(db, header, t_ns, match, err, errlen);
	for (i = 1; i < n && !ret; i++) {
		struct db_entry e = { .t_ns = t_ns, .t_start_ns = 0 };
		char *line = dup_line(&lines[i]), **rs = NULL, **details = NULL, type[16];
		struct db_observation *obs = NULL;
		size_t lo = done, hi, n_obs = 0;	/* cur[lo..hi): this line's rulings */

		free(text);
		free(judged);
		text = NULL;
		judged = NULL;
		cur = whole;
		ncur = nw;
		if (i + 1 < n) {
			ret = judge_prefix(name, buf, (size_t)(lines[i + 1].p - buf),
					   &text, &judged, &nj, err, errlen);
			cur = judged;
			ncur = nj;
		}
		hi = ret ? 0 : ncur - 1;	/* rulings in this judgement */
		line_type(&lines[i], type, sizeof(type));
		if (!ret && lo > hi) {
			db_msg(err, errlen, "%s:%d: the judge gave no ruling for it", name, lines[i].no);
			ret = -EINVAL;
		} else if (!ret && hi > lo && !(rs = calloc(hi - lo, sizeof(*rs)))) {
			ret = -ENOMEM;
		}
		for (size_t r = lo; !ret && r < hi; r++)
			if (!(rs[r - lo] = dup_line(&cur[r])))
				ret = -ENOMEM;
		if (!ret && !line)
			ret = -ENOMEM;
		if (!ret && !strcmp(type, "turn"))
			ret = db_events_of(lines[i].p, lines[i].len, t_ns, &obs, &details, &n_obs);
		if (!ret) {
			e.line = line;
			e.rulings = (const char *const *)rs;
			e.n_rulings = hi - lo;
			e.obs = obs;
			e.n_obs = n_obs;
			ret = db_append(db, *match, &e, NULL, err, errlen);
			if (ret)
				db_at_line(name, lines[i].no, err, errlen);
		}
		done = hi > done ? hi : done;
		db_events_free(obs, details, n_obs);
		for (size_t r = 0; rs && r < hi - lo; r++)
			free(rs[r]);
		free(rs);
		free(line);
	}
	if (!ret) {
		/* The final line closes it (also a log with no turns). */
		final = dup_line(&whole[nw - 1]);
		ret = final ? db_match_end(db, *match, final, t_ns, err, errlen) : -ENOMEM;
	}
	ret = db_hold_end(db, ret, "importing", err, errlen);
free_lines:
	if (ret == -ENOMEM)
		db_msg(err, errlen, "%s: out of memory", name);
	free(final);
	free(text);
	free(judged);
	free(whole_text);
	free(whole);
	free(header);
	free(lines);
	return ret;
}

void db_at_line(const char *name, int no, char *err, size_t errlen)
{
	char why[256];

	snprintf(why, sizeof(why), "%s", err ? err : "");
	db_msg(err, errlen, "%s:%d: %s", name, no, why);
}

/* ---- Beer Die ----------------------------------------------------------- */

int db_bd_start(struct db *db, const struct mlog_bd *log, int64_t t_ns,
		int64_t *match, char *err, size_t errlen)
{
	struct mlog_bd head = *log;
	struct line *lines = NULL;
	size_t len, n = 0;
	char *text = NULL, *header = NULL, *rolloff = NULL;
	int ret;

	head.n_entries = 0;
	head.n_throws = 0;
	if (mlog_bd_write(&head, &text, &len) || split_lines(text, len, &lines, &n) || n < 1) {
		free(text);
		free(lines);
		return db_nomem(db, err, errlen);
	}
	header = dup_line(&lines[0]);
	rolloff = n > 1 ? dup_line(&lines[1]) : NULL;
	ret = db_hold_begin(db, err, errlen);
	if (!ret) {
		ret = db_match_start(db, header, t_ns, match, err, errlen);
		if (!ret && rolloff) {
			struct db_entry e = { .line = rolloff, .t_ns = t_ns };

			ret = db_append(db, *match, &e, NULL, err, errlen);
		}
		ret = db_hold_end(db, ret, "starting a match", err, errlen);
	}
	free(header);
	free(rolloff);
	free(lines);
	free(text);
	return ret;
}

/* The throw line's events, as observations (detail: the event as logged). */
static int observations_of(const struct bd_throw *t, const char *line, int64_t t_ns,
			   struct db_observation *obs, char **details, json_t **parsed)
{
	json_t *j = json_loads(line, 0, NULL), *evs = json_object_get(j, "events");

	*parsed = j;
	for (size_t i = 0; i < t->n_events; i++) {
		json_t *ev = json_array_get(evs, i);
		const char *at = json_string_value(json_object_get(ev, "at"));

		details[i] = ev ? json_dumps(ev, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) : NULL;
		obs[i] = (struct db_observation){
			.t_ns = t->events[i].t_ns ? t->events[i].t_ns : t_ns,
			.kind = at ? at : "?",
			.source = t->events[i].source[0] ? t->events[i].source : "unknown",
			.confidence = t->events[i].has_confidence ? t->events[i].confidence : 1.0,
			.detail = details[i],
		};
	}
	return j ? 0 : -EINVAL;
}

int db_bd_throw(struct db *db, int64_t match, const struct bd_match_cfg *cfg,
		const struct bd_throw *t, const struct bd_ruling *r,
		int64_t t_start_ns, int64_t t_ns, char *err, size_t errlen)
{
	struct db_observation obs[BD_MAX_EVENTS];
	char *details[BD_MAX_EVENTS] = { 0 };
	char *line = NULL, *ruling = NULL;
	json_t *parsed = NULL;
	size_t len;
	int ret;

	if (t->n_events > BD_MAX_EVENTS) {
		db_msg(err, errlen, "throw: %zu events (at most %d)", t->n_events, BD_MAX_EVENTS);
		return -EINVAL;
	}
	if (mlog_bd_throw_line(cfg, t, 0, &line, &len) ||
	    mlog_bd_ruling_line(cfg, r, false, &ruling, &(size_t){ 0 })) {
		ret = db_nomem(db, err, errlen);
		goto free_lines;
	}
	chomp(line, len);
	chomp(ruling, strlen(ruling));
	ret = observations_of(t, line, t_ns, obs, details, &parsed);
	if (!ret) {
		const char *rs[] = { ruling };
		struct db_entry e = { .line = line, .t_ns = t_ns, .t_start_ns = t_start_ns,
				      .obs = obs, .n_obs = t->n_events, .rulings = rs, .n_rulings = 1 };

		ret = db_append(db, match, &e, NULL, err, errlen);
	}
	for (size_t i = 0; i < t->n_events && i < BD_MAX_EVENTS; i++)
		free(details[i]);
	json_decref(parsed);
free_lines:
	free(line);
	free(ruling);
	return ret;
}

/* The stored log of a match, parsed. */
static int load_log(struct db *db, int64_t match, struct mlog_bd **log, char *err, size_t errlen)
{
	char *buf, name[64];
	size_t len;
	int ret = db_match_text(db, match, NULL, &buf, &len, err, errlen);

	if (ret)
		return ret;
	snprintf(name, sizeof(name), "match %lld", (long long)match);
	ret = mlog_bd_parse(name, buf, len, log, err, errlen);
	free(buf);
	return ret;
}

/* Opens the held batch a change is written in and reads the match's log
 * inside it, so nothing else writes between the read and the append; on
 * failure nothing is held. */
static int hold_log(struct db *db, int64_t match, struct mlog_bd **log, char *err, size_t errlen)
{
	int ret = db_hold_begin(db, err, errlen);

	if (ret)
		return ret;
	ret = load_log(db, match, log, err, errlen);
	return ret ? db_hold_end(db, ret, "reading", err, errlen) : 0;
}

int db_bd_load(struct db *db, int64_t match, struct mlog_bd **log,
	       struct mlog_bd_result *res, char *err, size_t errlen)
{
	int ret = load_log(db, match, log, err, errlen);

	if (ret)
		return ret;
	ret = mlog_bd_replay(*log, res, err, errlen);
	if (ret) {
		mlog_bd_free(*log);
		*log = NULL;
	}
	return ret;
}

int db_bd_correct(struct db *db, int64_t match, int throw_no, const struct bd_throw *t,
		  int64_t t_ns, struct bd_state *state, char *err, size_t errlen)
{
	return db_bd_correct_audited(db, match, throw_no, t, false, NULL, t_ns, state, err, errlen);
}

int db_bd_correct_audited(struct db *db, int64_t match, int throw_no, const struct bd_throw *t,
			  bool undo, const struct mlog_audit *audit, int64_t t_ns,
			  struct bd_state *state, char *err, size_t errlen)
{
	struct mlog_bd_result res;
	struct mlog_bd *log = NULL;
	char *line = NULL, **rs = NULL;
	size_t len, n = 0;
	int ret;

	ret = hold_log(db, match, &log, err, errlen);
	if (ret)
		return ret;
	if (mlog_bd_add_correct(log, throw_no, t)) {
		db_msg(err, errlen, "correct: match %lld has no throw %d", (long long)match, throw_no);
		ret = -EINVAL;
		goto free_log;
	}
	log->entries[log->n_entries - 1].undo = undo;
	if (audit)
		log->entries[log->n_entries - 1].audit = *audit;
	ret = mlog_bd_replay(log, &res, err, errlen);
	if (ret)
		goto free_log;
	n = res.n - (size_t)throw_no + 1;
	rs = calloc(n, sizeof(*rs));
	ret = rs && !mlog_bd_entry_line(&log->cfg, &log->entries[log->n_entries - 1], &line, &len)
	      ? 0 : -ENOMEM;
	for (size_t i = 0; !ret && i < n; i++) {
		size_t k = (size_t)throw_no - 1 + i;

		if (mlog_bd_ruling_line(&log->cfg, &res.rulings[k], res.corrected[k], &rs[i], &len))
			ret = -ENOMEM;
		else
			chomp(rs[i], len);
	}
	if (!ret) {
		struct db_entry e = { .line = chomp(line, strlen(line)), .t_ns = t_ns,
				      .rulings = (const char *const *)rs, .n_rulings = n };

		ret = db_append(db, match, &e, NULL, err, errlen);
	} else {
		db_nomem(db, err, errlen);
	}
	if (!ret && state)
		*state = res.state;
	for (size_t i = 0; rs && i < n; i++)
		free(rs[i]);
	free(rs);
	free(line);
	mlog_bd_result_free(&res);
free_log:
	mlog_bd_free(log);
	return db_hold_end(db, ret, "correcting", err, errlen);
}

/* Appends log's last entry (an official's line with no ruling: confirm,
 * duty) to match, committed; frees log. what names it in messages. */
static int append_last_entry(struct db *db, int64_t match, struct mlog_bd *log, int64_t t_ns,
			     const char *what, char *err, size_t errlen)
{
	char *line = NULL;
	size_t len;
	int ret;

	if (mlog_bd_entry_line(&log->cfg, &log->entries[log->n_entries - 1], &line, &len)) {
		ret = db_nomem(db, err, errlen);
	} else {
		struct db_entry e = { .line = chomp(line, len), .t_ns = t_ns };

		ret = db_append(db, match, &e, NULL, err, errlen);
	}
	free(line);
	mlog_bd_free(log);
	return db_hold_end(db, ret, what, err, errlen);
}

int db_bd_confirm(struct db *db, int64_t match, int throw_no, const struct mlog_audit *audit,
		  int64_t t_ns, char *err, size_t errlen)
{
	struct mlog_bd *log = NULL;
	int ret = hold_log(db, match, &log, err, errlen);

	if (ret)
		return ret;
	if (mlog_bd_add_confirm(log, throw_no, audit)) {
		db_msg(err, errlen, "confirm: match %lld has no throw %d", (long long)match, throw_no);
		mlog_bd_free(log);
		return db_hold_end(db, -EINVAL, "confirming", err, errlen);
	}
	return append_last_entry(db, match, log, t_ns, "confirming", err, errlen);
}

int db_bd_duty(struct db *db, int64_t match, const char *duty, bool done,
	       const struct mlog_audit *audit, int64_t t_ns, char *err, size_t errlen)
{
	struct mlog_bd *log = NULL;
	int ret = hold_log(db, match, &log, err, errlen);

	if (ret)
		return ret;
	if (mlog_bd_add_duty(log, duty, done, audit)) {
		db_msg(err, errlen, "duty: not a duty's id");
		mlog_bd_free(log);
		return db_hold_end(db, -EINVAL, "marking a duty", err, errlen);
	}
	return append_last_entry(db, match, log, t_ns, "marking a duty", err, errlen);
}

int db_bd_end(struct db *db, int64_t match, int64_t t_ns, char *err, size_t errlen)
{
	struct mlog_bd_result res;
	struct mlog_bd *log;
	char *final;
	size_t len;
	int ret = db_bd_load(db, match, &log, &res, err, errlen);

	if (ret)
		return ret;
	if (mlog_bd_final_line(&log->cfg, &res.final, &final, &len)) {
		ret = db_nomem(db, err, errlen);
	} else {
		ret = db_match_end(db, match, chomp(final, len), t_ns, err, errlen);
		free(final);
	}
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
	return ret;
}
