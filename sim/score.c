/* Scoring a referee's rulings against the truth of the matches `dyeref sim`
 * played (`dyeref evaluate`): the truth throws, and the tally of what was
 * made of them, printed. Pure but for sim_tally_print's stream. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

#define BOUNDARY_NS 1000000000LL	/* a throw's observations end this long after its last event */

/* Calibration bins of confidence, lower edges (the last bin ends at 1). */
static const double cal_edge[SIM_CAL_BINS + 1] = { 0, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 1.0000001 };

/* One landing at confidence conf into a calibration table's bin: n
 * landings, ok of them right, sum their confidences. */
void sim_tally_cal(long n[SIM_CAL_BINS], long ok[SIM_CAL_BINS], double sum[SIM_CAL_BINS],
		   double conf, bool right)
{
	for (int b = 0; b < SIM_CAL_BINS; b++)
		if (conf >= cal_edge[b] && conf < cal_edge[b + 1]) {
			n[b]++;
			ok[b] += right;
			sum[b] += conf;
		}
}

void sim_tally_loc(struct sim_tally *ty, double d)
{
	if (ty->loc_n >= (long)ty->loc_cap) {
		size_t nc = ty->loc_cap ? ty->loc_cap * 2 : 1024;
		double *nv = realloc(ty->loc, nc * sizeof(*nv));

		if (!nv)
			return;
		ty->loc = nv;
		ty->loc_cap = nc;
	}
	ty->loc[ty->loc_n++] = d;
	ty->loc_sum += d;
}

int sim_truths(const struct mlog_bd *log, const struct mlog_bd_result *res, struct sim_truth **out,
	       size_t *n)
{
	struct sim_truth *tr = calloc(res->n ? res->n : 1, sizeof(*tr));
	struct bd_state st;
	size_t k = 0;

	if (!tr)
		return -ENOMEM;
	bd_state_init(&st, &log->cfg);
	for (size_t i = 0; i < log->n_entries; i++) {
		const struct bd_throw *t = &log->entries[i].t;
		int64_t first = INT64_MAX, dead = 0;

		if (log->entries[i].kind != MLOG_THROW)
			continue;
		tr[k].t = t;
		tr[k].before = st;
		tr[k].ruling = res->rulings[k];
		for (size_t j = 0; j < t->n_events; j++) {
			if (t->events[j].t_ns < first)
				first = t->events[j].t_ns;
			if (t->events[j].kind != BD_EV_LOW_CALL && t->events[j].t_ns > dead)
				dead = t->events[j].t_ns;
		}
		tr[k].t_first = first;
		tr[k].t_dead = dead;
		tr[k].t_end = dead + BOUNDARY_NS;
		bd_apply(&st, &log->cfg, &res->rulings[k]);
		k++;
	}
	*out = tr;
	*n = k;
	return 0;
}

struct sim_truth *sim_truth_for(struct sim_truth *tr, size_t n, int64_t t_start_ns)
{
	for (size_t k = 0; k < n; k++)
		if (t_start_ns <= tr[k].t_end && (k == 0 || t_start_ns > tr[k - 1].t_end))
			return &tr[k];
	return NULL;
}

void sim_score_events(struct sim_tally *ty, const struct sim_truth *t, const struct bd_throw *fused,
		      int64_t t_done)
{
	int tsinks = 0, fsinks = 0;

	/* The first landing's half as the piezo fix gave it, against the
	 * truth's: is a confidence c right about c of the time? */
	for (size_t i = 0; i < fused->n_events; i++) {
		const struct bd_event *e = &fused->events[i], *q = NULL;

		if (e->kind != BD_EV_TABLE)
			continue;
		for (size_t j = 0; j < t->t->n_events && !q; j++)
			if (t->t->events[j].kind == BD_EV_TABLE)
				q = &t->t->events[j];
		if (q && strstr(e->source, "piezo") && llabs(q->t_ns - e->t_ns) < 30000000)
			sim_tally_cal(ty->cal_n, ty->cal_ok, ty->cal_sum, e->confidence, e->half == q->half);
		/* Fused from both witnesses (fusion's half_posterior). */
		if (q && strchr(e->source, '+') && llabs(q->t_ns - e->t_ns) < 30000000)
			sim_tally_cal(ty->fu_cal_n, ty->fu_cal_ok, ty->fu_cal_sum, e->confidence,
				e->half == q->half);
		break;
	}
	/* Located impacts against the truth's table contacts. */
	for (size_t i = 0; i < fused->n_events; i++) {
		const struct bd_event *e = &fused->events[i];

		if (e->kind == BD_EV_TABLE && e->has_xy && strstr(e->source, "piezo")) {
			const struct bd_event *best = NULL;

			for (size_t j = 0; j < t->t->n_events; j++) {
				const struct bd_event *q = &t->t->events[j];

				if (q->kind == BD_EV_TABLE &&
				    (!best || llabs(q->t_ns - e->t_ns) < llabs(best->t_ns - e->t_ns)))
					best = q;
			}
			if (best && llabs(best->t_ns - e->t_ns) < 30000000) {
				sim_tally_loc(ty, hypot(e->x - best->x, e->y - best->y));
				ty->half_ok += e->half == best->half;
			}
		}
		if (e->kind == BD_EV_CUP && e->sink)
			fsinks++;
	}
	for (size_t j = 0; j < t->t->n_events; j++) {
		const struct bd_event *q = &t->t->events[j];

		if (q->kind == BD_EV_CUP && q->sink)
			tsinks++;
		if (q->kind == BD_EV_REST) {
			ty->rests++;
			for (size_t i = 0; i < fused->n_events; i++)
				if (fused->events[i].kind == BD_EV_REST &&
				    fused->events[i].face == q->face && fused->events[i].confidence > 0) {
					ty->faces_ok++;
					break;
				}
		}
	}
	if (fused->apex_m >= 0) {
		/* Both above the floor (fusion adds the table's height). */
		double e = fused->apex_m - t->t->apex_m;

		if (ty->apex_n >= (long)ty->apex_cap) {
			size_t nc = ty->apex_cap ? ty->apex_cap * 2 : 256;
			double *nv = realloc(ty->apex_err, nc * sizeof(*nv));

			if (nv) {
				ty->apex_err = nv;
				ty->apex_cap = nc;
			}
		}
		if (ty->apex_n < (long)ty->apex_cap) {	/* else out of memory: not counted */
			ty->apex_err[ty->apex_n++] = fabs(e);
			ty->apex_abs += fabs(e);
			ty->apex_signed += e;
			/* Whether the stated sd is what it says: a calibrated
			 * one holds 68 % of errors within 1, 95 % within 2. */
			if (fused->apex_sd_m > 0) {
				ty->apex_sd_n++;
				ty->apex_in1 += fabs(e) <= fused->apex_sd_m;
				ty->apex_in2 += fabs(e) <= 2 * fused->apex_sd_m;
				ty->apex_sd_sum += fused->apex_sd_m;
				ty->apex_sd_abs += fabs(e);
			}
		}
	}
	ty->sink_tp += tsinks && fsinks;
	ty->sink_fn += tsinks && !fsinks;
	ty->sink_fp += !tsinks && fsinks;
	if (t_done >= t->t_dead) {
		double lat = (double)(t_done - t->t_dead) * 1e-9;

		ty->lat_n++;
		ty->lat_sum += lat;
		if (lat > ty->lat_max)
			ty->lat_max = lat;
	}
}

void sim_tally_free(struct sim_tally *ty)
{
	free(ty->loc);
	free(ty->apex_err);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double pct(long a, long b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

void sim_tally_print(const struct sim_tally *ty, FILE *out)
{
	long n = ty->throws;
	double p50 = 0, p95 = 0;

	if (ty->loc_n) {
		qsort(ty->loc, (size_t)ty->loc_n, sizeof(double), cmp_double);
		p50 = ty->loc[ty->loc_n / 2];
		p95 = ty->loc[(size_t)(ty->loc_n * 95 / 100)];
	}
	fprintf(out, "throws %ld\n", n);
	fprintf(out, "exactly_right %.2f %% (%ld)\n", pct(ty->right, n), ty->right);
	fprintf(out, "review %.2f %% (%ld; provisional ruling right in %ld; unjudgeable %ld)\n",
	       pct(ty->review, n), ty->review, ty->review_right, ty->unjudgeable);
	fprintf(out, "silent_errors %.2f %% (%ld; missed throws %ld, spurious %ld)\n",
	       pct(ty->silent, n), ty->silent, ty->missed, ty->spurious);
	fprintf(out, "final_scores_right %.2f %% (%ld of %ld matches, the referee folding its own rulings)\n",
	       pct(ty->finals_right, ty->matches), ty->finals_right, ty->matches);
	fprintf(out, "localisation_mm mean %.1f median %.1f p95 %.1f (%ld impacts)\n",
	       ty->loc_n ? 1000 * ty->loc_sum / (double)ty->loc_n : 0, 1000 * p50, 1000 * p95,
	       ty->loc_n);
	fprintf(out, "half_accuracy %.2f %%\n", pct(ty->half_ok, ty->loc_n));
	fprintf(out, "half_calibration (first landings, piezo: confidence bin, landings, mean confidence, half right)\n");
	for (int b = 0; b < SIM_CAL_BINS; b++)
		fprintf(out, "   [%.3f, %.3f) %5ld  %.4f  %6.2f %%\n", cal_edge[b], fmin(cal_edge[b + 1], 1),
		       ty->cal_n[b], ty->cal_n[b] ? ty->cal_sum[b] / (double)ty->cal_n[b] : 0,
		       pct(ty->cal_ok[b], ty->cal_n[b]));
	fprintf(out, "fused_landing_calibration (first landings both piezo and camera reported: confidence bin, "
	       "landings, mean confidence, half right)\n");
	for (int b = 0; b < SIM_CAL_BINS; b++)
		if (ty->fu_cal_n[b])
			fprintf(out, "   [%.3f, %.3f) %5ld  %.4f  %6.2f %%\n", cal_edge[b], fmin(cal_edge[b + 1], 1),
			       ty->fu_cal_n[b], ty->fu_cal_sum[b] / (double)ty->fu_cal_n[b],
			       pct(ty->fu_cal_ok[b], ty->fu_cal_n[b]));
	fprintf(out, "face_accuracy %.2f %% (%ld of %ld rests)\n", pct(ty->faces_ok, ty->rests),
	       ty->faces_ok, ty->rests);
	fprintf(out, "sink_recall %.2f %% sink_precision %.2f %% (tp %ld fn %ld fp %ld)\n",
	       pct(ty->sink_tp, ty->sink_tp + ty->sink_fn), pct(ty->sink_tp, ty->sink_tp + ty->sink_fp),
	       ty->sink_tp, ty->sink_fn, ty->sink_fp);
	if (ty->apex_n) {
		qsort(ty->apex_err, (size_t)ty->apex_n, sizeof(double), cmp_double);
		fprintf(out, "apex_error_m mean_abs %.3f bias %+.3f median %.3f p95 %.3f (%ld throws with an apex, "
		       "%.1f %%; %ld frames tracked)\n",
		       ty->apex_abs / (double)ty->apex_n, ty->apex_signed / (double)ty->apex_n,
		       ty->apex_err[ty->apex_n / 2], ty->apex_err[(size_t)(ty->apex_n * 95 / 100)],
		       ty->apex_n, pct(ty->apex_n, n), ty->frames);
		if (ty->apex_sd_n)
			fprintf(out, "apex_sd_m mean %.3f mean_abs_error %.3f within_1sd %.1f %% within_2sd %.1f %% "
			       "(%ld throws with a stated sd; calibrated: 68.3 and 95.4 %%)\n",
			       ty->apex_sd_sum / (double)ty->apex_sd_n, ty->apex_sd_abs / (double)ty->apex_sd_n,
			       pct(ty->apex_in1, ty->apex_sd_n), pct(ty->apex_in2, ty->apex_sd_n), ty->apex_sd_n);
	} else
		fprintf(out, "apex_error n/a (record with dyeref sim --frames, evaluate --track-frames)\n");
	{
		double m50 = 0, m95 = 0;

		if (ty->cl_err_n) {
			qsort((double *)ty->cl_err, (size_t)ty->cl_err_n, sizeof(double), cmp_double);
			m50 = ty->cl_err[ty->cl_err_n / 2];
			m95 = ty->cl_err[(size_t)(ty->cl_err_n * 95 / 100)];
		}
		fprintf(out, "camera_landings %.2f %% of first landings (%ld of %ld) error median %.1f mm p95 %.1f mm; "
		       "%ld other landing reports\n", pct(ty->cl_found, ty->cl_truth), ty->cl_found,
		       ty->cl_truth, 1000 * m50, 1000 * m95, ty->cl_other);
		fprintf(out, "camera_landing_calibration (confidence bin, landings, mean confidence, half right)\n");
		for (int b = 0; b < SIM_CAL_BINS; b++)
			if (ty->cl_cal_n[b])
				fprintf(out, "   [%.3f, %.3f) %5ld  %.4f  %6.2f %%\n", cal_edge[b],
				       fmin(cal_edge[b + 1], 1), ty->cl_cal_n[b],
				       ty->cl_cal_sum[b] / (double)ty->cl_cal_n[b],
				       pct(ty->cl_cal_ok[b], ty->cl_cal_n[b]));
		fprintf(out, "camera_mine %ld of %ld mine contacts, %ld reports with none\n", ty->cm_tp,
		       ty->cm_truth, ty->cm_fp);
		fprintf(out, "camera_exits %ld of %ld throws that left the table, %ld in throws that did not\n",
		       ty->ce_tp, ty->ce_truth, ty->ce_fp);
	}
	fprintf(out, "latency_dead_to_ruling_s mean %.3f max %.3f (match clock)\n",
	       ty->lat_n ? ty->lat_sum / (double)ty->lat_n : 0, ty->lat_max);
	fprintf(out, "processing_ms_per_throw %.3f\n", n ? 1000 * ty->cpu_s / (double)n : 0);
}
