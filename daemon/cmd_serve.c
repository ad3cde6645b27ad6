/* dyeref serve: the referee daemon. One sd-event loop carries the HTTP
 * server, the sensors' and camera's fds, the watchdog and the signals; every
 * timer (fusion's, the web server's, the feeders') is on serve's one clock
 * (daemon/clock.h); a throw goes observations -> fusion -> judge -> db -> SSE. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
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
#include "daemon/sensors_db.h"
#include "daemon/serve.h"
#include "db/db.h"
#include "web/web.h"

#define KEEPALIVE_NS (15 * 1000000000LL)	/* SSE comment lines, under proxies' timeouts */
#define STORE_BUSY_MS 1000		/* longest wait for another program's lock on the log */
#define RAW_FLUSH_NS (100 * 1000000LL)	/* kept edges wait at most this for the store (db.h) */
#define RAW_RETRY_NS (1000 * 1000000LL)	/* ... and this again when it did not take them */

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
	struct dd_fusion fusion;	/* the throw under way */
	struct dd_demo *demo;		/* --sim feeder, owned */
	sd_event_source *web_io;	/* the server's epoll fd */
	struct dd_timer *web_timer;	/* the server's own timeouts */
	struct dd_timer *fusion_timer;	/* settle / timeout of the throw */
	struct dd_timer *keepalive;	/* SSE comments */
	struct dd_timer *restart;	/* --sim: next match, armed while one is due */
	struct dd_timer *raw_flush;	/* stores the kept edges within RAW_FLUSH_NS */
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
	int64_t last_processing_ns;	/* dead die settled -> ruling on its way to clients */
	int64_t last_edge_to_push_ns;	/* last sensor edge -> ruling on its way */
	int64_t last_edge_ns;		/* CLOCK_MONOTONIC of that edge (benchmarks) */
	unsigned long rulings;		/* pushed since start */
	char *state_cache;		/* owned: /api/state until something changes */
};

/* The state is read far more often than it changes (every screen polls or
 * reconnects): render it once per change. */
static void invalidate(struct serve *sv)
{
	free(sv->state_cache);
	sv->state_cache = NULL;
}

/* The public strip's item: its detail (paths, ids, remedies) is the
 * console's (on_console_status), as anyone may read the wall screen. */
static json_t *health_json(const struct dd_health_item *h)
{
	return json_pack("{s:b,s:s}", "ok", h->ok, "text", h->text);
}

static json_t *health_detail_json(const struct dd_health_item *h)
{
	return json_pack("{s:b,s:s,s:s}", "ok", h->ok, "text", h->text, "detail", h->detail);
}

static int render_state(struct serve *sv, char **out)
{
	json_t *o;
	int rc = dd_referee_state(sv->ref, &o);

	if (rc)
		return rc;
	json_object_set_new(o, "health", json_pack("{s:o,s:o,s:o}",
		"sensors", health_json(&sv->sensors), "camera", health_json(&sv->camera),
		"store", health_json(&sv->storage)));
	json_object_set_new(o, "mode", json_string(sv->sim ? "sim" : "live"));
	json_object_set_new(o, "in_flight", json_boolean(dd_fusion_active(&sv->fusion)));
	json_object_set_new(o, "waiting", json_boolean(dd_referee_waiting(sv->ref)));
	json_object_set_new(o, "timing", json_pack("{s:f,s:f,s:I,s:I,s:f}",
		"processing_ms", (double)sv->last_processing_ns / 1e6,
		"edge_to_push_ms", (double)sv->last_edge_to_push_ns / 1e6,
		"last_edge_ns", (json_int_t)sv->last_edge_ns,
		"rulings", (json_int_t)sv->rulings,
		"settle_ms", (double)sv->fusion.cfg.settle_ns / 1e6));
	*out = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6));
	json_decref(o);
	return *out ? 0 : -ENOMEM;
}

/* Tells every screen: called after each change is committed, never before. */
static void push_state(struct serve *sv)
{
	char *text = NULL;

	invalidate(sv);
	if (render_state(sv, &text) == 0) {
		web_server_broadcast(sv->web, "state", text);
		sv->state_cache = text;
	}
}

/* A glue's health item changed on its own, off any request (the camera's
 * frames stopped, their rate, a sensor line gone quiet): the screens hear
 * it now, not with the next throw. */
static void on_health_changed(void *user)
{
	push_state(user);
}

/* ---- Web callbacks ----------------------------------------------------- */

static int on_state(void *user, char **json)
{
	struct serve *sv = user;
	int rc;

	if (!sv->state_cache) {
		rc = render_state(sv, &sv->state_cache);
		if (rc)
			return rc;
	}
	*json = strdup(sv->state_cache);
	return *json ? 0 : -ENOMEM;
}

/* The console's own: where the event log is and each health item whole
 * (the public strip says only what is wrong: the wall screen is for
 * everyone). */
static int on_console_status(void *user, char **json)
{
	struct serve *sv = user;
	char *path = strdup(sv->sc.db_path);

	if (!path)
		return -ENOMEM;
	dd_utf8_scrub(path);	/* a path in another encoding would be a 500 */
	json_t *o = json_pack("{s:s,s:o,s:o,s:o}", "db_path", path,
			      "sensors", health_detail_json(&sv->sensors),
			      "camera", health_detail_json(&sv->camera),
			      "store", health_detail_json(&sv->storage));

	*json = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	free(path);
	return *json ? 0 : -ENOMEM;
}

static int on_matches(void *user, char **json)
{
	struct serve *sv = user;

	return dd_referee_matches(sv->ref, json);
}

static int on_log(void *user, long match, char **jsonl)
{
	struct serve *sv = user;

	return dd_referee_log(sv->ref, match, jsonl);
}

static int on_throw(void *user, long match, long k, char **json)
{
	struct serve *sv = user;

	return dd_referee_throw_detail(sv->ref, match, k, json);
}

static int on_snapshot(void *user, long match, long k, long i, char **jpeg, size_t *len)
{
	struct serve *sv = user;

	return dd_referee_snapshot(sv->ref, match, k, i, jpeg, len);
}

static int on_sheet(void *user, long match, char **json)
{
	struct serve *sv = user;

	return dd_referee_sheet(sv->ref, match, json);
}

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

static void feed(struct serve *sv, const struct dd_obs *o)
{
	struct dd_fused *fx = malloc(sizeof(*fx));
	struct dd_step st;

	if (!fx)
		return;
	invalidate(sv);
	st = serve_step(sv, fx);
	dd_step_obs(&st, o);
	free(fx);
	rearm_timers(sv);
}

static void on_obs(void *user, const struct dd_obs *o)
{
	feed(user, o);
}

/* The event log's counts before a write: compared after it, the failures
 * (db_fault) tell the store's from a request refused, the commits
 * (db_commits) a write that reached the file from a request that wrote
 * nothing. */
struct store_mark {
	unsigned long faults;	/* db_fault's count */
	unsigned long commits;	/* db_commits */
};

static struct store_mark store_mark(const struct serve *sv)
{
	struct store_mark m;

	db_fault(sv->db, &m.faults);
	m.commits = db_commits(sv->db);
	return m;
}

/* The health strip's "store" after a request that began at mark before:
 * the log's own failures (locked by another program, disk full, I/O
 * error) turn it red until a write reaches the file again, so a throw
 * that could not be stored does not go unseen on the wall. So does a
 * failure the request went on without (a confirm's or a held ruling's
 * note, a snapshot: rc 0), which says it in the log itself. A request
 * that wrote nothing (refused, a second confirm of one throw) leaves it
 * as it was: green says the file took a write, not that nothing failed.
 * The strip has db/'s words without the path, the console the whole
 * message. */
static void store_health(struct serve *sv, struct store_mark before, int rc, const char *err)
{
	unsigned long faults;
	const char *why = db_fault(sv->db, &faults);

	if (faults != before.faults) {
		dd_health_set(&sv->storage, false, "write failed: %s", why);
		if (rc == 0) {
			dd_health_detail(&sv->storage, "write failed: %s: %s (the request went on "
					 "without it: the daemon's log says what)", sv->sc.db_path, why);
			return;	/* the caller pushes the state it changed */
		}
		dd_health_detail(&sv->storage, "write failed: %s", err);
		dd_log(DD_LOG_ERR, "store: %s", err);
		push_state(sv);
	} else if (db_commits(sv->db) != before.commits && !sv->storage.ok) {
		dd_health_set(&sv->storage, true, "ok");
		dd_log(DD_LOG_INFO, "store: writing again");
	}
}

/* Stores the kept edges in their match's raw inputs; unless wait, without
 * waiting for another program's lock on the log: they stay kept until it
 * goes, and the loop is not held up a second per read. Logs what was left
 * out. 0 or the store's error. */
static int store_kept(struct serve *sv, bool wait)
{
	struct store_mark before = store_mark(sv);
	char err[512], msg[256];
	int rc = 0;

	if (sv->keep->n) {
		if (!wait)
			db_set_busy_timeout(sv->db, 0);
		rc = dd_sensors_edges_store(sv->db, sv->keep_match, sv->edges_cfg, sv->keep->buf,
					    sv->keep->n, err, sizeof(err));
		if (rc == 0)
			rc = db_raw_flush(sv->db, err, sizeof(err));
		db_set_busy_timeout(sv->db, STORE_BUSY_MS);
		if (rc == 0)
			dd_edge_keep_stored(sv->keep, sv->keep->n);
		sv->keep_failing = rc != 0;
		store_health(sv, before, rc, err);
	}
	if (dd_edge_keep_report(sv->keep, sv->edges_cfg, dd_clock_now(sv->clock), msg, sizeof(msg)))
		dd_log(DD_LOG_WARN, "%s", msg);
	return rc;
}

/* Runs store_kept() at at_ns on the clock, or sooner if it was to run
 * sooner. */
static void arm_raw_flush_at(struct serve *sv, int64_t at_ns)
{
	if (dd_timer_due(sv->raw_flush) <= at_ns)
		return;
	dd_timer_arm(sv->raw_flush, at_ns);
}

/* The same in after_ns. */
static void arm_raw_flush(struct serve *sv, int64_t after_ns)
{
	arm_raw_flush_at(sv, dd_time_shifted(dd_clock_now(sv->clock), after_ns));
}

static void on_raw_flush(void *user)
{
	struct serve *sv = user;
	int64_t due;

	if (store_kept(sv, false))
		arm_raw_flush(sv, RAW_RETRY_NS);
	else if ((due = dd_edge_keep_report_due(sv->keep)) > 0)
		arm_raw_flush_at(sv, due);
}

/* The chip's edges, kept for the match under way's raw inputs (found by
 * time), so `dyeref sensors --replay-db` can run a disputed throw's
 * impacts again. Edges outside a match belong to no throw. */
static void on_edges(void *user, const struct sens_config *cfg, const struct sens_edge *e,
		     size_t n)
{
	struct serve *sv = user;
	int64_t match;

	if (!dd_referee_in_match(sv->ref))
		return;
	match = dd_referee_current_id(sv->ref);
	sv->edges_cfg = cfg;
	if (sv->keep->n && sv->keep_match != match && store_kept(sv, false)) {
		dd_log(DD_LOG_WARN, "sensors: %zu edges of match %" PRId64 " not stored: the "
		       "event log did not take them", sv->keep->n, sv->keep_match);
		dd_edge_keep_stored(sv->keep, sv->keep->n);
	}
	sv->keep_match = match;
	dd_edge_keep_add(sv->keep, cfg, e, n);
	/* A store that refused them is tried again once a second, not at
	 * every read (each failure is a line in the log and a push). */
	arm_raw_flush(sv, sv->keep_failing ? RAW_RETRY_NS : RAW_FLUSH_NS);
}

static int start_match(struct serve *sv, const struct web_command *cmd, char *err, size_t errlen)
{
	struct bd_match_cfg cfg;

	bd_match_cfg_init(&cfg);
	memcpy(cfg.players, cmd->players, sizeof(cfg.players));
	cfg.first_team = cmd->first_team;
	cfg.house = cmd->house;
	for (int i = 0; i < BD_PLAYERS; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(cfg.players[i], cfg.players[j])) {
				snprintf(err, errlen, "teams: '%s' is named twice", cfg.players[i]);
				return -EINVAL;
			}
	return dd_referee_start(sv->ref, &cfg, cmd->teams, err, errlen);
}

static void sim_next_match_due(struct serve *sv);

/* A new Beer Die match starts with nothing of the last one in fusion: no
 * throw under way (the feeder's, or an input's, after an official ended
 * the match), no button's call held, no close time; its settings stay. */
static void fusion_restart(struct serve *sv)
{
	struct dd_fusion_cfg fc = sv->fusion.cfg;

	dd_fusion_init(&sv->fusion, &fc);
}

/* Whether the Beer Die game under way is won (BD-W1): then err says what
 * the official can do, as no throw counts until it is reopened. */
static bool won(struct serve *sv, char *err, size_t errlen)
{
	if (!dd_referee_over(sv->ref))
		return false;
	snprintf(err, errlen, "the game is over: undo or correct its last throw, or end the match");
	return true;
}

static int on_command(void *user, const struct web_command *cmd, char *err, size_t errlen)
{
	struct serve *sv = user;
	struct dd_obs o;
	struct dd_fused *fx;
	struct store_mark before = store_mark(sv);
	int rc = 0;

	invalidate(sv);
	memset(&o, 0, sizeof(o));
	o.source = DD_SRC_CONSOLE;
	o.confidence = 1;
	o.t_ns = dd_clock_now(sv->clock);
	switch (cmd->kind) {
	case WEB_CMD_START:
		if (strcmp(cmd->game, "beerdie")) {
			rc = dd_referee_dice_start(sv->ref, cmd->line, err, errlen);
			break;
		}
		/* cmd->house is the config's [house] with the console's changes. */
		rc = start_match(sv, cmd, err, errlen);
		if (rc == 0)
			fusion_restart(sv);
		break;
	case WEB_CMD_END:
		rc = dd_referee_end(sv->ref, err, errlen);
		if (rc == 0) {
			char why[256];

			/* A finished match is what retention may prune. */
			if (db_retention_run(sv->db, 0, NULL, why, sizeof(why)))
				dd_log(DD_LOG_WARN, "retention: %s", why);
		}
		break;
	case WEB_CMD_CALL:
	case WEB_CMD_DYE_UP_MISSED:
		if (!dd_referee_in_match(sv->ref)) {
			snprintf(err, errlen, "no match under way");
			return -ENOENT;
		}
		if (dd_referee_waiting(sv->ref)) {
			snprintf(err, errlen, "a ruling awaits review: confirm or correct it first");
			return -EBUSY;
		}
		/* Fusion would take the call and its throw be refused later,
		 * out of the official's sight (or, after an undo, join the
		 * next throw). */
		if (won(sv, err, errlen))
			return -EBUSY;
		o.kind = cmd->kind == WEB_CMD_CALL ? DD_OBS_EVENT : DD_OBS_DYE_UP_MISSED;
		if (cmd->kind == WEB_CMD_CALL)
			o.ev = cmd->events[0];
		feed(sv, &o);
		return 0;	/* feed() pushed the state if a throw completed */
	case WEB_CMD_THROW:
		/* The match's state refuses it, as a call: not a bad request. */
		if (won(sv, err, errlen))
			return -EBUSY;
		fx = calloc(1, sizeof(*fx));
		if (!fx)
			return -ENOMEM;
		fx->t.thrower = cmd->thrower;
		fx->t.dye_up = cmd->dye_up;
		fx->t.apex_m = -1;
		fx->t.n_events = cmd->n_events;
		memcpy(fx->t.events, cmd->events, cmd->n_events * sizeof(cmd->events[0]));
		fx->t_start_ns = fx->t_dead_ns = o.t_ns;
		rc = dd_referee_throw(sv->ref, fx, err, errlen);
		free(fx);
		break;
	case WEB_CMD_CONFIRM:
		rc = dd_referee_confirm(sv->ref, cmd->throw_no, err, errlen);
		break;
	case WEB_CMD_CORRECT: {
		struct bd_throw t;

		memset(&t, 0, sizeof(t));
		t.thrower = cmd->thrower;
		t.dye_up = cmd->dye_up;
		t.apex_m = -1;
		t.n_events = cmd->n_events;
		memcpy(t.events, cmd->events, cmd->n_events * sizeof(cmd->events[0]));
		rc = dd_referee_correct(sv->ref, cmd->throw_no, &t, err, errlen);
		break;
	}
	case WEB_CMD_UNDO:
		rc = dd_referee_undo(sv->ref, err, errlen);
		break;
	case WEB_CMD_DICE:
		rc = dd_referee_dice_move(sv->ref, cmd->line, err, errlen);
		break;
	}
	store_health(sv, before, rc, err);
	if (rc)
		return rc;
	push_state(sv);
	/* A spent simulator sends no throw to find the table empty: the
	 * official's End (or a dice game's last move) is the demo's cue. Nor
	 * do its throws reach a game the console's throw, correction or
	 * confirm won (they are left out of fusion): that win is the cue. */
	if ((!dd_referee_current_id(sv->ref) && dd_sim_feed_spent(sv->simfeed)) ||
	    dd_referee_over(sv->ref))
		sim_next_match_due(sv);
	return 0;
}

/* ---- The throw --------------------------------------------------------- */

static void on_restart(void *user);

/* Whether the Beer Die match under way plays on: not won, and the
 * simulator's throws still come. */
static bool sim_match_plays_on(const struct serve *sv)
{
	return dd_referee_in_match(sv->ref) && !dd_sim_feed_spent(sv->simfeed) &&
	       !dd_referee_over(sv->ref);
}

/* On the simulated table, the next match [sim] pause_s (real seconds,
 * whatever the clock's speed) after this one ends, after
 * the simulator's ends (its last throw is out and the referee's score, its
 * own rulings, has not reached the target), or after an official ended it
 * from the console (the simulator's throws then come outside a match): the
 * demo must never wait for ever. */
static void sim_next_match_due(struct serve *sv)
{
	int64_t pause_ns;

	if (!sv->sim || !(sv->demo || sv->simfeed) || dd_timer_due(sv->restart) != INT64_MAX)
		return;
	/* A dice game an official began is played on the tray, not the
	 * table: the simulator's throws, spent or not, do not end it. */
	if (dd_referee_current_id(sv->ref) && !dd_referee_in_match(sv->ref))
		return;
	if (sim_match_plays_on(sv))
		return;
	sv->restart_for = dd_referee_current_id(sv->ref);
	pause_ns = (int64_t)(sv->sc.sim_pause_s * dd_clock_speed(sv->clock) * 1e9);
	dd_timer_arm(sv->restart, dd_time_shifted(dd_clock_now(sv->clock), pause_ns));
}

/* The match step's judge: at_ns is fusion's time, the processing is timed
 * on the daemon's clock from here (the throw assembled). */
static void judge_fused(void *user, const struct dd_fused *fx, int64_t at_ns)
{
	struct serve *sv = user;
	int64_t settled_ns = dd_clock_now(sv->clock);
	char err[256] = "";
	struct store_mark before = store_mark(sv);
	int rc;
	int64_t pushed, last;

	(void)at_ns;
	if (!dd_referee_in_match(sv->ref)) {
		dd_log(DD_LOG_INFO, "a throw outside a match was ignored (%zu observations)", fx->n_obs);
		sim_next_match_due(sv);
		return;
	}
	rc = dd_referee_throw(sv->ref, fx, err, sizeof(err));
	store_health(sv, before, rc, err);
	if (rc) {
		dd_log(DD_LOG_WARN, "throw not judged: %s", err);
		return;
	}
	pushed = dd_clock_now(sv->clock);
	sv->last_processing_ns = pushed - settled_ns;
	/* From the last thing seen (a sensor edge, or the official's catch
	 * call that ended the throw): what came before it was not waiting on us. */
	last = fx->t_last_edge_ns > fx->t_dead_ns ? fx->t_last_edge_ns : fx->t_dead_ns;
	sv->last_edge_to_push_ns = last ? pushed - last : 0;
	sv->last_edge_ns = last;
	sv->rulings++;
	push_state(sv);
	sim_next_match_due(sv);
}

static void on_fusion_timer(void *user)
{
	struct serve *sv = user;
	struct dd_fused *fx = malloc(sizeof(*fx));
	struct dd_step st;

	invalidate(sv);
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
	set_timer(sv->web_timer, ms < 0 ? INT64_MAX : dd_clock_now(sv->clock) + ms * 1000000LL);
	/* While a resting die's face is read off the loop, fusion's deadline
	 * waits for its rest (DD_OBS_REST_PENDING). */
	set_timer(sv->fusion_timer, dd_fusion_deadline(&sv->fusion));
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

static void on_web_timer(void *user)
{
	on_web_io(NULL, -1, 0, user);
}

static void on_keepalive(void *user)
{
	struct serve *sv = user;

	web_server_keepalive(sv->web);
	dd_timer_arm(sv->keepalive, dd_time_shifted(dd_clock_now(sv->clock), KEEPALIVE_NS));
	rearm_timers(sv);
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
	web_server_set_house(sv->web, &sc.ref.house);
	if (strcmp(sc.bind, sv->sc.bind) || sc.port != sv->sc.port || strcmp(sc.db_path, sv->sc.db_path))
		dd_log(DD_LOG_WARN, "reload: web.bind, web.port and db.path change on restart only");
	snprintf(sv->sc.pin, sizeof(sv->sc.pin), "%s", sc.pin);
	sv->sc.ref = sc.ref;
	sv->sc.sim_max_throws = sc.sim_max_throws;
	sv->sc.sim_pause_s = sc.sim_pause_s;
	if (sc.sim_speed != sv->sc.sim_speed)
		dd_log(DD_LOG_WARN, "reload: sim.speed changes on restart only");
	invalidate(sv);
	dd_log(DD_LOG_INFO, "reloaded: house rules and sim.max_throws for the next match, "
	       "sim.pause_s, console PIN (sessions ended)");
free_config:
	dd_config_free(&cfg);
	sd_notify(0, "READY=1");
	return 0;
}

/* --sim: the simulator's virtual table (--sim=table) or the built-in
 * sample match. */
static bool feeder_start(struct serve *sv, char *err, size_t errlen)
{
	if (sv->sim_table) {
		sv->simfeed = dd_sim_feed_new(sv->ev, sv->clock, sv->sim_matches++,
					      sv->sc.sim_max_throws, on_obs, sv, err, errlen);
		return sv->simfeed != NULL;
	}
	sv->demo = dd_demo_new(sv->clock, on_obs, sv, err, errlen);
	return sv->demo != NULL;
}

static void feeder_stop(struct serve *sv)
{
	dd_sim_feed_free(sv->simfeed);
	sv->simfeed = NULL;
	dd_demo_free(sv->demo);
	sv->demo = NULL;
}

static void demo_match_cfg(struct serve *sv, struct bd_match_cfg *cfg, char teams[2][32])
{
	if (sv->sim_table)
		dd_sim_feed_match_cfg(cfg, teams);
	else
		dd_demo_match_cfg(cfg, teams);
	cfg->house = sv->sc.ref.house;
}

/*
 * The simulator needs the table for its own match. What is under way
 * (restored after a restart, or started from the console) is:
 * - the simulator's own match (its players and team names): ended, as the
 *   console's End would; it was a demo, and it may be waiting for a review
 *   nobody will give;
 * - anything else (a dice game, somebody's Beer Die match): set aside.
 *   Nothing is written to it (the demo must not put made-up throws into a
 *   real match, nor end a game people mean to finish), so it stays in the
 *   log as it stood and is the match under way again at the next start
 *   without --sim (the demo ends its own match when it stops).
 */
static void demo_clear_table(struct serve *sv)
{
	struct bd_match_cfg cfg;
	char teams[2][32], err[256], game[32];
	int64_t id;

	demo_match_cfg(sv, &cfg, teams);
	if (dd_referee_match_is(sv->ref, &cfg, (const char (*)[32])teams) &&
	    dd_referee_end(sv->ref, err, sizeof(err)) == 0)
		return;
	id = dd_referee_set_aside(sv->ref, game, sizeof(game));
	if (id)
		dd_log(DD_LOG_INFO, "demo: match %lld (%s) set aside, not ended: the simulator "
		       "plays its own match; it is under way again at a start without --sim",
		       (long long)id, game);
}

/* A demo that stops ends its own match, so the newest match not ended is
 * again the one a start without --sim should pick up. */
static void demo_end_own(struct serve *sv)
{
	struct bd_match_cfg cfg;
	char teams[2][32], err[256];

	demo_match_cfg(sv, &cfg, teams);
	if (dd_referee_match_is(sv->ref, &cfg, (const char (*)[32])teams) &&
	    dd_referee_end(sv->ref, err, sizeof(err)))
		dd_log(DD_LOG_WARN, "demo: ending its match: %s", err);
}

static void start_demo_match(struct serve *sv)
{
	struct bd_match_cfg cfg;
	char teams[2][32], err[256];

	demo_clear_table(sv);
	demo_match_cfg(sv, &cfg, teams);
	if (dd_referee_start(sv->ref, &cfg, (const char (*)[32])teams, err, sizeof(err)))
		dd_log(DD_LOG_ERR, "demo: %s", err);
	else
		fusion_restart(sv);
}

static void on_restart(void *user)
{
	struct serve *sv = user;
	char err[256];

	/* A match begun since (an official's, from the console, Beer Die or
	 * dice) is not the demo's to set aside. */
	if (dd_referee_current_id(sv->ref) && dd_referee_current_id(sv->ref) != sv->restart_for) {
		dd_log(DD_LOG_INFO, "demo: match %lld, begun from the console, stands",
		       (long long)dd_referee_current_id(sv->ref));
		return;
	}
	/* An official's undo or correction reopened the won game since: the
	 * simulator's throws play it on, and its next win (or the
	 * simulator's end) sets the next match due again. */
	if (sim_match_plays_on(sv)) {
		dd_log(DD_LOG_INFO, "demo: match %lld reopened from the console, plays on",
		       (long long)sv->restart_for);
		return;
	}
	feeder_stop(sv);
	start_demo_match(sv);
	if (!feeder_start(sv, err, sizeof(err)))
		dd_log(DD_LOG_ERR, "demo: %s", err);
	push_state(sv);
}

/* ---- Configuration ------------------------------------------------------ */

/* The referee's hook for a throw's picture: the camera's. */
static int snapshot(void *user, struct db *db, int64_t match, int throw_no, int64_t since_ns,
		    char *err, size_t errlen)
{
	return dd_camera_snapshot(user, db, match, throw_no, since_ns, err, errlen);
}

/* Makes the sensors and camera glue on the loop and serve's clock; a bad
 * config is a problem listed in sv->sc (-EINVAL), a missing chip or camera
 * only a health item. */
static int attach_inputs(struct serve *sv, struct dd_config *cfg)
{
	char err[512];

	sv->sensors_glue = dd_sensors_new(cfg, sv->ev, sv->clock, sv->sim, on_obs, sv,
					  &sv->sensors, err, sizeof(err));
	if (!sv->sensors_glue) {
		dd_serve_config_problem(&sv->sc, err);
	} else {
		sv->keep = malloc(sizeof(*sv->keep));
		if (sv->keep) {
			dd_edge_keep_init(sv->keep);
			dd_sensors_keep_edges(sv->sensors_glue, on_edges, sv);
		} else {
			dd_log(DD_LOG_WARN, "sensors: edges will not be stored (out of "
			       "memory): a disputed throw's impacts cannot be replayed");
		}
		/* A mine with no disc under it cannot contradict the camera (BD-O1). */
		sv->sc.fusion.mine_disc_present = dd_sensors_mine_wired(sv->sensors_glue);
	}
	sv->camera_glue = dd_camera_new(cfg, sv->ev, sv->clock, sv->sim, on_obs, sv, &sv->camera,
					err, sizeof(err));
	if (!sv->camera_glue)
		dd_serve_config_problem(&sv->sc, err);
	else
		dd_referee_set_snapshot(sv->ref, snapshot, sv->camera_glue);
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
	    !(sv->restart = dd_timer_new(sv->clock, on_restart, sv)) ||
	    !(sv->raw_flush = dd_timer_new(sv->clock, on_raw_flush, sv)))
		return -errno;
	dd_timer_arm(sv->keepalive, dd_time_shifted(dd_clock_now(sv->clock), KEEPALIVE_NS));
	/* Pings WATCHDOG=1 by itself when systemd set WatchdogSec. */
	sd_event_set_watchdog(sv->ev, 1);
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
	/* Named: match_log and sheet have the same type, a reordered struct
	 * would still compile with them swapped. */
	struct web_handlers wh = {
		.state = on_state, .matches = on_matches, .match_log = on_log,
		.throw_detail = on_throw, .command = on_command, .sheet = on_sheet,
		.snapshot = on_snapshot, .console_status = on_console_status,
	};
	char err[512];
	bool check = false;
	long port_override = -1;
	struct store_mark before;
	int c, rc, status = DD_EXIT_FAIL;

	if (!sv)
		return DD_EXIT_FAIL;
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

	sv->db = db_open(sv->sc.db_path, DB_OPEN_CREATE, err, sizeof(err));
	if (!sv->db) {
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
	/* A match the referee cannot read back (a log this version's judge
	 * refuses, a read error) must not keep the table without a referee:
	 * exiting would only make systemd restart into the same refusal. The
	 * daemon runs without it, says why on the health strip, and the
	 * officials can start a new match; the old one stays in the log. */
	before = store_mark(sv);
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
	wc.port = sv->sc.port;
	wc.pin = sv->sc.pin;
	wc.house = &sv->sc.ref.house;
	sv->web = web_server_new(&wc, &wh, sv, err, sizeof(err));
	if (!sv->web) {
		dd_log(DD_LOG_ERR, "%s", err);
		goto free_referee;
	}
	rc = setup_loop(sv);
	if (rc < 0) {
		dd_log(DD_LOG_ERR, "event loop: %s", strerror(-rc));
		goto free_loop;
	}
	if (attach_inputs(sv, &cfg)) {
		fputs(sv->sc.problems, stderr);
		status = DD_EXIT_USAGE;
		goto free_inputs;
	}
	/* Every key was claimed by check_config(), which read them alike. */
	dd_fusion_init(&sv->fusion, &sv->sc.fusion);
	if (sv->sim) {
		start_demo_match(sv);
		if (!feeder_start(sv, err, sizeof(err))) {
			dd_log(DD_LOG_ERR, "demo: %s", err);
			goto free_inputs;
		}
	}
	/* From here: what attaching said is in the first state rendered. */
	sv->sensors.changed = sv->camera.changed = on_health_changed;
	sv->sensors.user = sv->camera.user = sv;
	rearm_timers(sv);
	dd_log(DD_LOG_INFO, "listening on http://%s%s%s:%u/ (sensors: %s; camera: %s)",
	       strchr(sv->sc.bind, ':') ? "[" : "", sv->sc.bind, strchr(sv->sc.bind, ':') ? "]" : "",
	       web_server_port(sv->web), sv->sensors.text, sv->camera.text);
	sd_notifyf(0, "READY=1\nSTATUS=serving on port %u", web_server_port(sv->web));
	rc = sd_event_loop(sv->ev);
	status = rc < 0 ? DD_EXIT_FAIL : DD_EXIT_OK;

	feeder_stop(sv);
	if (sv->sim)
		demo_end_own(sv);
	if (sv->keep && sv->keep->n)
		store_kept(sv, true);	/* the last reads', before the log closes */
free_inputs:
	detach_inputs(sv);
free_loop:
	dd_timer_free(sv->raw_flush);
	dd_timer_free(sv->restart);
	dd_timer_free(sv->keepalive);
	dd_timer_free(sv->fusion_timer);
	dd_timer_free(sv->web_timer);
	dd_clock_free(sv->clock);
	sd_event_source_unref(sv->web_io);
	web_server_free(sv->web);
	sd_event_unref(sv->ev);
	invalidate(sv);
	free(sv->keep);
free_referee:
	dd_referee_free(sv->ref);
close_db:
	db_close(sv->db);
free_config:
	dd_config_free(&cfg);
	free(sv);
	return status;
}
