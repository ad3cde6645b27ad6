/* core: the one dense linear solver, shared by sensors/ (calibration, TDOA
 * localisation) and vision/ (homographies). It lives here because core/ is
 * the one pure module both link; it knows nothing of the games. */
#include <errno.h>
#include <math.h>

#include "core/core.h"

int core_solve(double *a, double *b, double *x, size_t n, double tiny)
{
	for (size_t c = 0; c < n; c++) {
		size_t piv = c;

		for (size_t r = c + 1; r < n; r++)
			if (fabs(a[r * n + c]) > fabs(a[piv * n + c]))
				piv = r;
		if (fabs(a[piv * n + c]) < tiny)
			return -EDOM;
		if (piv != c) {
			for (size_t k = 0; k < n; k++) {
				double t = a[c * n + k];
				a[c * n + k] = a[piv * n + k];
				a[piv * n + k] = t;
			}
			double t = b[c];
			b[c] = b[piv];
			b[piv] = t;
		}
		for (size_t r = c + 1; r < n; r++) {
			double f = a[r * n + c] / a[c * n + c];

			/* No skip when f == 0: skipping would keep a -0 that
			 * this subtraction makes +0, and localisation passes
			 * b = -JTr, which can hold one. */
			for (size_t k = c; k < n; k++)
				a[r * n + k] -= f * a[c * n + k];
			b[r] -= f * b[c];
		}
	}
	/* Back substitution reads b[c] before writing x[c], and x[k] only for
	 * k > c: so x may be b. */
	for (size_t c = n; c-- > 0;) {
		double s = b[c];

		for (size_t k = c + 1; k < n; k++)
			s -= a[c * n + k] * x[k];
		x[c] = s / a[c * n + c];
	}
	return 0;
}
