/* vision: YUV 4:2:0 to RGB, for camera frames. */
#include <errno.h>
#include <stdlib.h>

#include "vision/vision.h"

static uint8_t clamp8(int v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

void vis_yuv420_to_rgb(const uint8_t *y, size_t y_stride, const uint8_t *u, const uint8_t *v,
		       size_t uv_stride, struct vis_image *out)
{
	/* BT.601 limited range in 16.16 fixed point: 1.164 (Y - 16),
	 * 1.596 V, -0.391 U - 0.813 V, 2.018 U. */
	for (int r = 0; r < out->height; r++) {
		const uint8_t *yr = y + (size_t)r * y_stride;
		const uint8_t *ur = u + (size_t)(r / 2) * uv_stride, *vr = v + (size_t)(r / 2) * uv_stride;
		uint8_t *o = out->data + (size_t)r * out->stride;
		for (int c = 0; c < out->width; c++) {
			int yy = 76284 * (yr[c] - 16), uu = ur[c / 2] - 128, vv = vr[c / 2] - 128;
			o[3 * c] = clamp8((yy + 104595 * vv + 32768) >> 16);
			o[3 * c + 1] = clamp8((yy - 25625 * uu - 53281 * vv + 32768) >> 16);
			o[3 * c + 2] = clamp8((yy + 132252 * uu + 32768) >> 16);
		}
	}
}

struct vis_yuv420 *vis_yuv420_new(int width, int height)
{
	struct vis_yuv420 *f;
	size_t cw, ch, ysz, csz;

	if (width <= 0 || height <= 0 || width > VIS_MAX_SIDE || height > VIS_MAX_SIDE ||
	    (long)width * height > VIS_MAX_PIXELS) {
		errno = EINVAL;
		return NULL;
	}
	cw = ((size_t)width + 1) / 2;
	ch = ((size_t)height + 1) / 2;
	ysz = (size_t)width * (size_t)height;
	csz = cw * ch;
	/* One allocation: the struct, then y, u, v. */
	f = malloc(sizeof(*f) + ysz + 2 * csz);
	if (!f) {
		errno = ENOMEM;
		return NULL;
	}
	f->width = width;
	f->height = height;
	f->y_stride = (size_t)width;
	f->uv_stride = cw;
	f->y = (uint8_t *)(f + 1);
	f->u = f->y + ysz;
	f->v = f->u + csz;
	f->ts_ns = 0;
	return f;
}

void vis_yuv420_free(struct vis_yuv420 *f)
{
	free(f);
}

struct vis_image *vis_yuv420_image(const struct vis_yuv420 *f)
{
	struct vis_image *img = vis_image_new(f->width, f->height, VIS_RGB24);

	if (!img)
		return NULL;
	vis_yuv420_to_rgb(f->y, f->y_stride, f->u, f->v, f->uv_stride, img);
	img->ts_ns = f->ts_ns;
	return img;
}
