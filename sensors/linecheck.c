/* sens_linecheck: whether one line's edges look like impacts (floating,
 * stuck, chattering), and its quarantine until it looks sane again. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sensors/sensors.h"

#define SECOND_NS 1000000000LL
#define HIST_MAX 8		/* hits whose edge counts are kept: chatter_hits at most */
#define RATE_MAX 64		/* hit starts kept for the rate: rate_hits at most */

struct sens_linecheck {
	struct sens_linecheck_cfg cfg;	/* a copy */
	bool any;			/* an edge came */
	int64_t latest_ns;		/* the latest edge time seen */
	int64_t ring[SENS_FLOAT_RING];	/* the last float_edges edge times, a ring */
	size_t ring_n, ring_pos;	/* entries; next slot */
	int64_t hit_ns;			/* the current hit's first edge */
	unsigned hit_edges;		/* its edges so far */
	unsigned hist[HIST_MAX];	/* edges of the hits before it, newest first */
	size_t hist_n;			/* entries of hist */
	int64_t starts[RATE_MAX];	/* the last rate_hits hits' first edges, a ring */
	size_t starts_n, starts_pos;	/* entries; next slot */
	int64_t run_ns;			/* first hit of the run of hits each soon after the last */
	int64_t rate_ns;		/* the current hit: the last rate_hits hits span this,
					 * under a second; -1 when they do not */
	bool quarantined;		/* a fault was seen: until_ns holds */
	enum sens_line_fault fault;	/* the latest fault */
	int64_t until_ns;		/* the quarantine ends (latest fault + settle_ns) */
	char why[48];			/* the latest fault in figures */
};

void sens_linecheck_defaults(struct sens_linecheck_cfg *c, enum sens_role role)
{
	/* docs/sensors.md "Line check": the simulated table's hits at
	 * doubled noise give a line at most 6 edges in 2 ms, 3 hits in a row
	 * of 5 edges or more, 6 hits a second (a table line; 2 on a cup, the
	 * mine or a floor strip) and 30 ms of hits each soon after the last. */
	memset(c, 0, sizeof(*c));
	c->float_ns = 2000000;
	c->float_edges = 16;
	c->hit_ns = 20000000;
	c->chatter_edges = 7;
	c->chatter_hits = 3;
	c->rate_hits = role == SENS_ROLE_TABLE ? 24 : 8;
	c->stuck_ns = 200000000;
	c->settle_ns = 10 * SECOND_NS;
}

struct sens_linecheck *sens_linecheck_new(const struct sens_linecheck_cfg *cfg)
{
	struct sens_linecheck *lc;

	if (!cfg || cfg->float_ns <= 0 || cfg->float_edges < 2 || cfg->float_edges > SENS_FLOAT_RING ||
	    cfg->hit_ns <= 0 || cfg->chatter_edges < 2 || cfg->chatter_hits < 1 ||
	    cfg->chatter_hits > HIST_MAX || cfg->rate_hits < 2 || cfg->rate_hits > RATE_MAX ||
	    cfg->stuck_ns <= 0 || cfg->settle_ns < 0) {
		errno = EINVAL;
		return NULL;
	}
	lc = calloc(1, sizeof(*lc));
	if (!lc)
		return NULL;
	lc->cfg = *cfg;
	lc->until_ns = INT64_MIN;
	return lc;
}

void sens_linecheck_free(struct sens_linecheck *lc)
{
	free(lc);
}

/* later - earlier for times in order, saturated. */
static int64_t since(int64_t earlier, int64_t later)
{
	int64_t d;

	if (__builtin_sub_overflow(later, earlier, &d))
		return INT64_MAX;
	return d;
}

/* float_edges edges, this one the last, within float_ns. */
static bool floating(struct sens_linecheck *lc, int64_t ts)
{
	const struct sens_linecheck_cfg *c = &lc->cfg;
	int64_t oldest, d;

	lc->ring[lc->ring_pos] = ts;
	lc->ring_pos = (lc->ring_pos + 1) % c->float_edges;
	if (lc->ring_n < c->float_edges)
		lc->ring_n++;
	if (lc->ring_n < c->float_edges)
		return false;
	oldest = lc->ring[lc->ring_pos];	/* the slot written next holds the oldest */
	d = since(oldest, ts);
	if (d >= c->float_ns)
		return false;
	snprintf(lc->why, sizeof(lc->why), "%u edges in %.3f ms", c->float_edges, (double)d / 1e6);
	return true;
}

/* A new hit began at ts: it joins the run of hits each soon after the
 * last, and the rate of hits; lc->rate_ns says whether that rate is more
 * than a die makes (the span of the last rate_hits hits, or -1). */
static void new_hit(struct sens_linecheck *lc, int64_t ts)
{
	const struct sens_linecheck_cfg *c = &lc->cfg;
	bool first = lc->starts_n == 0;

	if (!first) {
		/* the hit just over joins the history, newest first */
		memmove(&lc->hist[1], &lc->hist[0], (HIST_MAX - 1) * sizeof(lc->hist[0]));
		lc->hist[0] = lc->hit_edges;
		if (lc->hist_n < HIST_MAX)
			lc->hist_n++;
	}
	if (first || since(lc->hit_ns, ts) > c->hit_ns * 3 / 2)
		lc->run_ns = ts;
	lc->hit_ns = ts;
	lc->hit_edges = 0;
	lc->starts[lc->starts_pos] = ts;
	lc->starts_pos = (lc->starts_pos + 1) % c->rate_hits;
	if (lc->starts_n < c->rate_hits)
		lc->starts_n++;
	lc->rate_ns = -1;
	if (lc->starts_n == c->rate_hits) {
		int64_t d = since(lc->starts[lc->starts_pos], ts);	/* the oldest kept */

		if (d < SECOND_NS)
			lc->rate_ns = d;
	}
}

/* The current hit and the chatter_hits - 1 before it each have
 * chatter_edges edges or more. */
static bool chattering(struct sens_linecheck *lc)
{
	const struct sens_linecheck_cfg *c = &lc->cfg;
	unsigned fewest = lc->hit_edges;

	if (lc->hit_edges < c->chatter_edges || lc->hist_n + 1 < c->chatter_hits)
		return false;
	for (size_t i = 0; i + 1 < c->chatter_hits; i++) {
		if (lc->hist[i] < c->chatter_edges)
			return false;
		if (lc->hist[i] < fewest)
			fewest = lc->hist[i];
	}
	snprintf(lc->why, sizeof(lc->why), "%u hits in a row of %u edges or more", c->chatter_hits,
		 fewest);
	return true;
}

enum sens_line_fault sens_linecheck_edge(struct sens_linecheck *lc, int64_t ts_ns)
{
	const struct sens_linecheck_cfg *c = &lc->cfg;
	enum sens_line_fault f = SENS_LINE_SANE;
	int64_t run;

	/* Small disorder (per-line descriptors read one after another):
	 * an edge before the latest counts as at the latest. */
	if (lc->any && ts_ns < lc->latest_ns)
		ts_ns = lc->latest_ns;
	if (!lc->any || since(lc->hit_ns, ts_ns) >= c->hit_ns)
		new_hit(lc, ts_ns);
	lc->any = true;
	lc->latest_ns = ts_ns;
	lc->hit_edges++;
	run = since(lc->run_ns, ts_ns);
	/* The gravest fault the edge shows, its figures in why. */
	if (floating(lc, ts_ns)) {
		f = SENS_LINE_FLOATING;
	} else if (run >= c->stuck_ns) {
		snprintf(lc->why, sizeof(lc->why), "firing for %.2f s", (double)run / 1e9);
		f = SENS_LINE_STUCK;
	} else if (lc->rate_ns >= 0) {
		snprintf(lc->why, sizeof(lc->why), "%u hits in %.2f s", c->rate_hits,
			 (double)lc->rate_ns / 1e9);
		f = SENS_LINE_CHATTERING;
	} else if (chattering(lc)) {
		f = SENS_LINE_CHATTERING;
	}
	if (f == SENS_LINE_SANE)
		return f;
	lc->quarantined = true;
	lc->fault = f;
	if (__builtin_add_overflow(ts_ns, c->settle_ns, &lc->until_ns))
		lc->until_ns = INT64_MAX;
	return f;
}

enum sens_line_fault sens_linecheck_fault(const struct sens_linecheck *lc, int64_t now_ns)
{
	return lc->quarantined && now_ns < lc->until_ns ? lc->fault : SENS_LINE_SANE;
}

int64_t sens_linecheck_until(const struct sens_linecheck *lc)
{
	return lc->until_ns;
}

const char *sens_linecheck_why(const struct sens_linecheck *lc)
{
	return lc->quarantined ? lc->why : "";
}

const char *sens_line_fault_name(enum sens_line_fault f)
{
	switch (f) {
	case SENS_LINE_SANE: return "sane";
	case SENS_LINE_FLOATING: return "floating";
	case SENS_LINE_STUCK: return "stuck";
	case SENS_LINE_CHATTERING: return "chattering";
	}
	return "?";
}
