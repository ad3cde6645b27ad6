/* vision: JPEG decoding through libturbojpeg. */
#include <errno.h>
#include <stdio.h>

#include <turbojpeg.h>

#include "vision/vision.h"

int vis_decode_jpeg(const uint8_t *buf, size_t len, const char *name,
		    struct vis_image **out, char *err, size_t errlen)
{
	*out = NULL;
	int ret = -EINVAL;
	struct vis_image *img = NULL;
	if (len > (unsigned long)-1 / 2) {
		snprintf(err, errlen, "%s: JPEG too large", name);
		return -E2BIG;
	}
	tjhandle tj = tjInitDecompress();
	if (!tj) {
		snprintf(err, errlen, "%s: cannot start the JPEG decoder", name);
		return -ENOMEM;
	}
	/* A header cut short "succeeds" without setting these. */
	int w = 0, h = 0, subsamp = 0, colorspace = 0;
	if (tjDecompressHeader3(tj, buf, (unsigned long)len, &w, &h, &subsamp, &colorspace)) {
		snprintf(err, errlen, "%s: JPEG: %s", name, tjGetErrorStr2(tj));
		goto destroy_tj;
	}
	if (w <= 0 || h <= 0) {
		snprintf(err, errlen, "%s: JPEG: no frame header (truncated?)", name);
		goto destroy_tj;
	}
	if (w > VIS_MAX_SIDE || h > VIS_MAX_SIDE ||
	    (long)w * h > VIS_MAX_PIXELS) {
		snprintf(err, errlen, "%s: JPEG size %dx%d beyond %d a side, %ld pixels",
			 name, w, h, VIS_MAX_SIDE, VIS_MAX_PIXELS);
		ret = -E2BIG;
		goto destroy_tj;
	}
	int gray = colorspace == TJCS_GRAY;
	img = vis_image_new(w, h, gray ? VIS_GRAY8 : VIS_RGB24);
	if (!img) {
		snprintf(err, errlen, "%s: out of memory for %dx%d image", name, w, h);
		ret = -ENOMEM;
		goto destroy_tj;
	}
	/* LIMITSCANS: a progressive JPEG with thousands of scans is a known
	 * way to make the decoder spin; real cameras never write one. */
	if (tjDecompress2(tj, buf, (unsigned long)len, img->data, w, (int)img->stride, h,
			  gray ? TJPF_GRAY : TJPF_RGB, TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING)) {
		snprintf(err, errlen, "%s: JPEG: %s", name, tjGetErrorStr2(tj));
		goto free_img;
	}
	*out = img;
	img = NULL;
	ret = 0;
free_img:
	vis_image_free(img);
destroy_tj:
	tjDestroy(tj);
	return ret;
}
