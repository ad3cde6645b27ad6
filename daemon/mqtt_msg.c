/* MQTT messages of a table: pure builders (daemon/mqtt_msg.h). */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/mqtt_msg.h"

int dd_mq_topic(char *out, size_t len, const char *table, const char *leaf)
{
	int n = snprintf(out, len, "dyeref/%s/%s", table, leaf);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static char *dump(json_t *o)
{
	char *s = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;

	json_decref(o);
	if (!s)
		errno = ENOMEM;
	return s;
}

static json_t *load_object(const char *text)
{
	json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, NULL);

	if (!json_is_object(o)) {
		json_decref(o);
		errno = EINVAL;
		return NULL;
	}
	return o;
}

char *dd_mq_ruling_msg(const char *table, const struct dd_mq_ruling *r)
{
	json_t *line = load_object(r->line);

	if (!line)
		return NULL;
	return dump(json_pack("{s:s,s:I,s:I,s:i,s:i,s:s,s:o}", "table", table,
			      "seq", (json_int_t)r->seq, "match", (json_int_t)r->match,
			      "throw", r->throw_no, "revision", r->revision, "kind", r->kind,
			      "ruling", line));
}

static bool cites(json_t *why, const char *id)
{
	size_t i;
	json_t *v;

	json_array_foreach(why, i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), id))
			return true;
	return false;
}

/* One event of r: its common fields, and player when not NULL. */
static char *event_msg(const char *table, const struct dd_mq_ruling *r, json_t *line,
		       const char *event, const char *team, const char *player)
{
	json_t *thrower = json_object_get(line, "thrower");
	json_t *o = json_pack("{s:s,s:I,s:i,s:I,s:s,s:s?,s:s?}", "table", table,
			      "match", (json_int_t)r->match, "throw", r->throw_no,
			      "seq", (json_int_t)r->seq, "event", event, "team", team,
			      "thrower", json_string_value(thrower));

	if (o && player)
		json_object_set_new(o, "player", json_string(player));
	return dump(o);
}

int dd_mq_events(const char *table, const struct dd_mq_ruling *r, char **out, int max)
{
	json_t *line, *why, *duties, *d, *score;
	const char *team;
	int n = 0;
	size_t i;

	if (strcmp(r->kind, "ruling"))
		return 0;
	line = load_object(r->line);
	if (!line)
		return -EINVAL;
	why = json_object_get(line, "why");
	team = json_string_value(json_object_get(line, "team"));
#define ADD(ev, tm, pl) do { \
		if (n < max && !(out[n] = event_msg(table, r, line, (ev), (tm), (pl)))) \
			goto nomem; \
		n += n < max; \
	} while (0)
	if (cites(why, "BD-P8"))
		ADD("sink", team, NULL);
	if (cites(why, "BD-O2"))
		ADD("five", team, NULL);
	duties = json_object_get(line, "duties");
	json_array_foreach(duties, i, d) {
		const char *kind = json_string_value(json_object_get(d, "duty"));

		if (kind && !strcmp(kind, "kill_n_fill"))
			ADD("kill_n_fill", team, json_string_value(json_object_get(d, "player")));
	}
	/* The winner is who leads once BD-W1 is cited: a penalty may hand the
	 * game to the thrower's opponents. */
	score = json_object_get(line, "score");
	if (cites(why, "BD-W1")) {
		json_int_t a = json_integer_value(json_object_get(score, "A"));
		json_int_t b = json_integer_value(json_object_get(score, "B"));

		ADD("win", a > b ? "A" : "B", NULL);
	}
#undef ADD
	json_decref(line);
	return n;
nomem:
	while (n > 0)
		free(out[--n]);
	json_decref(line);
	return -ENOMEM;
}

char *dd_mq_state_msg(const char *state_json)
{
	static const char *const keys[] = { "table", "match", "game", "team_names", "players",
					    "score", "throws", "over", "winner", "next", "health" };
	json_t *st = load_object(state_json), *o;

	if (!st)
		return NULL;
	o = json_object();
	for (size_t i = 0; o && i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *v = json_object_get(st, keys[i]);

		if (v && json_object_set(o, keys[i], v)) {
			json_decref(o);
			o = NULL;
		}
	}
	json_decref(st);
	return dump(o);
}

void dd_mq_window_init(struct dd_mq_window *w, int64_t acked)
{
	memset(w, 0, sizeof(*w));
	w->acked = acked;
	w->next = acked + 1;
}

bool dd_mq_window_room(const struct dd_mq_window *w)
{
	return w->next - w->acked <= DD_MQ_WINDOW;
}

void dd_mq_window_sent(struct dd_mq_window *w, int mid)
{
	size_t k = (size_t)(w->next % DD_MQ_WINDOW);

	w->mid[k] = mid;
	w->done[k] = false;
	w->next++;
}

bool dd_mq_window_ack(struct dd_mq_window *w, int mid)
{
	bool moved = false;
	int64_t s;

	if (mid <= 0)
		return false;
	for (s = w->acked + 1; s < w->next; s++) {
		size_t k = (size_t)(s % DD_MQ_WINDOW);

		if (w->mid[k] == mid && !w->done[k]) {
			w->done[k] = true;
			break;
		}
	}
	if (s == w->next)
		return false;
	/* Acknowledged in order up to the first still waiting. */
	while (w->acked + 1 < w->next && w->done[(w->acked + 1) % DD_MQ_WINDOW]) {
		size_t k = (size_t)((w->acked + 1) % DD_MQ_WINDOW);

		w->mid[k] = 0;
		w->done[k] = false;
		w->acked++;
		moved = true;
	}
	return moved;
}

void dd_mq_window_restart(struct dd_mq_window *w)
{
	dd_mq_window_init(w, w->acked);
}
