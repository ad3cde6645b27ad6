/*
 * Piezo edges in the event log: the row convention shared by whoever
 * stores edges (db_raw_append) and the replay that reads them back
 * (docs/sensors.md "Edges in the database"). The glue lives in daemon/ so
 * that libsensors never needs a database: it only sees a memory source.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/sensors_db.h"
#include "db/db.h"
#include "sensors/sensors.h"

void dd_sensors_edge_raw(const struct sens_edge *e, int throw_no, bool button,
			 char payload[DD_EDGE_PAYLOAD], struct db_raw *raw)
{
	snprintf(payload, DD_EDGE_PAYLOAD, "{\"line\":%u}", e->line);
	*raw = (struct db_raw){
		.t_ns = e->ts_ns, .throw_no = throw_no, .source = button ? "button" : "piezo",
		.kind = "edge", .channel = (int)e->line, .payload = payload, .len = strlen(payload),
	};
}

int dd_sensors_edges_store(struct db *db, int64_t match, const struct sens_config *cfg,
			   const struct sens_edge *e, size_t n, char *err, size_t errlen)
{
	struct db_raw *raw;
	char (*payload)[DD_EDGE_PAYLOAD];
	int rc;

	if (!n)
		return 0;
	/* One db_raw_append call, so all or none: the caller offers every
	 * edge again after a failure, and an earlier call's rows would then
	 * be stored twice. */
	raw = malloc(n * (sizeof(*raw) + sizeof(*payload)));
	if (!raw) {
		snprintf(err, errlen, "storing piezo edges: out of memory");
		return -ENOMEM;
	}
	payload = (char (*)[DD_EDGE_PAYLOAD])(raw + n);
	for (size_t i = 0; i < n; i++) {
		int at = sens_config_line_by_offset(cfg, e[i].line);
		bool button = at >= 0 && cfg->lines[at].role == SENS_ROLE_BUTTON;

		dd_sensors_edge_raw(&e[i], 0, button, payload[i], &raw[i]);
	}
	rc = db_raw_append(db, match, raw, n, err, errlen);
	free(raw);
	return rc;
}

void dd_edge_keep_init(struct dd_edge_keep *k)
{
	k->n = 0;
	k->full = 0;
	k->reported_ns = 0;
	for (size_t i = 0; i <= SENS_MAX_LINES; i++)
		k->line[i] = (struct dd_keep_line){ .tokens = DD_KEEP_BURST };
}

size_t dd_edge_keep_add(struct dd_edge_keep *k, const struct sens_config *cfg,
			const struct sens_edge *e, size_t n)
{
	size_t took = 0;

	for (size_t i = 0; i < n; i++) {
		int at = sens_config_line_by_offset(cfg, e[i].line);
		struct dd_keep_line *l = &k->line[at >= 0 && at < SENS_MAX_LINES ? at : SENS_MAX_LINES];

		/* The budget refills by the edges' own clock; an edge older
		 * than the line's latest (read late) refills nothing. */
		if (l->t_ns && e[i].ts_ns > l->t_ns)
			l->tokens += (double)(e[i].ts_ns - l->t_ns) * 1e-9 * DD_KEEP_PER_S;
		if (l->tokens > DD_KEEP_BURST)
			l->tokens = DD_KEEP_BURST;
		if (e[i].ts_ns > l->t_ns)
			l->t_ns = e[i].ts_ns;
		if (l->tokens < 1) {
			l->left_out++;
		} else if (k->n == DD_KEEP_MAX) {
			k->full++;
		} else {
			l->tokens -= 1;
			k->buf[k->n++] = e[i];
			took++;
		}
	}
	return took;
}

void dd_edge_keep_stored(struct dd_edge_keep *k, size_t n)
{
	if (n >= k->n) {
		k->n = 0;
		return;
	}
	memmove(k->buf, k->buf + n, (k->n - n) * sizeof(k->buf[0]));
	k->n -= n;
}

/* When a report of total edges refused is due, or 0 (none refused). */
static int64_t report_due(const struct dd_edge_keep *k, unsigned long total)
{
	if (!total)
		return 0;
	return k->reported_ns ? k->reported_ns + DD_KEEP_REPORT_NS : 1;
}

int64_t dd_edge_keep_report_due(const struct dd_edge_keep *k)
{
	unsigned long total = k->full;

	for (size_t i = 0; i <= SENS_MAX_LINES; i++)
		total += k->line[i].left_out;
	return report_due(k, total);
}

bool dd_edge_keep_report(struct dd_edge_keep *k, const struct sens_config *cfg, int64_t now_ns,
			 char *msg, size_t len)
{
	unsigned long total = k->full;
	size_t most = 0;
	int64_t due;

	for (size_t i = 0; i <= SENS_MAX_LINES; i++) {
		total += k->line[i].left_out;
		if (k->line[i].left_out > k->line[most].left_out)
			most = i;
	}
	due = report_due(k, total);
	if (!due || now_ns < due)
		return false;
	if (k->line[most].left_out && most < cfg->n_lines)
		snprintf(msg, len, "sensors: %lu edges not stored, %lu of them of %s (line %u), "
			 "faster than %d a second (chattering? the health strip names it)", total,
			 k->line[most].left_out, cfg->lines[most].name, cfg->lines[most].offset,
			 DD_KEEP_PER_S);
	else if (k->line[most].left_out)
		snprintf(msg, len, "sensors: %lu edges not stored, %lu of them of lines the wiring "
			 "does not name, faster than %d a second", total, k->line[most].left_out,
			 DD_KEEP_PER_S);
	else
		snprintf(msg, len, "sensors: %lu edges not stored: %d were already waiting for the "
			 "event log (locked?)", total, DD_KEEP_MAX);
	for (size_t i = 0; i <= SENS_MAX_LINES; i++)
		k->line[i].left_out = 0;
	k->full = 0;
	k->reported_ns = now_ns;
	return true;
}

struct collect {
	int64_t match;		/* for messages */
	int throw_no;		/* the throw being read, for messages */
	struct sens_edge *v;	/* edges so far, owned */
	size_t n, cap;		/* used, allocated */
	char *err;		/* the caller's message buffer */
	size_t errlen;		/* its size */
};

/* A stored payload must agree with the row's channel when it names a line:
 * a disagreement means the row was not written by this convention. */
static int payload_agrees(const struct db_item *it, struct collect *c)
{
	json_t *j, *line;
	int ret = 0;

	if (!it->data || !it->len)
		return 0;
	j = json_loadb(it->data, it->len, 0, NULL);
	if (!j || !json_is_object(j)) {
		snprintf(c->err, c->errlen, "match %" PRId64 " throw %d: %s edge at %" PRId64
			 " ns: payload is not a JSON object", c->match, c->throw_no, it->source,
			 it->t_ns);
		ret = -EINVAL;
		goto free_json;
	}
	line = json_object_get(j, "line");
	if (line && (!json_is_integer(line) || json_integer_value(line) != it->channel)) {
		snprintf(c->err, c->errlen, "match %" PRId64 " throw %d: %s edge at %" PRId64
			 " ns: payload line does not match channel %d", c->match, c->throw_no,
			 it->source, it->t_ns, it->channel);
		ret = -EINVAL;
	}
free_json:
	json_decref(j);
	return ret;
}

static int on_item(const struct db_item *it, void *ctx)
{
	struct collect *c = ctx;
	int ret;

	if (it->kind != DB_ITEM_RAW || strcmp(it->what, "edge") ||
	    (strcmp(it->source, "piezo") && strcmp(it->source, "button")))
		return 0;
	if (it->channel < 0 || it->channel > SENS_MAX_OFFSET) {
		snprintf(c->err, c->errlen, "match %" PRId64 " throw %d: %s edge at %" PRId64
			 " ns: channel %d is not a GPIO line (0..%d)", c->match, c->throw_no,
			 it->source, it->t_ns, it->channel, SENS_MAX_OFFSET);
		return -EINVAL;
	}
	ret = payload_agrees(it, c);
	if (ret)
		return ret;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		struct sens_edge *v = realloc(c->v, cap * sizeof(*v));

		if (!v) {
			snprintf(c->err, c->errlen, "reading piezo edges: out of memory");
			return -ENOMEM;
		}
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n++] = (struct sens_edge){ .line = (unsigned)it->channel, .ts_ns = it->t_ns };
	return 0;
}

static int by_time_line(const void *pa, const void *pb)
{
	const struct sens_edge *a = pa, *b = pb;

	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

int dd_sensors_db_edges(struct db *db, int64_t match, int throw_no, struct sens_edge **edges,
			size_t *n, char *err, size_t errlen)
{
	struct collect c = { .match = match, .err = err, .errlen = errlen };
	struct db_match_info info;
	int ret, first, last;

	*edges = NULL;
	*n = 0;
	ret = db_match_get(db, match, &info, err, errlen);
	if (ret)
		return ret;
	if (throw_no < 0 || throw_no > info.throws) {
		snprintf(err, errlen, "%s: match %" PRId64 " has no throw %d (it has %d)",
			 db_path(db), match, throw_no, info.throws);
		return -ENOENT;
	}
	first = throw_no ? throw_no : 1;
	last = throw_no ? throw_no : info.throws;
	for (c.throw_no = first; c.throw_no <= last; c.throw_no++) {
		ret = db_replay(db, match, c.throw_no, on_item, &c, err, errlen);
		if (ret)
			goto free_edges;
	}
	/* A throw's span may overlap the one before (its first raw input came
	 * before that throw was decided): the same row is then seen twice.
	 * Logs written before a store was all or none may also hold an edge
	 * twice (a store retried after failing part way): the same drop. */
	if (c.n > 1)
		qsort(c.v, c.n, sizeof(c.v[0]), by_time_line);
	size_t k = 0;
	for (size_t i = 0; i < c.n; i++)
		if (!k || by_time_line(&c.v[k - 1], &c.v[i]))
			c.v[k++] = c.v[i];
	*edges = c.v;
	*n = k;
	return 0;
free_edges:
	free(c.v);
	return ret;
}

struct sens_source *dd_sensors_db_open(struct db *db, int64_t match, int throw_no,
				       char *err, size_t errlen)
{
	struct sens_edge *e;
	struct sens_source *s;
	size_t n;
	int ret = dd_sensors_db_edges(db, match, throw_no, &e, &n, err, errlen);

	if (ret) {
		errno = -ret;
		return NULL;
	}
	s = sens_memory_open(e, n);
	free(e);
	if (!s) {
		snprintf(err, errlen, "reading piezo edges: out of memory");
		errno = ENOMEM;
	}
	return s;
}
