/* libFuzzer target: the PGM/PPM parser on arbitrary bytes, then the dice
 * finder on whatever image it accepts (a hostile image must not crash the
 * detector either), the table-corner finder on small ones (it once
 * overran a buffer on tiny pictures), and the located-die reader at a
 * point and size drawn from the image's own size (edges, tiny dice). */
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
		if ((long)img->width * img->height <= 128 * 128) {
			struct vis_die d;
			double die = 8 + (img->width * 7 + img->height) % 40;
			vis_read_die_near(img, img->width % 3 * img->width / 2.0,
					  img->height % 3 * img->height / 2.0, die, &d, err, sizeof err);
		}
		if ((long)img->width * img->height <= 96 * 96) {
			double corners[4][2];
			vis_find_table_corners(img, img->width & 1, corners, err, sizeof err);
		}
		vis_image_free(img);
	}
	return 0;
}
