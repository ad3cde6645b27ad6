/* vision: which dmabufs a camera frame buffer's planes live in, and
 * whether a plane's rows lie inside what was mapped. The libcamera shim
 * uses it; it needs no camera, so it is tested on made-up layouts. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "vision/vision.h"

int vis_fb_plan(struct vis_fb_plane *planes, int n, struct vis_fb_map *maps, char *err,
		size_t errlen)
{
	int nm = 0;
	if (n <= 0) {
		snprintf(err, errlen, "camera: frame buffer without planes");
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		struct vis_fb_plane *p = &planes[i];
		if (p->fd < 0) {
			snprintf(err, errlen, "camera: plane %d has no dmabuf", i);
			return -EINVAL;
		}
		if (p->offset == UINT_MAX) {
			snprintf(err, errlen, "camera: plane %d has no offset", i);
			return -EINVAL;
		}
		size_t end = (size_t)p->offset + p->length;	/* both < 2^32: no wrap */
		int k = 0;
		while (k < nm && maps[k].fd != p->fd)
			k++;
		if (k == nm)
			maps[nm++] = (struct vis_fb_map){ .fd = p->fd, .len = 0 };
		if (end > maps[k].len)
			maps[k].len = end;
		p->map = k;
	}
	for (int k = 0; k < nm; k++)
		if (!maps[k].len) {
			snprintf(err, errlen, "camera: dmabuf %d holds only empty planes", maps[k].fd);
			return -EINVAL;
		}
	return nm;
}

int vis_fb_plane_fits(const struct vis_fb_plane *plane, const struct vis_fb_map *map, int index,
		      size_t stride, size_t row_bytes, size_t rows, char *err, size_t errlen)
{
	/* The last row need not be padded to the stride. */
	size_t need = 0;
	if (rows && (row_bytes > stride || __builtin_mul_overflow(rows - 1, stride, &need) ||
		     __builtin_add_overflow(need, row_bytes, &need))) {
		snprintf(err, errlen, "camera: plane %d: rows of %zu bytes do not fit a stride of %zu",
			 index, row_bytes, stride);
		return -EINVAL;
	}
	size_t have = plane->length;
	if ((size_t)plane->offset >= map->len)
		have = 0;
	else if (map->len - plane->offset < have)
		have = map->len - plane->offset;
	if (need > have) {
		snprintf(err, errlen, "camera: plane %d: %zu rows at stride %zu need %zu bytes, "
			 "the buffer has %zu: frame refused", index, rows, stride, need, have);
		return -EINVAL;
	}
	return 0;
}
