/* Piezo localisation with faulty triggers (issue 31): impacts from a
 * generator written from the physics (tests/support/piezo_gen.h, not
 * sim/), half uniform over the top and half within 10 cm of the centre
 * line; per-impact speed sd 5 %, Pi latency 7-20 us, Gaussian jitter,
 * ringing; in 2 % of impacts one disc 0.2-1 ms late, in 2 % one disc
 * missing. Each goes through the whole pipeline, one a second, the
 * localiser told the timing sigma an installer would measure.
 *
 * Printed against the targets at 10 us with faults: median <= 1.0
 * cm, p95 <= 2.5 cm, halves right beyond 3 cm of the line >= 99.9 %, no
 * wrong half at p >= 0.99 without review; and the calibration ceilings of
 * the unit tests (errors beyond 3 sigma <= 1 %, wrong halves among those
 * given at p >= 0.99 <= 1 in 1000). For each a ratio <= 1 meets it
 * (right halves: the wrong share against the 0.1 % allowed). Rows: the
 * faults as the issue has them, every impact with a late disc, every
 * impact with a missing disc, and none; the faults on a 20 us table whose
 * config still says 10 us; then layouts of 5 and 6 discs (the diamond and
 * discs near the line, where a late or missing one does harm).
 *
 *   build/bench/sensors_faults [N]   (N impacts per row, default 20000) */
#include <stdio.h>
#include <stdlib.h>

#include "sensors/sensors.h"
#include "tests/support/piezo_gen.h"

/* Extra table discs beyond the diamond: n_extra of them at xy (x, y
 * pairs), on unused lines. */
static void add_discs(struct sens_config *c, const double *xy, size_t n_extra)
{
	for (size_t i = 0; i < n_extra && c->n_lines < SENS_MAX_LINES; i++) {
		struct sens_line_cfg *l = &c->lines[c->n_lines++];

		*l = (struct sens_line_cfg){ .role = SENS_ROLE_TABLE, .offset = 40 + (unsigned)i,
					     .x = xy[2 * i], .y = xy[2 * i + 1], .owner = -1 };
		snprintf(l->name, sizeof(l->name), "table%u", 4 + (unsigned)(i % 4));
	}
}

static const double *layout_xy;	/* extra discs of the rows that follow, or NULL */
static size_t layout_n;

/* told_us: the timing sigma the config states, 0 the one measured */
static void row(const char *what, double jitter_us, double told_us, double p_late, double p_missing,
		size_t n, uint64_t seed)
{
	struct sens_config c;
	struct pzg g;
	struct pzg_stats st;
	double *err = malloc(n * sizeof(double));

	sens_config_defaults(&c);
	add_discs(&c, layout_xy, layout_n);
	pzg_defaults(&g, seed, jitter_us * 1e-6);
	g.p_late = p_late;
	g.p_missing = p_missing;
	c.timing_sigma_s = told_us > 0 ? told_us * 1e-6 : pzg_sigma_s(&g);
	if (!err || pzg_run(&g, &c, n, err, &st) < 0) {
		fprintf(stderr, "sensors_faults: the run failed\n");
		exit(1);
	}
	double wrong_far = 1 - (double)st.far_right / (double)st.far;
	double out3 = (double)st.beyond_3sigma / (double)st.located;
	double sure_wrong = st.sure ? (double)st.sure_wrong / (double)st.sure : 0;

	printf("%-22s %2.0f us: median %.2f cm = %.2fx | p95 %.2f cm = %.2fx | right beyond 3 cm %.3f %% "
	       "(wrong %.3f %% = %.2fx) | wrong at p>=0.99: %zu (%zu not reviewed = %s) of %zu, "
	       "%.2f per 1000 = %.2fx | beyond 3 sigma %.2f %% = %.2fx | wrong not reviewed %zu\n",
	       what, jitter_us, st.median_cm, st.median_cm / 1.0, st.p95_cm, st.p95_cm / 2.5,
	       100 * (1 - wrong_far), 100 * wrong_far, wrong_far / 0.001, st.sure_wrong,
	       st.sure_wrong_silent, st.sure_wrong_silent ? "MISSED" : "met", st.sure,
	       1000 * sure_wrong, sure_wrong / 0.001, 100 * out3, out3 / 0.01, st.wrong_silent);
	free(err);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? (size_t)atol(argv[1]) : 20000;

	if (n < 100)
		n = 100;
	printf("sensors_faults: %zu impacts per row (half within 10 cm of the line), 4-disc diamond; "
	       "ratios against the targets (<= 1 meets)\n", n);
	for (int j = 10; j <= 20; j += 10) {
		row("2 % late + 2 % missing", j, 0, 0.02, 0.02, n, 31 + (uint64_t)j);
		row("a late disc always", j, 0, 1.0, 0, n / 2, 131 + (uint64_t)j);
		row("a missing disc always", j, 0, 0, 1.0, n / 2, 231 + (uint64_t)j);
		row("no fault", j, 0, 0, 0, n / 2, 331 + (uint64_t)j);
	}
	/* the installer's 10 us left in the config of a 20 us table */
	row("faults, config says 10", 20, 10, 0.02, 0.02, n, 431);

	/* More discs where a late or missing one does harm: near the line. */
	static const struct {
		const char *what;
		size_t n;
		double xy[4];
	} layouts[] = {
		{ "+2 on the axis 45 cm from the line", 2, { 0.77, 0.61, 1.67, 0.61 } },
		{ "+2 beside the line's ends", 2, { 1.07, 0.05, 1.37, 1.17 } },
		{ "+2 at the line's ends, 30 cm in", 2, { 1.22, 0.35, 1.22, 0.87 } },
		{ "+1 on the line, middle", 1, { 1.22, 0.61 } },
	};
	printf("layouts, 2 %% late + 2 %% missing, 10 us:\n");
	for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++) {
		layout_xy = layouts[k].xy;
		layout_n = layouts[k].n;
		row(layouts[k].what, 10, 0, 0.02, 0.02, n, 31 + 10);
		row("  and a late disc always", 10, 0, 1.0, 0, n / 2, 131 + 10);
		if (k == 0) {
			row("  a missing disc always", 10, 0, 0, 1.0, n / 2, 231 + 10);
			row("  faults, 20 us", 20, 0, 0.02, 0.02, n, 31 + 20);
		}
	}
	layout_xy = NULL;
	layout_n = 0;
	return 0;
}
