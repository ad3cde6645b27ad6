/*
 * dyeref import --db FILE [LOG]: stores a match log (LOG, or stdin when it
 * is absent or "-") as a new match and prints its id. The log is read and
 * stored line by line (db_import_line), in memory bounded by the match,
 * not by the log: a bad line anywhere stores nothing (the transaction is
 * rolled back). A log already stored (the same lines) is not stored
 * again: its match's id on stdout, "import: LOG: already stored as match
 * N" on stderr, exit 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "daemon/cliio.h"
#include "daemon/dbcli.h"
#include "daemon/daemon.h"
#include "db/db.h"

#define USAGE "import --db FILE [LOG]"

/* Creates path when it does not exist yet: 1 when this call created it
 * (a refused import then removes it again), 0 when it was there. */
static int create_new(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return 0;	/* there already, or db_open says why not */
	close(fd);
	return 1;
}

/* Removes the database create_new() made, and SQLite's side files should
 * a closed connection have left them. */
static void remove_created(const char *path)
{
	char side[4096];

	unlink(path);
	for (size_t i = 0; i < 2; i++)
		if (snprintf(side, sizeof(side), "%s%s", path, i ? "-shm" : "-wal") <
		    (int)sizeof(side))
			unlink(side);
}

/* Gives each line of r to im, then ends it: 0, or the negative errno of
 * the line (or read) that failed, with its message in err. */
static int import_lines(struct dd_lines *r, struct db_import *im, int64_t *match, char *err,
			size_t errlen)
{
	const char *line;
	size_t len;
	int rc;

	while ((rc = dd_lines_next(r, &line, &len, err, errlen)) == 1)
		if ((rc = db_import_line(im, line, len, err, errlen)))
			return rc;
	return rc ? rc : db_import_end(im, match, err, errlen);
}

int dd_cmd_import(int argc, char **argv)
{
	struct dd_db_args a;
	struct dd_lines *r = NULL;
	struct db_import *im = NULL;
	struct db *db;
	const char *name = "stdin";
	char err[512] = "", id[24];
	int64_t match = 0;
	int help, status, ret, created;
	FILE *f = stdin;

	status = dd_db_args("import", USAGE, "di", argc, argv, &a, &help);
	if (status || help)
		return status;
	if (a.input && strcmp(a.input, "-")) {
		name = a.input;
		f = fopen(name, "rb");
		if (!f) {
			int e = errno;

			dd_log(DD_LOG_ERR, "import: %s: %s", name, strerror(e));
			return dd_input_status(-e);
		}
	}
	/* The log is stored as it is read, in one transaction that only a
	 * good log commits; a database file this import created is removed
	 * when the log is refused, so a refused log leaves nothing behind. */
	created = create_new(a.db);
	db = dd_db_open("import", a.db, DB_OPEN_CREATE, &status);
	if (!db) {
		if (created)
			remove_created(a.db);
		goto close_input;
	}
	r = dd_lines_new(f, name, MLOG_LINE_MAX);
	im = r ? db_import_new(db, name, dd_mono_ns()) : NULL;
	if (r)
		dd_lines_once(r);
	ret = im ? import_lines(r, im, &match, err, sizeof(err)) : -ENOMEM;
	if (ret == -ENOMEM && !im)
		snprintf(err, sizeof(err), "%s: out of memory", name);
	db_import_free(im);
	dd_lines_free(r);
	db_close(db);
	if (ret == -EEXIST) {
		/* Importing is safe to repeat: the match's id, as the first time,
		 * and a word that nothing was stored. */
		dd_log(DD_LOG_WARN, "import: %s", err);
		ret = 0;
	}
	if (ret) {
		if (created)
			remove_created(a.db);
		dd_log(DD_LOG_ERR, "import: %s", err);
		status = dd_input_status(ret);
		goto close_input;
	}
	snprintf(id, sizeof(id), "%lld\n", (long long)match);
	status = dd_write_stdout("import", id, strlen(id));
close_input:
	if (f != stdin)
		fclose(f);
	return status;
}
