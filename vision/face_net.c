/* vision: a small convolutional net that names the face of a die centred
 * in a crop, or says no die is centred there.
 *
 * The pip reader (dice_pips.c) counts pips and fits their layout; on real
 * photos it loses pips on marbled dice, to highlights, to JPEG's colour
 * and to shadows, and then reads a 4-6 as a 1 or a 2. The net sees the
 * same crop whole and was trained (tools/fnet/train_face_net.py) on crops of
 * labelled real dice and rendered ones, turned, scaled, shifted and
 * recoloured; dice.c weighs the two readings against each other. The
 * built-in weights are generated (vision/face_net_weights.c); a retrained
 * net comes as a weights file (vis_fnet_load, docs/vision.md).
 *
 * Layers, as in the training script: the crop's bytes normalised by its
 * own mean and spread (so light and exposure do not matter), three 3x3
 * convolutions (16, 32, 48 channels, zero padding, ReLU) each followed by
 * a 2x2 max pool, a fully connected layer of 64 (ReLU) and one of 7.
 *
 * The forward pass keeps its planes channel-last (a pixel's channels side
 * by side) and its weights reordered to match, so that every inner loop
 * runs over output channels, a fixed multiple of 4 with no sum across
 * lanes: the compiler vectorises them at -O2 as they are. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/face_net_weights.h"
#include "vision/simd.h"
#include "vision/vision.h"

#ifndef FNET_TURNS
#define FNET_TURNS 4	/* weights generated before their header said: read at four */
#endif
_Static_assert(FNET_TURNS == 1 || FNET_TURNS == 2 || FNET_TURNS == 4,
	       "face net: the built-in weights' turns are not 1, 2 or 4");

#define S0 VIS_FNET_SIDE	/* 40 */
#define S1 (S0 / 2)		/* 20 */
#define S2 (S1 / 2)		/* 10 */
#define S3 (S2 / 2)		/* 5 */
#define C1 16
#define C2 32
#define C3 48
#define F1 64
#define NC VIS_FNET_CLASSES

_Static_assert(FNET_C1_IN == 3 && FNET_C1_OUT == C1 && FNET_C2_IN == C1 && FNET_C2_OUT == C2 &&
		       FNET_C3_IN == C2 && FNET_C3_OUT == C3,
	       "face net: the built-in weights' layer sizes are not the forward pass's");
_Static_assert(C1 % 16 == 0 && C2 % 16 == 0 && C3 % 16 == 0,
	       "face net: conv_relu_pool sums 16 channels at a time");
_Static_assert(FNET_F1_IN == C3 * S3 * S3 && FNET_F1_OUT == F1 && FNET_F2_IN == F1 &&
		       FNET_F2_OUT == NC,
	       "face net: the built-in weights' layer sizes are not the forward pass's");

/* The arrays of a net in the file's (torch's) order and sizes. */
enum { W_C1, B_C1, W_C2, B_C2, W_C3, B_C3, W_F1, B_F1, W_F2, B_F2, N_ARRAYS };
static const size_t array_len[N_ARRAYS] = {
	C1 * 3 * 9, C1, C2 * C1 * 9, C2, C3 * C2 * 9, C3, F1 * C3 * S3 * S3, F1, NC * F1, NC,
};
#define N_WEIGHTS ((size_t)C1 * 27 + C1 + C2 * C1 * 9 + C2 + C3 * C2 * 9 + C3 + \
		   F1 * C3 * S3 * S3 + F1 + NC * F1 + NC)	/* 96,279 */

/* The file: a header of 12 little-endian u32 (magic 2, format, side,
 * classes, turns, the five widths, the spread floor as f32 bits, count of
 * floats), the floats, a CRC-32 of all before it (docs/vision.md). */
#define HEADER_WORDS 12
#define FILE_BYTES ((size_t)HEADER_WORDS * 4 + N_WEIGHTS * 4 + 4)
static const char magic[8] = { 'D', 'Y', 'E', 'F', 'N', 'E', 'T', '\n' };

/* The forward pass's weights (vis_fnet.w, owned): each convolution as
 * [ky][kx][in][out], the first full layer as [y][x][c][out] (a3's
 * channel-last order), the second as [out][in]; the file's arrays
 * (torch's order) after them, kept for vis_fnet_write. */
struct prepared {
	float c1w[9 * 3 * C1], c1b[C1];
	float c2w[9 * C1 * C2], c2b[C2];
	float c3w[9 * C2 * C3], c3b[C3];
	float f1w[S3 * S3 * C3 * F1], f1b[F1];
	float f2w[NC * F1], f2b[NC];
	float raw[N_WEIGHTS];
};

/* ---- CRC-32 (IEEE 802.3, as zlib's crc32) ---- */

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xEDB88320u & -(crc & 1));
	}
	return ~crc;
}

static void put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static float bits_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* The file's header for net into h (HEADER_WORDS * 4 bytes). */
static void header_of(const struct vis_fnet *net, uint8_t *h)
{
	memcpy(h, magic, 8);
	put_u32(h + 8, VIS_FNET_FORMAT);
	put_u32(h + 12, S0);
	put_u32(h + 16, NC);
	put_u32(h + 20, (uint32_t)net->turns);
	put_u32(h + 24, 3);
	put_u32(h + 28, C1);
	put_u32(h + 32, C2);
	put_u32(h + 36, C3);
	put_u32(h + 40, F1);
	put_u32(h + 44, f32_bits(net->norm_eps));
}

/* The CRC-32 the file of net ends with. */
static uint32_t file_crc(const struct vis_fnet *net)
{
	const struct prepared *w = (const struct prepared *)net->w;
	uint8_t h[HEADER_WORDS * 4], le[4];
	uint32_t crc;

	header_of(net, h);
	crc = crc32_update(0, h, sizeof(h));
	for (size_t i = 0; i < N_WEIGHTS; i++) {
		put_u32(le, f32_bits(w->raw[i]));
		crc = crc32_update(crc, le, 4);
	}
	return crc;
}

/* Reorders w->raw (torch's order) into the forward pass's arrays. */
static void prepare(struct prepared *w)
{
	const float *a[N_ARRAYS];
	const float *p = w->raw;

	for (int k = 0; k < N_ARRAYS; k++) {
		a[k] = p;
		p += array_len[k];
	}
	/* torch's conv weight is [out][in][ky][kx] */
	for (int o = 0; o < C1; o++)
		for (int c = 0; c < 3; c++)
			for (int k = 0; k < 9; k++)
				w->c1w[(k * 3 + c) * C1 + o] = a[W_C1][(o * 3 + c) * 9 + k];
	for (int o = 0; o < C2; o++)
		for (int c = 0; c < C1; c++)
			for (int k = 0; k < 9; k++)
				w->c2w[(k * C1 + c) * C2 + o] = a[W_C2][(o * C1 + c) * 9 + k];
	for (int o = 0; o < C3; o++)
		for (int c = 0; c < C2; c++)
			for (int k = 0; k < 9; k++)
				w->c3w[(k * C2 + c) * C3 + o] = a[W_C3][(o * C2 + c) * 9 + k];
	/* torch flattens a3 as [c][y][x] */
	for (int o = 0; o < F1; o++)
		for (int c = 0; c < C3; c++)
			for (int q = 0; q < S3 * S3; q++)
				w->f1w[(q * C3 + c) * F1 + o] = a[W_F1][(size_t)o * C3 * S3 * S3 + c * S3 * S3 + q];
	memcpy(w->c1b, a[B_C1], sizeof(w->c1b));
	memcpy(w->c2b, a[B_C2], sizeof(w->c2b));
	memcpy(w->c3b, a[B_C3], sizeof(w->c3b));
	memcpy(w->f1b, a[B_F1], sizeof(w->f1b));
	memcpy(w->f2w, a[W_F2], sizeof(w->f2w));
	memcpy(w->f2b, a[B_F2], sizeof(w->f2b));
}

/* ---- The built-in net ---- */

static struct prepared builtin_w;
static struct vis_fnet builtin_net;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void builtin_init(void)
{
	const float *a[N_ARRAYS] = { fnet_c1_w, fnet_c1_b, fnet_c2_w, fnet_c2_b, fnet_c3_w,
				     fnet_c3_b, fnet_f1_w, fnet_f1_b, fnet_f2_w, fnet_f2_b };
	float *p = builtin_w.raw;

	for (int k = 0; k < N_ARRAYS; k++) {
		memcpy(p, a[k], sizeof(float) * array_len[k]);
		p += array_len[k];
	}
	prepare(&builtin_w);
	builtin_net = (struct vis_fnet){ .turns = FNET_TURNS, .version = VIS_FNET_FORMAT, .side = S0,
					 .c1 = C1, .c2 = C2, .c3 = C3, .f1 = F1,
					 .norm_eps = (float)FNET_NORM_EPS, .w = &builtin_w };
	builtin_net.crc = file_crc(&builtin_net);
}

const struct vis_fnet *vis_fnet_builtin(void)
{
	pthread_once(&builtin_once, builtin_init);
	return &builtin_net;
}

/* ---- Weights files ---- */

void vis_fnet_free(struct vis_fnet *net)
{
	if (!net || net == &builtin_net)
		return;
	free(net->w);
	free(net);
}

int vis_fnet_load(const char *path, struct vis_fnet **out, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	int rc;

	*out = NULL;
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "face net %s: %s", path, strerror(errno));
		return rc;
	}
	rc = vis_fnet_read_file(f, path, out, err, errlen);
	fclose(f);
	return rc;
}

int vis_fnet_read_file(FILE *f, const char *path, struct vis_fnet **out, char *err, size_t errlen)
{
	uint8_t h[HEADER_WORDS * 4], le[4];
	struct prepared *w = NULL;
	struct vis_fnet *net = NULL;
	size_t got;
	uint32_t crc;
	int rc = -EINVAL;

	*out = NULL;
	got = fread(h, 1, sizeof(h), f);
	if (got < 8 || memcmp(h, magic, 8) != 0) {
		snprintf(err, errlen, "face net %s: not a dyeref face net weights file (no DYEFNET magic)",
			 path);
		goto cleanup_net;
	}
	if (got < sizeof(h)) {
		snprintf(err, errlen, "face net %s: truncated: %zu of %zu bytes", path, got, FILE_BYTES);
		goto cleanup_net;
	}
	if (get_u32(h + 8) != VIS_FNET_FORMAT) {
		snprintf(err, errlen, "face net %s: format version %u, this dyeref reads %d", path,
			 (unsigned)get_u32(h + 8), VIS_FNET_FORMAT);
		goto cleanup_net;
	}
	if (get_u32(h + 12) != S0 || get_u32(h + 16) != NC || get_u32(h + 24) != 3 ||
	    get_u32(h + 28) != C1 || get_u32(h + 32) != C2 || get_u32(h + 36) != C3 ||
	    get_u32(h + 40) != F1) {
		snprintf(err, errlen,
			 "face net %s: shape %ux%u crops, %u classes, layers %u-%u-%u-%u-%u; this dyeref's is "
			 "%dx%d, %d, 3-%d-%d-%d-%d",
			 path, (unsigned)get_u32(h + 12), (unsigned)get_u32(h + 12),
			 (unsigned)get_u32(h + 16), (unsigned)get_u32(h + 24), (unsigned)get_u32(h + 28),
			 (unsigned)get_u32(h + 32), (unsigned)get_u32(h + 36), (unsigned)get_u32(h + 40),
			 S0, S0, NC, C1, C2, C3, F1);
		goto cleanup_net;
	}
	uint32_t turns = get_u32(h + 20);
	float eps = bits_f32(get_u32(h + 44));
	if (turns != 1 && turns != 2 && turns != 4) {
		snprintf(err, errlen, "face net %s: %u turns (1, 2 or 4)", path, (unsigned)turns);
		goto cleanup_net;
	}
	/* Above 0: a crop of one colour has spread 0, and 0 / 0 is no input. */
	if (!(eps > 0 && eps <= 1000)) {
		snprintf(err, errlen, "face net %s: spread floor %g (above 0, at most 1000)", path, eps);
		goto cleanup_net;
	}
	/* memory for the expected shape only: the file's length is checked
	 * by reading, not trusted */
	w = malloc(sizeof(*w));
	net = calloc(1, sizeof(*net));
	if (!w || !net) {
		rc = -ENOMEM;
		snprintf(err, errlen, "face net %s: out of memory", path);
		goto cleanup_net;
	}
	crc = crc32_update(0, h, sizeof(h));
	for (size_t i = 0; i < N_WEIGHTS; i++) {
		if (fread(le, 1, 4, f) != 4) {
			snprintf(err, errlen, "face net %s: truncated: %zu of %zu bytes", path,
				 sizeof(h) + 4 * i, FILE_BYTES);
			goto cleanup_net;
		}
		crc = crc32_update(crc, le, 4);
		w->raw[i] = bits_f32(get_u32(le));
		if (!isfinite(w->raw[i])) {
			snprintf(err, errlen, "face net %s: weight %zu is not a finite number", path, i);
			goto cleanup_net;
		}
		if (fabsf(w->raw[i]) > VIS_FNET_MAX_WEIGHT) {
			snprintf(err, errlen, "face net %s: weight %zu is %g, beyond +-%g", path, i,
				 w->raw[i], VIS_FNET_MAX_WEIGHT);
			goto cleanup_net;
		}
	}
	if (fread(le, 1, 4, f) != 4) {
		snprintf(err, errlen, "face net %s: truncated: no checksum", path);
		goto cleanup_net;
	}
	if (fgetc(f) != EOF) {
		snprintf(err, errlen, "face net %s: trailing bytes after its %zu", path, FILE_BYTES);
		goto cleanup_net;
	}
	if (ferror(f)) {
		rc = -EIO;
		snprintf(err, errlen, "face net %s: read error", path);
		goto cleanup_net;
	}
	if (get_u32(le) != crc) {
		snprintf(err, errlen, "face net %s: checksum %08x, the contents' %08x: damaged", path,
			 (unsigned)get_u32(le), (unsigned)crc);
		goto cleanup_net;
	}
	prepare(w);
	*net = (struct vis_fnet){ .turns = (int)turns, .version = VIS_FNET_FORMAT, .side = S0,
				  .c1 = C1, .c2 = C2, .c3 = C3, .f1 = F1, .norm_eps = eps,
				  .crc = crc, .w = w };
	*out = net;
	return 0;
cleanup_net:
	free(w);
	free(net);
	return rc;
}

int vis_fnet_write(const struct vis_fnet *net, const char *path, char *err, size_t errlen)
{
	const struct prepared *w = (const struct prepared *)net->w;
	uint8_t h[HEADER_WORDS * 4], le[4];
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f) {
		int rc = -errno;
		snprintf(err, errlen, "face net %s: %s", path, strerror(errno));
		return rc;
	}
	header_of(net, h);
	ok = fwrite(h, 1, sizeof(h), f) == sizeof(h);
	for (size_t i = 0; i < N_WEIGHTS && ok; i++) {
		put_u32(le, f32_bits(w->raw[i]));
		ok = fwrite(le, 1, 4, f) == 4;
	}
	put_u32(le, file_crc(net));
	ok = ok && fwrite(le, 1, 4, f) == 4;
	if (fclose(f) != 0 || !ok) {
		snprintf(err, errlen, "face net %s: write failed", path);
		remove(path);
		return -EIO;
	}
	return 0;
}

struct vis_fnet *vis_fnet_copy(const struct vis_fnet *net, int turns, double scale)
{
	struct vis_fnet *c = malloc(sizeof(*c));
	struct prepared *w = malloc(sizeof(*w));

	if (!c || !w) {
		free(c);
		free(w);
		return NULL;
	}
	memcpy(w, net->w, sizeof(*w));
	*c = *net;
	c->w = w;
	c->turns = turns;
	if (scale != 1) {
		for (size_t i = 0; i < N_WEIGHTS; i++)
			w->raw[i] = (float)(w->raw[i] * scale);
		prepare(w);
	}
	c->crc = file_crc(c);
	return c;
}

/* ---- Crops ---- */

/* Bilinear sample of every channel at (x, y) into v[0..2] (GRAY8: the
 * one channel thrice), edge pixels beyond the image. */
static void pixel(const struct vis_image *img, double x, double y, double v[3])
{
	int W = img->width, H = img->height;
	/* Written so that NaN (an infinite span turned: inf - inf) clamps
	 * too: (int) of a NaN or of anything out of int's range is undefined. */
	if (!(x >= 0))
		x = 0;
	if (!(y >= 0))
		y = 0;
	if (!(x <= W - 1))
		x = W - 1;
	if (!(y <= H - 1))
		y = H - 1;
	int x0 = (int)x, y0 = (int)y;
	int x1 = x0 + 1 < W ? x0 + 1 : x0, y1 = y0 + 1 < H ? y0 + 1 : y0;
	double fx = x - x0, fy = y - y0;
	int bpp = img->format == VIS_RGB24 ? 3 : 1;
	const uint8_t *r0 = img->data + (size_t)y0 * img->stride;
	const uint8_t *r1 = img->data + (size_t)y1 * img->stride;
	for (int c = 0; c < 3; c++) {
		int k = bpp == 1 ? 0 : c;
		double a = r0[x0 * bpp + k] * (1 - fx) + r0[x1 * bpp + k] * fx;
		double b = r1[x0 * bpp + k] * (1 - fx) + r1[x1 * bpp + k] * fx;
		v[c] = a * (1 - fy) + b * fy;
	}
}

void vis_fnet_crop(const struct vis_image *img, double x, double y, double span, double angle,
		   uint8_t *out)
{
	double ca = cos(angle), sa = sin(angle), step = span / S0;
	/* A crop much smaller than the image's pixels is fine; a span much
	 * larger than the crop is averaged over a few samples a pixel so
	 * that a big die's pips are not aliased away. */
	int sub = step > 1.5 ? (step > 3 ? 3 : 2) : 1;
	for (int j = 0; j < S0; j++)
		for (int i = 0; i < S0; i++) {
			double acc[3] = { 0, 0, 0 };
			for (int sj = 0; sj < sub; sj++)
				for (int si = 0; si < sub; si++) {
					double u = (i + (si + 0.5) / sub - 0.5 * S0) * step;
					double v = (j + (sj + 0.5) / sub - 0.5 * S0) * step, p[3];
					pixel(img, x + u * ca - v * sa, y + u * sa + v * ca, p);
					for (int c = 0; c < 3; c++)
						acc[c] += p[c];
				}
			for (int c = 0; c < 3; c++) {
				double val = acc[c] / (sub * sub) + 0.5;
				out[(j * S0 + i) * 3 + c] = (uint8_t)(val > 255 ? 255 : val);
			}
		}
}

/* ---- The forward pass ---- */

/* 3x3 convolution with zero padding, ReLU and a 2x2 max pool, channel-
 * last: in is (s + 2)^2 pixels of cin (a zero border round s x s), w
 * [ky][kx][cin][cout], out (s/2 + 2)^2 pixels of cout with its own zero
 * border for the next layer (or, border 0, just (s/2)^2). Inline so that
 * each layer's sizes are constants the loops are vectorised for. */
static inline void conv_relu_pool(const float *restrict in, int cin, int s,
				  const float *restrict w, const float *restrict bias, int cout,
				  float *restrict out, int border)
{
	int h = s / 2, os = h + 2 * border;

	for (int y = 0; y < h; y++)
		for (int x = 0; x < h; x++) {
			float *d = out + ((size_t)(y + border) * os + x + border) * cout;
			for (int o = 0; o < cout; o++)
				d[o] = 0;	/* ReLU outputs are >= 0, so 0 starts the max */
			for (int q = 0; q < 2; q++) {
				int py = 2 * y + q, px = 2 * x;
				/* The pool's two pixels of row q (side by side), 16
				 * channels at a time: their sums in eight vector
				 * registers (SSE, NEON), each weight loaded once for
				 * both. */
				for (int ob = 0; ob < cout; ob += 16) {
					f4 a0 = load4(bias + ob), a1 = load4(bias + ob + 4),
					   a2 = load4(bias + ob + 8), a3 = load4(bias + ob + 12);
					f4 b0 = a0, b1 = a1, b2 = a2, b3 = a3;
					for (int k = 0; k < 9; k++) {
						const float *ip = in + ((size_t)(py + k / 3) * (s + 2) + px + k % 3) * cin;
						const float *wc = w + (size_t)k * cin * cout + ob;
						for (int c = 0; c < cin; c++, wc += cout) {
							f4 u = { ip[c], ip[c], ip[c], ip[c] };
							f4 v = { ip[cin + c], ip[cin + c], ip[cin + c], ip[cin + c] };
							f4 w0 = load4(wc), w1 = load4(wc + 4), w2 = load4(wc + 8),
							   w3 = load4(wc + 12);
							a0 += w0 * u;
							a1 += w1 * u;
							a2 += w2 * u;
							a3 += w3 * u;
							b0 += w0 * v;
							b1 += w1 * v;
							b2 += w2 * v;
							b3 += w3 * v;
						}
					}
					float t[2][16];
					memcpy(t[0], &a0, 16);
					memcpy(t[0] + 4, &a1, 16);
					memcpy(t[0] + 8, &a2, 16);
					memcpy(t[0] + 12, &a3, 16);
					memcpy(t[1], &b0, 16);
					memcpy(t[1] + 4, &b1, 16);
					memcpy(t[1] + 8, &b2, 16);
					memcpy(t[1] + 12, &b3, 16);
					for (int p = 0; p < 2; p++)
						for (int o = 0; o < 16; o++)
							d[ob + o] = t[p][o] > d[ob + o] ? t[p][o] : d[ob + o];
				}
			}
		}
}

void vis_fnet_classify(const struct vis_fnet *net, const uint8_t *crop, float prob[VIS_FNET_CLASSES])
{
	const struct prepared *w = (const struct prepared *)net->w;
	/* About 70 KB: fine on any thread's stack this runs on (the daemon's
	 * face reader and the CLI). The padded planes' borders stay 0. */
	float in[(S0 + 2) * (S0 + 2) * 3], a1[(S1 + 2) * (S1 + 2) * C1], a2[(S2 + 2) * (S2 + 2) * C2],
		a3[S3 * S3 * C3], f1[F1];
	double sum = 0, sq = 0;
	int n = 3 * S0 * S0;

	for (int i = 0; i < n; i++) {
		sum += crop[i];
		sq += (double)crop[i] * crop[i];
	}
	double mean = sum / n, var = sq / n - mean * mean;
	double inv = 1.0 / (sqrt(var > 0 ? var : 0) + net->norm_eps);
	memset(in, 0, sizeof(in));
	memset(a1, 0, sizeof(a1));
	memset(a2, 0, sizeof(a2));
	for (int y = 0; y < S0; y++)
		for (int x = 0; x < S0; x++)
			for (int c = 0; c < 3; c++)
				in[((y + 1) * (S0 + 2) + x + 1) * 3 + c] =
					(float)((crop[(y * S0 + x) * 3 + c] - mean) * inv);
	conv_relu_pool(in, 3, S0, w->c1w, w->c1b, C1, a1, 1);
	conv_relu_pool(a1, C1, S1, w->c2w, w->c2b, C2, a2, 1);
	conv_relu_pool(a2, C2, S2, w->c3w, w->c3b, C3, a3, 0);
	for (int o = 0; o < F1; o++)
		f1[o] = w->f1b[o];
	for (int i = 0; i < S3 * S3 * C3; i++) {
		float v = a3[i];
		const float *wi = w->f1w + (size_t)i * F1;
		for (int o = 0; o < F1; o++)
			f1[o] += wi[o] * v;
	}
	for (int o = 0; o < F1; o++)
		f1[o] = f1[o] > 0 ? f1[o] : 0;
	float logit[NC], top = -INFINITY;
	for (int o = 0; o < NC; o++) {
		const float *wo = w->f2w + (size_t)o * F1;
		float acc = w->f2b[o];
		for (int i = 0; i < F1; i++)
			acc += wo[i] * f1[i];
		logit[o] = acc;
		if (acc > top)
			top = acc;
	}
	double z = 0;
	for (int o = 0; o < NC; o++)
		z += exp(logit[o] - top);
	for (int o = 0; o < NC; o++)
		prob[o] = (float)(exp(logit[o] - top) / z);
}

void vis_fnet_classify_turned(const struct vis_fnet *net, const uint8_t *crop,
			      float prob[VIS_FNET_CLASSES])
{
	uint8_t turned[S0 * S0 * 3];

	memset(prob, 0, sizeof(float) * NC);
	for (int t = 0; t < net->turns; t++) {
		float q[NC];
		const uint8_t *c = crop;
		if (t > 0) {
			/* A crop turned a quarter (t in all) samples the same
			 * points as the unturned one: crop(i, j) at a quarter is
			 * crop(S0 - 1 - j, i) at none. */
			int quarter = 4 / net->turns * t;
			for (int j = 0; j < S0; j++)
				for (int i = 0; i < S0; i++) {
					int si = i, sj = j;
					for (int r = 0; r < quarter; r++) {
						int ti = S0 - 1 - sj;
						sj = si;
						si = ti;
					}
					memcpy(turned + (j * S0 + i) * 3, crop + (sj * S0 + si) * 3, 3);
				}
			c = turned;
		}
		vis_fnet_classify(net, c, q);
		for (int k = 0; k < NC; k++)
			prob[k] += q[k] / net->turns;
	}
}

void vis_fnet_read(const struct vis_fnet *net, const struct vis_image *img, double x, double y,
		   double span, float prob[VIS_FNET_CLASSES])
{
	uint8_t crop[S0 * S0 * 3];

	vis_fnet_crop(img, x, y, span, 0, crop);
	vis_fnet_classify_turned(net, crop, prob);
}

int vis_fnet_score(const struct vis_fnet *net, const char *path, struct vis_fnet_score *s,
		   char *err, size_t errlen)
{
	uint8_t rec[4 + S0 * S0 * 3];
	FILE *f = fopen(path, "rb");
	size_t got;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "face net test crops %s: %s", path, strerror(errno));
		return rc;
	}
	while ((got = fread(rec, 1, sizeof(rec), f)) == sizeof(rec)) {
		float p[NC];
		int best = 0;
		if (rec[0] >= NC) {
			snprintf(err, errlen, "face net test crops %s: record %d: class %d (0-6)", path,
				 s->crops + 1, rec[0]);
			rc = -EINVAL;
			goto cleanup_file;
		}
		vis_fnet_classify_turned(net, rec + 4, p);
		for (int k = 1; k < NC; k++)
			if (p[k] > p[best])
				best = k;
		s->crops++;
		if (best == rec[0])
			s->right++;
		else if (p[best] >= 0.9f)
			s->sure_wrong++;
	}
	if (got != 0 || ferror(f) || s->crops == 0) {
		snprintf(err, errlen, "face net test crops %s: %s", path,
			 ferror(f) ? "read error" : s->crops ? "ends within a record" : "no crops");
		rc = -EINVAL;
	}
cleanup_file:
	fclose(f);
	return rc;
}
