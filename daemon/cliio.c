/* Whole input in, whole output out (cliio.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "daemon/cliio.h"
#include "daemon/daemon.h"

/* All of f into *buf (malloc'd): 0; -EFBIG past MLOG_MAX_INPUT; -ENOMEM;
 * -EIO with errno kept for the message. */
static int read_all(FILE *f, char **buf, size_t *len)
{
	size_t cap = 64 * 1024, n = 0, got;
	char *p = malloc(cap), *q;

	if (!p)
		return -ENOMEM;
	while ((got = fread(p + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n > MLOG_MAX_INPUT)
			goto too_big;
		if (n == cap) {
			q = realloc(p, cap * 2);
			if (!q) {
				free(p);
				return -ENOMEM;
			}
			p = q;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		int e = errno;

		free(p);
		errno = e;
		return -EIO;
	}
	*buf = p;
	*len = n;
	return 0;
too_big:
	free(p);
	return -EFBIG;
}

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

int dd_read_input(const char *cmd, const char *path, char **buf, size_t *len,
		  const char **name)
{
	FILE *f = stdin;
	int rc;

	*name = "stdin";
	if (path && strcmp(path, "-")) {
		*name = path;
		f = fopen(path, "rb");
		if (!f) {
			int e = errno;

			dd_log(DD_LOG_ERR, "%s: %s: %s", cmd, path, strerror(e));
			return dd_input_status(-e);
		}
	}
	errno = 0;
	rc = read_all(f, buf, len);
	if (f != stdin) {
		int e = errno;

		fclose(f);
		errno = e;
	}
	if (rc == -EFBIG) {
		dd_log(DD_LOG_ERR, "%s: %s: larger than %u MiB, not a match log",
		       cmd, *name, MLOG_MAX_INPUT >> 20);
		return DD_EXIT_USAGE;
	}
	if (rc) {
		int e = rc == -ENOMEM ? ENOMEM : errno ? errno : EIO;

		dd_log(DD_LOG_ERR, "%s: %s: %s", cmd, *name,
		       e == ENOMEM ? "out of memory" : strerror(e));
		return dd_input_status(-e);	/* a directory: EISDIR, the name's fault */
	}
	return DD_EXIT_OK;
}

int dd_write_stdout(const char *cmd, const char *buf, size_t len)
{
	if (fwrite(buf, 1, len, stdout) != len || fflush(stdout)) {
		dd_log(DD_LOG_ERR, "%s: stdout: %s", cmd, strerror(errno ? errno : EIO));
		return DD_EXIT_FAIL;
	}
	return DD_EXIT_OK;
}
