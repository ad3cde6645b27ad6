/* vision: rendered dice as the camera sees them off its axis (perspective:
 * a camera 2.2 m up, the dice 1.27 m from its foot, about 30 degrees off
 * the vertical, as at the table's ends), touching dice (a clump in a
 * tray) and shapes that are no d6 (flat polygons with a numeral), read by
 * vis_dice_find. White dice, black pips, on a wooden tray colour, 40
 * pixels a die, the camera's foot in a direction that turns scene by
 * scene. What is held:
 * - a die's side faces, showing with their own pips, are never reported
 *   as a die of their own, and the top faces are read;
 * - in dim light seen at 40 degrees (a camera 1.5 m up), where a side
 *   face is found as a die beside its top on the same body, no die is
 *   reported twice: vision/dice.c's step 9 (drop_side_faces) holds this,
 *   the 30 degree scenes above read the same without it;
 * - two dice touching are split into their dice or left unread, never
 *   read as one die with confidence 0.9 or more;
 * - a polygon that is no d6 is read as a face at 0.9 or more no more
 *   often than measured (the target, never, is not met yet).
 * Plus the renderer's own checks on shapes and the camera. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "vision/vision.h"

#define SCENES 24	/* of 4 dice each, per kind */
#define DIE_PX 40.0
/* Measured: in perspective 95 of 96 dice read, no stray (no side face
 * read as a die); clumps 96 of 96 read from above, 74 of 96 in
 * perspective (the rest unread), no find off a die; polygons 16 of 192
 * read as a face at >= 0.9 (a 7-segment numeral's strokes taken for
 * pips; the reader does not yet reject what is not a d6, issue 29 item 2:
 * this bound only keeps it from getting worse). */
#define FLOOR_PERSP_RIGHT 0.95
#define MAX_PERSP_STRAY 1
/* Measured, dim light at 40 degrees: 96 of 96 read, no die found twice;
 * with step 9 disabled 23 of 96 are (a side face found beside its top),
 * and 0-5 with it on nearby light levels and heights. */
#define FLOOR_DIM_RIGHT 0.9
#define MAX_DIM_TWICE 6
#define FLOOR_CLUMP_RIGHT 0.7
#define MAX_POLY_SURE 20

/* A scene of four white dice about (0, 0), seeded: faces, turns, and the
 * camera's foot 1.27 m off in a direction of its own (perspective). */
static void scene(struct vis_render_scene *s, int seed, int perspective)
{
	vis_render_scene_default(s);
	s->width = s->height = 240;
	s->show_table = 0;
	s->tray[0] = 190, s->tray[1] = 165, s->tray[2] = 120;
	s->seed = (uint64_t)seed;
	vis_render_view_topdown(s, 0, 0, s->die_side_m * s->width / DIE_PX);
	s->perspective = perspective;
	s->camera_height_m = 2.2;
	s->cam_x_m = 1.27 * cos(seed * 2.399);
	s->cam_y_m = 1.27 * sin(seed * 2.399);
	s->n_dice = 4;
	for (int k = 0; k < 4; k++) {
		struct vis_render_die *d = &s->dice[k];
		memset(d, 0, sizeof(*d));
		d->x = (k % 2 ? 1 : -1) * 0.022;
		d->y = (k / 2 ? 1 : -1) * 0.022;
		d->face = 1 + (seed * 7 + k * 5) % 6;
		d->angle = fmod(seed * 0.37 + k * 0.9, M_PI / 2);
		memcpy(d->body, (uint8_t[]){ 235, 232, 220 }, 3);
		memcpy(d->pip, (uint8_t[]){ 25, 25, 25 }, 3);
	}
}

/* Die k's top face's centre in the picture: the point 1 side up, seen
 * from the camera (straight above it without perspective). */
static void top_centre(const struct vis_render_scene *s, int k, double *u, double *v)
{
	const struct vis_render_die *d = &s->dice[k];
	double x = d->x, y = d->y;
	if (s->perspective && !d->shape) {
		double f = s->camera_height_m / (s->camera_height_m - s->die_side_m);
		x = s->cam_x_m + (d->x - s->cam_x_m) * f;
		y = s->cam_y_m + (d->y - s->cam_y_m) * f;
	}
	assert_int_equal(vis_homography_apply(s->h, x, y, u, v), 0);
}

struct tally {
	int dice, right, sure_wrong, stray, sure_stray;
};

/* s rendered and read into out (16 finds at most): how many found. */
static int render_and_find(const struct vis_render_scene *s, struct vis_die out[16])
{
	struct vis_image *img;
	char err[256];
	assert_int_equal(vis_render(s, &img, err, sizeof err), 0);
	int n = vis_dice_find(img, NULL, out, 16, err, sizeof err);
	vis_image_free(img);
	assert_true(n >= 0 && n <= 16);
	return n;
}

/* s read, each find paired with the die whose top centre lies within
 * `near` die sides of it (a find further from every die is a stray). */
static void read_tally(const struct vis_render_scene *s, double near, struct tally *t)
{
	struct vis_die out[16];
	int n = render_and_find(s, out);
	int used[16] = { 0 };
	for (int k = 0; k < s->n_dice; k++) {
		double u, v;
		top_centre(s, k, &u, &v);
		t->dice++;
		for (int j = 0; j < n; j++)
			if (!used[j] && hypot(out[j].x - u, out[j].y - v) < near * DIE_PX) {
				used[j] = 1;
				if (out[j].face == s->dice[k].face && !s->dice[k].shape)
					t->right++;
				else if (out[j].confidence >= 0.9)
					t->sure_wrong++;
				break;
			}
	}
	for (int j = 0; j < n; j++)
		if (!used[j]) {
			if (out[j].confidence >= 0.9 && getenv("SIDE_VERBOSE"))
				fprintf(stderr, "  seed %llu: face %d at %.0f,%.0f, %.2f\n", (unsigned long long)s->seed,
					out[j].face, out[j].x, out[j].y, out[j].confidence);
			t->stray++;
			t->sure_stray += out[j].confidence >= 0.9;
		}
}

static void test_vis_render_side_faces_shown_in_perspective(void **state)
{
	(void)state;
	struct vis_render_scene flat, persp;
	scene(&flat, 3, 0);
	scene(&persp, 3, 1);
	struct vis_image *a, *b;
	char err[256];
	assert_int_equal(vis_render(&flat, &a, err, sizeof err), 0);
	assert_int_equal(vis_render(&persp, &b, err, sizeof err), 0);
	/* The die's sides show beyond its flat outline, away from the foot:
	 * many more pixels differ from the tray than seen from above. */
	int da = 0, db = 0;
	for (int i = 0; i < a->width * a->height; i++) {
		da += abs(a->data[3 * i] - flat.tray[0]) > 30;
		db += abs(b->data[3 * i] - flat.tray[0]) > 30;
	}
	fprintf(stderr, "die pixels: %d from above, %d in perspective\n", da, db);
	assert_true(db > 1.3 * da);
	vis_image_free(a);
	vis_image_free(b);
}

static void test_vis_render_side_faces_never_read_as_dice(void **state)
{
	(void)state;
	struct tally t = { 0 };
	for (int i = 0; i < SCENES; i++) {
		struct vis_render_scene s;
		scene(&s, i + 1, 1);
		read_tally(&s, 0.5, &t);
	}
	fprintf(stderr, "perspective: %d dice, %d right, %d wrong at >= 0.9, %d strays (%d at >= 0.9)\n",
		t.dice, t.right, t.sure_wrong, t.stray, t.sure_stray);
	assert_true(t.right >= FLOOR_PERSP_RIGHT * t.dice);
	assert_int_equal(t.sure_wrong, 0);
	assert_true(t.stray <= MAX_PERSP_STRAY);
	assert_int_equal(t.sure_stray, 0);
}

/* How many of s's dice are found more than once: finds within 1.2 sides
 * of a die's top centre, nearer it than any other's (a side face reaches
 * about a side from its top's centre); tops read right into *right. */
static int found_twice(const struct vis_render_scene *s, int *right)
{
	struct vis_die out[16];
	int n = render_and_find(s, out);
	int finds[VIS_RENDER_MAX_DICE] = { 0 }, read[VIS_RENDER_MAX_DICE] = { 0 }, twice = 0;
	for (int j = 0; j < n; j++) {
		double best = 1.2 * DIE_PX;
		int owner = -1;
		for (int k = 0; k < s->n_dice; k++) {
			double u, v;
			top_centre(s, k, &u, &v);
			if (hypot(out[j].x - u, out[j].y - v) < best)
				best = hypot(out[j].x - u, out[j].y - v), owner = k;
		}
		if (owner >= 0) {
			finds[owner]++;
			read[owner] |= out[j].face == s->dice[owner].face;
		}
	}
	for (int k = 0; k < s->n_dice; k++) {
		twice += finds[k] > 1;
		*right += read[k];
	}
	return twice;
}

static void test_vis_render_side_face_in_dim_light_never_a_second_die(void **state)
{
	(void)state;
	int dice = 0, right = 0, twice = 0;
	for (int i = 0; i < SCENES; i++) {
		struct vis_render_scene s;
		scene(&s, i + 1, 1);
		s.light_level = 0.5;
		s.camera_height_m = 1.5;	/* 40 degrees off the vertical at 1.27 m */
		dice += s.n_dice;
		twice += found_twice(&s, &right);
	}
	fprintf(stderr, "dim, at 40 degrees: %d dice, %d read, %d found twice\n", dice, right, twice);
	assert_true(right >= FLOOR_DIM_RIGHT * dice);
	assert_true(twice <= MAX_DIM_TWICE);
}

/* Dice 0 and 1 of s made to touch: 1 beside 0 along its edge, shifted
 * along it by `slide` of a side. */
static void clump(struct vis_render_scene *s, double slide)
{
	double ca = cos(s->dice[0].angle), sa = sin(s->dice[0].angle), e = s->die_side_m;
	s->dice[1].angle = s->dice[0].angle;
	s->dice[1].x = s->dice[0].x + ca * e - sa * slide * e;
	s->dice[1].y = s->dice[0].y + sa * e + ca * slide * e;
}

static void test_vis_render_clump_never_one_sure_die(void **state)
{
	(void)state;
	struct tally t[2] = { 0 };
	for (int p = 0; p < 2; p++)
		for (int i = 0; i < SCENES; i++) {
			struct vis_render_scene s;
			scene(&s, i + 1, p);
			clump(&s, (i % 5) * 0.2);
			read_tally(&s, 0.45, &t[p]);
		}
	for (int p = 0; p < 2; p++) {
		fprintf(stderr, "clumps %s: %d dice, %d right, %d wrong at >= 0.9, %d finds off a die (%d at >= 0.9)\n",
			p ? "in perspective" : "from above", t[p].dice, t[p].right, t[p].sure_wrong, t[p].stray,
			t[p].sure_stray);
		/* a find off every die's centre is two dice read as one, a
		 * part of one, or a side face: never sure */
		assert_int_equal(t[p].sure_stray, 0);
		assert_int_equal(t[p].sure_wrong, 0);
		assert_true(t[p].right >= FLOOR_CLUMP_RIGHT * t[p].dice);
	}
}

static void test_vis_render_polygon_never_a_sure_face(void **state)
{
	(void)state;
	static const int shapes[] = { 3, 5, 8, 10 };
	struct tally t = { 0 };
	for (int p = 0; p < 2; p++)
		for (int i = 0; i < SCENES; i++) {
			struct vis_render_scene s;
			scene(&s, i + 1, p);
			for (int k = 0; k < 4; k++)
				s.dice[k].shape = shapes[(i + k) % 4];
			read_tally(&s, 0.75, &t);
		}
	fprintf(stderr, "polygons: %d, %d read as a face at >= 0.9, %d strays (%d at >= 0.9)\n", t.dice,
		t.sure_wrong, t.stray, t.sure_stray);
	assert_true(t.sure_wrong <= MAX_POLY_SURE);
	assert_int_equal(t.sure_stray, 0);
}

static void test_vis_render_shape_and_camera_checked(void **state)
{
	(void)state;
	struct vis_render_scene s;
	struct vis_image *img = NULL;
	char err[256];
	scene(&s, 1, 1);
	s.dice[2].shape = 2;
	assert_int_equal(vis_render(&s, &img, err, sizeof err), -EINVAL);
	assert_null(img);
	assert_non_null(strstr(err, "die 2: shape 2"));
	s.dice[2].shape = 13;
	assert_int_equal(vis_render(&s, &img, err, sizeof err), -EINVAL);
	s.dice[2].shape = 12;
	s.camera_height_m = 0;
	assert_int_equal(vis_render(&s, &img, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "camera"));
	s.perspective = 0;	/* from above the height only sizes dice in the air */
	s.camera_height_m = 2.2;
	assert_int_equal(vis_render(&s, &img, err, sizeof err), 0);
	vis_image_free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vis_render_shape_and_camera_checked),
		cmocka_unit_test(test_vis_render_side_faces_shown_in_perspective),
		cmocka_unit_test(test_vis_render_side_faces_never_read_as_dice),
		cmocka_unit_test(test_vis_render_side_face_in_dim_light_never_a_second_die),
		cmocka_unit_test(test_vis_render_clump_never_one_sure_die),
		cmocka_unit_test(test_vis_render_polygon_never_a_sure_face),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
