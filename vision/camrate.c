/*
 * vision: the frame rate the camera shim asks libcamera for, as plain C so
 * it is tested without a camera. libcamera's Raspberry Pi pipeline runs at
 * 30 frames a second unless told otherwise (its default shortest frame),
 * and the tracker times a toss by frames: ask for what the sensor mode
 * allows.
 */
#include <errno.h>

#include "vision/vision.h"

int vis_camera_frame_durations(int fps, int64_t shortest_us, int64_t longest_us, int64_t out[2])
{
	if (fps < 0 || fps > VIS_CAMERA_MAX_FPS || shortest_us < 0 || longest_us < 0 ||
	    (longest_us && shortest_us > longest_us))
		return -EINVAL;
	int64_t d = fps ? (1000000 + fps / 2) / fps : shortest_us;

	if (!d)
		return -ENOENT;	/* as fast as possible, and no limit known: leave it */
	if (shortest_us && d < shortest_us)
		d = shortest_us;
	if (longest_us && d > longest_us)
		d = longest_us;
	/* Both limits alike: a fixed rate, so exposure cannot stretch the
	 * frames in a dim bar (the tracker wants time between frames steady). */
	out[0] = d;
	out[1] = d;
	return 0;
}
