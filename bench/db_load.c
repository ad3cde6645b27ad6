/*
 * Load and refold of a 1,000-throw Beer Die match (12 raw inputs a throw,
 * a correction every 100 throws) through db_bd_load(): read the stored
 * lines, parse them with the codec, fold them through core/. Compared, in
 * the same run, with reading the same rows alone (a bare SELECT of the
 * match's log lines), and with reading the log and all its raw inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db/internal.h"
#include "tests/support/db_sim.h"
#include "bench/bench.h"

#define THROWS 1000
#define ROUNDS 20

static void die(const char *err)
{
	fprintf(stderr, "db_load: %s\n", err);
	exit(1);
}

static int64_t build(struct db *db)
{
	char err[256];
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct sim_rng rng;
	int64_t m, t_ns = 1000000000;

	/* Setting up only: the measured reads do not depend on fsync. */
	sqlite3_exec(db_handle(db), "PRAGMA synchronous = OFF", NULL, NULL, NULL);
	sim_rng_seed(&rng, 42);
	db_test_long_match(&cfg);
	if (db_test_start(db, "bench", &cfg, t_ns, &m, err, sizeof(err)))
		die(err);
	bd_state_init(&s, &cfg);
	for (int i = 1; i <= THROWS; i++) {
		struct bd_throw t;
		struct bd_ruling r;

		t_ns += 2000000000;
		if (db_test_store_throw(db, m, &rng, &cfg, &s, t_ns, NULL, 0, &t, &r, err, sizeof(err)))
			die(err);
		bd_apply(&s, &cfg, &r);
		if (i % 100 == 0) {
			memset(&t, 0, sizeof(t));
			t.thrower = BD_NOBODY;
			t.dye_up = true;
			t.n_events = 1;
			t.events[0] = (struct bd_event){ .kind = BD_EV_FLOOR, .player = BD_NOBODY };
			if (db_bd_correct(db, m, i - 5, &t, t_ns + 1, &s, err, sizeof(err)))
				die(err);
		}
	}
	return m;
}

/* Steps through a query, touching every column's bytes. */
static size_t read_rows(sqlite3 *h, const char *sql, int64_t m)
{
	sqlite3_stmt *st;
	size_t bytes = 0;

	sqlite3_prepare_v2(h, sql, -1, &st, NULL);
	sqlite3_bind_int64(st, 1, m);
	while (sqlite3_step(st) == SQLITE_ROW)
		for (int c = 0; c < sqlite3_column_count(st); c++) {
			const unsigned char *p = sqlite3_column_blob(st, c);

			bytes += (size_t)sqlite3_column_bytes(st, c) + (p ? p[0] : 0);
		}
	sqlite3_finalize(st);
	return bytes;
}

int main(void)
{
	char dir[] = "/tmp/dyeref-bench-load-XXXXXX", path[96], err[256], cmd[96];
	double best_load = 1e9, best_lines = 1e9, best_all = 1e9;
	volatile size_t sink = 0;
	struct db *db;
	int64_t m;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/load.db", dir);
	db = db_open(path, DB_OPEN_CREATE, err, sizeof(err));
	if (!db)
		die(err);
	m = build(db);
	for (int round = 0; round < ROUNDS; round++) {
		struct mlog_bd_result res;
		struct mlog_bd *log;
		double t0 = bench_now();

		if (db_bd_load(db, m, &log, &res, err, sizeof(err)))
			die(err);
		sink += res.n;
		mlog_bd_result_free(&res);
		mlog_bd_free(log);
		t0 = bench_now() - t0;
		best_load = t0 < best_load ? t0 : best_load;

		t0 = bench_now();
		sink += read_rows(db_handle(db), "SELECT header FROM matches WHERE id = ?1 UNION ALL"
				  " SELECT line FROM (SELECT line FROM entries WHERE match_id = ?1 ORDER BY seq)", m);
		t0 = bench_now() - t0;
		best_lines = t0 < best_lines ? t0 : best_lines;

		t0 = bench_now();
		sink += read_rows(db_handle(db), "SELECT line FROM (SELECT line FROM entries WHERE match_id = ?1 ORDER BY seq)", m);
		sink += read_rows(db_handle(db), "SELECT t_ns, source, kind, channel, payload FROM raw_inputs"
				  " WHERE match_id = ?1 ORDER BY t_ns", m);
		t0 = bench_now() - t0;
		best_all = t0 < best_all ? t0 : best_all;
	}
	printf("db_load: %d-throw match, %d raw inputs, 10 corrections; best of %d\n",
	       THROWS, THROWS * DB_TEST_RAW_PER_THROW, ROUNDS);
	printf("  read the log rows alone (bare SELECT):       %8.2f ms (peer)\n", best_lines * 1e3);
	printf("  read log + raw rows alone (bare SELECTs):    %8.2f ms\n", best_all * 1e3);
	printf("  db_bd_load: read, parse, refold:             %8.2f ms  ratio %.1f to the log rows, %.1f to log + raw\n",
	       best_load * 1e3, best_load / best_lines, best_load / best_all);
	db_close(db);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 && sink ? 0 : 1;
}
