/* vision: the tracker's contacts: the first table contact from a kink in
 * a die's ground track or a valley in its blob's size, the apex it gives,
 * a cup's rim or the mine instead of the table, and a die on the table
 * turned by the can (BD-O1). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/track_internal.h"

#define GRAVITY 9.81	/* m/s^2 */
#define MINE_DV_MPS 0.08	/* a turn this big (and a fifth of the speed) beside the can: it struck it */
#define LOW_RELEASE_RATIO 3.0	/* first seen smaller: released near the table top */

/* First contact: the flight's straight, constant-speed ground track
 * breaks. Two lines fitted (least squares) to the positions before and
 * after a candidate frame; where they come closest in time is the contact,
 * to a fraction of a frame. Needs CONTACT_AFTER frames after it, so the
 * landing is reported that many frames late. */
#define CONTACT_BEFORE 4
#define CONTACT_AFTER 3
#define CONTACT_SPAN 6	/* most sightings a side of the split the refined fit takes */

void vis_trk_line_fit(const struct trk *k, int from, int n, double *p0x, double *p0y,
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
	vis_trk_line_fit(k, from, n, &px, &py, &vx, &vy);
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
void vis_trk_mine_touch(struct vis_tracker *t, struct trk *k, struct vis_obs *out, int max, int *n)
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
	double d = vis_trk_mine_dist(t, k->hx[a] + f * dx, k->hy[a] + f * dy);
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
	vis_trk_line_fit(k, b0, k->mine_i - b0, &px, &py, &bvx, &bvy);
	if (after >= 2)
		vis_trk_line_fit(k, k->mine_i, after < CONTACT_AFTER ? after : CONTACT_AFTER, &px, &py, &avx, &avy);
	double dv = hypot(avx - bvx, avy - bvy), speed = hypot(bvx, bvy);
	if (dv < MINE_DV_MPS || dv < 0.2 * speed)
		return;	/* went past it, or over it */
	struct vis_obs o = vis_trk_obs_at(k, VIS_OBS_MINE, k->mine_t);
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
	vis_trk_emit(out, max, n, &o);
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
	vis_trk_line_fit(k, v - 3, m - v + 3, &px, &py, &vx, &vy);
	emit_landing(t, k, tc, px + vx * tc, py + vy * tc, v, 0.6, out, max, n);
}

void vis_trk_find_contact(struct vis_tracker *t, struct trk *k, struct vis_obs *out, int max, int *n)
{
	int m = k->sightings;
	if (m < CONTACT_BEFORE + CONTACT_AFTER + 1)
		return;
	int after = m - CONTACT_AFTER, before = after - 1 - CONTACT_BEFORE;
	if (before < 0)
		before = 0;
	double bx, by, bvx, bvy, ax, ay, avx, avy;
	vis_trk_line_fit(k, before, after - 1 - before, &bx, &by, &bvx, &bvy);
	vis_trk_line_fit(k, after - 1, CONTACT_AFTER + 1, &ax, &ay, &avx, &avy);
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
		vis_trk_line_fit(k, b0, split - b0, &bx, &by, &bvx, &bvy);
		vis_trk_line_fit(k, split, a1 - split, &ax, &ay, &avx, &avy);
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
	struct vis_obs o = vis_trk_obs_at(k, VIS_OBS_LANDING, k->t_first + (int64_t)(tc * 1e9));
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
		   k->ratio_max > 1.25 * k->ratio0 && vis_trk_on_table(&t->cfg.table, k->x0, k->y0)) {
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
	int cup = vis_trk_cup_at(t, x, y);
	/* A contact with its centre over the can (within half a die of its
	 * wall) cannot be at the table's level: the die struck the mine. */
	int mine = cup < 0 && vis_trk_mine_dist(t, x, y) <
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
			vis_trk_emit(out, max, n, &m);
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
	vis_trk_emit(out, max, n, &o);
	k->state = VIS_TRACK_BOUNCING;
}
