/* dyeref serve's web side: the state every screen is shown (rendered once
 * per change), the pages' reads and the console's commands. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/cliio.h"
#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/feeds.h"
#include "daemon/fusion.h"
#include "daemon/health.h"
#include "daemon/history.h"
#include "daemon/inputs.h"
#include "daemon/obs_time.h"
#include "daemon/referee.h"
#include "daemon/serve.h"
#include "db/db.h"
#include "web/web.h"

/* The state is read far more often than it changes (every screen polls or
 * reconnects): render it once per change. */
void dd_serve_invalidate(struct serve *sv)
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
	json_object_set_new(o, "table", json_pack("{s:s,s:s}", "id", sv->sc.ref.table_id, "name",
		sv->sc.ref.table_name[0] ? sv->sc.ref.table_name : sv->sc.ref.table_id));
	json_object_set_new(o, "mode", json_string(sv->sim ? "sim" : "live"));
	json_object_set_new(o, "version", json_string(dd_version()));
	json_object_set_new(o, "in_flight", json_boolean(dd_fusion_active(&sv->fusion)));
	json_object_set_new(o, "waiting", json_boolean(dd_referee_waiting(sv->ref)));
	if (sv->challenge_match) {
		int64_t left = sv->challenge_end_ns - dd_clock_now(sv->clock);

		double secs = sv->sc.challenge_s;

		/* 15, not 15.0: a whole number of seconds reads as one. */
		json_object_set_new(o, "challenge", json_pack("{s:I,s:i,s:o,s:I}",
			"match", (json_int_t)sv->challenge_match, "throw", sv->challenge_throw,
			"seconds", secs == (double)(json_int_t)secs ? json_integer((json_int_t)secs)
								     : json_real(secs),
			"left_ms", (json_int_t)(left > 0 ? (left + 999999) / 1000000 : 0)));
	} else {
		json_object_set_new(o, "challenge", json_null());
	}
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
void dd_serve_push_state(struct serve *sv)
{
	char *text = NULL;

	dd_serve_invalidate(sv);
	if (render_state(sv, &text) == 0) {
		web_server_broadcast(sv->web, "state", text);
		sv->state_cache = text;
	}
	/* Committed, so the outbox holds every ruling this change made. */
	dd_mqtt_changed(sv->mqtt, text);
}

/* A glue's health item changed on its own, off any request (the camera's
 * frames stopped, their rate, a sensor line gone quiet): the screens hear
 * it now, not with the next throw. */
void dd_serve_on_health_changed(void *user)
{
	dd_serve_push_state(user);
}

/* The challenge replay's time is up: the wall shows the score again. */
void dd_serve_on_challenge_end(void *user)
{
	struct serve *sv = user;

	sv->challenge_match = 0;
	sv->challenge_throw = 0;
	dd_timer_arm(sv->challenge, INT64_MAX);
	dd_serve_push_state(sv);
	dd_serve_rearm(sv);
}

/* Throw k of match shown on the wall for [web] challenge_s, or -ENOENT
 * when there is no such throw. */
static int show_on_wall(struct serve *sv, long match, int k, char *err, size_t errlen)
{
	char *detail = NULL;
	int rc = dd_referee_throw_detail(sv->ref, match, k, &detail);

	free(detail);
	if (rc == -ENOENT || rc == -EINVAL) {
		snprintf(err, errlen, "match %ld has no throw %d", match, k);
		return -ENOENT;
	}
	if (rc) {
		snprintf(err, errlen, "the event log could not be read");
		return rc;
	}
	sv->challenge_match = match;
	sv->challenge_throw = k;
	sv->challenge_end_ns = dd_time_shifted(dd_clock_now(sv->clock),
		dd_clock_span(sv->clock, (int64_t)(sv->sc.challenge_s * 1e9)));
	dd_timer_arm(sv->challenge, sv->challenge_end_ns);
	return 0;
}

static int on_state(void *user, char **json)
{
	struct serve *sv = user;
	int rc;

	/* A challenge's left_ms is now's: not from the cache. */
	if (sv->challenge_match)
		dd_serve_invalidate(sv);
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

static int on_throws(void *user, long match, char **json)
{
	struct serve *sv = user;

	return dd_referee_throws_list(sv->ref, match, json);
}

static int on_snapshot(void *user, long match, long k, long i, int64_t id, char **jpeg,
		       size_t *len)
{
	struct serve *sv = user;

	return dd_referee_snapshot(sv->ref, match, k, i, id, jpeg, len);
}

static int on_sheet(void *user, long match, char **json)
{
	struct serve *sv = user;

	return dd_referee_sheet(sv->ref, match, json);
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
	return dd_referee_start(sv->ref, &cfg, cmd->teams,
				(const char (*)[MLOG_COLOR_MAX])cmd->colors, err, errlen);
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

/* Unix time in ms, for the audit's "when" (shown to people, never used to
 * order or time anything: that is the loop's clock). */
static int64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* o (taken) as compact text, NULL for none. */
static char *as_text(json_t *o)
{
	char *text = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;

	json_decref(o);
	return text;
}

/* The console's answer to a command, as JSON text (malloc'd; NULL for none
 * or out of memory): the Beer Die match after acting on throw k (0:
 * none), or the dice match's id. */
static char *command_result(struct serve *sv, int k)
{
	json_t *o = NULL;

	if (dd_referee_result(sv->ref, k, &o))
		return NULL;
	if (!o)
		o = json_pack("{s:I}", "match", (json_int_t)dd_referee_current_id(sv->ref));
	return as_text(o);
}

/* The console's answer to a dice command on match id (referee_dice.c's),
 * as text; NULL for none. */
static char *dice_result(struct serve *sv, int64_t id)
{
	json_t *o = NULL;

	if (!id || dd_referee_dice_result(sv->ref, id, &o))
		return NULL;
	return as_text(o);
}

static int on_command(void *user, const struct web_command *cmd, char **result,
		      char *err, size_t errlen)
{
	struct serve *sv = user;
	struct dd_obs o;
	struct dd_fused *fx;
	struct store_mark before = dd_serve_store_mark(sv);
	struct dd_audit audit;
	int rc = 0, k = 0, n_before = dd_referee_throws(sv->ref);
	bool held_before = dd_referee_waiting(sv->ref);
	/* A dice game under way: undo and correct are its. */
	int64_t id = dd_referee_current_id(sv->ref);
	bool dice = id && !dd_referee_in_match(sv->ref);
	json_t *ended = NULL;

	*result = NULL;
	dd_serve_invalidate(sv);
	memset(&o, 0, sizeof(o));
	o.source = DD_SRC_CONSOLE;
	o.confidence = 1;
	o.t_ns = dd_clock_now(sv->clock);
	memset(&audit, 0, sizeof(audit));
	snprintf(audit.official, sizeof(audit.official), "%s", cmd->official);
	snprintf(audit.reason, sizeof(audit.reason), "%s", cmd->reason);
	audit.wall_ms = wall_ms();
	switch (cmd->kind) {
	case WEB_CMD_START:
		if (strcmp(cmd->game, "beerdie")) {
			rc = dd_referee_dice_start(sv->ref, cmd->line, err, errlen);
			break;
		}
		/* cmd->house is the config's [house] with the console's changes. */
		rc = start_match(sv, cmd, err, errlen);
		if (rc == 0)
			dd_serve_fusion_restart(sv);
		break;
	case WEB_CMD_END:
		/* The match as it ends: after, there is none under way. */
		if (dd_referee_result(sv->ref, 0, &ended) == 0 && ended) {
			json_object_del(ended, "throw");
			json_object_del(ended, "ruling");
		}
		if (!ended)
			ended = json_pack("{s:I}", "match", (json_int_t)dd_referee_current_id(sv->ref));
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
		dd_serve_feed(sv, &o);
		/* dd_serve_feed() pushed the state if a throw completed: the
		 * answer names it, or no throw when the call only joined one. */
		k = dd_referee_throws(sv->ref) + (dd_referee_waiting(sv->ref) ? 1 : 0);
		*result = command_result(sv, k > n_before ? k : 0);
		return 0;
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
		k = dd_referee_throws(sv->ref) + (dd_referee_waiting(sv->ref) ? 1 : 0);
		break;
	case WEB_CMD_CONFIRM:
		k = cmd->throw_no ? cmd->throw_no : dd_referee_review_throw(sv->ref);
		rc = dd_referee_confirm(sv->ref, cmd->throw_no, &audit, err, errlen);
		break;
	case WEB_CMD_CORRECT: {
		struct bd_throw t;

		if (cmd->turn || dice) {
			if (!cmd->turn) {
				snprintf(err, errlen, "turn: a dice game is under way: name its turn");
				return -EINVAL;
			}
			rc = dd_referee_dice_correct(sv->ref, cmd->turn, cmd->line, cmd->accept_zero,
						     &audit, err, errlen);
			break;
		}
		memset(&t, 0, sizeof(t));
		t.thrower = cmd->thrower;
		t.dye_up = cmd->dye_up;
		t.apex_m = -1;
		t.n_events = cmd->n_events;
		memcpy(t.events, cmd->events, cmd->n_events * sizeof(cmd->events[0]));
		k = cmd->throw_no ? cmd->throw_no : dd_referee_throws(sv->ref) + 1;
		rc = dd_referee_correct(sv->ref, cmd->throw_no, &t, &audit, err, errlen);
		break;
	}
	case WEB_CMD_UNDO:
		if (dice) {
			rc = dd_referee_dice_undo(sv->ref, &audit, err, errlen);
			break;
		}
		rc = dd_referee_undo(sv->ref, &audit, err, errlen);
		k = n_before + (held_before ? 1 : 0);
		break;
	case WEB_CMD_DICE:
		rc = dd_referee_dice_move(sv->ref, cmd->line, cmd->accept_zero, &audit, err, errlen);
		break;
	case WEB_CMD_DUTY_DONE:
		rc = dd_referee_duty_done(sv->ref, cmd->duty, cmd->done, &audit, err, errlen);
		break;
	case WEB_CMD_SHOW_ON_WALL:
		rc = show_on_wall(sv, cmd->match, cmd->throw_no, err, errlen);
		break;
	case WEB_CMD_FACE: {
		json_t *label = NULL;

		/* A label, not a ruling: nothing for the screens or the demo. */
		rc = dd_referee_face_label(sv->ref, cmd->match, cmd->throw_no, cmd->snapshot,
					   cmd->face, &audit, o.t_ns, &label, err, errlen);
		dd_serve_store_health(sv, before, rc, err);
		*result = rc ? NULL : as_text(label);
		return rc;
	}
	case WEB_CMD_DISMISS_WALL:
		sv->challenge_match = 0;
		sv->challenge_throw = 0;
		dd_timer_arm(sv->challenge, INT64_MAX);
		break;
	}
	dd_serve_store_health(sv, before, rc, err);
	if (rc) {
		json_decref(ended);
		return rc;
	}
	if (ended)
		*result = as_text(ended);
	else if (dice || cmd->kind == WEB_CMD_DICE || (cmd->kind == WEB_CMD_CORRECT && cmd->turn))
		*result = dice_result(sv, id);
	else
		*result = command_result(sv, k);
	dd_serve_push_state(sv);
	/* A spent simulator sends no throw to find the table empty: the
	 * official's End (or a dice game's last move, which completes it) is
	 * the demo's cue. Nor do its throws reach a game the console's throw,
	 * correction or confirm won (they are left out of fusion): that win
	 * is the cue. */
	if ((!dd_referee_current_id(sv->ref) && dd_sim_feed_spent(sv->simfeed)) ||
	    dd_referee_over(sv->ref) || dd_referee_dice_over(sv->ref))
		dd_serve_sim_next_match_due(sv);
	else
		dd_serve_sim_reopened(sv);
	return 0;
}

static int on_players(void *user, char names[BD_PLAYERS][BD_NAME_MAX])
{
	struct serve *sv = user;

	return dd_referee_players(sv->ref, names);
}

/* History pages (daemon/history.c): answers from the database, folded
 * through core/. */
static int history_rc(int rc, const char *what, const char *err)
{
	if (rc && rc != -ENOENT && rc != -EINVAL && rc != -EAGAIN && err[0])
		dd_log(DD_LOG_WARN, "%s: %s", what, err);
	return rc;
}

static int on_matches_page(void *user, long page, long per, char **json)
{
	struct serve *sv = user;
	char err[256] = "";

	if (!sv->db)
		return -ENOENT;
	return history_rc(dd_history_page(sv->history, sv->db, page, per, json, err, sizeof(err)), "matches", err);
}

static int on_player_stats(void *user, const char *name, char **json)
{
	struct serve *sv = user;
	char err[256] = "";

	if (!sv->db)
		return -ENOENT;
	return history_rc(dd_history_players(sv->history, sv->db, name, json, err, sizeof(err)), "players", err);
}

static int csv_into(struct serve *sv, long match, char **csv)
{
	char err[256] = "", *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc = 0;
	struct dd_stats st = { 0 };

	*csv = NULL;
	if (!sv->db)
		return -ENOENT;
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	if (match)
		rc = dd_match_csv(sv->db, match, f, err, sizeof(err));
	else if (!(rc = dd_history_refresh(sv->history, sv->db, DD_HISTORY_FOLDS, err, sizeof(err))) &&
		 !(rc = dd_history_stats(sv->history, &st, err, sizeof(err))))
		dd_stats_csv(&st, f);
	dd_stats_free(&st);
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (rc) {
		free(buf);
		return history_rc(rc, "csv", err);
	}
	*csv = buf;
	return 0;
}

static int on_players_csv(void *user, char **csv)
{
	return csv_into(user, 0, csv);
}

static int on_match_csv(void *user, long match, char **csv)
{
	return csv_into(user, match, csv);
}

void dd_serve_web_handlers(struct web_handlers *wh)
{
	/* Named: match_log and sheet have the same type, a reordered struct
	 * would still compile with them swapped. */
	*wh = (struct web_handlers){
		.state = on_state, .matches = on_matches, .match_log = on_log,
		.throw_detail = on_throw, .command = on_command, .sheet = on_sheet,
		.snapshot = on_snapshot, .console_status = on_console_status,
		.players = on_players, .throws = on_throws,
		.matches_page = on_matches_page, .player_stats = on_player_stats,
		.players_csv = on_players_csv, .match_csv = on_match_csv,
	};
}
