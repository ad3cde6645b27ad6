/* [sensors] and [table] from the configuration file (daemon/sensors_config.c)
 * and the safe rewrite that calibration uses (daemon/config_write.c). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <cmocka.h>

#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/inputs.h"
#include "sensors/sensors.h"

static int load(const char *text, struct sens_config *out, char *err, size_t errlen)
{
	struct dd_config cfg;
	int rc = dd_config_load_string(&cfg, "t.ini", text, err, errlen);

	if (rc == 0)
		rc = dd_sensors_config_load(&cfg, out, err, errlen);
	dd_config_free(&cfg);
	return rc;
}

static void test_sens_config_no_lines_named_uses_reference_wiring(void **state)
{
	struct sens_config c, def;
	char err[256];

	(void)state;
	sens_config_defaults(&def);
	assert_int_equal(load("[sensors]\nwave_speed = 420\nhold_off_ms = 15\ntable2_delay_us = -4.5\n"
			      "near_line_cm = 1.5\n", &c, err, sizeof(err)), 0);
	assert_int_equal(c.n_lines, def.n_lines);
	assert_true(sens_config_has_role(&c, SENS_ROLE_MINE));
	assert_true(fabs(c.wave_speed_mps - 420) < 1e-9);
	assert_true(fabs(c.holdoff_s - 0.015) < 1e-12);
	assert_true(fabs(c.lines[2].delay_s + 4.5e-6) < 1e-12);
	assert_true(fabs(c.near_line_m - 0.015) < 1e-12);
	assert_string_equal(c.chip, "gpiochip0");
	assert_false(c.chip_set);	/* the default: its label gets checked */
}

static void test_sens_config_named_lines_replace_defaults(void **state)
{
	struct sens_config c;
	char err[256];

	(void)state;
	assert_int_equal(load("[table]\nlength_m = 2.0\nwidth_m = 1.0\n"
			      "[sensors]\nchip = gpiochip4\ntable0 = 5\ntable1 = 6\ntable2 = 7\n"
			      "table3 = 8\ntable3_x = 1.5\ntable3_y = 0.9\ncup_b2 = 20\nfloor1 = 21\n",
			      &c, err, sizeof(err)), 0);
	assert_string_equal(c.chip, "gpiochip4");
	assert_true(c.chip_set);	/* chosen: taken as said */
	assert_int_equal(c.n_lines, 6);
	assert_true(fabs(c.table.length_m - 2.0) < 1e-12);
	/* table0..2 at the reference diamond of a 2.0 x 1.0 m table */
	assert_true(fabs(c.lines[0].x - 0.05) < 1e-12 && fabs(c.lines[0].y - 0.5) < 1e-12);
	assert_true(fabs(c.lines[2].x - 1.95) < 1e-12);
	assert_true(fabs(c.lines[3].x - 1.5) < 1e-12 && fabs(c.lines[3].y - 0.9) < 1e-12);
	assert_int_equal(c.lines[4].role, SENS_ROLE_CUP);
	assert_int_equal(c.lines[4].owner, 3);
	assert_int_equal(c.lines[5].role, SENS_ROLE_FLOOR);
	assert_string_equal(c.lines[5].name, "floor1");
	/* no disc under the mine in this wiring; the reference wiring has one */
	assert_false(sens_config_has_role(&c, SENS_ROLE_MINE));
	assert_true(sens_config_has_role(&c, SENS_ROLE_CUP));
	/* the cups keep their corners on a smaller table */
	assert_true(fabs(c.table.cup_x[3] - 1.88) < 1e-9);
}

static void test_sens_config_errors_name_file_line_and_key(void **state)
{
	struct sens_config c;
	char err[256];

	(void)state;
	assert_int_equal(load("[sensors]\ntable0 = 17\ntable1 = 27\ncup_a1 = 17\n", &c, err,
			      sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini:4: sensors.cup_a1: line 17 is already table0 (line 2)");

	assert_int_equal(load("[sensors]\nwave_speed = fast\n", &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini:2: sensors.wave_speed: expected a number, got 'fast'");

	assert_int_equal(load("[sensors]\ntable0 = 1\ntable1 = 2\ntable2 = 3\ntable4 = 9\n", &c, err,
			      sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini:5: sensors.table4: give its position as table4_x and "
			    "table4_y (metres from A's end and the left edge)");

	assert_int_equal(load("[sensors]\ntable0 = 1\ntable1 = 2\n", &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "at least 3 are needed"));

	assert_int_equal(load("[sensors]\nmine = 5000\n", &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini:2: sensors.mine: 5000 is outside 0..4095");

	assert_int_equal(load("[sensors]\ntable0_x = 3.0\n", &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini:2: sensors.table0_x: 3 is outside 0..2.44");

	assert_int_equal(load("[sensors]\nchip = my chip\n", &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.ini:2: sensors.chip"));

	/* the check's reasons about one sensor name the line that placed it */
	assert_int_equal(load("[sensors]\ntable0 = 17\ntable1 = 27\ntable2 = 22\ntable3 = 23\n"
			      "table3_x = 0.05\ntable3_y = 0.61\n", &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini:7: sensors: table3: at (0.05, 0.61) m, 0.0 cm from table0 "
			    "at (0.05, 0.61) m: table sensors must be at least 5 cm apart");
	assert_int_equal(load("[sensors]\ntable1_y = 0.59\ntable1_x = 0.06\n", &c, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "t.ini:3: sensors: table1: at (0.06, 0.59) m, 2.2 cm from table0 "
			    "at (0.05, 0.61) m: table sensors must be at least 5 cm apart");
	/* a reason about settings of no one line names the key that set them */
	assert_int_equal(load("[table]\nlength_m = 0.5\nline_width_m = 0.3\n", &c, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "t.ini:3: table: length 0.5 m, width 1.22 m and line width 0.3 m "
			    "do not make a table (the line must be narrower than half the length)");
	/* a hold-off shorter than one impact's window (7.4 ms on the default
	 * table) loads, as it did: the pipeline keeps a line to one arrival
	 * an impact whatever the hold-off (test_sens_pipeline) */
	assert_int_equal(load("[sensors]\nhold_off_ms = 5\n", &c, err, sizeof(err)), 0);
	assert_int_equal(load("[sensors]\nnear_line_cm = 50\n", &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.ini:2: sensors: near-line probability"));
	/* reasons about the whole config name the file */
	assert_int_equal(load("[sensors]\ntable0 = 17\ntable1 = 27\n", &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini: sensors: 2 table sensors: at least 3 are needed to locate "
			    "an impact (4 recommended)");
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 4096);

	assert_non_null(f);
	assert_true(fread(buf, 1, 4095, f) > 0);
	fclose(f);
	return buf;
}

static int files_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void test_dd_config_set_keys_keeps_other_lines(void **state)
{
	char dir[] = "/tmp/dyeref-cfg-XXXXXX", path[64], err[256], *text;
	const char *keys[] = { "wave_speed", "table0_delay_us" }, *vals[] = { "431.5", "-2.25" };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/dyeref.ini", dir);
	f = fopen(path, "w");
	fputs("# the table in the garage\n[web]\nport = 8080\n\n[sensors]\nchip = gpiochip0\n"
	      "wave_speed = 400\n\n[house]\ntarget_points = 11\n", f);
	fclose(f);
	assert_int_equal(dd_config_set_keys(path, "sensors", keys, vals, 2, err, sizeof(err)), 0);
	text = slurp(path);
	assert_string_equal(text, "# the table in the garage\n[web]\nport = 8080\n\n[sensors]\n"
			    "chip = gpiochip0\nwave_speed = 431.5\ntable0_delay_us = -2.25\n\n"
			    "[house]\ntarget_points = 11\n");
	free(text);
	assert_int_equal(files_in(dir), 1);	/* no temporary left behind */

	/* and it reads back */
	{
		struct dd_config cfg;
		struct sens_config c;

		assert_int_equal(dd_config_load(&cfg, path, err, sizeof(err)), 0);
		assert_int_equal(dd_sensors_config_load(&cfg, &c, err, sizeof(err)), 0);
		assert_true(fabs(c.wave_speed_mps - 431.5) < 1e-9);
		assert_true(fabs(c.lines[0].delay_s + 2.25e-6) < 1e-12);
		dd_config_free(&cfg);
	}
	unlink(path);
	rmdir(dir);
}

static void test_dd_config_set_keys_adds_section_and_creates_file(void **state)
{
	char dir[] = "/tmp/dyeref-cfg-XXXXXX", path[64], err[256], *text;
	const char *keys[] = { "wave_speed" }, *vals[] = { "410.0" };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.ini", dir);
	f = fopen(path, "w");
	fputs("[web]\nport = 1", f);	/* no final newline */
	fclose(f);
	assert_int_equal(dd_config_set_keys(path, "sensors", keys, vals, 1, err, sizeof(err)), 0);
	text = slurp(path);
	assert_string_equal(text, "[web]\nport = 1\n\n[sensors]\nwave_speed = 410.0\n");
	free(text);
	unlink(path);

	assert_int_equal(dd_config_set_keys(path, "sensors", keys, vals, 1, err, sizeof(err)), 0);
	text = slurp(path);
	assert_string_equal(text, "\n[sensors]\nwave_speed = 410.0\n");
	free(text);
	unlink(path);

	/* a directory that cannot be written: an error, nothing changed */
	assert_true(dd_config_set_keys("/proc/dyeref.ini", "sensors", keys, vals, 1, err,
				       sizeof(err)) < 0);
	assert_non_null(strstr(err, "/proc/dyeref.ini"));
	rmdir(dir);
}

/* calibrate piezo asks this before the taps: the same temporary file
 * dd_config_set_keys would make, gone again, or the same message. */
static void test_dd_config_check_writable_tries_the_temporary_file_and_removes_it(void **state)
{
	char dir[] = "/tmp/dyeref-cfg-XXXXXX", path[320], err[512];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/dyeref.ini", dir);
	f = fopen(path, "w");
	fputs("[sensors]\n", f);
	fclose(f);
	assert_int_equal(dd_config_check_writable(path, err, sizeof(err)), 0);
	assert_int_equal(files_in(dir), 1);
	unlink(path);

	/* 254 bytes is a name; with ".XXXXXX" the temporary's is too long,
	 * for root too (a read-only directory is not, to root). */
	snprintf(path, sizeof(path), "%s/%0250d.ini", dir, 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(dd_config_check_writable(path, err, sizeof(err)), -ENAMETOOLONG);
	assert_non_null(strstr(err, "cannot create a temporary file beside it: File name too long"));
	assert_int_equal(files_in(dir), 1);
	unlink(path);

	assert_true(dd_config_check_writable("/proc/dyeref.ini", err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "/proc/dyeref.ini: cannot create a temporary file beside it"));
	rmdir(dir);
}

static void test_dd_sensors_config_file_rejects_unknown_sensor_keys(void **state)
{
	char path[] = "/tmp/dyeref-cfg-XXXXXX", err[256];
	struct sens_config c;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "[web]\nother = 1\n[sensors]\nwave_sped = 400\n", 42), 42);
	close(fd);
	assert_int_equal(dd_sensors_config_file(path, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":4: unknown key sensors.wave_sped"));
	unlink(path);
	assert_int_equal(dd_sensors_config_file(path, &c, err, sizeof(err)), -ENOENT);
}

/* ---- Buttons: button_CALL_END keys (docs/sensors.md "Buttons") ---- */

static void test_sens_button_keys_add_to_the_reference_wiring(void **state)
{
	struct sens_config c;
	char err[256];

	(void)state;
	assert_int_equal(load("[sensors]\nbutton_low_a = 12\nbutton_catch2_b = 16\n"
			      "button_debounce_ms = 15\nbutton_repeat_ms = 600\n", &c, err, sizeof(err)), 0);
	assert_int_equal(c.n_lines, 11);	/* 4 table, 4 cups, the mine, 2 buttons */
	assert_string_equal(c.lines[9].name, "button_low_a");
	assert_int_equal(c.lines[9].role, SENS_ROLE_BUTTON);
	assert_int_equal(c.lines[9].offset, 12);
	assert_int_equal(c.lines[9].call, SENS_CALL_LOW);
	assert_int_equal(c.lines[9].team, BD_TEAM_A);
	assert_string_equal(c.lines[10].name, "button_catch2_b");
	assert_int_equal(c.lines[10].call, SENS_CALL_CATCH2);
	assert_int_equal(c.lines[10].team, BD_TEAM_B);
	assert_true(c.button_debounce_s == 0.015 && c.button_repeat_s == 0.6);

	/* With named piezo lines, the buttons come after them. */
	assert_int_equal(load("[sensors]\ntable0 = 1\ntable1 = 2\ntable2 = 3\nbutton_retoss_b = 4\n",
			      &c, err, sizeof(err)), 0);
	assert_int_equal(c.n_lines, 4);
	assert_int_equal(c.lines[3].call, SENS_CALL_RETOSS);
}

static void test_sens_button_config_errors_name_file_line_and_key(void **state)
{
	struct sens_config c;
	char err[256];

	(void)state;
	assert_int_equal(load("[sensors]\nbutton_lower_a = 12\n", &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini:2: sensors.button_lower_a: not a button: expected "
			    "button_CALL_END with CALL low, retoss, catch1 or catch2 and END a or b");
	assert_int_equal(load("[sensors]\nbutton_low_c = 12\n", &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.ini:2: sensors.button_low_c: not a button"));

	assert_int_equal(load("[sensors]\n\nbutton_low_a = 17\n", &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini:3: sensors.button_low_a: line 17 is already table0 "
			    "(the reference wiring)");
	assert_int_equal(load("[sensors]\ntable0 = 1\ntable1 = 2\ntable2 = 3\nbutton_retoss_b = 2\n",
			      &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini:5: sensors.button_retoss_b: line 2 is already table1 (line 3)");
	assert_int_equal(load("[sensors]\nbutton_low_a = 30\nbutton_low_b = 30\n", &c, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "t.ini:3: sensors.button_low_b: line 30 is already button_low_a (line 2)");

	assert_int_equal(load("[sensors]\nbutton_catch1_a = x\n", &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.ini:2: sensors.button_catch1_a"));
	assert_int_equal(load("[sensors]\nbutton_debounce_ms = -1\n", &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.ini:2: sensors.button_debounce_ms"));
	/* each in range, not together: the later of the two keys' lines */
	assert_int_equal(load("[sensors]\nbutton_debounce_ms = 50\n\nbutton_repeat_ms = 20\n", &c, err,
			      sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.ini:4: sensors: button repeat 20 ms is shorter than the "
			    "debounce 50 ms");
	assert_int_equal(load("[sensors]\nbutton_repeat_ms = 20\nbutton_debounce_ms = 50\n", &c, err,
			      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.ini:3: sensors: button repeat"));
}

/* The button keys are claimed: a file with them passes the unknown-key check. */
static void test_sens_button_keys_are_known_to_the_file_loader(void **state)
{
	char path[] = "/tmp/dyeref-buttons-XXXXXX";
	int fd = mkstemp(path);
	static const char text[] = "[sensors]\nbutton_low_a = 12\nbutton_repeat_ms = 500\n";
	struct sens_config c;
	char err[256];

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
	close(fd);
	assert_int_equal(dd_sensors_config_file(path, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n_lines, 10);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sens_config_no_lines_named_uses_reference_wiring),
		cmocka_unit_test(test_sens_config_named_lines_replace_defaults),
		cmocka_unit_test(test_sens_config_errors_name_file_line_and_key),
		cmocka_unit_test(test_dd_config_set_keys_keeps_other_lines),
		cmocka_unit_test(test_dd_config_set_keys_adds_section_and_creates_file),
		cmocka_unit_test(test_dd_config_check_writable_tries_the_temporary_file_and_removes_it),
		cmocka_unit_test(test_dd_sensors_config_file_rejects_unknown_sensor_keys),
		cmocka_unit_test(test_sens_button_keys_add_to_the_reference_wiring),
		cmocka_unit_test(test_sens_button_config_errors_name_file_line_and_key),
		cmocka_unit_test(test_sens_button_keys_are_known_to_the_file_loader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
