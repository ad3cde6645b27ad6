/* Beer Die rules engine: review, errors, corrections, house rules and
 * the rule texts; the rule families have their own files (test_bd_setup.c,
 * test_bd_scoring.c, test_bd_fifa.c, test_bd_other.c).
 * Players and throw specs: bd_match.h, bd_spec.h. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/bd_match.h"

/* ---- Review, errors, corrections -------------------------------------- */

/* Doubt is explicit: a low-confidence event, or an uncertain line call. */
static void test_bd_review_on_doubtful_evidence(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB ?0.95 f");
	assert_false(m.r.review);
	play(&m, A1, "tB ?0.5 f");
	assert_true(m.r.review);
	play(&m, A1, "tL ?0.5 f");	/* BD-P6 by a hair, or live */
	assert_true(m.r.review);
	assert_true(m.r.dead);
	play(&m, A1, "tL ?1 f");
	assert_false(m.r.review);
}

/* BD-P6: the line and the thrower's own half are both dead, so a line
 * call at confidence c is dead with probability at least c: it asks for
 * review below review_below like a call of either half, not at any doubt. */
static void test_bd_p6_line_call_reviewed_like_a_half(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tL ?0.95 f");
	assert_false(m.r.review);
	assert_true(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	play(&m, A1, "tL ?0.8 f");	/* exactly review_below: settled */
	assert_false(m.r.review);
	assert_true(m.r.dead);
	play(&m, A1, "tL ?0.79 f");
	assert_true(m.r.review);
	assert_true(m.r.dead);
	play(&m, A1, "tA ?0.79 f");	/* the same doubt about a short throw */
	assert_true(m.r.review);
	play(&m, A1, "tL ?0.9 tB ?0.3 f");	/* later bounces still ask nobody (BD-P3) */
	assert_false(m.r.review);
}

/* BD-P5: a throw dead by a sure low call before the landing scores nothing
 * wherever it landed, so doubt about the landing's half asks nobody; it
 * still does when the die ends in a cup, where the half names the kill n'
 * fill's rule (BD-R2 short, BD-P13 otherwise). */
static void test_bd_p5_low_call_makes_a_doubtful_landing_moot(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "l3 tB ?0.5 f");
	assert_false(m.r.review);
	assert_true(m.r.dead);
	assert_int_equal(m.r.points[BD_TEAM_A], 0);
	play(&m, A1, "l3 tL ?0.3 f");
	assert_false(m.r.review);
	play(&m, A1, "l3 ?0.5 tB f");	/* the low call itself in doubt */
	assert_true(m.r.review);
	play(&m, A1, "l1 tB ?0.5 f");	/* an attacker's call kills nothing */
	assert_true(m.r.review);
	play(&m, A1, "l3 tA ?0.5 s2");	/* BD-R2 or BD-P13 */
	assert_true(m.r.review);
	assert_true(m.r.dead);
}

/* BD-P3: once the die has landed on the defenders' half, later bounces
 * cannot change the ruling, so doubt about them asks nobody; the first
 * landing (BD-P1) and the die's end still do. */
static void test_bd_p3_review_ignores_doubtful_later_bounces(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB tA ?0.3 f");
	assert_false(m.r.review);
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	play(&m, A1, "tB tB ?0.4 tL ?0.9 f");	/* a later line touch is no BD-P6 */
	assert_false(m.r.review);
	assert_false(m.r.dead);
	play(&m, A1, "c2 tB ?0.2 f");	/* the cup was the first contact (BD-P7) */
	assert_false(m.r.review);
	assert_int_equal(m.r.points[BD_TEAM_A], 2);
}

/* BD-P1, BD-P6: the first table contact decides live or dead, so doubt
 * about it goes to an official however sure the rest is. */
static void test_bd_p1_review_on_a_doubtful_first_landing(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB ?0.5 tB f");
	assert_true(m.r.review);
	play(&m, A1, "tA ?0.6 tB f");	/* short (BD-P6) by a doubtful call */
	assert_true(m.r.review);
	assert_true(m.r.dead);
	play(&m, A1, "k2 ?0.5 tB f");	/* a doubtful kick: BD-K1 or not */
	assert_true(m.r.review);
	play(&m, A1, "tB c2 ?0.5 f");	/* BD-P7: one point or two */
	assert_true(m.r.review);
	play(&m, A1, "tB C2 ?0.5");	/* BD-P4: the catch ends it */
	assert_true(m.r.review);
}

/* BD-P1: nothing after the die is dead changes the ruling; BD-O2: the
 * resting face does, when it is (or may be) a 5. */
static void test_bd_o2_review_on_the_face_not_after_death(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	play(&m, A1, "tB f tB ?0.2 c2 ?0.3");
	assert_false(m.r.review);
	assert_int_equal(m.r.points[BD_TEAM_A], 1);
	play(&m, A1, "tB r3 ?0.5");	/* a doubtful read may hide a 5 */
	assert_true(m.r.review);
	play(&m, A1, "tB r5 ?0.95");
	assert_false(m.r.review);
	assert_string_equal(m.why, "BD-O2");
	play(&m, A1, "tB ?0.2 R");	/* BD-P9: void whatever the landing */
	assert_false(m.r.retoss && m.r.review);
	assert_true(m.r.retoss);
	play(&m, A1, "tB R ?0.5");	/* a doubtful re-toss call */
	assert_true(m.r.review);
}

/* BD-W1, house rules: the settings' bounds and the end-of-game test. */
static void test_bd_w1_house_check_and_score_over(void **state)
{
	struct bd_house h;
	char err[128];

	(void)state;
	bd_house_defaults(&h);
	assert_int_equal(bd_house_check(&h, err, sizeof(err)), 0);
	assert_int_equal(h.target_points, 10);
	assert_int_equal(h.win_by, 2);
	assert_int_equal(h.kill_every, 5);
	assert_int_equal(h.low_call, BD_LOW_MANUAL);
	assert_true(h.illegal_catch_counts_as_floor);
	assert_true(h.fifa_cannot_end_game);
	assert_false(h.popout_is_sink);
	assert_true(h.mine_voids_points);
	assert_true(bd_score_over(&h, (int[2]){ 10, 8 }));
	assert_false(bd_score_over(&h, (int[2]){ 10, 9 }));
	assert_false(bd_score_over(&h, (int[2]){ 9, 0 }));
	assert_true(bd_score_over(&h, (int[2]){ 11, 13 }));
	h.target_points = 0;
	assert_int_equal(bd_house_check(&h, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "house.target_points: 0 is not 1..1000");
	bd_house_defaults(&h);
	h.kill_every = -1;
	assert_int_equal(bd_house_check(&h, err, sizeof(err)), -EINVAL);
	bd_house_defaults(&h);
	h.min_toss_height_m = -0.5;
	assert_int_equal(bd_house_check(&h, err, sizeof(err)), -EINVAL);
	bd_house_defaults(&h);
	h.review_below = 2;
	assert_int_equal(bd_house_check(&h, err, sizeof(err)), -EINVAL);
}

/* BD-W2: kill_every=0 is the "no kill at 5" variant. */
static void test_bd_w2_kill_every_zero_turns_it_off(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	m.cfg.house.kill_every = 0;
	m.s.score[BD_TEAM_A] = 4;
	play(&m, A1, "tB f");
	assert_int_equal(m.r.n_duties, 0);
	assert_string_equal(m.why, "BD-P1");
}

/* BD-W2 with kill_every=1 (or 2, 3): +2 can pass two multiples at once;
 * each is a kill n' fill by BD-W2, and BD-D1 makes them one duty per
 * player, which the ruling must say. Penalty points count as score. */
static void test_bd_w2_d1_two_multiples_in_one_throw_are_one_duty(void **state)
{
	struct match m;

	(void)state;
	match_new(&m);
	m.cfg.house.kill_every = 1;
	play(&m, A1, "tB c2 f");	/* 0 -> 2: passes 1 and 2 */
	assert_int_equal(m.r.score[BD_TEAM_A], 2);
	assert_int_equal(m.r.n_duties, 2);
	assert_int_equal(n_duties(&m.r, KILL, B1), 1);
	assert_int_equal(n_duties(&m.r, KILL, B2), 1);
	assert_string_equal(duty_why(&m.r, KILL, B1), "BD-W2");
	assert_string_equal(m.why, "BD-P7 BD-W2 BD-D1");
	/* One multiple: one duty, no merging to report. */
	play(&m, A2, "tB f");
	assert_int_equal(m.r.n_duties, 2);
	assert_string_equal(m.why, "BD-P1 BD-W2");
	/* A BD-P12 penalty of 2 passes two of B's multiples: A kills. */
	play(&m, A1, "tB s1");
	assert_int_equal(m.r.points[BD_TEAM_B], 2);
	assert_int_equal(n_duties(&m.r, KILL, A1), 1);
	assert_int_equal(n_duties(&m.r, KILL, A2), 1);
	assert_int_equal(n_duties(&m.r, KILL, B1), 0);
	assert_string_equal(duty_why(&m.r, KILL, A2), "BD-P12");
	assert_string_equal(duty_why(&m.r, KILL, A1), "BD-W2");
	assert_string_equal(m.why, "BD-P12 BD-W2 BD-D1");
	/* kill_every=3: 2 -> 4 passes only 3. */
	match_new(&m);
	m.cfg.house.kill_every = 3;
	m.s.score[BD_TEAM_B] = 2;
	play(&m, B1, "tA s0");
	assert_int_equal(m.r.score[BD_TEAM_B], 4);
	assert_int_equal(m.r.n_duties, 2);
	assert_string_equal(duty_why(&m.r, KILL, A1), "BD-P8");
	assert_string_equal(duty_why(&m.r, KILL, A2), "BD-W2");
	assert_string_equal(m.why, "BD-P8 BD-W2 BD-D1");
}

static void test_bd_judge_rejects_bad_players_and_faces(void **state)
{
	struct match m;
	struct bd_throw t;
	char err[128];

	(void)state;
	match_new(&m);
	t = spec_throw("tB f C7");
	assert_int_equal(bd_judge(&m.cfg, &m.s, &t, &m.r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "events[2].by: player 7 is not 0..3");
	t = spec_throw("tB s-1");
	assert_int_equal(bd_judge(&m.cfg, &m.s, &t, &m.r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "events[1].owner: player -1 is not 0..3");
	t = spec_throw("tB r7");
	assert_int_equal(bd_judge(&m.cfg, &m.s, &t, &m.r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "events[1].face: 7 is not 1..6");
	t = spec_throw("tB f");
	t.thrower = 4;
	assert_int_equal(bd_judge(&m.cfg, &m.s, &t, &m.r, err, sizeof(err)), -EINVAL);
	t = spec_throw("tB f");
	m.cfg.house.win_by = 0;
	assert_int_equal(bd_judge(&m.cfg, &m.s, &t, &m.r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "house.win_by: 0 is not 1..100");
}

/* Correcting throw 1 after throw 20: refolding recomputes every later
 * ruling; restating throw 1 unchanged changes nothing. */
static void test_bd_correction_of_throw_one_after_twenty(void **state)
{
	static const char *const specs[20] = {
		"tB f", "tB C3", "tA c0 f", "tA f", "tB f", "tA", "tB r2", "tB f",
		"tB c2 f", "tA f", "tB f", "tB 23", "tA s1", "k0 C1", "tB C2", "tB f",
		"tB f", "tA C0", "tB c3 f", "tA f",
	};
	struct bd_match_cfg cfg;
	struct bd_throw throws[20];
	struct bd_ruling before[20], again[20], after[20];
	struct bd_state s1, s2, s3;
	char err[128];
	size_t bad = 99;

	(void)state;
	bd_match_cfg_init(&cfg);
	for (int i = 0; i < 20; i++)
		throws[i] = spec_throw(specs[i]);
	assert_int_equal(bd_fold(&cfg, throws, 20, &s1, before, &bad, err, sizeof(err)), 0);
	assert_false(s1.over);
	assert_int_equal(s1.n_throws, 20);

	/* Restating throw 1 unchanged. */
	throws[0] = spec_throw("tB f");
	assert_int_equal(bd_fold(&cfg, throws, 20, &s2, again, &bad, err, sizeof(err)), 0);
	for (int i = 0; i < 20; i++)
		assert_true(ruling_same(&before[i], &again[i]));
	assert_memory_equal(&s1, &s2, sizeof(s1));

	/* Throw 1 was really a sink of b1's cup: +1 more for A from there on,
	 * and b1 must follow on A's next point (throw 5). */
	throws[0] = spec_throw("tB s2");
	assert_int_equal(bd_fold(&cfg, throws, 20, &s3, after, &bad, err, sizeof(err)), 0);
	assert_int_equal(after[0].points[BD_TEAM_A], 2);
	assert_int_equal(s3.score[BD_TEAM_A], s1.score[BD_TEAM_A] + 1);
	assert_int_equal(s3.score[BD_TEAM_B], s1.score[BD_TEAM_B]);
	for (int i = 1; i < 20; i++) {
		assert_int_equal(after[i].points[0], before[i].points[0]);
		assert_int_equal(after[i].score[BD_TEAM_A], before[i].score[BD_TEAM_A] + 1);
	}
	assert_int_equal(n_duties(&after[4], FOLLOW, B1), 1);
	assert_int_equal(n_duties(&before[4], FOLLOW, B1), 0);

	/* A correction that makes a later throw illegal names it. */
	struct bd_throw bad_throws[3] = { spec_throw("tB f"), spec_throw("tB f"), spec_throw("C9") };

	assert_int_equal(bd_fold(&cfg, bad_throws, 3, &s3, after, &bad, err, sizeof(err)), -EINVAL);
	assert_int_equal(bad, 2);
}

/* Every rule text exists and is one sentence, under the defaults and under
 * the largest values a house may hold (they fit BD_RULE_TEXT_MAX). */
static void test_bd_rule_text_for_every_id(void **state)
{
	struct bd_house big;
	char text[BD_RULE_TEXT_MAX];

	(void)state;
	bd_house_defaults(&big);
	big.target_points = 1000;
	big.win_by = 100;
	big.kill_every = 1000;
	big.min_toss_height_m = 19.875;
	assert_int_equal(bd_house_check(&big, text, sizeof(text)), 0);
	assert_true(bd_rule_count() >= 49);
	for (size_t i = 0; i < bd_rule_count(); i++) {
		const struct bd_house *houses[] = { NULL, &big };

		for (size_t k = 0; k < 2; k++) {
			assert_ptr_equal(bd_rule_text(bd_rule_id(i), houses[k], text, sizeof(text)), text);
			assert_true(strlen(text) > 10);
			assert_true(strlen(text) < sizeof(text) - 1);
			assert_int_equal(text[strlen(text) - 1], '.');
		}
	}
	assert_null(bd_rule_id(bd_rule_count()));
	assert_null(bd_rule_text("BD-X1", NULL, text, sizeof(text)));
	assert_string_equal(text, "");
	assert_null(bd_rule_text(NULL, NULL, text, sizeof(text)));
	assert_string_equal(bd_rule_text("BD-P7", NULL, text, sizeof(text)),
			    "A cup hit that reaches the floor uncaught scores 2.");
}

/* BD-W1, BD-W2 and BD-S7 state the match's own house rules: a match to 3
 * won by 1 does not read "10 points ... won by 2". */
static void test_bd_w1_w2_s7_texts_state_the_house(void **state)
{
	static const struct {
		int target_points, win_by, kill_every;	/* the house; 0 0 0: NULL, the defaults */
		double min_toss_height_m;
		const char *id, *text;
	} cases[] = {
		{ 10, 2, 5, 3.0, "BD-W1", "The game goes to 10 points and must be won by 2." },
		{ 0, 0, 0, 0, "BD-W1", "The game goes to 10 points and must be won by 2." },
		{ 10, 2, 5, 3.0, "BD-W2", "Each time a team reaches or passes a multiple of 5, both opponents kill n' fill." },
		{ 10, 2, 5, 3.0, "BD-S7", "Every throw must reach the agreed minimum height (3 m)." },
		{ 3, 1, 3, 2.5, "BD-W1", "The first team to 3 points with the lead wins." },
		{ 3, 1, 3, 2.5, "BD-W2", "Each time a team reaches or passes a multiple of 3, both opponents kill n' fill." },
		{ 3, 1, 3, 2.5, "BD-S7", "Every throw must reach the agreed minimum height (2.5 m)." },
		{ 1, 3, 0, 3.0, "BD-W1", "The game goes to 1 point and must be won by 3." },
		{ 1, 3, 0, 3.0, "BD-W2", "No kill n' fill for reaching a score in this match." },
	};
	char text[BD_RULE_TEXT_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bd_house h;

		bd_house_defaults(&h);
		h.target_points = cases[i].target_points;
		h.win_by = cases[i].win_by;
		h.kill_every = cases[i].kill_every;
		h.min_toss_height_m = cases[i].min_toss_height_m;
		assert_string_equal(bd_rule_text(cases[i].id, cases[i].win_by ? &h : NULL,
						 text, sizeof(text)), cases[i].text);
	}
	/* A short buffer gets the start of the text, ended. */
	assert_string_equal(bd_rule_text("BD-W1", NULL, text, 9), "The game");
}

/* docs/beer-die-rules.md and bd_rule_text() list the same IDs (the
 * scoreboard shows the one and links to the other). Runs from the top of
 * the tree, as tests/run does; skipped elsewhere. */
static void test_bd_rule_texts_match_the_rule_book(void **state)
{
	FILE *f = fopen("docs/beer-die-rules.md", "r");
	char line[1024], text[BD_RULE_TEXT_MAX];
	size_t n = 0;

	(void)state;
	if (!f)
		skip();
	while (fgets(line, sizeof(line), f)) {
		char id[16];

		if (sscanf(line, "- **%15[A-Za-z0-9-]**", id) != 1 || strncmp(id, "BD-", 3) != 0)
			continue;
		if (!bd_rule_text(id, NULL, text, sizeof(text)))
			fail_msg("%s is in the rule book but has no bd_rule_text()", id);
		n++;
	}
	fclose(f);
	assert_int_equal(n, bd_rule_count());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bd_review_on_doubtful_evidence),
		cmocka_unit_test(test_bd_p6_line_call_reviewed_like_a_half),
		cmocka_unit_test(test_bd_p5_low_call_makes_a_doubtful_landing_moot),
		cmocka_unit_test(test_bd_p3_review_ignores_doubtful_later_bounces),
		cmocka_unit_test(test_bd_p1_review_on_a_doubtful_first_landing),
		cmocka_unit_test(test_bd_o2_review_on_the_face_not_after_death),
		cmocka_unit_test(test_bd_w1_house_check_and_score_over),
		cmocka_unit_test(test_bd_w2_kill_every_zero_turns_it_off),
		cmocka_unit_test(test_bd_w2_d1_two_multiples_in_one_throw_are_one_duty),
		cmocka_unit_test(test_bd_judge_rejects_bad_players_and_faces),
		cmocka_unit_test(test_bd_correction_of_throw_one_after_twenty),
		cmocka_unit_test(test_bd_rule_text_for_every_id),
		cmocka_unit_test(test_bd_w1_w2_s7_texts_state_the_house),
		cmocka_unit_test(test_bd_rule_texts_match_the_rule_book),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
