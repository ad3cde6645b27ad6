/* sim_match and sim_sense: whole matches judged as the truth says, and what
 * the instruments make of a throw. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sim/sim.h"
#include "tests/support/resting_throw.h"

static void test_sim_match_same_seed_same_match_and_over(void **state)
{
	struct sim_match_cfg c;
	struct bd_table tb;
	struct sim_rng ra, rb;
	struct sim_match *a = NULL, *b = NULL;
	char err[256];

	(void)state;
	sim_match_cfg_defaults(&c);
	bd_table_defaults(&tb);
	sim_rng_seed(&ra, 11);
	sim_rng_seed(&rb, 11);
	assert_int_equal(sim_match_play(&c, &tb, 0, &ra, &a, err, sizeof(err)), 0);
	assert_int_equal(sim_match_play(&c, &tb, 0, &rb, &b, err, sizeof(err)), 0);
	assert_int_equal(a->n_throws, b->n_throws);
	assert_memory_equal(a->throws, b->throws, a->n_throws * sizeof(a->throws[0]));
	/* BD-W1: played to 10, won by 2. */
	assert_true(a->state.over);
	assert_true(a->final.score[a->final.winner] >= 10);
	assert_true(a->final.score[a->final.winner] - a->final.score[BD_OTHER(a->final.winner)] >= 2);
	/* Throws follow each other in time; the dice alternate (BD-S3). */
	for (size_t i = 1; i < a->n_throws; i++) {
		assert_true(a->throws[i].t_release_ns > a->throws[i - 1].t_dead_ns);
		assert_int_equal(a->throws[i].die, (int)(i % 2));
	}
	sim_match_free(a);
	sim_match_free(b);
}

/* The truth log, re-read and judged by core, gives the rulings the
 * simulator folded while playing. */
static void test_sim_match_truth_log_judges_to_the_same_rulings(void **state)
{
	struct sim_match_cfg c;
	struct bd_table tb;
	struct sim_rng r;
	struct sim_match *m = NULL;
	struct mlog_bd *log = NULL;
	struct mlog_bd_result res;
	char err[256], *buf = NULL;
	size_t len = 0;

	(void)state;
	sim_match_cfg_defaults(&c);
	bd_table_defaults(&tb);
	sim_rng_seed(&r, 12);
	assert_int_equal(sim_match_play(&c, &tb, 0, &r, &m, err, sizeof(err)), 0);
	assert_int_equal(mlog_bd_write(m->log, &buf, &len), 0);
	assert_int_equal(mlog_bd_parse("truth", buf, len, &log, err, sizeof(err)), 0);
	assert_int_equal(mlog_bd_replay(log, &res, err, sizeof(err)), 0);
	assert_int_equal(res.n, m->n_throws);
	for (size_t i = 0; i < res.n; i++) {
		assert_int_equal(res.rulings[i].points[0], m->rulings[i].points[0]);
		assert_int_equal(res.rulings[i].points[1], m->rulings[i].points[1]);
		assert_int_equal(res.rulings[i].n_duties, m->rulings[i].n_duties);
	}
	assert_int_equal(res.final.score[0], m->final.score[0]);
	assert_int_equal(res.final.score[1], m->final.score[1]);
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
	free(buf);
	sim_match_free(m);
}

/* Without noise every hard contact fires its channel, and nothing else
 * fires: a cup contact its owner's line (and, shaking the top, the table
 * discs: every time at p_shake 1), the floor a floor strip. */
static void test_sim_sense_edges_follow_contacts(void **state)
{
	struct sim_throw_cfg c;
	struct sim_noise n;
	struct sens_config sc;
	struct sim_rng r, s;
	static struct sim_throw t;
	int cups = 0, floors = 0;

	(void)state;
	sim_throw_cfg_defaults(&c);
	sim_noise_defaults(&n, 0);
	n.piezo.p_shake = 1;
	sim_sens_config(&sc);
	sim_rng_seed(&r, 13);
	sim_rng_seed(&s, 14);
	for (int k = 0; k < 300; k++) {
		struct sens_edge *e = NULL;
		size_t ne = 0, cap = 0, hard_table = 0, table_edges = 0, other = 0, want_other = 0;

		sim_throw_play(&c, &sc.table, k % 4, 0, &r, &t);
		assert_int_equal(sim_sense_edges(&n, &sc, &t, &s, &e, &ne, &cap), 0);
		for (size_t i = 0; i < t.n_contacts; i++) {
			const struct sim_contact *x = &t.contacts[i];

			if ((x->kind == SIM_CONTACT_TABLE || x->kind == SIM_CONTACT_CUP ||
			     x->kind == SIM_CONTACT_MINE) && x->strength >= n.min_strength)
				hard_table++;
			if ((x->kind == SIM_CONTACT_CUP && x->strength >= n.min_strength) ||
			    x->kind == SIM_CONTACT_SINK ||
			    (x->kind == SIM_CONTACT_MINE && x->strength >= n.min_strength) ||
			    (x->kind == SIM_CONTACT_FLOOR && x->strength >= n.min_strength))
				want_other++;
		}
		for (size_t i = 0; i < ne; i++) {
			int line = sens_config_line_by_offset(&sc, e[i].line);

			assert_true(line >= 0);
			if (sc.lines[line].role == SENS_ROLE_TABLE) {
				table_edges++;
			} else {
				other++;
				cups += sc.lines[line].role == SENS_ROLE_CUP;
				floors += sc.lines[line].role == SENS_ROLE_FLOOR;
			}
		}
		assert_int_equal(table_edges, hard_table * 4);	/* 4 table discs */
		assert_int_equal(other, want_other);
		free(e);
	}
	assert_true(cups > 5 && floors > 100);
}

static void test_sim_sense_calls_are_the_human_events(void **state)
{
	struct sim_throw_cfg c;
	struct sim_noise n;
	struct bd_table tb;
	struct sim_rng r, s;
	static struct sim_throw t;
	struct sim_call calls[16];
	int low = 0, catches = 0, dye = 0;

	(void)state;
	sim_throw_cfg_defaults(&c);
	sim_noise_defaults(&n, 1);
	bd_table_defaults(&tb);
	sim_rng_seed(&r, 15);
	sim_rng_seed(&s, 16);
	for (int k = 0; k < 500; k++) {
		size_t want = 0, got;

		sim_throw_play(&c, &tb, k % 4, 0, &r, &t);
		for (size_t i = 0; i < t.truth.n_events; i++) {
			enum bd_ev_kind kd = t.truth.events[i].kind;

			want += kd == BD_EV_LOW_CALL || kd == BD_EV_CATCH || kd == BD_EV_KICK;
		}
		want += !t.truth.dye_up;
		got = sim_sense_calls(&n, &t, &s, calls, 16);
		assert_int_equal(got, want);
		for (size_t i = 0; i < got; i++) {
			assert_true(calls[i].t_ns >= t.t_release_ns);
			if (calls[i].dye_up_missed) {
				dye++;
				continue;
			}
			assert_string_equal(calls[i].ev.source, "console");
			low += calls[i].ev.kind == BD_EV_LOW_CALL;
			catches += calls[i].ev.kind == BD_EV_CATCH;
		}
	}
	assert_true(low > 5 && catches > 50 && dye > 2);
}

/* A rendered rest crop is read by vision as the face it shows. */
static void test_sim_render_rest_crop_reads_as_its_face(void **state)
{
	struct sim_noise n;
	struct bd_table tb;
	struct sim_rng r;
	char err[256];
	int right = 0;

	(void)state;
	bd_table_defaults(&tb);
	sim_noise_defaults(&n, 1);
	sim_rng_seed(&r, 17);
	for (int k = 0; k < 60; k++) {
		int face = 1 + k % 6;
		struct vis_image *img = sim_render_rest_crop(&n, &tb, 0.3 + 0.03 * k, 0.2 + 0.01 * k,
								  0.3 + 0.03 * k, 0.2 + 0.01 * k, face, 0.3 * k,
								  128, &r);
		struct vis_die d[4];
		int got;

		assert_non_null(img);
		got = vis_dice_find(img, NULL, d, 4, err, sizeof(err));
		right += got >= 1 && d[0].face == face;
		vis_image_free(img);
	}
	assert_true(right >= 54);
	assert_null(sim_render_rest_crop(&n, &tb, 1, 1, 1, 1, 7, 0, 128, &r));
	assert_null(sim_render_rest_crop(&n, &tb, 1, 1, 1.05, 1, 3, 0, 128, &r));	/* die out of view */
}

/* Mean absolute grey difference of two frames in a box around pixel (u, v). */
static double box_diff(const struct vis_image *a, const struct vis_image *b, int u, int v, int r)
{
	double sum = 0;
	int n = 0;

	for (int y = v - r; y <= v + r; y++)
		for (int x = u - r; x <= u + r; x++) {
			if (x < 0 || y < 0 || x >= a->width || y >= a->height)
				continue;
			for (int c = 0; c < (int)a->format; c++)
				sum += abs((int)a->data[(size_t)y * a->stride + (size_t)x * a->format + c] -
					   (int)b->data[(size_t)y * b->stride + (size_t)x * b->format + c]);
			n += (int)a->format;
		}
	return n ? sum / n : 0;
}

/* The low-resolution stream shows the die where the physics left it, and
 * its Y4M file reads back through vision with the frames promised. */
static void test_sim_frames_show_the_resting_die_and_read_back(void **state)
{
	struct sim_noise n;
	struct bd_table tb;
	static struct sim_throw t;
	struct vis_render_scene s;
	struct vis_image *before, *after, *img = NULL;
	struct vis_y4m *y;
	char err[256], path[] = "/tmp/test_sim_frames_XXXXXX";
	double u, v, w;
	int64_t t0;
	int frames = 0, got = 0, fd, wd, ht, fn, fdn;

	(void)state;
	sim_noise_defaults(&n, 1);
	bd_table_defaults(&tb);
	resting_throw(18, &tb, &t);
	before = sim_render_frame(&n, &tb, &t, t.t_release_ns - 100000000, 1);
	after = sim_render_frame(&n, &tb, &t, t.t_dead_ns + 100000000, 1);
	assert_non_null(before);
	assert_non_null(after);
	vis_render_scene_default(&s);
	w = s.h[6] * t.rest_x + s.h[7] * t.rest_y + s.h[8];
	u = (s.h[0] * t.rest_x + s.h[1] * t.rest_y + s.h[2]) / w;
	v = (s.h[3] * t.rest_x + s.h[4] * t.rest_y + s.h[5]) / w;
	/* The die is there after it came to rest, and nowhere far from it. */
	assert_true(box_diff(before, after, (int)lround(u), (int)lround(v), 3) > 10);
	assert_true(box_diff(before, after, (int)lround(u) + 60, (int)lround(v), 3) < 6);
	vis_image_free(before);
	vis_image_free(after);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sim_frames_write_y4m(path, &n, &tb, &t, 5, &t0, &frames, err, sizeof(err)), 0);
	assert_int_equal(t0, t.t_release_ns - 1000000000);	/* a second of empty table first */
	assert_int_equal(frames, (int)((t.t_dead_ns + 500000000 - t0) / (1000000000 / SIM_FRAME_FPS)) + 1);
	y = vis_y4m_open(path, err, sizeof(err));
	assert_non_null(y);
	vis_y4m_info(y, &wd, &ht, &fn, &fdn);
	assert_int_equal(wd, 640);
	assert_int_equal(ht, 360);
	assert_int_equal(fn / fdn, SIM_FRAME_FPS);
	while (vis_y4m_read(y, &img, err, sizeof(err)) == 1) {
		got++;
		vis_image_free(img);
	}
	assert_int_equal(got, frames);
	vis_y4m_close(y);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_match_same_seed_same_match_and_over),
		cmocka_unit_test(test_sim_match_truth_log_judges_to_the_same_rulings),
		cmocka_unit_test(test_sim_sense_edges_follow_contacts),
		cmocka_unit_test(test_sim_sense_calls_are_the_human_events),
		cmocka_unit_test(test_sim_render_rest_crop_reads_as_its_face),
		cmocka_unit_test(test_sim_frames_show_the_resting_die_and_read_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
