/* cam_throw PATH SEED: writes one simulated throw that lands and rests on
 * the table as the low-resolution camera would see it (Y4M, the renderer's
 * view), for tests/e2e/daemon_camera.sh. Prints the frame count. */
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"

int main(int argc, char **argv)
{
	struct sim_throw_cfg c;
	struct sim_noise n;
	struct bd_table tb;
	struct sim_rng r;
	static struct sim_throw t;	/* large */
	char err[256];
	int64_t t0;
	int frames = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: cam_throw PATH SEED\n");
		return 2;
	}
	sim_throw_cfg_defaults(&c);
	sim_noise_defaults(&n, 1);
	bd_table_defaults(&tb);
	sim_rng_seed(&r, strtoull(argv[2], NULL, 10));
	do
		sim_throw_play(&c, &tb, 0, 0, &r, &t);
	while (!t.rests_on_table);
	if (sim_frames_write_y4m(argv[1], &n, &tb, &t, 5, &t0, &frames, err, sizeof(err))) {
		fprintf(stderr, "cam_throw: %s\n", err);
		return 1;
	}
	printf("%d\n", frames);
	return 0;
}
