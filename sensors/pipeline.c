/* sens_pipeline: hold-off, impact grouping, observations and line health. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sensors/sensors.h"

#define QUEUE_MAX 64		/* completed observations waiting for the caller */
#define HELD_MAX  16		/* non-table observations held while an impact is open */
#define JUDGED_MAX 16		/* cup/mine/floor observations waiting for their line's check */
#define NOISE_HIST 32		/* fits whose residuals measure the table's timing noise */
#define NOISE_MIN_FITS 8	/* fewer than this: the configured noise stands */
#define NOISE_MAX_SCALE 3.0	/* the measured noise counts up to this many times the configured */
#define NOISE_TRUST 3.0		/* chi-square per dof the last fits must show, at least, to count */

struct line_state {
	bool any;		/* an edge was accepted */
	int64_t last_accept_ns;	/* the hold-off runs from here */
	int64_t last_ns;	/* last edge of any kind */
	uint64_t edges, accepted, suppressed, impacts, missed;	/* counters, see sens_line_health */
	uint64_t quarantined;	/* edges of the line while its check held it in quarantine */
	uint8_t miss_hist;	/* bit 0 = latest impact: 1 missed it */
	uint8_t hist_n;		/* impacts in miss_hist (max 8) */
};

struct group {
	bool open;		/* an impact is collecting edges */
	int64_t start_ns;	/* earliest table edge */
	size_t n;		/* arrivals */
	int line[SENS_MAX_TABLE];	/* config line index per arrival */
	int64_t ts[SENS_MAX_TABLE];	/* timestamp per arrival */
	int64_t alt[SENS_MAX_TABLE];	/* per arrival: the first edge its line's hold-off threw
					 * away after it within the window, or 0 */
};

/* A cup, mine or floor observation waiting for its line's check: the
 * burst it begins may turn out to be a floating input's. */
struct judged {
	struct sens_obs o;	/* the observation */
	int64_t release_ns;	/* its edge + the check's float_ns: judged by then */
};

struct sens_pipeline {
	struct sens_config cfg;	/* a copy */
	struct sens_linecheck *check[SENS_MAX_LINES];	/* owned, per piezo line; NULL for buttons */
	struct judged judged[JUDGED_MAX];	/* in edge order */
	size_t n_judged;	/* in judged[] */
	int64_t look_ns;	/* the checks' float_ns: how long a judged observation waits */
	int64_t debounce_ns;	/* cfg.button_debounce_s in ns */
	int64_t repeat_ns;	/* cfg.button_repeat_s in ns */
	int64_t window_ns;	/* one impact's edges fall within this */
	int64_t holdoff_ns;	/* cfg.holdoff_s in ns */
	int16_t by_offset[SENS_MAX_OFFSET + 1];	/* config line index, or -1 */
	int table_ord[SENS_MAX_LINES];	/* TABLE lines: position among the table lines */
	struct line_state lines[SENS_MAX_LINES];	/* per config line */
	struct group g;		/* the impact being collected */
	struct sens_obs held[HELD_MAX];	/* cup/mine/floor seen during an open impact */
	size_t n_held;		/* in held[] */
	struct sens_obs queue[QUEUE_MAX];	/* FIFO of completed observations */
	size_t q_head, q_len;	/* queue start and length */
	uint64_t unknown;	/* edges on unconfigured lines */
	uint64_t table_impacts;	/* impacts located (3+ sensors) */
	double red_hist[NOISE_HIST];	/* recent fits' chi-square per dof, at the configured noise */
	size_t n_red, red_pos;	/* entries in red_hist; next slot */
	bool started;		/* start_ns is set */
	int64_t start_ns;	/* first edge seen: silence is measured from here */
};

struct sens_pipeline *sens_pipeline_new(const struct sens_config *c)
{
	char err[160];
	struct sens_pipeline *p;

	if (sens_config_check(c, err, sizeof(err)) < 0) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->cfg = *c;
	for (size_t i = 0; i < c->n_lines; i++) {
		struct sens_linecheck_cfg lc;

		if (c->lines[i].role == SENS_ROLE_BUTTON)
			continue;	/* debounced as a button: bounce is normal */
		sens_linecheck_defaults(&lc, c->lines[i].role);
		p->look_ns = lc.float_ns;
		p->check[i] = sens_linecheck_new(&lc);
		if (!p->check[i]) {
			sens_pipeline_free(p);
			errno = ENOMEM;
			return NULL;
		}
	}
	p->window_ns = sens_config_group_window_ns(c);
	/* Callers complete an impact a window after its last edge (the
	 * daemon's timer, the simulated table's feed): a judged observation
	 * must be out by then too. */
	if (p->look_ns > p->window_ns)
		p->look_ns = p->window_ns;
	p->holdoff_ns = (int64_t)(c->holdoff_s * 1e9);
	p->debounce_ns = (int64_t)(c->button_debounce_s * 1e9);
	p->repeat_ns = (int64_t)(c->button_repeat_s * 1e9);
	for (size_t i = 0; i <= SENS_MAX_OFFSET; i++)
		p->by_offset[i] = -1;
	for (size_t i = 0, t = 0; i < c->n_lines; i++) {
		p->by_offset[c->lines[i].offset] = (int16_t)i;
		if (c->lines[i].role == SENS_ROLE_TABLE)
			p->table_ord[i] = (int)t++;
	}
	return p;
}

void sens_pipeline_free(struct sens_pipeline *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < SENS_MAX_LINES; i++)
		sens_linecheck_free(p->check[i]);
	free(p);
}

/* later - earlier, saturated: edges from outside may carry any int64. */
static int64_t span(int64_t earlier, int64_t later)
{
	int64_t d;

	if (__builtin_sub_overflow(later, earlier, &d))
		return later > earlier ? INT64_MAX : INT64_MIN;
	return d;
}

static void enqueue(struct sens_pipeline *p, const struct sens_obs *o)
{
	if (p->q_len == QUEUE_MAX) {
		/* The caller stopped draining; the oldest is the least useful. */
		p->q_head = (p->q_head + 1) % QUEUE_MAX;
		p->q_len--;
	}
	p->queue[(p->q_head + p->q_len) % QUEUE_MAX] = *o;
	p->q_len++;
}

static size_t drain(struct sens_pipeline *p, struct sens_obs *out, size_t cap)
{
	size_t n = 0;

	while (n < cap && p->q_len) {
		out[n++] = p->queue[p->q_head];
		p->q_head = (p->q_head + 1) % QUEUE_MAX;
		p->q_len--;
	}
	return n;
}

static void obs_init(struct sens_obs *o, enum bd_ev_kind kind, int64_t t_ns)
{
	memset(o, 0, sizeof(*o));
	o->ev.kind = kind;
	o->ev.player = BD_NOBODY;
	o->ev.confidence = 1.0;
	snprintf(o->ev.source, sizeof(o->ev.source), "piezo");
	o->ev.t_ns = t_ns;
	o->line = -1;
	o->shaken_by = -1;
	o->team = BD_NOBODY;
}

/* An observation out of a completed observation: queued now, or held
 * while a table impact is open so that they come out in time order. */
static void emit(struct sens_pipeline *p, const struct sens_obs *o)
{
	if (p->g.open && p->n_held < HELD_MAX)
		p->held[p->n_held++] = *o;
	else
		enqueue(p, o);
}

/* A cup, mine or floor observation, once its line's check has seen the
 * float_ns after its edge (a floating input shows within them). */
static void judge(struct sens_pipeline *p, const struct sens_obs *o)
{
	struct judged *j;

	if (p->n_judged == JUDGED_MAX) {
		/* a burst of lines at once: the oldest has waited longest */
		emit(p, &p->judged[0].o);
		memmove(&p->judged[0], &p->judged[1], (JUDGED_MAX - 1) * sizeof(p->judged[0]));
		p->n_judged--;
	}
	j = &p->judged[p->n_judged++];
	j->o = *o;
	if (__builtin_add_overflow(o->ev.t_ns, p->look_ns, &j->release_ns))
		j->release_ns = INT64_MAX;
}

/* Emits the judged observations whose time is up at now_ns. */
static void release_judged(struct sens_pipeline *p, int64_t now_ns)
{
	size_t k = 0;

	for (size_t i = 0; i < p->n_judged; i++) {
		if (now_ns == INT64_MAX || p->judged[i].release_ns <= now_ns)
			emit(p, &p->judged[i].o);
		else
			p->judged[k++] = p->judged[i];
	}
	p->n_judged = k;
}

/* Line idx was just quarantined: what it gave within the check's look
 * reaches no impact (its arrival in the open one, its observations
 * waiting to be judged). */
static void quarantine(struct sens_pipeline *p, int idx)
{
	struct group *g = &p->g;
	size_t k = 0;

	for (size_t i = 0; i < p->n_judged; i++)
		if (p->judged[i].o.line != idx)
			p->judged[k++] = p->judged[i];
	p->n_judged = k;
	k = 0;
	for (size_t i = 0; i < g->n; i++)
		if (g->line[i] != idx) {
			g->line[k] = g->line[i];
			g->ts[k] = g->ts[i];
			g->alt[k] = g->alt[i];
			k++;
		}
	g->n = k;
	for (size_t i = 0; i < g->n; i++)
		if (i == 0 || g->ts[i] < g->start_ns)
			g->start_ns = g->ts[i];
}

/* abs(later - earlier), saturated. */
static int64_t apart(int64_t a, int64_t b)
{
	int64_t d = span(a, b);

	return d == INT64_MIN ? INT64_MAX : d < 0 ? -d : d;
}

/* A button's edge: contacts bounce, on press and on release, so a press
 * is an edge after debounce_ns of quiet on the line (every edge, kept or
 * not, restarts the quiet) and at least repeat_ns after the last press.
 * Release bounce of a press shorter than repeat_ns is thus ignored; a
 * press held longer may call twice (docs/sensors.md "Buttons"). */
static void button_edge(struct sens_pipeline *p, int idx, const struct sens_edge *e)
{
	struct line_state *ls = &p->lines[idx];
	const struct sens_line_cfg *l = &p->cfg.lines[idx];
	bool quiet = ls->edges == 0 || apart(ls->last_ns, e->ts_ns) >= p->debounce_ns;
	bool spaced = !ls->any || apart(ls->last_accept_ns, e->ts_ns) >= p->repeat_ns;
	struct sens_obs o;

	ls->edges++;
	ls->last_ns = e->ts_ns;
	if (!quiet || !spaced) {
		ls->suppressed++;
		return;
	}
	ls->any = true;
	ls->last_accept_ns = e->ts_ns;
	ls->accepted++;

	obs_init(&o, BD_EV_LOW_CALL, e->ts_ns);
	o.kind = SENS_OBS_BUTTON;
	o.line = idx;
	o.call = l->call;
	o.team = l->team;
	snprintf(o.ev.source, sizeof(o.ev.source), "button");
	switch (l->call) {
	case SENS_CALL_LOW:
		o.ev.kind = BD_EV_LOW_CALL;
		break;
	case SENS_CALL_RETOSS:
		o.ev.kind = BD_EV_RETOSS;
		break;
	case SENS_CALL_CATCH1:
	case SENS_CALL_CATCH2:
		o.ev.kind = BD_EV_CATCH;
		o.ev.hands = l->call == SENS_CALL_CATCH1 ? 1 : 2;
		break;
	}
	o.ev.has_confidence = true;
	emit(p, &o);
}

/* The timing noise measured over the last fits, as a factor on the
 * configured one (never below 1): chi-square per degree of freedom is about
 * 1 when the configured noise is right, 4 when it is twice that. The
 * installer's figure may be low (a looser comparator, a warmer day); one
 * fit of four arrivals has one degree of freedom and cannot tell, 32 can.
 * The median (of chi-square over its own median for the fit's degrees of
 * freedom) ignores the odd wild arrival. */
static double noise_scale(const struct sens_pipeline *p)
{
	double v[NOISE_HIST];

	if (p->n_red < NOISE_MIN_FITS)
		return 1.0;
	memcpy(v, p->red_hist, p->n_red * sizeof(v[0]));
	for (size_t i = 1; i < p->n_red; i++)	/* insertion sort: 32 values */
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	/* The median of 32 scatters by +-40 % on a table as noisy as the
	 * config says: below NOISE_TRUST it is that scatter, and the
	 * configured noise stands (an impact then comes out as it would
	 * alone). 3x at most: beyond, the config is wrong, not noisy, and a
	 * fix should not hang on so much of what came before. */
	double m = v[p->n_red / 2];

	if (!(m >= NOISE_TRUST))
		return 1.0;
	return sqrt(fmin(m, NOISE_MAX_SCALE * NOISE_MAX_SCALE));
}

static void note_fit(struct sens_pipeline *p, const struct sens_fix *f, size_t n, double scale)
{
	double dof = (double)n - 3, med;

	if (n < 4 || !(f->red_chi2 > 0))
		return;	/* exactly determined: no residual */
	if (f->dropped >= 0 || f->swapped >= 0 || f->no_point)
		return;	/* a late or false arrival is no measure of the jitter */
	/* the median of chi-square over d degrees of freedom, per degree
	 * (Wilson-Hilferty): 0.455 for one */
	med = pow(1 - 2 / (9 * dof), 3);
	p->red_hist[p->red_pos] = f->red_chi2 * scale * scale / med;
	p->red_pos = (p->red_pos + 1) % NOISE_HIST;
	if (p->n_red < NOISE_HIST)
		p->n_red++;
}

/* The cup or mine line whose latest hit explains table impact o (see
 * SENS_SHAKE_RADII), or -1. Their edges come before the impact's (the cup's
 * own disc hears the hit first) or during it, never far after. */
static int shaken_by(const struct sens_pipeline *p, const struct sens_obs *o)
{
	const struct bd_table *t = &p->cfg.table;
	int best = -1;
	double best_d = INFINITY;

	for (size_t i = 0; i < p->cfg.n_lines; i++) {
		const struct sens_line_cfg *l = &p->cfg.lines[i];
		const struct line_state *ls = &p->lines[i];
		double cx, cy, r, d;
		int64_t dt;

		if ((l->role != SENS_ROLE_CUP && l->role != SENS_ROLE_MINE) || !ls->any)
			continue;
		dt = span(ls->last_accept_ns, o->ev.t_ns);
		if (dt > p->window_ns || dt < -p->window_ns)
			continue;
		if (!o->has_fix) {
			/* Unlocated: the time alone; the nearest in time wins. */
			d = (double)(dt < 0 ? -dt : dt);
		} else {
			if (dt > SENS_SHAKE_SYNC_NS || dt < -SENS_SHAKE_SYNC_NS)
				continue;	/* started before or after the hit: the die's */
			if (bd_table_spot(t, l->role == SENS_ROLE_CUP ? l->owner : BD_TABLE_MINE,
					  &cx, &cy, &r) < 0)
				continue;
			d = hypot(o->fix.x - cx, o->fix.y - cy);
			if (d > SENS_SHAKE_RADII * r + 2 * o->fix.sigma_m)
				continue;
		}
		if (d < best_d) {
			best_d = d;
			best = (int)i;
		}
	}
	return best;
}

static int cmp_obs_time(const void *a, const void *b)
{
	const struct sens_obs *x = a, *y = b;

	return (x->ev.t_ns > y->ev.t_ns) - (x->ev.t_ns < y->ev.t_ns);
}

/* A table edge the hold-off suppressed: the first one after its line's
 * arrival in the open impact, within the window, is kept for the fix (the
 * wave, if that arrival was a false trigger: sens_locate_alt). */
static void keep_alt(struct sens_pipeline *p, int idx, int64_t ts_ns)
{
	struct group *g = &p->g;

	if (!g->open || span(g->start_ns, ts_ns) > p->window_ns)
		return;
	for (size_t i = 0; i < g->n; i++)
		if (g->line[i] == idx && g->alt[i] == 0 && ts_ns > g->ts[i])
			g->alt[i] = ts_ns;
}

/* Whether the open impact holds an arrival of config line idx. */
static bool in_group(const struct group *g, int idx)
{
	for (size_t i = 0; g->open && i < g->n; i++)
		if (g->line[i] == idx)
			return true;
	return false;
}

static void close_group(struct sens_pipeline *p)
{
	struct group *g = &p->g;
	struct sens_obs batch[HELD_MAX + 1];
	size_t nb = 0;

	if (!g->open)
		return;
	g->open = false;
	if (g->n >= 2) {
		struct sens_obs *o = &batch[nb++];
		struct sens_arrival arr[SENS_MAX_TABLE];
		size_t first = 0, last = 0;

		obs_init(o, BD_EV_TABLE, g->start_ns);
		for (size_t i = 0; i < g->n; i++) {
			const struct sens_line_cfg *l = &p->cfg.lines[g->line[i]];

			arr[i].x = l->x;
			arr[i].y = l->y;
			arr[i].delay_s = l->delay_s;
			arr[i].ts_ns = g->ts[i];
			o->lines_seen |= 1u << g->line[i];
			o->table_seen |= 1u << p->table_ord[g->line[i]];
			o->table_ts_ns[p->table_ord[g->line[i]]] = g->ts[i];
			if (g->ts[i] < g->ts[first])
				first = i;
			if (g->ts[i] > g->ts[last])
				last = i;
		}
		/* the hold-off runs from the accepted edge, a swapped-in alt_ns
		 * or not; an edge from outside may be near INT64_MAX */
		if (__builtin_add_overflow(g->ts[last], p->holdoff_ns, &o->held_off_until_ns))
			o->held_off_until_ns = INT64_MAX;
		o->ev.has_confidence = true;
		struct sens_config lc = p->cfg;	/* at the noise the table shows */
		double scale = noise_scale(p);

		lc.timing_sigma_s *= scale;
		lc.speed_spread *= scale;
		if (g->n >= 3 && sens_locate_alt(&lc, arr, g->alt, g->n, &o->fix) == 0) {
			if (o->fix.swapped >= 0)	/* the arrival the fix used */
				o->table_ts_ns[p->table_ord[g->line[o->fix.swapped]]] =
					g->alt[o->fix.swapped];
			note_fit(p, &o->fix, g->n, scale);
			o->has_fix = true;
			o->ev.has_xy = true;
			o->ev.x = o->fix.x;
			o->ev.y = o->fix.y;
			o->ev.half = o->fix.half;
			o->ev.confidence = o->fix.confidence;
			o->ev.t_ns = o->fix.t_ns;
		} else if (g->n == 2) {
			/* Too few to locate: where on the top their arrival
			 * difference could come from. */
			double ph[3];

			o->ev.half = sens_half_of_two(&lc, arr, ph);
			o->ev.confidence = ph[o->ev.half];
		} else {
			/* No consistent point: the first sensor to fire is
			 * nearest, so its half is the best guess, and it is
			 * only a guess. */
			o->ev.half = bd_table_half(&p->cfg.table, arr[first].x);
			o->ev.confidence = 0.3;
		}
		o->shaken_by = shaken_by(p, o);
		if (g->n >= 3) {
			p->table_impacts++;
			for (size_t i = 0; i < p->cfg.n_lines; i++) {
				struct line_state *ls = &p->lines[i];
				bool seen = (o->lines_seen >> i) & 1u;

				if (p->cfg.lines[i].role != SENS_ROLE_TABLE)
					continue;
				ls->miss_hist = (uint8_t)((ls->miss_hist << 1) | (seen ? 0u : 1u));
				if (ls->hist_n < 8)
					ls->hist_n++;
				if (seen)
					ls->impacts++;
				else
					ls->missed++;
			}
		}
	}
	for (size_t i = 0; i < p->n_held; i++)
		batch[nb++] = p->held[i];
	p->n_held = 0;
	qsort(batch, nb, sizeof(batch[0]), cmp_obs_time);
	for (size_t i = 0; i < nb; i++)
		enqueue(p, &batch[i]);
}

size_t sens_pipeline_flush(struct sens_pipeline *p, int64_t now_ns,
			   struct sens_obs *out, size_t cap)
{
	/* Judged first: an observation released now still joins the open
	 * impact's batch in time order. INT64_MIN only drains. */
	if (now_ns != INT64_MIN)
		release_judged(p, now_ns);
	/* INT64_MAX is the end of time: it also closes an impact that began
	 * within one window of it, whose window's end no int64 can reach. */
	if (p->g.open && (now_ns == INT64_MAX || span(p->g.start_ns, now_ns) > p->window_ns))
		close_group(p);
	return drain(p, out, cap);
}

size_t sens_pipeline_push(struct sens_pipeline *p, const struct sens_edge *e,
			  struct sens_obs *out, size_t cap)
{
	struct line_state *ls;
	const struct sens_line_cfg *l;
	int idx;

	if (e->line > SENS_MAX_OFFSET || (idx = p->by_offset[e->line]) < 0) {
		p->unknown++;
		return drain(p, out, cap);
	}
	if (!p->started) {
		p->started = true;
		p->start_ns = e->ts_ns;
	}
	release_judged(p, e->ts_ns);
	/* An edge beyond the open impact's window, either way, starts the
	 * next one (far earlier: a source out of order; it stands alone). */
	if (p->g.open && (span(p->g.start_ns, e->ts_ns) > p->window_ns ||
			  span(e->ts_ns, p->g.start_ns) > p->window_ns))
		close_group(p);

	ls = &p->lines[idx];
	l = &p->cfg.lines[idx];
	if (l->role == SENS_ROLE_BUTTON) {
		button_edge(p, idx, e);
		return drain(p, out, cap);
	}
	ls->edges++;
	ls->last_ns = e->ts_ns;
	/* A line whose edges no impact makes reaches no impact (docs/sensors.md
	 * "Line check"): from the edge that shows it, and what it gave within
	 * the check's look before. */
	if (sens_linecheck_edge(p->check[idx], e->ts_ns) != SENS_LINE_SANE)
		quarantine(p, idx);
	if (sens_linecheck_fault(p->check[idx], e->ts_ns) != SENS_LINE_SANE) {
		ls->quarantined++;
		return drain(p, out, cap);
	}
	/* Hold-off by timestamp, not by arrival order or a kernel debounce:
	 * the same on libgpiod v1 (no debounce) and v2, and on replays. */
	int64_t since = ls->any ? span(ls->last_accept_ns, e->ts_ns) : INT64_MAX;
	/* One line, one arrival an impact: a later edge of a line the open
	 * impact holds is its disc still ringing past a hold-off shorter than
	 * the window, and is held off like any ringing. */
	if ((since < p->holdoff_ns && since > -p->holdoff_ns) ||
	    (l->role == SENS_ROLE_TABLE && in_group(&p->g, idx))) {
		ls->suppressed++;
		if (l->role == SENS_ROLE_TABLE)
			keep_alt(p, idx, e->ts_ns);
		return drain(p, out, cap);
	}
	ls->any = true;
	ls->last_accept_ns = e->ts_ns;
	ls->accepted++;

	if (l->role == SENS_ROLE_TABLE) {
		struct group *g = &p->g;

		if (!g->open) {
			g->open = true;
			g->n = 0;
			g->start_ns = e->ts_ns;
		}
		if (e->ts_ns < g->start_ns)
			g->start_ns = e->ts_ns;
		/* one arrival a line (above): never more than the table lines */
		if (g->n < SENS_MAX_TABLE) {
			g->line[g->n] = idx;
			g->ts[g->n] = e->ts_ns;
			g->alt[g->n] = 0;
			g->n++;
		}
	} else {
		struct sens_obs o;

		obs_init(&o, l->role == SENS_ROLE_CUP ? BD_EV_CUP :
			 l->role == SENS_ROLE_MINE ? BD_EV_MINE : BD_EV_FLOOR, e->ts_ns);
		o.line = idx;
		if (l->role == SENS_ROLE_CUP)
			o.ev.player = l->owner;
		judge(p, &o);
	}
	return drain(p, out, cap);
}

uint64_t sens_pipeline_unknown_edges(const struct sens_pipeline *p)
{
	return p->unknown;
}

static int popcount8(unsigned v)
{
	int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

size_t sens_pipeline_health(const struct sens_pipeline *p, int64_t now_ns,
			    struct sens_line_health *out, size_t cap)
{
	for (size_t i = 0; i < p->cfg.n_lines && i < cap; i++) {
		const struct line_state *ls = &p->lines[i];
		const struct sens_line_cfg *l = &p->cfg.lines[i];
		struct sens_line_health *h = &out[i];
		unsigned last5 = ls->miss_hist & 0x1fu;
		enum sens_line_fault fault;

		memset(h, 0, sizeof(*h));
		snprintf(h->name, sizeof(h->name), "%s", l->name);
		h->offset = l->offset;
		h->role = l->role;
		h->edges = ls->edges;
		h->accepted = ls->accepted;
		h->suppressed = ls->suppressed;
		h->impacts = ls->impacts;
		h->missed = ls->missed;
		h->last_ns = ls->last_ns;
		h->quarantined = ls->quarantined;
		fault = p->check[i] ? sens_linecheck_fault(p->check[i], now_ns) : SENS_LINE_SANE;
		if (fault != SENS_LINE_SANE) {
			h->trusted_at_ns = sens_linecheck_until(p->check[i]);
			snprintf(h->why, sizeof(h->why), "%s", sens_linecheck_why(p->check[i]));
		}
		if (l->role == SENS_ROLE_BUTTON)
			/* Bounce is normal and a button may rest for a whole match. */
			h->state = ls->edges ? SENS_HEALTH_OK : SENS_HEALTH_UNTESTED;
		else if (fault == SENS_LINE_FLOATING)
			h->state = SENS_HEALTH_FLOATING;
		else if (fault == SENS_LINE_STUCK)
			h->state = SENS_HEALTH_STUCK;
		else if (fault == SENS_LINE_CHATTERING)
			h->state = SENS_HEALTH_CHATTERING;
		else if (l->role == SENS_ROLE_TABLE && ls->edges == 0 && p->table_impacts >= 3)
			h->state = SENS_HEALTH_SILENT;
		else if (l->role != SENS_ROLE_TABLE && p->started &&
			 (double)span(ls->edges ? ls->last_ns : p->start_ns, now_ns) * 1e-9 >=
			 p->cfg.silent_after_s)
			/* from its last edge: a disc that fired once and died is as
			 * silent as one that never fired */
			h->state = SENS_HEALTH_SILENT;
		else if (l->role == SENS_ROLE_TABLE && ls->hist_n >= 3 &&
			 popcount8(ls->hist_n >= 5 ? last5 : ls->miss_hist) >= 3)
			h->state = SENS_HEALTH_MISSING;
		else if (ls->edges == 0)
			h->state = SENS_HEALTH_UNTESTED;
		else
			h->state = SENS_HEALTH_OK;
	}
	return p->cfg.n_lines;
}

const char *sens_health_name(enum sens_health h)
{
	switch (h) {
	case SENS_HEALTH_UNTESTED: return "untested";
	case SENS_HEALTH_OK: return "ok";
	case SENS_HEALTH_SILENT: return "silent";
	case SENS_HEALTH_STUCK: return "stuck";
	case SENS_HEALTH_CHATTERING: return "chattering";
	case SENS_HEALTH_MISSING: return "missing";
	case SENS_HEALTH_FLOATING: return "floating";
	}
	return "?";
}

static const char *half_name(enum bd_half h)
{
	return h == BD_HALF_A ? "A" : h == BD_HALF_B ? "B" : "line";
}

void sens_obs_format(const struct sens_obs *o, char *buf, size_t len)
{
	static const char *const owners[BD_PLAYERS] = { "a1", "a2", "b1", "b2" };
	const struct bd_event *ev = &o->ev;

	switch (ev->kind) {
	case BD_EV_TABLE:
		if (o->has_fix)
			snprintf(buf, len, "table x=%.3f y=%.3f m half %s p=%.3f +-%.1f cm conf %.2f "
				 "(%d sensors)%s", ev->x, ev->y, half_name(ev->half),
				 o->fix.p_half[ev->half], o->fix.sigma_m * 100, ev->confidence,
				 o->fix.n_used, o->fix.no_point ? " FITS NO ONE POINT (two impacts?): review" :
				 o->fix.near_line ? " NEAR LINE: review" : "");
		else
			snprintf(buf, len, "table (not located) half %s conf %.2f",
				 half_name(ev->half), ev->confidence);
		if (o->shaken_by >= 0) {
			size_t k = strlen(buf);

			if (k < len)
				snprintf(buf + k, len - k, " = shake of a cup/mine hit (config line %d), "
					 "not a landing", o->shaken_by);
		}
		break;
	case BD_EV_CUP:
		snprintf(buf, len, "cup %s", ev->player >= 0 && ev->player < BD_PLAYERS ?
			 owners[ev->player] : "?");
		break;
	case BD_EV_MINE:
		snprintf(buf, len, "mine");
		break;
	case BD_EV_FLOOR:
		snprintf(buf, len, "floor");
		break;
	case BD_EV_LOW_CALL:
	case BD_EV_RETOSS:
	case BD_EV_CATCH:
		snprintf(buf, len, "button %s (team %s's end)", sens_call_name(o->call),
			 o->team == BD_TEAM_A ? "A" : "B");
		break;
	default:
		snprintf(buf, len, "?");
		break;
	}
}
