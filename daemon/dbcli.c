/* Options and errors shared by the database commands (dbcli.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/cliio.h"
#include "daemon/dbcli.h"
#include "daemon/daemon.h"

static int parse_count(const char *cmd, const char *opt, const char *s, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 1) {
		dd_log(DD_LOG_ERR, "%s: %s: '%s' is not a positive whole number", cmd, opt, s);
		return DD_EXIT_USAGE;
	}
	*out = v;
	return 0;
}

int dd_db_args(const char *cmd, const char *usage, const char *allowed, int argc,
	       char **argv, struct dd_db_args *a, int *help)
{
	memset(a, 0, sizeof(*a));
	*help = 0;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		int64_t *count = NULL;

		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			printf("usage: dyeref %s\n", usage);
			*help = 1;
			return DD_EXIT_OK;
		}
		if ((!strcmp(o, "--db") && strchr(allowed, 'd')) ||
		    (!strcmp(o, "--out") && strchr(allowed, 'o'))) {
			if (i + 1 >= argc)
				goto missing;
			*(o[2] == 'd' ? &a->db : &a->out) = argv[++i];
			continue;
		}
		if (!strcmp(o, "--match") && strchr(allowed, 'm'))
			count = &a->match;
		else if (!strcmp(o, "--throw") && strchr(allowed, 't'))
			count = &a->throw_no;
		if (count) {
			if (i + 1 >= argc)
				goto missing;
			if (parse_count(cmd, o, argv[++i], count))
				return DD_EXIT_USAGE;
			continue;
		}
		if ((o[0] != '-' || !strcmp(o, "-")) && strchr(allowed, 'i') && !a->input) {
			a->input = o;
			continue;
		}
		dd_log(DD_LOG_ERR, "%s: unexpected argument '%s' (usage: dyeref %s)", cmd, o, usage);
		return DD_EXIT_USAGE;
missing:
		dd_log(DD_LOG_ERR, "%s: %s needs a value (usage: dyeref %s)", cmd, o, usage);
		return DD_EXIT_USAGE;
	}
	if (!a->db) {
		dd_log(DD_LOG_ERR, "%s: --db FILE is required (usage: dyeref %s)", cmd, usage);
		return DD_EXIT_USAGE;
	}
	if (strchr(allowed, 'o') && !a->out) {
		dd_log(DD_LOG_ERR, "%s: --out DIR is required (usage: dyeref %s)", cmd, usage);
		return DD_EXIT_USAGE;
	}
	if (strchr(allowed, 'm') && !a->match) {
		dd_log(DD_LOG_ERR, "%s: --match N is required (usage: dyeref %s)", cmd, usage);
		return DD_EXIT_USAGE;
	}
	if (strchr(allowed, 't') && !a->throw_no) {
		dd_log(DD_LOG_ERR, "%s: --throw K is required (usage: dyeref %s)", cmd, usage);
		return DD_EXIT_USAGE;
	}
	return 0;
}

struct db *dd_db_open(const char *cmd, const char *path, unsigned flags, int *status)
{
	char err[512];
	struct db *db = db_open(path, flags, err, sizeof(err));

	if (!db) {
		*status = dd_input_status(-errno);	/* before dd_log, which may set errno */
		dd_log(DD_LOG_ERR, "%s: %s", cmd, err);
	}
	return db;
}

int dd_db_to_stdout(const char *cmd, const struct dd_db_args *a,
		    int (*fill)(struct db *db, const struct dd_db_args *a, FILE *out,
				char *err, size_t errlen))
{
	struct db *db;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int status, ret;

	/* Readers: a page found corrupt fails their read, so the check of
	 * every page on open is not theirs to pay. */
	db = dd_db_open(cmd, a->db, DB_OPEN_NOCHECK, &status);
	if (!db)
		return status;
	mem = open_memstream(&buf, &len);
	if (!mem) {
		db_close(db);
		dd_log(DD_LOG_ERR, "%s: out of memory", cmd);
		return DD_EXIT_FAIL;
	}
	ret = fill(db, a, mem, err, sizeof(err));
	/* A memstream that could not grow fails here, not in fill. */
	if (fclose(mem) && !ret) {
		snprintf(err, sizeof(err), "out of memory");
		ret = -ENOMEM;
	}
	db_close(db);
	if (ret) {
		dd_log(DD_LOG_ERR, "%s: %s", cmd, err);
		status = dd_input_status(ret);
	} else {
		status = dd_write_stdout(cmd, buf, len);
	}
	free(buf);
	return status;
}
