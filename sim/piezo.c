/* sim_piezo: arrival times of piezo edges from a point impact. */
#include <math.h>
#include <string.h>

#include "sim/sim.h"

void sim_piezo_defaults(struct sim_piezo *m)
{
	memset(m, 0, sizeof(*m));
	m->jitter_s = 10e-6;
	m->latency_min_s = 7e-6;
	m->latency_max_s = 20e-6;
	m->speed_spread = 0.05;
	m->ring_period_s = 0.8e-3;
	m->late_min_s = 0.2e-3;
	m->late_max_s = 1e-3;
	/* A die striking a cup (a few hundred grams with its beer) hands its
	 * momentum to the top through the cup's base, spread over the
	 * cup's rocking rather than a die corner's tens of microseconds: a
	 * weaker, slower pulse than the same die landing on the board. A
	 * hit from above on the rim presses the base down and trips the
	 * discs; a glancing one slides the cup and may not. Unmeasured:
	 * half and half is a guess. */
	m->p_shake = 0.5;
}

static void put(struct sens_edge *out, size_t cap, size_t *n, unsigned line, int64_t ts)
{
	if (*n < cap) {
		out[*n].line = line;
		out[*n].ts_ns = ts;
	}
	(*n)++;
}

/* One real edge on a channel and its ringing. */
static void fire(const struct sim_piezo *m, struct sim_rng *rng, unsigned line, double t_s,
		 int64_t base_ns, struct sens_edge *out, size_t cap, size_t *n)
{
	double lat = m->latency_min_s + (m->latency_max_s - m->latency_min_s) * sim_rng_uniform(rng);
	double ts = t_s + lat + m->jitter_s * sim_rng_normal(rng);
	int rings = m->ring_max > 0 ? (int)(sim_rng_next(rng) % (uint64_t)(m->ring_max + 1)) : 0;

	put(out, cap, n, line, base_ns + (int64_t)llround(ts * 1e9));
	for (int k = 1; k <= rings; k++) {
		double tr = ts + k * m->ring_period_s * (0.8 + 0.4 * sim_rng_uniform(rng));
		put(out, cap, n, line, base_ns + (int64_t)llround(tr * 1e9));
	}
}

size_t sim_piezo_table_hit(const struct sim_piezo *m, const struct sens_config *truth,
			   struct sim_rng *rng, double x, double y, int64_t t0_ns,
			   struct sens_edge *out, size_t cap)
{
	/* Dispersion: this impact's speed, log-normal around the nominal. */
	double v = truth->wave_speed_mps * exp(m->speed_spread * sim_rng_normal(rng));
	int64_t window = sens_config_group_window_ns(truth);
	size_t n = 0;

	for (size_t i = 0; i < truth->n_lines; i++) {
		const struct sens_line_cfg *l = &truth->lines[i];

		if (l->role != SENS_ROLE_TABLE)
			continue;
		if (m->p_false > 0 && sim_rng_uniform(rng) < m->p_false)
			put(out, cap, &n, l->offset,
			    t0_ns + (int64_t)(sim_rng_uniform(rng) * (double)window));
		if ((m->dead >> i) & 1u)
			continue;
		if (m->p_miss > 0 && sim_rng_uniform(rng) < m->p_miss)
			continue;
		double t = hypot(x - l->x, y - l->y) / v + l->delay_s;
		/* drawn only when asked for: the default's figures stay */
		if (m->p_late > 0 && sim_rng_uniform(rng) < m->p_late)
			t += m->late_min_s + (m->late_max_s - m->late_min_s) * sim_rng_uniform(rng);
		fire(m, rng, l->offset, t, t0_ns, out, cap, &n);
	}
	sens_edges_sort(out, n < cap ? n : cap);
	return n;
}

size_t sim_piezo_line_hit(const struct sim_piezo *m, const struct sens_config *truth,
			  struct sim_rng *rng, size_t line, int64_t t_ns,
			  struct sens_edge *out, size_t cap)
{
	size_t n = 0;

	if (line >= truth->n_lines || ((m->dead >> line) & 1u))
		return 0;
	fire(m, rng, truth->lines[line].offset, 0, t_ns, out, cap, &n);
	sens_edges_sort(out, n < cap ? n : cap);
	return n;
}

size_t sim_piezo_shake(const struct sim_piezo *m, const struct sens_config *truth,
		       struct sim_rng *rng, size_t line, int64_t t_ns,
		       struct sens_edge *out, size_t cap)
{
	const struct bd_table *t = &truth->table;
	const struct sens_line_cfg *l = line < truth->n_lines ? &truth->lines[line] : NULL;
	double x, y;
	int i = -1;	/* under nothing that stands on the table: no shake */

	/* (An owner past the cups must not reach the mine's index.) */
	if (l && l->role == SENS_ROLE_CUP && l->owner < BD_PLAYERS)
		i = l->owner;
	else if (l && l->role == SENS_ROLE_MINE)
		i = BD_TABLE_MINE;
	if (bd_table_spot(t, i, &x, &y, NULL) < 0)
		return 0;
	if (!(sim_rng_uniform(rng) < m->p_shake))
		return 0;
	return sim_piezo_table_hit(m, truth, rng, x, y, t_ns, out, cap);
}
