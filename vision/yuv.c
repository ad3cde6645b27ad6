/* vision: YUV 4:2:0 to RGB, for camera frames. */
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
