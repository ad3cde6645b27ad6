/*
 * vision: step 6 of the dice reader (dice.c tells all nine): a second
 * look, by their pips, for the dice the bodies missed.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/internal.h"

/* Internal constants used in this file only (internal.h says how they
 * were tuned); each may be overridden with -D. The second look's own
 * (LOOK_ENABLE, in dice.c, turns it off; its grid's rim is in
 * dice_pips.c): */
#ifndef LOOK_MIN_FACE
#define LOOK_MIN_FACE 1	/* ... smallest face it gives */
#endif
#ifndef LOOK_A_MIN
#define LOOK_A_MIN 0.18	/* ... smallest pip spacing, of S (dice differ in size) */
#endif
#ifndef LOOK_NA
#define LOOK_NA 6	/* ... spacings tried, GRID_A_STEP apart */
#endif
#ifndef LOOK_ONE_REACH
#define LOOK_ONE_REACH 0.12	/* ... a 1's centre is tried this near its spot, of S */
#endif
#ifndef LOOK_STEP_DIV
#define LOOK_STEP_DIV 8	/* second look: centres tried every S / this */
#endif
#ifndef LOOK_PIP_R
#define LOOK_PIP_R 0.06	/* ... pip box half-width, of the side */
#endif
#ifndef LOOK_PIP_THR
#define LOOK_PIP_THR 40	/* ... a pip differs from its ring by this */
#endif
#ifndef LOOK_COVER
#define LOOK_COVER 0.6	/* ... pips this near a read die (of its side) are its own */
#endif
#ifndef LOOK_SEED_COVER
#define LOOK_SEED_COVER 0.75	/* ... spots this near (its corners too) start no search */
#endif
#ifndef LOOK_MIN_SPOTS
#define LOOK_MIN_SPOTS 2	/* ... centres tried need this many spots within reach */
#endif
#ifndef LOOK_REACH
#define LOOK_REACH 0.45	/* ... centres tried this far from a pip, of S */
#endif
#ifndef LOOK_SEP
#define LOOK_SEP 0.8	/* ... two dice's centres at least this far apart, of the side */
#endif
#ifndef LOOK_BODY
#define LOOK_BODY 0.4	/* ... body box half-width, of S */
#endif
#ifndef LOOK_BODY_TOL
#define LOOK_BODY_TOL 45	/* ... body pixels within this of its median */
#endif
#ifndef LOOK_BODY_FRAC
#define LOOK_BODY_FRAC 0.4	/* ... and at least this share of the box */
#endif

/* Mean colour of the box [x0,x1) x [y0,y1) from the per-channel integral
 * images ii (3 planes of (w+1)x(h+1)). */
static void box_mean(const unsigned *ii, int w, int h, int x0, int y0, int x1, int y1,
		     double m[3])
{
	size_t W = (size_t)w + 1, plane = W * ((size_t)h + 1);
	double n = (double)(x1 - x0) * (y1 - y0);
	for (int c = 0; c < 3; c++) {
		const unsigned *s = ii + c * plane;
		unsigned t = s[(size_t)y1 * W + x1] - s[(size_t)y0 * W + x1] - s[(size_t)y1 * W + x0] +
			     s[(size_t)y0 * W + x0];
		m[c] = t / n;
	}
}

/* The integral images of wk->smooth into wk->ii; -ENOMEM. */
int vis_dice_integrals(struct vis_dice_work *wk)
{
	int w = wk->w, h = wk->h;
	size_t W = (size_t)w + 1, plane = W * ((size_t)h + 1);
	wk->ii = malloc(plane * 3 * sizeof(unsigned));
	if (!wk->ii)
		return -ENOMEM;
	for (int c = 0; c < 3; c++) {
		unsigned *s = wk->ii + c * plane;
		memset(s, 0, W * sizeof(unsigned));
		for (int y = 0; y < h; y++) {
			unsigned row = 0;
			s[(size_t)(y + 1) * W] = 0;
			for (int x = 0; x < w; x++) {
				row += wk->smooth[((size_t)y * w + x) * 3 + c];
				s[(size_t)(y + 1) * W + x + 1] = s[(size_t)y * W + x + 1] + row;
			}
		}
	}
	return 0;
}

/* How much a pip-sized box at (x, y) (half-width ri) differs in colour
 * from the ring around it (out to 2 ri + 1): a spot whatever its colour
 * or its die's. The caller keeps (x, y) at least 2 ri + 1 inside. */
static int spot(const struct vis_dice_work *wk, int x, int y, int ri)
{
	int ro = 2 * ri + 1;
	double in[3], out[3];
	box_mean(wk->ii, wk->w, wk->h, x - ri, y - ri, x + ri + 1, y + ri + 1, in);
	box_mean(wk->ii, wk->w, wk->h, x - ro, y - ro, x + ro + 1, y + ro + 1, out);
	double ni = (2.0 * ri + 1) * (2 * ri + 1), no = (2.0 * ro + 1) * (2 * ro + 1);
	double d2 = 0;
	for (int c = 0; c < 3; c++) {
		double ring = (out[c] * no - in[c] * ni) / (no - ni);
		d2 += (in[c] - ring) * (in[c] - ring);
	}
	double d = sqrt(d2);
	return d > 255 ? 255 : (int)d;
}

/* ---- 5. a second look: dice the bodies missed ---- */

/* A die hypothesis of the second look. */
struct hyp {
	double x, y;		/* centre, pixels */
	double score;		/* grid margin, grey levels */
	struct vis_die d;	/* its reading */
};

static int cmp_hyp(const void *a, const void *b)
{
	double x = ((const struct hyp *)a)->score, y = ((const struct hyp *)b)->score;
	return (x < y) - (x > y);
}

/* Looks again where no die was read: the die bodies are lost on a tray of
 * their own colour, against a wall or in a heap, but their pips still
 * stand out. Pips are found as small spots unlike their ring of
 * surroundings (at the pip size of dice of side S, the size of the dice
 * already read: dice in one photo share a size); around each pip not on a
 * read die, die centres on a lattice are read by the pip grid against the
 * colour there; the widest margins win, one die per place. Appends to
 * dice (*nd of cap); returns 0 or -ENOMEM. */
int vis_dice_second_look(const struct vis_dice_work *wk, double S, struct vis_die *dice, int *nd, int cap)
{
	int w = wk->w, h = wk->h;
	int ret = -ENOMEM;
	uint8_t *resp = calloc((size_t)w * h, 1);
	int step = (int)(S / LOOK_STEP_DIV);
	if (step < 1)
		step = 1;
	int lw = w / step + 1, lh = h / step + 1;
	uint8_t *lat = calloc((size_t)lw * lh, 1);
	int hw = (int)ceil(S * 0.75);
	int ww = 2 * hw + 1;
	int *distw = malloc(sizeof(int) * (size_t)ww * ww);
	unsigned *sumw = malloc(sizeof(unsigned) * (size_t)(ww + 1) * (ww + 1));
	uint8_t *cols = malloc((size_t)ww * ww * 3);
	struct hyp *hy = NULL;
	int nh = 0, hcap = 0;
	if (!resp || !lat || !distw || !sumw || !cols)
		goto free_all;
	/* Pip spots: a box of the pip's size against the ring around it. */
	int ri = (int)(S * LOOK_PIP_R + 0.5);
	if (ri < 1)
		ri = 1;
	int ro = 2 * ri + 1;
	/* Only spots over the threshold matter (as peaks and against
	 * them): the rest stay 0 without a square root. */
	{
		size_t W = (size_t)w + 1, plane = W * ((size_t)h + 1);
		int ni = (2 * ri + 1) * (2 * ri + 1), no = (2 * ro + 1) * (2 * ro + 1);
		/* in/ni - (out-in)/(no-ni), scaled by ni*(no-ni) to stay integral */
		long long k1 = no, k2 = ni, den = (long long)ni * (no - ni);
		double thr2 = (double)LOOK_PIP_THR * LOOK_PIP_THR * (double)den * den;
		for (int y = ro; y < h - ro; y++)
			for (int x = ro; x < w - ro; x++) {
				double d2 = 0;
				for (int c = 0; c < 3; c++) {
					const unsigned *q = wk->ii + c * plane;
					long long in = (long long)q[(size_t)(y + ri + 1) * W + x + ri + 1] -
						       q[(size_t)(y - ri) * W + x + ri + 1] -
						       q[(size_t)(y + ri + 1) * W + x - ri] + q[(size_t)(y - ri) * W + x - ri];
					long long out = (long long)q[(size_t)(y + ro + 1) * W + x + ro + 1] -
							q[(size_t)(y - ro) * W + x + ro + 1] -
							q[(size_t)(y + ro + 1) * W + x - ro] + q[(size_t)(y - ro) * W + x - ro];
					double e = (double)(in * k1 - out * k2);
					d2 += e * e;
				}
				if (d2 >= thr2)
					resp[(size_t)y * w + x] = (uint8_t)spot(wk, x, y, ri);
			}
	}
	/* Local maxima away from the dice read already mark lattice points
	 * near them as die centres to try. */
	for (int y = ro; y < h - ro; y++)
		for (int x = ro; x < w - ro; x++) {
			int v = resp[(size_t)y * w + x];
			if (v < LOOK_PIP_THR)
				continue;
			int peak = 1;
			for (int dy = -ri; dy <= ri && peak; dy++)
				for (int dx = -ri; dx <= ri; dx++) {
					int q = resp[(size_t)(y + dy) * w + x + dx];
					if (q > v || (q == v && (dy < 0 || (dy == 0 && dx < 0)))) {
						peak = 0;
						break;
					}
				}
			if (!peak)
				continue;
			int near = 0;
			for (int i = 0; i < *nd && !near; i++)
				near = dice[i].face > 0 &&
				       hypot(dice[i].x - x, dice[i].y - y) < LOOK_SEED_COVER * dice[i].side;
			if (near)
				continue;
			double rr = S * LOOK_REACH;
			for (int ly = (int)((y - rr) / step); ly <= (int)((y + rr) / step) + 1; ly++)
				for (int lx = (int)((x - rr) / step); lx <= (int)((x + rr) / step) + 1; lx++)
					if (lx >= 0 && ly >= 0 && lx < lw && ly < lh) {
						double dd = hypot(lx * step - x, ly * step - y);
						uint8_t *q = &lat[(size_t)ly * lw + lx];
						if (dd <= rr && (*q & 0x7f) < 0x7f)
							(*q)++;
						/* A 1's pip is its middle. */
						if (dd <= S * LOOK_ONE_REACH)
							*q |= 0x80;
					}
		}
	int hb = (int)(S * LOOK_BODY + 0.5);
	for (int ly = 0; ly < lh; ly++)
		for (int lx = 0; lx < lw; lx++) {
			/* A face of two or more pips has two or more spots. */
			int spots = lat[(size_t)ly * lw + lx] & 0x7f;
			int one = lat[(size_t)ly * lw + lx] >> 7;
			if (spots < LOOK_MIN_SPOTS && !(one && LOOK_MIN_FACE <= 1))
				continue;
			int cx = lx * step, cy = ly * step;
			if (cx - hw < 0 || cy - hw < 0 || cx + hw >= w || cy + hw >= h)
				continue;
			int near = 0;
			for (int i = 0; i < *nd && !near; i++)
				near = dice[i].face > 0 &&
				       hypot(dice[i].x - cx, dice[i].y - cy) < LOOK_SEP * (dice[i].side + S) / 2;
			if (near)
				continue;
			/* The body: the median colour of the die's inner box. */
			size_t n = 0;
			for (int y = cy - hb; y <= cy + hb; y++)
				for (int x = cx - hb; x <= cx + hb; x++)
					memcpy(cols + 3 * n++, wk->smooth + ((size_t)y * w + x) * 3, 3);
			uint8_t body[3];
			for (int c = 0; c < 3; c++)
				body[c] = median_u8(cols + c, n, 3);
			/* Most of that box is the body (pips fill at most a third). */
			size_t same = 0;
			for (size_t i = 0; i < n; i++)
				same += color_dist(cols + 3 * i, body) < LOOK_BODY_TOL;
			if (same < n * LOOK_BODY_FRAC)
				continue;
			for (int y = 0; y < ww; y++)
				for (int x = 0; x < ww; x++) {
					int dd = color_dist(wk->smooth + ((size_t)(cy - hw + y) * w + cx - hw + x) * 3, body);
					distw[y * ww + x] = dd > 255 ? 255 : dd;
				}
			for (int x = 0; x <= ww; x++)
				sumw[x] = 0;
			for (int y = 0; y < ww; y++) {
				sumw[(size_t)(y + 1) * (ww + 1)] = 0;
				for (int x = 0; x < ww; x++)
					sumw[(size_t)(y + 1) * (ww + 1) + x + 1] =
						(unsigned)distw[y * ww + x] + sumw[(size_t)y * (ww + 1) + x + 1] +
						sumw[(size_t)(y + 1) * (ww + 1) + x] - sumw[(size_t)y * (ww + 1) + x];
			}
			struct vis_die d = { .x = cx, .y = cy, .side = S };
			int mask = 0;
			double a = 0;
			double m = vis_dice_grid_read(sumw, ww, ww, cx - hw, cy - hw, cx, cy, S, 0, 1,
						      LOOK_MIN_FACE, LOOK_A_MIN, LOOK_NA, &d, &mask, &a);
			if (m <= 0)
				continue;
			/* A pip on a die read already belongs to that die: two
			 * neighbours' pips with the table between make no die. */
			int foreign = 0;
			for (int k = 0; k < 9 && !foreign; k++) {
				if (!(mask >> k & 1))
					continue;
				double u = (k % 3 - 1) * a, v = (k / 3 - 1) * a;
				double px = cx + cos(d.angle) * u - sin(d.angle) * v;
				double py = cy + sin(d.angle) * u + cos(d.angle) * v;
				for (int i = 0; i < *nd && !foreign; i++)
					foreign = dice[i].face > 0 &&
						  hypot(dice[i].x - px, dice[i].y - py) < LOOK_COVER * dice[i].side;
			}
			if (foreign)
				continue;
			if (nh == hcap) {
				hcap = hcap ? 2 * hcap : 64;
				struct hyp *t = realloc(hy, sizeof(*hy) * (size_t)hcap);
				if (!t)
					goto free_all;
				hy = t;
			}
			hy[nh].x = cx;
			hy[nh].y = cy;
			hy[nh].score = m;
			hy[nh].d = d;
			nh++;
		}
	if (nh)
		qsort(hy, (size_t)nh, sizeof(*hy), cmp_hyp);
	int first = *nd;
	for (int k = 0; k < nh && *nd < cap; k++) {
		int near = 0, weak = -1;
		for (int i = 0; i < *nd && !near; i++) {
			if (hypot(dice[i].x - hy[k].x, dice[i].y - hy[k].y) >= LOOK_SEP * (dice[i].side + S) / 2)
				continue;
			if (dice[i].face > 0 || i >= first)
				near = 1;
			else if (dice[i].face < 0 && dice[i].face > -7) {
				/* A doubtful reading gives way to one with more pips. */
				if (hy[k].d.face > -dice[i].face)
					weak = i;
				else
					near = 1;
			}
		}
		if (near)
			continue;
		if (weak >= 0)
			dice[weak].face = -7;
		dice[(*nd)++] = hy[k].d;
	}
	ret = 0;
free_all:
	free(resp);
	free(lat);
	free(distw);
	free(sumw);
	free(cols);
	free(hy);
	return ret;
}
