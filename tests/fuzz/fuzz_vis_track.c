/* libFuzzer target: the tracker on arbitrary frame contents (a Y4M replay
 * or the camera hands it whatever the scene shows). The first bytes pick
 * the frame size and format, the view's scale and place on the table and
 * the frame count; the rest are the frames, each its pixels and a byte of
 * time, read on cyclically. Times move forward as callers give them
 * (frame counts at a frame rate), by 0-255 ms a frame, equal times
 * included. Every observation must be finite, at most as late as its
 * frame, 0-1 sure, and turn into a core event or none (-ENOENT); every
 * track's place finite. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "vision/vision.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 6)
		return 0;
	int w = 16 + data[0] % 49, h = 16 + data[1] % 49;
	enum vis_format fmt = data[2] & 1 ? VIS_RGB24 : VIS_GRAY8;
	int frames = 2 + (data[2] >> 1) % 14;
	/* 0.5-5 mm a pixel: a 16 mm die from 32 pixels down to 3. */
	double s = 0.0005 + data[3] / 255.0 * 0.0045;
	struct bd_table tb;
	bd_table_defaults(&tb);
	double ox = data[4] / 255.0 * tb.length_m, oy = data[5] / 255.0 * tb.width_m;
	const double hm[9] = { s, 0, ox, 0, s, oy, 0, 0, 1 };
	const uint8_t *px = data + 6;
	size_t npx = size - 6, at = 0;
	if (npx == 0)
		return 0;
	struct vis_tracker_cfg cfg;
	vis_tracker_cfg_default(&cfg, &tb, hm);
	struct vis_tracker *t = vis_tracker_new(&cfg, w, h);
	if (!t)
		return 0;
	struct vis_image *img = vis_image_new(w, h, fmt);
	if (!img)
		goto free_tracker;
	int64_t ts = 1000000000;
	for (int k = 0; k < frames; k++) {
		for (int y = 0; y < h; y++) {
			uint8_t *row = img->data + (size_t)y * img->stride;
			for (int x = 0; x < w * (int)fmt; x++) {
				row[x] = px[at];
				at = (at + 1) % npx;
			}
		}
		ts += (int64_t)px[at] * 1000000;
		at = (at + 1) % npx;
		img->ts_ns = ts;
		if (k == 0)
			vis_tracker_learn(t, img);
		struct vis_obs obs[8];
		int n = vis_tracker_feed(t, img, obs, 8);
		if (n < 0)
			__builtin_trap();	/* the frame is the tracker's size and format */
		for (int i = 0; i < n && i < 8; i++) {
			/* What the referee would act on must be a place and a
			 * time it can use, whatever the pixels were. */
			const struct vis_obs *o = &obs[i];
			if (!isfinite(o->x) || !isfinite(o->y) || !isfinite(o->confidence) ||
			    o->confidence < 0 || o->confidence > 1 || o->t_ns > ts)
				__builtin_trap();
			if (o->kind == VIS_OBS_LANDING && !(o->apex_m == -1 || (isfinite(o->apex_m) && o->apex_m >= 0)))
				__builtin_trap();
			struct bd_event ev;
			int r = vis_obs_to_event(o, &tb, &ev);
			if (r != 0 && r != -ENOENT)
				__builtin_trap();
		}
		enum vis_track_state st[4];
		double xy[4][2];
		int nt = vis_tracker_tracks(t, st, xy, 4);
		for (int i = 0; i < nt && i < 4; i++)
			if (!isfinite(xy[i][0]) || !isfinite(xy[i][1]))
				__builtin_trap();
	}
	vis_image_free(img);
free_tracker:
	vis_tracker_free(t);
	return 0;
}
