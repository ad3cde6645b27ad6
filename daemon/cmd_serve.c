/* dyeref serve: the referee daemon. One sd-event loop carries the HTTP
 * server, the sensors' and camera's fds, the watchdog and the signals; every
 * timer (fusion's, the web server's, the feeders') is on serve's one clock
 * (daemon/clock.h); a throw goes observations -> fusion -> judge -> db -> SSE. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>
#include <time.h>

#include "daemon/cliio.h"
#include "daemon/cliopt.h"
#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/feeds.h"
#include "daemon/fusion.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "daemon/match_step.h"
#include "daemon/referee.h"
#include "daemon/obs_time.h"
#include "daemon/history.h"
#include "daemon/serve.h"
#include "db/db.h"
#include "web/web.h"

/* The SSE heartbeat: an `event: ping` every 2 s (real seconds, timed on the
 * daemon's clock), so a wall that hears nothing for 5 s knows it lost the
 * daemon; it also keeps proxies from timing the stream out. */
#define KEEPALIVE_NS (2 * 1000000000LL)

/* ---- The throw --------------------------------------------------------- */

static void rearm_timers(struct serve *sv);
static void judge_fused(void *user, const struct dd_fused *fx, int64_t at_ns);

/* Whether the game under way is won (BD-W1), so that what the table and
 * camera sense (the die picked up, a celebration) stays out of fusion: it
 * would start a throw shown in flight and refused out of the official's
 * sight or, after an undo, joined to its next throw (the match step
 * leaves it out). Says so in the log once a match. */
static bool won_quiet(void *user)
{
	struct serve *sv = user;
	int64_t id = dd_referee_current_id(sv->ref);

	if (!dd_referee_over(sv->ref))
		return false;
	if (sv->won_told != id) {
		sv->won_told = id;
		dd_log(DD_LOG_INFO, "fusion: match %" PRId64 " is won (BD-W1): what the sensors and "
		       "camera report is left out until an undo or a correction reopens it", id);
	}
	return true;
}

/* Serve's match step: the referee judges, fx the caller's room. */
static struct dd_step serve_step(struct serve *sv, struct dd_fused *fx)
{
	return (struct dd_step){ .fusion = &sv->fusion, .fx = fx, .judge = judge_fused,
				 .won = won_quiet, .log = dd_log, .user = sv };
}

void dd_serve_feed(struct serve *sv, const struct dd_obs *o)
{
	struct dd_fused *fx = malloc(sizeof(*fx));
	struct dd_step st;

	if (!fx)
		return;
	dd_serve_invalidate(sv);
	st = serve_step(sv, fx);
	dd_step_obs(&st, o);
	free(fx);
	rearm_timers(sv);
}

void dd_serve_on_obs(void *user, const struct dd_obs *o)
{
	dd_serve_feed(user, o);
}

/* A new Beer Die match starts with nothing of the last one in fusion: no
 * throw under way (the feeder's, or an input's, after an official ended
 * the match), no button's call held, no close time; its settings stay. */
void dd_serve_fusion_restart(struct serve *sv)
{
	struct dd_fusion_cfg fc = sv->fusion.cfg;

	dd_fusion_init(&sv->fusion, &fc);
}

/* The match step's judge: at_ns is fusion's time. The processing is real
 * work, timed on CLOCK_MONOTONIC from here (the throw assembled); the
 * edge's wait is on the daemon's clock, given in real time. */
static void judge_fused(void *user, const struct dd_fused *fx, int64_t at_ns)
{
	struct serve *sv = user;
	int64_t settled_ns = dd_mono_ns();
	char err[256] = "";
	struct store_mark before = dd_serve_store_mark(sv);
	int rc;
	int64_t pushed, last;

	(void)at_ns;
	if (!dd_referee_in_match(sv->ref)) {
		dd_log(DD_LOG_INFO, "a throw outside a match was ignored (%zu observations)", fx->n_obs);
		dd_serve_sim_next_match_due(sv);
		return;
	}
	rc = dd_referee_throw(sv->ref, fx, err, sizeof(err));
	dd_serve_store_health(sv, before, rc, err);
	if (rc) {
		dd_log(DD_LOG_WARN, "throw not judged: %s", err);
		return;
	}
	sv->last_processing_ns = dd_mono_ns() - settled_ns;
	pushed = dd_clock_now(sv->clock);
	/* From the last thing seen (a sensor edge, or the official's catch
	 * call that ended the throw): what came before it was not waiting on us. */
	last = fx->t_last_edge_ns > fx->t_dead_ns ? fx->t_last_edge_ns : fx->t_dead_ns;
	sv->last_edge_to_push_ns = last ? (int64_t)((double)dd_time_span(last, pushed) /
						    dd_clock_speed(sv->clock)) : 0;
	sv->last_edge_ns = last;
	sv->rulings++;
	dd_serve_push_state(sv);
	dd_serve_sim_next_match_due(sv);
}

static void on_fusion_timer(void *user)
{
	struct serve *sv = user;
	struct dd_fused *fx = malloc(sizeof(*fx));
	struct dd_step st;

	dd_serve_invalidate(sv);
	if (fx) {
		st = serve_step(sv, fx);
		dd_step_tick(&st, dd_clock_now(sv->clock));
	}
	free(fx);
	rearm_timers(sv);
}

/* ---- The loop's plumbing ------------------------------------------------ */

static void set_timer(struct dd_timer *t, int64_t at_ns)
{
	dd_timer_arm(t, at_ns);
}

static void rearm_timers(struct serve *sv)
{
	int64_t ms = web_server_timeout_ms(sv->web);
	set_timer(sv->web_timer, ms < 0 ? INT64_MAX :
		  dd_time_shifted(dd_clock_now(sv->clock), dd_clock_span(sv->clock, ms * 1000000LL)));
	/* While a resting die's face is read off the loop, fusion's deadline
	 * waits for its rest (DD_OBS_REST_PENDING). */
	set_timer(sv->fusion_timer, dd_fusion_deadline(&sv->fusion));
}

void dd_serve_rearm(struct serve *sv)
{
	rearm_timers(sv);
}

static int on_web_io(sd_event_source *s, int fd, uint32_t revents, void *user)
{
	struct serve *sv = user;

	(void)s;
	(void)fd;
	(void)revents;
	if (web_server_process(sv->web))
		dd_log(DD_LOG_WARN, "web: processing failed");
	rearm_timers(sv);
	return 0;
}

/* The web server's deadlines (a request's, a stream's lifetime, the
 * lockouts) read the one clock, measured as a client waits: a faster
 * clock's time over its speed. CLOCK_MONOTONIC while there is no clock
 * (before it is made, after it is freed). */
static int64_t web_clock_ns(void *user)
{
	const struct serve *sv = user;
	double speed;

	if (!sv->clock)
		return dd_mono_ns();
	speed = dd_clock_speed(sv->clock);
	if (speed == 1)
		return dd_clock_now(sv->clock);
	return (int64_t)((double)dd_clock_now(sv->clock) / speed);
}

static void on_web_timer(void *user)
{
	on_web_io(NULL, -1, 0, user);
}

static void on_keepalive(void *user)
{
	struct serve *sv = user;

	web_server_broadcast(sv->web, "ping", "{}");
	dd_timer_arm(sv->keepalive, dd_time_shifted(dd_clock_now(sv->clock), dd_clock_span(sv->clock, KEEPALIVE_NS)));
	rearm_timers(sv);
}

/* systemd restarts a daemon that stops pinging; the loop turning is not
 * enough, so the ping waits on the server still accepting connections
 * (a backlog left unaccepted for WEB_STUCK_NS is a wedge). */
#define WEB_STUCK_NS (5 * 1000000000LL)

static void on_watchdog(void *user)
{
	struct serve *sv = user;
	int64_t now = dd_clock_now(sv->clock);
	bool ok = web_server_accepting(sv->web, now / 1000000, dd_clock_span(sv->clock, WEB_STUCK_NS) / 1000000);

	if (ok)
		sd_notify(0, "WATCHDOG=1");
	if (!ok && !sv->web_stuck)
		dd_log(DD_LOG_ERR, "web: connections waited %lld s unaccepted: the watchdog is no longer fed",
		       WEB_STUCK_NS / 1000000000LL);
	else if (ok && sv->web_stuck)
		dd_log(DD_LOG_INFO, "web: accepting connections again");
	sv->web_stuck = !ok;
	dd_timer_arm(sv->watchdog, dd_time_shifted(now, sv->watchdog_ns));
}

static int on_terminate(sd_event_source *s, const struct signalfd_siginfo *si, void *user)
{
	(void)user;
	/* Nothing is half-written: every database commit completes before
	 * the loop comes back here, so leaving now is clean. */
	dd_log(DD_LOG_INFO, "signal %u: stopping", si->ssi_signo);
	sd_notify(0, "STOPPING=1");
	return sd_event_exit(sd_event_source_get_event(s), 0);
}

/* sc->warnings, one log line each: with --check-config, at start-up and on
 * SIGHUP, so they reach the terminal and the journal alike. */
static void log_warnings(const struct dd_serve_config *sc)
{
	for (const char *p = sc->warnings, *nl; (nl = strchr(p, '\n')); p = nl + 1)
		dd_log(DD_LOG_WARN, "%.*s", (int)(nl - p), p);
}

static int on_reload(sd_event_source *s, const struct signalfd_siginfo *si, void *user)
{
	struct serve *sv = user;
	struct dd_serve_config sc;
	struct dd_config cfg;
	char err[512];

	(void)s;
	(void)si;
	if (!sv->config_path) {
		dd_log(DD_LOG_INFO, "SIGHUP: no config file to reload");
		return 0;
	}
	sd_notify(0, "RELOADING=1");
	dd_serve_config_defaults(&sc);
	if (dd_config_load(&cfg, sv->config_path, err, sizeof(err))) {
		dd_log(DD_LOG_ERR, "reload: %s (keeping the old settings)", err);
		goto free_config;
	}
	if (dd_serve_config_read(&cfg, &sc)) {
		dd_log(DD_LOG_ERR, "reload: %s(keeping the old settings)", sc.problems);
		goto free_config;
	}
	log_warnings(&sc);
	dd_referee_set_defaults(sv->ref, &sc.ref);
	if (web_server_set_pin(sv->web, sc.pin))
		dd_log(DD_LOG_ERR, "reload: out of memory for the PIN");
	dd_serve_key_keep(sv);	/* a new PIN's new key */
	web_server_set_house(sv->web, &sc.ref.house);
	if (strcmp(sc.bind, sv->sc.bind) || sc.port != sv->sc.port || strcmp(sc.db_path, sv->sc.db_path))
		dd_log(DD_LOG_WARN, "reload: web.bind, web.port and db.path change on restart only");
	if (memcmp(&sc.mqtt, &sv->sc.mqtt, sizeof(sc.mqtt)) || strcmp(sc.ref.table_id, sv->sc.ref.table_id))
		dd_log(DD_LOG_WARN, "reload: [mqtt] and table.id change on restart only");
	/* The state shows a new name at once; the discovery configs were
	 * built at start-up. */
	if (sv->mqtt && sv->sc.mqtt.homeassistant && strcmp(sc.ref.table_name, sv->sc.ref.table_name))
		dd_log(DD_LOG_WARN, "reload: table.name changes Home Assistant's device name on restart only");
	snprintf(sc.ref.table_id, sizeof(sc.ref.table_id), "%s", sv->sc.ref.table_id);
	snprintf(sv->sc.pin, sizeof(sv->sc.pin), "%s", sc.pin);
	sv->sc.ref = sc.ref;
	sv->sc.sim_max_throws = sc.sim_max_throws;
	sv->sc.sim_pause_s = sc.sim_pause_s;
	if (sc.sim_speed != sv->sc.sim_speed)
		dd_log(DD_LOG_WARN, "reload: sim.speed changes on restart only");
	dd_serve_invalidate(sv);
	dd_log(DD_LOG_INFO, "reloaded: house rules and sim.max_throws for the next match, "
	       "sim.pause_s, console PIN (sessions ended)");
free_config:
	dd_config_free(&cfg);
	sd_notify(0, "READY=1");
	return 0;
}

/* ---- Configuration ------------------------------------------------------ */

/* The referee's hook for a throw's picture: the camera's, else (--sim)
 * the simulated camera's. */
static int snapshot(void *user, struct db *db, int64_t match, int throw_no, int64_t since_ns,
		    char *err, size_t errlen)
{
	struct serve *sv = user;
	int rc = dd_camera_snapshot(sv->camera_glue, db, match, throw_no, since_ns, err, errlen);

	if (rc == 0 && sv->simfeed)
		rc = dd_sim_feed_snapshot(sv->simfeed, db, match, throw_no, since_ns, err, errlen);
	else if (rc == 0 && sv->demo)
		rc = dd_demo_snapshot(sv->demo, db, match, throw_no, since_ns, err, errlen);
	return rc;
}

/* Makes the sensors and camera glue on the loop and serve's clock; a bad
 * config is a problem listed in sv->sc (-EINVAL), a missing chip or camera
 * only a health item. */
static int attach_inputs(struct serve *sv, struct dd_config *cfg)
{
	char err[512];

	sv->sensors_glue = dd_sensors_new(cfg, sv->ev, sv->clock, sv->sim, dd_serve_on_obs, sv,
					  &sv->sensors, err, sizeof(err));
	if (!sv->sensors_glue) {
		dd_serve_config_problem(&sv->sc, err);
	} else {
		sv->keep = malloc(sizeof(*sv->keep));
		if (sv->keep) {
			dd_edge_keep_init(sv->keep);
			dd_sensors_keep_edges(sv->sensors_glue, dd_serve_on_edges, sv);
		} else {
			dd_log(DD_LOG_WARN, "sensors: edges will not be stored (out of "
			       "memory): a disputed throw's impacts cannot be replayed");
		}
		/* A mine with no disc under it cannot contradict the camera (BD-O1). */
		sv->sc.fusion.mine_disc_present = dd_sensors_mine_wired(sv->sensors_glue);
	}
	sv->camera_glue = dd_camera_new(cfg, sv->ev, sv->clock, sv->sim, dd_serve_on_obs, sv, &sv->camera,
					err, sizeof(err));
	if (!sv->camera_glue)
		dd_serve_config_problem(&sv->sc, err);
	else
		dd_referee_set_snapshot(sv->ref, snapshot, sv);
	sv->sc.fusion.piezo_present = sv->sensors.ok;
	/* The virtual table's camera reports what the tracker does (landings,
	 * mine contacts, exits, sinks, rests: docs/simulator.md), so fusion
	 * takes it as the Pi's. */
	sv->sc.fusion.camera_present = sv->camera.ok;
	return sv->sc.n_problems ? -EINVAL : 0;
}

/* The inputs' glue, gone before the clock and the loop. */
static void detach_inputs(struct serve *sv)
{
	dd_referee_set_snapshot(sv->ref, NULL, NULL);
	dd_sensors_free(sv->sensors_glue);
	sv->sensors_glue = NULL;
	dd_camera_free(sv->camera_glue);
	sv->camera_glue = NULL;
}

/* The inputs' sections, read as their glue reads them, nothing opened. */
static void check_inputs(struct serve *sv, struct dd_config *cfg)
{
	char err[512];

	if (dd_sensors_check_config(cfg, err, sizeof(err)))
		dd_serve_config_problem(&sv->sc, err);
	if (dd_camera_check_config(cfg, err, sizeof(err)))
		dd_serve_config_problem(&sv->sc, err);
}

/* Every key nobody claimed, each with its line. */
static void unknown_keys(struct serve *sv, const struct dd_config *cfg)
{
	char msg[256];

	for (size_t i = 0; i < cfg->n; i++)
		if (!cfg->entries[i].claimed) {
			snprintf(msg, sizeof(msg), "%s:%d: unknown key %s.%s", cfg->path,
				 cfg->entries[i].line, cfg->entries[i].section, cfg->entries[i].key);
			dd_serve_config_problem(&sv->sc, msg);
		}
}

/* What --check-config checks, each problem a line of sv->sc.problems:
 * [web], [db], [house], [fusion], [sim] over the defaults already in
 * sv->sc, the inputs' sections without opening anything (a typo is
 * refused before the database is made or the port taken, and is not
 * hidden behind what opening them would say), and every key nobody
 * claimed. */
static void check_config(struct serve *sv, struct dd_config *cfg)
{
	dd_serve_config_read(cfg, &sv->sc);
	check_inputs(sv, cfg);
	unknown_keys(sv, cfg);
}

int dd_config_check_file(const char *path, char *err, size_t errlen)
{
	struct serve *sv = calloc(1, sizeof(*sv));
	struct dd_config cfg;
	int rc;

	if (!sv) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	rc = dd_config_load(&cfg, path, err, errlen);
	if (rc)
		goto free_config;
	dd_serve_config_defaults(&sv->sc);
	check_config(sv, &cfg);
	rc = dd_serve_config_first_problem(&sv->sc, err, errlen);
free_config:
	dd_config_free(&cfg);
	free(sv);
	return rc;
}

static void usage(void)
{
	printf("usage: dyeref serve [--config FILE] [--sim[=table]] [--check-config] [--port N]\n");
}

static int setup_loop(struct serve *sv)
{
	sigset_t mask;
	uint64_t usec = 0;
	int rc;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	rc = sd_event_default(&sv->ev);
	if (rc < 0)
		return rc;
	if ((rc = sd_event_add_signal(sv->ev, NULL, SIGTERM, on_terminate, sv)) < 0 ||
	    (rc = sd_event_add_signal(sv->ev, NULL, SIGINT, on_terminate, sv)) < 0 ||
	    (rc = sd_event_add_signal(sv->ev, NULL, SIGHUP, on_reload, sv)) < 0)
		return rc;
	rc = sd_event_add_io(sv->ev, &sv->web_io, web_server_fd(sv->web), EPOLLIN, on_web_io, sv);
	if (rc < 0)
		return rc;
	/* [sim] speed runs the clock faster for the simulated table only: a
	 * real chip's edges and camera's frames carry CLOCK_MONOTONIC. */
	sv->clock = dd_clock_new_real(sv->ev, sv->sim ? sv->sc.sim_speed : 1);
	if (!sv->clock)
		return -errno;
	if (!(sv->web_timer = dd_timer_new(sv->clock, on_web_timer, sv)) ||
	    !(sv->fusion_timer = dd_timer_new(sv->clock, on_fusion_timer, sv)) ||
	    !(sv->keepalive = dd_timer_new(sv->clock, on_keepalive, sv)) ||
	    !(sv->watchdog = dd_timer_new(sv->clock, on_watchdog, sv)) ||
	    !(sv->restart = dd_timer_new(sv->clock, dd_serve_on_restart, sv)) ||
	    !(sv->raw_flush = dd_timer_new(sv->clock, dd_serve_on_raw_flush, sv)) ||
	    !(sv->challenge = dd_timer_new(sv->clock, dd_serve_on_challenge_end, sv)))
		return -errno;
	dd_timer_arm(sv->keepalive, dd_time_shifted(dd_clock_now(sv->clock), dd_clock_span(sv->clock, KEEPALIVE_NS)));
	/* Under systemd's WatchdogSec: a ping at half the period, while the
	 * server accepts (on_watchdog). */
	if (sd_watchdog_enabled(0, &usec) > 0 && usec > 0) {
		sv->watchdog_ns = dd_clock_span(sv->clock, (int64_t)(usec / 2) * 1000);
		dd_timer_arm(sv->watchdog, dd_clock_now(sv->clock));
	}
	return 0;
}

int dd_cmd_serve(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "sim", optional_argument, NULL, 's' },
		{ "check-config", no_argument, NULL, 'k' },
		{ "port", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct serve *sv = calloc(1, sizeof(*sv));
	struct dd_config cfg = { 0 };
	struct web_config wc;
	struct web_handlers wh;	/* serve_web.c's */
	char err[512];
	bool check = false;
	long port_override = -1;
	struct store_mark before;
	int c, rc, status = DD_EXIT_FAIL;

	if (!sv)
		return DD_EXIT_FAIL;
	dd_serve_web_handlers(&wh);
	optind = 1;
	while ((c = dd_getopt("serve", argc, argv, opts)) != -1) {
		switch (c) {
		case 'c': sv->config_path = optarg; break;
		case 's':
			sv->sim = true;
			if (optarg && strcmp(optarg, "table")) {
				dd_log(DD_LOG_ERR, "serve: --sim=%s: only --sim or --sim=table", optarg);
				free(sv);
				return DD_EXIT_USAGE;
			}
			sv->sim_table = optarg != NULL;
			break;
		case 'k': check = true; break;
		case 'p': {
			char *end;

			port_override = strtol(optarg, &end, 10);
			if (*end || end == optarg || port_override < 0 || port_override > 65535) {
				dd_log(DD_LOG_ERR, "serve: --port: expected 0..65535, got '%s'", optarg);
				free(sv);
				return DD_EXIT_USAGE;
			}
			break;
		}
		case 'h': usage(); free(sv); return DD_EXIT_OK;
		default: free(sv); return DD_EXIT_USAGE;
		}
	}
	if (dd_getopt_done("serve", argc, argv)) {
		free(sv);
		return DD_EXIT_USAGE;
	}
	dd_serve_config_defaults(&sv->sc);
	if (sv->config_path) {
		rc = dd_config_load(&cfg, sv->config_path, err, sizeof(err));
		if (rc) {
			dd_log(DD_LOG_ERR, "%s", err);
			status = dd_input_status(rc);
			goto free_config;
		}
	} else {
		dd_config_load_string(&cfg, "(defaults)", "", err, sizeof(err));
	}
	check_config(sv, &cfg);
	log_warnings(&sv->sc);
	if (port_override >= 0)
		sv->sc.port = (unsigned)port_override;
	if (check && !sv->sc.n_problems) {
		printf("%s: configuration OK\n", sv->config_path ? sv->config_path : "(defaults)");
		status = DD_EXIT_OK;
		goto free_config;
	}
	if (sv->sc.n_problems) {
		fputs(sv->sc.problems, stderr);
		status = DD_EXIT_USAGE;
		goto free_config;
	}

	/* Checked whole while serving (dd_serve_store_check_start), so
	 * start-up does not grow with the log. */
	sv->db = db_open(sv->sc.db_path, DB_OPEN_CREATE | DB_OPEN_NOCHECK, err, sizeof(err));
	if (!sv->db) {
		/* A full disk is the owner's to clear: restarting cannot. */
		if (errno == ENOSPC)
			status = DD_EXIT_USAGE;
		dd_log(DD_LOG_ERR, "%s", err);
		goto free_config;
	}
	if (db_retention_run(sv->db, 0, NULL, err, sizeof(err)))
		dd_log(DD_LOG_WARN, "retention: %s", err);
	/* Writes happen on the loop: another program's lock (an import into
	 * this file) may stall it a second, not the watchdog's ten. */
	db_set_busy_timeout(sv->db, STORE_BUSY_MS);
	dd_health_set(&sv->storage, true, "ok");
	sv->ref = dd_referee_new(&sv->sc.ref, sv->db);
	if (!sv->ref) {
		dd_log(DD_LOG_ERR, "referee: %s", strerror(errno));
		goto close_db;
	}
	sv->history = dd_history_new();
	if (!sv->history) {
		dd_log(DD_LOG_ERR, "history: %s", strerror(ENOMEM));
		goto free_referee;
	}
	/* A match the referee cannot read back (a log this version's judge
	 * refuses, a read error) must not keep the table without a referee:
	 * exiting would only make systemd restart into the same refusal. The
	 * daemon runs without it, says why on the health strip, and the
	 * officials can start a new match; the old one stays in the log. */
	before = dd_serve_store_mark(sv);
	rc = dd_referee_restore(sv->ref, err, sizeof(err));
	if (rc) {
		unsigned long now;
		const char *fault = db_fault(sv->db, &now);

		dd_log(DD_LOG_ERR, "restore: %s (running without that match)", err);
		/* Publicly: the log's failure in db/'s words without the path,
		 * or the judge's refusal of the stored lines (which names the
		 * match and its line, no file: db_bd_load). */
		dd_health_set(&sv->storage, false, "not restored: %s",
			      now != before.faults ? fault : rc == -EINVAL ? err : strerror(-rc));
		dd_health_detail(&sv->storage, "not restored: %s", err);
	}
	memset(&wc, 0, sizeof(wc));
	wc.bind = sv->sc.bind;
	wc.trusted_proxy = sv->sc.trusted_proxy[0] ? sv->sc.trusted_proxy : NULL;
	wc.hosts = sv->sc.hosts;
	wc.port = sv->sc.port;
	wc.pin = sv->sc.pin;
	wc.house = &sv->sc.ref.house;
	wc.now_ns = web_clock_ns;
	wc.clock_user = sv;
	dd_serve_key_load(sv);
	wc.device_key = sv->key_stored ? sv->device_key : NULL;
	sv->web = web_server_new(&wc, &wh, sv, err, sizeof(err));
	if (!sv->web) {
		dd_log(DD_LOG_ERR, "%s", err);
		goto free_referee;
	}
	dd_serve_key_keep(sv);
	rc = setup_loop(sv);
	if (rc >= 0)
		rc = dd_serve_store_watch(sv);	/* from here: what restoring said stands */
	if (rc >= 0)
		dd_serve_store_check_start(sv);
	if (rc < 0) {
		dd_log(DD_LOG_ERR, "event loop: %s", strerror(-rc));
		goto free_loop;
	}
	if (sv->sc.mqtt.enabled) {
		/* Without a broker the table still referees: MQTT is told of
		 * everything later, from the database. */
		sv->mqtt = dd_mqtt_new(&sv->sc.mqtt, sv->sc.ref.table_id, sv->sc.ref.table_name,
				       sv->ev, sv->clock, sv->db, err, sizeof(err));
		if (!sv->mqtt)
			dd_log(DD_LOG_ERR, "%s (running without MQTT)", err);
	}
	if (attach_inputs(sv, &cfg)) {
		fputs(sv->sc.problems, stderr);
		status = DD_EXIT_USAGE;
		goto free_inputs;
	}
	/* Every key was claimed by check_config(), which read them alike. */
	/* The face reader gives a read up after DD_FACE_READ_LIMIT_NS of real
	 * time; fusion's hold for its rest must be as long on a faster clock. */
	sv->sc.fusion.rest_wait_ns = dd_clock_span(sv->clock, sv->sc.fusion.rest_wait_ns);
	dd_fusion_init(&sv->fusion, &sv->sc.fusion);
	if (sv->sim) {
		dd_serve_start_demo_match(sv);
		if (!dd_serve_feeder_start(sv, err, sizeof(err))) {
			dd_log(DD_LOG_ERR, "demo: %s", err);
			goto free_inputs;
		}
	}
	/* From here: what attaching said is in the first state rendered. */
	sv->sensors.changed = sv->camera.changed = dd_serve_on_health_changed;
	sv->sensors.user = sv->camera.user = sv;
	if (sv->mqtt)
		dd_serve_push_state(sv);	/* the retained state, before the first change */
	rearm_timers(sv);
	dd_log(DD_LOG_INFO, "listening on http://%s%s%s:%u/ (version %s; sensors: %s; camera: %s)",
	       strchr(sv->sc.bind, ':') ? "[" : "", sv->sc.bind, strchr(sv->sc.bind, ':') ? "]" : "",
	       web_server_port(sv->web), dd_version(), sv->sensors.text, sv->camera.text);
	sd_notifyf(0, "READY=1\nSTATUS=serving on port %u", web_server_port(sv->web));
	rc = sd_event_loop(sv->ev);
	status = rc < 0 ? DD_EXIT_FAIL : DD_EXIT_OK;

	dd_serve_feeder_stop(sv);
	if (sv->sim)
		dd_serve_demo_end_own(sv);
	if (sv->keep && sv->keep->n)
		dd_serve_store_kept(sv, true);	/* the last reads', before the log closes */
free_inputs:
	detach_inputs(sv);
free_loop:
	dd_mqtt_free(sv->mqtt);
	sv->mqtt = NULL;
	dd_serve_store_check_stop(sv);
	dd_timer_free(sv->challenge);
	dd_timer_free(sv->raw_flush);
	dd_timer_free(sv->restart);
	dd_timer_free(sv->watchdog);
	dd_timer_free(sv->keepalive);
	dd_timer_free(sv->fusion_timer);
	dd_timer_free(sv->web_timer);
	dd_clock_free(sv->clock);
	sv->clock = NULL;	/* web_server_free's last run reads web_clock_ns */
	sd_event_source_unref(sv->store_watch);
	sd_event_source_unref(sv->web_io);
	web_server_free(sv->web);
	sd_event_unref(sv->ev);
	dd_serve_invalidate(sv);
	free(sv->keep);
free_referee:
	dd_history_free(sv->history);
	dd_referee_free(sv->ref);
close_db:
	db_close(sv->db);
free_config:
	dd_config_free(&cfg);
	free(sv);
	return status;
}
