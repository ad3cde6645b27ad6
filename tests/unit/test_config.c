/* dd_config: INI entries with line numbers, typed getters, unknown keys. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/daemon.h"

static const char sample[] =
	"[web]\n"
	"port = 8080\n"
	"bind = 127.0.0.1\n"
	"\n"
	"[house]\n"
	"target_points = 11\n"
	"popout_is_sink = yes\n"
	"min_toss_height_m = 2.5\n"
	"port = 9\n";

static void test_config_values_and_lines(void **state)
{
	struct dd_config cfg;
	char err[256];
	long port = 0;
	double h = 0;
	int b = 0, line = 0;

	(void)state;
	assert_int_equal(dd_config_load_string(&cfg, "t.ini", sample, err, sizeof(err)), 0);
	assert_int_equal(dd_config_get_int(&cfg, "web", "port", 1, 65535, &port, err, sizeof(err)), 0);
	assert_int_equal(port, 8080);
	assert_string_equal(dd_config_get(&cfg, "web", "bind", &line), "127.0.0.1");
	assert_int_equal(line, 3);
	assert_int_equal(dd_config_get_bool(&cfg, "house", "popout_is_sink", &b, err, sizeof(err)), 0);
	assert_int_equal(b, 1);
	assert_int_equal(dd_config_get_double(&cfg, "house", "min_toss_height_m", 0, 10, &h, err, sizeof(err)), 0);
	assert_true(h > 2.49 && h < 2.51);
	assert_int_equal(dd_config_get_int(&cfg, "house", "absent", 0, 1, &port, err, sizeof(err)), -ENOENT);
	dd_config_free(&cfg);
}

static void test_config_malformed_names_the_line(void **state)
{
	struct dd_config cfg;
	char err[256];
	long n;

	(void)state;
	assert_int_equal(dd_config_load_string(&cfg, "t.ini", sample, err, sizeof(err)), 0);
	assert_int_equal(dd_config_get_int(&cfg, "house", "target_points", 1, 10, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini:6: house.target_points: 11 is outside 1..10");
	dd_config_free(&cfg);

	assert_int_equal(dd_config_load_string(&cfg, "bad.ini", "[a]\nx = 1\nnot a pair\n", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "bad.ini:3: not a 'key = value' line or a [section]");
	dd_config_free(&cfg);
}

static void test_config_unclaimed_key_reported(void **state)
{
	struct dd_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(dd_config_load_string(&cfg, "t.ini", sample, err, sizeof(err)), 0);
	dd_config_get(&cfg, "web", "port", NULL);
	dd_config_get(&cfg, "web", "bind", NULL);
	dd_config_get(&cfg, "house", "target_points", NULL);
	dd_config_get(&cfg, "house", "popout_is_sink", NULL);
	dd_config_get(&cfg, "house", "min_toss_height_m", NULL);
	assert_int_equal(dd_config_check_claimed(&cfg, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini:9: unknown key house.port");
	dd_config_get(&cfg, "house", "port", NULL);
	assert_int_equal(dd_config_check_claimed(&cfg, err, sizeof(err)), 0);
	dd_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_values_and_lines),
		cmocka_unit_test(test_config_malformed_names_the_line),
		cmocka_unit_test(test_config_unclaimed_key_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
