/* vision: the image type, its allocation and colour conversion. */
#include <errno.h>
#include <math.h>
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

/* Enlarging (s >= 1): each output pixel from its four nearest source
 * pixels, clamped at the edges (the size's slack may reach past them). */
static void scale_up(const struct vis_image *img, struct vis_image *o, double s)
{
	int ch = (int)img->format;
	for (int y = 0; y < o->height; y++) {
		double fy = (y + 0.5) / s - 0.5;
		fy = fy < 0 ? 0 : fy > img->height - 1 ? img->height - 1 : fy;
		int y0 = (int)fy, y1 = y0 + 1 < img->height ? y0 + 1 : y0;
		double ty = fy - y0;
		const uint8_t *r0 = img->data + (size_t)y0 * img->stride, *r1 = img->data + (size_t)y1 * img->stride;
		uint8_t *d = o->data + (size_t)y * o->stride;
		for (int x = 0; x < o->width; x++) {
			double fx = (x + 0.5) / s - 0.5;
			fx = fx < 0 ? 0 : fx > img->width - 1 ? img->width - 1 : fx;
			int x0 = (int)fx, x1 = x0 + 1 < img->width ? x0 + 1 : x0;
			double tx = fx - x0;
			for (int c = 0; c < ch; c++) {
				int i0 = ch * x0 + c, i1 = ch * x1 + c;
				double v = (r0[i0] * (1 - tx) + r0[i1] * tx) * (1 - ty) +
					   (r1[i0] * (1 - tx) + r1[i1] * tx) * ty;
				d[ch * x + c] = (uint8_t)(v + 0.5);
			}
		}
	}
}

/* Shrinking (s < 1): source pixel k lies in output pixel x's footprint
 * when x / s - 0.5 <= k < (x + 1) / s - 0.5; footprints tile the source,
 * so every pixel counts once. */
static void scale_down(const struct vis_image *img, struct vis_image *o, double s)
{
	int ch = (int)img->format;
	for (int y = 0; y < o->height; y++) {
		int y0 = (int)ceil(y / s - 0.5), y1 = (int)ceil((y + 1) / s - 0.5);
		if (y1 > img->height)
			y1 = img->height;
		uint8_t *d = o->data + (size_t)y * o->stride;
		for (int x = 0; x < o->width; x++) {
			int x0 = (int)ceil(x / s - 0.5), x1 = (int)ceil((x + 1) / s - 0.5);
			if (x1 > img->width)
				x1 = img->width;
			uint64_t sum[3] = { 0 }, n = (uint64_t)(x1 - x0) * (uint64_t)(y1 - y0);
			for (int sy = y0; sy < y1; sy++) {
				const uint8_t *r = img->data + (size_t)sy * img->stride;
				for (int sx = x0; sx < x1; sx++)
					for (int c = 0; c < ch; c++)
						sum[c] += r[ch * sx + c];
			}
			/* n >= 1: a footprint is at least 1 / s > 1 pixels wide */
			for (int c = 0; c < ch; c++)
				d[ch * x + c] = (uint8_t)((sum[c] + n / 2) / n);
		}
	}
}

struct vis_image *vis_image_scaled(const struct vis_image *img, double s)
{
	if (!img || !(s > 0) || s > VIS_MAX_SIDE) {
		errno = EINVAL;
		return NULL;
	}
	/* A hair of slack: a side of 4032 at 1/3 is 1344, not 1343 because
	 * 1/3 is stored a little short. */
	double w = floor(img->width * s + 1e-6), h = floor(img->height * s + 1e-6);
	if (w < 1 || h < 1 || w > VIS_MAX_SIDE || h > VIS_MAX_SIDE) {
		errno = EINVAL;
		return NULL;
	}
	struct vis_image *o = vis_image_new((int)w, (int)h, img->format);
	if (!o)
		return NULL;
	o->ts_ns = img->ts_ns;
	if (s >= 1)
		scale_up(img, o, s);
	else
		scale_down(img, o, s);
	return o;
}
