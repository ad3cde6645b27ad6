/*
 * The crash test (docs/event-log.md "Durability"): a writer process plays a
 * long simulated match into the database, telling a pipe about each throw
 * before it commits ("intent") and after ("done"). It is killed with
 * SIGKILL at 100 moments drawn from a fixed seed; after each kill the
 * database must open clean (quick_check on open, integrity_check here),
 * hold every throw reported done, and refold to the state of the last
 * report (or of the pending intent, when the kill fell between commit and
 * report). The next writer carries on where the last one was stopped.
 *
 * The kill moments do not race the machine's speed. Most are drawn after
 * the writer's first report (it has opened the database and picked up its
 * match: from then on it commits throws), 1..40 ms later, times
 * DYEREF_TEST_SLOWDOWN: a slow machine commits fewer throws between kills,
 * but never none because its start-up ate the whole delay. Every eighth
 * is drawn inside the start-up itself (opening, recovery, ending a match
 * left won), measured on the writer before it, so that window is hit on
 * any machine too.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "db/db.h"
#include "db/internal.h"
#include "tests/support/db_sim.h"
#include "tests/support/slowdown.h"

#define KILLS 100
#define MAX_DELAY_MS 40		/* after the writer's first report, times the slowdown */
#define STARTUP_EVERY 8		/* every 8th kill lands in the writer's start-up */
#define FIRST_REPORT_MS 60000	/* times the slowdown: a writer silent so long hangs */

/* One report on the pipe: fixed size, written in one write() (atomic). */
struct report {
	int32_t done;		/* 0: about to commit; 1: committed */
	int32_t entries;	/* throws + corrections of the match after it */
	int64_t match;		/* the match */
	struct bd_state state;	/* the state the players would be shown */
};

static void say(int fd, int done, int64_t match, int entries, const struct bd_state *s)
{
	struct report r;

	memset(&r, 0, sizeof(r));
	r.done = done;
	r.entries = entries;
	r.match = match;
	r.state = *s;
	if (write(fd, &r, sizeof(r)) != sizeof(r))
		_exit(3);
}

static void die(const char *err)
{
	fprintf(stderr, "writer: %s\n", err);
	_exit(2);
}

/* The writer: never returns. Picks up the latest match (or starts one)
 * and plays on until killed. */
static void writer(const char *path, int fd, uint64_t seed)
{
	struct db_raw raw[DB_TEST_RAW_PER_THROW];
	char err[256] = "", payloads[DB_TEST_RAW_PER_THROW][DB_TEST_PAYLOAD];
	struct db_match_info *v;
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct sim_rng rng;
	struct db *db = db_open(path, DB_OPEN_CREATE, err, sizeof(err));
	int64_t m = 0, t_ns = 1000000000;
	size_t n;
	int entries = 0;

	if (!db) {
		die(err);
	}
	sim_rng_seed(&rng, seed);
	if (db_matches(db, &v, &n, err, sizeof(err)))
		die(err);
	if (n && !v[n - 1].ended) {
		struct mlog_bd_result res;
		struct mlog_bd *log;

		m = v[n - 1].id;
		entries = v[n - 1].throws + v[n - 1].corrections;
		if (db_bd_load(db, m, &log, &res, err, sizeof(err))) {
			die(err);
		}
		cfg = log->cfg;
		s = res.state;
		t_ns = v[n - 1].start_ns + (int64_t)(entries + 1) * 2000000000;
		mlog_bd_result_free(&res);
		mlog_bd_free(log);
		/* Stopped between the last throw and ending the match. */
		if (s.over) {
			if (db_bd_end(db, m, t_ns, err, sizeof(err)))
				die(err);
			m = 0;
		}
	}
	free(v);
	for (;;) {
		struct bd_throw t;
		struct bd_ruling r;
		struct bd_state next;

		if (!m) {
			db_test_long_match(&cfg);
			cfg.house.target_points = 150;
			if (db_test_start(db, "crash", &cfg, t_ns, &m, err, sizeof(err)))
				die(err);
			bd_state_init(&s, &cfg);
			entries = 0;
			say(fd, 1, m, 0, &s);
		}
		t_ns += 2000000000;
		db_test_raw(&rng, t_ns, raw, payloads);
		if (db_raw_append(db, m, raw, DB_TEST_RAW_PER_THROW, err, sizeof(err)))
			die(err);
		if (db_test_throw(&rng, &cfg, &s, t_ns, &t, &r, err, sizeof(err))) {
			fprintf(stderr, "writer: simulated throw: %s\n", err);
			_exit(4);
		}
		next = s;
		bd_apply(&next, &cfg, &r);
		if (entries % 25 == 24 && s.n_throws > 5) {
			/* Now and then an official corrects an earlier throw instead. */
			int k = 1 + (int)(sim_rng_next(&rng) % (uint64_t)s.n_throws);
			struct mlog_bd_result res;
			struct mlog_bd *log;

			t.n_events = 1;
			t.events[0] = (struct bd_event){ .kind = BD_EV_FLOOR, .player = BD_NOBODY };
			/* The state it will lead to, worked out before committing. */
			if (db_bd_load(db, m, &log, &res, err, sizeof(err)) ||
			    mlog_bd_add_correct(log, k, &t))
				die(err);
			mlog_bd_result_free(&res);
			if (mlog_bd_replay(log, &res, err, sizeof(err)) == 0) {
				next = res.state;
				mlog_bd_result_free(&res);
				say(fd, 0, m, entries + 1, &next);
				if (db_bd_correct(db, m, k, &t, t_ns, &s, err, sizeof(err)))
					die(err);
				entries++;
				say(fd, 1, m, entries, &s);
			}
			mlog_bd_free(log);
			continue;
		}
		say(fd, 0, m, entries + 1, &next);
		if (db_bd_throw(db, m, &cfg, &t, &r, t_ns - 400000000, t_ns, err, sizeof(err))) {
			die(err);
		}
		entries++;
		s = next;
		say(fd, 1, m, entries, &s);
		if (s.over) {
			if (db_bd_end(db, m, t_ns + 1, err, sizeof(err)))
				die(err);
			m = 0;
		}
	}
}

static bool same_state(const struct bd_state *a, const struct bd_state *b)
{
	bool same = a->score[0] == b->score[0] && a->score[1] == b->score[1] &&
		    a->n_throws == b->n_throws && a->slot == b->slot &&
		    a->over == b->over && a->winner == b->winner;

	for (int p = 0; p < BD_PLAYERS; p++)
		same = same && a->must_follow[p] == b->must_follow[p];
	return same;
}

static void sleep_ms_reading(int fd, int ms, struct report *last_done, struct report *last,
			     bool *any_done, bool *any)
{
	struct timespec start, now;
	struct report r;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long left;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = ms - ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return;
		if (read(fd, &r, sizeof(r)) != sizeof(r))
			return;
		*last = r;
		*any = true;
		if (r.done) {
			*last_done = r;
			*any_done = true;
		}
	}
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for the writer's first report (it is ready: from now on it commits
 * throws) and takes it in; false when the writer exited without one. A
 * writer that says nothing for FIRST_REPORT_MS (times the slowdown) is
 * hung, not slow: the test fails. */
static bool first_report(int fd, struct report *last_done, struct report *last, bool *any_done,
			 bool *any)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct report r;
	int rc = poll(&p, 1, dyt_slow_ms(FIRST_REPORT_MS));

	if (rc == 0)
		fail_msg("the writer sent no report in %d ms", dyt_slow_ms(FIRST_REPORT_MS));
	assert_int_equal(rc, 1);
	if (read(fd, &r, sizeof(r)) != sizeof(r))
		return false;
	*last = r;
	*any = true;
	if (r.done) {
		*last_done = r;
		*any_done = true;
	}
	return true;
}

static void drain(int fd, struct report *last_done, struct report *last, bool *any_done, bool *any)
{
	struct report r;

	while (read(fd, &r, sizeof(r)) == sizeof(r)) {
		*last = r;
		*any = true;
		if (r.done) {
			*last_done = r;
			*any_done = true;
		}
	}
}

static void test_db_crash_sigkill_keeps_every_reported_throw(void **state)
{
	char dir[] = "/tmp/dyeref-crash-XXXXXX", path[64], cmd[96], err[256];
	struct report last_done = { 0 }, last = { 0 };
	bool any_done = false;
	struct sim_rng rng;
	int64_t committed_max[4096] = { 0 };	/* per match id: entries reported done */
	int between = 0, in_startup = 0;
	int64_t startup_ms = 0;	/* the last writer's, from fork to its first report */

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/crash.db", dir);
	sim_rng_seed(&rng, 20261122);
	for (int kill_no = 0; kill_no < KILLS; kill_no++) {
		int pfd[2], status;
		uint64_t draw = sim_rng_next(&rng);
		bool startup = kill_no % STARTUP_EVERY == STARTUP_EVERY - 1 && startup_ms > 1;
		bool any = false;
		int64_t forked;
		pid_t pid;

		assert_int_equal(pipe(pfd), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			close(pfd[0]);
			writer(path, pfd[1], 1000 + (uint64_t)kill_no);
		}
		forked = mono_ms();
		close(pfd[1]);
		if (startup) {
			/* Somewhere inside the start-up, as long as the last one took. */
			sleep_ms_reading(pfd[0], (int)(draw % (uint64_t)startup_ms), &last_done, &last,
					 &any_done, &any);
			in_startup += !any;
		} else {
			if (!first_report(pfd[0], &last_done, &last, &any_done, &any)) {
				waitpid(pid, &status, 0);
				fail_msg("kill %d: the writer exited before its first report (status %d)",
					 kill_no, status);
			}
			startup_ms = mono_ms() - forked;
			sleep_ms_reading(pfd[0], dyt_slow_ms(1 + (int)(draw % MAX_DELAY_MS)), &last_done,
					 &last, &any_done, &any);
		}
		kill(pid, SIGKILL);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
			fail_msg("kill %d: the writer stopped by itself (status %d)", kill_no, status);
		drain(pfd[0], &last_done, &last, &any_done, &any);
		close(pfd[0]);
		if (!any_done)
			continue;	/* killed before it had committed anything */
		assert_true(last_done.match < 4096);
		committed_max[last_done.match] = last_done.entries;

		{
			struct db *db = db_open(path, 0, err, sizeof(err));
			struct mlog_bd_result res;
			struct mlog_bd *log;
			struct db_match_info info;
			sqlite3_stmt *st;
			int entries;

			if (!db)
				fail_msg("kill %d: %s", kill_no, err);
			assert_int_equal(sqlite3_prepare_v2(db_handle(db), "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
			assert_int_equal(sqlite3_step(st), SQLITE_ROW);
			assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
			sqlite3_finalize(st);
			/* Every match's reported throws are there. */
			for (int64_t mm = 1; mm <= last_done.match; mm++) {
				assert_int_equal(db_match_get(db, mm, &info, err, sizeof(err)), 0);
				assert_true(info.throws + info.corrections >= committed_max[mm]);
			}
			assert_int_equal(db_match_get(db, last_done.match, &info, err, sizeof(err)), 0);
			entries = info.throws + info.corrections;
			if (db_bd_load(db, last_done.match, &log, &res, err, sizeof(err)))
				fail_msg("kill %d: %s", kill_no, err);
			if (entries == last_done.entries) {
				assert_true(same_state(&res.state, &last_done.state));
			} else {
				/* Killed between the commit and its report. */
				assert_false(last.done);
				assert_int_equal(entries, last.entries);
				assert_true(same_state(&res.state, &last.state));
				last_done = last;
				committed_max[last.match] = last.entries;
				between++;
			}
			mlog_bd_result_free(&res);
			mlog_bd_free(log);
			db_close(db);
		}
	}
	print_message("crash test: %d kills, %d in a writer's start-up, %d between a commit and its report, "
		      "last match %lld with %d entries\n",
		      KILLS, in_startup, between, (long long)last_done.match, last_done.entries);
	assert_true(last_done.entries > 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_db_crash_sigkill_keeps_every_reported_throw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
