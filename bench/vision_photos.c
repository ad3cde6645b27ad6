/* Benchmark: dice reading on the real photos (tests/data/dice-photos).
 * Prints detection recall, face accuracy of detected dice and detections
 * matching no die, per date split (2019-12-08 was used for tuning, 2019-12-09
 * is held out), against the 99.5 % target of issue 6; and the time per image.
 *   build/bench/vision_photos [DIR] [-v] [--golden FILE] [--fold K/N] [--scale X] [--noise A/SEED] [--turn Q]
 * -v: one line per image (a labelled die not read is 'unread' when a die
 * was found there but not read, else 'miss'); --golden: writes the labelled dice read right
 * (image face x y w h, the labels' values) for tests/unit/test_vis_photos.c;
 * --turn Q: each photo read turned Q quarter turns clockwise (after any --scale
 * and --noise), the dice found turned back; --scale X: each photo read enlarged X times (bilinear, 1-8), as a phone's
 * full resolution would show the tray, or shrunk (box-averaged, 0.4-1), as
 * a camera farther away would; the dice found scaled back; --noise A/SEED:
 * every byte moved by -A..A grey levels (uniform, from SEED and the photo's
 * index, after any --scale), to see how many readings hang on so little. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "tests/unit/photo_labels.h"
#include "vision/vision.h"

/* Adds uniform integer noise of -a..a grey levels to every byte of img
 * (clamped), from seed: a picture the camera could as well have taken,
 * to show how many readings hang on a grey level. */
static void add_noise(struct vis_image *img, int a, unsigned long long seed)
{
	unsigned long long x = seed | 1;
	for (int y = 0; y < img->height; y++) {
		uint8_t *r = img->data + (size_t)y * img->stride;
		for (size_t i = 0; i < (size_t)img->width * img->format; i++) {
			x ^= x << 13;	/* xorshift64 */
			x ^= x >> 7;
			x ^= x << 17;
			int v = r[i] + (int)(x % (unsigned long long)(2 * a + 1)) - a;
			r[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
		}
	}
}

/* The white-dice set (../shared/data/dice-photos-white, no dates in its
 * names): a find counts for a die within 0.75 w of its labelled centre
 * (its README: the box is widened to the die, the centre is the top
 * face's), and the photos are split by layout, not by frame (consecutive
 * numbers are near-copies): numbers 1-10, 21-30, 41-50 of each kind are
 * tuned on, 11-20, 31-40, 51-61 held out. */
static int white;

static int holds(json_t *l, double x, double y)
{
	if (!white)
		return photo_label_holds(l, x, y);
	return hypot(x - json_real_value(json_object_get(l, "x")), y - json_real_value(json_object_get(l, "y"))) <=
	       0.75 * json_real_value(json_object_get(l, "w"));
}

static int split_of(const char *name)
{
	if (!white)
		return strstr(name, "20191208") ? 0 : 1;
	const char *u = strrchr(name, '_');
	int n = u ? atoi(u + 1) : 0;
	return (n - 1) / 10 % 2;
}

struct tally {
	int dice;		/* labelled dice */
	int detected;		/* labelled dice with a detection inside the box */
	int right;		/* of those, with the right face */
	int right_sure;		/* ... of them at confidence >= 0.9 */
	int unread;		/* labelled dice not read, found there unreadable */
	int unread_stray;	/* unreadable detections inside no box */
	int twice;		/* labelled dice found twice (photo_labels_found_twice) */
	int dets;		/* detections */
	int unmatched;		/* detections inside no box */
	int unmatched_sure;	/* ... of them with confidence >= 0.9 */
	int confident_wrong;	/* wrong face with confidence >= 0.9 */
	int images;		/* images read */
};

int main(int argc, char **argv)
{
	const char *dir = "tests/data/dice-photos";
	int verbose = 0, fold_k = 0, fold_n = 0, photo = -1;
	double scale = 1;
	int noise = 0, turns = 0;
	unsigned long long seed = 1;
	FILE *golden = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			verbose = 1;
		else if (!strcmp(argv[i], "--fold") && i + 1 < argc) {
			if (sscanf(argv[++i], "%d/%d", &fold_k, &fold_n) != 2 || fold_n < 1 ||
			    fold_k < 0 || fold_k >= fold_n) {
				fprintf(stderr, "vision_photos: --fold K/N with 0 <= K < N, not '%s'\n", argv[i]);
				return 2;
			}
		}
		else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
			if (sscanf(argv[++i], "%lf", &scale) != 1 || !(scale >= 0.4 && scale <= 8)) {
				fprintf(stderr, "vision_photos: --scale X with 0.4 <= X <= 8, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--turn") && i + 1 < argc) {
			if (sscanf(argv[++i], "%d", &turns) != 1 || turns < 0 || turns > 3) {
				fprintf(stderr, "vision_photos: --turn Q with 0 <= Q <= 3, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--noise") && i + 1 < argc) {
			if (sscanf(argv[++i], "%d/%llu", &noise, &seed) != 2 || noise < 1 || noise > 20) {
				fprintf(stderr, "vision_photos: --noise A/SEED with 1 <= A <= 20, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--golden") && i + 1 < argc) {
			golden = fopen(argv[++i], "w");
			if (!golden) {
				perror(argv[i]);
				return 1;
			}
		} else
			dir = argv[i];
	}
	char path[4096];
	snprintf(path, sizeof path, "%s/labels.json", dir);
	json_error_t jerr;
	json_t *labels = json_load_file(path, 0, &jerr);
	if (!labels) {
		fprintf(stderr, "vision_photos: %s:%d: %s\n", path, jerr.line, jerr.text);
		return 1;
	}
	{
		const char *k0;
		json_t *v0;
		white = 1;
		json_object_foreach(labels, k0, v0)
			white = white && !strstr(k0, "2019");
	}
	struct tally t[2] = { 0 };
	double secs = 0;
	const char *name;
	json_t *entry;
	json_object_foreach(labels, name, entry) {
		int split = split_of(name);
		/* --fold K/N: only the photos of either day whose index (in
		 * labels.json's order, as tools/fnet/face_crops counts them) is
		 * K mod N, the ones a face net trained with --fold K/N never saw. */
		photo++;
		if (fold_n > 0 && photo % fold_n != fold_k)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, name);
		char err[256];
		struct vis_image *img;
		if (vis_image_load(path, &img, err, sizeof err)) {
			fprintf(stderr, "vision_photos: %s\n", err);
			return 1;
		}
		/* Unreadable dice are kept (face 0) only to tell a die found
		 * but not read from one not found; every other figure counts the
		 * dice read, as vis_dice_find reports them by default. */
		struct vis_dice_params prm;
		vis_dice_params_default(&prm);
		prm.keep_unreadable = 1;
		struct vis_die found[256], dice[256], unread[256];
		if (scale != 1) {
			struct vis_image *sized = vis_image_scaled(img, scale);
			vis_image_free(img);
			if (!(img = sized)) {
				fprintf(stderr, "vision_photos: %s: cannot resize: %s\n", name, strerror(errno));
				return 1;
			}
		}
		if (noise)
			add_noise(img, noise, seed * 1000003ULL + (unsigned long long)photo);
		if (turns) {
			struct vis_image *t = photo_turned(img, turns);
			vis_image_free(img);
			if (!(img = t)) {
				fprintf(stderr, "vision_photos: %s: cannot turn: %s\n", name, strerror(errno));
				return 1;
			}
		}
		double t0 = bench_now();
		int nf = vis_dice_find(img, &prm, found, 256, err, sizeof err);
		secs += bench_now() - t0;
		/* The turned picture's height is the width before the turn. */
		int upright_w = turns % 2 ? img->height : img->width;
		int upright_h = turns % 2 ? img->width : img->height;
		vis_image_free(img);
		photo_turn_back(found, nf < 256 ? nf : 256, turns, upright_w, upright_h);
		for (int i = 0; i < nf && i < 256; i++) {
			found[i].x = (found[i].x + 0.5) / scale - 0.5;
			found[i].y = (found[i].y + 0.5) / scale - 0.5;
		}
		if (nf < 0) {
			fprintf(stderr, "vision_photos: %s: %s\n", name, err);
			return 1;
		}
		if (nf > 256)
			nf = 256;
		int n = 0, nu = 0;
		for (int i = 0; i < nf; i++) {
			if (found[i].face)
				dice[n++] = found[i];
			else
				unread[nu++] = found[i];
		}
		json_t *arr = json_object_get(entry, "dice");
		size_t nl = json_array_size(arr);
		int used[256] = { 0 };
		struct tally *s = &t[split];
		s->twice += photo_labels_found_twice(arr, found, nf);
		int img_right = 0, img_det = 0, img_unm = 0;
		s->images++;
		for (size_t k = 0; k < nl; k++) {
			json_t *l = json_array_get(arr, k);
			double lx = json_real_value(json_object_get(l, "x"));
			double ly = json_real_value(json_object_get(l, "y"));
			double lw = json_real_value(json_object_get(l, "w"));
			double lh = json_real_value(json_object_get(l, "h"));
			int face = (int)json_integer_value(json_object_get(l, "face"));
			s->dice++;
			/* The nearest unused detection inside the box. */
			int best = -1;
			double bd = 1e18;
			for (int i = 0; i < n; i++) {
				if (used[i] || !holds(l, dice[i].x, dice[i].y))
					continue;
				double d = (dice[i].x - lx) * (dice[i].x - lx) + (dice[i].y - ly) * (dice[i].y - ly);
				if (d < bd) {
					bd = d;
					best = i;
				}
			}
			if (best < 0) {
				int seen = 0;
				for (int i = 0; i < nu && !seen; i++)
					seen = holds(l, unread[i].x, unread[i].y);
				s->unread += seen;
				if (verbose)
					printf("  %s %s face %d at %.0f,%.0f\n", name, seen ? "unread" : "miss",
					       face, lx, ly);
				continue;
			}
			used[best] = 1;
			s->detected++;
			img_det++;
			if (dice[best].face == face) {
				if (golden)
					fprintf(golden, "%s %d %.1f %.1f %.1f %.1f\n", name, face, lx, ly, lw, lh);
				s->right++;
				s->right_sure += dice[best].confidence >= 0.9;
				img_right++;
			} else {
				if (dice[best].confidence >= 0.9)
					s->confident_wrong++;
				if (verbose)
					printf("  %s wrong %d for %d at %.0f,%.0f conf %.2f\n", name,
					       dice[best].face, face, lx, ly, dice[best].confidence);
			}
		}
		for (int i = 0; i < nu; i++) {
			int in = 0;
			for (size_t k = 0; k < nl && !in; k++)
				in = holds(json_array_get(arr, k), unread[i].x, unread[i].y);
			s->unread_stray += !in;
			if (!in && verbose)
				printf("  %s unreadable stray at %.0f,%.0f\n", name, unread[i].x, unread[i].y);
		}
		s->dets += n;
		for (int i = 0; i < n; i++)
			if (!used[i]) {
				s->unmatched++;
				s->unmatched_sure += dice[i].confidence >= 0.9;
				img_unm++;
				if (verbose)
					printf("  %s extra face %d at %.0f,%.0f conf %.2f\n", name,
					       dice[i].face, dice[i].x, dice[i].y, dice[i].confidence);
			}
		if (verbose)
			printf("%s %zu dice: %d detected, %d right, %d extra\n", name, nl, img_det,
			       img_right, img_unm);
	}
	json_decref(labels);
	if (golden)
		fclose(golden);
	static const char *split_name[2][2] = { { "2019-12-08 (tuning)", "2019-12-09 (held out)" },
						{ "white (tuning)", "white (held out)" } };
	int imgs = 0;
	for (int k = 0; k < 2; k++) {
		struct tally *s = &t[k];
		imgs += s->images;
		printf("photos %-22s %3d images %3d dice: recall %5.1f %%, face accuracy %5.1f %% "
		       "(target 99.5), read %5.1f %% (%d at >= 0.9), unmatched detections %d of %d (%d at >= 0.9), "
		       "wrong with confidence >= 0.9: %d; not read %d, of them found unreadable %d; "
		       "unreadable detections matching no die %d; labelled dice found twice %d\n",
		       split_name[white][k], s->images, s->dice, 100.0 * s->detected / (s->dice ? s->dice : 1),
		       100.0 * s->right / (s->detected ? s->detected : 1),
		       100.0 * s->right / (s->dice ? s->dice : 1), s->right_sure, s->unmatched, s->dets, s->unmatched_sure,
		       s->confident_wrong, s->dice - s->detected, s->unread, s->unread_stray, s->twice);
	}
	printf("photos time per %.0fx%.0f image: %.1f ms\n", 640 * scale, 640 * scale, 1000 * secs / (imgs ? imgs : 1));
	return 0;
}
