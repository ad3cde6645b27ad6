/*
 * Replay: everything behind one throw, in time order. Raw inputs and
 * snapshots usually arrive before anyone knows which throw they belong to,
 * so besides those tagged with the throw they are found by the throw's time
 * span: from its first raw input (t_start_ns) or, when that is unknown,
 * just after the previous throw was decided, up to its own decision.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "db/internal.h"

/* An item with what orders it among items of the same instant. */
struct sitem {
	struct db_item it;	/* what the callback sees */
	int64_t seq;		/* log position of its line (0 for inputs: they come first) */
	size_t idx;		/* collection order, the last tie-break */
};

struct item_list {
	struct sitem *v;	/* items, owned (with their strings and data) */
	size_t n, cap;		/* items used, allocated */
};

size_t db_utf8_seq(const unsigned char *p, size_t n)
{
	size_t len = p[0] < 0x80 ? 1 : p[0] >= 0xc2 && p[0] <= 0xdf ? 2 :
		     p[0] >= 0xe0 && p[0] <= 0xef ? 3 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
	unsigned lo = 0x80, hi = 0xbf;

	if (!len || len > n)
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	for (size_t i = 1; i < len; i++, lo = 0x80, hi = 0xbf)
		if (p[i] < lo || p[i] > hi)
			return 0;
	return len;
}

/* Whether p[0..n) is UTF-8 text with no NUL: what a JSON string can carry. */
static bool utf8_text(const unsigned char *p, size_t n)
{
	for (size_t i = 0, k; i < n; i += k)
		if (!p[i] || !(k = db_utf8_seq(p + i, n - i)))
			return false;
	return true;
}

static char *dup_text(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	return t ? strdup((const char *)t) : NULL;
}

static void *dup_blob(sqlite3_stmt *st, int col, size_t *len)
{
	const void *b = sqlite3_column_blob(st, col);
	void *c;

	*len = (size_t)sqlite3_column_bytes(st, col);
	if (!b || !*len)
		return NULL;
	c = malloc(*len + 1);
	if (c) {
		memcpy(c, b, *len);
		((char *)c)[*len] = 0;	/* text payloads stay printable */
	}
	return c;
}

static struct sitem *push(struct item_list *l)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct sitem *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	l->v[l->n].it.channel = -1;
	l->v[l->n].it.confidence = -1;
	l->v[l->n].idx = l->n;
	return &l->v[l->n++];
}

static void free_items(struct item_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct db_item *it = &l->v[i].it;

		if (it->source && *it->source)
			free((char *)it->source);
		if (it->what && *it->what)
			free((char *)it->what);
		free((char *)it->text);
		if ((const void *)it->text != it->data)
			free((void *)it->data);
	}
	free(l->v);
}

/* Runs a query whose columns are (t_ns, source, what, channel, confidence,
 * text, blob[, seq]) and adds one item of kind per row. */
static int collect(struct db *db, struct item_list *l, enum db_item_kind kind,
		   const char *sql, int64_t a, int64_t b, int64_t c, int64_t d,
		   char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_fail(db, rc, "replay", err, errlen);
	{
		const int64_t args[4] = { a, b, c, d };

		for (int i = 0; i < 4 && i < sqlite3_bind_parameter_count(st); i++)
			sqlite3_bind_int64(st, i + 1, args[i]);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sitem *si = push(l);
		struct db_item *it = si ? &si->it : NULL;

		if (!it)
			goto nomem;
		/* The 8th column: a line's seq (the order of decisions), a
		 * snapshot's row id. */
		if (sqlite3_column_count(st) > 7 && kind == DB_ITEM_SNAPSHOT)
			it->id = sqlite3_column_int64(st, 7);
		else if (sqlite3_column_count(st) > 7)
			si->seq = sqlite3_column_int64(st, 7);
		it->kind = kind;
		it->t_ns = sqlite3_column_int64(st, 0);
		it->source = sqlite3_column_type(st, 1) == SQLITE_NULL ? "" : dup_text(st, 1);
		it->what = sqlite3_column_type(st, 2) == SQLITE_NULL ? "" : dup_text(st, 2);
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			it->channel = sqlite3_column_int(st, 3);
		if (sqlite3_column_type(st, 4) != SQLITE_NULL)
			it->confidence = sqlite3_column_double(st, 4);
		if (sqlite3_column_type(st, 5) != SQLITE_NULL)
			it->text = dup_text(st, 5);
		if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
			it->data = dup_blob(st, 6, &it->len);
			/* A raw payload of UTF-8 text is shown as text, any other
			 * by its size: a JSON string cannot carry arbitrary bytes. */
			if (kind == DB_ITEM_RAW && it->data && utf8_text(it->data, it->len))
				it->text = it->data;
		}
		if (!it->source || !it->what)
			goto nomem;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, rc, "replay", err, errlen);
nomem:
	sqlite3_finalize(st);
	return db_nomem(db, err, errlen);
}

static int by_time(const void *pa, const void *pb)
{
	const struct sitem *a = pa, *b = pb;
	bool la = a->it.kind >= DB_ITEM_THROW, lb = b->it.kind >= DB_ITEM_THROW;

	if (a->it.t_ns != b->it.t_ns)
		return a->it.t_ns < b->it.t_ns ? -1 : 1;
	/* Same instant: what was sensed before what was decided from it, and
	 * decisions in log order, each line before the rulings it caused. */
	if (la != lb)
		return la ? 1 : -1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	if ((a->it.kind == DB_ITEM_RULING) != (b->it.kind == DB_ITEM_RULING))
		return a->it.kind == DB_ITEM_RULING ? 1 : -1;
	if (a->it.kind != b->it.kind)
		return a->it.kind < b->it.kind ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Whether match is stored; a failed look-up counts as stored, so the
 * message falls back to naming the throw. */
static bool match_stored(struct db *db, int64_t match)
{
	sqlite3_stmt *st;
	bool found;

	if (sqlite3_prepare_v2(db->h, "SELECT 1 FROM matches WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return true;
	sqlite3_bind_int64(st, 1, match);
	found = sqlite3_step(st) != SQLITE_DONE;
	sqlite3_finalize(st);
	return found;
}

int db_replay(struct db *db, int64_t match, int throw_no,
	      int (*fn)(const struct db_item *item, void *ctx), void *ctx,
	      char *err, size_t errlen)
{
	struct item_list l = { 0 };
	sqlite3_stmt *st;
	int64_t entry, lo, hi;
	int rc, ret = 0;

	rc = sqlite3_prepare_v2(db->h,
		"SELECT e.id, e.t_start_ns, e.t_ns,"
		" coalesce((SELECT max(p.t_ns) FROM entries p WHERE p.match_id = e.match_id"
		"   AND p.type IN ('throw', 'turn') AND p.throw_no < e.throw_no), m.start_ns - 1)"
		" FROM entries e JOIN matches m ON m.id = e.match_id"
		" WHERE e.match_id = ? AND e.throw_no = ? AND e.type IN ('throw', 'turn')",
		-1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "replay", err, errlen);
	sqlite3_bind_int64(st, 1, match);
	sqlite3_bind_int(st, 2, throw_no);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE) {
			/* Name what is missing: a mistyped --match is not a missing throw. */
			if (match_stored(db, match))
				db_msg(err, errlen, "%s: match %lld has no throw %d", db->path,
				       (long long)match, throw_no);
			else
				db_msg(err, errlen, "%s: no match %lld", db->path, (long long)match);
			ret = -ENOENT;
		} else {
			ret = db_fail(db, rc, "replay", err, errlen);
		}
		sqlite3_finalize(st);
		return ret;
	}
	entry = sqlite3_column_int64(st, 0);
	hi = sqlite3_column_int64(st, 2);
	lo = sqlite3_column_int64(st, 1) ? sqlite3_column_int64(st, 1) : sqlite3_column_int64(st, 3) + 1;
	sqlite3_finalize(st);

	ret = db_exec(db, db->in_batch ? "SAVEPOINT replay" : "BEGIN", err, errlen);
	if (ret)
		return ret;
	ret = collect(db, &l, DB_ITEM_RAW,
		"SELECT t_ns, source, kind, channel, NULL, NULL, payload FROM raw_inputs"
		" WHERE match_id = ?1 AND (throw_no = ?2 OR (throw_no IS NULL AND t_ns BETWEEN ?3 AND ?4))"
		" ORDER BY t_ns, id", match, throw_no, lo, hi, err, errlen);
	if (!ret)
		ret = collect(db, &l, DB_ITEM_SNAPSHOT,
			"SELECT t_ns, NULL, NULL, NULL, NULL, NULL, jpeg, id FROM snapshots"
			" WHERE match_id = ?1 AND (throw_no = ?2 OR (throw_no IS NULL AND t_ns BETWEEN ?3 AND ?4))"
			" ORDER BY t_ns, id", match, throw_no, lo, hi, err, errlen);
	if (!ret)
		ret = collect(db, &l, DB_ITEM_OBSERVATION,
			"SELECT t_ns, source, kind, NULL, confidence, detail, NULL FROM observations"
			" WHERE entry_id = ?1 ORDER BY id", entry, 0, 0, 0, err, errlen);
	if (!ret)
		ret = collect(db, &l, DB_ITEM_THROW,
			"SELECT t_ns, NULL, NULL, NULL, NULL, line, NULL, seq FROM entries"
			" WHERE id = ?1", entry, 0, 0, 0, err, errlen);
	if (!ret)
		ret = collect(db, &l, DB_ITEM_CORRECTION,
			"SELECT t_ns, NULL, NULL, NULL, NULL, line, NULL, seq FROM entries"
			" WHERE match_id = ?1 AND type = 'correct' AND throw_no = ?2 ORDER BY seq",
			match, throw_no, 0, 0, err, errlen);
	if (!ret)
		ret = collect(db, &l, DB_ITEM_RULING,
			"SELECT e.t_ns, NULL, NULL, NULL, NULL, r.line, NULL, e.seq FROM rulings r"
			" JOIN entries e ON e.id = r.entry_id"
			" WHERE r.match_id = ?1 AND r.throw_no IN (SELECT throw_no FROM rulings WHERE entry_id = ?2)"
			" ORDER BY r.id", match, entry, 0, 0, err, errlen);
	sqlite3_exec(db->h, db->in_batch ? "RELEASE replay" : "COMMIT", NULL, NULL, NULL);
	if (ret)
		goto free_items;
	qsort(l.v, l.n, sizeof(l.v[0]), by_time);
	for (size_t i = 0; i < l.n && !ret; i++)
		ret = fn(&l.v[i].it, ctx);
free_items:
	free_items(&l);
	return ret;
}

int db_raw_tagged(struct db *db, int64_t match, int throw_no,
		  int (*fn)(const struct db_item *item, void *ctx), void *ctx,
		  char *err, size_t errlen)
{
	struct item_list l = { 0 };
	int ret;

	ret = collect(db, &l, DB_ITEM_RAW,
		"SELECT t_ns, source, kind, channel, NULL, NULL, payload FROM raw_inputs"
		" WHERE match_id = ?1 AND throw_no = ?2 ORDER BY id",
		match, throw_no, 0, 0, err, errlen);
	for (size_t i = 0; i < l.n && !ret; i++)
		ret = fn(&l.v[i].it, ctx);
	free_items(&l);
	return ret;
}

static const char *const item_names[] = {
	[DB_ITEM_RAW] = "raw", [DB_ITEM_SNAPSHOT] = "snapshot",
	[DB_ITEM_OBSERVATION] = "observation", [DB_ITEM_THROW] = "throw",
	[DB_ITEM_RULING] = "ruling", [DB_ITEM_CORRECTION] = "correction",
};

/* A JSON string literal of s. */
/* s as a JSON string. Bytes that are not UTF-8 (a source or kind is
 * whatever the daemon or the file holds) become U+FFFD, so the line stays
 * JSON. */
static void put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k;

	fputc('"', out);
	for (size_t i = 0; i < n; i += k) {
		k = db_utf8_seq(p + i, n - i);
		if (!k) {
			fputs("\\ufffd", out);
			k = 1;
		} else if (p[i] == '"' || p[i] == '\\') {
			fprintf(out, "\\%c", p[i]);
		} else if (p[i] < 0x20) {
			fprintf(out, "\\u%04x", p[i]);
		} else {
			fwrite(p + i, 1, k, out);
		}
	}
	fputc('"', out);
}

int db_item_write(const struct db_item *it, FILE *out)
{
	fprintf(out, "{\"t_ns\":%lld,\"item\":\"%s\"", (long long)it->t_ns, item_names[it->kind]);
	if (it->kind == DB_ITEM_RAW || it->kind == DB_ITEM_OBSERVATION) {
		fputs(",\"source\":", out);
		put_string(out, it->source);
		fputs(",\"kind\":", out);
		put_string(out, it->what);
	}
	if (it->kind == DB_ITEM_RAW && it->channel >= 0)
		fprintf(out, ",\"channel\":%d", it->channel);
	if (it->kind == DB_ITEM_OBSERVATION)
		fprintf(out, ",\"confidence\":%.3g", it->confidence);
	if (it->kind == DB_ITEM_RAW && it->text) {
		fputs(",\"payload\":", out);
		put_string(out, it->text);
	} else if (it->kind == DB_ITEM_RAW || it->kind == DB_ITEM_SNAPSHOT) {
		fprintf(out, ",\"bytes\":%zu", it->len);
	} else if (it->kind == DB_ITEM_OBSERVATION && it->text) {
		fprintf(out, ",\"detail\":%s", it->text);
	} else if (it->text) {
		fprintf(out, ",\"line\":%s", it->text);
	}
	fputs("}\n", out);
	return ferror(out) ? -EIO : 0;
}
