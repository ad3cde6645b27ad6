/* vision: detection and tracking of dice in the low-resolution stream.
 *
 * From above, a die's height is not seen; its horizontal velocity is: in
 * flight it is constant (no air drag worth the name over 2 m), and the
 * first table contact changes it abruptly (friction, spin). So the first
 * frame whose velocity jumps by more than contact_dv_mps marks the first
 * contact, and release-to-contact time t gives the apex of a symmetric
 * flight, h = g t^2 / 8.
 *
 * This file: the tracker's life (new, free), each frame's steps (the
 * foreground from track_bg.c, blobs, tracks followed and started), and
 * observations as events. Contacts are found in track_contact.c; table
 * geometry is in track_geom.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/track_internal.h"

/* A die seen from above grows as it rises towards the camera (the
 * renderer and a real lens alike): the blob's area over a die's on the
 * table is the magnification squared, times 1.4-2.2 on the table itself
 * (its rim, blur and shadow edge make the blob bigger than the die). */
#define MAX_BLOB_RATIO 40	/* bigger: not a die (a die this close is near the lens) */
#define MAX_DV_MPS 3.0		/* velocity change a frame the gate allows (a bounce) */
#define MAX_SPEED_MPS 8.0	/* fastest die across the table, for a new track's gate */
#define ALOFT_MAX_S 3.0		/* longest time above the view (a 6.5 m toss) */

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

void vis_trk_emit(struct vis_obs *out, int max, int *n, const struct vis_obs *o)
{
	if (*n < max)
		out[*n] = *o;
	(*n)++;
}

struct vis_obs vis_trk_obs_at(const struct trk *k, enum vis_obs_kind kind, int64_t t_ns)
{
	struct vis_obs o = { .kind = kind, .track = k->id, .t_ns = t_ns, .x = k->x, .y = k->y,
			     .u = k->u, .v = k->v, .player = BD_NOBODY, .confidence = 0.9 };
	return o;
}

struct tblob {
	double u, v;		/* centroid, pixels */
	double x, y;		/* table metres */
	int area;		/* pixels */
	double ratio;		/* area over a die's on the table there (magnification^2) */
	int used;		/* taken by a track */
};

/* A track lost for gone_frames: where did it go? */
static void track_gone(struct vis_tracker *t, struct trk *k, struct vis_obs *out, int max, int *n)
{
	const struct bd_table *tb = &t->cfg.table;
	/* Where it was last, or where its motion took it within two frames
	 * (a die falls into a cup between two frames). */
	int cup = vis_trk_cup_at(t, k->x, k->y);
	for (int s = 1; s <= 8 && cup < 0 && k->have_v; s++)
		cup = vis_trk_cup_at(t, k->x + k->vx * k->frame_s * s / 4, k->y + k->vy * k->frame_s * s / 4);
	if (k->state != VIS_TRACK_REST && cup >= 0) {
		struct vis_obs o = vis_trk_obs_at(k, VIS_OBS_SINK, k->t_last);
		o.player = cup;
		o.confidence = 0.8;	/* a die hidden by a hand over the cup looks the same */
		vis_trk_emit(out, max, n, &o);
	} else if (k->state != VIS_TRACK_REST) {
		/* Where its last motion crosses an edge, if it does within a
		 * few frames' travel. */
		double x = k->x, y = k->y, span = (k->unseen + 1) * k->frame_s;
		int crossed = !vis_trk_on_table(tb, x, y);
		for (int s = 1; s <= 10 && !crossed && k->have_v; s++)
			crossed = !vis_trk_on_table(tb, x + k->vx * span * s / 10, y + k->vy * span * s / 10);
		if (crossed && vis_trk_on_table(tb, x, y)) {
			x += k->vx * span;
			y += k->vy * span;
		}
		if (crossed) {
			struct vis_obs o = vis_trk_obs_at(k, VIS_OBS_OFF_TABLE, k->t_last);
			o.x = x < 0 ? 0 : x > tb->length_m ? tb->length_m : x;
			o.y = y < 0 ? 0 : y > tb->width_m ? tb->width_m : y;
			vis_homography_apply(t->hinv, o.x, o.y, &o.u, &o.v);
			o.confidence = 0.85;
			vis_trk_emit(out, max, n, &o);
		}
	}
	k->state = VIS_TRACK_GONE;
	k->id = 0;
}

/* The frame's foreground as blobs of die size (at most cap), with
 * their table positions (flood fill marks visited pixels 2). */
static int find_blobs(struct vis_tracker *t, size_t nfg, struct tblob *blobs, int cap)
{
	int w = t->w, h = t->h;
	size_t np = (size_t)w * h;
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
		double k = vis_trk_px_per_m(t, b.x, b.y) * t->cfg.die_side_m;
		double die_area = k * k;
		/* A flying die looks bigger and smears; a speck is noise. */
		if (area < 0.2 * die_area || area > MAX_BLOB_RATIO * die_area + 4 || nb == cap)
			continue;
		b.ratio = area / die_area;
		blobs[nb++] = b;
	}
	return nb;
}

/* Pieces of one die: a die crossing the white line, or half in a
 * shadow, splits into blobs; in the air it looks bigger. Merges those
 * closer than 2.5 die sides; returns how many are left. */
static int merge_blobs(const struct vis_tracker *t, struct tblob *blobs, int nb)
{
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
	return nb;
}

/* A live track takes the nearest blob to its prediction (marking it
 * used), or counts a frame unseen: aloft, gone, or lost a while. */
static void follow(struct vis_tracker *t, struct trk *k, struct tblob *blobs, int nb, int64_t ts,
		   struct vis_obs *out, int max, int *n)
{
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
			return;
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
				vis_trk_line_fit(k, k->sightings - m, m, &p0x, &p0y, &k->vx, &k->vy);
			}
			return;
		}
		if (k->unseen >= t->cfg.gone_frames)
			track_gone(t, k, out, max, n);
		return;
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
		struct vis_obs o = vis_trk_obs_at(k, VIS_OBS_RELEASE, k->t_first);
		vis_trk_emit(out, max, n, &o);
	}
	if (k->state == VIS_TRACK_FLYING)
		vis_trk_find_contact(t, k, out, max, n);
	else
		vis_trk_mine_touch(t, k, out, max, n);
	/* Still: within a third of a die of where the spell began (the
	 * centroid of a 4-pixel die jitters more than a rest speed). */
	if (hypot(k->x - k->rx, k->y - k->ry) < t->cfg.die_side_m / 3) {
		if (++k->still == t->cfg.rest_frames && k->state != VIS_TRACK_REST) {
			k->state = VIS_TRACK_REST;
			struct vis_obs o = vis_trk_obs_at(k, VIS_OBS_REST, ts);
			vis_trk_emit(out, max, n, &o);
		}
	} else {
		k->still = 0;
		k->rx = k->x;
		k->ry = k->y;
		if (k->state == VIS_TRACK_REST)
			k->state = VIS_TRACK_BOUNCING;
	}
}

/* New tracks from the blobs nobody took, while there are free slots. */
static void start_tracks(struct vis_tracker *t, const struct tblob *blobs, int nb, int64_t ts)
{
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
}

int vis_tracker_feed(struct vis_tracker *t, const struct vis_image *frame,
		     struct vis_obs *out, int max)
{
	if (vis_trk_check_frame(t, frame))
		return -EINVAL;
	if (!t->learned)
		vis_tracker_learn(t, frame);
	vis_trk_light(t, frame);
	size_t nfg = vis_trk_foreground(t, frame);
	struct tblob blobs[64];
	int nb = merge_blobs(t, blobs, find_blobs(t, nfg, blobs, 64));
	int n = 0;
	int64_t ts = frame->ts_ns;
	for (int i = 0; i < MAX_TRACKS; i++)
		if (t->tracks[i].id)
			follow(t, &t->tracks[i], blobs, nb, ts, out, max, &n);
	start_tracks(t, blobs, nb, ts);
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
