/* The simulated camera's reports (sim_sense_camera: the model `dyeref
 * evaluate` runs on without frames) against vision's tracker on rendered
 * frames of the same throws: the throws of a seed's matches that touch the
 * mine, and those whose first landing is within 3 cm of the centre line's
 * edges (the landings the piezo fix doubts), rendered at 640 x 360 and 30 fps
 * as `dyeref sim --frames` renders them (sim_render_frame, grey), tracked as
 * `dyeref evaluate --track-frames` tracks them. Prints, for the tracker and
 * for the model: first landings found, their error and half, mine contacts
 * found (with the contact's speed), false mine reports, exits; and the
 * model's figure over the tracker's as a ratio.
 *   build/bench/sim_camera   (env MATCHES 112, SEED 2026, NEAR 40: near-line throws tracked) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "sim/sim.h"

#define MAX_OBS 64

struct count {
	long land_n, land_found;	/* first top landings; reported within 100 ms */
	double land_err[512];		/* their errors, metres */
	long land_half_ok, land_sure, land_sure_ok;	/* half right; event confidence >= 0.8, and right then */
	long mine_n, mine_found, mine_false;	/* mine contacts; reported within 150 ms; reports with none */
	long exit_n, exit_found, exit_false;	/* throws that left the table; with an exit; exits in others */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The tracker's observations of throw t, as `dyeref evaluate --track-frames`
 * gets them from `dyeref sim --frames`. Returns how many, or -1. */
static int track(const struct sim_noise *n, const struct bd_table *tb, const struct sim_throw *t,
		 uint64_t seed, const struct vis_tracker_cfg *tc, struct vis_obs *obs)
{
	const int64_t step = 1000000000LL / SIM_FRAME_FPS;
	struct vis_tracker *trk = vis_tracker_new(tc, 640, 360);
	int k = 0, got = 0;

	if (!trk)
		return -1;
	for (int64_t at = t->t_release_ns - 1000000000LL; at <= t->t_dead_ns + 500000000LL; at += step, k++) {
		struct vis_image *img = sim_render_frame(n, tb, t, at, seed + (uint64_t)k), *g;
		int r;

		if (!img)
			break;
		g = vis_image_to_gray(img);
		vis_image_free(img);
		if (!g)
			break;
		g->ts_ns = at;
		if (k < 3)
			vis_tracker_learn(trk, g);
		r = vis_tracker_feed(trk, g, obs + got, MAX_OBS - got);
		vis_image_free(g);
		if (r > 0)
			got += r < MAX_OBS - got ? r : MAX_OBS - got;
	}
	vis_tracker_free(trk);
	return got;
}

/* The model's reports as the tracker's kinds (landing, mine, exit). */
static int model(const struct sim_noise *n, const struct sim_throw *t, struct vis_obs *obs)
{
	struct sim_cam cams[8];
	struct sim_rng dummy;
	int got = 0;
	size_t nk;

	sim_rng_seed(&dummy, 1);
	nk = sim_sense_camera(n, t, &dummy, cams, 8);
	for (size_t i = 0; i < nk; i++) {
		struct vis_obs *o = &obs[got];

		memset(o, 0, sizeof(*o));
		o->t_ns = cams[i].t_ns;
		o->x = cams[i].x;
		o->y = cams[i].y;
		o->confidence = cams[i].confidence;
		if (cams[i].kind == SIM_CAM_LANDING) {
			o->kind = VIS_OBS_LANDING;
			o->xy_sigma_m = VIS_LANDING_XY_SD_M;
		} else if (cams[i].kind == SIM_CAM_MINE) {
			o->kind = VIS_OBS_MINE;
		} else if (cams[i].kind == SIM_CAM_EXIT) {
			o->kind = VIS_OBS_OFF_TABLE;
		} else {
			continue;
		}
		got++;
	}
	return got;
}

static void score(const struct bd_table *tb, const struct sim_throw *t, const struct vis_obs *obs,
		  int n, struct count *c, bool verbose, const char *who)
{
	const struct sim_contact *first = NULL, *end = NULL;
	bool exit = false;

	for (size_t i = 0; i < t->n_contacts; i++) {
		const struct sim_contact *k = &t->contacts[i];

		if (k->kind == SIM_CONTACT_TABLE && !first)
			first = k;
		if ((k->kind == SIM_CONTACT_FLOOR || k->kind == SIM_CONTACT_CATCH) && !end)
			end = k;
		if (k->kind == SIM_CONTACT_MINE) {
			bool found = false;

			c->mine_n++;
			for (int j = 0; j < n && !found; j++)
				found = obs[j].kind == VIS_OBS_MINE && llabs(obs[j].t_ns - k->t_ns) < 150000000LL;
			c->mine_found += found;
			if (verbose)
				printf("   %s: mine contact at %.2f m/s %s\n", who, k->strength,
				       found ? "reported" : "not reported");
		}
	}
	for (int j = 0; j < n; j++) {
		bool real = false;

		if (obs[j].kind == VIS_OBS_OFF_TABLE)
			exit = true;
		if (obs[j].kind != VIS_OBS_MINE)
			continue;
		for (size_t i = 0; i < t->n_contacts && !real; i++)
			real = t->contacts[i].kind == SIM_CONTACT_MINE &&
			       llabs(obs[j].t_ns - t->contacts[i].t_ns) < 150000000LL;
		c->mine_false += !real;
	}
	if (first && first->z >= tb->height_m) {
		c->land_n++;
		for (int j = 0; j < n; j++) {
			struct bd_event ev;

			if (obs[j].kind != VIS_OBS_LANDING || llabs(obs[j].t_ns - first->t_ns) >= 100000000LL)
				continue;
			vis_obs_to_event(&obs[j], tb, &ev);
			if (c->land_found < 512)
				c->land_err[c->land_found] = hypot(obs[j].x - first->x, obs[j].y - first->y);
			c->land_found++;
			c->land_half_ok += ev.half == bd_table_half(tb, first->x);
			if (ev.confidence >= 0.8) {
				c->land_sure++;
				c->land_sure_ok += ev.half == bd_table_half(tb, first->x);
			}
			break;
		}
	}
	if (end) {
		c->exit_n++;
		c->exit_found += exit;
	} else {
		c->exit_false += exit;
	}
}

static void print(const char *who, struct count *c)
{
	long nf = c->land_found < 512 ? c->land_found : 512;
	double p50 = 0, p95 = 0;

	qsort(c->land_err, (size_t)nf, sizeof(double), cmp_double);
	if (nf) {
		p50 = c->land_err[nf / 2];
		p95 = c->land_err[nf * 95 / 100];
	}
	printf("%s: first landings reported %ld of %ld (error median %.1f mm, p95 %.1f mm; half right %ld, "
	       "at >= 0.8 %ld of %ld); mine contacts %ld of %ld, false %ld; exits %ld of %ld, in other throws %ld\n",
	       who, c->land_found, c->land_n, 1000 * p50, 1000 * p95, c->land_half_ok, c->land_sure_ok,
	       c->land_sure, c->mine_found, c->mine_n, c->mine_false, c->exit_found, c->exit_n,
	       c->exit_false);
}

int main(void)
{
	const char *e;
	long matches = (e = getenv("MATCHES")) ? atol(e) : 112, near_max = (e = getenv("NEAR")) ? atol(e) : 40;
	unsigned long long seed = (e = getenv("SEED")) ? strtoull(e, NULL, 10) : 2026;
	struct sim_match_cfg mc;
	struct sim_noise noise;
	struct sens_config sc;
	struct vis_render_scene view;
	struct vis_tracker_cfg tc;
	struct sim_rng rng;
	double img_to_table[9], t0 = bench_now();
	static struct count tr, md;
	static struct vis_obs obs[MAX_OBS];
	long near = 0, tracked = 0;
	char err[256];

	sim_match_cfg_defaults(&mc);
	sim_noise_defaults(&noise, 1);
	sim_sens_config(&sc);
	vis_render_scene_default(&view);
	if (vis_homography_invert(view.h, img_to_table) < 0)
		return 1;
	vis_tracker_cfg_default(&tc, &sc.table, img_to_table);
	sim_rng_seed(&rng, seed);
	for (long m = 0; m < matches; m++) {
		struct sim_match *sm = NULL;

		if (sim_match_play(&mc, &sc.table, 1000000000LL, &rng, &sm, err, sizeof(err)) < 0) {
			fprintf(stderr, "sim_camera: %s\n", err);
			return 1;
		}
		for (size_t i = 0; i < sm->n_throws; i++) {
			const struct sim_throw *t = &sm->throws[i];
			const struct bd_table *tb = &sc.table;
			bool mine = false, by_line = false, first = true;
			int n;

			for (size_t j = 0; j < t->n_contacts; j++) {
				const struct sim_contact *k = &t->contacts[j];

				mine |= k->kind == SIM_CONTACT_MINE;
				if (k->kind == SIM_CONTACT_TABLE && first) {
					first = false;
					by_line = k->z >= tb->height_m &&
						  fabs(k->x - tb->length_m / 2) < tb->line_width_m / 2 + 0.03;
				}
			}
			if (!mine && !(by_line && near < near_max))
				continue;
			near += !mine;
			n = track(&noise, tb, t, (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ULL, &tc, obs);
			if (n < 0) {
				fprintf(stderr, "sim_camera: out of memory\n");
				return 1;
			}
			tracked++;
			printf("match %ld throw %zu%s\n", m + 1, i + 1, mine ? " (mine)" : " (by the line)");
			score(tb, t, obs, n, &tr, mine, "tracker");
			n = model(&noise, t, obs);
			score(tb, t, obs, n, &md, mine, "model");
		}
		sim_match_free(sm);
	}
	printf("%ld throws tracked (seed %llu, %ld matches, default noise) in %.0f s\n", tracked, seed,
	       matches, bench_now() - t0);
	print("tracker", &tr);
	print("model  ", &md);
	printf("model / tracker: first landings reported %.2f, mine contacts reported %.2f, exits reported %.2f\n",
	       tr.land_found ? (double)md.land_found / tr.land_found : 0,
	       tr.mine_found ? (double)md.mine_found / tr.mine_found : 0,
	       tr.exit_found ? (double)md.exit_found / tr.exit_found : 0);
	return 0;
}
