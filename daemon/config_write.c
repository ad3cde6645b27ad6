/* dd_config_set_keys: change a few keys of an INI file in place, safely. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/config.h"

#define LINE_BYTES 1024	/* longest line kept verbatim */

/* The key of an INI "key = value" line (in buf), or NULL. */
static const char *line_key(const char *line, char *buf, size_t len)
{
	const char *s = line, *e;
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == ';' || *s == '#' || *s == '[' || *s == '\n' || !*s)
		return NULL;
	e = strpbrk(s, "=:");
	if (!e)
		return NULL;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	n = (size_t)(e - s);
	if (n >= len)
		return NULL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

/* The name of a "[section]" line (in buf), or NULL. */
static const char *line_section(const char *line, char *buf, size_t len)
{
	const char *s = line, *e;
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '[' || !(e = strchr(s, ']')))
		return NULL;
	n = (size_t)(e - s - 1);
	if (n >= len)
		return NULL;
	memcpy(buf, s + 1, n);
	buf[n] = '\0';
	return buf;
}

/* The file a config path names: symbolic links followed to their end (an
 * installer's /etc/dyeref.conf -> /srv/dyeref/dyeref.conf), so the rename
 * replaces the target and the link stays. A dangling link names the file
 * to create. 0, or a negative errno with a message. */
static int resolve(const char *path, char *out, size_t len, char *err, size_t errlen)
{
	char link[PATH_MAX], next[PATH_MAX];
	struct stat st;

	if (snprintf(out, len, "%s", path) >= (int)len)
		goto too_long;
	for (int hops = 0; lstat(out, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		ssize_t n;
		const char *slash;

		if (hops == 40) {
			snprintf(err, errlen, "%s: %s", path, strerror(ELOOP));
			return -ELOOP;
		}
		n = readlink(out, link, sizeof(link) - 1);
		if (n < 0) {
			int e = errno;

			snprintf(err, errlen, "%s: reading the link %s: %s", path, out, strerror(e));
			return -e;
		}
		link[n] = '\0';
		slash = strrchr(out, '/');
		/* a relative target is relative to the link's directory */
		if (link[0] == '/' || !slash) {
			if (snprintf(next, sizeof(next), "%s", link) >= (int)sizeof(next))
				goto too_long;
		} else if (snprintf(next, sizeof(next), "%.*s/%s", (int)(slash - out), out, link) >=
			   (int)sizeof(next)) {
			goto too_long;
		}
		if (snprintf(out, len, "%s", next) >= (int)len)
			goto too_long;
	}
	return 0;
too_long:
	snprintf(err, errlen, "%s: path too long", path);
	return -ENAMETOOLONG;
}

int dd_config_sync_dir(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, rc = 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) != 0)
		rc = -errno;
	close(fd);
	return rc;
}

int dd_config_open_beside(const char *path, char *tmp, size_t len, char *err, size_t errlen)
{
	int fd;

	if (snprintf(tmp, len, "%s.XXXXXX", path) >= (int)len) {
		snprintf(err, errlen, "%s: path too long", path);
		return -ENAMETOOLONG;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		fd = -errno;
		snprintf(err, errlen, "%s: cannot create a temporary file beside it: %s", path,
			 strerror(-fd));
	}
	return fd;
}

int dd_config_check_writable(const char *shown, char *err, size_t errlen)
{
	char tmp[PATH_MAX + 8], path[PATH_MAX];
	int fd, rc;

	rc = resolve(shown, path, sizeof(path), err, errlen);
	if (rc)
		return rc;
	fd = dd_config_open_beside(path, tmp, sizeof(tmp), err, errlen);
	if (fd < 0)
		return fd;
	close(fd);
	unlink(tmp);
	return 0;
}

static int emit(FILE *f, const char *key, const char *value)
{
	return fprintf(f, "%s = %s\n", key, value) < 0 ? -EIO : 0;
}

int dd_config_set_keys(const char *shown, const char *section, const char *const *keys,
		       const char *const *values, size_t n, char *err, size_t errlen)
{
	char line[LINE_BYTES + 2], name[128], tmp[PATH_MAX + 8], path[PATH_MAX];
	unsigned char done[64] = { 0 };
	FILE *in = NULL, *out = NULL;
	int fd = -1, rc = 0, in_section = 0, saw_section = 0, lineno = 0, held_blank = 0;
	struct stat st;

	if (n > sizeof(done)) {
		snprintf(err, errlen, "%s: too many keys to write at once", shown);
		return -EINVAL;
	}
	rc = resolve(shown, path, sizeof(path), err, errlen);
	if (rc)
		return rc;
	in = fopen(path, "r");
	if (!in && errno != ENOENT) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	fd = dd_config_open_beside(path, tmp, sizeof(tmp), err, errlen);
	if (fd < 0) {
		rc = fd;
		goto close_in;
	}
	if (in && fstat(fileno(in), &st) == 0)
		fchmod(fd, st.st_mode & 07777);
	out = fdopen(fd, "w");
	if (!out) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		close(fd);
		goto remove_tmp;
	}
	while (in && fgets(line, sizeof(line), in)) {
		size_t len = strlen(line);
		const char *k;
		bool blank = strspn(line, " \t\r\n") == len;

		lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			snprintf(err, errlen, "%s:%d: line longer than %d bytes: not rewritten", path,
				 lineno, LINE_BYTES);
			rc = -EINVAL;
			goto close_out;
		}
		/* Blank lines at the end of our section stay after the keys
		 * added to it: hold them until we know what follows. */
		if (in_section && blank) {
			held_blank++;
			continue;
		}
		if (line_section(line, name, sizeof(name))) {
			if (in_section)	/* leaving it: add what it lacked */
				for (size_t i = 0; i < n; i++)
					if (!done[i] && !(rc = emit(out, keys[i], values[i])))
						done[i] = 1;
			for (; held_blank > 0 && !rc; held_blank--)
				if (fputc('\n', out) < 0)
					rc = -EIO;
			in_section = !strcmp(name, section);
			saw_section |= in_section;
		} else if (in_section && (k = line_key(line, name, sizeof(name)))) {
			size_t i;

			for (i = 0; i < n && strcmp(k, keys[i]); i++)
				;
			if (i < n) {
				if (!done[i] && !(rc = emit(out, keys[i], values[i])))
					done[i] = 1;
				continue;	/* drop the old line (and any later duplicate) */
			}
		}
		for (; held_blank > 0 && !rc; held_blank--)
			if (fputc('\n', out) < 0)
				rc = -EIO;
		if (fputs(line, out) < 0)
			rc = -EIO;
		if (len && line[len - 1] != '\n' && fputc('\n', out) < 0)
			rc = -EIO;
		if (rc)
			break;
	}
	if (!rc && in && ferror(in))
		rc = -EIO;
	if (!rc && !saw_section && fprintf(out, "\n[%s]\n", section) < 0)
		rc = -EIO;
	for (size_t i = 0; !rc && i < n; i++)
		if (!done[i])
			rc = emit(out, keys[i], values[i]);
	for (; held_blank > 0 && !rc; held_blank--)
		if (fputc('\n', out) < 0)
			rc = -EIO;
	if (!rc && (fflush(out) != 0 || fsync(fileno(out)) != 0))
		rc = -errno;
	if (rc) {
		snprintf(err, errlen, "%s: writing %s: %s", path, tmp, strerror(-rc));
		goto close_out;
	}
	if (fclose(out) != 0) {
		rc = -errno;
		out = NULL;
		snprintf(err, errlen, "%s: %s", tmp, strerror(-rc));
		goto remove_tmp;
	}
	out = NULL;
	if (rename(tmp, path) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot replace it: %s", path, strerror(-rc));
		goto remove_tmp;
	}
	rc = dd_config_sync_dir(path);
	if (rc)
		snprintf(err, errlen, "%s: written, but syncing its directory failed (a power cut "
			 "may lose the change): %s", path, strerror(-rc));
	goto close_in;

close_out:
	fclose(out);
remove_tmp:
	unlink(tmp);
close_in:
	if (in)
		fclose(in);
	return rc;
}
