/*
 * dyeref import --db FILE [LOG]: stores a match log (LOG, or stdin when it
 * is absent or "-") as a new match and prints its id. The log is judged
 * whole first: a bad log stores nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "daemon/dbcli.h"
#include "daemon/daemon.h"

#define USAGE "import --db FILE [LOG]"

/* All of f, at most MLOG_MAX_INPUT bytes: 0, -EFBIG, -ENOMEM or -EIO. */
static int read_all(FILE *f, char **buf, size_t *len)
{
	size_t cap = 64 * 1024, n = 0, got;
	char *p = malloc(cap), *q;

	if (!p)
		return -ENOMEM;
	while ((got = fread(p + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n > MLOG_MAX_INPUT) {
			free(p);
			return -EFBIG;
		}
		if (n == cap) {
			q = realloc(p, cap * 2);
			if (!q) {
				free(p);
				return -ENOMEM;
			}
			p = q;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		free(p);
		return -EIO;
	}
	*buf = p;
	*len = n;
	return 0;
}

int dd_cmd_import(int argc, char **argv)
{
	struct dd_db_args a;
	struct timespec now;
	struct db *db;
	const char *name;
	char err[512], *buf;
	size_t len;
	int64_t match;
	FILE *f = stdin;
	int help, status, ret;

	status = dd_db_args("import", USAGE, "di", argc, argv, &a, &help);
	if (status || help)
		return status;
	name = a.input && strcmp(a.input, "-") ? a.input : "stdin";
	if (f == stdin && strcmp(name, "stdin")) {
		f = fopen(a.input, "rb");
		if (!f) {
			dd_log(DD_LOG_ERR, "import: %s: %s", a.input, strerror(errno));
			return DD_EXIT_USAGE;
		}
	}
	ret = read_all(f, &buf, &len);
	if (f != stdin)
		fclose(f);
	if (ret) {
		dd_log(DD_LOG_ERR, "import: %s: %s", name,
		       ret == -EFBIG ? "too large for a match log" : ret == -ENOMEM ? "out of memory" : "read error");
		return ret == -EFBIG ? DD_EXIT_USAGE : DD_EXIT_FAIL;
	}
	db = dd_db_open("import", a.db, DB_OPEN_CREATE, &status);
	if (!db) {
		free(buf);
		return status;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	ret = db_import(db, name, buf, len, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec,
			&match, err, sizeof(err));
	free(buf);
	db_close(db);
	if (ret) {
		dd_log(DD_LOG_ERR, "import: %s", err);
		return dd_db_status(ret);
	}
	printf("%lld\n", (long long)match);
	return fflush(stdout) ? DD_EXIT_FAIL : DD_EXIT_OK;
}
