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

const char *const dd_mq_state_keys[] = { "table", "match", "game", "team_names", "players",
					 "score", "throws", "over", "winner", "next", "health", NULL };

char *dd_mq_state_msg(const char *state_json)
{
	json_t *st = load_object(state_json), *o;

	if (!st)
		return NULL;
	o = json_object();
	for (size_t i = 0; o && dd_mq_state_keys[i]; i++) {
		json_t *v = json_object_get(st, dd_mq_state_keys[i]);

		if (v && json_object_set(o, dd_mq_state_keys[i], v)) {
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

bool dd_mq_ha_prefix_ok(const char *p)
{
	size_t n = strlen(p);

	if (!n || n >= DD_MQ_HA_PREFIX_MAX || p[0] == '/' || p[n - 1] == '/' || strstr(p, "//"))
		return false;
	return strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-/") == n;
}

/* A new string of PREFIX/component/dyeref-TABLE/object/config. */
static char *ha_topic(const struct dd_mq_ha *ha, const char *component, const char *object)
{
	const char *fmt = "%s/%s/dyeref-%s/%s/config";
	int n = snprintf(NULL, 0, fmt, ha->prefix, component, ha->table, object);
	char *s = n < 0 ? NULL : malloc((size_t)n + 1);

	if (s)
		snprintf(s, (size_t)n + 1, fmt, ha->prefix, component, ha->table, object);
	return s;
}

/* The device every config names: Home Assistant groups them under it. */
static json_t *ha_device(const struct dd_mq_ha *ha, const char *node)
{
	return json_pack("{s:[s],s:s,s:s,s:s,s:s}", "identifiers", node, "name",
			 ha->name && ha->name[0] ? ha->name : ha->table, "manufacturer", "dyeref",
			 "model", "dyeref", "sw_version", ha->version);
}

/* The entities, on the state topic unless noted. Templates are Home
 * Assistant's (Jinja, the payload as value_json) and name only fields of
 * dd_mq_state_keys: between matches there is no score or next, and the
 * defaults keep a sensor's state a number or a name. */
static const struct ha_entity {
	const char *component, *object, *name, *tmpl, *icon;
	bool score;		/* a number: state_class measurement */
	bool match_state;	/* an enum of idle, playing, over */
} HA_ENTITIES[] = {
	{ "sensor", "score_a", "Team A score", "{{ (value_json.score or {}).A | default(0) }}",
	  "mdi:scoreboard", true, false },
	{ "sensor", "score_b", "Team B score", "{{ (value_json.score or {}).B | default(0) }}",
	  "mdi:scoreboard", true, false },
	{ "sensor", "next_thrower", "Whose throw",
	  "{{ (value_json.next or {}).player | default('none') }}", "mdi:account-arrow-right",
	  false, false },
	{ "sensor", "match_state", "Match state",
	  "{{ 'idle' if value_json.match is none else ('over' if value_json.over else 'playing') }}",
	  "mdi:dice-1", false, true },
};

/* The events of dyeref/TABLE/event (dd_mq_events), one trigger each. */
static const char *const HA_EVENTS[] = { "sink", "five", "kill_n_fill", "win" };

static json_t *ha_entity(const struct dd_mq_ha *ha, const char *node, const struct ha_entity *e)
{
	char state[DD_MQ_TOPIC_MAX], status[DD_MQ_TOPIC_MAX], uid[96];
	json_t *o;

	if (dd_mq_topic(state, sizeof(state), ha->table, "state") ||
	    dd_mq_topic(status, sizeof(status), ha->table, "status"))
		return NULL;
	snprintf(uid, sizeof(uid), "%s-%s", node, e->object);
	o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:i,s:o}", "name", e->name, "unique_id", uid,
		      "state_topic", state, "value_template", e->tmpl, "icon", e->icon,
		      "availability_topic", status, "payload_available", DD_MQ_ONLINE,
		      "payload_not_available", DD_MQ_OFFLINE, "qos", 1, "device", ha_device(ha, node));
	if (o && e->score && json_object_set_new(o, "state_class", json_string("measurement")))
		goto free_o;
	if (o && e->match_state &&
	    (json_object_set_new(o, "device_class", json_string("enum")) ||
	     json_object_set_new(o, "options", json_pack("[s,s,s]", "idle", "playing", "over"))))
		goto free_o;
	return o;
free_o:
	json_decref(o);
	return NULL;
}

/* Connectivity is the status topic itself: no availability of its own,
 * so that a table gone reads "disconnected", not "unavailable". */
static json_t *ha_online(const struct dd_mq_ha *ha, const char *node)
{
	char status[DD_MQ_TOPIC_MAX], uid[96];

	if (dd_mq_topic(status, sizeof(status), ha->table, "status"))
		return NULL;
	snprintf(uid, sizeof(uid), "%s-online", node);
	return json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:i,s:o}", "name", "Online", "unique_id", uid,
			 "state_topic", status, "payload_on", DD_MQ_ONLINE, "payload_off", DD_MQ_OFFLINE,
			 "device_class", "connectivity", "entity_category", "diagnostic", "qos", 1,
			 "device", ha_device(ha, node));
}

/* A device trigger fires when its value_template, applied to a message
 * on topic, yields payload: every event shares one topic, told apart by
 * its "event" field. */
static json_t *ha_trigger(const struct dd_mq_ha *ha, const char *node, const char *event)
{
	char topic[DD_MQ_TOPIC_MAX];

	if (dd_mq_topic(topic, sizeof(topic), ha->table, "event"))
		return NULL;
	return json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:i,s:o}", "automation_type", "trigger",
			 "topic", topic, "type", event, "subtype", "table", "payload", event,
			 "value_template", "{{ value_json.event }}", "qos", 1,
			 "device", ha_device(ha, node));
}

int dd_mq_ha_configs(const struct dd_mq_ha *ha, struct dd_mq_ha_config out[DD_MQ_HA_CONFIGS])
{
	const size_t n_ent = sizeof(HA_ENTITIES) / sizeof(HA_ENTITIES[0]);
	char node[48];
	size_t i;

	_Static_assert(sizeof(HA_ENTITIES) / sizeof(HA_ENTITIES[0]) + 1 +
		       sizeof(HA_EVENTS) / sizeof(HA_EVENTS[0]) == DD_MQ_HA_CONFIGS,
		       "DD_MQ_HA_CONFIGS counts every config");
	memset(out, 0, DD_MQ_HA_CONFIGS * sizeof(*out));
	snprintf(node, sizeof(node), "dyeref-%s", ha->table);
	for (i = 0; i < DD_MQ_HA_CONFIGS; i++) {
		const struct ha_entity *e = i < n_ent ? &HA_ENTITIES[i] : NULL;
		const char *event = i > n_ent ? HA_EVENTS[i - n_ent - 1] : NULL;

		out[i].topic = e ? ha_topic(ha, e->component, e->object)
			     : event ? ha_topic(ha, "device_automation", event)
			     : ha_topic(ha, "binary_sensor", "online");
		out[i].payload = dump(e ? ha_entity(ha, node, e) : event ? ha_trigger(ha, node, event)
				      : ha_online(ha, node));
		if (!out[i].topic || !out[i].payload) {
			dd_mq_ha_free(out);
			return -ENOMEM;
		}
	}
	return 0;
}

void dd_mq_ha_free(struct dd_mq_ha_config c[DD_MQ_HA_CONFIGS])
{
	for (int i = 0; i < DD_MQ_HA_CONFIGS; i++) {
		free(c[i].topic);
		free(c[i].payload);
		c[i].topic = c[i].payload = NULL;
	}
}
