/* cam_throw PATH SEED: writes one simulated throw that lands and rests on
 * the table as the low-resolution camera would see it (Y4M, the renderer's
 * view), for tests/e2e/daemon_camera.sh. Prints the frame count. */
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"
#include "tests/support/resting_throw.h"

int main(int argc, char **argv)
{
	struct sim_noise n;
	struct bd_table tb;
	static struct sim_throw t;	/* large */
	char err[256];
	int64_t t0;
	int frames = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: cam_throw PATH SEED\n");
		return 2;
	}
	sim_noise_defaults(&n, 1);
	bd_table_defaults(&tb);
	resting_throw(strtoull(argv[2], NULL, 10), &tb, &t);
	if (sim_frames_write_y4m(argv[1], &n, &tb, &t, 5, &t0, &frames, err, sizeof(err))) {
		fprintf(stderr, "cam_throw: %s\n", err);
		return 1;
	}
	printf("%d\n", frames);
	return 0;
}
