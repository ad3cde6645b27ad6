/* Training crops for the face net (vision/face_net.c), cut the way the
 * reader cuts them (vis_fnet_crop):
 *   build/tools/face_crops PHOTO_DIR OUT_DIR [--set DIR[:WITHIN]]... [--faces DIR]...
 *                          [--seed N] [--per-die N] [--rendered N] [--all-photos]
 * Writes OUT_DIR/train.bin and OUT_DIR/eval.bin, records of
 *   uint8 class (0 no die centred, 1-6 face; reject kinds, which the net
 *     learns as 0: 7 a side face or part of a die off centre, 8 two dice,
 *     9 a find of the reader's where no die is labelled: not a d6 top face),
 *   uint8 split (PHOTO_DIR: 0 train, 1 held out; 2 rendered images; 3
 *     synth_dice.py's; the K-th --set or --faces DIR: 4 + 2(K-1) train,
 *     5 + 2(K-1) held out),
 *   uint16 photo index (LE, counted over every set in order),
 *   VIS_FNET_SIDE^2 RGB bytes,
 * and OUT_DIR/eval.txt, a line per eval record: photo, x, y, side, the
 * pip reader's face and confidence, the labelled face (0: none).
 * A set's held-out photos are listed in its heldout.txt; without one,
 * PHOTO_DIR's are those not of 2019-12-08 and a --set's or --faces' none.
 * A find counts for a labelled die inside its box, or with :WITHIN within
 * that share of its width from its centre (the white dice: 0.75).
 * --faces DIR: labelled crops exported by `dyeref faces export` (labels.json
 * in the shared format beside its images), all trained on.
 * train.bin holds the train photos (with --all-photos the held-out ones
 * too): labelled dice turned, scaled and shifted; places with no die
 * centred (the background, beside a die, between two touching dice, the
 * pip reader's strays). eval.bin holds every detection of vis_dice_find
 * (unreadable ones too) on every photo, cut at its place and size as the
 * reader will; the trainer chooses which splits and photos it learns from. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/photo_labels.h"
#include "vision/vision.h"

#define CROP_BYTES (VIS_FNET_SIDE * VIS_FNET_SIDE * 3)

struct label {
	int face;
	double x, y, size;	/* centre, larger side of the box */
};

static uint64_t rng_state = 2026;

static double uni(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static int put(FILE *f, int cls, int split, int photo, const uint8_t *crop)
{
	uint8_t head[4] = { (uint8_t)cls, (uint8_t)split, (uint8_t)(photo & 255), (uint8_t)(photo >> 8) };
	return fwrite(head, 1, 4, f) == 4 && fwrite(crop, 1, CROP_BYTES, f) == CROP_BYTES ? 0 : -1;
}

/* The distance from (x, y) to the nearest labelled centre, in that die's
 * box sizes. */
static double nearest(const struct label *l, int n, double x, double y, int *which)
{
	double best = 1e9;
	for (int i = 0; i < n; i++) {
		double d = hypot(x - l[i].x, y - l[i].y) / l[i].size;
		if (d < best) {
			best = d;
			if (which)
				*which = i;
		}
	}
	return best;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Where the crops go and what has been cut so far. */
struct cut {
	FILE *ft, *fe, *fx;	/* train.bin, eval.bin, eval.txt */
	int per_die, all_photos;
	int photo;		/* photos read, every set */
	int ntrain[10], neval;
	double ratios[4096];	/* label box / detected side, PHOTO_DIR's train dice */
	int nratio;
};

/* Reads the photos of one set (labels.json in dir): split base (0 for
 * PHOTO_DIR, 4 + 2(K-1) for the K-th other set) for train, base + 1 for
 * held out; held: its heldout.txt (NULL: the tray's date rule); a find
 * counts for a die by photo_label_holds(within). 0, or 1 with the reason
 * on stderr. */
static int cut_set(struct cut *c, const char *dir, int base, const char *held, double within)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/labels.json", dir);
	json_error_t jerr;
	json_t *labels = json_load_file(path, 0, &jerr);
	if (!labels) {
		fprintf(stderr, "face_crops: %s:%d: %s\n", path, jerr.line, jerr.text);
		return 1;
	}
	int per_die = c->per_die;
	uint8_t crop[CROP_BYTES];
	const char *name;
	json_t *entry;
	json_object_foreach(labels, name, entry) {
		int heldout = photo_held_out(held, name), split = base + heldout;
		int photo = c->photo;
		snprintf(path, sizeof path, "%s/%s", dir, name);
		char err[256];
		struct vis_image *img;
		if (vis_image_load(path, &img, err, sizeof err)) {
			fprintf(stderr, "face_crops: %s\n", err);
			goto bad;
		}
		json_t *arr = json_object_get(entry, "dice");
		struct label lab[128];
		int nl = 0;
		if (json_array_size(arr) > 128) {
			fprintf(stderr, "face_crops: %s: over 128 labelled dice\n", path);
			goto bad_img;
		}
		for (size_t k = 0; k < json_array_size(arr); k++) {
			json_t *l = json_array_get(arr, k);
			json_t *jf = json_object_get(l, "face"), *jx = json_object_get(l, "x"),
			       *jy = json_object_get(l, "y"), *jw = json_object_get(l, "w"),
			       *jh = json_object_get(l, "h");
			if (!json_is_integer(jf) || json_integer_value(jf) < 1 || json_integer_value(jf) > 6 ||
			    !json_is_number(jx) || !json_is_number(jy) || !json_is_number(jw) ||
			    !json_is_number(jh) || !(json_number_value(jw) > 0) || !(json_number_value(jh) > 0)) {
				fprintf(stderr, "face_crops: %s: die %zu: face must be 1-6, x y w h numbers, "
					"w and h above 0\n", path, k);
				goto bad_img;
			}
			double w = json_number_value(jw), h = json_number_value(jh);
			lab[nl++] = (struct label){
				.face = (int)json_integer_value(jf),
				.x = json_number_value(jx),
				.y = json_number_value(jy),
				.size = w > h ? w : h,
			};
		}
		struct vis_dice_params p;
		vis_dice_params_default(&p);
		p.keep_unreadable = 1;
		p.pips_only = 1;	/* eval.txt holds the pips' own reading */
		struct vis_die dice[256];
		int n = vis_dice_find(img, &p, dice, 256, err, sizeof err);
		if (n < 0) {
			fprintf(stderr, "face_crops: %s: %s\n", path, err);
			goto bad_img;
		}
		if (n > 256)
			n = 256;
		int learn = !heldout || c->all_photos;
		/* Every detection, cut as the reader cuts it. */
		for (int i = 0; i < n; i++) {
			int li = -1;
			for (int k = 0; k < nl; k++)
				if (photo_label_holds(json_array_get(arr, (size_t)k), within, dice[i].x, dice[i].y) &&
				    (li < 0 || hypot(dice[i].x - lab[k].x, dice[i].y - lab[k].y) <
						       hypot(dice[i].x - lab[li].x, dice[i].y - lab[li].y)))
					li = k;
			if (li >= 0 && c->nratio < 4096 && base == 0 && !heldout)
				c->ratios[c->nratio++] = lab[li].size / dice[i].side;
			/* No die labelled there: beside one (a side face, part of a
			 * die), else something that is no d6 top face. */
			int reject = nearest(lab, nl, dice[i].x, dice[i].y, NULL) < 1.5 ? 7 : 9;
			vis_fnet_crop(img, dice[i].x, dice[i].y, VIS_FNET_SPAN * dice[i].side, 0, crop);
			if (put(c->fe, li >= 0 ? lab[li].face : reject, split, photo, crop))
				goto write_failed;
			if (fprintf(c->fx, "%d %.2f %.2f %.2f %d %.3f %d\n", photo, dice[i].x, dice[i].y,
				    dice[i].side, dice[i].face, dice[i].confidence, li >= 0 ? lab[li].face : 0) < 0)
				goto write_failed;
			c->neval++;
			if (!learn)
				continue;
			int cls = li >= 0 ? lab[li].face : reject;
			/* The labelled die at the place and size the reader found
			 * it, as the net will be shown it; or the reader's stray,
			 * the very thing the net must turn down. */
			for (int a = 0; a < (li >= 0 ? per_die / 2 : 4 + 4 * (within > 0)); a++) {
				vis_fnet_crop(img, dice[i].x, dice[i].y,
					      VIS_FNET_SPAN * dice[i].side * (0.9 + 0.2 * uni()), 2 * M_PI * uni(), crop);
				if (put(c->ft, cls, split, photo, crop))
					goto write_failed;
				c->ntrain[cls]++;
			}
		}
		if (learn && nl > 0) {
			double sizes[128];
			for (int k = 0; k < nl; k++)
				sizes[k] = lab[k].size;
			qsort(sizes, (size_t)nl, sizeof(double), cmp_double);
			double typical = sizes[nl / 2];
			/* The die's box is its top and some of its sides (the white
			 * set's box is the whole die, its centre the top face's): the
			 * crop spans VIS_FNET_BOX_SPAN of it. */
			for (int k = 0; k < nl; k++) {
				for (int a = 0; a < per_die; a++) {
					double r = 0.12 * lab[k].size * sqrt(uni()), t = 2 * M_PI * uni();
					vis_fnet_crop(img, lab[k].x + r * cos(t), lab[k].y + r * sin(t),
						      VIS_FNET_BOX_SPAN * lab[k].size * (0.8 + 0.45 * uni()),
						      2 * M_PI * uni(), crop);
					if (put(c->ft, lab[k].face, split, photo, crop))
						goto write_failed;
					c->ntrain[lab[k].face]++;
				}
				/* Beside the die: part of it in view, not centred; on a
				 * slant (within > 0) that is where its side faces show. */
				double from = within > 0 ? 0.45 : 0.6;
				for (int a = 0; a < per_die / 4; a++) {
					double r = (from + (1 - from) * uni()) * lab[k].size, t = 2 * M_PI * uni();
					double x = lab[k].x + r * cos(t), y = lab[k].y + r * sin(t);
					if (nearest(lab, nl, x, y, NULL) < from)
						continue;
					vis_fnet_crop(img, x, y, VIS_FNET_BOX_SPAN * lab[k].size * (0.85 + 0.32 * uni()),
						      2 * M_PI * uni(), crop);
					if (put(c->ft, 7, split, photo, crop))
						goto write_failed;
					c->ntrain[7]++;
				}
				/* Two touching dice framed as one: between them. */
				for (int m = k + 1; m < nl; m++) {
					double d = hypot(lab[m].x - lab[k].x, lab[m].y - lab[k].y);
					double size = (lab[k].size + lab[m].size) / 2;
					for (int a = 0; d < 1.3 * size && a < per_die / 4; a++) {
						double f = 0.35 + 0.3 * uni();
						vis_fnet_crop(img, lab[k].x + f * (lab[m].x - lab[k].x),
							      lab[k].y + f * (lab[m].y - lab[k].y),
							      VIS_FNET_BOX_SPAN * size * (0.9 + 0.4 * uni()),
							      2 * M_PI * uni(), crop);
						if (put(c->ft, 8, split, photo, crop))
							goto write_failed;
						c->ntrain[8]++;
					}
				}
			}
			/* The background, the tray's walls, whatever lies about. */
			for (int a = 0, tries = 0; a < nl * per_die / 2 && tries < 100000; tries++) {
				double x = uni() * img->width, y = uni() * img->height;
				if (nearest(lab, nl, x, y, NULL) < 0.65)
					continue;
				vis_fnet_crop(img, x, y, VIS_FNET_BOX_SPAN * typical * (0.8 + 0.45 * uni()),
					      2 * M_PI * uni(), crop);
				if (put(c->ft, 0, split, photo, crop))
					goto write_failed;
				c->ntrain[0]++;
				a++;
			}
		}
		vis_image_free(img);
		c->photo++;
		continue;
bad_img:
		vis_image_free(img);
		goto bad;
	}
	json_decref(labels);
	return 0;
write_failed:
	perror("face_crops: write");
bad:
	json_decref(labels);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: face_crops PHOTO_DIR OUT_DIR [--set DIR[:WITHIN]]... [--faces DIR]... "
			"[--seed N] [--per-die N] [--rendered N] [--all-photos]\n");
		return 2;
	}
	const char *dir = argv[1], *out = argv[2];
	static struct cut c = { .per_die = 40 };
	const char *sets[64];
	double within[64];
	int nsets = 0, rendered = 0;
	for (int i = 3; i < argc; i += 2) {
		if (!strcmp(argv[i], "--all-photos")) {
			c.all_photos = 1;
			i--;	/* takes no value */
			continue;
		}
		if ((!strcmp(argv[i], "--set") || !strcmp(argv[i], "--faces")) && i + 1 < argc) {
			if (nsets == 64) {
				fprintf(stderr, "face_crops: at most 64 --set and --faces\n");
				return 2;
			}
			char *colon = strrchr(argv[i + 1], ':');
			within[nsets] = 0;
			if (colon && !strcmp(argv[i], "--set")) {
				char *end = NULL;
				within[nsets] = strtod(colon + 1, &end);
				if (*end || !(within[nsets] > 0 && within[nsets] <= 2)) {
					fprintf(stderr, "face_crops: %s: WITHIN must be above 0, at most 2\n",
						argv[i + 1]);
					return 2;
				}
				*colon = 0;
			}
			sets[nsets++] = argv[i + 1];
			continue;
		}
		char *end = NULL;
		long long v = i + 1 < argc ? strtoll(argv[i + 1], &end, 10) : -1;
		if (i + 1 >= argc || *end || v < 0 || v > 1000000) {
			fprintf(stderr, "face_crops: %s wants a whole number 0-1000000\n", argv[i]);
			return 2;
		}
		if (!strcmp(argv[i], "--seed"))
			rng_state = (uint64_t)v | 1;
		else if (!strcmp(argv[i], "--per-die"))
			c.per_die = (int)v;
		else if (!strcmp(argv[i], "--rendered"))
			rendered = (int)v;
		else {
			fprintf(stderr, "face_crops: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	char path[4096];
	snprintf(path, sizeof path, "%s/train.bin", out);
	if ((c.ft = fopen(path, "wb"))) {
		snprintf(path, sizeof path, "%s/eval.bin", out);
		if ((c.fe = fopen(path, "wb"))) {
			snprintf(path, sizeof path, "%s/eval.txt", out);
			c.fx = fopen(path, "w");
		}
	}
	if (!c.fx) {
		perror(path);
		return 1;
	}
	uint8_t crop[CROP_BYTES];
	for (int k = 0; k <= nsets; k++) {
		const char *d = k ? sets[k - 1] : dir;
		/* Without a heldout.txt, another set is all trained on. */
		char *held = photo_held_list(d);
		if (!held && k > 0)
			held = calloc(1, 1);
		if (k > 0 && !held) {
			perror("face_crops");
			return 1;
		}
		int rc = cut_set(&c, d, k ? 4 + 2 * (k - 1) : 0, held, k ? within[k - 1] : 0);
		free(held);
		if (rc)
			return 1;
	}
	int *ntrain = c.ntrain;
	FILE *ft = c.ft;
	/* Rendered dice (split 2, trained on in every fold): every face,
	 * colour, size, light and noise, many more than the photos hold. They
	 * show no sides (the camera is straight above) and no marbling. */
	for (int i = 0; i < rendered; i++) {
		struct vis_render_scene sc = { .width = 240, .height = 240 };
		vis_render_random_dice(&sc, 900000 + (uint64_t)i, 4);
		struct vis_image *img;
		char err[256];
		if (vis_render(&sc, &img, err, sizeof err)) {
			fprintf(stderr, "face_crops: %s\n", err);
			return 1;
		}
		double px = sc.die_side_m * sc.h[0];
		double u[VIS_RENDER_MAX_DICE], v[VIS_RENDER_MAX_DICE];
		for (int k = 0; k < sc.n_dice; k++) {
			vis_homography_apply(sc.h, sc.dice[k].x, sc.dice[k].y, &u[k], &v[k]);
			for (int a = 0; a < 6; a++) {
				double r = 0.12 * px * sqrt(uni()), t = 2 * M_PI * uni();
				/* a real die's box is about 1.15 of its top */
				vis_fnet_crop(img, u[k] + r * cos(t), v[k] + r * sin(t),
					      VIS_FNET_BOX_SPAN * 1.15 * px * (0.8 + 0.45 * uni()),
					      2 * M_PI * uni(), crop);
				if (put(ft, sc.dice[k].face, 2, 0, crop))
					goto write_failed;
				ntrain[sc.dice[k].face]++;
			}
		}
		for (int a = 0, tries = 0; a < 6 && tries < 1000; tries++) {
			double x = uni() * img->width, y = uni() * img->height, d = 1e9;
			for (int k = 0; k < sc.n_dice; k++)
				d = fmin(d, hypot(x - u[k], y - v[k]));
			if (d < 0.8 * px)
				continue;
			vis_fnet_crop(img, x, y, VIS_FNET_BOX_SPAN * 1.15 * px * (0.8 + 0.45 * uni()),
				      2 * M_PI * uni(), crop);
			if (put(ft, 0, 2, 0, crop))
				goto write_failed;
			ntrain[0]++;
			a++;
		}
		vis_image_free(img);
	}
	qsort(c.ratios, (size_t)c.nratio, sizeof(double), cmp_double);
	fprintf(stderr, "face_crops: %d photos; train none %d, faces %d %d %d %d %d %d, side %d, two %d, "
		"stray %d; eval %d\n", c.photo, ntrain[0], ntrain[1], ntrain[2], ntrain[3], ntrain[4], ntrain[5],
		ntrain[6], ntrain[7], ntrain[8], ntrain[9], c.neval);
	if (c.nratio)
		fprintf(stderr, "face_crops: label box / detected side: median %.3f (p10 %.3f, p90 %.3f)\n",
			c.ratios[c.nratio / 2], c.ratios[c.nratio / 10], c.ratios[c.nratio * 9 / 10]);
	int closed = fclose(c.ft) | fclose(c.fe) | fclose(c.fx);	/* all three closed */
	if (closed)
		goto write_failed;
	return 0;
write_failed:
	perror("face_crops: write");
	return 1;
}
