/*
 * daemon: the `dyeref` program. main(), its commands, configuration, the
 * event loop and the fusion of sensor, vision and manual inputs.
 *
 * Only this folder decides to exit. Each command is a function
 * `int dd_cmd_NAME(int argc, char **argv)` in its own file, returning the
 * process exit status: 0 done, 1 a failure of the system (I/O, a device),
 * 2 bad input or usage (with a one-line message naming where and why).
 */
#ifndef DYEREF_DAEMON_H
#define DYEREF_DAEMON_H

#include <stdarg.h>

enum dd_log_level { DD_LOG_ERR, DD_LOG_WARN, DD_LOG_INFO, DD_LOG_DEBUG };

/* The one function through which messages for people go (stderr). */
void dd_log(enum dd_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Exit statuses of a command. */
#define DD_EXIT_OK    0
#define DD_EXIT_FAIL  1
#define DD_EXIT_USAGE 2

/* The commands (daemon/cmd_NAME.c). main.c refers to them weakly: a
 * command whose file is not built is simply not offered. */
int dd_cmd_judge(int argc, char **argv);
int dd_cmd_score(int argc, char **argv);
int dd_cmd_dice(int argc, char **argv);
int dd_cmd_serve(int argc, char **argv);
int dd_cmd_matches(int argc, char **argv);
int dd_cmd_export(int argc, char **argv);
int dd_cmd_import(int argc, char **argv);
int dd_cmd_replay(int argc, char **argv);
int dd_cmd_sensors(int argc, char **argv);
int dd_cmd_calibrate(int argc, char **argv);
int dd_cmd_sim(int argc, char **argv);
int dd_cmd_evaluate(int argc, char **argv);


/* ---- Configuration (INI, libinih) ----
 * The file is read once into entries that keep their line numbers; each
 * module reads and checks its own section ([table], [sensors], [camera],
 * [web], [db], [house], ...) and names the line of anything wrong. Keys
 * nobody claimed are reported by dd_config_check_claimed(). */
#include <stddef.h>

struct dd_config_entry {
	char *section;		/* owned by the config */
	char *key;		/* owned by the config */
	char *value;		/* owned by the config */
	int line;		/* 1-based line in path */
	int claimed;		/* a module read it */
};

struct dd_config {
	char *path;		/* owned; as given to dd_config_load */
	size_t n;		/* entries */
	struct dd_config_entry *entries;	/* owned, in file order */
};

/* Reads an INI file. Returns 0; the -errno of opening or reading it
 * (-ENOENT, -EACCES, -EISDIR, ..., with "file: why" in err); -EINVAL for
 * bad syntax, a NUL byte or a line too long for inih (with "file:line:
 * why"). Free with dd_config_free() either way. */
int dd_config_load(struct dd_config *cfg, const char *path, char *err, size_t errlen);
/* Same, from a string (tests, the built-in defaults). */
int dd_config_load_string(struct dd_config *cfg, const char *name, const char *text,
			  char *err, size_t errlen);
void dd_config_free(struct dd_config *cfg);

/* The last value of section.key, marking it claimed; NULL when absent.
 * *line (may be NULL) gets its line number. The string stays owned by cfg. */
const char *dd_config_get(struct dd_config *cfg, const char *section, const char *key, int *line);

/* Typed getters: 0 and *out set; -ENOENT absent (out untouched); -EINVAL
 * with "file:line: section.key: why" in err when the value is malformed or
 * outside [min, max]. */
int dd_config_get_double(struct dd_config *cfg, const char *section, const char *key,
			 double min, double max, double *out, char *err, size_t errlen);
int dd_config_get_int(struct dd_config *cfg, const char *section, const char *key,
		      long min, long max, long *out, char *err, size_t errlen);
int dd_config_get_bool(struct dd_config *cfg, const char *section, const char *key,
		       int *out, char *err, size_t errlen);

/* -EINVAL with "file:line: unknown key section.key" for the first entry
 * nobody claimed; 0 when all were. */
int dd_config_check_claimed(const struct dd_config *cfg, char *err, size_t errlen);

/* ---- Sensors (daemon/sensors_config.c, cmd_sensors.c, cmd_calibrate.c) ---- */
struct sens_config;

/* Reads [table] (length_m, width_m, height_m, line_width_m) and [sensors]
 * (chip, table0..7 with _x, _y, _delay_us, cup_a1..cup_b2, mine,
 * floor0..3, wave_speed, speed_spread, timing_sigma_us, hold_off_ms,
 * near_line_p, near_line_cm, silent_after_s, button_CALL_END for CALL low,
 * retoss, catch1, catch2 and END a, b, button_debounce_ms,
 * button_repeat_ms; docs/sensors.md) into *out, starting from
 * sens_config_defaults(). When [sensors] names no piezo line, the reference
 * wiring is used (buttons are added to it). 0, or -EINVAL with
 * "file:line: section.key: why". */
int dd_sensors_config_load(struct dd_config *cfg, struct sens_config *out, char *err, size_t errlen);

/* The same from a file (NULL: the built-in defaults), also rejecting
 * unknown keys in [sensors] and [table]. 0, -ENOENT/-EACCES (file) or
 * -EINVAL, with the message in err. */
int dd_sensors_config_file(const char *path, struct sens_config *out, char *err, size_t errlen);

/* Sets keys[i] = values[i] in section of the INI file at path, keeping
 * every other line as it was: an existing key is replaced where it
 * stands, a missing one is added at the end of its section (the section
 * is created if absent; a missing file is created). Written to a
 * temporary file beside it, synced, then renamed over it: never half
 * written. 0, or a negative errno with a message. */
int dd_config_set_keys(const char *path, const char *section, const char *const *keys,
		       const char *const *values, size_t n, char *err, size_t errlen);

/* `dyeref calibrate camera ...`: provided by the vision helper's file;
 * referenced weakly, NULL when not built. Returns an exit status. */
int dd_calibrate_camera(int argc, char **argv);

#endif /* DYEREF_DAEMON_H */
