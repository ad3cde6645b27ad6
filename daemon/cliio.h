/*
 * Whole input in, whole output out: how the commands that turn one input
 * into one answer (judge, import, export, replay) read and write, so that
 * bad input leaves stdout empty. Private to daemon/cmd_*.c,
 * daemon/dbcli.c and daemon/sensors_cli.c.
 */
#ifndef DYEREF_CLIIO_H
#define DYEREF_CLIIO_H

#include <stddef.h>

/* The exit status for a named input file (a log, a config, a recording,
 * a database) that could not be had, from the negative errno that said
 * why: bad input (DD_EXIT_USAGE) when the name is at fault (no such file,
 * a directory, too large, not what it should be: -EINVAL; a database db/
 * refuses as not dyeref's -ENOTSUP, corrupt -EILSEQ, of a newer schema
 * -EPROTO, or a write to a match already ended -EALREADY), a failure of
 * the system (DD_EXIT_FAIL) otherwise (-EIO, -ENOMEM, -ENOSPC, -EACCES:
 * the file is there but this user may not read it). */
int dd_input_status(int err);

/* Reads all of path, or of stdin when path is NULL or "-", at most
 * MLOG_MAX_INPUT bytes. *name is what messages call the input (path, or
 * "stdin"). Returns DD_EXIT_OK with *buf (malloc'd, the caller frees it)
 * and *len; otherwise, after a one-line "cmd: name: why", the exit status
 * of dd_input_status (input past the limit: DD_EXIT_USAGE), *buf
 * untouched. */
int dd_read_input(const char *cmd, const char *path, char **buf, size_t *len,
		  const char **name);

/* Writes buf[0..len) to stdout and flushes it. DD_EXIT_OK, or DD_EXIT_FAIL
 * after "cmd: stdout: why". buf stays the caller's. */
int dd_write_stdout(const char *cmd, const char *buf, size_t len);

#endif /* DYEREF_CLIIO_H */
