/* Fusion's assembly: the observations of one throw, weighed witness
 * against witness, become the throw for the judge (dd_fusion_assemble). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "daemon/fusion.h"
#include "daemon/fusion_internal.h"
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
void dd_fusion_append_why(char *buf, size_t size, const char *why)
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
	dd_fusion_append_why(out->review_why, sizeof(out->review_why), why);
}

static void add_reason(struct dd_fused *out, const char *why)
{
	out->review = true;
	add_note(out, why);
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

/* Where a witness put a landing, in words. */
static const char *half_words(enum bd_half h)
{
	return h == BD_HALF_A ? "A's half" : h == BD_HALF_B ? "B's half" : "the line";
}

/* A first landing whose piezo fix doubts its half (fix.near_line: a late
 * or missing disc, the line near): the discs alone, or against another
 * witness's half, cannot settle BD-P1's half, so an official looks. other
 * is the witness paired with it, or NULL; one on the same half backs it,
 * and it stands on both (half_posterior). buf: the caller's, len bytes. */
static void doubtful_half(struct dd_fused *out, const struct dd_obs *pz, const struct dd_obs *other,
			  char *buf, size_t len)
{
	double p = pz->half_p > 0 ? pz->half_p : pz->confidence;

	if (pz->source != DD_SRC_PIEZO || !pz->half_doubtful || (other && other->ev.half == pz->ev.half))
		return;
	if (other)
		snprintf(buf, len, "table impact near the line: half doubtful (p %.3g), and the %s "
			 "saw it land on %s", p, dd_source_name(other->source), half_words(other->ev.half));
	else
		snprintf(buf, len, "table impact near the line: half doubtful (p %.3g)", p);
	add_reason(out, buf);
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

/* Whether the throw rests on single-line discs alone: every observation
 * is the piezo's, none of them a table impact (a landing, or a shake the
 * table lines heard), so no camera, no person at the console or a button
 * and no table disc saw it. A floor strip, cup or mine disc is one line
 * each: a loose wire or a floating input makes such a throw out of
 * nothing, and it would use up a thrower's turn (BD-T3) even where it
 * scores nothing (BD-P14); a real one (a die straight into a cup, BD-P7)
 * is rare enough to ask an official about. */
static bool lone_lines_only(const struct dd_fusion *f)
{
	bool any = false;

	for (size_t i = 0; i < f->cur.n_obs; i++) {
		const struct dd_obs *o = &f->cur.obs[i];

		if (o->source != DD_SRC_PIEZO || o->kind == DD_OBS_TABLE_DEAF ||
		    (o->kind == DD_OBS_EVENT && o->ev.kind == BD_EV_TABLE))
			return false;
		any |= o->kind == DD_OBS_EVENT;
	}
	return any;
}

void dd_fusion_assemble(const struct dd_fusion *f, bool timed_out, int64_t now_ns,
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

		if (dd_fusion_edge_source(o->source) && o->t_ns > out->t_last_edge_ns)
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
				if (!landed)
					doubtful_half(out, o->source == DD_SRC_PIEZO ? o : p,
						      o->source == DD_SRC_PIEZO ? p : o, why, sizeof(why));
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
			doubtful_half(out, o, NULL, why, sizeof(why));
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
	if (lone_lines_only(f))
		add_reason(out, "only floor, cup or mine sensors felt it: no table landing, camera "
			   "or call (a loose line can make such a throw; BD-P14, BD-T3)");
}
