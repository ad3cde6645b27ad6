/*
 * vision: finding dice in an image and reading their faces. The steps
 * are numbered as docs/vision.md "How faces are read" numbers them.
 *
 * 0. Scale: a big picture is also read at half size, a small one
 *    enlarged, and the reading with more sure faces kept.
 *    Here (vis_dice_find, find_resized).
 * 1. Background: the tray or table is large and smooth, the dice small. A
 *    coarse grid of per-block channel medians, smoothed by a median over
 *    neighbouring blocks (so a block a die fills takes its neighbours'
 *    colour), interpolated back to full size, models it without knowing
 *    its colour or the light.
 *    In dice_bodies.c.
 * 2. Die bodies: pixels far in colour from that background and not a
 *    shadow (the table's hue, darker), closed, small holes filled (white
 *    pips on a white table are holes in a green die). The typical die size
 *    is the median side of the square blobs, so no size is configured; an
 *    opening at 0.15 of it cuts dice off walls and lines; a blob that
 *    is not square and holds k dice' area is split by k-means on position
 *    from its distance transform's peaks; one too long for a die but
 *    shorter than a strip, in two.
 *    In dice_bodies.c, from dice_front and dice_guess (here).
 * 3. Pips: inside each die (grown back over the unopened foreground),
 *    pixels far in colour from the die's own median colour, after a 3x3
 *    blur against noise, at Otsu's threshold and three others around it;
 *    (A) holes the body encloses and (B) blobs of the eroded top off its
 *    rim, each polarity apart; small round blobs only.
 *    In dice_pips.c.
 * 4. Layout: the pip centres are fitted to the 1-6 patterns under any
 *    rotation and scale; the residual, pip sizes, spacing and centring give
 *    the confidence; of the readings that fit, most pips wins; checks
 *    against the die's grid and outline cap doubtful faces.
 *    In dice_pips.c.
 * 5. Grid fallback: a die no pip reading fits is read by the 3x3 pip
 *    grid itself, never surely; below min_confidence it is unreadable (0).
 *    In dice_pips.c.
 * 6. Second look: where no die was read (lost bodies: white on white,
 *    against a wall, in a heap) and at doubtful 1s and 2s, pip-sized spots
 *    unlike their ring seed die centres at the size of the dice read
 *    surely; each is read by the 3x3 pip grid with a plain rim around it.
 *    In dice_look.c.
 * 7. Face net: every die found (unreadable ones too) is cut out and read
 *    by the face net (face_net.c) at four quarter turns; its face is
 *    weighed against the pips' (weigh_net): agreeing, the surer stands;
 *    disagreeing, the net from 0.7, else the pips from 0.8 if the net
 *    allows their face, else unreadable; read by neither, no die at all
 *    when the net sees none centred there (keep_unreadable).
 *    Here (weigh_net).
 * 8. One die, one find: two finds nearer than 0.75 of a side are one
 *    die, and the one that reads it better stays.
 *    Here, as is what runs them all (dice_front, dice_guess).
 * 9. Side faces: of two finds of one body nearer than a side, one at the
 *    body's rim (a foreshortened strip beside a square) is the other's
 *    side face, and dropped.
 *    Here (drop_side_faces).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision.h"
#include "vision/internal.h"

/* Weighing the face net against the pip reader (weigh_net), chosen on
 * half the tuning photos with a net trained on the other half (and
 * rendered dice), tools/fnet/README.md. */
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

/* 9. side faces (drop_side_faces), set on the white photos' tuning half
 * (docs/vision.md, step 9); the tray photos lose one die of 416 to it. */
#ifndef SIDE_NEAR
#define SIDE_NEAR 1.0	/* two finds nearer than this of a die side ... */
#endif
#ifndef SIDE_ON
#define SIDE_ON 0.45	/* ... the segment between them this much on the bodies ... */
#endif
#ifndef SIDE_RIM
#define SIDE_RIM 0.6	/* ... the body reaching past one under this of past the other ... */
#endif
#ifndef SIDE_RIM_MAX
#define SIDE_RIM_MAX 0.36	/* ... and under this of a side (a strip, not half a die) */
#endif
#ifndef SIDE_GAP
#define SIDE_GAP 0.25	/* a reach goes on past holes (pips at the rim) up to this of a side */
#endif

/* Internal constants used in this file only (internal.h says how they
 * were tuned); each may be overridden with -D. */
#ifndef FG_K
#define FG_K 4		/* foreground: colour distance > FG_K x median + FG_C */
#endif
#ifndef FG_C
#define FG_C 12
#endif
#ifndef FG_MIN
#define FG_MIN 20	/* ... and never below this (grey levels) */
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

#ifndef LOOK_ENABLE
#define LOOK_ENABLE 1	/* the second look (0: off, for comparisons) */
#endif
#ifndef LOOK_WEAK_FACE
#define LOOK_WEAK_FACE 2	/* ... first readings of at most this many pips ... */
#endif
#ifndef LOOK_WEAK_CONF
#define LOOK_WEAK_CONF 0.9	/* ... below this confidence may be read again */
#endif
#ifndef LOOK_MAX
#define LOOK_MAX 64	/* second look: most dice it adds */
#endif

void vis_dice_params_default(struct vis_dice_params *p)
{
	p->min_die_px = 14;
	p->max_die_px = 160;
	p->min_confidence = 0.5;
	p->keep_unreadable = 0;
	p->pips_only = 0;
	p->net = NULL;
}

/* ---- small helpers ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The pct-th percentile of v's n > 0 values (v sorted in place): the
 * value at index n x pct / 100, so 50 is the upper median. */
double vis_dice_percentile(double *v, int n, int pct)
{
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	return v[n * pct / 100];
}

static void work_free(struct vis_dice_work *wk)
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

/* ---- 6. the face net, and the readings put together ---- */

/* The net's readings of one picture, by the find's place and size: both
 * guesses of the typical die mostly find the same dice, and the net is a
 * third of a reading's time. */
struct net_memo {
	const struct vis_fnet *net;	/* the net asked (params->net or the built-in) */
	int n, cap;
	struct net_seen {
		double x, y, side;
		float p[VIS_FNET_CLASSES];
	} *seen;		/* owned */
};

/* The net's class probabilities for find d into p, averaged over the
 * quarter turns it is read at, from memo when it has read the same find. */
static void net_read(const struct vis_image *img, const struct vis_die *d, struct net_memo *memo,
		     float p[VIS_FNET_CLASSES])
{
	for (int i = 0; i < memo->n; i++)
		if (memo->seen[i].x == d->x && memo->seen[i].y == d->y && memo->seen[i].side == d->side) {
			memcpy(p, memo->seen[i].p, sizeof(float) * VIS_FNET_CLASSES);
			return;
		}
	vis_fnet_read(memo->net, img, d->x, d->y, VIS_FNET_SPAN * d->side, p);
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
 * quarter turns the net asks for (the built-in net: four; it was trained
 * at every angle, and the turns smooth out what one angle of its 40x40
 * pixels catches). Agreeing, the
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

/* How far the body reaches from (x, y) along (ux, uy) (a unit vector), in
 * pixels, up to cap: its last pixel on the die bodies (wk->bodies, before
 * any opening) before `gap` pixels off them or the picture's edge (a pip
 * at the rim is a hole in the body, not its end). */
static double body_reach(const struct vis_dice_work *wk, double x, double y, double ux, double uy, double cap,
			 double gap)
{
	double last = 0;
	for (double t = 0; t < cap && t - last <= gap; t += 1) {
		int px = (int)lround(x + ux * t), py = (int)lround(y + uy * t);
		if (px < 0 || py < 0 || px >= wk->w || py >= wk->h)
			break;
		if (wk->bodies[(size_t)py * wk->w + px])
			last = t;
	}
	return last;
}

/* The share of the segment from a to b that lies on the die bodies. */
static double body_between(const struct vis_dice_work *wk, const struct vis_die *a, const struct vis_die *b)
{
	double d = hypot(b->x - a->x, b->y - a->y);
	int n = (int)d + 1, on = 0;
	for (int k = 0; k <= n; k++) {
		int px = (int)lround(a->x + (b->x - a->x) * k / n), py = (int)lround(a->y + (b->y - a->y) * k / n);
		on += px >= 0 && py >= 0 && px < wk->w && py < wk->h && wk->bodies[(size_t)py * wk->w + px];
	}
	return (double)on / (n + 1);
}

/* 9. A die's side faces: on a photo taken at a slant a die shows its top
 * and one or two side faces, foreshortened strips along the top's edges,
 * whose pips are read as a die of their own. Two finds of one body (the
 * segment between them mostly on it) nearer than SIDE_NEAR of a die's
 * side S are one die when one of them lies at the body's rim: the body
 * reaches past it, away from the other, under SIDE_RIM of what it reaches
 * past the other and under SIDE_RIM_MAX of a side (a strip beside a
 * square, not two squares side by side). The find at the rim is dropped
 * (face -1) and the top's reading stands, read or not; but a sure
 * reading (0.9) is never dropped for an unsure one (a small die beside a
 * big one in a tray looks like a strip). */
static void drop_side_faces(const struct vis_dice_work *wk, struct vis_die *all, int n, double S)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			if (i == j || all[i].face < 0 || all[j].face < 0)
				continue;
			double dx = all[j].x - all[i].x, dy = all[j].y - all[i].y, d = hypot(dx, dy);
			if (d >= SIDE_NEAR * S || d <= 0)
				continue;
			double on = body_between(wk, &all[i], &all[j]);
			double ri = body_reach(wk, all[i].x, all[i].y, -dx / d, -dy / d, 1.5 * S, SIDE_GAP * S);
			double rj = body_reach(wk, all[j].x, all[j].y, dx / d, dy / d, 1.5 * S, SIDE_GAP * S);
			if (on < SIDE_ON || rj >= SIDE_RIM * ri || rj >= SIDE_RIM_MAX * S ||
			    (all[j].confidence >= 0.9 && all[i].confidence < 0.9))
				continue;
			all[j].face = -1;	/* j at the rim, i's reaching past */
		}
}

/* A reading of img into out (at most max written; how many found, or a
 * negative errno with a message), arg saying how. params is not NULL. */
typedef int (*reading_fn)(const struct vis_image *img, void *arg, const struct vis_dice_params *params,
			  struct vis_die *out, int max, char *err, size_t errlen);

/* Whether vis_dice_find can read img, with a message when not. */
static int image_ok(const struct vis_image *img, char *err, size_t errlen)
{
	if (!img || !img->data || (img->format != VIS_GRAY8 && img->format != VIS_RGB24)) {
		snprintf(err, errlen, "dice: no image, or of an unknown format");
		return 0;
	}
	if (img->width < 8 || img->height < 8 || img->width > VIS_MAX_SIDE ||
	    img->height > VIS_MAX_SIDE) {
		snprintf(err, errlen, "dice: %dx%d pixels, below 8x8 or above %dx%d",
			 img->width, img->height, VIS_MAX_SIDE, VIS_MAX_SIDE);
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
	double m = vis_dice_percentile(s, n, 50);
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
	struct vis_dice_work *wk;
	double side;
	struct net_memo *memo;
};

static int dice_front(const struct vis_image *img, const struct vis_dice_params *params,
		      struct vis_dice_work *wk, double side[2]);
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
		return -EINVAL;
	struct vis_dice_work wk = { .w = img->width, .h = img->height };
	struct net_memo memo = { .net = params->net ? params->net : vis_fnet_builtin() };
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
 * NULL when it could not be made: out of memory, as vis_dice_find refuses
 * a picture too thin for its copies) read, the dice found given in img's
 * pixels. */
static int find_resized(const struct vis_image *img, struct vis_image *resized, double per,
			const struct vis_dice_params *params, struct vis_die *out, int max, char *err,
			size_t errlen)
{
	if (!resized) {
		snprintf(err, errlen, "dice: out of memory for a %dx%d image read at %g times its size",
			 img->width, img->height, 1 / per);
		return -ENOMEM;
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

/* img's longer side; *f the box-averaging factor img is read at, and
 * *coarsest the coarsest it is read at (find_all: f, or 2f for a big
 * one). A big photo is read at most DICE_MAX_SIDE a side: its dice stay
 * well above min_die_px, time and memory stay bounded. */
static int read_factors(const struct vis_image *img, int *f, int *coarsest)
{
	int side = img->width > img->height ? img->width : img->height;
	*f = (side + DICE_MAX_SIDE - 1) / DICE_MAX_SIDE;
	*coarsest = side <= TWO_SCALES_FROM || side / *f <= TWO_SCALES_FROM ? *f : 2 * *f;
	return side;
}

/* vis_dice_find with every find reported, read or not (params'
 * keep_unreadable set): whether a picture is read again depends on all
 * it found. */
static int find_all(const struct vis_image *img, const struct vis_dice_params *params, struct vis_die *out,
		    int max, char *err, size_t errlen)
{
	int f, coarsest, side = read_factors(img, &f, &coarsest);
	if (side <= TWO_SCALES_FROM) {
		/* Dice far smaller than the photos' (21-49 pixels) lose their
		 * pips to the blur and the 1-pixel clean-up, and fall below
		 * min_die_px: such a picture, or one where nothing was found,
		 * is read enlarged too. */
		return read_better(img, find_sized, NULL, find_enlarged, NULL, SMALL_DIE_PX, params, out, max,
				   err, errlen);
	}
	if (coarsest == f)	/* just over DICE_MAX_SIDE: halved is enough */
		return find_downscaled(img, &f, params, out, max, err, errlen);
	/* A big picture's dice may be far bigger than the reader was made
	 * for (the photos' 21-49 pixels): white dice on a pale tray then
	 * show only their pips, taken for dice. It is read at half size too
	 * (coarsest), kept when it reads more (more dice can be too small
	 * there). */
	return read_better(img, find_downscaled, &f, find_downscaled, &coarsest, INFINITY, params, out, max,
			   err, errlen);
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
	int f, coarsest, shorter = img->width < img->height ? img->width : img->height;
	read_factors(img, &f, &coarsest);
	if (shorter / coarsest < 8) {
		snprintf(err, errlen, "dice: a %dx%d image is too thin to read: at 1/%d of its size, "
			 "as it is read, its shorter side is under 8 pixels", img->width, img->height,
			 coarsest);
		return -EINVAL;
	}
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
static int dice_front(const struct vis_image *img, const struct vis_dice_params *params,
		      struct vis_dice_work *wk, double side[2])
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
	vis_dice_blur3(wk->rgb, wk->smooth, w, h);
	if (vis_dice_background(wk) || vis_dice_integrals(wk))
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
			   !vis_dice_is_shadow(wk->rgb + i * 3, wk->bg + i * 3);
	uint8_t *mtmp = (uint8_t *)wk->scratch;
	/* Close then open by one pixel: joins a die's speckled edge, drops
	 * single-pixel noise. */
	vis_dice_box_filter(wk->fg, mtmp, w, h, 1, 1);
	vis_dice_box_filter(wk->fg, mtmp, w, h, 1, 0);
	vis_dice_box_filter(wk->fg, mtmp, w, h, 1, 0);
	vis_dice_box_filter(wk->fg, mtmp, w, h, 1, 1);
	struct vis_dice_blob *blobs = NULL;
	int nl = 0;
	if (vis_dice_label_blobs(wk, &blobs, &nl, wk->stack, wk->scratch,
				 0.35 * params->max_die_px * params->max_die_px))
		return -ENOMEM;
	side[0] = vis_dice_typical_side(blobs, nl, params, SIDE_PCT);
	side[1] = vis_dice_typical_side(blobs, nl, params, SIDE_PCT_SMALL);
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
	struct vis_dice_work *wk = g->wk;
	double side = g->side;
	if (side <= 0)
		return 0;	/* no square blob: no die */
	int ret = -ENOMEM;
	int w = wk->w, h = wk->h;
	size_t np = (size_t)w * h;
	int *stack = wk->stack, *scratch = wk->scratch, *order = NULL, *start = NULL;
	struct vis_dice_blob *blobs = NULL;
	struct vis_dice_cand *cands = NULL;
	struct vis_die *all = NULL;
	int ncand = 0, found = 0, nl = 0;
	/* An opening at half the die's size cuts dice off the thin things
	 * they touch (a tray's wall, a line, a shadow's tail) and drops
	 * those. */
	memcpy(wk->fg0, wk->bodies, np);
	memcpy(wk->fg, wk->bodies, np);
	int r = (int)(side * OPEN_FRAC);
	if (r >= 1) {
		vis_dice_box_filter(wk->fg, (uint8_t *)scratch, w, h, r, 0);
		vis_dice_box_filter(wk->fg, (uint8_t *)scratch, w, h, r, 1);
	}
	if (vis_dice_label_blobs(wk, &blobs, &nl, stack, scratch,
				 0.35 * params->max_die_px * params->max_die_px))
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
		struct vis_dice_blob *b = &blobs[l];
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
		struct vis_dice_cand whole = { .px = order + start[l], .n = b->area, .cx = b->cx, .cy = b->cy };
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
			if (vis_dice_split_cand(&whole, k, w, cands + ncand))
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
		if (vis_dice_read_die(wk, &cands[i], d.side, &d, scratch))
			goto oom;
		if (d.confidence < params->min_confidence)
			d.face = 0;
		all[nall++] = d;
	}
	/* The dice read surely give the size to look for the rest at. */
	double S = side;
	{
		double *sides = malloc(sizeof(double) * ((size_t)nall + 1));
		if (!sides)
			goto oom;
		int nsd = 0;
		for (int i = 0; i < nall; i++)
			if (all[i].face > 0 && all[i].confidence >= 0.9)
				sides[nsd++] = all[i].side;
		S = nsd >= 3 ? vis_dice_percentile(sides, nsd, 50) : side;
		free(sides);
		int before = nall;
		/* Doubtful readings (a 1 or a 2: most wrong faces are 4-6s
		 * with pips lost) are looked at again: shown to vis_dice_second_look
		 * as -face, replaced by a reading with more pips (-7). */
		for (int i = 0; i < nall; i++)
			if (all[i].face > 0 && all[i].face <= LOOK_WEAK_FACE && all[i].confidence < LOOK_WEAK_CONF)
				all[i].face = -all[i].face;
		if (LOOK_ENABLE && S >= params->min_die_px && vis_dice_second_look(wk, S, all, &nall, cap))
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
	drop_side_faces(wk, all, nall, S);
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
