/* vision: a small convolutional net that names the face of a die centred
 * in a crop, or says no die is centred there.
 *
 * The pip reader (dice_pips.c) counts pips and fits their layout; on real
 * photos it loses pips on marbled dice, to highlights, to JPEG's colour
 * and to shadows, and then reads a 4-6 as a 1 or a 2. The net sees the
 * same crop whole and was trained (tools/fnet/train_face_net.py) on crops of
 * labelled real dice and rendered ones, turned, scaled, shifted and
 * recoloured; dice.c weighs the two readings against each other. The
 * weights are generated (vision/face_net_weights.c) and fixed: no
 * file is read at run time.
 *
 * Layers, as in the training script: the crop's bytes normalised by its
 * own mean and spread (so light and exposure do not matter), three 3x3
 * convolutions (16, 32, 48 channels, zero padding, ReLU) each followed by
 * a 2x2 max pool, a fully connected layer of 64 (ReLU) and one of 7. */
#include <math.h>
#include <string.h>

#include "vision/face_net_weights.h"
#include "vision/vision.h"

#define S0 VIS_FNET_SIDE	/* 40 */
#define S1 (S0 / 2)		/* 20 */
#define S2 (S1 / 2)		/* 10 */
#define S3 (S2 / 2)		/* 5 */

_Static_assert(FNET_C1_IN == 3 && FNET_C2_IN == FNET_C1_OUT && FNET_C3_IN == FNET_C2_OUT,
	       "face net: layer sizes disagree");
_Static_assert(FNET_F1_IN == FNET_C3_OUT * S3 * S3 && FNET_F2_IN == FNET_F1_OUT &&
		       FNET_F2_OUT == VIS_FNET_CLASSES,
	       "face net: layer sizes disagree");

/* Bilinear sample of channel c at (x, y), edge pixels beyond the image. */
static double pixel(const struct vis_image *img, double x, double y, int c)
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
	if (bpp == 1)
		c = 0;
	const uint8_t *r0 = img->data + (size_t)y0 * img->stride;
	const uint8_t *r1 = img->data + (size_t)y1 * img->stride;
	double a = r0[x0 * bpp + c] * (1 - fx) + r0[x1 * bpp + c] * fx;
	double b = r1[x0 * bpp + c] * (1 - fx) + r1[x1 * bpp + c] * fx;
	return a * (1 - fy) + b * fy;
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
		for (int i = 0; i < S0; i++)
			for (int c = 0; c < 3; c++) {
				double acc = 0;
				for (int sj = 0; sj < sub; sj++)
					for (int si = 0; si < sub; si++) {
						double u = (i + (si + 0.5) / sub - 0.5 * S0) * step;
						double v = (j + (sj + 0.5) / sub - 0.5 * S0) * step;
						acc += pixel(img, x + u * ca - v * sa, y + u * sa + v * ca, c);
					}
				double val = acc / (sub * sub) + 0.5;
				out[(j * S0 + i) * 3 + c] = (uint8_t)(val > 255 ? 255 : val);
			}
}

/* 3x3 convolution with zero padding, ReLU, then a 2x2 max pool:
 * in[cin][s][s] to out[cout][s/2][s/2]. w is [cout][cin][3][3]. */
static void conv_relu_pool(const float *in, int cin, int s, const float *w, const float *bias,
			   int cout, float *out, float *row)
{
	int h = s / 2;
	for (int o = 0; o < cout; o++) {
		float *dst = out + (size_t)o * h * h;
		for (int k = 0; k < h * h; k++)
			dst[k] = 0;	/* ReLU outputs are >= 0, so 0 starts the max */
		for (int y = 0; y < s; y++) {
			for (int x = 0; x < s; x++)
				row[x] = bias[o];
			for (int c = 0; c < cin; c++) {
				const float *src = in + (size_t)c * s * s;
				const float *k9 = w + ((size_t)o * cin + c) * 9;
				for (int dy = -1; dy <= 1; dy++) {
					int yy = y + dy;
					if (yy < 0 || yy >= s)
						continue;
					const float *sr = src + (size_t)yy * s;
					float k0 = k9[(dy + 1) * 3], k1 = k9[(dy + 1) * 3 + 1], k2 = k9[(dy + 1) * 3 + 2];
					row[0] += k1 * sr[0] + k2 * sr[1];
					for (int x = 1; x < s - 1; x++)
						row[x] += k0 * sr[x - 1] + k1 * sr[x] + k2 * sr[x + 1];
					row[s - 1] += k0 * sr[s - 2] + k1 * sr[s - 1];
				}
			}
			float *d = dst + (size_t)(y / 2) * h;
			for (int x = 0; x < s; x++)
				if (row[x] > d[x / 2])
					d[x / 2] = row[x];
		}
	}
}

void vis_fnet_classify(const uint8_t *crop, float prob[VIS_FNET_CLASSES])
{
	/* About 60 KB: fine on any thread's stack this runs on (the daemon's
	 * face reader and the CLI). */
	float in[3 * S0 * S0], a1[FNET_C1_OUT * S1 * S1], a2[FNET_C2_OUT * S2 * S2],
		a3[FNET_C3_OUT * S3 * S3], f1[FNET_F1_OUT], row[S0];
	double sum = 0, sq = 0;
	int n = 3 * S0 * S0;
	for (int i = 0; i < n; i++) {
		sum += crop[i];
		sq += (double)crop[i] * crop[i];
	}
	double mean = sum / n, var = sq / n - mean * mean;
	double inv = 1.0 / (sqrt(var > 0 ? var : 0) + FNET_NORM_EPS);
	/* bytes are pixel-interleaved, the net's planes channel by channel */
	for (int p = 0; p < S0 * S0; p++)
		for (int c = 0; c < 3; c++)
			in[c * S0 * S0 + p] = (float)((crop[p * 3 + c] - mean) * inv);
	conv_relu_pool(in, 3, S0, fnet_c1_w, fnet_c1_b, FNET_C1_OUT, a1, row);
	conv_relu_pool(a1, FNET_C1_OUT, S1, fnet_c2_w, fnet_c2_b, FNET_C2_OUT, a2, row);
	conv_relu_pool(a2, FNET_C2_OUT, S2, fnet_c3_w, fnet_c3_b, FNET_C3_OUT, a3, row);
	for (int o = 0; o < FNET_F1_OUT; o++) {
		const float *w = fnet_f1_w + (size_t)o * FNET_F1_IN;
		float acc = fnet_f1_b[o];
		for (int i = 0; i < FNET_F1_IN; i++)
			acc += w[i] * a3[i];
		f1[o] = acc > 0 ? acc : 0;
	}
	float logit[VIS_FNET_CLASSES], top = -INFINITY;
	for (int o = 0; o < VIS_FNET_CLASSES; o++) {
		const float *w = fnet_f2_w + (size_t)o * FNET_F2_IN;
		float acc = fnet_f2_b[o];
		for (int i = 0; i < FNET_F2_IN; i++)
			acc += w[i] * f1[i];
		logit[o] = acc;
		if (acc > top)
			top = acc;
	}
	double z = 0;
	for (int o = 0; o < VIS_FNET_CLASSES; o++)
		z += exp(logit[o] - top);
	for (int o = 0; o < VIS_FNET_CLASSES; o++)
		prob[o] = (float)(exp(logit[o] - top) / z);
}
