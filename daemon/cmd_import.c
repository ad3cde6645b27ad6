/*
 * dyeref import --db FILE [LOG]: stores a match log (LOG, or stdin when it
 * is absent or "-") as a new match and prints its id. The log is judged
 * whole before anything is stored: a bad log stores nothing. A log already
 * stored (the same lines) is not stored again: its match's id on stdout,
 * "import: LOG: already stored as match N" on stderr, exit 0.
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

int dd_cmd_import(int argc, char **argv)
{
	struct dd_db_args a;
	struct db *db;
	const char *name;
	char err[512], *buf, id[24];
	size_t len;
	int64_t match;
	int help, status, ret, created;

	status = dd_db_args("import", USAGE, "di", argc, argv, &a, &help);
	if (status || help)
		return status;
	status = dd_read_input("import", a.input, &buf, &len, &name);
	if (status)
		return status;
	/* db_import judges the log before it writes anything; a database
	 * file this import created is removed when the log is refused, so
	 * a refused log leaves nothing behind (and is judged once). */
	created = create_new(a.db);
	db = dd_db_open("import", a.db, DB_OPEN_CREATE, &status);
	if (!db) {
		free(buf);
		if (created)
			remove_created(a.db);
		return status;
	}
	ret = db_import(db, name, buf, len, dd_mono_ns(),
			&match, err, sizeof(err));
	free(buf);
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
		return dd_input_status(ret);
	}
	snprintf(id, sizeof(id), "%lld\n", (long long)match);
	return dd_write_stdout("import", id, strlen(id));
}
