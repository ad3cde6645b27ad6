/* The table's MQTT publisher (docs/daemon.md, "MQTT"): libmosquitto on
 * serve's sd-event loop (its socket watched there, its keepalive and the
 * reconnect timed on serve's clock), publishing the rulings from the
 * database's outbox (db_outbox_next) with QoS 1, the state (retained),
 * the events and a status with a last will. The messages themselves are
 * daemon/mqtt_msg.c's. Every function runs on the loop. */
#ifndef DYEREF_DAEMON_MQTT_H
#define DYEREF_DAEMON_MQTT_H

#include <stdbool.h>
#include <stddef.h>
#include <systemd/sd-event.h>

struct db;
struct dd_clock;

/* [mqtt]: with no key of it in the config, enabled is false and nothing
 * of MQTT runs. */
struct dd_mqtt_cfg {
	bool enabled;			/* the config has an [mqtt] key */
	char host[256];			/* host: name or address (localhost) */
	unsigned port;			/* port (1883) */
	char username[128];		/* username, "" none */
	char password[128];		/* password, "" none */
	char cafile[480];		/* cafile: TLS with this CA, "" plain TCP */
	int keepalive;			/* keepalive, seconds (60) */
};

void dd_mqtt_cfg_defaults(struct dd_mqtt_cfg *c);

struct dd_mqtt;

/* Starts connecting to cfg's broker as table (its id), on ev and clock,
 * publishing from db's outbox: all three borrowed, and must outlive it.
 * A broker that is down is not an error: it retries until one answers.
 * NULL with errno and a message (ENOMEM, or libmosquitto refusing the
 * settings). Free with dd_mqtt_free(). */
struct dd_mqtt *dd_mqtt_new(const struct dd_mqtt_cfg *cfg, const char *table, sd_event *ev,
			    struct dd_clock *clock, struct db *db, char *err, size_t errlen);
/* Something was committed: publishes the rulings not yet sent and, when
 * state_json (the rendered /api/state; NULL: unchanged) differs from the
 * last one published, the state. */
void dd_mqtt_changed(struct dd_mqtt *m, const char *state_json);
/* Says "offline" when connected, disconnects, frees. NULL is fine. */
void dd_mqtt_free(struct dd_mqtt *m);

#endif /* DYEREF_DAEMON_MQTT_H */
