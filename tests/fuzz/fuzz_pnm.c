/* libFuzzer target: the PGM/PPM parser on arbitrary bytes, then the dice
 * finder on whatever image it accepts (a hostile image must not crash the
 * detector either), and the table-corner finder on small ones (it once
 * overran a buffer on tiny pictures). */
#include <stddef.h>
#include <stdint.h>

#include "vision/vision.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	struct vis_image *img = NULL;
	if (vis_decode_pnm(data, size, "fuzz.pnm", &img, err, sizeof err) == 0) {
		/* Keep each run fast: the detector is linear in pixels. */
		if ((long)img->width * img->height <= 256 * 256) {
			struct vis_die dice[16];
			vis_dice_find(img, NULL, dice, 16, err, sizeof err);
		}
		if ((long)img->width * img->height <= 96 * 96) {
			double corners[4][2];
			vis_find_table_corners(img, img->width & 1, corners, err, sizeof err);
		}
		vis_image_free(img);
	}
	return 0;
}
