/* The table's MQTT publisher: libmosquitto driven from serve's loop
 * (mosquitto_socket watched by sd-event; loop_read/write/misc called from
 * here), so nothing runs on a thread of its own and every wait is on
 * serve's clock. */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <mosquitto.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/mqtt.h"
#include "daemon/mqtt_msg.h"
#include "daemon/obs_time.h"
#include "db/db.h"

#define SECOND_NS 1000000000LL
/* loop_misc (keepalive pings, the connect's own time limit) once a second. */
#define MISC_NS SECOND_NS
/* Reconnect after 1 s, doubling to 8 s while the broker stays away. */
#define RETRY_MIN_NS SECOND_NS
#define RETRY_MAX_NS (8 * SECOND_NS)
/* The acknowledged number reaches the database at most this often: each
 * write is a sync, and a crash in between only sends a few again. */
#define ACK_KEEP_NS (100 * 1000000LL)
/* A CONNECT not answered in this long is given up and tried again. */
#define CONNECT_LIMIT_NS (10 * SECOND_NS)
/* How often a name being resolved is looked at. */
#define RESOLVE_POLL_NS (50 * 1000000LL)

struct dd_mqtt {
	struct dd_mqtt_cfg cfg;
	char table[40];
	char t_ruling[DD_MQ_TOPIC_MAX], t_state[DD_MQ_TOPIC_MAX];
	char t_event[DD_MQ_TOPIC_MAX], t_status[DD_MQ_TOPIC_MAX];
	sd_event *ev;			/* borrowed */
	struct dd_clock *clock;		/* borrowed */
	struct db *db;			/* borrowed */
	struct mosquitto *mosq;		/* owned */
	sd_event_source *io;		/* owned: the socket, while there is one */
	struct dd_timer *misc;		/* loop_misc, the connect's limit, the retry */
	struct dd_timer *keep;		/* writes w.acked to the database, armed while it moved */
	int64_t kept;			/* the number the database holds */
	bool connecting;		/* a CONNECT is out, no CONNACK yet */
	bool connected;			/* CONNACK 0 */
	int64_t since_ns;		/* when connecting started (clock) */
	int64_t retry_ns;		/* the next retry's wait (clock span) */
	int64_t retry_at;		/* when to connect again, INT64_MAX not waiting */
	bool told_down;			/* "unreachable" said for this outage */
	struct dd_mq_window w;		/* ruling messages in flight */
	int64_t live_from;		/* the newest ruling at start: events only after it */
	int64_t events_done;		/* the newest ruling whose events went out */
	struct dd_mq_ha_config ha[DD_MQ_HA_CONFIGS];	/* owned: discovery configs, with homeassistant */
	char *state;			/* owned: the state payload last built */
	bool state_sent;		/* ... and published since the last connect */
	bool db_failing;		/* the outbox could not be read or kept: said once */
	bool closing;			/* dd_mqtt_free under way: a disconnect is ours */
	bool used;			/* mosq connected once: the next connect makes a new one */
	struct gaicb gai;		/* the broker's name being resolved (getaddrinfo_a) */
	bool resolving;			/* ... under way: the connect waits for it */
};

void dd_mqtt_cfg_defaults(struct dd_mqtt_cfg *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->host, sizeof(c->host), "localhost");
	c->port = 1883;
	c->keepalive = 60;
	snprintf(c->discovery_prefix, sizeof(c->discovery_prefix), "homeassistant");
}

static void lost(struct dd_mqtt *m, const char *why);
static void gone(struct dd_mqtt *m, const char *what, const char *why);
static void pump(struct dd_mqtt *m);
static void on_connect(struct mosquitto *mosq, void *user, int rc);
static void on_disconnect(struct mosquitto *mosq, void *user, int rc);
static void on_publish(struct mosquitto *mosq, void *user, int mid);

static void db_trouble(struct dd_mqtt *m, int rc, const char *err)
{
	if (!rc) {
		m->db_failing = false;
		return;
	}
	if (!m->db_failing)
		dd_log(DD_LOG_WARN, "mqtt: %s (retried with the next change)", err);
	m->db_failing = true;
}

/* The socket's events as libmosquitto needs them now: the source is
 * made for a new socket and dropped when there is none, or when the
 * connection was given up (libmosquitto still holds that socket until the
 * next connect: a late CONNACK on it must not revive it). */
static int on_io(sd_event_source *s, int fd, uint32_t revents, void *user);

static void watch(struct dd_mqtt *m)
{
	int fd = m->mosq && (m->connected || m->connecting) ? mosquitto_socket(m->mosq) : -1;
	uint32_t want = EPOLLIN | (fd >= 0 && mosquitto_want_write(m->mosq) ? EPOLLOUT : 0);

	if (m->io && (fd < 0 || sd_event_source_get_io_fd(m->io) != fd))
		m->io = sd_event_source_disable_unref(m->io);
	if (fd < 0)
		return;
	if (!m->io) {
		if (sd_event_add_io(m->ev, &m->io, fd, want, on_io, m) < 0) {
			m->io = NULL;
			lost(m, "cannot watch the socket");
		}
		return;
	}
	sd_event_source_set_io_events(m->io, want);
}

static void publish_qos(struct dd_mqtt *m, const char *topic, const char *payload, int qos,
			bool retain)
{
	int rc = mosquitto_publish(m->mosq, NULL, topic, (int)strlen(payload), payload, qos, retain);

	if (rc != MOSQ_ERR_SUCCESS)
		dd_log(DD_LOG_DEBUG, "mqtt: %s not published: %s", topic, mosquitto_strerror(rc));
}

static void publish_plain(struct dd_mqtt *m, const char *topic, const char *payload, bool retain)
{
	publish_qos(m, topic, payload, 1, retain);
}

/* Only once the socket has taken what went before: a broker that stops
 * reading gets one state, not one per change queued in memory. QoS 0:
 * none is kept waiting for a PUBACK (a broker slow to answer would pile
 * them up), and every connect sends the newest again. */
static void publish_state(struct dd_mqtt *m)
{
	if (m->connected && m->state && !m->state_sent && !mosquitto_want_write(m->mosq)) {
		publish_qos(m, m->t_state, m->state, 0, true);
		m->state_sent = true;
	}
}

/* The events of a ruling made while serving, once (a resend after a
 * reconnect does not light the bar twice), and only of this table's
 * matches (not of another table's imported into its database). */
static void publish_events(struct dd_mqtt *m, const struct dd_mq_ruling *r, const char *table)
{
	char *ev[DD_MQ_EVENTS_MAX];
	int n;

	if (r->seq <= m->live_from || r->seq <= m->events_done || strcmp(table, m->table))
		return;
	m->events_done = r->seq;
	n = dd_mq_events(table, r, ev, DD_MQ_EVENTS_MAX);
	for (int i = 0; i < n; i++) {
		publish_plain(m, m->t_event, ev[i], false);
		free(ev[i]);
	}
}

/* Sends the outbox from the window's next number while the window has room. */
static void pump(struct dd_mqtt *m)
{
	char err[512];

	while (m->connected && dd_mq_window_room(&m->w)) {
		struct db_outbox_msg om;
		struct dd_mq_ruling r;
		const char *table;
		char *msg;
		int mid = 0, rc = db_outbox_next(m->db, m->w.next - 1, &om, err, sizeof(err));

		if (rc == -ENOENT)
			break;
		db_trouble(m, rc, err);
		if (rc)
			break;
		/* The numbers run without a gap; should one appear (a file
		 * edited by hand), move past it once nothing is in flight. */
		if (om.seq != m->w.next) {
			bool idle = m->w.acked + 1 == m->w.next;

			if (idle)
				dd_mq_window_init(&m->w, om.seq - 1);
			db_outbox_msg_free(&om);
			if (!idle)
				break;
			continue;
		}
		r = (struct dd_mq_ruling){ .seq = om.seq, .match = om.match, .throw_no = om.throw_no,
					   .revision = om.revision, .kind = om.kind, .line = om.line };
		/* Under its match's own table id: a match imported from another
		 * table (dyeref import) is not this table's; "" (a match from
		 * before table ids) is. */
		table = om.table_id[0] ? om.table_id : m->table;
		msg = dd_mq_ruling_msg(table, &r);
		if (!msg) {
			/* A line that is not JSON (never written so): its number
			 * still goes out, so that none is missing. */
			r.line = "{}";
			msg = dd_mq_ruling_msg(table, &r);
		}
		rc = msg ? mosquitto_publish(m->mosq, &mid, m->t_ruling, (int)strlen(msg), msg, 1, false)
			 : MOSQ_ERR_NOMEM;
		free(msg);
		if (rc != MOSQ_ERR_SUCCESS) {
			db_outbox_msg_free(&om);
			if (rc != MOSQ_ERR_NOMEM)
				lost(m, mosquitto_strerror(rc));
			break;
		}
		dd_mq_window_sent(&m->w, mid);
		publish_events(m, &r, table);
		db_outbox_msg_free(&om);
	}
	watch(m);
}

static void on_connect(struct mosquitto *mosq, void *user, int rc)
{
	struct dd_mqtt *m = user;

	(void)mosq;
	if (!m->connecting)
		return;		/* a connection already given up */
	m->connecting = false;
	if (rc) {
		gone(m, "refused by", mosquitto_connack_string(rc));
		return;
	}
	m->connected = true;
	m->retry_at = INT64_MAX;	/* the next loss waits its backoff again */
	m->told_down = false;
	m->retry_ns = dd_clock_span(m->clock, RETRY_MIN_NS);
	dd_log(DD_LOG_INFO, "mqtt: connected to %s:%u as table %s; publishing from ruling %" PRId64,
	       m->cfg.host, m->cfg.port, m->table, m->w.acked + 1);
	/* Retained, so that a Home Assistant started later finds them; QoS 0,
	 * so that none waits for a PUBACK: every connect sends them again. */
	for (int i = 0; m->cfg.homeassistant && i < DD_MQ_HA_CONFIGS; i++)
		publish_qos(m, m->ha[i].topic, m->ha[i].payload, 0, true);
	publish_plain(m, m->t_status, DD_MQ_ONLINE, true);
	m->state_sent = false;	/* a new connection: the state goes out again */
	publish_state(m);	/* now or once the socket took the status (on_io) */
	dd_mq_window_restart(&m->w);
	pump(m);
}

static void keep_acked(struct dd_mqtt *m)
{
	char err[512];
	int rc;

	if (m->w.acked == m->kept)
		return;
	rc = db_mqtt_acked_set(m->db, m->w.acked, err, sizeof(err));
	db_trouble(m, rc, err);
	if (!rc)
		m->kept = m->w.acked;
}

static void on_keep(void *user)
{
	keep_acked(user);
}

static void on_publish(struct mosquitto *mosq, void *user, int mid)
{
	struct dd_mqtt *m = user;

	(void)mosq;
	if (!dd_mq_window_ack(&m->w, mid))
		return;
	if (dd_timer_due(m->keep) == INT64_MAX)
		dd_timer_arm(m->keep, dd_time_shifted(dd_clock_now(m->clock),
						      dd_clock_span(m->clock, ACK_KEEP_NS)));
	pump(m);
}

static void on_disconnect(struct mosquitto *mosq, void *user, int rc)
{
	struct dd_mqtt *m = user;

	(void)mosq;
	if (!m->closing)
		lost(m, rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
}

static void arm(struct dd_mqtt *m)
{
	int64_t now = dd_clock_now(m->clock);
	int64_t misc = dd_time_shifted(now, dd_clock_span(m->clock, m->resolving ? RESOLVE_POLL_NS
										   : MISC_NS));

	dd_timer_arm(m->misc, m->retry_at < misc ? m->retry_at : misc);
}

/* Not connected any more (or never): the socket is forgotten and a retry
 * armed. what: how the broker is gone ("refused by"; NULL: lost, or
 * cannot reach), why: the reason, said once an outage. */
static void gone(struct dd_mqtt *m, const char *what, const char *why)
{
	bool was = m->connected;

	m->connected = false;
	m->connecting = false;
	if (m->io)
		m->io = sd_event_source_disable_unref(m->io);
	if (m->retry_at == INT64_MAX) {
		m->retry_at = dd_time_shifted(dd_clock_now(m->clock), m->retry_ns);
		m->retry_ns = m->retry_ns * 2 > dd_clock_span(m->clock, RETRY_MAX_NS)
			      ? dd_clock_span(m->clock, RETRY_MAX_NS) : m->retry_ns * 2;
	}
	if (was || !m->told_down)
		dd_log(DD_LOG_WARN, "mqtt: %s %s:%u%s%s: retrying (rulings wait in the database)",
		       what ? what : was ? "lost" : "cannot reach", m->cfg.host, m->cfg.port,
		       why ? ": " : "", why ? why : "");
	m->told_down = true;
	arm(m);
}

static void lost(struct dd_mqtt *m, const char *why)
{
	gone(m, NULL, why);
}

/* A new libmosquitto client, set up from the configuration: 0, or
 * -errno with a message. */
static int client_new(struct dd_mqtt *m, char *err, size_t errlen)
{
	char id[64];
	int rc;

	snprintf(id, sizeof(id), "dyeref-%s", m->table);
	/* A clean session: what the broker kept of the last one is resent
	 * from the database instead. */
	m->mosq = mosquitto_new(id, true, m);
	if (!m->mosq) {
		rc = -errno;
		snprintf(err, errlen, "mqtt: %s", strerror(errno));
		return rc;
	}
	mosquitto_connect_callback_set(m->mosq, on_connect);
	mosquitto_disconnect_callback_set(m->mosq, on_disconnect);
	mosquitto_publish_callback_set(m->mosq, on_publish);
	/* No limit of libmosquitto's own (20): the window bounds the rulings,
	 * and the few others go out at once instead of waiting behind them. */
	rc = mosquitto_max_inflight_messages_set(m->mosq, 0);
	if (rc == MOSQ_ERR_SUCCESS)
		rc = mosquitto_will_set(m->mosq, m->t_status, (int)strlen(DD_MQ_OFFLINE),
					DD_MQ_OFFLINE, 1, true);
	if (rc == MOSQ_ERR_SUCCESS && m->cfg.username[0])
		rc = mosquitto_username_pw_set(m->mosq, m->cfg.username,
					       m->cfg.password[0] ? m->cfg.password : NULL);
	if (rc == MOSQ_ERR_SUCCESS && m->cfg.cafile[0])
		rc = mosquitto_tls_set(m->mosq, m->cfg.cafile, NULL, NULL, NULL, NULL);
	if (rc != MOSQ_ERR_SUCCESS) {
		snprintf(err, errlen, "mqtt: %s", mosquitto_strerror(rc));
		mosquitto_destroy(m->mosq);
		m->mosq = NULL;
		return rc == MOSQ_ERR_NOMEM ? -ENOMEM : -EINVAL;
	}
	return 0;
}

static void connect_host(struct dd_mqtt *m)
{
	char err[256];
	int rc;

	/* A client of its own for each connection: libmosquitto keeps the
	 * QoS 1 messages not acknowledged and sends them again after the next
	 * CONNACK, clean session or not, so the old one's events would go out
	 * twice; the rulings are sent again from the database anyway. */
	if (m->used) {
		mosquitto_destroy(m->mosq);
		m->mosq = NULL;
		if (client_new(m, err, sizeof(err))) {
			lost(m, err);
			return;
		}
	}
	m->used = true;
	m->since_ns = dd_clock_now(m->clock);
	m->connecting = true;
	rc = mosquitto_connect_async(m->mosq, m->cfg.host, (int)m->cfg.port, m->cfg.keepalive);
	if (rc != MOSQ_ERR_SUCCESS) {
		lost(m, rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
		return;
	}
	watch(m);
	arm(m);
}

/* A name is resolved off the loop first (glibc's getaddrinfo_a, looked
 * at every RESOLVE_POLL_NS): libmosquitto's own lookup blocks, and a dead
 * DNS server would hold the loop past the watchdog. Once the name
 * resolves, libmosquitto is given the name itself (it tries every
 * address, TLS checks the certificate against the name); its lookup
 * still blocks, but only after one that just answered (a caching
 * resolver's hit, or one round trip). */
static void connect_now(struct dd_mqtt *m)
{
	static const struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct gaicb *list[1] = { &m->gai };
	unsigned char addr[sizeof(struct in6_addr)];
	int rc;

	m->retry_at = INT64_MAX;
	if (m->io)
		m->io = sd_event_source_disable_unref(m->io);
	if (inet_pton(AF_INET, m->cfg.host, addr) == 1 || inet_pton(AF_INET6, m->cfg.host, addr) == 1) {
		connect_host(m);
		return;
	}
	memset(&m->gai, 0, sizeof(m->gai));
	m->gai.ar_name = m->cfg.host;
	m->gai.ar_request = &hints;
	rc = getaddrinfo_a(GAI_NOWAIT, list, 1, NULL);
	if (rc) {
		lost(m, gai_strerror(rc));
		return;
	}
	m->resolving = true;
	arm(m);
}

/* The name's lookup, once done: connect, or try again later. */
static void resolved(struct dd_mqtt *m)
{
	int rc = gai_error(&m->gai);

	if (rc == EAI_INPROGRESS) {
		arm(m);
		return;
	}
	m->resolving = false;
	if (m->gai.ar_result)
		freeaddrinfo(m->gai.ar_result);
	m->gai.ar_result = NULL;
	if (rc) {
		lost(m, rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		return;
	}
	connect_host(m);
}

static int on_io(sd_event_source *s, int fd, uint32_t revents, void *user)
{
	struct dd_mqtt *m = user;
	int rc = MOSQ_ERR_SUCCESS;

	(void)s;
	(void)fd;
	if (revents & (EPOLLIN | EPOLLERR | EPOLLHUP))
		rc = mosquitto_loop_read(m->mosq, 1);
	if (rc == MOSQ_ERR_SUCCESS && (revents & EPOLLOUT))
		rc = mosquitto_loop_write(m->mosq, 1);
	if (rc != MOSQ_ERR_SUCCESS && (m->connected || m->connecting))
		lost(m, rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
	else if (m->connected || m->connecting) {
		publish_state(m);	/* one held back while the socket was full */
		watch(m);
	}
	return 0;
}

static void on_misc(void *user)
{
	struct dd_mqtt *m = user;
	int64_t now = dd_clock_now(m->clock);

	if (m->resolving) {
		resolved(m);
		return;
	}
	if (!m->connected && !m->connecting && now >= m->retry_at) {
		connect_now(m);
		return;
	}
	if (m->connecting && dd_time_span(m->since_ns, now) > dd_clock_span(m->clock, CONNECT_LIMIT_NS)) {
		lost(m, "no answer to CONNECT");
		return;
	}
	if (m->connected || m->connecting) {
		int rc = mosquitto_loop_misc(m->mosq);

		if (rc != MOSQ_ERR_SUCCESS || mosquitto_socket(m->mosq) < 0) {
			lost(m, rc != MOSQ_ERR_SUCCESS ? mosquitto_strerror(rc) : "keepalive");
			return;
		}
		watch(m);
	}
	arm(m);
}

struct dd_mqtt *dd_mqtt_new(const struct dd_mqtt_cfg *cfg, const char *table, const char *name,
			    sd_event *ev, struct dd_clock *clock, struct db *db, char *err,
			    size_t errlen)
{
	struct dd_mqtt *m = calloc(1, sizeof(*m));
	int rc;

	if (!m) {
		snprintf(err, errlen, "mqtt: out of memory");
		return NULL;
	}
	mosquitto_lib_init();
	m->cfg = *cfg;
	snprintf(m->table, sizeof(m->table), "%s", table);
	m->ev = ev;
	m->clock = clock;
	m->db = db;
	m->retry_at = INT64_MAX;
	m->retry_ns = dd_clock_span(clock, RETRY_MIN_NS);
	if (dd_mq_topic(m->t_ruling, sizeof(m->t_ruling), table, "ruling") ||
	    dd_mq_topic(m->t_state, sizeof(m->t_state), table, "state") ||
	    dd_mq_topic(m->t_event, sizeof(m->t_event), table, "event") ||
	    dd_mq_topic(m->t_status, sizeof(m->t_status), table, "status")) {
		snprintf(err, errlen, "mqtt: table id '%s' too long for a topic", table);
		errno = EINVAL;
		goto free_m;
	}
	if (cfg->homeassistant &&
	    dd_mq_ha_configs(&(struct dd_mq_ha){ .prefix = cfg->discovery_prefix, .table = table,
						 .name = name, .version = dd_version() }, m->ha)) {
		snprintf(err, errlen, "mqtt: out of memory");
		errno = ENOMEM;
		goto free_m;
	}
	rc = db_mqtt_acked_get(db, &m->w.acked, err, errlen);
	if (rc) {
		errno = -rc;
		goto free_ha;
	}
	dd_mq_window_init(&m->w, m->w.acked);
	m->kept = m->w.acked;
	/* The newest ruling now: what comes after is live (its events go out). */
	rc = db_outbox_last(db, &m->live_from, err, errlen);
	if (rc) {
		errno = -rc;
		goto free_ha;
	}
	rc = client_new(m, err, errlen);
	if (rc) {
		errno = -rc;
		goto free_ha;
	}
	m->misc = dd_timer_new(clock, on_misc, m);
	m->keep = dd_timer_new(clock, on_keep, m);
	if (!m->misc || !m->keep) {
		snprintf(err, errlen, "mqtt: %s", strerror(errno));
		goto free_mosq;
	}
	/* The client id is dyeref-TABLE: a second table left at the default
	 * takes the same one, and the broker drops each for the other. */
	if (!strcmp(table, "table"))
		dd_log(DD_LOG_WARN, "mqtt: table.id is the default 'table': give each table its own "
		       "[table] id, or two tables take turns on the broker as dyeref-table");
	connect_now(m);
	return m;

free_mosq:
	dd_timer_free(m->keep);
	dd_timer_free(m->misc);
	mosquitto_destroy(m->mosq);
free_ha:
	dd_mq_ha_free(m->ha);
free_m:
	free(m);
	mosquitto_lib_cleanup();
	return NULL;
}

void dd_mqtt_changed(struct dd_mqtt *m, const char *state_json)
{
	char *st;

	if (!m)
		return;
	st = state_json ? dd_mq_state_msg(state_json) : NULL;
	if (st && (!m->state || strcmp(st, m->state))) {
		free(m->state);
		m->state = st;
		m->state_sent = false;
		st = NULL;
	}
	free(st);
	publish_state(m);
	pump(m);
}

void dd_mqtt_free(struct dd_mqtt *m)
{
	if (!m)
		return;
	m->closing = true;
	if (m->connected) {
		/* A clean disconnect sends no will: say it ourselves. */
		publish_plain(m, m->t_status, DD_MQ_OFFLINE, true);
		mosquitto_disconnect(m->mosq);
		for (int i = 0; i < 4 && mosquitto_want_write(m->mosq); i++)
			if (mosquitto_loop_write(m->mosq, 1) != MOSQ_ERR_SUCCESS)
				break;
	}
	m->io = sd_event_source_disable_unref(m->io);
	if (m->resolving) {
		/* The lookup writes into m: it must be over before m goes. */
		const struct gaicb *list[1] = { &m->gai };

		if (gai_cancel(&m->gai) != EAI_CANCELED)
			while (gai_error(&m->gai) == EAI_INPROGRESS)
				gai_suspend(list, 1, NULL);
		if (m->gai.ar_result)
			freeaddrinfo(m->gai.ar_result);
	}
	keep_acked(m);
	dd_timer_free(m->keep);
	dd_timer_free(m->misc);
	mosquitto_destroy(m->mosq);
	free(m->state);
	dd_mq_ha_free(m->ha);
	free(m);
	mosquitto_lib_cleanup();
}
