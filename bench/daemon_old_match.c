/*
 * The web's old-match pages on the daemon's loop: `GET /api/matches`
 * (dd_referee_matches) and `GET /api/matches/N/throws/K` of a match that is
 * not the one under way (dd_referee_throw_detail), on a database of MATCHES
 * stored Beer Die matches of THROWS throws each (12 raw inputs, a fusion
 * note and a snapshot per throw, a correction every 30 throws, as the
 * daemon stores them). Peers, in the same run on the same file, what the
 * same answers cost before: the list's statement as it was (counting every
 * stored entry and ruling of each match; held to the indexes it had by
 * INDEXED BY, so schema v3's do not help it); the detail's database work,
 * re-enacted with db/'s public calls (db_bd_load, one db_replay per stored
 * throw for the notes and one more for the snapshots; the JSON it also
 * built is not counted, so the old page was slower still).
 *   build/bench/daemon_old_match [DIR]   (DIR for the database: /tmp)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "bench/bench.h"
#include "daemon/daemon.h"
#include "daemon/referee.h"
#include "db/internal.h"
#include "tests/support/db_sim.h"

#define MATCHES 40
#define THROWS 150
#define ROUNDS 20

static void die(const char *what, const char *err)
{
	fprintf(stderr, "daemon_old_match: %s: %s\n", what, err);
	exit(1);
}

/* MATCHES matches of THROWS throws with what the referee notes about each. */
static void build(struct db *db)
{
	static const unsigned char jpeg[600] = { 0xff, 0xd8, 0xff };
	char err[256];

	sqlite3_exec(db_handle(db), "PRAGMA synchronous = OFF", NULL, NULL, NULL);
	for (int k = 0; k < MATCHES; k++) {
		struct bd_match_cfg cfg;
		struct bd_state s;
		struct sim_rng rng;
		int64_t m, t_ns = 1000000000LL + k * 1000000000000LL;

		sim_rng_seed(&rng, 100 + k);
		db_test_long_match(&cfg);
		if (db_test_start(db, "bench", &cfg, t_ns, &m, err, sizeof(err)))
			die("start", err);
		bd_state_init(&s, &cfg);
		for (int i = 1; i <= THROWS; i++) {
			struct bd_throw t;
			struct bd_ruling r;
			char note[160];
			struct db_raw raw = { .source = "fusion", .kind = "obs", .channel = -1 };

			t_ns += 2000000000;
			if (db_test_store_throw(db, m, &rng, &cfg, &s, t_ns, jpeg, sizeof(jpeg), &t, &r,
						err, sizeof(err)))
				die("throw", err);
			bd_apply(&s, &cfg, &r);
			snprintf(note, sizeof(note),
				 "{\"obs\":[{\"kind\":\"event\",\"source\":\"piezo\",\"t_ms\":%d}],\"review\":\"%s\"}",
				 i, i % 7 ? "" : "the camera saw no landing");
			raw.t_ns = t_ns + 1;
			raw.throw_no = i;
			raw.payload = note;
			raw.len = strlen(note);
			if (db_raw_append(db, m, &raw, 1, err, sizeof(err)) || db_raw_flush(db, err, sizeof(err)))
				die("note", err);
			if (i % 30 == 0) {	/* the throw 5 back was a re-toss after all */
				memset(&t, 0, sizeof(t));
				t.thrower = BD_NOBODY;
				t.dye_up = true;
				t.n_events = 1;
				t.events[0] = (struct bd_event){ .kind = BD_EV_RETOSS, .player = BD_NOBODY };
				if (db_bd_correct(db, m, i - 5, &t, t_ns + 2, &s, err, sizeof(err)))
					die("correct", err);
			}
		}
		if (k % 2 == 0 && db_bd_end(db, m, t_ns + 5, err, sizeof(err)))
			die("end", err);
	}
}

/* ---- The peers: the same answers' database work as it was -------------- */

static const char old_matches_sql[] =
	"SELECT m.id, m.game, m.start_ns, m.start_wall_ms,"
	" EXISTS (SELECT 1 FROM match_ends e WHERE e.match_id = m.id),"
	" (SELECT count(*) FROM entries INDEXED BY entries_throw WHERE match_id = m.id AND type IN ('throw', 'turn')),"
	" (SELECT count(*) FROM entries INDEXED BY entries_throw WHERE match_id = m.id AND type = 'correct'),"
	" (SELECT count(*) FROM rulings r INDEXED BY rulings_throw WHERE r.match_id = m.id AND r.review"
	"   AND r.id = (SELECT max(id) FROM rulings r2 WHERE r2.match_id = m.id AND r2.throw_no = r.throw_no)),"
	" (SELECT score FROM rulings WHERE match_id = m.id ORDER BY throw_no DESC, id DESC LIMIT 1)"
	" FROM matches m ORDER BY m.id";

/* The old statement's rows, checked against the list's struct by struct. */
static long old_matches(struct db *db, const struct db_match_info *want, size_t n)
{
	sqlite3_stmt *st;
	size_t i = 0;

	if (sqlite3_prepare_v2(db_handle(db), old_matches_sql, -1, &st, NULL) != SQLITE_OK)
		die("old list", sqlite3_errmsg(db_handle(db)));
	for (; sqlite3_step(st) == SQLITE_ROW; i++)
		if (want && (i >= n || want[i].throws != sqlite3_column_int(st, 5) ||
			     want[i].corrections != sqlite3_column_int(st, 6) ||
			     want[i].reviews != sqlite3_column_int(st, 7)))
			die("old list", "counts differ from db_matches");
	sqlite3_finalize(st);
	return (long)i;
}

static int count_item(const struct db_item *it, void *ctx)
{
	(void)it;
	++*(long *)ctx;
	return 0;
}

static long old_detail(struct db *db, int64_t match, int throw_no)
{
	struct mlog_bd *log;
	struct mlog_bd_result res;
	char err[256];
	long items = 0;

	if (db_bd_load(db, match, &log, &res, err, sizeof(err)))
		die("old detail", err);
	for (size_t k = 1; k <= log->n_throws; k++)
		if (db_replay(db, match, (int)k, count_item, &items, err, sizeof(err)))
			die("old detail", err);
	if (db_replay(db, match, throw_no, count_item, &items, err, sizeof(err)))
		die("old detail", err);
	mlog_bd_free(log);
	return items;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	char path[256], err[300];
	struct dd_referee_cfg rc;
	struct dd_referee *ref;
	struct db *db;
	double t0, ours_list, old_list, ours_detail, old_detail_s;
	struct db_match_info *ms;
	size_t n;
	long sink = 0;
	char *json;

	snprintf(path, sizeof(path), "%s/daemon_old_match.%d.db", dir, (int)getpid());
	db = db_open(path, DB_OPEN_CREATE, err, sizeof(err));
	if (!db)
		die("open", err);
	build(db);
	memset(&rc, 0, sizeof(rc));
	bd_house_defaults(&rc.house);
	ref = dd_referee_new(&rc, db);
	if (!ref)
		die("referee", "out of memory");

	t0 = bench_now();
	for (int i = 0; i < ROUNDS; i++) {
		if (dd_referee_matches(ref, &json))
			die("list", "failed");
		sink += (long)strlen(json);
		free(json);
	}
	ours_list = (bench_now() - t0) / ROUNDS;
	if (db_matches(db, &ms, &n, err, sizeof(err)))
		die("list", err);
	sink += old_matches(db, ms, n);	/* the same counts, before timing it */
	free(ms);
	t0 = bench_now();
	for (int i = 0; i < ROUNDS; i++)
		sink += old_matches(db, NULL, 0);
	old_list = (bench_now() - t0) / ROUNDS;

	t0 = bench_now();
	for (int i = 0; i < ROUNDS; i++) {
		if (dd_referee_throw_detail(ref, 1 + i % MATCHES, 1 + (i * 37) % THROWS, &json))
			die("detail", "failed");
		sink += (long)strlen(json);
		free(json);
	}
	ours_detail = (bench_now() - t0) / ROUNDS;
	t0 = bench_now();
	for (int i = 0; i < ROUNDS; i++)
		sink += old_detail(db, 1 + i % MATCHES, 1 + (i * 37) % THROWS);
	old_detail_s = (bench_now() - t0) / ROUNDS;

	printf("database: %d matches x %d throws (12 raw inputs, a note and a snapshot each; a correction every 30)\n",
	       MATCHES, THROWS);
	printf("GET /api/matches/N/throws/K (old match): %.2f ms; before, its database work alone (a db_replay per stored throw): %.2f ms; ratio %.4f\n",
	       ours_detail * 1e3, old_detail_s * 1e3, ours_detail / old_detail_s);
	printf("GET /api/matches: %.2f ms; before (the statement counting every stored entry and ruling): %.2f ms; ratio %.3f\n",
	       ours_list * 1e3, old_list * 1e3, ours_list / old_list);
	dd_referee_free(ref);
	db_close(db);
	if (!getenv("KEEP_DB")) unlink(path);
	snprintf(err, sizeof(err), "%s-wal", path);
	unlink(err);
	snprintf(err, sizeof(err), "%s-shm", path);
	unlink(err);
	return sink == 0;
}
