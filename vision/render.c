/* vision: the synthetic renderer. Each pixel is traced back through the
 * inverse homography to the table plane and shaded there, 3x3 supersampled
 * for smooth edges; dice in the air are scaled by the camera's distance and
 * their shadows fall straight below them. With perspective, the ray from
 * the camera to that table point is cut with each die's cube instead, and
 * the nearest face it meets is drawn: the top, or a side facing the
 * camera with its own pips, shaded darker (the light is from above). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/internal.h"

void vis_render_scene_default(struct vis_render_scene *s)
{
	memset(s, 0, sizeof(*s));
	bd_table_defaults(&s->table);
	s->width = 640;
	s->height = 360;
	s->camera_height_m = 2.0;
	s->die_side_m = 0.016;
	s->light_gradient = 0.2;
	s->light_level = 1.0;
	s->noise_sigma = 2;
	s->exposure_s = 0.004;
	s->show_table = 1;
	s->tray[0] = 200;
	s->tray[1] = 200;
	s->tray[2] = 195;
	s->seed = 1;
	vis_render_view_topdown(s, s->table.length_m / 2, s->table.width_m / 2,
				s->table.length_m * 1.12);
}

void vis_render_view_topdown(struct vis_render_scene *s, double cx, double cy, double span_m)
{
	double k = s->width / span_m;	/* pixels a metre */
	double h[9] = { k, 0, s->width / 2.0 - k * cx, 0, k, s->height / 2.0 - k * cy, 0, 0, 1 };
	memcpy(s->h, h, sizeof h);
}

/* splitmix64: small, good enough for noise, identical everywhere. */
static uint64_t rng_next(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Near-Gaussian (sum of four uniforms, unit variance): cheap, and noise
 * shape does not matter here. */
static double rng_gauss(uint64_t *st)
{
	uint64_t r = rng_next(st);
	double sum = (double)(r & 0xffff) + (double)((r >> 16) & 0xffff) +
		     (double)((r >> 32) & 0xffff) + (double)(r >> 48);
	return (sum / 65536.0 - 2.0) * 1.7320508075688772;
}

/* The table's colour at a table point (no dice). */
static void shade_table(const struct vis_render_scene *s, double x, double y, double *c)
{
	const struct bd_table *t = &s->table;
	if (!s->show_table) {
		for (int k = 0; k < 3; k++)
			c[k] = s->tray[k];
		return;
	}
	if (x < 0 || y < 0 || x > t->length_m || y > t->width_m) {
		c[0] = 60, c[1] = 58, c[2] = 55;	/* the floor */
		return;
	}
	c[0] = 30, c[1] = 90, c[2] = 60;	/* green table top */
	if (fabs(x - t->length_m / 2) < t->line_width_m / 2)
		c[0] = 235, c[1] = 235, c[2] = 235;
	for (int p = 0; p < BD_PLAYERS; p++) {
		double dx = x - t->cup_x[p], dy = y - t->cup_y[p], d2 = dx * dx + dy * dy;
		double r = t->cup_radius_m;
		if (d2 < r * r) {
			/* A red cup seen from above: rim, then the beer. */
			if (d2 > r * r * 0.85 * 0.85)
				c[0] = 200, c[1] = 30, c[2] = 35;
			else
				c[0] = 170, c[1] = 120, c[2] = 40;
		}
	}
	if ((x - t->mine_x) * (x - t->mine_x) + (y - t->mine_y) * (y - t->mine_y) <
	    t->mine_radius_m * t->mine_radius_m)
		c[0] = 180, c[1] = 180, c[2] = 190;
}

/* Face n's pips (or, for a shape that is no d6, its numeral) at (u, v) on a
 * face of half-side half, (0, 0) its middle: 1 on a mark, else 0. */
static int on_mark(int n, int shape, double u, double v, double half)
{
	if (shape) {
		/* Seven segments a-g of a numeral 0.5 half wide, a half tall. */
		static const uint8_t seg[6] = { 0x06, 0x5b, 0x4f, 0x66, 0x6d, 0x7d };	/* 1-6 */
		double w = 0.25 * half, hh = 0.5 * half, t = 0.09 * half;
		int m = seg[n < 1 || n > 6 ? 0 : n - 1];
		int on = 0;
		/* a top, b top right, c bottom right, d bottom, e bottom left, f top left, g middle */
		on |= (m & 0x01) && fabs(v + hh) < t && fabs(u) < w;
		on |= (m & 0x02) && fabs(u - w) < t && v > -hh && v < 0;
		on |= (m & 0x04) && fabs(u - w) < t && v > 0 && v < hh;
		on |= (m & 0x08) && fabs(v - hh) < t && fabs(u) < w;
		on |= (m & 0x10) && fabs(u + w) < t && v > 0 && v < hh;
		on |= (m & 0x20) && fabs(u + w) < t && v > -hh && v < 0;
		on |= (m & 0x40) && fabs(v) < t && fabs(u) < w;
		return on;
	}
	double a = 0.27 * 2 * half, pr = 0.095 * 2 * half;
	for (int i = 0; i < n; i++) {
		double pu = vis_pip_layout[n][i][0] * a, pv = vis_pip_layout[n][i][1] * a;
		if ((u - pu) * (u - pu) + (v - pv) * (v - pv) < pr * pr)
			return 1;
	}
	return 0;
}

/* Whether (u, v) lies inside the regular polygon of n sides whose
 * incircle has radius half (a d8's or d20's face seen from above). */
static int in_polygon(int n, double u, double v, double half)
{
	double a = atan2(v, u), step = 2 * M_PI / n;
	double k = floor(a / step + 0.5) * step;	/* the nearest side's normal */
	return u * cos(k) + v * sin(k) <= half;
}

/* The sides of a d6 showing `top`: +u, -u, +v, -v (opposite faces sum
 * to 7). */
static void side_faces(int top, int out[4])
{
	int a = 0, b = 0;
	for (int f = 1; f <= 6 && !b; f++)
		if (f != top && f != 7 - top) {
			if (!a)
				a = f;
			else if (f != 7 - a)
				b = f;
		}
	out[0] = a, out[1] = 7 - a, out[2] = b, out[3] = 7 - b;
}

/* With perspective: the ray from the camera to table point (x, y) cut with
 * die d's cube (centre (dx, dy) on the table, its bottom at d->z): 1 and
 * the colour of the nearest face it meets in c, its ray parameter in *t
 * (0 at the camera, 1 at the table), else 0. */
static int shade_die_cube(const struct vis_render_scene *s, const struct vis_render_die *d, double dx,
			  double dy, double x, double y, double *c, double *t)
{
	double H = s->camera_height_m, half = s->die_side_m / 2;
	double ca = cos(d->angle), sa = sin(d->angle);
	double ox = s->cam_x_m - dx, oy = s->cam_y_m - dy, rx = x - s->cam_x_m, ry = y - s->cam_y_m;
	double o[3] = { ca * ox + sa * oy, -sa * ox + ca * oy, H };
	double r[3] = { ca * rx + sa * ry, -sa * rx + ca * ry, -H };
	double lo[3] = { -half, -half, d->z }, hi[3] = { half, half, d->z + 2 * half };
	double t0 = -1e18, t1 = 1e18;
	int axis = -1;
	for (int k = 0; k < 3; k++) {
		if (fabs(r[k]) < 1e-12) {
			if (o[k] < lo[k] || o[k] > hi[k])
				return 0;
			continue;
		}
		double a = (lo[k] - o[k]) / r[k], b = (hi[k] - o[k]) / r[k];
		if (a > b) {
			double tmp = a;
			a = b;
			b = tmp;
		}
		if (a > t0) {
			t0 = a;
			axis = k;
		}
		if (b < t1)
			t1 = b;
	}
	if (axis < 0 || t0 > t1 || t0 < 0)
		return 0;
	double q[3] = { o[0] + r[0] * t0, o[1] + r[1] * t0, o[2] + r[2] * t0 };
	double fu, fv, f = 1.0;
	int face;
	if (axis == 2) {
		face = d->face;
		fu = q[0], fv = q[1];
	} else {
		int sides[4];
		side_faces(d->face, sides);
		face = sides[2 * axis + (q[axis] < 0)];
		fu = axis == 0 ? q[1] : q[0];
		fv = q[2] - (d->z + half);
		f = 0.72;	/* a side faces the light less */
	}
	if (fmax(fabs(fu), fabs(fv)) / half > 0.88)
		f *= 0.85;	/* the rounded rim catches less light */
	int pip = on_mark(face, 0, fu, fv, half);
	for (int k = 0; k < 3; k++)
		c[k] = (pip ? d->pip[k] : d->body[k]) * (pip ? 1 : f);
	*t = t0;
	return 1;
}

/* The die's colour at table point (x, y) when it covers it: 1, else 0.
 * (dx, dy) is the die's centre at this instant. */
static int shade_die(const struct vis_render_scene *s, const struct vis_render_die *d,
		     double dx, double dy, double x, double y, double *c)
{
	/* Seen from the camera, a die at height z is magnified. */
	double mag = s->camera_height_m / (s->camera_height_m - d->z > 0.05 ?
					   s->camera_height_m - d->z : 0.05);
	double half = s->die_side_m / 2 * mag;
	if (fabs(x - dx) > half * 1.5 || fabs(y - dy) > half * 1.5)
		return 0;
	double ca = cos(d->angle), sa = sin(d->angle);
	double u = ca * (x - dx) + sa * (y - dy), v = -sa * (x - dx) + ca * (y - dy);
	if (d->shape) {
		if (!in_polygon(d->shape, u, v, half))
			return 0;
		double f = in_polygon(d->shape, u, v, half * 0.88) ? 1.0 : 0.85;
		int mark = on_mark(d->face, 1, u, v, half);
		for (int k = 0; k < 3; k++)
			c[k] = mark ? d->pip[k] : d->body[k] * f;
		return 1;
	}
	if (fabs(u) > half || fabs(v) > half)
		return 0;
	/* Rounded corners. */
	double r = half * 0.2, cu = fabs(u) - (half - r), cv = fabs(v) - (half - r);
	if (cu > 0 && cv > 0 && cu * cu + cv * cv > r * r)
		return 0;
	/* Edges shade a little: the rounded rim catches less light. */
	double edge = fmax(fabs(u), fabs(v)) / half;
	double f = edge > 0.85 ? 0.85 : 1.0;
	int pip = on_mark(d->face, 0, u, v, half);
	for (int k = 0; k < 3; k++)
		c[k] = pip ? d->pip[k] : d->body[k] * f;
	return 1;
}

int vis_render(const struct vis_render_scene *s, struct vis_image **out, char *err, size_t errlen)
{
	*out = NULL;
	double inv[9];
	if (s->n_dice < 0 || s->n_dice > VIS_RENDER_MAX_DICE || vis_homography_invert(s->h, inv)) {
		snprintf(err, errlen, "render: %s", s->n_dice < 0 || s->n_dice > VIS_RENDER_MAX_DICE ?
			 "too many dice" : "singular view homography");
		return -EINVAL;
	}
	for (int i = 0; i < s->n_dice; i++) {
		if (s->dice[i].face < 1 || s->dice[i].face > 6) {
			snprintf(err, errlen, "render: die %d: face %d outside 1-6", i, s->dice[i].face);
			return -EINVAL;
		}
		if (s->dice[i].shape && (s->dice[i].shape < 3 || s->dice[i].shape > 12)) {
			snprintf(err, errlen, "render: die %d: shape %d, neither 0 (a d6) nor 3-12 sides", i,
				 s->dice[i].shape);
			return -EINVAL;
		}
	}
	if (s->perspective && !(s->camera_height_m > 0.1)) {
		snprintf(err, errlen, "render: a camera %g m above the table", s->camera_height_m);
		return -EINVAL;
	}
	struct vis_image *img = vis_image_new(s->width, s->height, VIS_RGB24);
	if (!img) {
		snprintf(err, errlen, "render: %dx%d: %s", s->width, s->height,
			 errno == ENOMEM ? "out of memory" : "bad size");
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	}
	/* Motion blur: the die's position at a few instants of the exposure. */
	enum { TS = 5 };
	uint64_t rng = s->seed;
	/* Each die's reach in the image (body, blur, shadow): pixels outside
	 * every reach are plain table, shaded once instead of 9 times. */
	double reach[VIS_RENDER_MAX_DICE][4];
	for (int i = 0; i < s->n_dice; i++) {
		const struct vis_render_die *d = &s->dice[i];
		double r = s->die_side_m * (s->perspective ? 1.8 : 1.2) + d->z * 0.1 +
			   s->exposure_s * hypot(d->vx, d->vy) + 0.004;
		reach[i][0] = reach[i][1] = 1e18;
		reach[i][2] = reach[i][3] = -1e18;
		for (int k = 0; k < 4; k++) {
			double u, v;
			if (vis_homography_apply(s->h, d->x + (k & 1 ? r : -r), d->y + (k & 2 ? r : -r), &u, &v))
				continue;
			reach[i][0] = fmin(reach[i][0], u - 2);
			reach[i][1] = fmin(reach[i][1], v - 2);
			reach[i][2] = fmax(reach[i][2], u + 2);
			reach[i][3] = fmax(reach[i][3], v + 2);
		}
	}
	/* The table's colour at pixel corners, two rows at a time: a pixel
	 * whose four corners agree (and no die near) is that colour; others
	 * are supersampled. The choice depends on the table alone, so an
	 * edge renders the same with or without a die nearby. */
	size_t cw = (size_t)s->width + 1;
	double *corner = malloc(sizeof(double) * 3 * cw * 2);
	if (!corner) {
		vis_image_free(img);
		snprintf(err, errlen, "render: out of memory");
		return -ENOMEM;
	}
	for (int row = 0; row < 2; row++)
		for (size_t cx = 0; cx < cw; cx++) {
			double x, y, *c = corner + 3 * (row * cw + cx);
			if (vis_homography_apply(inv, (double)cx, (double)row, &x, &y))
				x = y = -1;
			shade_table(s, x, y, c);
		}
	for (int py = 0; py < s->height; py++) {
		double *top = corner + 3 * cw * (py & 1), *bot = corner + 3 * cw * ((py + 1) & 1);
		if (py > 0)
			for (size_t cx = 0; cx < cw; cx++) {
				double x, y;
				if (vis_homography_apply(inv, (double)cx, (double)(py + 1), &x, &y))
					x = y = -1;
				shade_table(s, x, y, bot + 3 * cx);
			}
		for (int px = 0; px < s->width; px++) {
			double acc[3] = { 0 };
			int near = 0;
			for (int i = 0; i < s->n_dice && !near; i++)
				near = px >= reach[i][0] && px <= reach[i][2] && py >= reach[i][1] && py <= reach[i][3];
			const double *c0 = top + 3 * px, *c1 = top + 3 * (px + 1), *c2 = bot + 3 * px, *c3 = bot + 3 * (px + 1);
			int flat = !memcmp(c0, c1, 3 * sizeof(double)) && !memcmp(c0, c2, 3 * sizeof(double)) &&
				   !memcmp(c0, c3, 3 * sizeof(double));
			int nsub = near || !flat ? 3 : 1;
			for (int sy = 0; sy < nsub; sy++)
				for (int sx = 0; sx < nsub; sx++) {
					double x, y;
					if (vis_homography_apply(inv, px + (sx + 0.5) / nsub, py + (sy + 0.5) / nsub, &x, &y))
						continue;
					double c[3];
					shade_table(s, x, y, c);
					/* Soft shadows straight below each die (light from above). */
					for (int i = 0; i < s->n_dice && near; i++) {
						const struct vis_render_die *d = &s->dice[i];
						double ex = x - d->x - 0.002 - d->z * 0.05, ey = y - d->y - 0.002;
						double rad = s->die_side_m * 0.62 + d->z * 0.05;
						if (ex * ex + ey * ey < rad * rad * 1.69) {
							double sd = sqrt(ex * ex + ey * ey);
							double k = sd < rad ? 0.65 : 0.65 + 0.35 * (sd - rad) / (rad * 0.3);
							for (int q = 0; q < 3; q++)
								c[q] *= k;
						}
					}
					/* In perspective the nearest cube along the ray (no
					 * motion blur: dice at rest, for the face reader). */
					double tnear = INFINITY, cn[3];
					for (int i = 0; i < s->n_dice && near && s->perspective; i++) {
						const struct vis_render_die *d = &s->dice[i];
						double cc[3], t = 1;	/* a flat shape lies on the table */
						int hit = d->shape ? shade_die(s, d, d->x, d->y, x, y, cc)
								   : shade_die_cube(s, d, d->x, d->y, x, y, cc, &t);
						if (hit && t < tnear) {
							tnear = t;
							memcpy(cn, cc, sizeof cn);
						}
					}
					if (tnear < INFINITY)
						memcpy(c, cn, sizeof cn);
					for (int i = 0; i < s->n_dice && near && !s->perspective; i++) {
						const struct vis_render_die *d = &s->dice[i];
						int ts = (d->vx != 0 || d->vy != 0) && s->exposure_s > 0 ? TS : 1;
						double dc[3] = { 0 }, hit = 0;
						for (int t = 0; t < ts; t++) {
							double dt = ts > 1 ? s->exposure_s * ((t + 0.5) / ts - 0.5) : 0;
							double cc[3];
							if (shade_die(s, d, d->x + d->vx * dt, d->y + d->vy * dt, x, y, cc)) {
								for (int q = 0; q < 3; q++)
									dc[q] += cc[q];
								hit++;
							}
						}
						if (hit > 0)
							for (int q = 0; q < 3; q++)
								c[q] = (dc[q] + c[q] * (ts - hit)) / ts;
					}
					for (int q = 0; q < 3; q++)
						acc[q] += c[q] * 9 / (nsub * nsub);
				}
			double light = s->light_level *
				       (1 - s->light_gradient * ((double)px / s->width * 0.7 +
								  (double)py / s->height * 0.3));
			uint8_t *o = img->data + (size_t)py * img->stride + 3 * (size_t)px;
			for (int q = 0; q < 3; q++) {
				double v = acc[q] / 9 * light;
				if (s->noise_sigma > 0)
					v += rng_gauss(&rng) * s->noise_sigma;
				o[q] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
			}
		}
	}
	free(corner);
	*out = img;
	return 0;
}

static double rng_uniform(uint64_t *st, double lo, double hi)
{
	return lo + (hi - lo) * ((rng_next(st) >> 11) / 9007199254740992.0);
}

void vis_render_random_dice(struct vis_render_scene *s, uint64_t seed, int n)
{
	uint64_t rng = seed * 0x2545f4914f6cdd1dULL + 7;
	int w = s->width, h = s->height;
	if (n > VIS_RENDER_MAX_DICE)
		n = VIS_RENDER_MAX_DICE;
	vis_render_scene_default(s);
	s->width = w;
	s->height = h;
	s->show_table = 0;
	s->seed = seed;
	double die_px = rng_uniform(&rng, 18, 50);
	/* metres across the image so the die is die_px pixels */
	double span = s->die_side_m * w / die_px;
	vis_render_view_topdown(s, 0, 0, span);
	s->light_level = rng_uniform(&rng, 0.75, 1.1);
	s->light_gradient = rng_uniform(&rng, 0, 0.35);
	s->noise_sigma = rng_uniform(&rng, 0, 6);
	for (int k = 0; k < 3; k++)
		s->tray[k] = (uint8_t)rng_uniform(&rng, 120, 215);
	static const uint8_t light[][3] = {
		{ 240, 240, 232 }, { 235, 210, 40 }, { 245, 160, 60 }, { 200, 225, 240 }, { 230, 200, 210 },
	};
	static const uint8_t dark[][3] = {
		{ 25, 25, 28 }, { 180, 20, 25 }, { 20, 110, 50 }, { 25, 50, 150 }, { 90, 30, 120 },
		{ 200, 70, 20 },
	};
	double sx = span, sy = span * h / w, side = s->die_side_m * 1.6;
	s->n_dice = 0;
	for (int i = 0; i < n; i++) {
		struct vis_render_die *d = &s->dice[s->n_dice];
		memset(d, 0, sizeof(*d));
		int placed = 0;
		for (int tries = 0; tries < 50 && !placed; tries++) {
			d->x = rng_uniform(&rng, -sx / 2 + side, sx / 2 - side);
			d->y = rng_uniform(&rng, -sy / 2 + side, sy / 2 - side);
			placed = 1;
			for (int j = 0; j < s->n_dice; j++)
				if (hypot(d->x - s->dice[j].x, d->y - s->dice[j].y) < side * 1.3)
					placed = 0;
		}
		if (!placed)
			continue;
		d->face = 1 + (int)(rng_next(&rng) % 6);
		d->angle = rng_uniform(&rng, 0, M_PI / 2);
		int lightbody = rng_next(&rng) & 1;
		const uint8_t *body = lightbody ? light[rng_next(&rng) % 5] : dark[rng_next(&rng) % 6];
		const uint8_t *pip = lightbody ? dark[rng_next(&rng) % 6] : light[rng_next(&rng) % 5];
		if (lightbody && (rng_next(&rng) & 1))
			pip = dark[0];
		memcpy(d->body, body, 3);
		memcpy(d->pip, pip, 3);
		s->n_dice++;
	}
}
