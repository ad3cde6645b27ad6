/* dyeref serve's event log: the health strip's "store" after each write,
 * and the chip's edges kept for the match's raw inputs, stored in batches
 * off the throw's path. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-event.h>

#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/feeds.h"
#include "daemon/fusion.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "daemon/obs_time.h"
#include "daemon/referee.h"
#include "daemon/serve.h"
#include "db/db.h"
#include "web/web.h"

#define RAW_FLUSH_NS (100 * 1000000LL)	/* kept edges wait at most this for the store (db.h) */
#define RAW_RETRY_NS (1000 * 1000000LL)	/* ... and this again when it did not take them */

struct store_mark dd_serve_store_mark(const struct serve *sv)
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
void dd_serve_store_health(struct serve *sv, struct store_mark before, int rc, const char *err)
{
	unsigned long faults;
	const char *why = db_fault(sv->db, &faults);

	sv->store_seen = dd_serve_store_mark(sv);	/* said here: not again by the watch */
	if (faults != before.faults) {
		dd_health_set(&sv->storage, false, "write failed: %s", why);
		if (rc == 0) {
			dd_health_detail(&sv->storage, "write failed: %s: %s (the request went on "
					 "without it: the daemon's log says what)", sv->sc.db_path, why);
			return;	/* the caller pushes the state it changed */
		}
		dd_health_detail(&sv->storage, "write failed: %s", err);
		dd_log(DD_LOG_ERR, "store: %s", err);
		dd_serve_push_state(sv);
	} else if (db_commits(sv->db) != before.commits && !sv->storage.ok) {
		dd_health_set(&sv->storage, true, "ok");
		dd_log(DD_LOG_INFO, "store: writing again");
	}
}

/* The loop's post source: what failed or reached the file since the
 * strip last spoke, said by nobody else (dd_serve_store_health speaks
 * for the requests, the throws and the kept edges). */
static int on_store_watch(sd_event_source *s, void *user)
{
	struct serve *sv = user;
	struct store_mark now = dd_serve_store_mark(sv), seen = sv->store_seen;
	const char *why = db_fault(sv->db, NULL);

	(void)s;
	sv->store_seen = now;
	if (now.faults != seen.faults) {
		dd_health_set(&sv->storage, false, "write failed: %s", why);
		dd_health_detail(&sv->storage, "write failed: %s: %s (the daemon's log says what)",
				 sv->sc.db_path, why);
	} else if (now.commits != seen.commits && !sv->storage.ok) {
		dd_health_set(&sv->storage, true, "ok");
		dd_log(DD_LOG_INFO, "store: writing again");
	} else {
		return 0;
	}
	dd_serve_push_state(sv);
	dd_serve_rearm(sv);
	return 0;
}

int dd_serve_store_watch(struct serve *sv)
{
	sv->store_seen = dd_serve_store_mark(sv);
	return sd_event_add_post(sv->ev, &sv->store_watch, on_store_watch, sv);
}

/* Stores the kept edges in their match's raw inputs; unless wait, without
 * waiting for another program's lock on the log: they stay kept until it
 * goes, and the loop is not held up a second per read. Logs what was left
 * out. 0 or the store's error. */
int dd_serve_store_kept(struct serve *sv, bool wait)
{
	struct store_mark before = dd_serve_store_mark(sv);
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
		dd_serve_store_health(sv, before, rc, err);
	}
	if (dd_edge_keep_report(sv->keep, sv->edges_cfg, dd_clock_now(sv->clock), msg, sizeof(msg)))
		dd_log(DD_LOG_WARN, "%s", msg);
	return rc;
}

/* Runs dd_serve_store_kept() at at_ns on the clock, or sooner if it was to run
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

void dd_serve_on_raw_flush(void *user)
{
	struct serve *sv = user;
	int64_t due;

	if (dd_serve_store_kept(sv, false))
		arm_raw_flush(sv, RAW_RETRY_NS);
	else if ((due = dd_edge_keep_report_due(sv->keep)) > 0)
		arm_raw_flush_at(sv, due);
}

/* The chip's edges, kept for the match under way's raw inputs (found by
 * time), so `dyeref sensors --replay-db` can run a disputed throw's
 * impacts again. Edges outside a match belong to no throw. */
void dd_serve_on_edges(void *user, const struct sens_config *cfg, const struct sens_edge *e,
		     size_t n)
{
	struct serve *sv = user;
	int64_t match;

	if (!dd_referee_in_match(sv->ref))
		return;
	match = dd_referee_current_id(sv->ref);
	sv->edges_cfg = cfg;
	if (sv->keep->n && sv->keep_match != match && dd_serve_store_kept(sv, false)) {
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
