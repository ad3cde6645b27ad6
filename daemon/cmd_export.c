/*
 * dyeref export --db FILE --match N [--csv]: the stored match as its match
 * log, or with --csv its throws as CSV (one row per throw);
 * dyeref export --db FILE --players --csv: the player table as CSV (the
 * history pages' figures). On stdout, built in memory first: an error
 * leaves stdout empty.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

#include "daemon/dbcli.h"
#include "daemon/daemon.h"
#include "daemon/history.h"

#define USAGE "export --db FILE --match N [--csv] | export --db FILE --players --csv"

/* The stored log, judged before it is written: rows that SQLite keeps
 * but the judge refuses (a damaged or doctored database) are bad input,
 * not a log that `dyeref judge` would then refuse. */
static int fill(struct db *db, const struct dd_db_args *a, FILE *out, char *err, size_t errlen)
{
	char name[48], why[400], *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int ret;

	if (!mem) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = db_export(db, a->match, mem, err, errlen);
	if (fclose(mem) && !ret) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
	}
	snprintf(name, sizeof(name), "match %lld", (long long)a->match);
	if (!ret && (ret = mlog_check(name, buf, len, why, sizeof(why))) != 0) {
		snprintf(err, errlen, "%s (the stored rows do not judge; nothing exported)", why);
		ret = ret == -ENOMEM ? ret : -EILSEQ;
	}
	if (!ret && fwrite(buf, 1, len, out) != len) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
	}
	free(buf);
	return ret;
}

static int fill_csv(struct db *db, const struct dd_db_args *a, FILE *out, char *err, size_t errlen)
{
	return dd_match_csv(db, a->match, out, err, errlen);
}

static int fill_players(struct db *db, const struct dd_db_args *a, FILE *out, char *err,
			size_t errlen)
{
	struct dd_stats st = { 0 };
	int rc = dd_stats_collect(db, &st, err, errlen);

	(void)a;
	if (!rc)
		dd_stats_csv(&st, out);
	dd_stats_free(&st);
	return rc;
}

int dd_cmd_export(int argc, char **argv)
{
	struct dd_db_args a;
	char *rest[64];
	int n = 0, help, status, csv = 0, players = 0;

	if (argc > (int)(sizeof(rest) / sizeof(rest[0]))) {
		dd_log(DD_LOG_ERR, "export: too many arguments (usage: dyeref %s)", USAGE);
		return DD_EXIT_USAGE;
	}
	for (int i = 0; i < argc; i++) {
		if (i > 0 && !strcmp(argv[i], "--csv"))
			csv = 1;
		else if (i > 0 && !strcmp(argv[i], "--players"))
			players = 1;
		else
			rest[n++] = argv[i];
	}
	if (players && !csv) {
		dd_log(DD_LOG_ERR, "export: --players needs --csv (usage: dyeref %s)", USAGE);
		return DD_EXIT_USAGE;
	}
	status = dd_db_args("export", USAGE, players ? "d" : "dm", n, rest, &a, &help);
	if (status || help)
		return status;
	if (players)
		return dd_db_to_stdout("export", &a, fill_players);
	return dd_db_to_stdout("export", &a, csv ? fill_csv : fill);
}
