/* vision: reading an image file, its format chosen by its first bytes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vision/vision.h"

int vis_image_load(const char *path, struct vis_image **out, char *err, size_t errlen)
{
	*out = NULL;
	int ret = 0;
	uint8_t *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	struct stat st;
	if (fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		goto close_fd;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		ret = -EINVAL;
		goto close_fd;
	}
	if (st.st_size > VIS_MAX_FILE) {
		snprintf(err, errlen, "%s: %lld bytes, above the %ld-byte limit for an image",
			 path, (long long)st.st_size, VIS_MAX_FILE);
		ret = -E2BIG;
		goto close_fd;
	}
	size_t len = (size_t)st.st_size;
	buf = malloc(len ? len : 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		ret = -ENOMEM;
		goto close_fd;
	}
	size_t got = 0;
	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
			goto free_buf;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	len = got;
	static const uint8_t png_magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	if (len >= 8 && !memcmp(buf, png_magic, 8))
		ret = vis_decode_png(buf, len, path, out, err, errlen);
	else if (len >= 3 && buf[0] == 0xff && buf[1] == 0xd8 && buf[2] == 0xff)
		ret = vis_decode_jpeg(buf, len, path, out, err, errlen);
	else if (len >= 2 && buf[0] == 'P' && (buf[1] == '5' || buf[1] == '6'))
		ret = vis_decode_pnm(buf, len, path, out, err, errlen);
	else {
		snprintf(err, errlen, "%s: %s", path,
			 len == 0 ? "empty file" : "not a PNG, JPEG or binary PGM/PPM image");
		ret = -EINVAL;
	}
free_buf:
	free(buf);
close_fd:
	close(fd);
	return ret;
}
