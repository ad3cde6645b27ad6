/* libFuzzer target for face net weights files (vis_fnet_load's reader):
 * arbitrary bytes as a file. Whatever loads must be a net the forward
 * pass can run (finite weights, turns 1, 2 or 4) and must write back to
 * the same bytes; the rest is refused with a message. Any crash, leak or
 * abort is a bug. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vis_fnet *net = NULL;
	char err[512];
	FILE *f;

	if (size == 0)
		return 0;	/* fmemopen refuses an empty buffer */
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	if (vis_fnet_read_file(f, "fuzz", &net, err, sizeof(err)) != 0) {
		fclose(f);
		if (net || !err[0] || strchr(err, '\n'))
			abort();	/* refused: no net, one line */
		return 0;
	}
	fclose(f);
	if (net->turns != 1 && net->turns != 2 && net->turns != 4)
		abort();
	uint8_t crop[VIS_FNET_SIDE * VIS_FNET_SIDE * 3];
	float p[VIS_FNET_CLASSES];
	memcpy(crop, data, size < sizeof(crop) ? size : sizeof(crop));
	vis_fnet_classify(net, crop, p);
	for (int k = 0; k < VIS_FNET_CLASSES; k++)
		if (!(p[k] >= 0 && p[k] <= 1))
			abort();	/* a net that loads gives probabilities */
	vis_fnet_free(net);
	return 0;
}
