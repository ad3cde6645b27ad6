/* Whether a ruling cites a rule (cites.h). */
#include <string.h>

#include "tests/support/cites.h"

bool test_cites(const char *const *why, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(why[i], id))
			return true;
	return false;
}
