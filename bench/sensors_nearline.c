/* Calibration of the piezo fix's P(half) near the centre line, where the
 * half is in doubt: among impacts given confidence c, about c should be on
 * the half called.
 *
 * Impacts uniform within 12 cm of the line (and over the table's width),
 * one a second, through the whole pipeline (hold-off, grouping, the fix or
 * the two-sensor half) with the simulator's piezo noise (sim_noise_defaults:
 * jitter, speed spread, 1 % misses, 0.5 % false edges, ringing), at default
 * noise and doubled; the referee's config stays at its defaults (10 us,
 * 5 %), as an installer's would, and the pipeline learns the noise from its
 * fits. An impact with no table observation is counted apart.
 *
 * Printed against what the confidences promise: the wrong halves among the
 * calls at 0.8 or more (those the ruling takes without review) as a ratio of
 * the sum of (1 - confidence) over them, the number a calibrated P(half)
 * would get wrong; a ratio above 1 is overconfidence.
 *
 * Then two impacts in one grouping window (two dice at once, a slap on the
 * table as the die lands): N / 10 pairs anywhere on the top, at least 30 cm
 * apart and 0-2 ms apart, each after nine single impacts (so the pipeline's
 * measure of the noise stays the table's), at default noise. Each disc
 * hears the nearer first, and the fix may be a point where neither landed:
 * counted when given at 0.8 or more more than 5 cm from both, against the
 * made-up points the "fits no one point" test caught (fix.no_point).
 *
 *   build/bench/sensors_nearline [N]   (N impacts per noise level, default 20000) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "sensors/sensors.h"
#include "sim/sim.h"

#define BAND_M 0.12	/* impacts within this of the line's centre */
#define REVIEW_BELOW 0.8	/* bd_house_defaults' review_below */
#define N_BINS 7

static const double bin_lo[N_BINS] = { 0, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999 };

struct tally {
	size_t n, no_obs, reviewed, sure, sure_wrong;	/* impacts; sure: confidence >= 0.8 */
	double sure_promised;	/* sum of 1 - confidence over the sure ones */
	size_t bin_n[N_BINS], bin_right[N_BINS];	/* per confidence bin */
	double bin_conf[N_BINS];	/* sum of confidence per bin */
	double cpu_s;		/* pipeline time */
};

static void run(double k, size_t N, uint64_t seed, struct tally *ty)
{
	struct sens_config cfg;
	struct sim_noise noise;
	struct sim_rng rng;
	struct sens_pipeline *p;
	double mid;

	sens_config_defaults(&cfg);
	sim_noise_defaults(&noise, k);
	sim_rng_seed(&rng, seed);
	p = sens_pipeline_new(&cfg);
	if (!p) {
		perror("sensors_nearline");
		exit(1);
	}
	mid = cfg.table.length_m / 2;
	for (size_t i = 0; i < N; i++) {
		struct sens_edge e[32];
		struct sens_obs o[8];
		size_t ne, no = 0;
		double x = mid + BAND_M * (2 * sim_rng_uniform(&rng) - 1);
		double y = sim_rng_uniform(&rng) * cfg.table.width_m;
		int64_t t0 = (int64_t)(i + 1) * 1000000000LL;
		const struct sens_obs *tb = NULL;

		ne = sim_piezo_table_hit(&noise.piezo, &cfg, &rng, x, y, t0, e, 32);
		if (ne > 32)
			ne = 32;
		double t1 = bench_now();
		for (size_t j = 0; j < ne; j++)
			no += sens_pipeline_push(p, &e[j], o + no, 8 - no);
		no += sens_pipeline_flush(p, t0 + 500000000LL, o + no, 8 - no);
		ty->cpu_s += bench_now() - t1;
		ty->n++;
		for (size_t j = 0; j < no && !tb; j++)
			if (o[j].kind == SENS_OBS_IMPACT && o[j].ev.kind == BD_EV_TABLE)
				tb = &o[j];
		if (!tb) {
			ty->no_obs++;
			continue;
		}
		double c = tb->ev.confidence;
		bool right = tb->ev.half == bd_table_half(&cfg.table, x);
		int b = N_BINS - 1;

		while (b > 0 && c < bin_lo[b])
			b--;
		ty->bin_n[b]++;
		ty->bin_right[b] += right;
		ty->bin_conf[b] += c;
		if (c < REVIEW_BELOW) {
			ty->reviewed++;
		} else {
			ty->sure++;
			ty->sure_wrong += !right;
			ty->sure_promised += 1 - c;
		}
	}
	sens_pipeline_free(p);
}

/* The first located table observation of edges e[0..n) pushed and flushed
 * at t_end into p, copied to *out; false when there is none. */
static bool locate(struct sens_pipeline *p, struct sens_edge *e, size_t n, int64_t t_end,
		   struct sens_obs *out)
{
	struct sens_obs o[16];
	size_t no = 0;

	sens_edges_sort(e, n);
	for (size_t j = 0; j < n; j++)
		no += sens_pipeline_push(p, &e[j], o + no, 16 - no);
	no += sens_pipeline_flush(p, t_end, o + no, 16 - no);
	for (size_t j = 0; j < no; j++)
		if (o[j].kind == SENS_OBS_IMPACT && o[j].ev.kind == BD_EV_TABLE && o[j].has_fix) {
			*out = o[j];
			return true;
		}
	return false;
}

struct pairs {
	size_t n, located, made_up_sure, caught;	/* caught: no_point, away from both */
};

static void run_pairs(size_t N, uint64_t seed, struct pairs *pr)
{
	struct sens_config cfg;
	struct sim_noise noise;
	struct sim_rng rng;
	struct sens_pipeline *p;
	int64_t t = 0;

	sens_config_defaults(&cfg);
	sim_noise_defaults(&noise, 1);
	sim_rng_seed(&rng, seed);
	p = sens_pipeline_new(&cfg);
	if (!p) {
		perror("sensors_nearline");
		exit(1);
	}
	for (size_t i = 0; i < N; i++) {
		struct sens_edge e[64];
		struct sens_obs ob;
		double xy[4];
		size_t ne;

		for (int k = 0; k < 9; k++) {	/* the table as it is between pairs */
			t += 1000000000LL;
			ne = sim_piezo_table_hit(&noise.piezo, &cfg, &rng,
						 sim_rng_uniform(&rng) * cfg.table.length_m,
						 sim_rng_uniform(&rng) * cfg.table.width_m, t, e, 32);
			locate(p, e, ne > 32 ? 32 : ne, t + 500000000LL, &ob);
		}
		do {
			for (int k = 0; k < 4; k++)
				xy[k] = sim_rng_uniform(&rng) * (k % 2 ? cfg.table.width_m : cfg.table.length_m);
		} while (hypot(xy[0] - xy[2], xy[1] - xy[3]) < 0.3);
		t += 1000000000LL;
		ne = sim_piezo_table_hit(&noise.piezo, &cfg, &rng, xy[0], xy[1], t, e, 32);
		if (ne > 32)
			ne = 32;
		ne += sim_piezo_table_hit(&noise.piezo, &cfg, &rng, xy[2], xy[3],
					  t + (int64_t)(sim_rng_uniform(&rng) * 2e6), e + ne, 32);
		if (ne > 64)
			ne = 64;
		pr->n++;
		if (!locate(p, e, ne, t + 500000000LL, &ob))
			continue;
		pr->located++;
		if (hypot(ob.fix.x - xy[0], ob.fix.y - xy[1]) <= 0.05 ||
		    hypot(ob.fix.x - xy[2], ob.fix.y - xy[3]) <= 0.05)
			continue;
		pr->made_up_sure += ob.ev.confidence >= REVIEW_BELOW;
		pr->caught += ob.fix.no_point;
	}
	sens_pipeline_free(p);
}

int main(int argc, char **argv)
{
	struct pairs pr = { 0 };
	size_t N = argc > 1 ? (size_t)atol(argv[1]) : 20000;

	if (N < 100)
		N = 100;
	printf("sensors_nearline: %zu impacts per noise level within %.0f cm of the centre line; "
	       "the simulator's piezo noise (misses, false edges, ringing), the config at its "
	       "defaults\n", N, BAND_M * 100);
	for (int k = 1; k <= 2; k++) {
		struct tally ty = { 0 };

		run(k, N, 2026 + (uint64_t)k, &ty);
		printf("noise x%d: reviewed (P(half) < %.1f) %.2f %% | wrong half at >= %.1f: %.3f %% "
		       "(%zu of %zu) = %.2fx the %.1f the confidences promise | no table event "
		       "%.2f %% | %.0f us per impact\n", k, REVIEW_BELOW,
		       100.0 * (double)ty.reviewed / (double)ty.n, REVIEW_BELOW,
		       ty.sure ? 100.0 * (double)ty.sure_wrong / (double)ty.sure : 0, ty.sure_wrong,
		       ty.sure, ty.sure_promised > 0 ? (double)ty.sure_wrong / ty.sure_promised : 0,
		       ty.sure_promised, 100.0 * (double)ty.no_obs / (double)ty.n,
		       ty.cpu_s / (double)ty.n * 1e6);
		for (int b = 0; b < N_BINS; b++) {
			if (!ty.bin_n[b])
				continue;
			printf("   [%.3f, %.3f)  %6zu  mean %.4f  half right %7.3f %%\n", bin_lo[b],
			       b + 1 < N_BINS ? bin_lo[b + 1] : 1.0, ty.bin_n[b],
			       ty.bin_conf[b] / (double)ty.bin_n[b],
			       100.0 * (double)ty.bin_right[b] / (double)ty.bin_n[b]);
		}
	}
	run_pairs(N / 10, 2031, &pr);
	printf("two impacts 0-2 ms apart, default noise: %zu pairs, %zu located | a made-up point "
	       "(> 5 cm from both) at >= %.1f: %zu (%.1f %% of pairs) | made-up points the no-one-point "
	       "test sent to review: %zu = %.2fx those still given sure\n", pr.n, pr.located,
	       REVIEW_BELOW, pr.made_up_sure, 100.0 * (double)pr.made_up_sure / (double)pr.n,
	       pr.caught, pr.made_up_sure ? (double)pr.caught / (double)pr.made_up_sure : 0);
	return 0;
}
