/* Configuration of `dyeref serve`: [web], [db], [house], [fusion], [sim],
 * [table] id and name, [mqtt]. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/fusion.h"
#include "daemon/referee.h"
#include "daemon/serve.h"
#include "db/db.h"
#include "sim/sim.h"
#include "web/web.h"

/* msg as one more line of buf (size bytes), cut where it is full. */
static void add_line(char *buf, size_t size, const char *msg)
{
	size_t n = strlen(buf);

	snprintf(buf + n, size - n, "%s\n", msg);
}

/* Collects every problem, not just the first: --check-config lists them all. */
static void problem(struct dd_serve_config *sc, const char *msg)
{
	sc->n_problems++;
	add_line(sc->problems, sizeof(sc->problems), msg);
}

static void get_int(struct dd_serve_config *sc, struct dd_config *cfg, const char *sec,
		    const char *key, long min, long max, long *out)
{
	char err[256];

	if (dd_config_get_int(cfg, sec, key, min, max, out, err, sizeof(err)) == -EINVAL)
		problem(sc, err);
}

static void get_double(struct dd_serve_config *sc, struct dd_config *cfg, const char *sec,
		       const char *key, double min, double max, double *out)
{
	char err[256];

	if (dd_config_get_double(cfg, sec, key, min, max, out, err, sizeof(err)) == -EINVAL)
		problem(sc, err);
}

static void get_bool(struct dd_serve_config *sc, struct dd_config *cfg, const char *sec,
		     const char *key, bool *out)
{
	char err[256];
	int b, rc = dd_config_get_bool(cfg, sec, key, &b, err, sizeof(err));

	if (rc == 0)
		*out = b;
	else if (rc == -EINVAL)
		problem(sc, err);
}

/* [house]: each key over the defaults already in h; problems go to sc. */
static void read_house(struct dd_config *cfg, struct bd_house *h, struct dd_serve_config *sc)
{
	long target = h->target_points, win_by = h->win_by, kill = h->kill_every;
	const char *v;
	int line = 0;
	char msg[256];

	get_int(sc, cfg, "house", "target_points", 1, 99, &target);
	get_int(sc, cfg, "house", "win_by", 1, 10, &win_by);
	get_int(sc, cfg, "house", "kill_every", 0, 99, &kill);
	get_double(sc, cfg, "house", "min_toss_height_m", 0, 20, &h->min_toss_height_m);
	get_double(sc, cfg, "house", "review_below", 0, 1, &h->review_below);
	get_bool(sc, cfg, "house", "illegal_catch_counts_as_floor", &h->illegal_catch_counts_as_floor);
	get_bool(sc, cfg, "house", "fifa_cannot_end_game", &h->fifa_cannot_end_game);
	get_bool(sc, cfg, "house", "popout_is_sink", &h->popout_is_sink);
	get_bool(sc, cfg, "house", "mine_voids_points", &h->mine_voids_points);
	h->target_points = (int)target;
	h->win_by = (int)win_by;
	h->kill_every = (int)kill;
	v = dd_config_get(cfg, "house", "low_call", &line);
	if (v && !strcmp(v, "auto"))
		h->low_call = BD_LOW_AUTO;
	else if (v && !strcmp(v, "manual"))
		h->low_call = BD_LOW_MANUAL;
	else if (v) {
		snprintf(msg, sizeof(msg), "%s:%d: house.low_call: expected manual or auto, got '%.40s'",
			 cfg->path, line, v);
		problem(sc, msg);
	}
}

int dd_serve_config_first_problem(const struct dd_serve_config *sc, char *err, size_t errlen)
{
	const char *nl = strchr(sc->problems, '\n');

	if (!sc->n_problems)
		return 0;
	snprintf(err, errlen, "%.*s", nl ? (int)(nl - sc->problems) : (int)strlen(sc->problems),
		 sc->problems);
	return -EINVAL;
}

void dd_serve_config_defaults(struct dd_serve_config *sc)
{
	memset(sc, 0, sizeof(*sc));
	snprintf(sc->bind, sizeof(sc->bind), "127.0.0.1");
	sc->port = 8080;
	snprintf(sc->db_path, sizeof(sc->db_path), "/var/lib/dyeref/dyeref.db");
	bd_house_defaults(&sc->ref.house);
	sc->ref.review = DD_REVIEW_COUNT;
	dd_fusion_cfg_defaults(&sc->fusion);
	sc->sim_pause_s = 30;
	sc->sim_speed = 1;
	sc->challenge_s = 15;
	snprintf(sc->ref.table_id, sizeof(sc->ref.table_id), "table");
	dd_mqtt_cfg_defaults(&sc->mqtt);
}

/* [mqtt] key as text into out (len bytes): 1 to len-1 bytes, none of them
 * a control character (or, with no_space, a space); a problem otherwise. */
static void get_text(struct dd_serve_config *sc, struct dd_config *cfg, const char *key,
		     bool no_space, char *out, size_t len)
{
	int line = 0;
	const char *v = dd_config_get(cfg, "mqtt", key, &line);
	bool ok;
	char msg[256];

	if (!v)
		return;
	ok = *v && strlen(v) < len;
	for (const unsigned char *c = (const unsigned char *)v; ok && *c; c++)
		ok = *c >= 0x20 && *c != 0x7f && !(no_space && *c == ' ');
	if (!ok) {
		snprintf(msg, sizeof(msg), "%s:%d: mqtt.%s: expected 1 to %zu bytes without control "
			 "characters%s", cfg->path, line, key, len - 1, no_space ? " or spaces" : "");
		problem(sc, msg);
		return;
	}
	snprintf(out, len, "%s", v);
}

/* [mqtt]: any key of it turns publishing on (daemon/mqtt.h). */
static void read_mqtt(struct dd_config *cfg, struct dd_serve_config *sc)
{
	struct dd_mqtt_cfg *m = &sc->mqtt;
	long port = m->port, keepalive = m->keepalive;
	int line = 0;
	char msg[600];

	for (size_t i = 0; i < cfg->n && !m->enabled; i++)
		m->enabled = !strcmp(cfg->entries[i].section, "mqtt");
	if (!m->enabled)
		return;
	get_text(sc, cfg, "host", true, m->host, sizeof(m->host));
	get_int(sc, cfg, "mqtt", "port", 1, 65535, &port);
	get_int(sc, cfg, "mqtt", "keepalive", 5, 3600, &keepalive);
	m->port = (unsigned)port;
	m->keepalive = (int)keepalive;
	get_text(sc, cfg, "username", false, m->username, sizeof(m->username));
	get_text(sc, cfg, "password", false, m->password, sizeof(m->password));
	if (m->password[0] && !m->username[0] && dd_config_get(cfg, "mqtt", "password", &line)) {
		snprintf(msg, sizeof(msg), "%s:%d: mqtt.password: without mqtt.username", cfg->path, line);
		problem(sc, msg);
	}
	get_text(sc, cfg, "cafile", false, m->cafile, sizeof(m->cafile));
	/* TLS fails only at the first connect otherwise, in the journal. */
	if (m->cafile[0] && access(m->cafile, R_OK)) {
		dd_config_get(cfg, "mqtt", "cafile", &line);
		snprintf(msg, sizeof(msg), "%s:%d: mqtt.cafile: %.400s: %s", cfg->path, line, m->cafile,
			 strerror(errno));
		problem(sc, msg);
	}
}

/* [table] id and name: the table's identity in every match header, API
 * answer and MQTT topic, so only what a topic and a file name can carry. */
static void read_table(struct dd_config *cfg, struct dd_serve_config *sc)
{
	int line = 0;
	const char *v = dd_config_get(cfg, "table", "id", &line);
	char msg[256];

	if (v && !mlog_table_id_ok(v)) {
		snprintf(msg, sizeof(msg), "%s:%d: table.id: expected 1 to %d of a-z, 0-9 and '-', got '%.40s'",
			 cfg->path, line, MLOG_TABLE_ID_MAX - 1, v);
		problem(sc, msg);
	} else if (v) {
		snprintf(sc->ref.table_id, sizeof(sc->ref.table_id), "%s", v);
	}
	v = dd_config_get(cfg, "table", "name", &line);
	if (!v)
		return;
	for (const unsigned char *c = (const unsigned char *)v; *c; ) {
		size_t k = db_utf8_seq(c, strlen((const char *)c));

		if (!k || *c < 0x20 || *c == 0x7f) {
			snprintf(msg, sizeof(msg), "%s:%d: table.name: %s", cfg->path, line,
				 k ? "control character" : "not UTF-8");
			problem(sc, msg);
			return;
		}
		c += k;
	}
	if (!*v || strlen(v) >= sizeof(sc->ref.table_name)) {
		snprintf(msg, sizeof(msg), "%s:%d: table.name: expected 1 to %zu bytes", cfg->path, line,
			 sizeof(sc->ref.table_name) - 1);
		problem(sc, msg);
		return;
	}
	snprintf(sc->ref.table_name, sizeof(sc->ref.table_name), "%s", v);
}

/* [web] key as one IPv4 or IPv6 literal into out (outlen bytes); a
 * problem "file:line: web.key: expected an IP address" otherwise. */
static void get_ip(struct dd_serve_config *sc, struct dd_config *cfg, const char *key,
		   char *out, size_t outlen)
{
	unsigned char addr[sizeof(struct in6_addr)];
	int line = 0;
	const char *v = dd_config_get(cfg, "web", key, &line);
	char msg[256];

	if (!v)
		return;
	if (strlen(v) >= outlen || (inet_pton(AF_INET, v, addr) != 1 && inet_pton(AF_INET6, v, addr) != 1)) {
		snprintf(msg, sizeof(msg), "%s:%d: web.%s: expected an IP address, got '%.60s'",
			 cfg->path, line, key, v);
		problem(sc, msg);
		return;
	}
	snprintf(out, outlen, "%s", v);
}

int dd_serve_config_read(struct dd_config *cfg, struct dd_serve_config *sc)
{
	const char *v;
	long port = sc->port, ms, n;
	int line = 0;
	char msg[512];

	/* What the server will bind, and the one proxy it trusts: refused
	 * here, not at start-up. */
	get_ip(sc, cfg, "bind", sc->bind, sizeof(sc->bind));
	get_ip(sc, cfg, "trusted_proxy", sc->trusted_proxy, sizeof(sc->trusted_proxy));
	get_int(sc, cfg, "web", "port", 0, 65535, &port);
	sc->port = (unsigned)port;
	v = dd_config_get(cfg, "web", "hosts", &line);
	if (v) {
		char names[WEB_HOSTS_MAX][WEB_HOST_MAX], why[128];
		size_t n;

		if (strlen(v) >= sizeof(sc->hosts))
			snprintf(why, sizeof(why), "longer than %zu bytes", sizeof(sc->hosts) - 1);
		if (strlen(v) >= sizeof(sc->hosts) ||
		    web_parse_hosts(v, names, WEB_HOSTS_MAX, &n, why, sizeof(why))) {
			snprintf(msg, sizeof(msg), "%s:%d: web.hosts: %s", cfg->path, line, why);
			problem(sc, msg);
		} else {
			snprintf(sc->hosts, sizeof(sc->hosts), "%s", v);
		}
	}
	v = dd_config_get(cfg, "web", "pin", &line);
	if (v) {
		size_t len = strlen(v);
		bool digits = len > 0;

		for (size_t i = 0; i < len; i++)
			digits &= v[i] >= '0' && v[i] <= '9';
		if (len < 4 || len >= sizeof(sc->pin) || !digits) {
			snprintf(msg, sizeof(msg), "%s:%d: web.pin: expected 4 to %zu digits",
				 cfg->path, line, sizeof(sc->pin) - 1);
			problem(sc, msg);
		} else {
			snprintf(sc->pin, sizeof(sc->pin), "%s", v);
		}
		/* Allowed, as installs have them; but 20 guesses a minute find
		 * a 4-digit PIN in an evening (docs/daemon.md, PIN guessing). */
		if (len >= 4 && len < 6 && digits) {
			snprintf(msg, sizeof(msg), "%s:%d: web.pin: fewer than 6 digits, which players "
				 "on the same network can guess in an evening: choose 6 or more",
				 cfg->path, line);
			add_line(sc->warnings, sizeof(sc->warnings), msg);
		}
	}
	v = dd_config_get(cfg, "db", "path", &line);
	if (v) {
		if (!*v || strlen(v) >= sizeof(sc->db_path) - 8) {
			snprintf(msg, sizeof(msg), "%s:%d: db.path: expected a file path", cfg->path, line);
			problem(sc, msg);
		} else {
			snprintf(sc->db_path, sizeof(sc->db_path), "%s", v);
		}
	}
	read_house(cfg, &sc->ref.house, sc);
	read_table(cfg, sc);
	read_mqtt(cfg, sc);
	v = dd_config_get(cfg, "fusion", "review", &line);
	if (v && !strcmp(v, "wait"))
		sc->ref.review = DD_REVIEW_WAIT;
	else if (v && !strcmp(v, "count"))
		sc->ref.review = DD_REVIEW_COUNT;
	else if (v) {
		snprintf(msg, sizeof(msg), "%s:%d: fusion.review: expected wait or count, got '%.40s'",
			 cfg->path, line, v);
		problem(sc, msg);
	}
	ms = sc->fusion.settle_ns / 1000000;
	get_int(sc, cfg, "fusion", "settle_ms", 0, 5000, &ms);
	sc->fusion.settle_ns = (int64_t)ms * 1000000;	/* long is 32 bits on armhf */
	ms = sc->fusion.timeout_ns / 1000000;
	get_int(sc, cfg, "fusion", "timeout_ms", 500, 60000, &ms);
	sc->fusion.timeout_ns = (int64_t)ms * 1000000;	/* long is 32 bits on armhf */
	ms = sc->fusion.pair_window_ns / 1000000;
	get_int(sc, cfg, "fusion", "pair_window_ms", 1, 1000, &ms);
	sc->fusion.pair_window_ns = (int64_t)ms * 1000000;	/* long is 32 bits on armhf */
	/* Up to the simulator's own guard against an endless deuce. */
	n = sc->sim_max_throws;
	get_int(sc, cfg, "sim", "max_throws", 0, SIM_MAX_THROWS, &n);
	sc->sim_max_throws = (int)n;
	/* Seconds a person waits (real time, whatever the speed); at most an
	 * hour, as a pause longer than that is a demo that stopped. */
	get_double(sc, cfg, "sim", "pause_s", 0, 3600, &sc->sim_pause_s);
	get_double(sc, cfg, "web", "challenge_s", 0.1, 600, &sc->challenge_s);
	/* Up to a thousand: the table's time then still runs far slower than
	 * the machine (a throw's observations are a few ms apart at most). */
	get_double(sc, cfg, "sim", "speed", 0.01, 1000, &sc->sim_speed);
	return sc->n_problems ? -EINVAL : 0;
}

void dd_serve_config_problem(struct dd_serve_config *sc, const char *msg)
{
	problem(sc, msg);
}
