/* Fusion: sensor, camera and console observations in time order become one
 * throw for the judge, with confidences and a reason when it is doubtful. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/fusion.h"
#include "daemon/obs_time.h"
#include "vision/vision.h"

/* How much a first landing the camera alone reports is trusted: the discs
 * under the top feel every first landing (a fall from the toss's height),
 * so a kink the tracker took for one may be something else. */
#define ONE_WITNESS_FACTOR 0.7
/* The camera positively watched and saw nothing land. */
#define CONTRADICTED_FACTOR 0.5
/* A first landing the camera alone timed this little before a hit the
 * discs felt, while they heard no landing, came after it (deaf_landings):
 * 3 sd of the camera's landing time (99.7 % of its errors are smaller). */
#define DEAF_LEAD_NS (3 * VIS_LANDING_T_SD_NS)
/* A table shake and the cup or mine hit that made it: the pipeline marks
 * a located shake within 1 ms of the hit's edge (SENS_SHAKE_SYNC_NS), one
 * too thin to locate within a grouping window (under 8 ms on the
 * reference table). */
#define SHAKE_HIT_NS (10 * 1000000LL)
/* A landing placed farther than this off the table top is moved onto it
 * and sent to review: more than the fixes' error at an edge (about 1 cm),
 * so a witness is wrong about where the die came down. */
#define OFF_TABLE_DOUBT_M 0.03
/* A die leaving the table's edge reaches the floor about this much later (0.9-1 m). */
#define FALL_NS (400 * 1000000LL)
/* An official enters a call within this long of seeing it. */
#define CALL_DELAY_NS (1000 * 1000000LL)
/* A button held down calls again when released (its contacts bounce,
 * docs/sensors.md "Buttons"): a call of the same button sooner than this
 * after the last is that press. A press is held well under it, and the
 * button's next true call takes longer: the die caught or dead, back in
 * a thrower's hand and tossed above the minimum height (BD-S7, 3 m: over
 * a second in the air). */
#define BUTTON_HELD_NS (1500 * 1000000LL)

static const char *const source_names[] = {
	[DD_SRC_PIEZO] = "piezo", [DD_SRC_CAMERA] = "camera", [DD_SRC_CONSOLE] = "console",
	[DD_SRC_BUTTON] = "button", [DD_SRC_SIM] = "sim",
};

const char *dd_source_name(enum dd_source s)
{
	if ((unsigned)s >= sizeof(source_names) / sizeof(source_names[0]))
		return "?";
	return source_names[s];
}

void dd_fusion_cfg_defaults(struct dd_fusion_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->pair_window_ns = 80 * 1000000LL;
	cfg->settle_ns = 400 * 1000000LL;
	cfg->timeout_ns = 6000 * 1000000LL;
	cfg->rest_wait_ns = 6000 * 1000000LL;
	cfg->piezo_present = true;
	cfg->mine_disc_present = true;
	cfg->camera_present = false;
	bd_table_defaults(&cfg->table);
}

/* No throw under way. */
static void throw_init(struct dd_fusion_throw *t)
{
	memset(t, 0, sizeof(*t));
	t->t_last_ns = INT64_MIN;	/* a throw's times may all be below 0 */
}

void dd_fusion_init(struct dd_fusion *f, const struct dd_fusion_cfg *cfg)
{
	memset(f, 0, sizeof(*f));
	f->cfg = *cfg;
	throw_init(&f->cur);
	f->t_closed_ns = INT64_MIN;
	f->t_toss_after_ns = INT64_MAX;
}

bool dd_fusion_active(const struct dd_fusion *f)
{
	return f->cur.active;
}

static bool is_dead_event(const struct bd_event *ev)
{
	switch (ev->kind) {
	case BD_EV_FLOOR:
	case BD_EV_REST:
	case BD_EV_CATCH:
	case BD_EV_RETOSS:
		return true;
	case BD_EV_CUP:
		return ev->sink;
	default:
		return false;
	}
}

/* Adds why to the reasons in buf (size bytes), after "; ", unless it is
 * there already; cut where buf is full. */
static void append_why(char *buf, size_t size, const char *why)
{
	size_t n = strlen(buf);

	if (strstr(buf, why))
		return;
	snprintf(buf + n, size - n, "%s%s", n ? "; " : "", why);
}

/* Why, in words, for the official should the throw be reviewed (by
 * fusion, or by the judge over a doubtful event). */
static void add_note(struct dd_fused *out, const char *why)
{
	append_why(out->review_why, sizeof(out->review_why), why);
}

static void add_reason(struct dd_fused *out, const char *why)
{
	out->review = true;
	add_note(out, why);
}

static bool is_edge_source(enum dd_source s)
{
	return s == DD_SRC_PIEZO || s == DD_SRC_CAMERA || s == DD_SRC_SIM;
}

/* Two observations of one happening from different witnesses. */
static bool same_happening(const struct dd_fusion_cfg *cfg, const struct dd_obs *a,
			   const struct dd_obs *b)
{
	if (a->source == b->source || a->ev.kind != b->ev.kind)
		return false;
	if (dd_time_gap(a->t_ns, b->t_ns) > cfg->pair_window_ns)
		return false;
	if (a->ev.kind == BD_EV_CUP || a->ev.kind == BD_EV_CATCH || a->ev.kind == BD_EV_KICK)
		return a->ev.player == b->ev.player;
	return true;
}

static void set_event(struct bd_event *dst, const struct dd_obs *o, double conf, const char *src)
{
	*dst = o->ev;
	dst->confidence = conf < 0 ? 0 : conf > 1 ? 1 : conf;
	dst->has_confidence = true;
	dst->t_ns = o->t_ns;
	snprintf(dst->source, sizeof(dst->source), "%s", src);
}

/* P(A), P(B), P(line) (indexed by enum bd_half) of a point at x whose
 * error along x is normal with sd sigma_m: the normal CDF at the line's
 * two edges. */
static void gauss_halves(const struct bd_table *tb, double x, double sigma_m, double p[3])
{
	double line = tb->length_m / 2, w = tb->line_width_m / 2;
	double lo = 0.5 * erfc(-((line - w) - x) / (sigma_m * M_SQRT2));	/* P(true x < line - w) */
	double hi = 0.5 * erfc(-((line + w) - x) / (sigma_m * M_SQRT2));	/* P(true x < line + w) */

	p[BD_HALF_A] = lo;
	p[BD_HALF_B] = 1 - hi;
	p[BD_HALF_LINE] = hi - lo;
}

/* What one witness of a landing knows of its half, as a distribution over
 * A, B and the line (p, indexed by enum bd_half). Its confidence is its
 * P(half it called); where the rest lies depends on the witness:
 * - the camera reports a point with a stated sd (its sigma_m, else the
 *   tracker's VIS_LANDING_XY_SD_M); its confidence is the tracker's that
 *   the kink was a contact times the half's probability from that point
 *   (vis_obs_to_event). Paired with a contact the discs felt at that
 *   moment, the contact is not in doubt, and where the die was is the
 *   point: its distribution is the point's alone (weighing the tracker's
 *   contact doubt in as "then anywhere" let mirrored piezo fixes far from
 *   the line overrule it: two more silent errors at doubled noise);
 * - the piezo fix's P(half) is its posterior over every explanation of its
 *   arrivals (sensors/locate.c); the rest goes first where its own point
 *   and sd put it (the tails of the most probable explanation), the
 *   remainder evenly (another explanation may put it anywhere);
 * - a witness with no point: the rest evenly. */
static void witness_halves(const struct dd_fusion_cfg *cfg, const struct dd_obs *o, double p[3])
{
	enum bd_half h = o->ev.half;
	double c = o->confidence, rest = 1 - c, g[3], tails = 0;
	bool cam = o->source == DD_SRC_CAMERA && o->ev.has_xy;
	double sd = o->sigma_m > 0 ? o->sigma_m : cam ? VIS_LANDING_XY_SD_M : 0;

	if ((unsigned)h > BD_HALF_LINE)
		h = BD_HALF_LINE;
	if (o->ev.has_xy && sd > 0 && bd_table_half(&cfg->table, o->ev.x) == h) {
		gauss_halves(&cfg->table, o->ev.x, sd, g);
		if (cam) {
			for (int k = 0; k < 3; k++)
				p[k] = g[k];
			return;
		}
		for (int k = 0; k < 3; k++)
			if (k != (int)h)
				tails += g[k];
	}
	p[h] = c;
	for (int k = 0; k < 3; k++) {
		if (k == (int)h)
			continue;
		if (tails > 0)	/* the fix's own spread first, up to what its posterior leaves */
			p[k] = g[k] / tails * fmin(tails, rest) + fmax(0, rest - tails) / 2;
		else
			p[k] = rest / 2;
	}
}

/* Two independent witnesses of one landing: their distributions over the
 * halves multiplied (an equal prior over A, B and the line) and
 * normalised into post. Returns the most probable half. */
static enum bd_half half_posterior(const struct dd_fusion_cfg *cfg, const struct dd_obs *a,
				   const struct dd_obs *b, double post[3])
{
	double pa[3], pb[3], sum = 0;
	enum bd_half best = BD_HALF_A;

	witness_halves(cfg, a, pa);
	witness_halves(cfg, b, pb);
	for (int k = 0; k < 3; k++) {
		post[k] = pa[k] * pb[k];
		sum += post[k];
	}
	for (int k = 0; k < 3; k++) {
		post[k] = sum > 0 ? post[k] / sum : 1.0 / 3;
		if (post[k] > post[best])
			best = (enum bd_half)k;
	}
	return best;
}

/* The witness whose call is half h (the camera's first: its point is the
 * finer), or NULL when neither called it. */
static const struct dd_obs *witness_on(const struct dd_obs *a, const struct dd_obs *b,
				       enum bd_half h)
{
	const struct dd_obs *cam = b->source == DD_SRC_CAMERA ? b : a, *other = cam == a ? b : a;

	if (cam->ev.half == h)
		return cam;
	return other->ev.half == h ? other : NULL;
}

/* A throw nobody saw end whose die the camera saw leave the table: the
 * floor is inferred when nothing after the exit brought it back (a table,
 * cup or mine contact), the official had time to enter a catch of the
 * falling die (BD-P4: a new toss may end the throw sooner, now_ns), and
 * there is room for the event. */
static bool exit_is_floor(const struct dd_fusion *f, const struct dd_obs *exit,
			  const struct bd_throw *t, int64_t now_ns)
{
	if (t->n_events >= BD_MAX_EVENTS || f->cur.overflow ||
	    dd_time_span(exit->t_ns, now_ns) < FALL_NS + CALL_DELAY_NS)
		return false;
	for (size_t i = 0; i < f->cur.n_obs; i++) {
		const struct dd_obs *o = &f->cur.obs[i];

		if (o->kind == DD_OBS_EVENT && o->t_ns > exit->t_ns &&
		    (o->ev.kind == BD_EV_TABLE || o->ev.kind == BD_EV_CUP || o->ev.kind == BD_EV_MINE))
			return false;
	}
	return true;
}

/* The first observation other than skip within the pair window of t of
 * the given source and kind, or -1. */
static int near_obs(const struct dd_fusion *f, size_t skip, int64_t t, enum dd_source src,
		    enum bd_ev_kind kind)
{
	for (size_t k = 0; k < f->cur.n_obs; k++) {
		const struct dd_obs *o = &f->cur.obs[k];

		if (k != skip && o->kind == DD_OBS_EVENT && o->source == src && o->ev.kind == kind &&
		    dd_time_gap(o->t_ns, t) <= f->cfg.pair_window_ns)
			return (int)k;
	}
	return -1;
}

/* Whether a table or cup contact was observed before t. */
static bool touched_before(const struct dd_fusion *f, int64_t t)
{
	for (size_t k = 0; k < f->cur.n_obs; k++) {
		const struct dd_obs *o = &f->cur.obs[k];

		if (o->kind == DD_OBS_EVENT && (o->ev.kind == BD_EV_TABLE || o->ev.kind == BD_EV_CUP) &&
		    o->t_ns < t)
			return true;
	}
	return false;
}

/* A mine the camera alone reports (BD-O1) at the moment the table discs
 * felt the throw's first landing, which the camera did not report, the
 * mine's own disc silent:
 * two witnesses of one contact in conflict, the camera's "the can" (its
 * confidence weighs where the tracker put the die, vis_obs_to_event)
 * against the discs' "the table" (a hit on the can trips the mine's disc,
 * and the table's shaking by it is not reported as a landing). Weighed as
 * two likelihoods, P(mine) = cm (1 - ct) / (cm (1 - ct) + (1 - cm) ct):
 * the likelier stands with its posterior as its confidence. The table
 * landing is never dropped (its confidence times P(table)); a mine that
 * overrules it, or a conflict no disc under the can can settle, goes to an
 * official. Fills keep[] (false: a camera mine the table outweighed) and
 * factor[] (each observation's confidence multiplier). */
static void weigh_mines(const struct dd_fusion *f, bool keep[], double factor[],
			struct dd_fused *out)
{
	const struct dd_fusion_cfg *cfg = &f->cfg;

	for (size_t i = 0; i < f->cur.n_obs; i++) {
		keep[i] = true;
		factor[i] = 1;
	}
	for (size_t i = 0; i < f->cur.n_obs; i++) {
		const struct dd_obs *m = &f->cur.obs[i];
		int j;

		if (m->kind != DD_OBS_EVENT || m->source != DD_SRC_CAMERA || m->ev.kind != BD_EV_MINE ||
		    near_obs(f, i, m->t_ns, DD_SRC_PIEZO, BD_EV_MINE) >= 0 ||
		    (j = near_obs(f, i, m->t_ns, DD_SRC_PIEZO, BD_EV_TABLE)) < 0 ||
		    near_obs(f, i, f->cur.obs[j].t_ns, DD_SRC_CAMERA, BD_EV_TABLE) >= 0)
			continue;
		/* Only at the first contact: a die already on the table that
		 * brushes the can trips no disc (under 0.25 m/s) and its
		 * bounces and slides shake the table's, so neither witness
		 * contradicts the other there. */
		if (touched_before(f, dd_time_shifted(f->cur.obs[j].t_ns, -cfg->pair_window_ns)))
			continue;
		if (!cfg->piezo_present || !cfg->mine_disc_present) {
			add_reason(out, "camera saw the mine, discs a landing, no mine disc");
			continue;
		}
		double cm = m->confidence, ct = f->cur.obs[j].confidence;
		double lm = cm * (1 - ct), lt = (1 - cm) * ct;
		double p_table = lm + lt > 0 ? lt / (lm + lt) : 0.5;

		factor[j] *= p_table;
		if (p_table >= 0.5) {
			keep[i] = false;
			add_note(out, "camera saw the mine, discs a landing");
		} else {
			factor[i] *= (1 - p_table) / (cm > 0 ? cm : 1);
			add_reason(out, "camera saw the mine, discs a landing");
		}
	}
}

/* Whether the table discs reported an impact on the top in [lo, hi]. */
static bool discs_heard(const struct dd_fusion *f, int64_t lo, int64_t hi)
{
	for (size_t k = 0; k < f->cur.n_obs; k++) {
		const struct dd_obs *o = &f->cur.obs[k];

		if (o->kind == DD_OBS_EVENT && o->source == DD_SRC_PIEZO && o->ev.kind == BD_EV_TABLE &&
		    o->t_ns >= lo && o->t_ns <= hi)
			return true;
	}
	return false;
}

/* The cup or mine hit the discs felt that shook the table into deaf (the
 * nearest in time), or NULL. */
static const struct dd_obs *shaking_hit(const struct dd_fusion *f, const struct dd_obs *deaf)
{
	const struct dd_obs *hit = NULL;

	for (size_t k = 0; k < f->cur.n_obs; k++) {
		const struct dd_obs *o = &f->cur.obs[k];

		if (o->kind == DD_OBS_EVENT && o->source == DD_SRC_PIEZO &&
		    (o->ev.kind == BD_EV_CUP || o->ev.kind == BD_EV_MINE) &&
		    dd_time_gap(o->t_ns, deaf->t_ns) <= SHAKE_HIT_NS &&
		    (!hit || dd_time_gap(o->t_ns, deaf->t_ns) < dd_time_gap(hit->t_ns, deaf->t_ns)))
			hit = o;
	}
	return hit;
}

/* A landing the camera alone reports (no disc impact within the pair
 * window) while a cup or mine hit had shaken the table: the shake's
 * arrivals hold each table line off (DD_OBS_TABLE_DEAF, from the hit to
 * until_ns), so the discs could not hear it, and their silence is not
 * what is said against it (excused[i]: the reason names the shake; the
 * camera is still one witness). One timed just before such a hit,
 * within DEAF_LEAD_NS, while the discs heard no landing there (they were
 * listening: nothing had held them off), most likely came after the hit,
 * the camera's time off by its error (11 ms sd): it is put just after
 * the hit (at[i]), as kick_in_place() puts a kick call before a touch.
 * Only a first landing is moved (nothing landed before it); whether the
 * order decides the ruling is dd_fused_judge()'s to say. at[] (each
 * observation's time in the throw) and excused[] are filled for every
 * observation; returns the moved landing's index, or -1. */
static int deaf_landings(const struct dd_fusion *f, int64_t at[], bool excused[])
{
	int moved = -1;

	for (size_t i = 0; i < f->cur.n_obs; i++) {
		at[i] = f->cur.obs[i].t_ns;
		excused[i] = false;
	}
	for (size_t i = 0; i < f->cur.n_obs && f->cfg.piezo_present; i++) {
		const struct dd_obs *o = &f->cur.obs[i];
		bool first;

		if (o->kind != DD_OBS_EVENT || o->source != DD_SRC_CAMERA || o->ev.kind != BD_EV_TABLE ||
		    near_obs(f, i, o->t_ns, DD_SRC_PIEZO, BD_EV_TABLE) >= 0)
			continue;
		first = !touched_before(f, o->t_ns);
		for (size_t k = 0; k < f->cur.n_obs && !excused[i]; k++) {
			const struct dd_obs *d = &f->cur.obs[k], *hit;
			int64_t from, after;

			if (d->kind != DD_OBS_TABLE_DEAF)
				continue;
			hit = shaking_hit(f, d);
			from = hit && hit->t_ns < d->t_ns ? hit->t_ns : d->t_ns;
			after = hit && hit->t_ns > d->t_ns ? hit->t_ns : d->t_ns;
			if (o->t_ns >= from && o->t_ns <= d->until_ns) {
				excused[i] = true;
			} else if (hit && first && moved < 0 && o->t_ns < from &&
				   o->t_ns >= dd_time_shifted(from, -DEAF_LEAD_NS) &&
				   !discs_heard(f, dd_time_shifted(o->t_ns, -f->cfg.pair_window_ns),
						after)) {
				excused[i] = true;
				at[i] = dd_time_shifted(after, 1);
				moved = (int)i;
			}
		}
	}
	return moved;
}

static void assemble(const struct dd_fusion *f, bool timed_out, int64_t now_ns,
		     struct dd_fused *out)
{
	const struct dd_fusion_cfg *cfg = &f->cfg;
	bool used[DD_FUSION_MAX_OBS] = { false };
	bool keep[DD_FUSION_MAX_OBS];	/* false: a camera mine the table discs outweighed */
	double factor[DD_FUSION_MAX_OBS];	/* confidence multipliers from weigh_mines() */
	int64_t at[DD_FUSION_MAX_OBS];	/* each observation's time in the throw (deaf_landings) */
	bool excused[DD_FUSION_MAX_OBS];	/* a camera landing the discs could not hear: its reason */
	size_t ord[DD_FUSION_MAX_OBS];	/* the observations by at[] */
	int moved;
	bool no_landing = false;
	bool landed = false;	/* a table or cup contact is in the throw */
	const struct dd_obs *exit = NULL;	/* the camera's last sighting of the die leaving the table */
	struct bd_throw *t = &out->t;
	char why[120];

	memset(out, 0, sizeof(*out));
	t->thrower = BD_NOBODY;
	t->dye_up = true;
	t->apex_m = -1;
	t->apex_sd_m = -1;
	out->n_obs = f->cur.n_obs;
	memcpy(out->obs, f->cur.obs, f->cur.n_obs * sizeof(f->cur.obs[0]));
	out->t_start_ns = f->cur.n_obs ? f->cur.obs[0].t_ns : now_ns;
	out->t_dead_ns = timed_out ? now_ns : f->cur.t_dead_ns;
	for (size_t i = 0; i < f->cur.n_obs; i++) {
		const struct dd_obs *o = &f->cur.obs[i];

		if (is_edge_source(o->source) && o->t_ns > out->t_last_edge_ns)
			out->t_last_edge_ns = o->t_ns;
		if (o->kind == DD_OBS_NO_LANDING)
			no_landing = true;
		else if (o->kind == DD_OBS_DYE_UP_MISSED)
			t->dye_up = false;
		else if (o->kind == DD_OBS_APEX) {
			/* Seen above the table top; the toss height (BD-S7,
			 * as the simulator's truth) is above the floor. */
			t->apex_m = o->apex_m + cfg->table.height_m;
			t->apex_sd_m = o->apex_sd_m;	/* BD-P5's doubt under low_call=auto */
		}
		else if (o->kind == DD_OBS_OFF_TABLE)
			exit = o;
		if (o->kind != DD_OBS_EVENT)
			used[i] = true;
	}
	weigh_mines(f, keep, factor, out);
	for (size_t i = 0; i < f->cur.n_obs; i++)
		used[i] |= !keep[i];
	moved = deaf_landings(f, at, excused);
	/* By at[], stably: obs[] is in time order, so only a moved landing
	 * changes place, after whatever is at its time too (at the clock's
	 * end, at[] saturated, there is no time after the hit). */
	for (size_t n = 0; n < f->cur.n_obs; n++) {
		size_t k = n;

		for (; k > 0 && (at[ord[k - 1]] > at[n] ||
				 (at[ord[k - 1]] == at[n] && (int)ord[k - 1] == moved)); k--)
			ord[k] = ord[k - 1];
		ord[k] = n;
	}

	for (size_t n = 0; n < f->cur.n_obs; n++) {
		size_t i = ord[n];
		const struct dd_obs *o = &f->cur.obs[i];
		struct bd_event ev;
		double conf = o->confidence * factor[i];
		const char *src = dd_source_name(o->source);
		char both[16];
		int pair = -1;

		if (used[i])
			continue;
		used[i] = true;
		for (size_t m = n + 1; m < f->cur.n_obs && pair < 0; m++) {
			size_t j = ord[m];

			if (!used[j] && f->cur.obs[j].kind == DD_OBS_EVENT && same_happening(cfg, o, &f->cur.obs[j]))
				pair = (int)j;
		}
		if (pair >= 0) {
			const struct dd_obs *p = &f->cur.obs[pair];

			used[pair] = true;
			snprintf(both, sizeof(both), "%s+%s", dd_source_name(o->source),
				 dd_source_name(p->source));
			src = both;
			if (o->ev.kind == BD_EV_TABLE) {
				/* Two independent witnesses of one landing, agreeing
				 * or not: one formula (half_posterior). Whether the
				 * half decides the ruling is the judge's to say
				 * (review_below: a die dead by a sure low call, BD-P5,
				 * does not ask), so fusion only says why. */
				double post[3];
				enum bd_half h = half_posterior(cfg, o, p, post);
				const struct dd_obs *w = witness_on(o, p, h);

				set_event(&ev, w ? w : o, post[h], src);
				ev.half = h;
				if (!w)	/* neither point is on the fused half */
					ev.has_xy = false;
				else if (!ev.has_xy && (p->ev.has_xy || o->ev.has_xy) &&
					 o->ev.half == p->ev.half) {
					const struct dd_obs *xy = p->ev.has_xy ? p : o;

					ev.has_xy = true;
					ev.x = xy->ev.x;
					ev.y = xy->ev.y;
				}
				snprintf(why, sizeof(why), "%s and %s disagree on the half",
					 dd_source_name(o->source), dd_source_name(p->source));
				if (o->ev.half != p->ev.half && !landed)	/* a later bounce changes nothing (BD-P3) */
					add_note(out, why);
			} else {
				/* Two independent witnesses that it happened: it
				 * did unless both are wrong. */
				const struct dd_obs *w = (p->source == DD_SRC_CAMERA && p->ev.has_xy) ? p : o;

				conf = 1 - (1 - o->confidence) * (1 - p->confidence);
				set_event(&ev, w, conf, src);
			}
		} else if (o->ev.kind == BD_EV_TABLE && !landed) {
			/* The first landing is what the ruling rests on (BD-P1,
			 * BD-P6), and the one the camera reports: the other
			 * working witness should have seen it too. Later
			 * bounces change nothing (BD-P3). */
			/* The camera misses landings (a die coming down out of
			 * view, a kink too slight at 30 fps: docs/vision.md),
			 * and a miss says nothing of the half: only a camera
			 * that positively watched and saw none doubts the discs. */
			if (o->source == DD_SRC_PIEZO && cfg->camera_present && no_landing) {
				conf *= CONTRADICTED_FACTOR;
				add_reason(out, "the camera saw no landing");
			} else if (o->source == DD_SRC_CAMERA && cfg->piezo_present && (int)i != moved) {
				/* Where a hit's shake held the discs off (excused)
				 * their silence says nothing, yet the camera is still
				 * one witness, and a kink beside a cup just hit may
				 * be the hit itself: doubt stays explicit, the reason
				 * naming the shake (a moved landing's is below). */
				conf *= ONE_WITNESS_FACTOR;
				add_reason(out, excused[i] ? "the camera alone saw the first landing, while "
					   "a hit's shake held the table sensors off" :
					   "the table sensors felt no landing");
			}
			set_event(&ev, o, conf, src);
		} else {
			set_event(&ev, o, conf, src);
		}
		if ((int)i == moved) {
			/* One witness, its order a guess: as any landing the
			 * camera alone saw, an official looks. */
			ev.confidence *= ONE_WITNESS_FACTOR;
			add_reason(out, "the camera alone saw the first landing, timed just before a "
				   "hit the table sensors felt, and it was put after the hit");
			ev.t_ns = at[i];
			out->landing_moved = true;
			out->landing_at = t->n_events;
			out->landing_seen_ns = o->t_ns;
		}
		/* The discs' half is then a shrug (about 0.5, sens_locate_alt):
		 * should the throw be reviewed, the official hears why. */
		if (ev.kind == BD_EV_TABLE && !landed &&
		    (o->no_point || (pair >= 0 && f->cur.obs[pair].no_point)))
			add_note(out, "the table sensors heard what no one landing explains (two impacts?)");
		if (ev.kind == BD_EV_TABLE || ev.kind == BD_EV_CUP)
			landed = true;
		if (t->n_events == BD_MAX_EVENTS) {
			add_reason(out, "more observations than a throw can hold");
			/* A re-toss among those left out still voids it (BD-P9). */
			for (size_t m = n; m < f->cur.n_obs; m++) {
				const struct dd_obs *r = &f->cur.obs[ord[m]];

				if (r->kind == DD_OBS_EVENT && r->ev.kind == BD_EV_RETOSS) {
					set_event(&t->events[BD_MAX_EVENTS - 1], r, r->confidence,
						  dd_source_name(r->source));
					break;
				}
			}
			break;
		}
		/* Whether the catcher decides the ruling is the judge's to say
		 * (dd_fused_judge): a witness that names one settles it. */
		if (ev.kind == BD_EV_CATCH && o->player_guessed && !out->catch_guessed &&
		    (pair < 0 || f->cur.obs[pair].player_guessed)) {
			out->catch_guessed = true;
			out->catch_at = t->n_events;
		}
		/* A landing the discs or the camera place a few millimetres off
		 * an edge landed on the table: the match log holds table points
		 * on the top only, and a point off it would make the match
		 * unreadable (export, end, correct). Placed farther off, the
		 * point is still moved onto the top, but the official is asked. */
		if (ev.kind == BD_EV_TABLE && ev.has_xy) {
			double x0 = ev.x, y0 = ev.y, off;

			bd_table_clamp(&cfg->table, &ev.x, &ev.y);
			off = hypot(ev.x - x0, ev.y - y0);
			if (off > OFF_TABLE_DOUBT_M) {
				snprintf(why, sizeof(why), "%s placed the landing %.0f cm off the table",
					 src, 100 * off);
				add_reason(out, why);
			}
		}
		t->events[t->n_events++] = ev;
	}

	/* Thin evidence on an event that decides the ruling is bd_judge's
	 * to flag (house.review_below): fusion adds only what it alone knows,
	 * witnesses in conflict or missing, a throw nobody saw end. */
	/* Whether the kick's order decides the ruling depends on the score
	 * (BD-K2a): dd_fused_judge() asks. */
	for (size_t i = 0; f->cur.kick_retimed && i < t->n_events && !out->kick_guessed; i++)
		if (t->events[i].kind == BD_EV_KICK && t->events[i].t_ns == f->cur.kick_retimed_ns) {
			out->kick_guessed = true;
			out->kick_at = i;
		}
	if (timed_out && exit && exit_is_floor(f, exit, t, now_ns)) {
		/* BD-P1, BD-P4: a die that left over an edge reaches the floor
		 * unless a defender catches it, and catches are the official's
		 * to enter (the console): none was, nothing felt it come back.
		 * The floor is as sure as the camera's exit. */
		struct bd_event *fl = &t->events[t->n_events++];

		memset(fl, 0, sizeof(*fl));
		fl->kind = BD_EV_FLOOR;
		fl->player = BD_NOBODY;
		fl->t_ns = dd_time_shifted(exit->t_ns, FALL_NS);
		if (t->n_events > 1 && t->events[t->n_events - 2].t_ns >= fl->t_ns)
			fl->t_ns = dd_time_shifted(t->events[t->n_events - 2].t_ns, 1);
		fl->has_confidence = true;
		fl->confidence = exit->confidence;
		snprintf(fl->source, sizeof(fl->source), "camera");
	} else if (timed_out) {
		add_reason(out, "no end of the throw was seen");
	}
	if (f->cur.overflow)
		add_reason(out, "observations were dropped");
}

/* The throw under way is over at t_ns: what was made before that and
 * comes later is too late for it (dd_fusion_add), but for a toss made
 * after toss_after (a throw that timed out: INT64_MAX else). Only the
 * throw's own state goes: the buttons' last calls stay (a press held down
 * outlasts a throw), and so does a shake kept for the next throw. */
static void close_at(struct dd_fusion *f, int64_t t_ns, int64_t toss_after)
{
	throw_init(&f->cur);
	f->t_closed_ns = t_ns;
	f->t_toss_after_ns = toss_after;
}

void dd_fusion_drop(struct dd_fusion *f)
{
	/* kept for the next throw, it would join it: that game is over too */
	f->idle_shake_kept = false;
	if (f->cur.active)
		close_at(f, f->t_closed_ns, f->t_toss_after_ns);
}

/* Which button made o's call (an index of button_ns), or -1 for what no
 * button made. A low call and a catch name a player of the button's end
 * (dd_sensors_obs_to_fusion); a re-toss voids the throw whichever end
 * calls it, so one from the other end is the same call. */
static int button_of(const struct dd_obs *o)
{
	enum { LOW = 0, CATCH1 = 2, CATCH2 = 4, RETOSS = 6 };	/* + the end, BD_TEAM_A or _B */
	int end = o->ev.player >= 0 && o->ev.player < BD_PLAYERS ? BD_TEAM_OF(o->ev.player) : -1;

	if (o->kind != DD_OBS_EVENT || o->source != DD_SRC_BUTTON)
		return -1;
	if (o->ev.kind == BD_EV_RETOSS)
		return RETOSS;
	if (end < 0)
		return -1;
	if (o->ev.kind == BD_EV_LOW_CALL)
		return LOW + end;
	if (o->ev.kind == BD_EV_CATCH && (o->ev.hands == 1 || o->ev.hands == 2))
		return (o->ev.hands == 1 ? CATCH1 : CATCH2) + end;
	return -1;
}

/* Whether o is a button's second call (a press held down calls again on
 * release): the first call of each button per throw counts, and a button
 * whose call was taken less than BUTTON_HELD_NS ago is still in that
 * press, the throw it called in perhaps over. */
static bool button_repeat(const struct dd_fusion *f, const struct dd_obs *o)
{
	int k = button_of(o);
	int64_t since;

	if (k < 0)
		return false;
	for (size_t i = 0; i < f->cur.n_obs; i++)
		if (button_of(&f->cur.obs[i]) == k)
			return true;
	if (!(f->buttons_taken & (1u << k)))
		return false;
	since = dd_time_span(f->button_ns[k], o->t_ns);
	return since >= 0 && since < BUTTON_HELD_NS;
}

/* Notes the time of o's button (when a button made it) once fusion keeps
 * it: a call refused (a throw already full) starts no press, so the next
 * call of that button is taken. */
static void button_taken(struct dd_fusion *f, const struct dd_obs *o)
{
	int k = button_of(o);

	if (k < 0)
		return;
	f->button_ns[k] = o->t_ns;
	f->buttons_taken |= 1u << k;
}

/* Where in obs[] an observation at t goes: after every one made before
 * it, and after those made at t too unless ahead. */
static size_t slot_of(const struct dd_fusion *f, int64_t t, bool ahead)
{
	size_t at = f->cur.n_obs;

	while (at > 0 && (f->cur.obs[at - 1].t_ns > t || (ahead && f->cur.obs[at - 1].t_ns == t)))
		at--;
	return at;
}

/* A FIFA kick (BD-K1) is only ever made on a die that has not touched
 * the table, so whatever the table, a cup or the mine felt within the
 * official's delay before the kick call came after the kick: the kick is
 * put just before the first of them. A contact earlier than that delay
 * was before the kick, and the call keeps its time. A defender may still
 * kick a die after its touch (no FIFA then, and ignored by the judge): the
 * order is a guess, carried with the throw (dd_fused.kick_guessed) for
 * dd_fused_judge() to try both ways. Returns o, or *tmp holding the re-timed
 * kick, *at then its place in obs[]: before the touch, even one at
 * INT64_MIN, where no time is earlier. */
static const struct dd_obs *kick_in_place(struct dd_fusion *f, const struct dd_obs *o,
					  struct dd_obs *tmp, size_t *at)
{
	for (size_t i = 0; i < f->cur.n_obs; i++) {
		const struct dd_obs *c = &f->cur.obs[i];

		if (c->kind != DD_OBS_EVENT || !is_edge_source(c->source) ||
		    (c->ev.kind != BD_EV_TABLE && c->ev.kind != BD_EV_CUP && c->ev.kind != BD_EV_MINE))
			continue;
		if (c->t_ns > o->t_ns || dd_time_span(c->t_ns, o->t_ns) > CALL_DELAY_NS)
			return o;	/* after the call, or touched before the kick */
		f->cur.kick_retimed = true;
		f->cur.kick_retimed_ns = dd_time_shifted(c->t_ns, -1);
		*tmp = *o;
		tmp->t_ns = f->cur.kick_retimed_ns;
		tmp->ev.t_ns = tmp->t_ns;
		*at = slot_of(f, c->t_ns, true);
		return tmp;
	}
	return o;
}

/* Puts o at obs[at] (slot_of), a place the caller has made sure of. */
static void keep_obs(struct dd_fusion *f, size_t at, const struct dd_obs *o)
{
	memmove(&f->cur.obs[at + 1], &f->cur.obs[at], (f->cur.n_obs - at) * sizeof(f->cur.obs[0]));
	f->cur.obs[at] = *o;
	f->cur.n_obs++;
	if (o->t_ns > f->cur.t_last_ns)
		f->cur.t_last_ns = o->t_ns;
}

/* A throw that starts at t, before the shake kept from before it
 * (dd_fusion_add) was over, takes it as had it come during the throw: its
 * hit (within SHAKE_HIT_NS of it, before its window's end) may be the
 * throw's first observation, or a later one of a throw whose first was
 * reported after the shake (the camera's come late). No earliest t: a
 * shake made after a throw began is that throw's, as one that comes
 * while it is under way; a shake over before it began is not. Nor is one
 * made after the throw, as its first observation has it, was over
 * (settled or timed out): had it come in time order it would have found
 * no throw under way, and it stays kept for the next (close_at). */
static void take_idle_shake(struct dd_fusion *f, int64_t t)
{
	const struct dd_obs *d = &f->idle_shake;

	if (!f->idle_shake_kept || d->t_ns > dd_fusion_deadline(f))
		return;
	if (f->cur.n_obs < DD_FUSION_MAX_OBS && t <= d->until_ns)
		keep_obs(f, slot_of(f, d->t_ns, false), d);
	f->idle_shake_kept = false;
}

/* A die came to rest and its face is being read (DD_OBS_REST_PENDING):
 * the throw under way waits for that rest (dd_fusion_deadline). The read
 * runs off the event loop, so the throw could settle or time out before
 * the rest that ends it (BD-O2 reads its face) arrives. With no throw under
 * way there is nothing to hold: the rest will start its own. */
static void await_rest(struct dd_fusion *f, const struct dd_obs *o)
{
	if (!f->cur.active)
		return;
	if (!f->cur.rests_pending || o->t_ns > f->cur.rest_pending_ns)
		f->cur.rest_pending_ns = o->t_ns;
	f->cur.rests_pending++;
}

int dd_fusion_add(struct dd_fusion *f, const struct dd_obs *o, struct dd_fused *out)
{
	struct dd_obs kick;
	size_t at;
	int completed = 0;
	bool starts;

	if (!(o->confidence >= 0 && o->confidence <= 1) || (unsigned)o->kind > DD_OBS_REST_PENDING ||
	    (unsigned)o->source > DD_SRC_SIM)
		return -EINVAL;
	if (o->kind == DD_OBS_TABLE_DEAF && o->until_ns < o->t_ns)
		return -EINVAL;
	if (o->kind == DD_OBS_EVENT && (unsigned)o->ev.kind > BD_EV_RETOSS)
		return -EINVAL;
	if (o->t_ns < f->t_closed_ns) {
		/* A toss made after a timed-out throw's last observation would
		 * have closed that throw had it come in time (below): it starts
		 * the next, and what was made after it is that throw's. */
		if (o->kind != DD_OBS_TOSS || f->cur.active || o->t_ns <= f->t_toss_after_ns)
			return DD_FUSION_LATE;
		f->t_closed_ns = o->t_ns;
	}
	if (button_repeat(f, o))
		return DD_FUSION_REPEAT;
	if (o->kind == DD_OBS_REST_PENDING) {
		await_rest(f, o);
		return 0;
	}
	/* A shake while no throw is under way starts none: it only tells a
	 * throw's landings apart from silence. The hit that made it may yet
	 * start one: the sensors' pipeline hands a hit whose edge came while
	 * the shake's impact was open over after the shake when the shake's
	 * start is earlier (sensors/pipeline.c, close_group). The latest is
	 * kept for that throw. */
	if (o->kind == DD_OBS_TABLE_DEAF && !f->cur.active) {
		f->idle_shake = *o;
		f->idle_shake_kept = true;
		return 0;
	}
	if (o->kind == DD_OBS_TOSS && f->cur.active && f->cur.n_obs > 0) {
		/* A new toss while the last throw was not seen to end: that one
		 * is over, judged on what it has, and this toss starts the next. */
		assemble(f, true, o->t_ns, out);
		close_at(f, o->t_ns, INT64_MAX);
		completed = 1;
	}
	starts = !f->cur.active;
	f->cur.active = true;
	/* Its rest has come, even should the throw have no room for it. */
	if (o->kind == DD_OBS_EVENT && o->ev.kind == BD_EV_REST && f->cur.rests_pending > 0)
		f->cur.rests_pending--;
	if (f->cur.n_obs == DD_FUSION_MAX_OBS) {
		f->cur.overflow = true;
		/* A re-toss voids whatever the throw holds (BD-P9): it takes
		 * the latest observation's place rather than be lost. */
		if (o->kind != DD_OBS_EVENT || o->ev.kind != BD_EV_RETOSS)
			return completed;
		f->cur.n_obs--;
	}
	/* Keep time order: the camera reports a frame's events late. */
	at = slot_of(f, o->t_ns, false);
	if (o->kind == DD_OBS_EVENT && o->ev.kind == BD_EV_KICK && !is_edge_source(o->source))
		o = kick_in_place(f, o, &kick, &at);
	keep_obs(f, at, o);
	button_taken(f, o);
	/* Dead first: whether a kept shake came after this throw (below) hangs
	 * on when it settles. */
	if (o->kind == DD_OBS_EVENT && is_dead_event(&o->ev) && !f->cur.dead &&
	    o->ev.kind != BD_EV_RETOSS) {
		f->cur.dead = true;
		f->cur.t_dead_ns = o->t_ns;
	}
	if (starts)
		take_idle_shake(f, o->t_ns);
	if (o->kind == DD_OBS_EVENT && o->ev.kind == BD_EV_RETOSS) {
		/* Void at once: nothing later can change a re-toss. */
		assemble(f, false, o->t_ns, out);
		out->t_dead_ns = o->t_ns;
		close_at(f, o->t_ns, INT64_MAX);
		return 1;
	}
	return completed;
}

int64_t dd_fusion_deadline(const struct dd_fusion *f)
{
	int64_t at, wait;

	if (!f->cur.active)
		return INT64_MAX;
	if (f->cur.dead)
		at = dd_time_shifted(f->cur.t_dead_ns, f->cfg.settle_ns);
	else
		at = dd_time_shifted(f->cur.t_last_ns, f->cfg.timeout_ns);
	if (f->cur.rests_pending) {
		wait = dd_time_shifted(f->cur.rest_pending_ns, f->cfg.rest_wait_ns);
		if (wait > at)
			at = wait;
	}
	return at;
}

int dd_fusion_tick(struct dd_fusion *f, int64_t now_ns, struct dd_fused *out)
{
	int64_t deadline = dd_fusion_deadline(f);

	/* Measured from the throw's own times, not against the deadline: one
	 * past the clock's end saturates to INT64_MAX, which a time can be. */
	if (!f->cur.active || (f->cur.dead ? dd_time_span(f->cur.t_dead_ns, now_ns) < f->cfg.settle_ns :
			   dd_time_span(f->cur.t_last_ns, now_ns) < f->cfg.timeout_ns))
		return 0;
	if (f->cur.rests_pending &&
	    dd_time_span(f->cur.rest_pending_ns, now_ns) < f->cfg.rest_wait_ns)
		return 0;	/* a face is being read: its rest is on its way */
	assemble(f, !f->cur.dead, now_ns, out);
	close_at(f, deadline, f->cur.dead ? INT64_MAX : f->cur.t_last_ns);
	return 1;
}

static bool duties_equal(const struct bd_ruling *a, const struct bd_ruling *b)
{
	if (a->n_duties != b->n_duties)
		return false;
	for (size_t i = 0; i < a->n_duties; i++) {
		bool found = false;

		for (size_t j = 0; j < b->n_duties && !found; j++)
			found = a->duties[i].kind == b->duties[j].kind &&
				a->duties[i].player == b->duties[j].player &&
				(a->duties[i].player != BD_NOBODY || a->duties[i].team == b->duties[j].team);
		if (!found)
			return false;
	}
	return true;
}

bool dd_ruling_same_outcome(const struct bd_ruling *a, const struct bd_ruling *b)
{
	return a->points[0] == b->points[0] && a->points[1] == b->points[1] &&
	       a->dead == b->dead && a->retoss == b->retoss && duties_equal(a, b);
}

/* fx's throw with its guessed kick moved just after the touch it was put
 * before: the judge ignores a kick after a touch (BD-K1), so any place
 * after it reads the same. False when there is no such touch. */
static bool kick_after_touch(const struct dd_fused *fx, struct bd_throw *alt)
{
	const struct bd_throw *t = &fx->t;
	size_t k = fx->kick_at, c = k + 1;

	while (c < t->n_events && t->events[c].kind != BD_EV_TABLE &&
	       t->events[c].kind != BD_EV_CUP && t->events[c].kind != BD_EV_MINE)
		c++;
	if (k >= t->n_events || t->events[k].kind != BD_EV_KICK || c >= t->n_events)
		return false;
	*alt = *t;
	memmove(&alt->events[k], &alt->events[k + 1], (c - k) * sizeof(alt->events[0]));
	alt->events[c] = t->events[k];
	alt->events[c].t_ns = dd_time_shifted(t->events[c].t_ns, 1);
	return true;
}

/* fx's throw with a low call entered within the official's delay after the
 * first touch (table, cup or mine) moved just before that touch: BD-P5
 * counts a call made before the die hits the table, and a call is entered
 * up to CALL_DELAY_NS after it was made, so either order may be true.
 * False when there is no such call. */
static bool low_before_touch(const struct dd_fused *fx, struct bd_throw *alt)
{
	const struct bd_throw *t = &fx->t;
	size_t c = 0, k;

	while (c < t->n_events && t->events[c].kind != BD_EV_TABLE &&
	       t->events[c].kind != BD_EV_CUP && t->events[c].kind != BD_EV_MINE)
		c++;
	for (k = c + 1; k < t->n_events; k++)
		if (t->events[k].kind == BD_EV_LOW_CALL &&
		    dd_time_span(t->events[c].t_ns, t->events[k].t_ns) <= CALL_DELAY_NS)
			break;
	if (c >= t->n_events || k >= t->n_events)
		return false;
	*alt = *t;
	memmove(&alt->events[c + 1], &alt->events[c], (k - c) * sizeof(alt->events[0]));
	alt->events[c] = t->events[k];
	alt->events[c].t_ns = dd_time_shifted(t->events[c].t_ns, -1);
	return true;
}

/* fx's throw with its moved landing (deaf_landings) where the camera
 * timed it, before the hit it was put after. False when none was moved. */
static bool landing_where_seen(const struct dd_fused *fx, struct bd_throw *alt)
{
	const struct bd_throw *t = &fx->t;
	size_t k = fx->landing_at, to = 0;
	struct bd_event ev;

	if (!fx->landing_moved || k >= t->n_events || t->events[k].kind != BD_EV_TABLE)
		return false;
	*alt = *t;
	ev = t->events[k];
	ev.t_ns = fx->landing_seen_ns;
	while (to < k && t->events[to].t_ns <= ev.t_ns)
		to++;
	memmove(&alt->events[to + 1], &t->events[to], (k - to) * sizeof(ev));
	alt->events[to] = ev;
	return true;
}

/* fx's throw with its guessed catcher replaced by the other player of
 * that end (a button knows the end, not the hand). False when no catcher
 * was guessed. */
static bool catch_by_partner(const struct dd_fused *fx, struct bd_throw *alt)
{
	const struct bd_throw *t = &fx->t;

	if (!fx->catch_guessed || fx->catch_at >= t->n_events ||
	    t->events[fx->catch_at].kind != BD_EV_CATCH || t->events[fx->catch_at].player < 0)
		return false;
	*alt = *t;
	alt->events[fx->catch_at].player ^= 1;	/* a1 <-> a2, b1 <-> b2 */
	return true;
}

/* Whether a and b rule alike, the rules they name included. */
static bool same_ruling(const struct bd_ruling *a, const struct bd_ruling *b)
{
	if (!dd_ruling_same_outcome(a, b) || a->n_why != b->n_why)
		return false;
	for (size_t i = 0; i < a->n_why; i++)
		if (strcmp(a->why[i], b->why[i]))
			return false;
	return true;
}

/* Whether alt, judged from s, rules otherwise than ruling: then where the
 * throws differ decides the ruling. A throw the judge refuses counts as
 * otherwise (an official's to settle too). */
static bool rules_otherwise(const struct bd_match_cfg *cfg, const struct bd_state *s,
			    const struct bd_throw *alt, const struct bd_ruling *ruling,
			    bool rules_too)
{
	struct bd_ruling other;
	char e2[160];

	if (bd_judge(cfg, s, alt, &other, e2, sizeof(e2)))
		return true;
	return rules_too ? !same_ruling(ruling, &other) : !dd_ruling_same_outcome(ruling, &other);
}

/* The judge's notes below: each names its rule at its end. */
#define NOTE_LOW "low call entered just after the first touch, and which came first " \
		 "decides the ruling (BD-P5)"
#define NOTE_CATCHER "the catch button cannot tell who caught, and who did decides the " \
		     "ruling (BD-K1, BD-K9)"
#define NOTE_KICK "kick called near the first touch, and which came first decides the " \
		  "ruling (BD-K1)"
#define NOTE_LANDING "the camera's first landing, just before a hit the table sensors " \
		     "heard alone, was put after it, and which came first decides the " \
		     "ruling (BD-P7)"
/* All four, each after "; " (sizeof counts a NUL each: room for three of
 * the separators' bytes and the end). */
#define NOTES_MAX (sizeof(NOTE_LOW) + sizeof(NOTE_CATCHER) + sizeof(NOTE_KICK) + \
		   sizeof(NOTE_LANDING) + 6)
_Static_assert(NOTES_MAX < DD_WHY_MAX, "the judge's notes must fit a reason's buffer whole");

/* Sends ruling to review, adding reason to notes (NOTES_MAX bytes). */
static void ask_official(struct bd_ruling *ruling, char *notes, const char *reason)
{
	ruling->review = true;
	append_why(notes, NOTES_MAX, reason);
}

int dd_fused_judge(const struct bd_match_cfg *cfg, const struct bd_state *s,
		   const struct dd_fused *fx, struct bd_ruling *ruling, char *why, size_t whylen,
		   char *err, size_t errlen)
{
	struct bd_throw alt;
	char notes[NOTES_MAX] = "";
	int rc;

	snprintf(why, whylen, "%s", fx->review_why);
	rc = bd_judge(cfg, s, &fx->t, ruling, err, errlen);
	if (rc)
		return rc;
	if (fx->review)
		ruling->review = true;
	/* A late-entered low call: where the order decides the ruling, an
	 * official settles it (BD-P5). */
	if (low_before_touch(fx, &alt) && rules_otherwise(cfg, s, &alt, ruling, false))
		ask_official(ruling, notes, NOTE_LOW);
	/* Kicked up by one defender and caught by the other (BD-K1), or by
	 * the kicker (BD-K9): who caught decides, and a button cannot say. */
	if (catch_by_partner(fx, &alt) && rules_otherwise(cfg, s, &alt, ruling, true))
		ask_official(ruling, notes, NOTE_CATCHER);
	if (fx->kick_guessed && kick_after_touch(fx, &alt) && rules_otherwise(cfg, s, &alt, ruling, false))
		ask_official(ruling, notes, NOTE_KICK);
	/* A landing put after a hit (fusion has already asked an official,
	 * as about any camera-only landing): where the order decides, the
	 * official hears that too. */
	if (landing_where_seen(fx, &alt) && rules_otherwise(cfg, s, &alt, ruling, false))
		ask_official(ruling, notes, NOTE_LANDING);
	/* fusion's notes (witnesses disagreeing) explain a review only, be
	 * it one the judge's notes asked for */
	if (!ruling->review && whylen)
		why[0] = '\0';
	/* The judge's notes first: each names the rule that decides, and
	 * fusion's reasons, however many, are what a short buffer cuts. */
	else if (*notes)
		snprintf(why, whylen, "%s%s%s", notes, *fx->review_why ? "; " : "", fx->review_why);
	return 0;
}
