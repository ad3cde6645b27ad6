/*
 * How the commands that turn one input into one answer (judge, import,
 * export, replay) read and write, so that bad input leaves stdout empty:
 * whole input in and whole output out, or a log line by line (import)
 * or in passes (judge). Private to daemon/cmd_*.c, daemon/dbcli.c and
 * daemon/sensors_cli.c.
 */
#ifndef DYEREF_CLIIO_H
#define DYEREF_CLIIO_H

#include <stddef.h>
#include <stdio.h>

/* The exit status for a named input file (a log, a config, a recording,
 * a database) that could not be had, from the negative errno that said
 * why: bad input (DD_EXIT_USAGE) when the name is at fault (no such file,
 * a directory, too large, not what it should be: -EINVAL; a database db/
 * refuses as not dyeref's -ENOTSUP, corrupt -EILSEQ, of a newer schema
 * -EPROTO, or a write to a match already ended -EALREADY), a failure of
 * the system (DD_EXIT_FAIL) otherwise (-EIO, -ENOMEM, -ENOSPC, -EACCES:
 * the file is there but this user may not read it). */
int dd_input_status(int err);

/* Writes buf[0..len) to stdout and flushes it. DD_EXIT_OK, or DD_EXIT_FAIL
 * after "cmd: stdout: why". buf stays the caller's. */
int dd_write_stdout(const char *cmd, const char *buf, size_t len);

/* A log read line by line in memory bounded by its longest line (judge
 * of a log of any length), and read again from its first line for the
 * judge's later passes. Input that cannot seek (a pipe) is copied as it
 * is read to an unlinked file in $TMPDIR (or /tmp), which the later
 * passes read. */
struct dd_lines;

/* Reads f (borrowed; its position now is the first line) named name
 * (borrowed) for messages, lines of at most max bytes without the '\n'.
 * NULL with errno ENOMEM. Free with dd_lines_free(). */
struct dd_lines *dd_lines_new(FILE *f, const char *name, size_t max);
void dd_lines_free(struct dd_lines *r);	/* NULL is fine; f stays open */

/* The input is read once (import): a pipe is not copied, and
 * dd_lines_rewind() is not called. */
void dd_lines_once(struct dd_lines *r);

/* The next line: 1 with *line (borrowed until the next call; not
 * NUL-terminated) and *len (without the '\n'; the last line need not have
 * one), 0 at the end. A line of more than max bytes is refused when its
 * first byte past max is read, never held whole: -EFBIG with
 * "NAME:LINE: longer than MAX bytes, not a line of a match log" in err.
 * A failed read (-EISDIR for a directory, -EIO, ...) or copy of a pipe
 * (-ENOSPC, ...): its negative errno with "NAME: why" in err. */
int dd_lines_next(struct dd_lines *r, const char **line, size_t *len, char *err,
		  size_t errlen);

/* Lines read so far in this pass (the number of the last one returned). */
int dd_lines_no(const struct dd_lines *r);

/* Starts again from the first line (after the first pass reached its
 * end). 0, or a negative errno with "NAME: why" in err. */
int dd_lines_rewind(struct dd_lines *r, char *err, size_t errlen);

#endif /* DYEREF_CLIIO_H */
