/* vision: the tracker's background model and foreground (track.c says
 * how the tracker works). The model is a running average of the empty
 * table in 8.8 fixed point, learnt only where a pixel is clearly
 * background; the per-pixel loops are written to be vectorised. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/track_internal.h"

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

int vis_trk_check_frame(const struct vis_tracker *t, const struct vis_image *f)
{
	if (!f || !f->data || f->width != t->w || f->height != t->h ||
	    (f->format != VIS_GRAY8 && f->format != VIS_RGB24))
		return -EINVAL;
	return 0;
}

int vis_tracker_learn(struct vis_tracker *t, const struct vis_image *frame)
{
	if (vis_trk_check_frame(t, frame))
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

/* Global light: the frame's brightness over the model's, from every
 * 8th row (dice are too few to move it). A change beyond 2 % rescales
 * the model at once; slower drifts are learnt by vis_trk_foreground. */
void vis_trk_light(struct vis_tracker *t, const struct vis_image *frame)
{
	int h = t->h;
	size_t np = (size_t)t->w * h;
	size_t rw = (size_t)t->w * 3;
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
}

/* Foreground: summed absolute difference over R, G, B (about 1.5
 * times a Euclidean distance), a plain loop the compiler vectorises,
 * into t->fg (t->fgrow: rows that may hold some), shadows taken out; the
 * rows whose turn it is learn. Returns the foreground pixels. */
size_t vis_trk_foreground(struct vis_tracker *t, const struct vis_image *frame)
{
	int w = t->w, h = t->h;
	size_t rw = (size_t)w * 3;
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
	return nfg;
}

