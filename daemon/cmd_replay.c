/*
 * dyeref replay --db FILE --match N --throw K: everything behind one throw
 * (raw inputs, snapshots, observations, the throw, its rulings and
 * corrections) in time order, one JSON object a line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "daemon/dbcli.h"
#include "daemon/daemon.h"

#define USAGE "replay --db FILE --match N --throw K"

static int put(const struct db_item *it, void *ctx)
{
	return db_item_write(it, ctx);
}

int dd_cmd_replay(int argc, char **argv)
{
	struct dd_db_args a;
	struct db *db;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int help, status, ret;

	status = dd_db_args("replay", USAGE, "dmt", argc, argv, &a, &help);
	if (status || help)
		return status;
	if (a.throw_no > 1000000) {
		dd_log(DD_LOG_ERR, "replay: --throw %lld: no match has that many throws", (long long)a.throw_no);
		return DD_EXIT_USAGE;
	}
	db = dd_db_open("replay", a.db, 0, &status);
	if (!db)
		return status;
	mem = open_memstream(&buf, &len);
	if (!mem) {
		db_close(db);
		dd_log(DD_LOG_ERR, "replay: out of memory");
		return DD_EXIT_FAIL;
	}
	ret = db_replay(db, a.match, (int)a.throw_no, put, mem, err, sizeof(err));
	fclose(mem);
	db_close(db);
	if (ret) {
		free(buf);
		if (ret > 0)
			snprintf(err, sizeof(err), "writing the output failed");
		dd_log(DD_LOG_ERR, "replay: %s", err);
		return ret > 0 ? DD_EXIT_FAIL : dd_db_status(ret);
	}
	status = fwrite(buf, 1, len, stdout) == len && !fflush(stdout) ? DD_EXIT_OK : DD_EXIT_FAIL;
	if (status)
		dd_log(DD_LOG_ERR, "replay: writing stdout failed");
	free(buf);
	return status;
}
