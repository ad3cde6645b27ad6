/* dd_store: matches as match-log files, each line on disk before it is shown. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/daemon.h"

struct dd_store {
	char *dir;	/* owned */
	int dirfd;	/* for openat and fsync of renames */
	long current;	/* match under way, 0 none */
};

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void file_name(char *out, size_t outlen, long id, enum dd_store_file which)
{
	snprintf(out, outlen, "%ld%s", id, which == DD_STORE_OBS ? ".obs.jsonl" : ".jsonl");
}

static long read_current(int dirfd)
{
	char buf[32] = "";
	int fd = openat(dirfd, "current", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	long id;
	char *end;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	id = strtol(buf, &end, 10);
	return (end != buf && id > 0) ? id : 0;
}

/* Replaces "current" atomically: a crash leaves the old or the new one. */
static int write_current(struct dd_store *st, long id, char *err, size_t errlen)
{
	char buf[32];
	int fd, rc, n;

	if (id == 0) {
		if (unlinkat(st->dirfd, "current", 0) && errno != ENOENT)
			goto fail;
		fsync(st->dirfd);
		st->current = 0;
		return 0;
	}
	fd = openat(st->dirfd, "current.tmp", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (fd < 0)
		goto fail;
	n = snprintf(buf, sizeof(buf), "%ld\n", id);
	rc = write_all(fd, buf, (size_t)n);
	if (!rc && fdatasync(fd))
		rc = -errno;
	close(fd);
	if (rc) {
		errno = -rc;
		goto fail;
	}
	if (renameat(st->dirfd, "current.tmp", st->dirfd, "current"))
		goto fail;
	fsync(st->dirfd);
	st->current = id;
	return 0;
fail:
	rc = -errno;
	snprintf(err, errlen, "%s/current: %s", st->dir, strerror(errno));
	return rc;
}

struct dd_store *dd_store_open(const char *dir, char *err, size_t errlen)
{
	struct dd_store *st = calloc(1, sizeof(*st));
	int e;

	if (!st || !(st->dir = strdup(dir))) {
		free(st);
		snprintf(err, errlen, "%s: out of memory", dir);
		errno = ENOMEM;
		return NULL;
	}
	if (mkdir(dir, 0750) && errno != EEXIST)
		goto fail;
	st->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->dirfd < 0)
		goto fail;
	st->current = read_current(st->dirfd);
	return st;
fail:
	e = errno;
	snprintf(err, errlen, "%s: %s", dir, strerror(e));
	free(st->dir);
	free(st);
	errno = e;
	return NULL;
}

void dd_store_close(struct dd_store *st)
{
	if (!st)
		return;
	close(st->dirfd);
	free(st->dir);
	free(st);
}

int dd_store_list(struct dd_store *st, long **ids, size_t *n)
{
	DIR *d;
	struct dirent *de;
	long *list = NULL;
	size_t cnt = 0, cap = 0;
	int fd = dup(st->dirfd);

	*ids = NULL;
	*n = 0;
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	rewinddir(d);
	while ((de = readdir(d))) {
		char *end;
		long id = strtol(de->d_name, &end, 10);

		if (end == de->d_name || strcmp(end, ".jsonl") || id <= 0)
			continue;
		if (cnt == cap) {
			long *grown = realloc(list, (cap = cap ? cap * 2 : 16) * sizeof(*list));

			if (!grown) {
				free(list);
				closedir(d);
				return -ENOMEM;
			}
			list = grown;
		}
		list[cnt++] = id;
	}
	closedir(d);
	for (size_t i = 1; i < cnt; i++)	/* few matches: insertion sort */
		for (size_t j = i; j > 0 && list[j - 1] > list[j]; j--) {
			long t = list[j];

			list[j] = list[j - 1];
			list[j - 1] = t;
		}
	*ids = list;
	*n = cnt;
	return 0;
}

int dd_store_new_match(struct dd_store *st, const char *head, size_t len, long *id,
		       char *err, size_t errlen)
{
	long *ids, next = 1;
	size_t n;
	char name[64];
	int fd, rc;

	rc = dd_store_list(st, &ids, &n);
	if (rc) {
		snprintf(err, errlen, "%s: %s", st->dir, strerror(-rc));
		return rc;
	}
	if (n)
		next = ids[n - 1] + 1;
	free(ids);
	file_name(name, sizeof(name), next, DD_STORE_LOG);
	fd = openat(st->dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s/%s: %s", st->dir, name, strerror(errno));
		return rc;
	}
	rc = write_all(fd, head, len);
	if (!rc && fdatasync(fd))
		rc = -errno;
	close(fd);
	if (rc) {
		snprintf(err, errlen, "%s/%s: %s", st->dir, name, strerror(-rc));
		unlinkat(st->dirfd, name, 0);
		return rc;
	}
	fsync(st->dirfd);
	rc = write_current(st, next, err, errlen);
	if (rc)
		return rc;
	*id = next;
	return 0;
}

int dd_store_append(struct dd_store *st, long id, enum dd_store_file which,
		    const char *lines, size_t len, char *err, size_t errlen)
{
	char name[64];
	int fd, rc;

	file_name(name, sizeof(name), id, which);
	fd = openat(st->dirfd, name, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s/%s: %s", st->dir, name, strerror(errno));
		return rc;
	}
	rc = write_all(fd, lines, len);
	/* On disk before the scoreboard shows it: a ruling seen is a ruling kept. */
	if (!rc && fdatasync(fd))
		rc = -errno;
	close(fd);
	if (rc)
		snprintf(err, errlen, "%s/%s: %s", st->dir, name, strerror(-rc));
	return rc;
}

int dd_store_read(struct dd_store *st, long id, enum dd_store_file which,
		  char **buf, size_t *len)
{
	char name[64];
	struct stat sb;
	char *data;
	size_t got = 0;
	int fd, rc = 0;

	*buf = NULL;
	*len = 0;
	file_name(name, sizeof(name), id, which);
	fd = openat(st->dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb)) {
		rc = -errno;
		goto close_file;
	}
	if (sb.st_size > (off_t)MLOG_MAX_INPUT) {
		rc = -EFBIG;
		goto close_file;
	}
	data = malloc((size_t)sb.st_size + 1);
	if (!data) {
		rc = -ENOMEM;
		goto close_file;
	}
	while (got < (size_t)sb.st_size) {
		ssize_t r = read(fd, data + got, (size_t)sb.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	/* A torn last line (a crash mid-write) was never acknowledged: drop it. */
	while (got > 0 && data[got - 1] != '\n')
		got--;
	data[got] = '\0';
	*buf = data;
	*len = got;
close_file:
	close(fd);
	return rc;
}

long dd_store_current(struct dd_store *st)
{
	return st->current;
}

int dd_store_end_match(struct dd_store *st, char *err, size_t errlen)
{
	return write_current(st, 0, err, errlen);
}
