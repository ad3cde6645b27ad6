/* libFuzzer target: the recorded edge parser (sensors/replay.c), then the
 * pipeline over whatever parsed, so hostile timestamps and lines reach
 * the hold-off, grouping and the solver too. */
#include <stdint.h>
#include <stdlib.h>

#include "sensors/sensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sens_pipeline *p;
	struct sens_edge *edges;
	struct sens_obs o[8];
	char err[256];
	size_t n;

	if (!p) {
		struct sens_config c;

		sens_config_defaults(&c);
		/* A button (line 40): hostile timestamps reach its debounce too. */
		c.lines[c.n_lines] = (struct sens_line_cfg){ .name = "button_low_a",
			.role = SENS_ROLE_BUTTON, .offset = 40, .call = SENS_CALL_LOW, .team = BD_TEAM_A };
		c.n_lines++;
		p = sens_pipeline_new(&c);
		if (!p)
			abort();
	}
	if (sens_edges_parse("fuzz", (const char *)data, size, &edges, &n, err, sizeof(err)) < 0) {
		if (!err[0])
			abort();	/* every failure must say why */
		return 0;
	}
	for (size_t i = 0; i < n && i < 4096; i++)
		sens_pipeline_push(p, &edges[i], o, 8);
	sens_pipeline_flush(p, INT64_MAX, o, 8);
	{
		struct sens_line_health h[SENS_MAX_LINES];

		sens_pipeline_health(p, n ? edges[n - 1].ts_ns : 0, h, SENS_MAX_LINES);
	}
	free(edges);
	return 0;
}
