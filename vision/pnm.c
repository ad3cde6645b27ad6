/* vision: binary PGM (P5) and PPM (P6) decoding and writing, our own parser
 * (fuzzed by tests/fuzz/fuzz_pnm.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "vision/vision.h"

/* Skips whitespace and '#' comments (to the end of the line). */
static size_t pnm_skip(const uint8_t *buf, size_t len, size_t i)
{
	while (i < len) {
		if (buf[i] == '#') {
			while (i < len && buf[i] != '\n' && buf[i] != '\r')
				i++;
		} else if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
			   buf[i] == '\r' || buf[i] == '\v' || buf[i] == '\f') {
			i++;
		} else {
			break;
		}
	}
	return i;
}

/* A decimal header field; -1 when missing or above limit. */
static long pnm_number(const uint8_t *buf, size_t len, size_t *i, long limit)
{
	size_t j = pnm_skip(buf, len, *i);
	long v = 0;
	size_t start = j;
	while (j < len && buf[j] >= '0' && buf[j] <= '9') {
		v = v * 10 + (buf[j] - '0');
		if (v > limit)
			return -1;
		j++;
	}
	if (j == start)
		return -1;
	*i = j;
	return v;
}

int vis_decode_pnm(const uint8_t *buf, size_t len, const char *name,
		   struct vis_image **out, char *err, size_t errlen)
{
	*out = NULL;
	if (len < 2 || buf[0] != 'P' || (buf[1] != '5' && buf[1] != '6')) {
		snprintf(err, errlen, "%s: not a binary PGM/PPM (P5/P6) file", name);
		return -EINVAL;
	}
	enum vis_format fmt = buf[1] == '5' ? VIS_GRAY8 : VIS_RGB24;
	size_t i = 2;
	long w = pnm_number(buf, len, &i, VIS_MAX_SIDE);
	long h = w < 0 ? -1 : pnm_number(buf, len, &i, VIS_MAX_SIDE);
	long maxval = h < 0 ? -1 : pnm_number(buf, len, &i, 65535);
	if (w < 0 || h < 0 || maxval < 0) {
		snprintf(err, errlen, "%s: PNM header: width, height or maxval missing or above %d",
			 name, VIS_MAX_SIDE);
		return -EINVAL;
	}
	if (w == 0 || h == 0 || w * h > VIS_MAX_PIXELS) {
		snprintf(err, errlen, "%s: PNM size %ldx%ld outside 1..%d a side, %ld pixels",
			 name, w, h, VIS_MAX_SIDE, VIS_MAX_PIXELS);
		return w == 0 || h == 0 ? -EINVAL : -E2BIG;
	}
	if (maxval < 1 || maxval > 255) {
		snprintf(err, errlen, "%s: PNM maxval %ld unsupported (only 8-bit, 1..255)", name, maxval);
		return -EINVAL;
	}
	/* Exactly one whitespace byte separates the header from the pixels. */
	if (i >= len || !(buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r')) {
		snprintf(err, errlen, "%s: PNM header not followed by whitespace", name);
		return -EINVAL;
	}
	i++;
	size_t need = (size_t)w * (size_t)h * (size_t)fmt;
	if (len - i < need) {
		snprintf(err, errlen, "%s: PNM pixel data truncated (%zu of %zu bytes)",
			 name, len - i, need);
		return -EINVAL;
	}
	struct vis_image *img = vis_image_new((int)w, (int)h, fmt);
	if (!img) {
		snprintf(err, errlen, "%s: out of memory for %ldx%ld image", name, w, h);
		return -ENOMEM;
	}
	if (maxval == 255) {
		memcpy(img->data, buf + i, need);
	} else {
		for (size_t k = 0; k < need; k++) {
			unsigned v = buf[i + k];
			img->data[k] = (uint8_t)(v >= (unsigned)maxval ? 255 : v * 255u / (unsigned)maxval);
		}
	}
	*out = img;
	return 0;
}

int vis_image_save_pnm(const struct vis_image *img, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	fprintf(f, "P%c\n%d %d\n255\n", img->format == VIS_GRAY8 ? '5' : '6', img->width, img->height);
	size_t row = (size_t)img->width * (size_t)img->format;
	for (int y = 0; y < img->height; y++)
		fwrite(img->data + (size_t)y * img->stride, 1, row, f);
	if (ferror(f) | fclose(f)) {
		snprintf(err, errlen, "%s: write failed", path);
		return -EIO;
	}
	return 0;
}
