/* sim_frames: the low-resolution camera stream of a simulated throw,
 * rendered by vision's renderer and written as Y4M. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"

struct vis_image *sim_render_frame(const struct sim_noise *n, const struct bd_table *tb,
				   const struct sim_throw *t, int64_t t_ns, uint64_t seed)
{
	struct vis_render_scene s;
	struct vis_image *img = NULL;
	double p[3], v[3];
	bool hidden = true;
	char err[128];
	int rc;

	vis_render_scene_default(&s);
	s.table = *tb;
	s.noise_sigma = 2 * n->image_noise / 6;
	s.seed = seed;
	if (sim_throw_state_at(t, t_ns, p, v, &hidden) && !hidden) {
		double z = p[2] - tb->height_m - 0.008;

		s.n_dice = 1;
		s.dice[0] = (struct vis_render_die){
			.x = p[0], .y = p[1], .z = z > 0 ? z : 0,
			/* In the air it tumbles; at rest it shows its face. */
			.angle = fmod(1.7 * (double)(t_ns - t->t_release_ns) * 1e-9, 2 * M_PI),
			.face = t->rests_on_table && t_ns >= t->t_dead_ns ? t->rest_face :
				1 + (int)(((t_ns - t->t_release_ns) / 50000000) % 6),
			.vx = v[0], .vy = v[1],
			.body = { 240, 238, 232 }, .pip = { 25, 25, 25 },
		};
		if (z < -0.5 || z > s.camera_height_m - 0.2)
			s.n_dice = 0;	/* on the floor, or above the camera: out of view */
	}
	rc = vis_render(&s, &img, err, sizeof(err));
	if (rc < 0) {
		errno = -rc;
		return NULL;
	}
	return img;
}

int sim_frames_write_y4m(const char *path, const struct sim_noise *n, const struct bd_table *tb,
			 const struct sim_throw *t, uint64_t seed, int64_t *t0_ns, int *frames,
			 char *err, size_t errlen)
{
	const int64_t step = 1000000000LL / SIM_FRAME_FPS;
	/* A second of the empty table before the release: the tracker learns
	 * it, and a stream looped (tests, the demo) does not show a release
	 * within a second of the last die's rest, which the daemon's camera
	 * glue takes for that die found again. */
	int64_t t0 = t->t_release_ns - 1000000000LL, t1 = t->t_dead_ns + 500000000LL;
	char *buf = NULL, head[96];
	size_t len = 0, cap = 0;
	int k = 0, rc = 0;

	for (int64_t at = t0; at <= t1; at += step, k++) {
		struct vis_image *img = sim_render_frame(n, tb, t, at, seed + (uint64_t)k), *g;
		size_t hl, need;

		if (!img)
			goto oom;
		g = vis_image_to_gray(img);
		vis_image_free(img);
		if (!g)
			goto oom;
		if (k == 0)
			hl = (size_t)snprintf(head, sizeof(head), "YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 Cmono\n",
					      g->width, g->height, SIM_FRAME_FPS);
		else
			hl = 0;
		need = len + hl + 6 + (size_t)g->width * g->height;
		if (need > cap) {
			size_t nc = need * 2;
			char *nb = realloc(buf, nc);

			if (!nb) {
				vis_image_free(g);
				goto oom;
			}
			buf = nb;
			cap = nc;
		}
		memcpy(buf + len, head, hl);
		len += hl;
		memcpy(buf + len, "FRAME\n", 6);
		len += 6;
		for (int y = 0; y < g->height; y++) {
			memcpy(buf + len, g->data + (size_t)y * g->stride, (size_t)g->width);
			len += (size_t)g->width;
		}
		vis_image_free(g);
	}
	rc = sim_write_file(path, buf, len, err, errlen);
	free(buf);
	if (rc == 0) {
		*t0_ns = t0;
		*frames = k;
	}
	return rc;
oom:
	free(buf);
	snprintf(err, errlen, "%s: out of memory rendering frames", path);
	return -ENOMEM;
}
