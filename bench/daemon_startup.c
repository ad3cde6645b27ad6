/*
 * The daemon's start-up against the size of its database: from launching
 * `dyeref serve` to its first answer on /api/state (a 200 with a JSON
 * object: real state, not an error page), for databases of 10, 1,000 and
 * 10,000 stored matches. Each figure is printed against the 1 s limit and
 * against the 10-match figure (flat: 1.0x). The matches are what the
 * daemon stores (THROWS throws each with their 12 raw inputs and a small
 * snapshot, then ended), made once per run with db/'s calls
 * (synchronous off); the smaller
 * databases are copies taken on the way to the largest. Each database was
 * closed cleanly, as after a daemon stopped by systemd, and each launch
 * stops the daemon with SIGTERM, so every launch finds the same state.
 *   build/bench/daemon_startup [DIR]   (DIR for the databases: /tmp;
 *   env DYEREF: the binary, build/dyeref; STARTUP_ROUNDS: launches per size, 5)
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "bench/bench.h"
#include "db/internal.h"
#include "tests/support/db_sim.h"

#define THROWS 17		/* throws a match: about the 42 kB a stored match */
#define LIMIT_S 1.0		/* the target: first answer within 1 s at any size */
#define LAUNCH_LIMIT_S 60	/* a launch that has not answered by then failed */

static const int sizes[] = { 10, 1000, 10000 };
#define N_SIZES (sizeof(sizes) / sizeof(sizes[0]))

static void die(const char *what, const char *why)
{
	fprintf(stderr, "daemon_startup: %s: %s\n", what, why);
	exit(1);
}

/* Adds matches up to `upto` in all, each THROWS throws then ended. */
static void grow(struct db *db, int *have, int upto)
{
	static const unsigned char jpeg[600] = { 0xff, 0xd8, 0xff };
	char err[256];

	for (; *have < upto; ++*have) {
		struct bd_match_cfg cfg;
		struct bd_state s;
		struct sim_rng rng;
		int64_t m, t_ns = 1000000000LL + *have * 1000000000000LL;

		sim_rng_seed(&rng, 7 + (uint64_t)*have);
		db_test_long_match(&cfg);
		if (db_test_start(db, "startup", &cfg, t_ns, &m, err, sizeof(err)))
			die("start", err);
		bd_state_init(&s, &cfg);
		for (int i = 1; i <= THROWS; i++) {
			struct bd_throw t;
			struct bd_ruling r;

			t_ns += 2000000000;
			if (db_test_store_throw(db, m, &rng, &cfg, &s, t_ns, jpeg, sizeof(jpeg), &t, &r,
						err, sizeof(err)))
				die("throw", err);
			bd_apply(&s, &cfg, &r);
		}
		if (db_bd_end(db, m, t_ns + 5, err, sizeof(err)))
			die("end", err);
	}
}

static void copy_file(const char *from, const char *to)
{
	char buf[1 << 16];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (in < 0 || out < 0)
		die(from, strerror(errno));
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			die(to, strerror(errno));
	if (n < 0)
		die(from, strerror(errno));
	close(in);
	close(out);
}

/* GET /api/state on port: true when the answer is a 200 whose body is a
 * JSON object with the health strip in it (real state). */
static bool state_answered(unsigned port, char *why, size_t whylen)
{
	static char buf[1 << 20];
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	static const char req[] = "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
	size_t got = 0;
	ssize_t n;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	const char *body;
	json_t *j;
	bool ok;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    write(fd, req, sizeof(req) - 1) != (ssize_t)sizeof(req) - 1) {
		snprintf(why, whylen, "connect: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (got < sizeof(buf) - 1 && (n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = 0;
	if (strncmp(buf, "HTTP/1.1 200", 12)) {
		snprintf(why, whylen, "answer: %.60s", buf);
		return false;
	}
	body = strstr(buf, "\r\n\r\n");
	j = body ? json_loads(body + 4, 0, NULL) : NULL;
	ok = json_is_object(j) && json_object_get(j, "health");
	if (!ok)
		snprintf(why, whylen, "not the state: %.60s", body ? body + 4 : buf);
	json_decref(j);
	return ok;
}

/* Launches the daemon on config, waits for its "listening on" line, asks
 * for the state; seconds from the launch to the answer. */
static double launch(const char *dyeref, const char *config)
{
	int pfd[2], status;
	char line[1024], why[128];
	double t0 = bench_now(), t;
	unsigned port = 0;
	FILE *log;
	pid_t pid;

	if (pipe(pfd))
		die("pipe", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork", strerror(errno));
	if (pid == 0) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		alarm(LAUNCH_LIMIT_S);
		execl(dyeref, dyeref, "serve", "--config", config, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	log = fdopen(pfd[0], "r");
	while (!port && fgets(line, sizeof(line), log)) {
		const char *p = strstr(line, "listening on http://127.0.0.1:");

		if (p)
			port = (unsigned)atoi(p + strlen("listening on http://127.0.0.1:"));
	}
	if (!port)
		die(config, "the daemon exited before it listened");
	if (!state_answered(port, why, sizeof(why)))
		die("/api/state", why);
	t = bench_now() - t0;
	kill(pid, SIGTERM);
	while (fgets(line, sizeof(line), log))
		;	/* drain, so its last lines never block it */
	fclose(log);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die(config, "the daemon did not stop cleanly on SIGTERM");
	return t;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	const char *dyeref = getenv("DYEREF") ? getenv("DYEREF") : "build/dyeref";
	int rounds = getenv("STARTUP_ROUNDS") ? atoi(getenv("STARTUP_ROUNDS")) : 5;
	char base[256], paths[N_SIZES][300], configs[N_SIZES][300], err[300];
	double median[N_SIZES], worst[N_SIZES], t0;
	struct db *db;
	struct stat sb;
	int have = 0;

	if (rounds < 1 || rounds > 100)
		rounds = 5;
	if (access(dyeref, X_OK))
		die(dyeref, strerror(errno));
	snprintf(base, sizeof(base), "%s/daemon_startup.%d", dir, (int)getpid());
	if (mkdir(base, 0700))
		die(base, strerror(errno));
	snprintf(paths[N_SIZES - 1], sizeof(paths[0]), "%s/m%d.db", base, sizes[N_SIZES - 1]);
	t0 = bench_now();
	db = db_open(paths[N_SIZES - 1], DB_OPEN_CREATE, err, sizeof(err));
	if (!db)
		die("open", err);
	sqlite3_exec(db_handle(db), "PRAGMA synchronous = OFF", NULL, NULL, NULL);
	for (size_t k = 0; k < N_SIZES; k++) {
		FILE *fp;

		grow(db, &have, sizes[k]);
		if (k + 1 < N_SIZES) {	/* a clean copy on the way: closed, no -wal */
			db_close(db);
			snprintf(paths[k], sizeof(paths[k]), "%s/m%d.db", base, sizes[k]);
			copy_file(paths[N_SIZES - 1], paths[k]);
			db = db_open(paths[N_SIZES - 1], 0, err, sizeof(err));
			if (!db)
				die("reopen", err);
			sqlite3_exec(db_handle(db), "PRAGMA synchronous = OFF", NULL, NULL, NULL);
		}
		snprintf(configs[k], sizeof(configs[k]), "%s/m%d.ini", base, sizes[k]);
		fp = fopen(configs[k], "w");
		if (!fp)
			die(configs[k], strerror(errno));
		fprintf(fp, "[web]\nbind = 127.0.0.1\nport = 0\npin = 432187\n[db]\npath = %s\n", paths[k]);
		fclose(fp);
	}
	db_close(db);
	printf("databases: %d, %d and %d matches of %d throws (12 raw inputs and a snapshot each), made in %.1f s\n",
	       sizes[0], sizes[1], sizes[2], THROWS, bench_now() - t0);

	for (size_t k = 0; k < N_SIZES; k++) {
		double t[100];

		for (int r = 0; r < rounds; r++)
			t[r] = launch(dyeref, configs[k]);
		qsort(t, (size_t)rounds, sizeof(t[0]), by_value);
		median[k] = t[rounds / 2];
		worst[k] = t[rounds - 1];
	}
	for (size_t k = 0; k < N_SIZES; k++) {
		stat(paths[k], &sb);
		printf("launch -> first /api/state answer, %5d matches (%.0f MB): median %.1f ms, worst %.1f ms"
		       " (%d launches); %.3fx the 1 s limit; %.2fx the %d-match figure\n",
		       sizes[k], sb.st_size / 1e6, median[k] * 1e3, worst[k] * 1e3, rounds,
		       median[k] / LIMIT_S, median[k] / median[0], sizes[0]);
	}
	if (!getenv("KEEP_DB"))
		for (size_t k = 0; k < N_SIZES; k++) {
			unlink(paths[k]);
			unlink(configs[k]);
		}
	if (!getenv("KEEP_DB"))
		rmdir(base);
	for (size_t k = 0; k < N_SIZES; k++)
		if (worst[k] > LIMIT_S)
			return 1;
	return 0;
}
