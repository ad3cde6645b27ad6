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
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
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

/* text into a fresh temporary file, its path into path (the caller
 * unlinks it). */
static void script_file(char path[64], const char *text, size_t len)
{
	int fd;

	snprintf(path, 64, "/tmp/dyeref-gpio-script-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A script's edges come through the backend as the kernel's would: when
 * their time comes (the descriptor turns readable), stamped with it, a
 * falling edge and a line nobody requested never. */
static void test_gpio_script_plays_its_edges_in_time(void **state)
{
	static const char text[] = "# a table impact, then a button\n"
				   "\n"
				   "17 rising 0\n"
				   "22\trising 0.25 # 250 us later\n"
				   "27 falling 0\n"
				   "50 rising 0\n"
				   "23 rising 30.000001\n"
				   "17 rising 20\n";
	struct sens_config c;
	struct sens_source *s;
	struct sens_edge e[8];
	char path[64], err[256];
	size_t n = 0;
	int64_t before;

	(void)state;
	sens_config_defaults(&c);
	script_file(path, text, sizeof(text) - 1);
	assert_int_equal(gpiod_stub_script_load(path, err, sizeof(err)), 0);
	assert_true(gpiod_stub_script_on());
	before = now_ns();
	s = sens_gpio_open(&c, err, sizeof(err));
	assert_non_null(s);
	while (n < 4) {
		struct pollfd p = { .fd = sens_source_fd(s), .events = POLLIN };
		ssize_t got;

		/* a wait, not a measurement: 50 ms are due */
		assert_int_equal(poll(&p, 1, 10000), 1);
		got = sens_source_read(s, e + n, 8 - n, NULL, err, sizeof(err));
		assert_true(got >= 0);
		n += (size_t)got;
	}
	assert_int_equal(n, 4);
	assert_int_equal(e[0].line, 17);
	assert_int_equal(e[1].line, 22);
	assert_int_equal(e[2].line, 23);
	assert_int_equal(e[3].line, 17);
	/* never before its time */
	assert_true(e[0].ts_ns >= before);
	assert_true(e[3].ts_ns <= now_ns());
	assert_int_equal(e[1].ts_ns - e[0].ts_ns, 250000);
	assert_int_equal(e[2].ts_ns - e[1].ts_ns, 30000001);
	assert_int_equal(e[3].ts_ns - e[2].ts_ns, 20000000);
	/* Played out: nothing more wakes the loop. */
	assert_false(readable(sens_source_fd(s)));
	sens_source_close(s);
	assert_all_released();
	unlink(path);
}

/* Edges before the script's "now" came before the lines were requested:
 * they wait, stamped in the past, as the kernel's queue holds them; each
 * instant comes alone, one a read, however many are due; the rest come in
 * their time. */
static void test_gpio_script_now_queues_the_past_one_instant_a_read(void **state)
{
	static const char text[] = "17 rising 0\n"
				   "17 rising 0 # the same instant\n"
				   "17 falling 0.5\n"
				   "17 rising 0.5\n"
				   "17 rising 1\n"
				   "now 10000\n"
				   "17 rising 10005 # 5 ms after the request\n";
	static const size_t per_read[] = { 2, 1, 1 };
	struct sens_config c;
	struct sens_source *s;
	struct sens_edge e[8];
	char path[64], err[256];
	int64_t before, opened;
	size_t n = 0;

	(void)state;
	sens_config_defaults(&c);
	script_file(path, text, sizeof(text) - 1);
	assert_int_equal(gpiod_stub_script_load(path, err, sizeof(err)), 0);
	before = now_ns();
	s = sens_gpio_open(&c, err, sizeof(err));
	assert_non_null(s);
	opened = now_ns();
	for (size_t i = 0; i < 3; i++) {
		struct pollfd p = { .fd = sens_source_fd(s), .events = POLLIN };

		assert_int_equal(poll(&p, 1, 0), 1);
		assert_int_equal(sens_source_read(s, e + n, 8 - n, NULL, err, sizeof(err)), per_read[i]);
		n += per_read[i];
	}
	for (size_t i = 0; i < n; i++)
		assert_int_equal(e[i].line, 17);
	assert_int_equal(e[1].ts_ns, e[0].ts_ns);
	assert_int_equal(e[2].ts_ns - e[1].ts_ns, 1000000);
	assert_int_equal(e[3].ts_ns - e[2].ts_ns, 1000000);
	/* the request came 10 s after the last of them */
	assert_true(e[3].ts_ns + 10000000000LL >= before);
	assert_true(e[3].ts_ns + 10000000000LL <= opened);
	for (int i = 0; i < 500; i++) {
		struct pollfd p = { .fd = sens_source_fd(s), .events = POLLIN };
		ssize_t got;

		/* a wait, not a measurement: 5 ms are due */
		assert_int_equal(poll(&p, 1, 10000), 1);
		got = sens_source_read(s, e + 4, 4, NULL, err, sizeof(err));
		assert_true(got >= 0);
		if (got) {
			assert_int_equal(got, 1);
			break;
		}
	}
	assert_int_equal(e[4].ts_ns - e[3].ts_ns, 10005000000LL);
	assert_false(readable(sens_source_fd(s)));
	sens_source_close(s);
	assert_all_released();
	unlink(path);
}

/* Every malformed script is refused naming its file and line, and leaves
 * no script behind. */
static void test_gpio_script_malformed_is_refused_with_its_line(void **state)
{
	static const struct {
		const char *text;	/* the script */
		size_t len;		/* its bytes (one holds a NUL) */
		const char *why;	/* after "path:" */
	} bad[] = {
#define BAD(text, why) { text, sizeof(text) - 1, why }
		BAD("17 rising 0\n54 rising 0\n", "2: offset '54' is not a line of the fake chip (0..53)"),
		BAD("# c\n\n17 up 0\n", "3: edge 'up' is not rising or falling"),
		BAD("17 rising -1\n", "1: delay '-1': expected milliseconds"),
		BAD("17 rising 1.1234567\n", "1: delay '1.1234567'"),
		BAD("17 rising 1.\n", "1: delay '1.'"),
		BAD("17 rising 3600000.000001\n", "1: delay '3600000.000001'"),
		BAD("17 rising 1e3\n", "1: delay '1e3'"),
		BAD("17 rising\n", "1: expected OFFSET rising|falling DELAY_MS"),
		BAD("17 rising 1 2\n", "1: expected OFFSET rising|falling DELAY_MS, and nothing after it"),
		BAD("-17 rising 1\n", "1: offset '-17'"),
		BAD("17 rising 1\n22 rising\0 1\n", "2: holds a NUL byte"),
		BAD("17 rising 1\nnow\n", "2: expected now DELAY_MS"),
		BAD("now 1 2\n", "1: expected now DELAY_MS"),
		BAD("now 0\n17 rising 1\nnow 1\n", "3: a second now line"),
		BAD("now -1\n", "1: delay '-1': expected milliseconds"),
#undef BAD
	};
	char path[64], err[256], want[160], longline[300];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		script_file(path, bad[i].text, bad[i].len);
		assert_int_equal(gpiod_stub_script_load(path, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "%s:%s", path, bad[i].why);
		if (strncmp(err, want, strlen(want)))
			fail_msg("script %zu: '%s' is not '%s...'", i, err, want);
		assert_false(gpiod_stub_script_on());
		unlink(path);
	}
	memset(longline, ' ', sizeof(longline));
	memcpy(longline, "17 rising 0", 11);
	script_file(path, longline, sizeof(longline));
	assert_int_equal(gpiod_stub_script_load(path, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:1: longer than 256 bytes", path);
	assert_string_equal(err, want);
	unlink(path);
	assert_int_equal(gpiod_stub_script_load(path, err, sizeof(err)), -ENOENT);
	assert_contains(err, path);
	assert_contains(err, strerror(ENOENT));
	assert_false(gpiod_stub_script_on());
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
		cmocka_unit_test_setup(test_gpio_script_plays_its_edges_in_time, setup),
		cmocka_unit_test_setup(test_gpio_script_now_queues_the_past_one_instant_a_read, setup),
		cmocka_unit_test_setup(test_gpio_script_malformed_is_refused_with_its_line, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
