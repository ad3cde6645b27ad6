/*
 * vision: finding dice in an image and reading their faces.
 *
 * 1. Background: the tray or table is large and smooth, the dice small. A
 *    coarse grid of per-block channel medians, smoothed by a median over
 *    neighbouring blocks (so a block a die fills takes its neighbours'
 *    colour), interpolated back to full size, models it without knowing
 *    its colour or the light.
 * 2. Die bodies: pixels far in colour from that background and not a
 *    shadow (the table's hue, darker), closed, small holes filled (white
 *    pips on a white table are holes in a green die). The typical die size
 *    is the median side of the square blobs, so no size is configured; an
 *    opening at 0.15 of it cuts dice off walls and lines; a blob that
 *    is not square and holds k dice' area is split by k-means on position
 *    from its distance transform's peaks; one too long for a die but
 *    shorter than a strip, in two.
 * 3. Pips: inside each die (grown back over the unopened foreground),
 *    pixels far in colour from the die's own median colour, after a 3x3
 *    blur against noise, at Otsu's threshold and three others around it;
 *    (A) holes the body encloses and (B) blobs of the eroded top off its
 *    rim, each polarity apart; small round blobs only.
 * 4. Layout: the pip centres are fitted to the 1-6 patterns under any
 *    rotation and scale; the residual, pip sizes, spacing and centring give
 *    the confidence; of the readings that fit, most pips wins; a face
 *    below min_confidence is unreadable (0).
 * 5. Second look: where no die was read (lost bodies: white on white,
 *    against a wall, in a heap) and at doubtful 1s and 2s, pip-sized spots
 *    unlike their ring seed die centres at the size of the dice read
 *    surely; each is read by the 3x3 pip grid with a plain rim around it.
 * 6. Face net: every die found (unreadable ones too) is cut out and read
 *    by the face net (face_net.c) at four quarter turns; its face is
 *    weighed against the pips' (weigh_net): agreeing, the surer stands;
 *    disagreeing, the net from 0.7, else the pips from 0.8 if the net
 *    allows their face, else unreadable; read by neither, no die at all
 *    when the net sees none centred there (keep_unreadable).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision.h"

/* Weighing the face net against the pip reader (weigh_net), chosen on
 * half the tuning photos with a net trained on the other half (and
 * rendered dice), tools/fnet/README.md. */
#ifndef NET_TURNS
#define NET_TURNS 4		/* quarter turns of the crop the net reads */
#endif
#ifndef NET_ALONE
#define NET_ALONE 0.7		/* the net gives a face the pips deny from this probability */
#endif
#ifndef NET_ALONE_SCALE
#define NET_ALONE_SCALE 0.85	/* ... at this fraction of it (never "sure") */
#endif
#ifndef NET_PIP_KEEP
#define NET_PIP_KEEP 0.8	/* the pips keep a face the net doubts from this ... */
#endif
#ifndef NET_PIP_KEEP_P
#define NET_PIP_KEEP_P 0.05	/* ... when the net gives it at least this */
#endif
#ifndef NET_PIP_SCALE
#define NET_PIP_SCALE 0.9	/* ... at this fraction of their confidence */
#endif
#ifndef NET_NOT_A_DIE
#define NET_NOT_A_DIE 0.5	/* a find neither reads is no die when the net's "no die
				 * centred" is this likely (the tray's screw holes, shadows) */
#endif
#ifndef SAME_DIE_FRAC
#define SAME_DIE_FRAC 0.75	/* two finds nearer than this of the larger's side are one
				 * die: two dice's centres are about a side apart or more */
#endif

/* Internal constants, tuned on the 2019-12-08 photos only (the 2019-12-09
 * ones are held out) and on rendered dice; sizes are fractions of the die
 * side so nothing depends on the image's scale. Each may be overridden
 * with -D for a tuning sweep. */
#ifndef FG_K
#define FG_K 4		/* foreground: colour distance > FG_K x median + FG_C */
#endif
#ifndef FG_C
#define FG_C 12
#endif
#ifndef FG_MIN
#define FG_MIN 20	/* ... and never below this (grey levels) */
#endif
#ifndef PIP_MIN_THR
#define PIP_MIN_THR 40	/* a pip differs from its body by at least this */
#endif
#ifndef RIM_FRAC
#define RIM_FRAC 0.08	/* rim band ignored by pip method B, of the side */
#endif
#ifndef OPEN_FRAC
#define OPEN_FRAC 0.15	/* opening radius cutting dice off walls, of the side */
#endif
#ifndef SPLIT_ASPECT
#define SPLIT_ASPECT 1.3	/* a blob squarer than this ... */
#endif
#ifndef SPLIT_FILL
#define SPLIT_FILL 0.6	/* ... and fuller ... */
#endif
#ifndef SPLIT_MAX
#define SPLIT_MAX 2.2	/* ... and under this many typical die areas is one die */
#endif
#ifndef LONG_ASPECT
#define LONG_ASPECT 1.8	/* a blob longer than this one way is no single die */
#endif
#ifndef LONG_PAIR_MIN
#define LONG_PAIR_MIN 1.0	/* ... and split in two from this many typical die areas */
#endif
#ifndef LONG_PAIR_ASPECT
#define LONG_PAIR_ASPECT 3.0	/* ... when shorter than this one way (two dice in a row) */
#endif
#ifndef PICK_CONF
#define PICK_CONF 0.5	/* readings above this compete on pip count */
#endif
#ifndef CENTRE_OFF
#define CENTRE_OFF 0.2	/* pips' middle may sit this far from the die's, of the side */
#endif
#ifndef ONE_OFF
#define ONE_OFF 0.15	/* a lone pip may sit this far from the die's middle, of the side */
#endif
#ifndef RICHER_MARGIN
#define RICHER_MARGIN 40	/* a richer face on the fitted grid wins by this margin */
#endif
#ifndef BODY_SPREAD
#define BODY_SPREAD 1.25	/* outline square enough to give the die's edges */
#endif
#ifndef BODY_ASPECT
#define BODY_ASPECT 1.25	/* an outline longer than this each way is no sure die */
#endif
#ifndef SKEW_DEG
#define SKEW_DEG 30	/* a pip grid turned this far from them is doubtful */
#endif
#ifndef ONE_GRID_A
#define ONE_GRID_A 0.19	/* a lone pip's grid: the typical pip spacing, of the side */
#endif
#ifndef ONE_THIN_CONF
#define ONE_THIN_CONF 0.6	/* a lone pip whose grid shows other spots is at most this sure */
#endif
#ifndef TWO_EVEN
#define TWO_EVEN 0.15	/* a 2's pips' distances from the middle may differ this (of the side) */
#endif
#ifndef TWO_EVEN_SPAN
#define TWO_EVEN_SPAN 0.3	/* ... and lose a fifth of the confidence at this much more */
#endif
#ifndef TWO_ALIKE
#define TWO_ALIKE 1.2	/* a 2's pips' areas may differ by this ratio ... */
#endif
#ifndef TWO_ALIKE_SPAN
#define TWO_ALIKE_SPAN 0.55	/* ... and lose a fifth of the confidence at this much more */
#endif
#ifndef TWO_AREA_RATIO
#define TWO_AREA_RATIO 1.75	/* a 2's pips differing more in area are a 1 and a side's */
#endif
#ifndef SKEW_ONE_CONF
#define SKEW_ONE_CONF 0.7	/* ... and a 2 so turned is at most this sure a 1 */
#endif
#ifndef LOW_N_CAP
#define LOW_N_CAP 0.8	/* most confidence a 1 or a 2 can get */
#endif
#ifndef BG_BLOCKS
#define BG_BLOCKS 20	/* background blocks across the shorter side */
#endif
#ifndef RATIO_MIN
#define RATIO_MIN 0.15	/* pip spacing below this fraction of the side is unlikely */
#endif
#ifndef CHROMA_GAIN
#define CHROMA_GAIN 2.5	/* chroma distance scale against the colour distance */
#endif
#ifndef CHROMA_WHEN
#define CHROMA_WHEN 0.9	/* colour readings this sure skip the chroma pass */
#endif
#ifndef CHROMA_MIN_NP
#define CHROMA_MIN_NP 2	/* chroma readings of this few pips only where colour read none */
#endif
#ifndef CHROMA_LOW_CAP
#define CHROMA_LOW_CAP 0.75	/* most confidence for a 1 or a 2 from the chroma pass */
#endif
#ifndef DIST_KINDS
#define DIST_KINDS 2	/* pip distances tried: colour, then chroma alone */
#endif
#ifndef THR_PCTS
#define THR_PCTS 100, 70, 140, 190	/* pip thresholds tried, % of Otsu's */
#endif
#ifndef DICE_MAX_SIDE
#define DICE_MAX_SIDE 1600	/* bigger images are read downscaled */
#endif
#ifndef TWO_SCALES_FROM
#define TWO_SCALES_FROM 800	/* images over this a side are also read at half size */
#endif
#ifndef READ_AGAIN_MARGIN
#define READ_AGAIN_MARGIN 0.95	/* a second reading (half size, smaller die) is kept when
				 * its sure faces' confidences sum to this more */
#endif
#ifndef SMALL_DIE_PX
#define SMALL_DIE_PX 22	/* pictures whose dice are smaller (median) are also read
				 * enlarged twice */
#endif
#ifndef SIDE_PCT
#define SIDE_PCT 50	/* the typical die: this percentile of square blobs' sides ... */
#endif
#ifndef SIDE_PCT_SMALL
#define SIDE_PCT_SMALL 40	/* ... or this one, in a heap of mixed sizes (read again) */
#endif
#ifndef GROW_FRAC
#define GROW_FRAC 0.2	/* candidate grown back after the opening, of the side */
#endif
#ifndef SHADOW_MIN
#define SHADOW_MIN 60	/* shadows keep at least this % of the table's light */
#endif
#ifndef SHADOW_CHROMA
#define SHADOW_CHROMA 40	/* and its hue within this (thousandths) */
#endif

#ifndef GRID_PIP_R
#define GRID_PIP_R 0.07	/* grid reading: pip sample half-width, of the side */
#endif
#ifndef GRID_STEP_DEG
#define GRID_STEP_DEG 5	/* ... rotation step */
#endif
#ifndef GRID_A_MIN
#define GRID_A_MIN 0.22	/* ... smallest pip spacing, of the side */
#endif
#ifndef GRID_A_STEP
#define GRID_A_STEP 0.04	/* ... spacing step (GRID_NA tried) */
#endif
#ifndef GRID_OFF
#define GRID_OFF 0.06	/* ... farthest centre offset tried, of the side */
#endif
#ifndef GRID_NOFF
#define GRID_NOFF 1	/* ... offsets tried each way */
#endif
#ifndef GRID_NA
#define GRID_NA 3	/* ... spacings tried */
#endif
#ifndef GRID_PIP_MIN
#define GRID_PIP_MIN 40	/* ... a pip differs from the body by this */
#endif
#ifndef GRID_MARGIN
#define GRID_MARGIN 20	/* ... and from every empty grid point by this */
#endif
#ifndef GRID_CONF_MIN
#define GRID_CONF_MIN 0.5	/* ... confidence at that margin */
#endif
#ifndef GRID_CONF_MAX
#define GRID_CONF_MAX 0.7	/* ... and at twice it */
#endif
#ifndef GRID_LOW_EXTRA
#define GRID_LOW_EXTRA 20	/* ... and this much more for a 1 or a 2 */
#endif
#ifndef GRID_FALLBACK
#define GRID_FALLBACK 0.5	/* blob readings below this try the grid */
#endif

#ifndef LOOK_ENABLE
#define LOOK_ENABLE 1	/* the second look (0: off, for comparisons) */
#endif
#ifndef LOOK_MIN_FACE
#define LOOK_MIN_FACE 1	/* ... smallest face it gives */
#endif
#ifndef LOOK_A_MIN
#define LOOK_A_MIN 0.18	/* ... smallest pip spacing, of S (dice differ in size) */
#endif
#ifndef LOOK_NA
#define LOOK_NA 6	/* ... spacings tried, GRID_A_STEP apart */
#endif
#ifndef LOOK_RIM_SLACK
#define LOOK_RIM_SLACK 15	/* ... a rim point may differ this much more than an empty one */
#endif
#ifndef LOOK_LOW_EXTRA
#define LOOK_LOW_EXTRA 20	/* ... and a 2 this much more margin than in a body */
#endif
#ifndef LOOK_WEAK_FACE
#define LOOK_WEAK_FACE 2	/* ... first readings of at most this many pips ... */
#endif
#ifndef LOOK_WEAK_CONF
#define LOOK_WEAK_CONF 0.9	/* ... below this confidence may be read again */
#endif
#ifndef LOOK_THREE_EXTRA
#define LOOK_THREE_EXTRA 10	/* ... and a 3 (a 2 and a corner) this much more */
#endif
#ifndef LOOK_ONE_EXTRA
#define LOOK_ONE_EXTRA 40	/* ... and a 1 (a lone spot on a plain face) this much more */
#endif
#ifndef LOOK_ONE_REACH
#define LOOK_ONE_REACH 0.12	/* ... a 1's centre is tried this near its spot, of S */
#endif
#ifndef LOOK_RIM
#define LOOK_RIM 1.6	/* ... rim points on the axes, of the pip spacing */
#endif
#ifndef LOOK_RIM_D
#define LOOK_RIM_D 1.45	/* ... and on the diagonals */
#endif
#ifndef LOOK_MAX
#define LOOK_MAX 64	/* second look: most dice it adds */
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

void vis_dice_params_default(struct vis_dice_params *p)
{
	p->min_die_px = 14;
	p->max_die_px = 160;
	p->min_confidence = 0.5;
	p->keep_unreadable = 0;
	p->pips_only = 0;
}

/* ---- small helpers ---- */

static int cmp_u8(const void *a, const void *b)
{
	return (int)*(const uint8_t *)a - (int)*(const uint8_t *)b;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The pct-th percentile of v's n > 0 values (v sorted in place): the
 * value at index n x pct / 100, so 50 is the upper median. */
static double percentile(double *v, int n, int pct)
{
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	return v[n * pct / 100];
}

/* Median of n bytes by histogram. */
static uint8_t median_u8(const uint8_t *v, size_t n, size_t step)
{
	unsigned hist[256] = { 0 };
	for (size_t i = 0; i < n; i++)
		hist[v[i * step]]++;
	size_t half = n / 2, acc = 0;
	for (int k = 0; k < 256; k++) {
		acc += hist[k];
		if (acc > half)
			return (uint8_t)k;
	}
	return 255;
}

/* The working copy: packed RGB, whatever the input. */
struct work {
	int w, h;		/* pixels */
	uint8_t *rgb;		/* owned, 3 bytes a pixel, packed rows */
	uint8_t *smooth;	/* owned, rgb after a 3x3 box blur (pips in noise) */
	uint8_t *bg;		/* owned, background model, same layout */
	uint8_t *fg;		/* owned, 1 where a die body may be */
	uint8_t *fg0;		/* owned, fg before the opening */
	int *label;		/* owned, component of each pixel, 0 none */
	unsigned *ii;		/* owned, integral images of smooth, 3 planes of (w+1)x(h+1) */
	uint8_t *bodies;	/* owned, die bodies before any opening (dice_front) */
	int *stack;		/* owned, w x h ints for labelling */
	int *scratch;		/* owned, 2 x w x h ints for filters and pip masks */
};

static void work_free(struct work *wk)
{
	free(wk->rgb);
	free(wk->smooth);
	free(wk->bg);
	free(wk->fg);
	free(wk->fg0);
	free(wk->label);
	free(wk->ii);
	free(wk->bodies);
	free(wk->stack);
	free(wk->scratch);
}

static int color_dist(const uint8_t *a, const uint8_t *b)
{
	int dr = a[0] - b[0], dg = a[1] - b[1], db = a[2] - b[2];
	return (int)sqrtf((float)(dr * dr + dg * dg + db * db));
}

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
static int integrals(struct work *wk)
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
static int spot(const struct work *wk, int x, int y, int ri)
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

/* A shadow on the table: the table's own colour, only darker. Dice cast
 * soft shadows that would otherwise join them and shift their centres;
 * black dice are darker than any shadow, coloured ones differ in hue. */
static int is_shadow(const uint8_t *p, const uint8_t *bg)
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
static void blur3(const uint8_t *in, uint8_t *out, int w, int h)
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

static int background(struct work *wk)
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
static void box_filter(uint8_t *m, uint8_t *t, int w, int h, int r, int dilate)
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
static int components(const uint8_t *m, int *label, int *stack, int w, int h)
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

struct blob {
	int x0, y0, x1, y1;	/* bounding box, inclusive */
	int area;		/* pixels after hole filling */
	double cx, cy;		/* centroid */
};

/* A die candidate: its pixels (indices into the image). */
struct cand {
	int *px;		/* owned */
	int n;			/* pixels */
	double cx, cy;		/* centroid */
};

/* ---- 3 and 4. pips and layout ---- */

struct pip {
	double x, y;		/* centre, pixels */
	int area;		/* pixels */
};

/* The canonical layouts, in units of the pip spacing a (centre at 0). */
static const double layout_pts[7][6][2] = {
	{ { 0 } },
	{ { 0, 0 } },
	{ { -1, -1 }, { 1, 1 } },
	{ { -1, -1 }, { 0, 0 }, { 1, 1 } },
	{ { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } },
	{ { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 }, { 0, 0 } },
	{ { -1, -1 }, { -1, 0 }, { -1, 1 }, { 1, -1 }, { 1, 0 }, { 1, 1 } },
};

/* Fits n pips (2..6) to layout n: the best rotation, scale from their
 * spread, centre at their mean. Returns the rms residual in units of a
 * and sets *angle and *spacing. */
static double fit_layout(const struct pip *p, int n, double *angle, double *spacing,
			 double *turn)
{
	double mx = 0, my = 0;
	for (int i = 0; i < n; i++) {
		mx += p[i].x;
		my += p[i].y;
	}
	mx /= n;
	my /= n;
	double tr2 = 0;
	for (int j = 0; j < n; j++)
		tr2 += layout_pts[n][j][0] * layout_pts[n][j][0] +
		       layout_pts[n][j][1] * layout_pts[n][j][1];
	double r2 = 0;
	for (int i = 0; i < n; i++)
		r2 += (p[i].x - mx) * (p[i].x - mx) + (p[i].y - my) * (p[i].y - my);
	double a = sqrt(r2 / tr2);
	*spacing = a;
	if (a < 1e-6)
		return 1e9;
	double best = 1e18, best_t = 0;
	for (int k = 0; k < 180; k++) {
		double t = k * M_PI / 180;
		double c = cos(t), s = sin(t), cost = 0;
		double u[6], v[6];
		for (int i = 0; i < n; i++) {
			double dx = (p[i].x - mx) / a, dy = (p[i].y - my) / a;
			u[i] = c * dx + s * dy;
			v[i] = -s * dx + c * dy;
		}
		/* Both ways, so two pips on one layout point cost as much as
		 * a layout point with no pip. */
		for (int i = 0; i < n; i++) {
			double m = 1e9;
			for (int j = 0; j < n; j++) {
				double du = u[i] - layout_pts[n][j][0], dv = v[i] - layout_pts[n][j][1];
				double d = du * du + dv * dv;
				if (d < m)
					m = d;
			}
			cost += m;
		}
		for (int j = 0; j < n; j++) {
			double m = 1e9;
			for (int i = 0; i < n; i++) {
				double du = u[i] - layout_pts[n][j][0], dv = v[i] - layout_pts[n][j][1];
				double d = du * du + dv * dv;
				if (d < m)
					m = d;
			}
			cost += m;
		}
		if (cost < best) {
			best = cost;
			best_t = t;
		}
	}
	*angle = fmod(best_t, M_PI / 2);
	if (turn)
		*turn = best_t;
	return sqrt(best / (2.0 * n));
}

/* Reads one face from its pip candidates: the count whose layout fits,
 * with a confidence. */
static void read_face(struct pip *pips, int n, double side, double cx, double cy,
		      struct vis_die *d)
{
	d->face = 0;
	d->confidence = 0;
	d->angle = 0;
	if (n < 1 || n > 6)
		return;
	/* Pips of one face are alike in size. */
	double amean = 0;
	for (int i = 0; i < n; i++)
		amean += pips[i].area;
	amean /= n;
	double avar = 0;
	for (int i = 0; i < n; i++)
		avar += (pips[i].area - amean) * (pips[i].area - amean);
	double acv = n > 1 ? sqrt(avar / n) / amean : 0;
	double size_ok = acv < 0.35 ? 1 : exp(-((acv - 0.35) / 0.25) * ((acv - 0.35) / 0.25));
	if (n == 1) {
		double dist = hypot(pips[0].x - cx, pips[0].y - cy) / side;
		double r = sqrt(pips[0].area / M_PI) / side;
		/* A lone pip sits near the middle and is not a speck. */
		double conf = dist < ONE_OFF ? 1 : exp(-((dist - ONE_OFF) / 0.1) * ((dist - ONE_OFF) / 0.1));
		if (r < 0.05)
			conf *= exp(-((0.05 - r) / 0.02) * ((0.05 - r) / 0.02));
		d->face = 1;
		d->confidence = conf < LOW_N_CAP ? conf : LOW_N_CAP;
		return;
	}
	double angle = 0, a = 0;
	double res = fit_layout(pips, n, &angle, &a, NULL);
	double fit = exp(-(res / 0.22) * (res / 0.22));
	/* Spacing against the die: pips sit about a quarter side apart. */
	double ratio = a / side;
	double scale_ok = 1;
	if (ratio < RATIO_MIN)
		scale_ok = exp(-((RATIO_MIN - ratio) / 0.04) * ((RATIO_MIN - ratio) / 0.04));
	else if (ratio > 0.42)
		scale_ok = exp(-((ratio - 0.42) / 0.08) * ((ratio - 0.42) / 0.08));
	/* The pips' middle is the face's middle. */
	double mx = 0, my = 0;
	for (int i = 0; i < n; i++) {
		mx += pips[i].x / n;
		my += pips[i].y / n;
	}
	double off = hypot(mx - cx, my - cy) / side;
	double centre_ok = off < CENTRE_OFF ? 1 : exp(-((off - CENTRE_OFF) / 0.1) * ((off - CENTRE_OFF) / 0.1));
	d->face = n;
	d->angle = angle;
	d->confidence = fit * size_ok * scale_ok * centre_ok;
	/* Any two points fit the 2 layout: a 2 is only as sure as its spacing
	 * and centre say, never as sure as a fitted 3-6. */
	if (n == 2 && d->confidence > LOW_N_CAP)
		d->confidence = LOW_N_CAP;
	if (n == 2) {
		/* Two pips are thin evidence: the cap only for a pair that is
		 * alike in size and sits evenly about the die's middle (a 1 and
		 * a side face's pip do neither); down to 0.8 x 0.8 of it. */
		double d0 = hypot(pips[0].x - cx, pips[0].y - cy) / side;
		double d1 = hypot(pips[1].x - cx, pips[1].y - cy) / side;
		double uneven = (fabs(d0 - d1) - TWO_EVEN) / TWO_EVEN_SPAN;
		double big = pips[0].area > pips[1].area ? pips[0].area : pips[1].area;
		double small = pips[0].area > pips[1].area ? pips[1].area : pips[0].area;
		double unlike = (big / (small > 0 ? small : 1) - TWO_ALIKE) / TWO_ALIKE_SPAN;
		uneven = uneven < 0 ? 0 : uneven > 1 ? 1 : uneven;
		unlike = unlike < 0 ? 0 : unlike > 1 ? 1 : unlike;
		d->confidence *= (1 - 0.2 * uneven) * (1 - 0.2 * unlike);
	}
}

/* How the fitted layout's grid looks in the die: the mean colour distance
 * from the body (dist, a bw x bh box at x0, y0) at each of the 3x3 grid
 * points the n pips were fitted to. Sets *lo to the faintest pip point and
 * *hi to the strongest empty one (255 for a point off the box: the layout
 * reaches beyond the die). A face whose other pips were lost (a 6 read as
 * its four corners, a 6's column read as a 3) shows them at its empty
 * points, or puts them off the die's top. A lone pip (n == 1) gets the
 * grid at angle t1 (the die's edges) and the typical spacing. */
static void layout_grid(const int *dist, int bw, int bh, int x0, int y0,
			const struct pip *pips, int n, double side, double t1, double *lo,
			double *hi, double *g)
{
	double angle, a = ONE_GRID_A * side, t = t1;
	*lo = 0;
	*hi = 255;
	if (n < 1 || (n > 1 && fit_layout(pips, n, &angle, &a, &t) > 1e8))
		return;
	double mx = 0, my = 0;
	for (int i = 0; i < n; i++) {
		mx += pips[i].x / n;
		my += pips[i].y / n;
	}
	double c = cos(t), s = sin(t);
	int r = (int)(side * GRID_PIP_R + 0.5);
	if (r < 1)
		r = 1;
	double plo = 1e9, ehi = 0;
	for (int gv = -1; gv <= 1; gv++)
		for (int gu = -1; gu <= 1; gu++) {
			int pip = 0;
			for (int j = 0; j < n; j++)
				if (layout_pts[n][j][0] == gu && layout_pts[n][j][1] == gv)
					pip = 1;
			int px = (int)lround(mx + a * (c * gu - s * gv)) - x0;
			int py = (int)lround(my + a * (s * gu + c * gv)) - y0;
			double v = 255;
			if (px - r >= 0 && py - r >= 0 && px + r < bw && py + r < bh) {
				long tot = 0;
				for (int y = py - r; y <= py + r; y++)
					for (int x = px - r; x <= px + r; x++)
						tot += dist[(size_t)y * bw + x];
				v = (double)tot / ((2 * r + 1) * (2 * r + 1));
			}
			if (g)
				g[(gv + 1) * 3 + gu + 1] = v;
			if (pip && v < plo)
				plo = v;
			if (!pip && v > ehi)
				ehi = v;
		}
	*lo = plo;
	*hi = ehi;
}

/* The die's edge direction from its pixels (in, a bw x bh mask): the
 * rotation in [0, pi/2) whose bounding box is smallest. *spread is the
 * largest box's area over the smallest: near 1 for a blob too round (or
 * too ragged) to tell. */
static double body_angle(const uint8_t *in, int bw, int bh, double *spread, double *len)
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

/* Angle between two grid directions, modulo a quarter turn: 0 to pi/4. */
static double grid_angle_diff(double a, double b)
{
	double d = fmod(fabs(a - b), M_PI / 2);
	return d > M_PI / 4 ? M_PI / 2 - d : d;
}

/* Otsu's threshold of a histogram of n values. */
static int otsu(const unsigned *hist, int bins)
{
	double total = 0, sum = 0;
	for (int i = 0; i < bins; i++) {
		total += hist[i];
		sum += (double)i * hist[i];
	}
	double wb = 0, sb = 0, best = -1;
	int t = 0;
	for (int i = 0; i < bins; i++) {
		wb += hist[i];
		if (wb == 0)
			continue;
		double wf = total - wb;
		if (wf == 0)
			break;
		sb += (double)i * hist[i];
		double mb = sb / wb, mf = (sum - sb) / wf;
		double v = wb * wf * (mb - mf) * (mb - mf);
		if (v > best) {
			best = v;
			t = i;
		}
	}
	return t;
}

/* The pips of one polarity in a mask (value pol): small round blobs;
 * with rim, blobs touching its outside are dropped. Writes at most 6 into
 * pips and returns how many there were (7 meaning more than 6). */
static int collect_pips(const uint8_t *mask, int pol, const uint8_t *rim, int bw, int bh,
			int x0, int y0, double side, uint8_t *tmp, int *lab, int *stack,
			struct pip *pips)
{
	size_t bn = (size_t)bw * bh;
	for (size_t i = 0; i < bn; i++)
		tmp[i] = mask[i] == pol;
	int nl = components(tmp, lab, stack, bw, bh);
	int np = 0;
	double amin = 0.004 * side * side, amax = 0.12 * side * side;
	if (amin < 2)
		amin = 2;
	/* One pass over the box gathers every blob's statistics. */
	struct pstat {
		int area, x0, y0, x1, y1, at_rim;
		double sx, sy;
	} *st = calloc((size_t)nl + 1, sizeof(*st));
	if (!st)
		return 0;
	for (int l = 1; l <= nl; l++) {
		st[l].x0 = bw;
		st[l].y0 = bh;
		st[l].x1 = st[l].y1 = -1;
	}
	for (size_t i = 0; i < bn; i++) {
		int l = lab[i];
		if (!l)
			continue;
		struct pstat *q = &st[l];
		int x = (int)(i % bw), y = (int)(i / bw);
		q->area++;
		q->sx += x;
		q->sy += y;
		if (x < q->x0) q->x0 = x;
		if (x > q->x1) q->x1 = x;
		if (y < q->y0) q->y0 = y;
		if (y > q->y1) q->y1 = y;
		if (rim && (x == 0 || y == 0 || x == bw - 1 || y == bh - 1 ||
			    !rim[i - 1] || !rim[i + 1] || !rim[i - bw] || !rim[i + bw]))
			q->at_rim = 1;
	}
	for (int l = 1; l <= nl; l++) {
		struct pstat *q = &st[l];
		if (q->area < amin || q->area > amax || q->at_rim)
			continue;
		int ew = q->x1 - q->x0 + 1, eh = q->y1 - q->y0 + 1;
		double aspect = ew > eh ? (double)ew / eh : (double)eh / ew;
		double fill = (double)q->area / (ew * eh);
		if (aspect > 2.2 || fill < 0.4)
			continue;
		if (np == 6) {
			np = 7;
			break;
		}
		pips[np].x = q->sx / q->area + x0;
		pips[np].y = q->sy / q->area + y0;
		pips[np].area = q->area;
		np++;
	}
	free(st);
	return np;
}

/* The nine points of the pip grid (3x3, spacing 1) each face uses, as bit
 * masks of (row + 1) * 3 + (col + 1); some faces have two mirror forms. */
static const struct { int face, mask; } grid_faces[] = {
	{ 1, 0x010 }, { 2, 0x101 }, { 2, 0x044 }, { 3, 0x111 }, { 3, 0x054 },
	{ 4, 0x145 }, { 5, 0x155 }, { 6, 0x16d }, { 6, 0x1c7 },
};

/* A face's margin on the nine grid values g: its faintest pip (*lo) less
 * the strongest of its empty points, or less floor_hi when that is higher. */
static double face_margin(int mask, const double g[9], double floor_hi, double *lo)
{
	double flo = 1e9, fhi = floor_hi;

	for (int k = 0; k < 9; k++) {
		if (mask >> k & 1) {
			if (g[k] < flo)
				flo = g[k];
		} else if (g[k] > fhi)
			fhi = g[k];
	}
	*lo = flo;
	return flo - fhi;
}

/* Reads a face by the pip grid itself when the pip blobs gave no layout
 * (pips merged with a shaded edge, faint or broken up): the 3x3 grid at
 * every rotation, a few spacings and centres; the mean colour distance
 * from the body at each grid point; the face whose pips all stand out
 * from its empty points by the widest margin. Its confidence stays below
 * GRID_CONF_MAX: a fallback is never "sure". sum is the (bw+1)x(bh+1)
 * integral image of dist. Returns the margin (grey levels), 0 for none. */
static double grid_read(const unsigned *sum, int bw, int bh, int x0, int y0, double cx,
			double cy, double side, int noff, int border, int min_face, double a_min,
			int na, struct vis_die *d, int *mask_out, double *a_out)
{
	/* With border, eight more points between the outer pips and the
	 * die's edge count as empty: a die's top has a plain rim all round
	 * (a row of dots on a patterned wall does not). */
	static const double rim[8][2] = {
		{ LOOK_RIM, 0 }, { -LOOK_RIM, 0 }, { 0, LOOK_RIM }, { 0, -LOOK_RIM },
		{ LOOK_RIM_D, LOOK_RIM_D }, { -LOOK_RIM_D, LOOK_RIM_D },
		{ LOOK_RIM_D, -LOOK_RIM_D }, { -LOOK_RIM_D, -LOOK_RIM_D },
	};
	int r = (int)(side * GRID_PIP_R + 0.5);
	if (r < 1)
		r = 1;
	int npts = border ? 17 : 9;
	double best = 0;
	for (int ai = 0; ai < 90; ai += GRID_STEP_DEG) {
		double t = ai * M_PI / 180, c = cos(t), s = sin(t);
		for (int si = 0; si < na; si++) {
			double a = side * (a_min + si * GRID_A_STEP);
			for (int oy = -noff; oy <= noff; oy++)
				for (int ox = -noff; ox <= noff; ox++) {
					double gx = cx + (noff ? ox * side * GRID_OFF / noff : 0) - x0;
					double gy = cy + (noff ? oy * side * GRID_OFF / noff : 0) - y0;
					double v[17];
					int ok = 1;
					for (int k = 0; k < npts && ok; k++) {
						double u = k < 9 ? (k % 3 - 1) * a : rim[k - 9][0] * a;
						double w = k < 9 ? (k / 3 - 1) * a : rim[k - 9][1] * a;
						/* Rounds like lround wherever the box fits
						 * (r >= 1 rejects the rest either way). */
						int px = (int)(gx + c * u - s * w + 0.5);
						int py = (int)(gy + s * u + c * w + 0.5);
						if (px - r < 0 || py - r < 0 || px + r >= bw || py + r >= bh) {
							ok = 0;
							break;
						}
						size_t W = (size_t)bw + 1;
						unsigned tot = sum[(size_t)(py + r + 1) * W + px + r + 1] -
							       sum[(size_t)(py - r) * W + px + r + 1] -
							       sum[(size_t)(py + r + 1) * W + px - r] +
							       sum[(size_t)(py - r) * W + px - r];
						v[k] = (double)tot / ((2 * r + 1) * (2 * r + 1));
					}
					if (!ok)
						continue;
					double rim_hi = 0;
					for (int k = 9; k < npts; k++)
						if (v[k] - LOOK_RIM_SLACK > rim_hi)
							rim_hi = v[k] - LOOK_RIM_SLACK;
					for (size_t f = 0; f < sizeof grid_faces / sizeof grid_faces[0]; f++) {
						if (grid_faces[f].face < min_face)
							continue;
						double lo;
						double m = face_margin(grid_faces[f].mask, v, rim_hi, &lo);
						/* Any two specks make a 1 or a 2: those need more. */
						if (grid_faces[f].face <= 2)
							m -= GRID_LOW_EXTRA + (border ? LOOK_LOW_EXTRA : 0);
						else if (border && grid_faces[f].face == 3)
							m -= LOOK_THREE_EXTRA;
						if (border && grid_faces[f].face == 1)
							m -= LOOK_ONE_EXTRA;
						if (lo >= GRID_PIP_MIN && m > best) {
							best = m;
							d->face = grid_faces[f].face;
							d->angle = t;
							if (mask_out)
								*mask_out = grid_faces[f].mask;
							if (a_out)
								*a_out = a;
						}
					}
				}
		}
	}
	if (best < GRID_MARGIN) {
		d->face = 0;
		d->confidence = 0;
		return 0;
	}
	double q = (best - GRID_MARGIN) / GRID_MARGIN;
	d->confidence = GRID_CONF_MIN + (GRID_CONF_MAX - GRID_CONF_MIN) * (q > 1 ? 1 : q);
	return best;
}

/* The bounding box of c's pixels (w: the image's width). */
static void cand_box(const struct cand *c, int w, int *x0, int *y0, int *x1, int *y1)
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

/* Finds the pips of one die candidate and reads its face. scratch holds
 * at least 4 * (bbox pixels) ints. */
static int read_die(const struct work *wk, const struct cand *c, double side,
		    struct vis_die *d, int *scratch)
{
	int w = wk->w, h = wk->h;
	int x0, y0, x1, y1;
	cand_box(c, w, &x0, &y0, &x1, &y1);
	/* The opening that separated the dice also shaved their corners:
	 * grow the candidate back over the unopened foreground. */
	int grow = (int)(side * GROW_FRAC + 0.5);
	x0 = x0 - grow < 0 ? 0 : x0 - grow;
	y0 = y0 - grow < 0 ? 0 : y0 - grow;
	x1 = x1 + grow >= w ? w - 1 : x1 + grow;
	y1 = y1 + grow >= h ? h - 1 : y1 + grow;
	int bw = x1 - x0 + 1, bh = y1 - y0 + 1;
	size_t bn = (size_t)bw * bh;
	uint8_t *in = calloc(bn, 1);
	uint8_t *pm = calloc(bn, 1);
	uint8_t *tmp = calloc(bn, 1);
	int *dist = malloc(bn * sizeof(int));
	uint8_t *cols = malloc(bn * 3);
	if (!in || !pm || !tmp || !dist || !cols) {
		free(in);
		free(pm);
		free(tmp);
		free(dist);
		free(cols);
		return -ENOMEM;
	}
	for (int i = 0; i < c->n; i++)
		in[(size_t)(c->px[i] / w - y0) * bw + (c->px[i] % w - x0)] = 1;
	if (grow > 0)
		box_filter(in, tmp, bw, bh, grow, 1);
	size_t nin = 0;
	for (int y = 0; y < bh; y++)
		for (int x = 0; x < bw; x++) {
			size_t gi = (size_t)(y + y0) * w + (x + x0);
			size_t li = (size_t)y * bw + x;
			in[li] = in[li] && wk->fg0[gi];
			if (in[li])
				memcpy(cols + 3 * nin++, wk->smooth + gi * 3, 3);
		}
	if (!nin)
		nin = 1;
	/* Body colour: the median of the die's pixels (pips are a minority). */
	uint8_t body[3];
	for (int k = 0; k < 3; k++)
		body[k] = median_u8(cols + k, nin, 3);
	free(cols);
	int body_luma = (77 * body[0] + 150 * body[1] + 29 * body[2]) >> 8;
	unsigned hist[256] = { 0 };
	for (size_t i = 0; i < bn; i++) {
		int y = (int)(i / bw) + y0, x = (int)(i % bw) + x0;
		int dd = color_dist(wk->smooth + ((size_t)y * w + x) * 3, body);
		dist[i] = dd > 255 ? 255 : dd;
		if (in[i])
			hist[dist[i]]++;
	}
	int otsu_thr = otsu(hist, 256);
	/* The same distance in chroma alone (scaled): on a blue die marbled
	 * with black, the swirls differ from the body in RGB as much as its red
	 * pips do, in hue far less. */
	int *cdist = malloc(bn * sizeof(int));
	if (!cdist) {
		free(in);
		free(pm);
		free(tmp);
		free(dist);
		return -ENOMEM;
	}
	int body_cb = -43 * body[0] - 85 * body[1] + 128 * body[2];
	int body_cr = 128 * body[0] - 107 * body[1] - 21 * body[2];
	unsigned chist[256] = { 0 };
	for (size_t i = 0; i < bn; i++) {
		int y = (int)(i / bw) + y0, x = (int)(i % bw) + x0;
		const uint8_t *p = wk->smooth + ((size_t)y * w + x) * 3;
		double cb = (-43 * p[0] - 85 * p[1] + 128 * p[2] - body_cb) / 256.0;
		double cr = (128 * p[0] - 107 * p[1] - 21 * p[2] - body_cr) / 256.0;
		int dd = (int)(CHROMA_GAIN * sqrt(cb * cb + cr * cr));
		cdist[i] = dd > 255 ? 255 : dd;
		if (in[i])
			chist[cdist[i]]++;
	}
	int otsu_c = otsu(chist, 256);
	int *lab = scratch, *stack = scratch + bn;
	int ret = 0;
	/* Method B: pixels unlike the body inside the die's eroded region,
	 * in blobs that do not touch its rim (the lit edges, the sides). */
	uint8_t *pmb = malloc(bn);
	uint8_t *inner = malloc(bn);
	if (!pmb || !inner) {
		free(pmb);
		free(inner);
		free(cdist);
		free(in);
		free(pm);
		free(tmp);
		free(dist);
		return -ENOMEM;
	}
	memcpy(inner, in, bn);
	int erode = (int)(side * RIM_FRAC + 0.5);
	if (erode < 1)
		erode = 1;
	box_filter(inner, tmp, bw, bh, erode, 0);
	double best_conf = -1;
	struct vis_die best = *d;
	best.face = 0;
	best.confidence = 0;
	struct pip best_pips[6];
	int best_np = 0;
	/* Otsu's threshold, and a lower and a higher one: faint pips and pips
	 * merging with shaded edges each need another. The layout fit decides. */
	static const int thr_pct[] = { THR_PCTS };
	const size_t nthr = sizeof thr_pct / sizeof thr_pct[0];
	double rgb_conf = 0;	/* the colour readings' best confidence */
	int best_kind = 0;	/* the best reading came from the chroma pass */
	for (size_t ti = 0; ti < nthr * DIST_KINDS && !ret; ti++) {
		if (ti == nthr) {
			if (best.confidence >= CHROMA_WHEN)
				break;
			rgb_conf = best.confidence;
		}
		const int *dk = ti < nthr ? dist : cdist;	/* this pass's distance */
		int thr = (ti < nthr ? otsu_thr : otsu_c) * thr_pct[ti % nthr] / 100;
		if (thr < PIP_MIN_THR)
			thr = PIP_MIN_THR;
		/* Pips are holes in the die's top: pieces unlike the body colour
		 * that the body surrounds. The table, a neighbour and the die's own
		 * shaded sides reach the box's edge and so are not holes. */
		for (size_t i = 0; i < bn; i++)
			tmp[i] = dk[i] > thr;
		int nl = components(tmp, lab, stack, bw, bh);
		int *info = calloc((size_t)nl + 1, 3 * sizeof(int));
		if (!info) {
			ret = -ENOMEM;
			break;
		}
		for (size_t i = 0; i < bn; i++) {
			int l = lab[i];
			if (!l)
				continue;
			int x = (int)(i % bw), y = (int)(i / bw);
			if (x == 0 || y == 0 || x == bw - 1 || y == bh - 1)
				info[3 * l] = 1;
			const uint8_t *p = wk->smooth + ((size_t)(y + y0) * w + (x + x0)) * 3;
			info[3 * l + 1] += (77 * p[0] + 150 * p[1] + 29 * p[2]) >> 8;
			info[3 * l + 2]++;
		}
		/* Pip mask per polarity: 1 darker than the body, 2 lighter. */
		memset(pm, 0, bn);
		for (size_t i = 0; i < bn; i++) {
			int l = lab[i];
			if (!l || info[3 * l])
				continue;
			pm[i] = info[3 * l + 1] < body_luma * info[3 * l + 2] ? 1 : 2;
		}
		free(info);
		for (size_t i = 0; i < bn; i++) {
			pmb[i] = 0;
			if (!inner[i] || dk[i] <= thr)
				continue;
			int y = (int)(i / bw) + y0, x = (int)(i % bw) + x0;
			const uint8_t *p = wk->smooth + ((size_t)y * w + x) * 3;
			int l = (77 * p[0] + 150 * p[1] + 29 * p[2]) >> 8;
			pmb[i] = l < body_luma ? 1 : 2;
		}
		for (int method = 0; method < 2; method++) {
			const uint8_t *mask = method ? pmb : pm;
			for (int pol = 1; pol <= 2; pol++) {
				struct pip pips[7];
				int np = collect_pips(mask, pol, method ? inner : NULL, bw, bh, x0, y0, side,
						      tmp, lab, stack, pips);
				if (np < 1 || np > 6)
					continue;
				/* Chroma's few-pip readings are a side face's pip or a
				 * highlight as often as a die's: they only fill in. */
				if (ti >= nthr && np <= CHROMA_MIN_NP && rgb_conf >= PICK_CONF)
					continue;
				struct vis_die t = *d;
				read_face(pips, np, side, c->cx, c->cy, &t);
				/* Pips are missed far more often than invented: of the
				 * readings that fit, the one with most pips wins. */
				double score = t.confidence + (t.confidence >= PICK_CONF ? t.face : 0);
				if (score > best_conf) {
					best_conf = score;
					best = t;
					memcpy(best_pips, pips, (size_t)np * sizeof pips[0]);
					best_np = np;
					best_kind = ti >= nthr;
				}
			}
		}
	}
	free(pmb);
	free(inner);
	free(cdist);
	if (!ret && best_np >= 1 && best.confidence > 0) {
		/* A second check of the blob reading against the die itself. */
		double lo, hi, g[9], spread;
		double blen[2] = { side, side };
		double ba = body_angle(in, bw, bh, &spread, blen);
		int mask = 0;
		layout_grid(dist, bw, bh, x0, y0, best_pips, best_np, side, ba, &lo, &hi, g);
		for (int j = 0; j < best_np; j++)
			mask |= 1 << (int)((layout_pts[best_np][j][1] + 1) * 3 + layout_pts[best_np][j][0] + 1);
		/* The face's grid on the fitted spacing: a richer face holding
		 * these pips whose other pips stand out from its empty points
		 * by far more (a 6 whose middle pair was lost reads as a 4). */
		double own = lo - hi, richer = -1e9;
		int richer_face = 0;
		for (size_t f = 0; f < sizeof grid_faces / sizeof grid_faces[0]; f++) {
			if (grid_faces[f].face <= best.face || (grid_faces[f].mask & mask) != mask)
				continue;
			double flo, m = face_margin(grid_faces[f].mask, g, 0, &flo);

			if (m > richer) {
				richer = m;
				richer_face = grid_faces[f].face;
			}
		}
		/* The grid's axes are the die's edges for every face (a 2's and
		 * a 3's pips lie on the diagonal): a reading whose grid is turned
		 * against the die's outline is a column of a 6 read as a 3, or a
		 * 1 with a side face's pip read as a 2. */
		double skew = grid_angle_diff(ba, best.angle) * 180 / M_PI;
		int askew = best_np >= 2 && spread >= BODY_SPREAD && skew >= SKEW_DEG;
		/* An outline far from square is a die merged with a shadow, a
		 * neighbour or its own side faces: its middle and size, which the
		 * layout was checked against, are doubtful. */
		double aspect = blen[0] > blen[1] ? blen[0] / blen[1] : blen[1] / blen[0];
		/* A 2's pips are alike in size; a side face's pip seen in
		 * perspective is foreshortened to a fraction of the top's. */
		int unequal = best_np == 2 &&
			      (best_pips[0].area > TWO_AREA_RATIO * best_pips[1].area ||
			       best_pips[1].area > TWO_AREA_RATIO * best_pips[0].area);
		if (richer_face && richer - own >= RICHER_MARGIN && richer >= GRID_MARGIN) {
			best.face = richer_face;
			best.confidence = GRID_CONF_MAX;
		} else if (best.face == 2 && (askew || unequal)) {
			/* Of a 1's pip and a side face's, the top face's is the
			 * bigger one (a side face's is foreshortened) or, on a
			 * turned grid, the one nearer the middle: read it as a 1
			 * if it is one. */
			int k = hypot(best_pips[0].x - c->cx, best_pips[0].y - c->cy) <=
					hypot(best_pips[1].x - c->cx, best_pips[1].y - c->cy) ? 0 : 1;
			if (unequal)
				k = best_pips[0].area >= best_pips[1].area ? 0 : 1;
			struct vis_die t = best;
			read_face(&best_pips[k], 1, side, c->cx, c->cy, &t);
			best = t;
			if (best.confidence > SKEW_ONE_CONF)
				best.confidence = SKEW_ONE_CONF;
		} else if (best_np == 1 && own < GRID_MARGIN && best.confidence > ONE_THIN_CONF)
			/* A lone pip is thin evidence: sure only when the rest of
			 * its grid is plain (a 3-5 whose other pips were lost
			 * still shows them faintly). */
			best.confidence = ONE_THIN_CONF;
		else if ((askew || aspect >= BODY_ASPECT) && best.confidence > LOW_N_CAP)
			best.confidence = LOW_N_CAP;
	}
	if (!ret && best.confidence < GRID_FALLBACK) {
		/* No layout from the blobs: read the grid itself. */
		unsigned *sum = calloc((size_t)(bw + 1) * (bh + 1), sizeof(unsigned));
		if (!sum)
			ret = -ENOMEM;
		else {
			for (int y = 0; y < bh; y++)
				for (int x = 0; x < bw; x++)
					sum[(size_t)(y + 1) * (bw + 1) + x + 1] =
						(unsigned)dist[(size_t)y * bw + x] + sum[(size_t)y * (bw + 1) + x + 1] +
						sum[(size_t)(y + 1) * (bw + 1) + x] - sum[(size_t)y * (bw + 1) + x];
			struct vis_die g = *d;
			if (grid_read(sum, bw, bh, x0, y0, c->cx, c->cy, side, GRID_NOFF, 0, 1,
				      GRID_A_MIN, GRID_NA, &g, NULL, NULL) > 0)
				best = g;
			free(sum);
		}
	}
	/* One or two pips seen in hue alone: never sure enough to skip an
	 * official's look (a 4-6 whose other pips were lost, as often as not). */
	if (best_kind && best.face >= 1 && best.face <= 2 && best.confidence > CHROMA_LOW_CAP)
		best.confidence = CHROMA_LOW_CAP;
	*d = best;
	free(in);
	free(pm);
	free(tmp);
	free(dist);
	return ret;
}

/* The k seeds for splitting c: the deepest points of its distance
 * transform (chamfer 3-4), each at least half a part's side from the
 * others. A merged die's middle is deep, its shadow and the neck to its
 * neighbour shallow, so the seeds start inside the dice (the farthest
 * points used before lay on the rim, and the shadows pulled the parts
 * off the dice). Writes mx, my; 0 or -ENOMEM. */
static int dt_seeds(const struct cand *c, int k, int w, double *mx, double *my)
{
	int x0, y0, x1, y1;
	cand_box(c, w, &x0, &y0, &x1, &y1);
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
static int split_cand(const struct cand *c, int k, int w, struct cand *out)
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
static int label_blobs(struct work *wk, struct blob **blobs_out, int *nl_out, int *stack,
		       int *scratch, double max_hole)
{
	int w = wk->w, h = wk->h;
	size_t np = (size_t)w * h;
	/* Fill holes (pips the table's colour): background pieces not
	 * touching the image's edge and smaller than a die. */
	for (size_t i = 0; i < np; i++)
		wk->fg[i] = !wk->fg[i];
	int nh = components(wk->fg, wk->label, stack, w, h);
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
	int nl = components(wk->fg, wk->label, stack, w, h);
	struct blob *blobs = calloc((size_t)nl + 1, sizeof(*blobs));
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
		struct blob *b = &blobs[l];
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
static double typical_side(const struct blob *blobs, int nl, const struct vis_dice_params *params,
			   int pct)
{
	double *sides = malloc(sizeof(double) * ((size_t)nl + 1));
	if (!sides)
		return 0;
	int ns = 0;
	for (int l = 1; l <= nl; l++) {
		const struct blob *b = &blobs[l];
		int bw = b->x1 - b->x0 + 1, bh = b->y1 - b->y0 + 1;
		double s = sqrt((double)b->area);
		double aspect = bw > bh ? (double)bw / bh : (double)bh / bw;
		double fill = (double)b->area / ((double)bw * bh);
		if (s >= params->min_die_px && s <= params->max_die_px && aspect < 1.5 && fill > 0.55)
			sides[ns++] = s;
	}
	double side = ns ? percentile(sides, ns, pct) : 0;
	free(sides);
	return side;
}

/* img averaged over f x f blocks into a new RGB image, the mean rounded
 * down; NULL on ENOMEM. Not vis_image_scaled, which rounds to nearest:
 * the reader's thresholds were set on these pictures, and that half grey
 * level moves about five dice in 400 either way at 2x and 3x. */
static struct vis_image *downscale(const struct vis_image *img, int f)
{
	struct vis_image *o = vis_image_new(img->width / f, img->height / f, VIS_RGB24);
	if (!o)
		return NULL;
	for (int y = 0; y < o->height; y++)
		for (int x = 0; x < o->width; x++)
			for (int c = 0; c < 3; c++) {
				unsigned sum = 0;
				for (int dy = 0; dy < f; dy++) {
					const uint8_t *r = img->data + (size_t)(y * f + dy) * img->stride;
					for (int dx = 0; dx < f; dx++)
						sum += img->format == VIS_RGB24 ? r[(size_t)(x * f + dx) * 3 + c]
										: r[x * f + dx];
				}
				o->data[(size_t)y * o->stride + 3 * (size_t)x + c] = (uint8_t)(sum / (unsigned)(f * f));
			}
	return o;
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
static int second_look(const struct work *wk, double S, struct vis_die *dice, int *nd, int cap)
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
			double m = grid_read(sumw, ww, ww, cx - hw, cy - hw, cx, cy, S, 0, 1, LOOK_MIN_FACE,
					     LOOK_A_MIN, LOOK_NA, &d, &mask, &a);
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

/* The net's readings of one picture, by the find's place and size: both
 * guesses of the typical die mostly find the same dice, and the net is a
 * third of a reading's time. */
struct net_memo {
	int n, cap;
	struct net_seen {
		double x, y, side;
		float p[VIS_FNET_CLASSES];
	} *seen;		/* owned */
};

/* The net's class probabilities for find d into p, averaged over
 * NET_TURNS quarter turns, from memo when it has read the same find. */
static void net_read(const struct vis_image *img, const struct vis_die *d, struct net_memo *memo,
		     float p[VIS_FNET_CLASSES])
{
	for (int i = 0; i < memo->n; i++)
		if (memo->seen[i].x == d->x && memo->seen[i].y == d->y && memo->seen[i].side == d->side) {
			memcpy(p, memo->seen[i].p, sizeof(float) * VIS_FNET_CLASSES);
			return;
		}
	uint8_t crop[VIS_FNET_SIDE * VIS_FNET_SIDE * 3];
	memset(p, 0, sizeof(float) * VIS_FNET_CLASSES);
	for (int t = 0; t < NET_TURNS; t++) {
		float q[VIS_FNET_CLASSES];
		vis_fnet_crop(img, d->x, d->y, VIS_FNET_SPAN * d->side, t * M_PI / 2, crop);
		vis_fnet_classify(crop, q);
		for (int k = 0; k < VIS_FNET_CLASSES; k++)
			p[k] += q[k] / NET_TURNS;
	}
	if (memo->n == memo->cap) {
		int cap = memo->cap ? 2 * memo->cap : 64;
		struct net_seen *grown = realloc(memo->seen, sizeof(*grown) * (size_t)cap);
		if (!grown)
			return;	/* only the memo is lost: read again if asked */
		memo->seen = grown;
		memo->cap = cap;
	}
	struct net_seen *e = &memo->seen[memo->n++];
	e->x = d->x;
	e->y = d->y;
	e->side = d->side;
	memcpy(e->p, p, sizeof(float) * VIS_FNET_CLASSES);
}

/* Two witnesses to one die's face: the pip reader's count and layout
 * (d->face, 0 when it read none, and d->confidence), and the face net's
 * probabilities for the crop around the die, averaged over the crop's
 * four quarter turns (the net was trained at every angle; the turns
 * smooth out what one angle of its 40x40 pixels catches). Agreeing, the
 * surer of them stands. Disagreeing, the net wins when it is
 * fairly sure (on the tuning photos it was right about as often as the
 * pips then, but its sure answers far more often), the pips when they
 * are and the net does not rule their face out; otherwise nobody can
 * say, and the die is unreadable (face 0), or no die at all (-1) when the
 * net sees none centred there. A face only one of them gives is never
 * given as sure (0.9). */
static void weigh_net(const struct vis_image *img, struct vis_die *d, struct net_memo *memo)
{
	float p[VIS_FNET_CLASSES] = { 0 };
	net_read(img, d, memo, p);
	int nf = 1;
	for (int k = 2; k <= 6; k++)
		if (p[k] > p[nf])
			nf = k;
	double q = p[nf];
	if (d->face > 0 && d->face == nf) {
		/* Agreeing, the surer of the two: their errors are not
		 * independent (both lose the pips a highlight hides), so
		 * 1 - (1 - a)(1 - b) gave wrong faces at 0.9 and more. */
		if (q > d->confidence)
			d->confidence = q;
		return;
	}
	if (q >= NET_ALONE) {
		d->face = nf;
		d->confidence = q * NET_ALONE_SCALE;
		return;
	}
	if (d->face > 0 && d->confidence >= NET_PIP_KEEP && p[d->face] >= NET_PIP_KEEP_P) {
		/* under 0.9 even from pips sure to 1.0: one witness */
		d->confidence = fmin(d->confidence * NET_PIP_SCALE, 0.89);
		return;
	}
	/* Read by neither. A die all the same, or something else the
	 * detector found? Reported unreadable (keep_unreadable) only when the
	 * net finds a die there more likely than not: on the photos the real
	 * dice left unread were at "no die" 0.26 or less, the other finds
	 * (mostly the tray's screw holes) at 0.83 or more, but three. */
	d->face = p[0] >= NET_NOT_A_DIE ? -1 : 0;
	d->confidence = 0;
}

/* Whether a reads its die better than b: a face over none, then the surer. */
static int reads_better(const struct vis_die *a, const struct vis_die *b)
{
	if ((a->face > 0) != (b->face > 0))
		return a->face > 0;
	return a->confidence > b->confidence;
}

/* One die found twice (a body split in two at its shadow or a highlight,
 * a second look beside the first) would be counted twice, once perhaps at
 * a face read from half of it. Of finds nearer than SAME_DIE_FRAC of a
 * side the one that reads the die better stays; the other is dropped
 * (face -1). Best first, so that only a find that stays drops another;
 * 0 or -ENOMEM. On the tuning photos such pairs lay at up to 0.74 of a
 * side, two dice at 0.77 and more. */
static int drop_seen_twice(struct vis_die *all, int n)
{
	uint8_t *kept = calloc((size_t)n + 1, 1);
	if (!kept)
		return -ENOMEM;
	for (;;) {
		int best = -1;
		for (int i = 0; i < n; i++)
			if (all[i].face >= 0 && !kept[i] && (best < 0 || reads_better(&all[i], &all[best])))
				best = i;
		if (best < 0)
			break;
		kept[best] = 1;
		for (int j = 0; j < n; j++)
			if (all[j].face >= 0 && !kept[j] &&
			    hypot(all[best].x - all[j].x, all[best].y - all[j].y) <
				    SAME_DIE_FRAC * fmax(all[best].side, all[j].side))
				all[j].face = -1;
	}
	free(kept);
	return 0;
}

/* A reading of img into out (at most max written; how many found, or a
 * negative errno with a message), arg saying how. params is not NULL. */
typedef int (*reading_fn)(const struct vis_image *img, void *arg, const struct vis_dice_params *params,
			  struct vis_die *out, int max, char *err, size_t errlen);

/* Whether vis_dice_find can read img, with a message when not. */
static int image_ok(const struct vis_image *img, char *err, size_t errlen)
{
	if (!img || !img->data || img->width < 8 || img->height < 8 ||
	    (img->format != VIS_GRAY8 && img->format != VIS_RGB24) ||
	    img->width > VIS_MAX_SIDE || img->height > VIS_MAX_SIDE) {
		snprintf(err, errlen, "dice: image missing, below 8x8 or of an unknown format");
		return 0;
	}
	return 1;
}

/* How much a reading of a picture says: the confidence of its faces read
 * surely (0.9 or more). Pips taken for dice give many doubtful 1s, not
 * sure faces. */
static double reading_weight(const struct vis_die *d, int n)
{
	double w = 0;
	for (int i = 0; i < n; i++)
		if (d[i].face > 0 && d[i].confidence >= 0.9)
			w += d[i].confidence;
	return w;
}

/* How many dice a whole reading is held to (at least 512, at most 4096)
 * when the caller asks for max. */
static int reading_cap(int max)
{
	return max < 512 ? 512 : max > 4096 ? 4096 : max;
}

/* The median side of n dice found; 0 when there are none (perhaps all
 * too small to be found). */
static double median_side(const struct vis_die *d, int n)
{
	if (n <= 0)
		return 0;
	double *s = malloc(sizeof(double) * (size_t)n);
	if (!s)
		return INFINITY;	/* only spares a second reading, short of memory */
	for (int i = 0; i < n; i++)
		s[i] = d[i].side;
	double m = percentile(s, n, 50);
	free(s);
	return m;
}

/* img read two ways, fa(arga) and fb(argb), the second only when the
 * first's finds (read or not) have a median side below `below` (INFINITY:
 * always; none found: always) and memory allows, and
 * kept only when its sure faces' confidences sum to READ_AGAIN_MARGIN
 * more (about one more die read surely), the first being the one the
 * reader was made for. Both are weighed whole, up to 4096 dice (no more
 * are given). */
static int read_better(const struct vis_image *img, reading_fn fa, void *arga, reading_fn fb, void *argb,
		       double below, const struct vis_dice_params *params, struct vis_die *out, int max,
		       char *err, size_t errlen)
{
	int cap = reading_cap(max), keep = max > 0 ? max : 0;
	struct vis_die *a = malloc(sizeof(*a) * (size_t)cap), *b = malloc(sizeof(*b) * (size_t)cap);
	int na = -ENOMEM, nb;
	if (!a || !b) {
		snprintf(err, errlen, "dice: out of memory for a %dx%d image", img->width, img->height);
		goto free_ab;
	}
	na = fa(img, arga, params, a, cap, err, errlen);
	if (na < 0)
		goto free_ab;
	if (below < INFINITY && !(median_side(a, na < cap ? na : cap) < below))
		goto keep_a;
	nb = fb(img, argb, params, b, cap, err, errlen);
	if (nb == -ENOMEM)
		goto keep_a;	/* the second reading is a check the first stands without */
	if (nb < 0) {
		na = nb;
		goto free_ab;
	}
	if (reading_weight(b, nb < cap ? nb : cap) > reading_weight(a, na < cap ? na : cap) + READ_AGAIN_MARGIN) {
		struct vis_die *t = a;
		a = b;
		b = t;
		na = nb;
	}
keep_a:
	if (na > cap)
		na = cap;	/* what was kept of a reading beyond 4096 dice */
	if (keep > 0)
		memcpy(out, a, sizeof(*a) * (size_t)(na < keep ? na : keep));
free_ab:
	free(a);
	free(b);
	return na;
}

/* One guess of the typical die for dice_guess: the picture's front half
 * (dice_front), the die side, the net's readings so far. */
struct guess {
	struct work *wk;
	double side;
	struct net_memo *memo;
};

static int dice_front(const struct vis_image *img, const struct vis_dice_params *params, struct work *wk,
		      double side[2]);
static int dice_guess(const struct vis_image *img, void *arg, const struct vis_dice_params *params,
		      struct vis_die *out, int max, char *err, size_t errlen);

/* img at its own size, under both guesses of the typical die (the
 * median square blob, or a smaller one: in a heap of dice of two sizes
 * most square blobs can be pairs of the small ones, which are then taken
 * for one die and not split). Everything up to the die's size is done
 * once, and a die both find is shown to the net once. */
static int find_sized(const struct vis_image *img, void *unused, const struct vis_dice_params *params,
		      struct vis_die *out, int max, char *err, size_t errlen)
{
	(void)unused;
	if (!image_ok(img, err, errlen))
		return -EINVAL;	/* a picture downscaled below 8 a side */
	struct work wk = { .w = img->width, .h = img->height };
	struct net_memo memo = { 0 };
	double side[2];
	int ret = dice_front(img, params, &wk, side);
	if (ret < 0) {
		snprintf(err, errlen, "dice: out of memory for a %dx%d image", img->width, img->height);
		goto free_work;
	}
	struct guess median = { &wk, side[0], &memo }, smaller = { &wk, side[1], &memo };
	if (side[1] == side[0])	/* the same reading twice */
		ret = dice_guess(img, &median, params, out, max, err, errlen);
	else
		ret = read_better(img, dice_guess, &median, dice_guess, &smaller, INFINITY, params, out, max, err,
				  errlen);
free_work:
	free(memo.seen);
	work_free(&wk);
	return ret;
}

/* resized (a copy of img, one of its pixels `per` of img's; freed here,
 * NULL when it could not be made) read, the dice found given in img's
 * pixels. */
static int find_resized(const struct vis_image *img, struct vis_image *resized, double per,
			const struct vis_dice_params *params, struct vis_die *out, int max, char *err,
			size_t errlen)
{
	if (!resized) {
		int e = errno == EINVAL ? EINVAL : ENOMEM;
		snprintf(err, errlen, "dice: %s for a %dx%d image read at %g times its size",
			 e == EINVAL ? "no resized copy" : "out of memory", img->width, img->height, 1 / per);
		return -e;
	}
	int n = find_sized(resized, NULL, params, out, max, err, errlen);
	vis_image_free(resized);
	for (int i = 0; i < n && i < max; i++) {
		out[i].x = (out[i].x + 0.5) * per - 0.5;
		out[i].y = (out[i].y + 0.5) * per - 0.5;
		out[i].side *= per;
	}
	return n;
}

/* img read box-averaged f x f (*(int *)arg). */
static int find_downscaled(const struct vis_image *img, void *arg, const struct vis_dice_params *params,
			   struct vis_die *out, int max, char *err, size_t errlen)
{
	int f = *(const int *)arg;
	if (f == 1)
		return find_sized(img, NULL, params, out, max, err, errlen);
	return find_resized(img, downscale(img, f), f, params, out, max, err, errlen);
}

/* img read enlarged twice. */
static int find_enlarged(const struct vis_image *img, void *unused, const struct vis_dice_params *params,
			 struct vis_die *out, int max, char *err, size_t errlen)
{
	(void)unused;
	return find_resized(img, vis_image_scaled(img, 2), 0.5, params, out, max, err, errlen);
}

/* vis_dice_find with every find reported, read or not (params'
 * keep_unreadable set): whether a picture is read again depends on all
 * it found. */
static int find_all(const struct vis_image *img, const struct vis_dice_params *params, struct vis_die *out,
		    int max, char *err, size_t errlen)
{
	/* A big photo is read at most DICE_MAX_SIDE a side (box-averaged): its
	 * dice stay well above min_die_px, time and memory stay bounded. */
	int side = img->width > img->height ? img->width : img->height;
	int f = (side + DICE_MAX_SIDE - 1) / DICE_MAX_SIDE;
	if (side <= TWO_SCALES_FROM) {
		/* Dice far smaller than the photos' (21-49 pixels) lose their
		 * pips to the blur and the 1-pixel clean-up, and fall below
		 * min_die_px: such a picture, or one where nothing was found,
		 * is read enlarged too. */
		return read_better(img, find_sized, NULL, find_enlarged, NULL, SMALL_DIE_PX, params, out, max,
				   err, errlen);
	}
	if (side / f <= TWO_SCALES_FROM)	/* just over DICE_MAX_SIDE: halved is enough */
		return find_downscaled(img, &f, params, out, max, err, errlen);
	/* A big picture's dice may be far bigger than the reader was made
	 * for (the photos' 21-49 pixels): white dice on a pale tray then
	 * show only their pips, taken for dice. It is read at half size too,
	 * kept when it reads more (more dice can be too small there). */
	int half = 2 * f;
	return read_better(img, find_downscaled, &f, find_downscaled, &half, INFINITY, params, out, max, err,
			   errlen);
}

int vis_dice_find(const struct vis_image *img, const struct vis_dice_params *params,
		  struct vis_die *out, int max, char *err, size_t errlen)
{
	struct vis_dice_params p;
	if (params)
		p = *params;
	else
		vis_dice_params_default(&p);
	if (!image_ok(img, err, errlen))
		return -EINVAL;
	if (p.keep_unreadable)
		return find_all(img, &p, out, max, err, errlen);
	p.keep_unreadable = 1;
	int cap = reading_cap(max);
	struct vis_die *all = malloc(sizeof(*all) * (size_t)cap);
	if (!all) {
		snprintf(err, errlen, "dice: out of memory for a %dx%d image", img->width, img->height);
		return -ENOMEM;
	}
	int n = find_all(img, &p, all, cap, err, errlen), found = n < 0 ? n : 0;
	for (int i = 0; i < n && i < cap; i++)
		if (all[i].face > 0) {
			if (found < max)
				out[found] = all[i];
			found++;
		}
	free(all);
	return found;
}

/* The half of a reading that does not depend on the die's size: the
 * picture copied and blurred, its background and integral images, the die
 * bodies (wk->bodies), and the typical die side at the SIDE_PCT-th and the
 * SIDE_PCT_SMALL-th percentile of the square blobs' sides (0: none). wk
 * comes with w and h set and is the caller's to free (work_free), also
 * on failure. 0 or -ENOMEM. */
static int dice_front(const struct vis_image *img, const struct vis_dice_params *params, struct work *wk,
		      double side[2])
{
	int w = wk->w, h = wk->h;
	size_t np = (size_t)w * h;
	wk->rgb = malloc(np * 3);
	wk->bg = malloc(np * 3);
	wk->fg = malloc(np);
	wk->smooth = malloc(np * 3);
	wk->fg0 = malloc(np);
	wk->bodies = malloc(np);
	wk->label = malloc(np * sizeof(int));
	wk->stack = malloc(np * sizeof(int));
	wk->scratch = malloc(np * 2 * sizeof(int));
	if (!wk->rgb || !wk->smooth || !wk->bg || !wk->fg || !wk->fg0 || !wk->bodies || !wk->label ||
	    !wk->stack || !wk->scratch)
		return -ENOMEM;
	for (int y = 0; y < h; y++) {
		const uint8_t *s = img->data + (size_t)y * img->stride;
		uint8_t *d = wk->rgb + (size_t)y * w * 3;
		if (img->format == VIS_RGB24)
			memcpy(d, s, (size_t)w * 3);
		else
			for (int x = 0; x < w; x++)
				d[3 * x] = d[3 * x + 1] = d[3 * x + 2] = s[x];
	}
	blur3(wk->rgb, wk->smooth, w, h);
	if (background(wk) || integrals(wk))
		return -ENOMEM;
	/* Foreground threshold from the image's own noise: the median
	 * distance to the background is mostly table texture. */
	unsigned hist[256] = { 0 };
	for (size_t i = 0; i < np; i++) {
		int d = color_dist(wk->rgb + i * 3, wk->bg + i * 3);
		hist[d > 255 ? 255 : d]++;
	}
	size_t acc = 0;
	int med = 0;
	for (int k = 0; k < 256; k++) {
		acc += hist[k];
		if (acc > np / 2) {
			med = k;
			break;
		}
	}
	int thr = FG_K * med + FG_C;
	if (thr < FG_MIN)
		thr = FG_MIN;
	for (size_t i = 0; i < np; i++)
		wk->fg[i] = color_dist(wk->rgb + i * 3, wk->bg + i * 3) > thr &&
			   !is_shadow(wk->rgb + i * 3, wk->bg + i * 3);
	uint8_t *mtmp = (uint8_t *)wk->scratch;
	/* Close then open by one pixel: joins a die's speckled edge, drops
	 * single-pixel noise. */
	box_filter(wk->fg, mtmp, w, h, 1, 1);
	box_filter(wk->fg, mtmp, w, h, 1, 0);
	box_filter(wk->fg, mtmp, w, h, 1, 0);
	box_filter(wk->fg, mtmp, w, h, 1, 1);
	struct blob *blobs = NULL;
	int nl = 0;
	if (label_blobs(wk, &blobs, &nl, wk->stack, wk->scratch, 0.35 * params->max_die_px * params->max_die_px))
		return -ENOMEM;
	side[0] = typical_side(blobs, nl, params, SIDE_PCT);
	side[1] = typical_side(blobs, nl, params, SIDE_PCT_SMALL);
	free(blobs);
	for (size_t i = 0; i < np; i++)
		wk->bodies[i] = wk->label[i] != 0;
	return 0;
}

/* One reading of img (*(struct guess *)arg: its front half from
 * dice_front, the typical die side): the bodies opened at the die's size
 * and split into dice, each read by its pips, a second look for the dice
 * the bodies missed, the net weighed in. Changes the guess's fg, fg0,
 * label, stack and scratch, nothing else of its work. */
static int dice_guess(const struct vis_image *img, void *arg, const struct vis_dice_params *params,
		      struct vis_die *out, int max, char *err, size_t errlen)
{
	struct guess *g = arg;
	struct work *wk = g->wk;
	double side = g->side;
	if (side <= 0)
		return 0;	/* no square blob: no die */
	int ret = -ENOMEM;
	int w = wk->w, h = wk->h;
	size_t np = (size_t)w * h;
	int *stack = wk->stack, *scratch = wk->scratch, *order = NULL, *start = NULL;
	struct blob *blobs = NULL;
	struct cand *cands = NULL;
	struct vis_die *all = NULL;
	int ncand = 0, found = 0, nl = 0;
	/* An opening at half the die's size cuts dice off the thin things
	 * they touch (a tray's wall, a line, a shadow's tail) and drops
	 * those. */
	memcpy(wk->fg0, wk->bodies, np);
	memcpy(wk->fg, wk->bodies, np);
	int r = (int)(side * OPEN_FRAC);
	if (r >= 1) {
		box_filter(wk->fg, (uint8_t *)scratch, w, h, r, 0);
		box_filter(wk->fg, (uint8_t *)scratch, w, h, r, 1);
	}
	if (label_blobs(wk, &blobs, &nl, stack, scratch, 0.35 * params->max_die_px * params->max_die_px))
		goto oom;
	/* Pixels of each blob, grouped by label. */
	order = malloc(sizeof(int) * np);
	start = calloc((size_t)nl + 2, sizeof(int));
	if (!order || !start)
		goto oom;
	for (int l = 1; l <= nl; l++)
		start[l + 1] = start[l] + blobs[l].area;
	{
		int *fillp = malloc(sizeof(int) * ((size_t)nl + 2));
		if (!fillp)
			goto oom;
		memcpy(fillp, start, sizeof(int) * ((size_t)nl + 2));
		for (size_t i = 0; i < np; i++)
			if (wk->label[i])
				order[fillp[wk->label[i]]++] = (int)i;
		free(fillp);
	}
	cands = calloc((size_t)nl * 8 + 1, sizeof(*cands));
	if (!cands)
		goto oom;
	double die_area = side * side;
	for (int l = 1; l <= nl; l++) {
		struct blob *b = &blobs[l];
		if (b->area < 0.4 * die_area || b->area > 8.5 * die_area)
			continue;
		int bw = b->x1 - b->x0 + 1, bh = b->y1 - b->y0 + 1;
		double fill = (double)b->area / ((double)bw * bh);
		double aspect = bw > bh ? (double)bw / bh : (double)bh / bw;
		/* A square blob is one die, whatever its size (dice differ and
		 * perspective changes them); others are split by area. */
		int k = (int)(b->area / die_area + 0.35);
		if (k < 2 || (aspect < SPLIT_ASPECT && fill > SPLIT_FILL && b->area < SPLIT_MAX * die_area))
			k = 1;
		/* Too long for one die (dropped below) yet a die's area or
		 * more and not a strip (a wall, a line): two dice side by
		 * side, their outlines merged. */
		if (k == 1 && aspect > LONG_ASPECT && aspect < LONG_PAIR_ASPECT &&
		    b->area >= LONG_PAIR_MIN * die_area)
			k = 2;
		struct cand whole = { .px = order + start[l], .n = b->area, .cx = b->cx, .cy = b->cy };
		if (k == 1) {
			if (aspect > LONG_ASPECT || fill < 0.45)
				continue;
			cands[ncand].px = malloc(sizeof(int) * (size_t)b->area);
			if (!cands[ncand].px)
				goto oom;
			memcpy(cands[ncand].px, whole.px, sizeof(int) * (size_t)b->area);
			cands[ncand].n = b->area;
			cands[ncand].cx = b->cx;
			cands[ncand].cy = b->cy;
			ncand++;
		} else {
			if (k > 8)
				continue;
			if (split_cand(&whole, k, w, cands + ncand))
				goto oom;
			ncand += k;
		}
	}
	int cap = ncand + LOOK_MAX;
	all = malloc(sizeof(*all) * (size_t)cap);
	if (!all)
		goto oom;
	int nall = 0;
	for (int i = 0; i < ncand; i++) {
		struct vis_die d = {
			.x = cands[i].cx,
			.y = cands[i].cy,
			.side = sqrt((double)cands[i].n),
		};
		if (cands[i].n < 0.3 * die_area)
			continue;
		if (read_die(wk, &cands[i], d.side, &d, scratch))
			goto oom;
		if (d.confidence < params->min_confidence)
			d.face = 0;
		all[nall++] = d;
	}
	/* The dice read surely give the size to look for the rest at. */
	{
		double *sides = malloc(sizeof(double) * ((size_t)nall + 1));
		if (!sides)
			goto oom;
		int nsd = 0;
		for (int i = 0; i < nall; i++)
			if (all[i].face > 0 && all[i].confidence >= 0.9)
				sides[nsd++] = all[i].side;
		double S = nsd >= 3 ? percentile(sides, nsd, 50) : side;
		free(sides);
		int before = nall;
		/* Doubtful readings (a 1 or a 2: most wrong faces are 4-6s
		 * with pips lost) are looked at again: shown to second_look
		 * as -face, replaced by a reading with more pips (-7). */
		for (int i = 0; i < nall; i++)
			if (all[i].face > 0 && all[i].face <= LOOK_WEAK_FACE && all[i].confidence < LOOK_WEAK_CONF)
				all[i].face = -all[i].face;
		if (LOOK_ENABLE && S >= params->min_die_px && second_look(wk, S, all, &nall, cap))
			goto oom;
		for (int i = 0; i < before; i++)
			if (all[i].face < 0)
				all[i].face = all[i].face == -7 ? -1 : -all[i].face;
		/* An unreadable body where the second look read a die is that die. */
		for (int i = 0; i < before; i++) {
			if (all[i].face)
				continue;
			for (int j = before; j < nall; j++)
				if (hypot(all[i].x - all[j].x, all[i].y - all[j].y) < 0.5 * S)
					all[i].face = -1;
		}
	}
	/* The net's reading of every die found, weighed against the pips'. */
	for (int i = 0; i < nall && !params->pips_only; i++)
		if (all[i].face >= 0) {
			weigh_net(img, &all[i], g->memo);
			if (all[i].face > 0 && all[i].confidence < params->min_confidence)
				all[i].face = 0;
		}
	if (drop_seen_twice(all, nall))
		goto oom;
	for (int i = 0; i < nall; i++) {
		struct vis_die d = all[i];
		if (d.face < 0 || (d.face == 0 && !params->keep_unreadable))
			continue;
		if (found < max)
			out[found] = d;
		found++;
	}
	ret = found;
	goto free_reading;
oom:
	snprintf(err, errlen, "dice: out of memory for a %dx%d image", w, h);
	ret = -ENOMEM;
free_reading:
	if (cands)
		for (int i = 0; i < ncand; i++)
			free(cands[i].px);
	free(cands);
	free(all);
	free(order);
	free(start);
	free(blobs);
	return ret;
}
