/* dd_config: INI entries with line numbers, typed getters, unknown keys. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/serve.h"

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

/* A line longer than inih's buffer is refused whole: inih would read its
 * tail as a line of its own (here the entry "vvv...b = 2"). */
static void test_config_over_long_line_refused(void **state)
{
	char text[600], err[256];
	struct dd_config cfg;
	int n;

	(void)state;
	n = snprintf(text, sizeof(text), "[a]\nx = ");
	memset(text + n, 'v', 300);
	snprintf(text + n + 300, sizeof(text) - (size_t)n - 300, "b = 2\n");
	assert_int_equal(dd_config_load_string(&cfg, "long.ini", text, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "long.ini:2: line longer than"));
	dd_config_free(&cfg);
}

/* The file is read by path: a directory and a NUL byte are refused, each
 * naming the file (and the line). */
static void test_config_directory_and_nul_refused(void **state)
{
	char dir[] = "/tmp/dyeref-cfg-XXXXXX", path[64], err[256], cmd[96];
	struct dd_config cfg;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(dd_config_load(&cfg, dir, err, sizeof(err)), -EISDIR);
	assert_non_null(strstr(err, "Is a directory"));
	dd_config_free(&cfg);

	snprintf(path, sizeof(path), "%s/nul.ini", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	fwrite("[a]\nx = 1\ny = a\0b\n", 1, 19, f);
	fclose(f);
	assert_int_equal(dd_config_load(&cfg, path, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nul.ini:3: a NUL byte"));
	dd_config_free(&cfg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* [fusion] milliseconds become nanoseconds in 64 bits: on armhf a long is
 * 32 bits and 6000 ms * 10^6 overflowed it (the default timeout). This can
 * only fail where long is 32 bits: the Pi's own build. */
static void test_serve_config_fusion_ms_to_ns_without_overflow(void **state)
{
	struct dd_serve_config sc;
	struct dd_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(dd_config_load_string(&cfg, "t.ini",
		"[fusion]\ntimeout_ms = 60000\nsettle_ms = 5000\npair_window_ms = 1000\n",
		err, sizeof(err)), 0);
	dd_serve_config_defaults(&sc);
	assert_int_equal(dd_serve_config_read(&cfg, &sc), 0);
	assert_true(sc.fusion.timeout_ns == INT64_C(60000000000));
	assert_true(sc.fusion.settle_ns == INT64_C(5000000000));
	assert_true(sc.fusion.pair_window_ns == INT64_C(1000000000));
	dd_config_free(&cfg);
}

/* web.bind and web.trusted_proxy must be IP address literals (bind: what
 * the server can bind; trusted_proxy: one address, never a name or list). */
static void test_serve_config_bind_is_an_ip_literal(void **state)
{
	static const char *const keys[] = { "bind", "trusted_proxy" };
	static const char *const bad[] = { "my.host", "localhost:8080", "1.2.3", "::g", ".",
					   "10.0.0.1, 10.0.0.2", "[::1]", "fe80::1%eth0" };
	static const char *const good[] = { "0.0.0.0", "192.168.1.10", "::", "::1", "fe80::1" };
	struct dd_serve_config sc;
	struct dd_config cfg;
	char err[256], text[96], want[64];

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		snprintf(want, sizeof(want), "t.ini:2: web.%s: expected an IP address", keys[k]);
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			snprintf(text, sizeof(text), "[web]\n%s = %s\n", keys[k], bad[i]);
			assert_int_equal(dd_config_load_string(&cfg, "t.ini", text, err, sizeof(err)), 0);
			dd_serve_config_defaults(&sc);
			assert_int_equal(dd_serve_config_read(&cfg, &sc), -EINVAL);
			assert_non_null(strstr(sc.problems, want));
			dd_config_free(&cfg);
		}
		for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
			snprintf(text, sizeof(text), "[web]\n%s = %s\n", keys[k], good[i]);
			assert_int_equal(dd_config_load_string(&cfg, "t.ini", text, err, sizeof(err)), 0);
			dd_serve_config_defaults(&sc);
			assert_int_equal(dd_serve_config_read(&cfg, &sc), 0);
			assert_string_equal(k ? sc.trusted_proxy : sc.bind, good[i]);
			dd_config_free(&cfg);
		}
	}
	/* No key: no proxy trusted. */
	dd_serve_config_defaults(&sc);
	assert_string_equal(sc.trusted_proxy, "");
}

/* systemd/dyeref.conf.example says its values are the defaults but for
 * the two lines marked NOT THE DEFAULT: bind (the network, not 127.0.0.1)
 * and pin (the default is none). */
static void test_serve_config_example_shows_the_defaults_but_bind_and_pin(void **state)
{
	const char *top = getenv("TOP");
	struct dd_serve_config sc, def;
	const struct bd_house *h = &sc.ref.house, *d = &def.ref.house;
	struct dd_config cfg;
	char path[512], err[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/systemd/dyeref.conf.example", top ? top : ".");
	assert_int_equal(dd_config_load(&cfg, path, err, sizeof(err)), 0);
	dd_serve_config_defaults(&def);
	dd_serve_config_defaults(&sc);
	assert_int_equal(dd_serve_config_read(&cfg, &sc), 0);
	assert_string_equal(def.bind, "127.0.0.1");
	assert_string_equal(sc.bind, "0.0.0.0");
	assert_string_equal(def.pin, "");
	assert_string_not_equal(sc.pin, "");
	assert_string_equal(sc.trusted_proxy, def.trusted_proxy);
	assert_int_equal(sc.port, def.port);
	assert_string_equal(sc.db_path, def.db_path);
	assert_int_equal(h->target_points, d->target_points);
	assert_int_equal(h->win_by, d->win_by);
	assert_int_equal(h->kill_every, d->kill_every);
	assert_true(h->min_toss_height_m == d->min_toss_height_m);
	assert_int_equal(h->low_call, d->low_call);
	assert_int_equal(h->illegal_catch_counts_as_floor, d->illegal_catch_counts_as_floor);
	assert_int_equal(h->fifa_cannot_end_game, d->fifa_cannot_end_game);
	assert_int_equal(h->popout_is_sink, d->popout_is_sink);
	assert_int_equal(h->mine_voids_points, d->mine_voids_points);
	assert_true(h->review_below == d->review_below);
	assert_int_equal(sc.ref.review, def.ref.review);
	assert_true(sc.fusion.settle_ns == def.fusion.settle_ns);
	assert_true(sc.fusion.timeout_ns == def.fusion.timeout_ns);
	assert_true(sc.fusion.pair_window_ns == def.fusion.pair_window_ns);
	assert_int_equal(sc.sim_max_throws, def.sim_max_throws);
	dd_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_values_and_lines),
		cmocka_unit_test(test_config_malformed_names_the_line),
		cmocka_unit_test(test_config_unclaimed_key_reported),
		cmocka_unit_test(test_config_over_long_line_refused),
		cmocka_unit_test(test_config_directory_and_nul_refused),
		cmocka_unit_test(test_serve_config_fusion_ms_to_ns_without_overflow),
		cmocka_unit_test(test_serve_config_bind_is_an_ip_literal),
		cmocka_unit_test(test_serve_config_example_shows_the_defaults_but_bind_and_pin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
