/* vision: detection and tracking of dice in the low-resolution stream.
 *
 * From above, a die's height is not seen; its horizontal velocity is: in
 * flight it is constant (no air drag worth the name over 2 m), and the
 * first table contact changes it abruptly (friction, spin). So the first
 * frame whose velocity jumps by more than contact_dv_mps marks the first
 * contact, and release-to-contact time t gives the apex of a symmetric
 * flight, h = g t^2 / 8. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision.h"

#define FACE_AT_PART 0.75	/* a die read under this fraction of the located size ... */
#define FACE_AT_PART_CONF 0.7	/* ... is at most this sure (vis_read_face_at) */
#define MAX_TRACKS 8
#define HIST 16	/* positions kept a track, for the contact fit */
#define GRAVITY 9.81	/* m/s^2 */
/* A die seen from above grows as it rises towards the camera (the
 * renderer and a real lens alike): the blob's area over a die's on the
 * table is the magnification squared, times 1.4-2.2 on the table itself
 * (its rim, blur and shadow edge make the blob bigger than the die). */
#define MAX_BLOB_RATIO 40	/* bigger: not a die (a die this close is near the lens) */
#define ALOFT_RATIO 4.0		/* lost while rising this big: above the view, not gone */
/* A die's centre is within half a side of a can's wall when a face
 * touches it, within half a diagonal (0.71 sides) when a corner does. */
#define MINE_FACE_REACH 0.625	/* die sides beyond the can's radius: a face touching (half a side), with 2 mm for the centroid */
#define MINE_CORNER_REACH 0.75	/* ... a corner may touch (with the tracker's own error) */
#define MINE_DV_MPS 0.08	/* a turn this big (and a fifth of the speed) beside the can: it struck it */
#define MAX_DV_MPS 3.0		/* velocity change a frame the gate allows (a bounce) */
#define MAX_SPEED_MPS 8.0	/* fastest die across the table, for a new track's gate */
#define ALOFT_MAX_S 3.0		/* longest time above the view (a 6.5 m toss) */
#define LOW_RELEASE_RATIO 3.0	/* first seen smaller: released near the table top */

struct trk {
	int id;			/* from 1; 0 = free slot */
	enum vis_track_state state;	/* see vision.h */
	double x, y;		/* last position, table metres */
	double u, v;		/* the same in pixels */
	double vx, vy;		/* m/s, 0 until two sightings */
	int have_v;		/* vx, vy measured */
	int sightings;		/* frames it was seen */
	int unseen;		/* frames since last seen */
	int still;		/* consecutive frames below rest speed */
	int64_t t_first;	/* first sighting (release) */
	int64_t t_last;		/* last sighting */
	double hx[HIST], hy[HIST];	/* recent positions, newest at (sightings - 1) % HIST */
	double ht[HIST];	/* their times, seconds from t_first */
	double hr[HIST];	/* their blob ratios (see ratio) */
	double rx, ry;		/* anchor of the current still spell */
	double frame_s;		/* last frame interval, seconds */
	double ratio;		/* last blob's area over a die's on the table there */
	double ratio0;		/* the same at the first sighting */
	double x0, y0;		/* where the first sighting was, table metres */
	double ratio_prev;	/* the same at the sighting before the last */
	double ratio_max;	/* the largest in flight (it rose: a release, not a die re-found) */
	int i_max;		/* the sighting it was at */
	double pk[3][2];	/* time (s from t_first) and ratio at i_max - 1, i_max, i_max + 1 */
	int aloft;		/* out of view above the camera since t_last */
	int gap;		/* came back from aloft: t_up, t_down hold */
	int64_t t_up;		/* last sighting on the way up */
	int64_t t_down;		/* first sighting on the way down */
	int i_min;		/* the contact search starts here: the first sighting back from above, or after a cup's rim */
	int cup_hit;		/* its first contact was a cup's rim */
	double cup_apex, cup_sigma;	/* the apex and sigma from that contact */
	int mine_done;		/* its mine contact was reported (one a track) */
	int mine_pending;	/* on the table, it passed within reach of the can: turned by it? */
	double mine_d;		/* the closest it came to the can's axis, metres */
	double mine_cx, mine_cy;	/* the point it was at then, table metres */
	int mine_i;		/* the sighting at or just after that point */
	int64_t mine_t;		/* when it was there */
};

struct vis_tracker {
	struct vis_tracker_cfg cfg;	/* copy */
	double hinv[9];		/* table -> image */
	int w, h;		/* frame size */
	uint16_t *bg16;		/* owned, RGB background model, 8.8 fixed point */
	uint8_t *bg8;		/* owned, its integer part, for the comparison */
	uint8_t *row;		/* owned, a grey row as RGB (frame_row) */
	uint8_t *diff;		/* owned, a row of byte differences, 2 zero bytes either side */
	uint8_t *fgb;		/* owned, a row: byte j's pixel is foreground */
	uint8_t *upd;		/* owned, a row: 0xff where byte j's pixel learns */
	uint8_t *phase;		/* owned, a row: j % 3, the byte's channel */
	uint8_t *fg;		/* owned, foreground mask (2 once visited) */
	uint8_t *fgrow;		/* owned, a byte a row: its mask may hold non-zero bytes */
	long frames;		/* frames fed */
	double bg_sum;		/* the model's brightness over every 8th row, if bg_sum_ok */
	int bg_sum_ok;		/* bg_sum is the model's as it is now */
	int *stack;		/* owned, flood-fill stack */
	int learned;		/* frames learned */
	struct trk tracks[MAX_TRACKS];	/* the tracks */
	int next_id;		/* id of the next new track */
};

void vis_tracker_cfg_default(struct vis_tracker_cfg *cfg, const struct bd_table *t, const double h[9])
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->table = *t;
	memcpy(cfg->h, h, sizeof(cfg->h));
	cfg->die_side_m = 0.016;
	cfg->bg_rate = 0.02;
	cfg->diff_threshold = 30;
	cfg->rest_speed_mps = 0.03;
	cfg->rest_frames = 6;
	cfg->gone_frames = 4;
	cfg->contact_dv_mps = 0.25;
}

struct vis_tracker *vis_tracker_new(const struct vis_tracker_cfg *cfg, int width, int height)
{
	if (width < 8 || height < 8 || width > VIS_MAX_SIDE || height > VIS_MAX_SIDE ||
	    cfg->die_side_m <= 0 || cfg->bg_rate <= 0 || cfg->bg_rate > 1 || cfg->rest_frames < 1 ||
	    cfg->gone_frames < 1) {
		errno = EINVAL;
		return NULL;
	}
	struct vis_tracker *t = calloc(1, sizeof(*t));
	if (!t) {
		errno = ENOMEM;
		return NULL;
	}
	t->cfg = *cfg;
	if (vis_homography_invert(cfg->h, t->hinv)) {
		free(t);
		errno = EINVAL;
		return NULL;
	}
	t->w = width;
	t->h = height;
	size_t n = (size_t)width * height;
	t->bg16 = calloc(n * 3, sizeof(uint16_t));
	t->bg8 = calloc(n * 3, 1);
	size_t rw = (size_t)width * 3;
	t->row = malloc(rw);
	t->diff = calloc(rw + 4, 1);
	t->fgb = malloc(rw);
	t->upd = malloc(rw);
	t->phase = malloc(rw);
	t->fg = calloc(n, 1);
	t->fgrow = calloc((size_t)height, 1);
	t->stack = malloc(n * sizeof(int));
	t->next_id = 1;
	for (size_t j = 0; t->phase && j < rw; j++)
		t->phase[j] = (uint8_t)(j % 3);
	if (!t->bg16 || !t->bg8 || !t->row || !t->diff || !t->fgb || !t->upd || !t->phase || !t->fg ||
	    !t->fgrow || !t->stack) {
		vis_tracker_free(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

void vis_tracker_free(struct vis_tracker *t)
{
	if (!t)
		return;
	free(t->bg16);
	free(t->bg8);
	free(t->row);
	free(t->diff);
	free(t->fgb);
	free(t->upd);
	free(t->phase);
	free(t->fg);
	free(t->fgrow);
	free(t->stack);
	free(t);
}

/* Row y of a frame as packed RGB: the frame's own bytes, or grey
 * expanded into the tracker's row buffer. */
static const uint8_t *frame_row(struct vis_tracker *t, const struct vis_image *f, int y)
{
	const uint8_t *src = f->data + (size_t)y * f->stride;
	if (f->format == VIS_RGB24)
		return src;
	for (int x = 0; x < f->width; x++)
		t->row[3 * x] = t->row[3 * x + 1] = t->row[3 * x + 2] = src[x];
	return t->row;
}

static int check_frame(const struct vis_tracker *t, const struct vis_image *f)
{
	if (!f || !f->data || f->width != t->w || f->height != t->h ||
	    (f->format != VIS_GRAY8 && f->format != VIS_RGB24))
		return -EINVAL;
	return 0;
}

int vis_tracker_learn(struct vis_tracker *t, const struct vis_image *frame)
{
	if (check_frame(t, frame))
		return -EINVAL;
	/* A running mean over the first frames, then the usual rate. */
	double rate = 1.0 / (t->learned + 1);
	if (rate < t->cfg.bg_rate)
		rate = t->cfg.bg_rate;
	int k = (int)(rate * 256 + 0.5);
	size_t rw = (size_t)t->w * 3;
	for (int y = 0; y < t->h; y++) {
		const uint8_t *c = frame_row(t, frame, y);
		uint16_t *b16 = t->bg16 + (size_t)y * rw;
		uint8_t *b8 = t->bg8 + (size_t)y * rw;
		for (size_t i = 0; i < rw; i++) {
			int target = c[i] << 8;
			b16[i] = (uint16_t)(t->learned ? b16[i] + (((target - b16[i]) * k) >> 8) : target);
			b8[i] = (uint8_t)((b16[i] + 128) >> 8 > 255 ? 255 : (b16[i] + 128) >> 8);
		}
	}
	t->learned++;
	t->bg_sum_ok = 0;
	return 0;
}

/* The per-pixel loops below are written byte by byte over whole rows, with
 * no stride-3 access, so that GCC and clang vectorise them on any target
 * (SSE2, NEON). GCC vectorises them only at -O3 (its -O2 cost model
 * refuses loops with a remainder), so ask. */
#if defined(__GNUC__) && !defined(__clang__)
#define VEC_LOOP __attribute__((optimize("O3")))
#else
#define VEC_LOOP
#endif

/* d = |a - b| bytewise; returns the largest. */
VEC_LOOP static uint8_t absdiff_row(const uint8_t *restrict a, const uint8_t *restrict b,
				    uint8_t *restrict d, size_t n)
{
	uint8_t m = 0;
	for (size_t i = 0; i < n; i++) {
		uint8_t v = (uint8_t)(a[i] > b[i] ? a[i] - b[i] : b[i] - a[i]);
		d[i] = v;
		m = v > m ? v : m;
	}
	return m;
}

/* The sum of n bytes: 16 running sums of 16 bits, one a byte position
 * modulo 16, each summing at most 128 bytes (128 * 255 < 65536) before it
 * is added up, so the compiler keeps them in vector registers. */
VEC_LOOP static uint32_t sum_row(const uint8_t *restrict p, size_t n)
{
	uint32_t s = 0;
	size_t i = 0;
	while (i + 16 <= n) {
		uint16_t acc[16] = { 0 };
		size_t end = n - i > 2048 ? i + 2048 : n;
		for (; i + 16 <= end; i += 16)
			for (int j = 0; j < 16; j++)
				acc[j] = (uint16_t)(acc[j] + p[i + j]);
		for (int j = 0; j < 16; j++)
			s += acc[j];
	}
	for (; i < n; i++)
		s += p[i];
	return s;
}

/* For every byte j of a row of differences d (d[-2], d[-1], d[n], d[n+1]
 * readable), the summed difference of its pixel's three channels, found
 * from the byte's channel ph[j] = j % 3 without a stride-3 access:
 * fgb[j] = that sum > thr (foreground), upd[j] = 0xff when it is at most
 * thr3 (clearly background: it may learn). Sums are 0-765, so 16-bit
 * lanes hold them and thresholds clamped to -1..766 compare the same. */
VEC_LOOP static void pixel_sums_row(const uint8_t *restrict d, const uint8_t *restrict ph,
				    uint8_t *restrict fgb, uint8_t *restrict upd, size_t n, int16_t thr,
				    int16_t thr3)
{
	/* Shifted views of d, read only: restrict lets the compiler load
	 * them as vectors. */
	const uint8_t *restrict dm2 = d - 2, *restrict dm1 = d - 1, *restrict dp1 = d + 1,
		      *restrict dp2 = d + 2;
	for (size_t j = 0; j < n; j++) {
		int16_t mid = (int16_t)(dm1[j] + d[j] + dp1[j]);
		int16_t lo = (int16_t)(mid - dp1[j] + dm2[j]);	/* byte j is blue */
		int16_t hi = (int16_t)(mid - dm1[j] + dp2[j]);	/* byte j is red */
		uint8_t p = ph[j];
		int16_t s = p == 0 ? hi : p == 1 ? mid : lo;
		fgb[j] = s > thr;
		upd[j] = s <= thr3 ? 0xff : 0;
	}
}

/* The same with sums in 8-bit lanes, saturating at 255: twice as many a
 * vector, and exact for thresholds 0-254 (a sum over 255 is over both). */
static inline uint8_t add_sat(uint8_t x, uint8_t y)
{
	uint8_t v = (uint8_t)(x + y);
	return v < x ? 255 : v;
}

VEC_LOOP static void pixel_sums_row8(const uint8_t *restrict d, const uint8_t *restrict ph,
				     uint8_t *restrict fgb, uint8_t *restrict upd, size_t n, uint8_t thr,
				     uint8_t thr3)
{
	const uint8_t *restrict dm2 = d - 2, *restrict dm1 = d - 1, *restrict dp1 = d + 1,
		      *restrict dp2 = d + 2;
	for (size_t j = 0; j < n; j++) {
		uint8_t a = add_sat(dm1[j], d[j]), b = add_sat(d[j], dp1[j]);
		uint8_t lo = add_sat(a, dm2[j]), mid = add_sat(a, dp1[j]), hi = add_sat(b, dp2[j]);
		uint8_t p = ph[j];
		uint8_t s = p == 0 ? hi : p == 1 ? mid : lo;
		fgb[j] = s > thr;
		upd[j] = s <= thr3 ? 0xff : 0;
	}
}

static int16_t clamp_sum(int v)
{
	return (int16_t)(v < -1 ? -1 : v > 766 ? 766 : v);
}

/* fg[x] = fgb[3 x]: the pixels of a row from its bytes. */
VEC_LOOP static void pixels_row(const uint8_t *restrict fgb, uint8_t *restrict fg, int w)
{
	for (int x = 0; x < w; x++)
		fg[x] = fgb[3 * x];
}

/* The running average towards the frame c where upd says so, rate k / 256
 * (k <= 255): b16 in 8.8 fixed point, b8 its rounded integer part (at most
 * 255). In 16-bit lanes: the step ceil(((c << 8) - b) k / 256) equals
 * c k - floor(b k / 256), the last the high half of b times k << 8 (one
 * multiply-high instruction); the result lies between b and c << 8, so
 * arithmetic modulo 2^16 gives it exactly. */
VEC_LOOP static void learn_row(const uint8_t *restrict c, const uint8_t *restrict upd,
			       uint16_t *restrict b16, uint8_t *restrict b8, size_t n, int k)
{
	uint16_t k16 = (uint16_t)k, k256 = (uint16_t)(k << 8);
	for (size_t j = 0; j < n; j++) {
		uint16_t b = b16[j];
		uint16_t up = (uint16_t)(c[j] * k16);
		uint16_t down = (uint16_t)(((uint32_t)b * k256) >> 16);	/* floor(b k / 256) */
		uint16_t nb = (uint16_t)(b + up - down);
		nb = upd[j] ? nb : b;
		uint16_t r = (uint16_t)((nb >> 8) + ((nb >> 7) & 1));	/* (nb + 128) >> 8 */
		b16[j] = nb;
		b8[j] = (uint8_t)(r > 255 ? 255 : r);
	}
}

/* learn_row for a row without foreground (every channel's difference at
 * most thr / 3), its mask formed on the way as pixel_sums_row8 forms upd:
 * one pass instead of two on a learning frame. thr3 0-254. */
VEC_LOOP static void learn_clean_row(const uint8_t *restrict c, const uint8_t *restrict d,
				     const uint8_t *restrict ph, uint16_t *restrict b16,
				     uint8_t *restrict b8, size_t n, uint8_t thr3, int k)
{
	const uint8_t *restrict dm2 = d - 2, *restrict dm1 = d - 1, *restrict dp1 = d + 1,
		      *restrict dp2 = d + 2;
	uint16_t k16 = (uint16_t)k, k256 = (uint16_t)(k << 8);
	for (size_t j = 0; j < n; j++) {
		uint8_t a = add_sat(dm1[j], d[j]), e = add_sat(d[j], dp1[j]);
		uint8_t lo = add_sat(a, dm2[j]), mid = add_sat(a, dp1[j]), hi = add_sat(e, dp2[j]);
		uint8_t p = ph[j];
		uint8_t s = p == 0 ? hi : p == 1 ? mid : lo;
		uint16_t b = b16[j];
		uint16_t up = (uint16_t)(c[j] * k16);
		uint16_t down = (uint16_t)(((uint32_t)b * k256) >> 16);	/* floor(b k / 256) */
		uint16_t nb = (uint16_t)(b + up - down);
		nb = s <= thr3 ? nb : b;
		uint16_t r = (uint16_t)((nb >> 8) + ((nb >> 7) & 1));
		b16[j] = nb;
		b8[j] = (uint8_t)(r > 255 ? 255 : r);
	}
}

/* Pixels a metre at a table point (the local scale of the view). */
static double px_per_m(const struct vis_tracker *t, double x, double y)
{
	double u0, v0, u1, v1;
	if (vis_homography_apply(t->hinv, x, y, &u0, &v0) ||
	    vis_homography_apply(t->hinv, x + 0.01, y, &u1, &v1))
		return 0;
	return hypot(u1 - u0, v1 - v0) / 0.01;
}

struct tblob {
	double u, v;		/* centroid, pixels */
	double x, y;		/* table metres */
	int area;		/* pixels */
	double ratio;		/* area over a die's on the table there (magnification^2) */
	int used;		/* taken by a track */
};

static int on_table(const struct bd_table *tb, double x, double y)
{
	return x >= 0 && y >= 0 && x <= tb->length_m && y <= tb->width_m;
}

/* The cup whose region holds (x, y), or -1. */
static int cup_at(const struct vis_tracker *t, double x, double y)
{
	const struct bd_table *tb = &t->cfg.table;
	for (int p = 0; p < BD_PLAYERS; p++)
		if (hypot(x - tb->cup_x[p], y - tb->cup_y[p]) < tb->cup_radius_m + t->cfg.die_side_m / 2)
			return p;
	return -1;
}

/* Distance of the die's centre from the mine's axis, metres. */
static double mine_dist(const struct vis_tracker *t, double x, double y)
{
	return hypot(x - t->cfg.table.mine_x, y - t->cfg.table.mine_y);
}

static void emit(struct vis_obs *out, int max, int *n, const struct vis_obs *o)
{
	if (*n < max)
		out[*n] = *o;
	(*n)++;
}

static struct vis_obs obs_at(const struct trk *k, enum vis_obs_kind kind, int64_t t_ns)
{
	struct vis_obs o = { .kind = kind, .track = k->id, .t_ns = t_ns, .x = k->x, .y = k->y,
			     .u = k->u, .v = k->v, .player = BD_NOBODY, .confidence = 0.9 };
	return o;
}

/* A track lost for gone_frames: where did it go? */
static void track_gone(struct vis_tracker *t, struct trk *k, struct vis_obs *out, int max, int *n)
{
	const struct bd_table *tb = &t->cfg.table;
	/* Where it was last, or where its motion took it within two frames
	 * (a die falls into a cup between two frames). */
	int cup = cup_at(t, k->x, k->y);
	for (int s = 1; s <= 8 && cup < 0 && k->have_v; s++)
		cup = cup_at(t, k->x + k->vx * k->frame_s * s / 4, k->y + k->vy * k->frame_s * s / 4);
	if (k->state != VIS_TRACK_REST && cup >= 0) {
		struct vis_obs o = obs_at(k, VIS_OBS_SINK, k->t_last);
		o.player = cup;
		o.confidence = 0.8;	/* a die hidden by a hand over the cup looks the same */
		emit(out, max, n, &o);
	} else if (k->state != VIS_TRACK_REST) {
		/* Where its last motion crosses an edge, if it does within a
		 * few frames' travel. */
		double x = k->x, y = k->y, span = (k->unseen + 1) * k->frame_s;
		int crossed = !on_table(tb, x, y);
		for (int s = 1; s <= 10 && !crossed && k->have_v; s++)
			crossed = !on_table(tb, x + k->vx * span * s / 10, y + k->vy * span * s / 10);
		if (crossed && on_table(tb, x, y)) {
			x += k->vx * span;
			y += k->vy * span;
		}
		if (crossed) {
			struct vis_obs o = obs_at(k, VIS_OBS_OFF_TABLE, k->t_last);
			o.x = x < 0 ? 0 : x > tb->length_m ? tb->length_m : x;
			o.y = y < 0 ? 0 : y > tb->width_m ? tb->width_m : y;
			vis_homography_apply(t->hinv, o.x, o.y, &o.u, &o.v);
			o.confidence = 0.85;
			emit(out, max, n, &o);
		}
	}
	k->state = VIS_TRACK_GONE;
	k->id = 0;
}

/* First contact: the flight's straight, constant-speed ground track
 * breaks. Two lines fitted (least squares) to the positions before and
 * after a candidate frame; where they come closest in time is the contact,
 * to a fraction of a frame. Needs CONTACT_AFTER frames after it, so the
 * landing is reported that many frames late. */
#define CONTACT_BEFORE 4
#define CONTACT_AFTER 3
#define CONTACT_SPAN 6	/* most sightings a side of the split the refined fit takes */

static void line_fit(const struct trk *k, int from, int n, double *p0x, double *p0y,
		     double *vx, double *vy)
{
	double st = 0, sx = 0, sy = 0, stt = 0, stx = 0, sty = 0;
	for (int i = 0; i < n; i++) {
		int j = (from + i) % HIST;
		st += k->ht[j];
		sx += k->hx[j];
		sy += k->hy[j];
		stt += k->ht[j] * k->ht[j];
		stx += k->ht[j] * k->hx[j];
		sty += k->ht[j] * k->hy[j];
	}
	double den = n * stt - st * st;
	*vx = den > 0 ? (n * stx - st * sx) / den : 0;
	*vy = den > 0 ? (n * sty - st * sy) / den : 0;
	*p0x = (sx - *vx * st) / n;
	*p0y = (sy - *vy * st) / n;
}

/* The squared residual of line_fit's line over the same sightings. */
static double line_sse(const struct trk *k, int from, int n)
{
	double px, py, vx, vy, s = 0;
	line_fit(k, from, n, &px, &py, &vx, &vy);
	for (int i = 0; i < n; i++) {
		int j = (from + i) % HIST;
		double ex = k->hx[j] - (px + vx * k->ht[j]), ey = k->hy[j] - (py + vy * k->ht[j]);
		s += ex * ex + ey * ey;
	}
	return s;
}

/* On the table (after its first landing) a die that comes within reach of
 * the can and turns there struck it (BD-O1), however softly: the disc under
 * the can feels only what trips its comparator (about 0.25 m/s). A die
 * passing over the can in the air keeps its ground track straight. Called
 * with each new sighting; decides CONTACT_AFTER sightings after the closest
 * approach (or at rest). */
static void mine_touch(struct vis_tracker *t, struct trk *k, struct vis_obs *out, int max, int *n)
{
	const struct bd_table *tb = &t->cfg.table;
	double r = tb->mine_radius_m, side = t->cfg.die_side_m;
	int m = k->sightings;
	if (k->mine_done || m < 2)
		return;
	int a = (m - 2) % HIST, b = (m - 1) % HIST;
	/* The closest point to the axis on the way from the last sighting. */
	double dx = k->hx[b] - k->hx[a], dy = k->hy[b] - k->hy[a], l2 = dx * dx + dy * dy;
	double f = l2 > 0 ? ((tb->mine_x - k->hx[a]) * dx + (tb->mine_y - k->hy[a]) * dy) / l2 : 1;
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	double d = mine_dist(t, k->hx[a] + f * dx, k->hy[a] + f * dy);
	if (d < r + MINE_CORNER_REACH * side && (!k->mine_pending || d < k->mine_d)) {
		k->mine_pending = 1;
		k->mine_d = d;
		k->mine_cx = k->hx[a] + f * dx;
		k->mine_cy = k->hy[a] + f * dy;
		k->mine_i = m - 1;
		k->mine_t = k->t_first + (int64_t)((k->ht[a] + f * (k->ht[b] - k->ht[a])) * 1e9);
	}
	int after = m - k->mine_i;
	if (!k->mine_pending || (after < CONTACT_AFTER && k->state != VIS_TRACK_REST))
		return;
	k->mine_pending = 0;
	int b0 = k->mine_i - 3, lo = m - HIST > k->i_min ? m - HIST : k->i_min;
	if (b0 < lo)
		b0 = lo;
	if (k->mine_i - b0 < 2)
		return;	/* too little seen before it */
	double px, py, bvx, bvy, avx = 0, avy = 0;
	line_fit(k, b0, k->mine_i - b0, &px, &py, &bvx, &bvy);
	if (after >= 2)
		line_fit(k, k->mine_i, after < CONTACT_AFTER ? after : CONTACT_AFTER, &px, &py, &avx, &avy);
	double dv = hypot(avx - bvx, avy - bvy), speed = hypot(bvx, bvy);
	if (dv < MINE_DV_MPS || dv < 0.2 * speed)
		return;	/* went past it, or over it */
	struct vis_obs o = obs_at(k, VIS_OBS_MINE, k->mine_t);
	int j = k->mine_i % HIST;
	o.x = k->hx[j];
	o.y = k->hy[j];
	vis_homography_apply(t->hinv, o.x, o.y, &o.u, &o.v);
	/* Within half a side of the wall a face touches it at the table's
	 * level (0.9); beyond that only a corner would, or the die turned on
	 * the table beside it (0.6); further out nothing touched it. Where
	 * it truly was is the point's error away (the can stands on the
	 * line, where the tracker's points are worst: VIS_LANDING_XY_SD_M),
	 * so each is weighed by its chance, from the closest point seen. */
	o.confidence = vis_mine_touch_confidence(tb, side, k->mine_cx, k->mine_cy,
						 VIS_LANDING_XY_SD_M, false);
	o.xy_sigma_m = VIS_LANDING_XY_SD_M;
	emit(out, max, n, &o);
	k->mine_done = 1;
}

static void emit_landing(struct vis_tracker *t, struct trk *k, double tc, double x, double y,
			 int split, double confidence, struct vis_obs *out, int max, int *n);

/* A bounce that barely turns the die leaves no kink in its ground track,
 * but seen from above the die shrinks as it falls and grows as it bounces
 * up: a valley in its blob's area. Four sightings shrinking (by a third
 * overall), then CONTACT_AFTER all bigger than the smallest (the last by
 * a quarter). At 30 fps a frame moves the area that much; at 120 fps it
 * does not, and the kink is sharp there. The contact is where the lines
 * of 1 / sqrt(ratio) (linear in the die's height) before and after meet. */
static void valley_contact(struct vis_tracker *t, struct trk *k, struct vis_obs *out, int max, int *n)
{
	int m = k->sightings, v = m - 1 - CONTACT_AFTER;
	int w0 = m > HIST ? m - HIST : 0;
	if (w0 < k->i_min)
		w0 = k->i_min;
	if (v - 3 < w0 || k->frame_s < 1.0 / 60)	/* faster, noise makes valleys */
		return;
	double rv = k->hr[v % HIST];
	/* A blob under a die's area is a fragment (half hidden, a speck). */
	if (rv < 1.0 || rv >= LOW_RELEASE_RATIO || k->hr[(v - 3) % HIST] < 1.5 * rv ||
	    k->hr[(m - 1) % HIST] < 1.25 * rv)
		return;
	for (int i = v - 3; i < v; i++)
		if (!(k->hr[i % HIST] > k->hr[(i + 1) % HIST]))
			return;
	for (int i = v + 1; i < m; i++)
		if (!(k->hr[i % HIST] > rv))
			return;
	/* q = 1 / sqrt(ratio) against time: a line through v-3..v-1, one
	 * through v+1..m-1. */
	double a[2], b[2];
	for (int s = 0; s < 2; s++) {
		int from = s ? v + 1 : v - 3, cnt = s ? m - v - 1 : 3;
		double st = 0, sq = 0, stt = 0, stq = 0;
		for (int i = from; i < from + cnt; i++) {
			double tt = k->ht[i % HIST], q = 1 / sqrt(k->hr[i % HIST]);
			st += tt;
			sq += q;
			stt += tt * tt;
			stq += tt * q;
		}
		double den = cnt * stt - st * st;
		a[s] = den > 0 ? (cnt * stq - st * sq) / den : 0;
		b[s] = (sq - a[s] * st) / cnt;
	}
	/* At the valley the die is on the fall's line, or above it if it
	 * bounced just before: a blob much smaller than the fall predicts
	 * is the die losing contrast (a white die over the white line). */
	if (1 / sqrt(rv) > 1.1 * (a[0] * k->ht[v % HIST] + b[0]))
		return;
	double t_lo = k->ht[(v - 1) % HIST], t_hi = k->ht[(v + 1) % HIST];
	double tc = a[0] != a[1] ? (b[1] - b[0]) / (a[0] - a[1]) : k->ht[v % HIST];
	if (!(tc >= t_lo))
		tc = t_lo;
	if (tc > t_hi)
		tc = t_hi;
	double px, py, vx, vy;
	line_fit(k, v - 3, m - v + 3, &px, &py, &vx, &vy);
	emit_landing(t, k, tc, px + vx * tc, py + vy * tc, v, 0.6, out, max, n);
}

static void find_contact(struct vis_tracker *t, struct trk *k, struct vis_obs *out, int max, int *n)
{
	int m = k->sightings;
	if (m < CONTACT_BEFORE + CONTACT_AFTER + 1)
		return;
	int after = m - CONTACT_AFTER, before = after - 1 - CONTACT_BEFORE;
	if (before < 0)
		before = 0;
	double bx, by, bvx, bvy, ax, ay, avx, avy;
	line_fit(k, before, after - 1 - before, &bx, &by, &bvx, &bvy);
	line_fit(k, after - 1, CONTACT_AFTER + 1, &ax, &ay, &avx, &avy);
	double dvx = avx - bvx, dvy = avy - bvy, dv = hypot(dvx, dvy);
	double speed = hypot(bvx, bvy);
	double need = t->cfg.contact_dv_mps > 0.2 * speed ? t->cfg.contact_dv_mps : 0.2 * speed;
	if (dv < need) {
		valley_contact(t, k, out, max, n);
		return;
	}
	/* The jump is seen once a single sighting after the contact pulls
	 * the line after it (at 30 fps a frame is 33 ms of flight): the
	 * first sighting after the contact is the split, near the jump,
	 * whose two lines fit best, and it needs CONTACT_AFTER sightings
	 * after it (else wait a frame). */
	int w0 = m > HIST ? m - HIST : 0, split = -1;
	if (w0 < k->i_min)
		w0 = k->i_min;	/* the way up is too far and too rough to join in; a cup's kink is past */
	double best = INFINITY;
	int sp0 = m - CONTACT_AFTER - 2 > w0 + 3 ? m - CONTACT_AFTER - 2 : w0 + 3;
	for (int sp = sp0; sp <= m - 1; sp++) {
		/* A die still magnified is well above the table: a kink in
		 * its ground track there is its blob changing shape. */
		if (k->hr[(sp - 1) % HIST] >= LOW_RELEASE_RATIO || k->hr[sp % HIST] >= LOW_RELEASE_RATIO)
			continue;
		int b0 = sp - CONTACT_SPAN > w0 ? sp - CONTACT_SPAN : w0;
		int a1 = sp + CONTACT_SPAN < m ? sp + CONTACT_SPAN : m;
		double sse = line_sse(k, b0, sp - b0) + (a1 - sp >= 3 ? line_sse(k, sp, a1 - sp) : 0);
		if (sse < best) {
			best = sse;
			split = sp;
		}
	}
	if (split < 0 || m - split < CONTACT_AFTER)
		return;
	{
		int b0 = split - CONTACT_SPAN > w0 ? split - CONTACT_SPAN : w0;
		int a1 = split + CONTACT_SPAN < m ? split + CONTACT_SPAN : m;
		line_fit(k, b0, split - b0, &bx, &by, &bvx, &bvy);
		line_fit(k, split, a1 - split, &ax, &ay, &avx, &avy);
		dvx = avx - bvx;
		dvy = avy - bvy;
		dv = hypot(dvx, dvy);
		if (dv <= 0)
			return;
	}
	/* Closest approach of the two lines in time. */
	double dpx = ax - bx, dpy = ay - by;
	double tc = -(dpx * dvx + dpy * dvy) / (dv * dv);
	/* The split's sighting may sit on both lines (a contact just
	 * before it): the contact lies within the two frames before it. */
	double t_lo = k->ht[(split - 2 >= w0 ? split - 2 : split - 1) % HIST], t_hi = k->ht[split % HIST];
	if (tc < t_lo)
		tc = t_lo;
	if (tc > t_hi)
		tc = t_hi;
	double jump = dv / need;
	emit_landing(t, k, tc, bx + bvx * tc, by + bvy * tc, split,
		     jump > 3 ? 0.95 : 0.6 + 0.35 * (jump - 1) / 2, out, max, n);
}

/* A landing at tc (seconds from the first sighting), (x, y), the first
 * sighting after it split: the observation with the apex; the track is
 * bouncing from now on. */
static void emit_landing(struct vis_tracker *t, struct trk *k, double tc, double x, double y,
			 int split, double confidence, struct vis_obs *out, int max, int *n)
{
	struct vis_obs o = obs_at(k, VIS_OBS_LANDING, k->t_first + (int64_t)(tc * 1e9));
	o.x = x;
	o.y = y;
	vis_homography_apply(t->hinv, o.x, o.y, &o.u, &o.v);
	o.flight_s = tc;
	o.xy_sigma_m = VIS_LANDING_XY_SD_M;	/* gives the landing's half its confidence */
	o.confidence = confidence;
	/* The apex from the fall alone, h = g td^2 / 2 from the top of the
	 * flight to the contact (plus half a die: the height of its centre,
	 * as the toss is measured), so the release height does not matter.
	 * The top: midway between leaving the view upwards and coming back
	 * (the same height both ways), each seen up to a frame late or
	 * early; or, released near the table top and always in view,
	 * midway between release (up to a frame late) and contact. Released
	 * high and never out of view: no apex (-1). Contact is timed to
	 * about a third of a frame by the fit. */
	double t_top = -1, sigma_top = 0, sigma_c = k->frame_s / 3;
	if (k->gap) {
		t_top = 0.5 * (double)((k->t_up - k->t_first) + (k->t_down - k->t_first)) * 1e-9;
		sigma_top = k->frame_s * sqrt(1.0 / 24);
	} else if (k->ratio0 < LOW_RELEASE_RATIO && k->ratio_max < ALOFT_RATIO &&
		   k->ratio_max > 1.25 * k->ratio0 && on_table(&t->cfg.table, k->x0, k->y0)) {
		/* (First seen beside the table, low: a die kicked up from
		 * below its edge, whose flight is not the toss.) */
		t_top = tc / 2;
		sigma_top = k->frame_s * sqrt(1.0 / 12) / 2;
		sigma_c /= 2;	/* td = tc / 2 */
	} else if (k->ratio_max >= ALOFT_RATIO && k->ratio_max > 1.25 * k->ratio0 && k->i_max > 0 &&
		   k->i_max + 1 < split) {
		/* Released high, always in view: the top is where it looked
		 * biggest (a parabola through the largest and its neighbours). */
		double ta = k->pk[0][0], tb = k->pk[1][0], tcc = k->pk[2][0], ra = k->pk[0][1],
		       rb = k->pk[1][1], rc = k->pk[2][1];
		double den = (ta - tb) * (ta - tcc) * (tb - tcc);
		double A = den ? (tcc * (rb - ra) + tb * (ra - rc) + ta * (rc - rb)) / den : 0;
		double B = den ? (tcc * tcc * (ra - rb) + tb * tb * (rc - ra) + ta * ta * (rb - rc)) / den : 0;
		t_top = A < 0 ? -B / (2 * A) : tb;
		if (t_top < ta || t_top > tcc)
			t_top = tb;
		sigma_top = k->frame_s / 2;	/* the blob's area is rough */
	}
	double td = tc - t_top;
	if (t_top >= 0 && td > 0) {
		o.apex_m = GRAVITY * td * td / 2 + t->cfg.die_side_m / 2;
		o.apex_sigma_m = GRAVITY * td * sqrt(sigma_top * sigma_top + sigma_c * sigma_c);
	} else {
		o.apex_m = -1;
		o.apex_sigma_m = 0;
	}
	int cup = cup_at(t, x, y);
	/* A contact with its centre over the can (within half a die of its
	 * wall) cannot be at the table's level: the die struck the mine. */
	int mine = cup < 0 && mine_dist(t, x, y) <
		t->cfg.table.mine_radius_m + MINE_FACE_REACH * t->cfg.die_side_m;
	if (cup >= 0 || mine) {
		/* A cup (its rim 12 cm up, or a die popping out) or the mine,
		 * not the table: no landing; the table contact that follows is
		 * the first landing and carries the apex of the flight's first
		 * contact, this one. */
		if (!k->cup_hit) {
			const struct bd_table *tb = &t->cfg.table;

			k->cup_apex = o.apex_m >= 0 ?
				o.apex_m + (mine ? tb->mine_height_m : tb->cup_height_m) : -1;
			k->cup_sigma = o.apex_sigma_m;
		}
		if (mine && !k->mine_done) {
			/* BD-O1: the mine's own event, as sure as the contact and
			 * as the chance that its centre was truly over the can
			 * (within a face's reach of the wall) given the point's
			 * error: the can stands on the line, where the error is
			 * largest, and a die landing on the table beside it is
			 * a few millimetres further out. */
			struct vis_obs m = o;
			m.kind = VIS_OBS_MINE;
			m.confidence *= vis_mine_touch_confidence(&t->cfg.table, t->cfg.die_side_m,
								  x, y, o.xy_sigma_m, true);
			m.apex_m = -1;
			m.apex_sigma_m = 0;
			m.flight_s = 0;
			emit(out, max, n, &m);
			k->mine_done = 1;
		}
		k->cup_hit = 1;
		k->i_min = split;
		return;
	}
	if (k->cup_hit) {
		o.apex_m = k->cup_apex;
		o.apex_sigma_m = k->cup_sigma;
	}
	emit(out, max, n, &o);
	k->state = VIS_TRACK_BOUNCING;
}

int vis_tracker_feed(struct vis_tracker *t, const struct vis_image *frame,
		     struct vis_obs *out, int max)
{
	if (check_frame(t, frame))
		return -EINVAL;
	if (!t->learned)
		vis_tracker_learn(t, frame);
	int w = t->w, h = t->h;
	size_t np = (size_t)w * h;
	size_t rw = (size_t)w * 3;
	/* Global light: the frame's brightness over the model's, from every
	 * 8th row (dice are too few to move it). A change beyond 2 % rescales
	 * the model at once; slower drifts are learnt below. */
	double sf = 0, sb = 0;
	for (int y = 0; y < h; y += 8)
		sf += sum_row(frame_row(t, frame, y), rw);
	/* The model's side changes only when it learns (every 4th frame). */
	if (!t->bg_sum_ok) {
		for (int y = 0; y < h; y += 8)
			sb += sum_row(t->bg8 + (size_t)y * rw, rw);
		t->bg_sum = sb;
		t->bg_sum_ok = 1;
	}
	sb = t->bg_sum;
	double gain = sb > 0 ? sf / sb : 1;
	if (fabs(gain - 1) > 0.02) {
		for (size_t i = 0; i < np * 3; i++) {
			double v = t->bg16[i] * gain;
			t->bg16[i] = (uint16_t)(v > 65535 ? 65535 : v);
			t->bg8[i] = (uint8_t)((t->bg16[i] + 128) >> 8 > 255 ? 255 : (t->bg16[i] + 128) >> 8);
		}
		t->bg_sum_ok = 0;
	}
	/* Foreground: summed absolute difference over R, G, B (about 1.5
	 * times a Euclidean distance), a plain loop the compiler vectorises. */
	int thr = t->cfg.diff_threshold * 3 / 2;
	/* Each row learns every 8th frame at 8x the rate, an eighth of the
	 * rows a frame: the same adaptation as every row every frame, at an
	 * eighth of the work, spread evenly over the frames. The light
	 * check's rows (every 8th) learn on phase 0. */
	int phase = (int)(t->frames++ & 7);
	if (phase == 0)
		t->bg_sum_ok = 0;
	int k8 = (int)(8 * t->cfg.bg_rate * 256 + 0.5);
	if (k8 > 255)
		k8 = 255;
	size_t nfg = 0;
	for (int y = 0; y < h; y++) {
		const uint8_t *c = frame_row(t, frame, y);
		const uint8_t *b8 = t->bg8 + (size_t)y * rw;
		uint8_t *fg = t->fg + (size_t)y * w;
		int update = (y & 7) == phase;
		/* A row whose every channel differs by at most thr / 3 holds no
		 * foreground: its sums are needed only to learn, and with 8-bit
		 * sums that takes one pass. */
		int clean = absdiff_row(c, b8, t->diff + 2, rw) * 3 <= thr;
		if (clean && (!update || thr <= 254)) {
			if (t->fgrow[y]) {	/* a clear row's mask stays zero */
				memset(fg, 0, (size_t)w);
				t->fgrow[y] = 0;
			}
			if (update)
				learn_clean_row(c, t->diff + 2, t->phase, t->bg16 + (size_t)y * rw,
						t->bg8 + (size_t)y * rw, rw, (uint8_t)(thr / 3), k8);
			continue;
		}
		if (thr >= 0 && thr <= 254)
			pixel_sums_row8(t->diff + 2, t->phase, t->fgb, t->upd, rw, (uint8_t)thr,
					(uint8_t)(thr / 3));
		else
			pixel_sums_row(t->diff + 2, t->phase, t->fgb, t->upd, rw, clamp_sum(thr),
				       clamp_sum(thr / 3));
		if (!memchr(t->fgb, 1, rw)) {
			if (t->fgrow[y]) {
				memset(fg, 0, (size_t)w);
				t->fgrow[y] = 0;
			}
		} else {
			pixels_row(t->fgb, fg, w);
			t->fgrow[y] = 1;
			for (const uint8_t *f = memchr(fg, 1, (size_t)w); f;
			     f = memchr(f + 1, 1, (size_t)(fg + w - f - 1))) {
				int x = (int)(f - fg);
				nfg++;
				/* A shadow: the table's hue, darker. */
				const uint8_t *p = c + 3 * x, *q = b8 + 3 * x;
				double lf = p[0] + p[1] + p[2], lb = q[0] + q[1] + q[2];
				if (lb > 60 && lf < lb * 0.95 && lf > lb * 0.4) {
					double dc = 0;
					for (int j = 0; j < 3; j++)
						dc += fabs(p[j] / (lf + 1e-9) - q[j] / lb);
					fg[x] = dc > 0.12;	/* hue, summed: noise on a dark table is ~0.05 */
				}
			}
		}
		/* Only pixels clearly background learn (upd: summed difference
		 * at most a third of the threshold, so never foreground nor a
		 * shadow): a white die on the white line is under the threshold
		 * but must not be learnt. */
		if (update)
			learn_row(c, t->upd, t->bg16 + (size_t)y * rw, t->bg8 + (size_t)y * rw, rw, k8);
	}
	/* Blobs (flood fill marks visited pixels 2). */
	struct tblob blobs[64];
	int nb = 0;
	for (size_t i = 0; i < np && nfg; i++) {
		/* The next foreground pixel, in rows whose mask may hold one. */
		const uint8_t *next = NULL;
		for (int y = (int)(i / (size_t)w); y < h && !next; y++) {
			if (!t->fgrow[y])
				continue;
			size_t r0 = (size_t)y * w, from = i > r0 ? i : r0;
			next = memchr(t->fg + from, 1, r0 + (size_t)w - from);
		}
		if (!next)
			break;
		i = (size_t)(next - t->fg);
		int sp = 0, area = 0;
		double su = 0, sv = 0;
		t->stack[sp++] = (int)i;
		t->fg[i] = 2;
		while (sp) {
			int p = t->stack[--sp];
			int px = p % w, py = p / w;
			area++;
			su += px;
			sv += py;
			static const int d4[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
			for (int k = 0; k < 4; k++) {
				int xx = px + d4[k][0], yy = py + d4[k][1];
				if (xx < 0 || yy < 0 || xx >= w || yy >= h)
					continue;
				int q = yy * w + xx;
				if (t->fg[q] == 1) {
					t->fg[q] = 2;
					t->stack[sp++] = q;
				}
			}
		}
		struct tblob b = { .u = su / area + 0.5, .v = sv / area + 0.5, .area = area };
		if (vis_homography_apply(t->cfg.h, b.u, b.v, &b.x, &b.y))
			continue;
		double k = px_per_m(t, b.x, b.y) * t->cfg.die_side_m;
		double die_area = k * k;
		/* A flying die looks bigger and smears; a speck is noise. */
		if (area < 0.2 * die_area || area > MAX_BLOB_RATIO * die_area + 4 || nb == 64)
			continue;
		b.ratio = area / die_area;
		blobs[nb++] = b;
	}
	/* Pieces of one die: a die crossing the white line, or half in a
	 * shadow, splits into blobs; in the air it looks bigger. Merge those
	 * closer than 2.5 die sides. */
	for (int i = 0; i < nb; i++)
		for (int j = i + 1; j < nb; j++) {
			if (hypot(blobs[i].x - blobs[j].x, blobs[i].y - blobs[j].y) > 2.5 * t->cfg.die_side_m)
				continue;
			double wi = blobs[i].area, wj = blobs[j].area, s = wi + wj;
			blobs[i].u = (blobs[i].u * wi + blobs[j].u * wj) / s;
			blobs[i].v = (blobs[i].v * wi + blobs[j].v * wj) / s;
			blobs[i].x = (blobs[i].x * wi + blobs[j].x * wj) / s;
			blobs[i].y = (blobs[i].y * wi + blobs[j].y * wj) / s;
			blobs[i].area = (int)s;
			blobs[i].ratio += blobs[j].ratio;
			blobs[j] = blobs[--nb];
			j = i;
		}
	int n = 0;
	int64_t ts = frame->ts_ns;
	/* Each live track takes the nearest blob to its prediction. */
	for (int i = 0; i < MAX_TRACKS; i++) {
		struct trk *k = &t->tracks[i];
		if (!k->id)
			continue;
		double dt = (ts - k->t_last) * 1e-9;
		double px = k->x + k->vx * dt, py = k->y + k->vy * dt;
		/* A bounce turns a die and changes its speed by up to a few
		 * m/s; a new track's speed is not known yet (at 30 fps a thrown
		 * die moves 10-20 cm a frame). */
		double gate = 0.04 + (k->have_v ? 0.5 * hypot(k->vx, k->vy) + MAX_DV_MPS : MAX_SPEED_MPS) * dt;
		/* Coming back from above: magnified, near its straight ground
		 * track; the velocity from a few sightings on the way up, often
		 * at the view's edge, is rough. */
		if (k->aloft)
			gate = k->sightings >= 3 ? 0.3 + 0.5 * hypot(k->vx, k->vy) * dt : 2.0;
		int best = -1;
		double bd = gate;
		for (int j = 0; j < nb; j++) {
			double d = hypot(blobs[j].x - px, blobs[j].y - py);
			if (!blobs[j].used && d < bd && (!k->aloft || blobs[j].ratio >= 0.75 * ALOFT_RATIO)) {
				bd = d;
				best = j;
			}
		}
		if (best < 0) {
			k->unseen++;
			if (k->aloft) {
				if (dt > ALOFT_MAX_S) {	/* never came back into view */
					k->state = VIS_TRACK_GONE;
					k->id = 0;
				}
				continue;
			}
			/* Lost while rising, big: above the view (a toss higher
			 * than the camera), not gone. Its ground velocity from
			 * every sighting so far finds it again. */
			if (k->state == VIS_TRACK_FLYING && !k->gap && k->ratio_max >= ALOFT_RATIO &&
			    k->sightings - 1 - k->i_max <= 1) {	/* largest at the end: rising */
				k->aloft = 1;
				k->t_up = k->t_last;
				if (k->sightings >= 3) {
					int m = k->sightings < HIST ? k->sightings : HIST;
					double p0x, p0y;
					line_fit(k, k->sightings - m, m, &p0x, &p0y, &k->vx, &k->vy);
				}
				continue;
			}
			if (k->unseen >= t->cfg.gone_frames)
				track_gone(t, k, out, max, &n);
			continue;
		}
		struct tblob *b = &blobs[best];
		b->used = 1;
		if (k->aloft) {
			k->aloft = 0;
			k->gap = 1;
			k->t_down = ts;
			k->i_min = k->sightings;
		}
		k->ratio_prev = k->ratio;
		k->ratio = b->ratio;
		double tnow = (ts - k->t_first) * 1e-9;
		if (k->i_max == k->sightings - 1) {
			k->pk[2][0] = tnow;
			k->pk[2][1] = b->ratio;
		}
		if (k->state == VIS_TRACK_FLYING && b->ratio > k->ratio_max) {
			k->ratio_max = b->ratio;
			k->i_max = k->sightings;
			k->pk[0][0] = k->ht[(k->sightings - 1) % HIST];
			k->pk[0][1] = k->hr[(k->sightings - 1) % HIST];
			k->pk[1][0] = tnow;
			k->pk[1][1] = b->ratio;
		}
		double nvx = dt > 0 ? (b->x - k->x) / dt : 0, nvy = dt > 0 ? (b->y - k->y) / dt : 0;
		k->vx = nvx;
		k->vy = nvy;
		k->have_v = dt > 0;
		k->x = b->x;
		k->y = b->y;
		k->u = b->u;
		k->v = b->v;
		k->t_last = ts;
		k->frame_s = dt / (k->unseen + 1);
		k->unseen = 0;
		int hi = k->sightings % HIST;
		k->hx[hi] = b->x;
		k->hy[hi] = b->y;
		k->hr[hi] = b->ratio;
		k->ht[hi] = (ts - k->t_first) * 1e-9;
		k->sightings++;
		if (k->sightings == 2) {
			struct vis_obs o = obs_at(k, VIS_OBS_RELEASE, k->t_first);
			emit(out, max, &n, &o);
		}
		if (k->state == VIS_TRACK_FLYING)
			find_contact(t, k, out, max, &n);
		else
			mine_touch(t, k, out, max, &n);
		/* Still: within a third of a die of where the spell began (the
		 * centroid of a 4-pixel die jitters more than a rest speed). */
		if (hypot(k->x - k->rx, k->y - k->ry) < t->cfg.die_side_m / 3) {
			if (++k->still == t->cfg.rest_frames && k->state != VIS_TRACK_REST) {
				k->state = VIS_TRACK_REST;
				struct vis_obs o = obs_at(k, VIS_OBS_REST, ts);
				emit(out, max, &n, &o);
			}
		} else {
			k->still = 0;
			k->rx = k->x;
			k->ry = k->y;
			if (k->state == VIS_TRACK_REST)
				k->state = VIS_TRACK_BOUNCING;
		}
	}
	/* New tracks from the blobs nobody took. */
	for (int j = 0; j < nb; j++) {
		if (blobs[j].used)
			continue;
		for (int i = 0; i < MAX_TRACKS; i++) {
			struct trk *k = &t->tracks[i];
			if (k->id)
				continue;
			memset(k, 0, sizeof(*k));
			k->id = t->next_id++;
			k->state = VIS_TRACK_FLYING;
			k->x = blobs[j].x;
			k->y = blobs[j].y;
			k->u = blobs[j].u;
			k->v = blobs[j].v;
			k->t_first = k->t_last = ts;
			k->ratio = k->ratio0 = k->ratio_prev = k->ratio_max = blobs[j].ratio;
			k->hx[0] = k->rx = k->x0 = blobs[j].x;
			k->y0 = blobs[j].y;
			k->hy[0] = k->ry = blobs[j].y;
			k->hr[0] = blobs[j].ratio;
			k->ht[0] = 0;
			k->sightings = 1;
			break;
		}
	}
	return n;
}

int vis_tracker_tracks(const struct vis_tracker *t, enum vis_track_state *state,
		       double (*xy)[2], int max)
{
	int n = 0;
	for (int i = 0; i < MAX_TRACKS; i++) {
		const struct trk *k = &t->tracks[i];
		if (!k->id)
			continue;
		if (n < max) {
			state[n] = k->state;
			xy[n][0] = k->x;
			xy[n][1] = k->y;
		}
		n++;
	}
	return n;
}

int vis_obs_to_event(const struct vis_obs *o, const struct bd_table *table, struct bd_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->player = BD_NOBODY;
	switch (o->kind) {
	case VIS_OBS_LANDING:
		ev->kind = BD_EV_TABLE;
		ev->has_xy = true;
		ev->x = o->x;
		ev->y = o->y;
		ev->half = bd_table_half(table, o->x);
		break;
	case VIS_OBS_REST:
		if (o->face < 1 || o->face > 6)
			return -ENOENT;
		ev->kind = BD_EV_REST;
		ev->face = o->face;
		break;
	case VIS_OBS_SINK:
		ev->kind = BD_EV_CUP;
		ev->player = o->player;
		ev->sink = true;
		break;
	case VIS_OBS_MINE:
		ev->kind = BD_EV_MINE;
		break;
	default:
		return -ENOENT;
	}
	ev->has_confidence = true;
	ev->confidence = o->confidence;
	if (o->kind == VIS_OBS_LANDING && o->xy_sigma_m > 0)
		ev->confidence *= vis_half_confidence(table, o->x, o->xy_sigma_m);
	snprintf(ev->source, sizeof(ev->source), "camera");
	ev->t_ns = o->t_ns;
	return 0;
}

double vis_half_confidence(const struct bd_table *table, double x, double sigma_m)
{
	double line = table->length_m / 2, w = table->line_width_m / 2;
	if (!(sigma_m > 0))
		return 1;
	/* Normal CDF at the line's two edges. */
	double lo = 0.5 * erfc(-((line - w) - x) / (sigma_m * M_SQRT2));	/* P(true x < line - w) */
	double hi = 0.5 * erfc(-((line + w) - x) / (sigma_m * M_SQRT2));	/* P(true x < line + w) */
	switch (bd_table_half(table, x)) {
	case BD_HALF_A:
		return lo;
	case BD_HALF_B:
		return 1 - hi;
	default:
		return hi - lo;
	}
}

double vis_mine_reach(const struct bd_table *table, double x, double y, double reach_m,
		      double sigma_m)
{
	double d = hypot(x - table->mine_x, y - table->mine_y);
	if (!(reach_m > 0))
		return 0;
	if (!(sigma_m > 0))
		return d < reach_m;
	/* With the point on the u axis at d: P = integral over the disc's
	 * chords u in [-R, R] of the error's density along u times its mass
	 * along v within the chord (Simpson; beyond 8 sd there is none). */
	double lo = fmax(-reach_m, d - 8 * sigma_m), hi = fmin(reach_m, d + 8 * sigma_m);
	if (lo >= hi)
		return 0;
	const int n = 128;	/* even */
	double h = (hi - lo) / n, sum = 0;
	for (int i = 0; i <= n; i++) {
		double u = lo + i * h, z = (u - d) / sigma_m, c = reach_m * reach_m - u * u;
		double f = exp(-0.5 * z * z) / (sigma_m * sqrt(2 * M_PI)) *
			   erf(sqrt(c > 0 ? c : 0) / (sigma_m * M_SQRT2));
		sum += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
	}
	double p = sum * h / 3;
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

double vis_mine_touch_confidence(const struct bd_table *table, double die_side_m, double x,
				 double y, double sigma_m, bool over_can)
{
	double r = table->mine_radius_m;
	double p_face = vis_mine_reach(table, x, y, r + MINE_FACE_REACH * die_side_m, sigma_m);

	if (over_can)
		return p_face;
	double p_reach = vis_mine_reach(table, x, y, r + MINE_CORNER_REACH * die_side_m, sigma_m);
	return 0.9 * p_face + 0.6 * (p_reach - p_face);
}

int vis_read_face_at(const struct vis_image *full, double u, double v, double die_px,
		     struct vis_die *out, char *err, size_t errlen)
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
	int n = vis_dice_find(crop, NULL, dice, 8, err, errlen);
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
