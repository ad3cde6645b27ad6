/* sens_jitter: the table's timing noise measured from the fits' residuals
 * as impacts come (docs/sensors.md "The measured jitter"). */
#include <math.h>
#include <string.h>

#include "sensors/sensors.h"

void sens_jitter_init(struct sens_jitter *e, double configured_sigma_s)
{
	memset(e, 0, sizeof(*e));
	e->configured_s = configured_sigma_s;
}

void sens_jitter_add(struct sens_jitter *e, double rms_s, int n)
{
	double dof = (double)n - 4, med;

	/* x, y, start and speed take four: the rest is the jitter's alone
	 * (the speed prior's own residual is left out: it is the speed
	 * spread's, and with four discs all there is) */
	if (!(dof >= 1) || !(rms_s > 0) || !isfinite(rms_s))
		return;
	/* the median of chi-square over d degrees of freedom, per degree
	 * (Wilson-Hilferty): 0.470 for one */
	med = pow(1 - 2 / (9 * dof), 3);
	e->v[e->pos] = rms_s * rms_s * (double)n / dof / med;
	e->pos = (e->pos + 1) % SENS_JITTER_FITS;
	if (e->n < SENS_JITTER_FITS)
		e->n++;
	e->fits++;
}

double sens_jitter_sigma_s(const struct sens_jitter *e)
{
	double v[SENS_JITTER_FITS];

	if (e->n < SENS_JITTER_MIN_FITS)
		return 0;
	memcpy(v, e->v, e->n * sizeof(v[0]));
	for (size_t i = 1; i < e->n; i++)	/* insertion sort: at most 128 values */
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return sqrt(v[e->n / 2]);
}

double sens_jitter_ratio(const struct sens_jitter *e)
{
	return e->configured_s > 0 ? sens_jitter_sigma_s(e) / e->configured_s : 0;
}

bool sens_jitter_noisier(const struct sens_jitter *e)
{
	return e->n >= SENS_JITTER_FLAG_FITS && sens_jitter_ratio(e) > SENS_JITTER_FLAG_RATIO;
}
