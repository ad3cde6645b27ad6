/* sim_report: recorded console calls and camera reports round-trip, and
 * every malformed line is refused with its line and field named. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/sim.h"

static void test_sim_report_calls_round_trip(void **state)
{
	struct sim_call in[4];
	struct sim_report *r = NULL;
	char buf[2048] = "", err[256];
	size_t n = 0;

	(void)state;
	memset(in, 0, sizeof(in));
	in[0].t_ns = 5;
	in[0].dye_up_missed = true;
	in[1].t_ns = 7;
	in[1].ev.kind = BD_EV_LOW_CALL;
	in[1].ev.player = 2;
	in[2].t_ns = 9;
	in[2].ev.kind = BD_EV_CATCH;
	in[2].ev.player = 3;
	in[2].ev.hands = 2;
	in[2].ev.trapped = true;
	in[3].t_ns = 11;
	in[3].ev.kind = BD_EV_KICK;
	in[3].ev.player = 0;
	strcpy(in[3].ev.part, "thigh");
	for (int i = 0; i < 4; i++) {
		char *s = sim_call_json(&in[i]);

		assert_non_null(s);
		strcat(buf, s);
		strcat(buf, "\n\n");	/* blank lines are skipped */
		free(s);
	}
	assert_int_equal(sim_reports_parse("c", buf, strlen(buf), false, &r, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 4);
	assert_true(r[0].call.dye_up_missed);
	assert_int_equal(r[1].call.ev.kind, BD_EV_LOW_CALL);
	assert_int_equal(r[1].call.ev.player, 2);
	assert_int_equal(r[2].call.ev.hands, 2);
	assert_true(r[2].call.ev.trapped);
	assert_false(r[2].call.ev.over_table);
	assert_string_equal(r[3].call.ev.part, "thigh");
	assert_int_equal(r[3].call.t_ns, 11);
	free(r);
}

static void test_sim_report_camera_round_trip(void **state)
{
	struct sim_cam rest = { .t_ns = 100, .kind = SIM_CAM_REST, .owner = BD_NOBODY, .x = 1.25, .y = 0.5 };
	struct sim_cam sink = { .t_ns = 200, .kind = SIM_CAM_SINK, .owner = 1 };
	struct sim_report *r = NULL;
	char buf[1024], err[256], *a = sim_cam_json(&rest, "rest-0001.pgm"), *b = sim_cam_json(&sink, NULL);
	size_t n = 0;

	(void)state;
	snprintf(buf, sizeof(buf), "%s\n%s", a, b);	/* no newline at the end */
	free(a);
	free(b);
	assert_int_equal(sim_reports_parse("k", buf, strlen(buf), true, &r, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(r[0].cam.kind, SIM_CAM_REST);
	assert_float_equal(r[0].cam.x, 1.25, 1e-12);
	assert_string_equal(r[0].crop, "rest-0001.pgm");
	assert_int_equal(r[1].cam.kind, SIM_CAM_SINK);
	assert_int_equal(r[1].cam.owner, 1);
	free(r);
	/* The tracker's reports during the throw. */
	static const enum sim_cam_kind kinds[] = { SIM_CAM_LANDING, SIM_CAM_MINE, SIM_CAM_EXIT };
	for (int i = 0; i < 3; i++) {
		struct sim_cam c = { .t_ns = 300 + i, .kind = kinds[i], .owner = BD_NOBODY, .x = 1.5,
				     .y = 0.25, .confidence = 0.875 };

		a = sim_cam_json(&c, NULL);
		assert_non_null(a);
		assert_int_equal(sim_reports_parse("k", a, strlen(a), true, &r, &n, err, sizeof(err)), 0);
		free(a);
		assert_int_equal(n, 1);
		assert_int_equal(r[0].cam.kind, kinds[i]);
		assert_int_equal(r[0].cam.t_ns, 300 + i);
		assert_float_equal(r[0].cam.x, 1.5, 1e-12);
		assert_float_equal(r[0].cam.y, 0.25, 1e-12);
		assert_float_equal(r[0].cam.confidence, 0.875, 1e-12);
		free(r);
	}
}

static void refused(const char *text, bool camera, const char *want)
{
	struct sim_report *r = (struct sim_report *)1;
	size_t n = 99;
	char err[256] = "";

	assert_int_equal(sim_reports_parse("f.jsonl", text, strlen(text), camera, &r, &n, err,
					   sizeof(err)), -EINVAL);
	assert_null(r);
	assert_int_equal(n, 0);
	if (!strstr(err, want))
		fail_msg("'%s': got '%s', want '%s'", text, err, want);
}

static void test_sim_report_refuses_malformed_lines_naming_them(void **state)
{
	(void)state;
	refused("{\"t_ns\":1,\"call\":\"low_call\",\"by\":\"b1\"}\nnot json\n", false, "f.jsonl:2: not a JSON object");
	refused("[1]", false, "f.jsonl:1: not a JSON object");
	refused("{\"call\":\"low_call\",\"by\":\"b1\"}", false, "f.jsonl:1: t_ns");
	refused("{\"t_ns\":-4,\"call\":\"low_call\",\"by\":\"b1\"}", false, "t_ns");
	refused("{\"t_ns\":1,\"call\":\"low_call\",\"by\":\"zz\"}", false, "by: not a player");
	refused("{\"t_ns\":1,\"call\":\"juggle\",\"by\":\"a1\"}", false, "call: not low_call");
	refused("{\"t_ns\":1,\"call\":\"catch\",\"by\":\"a1\",\"hands\":3}", false, "hands: not 1 or 2");
	refused("{\"t_ns\":1,\"call\":\"catch\",\"by\":\"a1\",\"trapped\":1}", false, "trapped");
	refused("{\"t_ns\":1,\"call\":\"kick\",\"by\":\"a1\",\"part\":\"aaaaaaaaaaaaaaaaaaaa\"}", false, "part");
	refused("{\"t_ns\":1,\"call\":\"low_call\",\"by\":\"b1\",\"extra\":2}", false, "extra: unknown field");
	refused("{\"t_ns\":1,\"t_ns\":2,\"call\":\"dye_up_missed\"}", false, "not a JSON object");
	refused("{\"t_ns\":1,\"kind\":\"rest\",\"x\":1,\"y\":1,\"crop\":\"../etc/passwd\"}", true, "crop");
	refused("{\"t_ns\":1,\"kind\":\"rest\",\"x\":1,\"y\":1,\"crop\":\"a/b.pgm\"}", true, "crop");
	refused("{\"t_ns\":1,\"kind\":\"rest\",\"x\":1e300,\"y\":1,\"crop\":\"r.pgm\"}", true, "x: not a position");
	refused("{\"t_ns\":1,\"kind\":\"rest\",\"y\":1,\"crop\":\"r.pgm\"}", true, "x: missing");
	refused("{\"t_ns\":1,\"kind\":\"sink\"}", true, "owner: missing");
	refused("{\"t_ns\":1,\"kind\":\"fly\"}", true, "kind: not toss, sink, rest, landing, mine or exit");
	refused("{\"t_ns\":1,\"kind\":\"landing\",\"x\":1,\"y\":1}", true, "confidence: missing");
	refused("{\"t_ns\":1,\"kind\":\"mine\",\"x\":1,\"y\":1,\"confidence\":1.5}", true, "confidence");
	refused("{\"t_ns\":1,\"kind\":\"exit\",\"x\":1,\"confidence\":0.8}", true, "y: missing");
	refused("{\"t_ns\":1,\"kind\":\"exit\",\"x\":1,\"y\":1,\"confidence\":0.8,\"crop\":\"a\"}", true, "crop: unknown field");
	refused("{\"t_ns\":1,\"call\":\"low_call\",\"by\":\"b1\"}", true, "kind: missing");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_report_calls_round_trip),
		cmocka_unit_test(test_sim_report_camera_round_trip),
		cmocka_unit_test(test_sim_report_refuses_malformed_lines_naming_them),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
