/* Fusion: synthetic observation sequences in, one judged throw out; a cup or
 * mine hit's shake of the table (DD_OBS_TABLE_DEAF) and the landings beside
 * it, and the camera's mine against the discs (BD-O1).
 * The observations: fusion_obs.h. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/fusion_obs.h"

/* A cup hit's shake of the table (DD_OBS_TABLE_DEAF) is no event: with a
 * throw under way it is kept among its observations, and the throw is the
 * cup hit and the floor (BD-P7: 2 points); with none under way it starts
 * none (a shake alone is noise on the table). A window ending before it
 * starts is refused. */
static void test_fusion_table_deaf_window_is_no_event_and_starts_no_throw(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	static struct dd_fused out;	/* large */
	struct dd_fusion f;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_event(DD_SRC_PIEZO, 1000 * MS, 1, BD_EV_CUP),
		obs_deaf(1000 * MS, 1021 * MS),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 1, BD_EV_FLOOR),
	};
	struct dd_obs alone = obs_deaf(9000 * MS, 9021 * MS), bad = obs_deaf(9000 * MS, 8999 * MS);

	(void)state;
	seq[1].ev.player = 2;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_int_equal(out.n_obs, 4);
	assert_int_equal(out.obs[2].kind, DD_OBS_TABLE_DEAF);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[0].kind, BD_EV_CUP);
	assert_int_equal(out.t.events[1].kind, BD_EV_FLOOR);
	assert_int_equal(judge(&out.t).points[BD_TEAM_A], 2);
	assert_int_equal(dd_fusion_add(&f, &alone, &out), 0);
	assert_false(dd_fusion_active(&f));
	assert_true(dd_fusion_deadline(&f) == INT64_MAX);
	assert_int_equal(dd_fusion_add(&f, &bad, &out), -EINVAL);
}

/* a1's throw: the camera alone reports a landing on B's half at cam_ms, a
 * low call from b1's button at 997 ms, b1's cup felt at 1000 ms (the
 * shake's window from 1000.2 ms to 1021 ms when deaf), then the floor.
 * Fused into *out; the camera's landing observation in *cam. */
static void cup_hit_beside(int64_t cam_ms, bool deaf, struct dd_fused *out, struct dd_obs *cam)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_camera_at(cam_ms * MS, 2.2, 0.95),
		obs_event(DD_SRC_BUTTON, 997 * MS, 1, BD_EV_LOW_CALL),
		obs_event(DD_SRC_PIEZO, 1000 * MS, 1, BD_EV_CUP),
		obs_deaf(1000 * MS + 200000, 1021 * MS),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 1, BD_EV_FLOOR),
	};
	size_t n = 0;

	seq[2].ev.player = 2;
	seq[3].ev.player = 2;
	*cam = seq[1];
	dd_fusion_init(&f, &c);
	for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
		if (deaf || seq[i].kind != DD_OBS_TABLE_DEAF)
			seq[n++] = seq[i];
	run(&f, seq, n, out);
}

/* The event of kind in t, or fail. */
static const struct bd_event *event_of(const struct bd_throw *t, enum bd_ev_kind kind)
{
	for (size_t i = 0; i < t->n_events; i++)
		if (t->events[i].kind == kind)
			return &t->events[i];
	fail_msg("no event of kind %d", (int)kind);
	return NULL;
}

/* Where in t the event of kind is. */
static size_t index_of(const struct bd_throw *t, enum bd_ev_kind kind)
{
	return (size_t)(event_of(t, kind) - t->events);
}

/* BD-P5, BD-P7: a die hits b1's cup and comes down beside it 2-16 ms
 * later, while the cup hit's shake holds the table lines off: the discs
 * hear no landing. The camera times the landing with an 11 ms sd, here 5
 * ms before the hit, where the discs were listening and heard nothing: it
 * came after the hit. Put just after it and judged in that order: b1's
 * low call at 997 ms came before the die touched the table, so the throw
 * is dead (BD-P5) where the camera's order (landing, low call, cup) scores
 * 2 (BD-P7). The camera is still one witness and its order a guess: the
 * throw goes to an official (x0.7, as any camera-only landing), who is
 * told of the move and that the order decides. */
static void test_bd_p5_camera_landing_just_before_a_deafening_cup_hit_comes_after_it(void **state)
{
	static struct dd_fused out;	/* large */
	struct dd_obs cam;
	struct bd_ruling r;
	struct bd_throw t;
	char why[DD_WHY_MAX];

	(void)state;
	cup_hit_beside(995, true, &out, &cam);
	assert_true(out.review);
	assert_null(strstr(out.review_why, "felt no landing"));
	assert_non_null(strstr(out.review_why, "timed just before a hit the table sensors felt, "
			       "and it was put after the hit"));
	assert_true(out.landing_moved);
	assert_int_equal(out.landing_at, index_of(&out.t, BD_EV_TABLE));
	assert_true(out.landing_seen_ns == 995 * MS);
	assert_int_equal(out.t.n_events, 4);	/* the deaf window is no event */
	assert_true(index_of(&out.t, BD_EV_LOW_CALL) < index_of(&out.t, BD_EV_CUP));
	assert_true(index_of(&out.t, BD_EV_CUP) < index_of(&out.t, BD_EV_TABLE));
	assert_true(event_of(&out.t, BD_EV_TABLE)->t_ns > 1000 * MS + 200000);
	assert_true(event_of(&out.t, BD_EV_TABLE)->t_ns < 1001 * MS);
	assert_true(fabs(event_of(&out.t, BD_EV_TABLE)->confidence - 0.7 * cam.confidence) < 1e-9);
	r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_true(r.dead);
	assert_int_equal(r.points[BD_TEAM_A], 0);
	assert_non_null(strstr(why, "was put after it, and which came first decides the ruling (BD-P7)"));
	/* The camera's order would have scored. */
	t = out.t;
	assert_true(t.events[0].kind == BD_EV_LOW_CALL && t.events[2].kind == BD_EV_TABLE);
	t.events[0] = out.t.events[2];
	t.events[0].t_ns = 995 * MS;
	t.events[1] = out.t.events[0];
	t.events[2] = out.t.events[1];
	r = judge(&t);
	assert_int_equal(r.points[BD_TEAM_A], 2);
}

/* The same landing without the low call scores 2 either way (BD-P7: a
 * defenders' cup hit directly, or after their half): the move decides
 * nothing, and the official, asked about the camera-only landing, is not
 * told that the order decides. */
static void test_bd_p7_moved_landing_that_decides_nothing_is_not_mentioned(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	static struct dd_fused out;	/* large */
	struct dd_fusion f;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_camera_at(990 * MS, 2.2, 0.95),
		obs_event(DD_SRC_PIEZO, 1000 * MS, 1, BD_EV_CUP),
		obs_deaf(1000 * MS, 1021 * MS),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 1, BD_EV_FLOOR),
	};
	struct bd_ruling r;
	char why[DD_WHY_MAX];

	(void)state;
	seq[2].ev.player = 2;
	dd_fusion_init(&f, &c);
	run(&f, seq, 5, &out);
	assert_true(out.landing_moved);
	assert_true(out.review);
	r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 2);
	assert_string_equal(why, "the camera alone saw the first landing, timed just before a hit "
			    "the table sensors felt, and it was put after the hit");
}

/* A camera landing 40 ms before the hit is beyond its timing error (3 sd,
 * 33 ms): the discs, listening then, should have felt it, so it stays
 * where the camera put it, doubted (x0.7) and reviewed; so is one 5 ms
 * before a hit that did not shake the table (no deaf window): the discs
 * would have heard it either side of the hit. */
static void test_fusion_camera_landing_far_before_or_without_a_deaf_window_is_doubted(void **state)
{
	static struct dd_fused out;	/* large */
	static const struct {
		int64_t cam_ms;	/* the camera's landing */
		bool deaf;	/* the hit shook the table */
	} cases[] = { { 960, true }, { 995, false } };
	struct dd_obs cam;

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		cup_hit_beside(cases[k].cam_ms, cases[k].deaf, &out, &cam);
		assert_false(out.landing_moved);
		assert_true(out.review);
		assert_non_null(strstr(out.review_why, "the table sensors felt no landing"));
		assert_int_equal(index_of(&out.t, BD_EV_TABLE), 0);
		assert_true(event_of(&out.t, BD_EV_TABLE)->t_ns == cases[k].cam_ms * MS);
		assert_true(fabs(event_of(&out.t, BD_EV_TABLE)->confidence - 0.7 * cam.confidence) < 1e-9);
	}
}

/* BD-P3: the discs felt the first landing on B's half at 900 ms; the
 * camera alone reports a bounce 5 ms before b1's cup is hit and shakes
 * the table. Only a first landing is moved after such a hit: this bounce
 * stays where the camera timed it, and as a later bounce it changes
 * nothing and asks nobody. */
static void test_bd_p3_camera_bounce_just_before_a_deafening_cup_hit_stays_in_place(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	static struct dd_fused out;	/* large */
	struct dd_fusion f;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 900 * MS, 1, BD_HALF_B),
		obs_camera_at(995 * MS, 2.2, 0.95),
		obs_event(DD_SRC_PIEZO, 1000 * MS, 1, BD_EV_CUP),
		obs_deaf(1000 * MS, 1021 * MS),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 1, BD_EV_FLOOR),
	};

	(void)state;
	seq[3].ev.player = 2;
	dd_fusion_init(&f, &c);
	run(&f, seq, 6, &out);
	assert_false(out.landing_moved);
	assert_false(out.review);
	assert_string_equal(out.review_why, "");
	assert_int_equal(out.t.n_events, 4);
	assert_true(out.t.events[1].kind == BD_EV_TABLE && out.t.events[1].t_ns == 995 * MS);
	assert_int_equal(out.t.events[2].kind, BD_EV_CUP);
}

/* BD-P7: no toss seen (the camera missed it), and b1's cup hit starts
 * the throw; its shake of the table reaches fusion before or after it
 * (the sensors' pipeline hands over first whichever started earlier, of
 * a hit held while the shake's impact was open). The camera alone
 * reports a landing 5 ms before the hit, where the discs heard none:
 * either way it is put after the hit, and the throw is ruled and
 * reviewed alike (2 points, the move's reason). A shake whose window
 * ended 79 ms before the throw's first observation is not the throw's:
 * the landing is then doubted as one the discs should have felt. */
static void test_bd_p7_shake_before_the_hit_that_starts_the_throw_counts_as_after(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	static struct dd_fused before, after;	/* large */
	struct dd_fusion f;
	struct dd_obs hit = obs_event(DD_SRC_PIEZO, 1000 * MS, 1, BD_EV_CUP);
	struct dd_obs shake = obs_deaf(1000 * MS + 200000, 1021 * MS);
	struct dd_obs cam = obs_camera_at(995 * MS, 2.2, 0.95);
	struct dd_obs floor = obs_event(DD_SRC_PIEZO, 1500 * MS, 1, BD_EV_FLOOR);
	char why_before[DD_WHY_MAX], why_after[DD_WHY_MAX];
	struct bd_ruling r_before, r_after;

	(void)state;
	hit.ev.player = 2;
	{
		struct dd_obs seq[] = { shake, hit, cam, floor };

		dd_fusion_init(&f, &c);
		run(&f, seq, 4, &before);
	}
	{
		struct dd_obs seq[] = { hit, shake, cam, floor };

		dd_fusion_init(&f, &c);
		run(&f, seq, 4, &after);
	}
	assert_true(after.landing_moved);
	assert_string_equal(after.review_why, "the camera alone saw the first landing, timed just "
			    "before a hit the table sensors felt, and it was put after the hit");
	assert_int_equal(before.landing_moved, after.landing_moved);
	assert_string_equal(before.review_why, after.review_why);
	assert_int_equal(before.n_obs, 4);
	assert_int_equal(before.t.n_events, after.t.n_events);
	for (size_t i = 0; i < after.t.n_events; i++) {
		assert_int_equal(before.t.events[i].kind, after.t.events[i].kind);
		assert_true(before.t.events[i].t_ns == after.t.events[i].t_ns);
		assert_true(before.t.events[i].confidence == after.t.events[i].confidence);
	}
	r_before = judge_fused(&before, 0, 0, why_before);
	r_after = judge_fused(&after, 0, 0, why_after);
	assert_int_equal(r_after.points[BD_TEAM_A], 2);
	assert_true(r_after.review);
	assert_true(dd_ruling_same_outcome(&r_before, &r_after));
	assert_int_equal(r_before.review, r_after.review);
	assert_string_equal(why_before, why_after);

	/* the shake of something else, over before the throw began */
	shake.t_ns = 900 * MS;
	shake.until_ns = 921 * MS;
	{
		struct dd_obs seq[] = { shake, hit, cam, floor };

		dd_fusion_init(&f, &c);
		run(&f, seq, 4, &before);
	}
	assert_int_equal(before.n_obs, 3);
	assert_false(before.landing_moved);
	assert_non_null(strstr(before.review_why, "the table sensors felt no landing"));
}

/* b1's cup hit at 1000 ms shakes the table until 1021 ms, the shake handed
 * over before any of the throw; the camera alone reports a landing 5 ms
 * before the hit, then the floor. first (may be NULL) comes between the
 * shake and the hit; drop: dd_fusion_drop() comes right after the shake.
 * Fused into *out. */
static void shake_then_throw(const struct dd_obs *first, bool drop, struct dd_fused *out)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_obs hit = obs_event(DD_SRC_PIEZO, 1000 * MS, 1, BD_EV_CUP);
	struct dd_obs shake = obs_deaf(1000 * MS + 200000, 1021 * MS);
	struct dd_obs seq[4];
	size_t n = 0;

	hit.ev.player = 2;
	if (first)
		seq[n++] = *first;
	seq[n++] = hit;
	seq[n++] = obs_camera_at(995 * MS, 2.2, 0.95);
	seq[n++] = obs_event(DD_SRC_PIEZO, 1500 * MS, 1, BD_EV_FLOOR);
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &shake, out), 0);
	if (drop)
		dd_fusion_drop(&f);
	run(&f, seq, n, out);
}

/* BD-P7: the camera's report of the toss's apex, made at 600 ms but
 * delivered after the shake, starts the throw: the shake came during
 * that throw, and the landing the camera timed 5 ms before the hit is
 * put after it, as when the shake comes while the throw is under way. */
static void test_bd_p7_shake_during_a_throw_reported_after_it_counts(void **state)
{
	static struct dd_fused out;	/* large */
	struct dd_obs apex = obs_kind(DD_OBS_APEX, DD_SRC_CAMERA, 600 * MS);

	(void)state;
	shake_then_throw(&apex, false, &out);
	assert_int_equal(out.n_obs, 5);
	assert_true(out.landing_moved);
	assert_non_null(strstr(out.review_why, "it was put after the hit"));
}

/* A shake kept for the next throw is forgotten with the throw dropped
 * (the game it would join is over): the next throw's camera landing
 * before the hit is doubted as one the discs should have felt. */
static void test_fusion_drop_forgets_a_shake_kept_for_the_next_throw(void **state)
{
	static struct dd_fused out;	/* large */

	(void)state;
	shake_then_throw(NULL, false, &out);
	assert_int_equal(out.n_obs, 4);
	assert_true(out.landing_moved);
	shake_then_throw(NULL, true, &out);
	assert_int_equal(out.n_obs, 3);
	assert_false(out.landing_moved);
	assert_non_null(strstr(out.review_why, "the table sensors felt no landing"));
}

/* A shake kept while no throw was under way, made after the throw that
 * then starts was over (its floor at 400 ms: settled at 800 ms, before
 * the shake at 1000 ms), is not that throw's: it waits for the next, whose
 * cup hit made it, and that throw's camera landing timed 5 ms before the
 * hit is put after it, as when the shake comes while it is under way. */
static void test_bd_p7_shake_after_a_throw_settled_is_the_next_throws(void **state)
{
	static struct dd_fused out;	/* large */
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_obs shake = obs_deaf(1000 * MS + 200000, 1021 * MS);
	struct dd_obs early = obs_event(DD_SRC_PIEZO, 400 * MS, 1, BD_EV_FLOOR);
	struct dd_obs seq[3] = {
		obs_event(DD_SRC_PIEZO, 1000 * MS, 1, BD_EV_CUP),
		obs_camera_at(995 * MS, 2.2, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 1, BD_EV_FLOOR),
	};

	(void)state;
	seq[0].ev.player = 2;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &shake, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &early, &out), 0);
	/* the hit's time comes: the floor's throw settled before it */
	assert_int_equal(dd_fusion_tick(&f, seq[0].t_ns, &out), 1);
	assert_int_equal(out.n_obs, 1);
	run(&f, seq, 3, &out);
	assert_int_equal(out.n_obs, 4);
	assert_true(out.landing_moved);
}

/* a1's throw hits the mine at 1000 ms, its shake holding the table lines
 * off until 1021 ms; the camera alone reports a landing on B's half, 10 cm
 * from the can, at cam_ms; then the floor. Fused into *out; the camera's
 * landing observation in *cam. */
static void mine_hit_beside(int64_t cam_ms, struct dd_fused *out, struct dd_obs *cam)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_event(DD_SRC_PIEZO, 1000 * MS, 1, BD_EV_MINE),
		obs_deaf(1000 * MS, 1021 * MS),
		obs_camera_at(cam_ms * MS, 1.32, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 1, BD_EV_FLOOR),
	};

	*cam = seq[3];
	dd_fusion_init(&f, &c);
	run(&f, seq, 5, out);
}

/* BD-O1: the camera's landing beside a mine hit goes to review as one
 * witness (x0.7, doubted once, not x0.49), after the hit in the throw's
 * order, with the reason an official reads; moved says whether fusion put
 * the landing after the hit. */
static void check_mine_hit_beside(int64_t cam_ms, bool moved, const char *why)
{
	static struct dd_fused out;	/* large */
	struct dd_obs cam;

	mine_hit_beside(cam_ms, &out, &cam);
	assert_true(out.review);
	assert_int_equal(out.landing_moved, moved);
	assert_true(index_of(&out.t, BD_EV_MINE) < index_of(&out.t, BD_EV_TABLE));
	assert_string_equal(out.review_why, why);
	assert_true(fabs(event_of(&out.t, BD_EV_TABLE)->confidence - 0.7 * cam.confidence) < 1e-9);
	if (!moved)
		assert_true(event_of(&out.t, BD_EV_TABLE)->t_ns == cam_ms * MS);
}

/* BD-O1: a die hits the mine and comes down on the table 10 ms later, the
 * mine's shake holding the table lines off: the camera alone saw the
 * landing, and the reason names the shake, not the discs' silence. */
static void test_bd_o1_camera_landing_inside_a_mine_shake_names_the_shake(void **state)
{
	(void)state;
	check_mine_hit_beside(1010, false, "the camera alone saw the first landing, while a hit's "
			      "shake held the table sensors off");
}

/* BD-O1: the same landing timed 5 ms before the mine hit is put after it
 * (the mine is no landing, so the table event is still the first touch
 * when fusion weighs it), and the official reads the move's reason alone,
 * not the shake's too. */
static void test_bd_o1_camera_landing_moved_after_a_mine_hit_is_doubted_once(void **state)
{
	(void)state;
	check_mine_hit_beside(995, true, "the camera alone saw the first landing, timed just "
			      "before a hit the table sensors felt, and it was put after the hit");
}

/* BD-O1, BD-P3: the discs felt the first landing on B's half, then a
 * bounce 200 ms later at the moment the camera calls the mine. A die
 * already on the table brushing the can trips no disc, and its bounces
 * shake the table's: the witnesses do not contradict each other there,
 * so the camera's mine is not weighed against the bounce. It stands at
 * the camera's own confidence. */
static void test_bd_o1_camera_mine_at_a_later_bounce_is_not_weighed(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1000 * MS, 0.99, BD_HALF_B),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.99, BD_HALF_B),
		obs_event(DD_SRC_CAMERA, 1205 * MS, 0.95, BD_EV_MINE),
		obs_event(DD_SRC_PIEZO, 1600 * MS, 0.95, BD_EV_FLOOR),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_null(strstr(out.review_why, "camera saw the mine"));
	assert_true(fabs(event_of(&out.t, BD_EV_MINE)->confidence - 0.95) < 1e-9);
}

/* BD-O1, BD-P1: the camera places a contact by the can and calls it the
 * mine (0.95) while the table discs felt a landing on B's half (0.99) at
 * the same moment and the mine's own disc, fitted and working, felt
 * nothing. Two witnesses in conflict: weighed as two likelihoods the table
 * landing is the likelier (0.99 * 0.05 against 0.01 * 0.95), so the die is
 * live and its floor scores for A, or an official looks; never a shotgun
 * and no points on the camera's word alone. */
static void test_bd_o1_camera_mine_against_a_felt_table_landing_is_no_silent_void(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.99, BD_HALF_B),
		obs_event(DD_SRC_CAMERA, 1205 * MS, 0.95, BD_EV_MINE),
		obs_event(DD_SRC_PIEZO, 1600 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];
	struct bd_ruling r;

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	r = judge_fused(&out, 0, 0, why);
	assert_true(r.review || r.points[BD_TEAM_A] == 1);
	for (size_t i = 0; !r.review && i < r.n_duties; i++)
		assert_int_not_equal(r.duties[i].kind, BD_DUTY_SHOTGUN);
	/* the table landing is in the throw, whatever the call */
	bool table = false;
	for (size_t i = 0; i < out.t.n_events; i++)
		table |= out.t.events[i].kind == BD_EV_TABLE;
	assert_true(table);
	/* The same conflict with the mine's disc having felt the hit is none:
	 * the mine stands (BD-O1a), without review. */
	struct dd_obs felt[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.99, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1203 * MS, 0.95, BD_EV_MINE),
		obs_event(DD_SRC_CAMERA, 1205 * MS, 0.95, BD_EV_MINE),
		obs_event(DD_SRC_PIEZO, 1600 * MS, 0.95, BD_EV_FLOOR),
	};
	dd_fusion_init(&f, &c);
	run(&f, felt, 4, &out);
	r = judge_fused(&out, 0, 0, why);
	assert_int_equal(r.points[BD_TEAM_A], 0);
	assert_int_equal(r.points[BD_TEAM_B], 0);
	assert_false(r.review);
}

/* A camera far surer of the mine than the discs of the table (0.999 against
 * 0.6): the mine is the likelier, but it overrules a landing the discs felt
 * with the mine's disc silent, so an official looks (BD-O1). Without a disc
 * under the can the discs' landing says nothing against the mine (a hit
 * shakes the table): review too. */
static void test_bd_o1_surer_camera_mine_against_the_discs_goes_to_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.6, BD_HALF_B),
		obs_event(DD_SRC_CAMERA, 1205 * MS, 0.999, BD_EV_MINE),
		obs_event(DD_SRC_PIEZO, 1600 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];
	struct bd_ruling r;

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_non_null(strstr(why, "mine"));
	c.mine_disc_present = false;
	seq[0].confidence = 0.99;
	seq[1].confidence = 0.95;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fusion_table_deaf_window_is_no_event_and_starts_no_throw),
		cmocka_unit_test(test_bd_p5_camera_landing_just_before_a_deafening_cup_hit_comes_after_it),
		cmocka_unit_test(test_bd_p7_moved_landing_that_decides_nothing_is_not_mentioned),
		cmocka_unit_test(test_fusion_camera_landing_far_before_or_without_a_deaf_window_is_doubted),
		cmocka_unit_test(test_bd_p3_camera_bounce_just_before_a_deafening_cup_hit_stays_in_place),
		cmocka_unit_test(test_bd_p7_shake_before_the_hit_that_starts_the_throw_counts_as_after),
		cmocka_unit_test(test_bd_p7_shake_during_a_throw_reported_after_it_counts),
		cmocka_unit_test(test_fusion_drop_forgets_a_shake_kept_for_the_next_throw),
		cmocka_unit_test(test_bd_p7_shake_after_a_throw_settled_is_the_next_throws),
		cmocka_unit_test(test_bd_o1_camera_landing_inside_a_mine_shake_names_the_shake),
		cmocka_unit_test(test_bd_o1_camera_landing_moved_after_a_mine_hit_is_doubted_once),
		cmocka_unit_test(test_bd_o1_camera_mine_against_a_felt_table_landing_is_no_silent_void),
		cmocka_unit_test(test_bd_o1_camera_mine_at_a_later_bounce_is_not_weighed),
		cmocka_unit_test(test_bd_o1_surer_camera_mine_against_the_discs_goes_to_review),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
