/* vision: the image type, its allocation and colour conversion. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision.h"

struct vis_image *vis_image_new(int width, int height, enum vis_format format)
{
	if (width <= 0 || height <= 0 || width > VIS_MAX_SIDE || height > VIS_MAX_SIDE ||
	    (long)width * height > VIS_MAX_PIXELS ||
	    (format != VIS_GRAY8 && format != VIS_RGB24)) {
		errno = EINVAL;
		return NULL;
	}
	struct vis_image *img = calloc(1, sizeof(*img));
	if (!img) {
		errno = ENOMEM;
		return NULL;
	}
	img->width = width;
	img->height = height;
	img->format = format;
	img->stride = (size_t)width * (size_t)format;
	img->data = calloc((size_t)height, img->stride);
	if (!img->data) {
		free(img);
		errno = ENOMEM;
		return NULL;
	}
	return img;
}

void vis_image_free(struct vis_image *img)
{
	if (!img)
		return;
	free(img->data);
	free(img);
}

struct vis_image *vis_image_to_gray(const struct vis_image *img)
{
	struct vis_image *g = vis_image_new(img->width, img->height, VIS_GRAY8);
	if (!g)
		return NULL;
	g->ts_ns = img->ts_ns;
	for (int y = 0; y < img->height; y++) {
		const uint8_t *s = img->data + (size_t)y * img->stride;
		uint8_t *d = g->data + (size_t)y * g->stride;
		if (img->format == VIS_GRAY8) {
			memcpy(d, s, (size_t)img->width);
			continue;
		}
		/* BT.601 luma in 8.8 fixed point: 77 + 150 + 29 = 256. */
		for (int x = 0; x < img->width; x++, s += 3)
			d[x] = (uint8_t)((77 * s[0] + 150 * s[1] + 29 * s[2]) >> 8);
	}
	return g;
}
