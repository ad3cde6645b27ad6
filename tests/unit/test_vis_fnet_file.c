/* vision: face net weights files (vis_fnet_load, vis_fnet_write) and the
 * net as a value (vis_fnet_builtin, vis_fnet_copy, vis_fnet_read).
 *
 * A file written from the built-in net loads back as the same net: the
 * same checksum and, on the forward pass's check crops
 * (tests/data/face-net-check.txt), the same probabilities to the bit.
 * Every kind of bad file is refused with a message naming the file and
 * why, and no net. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "vision/vision.h"

#define CHECK "tests/data/face-net-check.txt"
#define CROPS "tests/data/face-net-crops.bin"
#define N (VIS_FNET_SIDE * VIS_FNET_SIDE * 3)
#define HEADER 48		/* bytes before the weights (docs/vision.md) */
#define WEIGHTS 96279

struct fixture {
	char dir[64];
	char good[128];		/* the built-in net, written */
	char bad[128];		/* each test's damaged copy */
	uint8_t *bytes;		/* good's contents */
	size_t len;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	char err[256];
	FILE *f;

	assert_non_null(fx);
	strcpy(fx->dir, "/tmp/test_vis_fnet_XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	snprintf(fx->good, sizeof(fx->good), "%s/good.fnet", fx->dir);
	snprintf(fx->bad, sizeof(fx->bad), "%s/bad.fnet", fx->dir);
	assert_int_equal(vis_fnet_write(vis_fnet_builtin(), fx->good, err, sizeof(err)), 0);
	f = fopen(fx->good, "rb");
	assert_non_null(f);
	fx->bytes = malloc(1 << 20);
	assert_non_null(fx->bytes);
	fx->len = fread(fx->bytes, 1, 1 << 20, f);
	fclose(f);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	unlink(fx->good);
	unlink(fx->bad);
	rmdir(fx->dir);
	free(fx->bytes);
	free(fx);
	return 0;
}

/* The check file's crops, up to max, into crops; how many. */
static int check_crops(uint8_t (*crops)[N], int max)
{
	static char line[2 * N + 64];
	FILE *f = fopen(CHECK, "r");
	int n = 0;

	assert_non_null(f);
	while (n < max && fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		for (int k = 0; k < N; k++) {
			unsigned v;
			assert_int_equal(sscanf(line + 2 * k, "%2x", &v), 1);
			crops[n][k] = (uint8_t)v;
		}
		n++;
		assert_non_null(fgets(line, sizeof line, f));	/* torch's probabilities */
	}
	fclose(f);
	return n;
}

/* Writes len bytes of b to the fixture's bad file. */
static void write_bad(struct fixture *fx, const uint8_t *b, size_t len)
{
	FILE *f = fopen(fx->bad, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void put_u32(uint8_t *p, uint32_t v)
{
	for (int k = 0; k < 4; k++)
		p[k] = (uint8_t)(v >> 8 * k);
}

/* Loading the bad file fails, no net, and the message names the file and
 * has why in it. */
static void refused(struct fixture *fx, const char *why)
{
	struct vis_fnet *net = (struct vis_fnet *)1;
	char err[256] = "";

	assert_true(vis_fnet_load(fx->bad, &net, err, sizeof(err)) < 0);
	assert_null(net);
	if (!strstr(err, fx->bad) || !strstr(err, why))
		fail_msg("message \"%s\" should name %s and say \"%s\"", err, fx->bad, why);
	assert_null(strchr(err, '\n'));
}

/* The good file with the u32 at off set to v (in b, len + 16 bytes) is
 * refused saying why. */
static void patched(struct fixture *fx, uint8_t *b, size_t off, uint32_t v, const char *why)
{
	memcpy(b, fx->bytes, fx->len);
	put_u32(b + off, v);
	write_bad(fx, b, fx->len);
	refused(fx, why);
}

static void test_round_trip_is_the_builtin_net(void **state)
{
	struct fixture *fx = *state;
	const struct vis_fnet *b = vis_fnet_builtin();
	struct vis_fnet *net = NULL;
	static uint8_t crops[8][N];
	char err[256];
	int n = check_crops(crops, 8);

	assert_int_equal(fx->len, HEADER + 4 * WEIGHTS + 4);
	assert_int_equal(vis_fnet_load(fx->good, &net, err, sizeof(err)), 0);
	assert_non_null(net);
	assert_int_equal(net->turns, b->turns);
	assert_int_equal(net->turns, 4);
	assert_int_equal(net->version, VIS_FNET_FORMAT);
	assert_int_equal(net->crc, b->crc);
	assert_true(n >= 4);
	for (int i = 0; i < n; i++) {
		float p[VIS_FNET_CLASSES], q[VIS_FNET_CLASSES];
		vis_fnet_classify(b, crops[i], p);
		vis_fnet_classify(net, crops[i], q);
		assert_memory_equal(p, q, sizeof(p));
	}
	vis_fnet_free(net);
	vis_fnet_free((struct vis_fnet *)b);	/* ignored: the built-in net is static */
	assert_int_equal(vis_fnet_builtin()->turns, 4);
}

static void test_bad_files_are_refused(void **state)
{
	struct fixture *fx = *state;
	uint8_t *b = malloc(fx->len + 16);

	assert_non_null(b);
	/* missing */
	unlink(fx->bad);
	refused(fx, "No such file");
	/* empty, and not a weights file at all */
	write_bad(fx, b, 0);
	refused(fx, "magic");
	write_bad(fx, (const uint8_t *)"[camera]\nface_net = x\n", 22);
	refused(fx, "magic");
	/* cut short: in the header, in the weights, before the checksum */
	write_bad(fx, fx->bytes, 20);
	refused(fx, "truncated");
	write_bad(fx, fx->bytes, fx->len / 2);
	refused(fx, "truncated");
	write_bad(fx, fx->bytes, fx->len - 2);
	refused(fx, "truncated");
	/* a byte more, and a file far larger than a net */
	memcpy(b, fx->bytes, fx->len);
	b[fx->len] = 0;
	write_bad(fx, b, fx->len + 1);
	refused(fx, "trailing bytes");
	/* another format version; another shape (a wider second convolution,
	 * bigger crops); turns other than 1, 2, 4; a weight NaN, one infinite */
	patched(fx, b, 8, VIS_FNET_FORMAT + 1, "format version 2");
	patched(fx, b, 32, 33, "shape");
	patched(fx, b, 12, 64, "shape");
	patched(fx, b, 20, 3, "3 turns");
	patched(fx, b, HEADER + 4 * 1000, 0x7fc00000u, "weight 1000 is not a finite number");
	patched(fx, b, HEADER + 4 * (WEIGHTS - 1), 0x7f800000u, "not a finite number");
	/* finite but past the bound (1e30, 10001), a spread floor of 0 or below */
	patched(fx, b, HEADER + 4 * 7, 0x7149f2cau, "weight 7 is 1e+30, beyond +-10000");
	patched(fx, b, HEADER + 4 * (WEIGHTS - 1), 0xc61c4400u, "beyond +-10000");
	patched(fx, b, 44, 0, "spread floor 0");
	patched(fx, b, 44, 0xbf800000u, "spread floor -1");
	/* one bit of one weight changed: the checksum */
	memcpy(b, fx->bytes, fx->len);
	b[HEADER + 4 * 5000] ^= 1;
	write_bad(fx, b, fx->len);
	refused(fx, "checksum");
	free(b);
}

/* A file far larger than a net is refused having read no more than a
 * net's bytes and one: memory is the shape's, not the file's. */
static void test_a_huge_file_is_refused_by_reading_a_net(void **state)
{
	struct fixture *fx = *state;
	static uint8_t big[1 << 16];
	struct vis_fnet *net = NULL;
	char err[256];
	FILE *f;

	memset(big, 0, sizeof(big));
	f = fopen(fx->bad, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(fx->bytes, 1, fx->len, f), fx->len);
	for (int i = 0; i < 64; i++)	/* 4 MB beyond */
		assert_int_equal(fwrite(big, 1, sizeof(big), f), sizeof(big));
	assert_int_equal(fclose(f), 0);
	f = fopen(fx->bad, "rb");
	assert_non_null(f);
	assert_true(vis_fnet_read_file(f, fx->bad, &net, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "trailing bytes"));
	assert_int_equal(ftell(f), (long)fx->len + 1);
	fclose(f);
	assert_null(net);
}

/* A copy at other turns or scaled weights is another net: another
 * checksum, written and loaded as such; turns 1 reads the crop as it is. */
static void test_copies_and_turns(void **state)
{
	struct fixture *fx = *state;
	const struct vis_fnet *b = vis_fnet_builtin();
	struct vis_fnet *one = vis_fnet_copy(b, 1, 1), *zero = vis_fnet_copy(b, 4, 0), *back = NULL;
	struct vis_image *img = vis_image_new(120, 120, VIS_RGB24);
	float p[VIS_FNET_CLASSES], q[VIS_FNET_CLASSES], avg[VIS_FNET_CLASSES] = { 0 };
	uint8_t crop[N];
	char err[256];

	assert_non_null(one);
	assert_non_null(zero);
	assert_non_null(img);
	assert_int_not_equal(one->crc, b->crc);
	for (int y = 0; y < 120; y++)
		for (int x = 0; x < 120; x++)
			for (int c = 0; c < 3; c++)
				img->data[(size_t)y * img->stride + 3 * x + c] =
					(uint8_t)((x * 7 + y * 13 * (c + 1)) % 256);
	/* turns 1: the crop at angle 0 */
	vis_fnet_read(one, img, 60.5, 58.5, 50, p);
	vis_fnet_crop(img, 60.5, 58.5, 50, 0, crop);
	vis_fnet_classify(b, crop, q);
	assert_memory_equal(p, q, sizeof(p));
	/* turns 4: the average over crops cut at the four quarter turns (the
	 * same pixels, up to a rounding of a byte here and there) */
	vis_fnet_read(b, img, 60.5, 58.5, 50, p);
	for (int t = 0; t < 4; t++) {
		vis_fnet_crop(img, 60.5, 58.5, 50, t * M_PI / 2, crop);
		vis_fnet_classify(b, crop, q);
		for (int k = 0; k < VIS_FNET_CLASSES; k++)
			avg[k] += q[k] / 4;
	}
	for (int k = 0; k < VIS_FNET_CLASSES; k++)
		assert_true(fabs(p[k] - avg[k]) < 1e-3);
	/* all weights 0: every class alike */
	vis_fnet_classify(zero, crop, q);
	for (int k = 0; k < VIS_FNET_CLASSES; k++)
		assert_true(fabs(q[k] - 1.0 / VIS_FNET_CLASSES) < 1e-6);
	/* written and read back: the same copy */
	assert_int_equal(vis_fnet_write(one, fx->bad, err, sizeof(err)), 0);
	assert_int_equal(vis_fnet_load(fx->bad, &back, err, sizeof(err)), 0);
	assert_int_equal(back->turns, 1);
	assert_int_equal(back->crc, one->crc);
	vis_fnet_free(back);
	vis_fnet_free(one);
	vis_fnet_free(zero);
	vis_fnet_free(NULL);
	vis_image_free(img);
}

static void test_write_failure_leaves_no_file(void **state)
{
	struct fixture *fx = *state;
	char path[192], err[256] = "";

	snprintf(path, sizeof(path), "%s/no/such/dir.fnet", fx->dir);
	assert_true(vis_fnet_write(vis_fnet_builtin(), path, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, path));
	assert_int_not_equal(access(path, F_OK), 0);
}

/* The shipped test crops (the held-out photos' detections): the built-in
 * net reads most right and none wrong at 0.9; a loaded copy of it scores
 * the same; a net of zeros (every class alike) reads none right; a bad
 * crops file is refused. */
static void test_scores_on_the_test_crops(void **state)
{
	struct fixture *fx = *state;
	struct vis_fnet_score a, b, z;
	struct vis_fnet *net = NULL, *zero = vis_fnet_copy(vis_fnet_builtin(), 4, 0);
	char err[256];

	assert_int_equal(vis_fnet_score(vis_fnet_builtin(), CROPS, &a, err, sizeof(err)), 0);
	fprintf(stderr, "built-in net: %d of %d test crops right, %d wrong at >= 0.9\n", a.right,
		a.crops, a.sure_wrong);
	assert_true(a.crops >= 300);
	assert_true(a.right >= 0.85 * a.crops);
	assert_int_equal(vis_fnet_load(fx->good, &net, err, sizeof(err)), 0);
	assert_int_equal(vis_fnet_score(net, CROPS, &b, err, sizeof(err)), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_non_null(zero);
	assert_int_equal(vis_fnet_score(zero, CROPS, &z, err, sizeof(err)), 0);
	assert_int_equal(z.crops, a.crops);
	assert_true(z.right < a.right / 2);
	/* missing; a record cut short */
	assert_true(vis_fnet_score(net, fx->bad, &z, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, fx->bad));
	static uint8_t recs[4804 + 100];
	write_bad(fx, recs, sizeof(recs));
	assert_true(vis_fnet_score(net, fx->bad, &z, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "ends within a record"));
	recs[0] = 7;
	write_bad(fx, recs, 4804);
	assert_true(vis_fnet_score(net, fx->bad, &z, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "class 7"));
	vis_fnet_free(net);
	vis_fnet_free(zero);
}

/* CRC-32 as zlib's, written here from its definition to make files the
 * loader's own code did not checksum. */
static uint32_t crc32_of(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffffu;

	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

/* The worst net the loader takes (every weight at the bound, the least
 * spread floor) still gives probabilities, on a crop of one bright pixel
 * (the largest normalised value), a flat crop and a noisy one. */
static void test_the_worst_net_that_loads_gives_probabilities(void **state)
{
	struct fixture *fx = *state;
	static uint8_t crops[3][N];
	struct vis_fnet *net = NULL;
	uint8_t *b = malloc(fx->len);
	char err[256];
	uint32_t bits;
	float f;

	assert_non_null(b);
	memcpy(b, fx->bytes, HEADER);
	f = 1e-30f;
	memcpy(&bits, &f, 4);
	put_u32(b + 44, bits);
	f = VIS_FNET_MAX_WEIGHT;
	memcpy(&bits, &f, 4);
	for (size_t i = 0; i < WEIGHTS; i++)
		put_u32(b + HEADER + 4 * i, bits);
	put_u32(b + HEADER + 4 * WEIGHTS, crc32_of(b, HEADER + 4 * WEIGHTS));
	write_bad(fx, b, fx->len);
	if (vis_fnet_load(fx->bad, &net, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	crops[0][N / 2] = 255;
	memset(crops[1], 90, N);
	for (int k = 0; k < N; k++)
		crops[2][k] = (uint8_t)(k * 2654435761u >> 24);
	for (int c = 0; c < 3; c++) {
		float p[VIS_FNET_CLASSES];
		double sum = 0;

		vis_fnet_classify_turned(net, crops[c], p);
		for (int k = 0; k < VIS_FNET_CLASSES; k++) {
			assert_true(isfinite(p[k]) && p[k] >= 0);
			sum += p[k];
		}
		assert_true(fabs(sum - 1) < 1e-4);
	}
	vis_fnet_free(net);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip_is_the_builtin_net, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_files_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_huge_file_is_refused_by_reading_a_net, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_copies_and_turns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_failure_leaves_no_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scores_on_the_test_crops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_worst_net_that_loads_gives_probabilities,
						setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
