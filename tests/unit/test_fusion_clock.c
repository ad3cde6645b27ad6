/* Fusion: synthetic observation sequences in, one judged throw out; times at
 * the two ends of the clock rule as anywhere else.
 * The observations: fusion_obs.h. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/fusion_obs.h"

/* A throw as offsets from a moment it is played at (t_ns, and until_ns
 * of a deaf window), and what it must be ruled. */
struct offset_throw {
	const char *what;	/* for a failure's message */
	bool camera;		/* camera_present */
	int score_a, score_b;	/* the score it is judged at, A to throw */
	int points_a;		/* the points it gives A */
	bool review;		/* an official is asked */
	bool next_toss;		/* ended by the next toss at its last observation's time
				 * (played there at INT64_MAX: its own end is past the clock's) */
	size_t n;
	struct dd_obs seq[6];
};

/* A throw fused and judged. */
struct played {
	struct dd_fused fx;
	struct bd_ruling r;
	char why[DD_WHY_MAX];
	int64_t end;		/* its deadline, from the moment it was played at */
};

/* t from base (no overflow: unsigned arithmetic wraps). */
static uint64_t since_base(int64_t t, int64_t base)
{
	return (uint64_t)t - (uint64_t)base;
}

/* Whether a, from base_a, and b, from base_b, are as long after them, as
 * near as the clock's end allows: a kick put before a touch at INT64_MIN
 * is at the touch's time, not 1 ns before. */
static bool same_since(int64_t a, int64_t base_a, int64_t b, int64_t base_b)
{
	return since_base(a, base_a) - since_base(b, base_b) + 1 <= 2;
}

/* th played from base as the daemon feeds it: time passes to each
 * observation before it comes (it ends no throw: the deadline is later),
 * then to the throw's deadline, which completes it, or the next toss. */

static void play_from(const struct offset_throw *th, int64_t base, struct played *p)
{
	struct dd_fusion_cfg c = cfg_with(true, th->camera);
	struct dd_fusion f;
	int64_t deadline;

	dd_fusion_init(&f, &c);
	for (size_t i = 0; i < th->n; i++) {
		struct dd_obs o = th->seq[i];

		assert_false(__builtin_add_overflow(base, th->seq[i].t_ns, &o.t_ns));
		if (o.kind == DD_OBS_TABLE_DEAF)
			assert_false(__builtin_add_overflow(base, th->seq[i].until_ns, &o.until_ns));
		assert_int_equal(dd_fusion_tick(&f, o.t_ns, &p->fx), 0);
		assert_int_equal(dd_fusion_add(&f, &o, &p->fx), 0);
	}
	if (th->next_toss) {
		struct dd_obs toss = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, base + th->seq[th->n - 1].t_ns);

		p->end = th->seq[th->n - 1].t_ns;
		assert_int_equal(dd_fusion_add(&f, &toss, &p->fx), 1);
	} else {
		deadline = dd_fusion_deadline(&f);
		p->end = (int64_t)since_base(deadline, base);
		assert_int_equal(dd_fusion_tick(&f, deadline - 1, &p->fx), 0);
		assert_int_equal(dd_fusion_tick(&f, deadline, &p->fx), 1);
	}
	p->r = judge_fused(&p->fx, th->score_a, th->score_b, p->why);
}

/* a, played from base_a, and b, from base_b, are one throw fused and
 * ruled alike, each event as long after its start. */
static void assert_same_throw(const struct played *a, int64_t base_a, const struct played *b,
			      int64_t base_b)
{
	assert_int_equal(a->fx.t.n_events, b->fx.t.n_events);
	for (size_t i = 0; i < a->fx.t.n_events; i++) {
		const struct bd_event *x = &a->fx.t.events[i], *y = &b->fx.t.events[i];

		assert_int_equal(x->kind, y->kind);
		assert_string_equal(x->source, y->source);
		assert_true(x->confidence == y->confidence);
		assert_true(same_since(x->t_ns, base_a, y->t_ns, base_b));
	}
	assert_true(same_since(a->fx.t_start_ns, base_a, b->fx.t_start_ns, base_b));
	assert_true(same_since(a->fx.t_dead_ns, base_a, b->fx.t_dead_ns, base_b));
	assert_int_equal(a->fx.review, b->fx.review);
	assert_string_equal(a->fx.review_why, b->fx.review_why);
	assert_int_equal(a->fx.landing_moved, b->fx.landing_moved);
	assert_int_equal(a->fx.kick_guessed, b->fx.kick_guessed);
	assert_true(dd_ruling_same_outcome(&a->r, &b->r));
	assert_int_equal(a->r.review, b->r.review);
	assert_string_equal(a->why, b->why);
}

/* Times come from outside (the GPIO chip's clock, the camera's, the
 * simulator's reports) and may be anywhere in int64: a throw played from
 * INT64_MIN, or ending at INT64_MAX, is fused and ruled as at 1 s (its
 * sums and differences saturate, never wrap): the deaf landing put after
 * the cup hit (BD-P5, BD-P7), a kick put before the touch at game point
 * (BD-K5, BD-K2a), a low call entered after the touch (BD-P5), a camera
 * mine weighed against a felt landing (BD-O1), the floor after an exit
 * (BD-P1: its throw times out, so its end is its timeout), the deaf
 * landing put after a hit at the clock's last moment (nothing after it). */
static void test_fusion_throws_at_the_clock_ends_rule_as_at_one_second(void **state)
{
	struct offset_throw th[] = {
		{ "deaf landing", true, 0, 0, 0, true, false, 6, {
			obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
			obs_camera_at(995 * MS, 2.2, 0.95),
			obs_event(DD_SRC_BUTTON, 997 * MS, 1, BD_EV_LOW_CALL),
			obs_event(DD_SRC_PIEZO, 1000 * MS, 1, BD_EV_CUP),
			obs_deaf(1000 * MS + 200000, 1021 * MS),
			obs_event(DD_SRC_PIEZO, 1500 * MS, 1, BD_EV_FLOOR) } },
		{ "kick", false, 9, 5, 0, true, false, 3, {
			obs_table(DD_SRC_PIEZO, 0, 0.95, BD_HALF_B),
			obs_event(DD_SRC_CONSOLE, 300 * MS, 1, BD_EV_KICK),
			obs_event(DD_SRC_PIEZO, 500 * MS, 0.95, BD_EV_FLOOR) } },
		{ "low call", false, 0, 0, 1, true, false, 3, {
			obs_table(DD_SRC_PIEZO, 0, 1, BD_HALF_B),
			obs_event(DD_SRC_CONSOLE, 300 * MS, 1, BD_EV_LOW_CALL),
			obs_event(DD_SRC_PIEZO, 400 * MS, 1, BD_EV_FLOOR) } },
		{ "camera mine", true, 0, 0, 1, false, false, 3, {
			obs_table(DD_SRC_PIEZO, 0, 0.99, BD_HALF_B),
			obs_event(DD_SRC_CAMERA, 5 * MS, 0.95, BD_EV_MINE),
			obs_event(DD_SRC_PIEZO, 400 * MS, 0.95, BD_EV_FLOOR) } },
		{ "exit", true, 0, 0, 1, false, false, 2, {
			obs_table(DD_SRC_PIEZO, 0, 1, BD_HALF_B),
			obs_kind(DD_OBS_OFF_TABLE, DD_SRC_CAMERA, 400 * MS) } },
		{ "deaf landing at the hit", true, 0, 0, 0, true, true, 5, {
			obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
			obs_camera_at(995 * MS, 2.2, 0.95),
			obs_event(DD_SRC_BUTTON, 997 * MS, 1, BD_EV_LOW_CALL),
			obs_event(DD_SRC_PIEZO, 1000 * MS, 1, BD_EV_CUP),
			obs_deaf(1000 * MS, 1000 * MS) } },
	};
	static struct played at1s, at_end;	/* large */

	(void)state;
	th[0].seq[2].ev.player = 2;
	th[0].seq[3].ev.player = 2;
	th[1].seq[1].ev.player = 2;
	strcpy(th[1].seq[1].ev.part, "foot");
	th[2].seq[1].ev.player = 2;
	th[5].seq[2].ev.player = 2;
	th[5].seq[3].ev.player = 2;
	for (size_t k = 0; k < sizeof(th) / sizeof(th[0]); k++) {
		int64_t ends[2];

		print_message("%s\n", th[k].what);
		play_from(&th[k], 1000 * MS, &at1s);
		ends[0] = INT64_MIN;
		ends[1] = INT64_MAX - at1s.end;	/* its end the clock's last moment */
		assert_int_equal(at1s.r.points[BD_TEAM_A], th[k].points_a);
		assert_int_equal(at1s.r.review, th[k].review);
		for (size_t e = 0; e < 2; e++) {
			play_from(&th[k], ends[e], &at_end);
			assert_same_throw(&at1s, 1000 * MS, &at_end, ends[e]);
		}
	}
}

/* Observations at the two ends of the clock in one throw are 2^64 ns
 * apart, not 20 ms: a mine hit shakes the table at INT64_MIN + 5 ms, the
 * camera alone sees the first landing inside its deaf window, and the
 * discs' landing at INT64_MAX - 10 ms is another, never one seen by both
 * nor one that says the discs heard the first (BD-O1: the camera's is
 * excused by the shake, still doubted, x0.7). The floor's settle ends past
 * the clock's end: no time reaches it, and the next toss ends the throw. */
static void test_fusion_landings_at_the_clock_ends_are_two(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	static struct dd_fused out;	/* large */
	struct dd_fusion f;
	struct dd_obs seq[] = {
		obs_event(DD_SRC_PIEZO, INT64_MIN + 5 * MS, 1, BD_EV_MINE),
		obs_deaf(INT64_MIN + 5 * MS, INT64_MIN + 30 * MS),
		obs_camera_at(INT64_MIN + 10 * MS, 2.2, 0.95),
		obs_piezo_at(INT64_MAX - 10 * MS, 2.2, 0.01, 0.99),
		obs_event(DD_SRC_PIEZO, INT64_MAX - 5 * MS, 1, BD_EV_FLOOR),
	};
	struct dd_obs toss = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, INT64_MAX);

	(void)state;
	dd_fusion_init(&f, &c);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(dd_fusion_add(&f, &seq[i], &out), 0);
	assert_true(dd_fusion_deadline(&f) == INT64_MAX);
	assert_int_equal(dd_fusion_tick(&f, INT64_MAX, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &toss, &out), 1);
	assert_int_equal(out.t.n_events, 4);
	assert_int_equal(out.t.events[0].kind, BD_EV_MINE);
	assert_string_equal(out.t.events[1].source, "camera");
	assert_true(fabs(out.t.events[1].confidence - 0.7 * seq[2].confidence) < 1e-9);
	assert_string_equal(out.t.events[2].source, "piezo");
	assert_int_equal(out.t.events[3].kind, BD_EV_FLOOR);
	assert_non_null(strstr(out.review_why, "the camera alone saw the first landing, while a "
			       "hit's shake held the table sensors off"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fusion_throws_at_the_clock_ends_rule_as_at_one_second),
		cmocka_unit_test(test_fusion_landings_at_the_clock_ends_are_two),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
