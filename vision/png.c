/* vision: PNG decoding and writing through libspng. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spng.h>

#include "vision/vision.h"

int vis_decode_png(const uint8_t *buf, size_t len, const char *name,
		   struct vis_image **out, char *err, size_t errlen)
{
	*out = NULL;
	int ret = -EINVAL;
	struct vis_image *img = NULL;
	spng_ctx *ctx = spng_ctx_new(0);
	if (!ctx) {
		snprintf(err, errlen, "%s: out of memory for the PNG decoder", name);
		return -ENOMEM;
	}
	/* Limits before the header is read: a hostile IHDR or chunk cannot
	 * make the decoder allocate beyond them. */
	spng_set_image_limits(ctx, VIS_MAX_SIDE, VIS_MAX_SIDE);
	spng_set_chunk_limits(ctx, 16u << 20, 64u << 20);
	spng_set_crc_action(ctx, SPNG_CRC_ERROR, SPNG_CRC_ERROR);
	int r = spng_set_png_buffer(ctx, buf, len);
	struct spng_ihdr ihdr;
	if (!r)
		r = spng_get_ihdr(ctx, &ihdr);
	if (r) {
		snprintf(err, errlen, "%s: PNG: %s", name, spng_strerror(r));
		goto free_ctx;
	}
	if ((long)ihdr.width * ihdr.height > VIS_MAX_PIXELS) {
		snprintf(err, errlen, "%s: PNG size %ux%u above %ld pixels", name,
			 ihdr.width, ihdr.height, VIS_MAX_PIXELS);
		ret = -E2BIG;
		goto free_ctx;
	}
	/* Grey PNGs stay grey; everything else becomes RGB (alpha dropped). */
	int gray = ihdr.color_type == SPNG_COLOR_TYPE_GRAYSCALE && ihdr.bit_depth <= 8;
	enum vis_format fmt = gray ? VIS_GRAY8 : VIS_RGB24;
	int sfmt = gray ? SPNG_FMT_G8 : SPNG_FMT_RGB8;
	img = vis_image_new((int)ihdr.width, (int)ihdr.height, fmt);
	if (!img) {
		snprintf(err, errlen, "%s: out of memory for %ux%u image", name, ihdr.width, ihdr.height);
		ret = -ENOMEM;
		goto free_ctx;
	}
	size_t size;
	r = spng_decoded_image_size(ctx, sfmt, &size);
	if (!r && size != img->stride * (size_t)img->height)
		r = SPNG_EINTERNAL;
	if (!r)
		r = spng_decode_image(ctx, img->data, size, sfmt, 0);
	if (r) {
		snprintf(err, errlen, "%s: PNG: %s", name, spng_strerror(r));
		goto free_img;
	}
	*out = img;
	img = NULL;
	ret = 0;
free_img:
	vis_image_free(img);
free_ctx:
	spng_ctx_free(ctx);
	return ret;
}

int vis_image_save_png(const struct vis_image *img, const char *path, char *err, size_t errlen)
{
	int ret = -EIO;
	void *png = NULL;
	uint8_t *packed = NULL;
	spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
	if (!ctx) {
		snprintf(err, errlen, "%s: out of memory for the PNG encoder", path);
		return -ENOMEM;
	}
	size_t row = (size_t)img->width * (size_t)img->format;
	packed = malloc(row * (size_t)img->height);
	if (!packed) {
		snprintf(err, errlen, "%s: out of memory", path);
		ret = -ENOMEM;
		goto free_ctx;
	}
	for (int y = 0; y < img->height; y++)
		memcpy(packed + row * (size_t)y, img->data + img->stride * (size_t)y, row);
	struct spng_ihdr ihdr = {
		.width = (uint32_t)img->width,
		.height = (uint32_t)img->height,
		.bit_depth = 8,
		.color_type = img->format == VIS_GRAY8 ? SPNG_COLOR_TYPE_GRAYSCALE
						       : SPNG_COLOR_TYPE_TRUECOLOR,
	};
	spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
	int r = spng_set_ihdr(ctx, &ihdr);
	if (!r)
		r = spng_encode_image(ctx, packed, row * (size_t)img->height, SPNG_FMT_PNG,
				      SPNG_ENCODE_FINALIZE);
	size_t len = 0;
	if (!r)
		png = spng_get_png_buffer(ctx, &len, &r);
	if (r || !png) {
		snprintf(err, errlen, "%s: PNG: %s", path, spng_strerror(r));
		goto free_packed;
	}
	FILE *f = fopen(path, "wb");
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		ret = -e;
		goto free_packed;
	}
	size_t n = fwrite(png, 1, len, f);
	if ((fclose(f) != 0) | (n != len)) {
		snprintf(err, errlen, "%s: write failed", path);
		goto free_packed;
	}
	ret = 0;
free_packed:
	free(png);
	free(packed);
free_ctx:
	spng_ctx_free(ctx);
	return ret;
}
