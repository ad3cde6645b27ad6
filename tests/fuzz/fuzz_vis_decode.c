/* libFuzzer target: PNG (libspng) and JPEG (libturbojpeg) decoding through
 * our wrappers, with their size limits, on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "vision/vision.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	struct vis_image *img = NULL;
	if (vis_decode_png(data, size, "fuzz.png", &img, err, sizeof err) == 0)
		vis_image_free(img);
	img = NULL;
	if (vis_decode_jpeg(data, size, "fuzz.jpg", &img, err, sizeof err) == 0)
		vis_image_free(img);
	return 0;
}
