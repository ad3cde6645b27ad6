/* vision: reading the face of one die whose place and size are known.
 *
 * The general finder (dice*.c) must first tell dice from their background,
 * and a white die on the white centre line, or pressed against a cup's
 * rim, has no background to be told from. Here the camera already knows
 * that exactly one die lies near (u, v) and how many pixels its side
 * spans, so nothing is segmented: the pips alone are looked for. A pip is
 * a small spot darker (or lighter) than its surroundings in every
 * direction; a straight edge (the line, the die's own outline) or a wide
 * rim is darker than its surroundings on one side only, so it is not one.
 * Every centre and angle near the point is tried with the seven pip
 * places of a die (a 3 x 3 grid, 0.27 side apart), and the face is the
 * 1-6 layout whose pips stand out most above its empty places. Spots the
 * layout leaves unexplained on the die say the grid is misplaced (a four
 * read as a one centred on one of its pips), and they lower the
 * confidence instead of being ignored.
 *
 * vis_read_face_at, the general finder (vis_dice_find) on a crop around
 * the point, is here too: both read a die the tracker has placed. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/simd.h"
#include "vision/vision.h"

#define FACE_AT_PART 0.75	/* a die read under this fraction of the located size ... */
#define FACE_AT_PART_CONF 0.7	/* ... is at most this sure (vis_read_face_at) */

#define PIP_PITCH 0.27		/* pip grid spacing, die sides (standard dice: 0.25-0.30) */
#define PIP_RADIUS 0.095	/* pip radius, die sides */
#define SEARCH_SIDES 1.5	/* how far from (u, v) the die's centre may lie, die sides */
#define N_ANGLES 12		/* angles tried over the quarter turn, coarsely */
#define MIN_SNR 3.0		/* weakest pip / grain below this: no pips at all */
#define TOP 3			/* coarse placements of each face refined */
#define OWN_PIPS_SIDES 1.2	/* spots this near a centre must be its pips (a 2's are 0.76 apart) */

/* The 3 x 3 pip grid, slot index 3 * row + column, row and column -1..1.
 * Pips come in pairs of slots opposite each other (the centre a pair of
 * its own). */
enum { N_SLOTS = 9, N_LAYOUTS = 9 };
#define P08 1u	/* corners 0 and 8 */
#define P26 2u	/* corners 2 and 6 */
#define P44 4u	/* the centre */
#define P35 8u	/* middles of the left and right sides */
#define P17 16u	/* middles of the top and bottom */

struct layout {
	int face;		/* 1-6 */
	unsigned slots;		/* bit s set: a pip at slot s */
	unsigned pairs;		/* the same as pairs of slots (P08 ...) */
};

/* The faces in any quarter turn: 2, 3 and 6 have two orientations. */
static const struct layout layouts[N_LAYOUTS] = {
	{ 1, 1u << 4, P44 },
	{ 2, 1u << 0 | 1u << 8, P08 },
	{ 2, 1u << 2 | 1u << 6, P26 },
	{ 3, 1u << 0 | 1u << 4 | 1u << 8, P08 | P44 },
	{ 3, 1u << 2 | 1u << 4 | 1u << 6, P26 | P44 },
	{ 4, 1u << 0 | 1u << 2 | 1u << 6 | 1u << 8, P08 | P26 },
	{ 5, 1u << 0 | 1u << 2 | 1u << 4 | 1u << 6 | 1u << 8, P08 | P26 | P44 },
	{ 6, 1u << 0 | 1u << 2 | 1u << 3 | 1u << 5 | 1u << 6 | 1u << 8, P08 | P26 | P35 },
	{ 6, 1u << 0 | 1u << 1 | 1u << 2 | 1u << 6 | 1u << 7 | 1u << 8, P08 | P26 | P17 },
};

/* A window of the image around the point, as floats. */
struct win {
	int x0, y0;		/* its top-left corner in the full image */
	int w, h;		/* size, pixels */
	float *g;		/* luma, smoothed 3 x 3 */
	float *r[2];		/* pip response: [0] dark spots, [1] light spots */
	float *spread[2];	/* the same, maxima over the coarse step (win_spread) */
	double noise;		/* the grain's sd, grey levels (grain_sd) */
};

/* A placed layout: the best of one face over all centres and angles. */
struct hyp {
	double score;		/* weakest pip minus strongest empty place, grey levels */
	double weakest;		/* the weakest pip's response */
	double empty;		/* the strongest empty place (or stray spot) */
	double cx, cy;		/* centre, window pixels */
	double angle;		/* radians in [0, pi/2) */
	int polarity;		/* 0 dark pips, 1 light pips */
	int layout;		/* index in layouts[]: which orientation */
	double pitch;		/* pip spacing placed, pixels (the die's side is off a little) */
	int valid;		/* found at all */
};

static float sample(const float *m, int w, int h, double x, double y)
{
	if (!(x >= 0 && y >= 0 && x <= w - 1.001 && y <= h - 1.001))
		return 0;
	int ix = (int)x, iy = (int)y;
	float fx = (float)(x - ix), fy = (float)(y - iy);
	const float *p = m + (size_t)iy * w + ix;
	return (p[0] * (1 - fx) + p[1] * fx) * (1 - fy) + (p[w] * (1 - fx) + p[w + 1] * fx) * fy;
}

static void win_free(struct win *wn)
{
	free(wn->g);
	free(wn->r[0]);
	free(wn->r[1]);
	free(wn->spread[0]);
	free(wn->spread[1]);
}

/* The sensor's grain, sd in grey levels, from the median absolute
 * difference of horizontal neighbours in the unsmoothed luma (edges are
 * few, so the median ignores them); -1 without memory. */
static double grain_sd(const float *raw, int w, int h)
{
	size_t n = 0, cap = (size_t)w * h;
	float *d = malloc(sizeof(float) * cap);
	if (!d)
		return -1;
	for (int y = 0; y < h; y++)
		for (int x = 0; x + 1 < w; x++)
			d[n++] = fabsf(raw[(size_t)y * w + x + 1] - raw[(size_t)y * w + x]);
	/* partial selection of the median */
	size_t k = n / 2, lo = 0, hi = n - 1;
	while (lo < hi) {
		float piv = d[k];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (d[i] < piv) i++;
			while (d[j] > piv) j--;
			if (i <= j) {
				float t = d[i]; d[i] = d[j]; d[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j) hi = j;
		else if (k >= i) lo = i;
		else break;
	}
	/* a difference of two pixels: sd * sqrt 2; its median |.|: 0.6745 of that */
	double sd = (n ? d[k] : 0) / (0.6745 * M_SQRT2);
	free(d);
	return sd > 0.5 ? sd : 0.5;	/* quantisation's floor */
}

/* Luma of the window, smoothed, and both pip responses: at each pixel the
 * smallest difference to the eight points pip_ring away (a spot must
 * differ from all of its surroundings). */
static int win_fill(struct win *wn, const struct vis_image *full, double pip_ring)
{
	int w = wn->w, h = wn->h;
	float *raw = malloc(sizeof(float) * (size_t)w * h);

	wn->g = calloc((size_t)w * h, sizeof(float));
	wn->r[0] = calloc((size_t)w * h, sizeof(float));
	wn->r[1] = calloc((size_t)w * h, sizeof(float));
	if (!raw || !wn->g || !wn->r[0] || !wn->r[1]) {
		free(raw);
		return -ENOMEM;
	}
	for (int y = 0; y < h; y++) {
		const uint8_t *row = full->data + (size_t)(y + wn->y0) * full->stride +
				     (size_t)wn->x0 * full->format;
		for (int x = 0; x < w; x++) {
			const uint8_t *p = row + (size_t)x * full->format;
			raw[(size_t)y * w + x] = full->format == VIS_RGB24 ?
				(float)(0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]) : p[0];
		}
	}
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			if (y > 0 && y + 1 < h && x == 1) {
				/* inside the window's edges four pixels at a time, in the
				 * scalar sum's order */
				for (; x + 4 < w; x += 4) {
					const float *p = raw + (size_t)(y - 1) * w + x - 1;
					f4 s = { 0, 0, 0, 0 };
					for (int dy = 0; dy < 3; dy++)
						for (int dx = 0; dx < 3; dx++)
							s += load4(p + (size_t)dy * w + dx);
					store4(wn->g + (size_t)y * w + x, s / 9);
				}
				if (x >= w)
					break;
			}
			int ya = y > 0 ? y - 1 : 0, yb = y + 1 < h ? y + 1 : y;
			int xa = x > 0 ? x - 1 : 0, xb = x + 1 < w ? x + 1 : x;
			float s = 0;
			/* the same order as the sum over all nine, edges skipped */
			for (int yy = ya; yy <= yb; yy++)
				for (int xx = xa; xx <= xb; xx++)
					s += raw[(size_t)yy * w + xx];
			wn->g[(size_t)y * w + x] = s / ((yb - ya + 1) * (xb - xa + 1));
		}
	wn->noise = grain_sd(raw, w, h);
	free(raw);
	if (wn->noise < 0)
		return -ENOMEM;

	/* The eight ring points lie at the same fraction of a pixel from every
	 * pixel: their offsets and bilinear weights are worked out once, and
	 * m keeps every one inside the window. */
	ptrdiff_t off[8];
	float fx[8], fy[8];
	for (int k = 0; k < 8; k++) {
		double ox = pip_ring * cos(k * M_PI / 4), oy = pip_ring * sin(k * M_PI / 4);
		double bx = floor(ox), by = floor(oy);
		off[k] = (ptrdiff_t)by * w + (ptrdiff_t)bx;
		fx[k] = (float)(ox - bx);
		fy[k] = (float)(oy - by);
	}
	int m = (int)ceil(pip_ring) + 1;
	for (int y = m; y < h - m; y++) {
		int x = m;
		/* four pixels at a time in vector registers (SSE, NEON), each
		 * lane's arithmetic the scalar loop's below */
		for (; x + 4 <= w - m; x += 4) {
			const float *at = wn->g + (size_t)y * w + x;
			f4 c = load4(at), lo = { 1e9f, 1e9f, 1e9f, 1e9f }, hi = -lo;
			for (int k = 0; k < 8; k++) {
				const float *p = at + off[k];
				f4 d = (load4(p) * (1 - fx[k]) + load4(p + 1) * fx[k]) * (1 - fy[k]) +
				       (load4(p + w) * (1 - fx[k]) + load4(p + w + 1) * fx[k]) * fy[k] - c;
				lo = pick(d < lo, d, lo);
				hi = pick(d > hi, d, hi);
			}
			f4 zero = { 0, 0, 0, 0 };
			store4(wn->r[0] + (size_t)y * w + x, pick(lo > zero, lo, zero));
			store4(wn->r[1] + (size_t)y * w + x, pick(hi < zero, -hi, zero));
		}
		for (; x < w - m; x++) {
			const float *at = wn->g + (size_t)y * w + x;
			float c = *at, lo = 1e9f, hi = -1e9f;
			for (int k = 0; k < 8; k++) {
				const float *p = at + off[k];
				float d = (p[0] * (1 - fx[k]) + p[1] * fx[k]) * (1 - fy[k]) +
					  (p[w] * (1 - fx[k]) + p[w + 1] * fx[k]) * fy[k] - c;
				lo = d < lo ? d : lo;
				hi = d > hi ? d : hi;
			}
			wn->r[0][(size_t)y * w + x] = lo > 0 ? lo : 0;	/* darker than all around */
			wn->r[1][(size_t)y * w + x] = hi < 0 ? -hi : 0;	/* lighter than all around */
		}
	}
	return 0;
}

/* The response's maximum over a square of radius rad around each pixel:
 * a placement on a coarse grid then still meets the pips it nearly hits. */
static int win_spread(struct win *wn, int rad)
{
	int w = wn->w, h = wn->h;
	float *tmp = malloc(sizeof(float) * (size_t)w * h);

	for (int pol = 0; pol < 2; pol++) {
		wn->spread[pol] = malloc(sizeof(float) * (size_t)w * h);
		if (!tmp || !wn->spread[pol]) {
			free(tmp);
			return -ENOMEM;
		}
		const float *r = wn->r[pol];
		/* the window's edges clamp each run once, not each pixel; inside
		 * them four pixels at a time (max is exact in any order) */
		for (int y = 0; y < h; y++) {
			const float *p = r + (size_t)y * w;
			float *t = tmp + (size_t)y * w;
			int x = 0;
			for (; x < w && (x < rad || x + 4 > w - rad); x++) {
				int a = x - rad < 0 ? 0 : x - rad, b = x + rad >= w ? w - 1 : x + rad;
				float m = 0;
				for (int k = a; k <= b; k++)
					m = p[k] > m ? p[k] : m;
				t[x] = m;
			}
			for (; x + 4 <= w - rad; x += 4) {
				f4 m = { 0, 0, 0, 0 };
				for (int k = -rad; k <= rad; k++) {
					f4 v = load4(p + x + k);
					m = pick(v > m, v, m);
				}
				store4(t + x, m);
			}
			for (; x < w; x++) {
				int a = x - rad < 0 ? 0 : x - rad, b = x + rad >= w ? w - 1 : x + rad;
				float m = 0;
				for (int k = a; k <= b; k++)
					m = p[k] > m ? p[k] : m;
				t[x] = m;
			}
		}
		for (int y = 0; y < h; y++) {
			int a = y - rad < 0 ? 0 : y - rad, b = y + rad >= h ? h - 1 : y + rad;
			float *d = wn->spread[pol] + (size_t)y * w;
			for (int x = 0; x < w; x++)
				d[x] = 0;
			for (int k = a; k <= b; k++) {
				const float *p = tmp + (size_t)k * w;
				int x = 0;
				for (; x + 4 <= w; x += 4) {
					f4 v = load4(p + x), o = load4(d + x);
					store4(d + x, pick(v > o, v, o));
				}
				for (; x < w; x++)
					d[x] = p[x] > d[x] ? p[x] : d[x];
			}
		}
	}
	free(tmp);
	return 0;
}

/* Keeps hp among the TOP best of its face in top (best first); a
 * placement within apart pixels of a kept one replaces it only if better,
 * so the list holds distinct places (apart 0: no such merging). */
static void keep(struct hyp top[TOP], const struct hyp *hp, double apart)
{
	int k = TOP - 1;

	/* under every kept one, merging or not: the most frequent case */
	if (top[k].valid && hp->score <= top[k].score)
		return;
	for (int i = 0; i < TOP && apart > 0; i++)
		if (top[i].valid && fabs(top[i].cx - hp->cx) < apart &&
		    fabs(top[i].cy - hp->cy) < apart) {
			if (hp->score <= top[i].score)
				return;
			k = i;	/* replace it, then move it up */
			break;
		}
	if (top[k].valid && hp->score <= top[k].score)
		return;
	top[k] = *hp;
	for (; k > 0 && (!top[k - 1].valid || top[k - 1].score < top[k].score); k--) {
		struct hyp t = top[k - 1];
		top[k - 1] = top[k];
		top[k] = t;
	}
}

/* The pip grid at one angle and spacing: its slots' offsets from the
 * centre, worked out once for the many centres placed with it (sincos
 * and the offsets were a quarter of a read). */
struct grid {
	double ang, pitch;
	double ox[N_SLOTS], oy[N_SLOTS];
	double reach;		/* the largest |offset| of a slot in x or y */
};

static struct grid grid_of(double ang, double pitch)
{
	struct grid g = { .ang = ang, .pitch = pitch };
	double ca = cos(ang), sa = sin(ang);

	for (int s = 0; s < N_SLOTS; s++) {
		double a = (s % 3 - 1) * pitch, b = (s / 3 - 1) * pitch;
		g.ox[s] = ca * a - sa * b;
		g.oy[s] = sa * a + ca * b;
		g.reach = fmax(g.reach, fmax(fabs(g.ox[s]), fabs(g.oy[s])));
	}
	return g;
}

#define MINF(a, b) ((a) < (b) ? (a) : (b))	/* no NaN here: libm's fminf is a call */
#define MAXF(a, b) ((a) > (b) ? (a) : (b))

/* The responses of grid g's slots at (cx, cy) on map r0 into sv0 and,
 * r1 not NULL, on r1 into sv1: the slots' places and weights serve both. */
static void slots_at(const struct win *wn, const float *r0, const float *r1, const struct grid *g,
		     double cx, double cy, float sv0[N_SLOTS], float sv1[N_SLOTS])
{
	if (cx - g->reach >= 0 && cy - g->reach >= 0 && cx + g->reach <= wn->w - 1.001 &&
	    cy + g->reach <= wn->h - 1.001) {
		/* sample() without its test: every slot is inside (most places) */
		for (int s = 0; s < N_SLOTS; s++) {
			double x = cx + g->ox[s], y = cy + g->oy[s];
			int ix = (int)x, iy = (int)y;
			float fx = (float)(x - ix), fy = (float)(y - iy);
			size_t at = (size_t)iy * wn->w + ix;
			const float *p = r0 + at;
			sv0[s] = (p[0] * (1 - fx) + p[1] * fx) * (1 - fy) +
				 (p[wn->w] * (1 - fx) + p[wn->w + 1] * fx) * fy;
			if (r1) {
				p = r1 + at;
				sv1[s] = (p[0] * (1 - fx) + p[1] * fx) * (1 - fy) +
					 (p[wn->w] * (1 - fx) + p[wn->w + 1] * fx) * fy;
			}
		}
		return;
	}
	for (int s = 0; s < N_SLOTS; s++) {
		sv0[s] = sample(r0, wn->w, wn->h, cx + g->ox[s], cy + g->oy[s]);
		if (r1)
			sv1[s] = sample(r1, wn->w, wn->h, cx + g->ox[s], cy + g->oy[s]);
	}
}

/* Scores grid g at (cx, cy), its slots' responses sv on the map of
 * polarity pol, for every layout (of face only, unless 0) and keeps each
 * face's best in tops[face]. */
static void score(const float sv[N_SLOTS], const struct grid *g, double cx, double cy, int pol,
		  double apart, int face, struct hyp tops[7][TOP])
{
	/* layouts[] of face f are first[f] .. first[f + 1] - 1; face 0: all */
	static const int first[8] = { 0, 0, 1, 3, 5, 6, 7, 9 };
	double ang = g->ang, pitch = g->pitch;

	/* Every layout's pips are a union of slot pairs (layouts[].pairs), so
	 * each pair's least and greatest are found once and every layout's
	 * weakest pip and strongest empty place follow from a few of them
	 * (the rows below are layouts[] in order). */
	float x08 = MAXF(sv[0], sv[8]), x26 = MAXF(sv[2], sv[6]), x35 = MAXF(sv[3], sv[5]),
	      x17 = MAXF(sv[1], sv[7]), c = sv[4], sides = MAXF(x35, x17);
	if (!(MAXF(MAXF(x08, x26), MAXF(sides, c)) > 0))
		return;	/* no response at any slot */
	float n08 = MINF(sv[0], sv[8]), n26 = MINF(sv[2], sv[6]), n35 = MINF(sv[3], sv[5]),
	      n17 = MINF(sv[1], sv[7]);
	float corners = MINF(n08, n26);
	const float pmins[N_LAYOUTS] = { c, n08, n26, MINF(n08, c), MINF(n26, c), corners,
					 MINF(corners, c), MINF(corners, n35), MINF(corners, n17) };
	const float emaxs[N_LAYOUTS] = { MAXF(MAXF(x08, x26), sides), MAXF(MAXF(x26, c), sides),
					 MAXF(MAXF(x08, c), sides), MAXF(x26, sides),
					 MAXF(x08, sides), MAXF(c, sides), sides, MAXF(c, x17),
					 MAXF(c, x35) };
	int l0 = face ? first[face] : 0, l1 = face ? first[face + 1] : N_LAYOUTS;
	for (int l = l0; l < l1; l++) {
		float pmin = pmins[l], emax = emaxs[l] > 0 ? emaxs[l] : 0;
		struct hyp *last = &tops[layouts[l].face][TOP - 1];
		if (last->valid && pmin - emax <= last->score)
			continue;	/* keep would not take it: most placements */
		struct hyp hp = { pmin - emax, pmin, emax, cx, cy, ang, pol, l, pitch, 1 };
		keep(tops[layouts[l].face], &hp, apart);
	}
}

/* Scores grid g at (cx, cy) on response map r (polarity pol): score. */
static void place(const struct win *wn, const float *r, const struct grid *g, double cx,
		  double cy, int pol, double apart, int face, struct hyp tops[7][TOP])
{
	float sv[N_SLOTS];

	slots_at(wn, r, NULL, g, cx, cy, sv, NULL);
	score(sv, g, cx, cy, pol, apart, face, tops);
}

/* The strongest spot within OWN_PIPS_SIDES of the centre that none of the
 * layout's pips explains: local maxima of the response, not within a pip's
 * radius of an expected pip. */
static double stray_spots(const struct win *wn, const struct hyp *hp, unsigned slots,
			  double die_px)
{
	const float *r = wn->r[hp->polarity];
	double pitch = hp->pitch, reach = OWN_PIPS_SIDES * die_px, near = 0.6 * pitch;
	double ca = cos(hp->angle), sa = sin(hp->angle), worst = 0;
	double px[N_SLOTS], py[N_SLOTS];
	int x0 = (int)floor(hp->cx - reach), x1 = (int)ceil(hp->cx + reach);
	int y0 = (int)floor(hp->cy - reach), y1 = (int)ceil(hp->cy + reach);

	for (int s = 0; s < N_SLOTS; s++) {
		double a = (s % 3 - 1) * pitch, b = (s / 3 - 1) * pitch;
		px[s] = hp->cx + ca * a - sa * b;
		py[s] = hp->cy + sa * a + ca * b;
	}
	if (x0 < 1) x0 = 1;
	if (y0 < 1) y0 = 1;
	if (x1 > wn->w - 2) x1 = wn->w - 2;
	if (y1 > wn->h - 2) y1 = wn->h - 2;
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++) {
			float v = r[(size_t)y * wn->w + x];
			if (v <= worst || hypot(x - hp->cx, y - hp->cy) > reach)
				continue;
			int peak = 1;
			for (int dy = -1; dy <= 1 && peak; dy++)
				for (int dx = -1; dx <= 1; dx++)
					if ((dx || dy) && r[(size_t)(y + dy) * wn->w + x + dx] > v) {
						peak = 0;
						break;
					}
			if (!peak)
				continue;
			int explained = 0;
			for (int s = 0; s < N_SLOTS && !explained; s++)
				if ((slots >> s & 1) && hypot(x - px[s], y - py[s]) < near)
					explained = 1;
			if (!explained)
				worst = v;
		}
	return worst;
}

int vis_read_die_near(const struct vis_image *full, double u, double v, double die_px,
		      struct vis_die *out, char *err, size_t errlen)
{
	struct win wn = { 0 };
	struct hyp coarse[7][TOP], fine[7][TOP];	/* by face ([0] unused), best first */
	struct hyp best[7];	/* the finely placed best of each face */
	int rc;

	memset(coarse, 0, sizeof(coarse));
	memset(fine, 0, sizeof(fine));
	if (!full || !full->data || (full->format != VIS_GRAY8 && full->format != VIS_RGB24) ||
	    !isfinite(u) || !isfinite(v) || !(die_px >= 8 && die_px <= 1000)) {
		snprintf(err, errlen, "face: bad image or die size %.1f px (8-1000)", die_px);
		return -EINVAL;
	}
	/* The window holds every die whose centre is within SEARCH_SIDES, and
	 * the ring around its pips. */
	int half = (int)ceil((SEARCH_SIDES + 0.75) * die_px);
	int x0 = (int)floor(u) - half, y0 = (int)floor(v) - half;
	int x1 = (int)floor(u) + half + 1, y1 = (int)floor(v) + half + 1;
	x0 = x0 < 0 ? 0 : x0;
	y0 = y0 < 0 ? 0 : y0;
	x1 = x1 > full->width ? full->width : x1;
	y1 = y1 > full->height ? full->height : y1;
	if (x1 - x0 < die_px || y1 - y0 < die_px) {
		snprintf(err, errlen, "face: (%.0f, %.0f) is not a die's room inside the %dx%d image",
			 u, v, full->width, full->height);
		return -EINVAL;
	}
	wn.x0 = x0;
	wn.y0 = y0;
	wn.w = x1 - x0;
	wn.h = y1 - y0;
	rc = win_fill(&wn, full, 1.5 * PIP_RADIUS * die_px);
	if (rc < 0) {
		snprintf(err, errlen, "face: out of memory");
		goto cleanup_win;
	}

	/* Every centre near the point and every angle, both polarities, on
	 * the response spread over a pip's radius (coarse steps cannot miss
	 * a pip); then the best placements of each face again, finely, on the
	 * response itself. */
	double pitch = PIP_PITCH * die_px, step = die_px / 8;
	double reach = SEARCH_SIDES * die_px;
	int nstep = (int)(reach / step);
	rc = win_spread(&wn, (int)floor(step / 2 + 0.5));
	if (rc < 0) {
		snprintf(err, errlen, "face: out of memory");
		goto cleanup_win;
	}
	/* Both polarities' slots are sampled together; the light pips' are
	 * scored after the dark ones', in the order placed (keep's merging
	 * of near placements depends on it). */
	float (*light)[N_SLOTS] = malloc(sizeof(*light) * (size_t)(2 * nstep + 1) * (2 * nstep + 1));
	if (!light) {
		rc = -ENOMEM;
		snprintf(err, errlen, "face: out of memory");
		goto cleanup_win;
	}
	for (int ai = 0; ai < N_ANGLES; ai++) {
		struct grid g = grid_of(ai * (M_PI / 2) / N_ANGLES, pitch);
		int n = 0;
		for (int j = -nstep; j <= nstep; j++)
			for (int i = -nstep; i <= nstep; i++)
				if (i * i + j * j <= nstep * nstep) {
					float dark[N_SLOTS];
					double cx = u - x0 + i * step, cy = v - y0 + j * step;
					slots_at(&wn, wn.spread[0], wn.spread[1], &g, cx, cy, dark, light[n++]);
					score(dark, &g, cx, cy, 0, step, 0, coarse);
				}
		n = 0;
		for (int j = -nstep; j <= nstep; j++)
			for (int i = -nstep; i <= nstep; i++)
				if (i * i + j * j <= nstep * nstep)
					score(light[n++], &g, u - x0 + i * step, v - y0 + j * step, 1, step, 0,
					      coarse);
	}
	free(light);
	/* Each kept placement climbs twice: half a coarse step, then a quarter,
	 * in centre, angle and pip spacing (the die's size in pixels comes
	 * from a calibration: a few per cent off, or 15 % at worst). Each
	 * climb moves centre and spacing together (5 x 5 x 5), then centre
	 * and angle (5 x 5 x 5): two fifths of the 5^4 placements of moving
	 * all four together, and as right on the rest crops. */
	for (int f = 1; f <= 6; f++)
		for (int k = 0; k < TOP; k++) {
			struct hyp at = coarse[f][k];
			if (!at.valid)
				continue;
			for (int round = 1; round <= 2; round++) {
				double fs = step / (2.0 * round), fa = (M_PI / 2) / N_ANGLES / (2.0 * round);
				struct hyp here[7][TOP];
				struct grid g;

				memset(here, 0, sizeof(here));
				for (int pi = -2; pi <= 2; pi++) {
					g = grid_of(at.angle, at.pitch * (1 + pi * 0.08 / round));
					for (int j = -2; j <= 2; j++)
						for (int i = -2; i <= 2; i++)
							place(&wn, wn.r[at.polarity], &g, at.cx + i * fs,
							      at.cy + j * fs, at.polarity, 0, f, here);
				}
				if (here[f][0].valid)
					at = here[f][0];
				for (int ai = -2; ai <= 2; ai++) {
					g = grid_of(fmod(at.angle + ai * fa + M_PI, M_PI / 2), at.pitch);
					for (int j = -2; j <= 2; j++)
						for (int i = -2; i <= 2; i++)
							place(&wn, wn.r[at.polarity], &g, at.cx + i * fs,
							      at.cy + j * fs, at.polarity, 0, f, here);
				}
				if (here[f][0].valid)
					at = here[f][0];
			}
			/* a die beyond the reach is another die's */
			if (hypot(at.cx - (u - x0), at.cy - (v - y0)) <= reach + step)
				keep(fine[f], &at, 0);
		}
	for (int f = 1; f <= 6; f++) {
		best[f] = fine[f][0];
		if (!best[f].valid)
			best[f].score = -1e9;	/* never placed: no runner-up */
	}

	/* Stray spots on the die tell a misplaced grid: they count as empty
	 * places the layout failed. */
	int f1 = 0, f2 = 0;
	for (int f = 1; f <= 6; f++) {
		struct hyp *b = &best[f];
		double stray = b->valid ? stray_spots(&wn, b, layouts[b->layout].slots, die_px) : 0;
		if (b->valid && stray > b->empty) {
			b->empty = stray;
			b->score = b->weakest - stray;
		}
		if (!f1 || b->score > best[f1].score) {
			f2 = f1;
			f1 = f;
		} else if (!f2 || b->score > best[f2].score) {
			f2 = f;
		}
	}

	/* Confidence: the weakest pip must stand well above the grain, above
	 * every empty place and stray spot, and the runner-up face must fall
	 * clearly short. */
	const struct hyp *b = &best[f1];
	double snr = b->weakest / wn.noise;
	if (!b->valid || !(snr >= MIN_SNR) || b->score <= 0) {
		snprintf(err, errlen, "face: no pips near (%.0f, %.0f)", u, v);
		rc = -ENOENT;
		goto cleanup_win;
	}
	double margin = b->score / b->weakest;
	double runner = (b->score - (best[f2].score > 0 ? best[f2].score : 0)) / b->weakest;
	double c_snr = (snr - MIN_SNR) / 5, c_margin = (margin - 0.25) / 0.4, c_runner = (runner - 0.2) / 0.4;
	double conf = fmin(c_snr, fmin(c_margin, c_runner));
	conf = conf < 0 ? 0 : conf > 1 ? 1 : conf;

	out->face = f1;
	out->x = b->cx + x0;
	out->y = b->cy + y0;
	out->side = b->pitch / PIP_PITCH;
	out->angle = b->angle;
	out->confidence = conf;
	rc = 0;
cleanup_win:
	win_free(&wn);
	return rc;
}

/* The general finder on a crop, for where the die is not known to be
 * alone (vis_read_die_near is the finder for where it is). */
/* vis_read_face_at with net (NULL: the built-in one) weighed in. */
static int face_at(const struct vis_image *full, double u, double v, double die_px,
		   const struct vis_fnet *net, struct vis_die *out, char *err, size_t errlen)
{
	int half = (int)(die_px * 1.5 + 0.5);
	if (half < 8)
		half = 8;
	int x0 = (int)u - half, y0 = (int)v - half, x1 = (int)u + half, y1 = (int)v + half;
	if (x0 < 0) x0 = 0;
	if (y0 < 0) y0 = 0;
	if (x1 > full->width) x1 = full->width;
	if (y1 > full->height) y1 = full->height;
	if (x1 - x0 < 8 || y1 - y0 < 8) {
		snprintf(err, errlen, "face: (%.0f, %.0f) outside the %dx%d image", u, v,
			 full->width, full->height);
		return -EINVAL;
	}
	struct vis_image *crop = vis_image_new(x1 - x0, y1 - y0, full->format);
	if (!crop) {
		snprintf(err, errlen, "face: out of memory");
		return -ENOMEM;
	}
	for (int y = y0; y < y1; y++)
		memcpy(crop->data + (size_t)(y - y0) * crop->stride,
		       full->data + (size_t)y * full->stride + (size_t)x0 * full->format,
		       (size_t)(x1 - x0) * full->format);
	struct vis_die dice[8];
	struct vis_dice_params prm;
	vis_dice_params_default(&prm);
	prm.net = net;
	int n = vis_dice_find(crop, &prm, dice, 8, err, errlen);
	vis_image_free(crop);
	if (n < 0)
		return n;
	int best = -1;
	double bd = die_px;
	for (int i = 0; i < n && i < 8; i++) {
		double d = hypot(dice[i].x + x0 - u, dice[i].y + y0 - v);
		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	if (best < 0) {
		snprintf(err, errlen, "face: no die read near (%.0f, %.0f)", u, v);
		return -ENOENT;
	}
	*out = dice[best];
	out->x += x0;
	out->y += y0;
	/* A blob well under the located die's size is part of it, the rest
	 * lost against something of its colour (a white die on the white
	 * line): the pips and the face net then read the same part and agree
	 * on a face with too few pips (a 4 as a 2 at 0.96 on rendered rests).
	 * Such a reading is never sure. */
	if (out->side < FACE_AT_PART * die_px && out->confidence > FACE_AT_PART_CONF)
		out->confidence = FACE_AT_PART_CONF;
	return 0;
}

int vis_read_face_at(const struct vis_image *full, double u, double v, double die_px,
		     struct vis_die *out, char *err, size_t errlen)
{
	return face_at(full, u, v, die_px, NULL, out, err, errlen);
}

/* The general finder's reading, as the camera glue read before
 * vis_read_die_near:
 * vis_read_face_at at the point, else at the eight points one side around,
 * the die nearest the point within two sides. */
static int read_face_general(const struct vis_image *full, double u, double v, double die_px,
			     const struct vis_fnet *net, struct vis_die *out)
{
	struct vis_die d;
	char err[256];
	double best = 2 * die_px;	/* a die farther than this is another one */
	bool found = false;

	if (face_at(full, u, v, die_px, net, &d, err, sizeof(err)) == 0 && d.face >= 1) {
		*out = d;
		return 0;
	}
	for (int k = 0; k < 9; k++) {
		double du = (k % 3 - 1) * die_px, dv = (k / 3 - 1) * die_px;

		if (k == 4 || face_at(full, u + du, v + dv, die_px, net, &d, err, sizeof(err)) != 0 ||
		    d.face < 1 || hypot(d.x - u, d.y - v) >= best)
			continue;
		best = hypot(d.x - u, d.y - v);
		*out = d;
		found = true;
	}
	return found ? 0 : -ENOENT;
}

int vis_read_face_near(const struct vis_image *full, double u, double v, double die_px,
		       const struct vis_fnet *net, struct vis_die *out)
{
	const double sure = 0.8;	/* the house's review_below by default */
	struct vis_die d, best = { 0 }, gen = { 0 };
	char err[256];
	bool found = false;

	/* vis_read_die_near looks 1.5 sides around the point; the location is
	 * a quarter die a pixel of the low stream, off by more at times, so
	 * when unsure it looks again one side around, the die within two
	 * sides of the point. */
	for (int k = 0; k < 9 && !(found && best.confidence >= sure); k++) {
		int ring = (k + 4) % 9;	/* the point itself first */
		double pu = u + (ring % 3 - 1) * die_px, pv = v + (ring / 3 - 1) * die_px;

		/* confidence 0 says nothing, not even where the die is */
		if (vis_read_die_near(full, pu, pv, die_px, &d, err, sizeof(err)) != 0 || d.face < 1 ||
		    !(d.confidence > 0) || hypot(d.x - u, d.y - v) >= 2 * die_px)
			continue;
		if (!found || d.confidence > best.confidence) {
			best = d;
			found = true;
		}
	}
	if (found && best.confidence >= sure) {
		*out = best;
		return 0;
	}
	/* Unsure: the general finder's reading, taken only where it does not
	 * contradict the pips the first reader saw. */
	if (read_face_general(full, u, v, die_px, net, &gen) == 0) {
		if (!found || gen.face == best.face) {
			if (!found || gen.confidence > best.confidence)
				best = gen;
		} else {
			best.confidence = 0;	/* two readers disagree: neither is taken */
		}
		found = true;
	}
	if (!found)
		return -ENOENT;
	*out = best;
	return 0;
}
