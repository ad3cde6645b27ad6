/* dd_version: the version this binary was built as. */
#include "daemon/daemon.h"

/* daemon/module.mk passes it from the VERSION file, the one place it is
 * written (a tarball has no git to ask). */
#ifndef DYEREF_VERSION
#error "DYEREF_VERSION comes from daemon/module.mk (the VERSION file)"
#endif

const char *dd_version(void)
{
	return DYEREF_VERSION;
}
