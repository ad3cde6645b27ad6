/* vision: YUV4MPEG2 (Y4M) video, read frame by frame; tracking tests and
 * recorded throws use it. Only luma is kept (tracking works on grey). */
#include <errno.h>
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
	long frame;		/* frames read */
};

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
	struct vis_y4m *y = calloc(1, sizeof(*y));
	char line[1024];
	int e = EINVAL;
	if (!y || !(y->path = strdup(path))) {
		snprintf(err, errlen, "%s: out of memory", path);
		e = ENOMEM;
		goto free_y;
	}
	y->f = fopen(path, "rb");
	if (!y->f) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		goto free_y;
	}
	if (y4m_line(y->f, line, sizeof line) || strncmp(line, "YUV4MPEG2 ", 10)) {
		snprintf(err, errlen, "%s: not a Y4M file (no YUV4MPEG2 header line)", path);
		goto free_y;
	}
	const char *cs = "420";
	y->fps_num = 30;
	y->fps_den = 1;
	char *save = NULL, *tok;
	for (tok = strtok_r(line + 10, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *end;
		switch (tok[0]) {
		case 'W':
			y->width = (int)strtol(tok + 1, &end, 10);
			if (*end || y->width <= 0 || y->width > VIS_MAX_SIDE)
				goto bad_field;
			break;
		case 'H':
			y->height = (int)strtol(tok + 1, &end, 10);
			if (*end || y->height <= 0 || y->height > VIS_MAX_SIDE)
				goto bad_field;
			break;
		case 'F':
			if (sscanf(tok + 1, "%d:%d", &y->fps_num, &y->fps_den) != 2 ||
			    y->fps_num <= 0 || y->fps_den <= 0)
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

int vis_y4m_read(struct vis_y4m *y, struct vis_image **out, char *err, size_t errlen)
{
	char line[256];
	*out = NULL;
	int r = y4m_line(y->f, line, sizeof line);
	if (r == -3)
		return 0;
	if (r || strncmp(line, "FRAME", 5) || (line[5] && line[5] != ' ')) {
		snprintf(err, errlen, "%s: frame %ld: no FRAME header", y->path, y->frame + 1);
		return -EINVAL;
	}
	struct vis_image *img = vis_image_new(y->width, y->height, VIS_GRAY8);
	if (!img) {
		snprintf(err, errlen, "%s: out of memory", y->path);
		return -ENOMEM;
	}
	size_t luma = (size_t)y->width * y->height;
	if (fread(img->data, 1, luma, y->f) != luma || fseek(y->f, (long)y->chroma, SEEK_CUR)) {
		snprintf(err, errlen, "%s: frame %ld: truncated", y->path, y->frame + 1);
		vis_image_free(img);
		return -EINVAL;
	}
	/* fseek past the end succeeds; a short chroma plane shows as EOF at
	 * the next read, which must not pass for a clean end. */
	if (y->chroma) {
		long pos = ftell(y->f);
		if (fseek(y->f, 0, SEEK_END) == 0) {
			long end = ftell(y->f);
			fseek(y->f, pos, SEEK_SET);
			if (pos > end) {
				snprintf(err, errlen, "%s: frame %ld: truncated", y->path, y->frame + 1);
				vis_image_free(img);
				return -EINVAL;
			}
		}
	}
	img->ts_ns = (int64_t)(y->frame * 1000000000LL * y->fps_den / y->fps_num);
	y->frame++;
	*out = img;
	return 1;
}
