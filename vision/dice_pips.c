/*
 * vision: steps 3 to 5 of the dice reader (dice.c tells all nine): a
 * die's pips and their layout, and the reading by the pip grid (the
 * second look's too, dice_look.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/internal.h"

/* Internal constants used in this file only (internal.h says how they
 * were tuned); each may be overridden with -D. */
#ifndef PIP_MIN_THR
#define PIP_MIN_THR 40	/* a pip differs from its body by at least this */
#endif
#ifndef RIM_FRAC
#define RIM_FRAC 0.08	/* rim band ignored by pip method B, of the side */
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
#ifndef GROW_FRAC
#define GROW_FRAC 0.2	/* candidate grown back after the opening, of the side */
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

/* The second look's reading by the grid (vis_dice_grid_read with border): */
#ifndef LOOK_RIM_SLACK
#define LOOK_RIM_SLACK 15	/* ... a rim point may differ this much more than an empty one */
#endif
#ifndef LOOK_LOW_EXTRA
#define LOOK_LOW_EXTRA 20	/* ... and a 2 this much more margin than in a body */
#endif
#ifndef LOOK_THREE_EXTRA
#define LOOK_THREE_EXTRA 10	/* ... and a 3 (a 2 and a corner) this much more */
#endif
#ifndef LOOK_ONE_EXTRA
#define LOOK_ONE_EXTRA 40	/* ... and a 1 (a lone spot on a plain face) this much more */
#endif
#ifndef LOOK_RIM
#define LOOK_RIM 1.6	/* ... rim points on the axes, of the pip spacing */
#endif
#ifndef LOOK_RIM_D
#define LOOK_RIM_D 1.45	/* ... and on the diagonals */
#endif

/* ---- 3 and 4. pips and layout ---- */

struct pip {
	double x, y;		/* centre, pixels */
	int area;		/* pixels */
};

/* The canonical layouts (internal.h): vis_render draws the same ones. */
const double vis_pip_layout[7][6][2] = {
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
		tr2 += vis_pip_layout[n][j][0] * vis_pip_layout[n][j][0] +
		       vis_pip_layout[n][j][1] * vis_pip_layout[n][j][1];
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
				double du = u[i] - vis_pip_layout[n][j][0], dv = v[i] - vis_pip_layout[n][j][1];
				double d = du * du + dv * dv;
				if (d < m)
					m = d;
			}
			cost += m;
		}
		for (int j = 0; j < n; j++) {
			double m = 1e9;
			for (int i = 0; i < n; i++) {
				double du = u[i] - vis_pip_layout[n][j][0], dv = v[i] - vis_pip_layout[n][j][1];
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
				if (vis_pip_layout[n][j][0] == gu && vis_pip_layout[n][j][1] == gv)
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
	int nl = vis_dice_components(tmp, lab, stack, bw, bh);
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
double vis_dice_grid_read(const unsigned *sum, int bw, int bh, int x0, int y0, double cx, double cy,
			  double side, int noff, int border, int min_face, double a_min, int na,
			  struct vis_die *d, int *mask_out, double *a_out)
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

/* Finds the pips of one die candidate and reads its face. scratch holds
 * at least 4 * (bbox pixels) ints. */
int vis_dice_read_die(const struct vis_dice_work *wk, const struct vis_dice_cand *c, double side,
		      struct vis_die *d, int *scratch)
{
	int w = wk->w, h = wk->h;
	int x0, y0, x1, y1;
	vis_dice_cand_box(c, w, &x0, &y0, &x1, &y1);
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
		vis_dice_box_filter(in, tmp, bw, bh, grow, 1);
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
	vis_dice_box_filter(inner, tmp, bw, bh, erode, 0);
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
		int nl = vis_dice_components(tmp, lab, stack, bw, bh);
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
		double ba = vis_dice_body_angle(in, bw, bh, &spread, blen);
		int mask = 0;
		layout_grid(dist, bw, bh, x0, y0, best_pips, best_np, side, ba, &lo, &hi, g);
		for (int j = 0; j < best_np; j++)
			mask |= 1 << (int)((vis_pip_layout[best_np][j][1] + 1) * 3 + vis_pip_layout[best_np][j][0] + 1);
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
			if (vis_dice_grid_read(sum, bw, bh, x0, y0, c->cx, c->cy, side, GRID_NOFF, 0, 1,
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
