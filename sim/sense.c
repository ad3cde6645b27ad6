/* sim_sense: what the piezo discs, the camera and the official at the
 * console would report of a simulated throw. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

/* The tracker on rendered 30 fps frames (default noise) of simulated throws:
 * the frames run of bench/sim_accuracy.sh (the first 3 matches of seed 2026,
 * 119 throws, `dyeref evaluate --track-frames` prints these figures) and
 * build/bench/sim_camera (59 throws of the seed's 112 matches: every one
 * touching the mine, 40 landing within 3 cm of the line). docs/simulator.md. */
#define CAM_P_LAND_MISS 0.025	/* first landings with no landing reported: 2 of 105 and 2 of 59 */
#define CAM_LAND_SD_M 0.0005	/* landing point error, sd along each axis: median 0.6 mm */
#define CAM_LINE_NEAR_M 0.03	/* within this of the line's edges a white die may lose */
#define CAM_P_LAND_LINE_TAIL 0.1	/* ... its contrast on the white line: these ... */
#define CAM_LAND_LINE_SD_M 0.008	/* ... have this sd instead (near the line p95 10.3 mm, else 2.0) */
#define CAM_LAND_CONF 0.95	/* its confidence that a clear kink was a contact */
#define CAM_P_LAND_WEAK 0.1	/* landings found by a slight kink or a valley: 0.6-0.95 */
#define CAM_P_MINE_MISS 0.33	/* mine contacts at 0.5 m/s or more unreported: 4 of 12 (0.61-2.8 m/s) */
#define CAM_P_MINE_SOFT_MISS 0.1	/* ... under 0.5 m/s (a die rolling into the can): 0 of 8, taken as 1 of 10 */
#define CAM_MINE_SOFT_MPS 0.5
#define CAM_DIE_SIDE_M 0.016	/* vision's default die, for the tracker's mine reach */
#define CAM_P_EXIT_MISS 0.01	/* exits unreported: 1 of 116 */
#define CAM_P_EXIT_FALSE 0.03	/* throws ending in a rest or sink given an exit: 2 of 62 */
#define CAM_EXIT_CONF 0.85	/* the tracker's for an exit */

void sim_noise_defaults(struct sim_noise *n, double k)
{
	sim_piezo_defaults(&n->piezo);
	n->piezo.jitter_s *= k;
	n->piezo.speed_spread *= k;
	n->piezo.p_miss = 0.01 * k;
	n->piezo.p_false = 0.005 * k;
	n->piezo.ring_max = (int)lround(2 * k);
	n->min_strength = 0.25;
	n->p_line_miss = 0.005 * k;
	n->console_delay_s = 0.3;
	n->cam_p_miss = 0.005 * k;
	n->cam_xy_sd_m = 0.004 * k;
	n->cam_p_land_miss = CAM_P_LAND_MISS * k;
	n->cam_land_sd_m = CAM_LAND_SD_M * k;
	n->cam_p_mine_miss = CAM_P_MINE_MISS * k;
	n->cam_p_exit_miss = CAM_P_EXIT_MISS * k;
	n->cam_p_exit_false = CAM_P_EXIT_FALSE * k;
	n->image_noise = 6 * k;
	n->blur_px = 0.6 * k;
}

void sim_sens_config(struct sens_config *c)
{
	static const char *const names[] = { "floor0", "floor1", "floor2", "floor3" };
	static const unsigned offsets[] = { 12, 16, 20, 21 };

	sens_config_defaults(c);
	for (size_t i = 0; i < 4 && c->n_lines < SENS_MAX_LINES; i++) {
		struct sens_line_cfg *l = &c->lines[c->n_lines++];

		memset(l, 0, sizeof(*l));
		strcpy(l->name, names[i]);
		l->role = SENS_ROLE_FLOOR;
		l->offset = offsets[i];
		l->owner = BD_NOBODY;
	}
}

static int grow(struct sens_edge **e, size_t *n, size_t *cap, size_t more)
{
	if (*n + more > *cap) {
		size_t nc = (*cap ? *cap * 2 : 256) + more;
		struct sens_edge *ne = realloc(*e, nc * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		*e = ne;
		*cap = nc;
	}
	return 0;
}

/* The config line of a role (and cup owner / floor side), or -1. */
static int line_of(const struct sens_config *sc, enum sens_role role, int owner, int nth)
{
	int seen = 0;

	for (size_t i = 0; i < sc->n_lines; i++) {
		const struct sens_line_cfg *l = &sc->lines[i];

		if (l->role != role)
			continue;
		if (role == SENS_ROLE_CUP && l->owner != owner)
			continue;
		if (role == SENS_ROLE_FLOOR && seen++ != nth)
			continue;
		return (int)i;
	}
	return -1;
}

/* The floor strip along the side nearest to where the die came down. */
static int floor_strip(const struct sens_config *sc, double x, double y)
{
	const struct bd_table *tb = &sc->table;
	double d[4] = { -x, x - tb->length_m, -y, y - tb->width_m };
	int best = 0;

	for (int i = 1; i < 4; i++)
		if (d[i] > d[best])
			best = i;
	return line_of(sc, SENS_ROLE_FLOOR, BD_NOBODY, best);
}

/* The table top shaken by cup or mine contact c on config line `line`
 * (sim_piezo_shake), appended to *edges. Drawn from a stream of the
 * contact's own (seeded by its time), so whether and how the top shook
 * moves nothing the shared stream draws after it: every other edge, call
 * and camera report stays as it was without the shake. */
static int shake(const struct sim_noise *n, const struct sens_config *sc,
		 const struct sim_contact *c, int line,
		 struct sens_edge **edges, size_t *n_edges, size_t *cap)
{
	struct sim_rng lr;
	size_t room = 64, got;

	if (c->strength < n->min_strength)
		return 0;	/* (no comparator trips at all) */
	if (grow(edges, n_edges, cap, room) < 0)
		return -ENOMEM;
	sim_rng_seed(&lr, (uint64_t)c->t_ns * 0x9e3779b97f4a7c15ULL ^ 0x54a4e5ULL);
	got = sim_piezo_shake(&n->piezo, sc, &lr, (size_t)line, c->t_ns, *edges + *n_edges, room);
	*n_edges += got < room ? got : room;
	return 0;
}

int sim_sense_edges(const struct sim_noise *n, const struct sens_config *sc,
		    const struct sim_throw *t, struct sim_rng *rng,
		    struct sens_edge **edges, size_t *n_edges, size_t *cap)
{
	for (size_t i = 0; i < t->n_contacts; i++) {
		const struct sim_contact *c = &t->contacts[i];
		size_t room = 64, got;
		int line = -1;

		if (grow(edges, n_edges, cap, room) < 0)
			return -ENOMEM;
		switch (c->kind) {
		case SIM_CONTACT_TABLE:
			if (c->strength < n->min_strength)
				break;
			got = sim_piezo_table_hit(&n->piezo, sc, rng, c->x, c->y, c->t_ns,
						  *edges + *n_edges, room);
			*n_edges += got < room ? got : room;
			break;
		case SIM_CONTACT_CUP:
		case SIM_CONTACT_SINK:
			line = line_of(sc, SENS_ROLE_CUP, c->player, 0);
			break;
		case SIM_CONTACT_MINE:
			line = line_of(sc, SENS_ROLE_MINE, BD_NOBODY, 0);
			break;
		case SIM_CONTACT_FLOOR:
			line = floor_strip(sc, c->x, c->y);
			break;
		default:
			break;
		}
		if (line >= 0 && !(sim_rng_uniform(rng) < n->p_line_miss) &&
		    (c->kind == SIM_CONTACT_SINK || c->strength >= n->min_strength)) {
			got = sim_piezo_line_hit(&n->piezo, sc, rng, (size_t)line, c->t_ns,
						 *edges + *n_edges, room);
			*n_edges += got < room ? got : room;
		}
		/* Whether or not the cup's disc heard it. A die dropping into
		 * the beer (a sink) is slowed over centimetres of liquid: no
		 * sharp push reaches the top. */
		if ((c->kind == SIM_CONTACT_CUP || c->kind == SIM_CONTACT_MINE) && line >= 0 &&
		    shake(n, sc, c, line, edges, n_edges, cap) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int64_t human_delay(const struct sim_noise *n, struct sim_rng *rng)
{
	double s = n->console_delay_s * (0.5 + sim_rng_uniform(rng));

	return (int64_t)(s * 1e9);
}

size_t sim_sense_calls(const struct sim_noise *n, const struct sim_throw *t,
		       struct sim_rng *rng, struct sim_call *out, size_t cap)
{
	size_t k = 0;

	if (!t->truth.dye_up && k < cap) {
		memset(&out[k], 0, sizeof(out[k]));
		out[k].t_ns = t->t_release_ns + human_delay(n, rng);
		out[k].dye_up_missed = true;
		k++;
	}
	for (size_t i = 0; i < t->truth.n_events && k < cap; i++) {
		const struct bd_event *e = &t->truth.events[i];

		if (e->kind != BD_EV_LOW_CALL && e->kind != BD_EV_CATCH && e->kind != BD_EV_KICK)
			continue;
		memset(&out[k], 0, sizeof(out[k]));
		out[k].ev = *e;
		strcpy(out[k].ev.source, "console");
		/* A low call is shouted before the landing and entered at once;
		 * catches and kicks are entered as they happen. */
		out[k].t_ns = e->t_ns + (e->kind == BD_EV_LOW_CALL ? 0 : human_delay(n, rng));
		out[k].ev.t_ns = out[k].t_ns;
		k++;
	}
	return k;
}

/* Where and when the die last crossed the table's edge outwards between t0
 * (its last touch, or the release) and t1 (the floor or a hand): false if it
 * was never over the table after t0, or was hidden (in a hand) first. */
static bool exit_point(const struct sim_throw *t, const struct bd_table *tb, int64_t t0, int64_t t1,
		       struct sim_cam *c)
{
	bool over = false;

	for (int64_t at = t0; at <= t1; at += 5000000) {
		double p[3], v[3];
		bool hidden = false, off;

		if (!sim_throw_state_at(t, at, p, v, &hidden) || hidden)
			return false;
		off = p[0] < 0 || p[1] < 0 || p[0] > tb->length_m || p[1] > tb->width_m;
		if (!off) {
			over = true;
			continue;
		}
		if (over) {
			c->t_ns = at;
			c->x = p[0];
			c->y = p[1];
			bd_table_clamp(tb, &c->x, &c->y);
			return true;
		}
	}
	return false;
}

/* The tracker's reports during the flight: the first landing, mine
 * contacts, the exit over an edge. Drawn from a stream of the throw's own
 * (seeded by its release time), so the piezo and console noise that
 * follow in the shared stream stay as they were without them. */
static size_t camera_track(const struct sim_noise *n, const struct sim_throw *t,
			   struct sim_cam *out, size_t cap)
{
	struct sim_rng lr;
	struct bd_table tb;
	const struct sim_contact *last_touch = NULL, *end = NULL;
	bool landed = false;
	size_t k = 0;

	bd_table_defaults(&tb);
	sim_rng_seed(&lr, (uint64_t)t->t_release_ns * 0x9e3779b97f4a7c15ULL ^ 0xca3e7a11ULL);
	for (size_t i = 0; i < t->n_contacts && k < cap; i++) {
		const struct sim_contact *c = &t->contacts[i];
		bool miss;

		if (c->kind == SIM_CONTACT_TABLE || c->kind == SIM_CONTACT_CUP ||
		    c->kind == SIM_CONTACT_MINE)
			last_touch = c;
		if (c->kind == SIM_CONTACT_FLOOR || c->kind == SIM_CONTACT_CATCH)
			end = end ? end : c;
		if (c->kind == SIM_CONTACT_TABLE && !landed) {
			landed = true;
			miss = sim_rng_uniform(&lr) < n->cam_p_land_miss;
			if (miss || c->z < tb.height_m - 0.001)
				continue;	/* (an edge or underside touch: out of the camera's sight) */
			int64_t dt = (int64_t)(VIS_LANDING_T_SD_NS * sim_rng_normal(&lr));

			out[k] = (struct sim_cam){ .t_ns = c->t_ns + dt,
						   .kind = SIM_CAM_LANDING, .owner = BD_NOBODY,
						   .confidence = CAM_LAND_CONF };
			double sd = n->cam_land_sd_m;

			if (fabs(c->x - tb.length_m / 2) < tb.line_width_m / 2 + CAM_LINE_NEAR_M &&
			    sim_rng_uniform(&lr) < CAM_P_LAND_LINE_TAIL)
				sd *= CAM_LAND_LINE_SD_M / CAM_LAND_SD_M;
			out[k].x = c->x + sd * sim_rng_normal(&lr);
			out[k].y = c->y + sd * sim_rng_normal(&lr);
			/* A slight kink (or a valley of its size) is less sure. */
			if (sim_rng_uniform(&lr) < CAM_P_LAND_WEAK)
				out[k].confidence = 0.6 + 0.35 * sim_rng_uniform(&lr);
			k++;
		} else if (c->kind == SIM_CONTACT_MINE) {
			/* The tracker measures the die's speed, so its misses may
			 * depend on it: hits from the air, fast and often high
			 * over the can, are missed more than a die rolling in. */
			double p = n->cam_p_mine_miss;

			if (c->strength < CAM_MINE_SOFT_MPS)
				p *= CAM_P_MINE_SOFT_MISS / CAM_P_MINE_MISS;
			if (sim_rng_uniform(&lr) < p)
				continue;
			/* The tracker's point, and its confidence from that
			 * point as vision/track.c gives it: a die that came down
			 * on the can (its centre over it) as sure as a landing,
			 * one that struck the wall only as sure as the chance
			 * its face reached it (a brush reads about 0.6). */
			double mx = c->x + n->cam_land_sd_m * sim_rng_normal(&lr);
			double my = c->y + n->cam_land_sd_m * sim_rng_normal(&lr);
			bool over = hypot(c->x - tb.mine_x, c->y - tb.mine_y) < tb.mine_radius_m;
			double conf = vis_mine_touch_confidence(&tb, CAM_DIE_SIDE_M, mx, my,
								VIS_LANDING_XY_SD_M, over);

			out[k++] = (struct sim_cam){ .t_ns = c->t_ns, .kind = SIM_CAM_MINE,
						     .owner = BD_NOBODY, .x = mx, .y = my,
						     .confidence = over ? CAM_LAND_CONF * conf : conf };
		}
	}
	if (k < cap && end && sim_rng_uniform(&lr) >= n->cam_p_exit_miss &&
	    exit_point(t, &tb, last_touch && last_touch->t_ns < end->t_ns ? last_touch->t_ns :
			       t->t_release_ns, end->t_ns, &out[k])) {
		out[k].kind = SIM_CAM_EXIT;
		out[k].owner = BD_NOBODY;
		out[k].confidence = CAM_EXIT_CONF;
		k++;
	} else if (k < cap && !end && t->n_contacts &&
		   sim_rng_uniform(&lr) < n->cam_p_exit_false) {
		/* A die resting or sunk near an edge, lost there: an exit at the
		 * nearest edge when it died. */
		const struct sim_contact *c = &t->contacts[t->n_contacts - 1];
		double d[4] = { c->x, tb.length_m - c->x, c->y, tb.width_m - c->y };
		int e = 0;

		for (int i = 1; i < 4; i++)
			e = d[i] < d[e] ? i : e;
		out[k] = (struct sim_cam){ .t_ns = c->t_ns, .kind = SIM_CAM_EXIT, .owner = BD_NOBODY,
					   .x = e == 0 ? 0 : e == 1 ? tb.length_m : c->x,
					   .y = e == 2 ? 0 : e == 3 ? tb.width_m : c->y,
					   .confidence = CAM_EXIT_CONF };
		bd_table_clamp(&tb, &out[k].x, &out[k].y);
		k++;
	}
	return k;
}

size_t sim_sense_camera(const struct sim_noise *n, const struct sim_throw *t,
			struct sim_rng *rng, struct sim_cam *out, size_t cap)
{
	size_t k = 0;

	for (size_t i = 0; i < t->n_contacts && k < cap; i++) {
		const struct sim_contact *c = &t->contacts[i];

		if (c->kind == SIM_CONTACT_RELEASE) {
			if (sim_rng_uniform(rng) < n->cam_p_miss)
				continue;
			/* The die rises out of the hand: seen a few frames later. */
			out[k] = (struct sim_cam){ 0 };
			out[k].t_ns = c->t_ns + 100000000;
			out[k].kind = SIM_CAM_TOSS;
			out[k].owner = BD_NOBODY;
			out[k].x = c->x;
			out[k].y = c->y;
			k++;
		} else if (c->kind == SIM_CONTACT_SINK && t->in_cup && i + 1 == t->n_contacts) {
			if (sim_rng_uniform(rng) < n->cam_p_miss)
				continue;
			/* Seen a frame or two later: the die does not come back out. */
			out[k] = (struct sim_cam){ 0 };
			out[k].t_ns = c->t_ns + 66000000;
			out[k].kind = SIM_CAM_SINK;
			out[k].owner = c->player;
			out[k].x = c->x;
			out[k].y = c->y;
			k++;
		} else if (c->kind == SIM_CONTACT_REST) {
			out[k] = (struct sim_cam){ 0 };
			out[k].t_ns = c->t_ns + 200000000;	/* still for a few frames */
			out[k].kind = SIM_CAM_REST;
			out[k].owner = BD_NOBODY;
			out[k].x = c->x + n->cam_xy_sd_m * sim_rng_normal(rng);
			out[k].y = c->y + n->cam_xy_sd_m * sim_rng_normal(rng);
			k++;
		}
	}
	return k + camera_track(n, t, out + k, cap - k);
}

struct vis_image *sim_render_rest_crop(const struct sim_noise *n, const struct bd_table *tb,
				       double x, double y, double cx, double cy, int face,
				       double angle, int side_px, struct sim_rng *rng)
{
	struct vis_render_scene s;
	struct vis_image *img = NULL;
	double span = side_px * 0.016 / 32;	/* 32 px a die */
	double blur_v, dir = 2 * M_PI * sim_rng_uniform(rng);
	char err[128];
	int rc;

	if (face < 1 || face > 6 || side_px < 16 || side_px > 4096 || !(fabs(cx - x) < span / 2) ||
	    !(fabs(cy - y) < span / 2)) {
		errno = EINVAL;
		return NULL;
	}
	vis_render_scene_default(&s);
	s.table = *tb;
	s.width = s.height = side_px;
	vis_render_view_topdown(&s, cx, cy, span);
	s.noise_sigma = n->image_noise;
	s.light_level = 1 - 0.15 * (n->image_noise / 6) * sim_rng_uniform(rng);
	s.seed = sim_rng_next(rng);
	s.n_dice = 1;
	blur_v = n->blur_px * (span / side_px) / s.exposure_s;
	s.dice[0] = (struct vis_render_die){
		.x = x, .y = y, .z = 0, .angle = angle, .face = face,
		.vx = blur_v * cos(dir), .vy = blur_v * sin(dir),
		.body = { 240, 238, 232 }, .pip = { 25, 25, 25 },
	};
	rc = vis_render(&s, &img, err, sizeof(err));
	if (rc < 0) {
		errno = -rc;
		return NULL;
	}
	return img;
}
