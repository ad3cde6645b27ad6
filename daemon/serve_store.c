/* dyeref serve's event log: the health strip's "store" after each write
 * (and after every event, for the writes nobody reported), the check of
 * the whole log in the background, and the chip's edges kept for the
 * match's raw inputs, stored in batches off the throw's path. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
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
	} else if (db_commits(sv->db) != before.commits && !sv->storage.ok && !sv->store_corrupt) {
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
	} else if (now.commits != seen.commits && !sv->storage.ok && !sv->store_corrupt) {
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

/* ---- The whole log checked, off the loop -------------------------------- */

/* quick_check reads every page (minutes for 2 GiB on an SD card), so the
 * daemon serves at once and checks in a worker thread, on a connection
 * of its own; the verdict comes back to the loop through a pipe. */
struct dd_store_check {
	pthread_mutex_t lock;	/* guards db and stop */
	struct db *db;		/* the worker's read-only connection while it checks */
	bool stop;		/* the daemon is stopping: check nothing more */
	pthread_t thread;	/* the worker */
	int fds[2];		/* the pipe: the worker writes its verdict into [1] once */
	sd_event_source *io;	/* [0] on the loop */
	bool left_open;		/* the log was left open by a crash (db_left_open) */
	char path[480];		/* the log's path (a copy) */
};

static void *store_check_run(void *arg)
{
	struct dd_store_check *c = arg;
	char err[400] = "", msg[PIPE_BUF];
	struct db *db;
	int rc, n;

	/* Behind the referee: this thread alone yields the CPU and the disk
	 * (Linux takes both per thread); failing that, a check at the usual
	 * priority is still a check. */
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
	(void)syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, gettid(), 3 << 13 /* IOPRIO_CLASS_IDLE */);
	db = db_open(c->path, DB_OPEN_READONLY, err, sizeof(err));
	rc = db ? 0 : -errno;

	if (db) {
		pthread_mutex_lock(&c->lock);
		c->db = c->stop ? NULL : db;
		pthread_mutex_unlock(&c->lock);
		rc = c->db ? db_check(db, err, sizeof(err)) : -EINTR;
		pthread_mutex_lock(&c->lock);
		c->db = NULL;
		pthread_mutex_unlock(&c->lock);
		db_close(db);
	}
	/* One write under PIPE_BUF: the loop reads it whole. */
	n = snprintf(msg, sizeof(msg), "%d %s", rc, err);
	if (write(c->fds[1], msg, (size_t)(n < (int)sizeof(msg) ? n : (int)sizeof(msg) - 1)) < 0)
		return NULL;	/* nobody to tell: the loop's end is closing it */
	return NULL;
}

/* Joins the worker (interrupting its check) and frees c. */
static void store_check_free(struct dd_store_check *c)
{
	pthread_mutex_lock(&c->lock);
	c->stop = true;
	if (c->db)
		db_interrupt(c->db);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	sd_event_source_unref(c->io);
	close(c->fds[0]);
	close(c->fds[1]);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* The verdict: a corrupt log turns the strip's "store" red for good (no
 * write makes it whole again); the rest is for the daemon's log. */
static int on_store_checked(sd_event_source *s, int fd, uint32_t revents, void *user)
{
	struct serve *sv = user;
	char msg[PIPE_BUF + 1], *why;
	ssize_t n = read(fd, msg, sizeof(msg) - 1);
	int rc;

	(void)s;
	(void)revents;
	msg[n > 0 ? n : 0] = 0;
	rc = (int)strtol(msg, &why, 10);
	why += *why == ' ';
	if (n <= 0) {
		dd_log(DD_LOG_WARN, "store: the check of the whole log gave no answer");
	} else if (rc == 0) {
		dd_log(DD_LOG_INFO, "store: checked whole%s: ok", sv->check->left_open ?
		       " after an unclean shutdown" : "");
	} else if (rc == -EILSEQ) {
		sv->store_corrupt = true;
		dd_health_set(&sv->storage, false, "corrupt database (found by the check at start-up)");
		dd_health_detail(&sv->storage, "%s: copy out what exports, then start on a new file", why);
		dd_log(DD_LOG_ERR, "store: %s", why);
		dd_serve_push_state(sv);
		dd_serve_rearm(sv);
	} else {
		dd_log(DD_LOG_WARN, "store: the check of the whole log could not run: %s", why);
	}
	store_check_free(sv->check);
	sv->check = NULL;
	return 0;
}

void dd_serve_store_check_start(struct serve *sv)
{
	struct dd_store_check *c = calloc(1, sizeof(*c));

	if (!c || pipe2(c->fds, O_CLOEXEC)) {
		dd_log(DD_LOG_WARN, "store: the log is not checked: %s", strerror(errno));
		free(c);
		return;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->left_open = db_left_open(sv->db);
	snprintf(c->path, sizeof(c->path), "%s", sv->sc.db_path);
	if (sd_event_add_io(sv->ev, &c->io, c->fds[0], EPOLLIN, on_store_checked, sv) < 0 ||
	    pthread_create(&c->thread, NULL, store_check_run, c)) {
		dd_log(DD_LOG_WARN, "store: the log is not checked: cannot start the check");
		sd_event_source_unref(c->io);
		close(c->fds[0]);
		close(c->fds[1]);
		pthread_mutex_destroy(&c->lock);
		free(c);
		return;
	}
	sv->check = c;
}

void dd_serve_store_check_stop(struct serve *sv)
{
	if (sv->check)
		store_check_free(sv->check);
	sv->check = NULL;
}
