/*
 * What the database commands (matches, export, import, replay) share:
 * their options and how a refused or failing database becomes an exit
 * status (dd_input_status, cliio.h). Private to daemon/cmd_*.c.
 */
#ifndef DYEREF_DBCLI_H
#define DYEREF_DBCLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "db/db.h"

struct dd_db_args {
	const char *db;		/* --db FILE */
	int64_t match;		/* --match N, 0 when not given */
	int64_t throw_no;	/* --throw K, 0 when not given */
	const char *input;	/* the one positional argument, or NULL */
	const char *out;	/* --out DIR, or NULL */
};

/* Parses argv[1..argc) for cmd: the options named in allowed ("dmto":
 * --db, --match, --throw, --out, each then required; "i": one positional
 * argument). Returns 0, or
 * DD_EXIT_USAGE after a one-line message; --help prints usage, DD_EXIT_OK
 * with *help set. */
int dd_db_args(const char *cmd, const char *usage, const char *allowed, int argc,
	       char **argv, struct dd_db_args *a, int *help);

/* Opens a->db for cmd (flags as db_open); NULL after a one-line message,
 * *status the exit status (dd_input_status: 2 for a database refused as
 * input, 1 otherwise). */
struct db *dd_db_open(const char *cmd, const char *path, unsigned flags, int *status);

/* Opens a->db to read (DB_OPEN_NOCHECK), runs fill into memory and, only when it succeeds
 * whole, writes that to stdout: an error leaves stdout empty. fill returns
 * 0 or a db_ error with a message in err. Returns the exit status after a
 * one-line "cmd: why" for any failure. */
int dd_db_to_stdout(const char *cmd, const struct dd_db_args *a,
		    int (*fill)(struct db *db, const struct dd_db_args *a, FILE *out,
				char *err, size_t errlen));

#endif /* DYEREF_DBCLI_H */
