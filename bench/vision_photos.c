/* Benchmark: dice reading on the real photos: the tray (tests/data/dice-photos;
 * 2019-12-08 was used for tuning, 2019-12-09 is held out) and the white dice
 * on wood (tests/data/dice-photos-white; held out: its heldout.txt, README.md).
 * Per split: detection recall, face accuracy of detected dice, all dice read
 * right, detections matching no die, wrong faces and strays at >= 0.9,
 * unreadable finds; and the time per image. Without DIR both sets are read.
 *   build/bench/vision_photos [DIR [--within R]] [-v] [--reliability] [--golden FILE] [--fold K/N]
 *                             [--scale X] [--noise A/SEED] [--turn Q]
 *                             [--face-net FILE] [--net-turns 1|2|4]
 * --face-net: that weights file's net instead of the built-in one; --net-turns:
 * the net read at that many turns instead of its own (to see what they buy);
 * --within R: a find counts for a die within R of its width from its centre
 * (default: inside its box; the white set is read at 0.75, its README's rule);
 * --reliability: per split, the faces given by bins of confidence: how many,
 * how many right, wrong faces and strays (a face where no die is: as wrong);
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

struct tally {
	int dice;		/* labelled dice */
	int detected;		/* labelled dice with a detection inside the box */
	int right;		/* of those, with the right face */
	int unread;		/* labelled dice not read, found there unreadable */
	int unread_stray;	/* unreadable detections inside no box */
	int twice;		/* labelled dice found twice (photo_labels_found_twice) */
	int dets;		/* detections */
	int unmatched;		/* detections inside no box */
	int sure_stray;		/* of those, with confidence >= 0.9 */
	int confident_wrong;	/* wrong face with confidence >= 0.9 */
	int images;		/* images read */
	/* The faces given, by confidence (bin_of): how many, how many right,
	 * how many were a stray's (no die there); the rest are wrong faces. */
	int bin_n[8], bin_right[8], bin_stray[8];
};

static const double bin_from[8] = { 0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99 };

static int bin_of(double c)
{
	int b = 0;
	while (b < 7 && c >= bin_from[b + 1])
		b++;
	return b;
}

static void given(struct tally *s, double conf, int right, int stray)
{
	int b = bin_of(conf);
	s->bin_n[b]++;
	s->bin_right[b] += right;
	s->bin_stray[b] += stray;
}

struct opts {
	int verbose, reliability, fold_k, fold_n, noise, turns;
	double scale, within;
	unsigned long long seed;
	FILE *golden;
	const struct vis_fnet *net;	/* NULL: the built-in net */
};

/* Reads one set of photos, prints its figures per split; 0, or 1 on error. */
static int read_set(const char *dir, const struct opts *o)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/labels.json", dir);
	json_error_t jerr;
	json_t *labels = json_load_file(path, 0, &jerr);
	if (!labels) {
		fprintf(stderr, "vision_photos: %s:%d: %s\n", path, jerr.line, jerr.text);
		return 1;
	}
	char *held = photo_held_list(dir);
	double scale = o->scale, within = o->within;
	int verbose = o->verbose, turns = o->turns, photo = -1;
	struct tally t[2] = { 0 };
	double secs = 0;
	const char *name;
	json_t *entry;
	json_object_foreach(labels, name, entry) {
		int split = photo_held_out(held, name);
		/* --fold K/N: only the photos of either split whose index (in
		 * labels.json's order, as tools/fnet/face_crops counts them) is
		 * K mod N, the ones a face net trained with --fold K/N never saw. */
		photo++;
		if (o->fold_n > 0 && photo % o->fold_n != o->fold_k)
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
		prm.net = o->net;
		struct vis_die found[256], dice[256], unread[256];
		if (scale != 1) {
			struct vis_image *sized = vis_image_scaled(img, scale);
			vis_image_free(img);
			if (!(img = sized)) {
				fprintf(stderr, "vision_photos: %s: cannot resize: %s\n", name, strerror(errno));
				return 1;
			}
		}
		if (o->noise)
			add_noise(img, o->noise, o->seed * 1000003ULL + (unsigned long long)photo);
		if (turns) {
			struct vis_image *tu = photo_turned(img, turns);
			vis_image_free(img);
			if (!(img = tu)) {
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
		s->twice += photo_labels_found_twice(arr, within, found, nf);
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
			int best = photo_nearest(dice, n, used, 0, lx, ly, lw, lh, within);
			if (best < 0) {
				int seen = 0;
				for (int i = 0; i < nu && !seen; i++)
					seen = photo_label_holds(l, within, unread[i].x, unread[i].y);
				s->unread += seen;
				if (verbose)
					printf("  %s %s face %d at %.0f,%.0f\n", name, seen ? "unread" : "miss",
					       face, lx, ly);
				continue;
			}
			used[best] = 1;
			s->detected++;
			img_det++;
			given(s, dice[best].confidence, dice[best].face == face, 0);
			if (dice[best].face == face) {
				if (o->golden)
					fprintf(o->golden, "%s %d %.1f %.1f %.1f %.1f\n", name, face, lx, ly, lw, lh);
				s->right++;
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
				in = photo_label_holds(json_array_get(arr, k), within, unread[i].x, unread[i].y);
			s->unread_stray += !in;
			if (!in && verbose)
				printf("  %s unreadable stray at %.0f,%.0f\n", name, unread[i].x, unread[i].y);
		}
		s->dets += n;
		for (int i = 0; i < n; i++)
			if (!used[i]) {
				s->unmatched++;
				s->sure_stray += dice[i].confidence >= 0.9;
				given(s, dice[i].confidence, 0, 1);
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
	const char *set = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	static const char *tray_split[2] = { "2019-12-08 (tuning)", "2019-12-09 (held out)" };
	static const char *set_split[2] = { "train", "held out" };
	int imgs = 0;
	for (int k = 0; k < 2; k++) {
		struct tally *s = &t[k];
		imgs += s->images;
		if (!s->images)
			continue;
		printf("%s %-21s %3d images %3d dice: recall %5.1f %%, face accuracy %5.1f %%, "
		       "read right %5.1f %%, unmatched detections %d of %d, "
		       "at >= 0.9: wrong %d, stray %d; not read %d, of them found unreadable %d; "
		       "unreadable detections matching no die %d; labelled dice found twice %d\n",
		       set, held ? set_split[k] : tray_split[k], s->images, s->dice,
		       100.0 * s->detected / (s->dice ? s->dice : 1),
		       100.0 * s->right / (s->detected ? s->detected : 1),
		       100.0 * s->right / (s->dice ? s->dice : 1), s->unmatched, s->dets,
		       s->confident_wrong, s->sure_stray, s->dice - s->detected, s->unread,
		       s->unread_stray, s->twice);
		if (!o->reliability)
			continue;
		printf("%s %s reliability: from  given  right  wrong  stray  right %%\n", set,
		       held ? set_split[k] : tray_split[k]);
		for (int b = 0; b < 8; b++)
			if (s->bin_n[b])
				printf("%s %s reliability: %4.2f  %5d  %5d  %5d  %5d  %6.1f\n", set,
				       held ? set_split[k] : tray_split[k], bin_from[b], s->bin_n[b],
				       s->bin_right[b], s->bin_n[b] - s->bin_right[b] - s->bin_stray[b],
				       s->bin_stray[b], 100.0 * s->bin_right[b] / s->bin_n[b]);
	}
	free(held);
	printf("%s time per image (scaled %.2f): %.1f ms\n", set, scale,
	       1000 * secs / (imgs ? imgs : 1));
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	struct opts o = { .scale = 1, .seed = 1 };
	struct vis_fnet *net = NULL;	/* --face-net, --net-turns: not the built-in net as it is */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			o.verbose = 1;
		else if (!strcmp(argv[i], "--reliability"))
			o.reliability = 1;
		else if (!strcmp(argv[i], "--fold") && i + 1 < argc) {
			if (sscanf(argv[++i], "%d/%d", &o.fold_k, &o.fold_n) != 2 || o.fold_n < 1 ||
			    o.fold_k < 0 || o.fold_k >= o.fold_n) {
				fprintf(stderr, "vision_photos: --fold K/N with 0 <= K < N, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--within") && i + 1 < argc) {
			if (sscanf(argv[++i], "%lf", &o.within) != 1 || !(o.within > 0 && o.within <= 2)) {
				fprintf(stderr, "vision_photos: --within R with 0 < R <= 2, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
			if (sscanf(argv[++i], "%lf", &o.scale) != 1 || !(o.scale >= 0.4 && o.scale <= 8)) {
				fprintf(stderr, "vision_photos: --scale X with 0.4 <= X <= 8, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--turn") && i + 1 < argc) {
			if (sscanf(argv[++i], "%d", &o.turns) != 1 || o.turns < 0 || o.turns > 3) {
				fprintf(stderr, "vision_photos: --turn Q with 0 <= Q <= 3, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--noise") && i + 1 < argc) {
			if (sscanf(argv[++i], "%d/%llu", &o.noise, &o.seed) != 2 || o.noise < 1 || o.noise > 20) {
				fprintf(stderr, "vision_photos: --noise A/SEED with 1 <= A <= 20, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--face-net") && i + 1 < argc) {
			char err[512];
			vis_fnet_free(net);
			if (vis_fnet_load(argv[++i], &net, err, sizeof(err))) {
				fprintf(stderr, "vision_photos: %s\n", err);
				return 2;
			}
		} else if (!strcmp(argv[i], "--net-turns") && i + 1 < argc) {
			int nt = atoi(argv[++i]);
			struct vis_fnet *c;
			if (nt != 1 && nt != 2 && nt != 4) {
				fprintf(stderr, "vision_photos: --net-turns 1, 2 or 4, not '%s'\n", argv[i]);
				return 2;
			}
			c = vis_fnet_copy(net ? net : vis_fnet_builtin(), nt, 1);
			vis_fnet_free(net);
			if (!(net = c)) {
				perror("vision_photos");
				return 1;
			}
		} else if (!strcmp(argv[i], "--golden") && i + 1 < argc) {
			o.golden = fopen(argv[++i], "w");
			if (!o.golden) {
				perror(argv[i]);
				return 1;
			}
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "vision_photos: unknown option %s\n", argv[i]);
			return 2;
		} else
			dir = argv[i];
	}
	o.net = net;
	const struct vis_fnet *used = net ? net : vis_fnet_builtin();
	printf("photos face net %08x read at %d turns\n", (unsigned)used->crc, used->turns);
	int rc;
	if (dir)
		rc = read_set(dir, &o);
	else {
		/* Both real sets, each by its own rule; --golden lists the tray's. */
		rc = read_set("tests/data/dice-photos", &o);
		FILE *g = o.golden;
		o.golden = NULL;
		o.within = 0.75;
		rc = rc ? rc : read_set("tests/data/dice-photos-white", &o);
		o.golden = g;
	}
	if (o.golden)
		fclose(o.golden);
	vis_fnet_free(net);
	return rc;
}
