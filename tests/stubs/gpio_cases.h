/* The libgpiod backend tests, shared by test_sens_gpio_v1.c and
 * test_sens_gpio_v2.c: each includes this after defining STUB_V, and is
 * linked with its version's backend and stub (sensors/module.mk). Both
 * backends must behave the same through the sens_source interface. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <gpiod.h>

#include "sensors/sensors.h"
#include "tests/stubs/gpiod_stub.h"

static int setup(void **state)
{
	(void)state;
	gpiod_stub_reset();
	return 0;
}

static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static void assert_contains(const char *s, const char *part)
{
	if (!strstr(s, part))
		fail_msg("'%s' does not contain '%s'", s, part);
}

static void assert_all_released(void)
{
	assert_int_equal(gpiod_stub.chips_open, 0);
	assert_int_equal(gpiod_stub.lines_held, 0);
	assert_int_equal(gpiod_stub.objects_live, 0);
}

static void test_gpio_requests_every_line_for_rising_edges(void **state)
{
	struct sens_config c;
	struct sens_source *s;
	char err[256];

	(void)state;
	sens_config_defaults(&c);
	s = sens_gpio_open(&c, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(gpiod_stub.lines_held, (int)c.n_lines);
	assert_int_equal(gpiod_stub.chips_open, 1);
	assert_string_equal(gpiod_stub.consumer, "dyeref");
#if STUB_V == 1
	assert_string_equal(gpiod_stub.opened, "gpiochip0");
	assert_true(gpiod_stub.opened_by_name);
	assert_true(gpiod_stub.flags & GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN);
	assert_string_equal(sens_gpio_backend(), "libgpiod v1");
#else
	/* v2 opens by path only */
	assert_string_equal(gpiod_stub.opened, "/dev/gpiochip0");
	assert_int_equal(gpiod_stub.edge, GPIOD_LINE_EDGE_RISING);
	assert_int_equal(gpiod_stub.bias, GPIOD_LINE_BIAS_PULL_DOWN);
	assert_int_equal(gpiod_stub.direction, GPIOD_LINE_DIRECTION_INPUT);
	assert_int_equal(gpiod_stub.clock, GPIOD_LINE_CLOCK_MONOTONIC);
	/* ringing is the pipeline's job, not the kernel's */
	assert_int_equal(gpiod_stub.debounce_us, 0);
	assert_string_equal(sens_gpio_backend(), "libgpiod v2");
#endif
	sens_source_close(s);
	assert_all_released();
}

static void test_gpio_chip_by_path_is_opened_as_given(void **state)
{
	struct sens_config c;
	struct sens_source *s;
	char err[256];

	(void)state;
	sens_config_defaults(&c);
	snprintf(c.chip, sizeof(c.chip), "/dev/gpiochip4");
	s = sens_gpio_open(&c, err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(gpiod_stub.opened, "/dev/gpiochip4");
	assert_false(gpiod_stub.opened_by_name);
	sens_source_close(s);
	assert_all_released();
}

/* A Pi 5 on a kernel before 6.6.45: gpiochip0 is a 32-line gpio-brcmstb
 * chip, and the default lines 17-26 exist on it. It opens, but says so. */
static void test_gpio_default_chip_not_the_pi_header_warns(void **state)
{
	struct sens_config c;
	struct sens_source *s;
	char err[256];

	(void)state;
	sens_config_defaults(&c);
	gpiod_stub.num_lines = 32;
	gpiod_stub.label = "gpio-brcmstb@107d508500";
	s = sens_gpio_open(&c, err, sizeof(err));
	assert_non_null(s);
	assert_contains(sens_source_warning(s), "gpiochip0 is 'gpio-brcmstb@107d508500'");
	assert_contains(sens_source_warning(s), "not a Raspberry Pi's header");
	assert_contains(sens_source_warning(s), "set [sensors] chip");
	sens_source_close(s);
	assert_all_released();

	/* The header's chip itself, by default: nothing to say. */
	gpiod_stub_reset();
	gpiod_stub.label = "pinctrl-rp1";
	s = sens_gpio_open(&c, err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(sens_source_warning(s), "");
	sens_source_close(s);

	/* Chosen in the config: the owner's word is taken (an expander). */
	gpiod_stub_reset();
	gpiod_stub.label = "mcp23017";
	c.chip_set = true;
	s = sens_gpio_open(&c, err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(sens_source_warning(s), "");
	sens_source_close(s);
	assert_all_released();
}

static void test_gpio_label_pi_headers_are_known(void **state)
{
	char msg[384];

	(void)state;
	assert_true(sens_gpio_label_is_pi_header("pinctrl-bcm2835"));
	assert_true(sens_gpio_label_is_pi_header("pinctrl-bcm2711"));
	assert_true(sens_gpio_label_is_pi_header("pinctrl-rp1"));
	assert_false(sens_gpio_label_is_pi_header("raspberrypi-exp-gpio"));
	assert_false(sens_gpio_label_is_pi_header("pinctrl-rp1x"));
	assert_false(sens_gpio_label_is_pi_header(""));
	assert_false(sens_gpio_label_is_pi_header(NULL));
	assert_false(sens_gpio_label_warning("gpiochip0", "pinctrl-bcm2711", false, msg, sizeof(msg)));
	assert_string_equal(msg, "");
	assert_true(sens_gpio_label_warning("gpiochip0", NULL, false, msg, sizeof(msg)));
	assert_contains(msg, "gpiochip0 is 'unlabelled'");
	assert_false(sens_gpio_label_warning("gpiochip2", "gpio-brcmstb@107d517c00", true, msg,
					     sizeof(msg)));
}

static void test_gpio_read_converts_timestamps_and_sorts(void **state)
{
	struct sens_config c;
	struct sens_source *s;
	struct sens_edge e[8];
	char err[256];
	bool eof = true;

	(void)state;
	sens_config_defaults(&c);
	s = sens_gpio_open(&c, err, sizeof(err));
	assert_non_null(s);
	assert_false(readable(sens_source_fd(s)));
	assert_int_equal(sens_source_read(s, e, 8, &eof, err, sizeof(err)), 0);
	assert_false(eof);

	/* 17 fires after 22: per-line descriptors (v1) must still come out
	 * in time order. A falling edge is not an impact. */
	assert_int_equal(gpiod_stub_event(17, 5000000123LL, true), 0);
	assert_int_equal(gpiod_stub_event(22, 5000000100LL, true), 0);
	assert_int_equal(gpiod_stub_event(27, 5000000050LL, false), 0);
	assert_int_equal(gpiod_stub_event(23, 1234567890123456789LL, true), 0);
	assert_true(readable(sens_source_fd(s)));
	assert_int_equal(sens_source_read(s, e, 8, &eof, err, sizeof(err)), 3);
	assert_int_equal(e[0].line, 22);
	assert_int_equal(e[0].ts_ns, 5000000100LL);
	assert_int_equal(e[1].line, 17);
	assert_int_equal(e[1].ts_ns, 5000000123LL);
	assert_int_equal(e[2].line, 23);
	assert_int_equal(e[2].ts_ns, 1234567890123456789LL);
	assert_false(readable(sens_source_fd(s)));
	sens_source_close(s);
	assert_all_released();
}

static void test_gpio_missing_chip_names_it(void **state)
{
	struct sens_config c;
	char err[256];

	(void)state;
	sens_config_defaults(&c);
	gpiod_stub.open_errno = ENOENT;
	errno = 0;
	assert_null(sens_gpio_open(&c, err, sizeof(err)));
	assert_int_equal(errno, ENOENT);
	assert_contains(err, "gpiochip0");
	assert_contains(err, "no such GPIO chip");
	assert_string_equal(sens_gpio_reason(errno), "GPIO chip not found");
	assert_all_released();
}

static void test_gpio_chip_permission_denied_says_group_gpio(void **state)
{
	struct sens_config c;
	char err[256];

	(void)state;
	sens_config_defaults(&c);
	gpiod_stub.open_errno = EACCES;
	assert_null(sens_gpio_open(&c, err, sizeof(err)));
	assert_int_equal(errno, EACCES);
	assert_contains(err, "gpiochip0");
	assert_contains(err, "add the user to group gpio");
	assert_string_equal(sens_gpio_reason(errno), "no permission for the GPIO chip");
	assert_all_released();
}

static void test_gpio_request_permission_denied_says_group_gpio(void **state)
{
	struct sens_config c;
	char err[256];

	(void)state;
	sens_config_defaults(&c);
	gpiod_stub.request_errno = EPERM;
	assert_null(sens_gpio_open(&c, err, sizeof(err)));
	assert_int_equal(errno, EPERM);
	assert_contains(err, "gpiochip0");
	assert_contains(err, "add the user to group gpio");
#if STUB_V == 1
	/* v1 requests line by line: the first one is named */
	assert_contains(err, "line 17 (table0)");
#endif
	assert_all_released();
}

static void test_gpio_busy_line_names_line_and_holder(void **state)
{
	struct sens_config c;
	char err[256];

	(void)state;
	sens_config_defaults(&c);
	gpiod_stub.busy_offset = 22;
	gpiod_stub.busy_consumer = "gpiomon";
	assert_null(sens_gpio_open(&c, err, sizeof(err)));
	assert_int_equal(errno, EBUSY);
	assert_contains(err, "gpiochip0 line 22 (table2)");
	assert_contains(err, "busy");
	assert_contains(err, "'gpiomon'");
	assert_string_equal(sens_gpio_reason(errno), "a sensor line is in use by another program");
	/* the lines requested before it were given back */
	assert_all_released();
}

static void test_gpio_line_not_on_chip_is_named(void **state)
{
	struct sens_config c;
	char err[256];

	(void)state;
	sens_config_defaults(&c);
	gpiod_stub.num_lines = 20;	/* line 22, 23, 27 do not exist */
	assert_null(sens_gpio_open(&c, err, sizeof(err)));
	assert_int_equal(errno, EINVAL);
	assert_contains(err, "(table");
	assert_contains(err, "not a line of this chip");
	assert_string_equal(sens_gpio_reason(errno), "a sensor line is not on the GPIO chip");
	assert_all_released();
}

static void test_gpio_read_error_is_reported(void **state)
{
	struct sens_config c;
	struct sens_source *s;
	struct sens_edge e[8];
	char err[256];

	(void)state;
	sens_config_defaults(&c);
	s = sens_gpio_open(&c, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(gpiod_stub_event(17, 1000, true), 0);
	gpiod_stub.read_errno = EIO;
	assert_int_equal(sens_source_read(s, e, 8, NULL, err, sizeof(err)), -EIO);
	assert_contains(err, "gpio");
	assert_contains(err, strerror(EIO));
	sens_source_close(s);
	assert_all_released();
}

/* Ringing comes off the kernel on either version as extra edges; the
 * pipeline's hold-off by timestamp removes it the same way. */
static void test_gpio_ringing_removed_by_holdoff_on_this_backend(void **state)
{
	struct sens_config c;
	struct sens_source *s;
	struct sens_pipeline *p;
	struct sens_edge e[64];
	struct sens_obs o[8];
	size_t no = 0;
	char err[256];
	ssize_t n;
	const int64_t t0 = 7000000000LL;

	(void)state;
	sens_config_defaults(&c);
	s = sens_gpio_open(&c, err, sizeof(err));
	p = sens_pipeline_new(&c);
	assert_non_null(s);
	assert_non_null(p);
	/* An impact at the middle of A's half: (0.61, 0.61). */
	for (size_t i = 0; i < 4; i++) {
		double d = hypot(0.61 - c.lines[i].x, 0.61 - c.lines[i].y);
		int64_t ts = t0 + (int64_t)(d / c.wave_speed_mps * 1e9);

		assert_int_equal(gpiod_stub_event(c.lines[i].offset, ts, true), 0);
		for (int k = 1; k <= 4; k++)	/* ringing, 0.7 ms apart */
			assert_int_equal(gpiod_stub_event(c.lines[i].offset, ts + k * 700000, true), 0);
	}
	n = sens_source_read(s, e, 64, NULL, err, sizeof(err));
	assert_int_equal(n, 20);
	for (ssize_t i = 0; i < n; i++)
		no += sens_pipeline_push(p, &e[i], o + no, 8 - no);
	no += sens_pipeline_flush(p, t0 + 1000000000LL, o + no, 8 - no);
	assert_int_equal(no, 1);
	assert_int_equal(o[0].ev.kind, BD_EV_TABLE);
	assert_int_equal(o[0].ev.half, BD_HALF_A);
	assert_true(fabs(o[0].ev.x - 0.61) < 0.01 && fabs(o[0].ev.y - 0.61) < 0.01);
	{
		struct sens_line_health h[SENS_MAX_LINES];

		sens_pipeline_health(p, t0 + 1000000000LL, h, SENS_MAX_LINES);
		assert_int_equal(h[0].suppressed, 4);
		assert_int_equal(h[0].accepted, 1);
	}
	sens_pipeline_free(p);
	sens_source_close(s);
	assert_all_released();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_gpio_requests_every_line_for_rising_edges, setup),
		cmocka_unit_test_setup(test_gpio_chip_by_path_is_opened_as_given, setup),
		cmocka_unit_test_setup(test_gpio_default_chip_not_the_pi_header_warns, setup),
		cmocka_unit_test_setup(test_gpio_label_pi_headers_are_known, setup),
		cmocka_unit_test_setup(test_gpio_read_converts_timestamps_and_sorts, setup),
		cmocka_unit_test_setup(test_gpio_missing_chip_names_it, setup),
		cmocka_unit_test_setup(test_gpio_chip_permission_denied_says_group_gpio, setup),
		cmocka_unit_test_setup(test_gpio_request_permission_denied_says_group_gpio, setup),
		cmocka_unit_test_setup(test_gpio_busy_line_names_line_and_holder, setup),
		cmocka_unit_test_setup(test_gpio_line_not_on_chip_is_named, setup),
		cmocka_unit_test_setup(test_gpio_read_error_is_reported, setup),
		cmocka_unit_test_setup(test_gpio_ringing_removed_by_holdoff_on_this_backend, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
