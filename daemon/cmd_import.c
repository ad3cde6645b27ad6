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
#include "daemon/cliio.h"
#include "daemon/dbcli.h"
#include "daemon/daemon.h"

#define USAGE "import --db FILE [LOG]"

int dd_cmd_import(int argc, char **argv)
{
	struct dd_db_args a;
	struct db *db;
	const char *name;
	char err[512], *buf, *judged = NULL, id[24];
	size_t len;
	int64_t match;
	int help, status, ret;

	status = dd_db_args("import", USAGE, "di", argc, argv, &a, &help);
	if (status || help)
		return status;
	status = dd_read_input("import", a.input, &buf, &len, &name);
	if (status)
		return status;
	/* Judged here too, before the database is opened: a refused log must
	 * not leave a new, empty database behind (db_import judges it again). */
	ret = mlog_judge(name, buf, len, &judged, &(size_t){ 0 }, err, sizeof(err));
	free(judged);
	if (ret) {
		free(buf);
		dd_log(DD_LOG_ERR, "import: %s", err);
		return ret == -ENOMEM ? DD_EXIT_FAIL : DD_EXIT_USAGE;
	}
	db = dd_db_open("import", a.db, DB_OPEN_CREATE, &status);
	if (!db) {
		free(buf);
		return status;
	}
	ret = db_import(db, name, buf, len, dd_mono_ns(),
			&match, err, sizeof(err));
	free(buf);
	db_close(db);
	if (ret) {
		dd_log(DD_LOG_ERR, "import: %s", err);
		return dd_db_status(ret);
	}
	snprintf(id, sizeof(id), "%lld\n", (long long)match);
	return dd_write_stdout("import", id, strlen(id));
}
