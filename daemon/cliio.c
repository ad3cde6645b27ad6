/* Whole input in, whole output out; or line by line (cliio.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/core.h"
#include "daemon/cliio.h"
#include "daemon/daemon.h"

int dd_input_status(int err)
{
	switch (-err) {
	case EINVAL: case ENOENT: case ENOTDIR: case EISDIR: case ELOOP: case ENAMETOOLONG:
	case EFBIG: case ENOTSUP: case EILSEQ: case EPROTO: case EALREADY:
		return DD_EXIT_USAGE;
	default:
		return DD_EXIT_FAIL;
	}
}

int dd_write_stdout(const char *cmd, const char *buf, size_t len)
{
	if (fwrite(buf, 1, len, stdout) != len || fflush(stdout)) {
		dd_log(DD_LOG_ERR, "%s: stdout: %s", cmd, strerror(errno ? errno : EIO));
		return DD_EXIT_FAIL;
	}
	return DD_EXIT_OK;
}

/* ---- Line by line ------------------------------------------------------ */

#define LINES_CHUNK (64 * 1024)	/* bytes read at a time */

struct dd_lines {
	FILE *src;		/* borrowed: the input */
	const char *name;	/* borrowed: for messages */
	size_t max;		/* bytes of a line, without its '\n' */
	char *buf;		/* owned: max + 1 + LINES_CHUNK bytes */
	size_t cap;		/* bytes of buf */
	size_t start, end;	/* buf[start..end): read, not yet handed out */
	int no;			/* lines handed out in this pass */
	bool eof;		/* the input of this pass is all in buf */
	bool seekable;		/* src can go back to where it started */
	off_t origin;		/* src's position of the first line */
	FILE *spool;		/* owned: the copy of a src that cannot seek, or NULL */
	bool replay;		/* this pass reads spool, not src */
	bool once;		/* no second pass: no spool */
};

struct dd_lines *dd_lines_new(FILE *f, const char *name, size_t max)
{
	struct dd_lines *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->src = f;
	r->name = name;
	r->max = max;
	r->cap = max + 1 + LINES_CHUNK;
	r->buf = malloc(r->cap);
	if (!r->buf) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	r->origin = ftello(f);
	r->seekable = r->origin >= 0 && fseeko(f, r->origin, SEEK_SET) == 0;
	clearerr(f);
	return r;
}

void dd_lines_free(struct dd_lines *r)
{
	if (!r)
		return;
	if (r->spool)
		fclose(r->spool);
	free(r->buf);
	free(r);
}

void dd_lines_once(struct dd_lines *r)
{
	r->once = true;
}

int dd_lines_no(const struct dd_lines *r)
{
	return r->no;
}

/* An unlinked file for the copy of the input: nothing is left behind. */
static FILE *spool_open(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	FILE *f;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	if (snprintf(path, sizeof(path), "%s/dyeref-log-XXXXXX", dir) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	unlink(path);
	f = fdopen(fd, "w+b");
	if (!f)
		close(fd);
	return f;
}

/* More input after buf[start..end): 0, or a negative errno with err. */
static int lines_fill(struct dd_lines *r, char *err, size_t errlen)
{
	FILE *f = r->replay ? r->spool : r->src;
	size_t got;

	if (!f) {
		r->eof = true;	/* a replay of an input that was empty */
		return 0;
	}

	if (r->start) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	got = fread(r->buf + r->end, 1, r->cap - r->end, f);
	if (got == 0) {
		if (ferror(f)) {
			int e = errno ? errno : EIO;	/* EISDIR: the name's fault */

			snprintf(err, errlen, "%s: %s", r->replay ? "the copy of the input" : r->name,
				 strerror(e));
			return -e;
		}
		r->eof = true;
		return 0;
	}
	if (!r->replay && !r->seekable && !r->once) {
		if (!r->spool && !(r->spool = spool_open())) {
			int e = errno ? errno : EIO;

			snprintf(err, errlen, "%s: a copy to read it again: %s", r->name, strerror(e));
			return -e;
		}
		if (fwrite(r->buf + r->end, 1, got, r->spool) != got) {
			int e = errno ? errno : EIO;

			snprintf(err, errlen, "%s: a copy to read it again: %s", r->name, strerror(e));
			return -e;
		}
	}
	r->end += got;
	return 0;
}

int dd_lines_next(struct dd_lines *r, const char **line, size_t *len, char *err,
		  size_t errlen)
{
	for (;;) {
		char *p = r->buf + r->start, *nl = memchr(p, '\n', r->end - r->start);
		size_t have = nl ? (size_t)(nl - p) : r->end - r->start;
		int rc;

		if (have > r->max) {
			/* Refused at its first byte past the limit; the rest is
			 * never read. */
			snprintf(err, errlen, "%s:%d: longer than %zu bytes, not a line of a match log",
				 r->name, r->no + 1, r->max);
			return -EFBIG;
		}
		if (nl || (r->eof && have)) {
			*line = p;
			*len = have;
			r->start += have + (nl ? 1 : 0);
			r->no++;
			return 1;
		}
		if (r->eof)
			return 0;
		rc = lines_fill(r, err, errlen);
		if (rc)
			return rc;
	}
}

int dd_lines_rewind(struct dd_lines *r, char *err, size_t errlen)
{
	r->start = r->end = 0;
	r->no = 0;
	r->eof = false;
	errno = 0;
	if (r->seekable) {
		if (fseeko(r->src, r->origin, SEEK_SET)) {
			snprintf(err, errlen, "%s: %s", r->name, strerror(errno ? errno : EIO));
			return -EIO;
		}
		clearerr(r->src);
		return 0;
	}
	r->replay = true;
	if (!r->spool)
		return 0;	/* nothing was read: an empty input stays empty */
	if (fflush(r->spool) || fseeko(r->spool, 0, SEEK_SET)) {
		int e = errno ? errno : EIO;

		snprintf(err, errlen, "%s: a copy to read it again: %s", r->name, strerror(e));
		return -e;
	}
	return 0;
}
