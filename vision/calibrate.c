/* vision: finding the table in a camera image for calibration. The table
 * stands out from the floor around it (the view's border); its corners are the extreme
 * points of the region along the two diagonals, refined by fitting a line
 * to each side's boundary and intersecting neighbouring sides. */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision.h"

/* Points sampled along each side of the table to fit its line: the
 * buffer holding them is sized by this, not by the image (a small
 * image has fewer border pixels than samples). */
enum { SIDE_SAMPLES = 99 };

static int cmp_u8(const void *a, const void *b)
{
	return (int)*(const uint8_t *)a - (int)*(const uint8_t *)b;
}

/* Least-squares line a x + b y = c (a^2 + b^2 = 1) through points. */
static void fit_line(const double (*p)[2], int n, double *a, double *b, double *c)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0;
	for (int i = 0; i < n; i++) {
		mx += p[i][0] / n;
		my += p[i][1] / n;
	}
	for (int i = 0; i < n; i++) {
		double dx = p[i][0] - mx, dy = p[i][1] - my;
		sxx += dx * dx;
		sxy += dx * dy;
		syy += dy * dy;
	}
	/* normal = eigenvector of the smaller eigenvalue */
	double th = 0.5 * atan2(2 * sxy, sxx - syy);
	*a = -sin(th);
	*b = cos(th);
	*c = *a * mx + *b * my;
}

int vis_find_table_corners(const struct vis_image *img, int flip_ends, double corners[4][2],
			   char *err, size_t errlen)
{
	int w = img->width, h = img->height, ret = -ENOMEM;
	if (w <= 0 || h <= 0 || !img->data) {
		snprintf(err, errlen, "calibrate: empty image (%dx%d)", w, h);
		return -EINVAL;
	}
	size_t np = (size_t)w * h;
	struct vis_image *rgb = NULL;
	uint8_t *mask = calloc(np, 1), *samp = NULL;
	int *stack = malloc(np * sizeof(int)), *label = calloc(np, sizeof(int));
	static_assert(SIDE_SAMPLES >= 10, "a side needs at least 10 points to fit");
	double pts[SIDE_SAMPLES][2];	/* one side's boundary points */
	if (!mask || !stack || !label)
		goto oom;
	/* The floor's colour: the median of the image's border (the camera
	 * sees the whole table with a margin). The table is what differs
	 * from it, centre line, cups and dice included. */
	samp = malloc(2 * ((size_t)w + h));
	if (!samp)
		goto oom;
	uint8_t col[3];
	for (int c = 0; c < 3; c++) {
		size_t n = 0;
		for (int k = 0; k < 2 * (w + h); k++) {
			int x, y;
			if (k < w) { x = k; y = 0; }
			else if (k < 2 * w) { x = k - w; y = h - 1; }
			else if (k < 2 * w + h) { x = 0; y = k - 2 * w; }
			else { x = w - 1; y = k - 2 * w - h; }
			samp[n++] = img->format == VIS_RGB24 ? img->data[(size_t)y * img->stride + 3 * (size_t)x + c]
							     : img->data[(size_t)y * img->stride + (size_t)x];
		}
		qsort(samp, n, 1, cmp_u8);
		col[c] = samp[n / 2];
	}
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			const uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * img->format;
			int d = 0;
			for (int c = 0; c < 3; c++) {
				int q = (img->format == VIS_RGB24 ? p[c] : p[0]) - col[c];
				d += q * q;
			}
			mask[(size_t)y * w + x] = d > 30 * 30;
		}
	/* The largest 4-connected region. */
	int best = 0, best_area = 0, nl = 0;
	for (size_t i = 0; i < np; i++) {
		if (!mask[i] || label[i])
			continue;
		int sp = 0, area = 0;
		label[i] = ++nl;
		stack[sp++] = (int)i;
		while (sp) {
			int q = stack[--sp];
			int qx = q % w, qy = q / w;
			area++;
			static const int d4[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
			for (int k = 0; k < 4; k++) {
				int xx = qx + d4[k][0], yy = qy + d4[k][1];
				if (xx < 0 || yy < 0 || xx >= w || yy >= h)
					continue;
				int r = yy * w + xx;
				if (mask[r] && !label[r]) {
					label[r] = nl;
					stack[sp++] = r;
				}
			}
		}
		if (area > best_area) {
			best_area = area;
			best = nl;
		}
	}
	if (best_area < (long)np / 8) {
		snprintf(err, errlen, "calibrate: no table in view (largest region unlike the border is %.1f %% of the image)",
			 100.0 * best_area / (double)np);
		ret = -ENOENT;
		goto cleanup;
	}
	/* Corners: extremes along the diagonals (top-left, top-right,
	 * bottom-right, bottom-left in the image). */
	double ext[4] = { 1e18, -1e18, -1e18, 1e18 };
	double c0[4][2] = { { 0 } };
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			if (label[(size_t)y * w + x] != best)
				continue;
			double s = x + y, d = x - y;
			if (s < ext[0]) { ext[0] = s; c0[0][0] = x; c0[0][1] = y; }
			if (d > ext[1]) { ext[1] = d; c0[1][0] = x; c0[1][1] = y; }
			if (s > ext[2]) { ext[2] = s; c0[2][0] = x; c0[2][1] = y; }
			if (d < ext[3]) { ext[3] = d; c0[3][0] = x; c0[3][1] = y; }
		}
	/* Refine: boundary pixels of each side (between two corners, away
	 * from both by a fifth of the side), a line through them, and the
	 * corners where neighbouring lines meet. */
	double line[4][3];
	for (int sdx = 0; sdx < 4; sdx++) {
		const double *a = c0[sdx], *b = c0[(sdx + 1) % 4];
		int n = 0;
		for (int k = 1; k <= SIDE_SAMPLES; k++) {
			double f = 0.2 + 0.6 * k / (SIDE_SAMPLES + 1);
			double px = a[0] + (b[0] - a[0]) * f, py = a[1] + (b[1] - a[1]) * f;
			/* walk outwards (perpendicular, away from the centre) to the
			 * region's edge */
			double nx = -(b[1] - a[1]), ny = b[0] - a[0], len = hypot(nx, ny);
			if (len < 1)
				continue;
			nx /= len;
			ny /= len;
			double cx = w / 2.0 - px, cy = h / 2.0 - py;
			if (nx * cx + ny * cy > 0) {
				nx = -nx;
				ny = -ny;
			}
			double lastx = -1, lasty = -1;
			for (double t = -20; t <= 20; t += 0.5) {
				int xx = (int)(px + nx * t), yy = (int)(py + ny * t);
				/* On a small image the inward end of the walk can
				 * start outside the picture: skip, do not stop. */
				if (xx < 0 || yy < 0 || xx >= w || yy >= h)
					continue;
				if (label[(size_t)yy * w + xx] == best) {
					lastx = px + nx * t;
					lasty = py + ny * t;
				}
			}
			if (lastx >= 0) {
				pts[n][0] = lastx + 0.5 + nx * 0.5;
				pts[n][1] = lasty + 0.5 + ny * 0.5;
				n++;
			}
		}
		if (n < 10) {
			snprintf(err, errlen, "calibrate: side %d of the table not clear enough to fit", sdx + 1);
			ret = -ENOENT;
			goto cleanup;
		}
		fit_line(pts, n, &line[sdx][0], &line[sdx][1], &line[sdx][2]);
	}
	double found[4][2];
	for (int k = 0; k < 4; k++) {
		const double *l1 = line[(k + 3) % 4], *l2 = line[k];
		double det = l1[0] * l2[1] - l1[1] * l2[0];
		if (fabs(det) < 1e-9) {
			snprintf(err, errlen, "calibrate: table sides parallel at corner %d", k + 1);
			ret = -ENOENT;
			goto cleanup;
		}
		found[k][0] = (l1[2] * l2[1] - l1[1] * l2[2]) / det;
		found[k][1] = (l1[0] * l2[2] - l1[2] * l2[0]) / det;
	}
	/* Image top-left, top-right, bottom-right, bottom-left to table
	 * (0,0), (0,W), (L,W), (L,0) with A's end on the left: top-left is
	 * (0,0), bottom-left (0,W), bottom-right (L,W), top-right (L,0). */
	static const int order[2][4] = { { 0, 3, 2, 1 }, { 2, 1, 0, 3 } };
	for (int k = 0; k < 4; k++) {
		corners[k][0] = found[order[flip_ends ? 1 : 0][k]][0];
		corners[k][1] = found[order[flip_ends ? 1 : 0][k]][1];
	}
	ret = 0;
	goto cleanup;
oom:
	snprintf(err, errlen, "calibrate: out of memory");
	ret = -ENOMEM;
cleanup:
	free(samp);
	free(mask);
	free(stack);
	free(label);
	vis_image_free(rgb);
	return ret;
}
