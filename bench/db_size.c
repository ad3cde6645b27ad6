/*
 * Bytes stored per throw, without and with camera snapshots, to size the
 * retention budget (DB_BUDGET_DEFAULT, 2 GiB). A throw here is what the
 * daemon stores: its log line, ruling, observations and 12 raw inputs;
 * "with snapshots" adds one JPEG of the table (1280x720, quality 85, a
 * synthetic table with camera noise, encoded by turbojpeg) per throw.
 * Matches to 10 points are measured on the same simulator (default house
 * rules) to turn bytes per throw into matches per budget. Last, the cost of
 * checking the file with snapshots (db_check: PRAGMA quick_check reads
 * every page; the daemon runs it in the background), against reading the
 * same file with read(2), and of opening it closed cleanly (no check).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <turbojpeg.h>

#include "db/internal.h"
#include "tests/support/db_sim.h"
#include "bench/bench.h"

#define THROWS 1000
#define W 1280
#define H 720

static void die(const char *err)
{
	fprintf(stderr, "db_size: %s\n", err);
	exit(1);
}

/* A green table with a white centre line, a die and sensor noise. */
static unsigned char *snapshot(struct sim_rng *rng, unsigned long *len)
{
	unsigned char *rgb = malloc(W * H * 3), *jpeg = NULL;
	tjhandle tj = tjInitCompress();

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			unsigned char *p = rgb + (y * W + x) * 3;
			int n = (int)(sim_rng_normal(rng) * 6);
			bool line = x > W / 2 - 6 && x < W / 2 + 6;
			bool die_px = x > 900 && x < 930 && y > 300 && y < 330;
			int base[3] = { 30, 110, 45 };

			if (line || die_px)
				base[0] = base[1] = base[2] = 235;
			for (int c = 0; c < 3; c++) {
				int v = base[c] + n + (x + y) / 64;
				p[c] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
			}
		}
	if (tjCompress2(tj, rgb, W, 0, H, TJPF_RGB, &jpeg, len, TJSAMP_420, 85, 0))
		die(tjGetErrorStr2(tj));
	tjDestroy(tj);
	free(rgb);
	return jpeg;
}

/* Plays throws into db (snapshots when jpeg); returns bytes per throw. */
static double per_throw(struct db *db, const unsigned char *jpeg, unsigned long jlen)
{
	char err[256];
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct sim_rng rng;
	int64_t m, t_ns = 1000000000, before;

	sqlite3_exec(db_handle(db), "PRAGMA synchronous = OFF", NULL, NULL, NULL);
	before = db_bytes_used(db);
	sim_rng_seed(&rng, 9);
	db_test_long_match(&cfg);
	if (db_test_start(db, "size", &cfg, t_ns, &m, err, sizeof(err)))
		die(err);
	bd_state_init(&s, &cfg);
	for (int i = 1; i <= THROWS; i++) {
		struct bd_throw t;
		struct bd_ruling r;

		t_ns += 2000000000;
		if (db_test_store_throw(db, m, &rng, &cfg, &s, t_ns, jpeg, jlen, &t, &r, err, sizeof(err)))
			die(err);
		bd_apply(&s, &cfg, &r);
	}
	return (double)(db_bytes_used(db) - before) / THROWS;
}

/* Mean throws of a match to 10 points (default house rules). */
static double throws_per_match(void)
{
	struct bd_match_cfg cfg;
	struct sim_rng rng;
	char err[128];
	long total = 0;
	int matches = 200;

	sim_rng_seed(&rng, 3);
	bd_match_cfg_init(&cfg);
	for (int k = 0; k < matches; k++) {
		struct bd_state s;

		bd_state_init(&s, &cfg);
		while (!s.over && s.n_throws < 10000) {
			struct bd_throw t;
			struct bd_ruling r;

			if (db_test_throw(&rng, &cfg, &s, 1, &t, &r, err, sizeof(err)))
				break;
			bd_apply(&s, &cfg, &r);
		}
		total += s.n_throws;
	}
	return (double)total / matches;
}

/* Seconds to read the whole file with read(2), 1 MiB at a time. */
static double read_file(const char *path, double *mb)
{
	static char buf[1 << 20];
	double t0 = bench_now();
	int fd = open(path, O_RDONLY);
	ssize_t got;
	size_t total = 0;

	while (fd >= 0 && (got = read(fd, buf, sizeof(buf))) > 0)
		total += (size_t)got;
	if (fd >= 0)
		close(fd);
	*mb = total / 1e6;
	return bench_now() - t0;
}

static struct db *fresh(const char *dir, const char *name)
{
	char path[128], err[256];
	struct db *db;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	db = db_open(path, DB_OPEN_CREATE, err, sizeof(err));
	if (!db)
		die(err);
	return db;
}

int main(void)
{
	char dir[] = "/tmp/dyeref-bench-size-XXXXXX", cmd[96];
	unsigned long jlen;
	unsigned char *jpeg;
	struct sim_rng rng;
	double plain, with, tpm, budget = (double)DB_BUDGET_DEFAULT;
	struct db *db;

	if (!mkdtemp(dir))
		return 1;
	sim_rng_seed(&rng, 5);
	jpeg = snapshot(&rng, &jlen);
	db = fresh(dir, "plain.db");
	plain = per_throw(db, NULL, 0);
	db_close(db);
	db = fresh(dir, "snap.db");
	with = per_throw(db, jpeg, jlen);
	db_close(db);
	tpm = throws_per_match();

	printf("db_size: %d throws, 12 raw inputs each; snapshot JPEG %lu bytes (%dx%d q85)\n",
	       THROWS, jlen, W, H);
	printf("  bytes per throw, no snapshots:   %8.0f\n", plain);
	printf("  bytes per throw, one snapshot:   %8.0f  (%.0fx)\n", with, with / plain);
	printf("  throws per match to 10 points:   %8.1f (simulated)\n", tpm);
	printf("  2 GiB budget holds: %.0f matches with snapshots, %.0f without (%.1f M throws)\n",
	       budget / (with * tpm), budget / (plain * tpm), budget / plain / 1e6);
	{
		char path[128], err[256];
		double best_open = 1e9, best_check = 1e9, best_read = 1e9, mb = 0;

		snprintf(path, sizeof(path), "%s/snap.db", dir);
		for (int round = 0; round < 3; round++) {
			double t0 = bench_now(), t1, r;

			db = db_open(path, 0, err, sizeof(err));
			if (!db)
				die(err);
			t1 = bench_now();
			if (db_check(db, err, sizeof(err)))
				die(err);
			t1 = bench_now() - t1;
			t0 = bench_now() - t0 - t1;
			db_close(db);
			r = read_file(path, &mb);
			best_open = t0 < best_open ? t0 : best_open;
			best_check = t1 < best_check ? t1 : best_check;
			best_read = r < best_read ? r : best_read;
		}
		printf("  db_check (quick_check) of %.0f MB: %.3f s; read(2) of the file %.3f s (peer): ratio %.1f\n",
		       mb, best_check, best_read, best_check / best_read);
		printf("  db_open of it, closed cleanly (no check): %.4f s (%.4fx the check)\n",
		       best_open, best_open / best_check);
	}
	tjFree(jpeg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : 1;
}
