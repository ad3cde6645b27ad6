/* libFuzzer target: the Y4M reader (stream header, FRAME lines, sizes) on
 * arbitrary bytes through fmemopen; every frame it accepts is read. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vision/vision.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	struct vis_y4m *y = vis_y4m_open_stream(f, "fuzz.y4m", err, sizeof err);
	if (!y)
		return 0;
	struct vis_image *img;
	for (int n = 0; n < 64 && vis_y4m_read(y, &img, err, sizeof err) == 1; n++)
		vis_image_free(img);
	vis_y4m_close(y);
	return 0;
}
