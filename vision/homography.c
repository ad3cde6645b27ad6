/* vision: plane-to-plane homographies (image <-> table) by the direct
 * linear transform, h33 fixed to 1 (fine for any camera that sees the
 * table: the plane at infinity is never in view). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "vision/vision.h"

int vis_homography_fit(const double (*src)[2], const double (*dst)[2], int n, double h[9])
{
	if (n < 4)
		return -EINVAL;
	/* Least squares through the normal equations of the 2n x 8 system;
	 * for n = 4 this is the exact solution. Points are normalised
	 * (centred, mean distance sqrt 2) so the equations stay conditioned
	 * whether in pixels or metres. */
	double sm[2] = { 0 }, dm[2] = { 0 }, ss = 0, ds = 0;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 2; k++) {
			sm[k] += src[i][k] / n;
			dm[k] += dst[i][k] / n;
		}
	for (int i = 0; i < n; i++) {
		ss += hypot(src[i][0] - sm[0], src[i][1] - sm[1]) / n;
		ds += hypot(dst[i][0] - dm[0], dst[i][1] - dm[1]) / n;
	}
	if (ss < 1e-12 || ds < 1e-12)
		return -EDOM;
	ss = M_SQRT2 / ss;
	ds = M_SQRT2 / ds;
	double ata[64] = { 0 }, atb[8] = { 0 };
	for (int i = 0; i < n; i++) {
		double x = (src[i][0] - sm[0]) * ss, y = (src[i][1] - sm[1]) * ss;
		double u = (dst[i][0] - dm[0]) * ds, v = (dst[i][1] - dm[1]) * ds;
		double r1[8] = { x, y, 1, 0, 0, 0, -u * x, -u * y };
		double r2[8] = { 0, 0, 0, x, y, 1, -v * x, -v * y };
		for (int a = 0; a < 8; a++) {
			for (int b = 0; b < 8; b++)
				ata[a * 8 + b] += r1[a] * r1[b] + r2[a] * r2[b];
			atb[a] += r1[a] * u + r2[a] * v;
		}
	}
	int r = core_solve(ata, atb, atb, 8, 1e-12);
	if (r)
		return r;
	double hn[9] = { atb[0], atb[1], atb[2], atb[3], atb[4], atb[5], atb[6], atb[7], 1 };
	/* Undo the normalisation: h = Td^-1 hn Ts. */
	double ts[9] = { ss, 0, -ss * sm[0], 0, ss, -ss * sm[1], 0, 0, 1 };
	double tdi[9] = { 1 / ds, 0, dm[0], 0, 1 / ds, dm[1], 0, 0, 1 };
	double t1[9];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			t1[i * 3 + j] = 0;
			for (int k = 0; k < 3; k++)
				t1[i * 3 + j] += hn[i * 3 + k] * ts[k * 3 + j];
		}
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			h[i * 3 + j] = 0;
			for (int k = 0; k < 3; k++)
				h[i * 3 + j] += tdi[i * 3 + k] * t1[k * 3 + j];
		}
	if (fabs(h[8]) < 1e-15)
		return -EDOM;
	for (int k = 0; k < 9; k++)
		h[k] /= h[8];
	return 0;
}

int vis_homography_apply(const double h[9], double x, double y, double *u, double *v)
{
	double w = h[6] * x + h[7] * y + h[8];
	if (fabs(w) < 1e-12)
		return -EDOM;
	*u = (h[0] * x + h[1] * y + h[2]) / w;
	*v = (h[3] * x + h[4] * y + h[5]) / w;
	return 0;
}

int vis_homography_invert(const double h[9], double inv[9])
{
	double a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7], l = h[8];
	double det = a * (e * l - f * k) - b * (d * l - f * g) + c * (d * k - e * g);
	if (fabs(det) < 1e-15)
		return -EDOM;
	double m[9] = {
		(e * l - f * k), -(b * l - c * k), (b * f - c * e),
		-(d * l - f * g), (a * l - c * g), -(a * f - c * d),
		(d * k - e * g), -(a * k - b * g), (a * e - b * d),
	};
	/* Scale-free: normalise so inv[8] = 1 like every other h here. */
	if (fabs(m[8]) < 1e-15 * fabs(det))
		return -EDOM;
	for (int i = 0; i < 9; i++)
		inv[i] = m[i] / m[8];
	return 0;
}

int vis_homography_resized(const double h[9], int from_w, int from_h, int to_w, int to_h,
			   double out[9])
{
	if (from_w <= 0 || from_h <= 0 || to_w <= 0 || to_h <= 0)
		return -EINVAL;
	double sx = (double)from_w / to_w, sy = (double)from_h / to_h;
	if (fabs(sx / sy - 1) > 0.01)
		return -EINVAL;
	/* A pixel (u, v) of the new picture is (sx (u + 0.5) - 0.5, ...) of
	 * the old: h times that affine map, column by column. */
	double ox = 0.5 * (sx - 1), oy = 0.5 * (sy - 1), m[9];
	for (int r = 0; r < 3; r++) {
		m[3 * r + 0] = h[3 * r + 0] * sx;
		m[3 * r + 1] = h[3 * r + 1] * sy;
		m[3 * r + 2] = h[3 * r + 0] * ox + h[3 * r + 1] * oy + h[3 * r + 2];
	}
	if (fabs(m[8]) < 1e-15)
		return -EINVAL;
	for (int i = 0; i < 9; i++)
		out[i] = m[i] / m[8];
	return 0;
}
