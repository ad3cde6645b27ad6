/* Private to `dyeref serve` (cmd_serve.c: options, setup, the loop and the
 * throw; serve_config.c; serve_web.c: the web handlers and the state;
 * serve_store.c: the store's health, its check and the kept edges;
 * serve_demo.c: --sim's feeders and matches): not a contract. Every
 * function here runs on serve's loop. */
#ifndef DYEREF_DAEMON_SERVE_H
#define DYEREF_DAEMON_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/fusion.h"
#include "daemon/health.h"
#include "daemon/referee.h"
#include "daemon/sensors_db.h"

#define STORE_BUSY_MS 1000		/* longest wait for another program's lock on the log */

struct dd_serve_config {
	char bind[64];			/* [web] bind */
	char trusted_proxy[64];		/* [web] trusted_proxy, "" none */
	char hosts[1024];		/* [web] hosts: more names for the Host header, "" none */
	unsigned port;			/* [web] port; 0 any free port */
	char pin[16];			/* [web] pin, "" locks the console */
	char db_path[480];		/* [db] path */
	struct dd_referee_cfg ref;	/* [house], [fusion] review */
	struct dd_fusion_cfg fusion;	/* [fusion] */
	int sim_max_throws;		/* [sim] max_throws: --sim=table's matches stop after so many throws; 0 at their end */
	double sim_pause_s;		/* [sim] pause_s: --sim's pause between matches, real seconds (30) */
	double sim_speed;		/* [sim] speed: --sim's clock, times real time (1); rulings are the same at any */
	double challenge_s;		/* [web] challenge_s: how long a challenge replay stays on the wall (15) */
	int n_problems;			/* problems found */
	char problems[4096];		/* one "file:line: why" a line */
	char warnings[1024];		/* the same, for what works but is unwise */
};

void dd_serve_config_defaults(struct dd_serve_config *sc);
/* Reads [web], [db], [house], [fusion], [sim] over the defaults in sc. 0,
 * or -EINVAL with every problem listed in sc->problems; either way what is
 * allowed but unwise (a PIN of 4 or 5 digits) in sc->warnings. */
int dd_serve_config_read(struct dd_config *cfg, struct dd_serve_config *sc);
void dd_serve_config_problem(struct dd_serve_config *sc, const char *msg);
/* 0 when sc has no problem; else -EINVAL with the first one (a line
 * without its newline) in err. */
int dd_serve_config_first_problem(const struct dd_serve_config *sc, char *err, size_t errlen);

/* ---- The daemon (cmd_serve.c) ---- */

/* The event log's counts before a write: compared after it, the failures
 * (db_fault) tell the store's from a request refused, the commits
 * (db_commits) a write that reached the file from a request that wrote
 * nothing. */
struct store_mark {
	unsigned long faults;	/* db_fault's count */
	unsigned long commits;	/* db_commits */
};


struct serve {
	const char *config_path;	/* --config, or NULL */
	bool sim;			/* --sim */
	bool sim_table;			/* --sim=table: the simulator's virtual table drives it */
	uint64_t sim_matches;		/* --sim=table: matches started, the next one's seed */
	struct dd_sim_feed *simfeed;	/* --sim=table feeder, owned */
	struct dd_serve_config sc;	/* what the config says */
	sd_event *ev;			/* the loop */
	struct dd_clock *clock;		/* owned: every timer's; [sim] speed's with --sim */
	struct web_server *web;		/* owned */
	struct db *db;			/* owned: the event log */
	struct dd_referee *ref;		/* owned */
	struct dd_history *history;	/* owned: the history pages' folds */
	struct dd_fusion fusion;	/* the throw under way */
	struct dd_demo *demo;		/* --sim feeder, owned */
	sd_event_source *web_io;	/* the server's epoll fd */
	struct dd_timer *web_timer;	/* the server's own timeouts */
	struct dd_timer *fusion_timer;	/* settle / timeout of the throw */
	struct dd_timer *keepalive;	/* SSE ping events (2 s) */
	struct dd_timer *watchdog;	/* WATCHDOG=1 while the server accepts; armed
					 * only under systemd's WatchdogSec */
	int64_t watchdog_ns;		/* its period: half of WATCHDOG_USEC (sv->clock) */
	bool web_stuck;			/* the server stopped accepting: said once */
	struct dd_timer *restart;	/* --sim: next match, armed while one is due */
	struct dd_timer *raw_flush;	/* stores the kept edges within RAW_FLUSH_NS */
	struct dd_timer *challenge;	/* takes the challenge replay off the wall, armed while one shows */
	int64_t challenge_match;	/* the challenge replay on the wall: its match, 0 none */
	int challenge_throw;		/* ... and throw */
	int64_t challenge_end_ns;	/* ... until then (sv->clock) */
	struct dd_edge_keep *keep;	/* owned: the chip's edges for the event log, or NULL */
	int64_t keep_match;		/* the match keep's edges are of */
	const struct sens_config *edges_cfg;	/* the sensors glue's wiring (while attached) */
	bool keep_failing;		/* the store did not take them last time: retry slowly */
	int64_t restart_for;		/* the match under way when it was set, 0 none */
	int64_t won_told;		/* the won match whose sensed inputs the log said are
					 * left out (once a match), 0 none */
	struct dd_sensors *sensors_glue;	/* owned: the table's lines */
	struct dd_camera *camera_glue;	/* owned: the camera */
	struct dd_health_item sensors;	/* health strip */
	struct dd_health_item camera;
	struct dd_health_item storage;
	struct store_mark store_seen;	/* the log's counts the strip's "store" last said */
	bool store_corrupt;		/* the check found the log corrupt: red for good */
	struct dd_store_check *check;	/* owned: the check of the whole log under way, or NULL */
	sd_event_source *store_watch;	/* after each event: a failure nobody reported (dd_serve_store_watch) */
	int64_t last_processing_ns;	/* dead die settled -> ruling on its way to clients */
	int64_t last_edge_to_push_ns;	/* last sensor edge -> ruling on its way */
	int64_t last_edge_ns;		/* CLOCK_MONOTONIC of that edge (benchmarks) */
	unsigned long rulings;		/* pushed since start */
	char *state_cache;		/* owned: /api/state until something changes */
	unsigned char device_key[32];	/* the web's device key (WEB_DEVICE_KEY) ... */
	bool key_stored;		/* ... as its file holds it (serve_key.c) */
};

/* o into fusion through the match step; the timers rearmed. */
void dd_serve_feed(struct serve *sv, const struct dd_obs *o);
/* The inputs' and feeders' sink (user: the serve). */
void dd_serve_on_obs(void *user, const struct dd_obs *o);
/* Fusion emptied for a new match, its settings kept. */
void dd_serve_fusion_restart(struct serve *sv);

/* ---- The web (serve_web.c) ---- */

/* The handlers web_server_new() takes (their user: the serve). */
struct web_handlers;
void dd_serve_web_handlers(struct web_handlers *wh);
/* Drops the rendered state: something changed. */
void dd_serve_invalidate(struct serve *sv);
/* Renders the state and tells every screen: after each change is
 * committed, never before. */
void dd_serve_push_state(struct serve *sv);
/* The web server's and fusion's timers as they now need to be: after a
 * push off any request (a timer's), so the screens get it now. */
void dd_serve_rearm(struct serve *sv);
/* The challenge timer (user: the serve): the replay's time is up. */
void dd_serve_on_challenge_end(void *user);
/* A health item's change hook (user: the serve): the screens hear it now. */
void dd_serve_on_health_changed(void *user);

/* ---- The store (serve_store.c) ---- */

struct store_mark dd_serve_store_mark(const struct serve *sv);
/* The strip's "store" after a request begun at before that returned rc
 * (err its message). */
void dd_serve_store_health(struct serve *sv, struct store_mark before, int rc, const char *err);
/* Watches the log after every event the loop dispatches: any write that
 * failed since the strip last spoke (the demo's own, a match's end, a
 * snapshot: whoever wrote) turns its "store" red at once, and a write
 * that reached the file turns it green again. 0 or sd-event's error. */
int dd_serve_store_watch(struct serve *sv);
/* Checks the whole log (quick_check) in a worker thread while serving:
 * a corrupt one turns the strip's "store" red for good. Stop joins it,
 * interrupting the check; both are no-ops when there is none. */
void dd_serve_store_check_start(struct serve *sv);
void dd_serve_store_check_stop(struct serve *sv);
/* Stores the kept edges (unless wait, not waiting for another program's
 * lock). 0 or the store's error. */
int dd_serve_store_kept(struct serve *sv, bool wait);
/* The kept edges' timer (user: the serve). */
void dd_serve_on_raw_flush(void *user);
/* The sensors' edges sink (user: the serve): kept for the match's raw inputs. */
void dd_serve_on_edges(void *user, const struct sens_config *cfg, const struct sens_edge *e,
		       size_t n);

/* ---- The device key (serve_key.c) ---- */

/* The key file at path: 0 and key; -ENOENT none; else a negative errno
 * and a one-line "path: why" in err (unreadable, not a regular file,
 * open to group or others, not exactly WEB_DEVICE_KEY bytes). */
int dd_serve_key_read(const char *path, unsigned char *key, char *err, size_t errlen);
/* Writes key (WEB_DEVICE_KEY bytes) to path: a 0600 temporary file
 * beside it, synced, renamed over it, the directory synced; never half
 * written. 0, or a negative errno with a message. */
int dd_serve_key_write(const char *path, const unsigned char *key, char *err, size_t errlen);
/* At start: sv->device_key from "<db path>.key" for web_config.device_key
 * when key_stored; a bad file is a warning (a fresh key). */
void dd_serve_key_load(struct serve *sv);
/* After web_server_new and each PIN set: the web's key written to the
 * file when it is not what the file holds; a failure is a warning. */
void dd_serve_key_keep(struct serve *sv);

/* ---- --sim (serve_demo.c) ---- */

/* Starts the simulator's feeder (--sim=table) or the sample match's:
 * false with a message. */
bool dd_serve_feeder_start(struct serve *sv, char *err, size_t errlen);
/* Stops either; none is fine. */
void dd_serve_feeder_stop(struct serve *sv);
/* Clears the table for the simulator's match and starts it. */
void dd_serve_start_demo_match(struct serve *sv);
/* Ends the simulator's own match, if it is the one under way. */
void dd_serve_demo_end_own(struct serve *sv);
/* Arms the next match [sim] pause_s after this one ended, when it has. */
void dd_serve_sim_next_match_due(struct serve *sv);
/* The next match's timer (user: the serve). */
void dd_serve_on_restart(void *user);

#endif /* DYEREF_DAEMON_SERVE_H */
