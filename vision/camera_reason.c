/* vision: what the camera shim's errnos mean in a few public words, plain
 * C beside the shim so the daemon's health strip and its test need no
 * camera. */
#include <errno.h>

#include "vision/vision.h"

/* The cases of vis_camera_open's errnos (vision.h), without the id its
 * message names. */
const char *vis_camera_reason(int e)
{
	switch (e) {
	case ENODEV:
		return "not found";
	case EBUSY:
		return "in use by another program";
	case EINVAL:
		return "cannot give the configured streams";
	case EACCES:
	case EPERM:
		return "no permission";
	case ENOMEM:
		return "out of memory";
	default:
		return "could not be started";
	}
}
