/*
 * dyeref export --db FILE --match N: the stored match as its match log, on
 * stdout. Built in memory first: an error leaves stdout empty.
 */
#include "daemon/dbcli.h"
#include "daemon/daemon.h"

#define USAGE "export --db FILE --match N"

static int fill(struct db *db, const struct dd_db_args *a, FILE *out, char *err, size_t errlen)
{
	return db_export(db, a->match, out, err, errlen);
}

int dd_cmd_export(int argc, char **argv)
{
	struct dd_db_args a;
	int help, status;

	status = dd_db_args("export", USAGE, "dm", argc, argv, &a, &help);
	if (status || help)
		return status;
	return dd_db_to_stdout("export", &a, fill);
}
