/* Fusion: synthetic observation sequences in, one judged throw out. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "daemon/daemon.h"
#include "daemon/fusion.h"
#include "vision/vision.h"

#define MS 1000000LL

static struct dd_fusion_cfg cfg_with(bool piezo, bool camera)
{
	struct dd_fusion_cfg c;

	dd_fusion_cfg_defaults(&c);
	c.piezo_present = piezo;
	c.camera_present = camera;
	return c;
}

static struct dd_obs obs_event(enum dd_source src, int64_t t, double conf, enum bd_ev_kind kind)
{
	struct dd_obs o;

	memset(&o, 0, sizeof(o));
	o.kind = DD_OBS_EVENT;
	o.source = src;
	o.t_ns = t;
	o.confidence = conf;
	o.ev.kind = kind;
	o.ev.player = BD_NOBODY;
	return o;
}

static struct dd_obs obs_table(enum dd_source src, int64_t t, double conf, enum bd_half half)
{
	struct dd_obs o = obs_event(src, t, conf, BD_EV_TABLE);

	o.ev.half = half;
	return o;
}

/* The camera's first landing at (x, 0.6) as the camera glue sends it: the
 * tracker's d that the kink was a contact times its half's probability
 * from the point at the tracker's stated sd (vis_obs_to_event). */
static struct dd_obs obs_camera_at(int64_t t, double x, double d)
{
	struct bd_table tb;
	struct dd_obs o;

	bd_table_defaults(&tb);
	o = obs_table(DD_SRC_CAMERA, t, d * vis_half_confidence(&tb, x, VIS_LANDING_XY_SD_M),
		      bd_table_half(&tb, x));
	o.ev.has_xy = true;
	o.ev.x = x;
	o.ev.y = 0.6;
	return o;
}

/* The piezo fix's first landing at (x, 0.6), sd sigma_m, P(half) conf. */
static struct dd_obs obs_piezo_at(int64_t t, double x, double sigma_m, double conf)
{
	struct bd_table tb;
	struct dd_obs o;

	bd_table_defaults(&tb);
	o = obs_table(DD_SRC_PIEZO, t, conf, bd_table_half(&tb, x));
	o.ev.has_xy = true;
	o.ev.x = x;
	o.ev.y = 0.6;
	o.sigma_m = sigma_m;
	return o;
}

static struct dd_obs obs_kind(enum dd_obs_kind kind, enum dd_source src, int64_t t)
{
	struct dd_obs o;

	memset(&o, 0, sizeof(o));
	o.kind = kind;
	o.source = src;
	o.t_ns = t;
	o.confidence = 0.9;
	return o;
}

/* A cup or mine hit that shook the table at t: the table lines that heard
 * the shake are held off until `until` (dd_sensors_obs_to_fusion). */
static struct dd_obs obs_deaf(int64_t t, int64_t until)
{
	struct dd_obs o = obs_kind(DD_OBS_TABLE_DEAF, DD_SRC_PIEZO, t);

	o.confidence = 1;
	o.until_ns = until;
	return o;
}

/* Feeds observations; returns the tick that completes the throw, checked
 * not to complete it a moment earlier. */
static void run(struct dd_fusion *f, const struct dd_obs *obs, size_t n, struct dd_fused *out)
{
	int64_t deadline;

	for (size_t i = 0; i < n; i++)
		assert_int_equal(dd_fusion_add(f, &obs[i], out), 0);
	assert_true(dd_fusion_active(f));
	deadline = dd_fusion_deadline(f);
	assert_int_equal(dd_fusion_tick(f, deadline - 1, out), 0);
	assert_int_equal(dd_fusion_tick(f, deadline, out), 1);
	assert_false(dd_fusion_active(f));
}

/* fused as the daemon judges it (dd_fused_judge), with the score at a-b
 * and A to throw; why gets the reasons for review. */
static struct bd_ruling judge_fused(const struct dd_fused *fx, int a, int b, char why[DD_WHY_MAX])
{
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct bd_ruling r;
	char err[256];

	bd_match_cfg_init(&cfg);
	bd_state_init(&s, &cfg);
	s.score[BD_TEAM_A] = a;
	s.score[BD_TEAM_B] = b;
	assert_int_equal(dd_fused_judge(&cfg, &s, fx, &r, why, DD_WHY_MAX, err, sizeof(err)), 0);
	return r;
}

/* t alone, as the first throw of a match. */
static struct bd_ruling judge(const struct bd_throw *t)
{
	static struct dd_fused fx;	/* large */
	char why[DD_WHY_MAX];

	memset(&fx, 0, sizeof(fx));
	fx.t = *t;
	return judge_fused(&fx, 0, 0, why);
}

/* BD-P1: piezo and camera agree on B's half, then the floor: one clean point. */
static void test_fusion_agreeing_witnesses_score_bd_p1_without_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_table(DD_SRC_CAMERA, 1225 * MS, 0.85, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct bd_ruling r;

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[0].kind, BD_EV_TABLE);
	assert_int_equal(out.t.events[0].half, BD_HALF_B);
	assert_string_equal(out.t.events[0].source, "piezo+camera");
	assert_true(out.t.events[0].confidence > 0.98);
	assert_int_equal(out.t.events[1].kind, BD_EV_FLOOR);
	assert_false(out.review);
	assert_int_equal(out.t_dead_ns, 1500 * MS);
	assert_int_equal(out.t_last_edge_ns, 1500 * MS);
	r = judge(&out.t);
	assert_int_equal(r.points[BD_TEAM_A], 1);
	assert_false(r.review);
}

/* The camera's late report of a landing is put back in time order. */
static void test_fusion_late_camera_report_is_ordered_by_time(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1300 * MS, 0.95, BD_EV_FLOOR),
		obs_table(DD_SRC_CAMERA, 1210 * MS, 0.85, BD_HALF_B),	/* arrives last */
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[0].kind, BD_EV_TABLE);
	assert_string_equal(out.t.events[0].source, "piezo+camera");
	assert_int_equal(out.t.events[1].kind, BD_EV_FLOOR);
}

/* BD-K9 and BD-K5: a kicked die that reaches the floor with no landing
 * felt never touched the table (a touch on the edge or the underside rings
 * the board like one on the top: the discs under it feel it), so it scores
 * nothing and nobody is asked; one that touched the defenders' half scores. */
static void test_fusion_bd_k9_kicked_to_floor_unlanded_is_ruled_without_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_event(DD_SRC_CONSOLE, 1000 * MS, 1, BD_EV_KICK),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.95, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct dd_obs unlanded[] = { seq[0], seq[1], seq[3] };
	struct bd_ruling r;

	(void)state;
	seq[1].ev.player = 2;
	strcpy(seq[1].ev.part, "foot");
	unlanded[1] = seq[1];
	dd_fusion_init(&f, &c);
	run(&f, unlanded, 3, &out);
	assert_false(out.review);
	r = judge(&out.t);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 0);
	assert_int_equal(r.points[BD_TEAM_B], 0);
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_false(out.review);
	r = judge(&out.t);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);	/* BD-K5 */
}

/* BD-K1, BD-P6, BD-P12, BD-K8: a defender may also kick a die after it
 * touched the table (a short throw bouncing off the attackers' half); that
 * kick is no FIFA and the judge ignores it. A call within the official's
 * delay of the touch cannot say which came first, and here it decides the
 * ruling: short, then an attackers' cup sunk is BD-P12 (2 points to the
 * defenders), kicked back into it is BD-K8 (no points, the kicker kills n'
 * fills). Such a throw goes to an official. */
static void test_fusion_bd_k1_kick_call_near_the_touch_before_a_sink_goes_to_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.95, BD_HALF_A),
		obs_event(DD_SRC_CONSOLE, 1500 * MS, 1, BD_EV_KICK),	/* kicked at 1300 */
		obs_event(DD_SRC_PIEZO, 1700 * MS, 0.95, BD_EV_CUP),
	};
	struct bd_ruling r;
	char why[DD_WHY_MAX];

	(void)state;
	seq[2].ev.player = 2;
	strcpy(seq[2].ev.part, "foot");
	seq[3].ev.player = 1;	/* an attackers' cup */
	seq[3].ev.sink = true;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_false(out.review);	/* fusion cannot tell: the score decides (BD-K2a) */
	assert_true(out.kick_guessed);
	assert_int_equal(out.kick_at, 0);
	/* The two readings the official chooses between differ. */
	r = judge(&out.t);
	assert_int_equal(r.points[BD_TEAM_B], 0);	/* BD-K8, as fused */
	{
		struct bd_throw t = out.t;
		struct bd_event k = t.events[0];

		assert_int_equal(k.kind, BD_EV_KICK);
		t.events[0] = t.events[1];
		t.events[1] = k;
		r = judge(&t);
		assert_int_equal(r.points[BD_TEAM_B], 2);	/* BD-P12 */
	}
	r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_non_null(strstr(why, "BD-K1"));

	/* The same late call before a floor: no points either way, but short
	 * the throw is dead (BD-P6) and kicked onto the attackers' half it is
	 * not (BD-K8): the rulings differ, an official looks. */
	seq[3] = obs_event(DD_SRC_PIEZO, 1700 * MS, 0.95, BD_EV_FLOOR);
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_false(out.review);
	r = judge_fused(&out, 0, 0, why);
	assert_int_equal(r.points[BD_TEAM_A] + r.points[BD_TEAM_B], 0);
	assert_true(r.review);
}

/* BD-K1, BD-K5, BD-P1, BD-K2a: a kick called just after the die landed
 * on the defenders' half, then the floor. Kicked first it is BD-K5, landed
 * first BD-P1 (the kick ignored): one point to the attackers either way,
 * except at game point, where BD-K2a withholds the kicked point and not
 * the other. There the guessed order decides the game: an official looks. */
static void late_kick_then_b_then_floor(struct dd_fused *out)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.95, BD_HALF_B),
		obs_event(DD_SRC_CONSOLE, 1500 * MS, 1, BD_EV_KICK),
		obs_event(DD_SRC_PIEZO, 1700 * MS, 0.95, BD_EV_FLOOR),
	};

	seq[2].ev.player = 2;	/* a defender */
	strcpy(seq[2].ev.part, "foot");
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, out);
	assert_true(out->kick_guessed);
	assert_int_equal(out->t.events[out->kick_at].kind, BD_EV_KICK);
	assert_false(out->review);
}

static void test_fusion_bd_k2a_guessed_kick_order_at_game_point_goes_to_review(void **state)
{
	struct dd_fused out;
	struct bd_ruling r;
	char why[DD_WHY_MAX];

	(void)state;
	late_kick_then_b_then_floor(&out);
	r = judge_fused(&out, 9, 5, why);	/* A at 9 of 10, 5 ahead */
	assert_int_equal(r.points[BD_TEAM_A], 0);	/* BD-K5 withheld (BD-K2a), as fused */
	assert_true(r.review);
	assert_non_null(strstr(why, "BD-K1"));
}

static void test_fusion_bd_k1_guessed_kick_order_off_game_point_rules_without_review(void **state)
{
	struct dd_fused out;
	struct bd_ruling r;
	char why[DD_WHY_MAX];

	(void)state;
	late_kick_then_b_then_floor(&out);
	r = judge_fused(&out, 3, 5, why);
	assert_int_equal(r.points[BD_TEAM_A], 1);	/* BD-K5 or BD-P1 alike */
	assert_false(r.review);
	assert_string_equal(why, "");
}

/* BD-K1, BD-K5: the official enters a kick a moment after it happened, by
 * which time the kicked die may already have touched the table. A FIFA
 * kick is only made on a die that has not touched the table, so the kick
 * goes before that touch; a touch longer ago than an official's delay was
 * before the kick. */
static void test_fusion_bd_k5_late_kick_call_goes_before_the_touch_it_caused(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.95, BD_HALF_B),
		obs_event(DD_SRC_CONSOLE, 1500 * MS, 1, BD_EV_KICK),	/* kicked at ~1000 */
		obs_event(DD_SRC_PIEZO, 1700 * MS, 0.95, BD_EV_FLOOR),
	};
	struct bd_ruling r;

	(void)state;
	seq[2].ev.player = 2;
	strcpy(seq[2].ev.part, "foot");
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_int_equal(out.t.n_events, 3);
	assert_int_equal(out.t.events[0].kind, BD_EV_KICK);
	assert_int_equal(out.t.events[1].kind, BD_EV_TABLE);
	assert_false(out.review);
	r = judge(&out.t);
	assert_int_equal(r.points[BD_TEAM_A], 1);	/* BD-K5 */
	assert_false(r.review);

	/* Touched 1.3 s before the call: the touch came first. */
	seq[2].t_ns = 2500 * MS;
	seq[3].t_ns = 2700 * MS;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_int_equal(out.t.events[0].kind, BD_EV_TABLE);
	assert_int_equal(out.t.events[1].kind, BD_EV_KICK);
}

/* BD-P3: once the die has landed on B's half, a doubtful later bounce
 * cannot change the ruling: neither fusion nor the judge asks. */
static void test_fusion_bd_p3_doubtful_later_bounce_is_no_reason(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.95, BD_HALF_B),
		obs_table(DD_SRC_PIEZO, 1300 * MS, 0.3, BD_HALF_A),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct bd_ruling r;

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_int_equal(out.t.n_events, 3);
	assert_false(out.review);
	r = judge(&out.t);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);
}

/* Two witnesses without points disagree near-evenly (B at 0.85, A at 0.8):
 * their distributions over A, B and the line multiplied, B at
 * 0.085 / (0.085 + 0.06 + 0.0075) = 0.557; the judge asks (review_below),
 * with fusion's reason. (The old rule gave the surer half at |a - b|, 0.05.) */
static void test_fusion_half_disagreement_asks_for_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.85, BD_HALF_B),
		obs_table(DD_SRC_CAMERA, 1220 * MS, 0.8, BD_HALF_A),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.events[0].half, BD_HALF_B);
	assert_true(out.t.events[0].confidence > 0.55 && out.t.events[0].confidence < 0.56);
	assert_non_null(strstr(out.review_why, "disagree on the half"));
	/* core sees the low confidence on the deciding event and asks */
	assert_true(judge(&out.t).review);
	char why[DD_WHY_MAX];
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_non_null(strstr(why, "disagree on the half"));
}

/* BD-P1, BD-P6: both witnesses call B, but both only just: the camera's
 * point 1 mm past the line's edge (B at 0.58 from its 5 mm sd, 0.55 with
 * the tracker's 0.95), the fix's 3.4 mm past it (0.674, sd 9.3 mm). Their
 * doubts are the same one, the line: together B at about 0.74, and the
 * judge asks. Two independent "B or else anything" witnesses
 * (1 - 0.45 * 0.326 = 0.85, the old rule) would rule a point unasked. */
static void test_bd_p6_agreeing_witnesses_both_near_the_line_go_to_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_piezo_at(1200 * MS, 1.2334, 0.0093, 0.674),
		obs_camera_at(1210 * MS, 1.2310, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.events[0].half, BD_HALF_B);
	assert_string_equal(out.t.events[0].source, "piezo+camera");
	assert_true(out.t.events[0].confidence > 0.70 && out.t.events[0].confidence < 0.78);
	assert_float_equal(out.t.events[0].x, 1.2310, 1e-9);	/* the camera's point */
	assert_null(strstr(out.review_why, "disagree"));
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);	/* provisional: B's half, the floor */
}

/* BD-P6: the camera puts the first landing 2 cm inside A's half (4 of its
 * sds from the line's edge: its half at 0.95), the fix on B's at 0.7 (point
 * 2 cm past the line, sd 2 cm): only the camera's point is possible under
 * both, so A's half, short and dead, at nearly 1 and unasked. (The old rule:
 * the surer half at 0.25, a review.) */
static void test_bd_p6_clearly_surer_camera_overrules_the_fix(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_piezo_at(1200 * MS, 1.25, 0.02, 0.7),
		obs_camera_at(1215 * MS, 1.19, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.events[0].half, BD_HALF_A);
	assert_true(out.t.events[0].confidence > 0.999);
	assert_float_equal(out.t.events[0].x, 1.19, 1e-9);
	assert_non_null(strstr(out.review_why, "disagree on the half"));	/* a note, not a review */
	assert_false(out.review);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_true(r.dead);
	assert_int_equal(r.points[BD_TEAM_A] + r.points[BD_TEAM_B], 0);
	assert_string_equal(why, "");
}

/* BD-P6: the camera's point 4 mm inside A's half (A 0.79, line 0.21), the
 * fix 1.5 cm past the line on B's (0.9, sd 1 cm: the line 0.08, A 0.02):
 * B is impossible for the camera, A unlikely for the fix, and the line is
 * what both leave room for, but only just (about 0.57): the judge asks.
 * (The old rule: B at 0.15.) */
static void test_bd_p6_near_even_disagreement_goes_to_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_piezo_at(1200 * MS, 1.245, 0.01, 0.9),
		obs_camera_at(1210 * MS, 1.206, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.events[0].half, BD_HALF_LINE);
	assert_true(out.t.events[0].confidence > 0.5 && out.t.events[0].confidence < 0.65);
	assert_false(out.t.events[0].has_xy);	/* neither witness's point is on the line */
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_non_null(strstr(why, "disagree on the half"));
}

/* BD-P1: two discs heard the landing and their arrival difference calls
 * the line (0.7, no point: A and B 0.15 each); the camera puts it 1.5 cm
 * past the line on B's half (3 of its sds: the line 0.001). B at 0.99, a
 * point unasked. (The old rule: B at 0.25, a review.) */
static void test_bd_p1_line_call_and_a_half_from_the_camera(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.7, BD_HALF_LINE),
		obs_camera_at(1210 * MS, 1.245, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.events[0].half, BD_HALF_B);
	assert_true(out.t.events[0].confidence > 0.99);
	assert_true(out.t.events[0].has_xy);
	assert_float_equal(out.t.events[0].x, 1.245, 1e-9);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);
}

/* BD-P5: a sure low call before the landing makes the throw dead whatever
 * the half, so witnesses disagreeing on it ask nobody. */
static void test_bd_p5_low_call_makes_a_half_disagreement_moot(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_event(DD_SRC_CONSOLE, 1000 * MS, 1.0, BD_EV_LOW_CALL),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_table(DD_SRC_CAMERA, 1220 * MS, 0.6, BD_HALF_A),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	seq[0].ev.player = 2;	/* b1, a defender */
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_false(out.review);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_true(r.dead);
	assert_int_equal(r.points[BD_TEAM_A] + r.points[BD_TEAM_B], 0);
}

/* The camera watched and saw no landing: the piezo's word alone is thin. */
static void test_fusion_camera_saw_no_landing_asks_for_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_kind(DD_OBS_NO_LANDING, DD_SRC_CAMERA, 1225 * MS),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "camera saw no landing"));
	assert_true(out.t.events[0].confidence <= 0.9 * 0.5 + 1e-9);
}

/* BD-P1 rests on the first landing's half. Arrivals no one landing
 * explains (two impacts in one window: a slap on the table as the die
 * lands) reach the discs' fix as a shrug about the half; the judge sends
 * the throw to review, and the official hears why. */
static void test_bd_p1_discs_fitting_no_one_landing_tell_the_official(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.49, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	seq[0].no_point = true;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_non_null(strstr(out.review_why, "no one landing explains"));
	judge_fused(&out, 0, 0, why);
	assert_non_null(strstr(why, "no one landing explains"));
	/* a later bounce that fits no point says nothing of the first (BD-P3) */
	seq[0].no_point = false;
	seq[0].confidence = 0.99;
	struct dd_obs later[] = { seq[0], obs_table(DD_SRC_PIEZO, 1300 * MS, 0.5, BD_HALF_A), seq[1] };

	later[1].no_point = true;
	dd_fusion_init(&f, &c);
	run(&f, later, 3, &out);
	assert_null(strstr(out.review_why, "no one landing explains"));
}

/* Without a camera, the piezo alone is the only witness: no doubt from that. */
static void test_fusion_piezo_alone_without_camera_is_trusted(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_false(out.review);
	assert_true(out.t.events[0].confidence > 0.89);
	assert_string_equal(out.t.events[0].source, "piezo");
}

/* The discs' fix of a landing at the very edge falls a millimetre and a
 * half off the table (it happened on the simulated table): the throw
 * takes the nearest point of the top, so its match log reads back. */
static void test_fusion_landing_fixed_just_off_an_edge_is_on_the_table(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_piezo_at(1200 * MS, -0.0014, 0.01, 0.95),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct bd_match_cfg mc;
	struct mlog_bd *log, *again = NULL;
	char *text = NULL, err[160];
	size_t len;

	(void)state;
	seq[0].ev.y = 1.2236;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_true(out.t.events[0].has_xy);
	assert_true(out.t.events[0].x == 0 && out.t.events[0].y == c.table.width_m);
	assert_int_equal(out.t.events[0].half, BD_HALF_A);
	assert_false(out.review);	/* a fix's error at an edge: nothing to ask */
	bd_match_cfg_init(&mc);
	log = mlog_bd_new("t", &mc);
	assert_non_null(log);
	assert_int_equal(mlog_bd_add_throw(log, &out.t), 1);
	assert_int_equal(mlog_bd_write(log, &text, &len), 0);
	if (mlog_bd_parse("t.jsonl", text, len, &again, err, sizeof(err)))
		fail_msg("%s", err);
	mlog_bd_free(again);
	free(text);
	mlog_bd_free(log);
	/* Placed 10 cm off: moved onto the top as well, but a witness is
	 * wrong about where it came down, and the official is asked. */
	seq[0] = obs_piezo_at(1200 * MS, -0.10, 0.01, 0.95);
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_true(out.t.events[0].x == 0);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "piezo placed the landing 10 cm off the table"));
}

/* The camera misses some landings (a die coming down out of view, a kink
 * too slight at 30 fps): a first landing the discs felt and the camera did
 * not report keeps its confidence; it says nothing of the half. */
static void test_fusion_piezo_landing_the_camera_missed_keeps_its_confidence(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_false(out.review);
	assert_true(out.t.events[0].confidence > 0.89);
	/* The camera alone, with the discs working, is doubted: they feel
	 * every first landing. */
	struct dd_obs cam[] = {
		obs_table(DD_SRC_CAMERA, 1200 * MS, 0.95, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	dd_fusion_init(&f, &c);
	run(&f, cam, 2, &out);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "felt no landing"));
}

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

/* A doubtful piezo half (0.6) and the camera's landing on the same half
 * (0.9), neither with a point: two independent witnesses, their
 * distributions multiplied, 0.54 / (0.54 + 2 * 0.2 * 0.05) = 0.96, ruled
 * without review (BD-P1). */
static void test_bd_p1_camera_landing_settles_a_doubtful_piezo_half(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.6, BD_HALF_B),
		obs_table(DD_SRC_CAMERA, 1210 * MS, 0.9, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	char why[DD_WHY_MAX];

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_false(out.review);
	assert_int_equal(out.t.n_events, 2);
	assert_true(out.t.events[0].confidence > 0.95 && out.t.events[0].confidence < 0.97);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);
}

/* BD-P1, BD-P4: the camera saw the die leave over an edge after landing on
 * B's half; no floor strip fired and no catch was entered (catches are the
 * official's call). A die that leaves the table falls to the floor unless
 * caught: the floor is ruled, as sure as the camera's exit, a point to A. */
static void test_bd_p1_die_seen_leaving_with_no_catch_entered_reached_the_floor(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 1.0, BD_HALF_B),
		obs_kind(DD_OBS_OFF_TABLE, DD_SRC_CAMERA, 1600 * MS),
	};
	char why[DD_WHY_MAX];

	(void)state;
	seq[1].confidence = 0.85;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_false(out.review);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[1].kind, BD_EV_FLOOR);
	assert_string_equal(out.t.events[1].source, "camera");
	assert_true(out.t.events[1].confidence > 0.84 && out.t.events[1].confidence < 0.86);
	assert_true(out.t.events[1].t_ns > 1600 * MS);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);
	/* A doubtful exit is the official's: the judge asks (review_below). */
	seq[1].confidence = 0.6;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_true(judge_fused(&out, 0, 0, why).review);
}

/* The die came back after the exit (the discs felt it on the table): the
 * exit was not the end, and nobody saw the end: review. */
static void test_fusion_exit_then_a_touch_is_no_floor(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 1.0, BD_HALF_B),
		obs_kind(DD_OBS_OFF_TABLE, DD_SRC_CAMERA, 1600 * MS),
		obs_table(DD_SRC_PIEZO, 1900 * MS, 1.0, BD_HALF_B),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "no end of the throw was seen"));
	for (size_t i = 0; i < out.t.n_events; i++)
		assert_int_not_equal(out.t.events[i].kind, BD_EV_FLOOR);
}

/* A catch entered after the exit ends the throw as a catch (BD-P4): no
 * floor is added. */
static void test_bd_p4_exit_then_a_catch_entered_is_a_catch(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1200 * MS, 1.0, BD_HALF_B),
		obs_kind(DD_OBS_OFF_TABLE, DD_SRC_CAMERA, 1600 * MS),
		obs_event(DD_SRC_CONSOLE, 1900 * MS, 1.0, BD_EV_CATCH),
	};
	char why[DD_WHY_MAX];

	(void)state;
	seq[2].ev.player = 2;	/* b1, a defender */
	seq[2].ev.hands = 1;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_false(out.review);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[1].kind, BD_EV_CATCH);
	struct bd_ruling r = judge_fused(&out, 0, 0, why);
	assert_int_equal(r.points[BD_TEAM_A] + r.points[BD_TEAM_B], 0);
}

/* BD-P4: a defender catches most dice after they leave over an edge, and
 * the official enters the catch up to a second after it. A new toss (the
 * second die, BD-S3, or a caught die tossed back) ending the throw before
 * that second has passed leaves the catch unknown, not absent: no floor
 * may be inferred, and the throw nobody saw end goes to review, as before
 * the exit was read. */
static void test_bd_p4_new_toss_before_a_catch_could_be_entered_infers_no_floor(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 1.0, BD_HALF_B),
		obs_kind(DD_OBS_OFF_TABLE, DD_SRC_CAMERA, 1600 * MS),
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 2300 * MS),
	};
	char why[DD_WHY_MAX];

	(void)state;
	seq[2].confidence = 0.85;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &seq[0], &out), 0);
	assert_int_equal(dd_fusion_add(&f, &seq[1], &out), 0);
	assert_int_equal(dd_fusion_add(&f, &seq[2], &out), 0);
	assert_int_equal(dd_fusion_add(&f, &seq[3], &out), 1);
	for (size_t i = 0; i < out.t.n_events; i++)
		assert_int_not_equal(out.t.events[i].kind, BD_EV_FLOOR);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "no end of the throw was seen"));
	assert_true(judge_fused(&out, 0, 0, why).review);

	/* A toss long enough after the exit for any catch to be in: the
	 * floor stands (BD-P1). */
	seq[3].t_ns = 1600 * MS + 2000 * MS;
	dd_fusion_init(&f, &c);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(dd_fusion_add(&f, &seq[i], &out), 0);
	assert_int_equal(dd_fusion_add(&f, &seq[3], &out), 1);
	assert_false(out.review);
	assert_int_equal(out.t.events[out.t.n_events - 1].kind, BD_EV_FLOOR);
	assert_int_equal(judge_fused(&out, 0, 0, why).points[BD_TEAM_A], 1);
}

/* BD-P5: a low call counts when made before the die hits the table, and
 * the official enters it up to a second after hearing it (a 3 m toss falls
 * from its apex in 0.8 s). Entered 0.3 s after a sure landing on B's half,
 * the call may have come first: dead, or a point to A. Which came first is
 * the official's to settle (review), as a kick's order is (BD-K1). */
static void test_bd_p5_low_call_entered_just_after_the_landing_goes_to_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 1.0, BD_HALF_B),
		obs_event(DD_SRC_CONSOLE, 1500 * MS, 1, BD_EV_LOW_CALL),
		obs_event(DD_SRC_PIEZO, 1600 * MS, 1.0, BD_EV_FLOOR),
	};
	struct bd_ruling r;
	char why[DD_WHY_MAX];

	(void)state;
	seq[2].ev.player = 2;	/* b1, a defender */
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_non_null(strstr(why, "BD-P5"));
	assert_int_equal(r.points[BD_TEAM_A], 1);	/* as entered: after the landing */

	/* The camera put that landing on A's half, the fused B sure enough
	 * to ask nobody: fusion's note explains the review the low call
	 * asked for, so the official reads it after the judge's. */
	{
		struct dd_obs with_cam[] = {
			seq[0], seq[1], obs_table(DD_SRC_CAMERA, 1220 * MS, 0.6, BD_HALF_A), seq[2],
			seq[3],
		};

		dd_fusion_init(&f, &c);
		run(&f, with_cam, 5, &out);
	}
	assert_false(out.review);
	assert_string_equal(out.review_why, "piezo and camera disagree on the half");
	r = judge_fused(&out, 0, 0, why);
	assert_true(r.review);
	assert_string_equal(why, "low call entered just after the first touch, and which came "
			    "first decides the ruling (BD-P5); piezo and camera disagree on the half");

	/* Short (BD-P6): dead whichever came first, nobody is asked. */
	seq[1].ev.half = BD_HALF_A;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_true(r.dead);

	/* Entered before the landing: dead (BD-P5), nothing to settle. */
	seq[1].ev.half = BD_HALF_B;
	seq[2].t_ns = 1100 * MS;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_true(r.dead);

	/* Entered more than the official's second after the landing: made
	 * after it (BD-P5 ignores it), a point to A without review. */
	seq[2].t_ns = 2300 * MS;
	seq[3].t_ns = 2400 * MS;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	r = judge_fused(&out, 0, 0, why);
	assert_false(r.review);
	assert_int_equal(r.points[BD_TEAM_A], 1);
}

/* No dead die seen: the timeout ends the throw, marked for review. */
static void test_fusion_timeout_without_dead_die_asks_for_review(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = { obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B) };

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 1, &out);
	assert_int_equal(out.t_dead_ns, 1200 * MS + c.timeout_ns);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "no end"));
}

/* BD-P9: a re-toss completes the throw at once, without settling. */
static void test_fusion_retoss_completes_at_once_bd_p9(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs t1 = obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B);
	struct dd_obs re = obs_event(DD_SRC_CONSOLE, 1400 * MS, 1, BD_EV_RETOSS);

	(void)state;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &t1, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &re, &out), 1);
	assert_false(dd_fusion_active(&f));
	assert_int_equal(out.t.events[out.t.n_events - 1].kind, BD_EV_RETOSS);
	assert_true(judge(&out.t).retoss);
}

/* A catch kind called from the console within the settle window joins the
 * throw after the floor edge... and one catch ends the throw (BD-P4). */
static void test_fusion_console_catch_is_dead_and_joins_bd_p4(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs ct = obs_event(DD_SRC_CONSOLE, 1500 * MS, 1, BD_EV_CATCH);
	struct dd_obs seq[2];
	struct bd_ruling r;

	(void)state;
	ct.ev.player = 2;	/* b1, a defender */
	ct.ev.hands = 1;
	seq[0] = obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B);
	seq[1] = ct;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[1].kind, BD_EV_CATCH);
	assert_string_equal(out.t.events[1].source, "console");
	r = judge(&out.t);
	assert_int_equal(r.points[BD_TEAM_A], 0);
}

/* BD-P2: "dye up" missed from the console makes the throw score nothing. */
static void test_fusion_dye_up_missed_reaches_the_throw_bd_p2(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, false);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_DYE_UP_MISSED, DD_SRC_CONSOLE, 100 * MS),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_false(out.t.dye_up);
	assert_int_equal(judge(&out.t).points[BD_TEAM_A], 0);
}

/* A toss while a throw never ended: the old one completes, the new starts. */
static void test_fusion_new_toss_completes_unfinished_throw(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs t1 = obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B);
	struct dd_obs toss = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 3000 * MS);

	(void)state;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &t1, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &toss, &out), 1);
	assert_true(out.review);
	assert_int_equal(out.t.n_events, 1);
	assert_true(dd_fusion_active(&f));	/* the new throw is under way */
}

/* A toss that ended the game's winning throw began a throw of a game
 * that is over (BD-W1): dropped, fusion holds nothing of it, its deadline
 * gone; what came before the toss is still too late, and a later
 * observation begins a throw of its own. */
static void test_fusion_drop_forgets_the_throw_under_way_keeps_the_close(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs t1 = obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B);
	struct dd_obs toss = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 3000 * MS);
	struct dd_obs t2 = obs_table(DD_SRC_PIEZO, 3500 * MS, 0.9, BD_HALF_B);
	struct dd_obs old = obs_table(DD_SRC_CAMERA, 2900 * MS, 0.9, BD_HALF_B);
	struct dd_obs floor = obs_event(DD_SRC_PIEZO, 9000 * MS, 0.9, BD_EV_FLOOR);

	(void)state;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &t1, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &toss, &out), 1);
	assert_int_equal(dd_fusion_add(&f, &t2, &out), 0);
	dd_fusion_drop(&f);
	assert_false(dd_fusion_active(&f));
	assert_int_equal(dd_fusion_deadline(&f), INT64_MAX);
	assert_int_equal(dd_fusion_tick(&f, 20000 * MS, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &old, &out), DD_FUSION_LATE);
	assert_int_equal(dd_fusion_add(&f, &floor, &out), 0);
	assert_int_equal(dd_fusion_tick(&f, 9400 * MS, &out), 1);
	assert_int_equal(out.t.n_events, 1);
	assert_int_equal(out.t.events[0].kind, BD_EV_FLOOR);
	dd_fusion_drop(&f);	/* nothing under way: nothing changes */
	assert_int_equal(dd_fusion_add(&f, &old, &out), DD_FUSION_LATE);
}

/* BD-P5 with low_call=auto: the camera's apex (above the table top) comes
 * with its standard deviation, and fusion hands both to the judge, the
 * apex as the toss height above the floor (BD-S7); half a sd above the 3 m
 * minimum is in doubt (P 0.69 < review_below), so too low and dead. */
static void test_fusion_bd_p5_apex_sd_reaches_the_judge(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.95, BD_HALF_B),
		obs_kind(DD_OBS_APEX, DD_SRC_CAMERA, 1200 * MS),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct bd_match_cfg mc;
	struct bd_state s;
	struct bd_ruling r;
	char why[120], err[256];

	(void)state;
	seq[2].apex_m = 3.04 - c.table.height_m;
	seq[2].apex_sd_m = 0.08;
	dd_fusion_init(&f, &c);
	run(&f, seq, 4, &out);
	assert_true(fabs(out.t.apex_m - 3.04) < 1e-9);
	assert_true(out.t.apex_sd_m == 0.08);
	bd_match_cfg_init(&mc);
	mc.house.low_call = BD_LOW_AUTO;
	bd_state_init(&s, &mc);
	assert_int_equal(dd_fused_judge(&mc, &s, &out, &r, why, sizeof(why), err, sizeof(err)), 0);
	assert_true(r.dead);
	assert_int_equal(r.points[BD_TEAM_A], 0);
	assert_non_null(strstr(r.note, "not surely above the minimum"));
}

static void test_fusion_rejects_nonsense_observations(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs bad = obs_table(DD_SRC_PIEZO, 0, 1.5, BD_HALF_B);

	(void)state;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &bad, &out), -EINVAL);
	bad.confidence = 0.5;
	bad.kind = (enum dd_obs_kind)99;
	assert_int_equal(dd_fusion_add(&f, &bad, &out), -EINVAL);
	assert_false(dd_fusion_active(&f));
	assert_int_equal(dd_fusion_deadline(&f), INT64_MAX);
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

/* BD-P1 then a camera report of that throw arriving after it was judged
 * (the camera reports late; a loop held up): it is too late for the throw
 * it belongs to, and must not start a throw of its own, a rest with no
 * landing judged on nothing. One made after the close is the next throw's. */
static void test_fusion_bd_p1_late_report_of_a_judged_throw_starts_none(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 0),
		obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct dd_obs late = obs_event(DD_SRC_CAMERA, 1600 * MS, 0.8, BD_EV_REST);
	struct dd_obs next = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 1900 * MS);

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 3, &out);
	assert_int_equal(out.t.n_events, 2);
	/* closed at 1500 + 400 ms settle: made at 1600, come after */
	assert_int_equal(dd_fusion_add(&f, &late, &out), DD_FUSION_LATE);
	assert_false(dd_fusion_active(&f));
	assert_int_equal(dd_fusion_deadline(&f), INT64_MAX);
	/* a re-toss closes at once: the next throw's toss made at the close is taken */
	assert_int_equal(dd_fusion_add(&f, &next, &out), 0);
	assert_true(dd_fusion_active(&f));
	struct dd_obs retoss = obs_event(DD_SRC_CONSOLE, 2000 * MS, 1, BD_EV_RETOSS);
	struct dd_obs before = obs_table(DD_SRC_CAMERA, 1999 * MS, 0.9, BD_HALF_B);
	assert_int_equal(dd_fusion_add(&f, &retoss, &out), 1);
	assert_int_equal(dd_fusion_add(&f, &before, &out), DD_FUSION_LATE);
	assert_false(dd_fusion_active(&f));
	/* A toss made before a settled throw closed is that throw's, late. */
	struct dd_obs toss_late = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 1950 * MS);
	assert_int_equal(dd_fusion_add(&f, &toss_late, &out), DD_FUSION_LATE);
}

/* A throw nobody saw end times out 6 s after its last observation. The
 * next throw's toss, made just before that but reported by the camera
 * after it, would have closed the old throw had it come in time: it
 * starts the next throw (with its height, BD-S7), and that throw's own
 * reports made after it are taken; the old throw's are still late. */
static void test_fusion_bd_s7_late_toss_after_a_timeout_starts_the_next_throw(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs land = obs_table(DD_SRC_PIEZO, 1200 * MS, 0.9, BD_HALF_B);
	struct dd_obs old = obs_table(DD_SRC_CAMERA, 1100 * MS, 0.9, BD_HALF_B);
	struct dd_obs toss = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 7150 * MS);
	struct dd_obs apex = obs_kind(DD_OBS_APEX, DD_SRC_CAMERA, 7180 * MS);

	(void)state;
	dd_fusion_init(&f, &c);
	apex.apex_m = 3.4;
	assert_int_equal(dd_fusion_add(&f, &land, &out), 0);
	assert_int_equal(dd_fusion_tick(&f, 7200 * MS, &out), 1);	/* 1200 + 6000 ms */
	assert_int_equal(dd_fusion_add(&f, &old, &out), DD_FUSION_LATE);
	assert_int_equal(dd_fusion_add(&f, &toss, &out), 0);
	assert_true(dd_fusion_active(&f));
	assert_int_equal(dd_fusion_add(&f, &apex, &out), 0);
	assert_int_equal(f.cur.n_obs, 2);
}

/* A button's call that fusion refuses (its throw already holds
 * DD_FUSION_MAX_OBS observations) starts no held press: B's catch button
 * pressed again 200 ms later, in the next throw, is that throw's catch,
 * not the first press still held down. */
static void test_fusion_a_refused_button_call_starts_no_held_press(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	static struct dd_fused out;	/* large */
	struct dd_obs ct = obs_event(DD_SRC_BUTTON, 1100 * MS, 1, BD_EV_CATCH);
	struct dd_obs toss = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 1200 * MS);

	(void)state;
	ct.ev.player = 2;	/* b1: B's end */
	ct.ev.hands = 1;
	dd_fusion_init(&f, &c);
	for (int i = 0; i < DD_FUSION_MAX_OBS; i++) {
		struct dd_obs t = obs_table(DD_SRC_PIEZO, (1000 + i) * MS, 0.9, BD_HALF_B);

		assert_int_equal(dd_fusion_add(&f, &t, &out), 0);
	}
	assert_int_equal(dd_fusion_add(&f, &ct, &out), 0);
	assert_int_equal(f.cur.n_obs, DD_FUSION_MAX_OBS);	/* refused: no room */
	assert_int_equal(dd_fusion_add(&f, &toss, &out), 1);
	assert_non_null(strstr(out.review_why, "observations were dropped"));
	ct.t_ns = 1300 * MS;
	assert_int_equal(dd_fusion_add(&f, &ct, &out), 0);
	assert_int_equal(f.cur.n_obs, 2);
	assert_int_equal(f.cur.obs[1].ev.kind, BD_EV_CATCH);
	/* Kept, it is this throw's catch: its second call (on release) is left out. */
	ct.t_ns = 1400 * MS;
	assert_int_equal(dd_fusion_add(&f, &ct, &out), DD_FUSION_REPEAT);
}

/* BD-P9: a re-toss voids a throw with more observations than its events
 * hold (BD_MAX_EVENTS), and one with no room left for them (a line
 * chattering filled it): it is not left out like the rest. */
static void retoss_after(int n_table, bool full)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	static struct dd_fused out;	/* large */
	struct dd_obs re = obs_event(DD_SRC_BUTTON, 1100 * MS, 1, BD_EV_RETOSS);

	dd_fusion_init(&f, &c);
	for (int i = 0; i < n_table; i++) {
		struct dd_obs t = obs_table(DD_SRC_PIEZO, (1000 + i) * MS, 0.9, BD_HALF_B);

		assert_int_equal(dd_fusion_add(&f, &t, &out), 0);
	}
	assert_int_equal(dd_fusion_add(&f, &re, &out), 1);
	assert_false(dd_fusion_active(&f));
	assert_int_equal(out.t.n_events, BD_MAX_EVENTS);
	assert_true(judge(&out.t).retoss);
	assert_non_null(strstr(out.review_why, "more observations than a throw can hold"));
	assert_true(!full || strstr(out.review_why, "observations were dropped"));
}

static void test_fusion_bd_p9_retoss_voids_a_throw_of_too_many_observations(void **state)
{
	(void)state;
	retoss_after(BD_MAX_EVENTS + 8, false);
	retoss_after(DD_FUSION_MAX_OBS, true);
}

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

/* A die the camera saw come to rest at t, (1.8, 0.6), whose face is being
 * read (the face reader's: the rest follows). */
static struct dd_obs obs_pending(int64_t t)
{
	struct dd_obs o = obs_kind(DD_OBS_REST_PENDING, DD_SRC_CAMERA, t);

	o.confidence = 1;
	o.ev.has_xy = true;
	o.ev.x = 1.8;
	o.ev.y = 0.6;
	return o;
}

/* The rest the pending announced, read: face 4, dead at t. */
static struct dd_obs obs_rest(int64_t t)
{
	struct dd_obs o = obs_event(DD_SRC_CAMERA, t, 0.95, BD_EV_REST);

	o.ev.face = 4;
	return o;
}

/* BD-O2 reads the face of a die at rest: while that face is being read,
 * the throw neither settles (after a dead die) nor times out; the rest,
 * once in, ends it and the settle runs from its own time. */
static void test_rest_pending_holds_settle_until_rest(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs land = obs_table(DD_SRC_PIEZO, 1000 * MS, 0.95, BD_HALF_B);
	struct dd_obs sink = obs_event(DD_SRC_PIEZO, 1100 * MS, 0.95, BD_EV_CUP);
	struct dd_obs pend = obs_pending(1200 * MS), rest = obs_rest(1200 * MS);

	(void)state;
	c.timeout_ns = 500 * MS;
	dd_fusion_init(&f, &c);
	/* the timeout: waits for the rest, not 500 ms after the landing */
	assert_int_equal(dd_fusion_add(&f, &land, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &pend, &out), 0);
	assert_int_equal(dd_fusion_deadline(&f), 1200 * MS + c.rest_wait_ns);
	assert_int_equal(dd_fusion_tick(&f, 3000 * MS, &out), 0);
	assert_true(dd_fusion_active(&f));
	assert_int_equal(dd_fusion_add(&f, &rest, &out), 0);
	assert_int_equal(dd_fusion_deadline(&f), 1200 * MS + c.settle_ns);
	assert_int_equal(dd_fusion_tick(&f, 3000 * MS, &out), 1);
	assert_int_equal(out.t.n_events, 2);
	assert_int_equal(out.t.events[1].kind, BD_EV_REST);
	assert_int_equal(out.t.events[1].face, 4);
	assert_int_equal(out.n_obs, 2);	/* the pending is no observation of the throw */

	/* the settle: a dead die (a sink) waits too, for each face being read */
	sink.ev.sink = true;
	sink.ev.player = 2;
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &land, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &sink, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &pend, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &pend, &out), 0);
	assert_int_equal(dd_fusion_tick(&f, 1100 * MS + c.settle_ns, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &rest, &out), 0);
	assert_int_equal(dd_fusion_tick(&f, 1100 * MS + c.settle_ns, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &rest, &out), 0);
	assert_int_equal(dd_fusion_deadline(&f), 1100 * MS + c.settle_ns);
	assert_int_equal(dd_fusion_tick(&f, 1100 * MS + c.settle_ns, &out), 1);
	assert_int_equal(out.t.n_events, 4);
}

/* A read whose rest never comes (the reader stuck past its own limit)
 * holds the throw rest_wait after the pending, no longer: the throw then
 * ends on what it has (nobody saw it end: review), and the rest that
 * comes after that is too late for it. */
static void test_rest_pending_gives_up_after_rest_wait(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs land = obs_table(DD_SRC_PIEZO, 1000 * MS, 0.95, BD_HALF_B);
	struct dd_obs pend = obs_pending(1200 * MS), rest = obs_rest(1200 * MS);
	int64_t until = 1200 * MS + c.rest_wait_ns;

	(void)state;
	assert_true(c.rest_wait_ns > 5000 * MS);	/* the face reader gives up first */
	dd_fusion_init(&f, &c);
	assert_int_equal(dd_fusion_add(&f, &land, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &pend, &out), 0);
	assert_int_equal(dd_fusion_deadline(&f), until);
	assert_int_equal(dd_fusion_tick(&f, until - 1, &out), 0);
	assert_int_equal(dd_fusion_tick(&f, until, &out), 1);
	assert_int_equal(out.t.n_events, 1);
	assert_true(out.review);
	assert_non_null(strstr(out.review_why, "no end"));
	assert_int_equal(dd_fusion_add(&f, &rest, &out), DD_FUSION_LATE);
	assert_false(dd_fusion_active(&f));
}

/* A pending is handled as its rest will be: made before the last throw
 * closed, it is as late as that rest; with no throw under way it starts
 * none and holds nothing (its rest starts the throw it belongs to); a new
 * toss ends the throw that waits, and its rest is then late. */
static void test_rest_pending_without_its_throw_is_handled_as_its_rest(void **state)
{
	struct dd_fusion_cfg c = cfg_with(true, true);
	struct dd_fusion f;
	struct dd_fused out;
	struct dd_obs seq[] = {
		obs_table(DD_SRC_PIEZO, 1000 * MS, 0.95, BD_HALF_B),
		obs_event(DD_SRC_PIEZO, 1500 * MS, 0.95, BD_EV_FLOOR),
	};
	struct dd_obs late = obs_pending(1600 * MS), idle = obs_pending(3000 * MS);
	struct dd_obs rest = obs_rest(3000 * MS);
	struct dd_obs land = obs_table(DD_SRC_PIEZO, 4000 * MS, 0.95, BD_HALF_B);
	struct dd_obs pend = obs_pending(4200 * MS);
	struct dd_obs toss = obs_kind(DD_OBS_TOSS, DD_SRC_CAMERA, 5000 * MS);

	(void)state;
	dd_fusion_init(&f, &c);
	run(&f, seq, 2, &out);
	assert_int_equal(dd_fusion_add(&f, &late, &out), DD_FUSION_LATE);
	assert_int_equal(dd_fusion_add(&f, &idle, &out), 0);
	assert_false(dd_fusion_active(&f));
	assert_int_equal(dd_fusion_deadline(&f), INT64_MAX);
	assert_int_equal(dd_fusion_add(&f, &rest, &out), 0);
	assert_int_equal(dd_fusion_deadline(&f), 3000 * MS + c.settle_ns);
	assert_int_equal(dd_fusion_tick(&f, 3000 * MS + c.settle_ns, &out), 1);
	assert_int_equal(out.t.n_events, 1);
	assert_int_equal(out.t.events[0].kind, BD_EV_REST);

	assert_int_equal(dd_fusion_add(&f, &land, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &pend, &out), 0);
	assert_int_equal(dd_fusion_add(&f, &toss, &out), 1);
	assert_int_equal(out.t.n_events, 1);
	assert_int_equal(dd_fusion_deadline(&f), 5000 * MS + c.timeout_ns);	/* nothing awaited */
	rest.t_ns = rest.ev.t_ns = 4200 * MS;
	assert_int_equal(dd_fusion_add(&f, &rest, &out), DD_FUSION_LATE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fusion_agreeing_witnesses_score_bd_p1_without_review),
		cmocka_unit_test(test_rest_pending_holds_settle_until_rest),
		cmocka_unit_test(test_rest_pending_gives_up_after_rest_wait),
		cmocka_unit_test(test_rest_pending_without_its_throw_is_handled_as_its_rest),
		cmocka_unit_test(test_fusion_bd_p1_late_report_of_a_judged_throw_starts_none),
		cmocka_unit_test(test_fusion_bd_s7_late_toss_after_a_timeout_starts_the_next_throw),
		cmocka_unit_test(test_fusion_bd_p5_apex_sd_reaches_the_judge),
		cmocka_unit_test(test_fusion_bd_k9_kicked_to_floor_unlanded_is_ruled_without_review),
		cmocka_unit_test(test_fusion_bd_k5_late_kick_call_goes_before_the_touch_it_caused),
		cmocka_unit_test(test_fusion_bd_k1_kick_call_near_the_touch_before_a_sink_goes_to_review),
		cmocka_unit_test(test_fusion_bd_k2a_guessed_kick_order_at_game_point_goes_to_review),
		cmocka_unit_test(test_fusion_bd_k1_guessed_kick_order_off_game_point_rules_without_review),
		cmocka_unit_test(test_fusion_bd_p3_doubtful_later_bounce_is_no_reason),
		cmocka_unit_test(test_fusion_late_camera_report_is_ordered_by_time),
		cmocka_unit_test(test_fusion_half_disagreement_asks_for_review),
		cmocka_unit_test(test_bd_p6_agreeing_witnesses_both_near_the_line_go_to_review),
		cmocka_unit_test(test_bd_p6_clearly_surer_camera_overrules_the_fix),
		cmocka_unit_test(test_bd_p6_near_even_disagreement_goes_to_review),
		cmocka_unit_test(test_bd_p1_line_call_and_a_half_from_the_camera),
		cmocka_unit_test(test_bd_p5_low_call_makes_a_half_disagreement_moot),
		cmocka_unit_test(test_fusion_camera_saw_no_landing_asks_for_review),
		cmocka_unit_test(test_bd_p1_discs_fitting_no_one_landing_tell_the_official),
		cmocka_unit_test(test_fusion_piezo_alone_without_camera_is_trusted),
		cmocka_unit_test(test_fusion_landing_fixed_just_off_an_edge_is_on_the_table),
		cmocka_unit_test(test_fusion_piezo_landing_the_camera_missed_keeps_its_confidence),
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
		cmocka_unit_test(test_bd_p1_camera_landing_settles_a_doubtful_piezo_half),
		cmocka_unit_test(test_bd_p1_die_seen_leaving_with_no_catch_entered_reached_the_floor),
		cmocka_unit_test(test_fusion_exit_then_a_touch_is_no_floor),
		cmocka_unit_test(test_bd_p4_exit_then_a_catch_entered_is_a_catch),
		cmocka_unit_test(test_bd_p4_new_toss_before_a_catch_could_be_entered_infers_no_floor),
		cmocka_unit_test(test_bd_p5_low_call_entered_just_after_the_landing_goes_to_review),
		cmocka_unit_test(test_fusion_timeout_without_dead_die_asks_for_review),
		cmocka_unit_test(test_fusion_retoss_completes_at_once_bd_p9),
		cmocka_unit_test(test_fusion_console_catch_is_dead_and_joins_bd_p4),
		cmocka_unit_test(test_fusion_dye_up_missed_reaches_the_throw_bd_p2),
		cmocka_unit_test(test_fusion_new_toss_completes_unfinished_throw),
		cmocka_unit_test(test_fusion_drop_forgets_the_throw_under_way_keeps_the_close),
		cmocka_unit_test(test_fusion_a_refused_button_call_starts_no_held_press),
		cmocka_unit_test(test_fusion_bd_p9_retoss_voids_a_throw_of_too_many_observations),
		cmocka_unit_test(test_fusion_rejects_nonsense_observations),
		cmocka_unit_test(test_fusion_throws_at_the_clock_ends_rule_as_at_one_second),
		cmocka_unit_test(test_fusion_landings_at_the_clock_ends_are_two),
		cmocka_unit_test(test_bd_o1_camera_mine_against_a_felt_table_landing_is_no_silent_void),
		cmocka_unit_test(test_bd_o1_camera_mine_at_a_later_bounce_is_not_weighed),
		cmocka_unit_test(test_bd_o1_surer_camera_mine_against_the_discs_goes_to_review),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
