/* libFuzzer target: the simulator's recorded console calls and camera
 * reports (calls.jsonl, camera.jsonl), read by `dyeref evaluate` as hostile
 * input. Both readings of every input must end in a result or a message. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_report *r = NULL;
	size_t n = 0;
	char err[256];

	for (int camera = 0; camera < 2; camera++) {
		if (sim_reports_parse("fuzz", (const char *)data, size, camera, &r, &n, err,
				      sizeof(err)) == 0) {
			for (size_t i = 0; i < n; i++)
				if (r[i].camera && r[i].cam.kind == SIM_CAM_REST && r[i].crop[0] == '\0')
					abort();	/* a rest always names its crop */
			free(r);
		} else if (r || n || !err[0]) {
			abort();	/* an error leaves nothing behind and says why */
		}
	}
	return 0;
}
