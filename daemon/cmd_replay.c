/*
 * dyeref replay --db FILE --match N --throw K: everything behind one throw
 * (raw inputs, snapshots, observations, the throw, its rulings and
 * corrections) in time order, one JSON object a line.
 */
#include "daemon/dbcli.h"
#include "daemon/daemon.h"

#define USAGE "replay --db FILE --match N --throw K"

static int put(const struct db_item *it, void *ctx)
{
	return db_item_write(it, ctx);
}

static int fill(struct db *db, const struct dd_db_args *a, FILE *out, char *err, size_t errlen)
{
	int ret = db_replay(db, a->match, (int)a->throw_no, put, out, err, errlen);

	/* db_replay hands back put's -EIO as it is, with no message. */
	if (ret && ferror(out))
		snprintf(err, errlen, "writing the output failed");
	return ret;
}

int dd_cmd_replay(int argc, char **argv)
{
	struct dd_db_args a;
	int help, status;

	status = dd_db_args("replay", USAGE, "dmt", argc, argv, &a, &help);
	if (status || help)
		return status;
	if (a.throw_no > 1000000) {
		dd_log(DD_LOG_ERR, "replay: --throw %lld: no match has that many throws", (long long)a.throw_no);
		return DD_EXIT_USAGE;
	}
	return dd_db_to_stdout("replay", &a, fill);
}
