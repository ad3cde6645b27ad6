/*
 * dyeref export --db FILE --match N: the stored match as its match log, on
 * stdout. Built in memory first: an error leaves stdout empty.
 */
#include <stdio.h>
#include <stdlib.h>

#include "daemon/dbcli.h"
#include "daemon/daemon.h"

#define USAGE "export --db FILE --match N"

int dd_cmd_export(int argc, char **argv)
{
	struct dd_db_args a;
	struct db *db;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int help, status, ret;

	status = dd_db_args("export", USAGE, "dm", argc, argv, &a, &help);
	if (status || help)
		return status;
	db = dd_db_open("export", a.db, 0, &status);
	if (!db)
		return status;
	mem = open_memstream(&buf, &len);
	if (!mem) {
		db_close(db);
		dd_log(DD_LOG_ERR, "export: out of memory");
		return DD_EXIT_FAIL;
	}
	ret = db_export(db, a.match, mem, err, sizeof(err));
	fclose(mem);
	db_close(db);
	if (ret) {
		free(buf);
		dd_log(DD_LOG_ERR, "export: %s", err);
		return dd_db_status(ret);
	}
	status = fwrite(buf, 1, len, stdout) == len && !fflush(stdout) ? DD_EXIT_OK : DD_EXIT_FAIL;
	if (status)
		dd_log(DD_LOG_ERR, "export: writing stdout failed");
	free(buf);
	return status;
}
