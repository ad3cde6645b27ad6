/* dyeref matches --db FILE: lists the stored matches, oldest first. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "daemon/cliio.h"
#include "daemon/daemon.h"
#include "daemon/dbcli.h"

#define USAGE "matches --db FILE"

int dd_cmd_matches(int argc, char **argv)
{
	struct dd_db_args a;
	struct db_match_info *v;
	struct db *db;
	char err[512];
	size_t n;
	int help, status = DD_EXIT_OK, ret;

	status = dd_db_args("matches", USAGE, "d", argc, argv, &a, &help);
	if (status || help)
		return status;
	db = dd_db_open("matches", a.db, DB_OPEN_NOCHECK, &status);
	if (!db)
		return status;
	ret = db_matches(db, &v, &n, err, sizeof(err));
	if (ret) {
		dd_log(DD_LOG_ERR, "matches: %s", err);
		db_close(db);
		return dd_input_status(ret);
	}
	printf("%-5s %-12s %-20s %6s %5s %6s %-8s %-16s %s\n", "ID", "GAME", "STARTED (UTC)",
	       "THROWS", "CORR", "REVIEW", "STATE", "SCORE", "TABLE");
	for (size_t i = 0; i < n; i++) {
		time_t t = (time_t)(v[i].start_wall_ms / 1000);
		struct tm tm;
		char when[32];

		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
		printf("%-5lld %-12s %-20s %6d %5d %6d %-8s %-16s %s\n", (long long)v[i].id, v[i].game,
		       when, v[i].throws, v[i].corrections, v[i].reviews,
		       v[i].ended ? "ended" : "open", v[i].score[0] ? v[i].score : "-",
		       v[i].table_id[0] ? v[i].table_id : "-");
	}
	free(v);
	db_close(db);
	if (fflush(stdout)) {
		dd_log(DD_LOG_ERR, "matches: writing stdout failed");
		return DD_EXIT_FAIL;
	}
	return DD_EXIT_OK;
}
