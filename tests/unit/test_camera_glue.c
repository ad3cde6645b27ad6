/* The camera glue's [camera] section (daemon/camera_glue.c), read as
 * `dyeref serve --check-config` reads it (no event loop): calibrate's
 * lines accepted, malformed values refused with their line. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/daemon.h"

static void sink(void *user, const struct dd_obs *o)
{
	(void)user;
	(void)o;
	fail_msg("no observation without an event loop");
}

/* attach with ev NULL: 0 or the error, err filled. */
static int check(const char *text, char *err, size_t errlen)
{
	struct dd_config cfg;
	struct dd_health_item h;
	int rc;

	memset(&h, 0, sizeof(h));
	assert_int_equal(dd_config_load_string(&cfg, "t.ini", text, err, errlen), 0);
	err[0] = '\0';
	rc = dd_camera_attach(&cfg, NULL, false, sink, NULL, &h, err, errlen);
	if (rc == 0) {
		assert_true(h.ok);
		assert_string_equal(h.text, "configured");
		assert_int_equal(dd_config_check_claimed(&cfg, err, errlen), 0);
	}
	dd_camera_detach();
	dd_config_free(&cfg);
	return rc;
}

static void test_camera_config_takes_calibrate_output(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(check("[camera]\n"
			       "corner_a_left = 55.00,45.00\n"
			       "corner_a_right = 79.67,303.39\n"
			       "corner_b_right = 532.19,258.48\n"
			       "corner_b_left = 540.07,14.65\n"
			       "homography = 0.00467,-0.00049,-0.2347,0.00024,0.0042,-0.2022,-0.00012,-0.00011,1\n"
			       "enable = no\nid = /base/soc/i2c0mux/imx708@1a\n"
			       "low_width = 640\nlow_height = 360\nfull_width = 2304\nfull_height = 1296\n",
			       err, sizeof(err)), 0);
	/* Corners alone are a calibration too. */
	assert_int_equal(check("[camera]\ncorner_a_left = 55,45\ncorner_a_right = 79.67, 303.39\n"
			       "corner_b_right = 532.19,258.48\ncorner_b_left = 540.07,14.65\n",
			       err, sizeof(err)), 0);
	assert_int_equal(check("", err, sizeof(err)), 0);
}

static void test_camera_config_errors_name_their_line(void **state)
{
	static const struct {
		const char *text;	/* the file */
		const char *want;	/* part of the message */
	} bad[] = {
		{ "[camera]\n\nhomography = 1,2,3\n", "t.ini:3: camera.homography: needs 9 numbers" },
		{ "[camera]\nhomography = 1,0,0,0,1,0,0,0,1,5\n", "t.ini:2: camera.homography: needs 9" },
		{ "[camera]\nhomography = 0,0,0,0,0,0,0,0,0\n", "t.ini:2: camera.homography: singular" },
		{ "[camera]\nhomography = 1,0,0,0,1,0,0,0,nan\n", "t.ini:2: camera.homography" },
		{ "[camera]\ncorner_a_left = 10,x\n", "t.ini:2: camera.corner_a_left" },
		{ "[camera]\ncorner_a_left = 10,20\n", "camera.corner_a_right: missing" },
		{ "[camera]\ncorner_a_left = 1,1\ncorner_a_right = 1,1\ncorner_b_right = 1,1\ncorner_b_left = 1,1\n",
		  "t.ini:2: camera: the four corners do not outline a table" },
		{ "[camera]\nlow_width = 8\n", "t.ini:2" },
		{ "[camera]\nfull_height = 99999\n", "t.ini:2" },
		{ "[camera]\nfull_width = 1920\n", "t.ini:2: camera: full_width and full_height go together" },
		{ "[camera]\nenable = perhaps\n", "t.ini:2" },
		{ "[camera]\ny4m =\n", "t.ini:2: camera.y4m: needs a file name" },
		{ "[camera]\ny4m = /nonexistent/throw.y4m\n", "t.ini:2: camera.y4m: /nonexistent/throw.y4m: No such file" },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = check(bad[i].text, err, sizeof(err));

		if (rc != -EINVAL || !strstr(err, bad[i].want))
			fail_msg("case %zu: rc %d, '%s', want '%s'", i, rc, err, bad[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_camera_config_takes_calibrate_output),
		cmocka_unit_test(test_camera_config_errors_name_their_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
