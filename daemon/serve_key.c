/* dyeref serve's device key file: the secret that signs the console's
 * device cookies, kept beside the database so that a restart (a crash,
 * systemd's restart) forgets no device; otherwise, after a restart during
 * a PIN-guessing attack, the official would wait with the guessers. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/config.h"
#include "daemon/serve.h"
#include "web/web.h"

_Static_assert(sizeof(((struct serve *)0)->device_key) == WEB_DEVICE_KEY,
	       "serve keeps the web's device key whole");

int dd_serve_key_read(const char *path, unsigned char *key, char *err, size_t errlen)
{
	unsigned char buf[WEB_DEVICE_KEY + 1];
	struct stat st;
	ssize_t got = 0, n;
	int fd, rc = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		goto close_fd;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		rc = -EINVAL;
		goto close_fd;
	}
	/* Whoever reads the key mints known devices, each with wrong PINs of
	 * its own to spend: one that others could read is no secret. */
	if (st.st_mode & 077) {
		snprintf(err, errlen, "%s: open to group or others (mode %03o, want 600)", path,
			 (unsigned)(st.st_mode & 0777));
		rc = -EPERM;
		goto close_fd;
	}
	/* One byte more than a key: a longer file is refused, not cut. */
	while (got < (ssize_t)sizeof(buf) && (n = read(fd, buf + got, sizeof(buf) - (size_t)got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(-rc));
			goto close_fd;
		}
		got += n;
	}
	if (got != WEB_DEVICE_KEY) {
		snprintf(err, errlen, "%s: %s%zd bytes, want %d", path,
			 got > WEB_DEVICE_KEY ? "over " : "", got > WEB_DEVICE_KEY ? got - 1 : got,
			 WEB_DEVICE_KEY);
		rc = -EINVAL;
		goto close_fd;
	}
	memcpy(key, buf, WEB_DEVICE_KEY);
close_fd:
	memset(buf, 0, sizeof(buf));
	close(fd);
	return rc;
}

int dd_serve_key_write(const char *path, const unsigned char *key, char *err,
		       size_t errlen)
{
	char tmp[4096];
	int fd, rc = 0;

	/* Beside the key, so the rename stays in one file system and a crash
	 * leaves the old key or the new, whole. */
	fd = dd_config_open_beside(path, tmp, sizeof(tmp), err, errlen);
	if (fd < 0)
		return fd;
	errno = 0;	/* a short write sets none */
	if (fchmod(fd, 0600) != 0 || write(fd, key, WEB_DEVICE_KEY) != WEB_DEVICE_KEY ||
	    fsync(fd) != 0) {
		rc = errno ? -errno : -EIO;
		snprintf(err, errlen, "%s: writing %s: %s", path, tmp, strerror(-rc));
		close(fd);
		goto remove_tmp;
	}
	if (close(fd) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: writing %s: %s", path, tmp, strerror(-rc));
		goto remove_tmp;
	}
	if (rename(tmp, path) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot replace it: %s", path, strerror(-rc));
		goto remove_tmp;
	}
	rc = dd_config_sync_dir(path);
	if (rc)
		snprintf(err, errlen, "%s: written, but syncing its directory failed: %s", path,
			 strerror(-rc));
	return rc;

remove_tmp:
	unlink(tmp);
	return rc;
}

/* The key file of sv's database. */
static void key_path(const struct serve *sv, char *out, size_t len)
{
	snprintf(out, len, "%s.key", sv->sc.db_path);
}

void dd_serve_key_load(struct serve *sv)
{
	char path[sizeof(sv->sc.db_path) + 8], err[4200];
	int rc;

	key_path(sv, path, sizeof(path));
	rc = dd_serve_key_read(path, sv->device_key, err, sizeof(err));
	sv->key_stored = rc == 0;
	if (rc && rc != -ENOENT)
		dd_log(DD_LOG_WARN, "device key: %s: a fresh key (every console device must log in "
		       "as new)", err);
}

void dd_serve_key_keep(struct serve *sv)
{
	char path[sizeof(sv->sc.db_path) + 8], err[4200];
	unsigned char now[WEB_DEVICE_KEY];

	web_server_device_key(sv->web, now);
	if (sv->key_stored && !memcmp(now, sv->device_key, sizeof(now)))
		return;
	memcpy(sv->device_key, now, sizeof(now));
	memset(now, 0, sizeof(now));
	key_path(sv, path, sizeof(path));
	/* Kept in memory either way: only the next restart forgets devices. */
	sv->key_stored = dd_serve_key_write(path, sv->device_key, err, sizeof(err)) == 0;
	if (!sv->key_stored)
		dd_log(DD_LOG_WARN, "device key: %s (a restart will forget every console device)",
		       err);
}
