/*
 * vision: steps 1 and 2 of the dice reader (dice.c tells all nine): the
 * background model and the die bodies, from the foreground to the
 * candidates a blob is split into.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/internal.h"

/* Internal constants used in this file only (internal.h says how they
 * were tuned); each may be overridden with -D. */
#ifndef BG_BLOCKS
#define BG_BLOCKS 20	/* background blocks across the shorter side */
#endif
#ifndef SHADOW_MIN
#define SHADOW_MIN 60	/* shadows keep at least this % of the table's light */
#endif
#ifndef SHADOW_CHROMA
#define SHADOW_CHROMA 40	/* and its hue within this (thousandths) */
#endif

static int cmp_u8(const void *a, const void *b)
{
	return (int)*(const uint8_t *)a - (int)*(const uint8_t *)b;
}

/* A shadow on the table: the table's own colour, only darker. Dice cast
 * soft shadows that would otherwise join them and shift their centres;
 * black dice are darker than any shadow, coloured ones differ in hue. */
int vis_dice_is_shadow(const uint8_t *p, const uint8_t *bg)
{
	int lp = p[0] + p[1] + p[2], lb = bg[0] + bg[1] + bg[2];
	if (lb < 60 || lp >= lb * 19 / 20 || lp < lb * SHADOW_MIN / 100)
		return 0;
	/* Chromaticity difference, in thousandths. */
	int d = 0;
	for (int c = 0; c < 3; c++) {
		int a = 1000 * p[c] / (lp ? lp : 1), b = 1000 * bg[c] / lb;
		d += a > b ? a - b : b - a;
	}
	return d < SHADOW_CHROMA;
}

/* A 3x3 box blur of packed RGB (edges use the pixels there are): sensor
 * noise breaks a small pip into specks, the blur keeps it whole. */
void vis_dice_blur3(const uint8_t *in, uint8_t *out, int w, int h)
{
	size_t row = (size_t)w * 3;
	for (int y = 0; y < h; y++) {
		const uint8_t *r0 = in + (size_t)(y > 0 ? y - 1 : y) * row;
		const uint8_t *r1 = in + (size_t)y * row;
		const uint8_t *r2 = in + (size_t)(y < h - 1 ? y + 1 : y) * row;
		int rows = 1 + (y > 0) + (y < h - 1);
		uint8_t *o = out + (size_t)y * row;
		for (int x = 0; x < w; x++) {
			int xl = x > 0 ? x - 1 : x, xr = x < w - 1 ? x + 1 : x;
			int cols = 1 + (x > 0) + (x < w - 1), n = rows * cols;
			for (int c = 0; c < 3; c++) {
				int sum = 0;
				for (int xx = xl; xx <= xr; xx++) {
					sum += r1[xx * 3 + c];
					if (y > 0)
						sum += r0[xx * 3 + c];
					if (y < h - 1)
						sum += r2[xx * 3 + c];
				}
				/* n is 4, 6 or 9: a multiply by 65536 / n, not a divide */
				o[x * 3 + c] = (uint8_t)((sum * (65536 / n) + 32768) >> 16);
			}
		}
	}
}

/* ---- 1. background ---- */

int vis_dice_background(struct vis_dice_work *wk)
{
	int w = wk->w, h = wk->h;
	/* Blocks of at least 24 pixels: a die filling a close-up crop must
	 * still cover few of the 5x5 blocks its median looks at. */
	int bs = (w < h ? w : h) / BG_BLOCKS;
	if (bs < 24)
		bs = 24;
	int gw = (w + bs - 1) / bs, gh = (h + bs - 1) / bs;
	uint8_t *grid = malloc((size_t)gw * gh * 3);
	uint8_t *smooth = malloc((size_t)gw * gh * 3);
	uint8_t *tmp = malloc((size_t)bs * bs * 3 > 75 ? (size_t)bs * bs * 3 : 75);
	int ret = -ENOMEM;
	if (!grid || !smooth || !tmp)
		goto free_all;
	for (int gy = 0; gy < gh; gy++) {
		for (int gx = 0; gx < gw; gx++) {
			size_t n = 0;
			for (int y = gy * bs; y < (gy + 1) * bs && y < h; y++)
				for (int x = gx * bs; x < (gx + 1) * bs && x < w; x++) {
					memcpy(tmp + n * 3, wk->rgb + ((size_t)y * w + x) * 3, 3);
					n++;
				}
			for (int c = 0; c < 3; c++)
				grid[((size_t)gy * gw + gx) * 3 + c] = median_u8(tmp + c, n, 3);
		}
	}
	/* 5x5 median over blocks: a die (or two touching) fills fewer than
	 * half of them, so the table's colour wins. */
	for (int gy = 0; gy < gh; gy++) {
		for (int gx = 0; gx < gw; gx++) {
			for (int c = 0; c < 3; c++) {
				size_t n = 0;
				for (int dy = -2; dy <= 2; dy++)
					for (int dx = -2; dx <= 2; dx++) {
						int yy = gy + dy, xx = gx + dx;
						if (yy < 0 || xx < 0 || yy >= gh || xx >= gw)
							continue;
						tmp[n++] = grid[((size_t)yy * gw + xx) * 3 + c];
					}
				qsort(tmp, n, 1, cmp_u8);
				smooth[((size_t)gy * gw + gx) * 3 + c] = tmp[n / 2];
			}
		}
	}
	/* Bilinear between block centres. */
	for (int y = 0; y < h; y++) {
		double fy = (y + 0.5) / bs - 0.5;
		int y0 = (int)floor(fy);
		double ty = fy - y0;
		int y1 = y0 + 1;
		if (y0 < 0) y0 = 0;
		if (y1 < 0) y1 = 0;
		if (y0 >= gh) y0 = gh - 1;
		if (y1 >= gh) y1 = gh - 1;
		for (int x = 0; x < w; x++) {
			double fx = (x + 0.5) / bs - 0.5;
			int x0 = (int)floor(fx);
			double tx = fx - x0;
			int x1 = x0 + 1;
			if (x0 < 0) x0 = 0;
			if (x1 < 0) x1 = 0;
			if (x0 >= gw) x0 = gw - 1;
			if (x1 >= gw) x1 = gw - 1;
			for (int c = 0; c < 3; c++) {
				double v00 = smooth[((size_t)y0 * gw + x0) * 3 + c];
				double v01 = smooth[((size_t)y0 * gw + x1) * 3 + c];
				double v10 = smooth[((size_t)y1 * gw + x0) * 3 + c];
				double v11 = smooth[((size_t)y1 * gw + x1) * 3 + c];
				double v = (v00 * (1 - tx) + v01 * tx) * (1 - ty) +
					   (v10 * (1 - tx) + v11 * tx) * ty;
				wk->bg[((size_t)y * w + x) * 3 + c] = (uint8_t)(v + 0.5);
			}
		}
	}
	ret = 0;
free_all:
	free(grid);
	free(smooth);
	free(tmp);
	return ret;
}

/* ---- 2. die bodies ---- */

/* A square erosion (dilate 0) or dilation (dilate 1) of radius r, done
 * as two one-dimensional passes with running counts; t is scratch of w*h. */
void vis_dice_box_filter(uint8_t *m, uint8_t *t, int w, int h, int r, int dilate)
{
	for (int y = 0; y < h; y++) {
		const uint8_t *row = m + (size_t)y * w;
		int cnt = 0;
		for (int x = 0; x < r && x < w; x++)
			cnt += row[x];
		for (int x = 0; x < w; x++) {
			if (x + r < w)
				cnt += row[x + r];
			if (x - r - 1 >= 0)
				cnt -= row[x - r - 1];
			int lo = x - r < 0 ? 0 : x - r, hi = x + r >= w ? w - 1 : x + r;
			t[(size_t)y * w + x] = dilate ? cnt > 0 : cnt == hi - lo + 1;
		}
	}
	for (int x = 0; x < w; x++) {
		int cnt = 0;
		for (int y = 0; y < r && y < h; y++)
			cnt += t[(size_t)y * w + x];
		for (int y = 0; y < h; y++) {
			if (y + r < h)
				cnt += t[(size_t)(y + r) * w + x];
			if (y - r - 1 >= 0)
				cnt -= t[(size_t)(y - r - 1) * w + x];
			int lo = y - r < 0 ? 0 : y - r, hi = y + r >= h ? h - 1 : y + r;
			m[(size_t)y * w + x] = dilate ? cnt > 0 : cnt == hi - lo + 1;
		}
	}
}

/* Connected components (8-neighbour) of mask m into label (1..n); returns
 * n, or -ENOMEM. stack is caller scratch of w*h ints. */
int vis_dice_components(const uint8_t *m, int *label, int *stack, int w, int h)
{
	int n = 0;
	memset(label, 0, sizeof(int) * (size_t)w * h);
	for (int i = 0; i < w * h; i++) {
		if (!m[i] || label[i])
			continue;
		n++;
		int sp = 0;
		stack[sp++] = i;
		label[i] = n;
		while (sp) {
			int p = stack[--sp];
			int py = p / w, px = p % w;
			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++) {
					int yy = py + dy, xx = px + dx;
					if (yy < 0 || xx < 0 || yy >= h || xx >= w)
						continue;
					int q = yy * w + xx;
					if (m[q] && !label[q]) {
						label[q] = n;
						stack[sp++] = q;
					}
				}
		}
	}
	return n;
}

/* The bounding box of c's pixels (w: the image's width). */
void vis_dice_cand_box(const struct vis_dice_cand *c, int w, int *x0, int *y0, int *x1, int *y1)
{
	*x0 = *y0 = INT32_MAX;
	*x1 = *y1 = -1;
	for (int i = 0; i < c->n; i++) {
		int x = c->px[i] % w, y = c->px[i] / w;
		if (x < *x0) *x0 = x;
		if (x > *x1) *x1 = x;
		if (y < *y0) *y0 = y;
		if (y > *y1) *y1 = y;
	}
}

/* The k seeds for splitting c: the deepest points of its distance
 * transform (chamfer 3-4), each at least half a part's side from the
 * others. A merged die's middle is deep, its shadow and the neck to its
 * neighbour shallow, so the seeds start inside the dice (the farthest
 * points used before lay on the rim, and the shadows pulled the parts
 * off the dice). Writes mx, my; 0 or -ENOMEM. */
static int dt_seeds(const struct vis_dice_cand *c, int k, int w, double *mx, double *my)
{
	int x0, y0, x1, y1;
	vis_dice_cand_box(c, w, &x0, &y0, &x1, &y1);
	if (x1 < x0 || y1 < y0) {
		for (int j = 0; j < k; j++)
			mx[j] = my[j] = 0;
		return 0;
	}
	/* A frame of one background pixel round the box. */
	int bw = x1 - x0 + 3, bh = y1 - y0 + 3;
	int *dt = calloc((size_t)bw * bh, sizeof(int));
	if (!dt)
		return -ENOMEM;
	for (int i = 0; i < c->n; i++)
		dt[(size_t)(c->px[i] / w - y0 + 1) * bw + c->px[i] % w - x0 + 1] = INT32_MAX / 2;
	for (int pass = 0; pass < 2; pass++) {
		int s = pass ? -1 : 1;
		for (int j = 1; j < bh - 1; j++)
			for (int i = 1; i < bw - 1; i++) {
				int y = pass ? bh - 1 - j : j, x = pass ? bw - 1 - i : i;
				int *p = &dt[(size_t)y * bw + x];
				if (!*p)
					continue;
				int q[4] = {
					dt[(size_t)y * bw + x - s] + 3,
					dt[(size_t)(y - s) * bw + x] + 3,
					dt[(size_t)(y - s) * bw + x - 1] + 4,
					dt[(size_t)(y - s) * bw + x + 1] + 4,
				};
				for (int t = 0; t < 4; t++)
					if (q[t] < *p)
						*p = q[t];
			}
	}
	double sep = 0.5 * sqrt((double)c->n / k);
	for (int j = 0; j < k; j++) {
		int best = -1;
		mx[j] = c->px[0] % w;
		my[j] = c->px[0] / w;
		for (int y = 1; y < bh - 1; y++)
			for (int x = 1; x < bw - 1; x++) {
				int v = dt[(size_t)y * bw + x];
				if (v <= best)
					continue;
				int apart = 1;
				for (int q = 0; q < j && apart; q++)
					apart = hypot(x + x0 - 1 - mx[q], y + y0 - 1 - my[q]) >= sep;
				if (apart) {
					best = v;
					mx[j] = x + x0 - 1;
					my[j] = y + y0 - 1;
				}
			}
	}
	free(dt);
	return 0;
}

/* Splits a candidate of about k dice into k by k-means on position, from
 * seeds at its distance transform's peaks. */
int vis_dice_split_cand(const struct vis_dice_cand *c, int k, int w, struct vis_dice_cand *out)
{
	double mx[8], my[8];
	if (dt_seeds(c, k, w, mx, my))
		return -ENOMEM;
	int *asg = malloc(sizeof(int) * (size_t)c->n);
	if (!asg)
		return -ENOMEM;
	for (int it = 0; it < 20; it++) {
		double sx[8] = { 0 }, sy[8] = { 0 };
		int cnt[8] = { 0 };
		for (int i = 0; i < c->n; i++) {
			double x = c->px[i] % w, y = c->px[i] / w, m = 1e18;
			int b = 0;
			for (int q = 0; q < k; q++) {
				double d = (x - mx[q]) * (x - mx[q]) + (y - my[q]) * (y - my[q]);
				if (d < m) {
					m = d;
					b = q;
				}
			}
			asg[i] = b;
			sx[b] += x;
			sy[b] += y;
			cnt[b]++;
		}
		for (int q = 0; q < k; q++)
			if (cnt[q]) {
				mx[q] = sx[q] / cnt[q];
				my[q] = sy[q] / cnt[q];
			}
	}
	int ret = 0;
	for (int q = 0; q < k; q++) {
		out[q].n = 0;
		out[q].px = malloc(sizeof(int) * (size_t)c->n);
		if (!out[q].px)
			ret = -ENOMEM;
		out[q].cx = mx[q];
		out[q].cy = my[q];
	}
	if (!ret)
		for (int i = 0; i < c->n; i++)
			out[asg[i]].px[out[asg[i]].n++] = c->px[i];
	free(asg);
	return ret;
}

/* Labels the foreground into blobs (components, holes of up to max_hole
 * pixels filled), with box, area and centroid.
 * *blobs is new (the caller frees it), indexed 1..*nl. */
int vis_dice_label_blobs(struct vis_dice_work *wk, struct vis_dice_blob **blobs_out, int *nl_out, int *stack,
			 int *scratch, double max_hole)
{
	int w = wk->w, h = wk->h;
	size_t np = (size_t)w * h;
	/* Fill holes (pips the table's colour): background pieces not
	 * touching the image's edge and smaller than a die. */
	for (size_t i = 0; i < np; i++)
		wk->fg[i] = !wk->fg[i];
	int nh = vis_dice_components(wk->fg, wk->label, stack, w, h);
	for (size_t i = 0; i < np; i++)
		wk->fg[i] = !wk->fg[i];
	int *harea = calloc((size_t)nh + 1, sizeof(int));
	if (!harea)
		return -ENOMEM;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int l = wk->label[(size_t)y * w + x];
			if (!l)
				continue;
			if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
				harea[l] = INT32_MAX;
			else if (harea[l] < INT32_MAX)
				harea[l]++;
		}
	for (size_t i = 0; i < np; i++)
		if (wk->label[i] && harea[wk->label[i]] <= max_hole)
			wk->fg[i] = 1;
	free(harea);
	(void)scratch;
	int nl = vis_dice_components(wk->fg, wk->label, stack, w, h);
	struct vis_dice_blob *blobs = calloc((size_t)nl + 1, sizeof(*blobs));
	if (!blobs)
		return -ENOMEM;
	for (int l = 1; l <= nl; l++) {
		blobs[l].x0 = w;
		blobs[l].y0 = h;
		blobs[l].x1 = blobs[l].y1 = -1;
	}
	for (size_t i = 0; i < np; i++) {
		int l = wk->label[i];
		if (!l)
			continue;
		int x = (int)(i % w), y = (int)(i / w);
		struct vis_dice_blob *b = &blobs[l];
		if (x < b->x0) b->x0 = x;
		if (x > b->x1) b->x1 = x;
		if (y < b->y0) b->y0 = y;
		if (y > b->y1) b->y1 = y;
	}
	for (size_t i = 0; i < np; i++) {
		int l = wk->label[i];
		if (!l)
			continue;
		blobs[l].area++;
		blobs[l].cx += (double)(i % w);
		blobs[l].cy += (double)(i / w);
	}
	for (int l = 1; l <= nl; l++) {
		blobs[l].cx /= blobs[l].area > 0 ? blobs[l].area : 1;
		blobs[l].cy /= blobs[l].area > 0 ? blobs[l].area : 1;
	}
	*blobs_out = blobs;
	*nl_out = nl;
	return 0;
}

/* The typical die side: the pct-th percentile of the square-ish blobs'
 * sides; 0 when there are none. */
double vis_dice_typical_side(const struct vis_dice_blob *blobs, int nl, const struct vis_dice_params *params,
			     int pct)
{
	double *sides = malloc(sizeof(double) * ((size_t)nl + 1));
	if (!sides)
		return 0;
	int ns = 0;
	for (int l = 1; l <= nl; l++) {
		const struct vis_dice_blob *b = &blobs[l];
		int bw = b->x1 - b->x0 + 1, bh = b->y1 - b->y0 + 1;
		double s = sqrt((double)b->area);
		double aspect = bw > bh ? (double)bw / bh : (double)bh / bw;
		double fill = (double)b->area / ((double)bw * bh);
		if (s >= params->min_die_px && s <= params->max_die_px && aspect < 1.5 && fill > 0.55)
			sides[ns++] = s;
	}
	double side = ns ? vis_dice_percentile(sides, ns, pct) : 0;
	free(sides);
	return side;
}

/* The die's edge direction from its pixels (in, a bw x bh mask): the
 * rotation in [0, pi/2) whose bounding box is smallest. *spread is the
 * largest box's area over the smallest: near 1 for a blob too round (or
 * too ragged) to tell. len (may be NULL) gets the smallest box's sides.
 * The pip reader (dice_pips.c) checks its grid against it. */
double vis_dice_body_angle(const uint8_t *in, int bw, int bh, double *spread, double *len)
{
	double best = 1e18, worst = 0, best_t = 0;
	for (int k = 0; k < 90; k += 2) {
		double t = k * M_PI / 180, c = cos(t), s = sin(t);
		double u0 = 1e9, u1 = -1e9, v0 = 1e9, v1 = -1e9;
		for (int y = 0; y < bh; y++)
			for (int x = 0; x < bw; x++) {
				if (!in[(size_t)y * bw + x])
					continue;
				double u = c * x + s * y, v = -s * x + c * y;
				if (u < u0) u0 = u;
				if (u > u1) u1 = u;
				if (v < v0) v0 = v;
				if (v > v1) v1 = v;
			}
		double area = (u1 - u0 + 1) * (v1 - v0 + 1);
		if (area < best) {
			best = area;
			best_t = t;
			if (len) {
				len[0] = u1 - u0 + 1;
				len[1] = v1 - v0 + 1;
			}
		}
		if (area > worst)
			worst = area;
	}
	*spread = best > 0 ? worst / best : 1;
	return best_t;
}
