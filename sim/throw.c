/*
 * sim_throw: one Beer Die throw on the virtual table, from physics.
 *
 * The die is a point of radius die_half_m. It leaves the thrower's hand on
 * a ballistic arc (no drag: at 5-8 m/s a 5 g die loses well under 1 % of its
 * height to air over 1.5 s, less than the spread of real tosses), meets the
 * table, cups, mine, hands, feet or floor, and bounces with restitution and
 * friction until it is dead. Motion between contacts is exact (constant
 * acceleration), so positions are stepped in small slices only to find the
 * next contact; each contact's time is solved within its slice.
 *
 * Every contact loses energy (restitution < 1, friction, and a clamp on the
 * sideways scatter a cube's corners give), except a kick and a pop-out,
 * where a foot or the beer puts energy in: tests rely on that.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "sim/sim.h"

#define STEP_S     0.0005	/* search slice: a die falls < 5 mm in it */
#define MAX_TIME_S 12.0		/* no throw lasts longer; a guard, never reached */
#define MAX_BOUNCES 12		/* then it slides: keeps truth within BD_MAX_EVENTS */
#define CATCH_DROP_M 0.12	/* a hand meets a die this far below the table top */
#define KICK_Z_M   0.45		/* shin height */
#define SIDE_RESTITUTION 0.40	/* die off the side of a cup or can */

void sim_throw_cfg_defaults(struct sim_throw_cfg *c)
{
	c->g = 9.81;
	c->die_half_m = 0.008;
	c->edge_depth_m = 0.03;
	c->release_z_m = 1.9;
	c->apex_mean_m = 3.8;
	c->apex_sd_m = 0.45;
	c->aim_from_end_m = 0.55;
	c->aim_x_sd_m = 0.35;
	c->aim_y_sd_m = 0.28;
	c->p_aim_cup = 0.15;
	c->aim_cup_sd_m = 0.08;
	c->restitution = 0.45;
	c->restitution_sd = 0.08;
	c->friction = 0.30;
	c->scatter = 0.40;
	c->settle_speed = 0.35;
	c->slide_decel = 3.0;
	c->p_rim_bounce_out = 0.6;
	c->p_popout = 0.08;
	c->p_catch_near = 0.50;
	c->p_catch_far = 0.08;
	c->p_two_hands = 0.12;
	c->p_trapped = 0.08;
	c->p_over_table = 0.02;
	c->p_kick = 0.30;
	c->p_kick_thigh = 0.10;
	c->p_fifa_catch = 0.50;
	c->min_toss_height_m = 3.0;
	c->low_call_spread_m = 0.05;
	c->p_dye_up_missed = 0.02;
}

enum mode { FLYING, SLIDING, DEAD };

/* What ends the current slice early. */
enum hit {
	HIT_NONE,
	HIT_TABLE,	/* table top from above */
	HIT_EDGE,	/* the top's edge from the side, or its underside from below */
	HIT_CUP_TOP,	/* through a cup's rim plane: rim, or into the beer */
	HIT_CUP_SIDE,
	HIT_MINE_TOP,
	HIT_MINE_SIDE,
	HIT_FLOOR,
	HIT_CATCH_GATE,	/* a falling die passes a defender's hands */
	HIT_KICK_GATE,	/* a die that missed the table passes a defender's foot */
	HIT_PEAK,	/* top of a bounce: a grab over the table may happen */
	HIT_OFF_EDGE,	/* a sliding die tips over the edge */
	HIT_STOP,	/* a sliding die stops */
};

struct world {
	const struct sim_throw_cfg *c;
	const struct bd_table *tb;
	struct sim_rng *rng;
	struct sim_throw *out;
	int64_t t0_ns;
	int attackers, defenders;
	double dir;		/* +1: towards B's end; -1: towards A's */
	/* state */
	enum mode mode;
	double s;		/* seconds since the release */
	double p[3], v[3];
	int bounces;
	bool touched;		/* table, cup or mine touched: catches matter */
	bool touched_table;
	bool kicked;
	int kicker;
	bool catch_tried, kick_tried;
	bool over_pending;	/* a defender will grab at this bounce's top */
	double first_contact_s;	/* < 0 until the first contact */
};

static double speed3(const double v[3])
{
	return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int64_t ns_at(const struct world *w, double s)
{
	return w->t0_ns + (int64_t)llround(s * 1e9);
}

static void advance(double p[3], double v[3], const double a[3], double dt)
{
	for (int i = 0; i < 3; i++) {
		p[i] += v[i] * dt + 0.5 * a[i] * dt * dt;
		v[i] += a[i] * dt;
	}
}

static void accel(const struct world *w, double a[3])
{
	a[0] = a[1] = a[2] = 0;
	if (w->mode == FLYING) {
		a[2] = -w->c->g;
	} else if (w->mode == SLIDING) {
		double sp = hypot(w->v[0], w->v[1]);

		if (sp > 0) {
			a[0] = -w->c->slide_decel * w->v[0] / sp;
			a[1] = -w->c->slide_decel * w->v[1] / sp;
		}
	}
}

static void segment(struct world *w, bool hidden)
{
	struct sim_throw *o = w->out;
	struct sim_segment *g;

	if (o->n_segments == SIM_MAX_SEGMENTS)
		return;	/* never with MAX_BOUNCES; the tail stays at its last segment */
	g = &o->seg[o->n_segments++];
	g->t0_ns = ns_at(w, w->s);
	memcpy(g->p, w->p, sizeof(g->p));
	memcpy(g->v, w->v, sizeof(g->v));
	if (w->mode == DEAD)
		memset(g->v, 0, sizeof(g->v));
	accel(w, g->a);
	g->hidden = hidden;
}

static void contact(struct world *w, enum sim_contact_kind k, double strength, int player)
{
	struct sim_throw *o = w->out;
	struct sim_contact *c;

	if (w->first_contact_s < 0 && k != SIM_CONTACT_RELEASE)
		w->first_contact_s = w->s;
	if (o->n_contacts == SIM_MAX_CONTACTS)
		return;
	c = &o->contacts[o->n_contacts++];
	c->t_ns = ns_at(w, w->s);
	c->kind = k;
	c->x = w->p[0];
	c->y = w->p[1];
	c->z = w->p[2];
	c->strength = strength;
	c->player = player;
}

static struct bd_event *event(struct world *w, enum bd_ev_kind k)
{
	struct bd_throw *t = &w->out->truth;
	struct bd_event *e;

	/* One slot stays free for the low call, inserted at the end. */
	if (t->n_events >= BD_MAX_EVENTS - 1)
		return NULL;
	e = &t->events[t->n_events++];
	memset(e, 0, sizeof(*e));
	e->kind = k;
	e->player = BD_NOBODY;
	e->confidence = 1.0;
	e->t_ns = ns_at(w, w->s);
	return e;
}

/* The defender standing on the die's side of the table (a1/b1 left). */
static int defender_near(const struct world *w, double y)
{
	return 2 * w->defenders + (y < w->tb->width_m / 2 ? 0 : 1);
}

static bool on_table(const struct world *w, double x, double y)
{
	return x >= 0 && x <= w->tb->length_m && y >= 0 && y <= w->tb->width_m;
}

static bool on_defenders_half(const struct world *w, double x)
{
	double mid = w->tb->length_m / 2;

	return w->defenders == BD_TEAM_B ? x > mid : x < mid;
}

/* Latest s in [0, dt] with z(s) = level on the way down, or -1. */
static double descend_time(double z, double vz, double g, double level, double dt)
{
	double zend = z + vz * dt - 0.5 * g * dt * dt;
	double disc, s;

	if (!(z >= level && zend < level))
		return -1;
	/* z + vz s - g s^2 / 2 = level: the larger root is the descending one. */
	disc = vz * vz + 2 * g * (z - level);
	s = (vz + sqrt(disc > 0 ? disc : 0)) / g;
	return clampd(s, 0, dt);
}

/* Earliest s in [0, dt] where f changes from >0 to <=0 (f sampled as the
 * slice moves on), by bisection over a few sub-samples; -1 if none. */
typedef double (*field_fn)(const struct world *w, const double p[3], int i);

static double first_entry(const struct world *w, field_fn f, int i, double dt)
{
	double a[3], p[3], v[3], lo = 0, hi = -1;
	const int n = 4;

	accel(w, a);
	if (f(w, w->p, i) <= 0)
		return -1;	/* already inside: leaving, not entering */
	for (int k = 1; k <= n; k++) {
		double s = dt * k / n;

		memcpy(p, w->p, sizeof(p));
		memcpy(v, w->v, sizeof(v));
		advance(p, v, a, s);
		if (f(w, p, i) <= 0) {
			hi = s;
			break;
		}
		lo = s;
	}
	if (hi < 0)
		return -1;
	for (int it = 0; it < 30; it++) {
		double mid = 0.5 * (lo + hi);

		memcpy(p, w->p, sizeof(p));
		memcpy(v, w->v, sizeof(v));
		advance(p, v, a, mid);
		if (f(w, p, i) <= 0)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* > 0 outside a cup's wall (i < 4) or the mine's (i == 4), at its height. */
static double wall_field(const struct world *w, const double p[3], int i)
{
	const struct bd_table *tb = w->tb;
	double cx, cy, r, top = tb->height_m + (i < BD_PLAYERS ? tb->cup_height_m : tb->mine_height_m);

	bd_table_spot(tb, i, &cx, &cy, &r);
	if (p[2] >= top || p[2] < tb->height_m)
		return 1;
	return hypot(p[0] - cx, p[1] - cy) - (r + w->c->die_half_m);
}

/* > 0 outside the table's top, seen as a board: the footprint, from
 * edge_depth_m below the top to the top (the die's centre, so widened by
 * half a die above and below). A table on legs is open beneath its edge:
 * a die lower than that passes under it, and one rising under the
 * footprint meets the underside. */
static double edge_field(const struct world *w, const double p[3], int i)
{
	double d = w->c->die_half_m, top = w->tb->height_m;

	(void)i;
	if (p[2] >= top + d || p[2] <= top - w->c->edge_depth_m - d)
		return 1;
	return on_table(w, p[0], p[1]) ? -1 : 1;
}

/* > 0 on the table (sliding: it tips over when the centre leaves). */
static double off_field(const struct world *w, const double p[3], int i)
{
	(void)i;
	return on_table(w, p[0], p[1]) ? 1 : -1;
}

struct next {
	double s;		/* seconds into the slice */
	enum hit hit;
	int which;		/* cup owner, or 4 for the mine */
};

static void consider(struct next *n, double s, enum hit h, int which)
{
	if (s >= 0 && s < n->s) {
		n->s = s;
		n->hit = h;
		n->which = which;
	}
}

/* How far the die can move in dt, with a margin: walls farther than this
 * cannot be met in the slice, so their search is skipped. */
static double reach(const struct world *w, double dt)
{
	return (speed3(w->v) + w->c->g * dt) * dt + 0.01;
}

static bool near(const struct world *w, double cx, double cy, double r, double top, double dt)
{
	double m = reach(w, dt);

	return w->p[2] < top + m && hypot(w->p[0] - cx, w->p[1] - cy) < r + w->c->die_half_m + m;
}

static void find_flying(const struct world *w, double dt, struct next *n)
{
	const struct sim_throw_cfg *c = w->c;
	const struct bd_table *tb = w->tb;
	double g = c->g, d = c->die_half_m, s, p[3], v[3], a[3];

	accel(w, a);
	s = descend_time(w->p[2], w->v[2], g, tb->height_m + d, dt);
	if (s >= 0) {
		memcpy(p, w->p, sizeof(p));
		memcpy(v, w->v, sizeof(v));
		advance(p, v, a, s);
		if (on_table(w, p[0], p[1]))
			consider(n, s, HIT_TABLE, 0);
	}
	for (int i = 0; i <= BD_TABLE_MINE; i++) {
		double cx, cy, r, top = tb->height_m + (i < BD_PLAYERS ? tb->cup_height_m : tb->mine_height_m);

		bd_table_spot(tb, i, &cx, &cy, &r);
		s = descend_time(w->p[2], w->v[2], g, top + (i < BD_PLAYERS ? 0 : d), dt);
		if (s >= 0) {
			memcpy(p, w->p, sizeof(p));
			memcpy(v, w->v, sizeof(v));
			advance(p, v, a, s);
			if (hypot(p[0] - cx, p[1] - cy) < r + d)
				consider(n, s, i < BD_PLAYERS ? HIT_CUP_TOP : HIT_MINE_TOP, i);
		}
		if (near(w, cx, cy, r, top, dt))
			consider(n, first_entry(w, wall_field, i, dt),
				 i < BD_PLAYERS ? HIT_CUP_SIDE : HIT_MINE_SIDE, i);
	}
	if (w->p[2] < tb->height_m + d + reach(w, dt) &&
	    w->p[2] > tb->height_m - c->edge_depth_m - d - reach(w, dt))
		consider(n, first_entry(w, edge_field, 0, dt), HIT_EDGE, 0);
	consider(n, descend_time(w->p[2], w->v[2], g, d, dt), HIT_FLOOR, 0);
	if (!on_table(w, w->p[0], w->p[1])) {
		if (!w->catch_tried && (w->touched || w->kicked))
			consider(n, descend_time(w->p[2], w->v[2], g, tb->height_m - CATCH_DROP_M, dt),
				 HIT_CATCH_GATE, 0);
		if (!w->kick_tried && !w->touched && !w->kicked && on_defenders_half(w, w->p[0]))
			consider(n, descend_time(w->p[2], w->v[2], g, KICK_Z_M, dt), HIT_KICK_GATE, 0);
	}
	if (w->over_pending && w->v[2] > 0 && w->v[2] - g * dt <= 0)
		consider(n, w->v[2] / g, HIT_PEAK, 0);
}

static void find_sliding(const struct world *w, double dt, struct next *n)
{
	double sp = hypot(w->v[0], w->v[1]);
	double stop = sp / w->c->slide_decel;

	if (stop <= dt)
		consider(n, stop, HIT_STOP, 0);
	consider(n, first_entry(w, off_field, 0, dt < stop ? dt : stop), HIT_OFF_EDGE, 0);
	for (int i = 0; i <= BD_TABLE_MINE; i++) {
		double cx, cy, r;

		bd_table_spot(w->tb, i, &cx, &cy, &r);
		if (near(w, cx, cy, r, w->tb->height_m + 1, dt))
			consider(n, first_entry(w, wall_field, i, dt < stop ? dt : stop),
				 i < BD_PLAYERS ? HIT_CUP_SIDE : HIT_MINE_SIDE, i);
	}
}

/* Keeps |v| at most `keep` of what it was: the scatter of a cube's corners
 * redirects energy, it never adds any. */
static void cap_speed(double v[3], double before, double keep)
{
	double after = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

	if (after > keep * before && after > 0) {
		double k = keep * before / after;

		for (int i = 0; i < 3; i++)
			v[i] *= k;
	}
}

static void bounce_up(struct world *w, double e)
{
	const struct sim_throw_cfg *c = w->c;
	double before = speed3(w->v), vn = -w->v[2];
	double vh = hypot(w->v[0], w->v[1]);
	double loss = c->friction * (1 + e) * vn;
	double k = vh > 0 ? fmax(0, vh - loss) / vh : 0;
	double ang = 2 * M_PI * sim_rng_uniform(w->rng);
	double kick = c->scatter * sim_rng_uniform(w->rng) * vn;

	w->v[0] = w->v[0] * k + kick * cos(ang);
	w->v[1] = w->v[1] * k + kick * sin(ang);
	w->v[2] = e * vn;
	cap_speed(w->v, before, 0.95);
}

static double restitution(struct world *w)
{
	return clampd(w->c->restitution + w->c->restitution_sd * sim_rng_normal(w->rng), 0.1, 0.8);
}

/* Reflects the horizontal velocity off a vertical wall with normal (nx, ny). */
static void reflect_wall(struct world *w, double nx, double ny, double e)
{
	double vn = w->v[0] * nx + w->v[1] * ny;

	if (vn >= 0)
		return;
	w->v[0] -= (1 + e) * vn * nx;
	w->v[1] -= (1 + e) * vn * ny;
}

static void die_dead(struct world *w, bool hidden)
{
	w->mode = DEAD;
	w->v[0] = w->v[1] = w->v[2] = 0;
	w->out->t_dead_ns = ns_at(w, w->s);
	segment(w, hidden);
}

static void table_event(struct world *w, double x, double y)
{
	struct bd_event *e = event(w, BD_EV_TABLE);

	w->touched = w->touched_table = true;
	if (!e)
		return;
	e->half = bd_table_half(w->tb, x);
	e->has_xy = true;
	e->x = x;
	e->y = y;
}

static void cup_event(struct world *w, int owner, bool sink, bool popout)
{
	struct bd_event *e = event(w, BD_EV_CUP);

	w->touched = true;
	if (!e)
		return;
	e->player = owner;
	e->sink = sink;
	e->popout = popout;
}

static void on_table_hit(struct world *w)
{
	double e = restitution(w);
	double vn = -w->v[2];

	contact(w, SIM_CONTACT_TABLE, vn, BD_NOBODY);
	table_event(w, w->p[0], w->p[1]);
	w->bounces++;
	/* A grab over the table (BD-P10) happens at the top of the first bounce. */
	w->over_pending = w->bounces == 1 && on_defenders_half(w, w->p[0]) &&
			  sim_rng_uniform(w->rng) < w->c->p_over_table;
	bounce_up(w, e);
	if (w->v[2] < w->c->settle_speed || w->bounces >= MAX_BOUNCES) {
		w->v[2] = 0;
		w->p[2] = w->tb->height_m + w->c->die_half_m;
		w->mode = SLIDING;
		w->over_pending = false;
	}
	segment(w, false);
}

/* A die too slow to bounce off a cup's rim or the can's top tips off its
 * edge: put it just outside, same height, no faster than it came. */
static void tip_off(struct world *w, double cx, double cy, double r)
{
	double dx = w->p[0] - cx, dy = w->p[1] - cy, d = hypot(dx, dy);
	double out = r + w->c->die_half_m + 0.001;

	if (d < 1e-9) {
		double ang = 2 * M_PI * sim_rng_uniform(w->rng);

		dx = cos(ang);
		dy = sin(ang);
		d = 1;
	}
	w->p[0] = cx + dx / d * out;
	w->p[1] = cy + dy / d * out;
	w->v[2] = 0;
}

static void on_cup_top(struct world *w, int i)
{
	const struct sim_throw_cfg *c = w->c;
	const struct bd_table *tb = w->tb;
	double r = hypot(w->p[0] - tb->cup_x[i], w->p[1] - tb->cup_y[i]);
	bool rim = r > tb->cup_radius_m - c->die_half_m;

	if (rim && sim_rng_uniform(w->rng) < c->p_rim_bounce_out) {
		double nx = (w->p[0] - tb->cup_x[i]) / (r > 0 ? r : 1);
		double ny = (w->p[1] - tb->cup_y[i]) / (r > 0 ? r : 1);
		double before = speed3(w->v), vn = -w->v[2];

		contact(w, SIM_CONTACT_CUP, vn, i);
		cup_event(w, i, false, false);
		/* Off the rim: up and outwards. */
		w->v[2] = 0.4 * vn;
		w->v[0] = w->v[0] * 0.5 + nx * 0.3 * vn;
		w->v[1] = w->v[1] * 0.5 + ny * 0.3 * vn;
		cap_speed(w->v, before, 0.95);
		if (w->v[2] < w->c->settle_speed)
			tip_off(w, tb->cup_x[i], tb->cup_y[i], tb->cup_radius_m);
		segment(w, false);
		return;
	}
	contact(w, SIM_CONTACT_SINK, -w->v[2], i);
	if (sim_rng_uniform(w->rng) < c->p_popout) {
		/* The beer throws it back out (BD-R1): a cup hit, not a sink. */
		double ang = 2 * M_PI * sim_rng_uniform(w->rng);
		double out = 0.4 + 0.6 * sim_rng_uniform(w->rng);

		cup_event(w, i, false, true);
		w->p[2] = tb->height_m + tb->cup_height_m + c->die_half_m;
		w->v[0] = out * cos(ang);
		w->v[1] = out * sin(ang);
		w->v[2] = 1.0 + sim_rng_uniform(w->rng);
		w->catch_tried = false;
		segment(w, false);
		return;
	}
	cup_event(w, i, true, false);
	w->out->in_cup = true;
	w->p[0] = tb->cup_x[i];
	w->p[1] = tb->cup_y[i];
	w->p[2] = tb->height_m + 0.02;
	die_dead(w, true);
}

static void on_wall(struct world *w, int i)
{
	double cx, cy, r, nx, ny, vn;

	bd_table_spot(w->tb, i, &cx, &cy, NULL);
	r = hypot(w->p[0] - cx, w->p[1] - cy);
	nx = (w->p[0] - cx) / (r > 0 ? r : 1);
	ny = (w->p[1] - cy) / (r > 0 ? r : 1);
	vn = -(w->v[0] * nx + w->v[1] * ny);

	if (i < BD_PLAYERS) {
		contact(w, SIM_CONTACT_CUP, vn, i);
		cup_event(w, i, false, false);
	} else {
		contact(w, SIM_CONTACT_MINE, vn, BD_NOBODY);
		w->touched = true;
		event(w, BD_EV_MINE);
	}
	reflect_wall(w, nx, ny, SIDE_RESTITUTION);
	segment(w, false);
}

static void on_mine_top(struct world *w)
{
	double e = restitution(w);

	contact(w, SIM_CONTACT_MINE, -w->v[2], BD_NOBODY);
	w->touched = true;
	event(w, BD_EV_MINE);
	bounce_up(w, e);
	if (w->v[2] < w->c->settle_speed)
		tip_off(w, w->tb->mine_x, w->tb->mine_y, w->tb->mine_radius_m);
	segment(w, false);
}

static void on_edge(struct world *w)
{
	const struct bd_table *tb = w->tb;
	double x = clampd(w->p[0], 0, tb->length_m), y = clampd(w->p[1], 0, tb->width_m);
	double dx = fmin(x, tb->length_m - x), dy = fmin(y, tb->width_m - y);
	double under = tb->height_m - w->c->edge_depth_m - w->c->die_half_m;
	double nx = 0, ny = 0;

	if (w->v[2] > 0 && w->p[2] - under < 0.001 && dx > 0 && dy > 0) {
		/* Up into the underside, from beneath the table: the board
		 * rings as from any hit, and the die falls back. */
		double before = speed3(w->v), vn = w->v[2];

		contact(w, SIM_CONTACT_TABLE, vn, BD_NOBODY);
		table_event(w, x, y);
		w->v[2] = -SIDE_RESTITUTION * vn;
		cap_speed(w->v, before, 0.95);
		segment(w, false);
		return;
	}
	/* The nearest side is the one it came through. */
	if (dx < dy)
		nx = x < tb->length_m / 2 ? -1 : 1;
	else
		ny = y < tb->width_m / 2 ? -1 : 1;
	contact(w, SIM_CONTACT_TABLE, fabs(w->v[0] * nx + w->v[1] * ny), BD_NOBODY);
	table_event(w, x, y);
	reflect_wall(w, nx, ny, SIDE_RESTITUTION);
	segment(w, false);
}

static void catch_die(struct world *w, int by, bool over_table)
{
	const struct sim_throw_cfg *c = w->c;
	struct bd_event *e;
	double u = sim_rng_uniform(w->rng);

	contact(w, SIM_CONTACT_CATCH, 0, by);
	e = event(w, BD_EV_CATCH);
	if (e) {
		e->player = by;
		e->hands = u < c->p_two_hands ? 2 : 1;
		e->trapped = !over_table && u >= c->p_two_hands && u < c->p_two_hands + c->p_trapped;
		e->over_table = over_table;
	}
	die_dead(w, true);
}

static void on_catch_gate(struct world *w)
{
	const struct sim_throw_cfg *c = w->c;
	double p;
	int by;

	w->catch_tried = true;
	if (w->kicked) {
		/* After a kick the partner goes for it; now and then the kicker
		 * gets it back himself (BD-K9). */
		p = c->p_fifa_catch;
		by = sim_rng_uniform(w->rng) < 0.1 ? w->kicker : (w->kicker ^ 1);
	} else {
		p = on_defenders_half(w, w->p[0]) ? c->p_catch_near : c->p_catch_far;
		by = defender_near(w, w->p[1]);
	}
	if (sim_rng_uniform(w->rng) < p)
		catch_die(w, by, false);
}

static void on_kick_gate(struct world *w)
{
	const struct sim_throw_cfg *c = w->c;
	struct bd_event *e;
	double before, up, along, across;

	w->kick_tried = true;
	if (sim_rng_uniform(w->rng) >= c->p_kick)
		return;
	w->kicker = defender_near(w, w->p[1]);
	w->kicked = true;
	w->catch_tried = false;
	before = speed3(w->v);
	contact(w, SIM_CONTACT_KICK, before, w->kicker);
	e = event(w, BD_EV_KICK);
	if (e) {
		e->player = w->kicker;
		strcpy(e->part, sim_rng_uniform(w->rng) < c->p_kick_thigh ? "thigh" : "foot");
	}
	/* Up towards the partner, sometimes back over the table. */
	up = 2.5 + 1.5 * sim_rng_uniform(w->rng);
	along = -w->dir * 1.2 * sim_rng_uniform(w->rng);
	across = 0.6 * sim_rng_normal(w->rng);
	w->v[0] = along;
	w->v[1] = across;
	w->v[2] = up;
	segment(w, false);
}

static void on_slide_stop(struct world *w)
{
	int face = 1 + (int)(6 * sim_rng_uniform(w->rng));
	struct bd_event *e;

	w->v[0] = w->v[1] = 0;
	contact(w, SIM_CONTACT_REST, 0, BD_NOBODY);
	e = event(w, BD_EV_REST);
	if (e)
		e->face = face;
	w->out->rests_on_table = true;
	w->out->rest_face = face;
	w->out->rest_x = w->p[0];
	w->out->rest_y = w->p[1];
	die_dead(w, false);
}

static void step(struct world *w)
{
	struct next n = { .s = STEP_S, .hit = HIT_NONE, .which = 0 };
	double a[3];

	if (w->mode == FLYING)
		find_flying(w, STEP_S, &n);
	else
		find_sliding(w, STEP_S, &n);
	accel(w, a);
	advance(w->p, w->v, a, n.s);
	w->s += n.s;
	switch (n.hit) {
	case HIT_NONE:
		break;
	case HIT_TABLE:
		on_table_hit(w);
		break;
	case HIT_EDGE:
		/* Met at the top's level from above: the top itself, found a
		 * rounding error before the table search found it. */
		if (w->p[2] >= w->tb->height_m + w->c->die_half_m - 1e-6 && w->v[2] < 0 &&
		    on_table(w, w->p[0], w->p[1]))
			on_table_hit(w);
		else
			on_edge(w);
		break;
	case HIT_CUP_TOP:
		on_cup_top(w, n.which);
		break;
	case HIT_CUP_SIDE:
	case HIT_MINE_SIDE:
		on_wall(w, n.which);
		break;
	case HIT_MINE_TOP:
		on_mine_top(w);
		break;
	case HIT_FLOOR:
		contact(w, SIM_CONTACT_FLOOR, -w->v[2], BD_NOBODY);
		event(w, BD_EV_FLOOR);
		w->p[2] = w->c->die_half_m;
		die_dead(w, false);
		break;
	case HIT_CATCH_GATE:
		on_catch_gate(w);
		break;
	case HIT_KICK_GATE:
		on_kick_gate(w);
		break;
	case HIT_PEAK:
		w->over_pending = false;
		if (on_table(w, w->p[0], w->p[1]) && on_defenders_half(w, w->p[0]))
			catch_die(w, defender_near(w, w->p[1]), true);
		break;
	case HIT_OFF_EDGE:
		/* Tips over the edge and falls, keeping its speed. */
		w->mode = FLYING;
		segment(w, false);
		break;
	case HIT_STOP:
		on_slide_stop(w);
		break;
	}
}

/* Inserts the defenders' low call (BD-P5) where it was made: as the die
 * came down, before it touched anything. */
static void add_low_call(struct world *w, double apex_s, int by)
{
	struct bd_throw *t = &w->out->truth;
	double at = apex_s + 0.25;
	int64_t t_ns;
	size_t i = 0;

	if (w->first_contact_s > 0 && at > w->first_contact_s - 0.05)
		at = w->first_contact_s - 0.05;
	t_ns = ns_at(w, at);
	while (i < t->n_events && t->events[i].t_ns <= t_ns)
		i++;
	memmove(&t->events[i + 1], &t->events[i], (t->n_events - i) * sizeof(t->events[0]));
	t->n_events++;
	memset(&t->events[i], 0, sizeof(t->events[i]));
	t->events[i].kind = BD_EV_LOW_CALL;
	t->events[i].player = by;
	t->events[i].confidence = 1.0;
	t->events[i].t_ns = t_ns;
}

int sim_throw_play(const struct sim_throw_cfg *c, const struct bd_table *tb,
		   int thrower, int64_t t0_ns, struct sim_rng *rng, struct sim_throw *out)
{
	struct world w;
	double x0, y0, xt, yt, apex, vz0, t_up, t_down, zt;
	bool low;
	int low_by;

	if (thrower < 0 || thrower >= BD_PLAYERS)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	memset(&w, 0, sizeof(w));
	w.c = c;
	w.tb = tb;
	w.rng = rng;
	w.out = out;
	w.t0_ns = t0_ns;
	w.attackers = BD_TEAM_OF(thrower);
	w.defenders = BD_OTHER(w.attackers);
	w.dir = w.attackers == BD_TEAM_A ? 1 : -1;
	w.kicker = BD_NOBODY;
	w.first_contact_s = -1;
	out->truth.thrower = thrower;
	out->truth.dye_up = sim_rng_uniform(rng) >= c->p_dye_up_missed;
	out->t_release_ns = t0_ns;
	out->die = 0;

	/* Release: just behind the thrower's end, on their side of it. */
	x0 = w.attackers == BD_TEAM_A ? -0.25 : tb->length_m + 0.25;
	y0 = tb->width_m * (thrower % 2 == 0 ? 0.3 : 0.7) + 0.08 * sim_rng_normal(rng);
	apex = clampd(c->apex_mean_m + c->apex_sd_m * sim_rng_normal(rng), c->release_z_m + 0.3, 6.5);
	if (sim_rng_uniform(rng) < c->p_aim_cup) {
		int cup = 2 * w.defenders + (sim_rng_uniform(rng) < 0.5 ? 0 : 1);

		xt = tb->cup_x[cup] + c->aim_cup_sd_m * sim_rng_normal(rng);
		yt = tb->cup_y[cup] + c->aim_cup_sd_m * sim_rng_normal(rng);
	} else {
		double end = w.defenders == BD_TEAM_B ? tb->length_m : 0;

		xt = end - w.dir * c->aim_from_end_m + c->aim_x_sd_m * sim_rng_normal(rng);
		yt = tb->width_m / 2 + c->aim_y_sd_m * sim_rng_normal(rng);
	}
	low = sim_rng_uniform(rng) <
	      1 / (1 + exp((apex - c->min_toss_height_m) / c->low_call_spread_m));
	low_by = defender_near(&w, yt);

	zt = tb->height_m + c->die_half_m;
	vz0 = sqrt(2 * c->g * (apex - c->release_z_m));
	t_up = vz0 / c->g;
	t_down = sqrt(2 * (apex - zt) / c->g);
	w.p[0] = x0;
	w.p[1] = y0;
	w.p[2] = c->release_z_m;
	w.v[0] = (xt - x0) / (t_up + t_down);
	w.v[1] = (yt - y0) / (t_up + t_down);
	w.v[2] = vz0;
	w.mode = FLYING;
	out->apex_m = apex;
	out->truth.apex_m = apex;
	contact(&w, SIM_CONTACT_RELEASE, 0, thrower);
	segment(&w, false);

	while (w.mode != DEAD && w.s < MAX_TIME_S)
		step(&w);
	if (w.mode != DEAD)
		die_dead(&w, false);	/* the guard: never reached by the physics above */
	if (low)
		add_low_call(&w, t_up, low_by);
	return 0;
}

bool sim_throw_state_at(const struct sim_throw *t, int64_t t_ns, double p[3], double v[3],
			bool *hidden)
{
	const struct sim_segment *g = NULL;
	double s, a2, stop;

	if (t->n_segments == 0 || t_ns < t->seg[0].t0_ns)
		return false;
	for (size_t i = 0; i < t->n_segments && t->seg[i].t0_ns <= t_ns; i++)
		g = &t->seg[i];
	s = (double)(t_ns - g->t0_ns) * 1e-9;
	a2 = hypot(g->a[0], g->a[1]);
	if (g->a[2] == 0 && a2 > 0) {
		/* Sliding friction stops the die; it does not drive it back. */
		stop = hypot(g->v[0], g->v[1]) / a2;
		if (s > stop)
			s = stop;
	}
	for (int i = 0; i < 3; i++) {
		p[i] = g->p[i] + g->v[i] * s + 0.5 * g->a[i] * s * s;
		v[i] = g->v[i] + g->a[i] * s;
	}
	if (hidden)
		*hidden = g->hidden;
	return true;
}
