/*
 * The log of each match: its header, the lines after it (throws, turns,
 * corrections, the roll-off) and the rulings they caused. Lines are stored
 * as the codec wrote them, so export is concatenation; the few fields that
 * queries need (throw number, review, score) are read out of them once,
 * here, on the way in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "db/internal.h"

/* Parses one stored line: a one-line JSON object with a string "type".
 * *type points into the returned object (json_decref it). */
static json_t *parse_line(const char *line, const char *what, const char **type,
			  char *err, size_t errlen)
{
	json_error_t je;
	json_t *j, *t;

	if (!line || !*line) {
		db_msg(err, errlen, "%s: empty line", what);
		return NULL;
	}
	if (strchr(line, '\n') || strchr(line, '\r')) {
		db_msg(err, errlen, "%s: a log line must not contain a line break", what);
		return NULL;
	}
	j = json_loads(line, JSON_REJECT_DUPLICATES, &je);
	if (!j) {
		db_msg(err, errlen, "%s: column %d: %s", what, je.column, je.text);
		return NULL;
	}
	t = json_object_get(j, "type");
	if (!json_is_object(j) || !json_is_string(t)) {
		db_msg(err, errlen, "%s: not a JSON object with a string \"type\"", what);
		json_decref(j);
		return NULL;
	}
	*type = json_string_value(t);
	return j;
}

/* A match's log as stored: its header line, then its lines in order. */
#define LOG_LINES_SQL \
	"SELECT header FROM matches WHERE id = ?1" \
	" UNION ALL SELECT line FROM (SELECT line FROM entries WHERE match_id = ?1 ORDER BY seq)"

static bool is_throw_type(const char *type)
{
	return !strcmp(type, "throw") || !strcmp(type, "turn");
}

/* 0 with *ended; -ENOENT when there is no such match. */
static int match_state(struct db *db, int64_t match, bool *ended, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h,
		"SELECT (SELECT count(*) FROM match_ends WHERE match_id = m.id) FROM matches m WHERE id = ?",
		-1, &st, NULL);
	int ret = 0;

	if (rc != SQLITE_OK)
		return db_fail(db, rc, "reading the match", err, errlen);
	sqlite3_bind_int64(st, 1, match);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*ended = sqlite3_column_int(st, 0) > 0;
	} else if (rc == SQLITE_DONE) {
		db_msg(err, errlen, "%s: no match %lld", db->path, (long long)match);
		ret = -ENOENT;
	} else {
		ret = db_fail(db, rc, "reading the match", err, errlen);
	}
	sqlite3_finalize(st);
	return ret;
}

/* 0 when the match exists and has not ended; -ENOENT; -EALREADY. */
static int match_open(struct db *db, int64_t match, char *err, size_t errlen)
{
	bool ended;
	int ret = match_state(db, match, &ended, err, errlen);

	if (!ret && ended) {
		db_msg(err, errlen, "%s: match %lld has ended", db->path, (long long)match);
		ret = -EALREADY;
	}
	return ret;
}

static int64_t scalar(struct db *db, const char *sql, int64_t a, int *rc)
{
	sqlite3_stmt *st;
	int64_t v = 0;

	*rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
	if (*rc != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, a);
	*rc = sqlite3_step(st);
	if (*rc == SQLITE_ROW) {
		v = sqlite3_column_int64(st, 0);
		*rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return v;
}

int db_commit(struct db *db, const char *what, char *err, size_t errlen)
{
	int rc;

	if (db->hold)
		return 0;
	rc = sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL);

	if (rc == SQLITE_OK) {
		db->in_batch = false;
		db->commits++;
		return 0;
	}
	rc = db_fail(db, rc, what, err, errlen);
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	db->in_batch = false;
	return rc;
}

int db_wrote(struct db *db, const char *what, char *err, size_t errlen)
{
	if (db->in_batch)
		return db_commit(db, what, err, errlen);
	db->commits++;
	return 0;
}

/* After a failed statement: undo this call's work (SAVEPOINT "entry")
 * but keep an open batch of raw inputs, unless SQLite already rolled the
 * whole transaction back. */
static void undo(struct db *db)
{
	if (sqlite3_get_autocommit(db->h)) {
		db->in_batch = false;
		return;
	}
	sqlite3_exec(db->h, "ROLLBACK TO entry; RELEASE entry", NULL, NULL, NULL);
	if (!db->in_batch)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

int db_match_start(struct db *db, const char *header_line, int64_t t_ns,
		   int64_t *match, char *err, size_t errlen)
{
	const char *type;
	json_t *j, *g;
	sqlite3_stmt *st = NULL;
	int rc, ret = 0;

	j = parse_line(header_line, "match header", &type, err, errlen);
	if (!j)
		return -EINVAL;
	g = json_object_get(j, "game");
	if (strcmp(type, "match") || !json_is_string(g) || !json_string_length(g) ||
	    json_string_length(g) >= sizeof(((struct db_match_info *)0)->game)) {
		db_msg(err, errlen, "match header: needs \"type\":\"match\" and a short \"game\"");
		ret = -EINVAL;
		goto free_json;
	}
	rc = sqlite3_prepare_v2(db->h,
		"INSERT INTO matches (game, header, start_ns, start_wall_ms) VALUES (?, ?, ?, ?)",
		-1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, json_string_value(g), -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, header_line, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, t_ns);
		sqlite3_bind_int64(st, 4, db_wall_ms());
		rc = sqlite3_step(st);
	}
	if (rc != SQLITE_DONE) {
		ret = db_fail(db, rc, "starting a match", err, errlen);
		if (db->in_batch && sqlite3_get_autocommit(db->h))
			db->in_batch = false;
		goto finalize;
	}
	*match = sqlite3_last_insert_rowid(db->h);
	ret = db_wrote(db, "starting a match", err, errlen);
finalize:
	sqlite3_finalize(st);
free_json:
	json_decref(j);
	return ret;
}

/* The identity of match's log as stored (digest.c): its lines as export
 * writes them. */
static int match_digest(struct db *db, int64_t match, char digest[DB_DIGEST_HEX],
			char *err, size_t errlen)
{
	struct db_digest d;
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h, LOG_LINES_SQL, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_fail(db, rc, "reading the log", err, errlen);
	db_digest_init(&d);
	sqlite3_bind_int64(st, 1, match);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		db_digest_line(&d, (const char *)sqlite3_column_text(st, 0),
			       (size_t)sqlite3_column_bytes(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, rc, "reading the log", err, errlen);
	db_digest_hex(&d, digest);
	return 0;
}

int db_match_end(struct db *db, int64_t match, const char *final_line,
		 int64_t t_ns, char *err, size_t errlen)
{
	char digest[DB_DIGEST_HEX];
	const char *type;
	sqlite3_stmt *st = NULL;
	json_t *j;
	int rc, ret;

	j = parse_line(final_line, "final line", &type, err, errlen);
	if (!j)
		return -EINVAL;
	if (strcmp(type, "final")) {
		db_msg(err, errlen, "final line: \"type\" must be \"final\"");
		ret = -EINVAL;
		goto free_json;
	}
	ret = match_open(db, match, err, errlen);
	if (!ret)
		ret = match_digest(db, match, digest, err, errlen);
	/* The end and the log's identity in one transaction. */
	if (!ret)
		ret = db_batch_begin(db, err, errlen);
	if (!ret)
		ret = db_exec(db, "SAVEPOINT ending", err, errlen);
	if (ret)
		goto free_json;
	rc = sqlite3_prepare_v2(db->h,
		"INSERT INTO match_ends (match_id, final, t_ns, wall_ms) VALUES (?, ?, ?, ?)",
		-1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, match);
		sqlite3_bind_text(st, 2, final_line, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, t_ns);
		sqlite3_bind_int64(st, 4, db_wall_ms());
		rc = sqlite3_step(st);
	}
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(st);
		st = NULL;
		rc = sqlite3_prepare_v2(db->h,
			"INSERT INTO match_digests (match_id, digest) VALUES (?, ?)", -1, &st, NULL);
		if (rc == SQLITE_OK) {
			sqlite3_bind_int64(st, 1, match);
			sqlite3_bind_text(st, 2, digest, -1, SQLITE_STATIC);
			rc = sqlite3_step(st);
		}
	}
	if (rc != SQLITE_DONE) {
		ret = db_fail(db, rc, "ending the match", err, errlen);
		if (sqlite3_get_autocommit(db->h))
			db->in_batch = false;
		else
			sqlite3_exec(db->h, "ROLLBACK TO ending; RELEASE ending", NULL, NULL, NULL);
	} else {
		sqlite3_exec(db->h, "RELEASE ending", NULL, NULL, NULL);
		ret = db_wrote(db, "ending the match", err, errlen);
	}
	sqlite3_finalize(st);
free_json:
	json_decref(j);
	return ret;
}

/* A bounded number of index steps per match, not one per stored throw:
 * throw and turn lines are numbered 1..n (check_entry), so the newest
 * number is their count; corrections and doubtful rulings are counted
 * through the partial indexes of schema v3 (entries_correct,
 * rulings_review); the newest score is the end of rulings_throw. */
static const char matches_sql[] =
	"SELECT m.id, m.game, m.start_ns, m.start_wall_ms,"
	" EXISTS (SELECT 1 FROM match_ends e WHERE e.match_id = m.id),"
	" coalesce((SELECT throw_no FROM entries WHERE match_id = m.id AND type IN ('throw', 'turn')"
	"   ORDER BY throw_no DESC LIMIT 1), 0),"
	" (SELECT count(*) FROM entries WHERE match_id = m.id AND type = 'correct'),"
	" (SELECT count(*) FROM rulings r WHERE r.match_id = m.id AND r.review"
	"   AND r.id = (SELECT max(id) FROM rulings r2 WHERE r2.match_id = m.id AND r2.throw_no = r.throw_no)),"
	" (SELECT score FROM rulings WHERE match_id = m.id ORDER BY throw_no DESC, id DESC LIMIT 1)"
	" FROM matches m";

static void match_row(sqlite3_stmt *st, struct db_match_info *m)
{
	const char *s;

	memset(m, 0, sizeof(*m));
	m->id = sqlite3_column_int64(st, 0);
	s = (const char *)sqlite3_column_text(st, 1);
	snprintf(m->game, sizeof(m->game), "%s", s ? s : "");
	m->start_ns = sqlite3_column_int64(st, 2);
	m->start_wall_ms = sqlite3_column_int64(st, 3);
	m->ended = sqlite3_column_int(st, 4);
	m->throws = sqlite3_column_int(st, 5);
	m->corrections = sqlite3_column_int(st, 6);
	m->reviews = sqlite3_column_int(st, 7);
	s = (const char *)sqlite3_column_text(st, 8);
	snprintf(m->score, sizeof(m->score), "%s", s ? s : "");
}

int db_matches(struct db *db, struct db_match_info **out, size_t *n, char *err, size_t errlen)
{
	struct db_match_info *v = NULL, *nv;
	size_t cap = 0, len = 0;
	sqlite3_stmt *st;
	char sql[sizeof(matches_sql) + 32];
	int rc, ret = 0;

	snprintf(sql, sizeof(sql), "%s ORDER BY m.id", matches_sql);
	rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "listing matches", err, errlen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (len == cap) {
			cap = cap ? 2 * cap : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				ret = db_nomem(db, err, errlen);
				goto finalize;
			}
			v = nv;
		}
		match_row(st, &v[len++]);
	}
	if (rc != SQLITE_DONE)
		ret = db_fail(db, rc, "listing matches", err, errlen);
finalize:
	sqlite3_finalize(st);
	if (ret) {
		free(v);
		return ret;
	}
	*out = v;
	*n = len;
	return 0;
}

/* The one match the tail of matches_sql (tail, with match for its ?
 * when it has one) selects; -ENOENT, saying "none", when there is none. */
static int match_one(struct db *db, const char *tail, int64_t match, const char *none,
		     struct db_match_info *info, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	char sql[sizeof(matches_sql) + 160];
	int rc, ret = 0;

	snprintf(sql, sizeof(sql), "%s %s", matches_sql, tail);
	rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "reading the match", err, errlen);
	if (strchr(tail, '?'))
		sqlite3_bind_int64(st, 1, match);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		match_row(st, info);
	} else if (rc == SQLITE_DONE) {
		db_msg(err, errlen, "%s: %s", db->path, none);
		ret = -ENOENT;
	} else {
		ret = db_fail(db, rc, "reading the match", err, errlen);
	}
	sqlite3_finalize(st);
	return ret;
}

int db_match_get(struct db *db, int64_t match, struct db_match_info *info,
		 char *err, size_t errlen)
{
	char none[48];

	snprintf(none, sizeof(none), "no match %lld", (long long)match);
	return match_one(db, "WHERE m.id = ?", match, none, info, err, errlen);
}

int db_match_newest(struct db *db, bool unended, struct db_match_info *info,
		    char *err, size_t errlen)
{
	/* Newest first, so the scan stops at the first that qualifies. */
	return unended ? match_one(db, "WHERE NOT EXISTS (SELECT 1 FROM match_ends e WHERE"
				   " e.match_id = m.id) ORDER BY m.id DESC LIMIT 1", 0,
				   "no match under way", info, err, errlen)
		       : match_one(db, "ORDER BY m.id DESC LIMIT 1", 0, "no match", info, err, errlen);
}

/*
 * Checks an entry before anything is written: its line, which throw it is
 * or corrects, and how many rulings it may carry. Rulings fill slots 1, 2,
 * ... in the order the judge gives them: a Beer Die throw's ruling is slot
 * = its throw number (nothing else is ruled), a dice game rules each
 * choose, roll-off and turn line in turn. A correction recomputes the
 * slots from the corrected throw to the last.
 */
static int check_entry(const struct db_entry *e, int throws, int slots, int *number,
		       const char **kind, json_t **line, char *err, size_t errlen)
{
	const char *type;
	json_t *j = parse_line(e->line, "log line", &type, err, errlen);

	if (!j)
		return -EINVAL;
	*line = j;
	*kind = type;
	*number = 0;
	if (!strcmp(type, "match") || !strcmp(type, "final") || !strcmp(type, "ruling")) {
		db_msg(err, errlen, "log line: a \"%s\" line is not a log entry", type);
		return -EINVAL;
	}
	if (is_throw_type(type)) {
		*number = throws + 1;
		if (e->n_rulings != 1) {
			db_msg(err, errlen, "%s %d: needs exactly one ruling (got %zu)", type,
			       *number, e->n_rulings);
			return -EINVAL;
		}
	} else if (!strcmp(type, "correct")) {
		json_t *n = json_object_get(j, "throw");

		if (!json_is_integer(n) || json_integer_value(n) < 1 ||
		    json_integer_value(n) > throws) {
			db_msg(err, errlen, "correct: \"throw\" must name one of throws 1..%d", throws);
			return -EINVAL;
		}
		*number = (int)json_integer_value(n);
		if (e->n_rulings != (size_t)(slots - *number + 1)) {
			db_msg(err, errlen, "correct: throw %d needs the %d rulings from it on (got %zu)",
			       *number, slots - *number + 1, e->n_rulings);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < e->n_obs; i++) {
		if (!e->obs[i].kind || !e->obs[i].source) {
			db_msg(err, errlen, "observation %zu: needs a kind and a source", i + 1);
			return -EINVAL;
		}
		if (e->obs[i].detail) {
			json_error_t je;
			json_t *d = json_loads(e->obs[i].detail, JSON_DECODE_ANY, &je);

			if (!d) {
				db_msg(err, errlen, "observation %zu: detail: %s", i + 1, je.text);
				return -EINVAL;
			}
			json_decref(d);
		}
	}
	return 0;
}

static int insert_ruling(struct db *db, sqlite3_stmt *st, int64_t entry, int64_t match,
			 const char *line, int slot, char *err, size_t errlen)
{
	const char *type;
	json_t *j = parse_line(line, "ruling", &type, err, errlen), *score, *no;
	char *score_text = NULL;
	int rc;

	if (!j)
		return -EINVAL;
	/* A Beer Die ruling names its throw: it must be the one in its slot. */
	no = json_object_get(j, "throw");
	if (strcmp(type, "ruling") || (no && json_integer_value(no) != slot)) {
		db_msg(err, errlen, "ruling: is for throw %lld, expected %d",
		       (long long)json_integer_value(no), slot);
		json_decref(j);
		return -EINVAL;
	}
	score = json_object_get(j, "score");
	if (score)
		score_text = json_dumps(score, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, entry);
	sqlite3_bind_int64(st, 2, match);
	sqlite3_bind_int(st, 3, slot);
	sqlite3_bind_int(st, 4, json_is_true(json_object_get(j, "review")));
	sqlite3_bind_text(st, 5, score_text ? score_text : "", -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, line, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	free(score_text);
	json_decref(j);
	return rc == SQLITE_DONE ? 0 : db_fail(db, rc, "storing a ruling", err, errlen);
}

static int insert_observations(struct db *db, int64_t entry, const struct db_entry *e,
			       char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h,
		"INSERT INTO observations (entry_id, t_ns, kind, source, confidence, detail)"
		" VALUES (?, ?, ?, ?, ?, ?)", -1, &st, NULL);

	for (size_t i = 0; rc == SQLITE_OK && i < e->n_obs; i++) {
		const struct db_observation *o = &e->obs[i];

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, entry);
		sqlite3_bind_int64(st, 2, o->t_ns);
		sqlite3_bind_text(st, 3, o->kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, o->source, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 5, o->confidence);
		if (o->detail)
			sqlite3_bind_text(st, 6, o->detail, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 6);
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : db_fail(db, rc, "storing observations", err, errlen);
}

int db_append(struct db *db, int64_t match, const struct db_entry *e,
	      int *throw_no, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL, *rst = NULL;
	json_t *line = NULL;
	const char *kind;
	int64_t entry, seq;
	int throws, slots = 0, number, rc, ret;

	if (!db->in_batch) {
		ret = db_exec(db, "BEGIN IMMEDIATE", err, errlen);
		if (ret)
			return ret;
	}
	if ((rc = sqlite3_exec(db->h, "SAVEPOINT entry", NULL, NULL, NULL)) != SQLITE_OK) {
		ret = db_fail(db, rc, "appending", err, errlen);
		goto undo;
	}
	ret = match_open(db, match, err, errlen);
	if (ret)
		goto undo;
	/* Throws and turns are numbered 1..n (check_entry): the newest number
	 * is their count, one step down entries_throw, where a count(*) read
	 * every row of the match (an import was quadratic in its throws). */
	throws = (int)scalar(db, "SELECT coalesce((SELECT throw_no FROM entries WHERE match_id = ?1"
			     " AND type IN ('throw', 'turn') ORDER BY throw_no DESC LIMIT 1), 0)",
			     match, &rc);
	if (rc == SQLITE_OK)
		seq = scalar(db, "SELECT coalesce(max(seq), 0) + 1 FROM entries WHERE match_id = ?", match, &rc);
	if (rc == SQLITE_OK)
		slots = (int)scalar(db, "SELECT coalesce(max(throw_no), 0) FROM rulings WHERE match_id = ?",
				    match, &rc);
	if (rc != SQLITE_OK) {
		ret = db_fail(db, rc, "appending", err, errlen);
		goto undo;
	}
	ret = check_entry(e, throws, slots, &number, &kind, &line, err, errlen);
	if (ret)
		goto undo;

	rc = sqlite3_prepare_v2(db->h,
		"INSERT INTO entries (match_id, seq, type, throw_no, t_start_ns, t_ns, line)"
		" VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, match);
		sqlite3_bind_int64(st, 2, seq);
		sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
		if (number)
			sqlite3_bind_int(st, 4, number);
		else
			sqlite3_bind_null(st, 4);
		sqlite3_bind_int64(st, 5, e->t_start_ns);
		sqlite3_bind_int64(st, 6, e->t_ns);
		sqlite3_bind_text(st, 7, e->line, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
	}
	if (rc != SQLITE_DONE) {
		ret = db_fail(db, rc, "appending", err, errlen);
		goto undo;
	}
	entry = sqlite3_last_insert_rowid(db->h);
	ret = insert_observations(db, entry, e, err, errlen);
	if (ret)
		goto undo;
	rc = sqlite3_prepare_v2(db->h,
		"INSERT INTO rulings (entry_id, match_id, throw_no, review, score, line)"
		" VALUES (?, ?, ?, ?, ?, ?)", -1, &rst, NULL);
	if (rc != SQLITE_OK) {
		ret = db_fail(db, rc, "storing a ruling", err, errlen);
		goto undo;
	}
	for (size_t i = 0; i < e->n_rulings; i++) {
		int slot = (strcmp(kind, "correct") ? slots + 1 : number) + (int)i;

		ret = insert_ruling(db, rst, entry, match, e->rulings[i], slot, err, errlen);
		if (ret)
			goto undo;
	}
	sqlite3_exec(db->h, "RELEASE entry", NULL, NULL, NULL);
	ret = db_commit(db, "appending", err, errlen);
	if (!ret && throw_no)
		*throw_no = number;
	goto finalize;

undo:
	undo(db);
finalize:
	sqlite3_finalize(st);
	sqlite3_finalize(rst);
	json_decref(line);
	return ret;
}

int db_lines(struct db *db, int64_t match, char ***lines, size_t *n, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	char **v = NULL, **nv;
	size_t cap = 0, len = 0;
	bool ended;
	int rc, ret;

	ret = match_state(db, match, &ended, err, errlen);
	if (ret)
		return ret;
	rc = sqlite3_prepare_v2(db->h, LOG_LINES_SQL, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "reading the log", err, errlen);
	sqlite3_bind_int64(st, 1, match);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (len == cap) {
			cap = cap ? 2 * cap : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
		}
		v[len] = strdup((const char *)sqlite3_column_text(st, 0));
		if (!v[len])
			goto nomem;
		len++;
	}
	if (rc != SQLITE_DONE) {
		ret = db_fail(db, rc, "reading the log", err, errlen);
		goto free_lines;
	}
	sqlite3_finalize(st);
	*lines = v;
	*n = len;
	return 0;

nomem:
	ret = db_nomem(db, err, errlen);
free_lines:
	sqlite3_finalize(st);
	db_lines_free(v, len);
	return ret;
}

void db_lines_free(char **lines, size_t n)
{
	for (size_t i = 0; i < n && lines; i++)
		free(lines[i]);
	free(lines);
}

int db_match_text(struct db *db, int64_t match, const char *extra, char **text, size_t *len,
		  char *err, size_t errlen)
{
	char **lines = NULL, *buf, *p;
	size_t n = 0, total = 1 + (extra ? strlen(extra) + 1 : 0);
	int ret = db_lines(db, match, &lines, &n, err, errlen);

	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++)
		total += strlen(lines[i]) + 1;
	buf = p = malloc(total);
	for (size_t i = 0; buf && i <= n; i++) {
		const char *l = i < n ? lines[i] : extra;

		if (!l)
			continue;
		size_t ll = strlen(l);
		memcpy(p, l, ll);
		p += ll;
		*p++ = '\n';
	}
	db_lines_free(lines, n);
	if (!buf)
		return db_nomem(db, err, errlen);
	*p = '\0';
	*text = buf;
	*len = (size_t)(p - buf);
	return 0;
}

/* Writes every row of a one-column text query, each with "\n". */
static int write_rows(struct db *db, const char *sql, int64_t match, FILE *out,
		      const char *what, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_fail(db, rc, what, err, errlen);
	sqlite3_bind_int64(st, 1, match);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		fwrite(sqlite3_column_text(st, 0), 1, (size_t)sqlite3_column_bytes(st, 0), out);
		fputc('\n', out);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, rc, what, err, errlen);
	if (ferror(out)) {
		db_msg(err, errlen, "%s: writing the output failed", what);
		return -EIO;
	}
	return 0;
}

int db_export(struct db *db, int64_t match, FILE *out, char *err, size_t errlen)
{
	bool ended;
	int ret = match_state(db, match, &ended, err, errlen);

	if (ret)
		return ret;
	/* One read transaction: a concurrent writer cannot tear the export. */
	ret = db_exec(db, db->in_batch ? "SAVEPOINT export" : "BEGIN", err, errlen);
	if (ret)
		return ret;
	ret = write_rows(db, LOG_LINES_SQL, match, out, "export", err, errlen);
	sqlite3_exec(db->h, db->in_batch ? "RELEASE export" : "COMMIT", NULL, NULL, NULL);
	return ret;
}

int db_rulings_write(struct db *db, int64_t match, FILE *out, char *err, size_t errlen)
{
	bool ended;
	int ret = match_state(db, match, &ended, err, errlen);

	if (ret)
		return ret;
	return write_rows(db,
		"SELECT line FROM (SELECT r.line FROM rulings r WHERE r.match_id = ?1 AND r.id ="
		"  (SELECT max(id) FROM rulings r2 WHERE r2.match_id = ?1 AND r2.throw_no = r.throw_no)"
		"  ORDER BY r.throw_no)"
		" UNION ALL SELECT final FROM match_ends WHERE match_id = ?1",
		match, out, "rulings", err, errlen);
}
