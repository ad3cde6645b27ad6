/* The messages a table publishes over MQTT (docs/daemon.md, "MQTT"): the
 * topics, the payloads, the events a ruling gives, and the outbox's
 * window of ruling messages sent but not yet acknowledged. Pure: no I/O,
 * no clock; daemon/mqtt.c sends what this builds. Every string returned
 * is the caller's (free()). */
#ifndef DYEREF_DAEMON_MQTT_MSG_H
#define DYEREF_DAEMON_MQTT_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "dyeref/" TABLE "/" leaf, with the NUL: a table id is at most 32 bytes. */
#define DD_MQ_TOPIC_MAX 64
/* Ruling messages sent and not yet acknowledged, at most (daemon/mqtt.c
 * lifts libmosquitto's own limit, so this one bounds them). */
#define DD_MQ_WINDOW 16
/* Events one ruling gives, at most (a sink, a five, two kill n' fills, a win). */
#define DD_MQ_EVENTS_MAX 8

/* The status topic's retained payloads (and the last will's). */
#define DD_MQ_ONLINE "online"
#define DD_MQ_OFFLINE "offline"

/* "dyeref/TABLE/leaf" into out (len bytes): 0, or -ENAMETOOLONG. */
int dd_mq_topic(char *out, size_t len, const char *table, const char *leaf);

/* A ruling as the outbox holds it (db_outbox_next). */
struct dd_mq_ruling {
	int64_t seq;		/* its sequence number */
	int64_t match;		/* the table's match id */
	int throw_no;		/* the throw it rules */
	int revision;		/* 1, then 2 after a correction of it, ... */
	const char *kind;	/* "ruling", "correction" or "undo" */
	const char *line;	/* the ruling line (a JSON object) */
};

/* dyeref/TABLE/ruling's payload: {"table","seq","match","throw",
 * "revision","kind","ruling":{the line}}. NULL with errno EINVAL (the
 * line is not a JSON object) or ENOMEM. */
char *dd_mq_ruling_msg(const char *table, const struct dd_mq_ruling *r);

/* dyeref/TABLE/event's payloads for r, into out[0..n): for a ruling (not
 * a correction or undo, which happened before) each of "sink" (BD-P8),
 * "five" (BD-O2), "kill_n_fill" (a duty, with its player) and "win"
 * (BD-W1, with the team), as {"table","match","throw","seq","event",
 * "team","thrower"[,"player"]}. n (0..max), or -EINVAL / -ENOMEM with
 * nothing in out. */
int dd_mq_events(const char *table, const struct dd_mq_ruling *r, char **out, int max);

/* dyeref/TABLE/state's payload from /api/state's JSON: its table, match,
 * game, team_names, players, score, throws, over, winner, next (whose
 * throw) and health, as there. NULL with errno EINVAL (not a JSON
 * object) or ENOMEM. */
char *dd_mq_state_msg(const char *state_json);
/* The fields dd_mq_state_msg keeps, NULL at the end (what a Home
 * Assistant template may name). */
extern const char *const dd_mq_state_keys[];

/* Home Assistant's MQTT discovery (docs/mqtt.md, "Home Assistant"): the
 * retained config messages that announce the table as a device, its
 * sensors (each team's score, whose throw, the match's state, on
 * dyeref/TABLE/state), its connectivity (dyeref/TABLE/status) and one
 * device trigger per event of dyeref/TABLE/event. */
#define DD_MQ_HA_PREFIX_MAX 64	/* a discovery prefix's bytes, with the NUL */
#define DD_MQ_HA_CONFIGS 9	/* config messages, always this many */

struct dd_mq_ha {
	const char *prefix;	/* the discovery prefix ("homeassistant") */
	const char *table;	/* table.id */
	const char *name;	/* table.name; NULL or "": the id */
	const char *version;	/* dyeref's, the device's sw_version */
};

/* One config message: both strings the caller's (dd_mq_ha_free). */
struct dd_mq_ha_config {
	char *topic;
	char *payload;
};

/* Whether p can be a discovery prefix: 1 to DD_MQ_HA_PREFIX_MAX - 1 of
 * A-Z, a-z, 0-9, '_', '-' and '/', no '/' first, last or twice in a row
 * (no wildcard, no empty topic level). */
bool dd_mq_ha_prefix_ok(const char *p);
/* The DD_MQ_HA_CONFIGS config messages into out: 0, or -ENOMEM with
 * nothing in out. */
int dd_mq_ha_configs(const struct dd_mq_ha *ha, struct dd_mq_ha_config out[DD_MQ_HA_CONFIGS]);
/* Frees what dd_mq_ha_configs put in c (NULLs are fine). */
void dd_mq_ha_free(struct dd_mq_ha_config c[DD_MQ_HA_CONFIGS]);

/* The outbox's window: sequence numbers acked+1 .. next-1 are sent and
 * wait for the broker's acknowledgement (PUBACK). */
struct dd_mq_window {
	int64_t acked;			/* every number up to it is acknowledged */
	int64_t next;			/* the next number to send */
	int mid[DD_MQ_WINDOW];		/* number n's message id at n % DD_MQ_WINDOW; 0 none */
	bool done[DD_MQ_WINDOW];	/* ... and whether it is acknowledged */
};

/* An empty window after acked (the number the database kept). */
void dd_mq_window_init(struct dd_mq_window *w, int64_t acked);
/* Whether another message may be sent now. */
bool dd_mq_window_room(const struct dd_mq_window *w);
/* Number w->next went out as message id mid; next moves on. */
void dd_mq_window_sent(struct dd_mq_window *w, int mid);
/* The broker acknowledged mid: true when acked moved (keep it), false
 * for a message id the window does not know (a state or event message,
 * one sent before a reconnect) or one that leaves a gap below it. */
bool dd_mq_window_ack(struct dd_mq_window *w, int mid);
/* After a reconnect: everything not acknowledged is sent again, from
 * acked + 1 (a consumer drops what it already has by table, match,
 * throw and revision). */
void dd_mq_window_restart(struct dd_mq_window *w);

#endif /* DYEREF_DAEMON_MQTT_MSG_H */
