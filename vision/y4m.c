/* vision: YUV4MPEG2 (Y4M) video, read frame by frame; tracking tests and
 * recorded throws use it. Only luma is kept (tracking works on grey). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision.h"

struct vis_y4m {
	FILE *f;		/* owned */
	char *path;		/* owned, for messages */
	int width, height;	/* pixels */
	int fps_num, fps_den;	/* frame rate */
	size_t chroma;		/* bytes of chroma after the luma of each frame */
	int seekable;		/* 0 on a pipe: chroma is read and dropped */
	int64_t frame;		/* frames read */
};

/* A decimal in [1, max] from s, ending at stop ('\0' or a separator);
 * *rest points past it. Parsed as long and checked before narrowing, so
 * "4294967297" is refused, not wrapped to 1. 0 or -1. */
static int y4m_num(const char *s, char stop, long max, int *out, const char **rest)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -1;	/* strtol would take spaces and signs */
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end != stop || v < 1 || v > max)
		return -1;
	*out = (int)v;
	if (rest)
		*rest = *end ? end + 1 : end;
	return 0;
}

/* Nanoseconds from the first frame to frame n at num/den fps, or -1 when
 * that does not fit in int64 (a huge den: one frame every few years). */
static int64_t y4m_frame_ns(int64_t n, int num, int den)
{
	int64_t t;	/* n * den: seconds times num */
	if (__builtin_mul_overflow(n, (int64_t)den, &t))
		return -1;
	int64_t sec = t / num, rem = t % num;	/* rem < num < 2^31 */
	int64_t ns;
	if (__builtin_mul_overflow(sec, (int64_t)1000000000, &ns) ||
	    __builtin_add_overflow(ns, rem * 1000000000 / num, &ns))
		return -1;
	return ns;
}

/* Reads one header line (up to '\n') into buf; -1 when longer or at EOF. */
static int y4m_line(FILE *f, char *buf, size_t len)
{
	size_t n = 0;
	int c;
	while ((c = fgetc(f)) != EOF && c != '\n') {
		if (n + 1 >= len)
			return -1;
		buf[n++] = (char)c;
	}
	buf[n] = 0;
	return c == EOF ? (n ? -2 : -3) : 0;
}

struct vis_y4m *vis_y4m_open(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		errno = e;
		return NULL;
	}
	return vis_y4m_open_stream(f, path, err, errlen);
}

struct vis_y4m *vis_y4m_open_stream(FILE *f, const char *path, char *err, size_t errlen)
{
	struct vis_y4m *y = calloc(1, sizeof(*y));
	char line[1024];
	int e = EINVAL;
	if (!y || !(y->path = strdup(path))) {
		snprintf(err, errlen, "%s: out of memory", path);
		free(y);
		fclose(f);
		errno = ENOMEM;
		return NULL;
	}
	y->f = f;
	if (y4m_line(y->f, line, sizeof line) || strncmp(line, "YUV4MPEG2 ", 10)) {
		snprintf(err, errlen, "%s: not a Y4M file (no YUV4MPEG2 header line)", path);
		goto free_y;
	}
	const char *cs = "420";
	y->fps_num = 30;
	y->fps_den = 1;
	char *save = NULL, *tok;
	for (tok = strtok_r(line + 10, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		const char *rest;
		switch (tok[0]) {
		case 'W':
			if (y4m_num(tok + 1, 0, VIS_MAX_SIDE, &y->width, NULL))
				goto bad_field;
			break;
		case 'H':
			if (y4m_num(tok + 1, 0, VIS_MAX_SIDE, &y->height, NULL))
				goto bad_field;
			break;
		case 'F':
			if (y4m_num(tok + 1, ':', INT_MAX, &y->fps_num, &rest) ||
			    y4m_num(rest, 0, INT_MAX, &y->fps_den, NULL))
				goto bad_field;
			break;
		case 'C':
			cs = tok + 1;
			if (strcmp(cs, "420") && strcmp(cs, "420jpeg") && strcmp(cs, "420paldv") &&
			    strcmp(cs, "420mpeg2") && strcmp(cs, "422") && strcmp(cs, "444") &&
			    strcmp(cs, "mono")) {
				snprintf(err, errlen, "%s: Y4M colour space C%s unsupported (8-bit 420, 422, 444, mono)",
					 path, cs);
				goto free_y;
			}
			break;
		case 'I':
		case 'A':
		case 'X':
			break;	/* interlacing, aspect, extensions: not needed */
		default:
			goto bad_field;
		}
	}
	if (!y->width || !y->height || (long)y->width * y->height > VIS_MAX_PIXELS) {
		snprintf(err, errlen, "%s: Y4M header: width and height missing or above %ld pixels",
			 path, VIS_MAX_PIXELS);
		goto free_y;
	}
	size_t cw = (size_t)y->width, ch = (size_t)y->height;
	if (!strncmp(cs, "420", 3))
		y->chroma = 2 * ((cw + 1) / 2) * ((ch + 1) / 2);
	else if (!strcmp(cs, "422"))
		y->chroma = 2 * ((cw + 1) / 2) * ch;
	else if (!strcmp(cs, "444"))
		y->chroma = 2 * cw * ch;
	else
		y->chroma = 0;
	/* stdin may be a pipe: fseek over chroma would fail there */
	y->seekable = ftell(f) >= 0;
	return y;
bad_field:
	snprintf(err, errlen, "%s: Y4M header: bad field '%.32s'", path, tok);
free_y:
	vis_y4m_close(y);
	errno = e;
	return NULL;
}

void vis_y4m_close(struct vis_y4m *y)
{
	if (!y)
		return;
	if (y->f)
		fclose(y->f);
	free(y->path);
	free(y);
}

void vis_y4m_info(const struct vis_y4m *y, int *width, int *height, int *fps_num, int *fps_den)
{
	*width = y->width;
	*height = y->height;
	*fps_num = y->fps_num;
	*fps_den = y->fps_den;
}

/* Reads and drops n bytes (chroma on a stream that cannot seek). 0 or -1
 * when the stream ends first. */
static int skip(FILE *f, size_t n)
{
	char buf[4096];
	while (n) {
		size_t k = n < sizeof buf ? n : sizeof buf;
		if (fread(buf, 1, k, f) != k)
			return -1;
		n -= k;
	}
	return 0;
}

int vis_y4m_read(struct vis_y4m *y, struct vis_image **out, char *err, size_t errlen)
{
	char line[256];
	*out = NULL;
	int r = y4m_line(y->f, line, sizeof line);
	if (r == -3)
		return 0;
	if (r || strncmp(line, "FRAME", 5) || (line[5] && line[5] != ' ')) {
		snprintf(err, errlen, "%s: frame %lld: no FRAME header", y->path, (long long)y->frame + 1);
		return -EINVAL;
	}
	struct vis_image *img = vis_image_new(y->width, y->height, VIS_GRAY8);
	if (!img) {
		snprintf(err, errlen, "%s: out of memory", y->path);
		return -ENOMEM;
	}
	int64_t ts = y4m_frame_ns(y->frame, y->fps_num, y->fps_den);
	if (ts < 0) {
		snprintf(err, errlen, "%s: frame %lld: time beyond 292 years at F%d:%d",
			 y->path, (long long)y->frame + 1, y->fps_num, y->fps_den);
		vis_image_free(img);
		return -EINVAL;
	}
	size_t luma = (size_t)y->width * y->height;
	if (fread(img->data, 1, luma, y->f) != luma ||
	    (y->seekable ? fseek(y->f, (long)y->chroma, SEEK_CUR) != 0 : skip(y->f, y->chroma) != 0)) {
		snprintf(err, errlen, "%s: frame %lld: truncated", y->path, (long long)y->frame + 1);
		vis_image_free(img);
		return -EINVAL;
	}
	/* fseek past the end succeeds; a short chroma plane shows as EOF at
	 * the next read, which must not pass for a clean end. */
	if (y->chroma && y->seekable) {
		long pos = ftell(y->f);
		if (fseek(y->f, 0, SEEK_END) == 0) {
			long end = ftell(y->f);
			fseek(y->f, pos, SEEK_SET);
			if (pos > end) {
				snprintf(err, errlen, "%s: frame %lld: truncated", y->path,
					 (long long)y->frame + 1);
				vis_image_free(img);
				return -EINVAL;
			}
		}
	}
	img->ts_ns = ts;
	y->frame++;
	*out = img;
	return 1;
}
