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
#include <stdint.h>

enum dd_log_level { DD_LOG_ERR, DD_LOG_WARN, DD_LOG_INFO, DD_LOG_DEBUG };

/* The one function through which messages for people go (stderr). */
void dd_log(enum dd_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* CLOCK_MONOTONIC now, in nanoseconds: the time base of every event. A
 * wait reads the daemon's clock (daemon/clock.h), whose real backend this
 * is; the rest is for stamps (a stored row, an import) and command-line
 * tools. */
int64_t dd_mono_ns(void);

/* The version dyeref was built as (the VERSION file at the top): a static
 * string, never freed. */
const char *dd_version(void);

/* Exit statuses of a command. */
#define DD_EXIT_OK    0
#define DD_EXIT_FAIL  1
#define DD_EXIT_USAGE 2

/* The commands (daemon/cmd_NAME.c), all built into dyeref; main.c's
 * table names them. */
int dd_cmd_judge(int argc, char **argv);
int dd_cmd_score(int argc, char **argv);
int dd_cmd_dice(int argc, char **argv);
int dd_cmd_serve(int argc, char **argv);
int dd_cmd_matches(int argc, char **argv);
int dd_cmd_export(int argc, char **argv);
int dd_cmd_import(int argc, char **argv);
int dd_cmd_replay(int argc, char **argv);
int dd_cmd_faces(int argc, char **argv);
int dd_cmd_sensors(int argc, char **argv);
int dd_cmd_calibrate(int argc, char **argv);
int dd_cmd_sim(int argc, char **argv);
int dd_cmd_evaluate(int argc, char **argv);

/* `dyeref calibrate camera ...` (daemon/calibrate_camera.c), reached
 * through `dyeref calibrate`. Returns an exit status. */
int dd_calibrate_camera(int argc, char **argv);

#endif /* DYEREF_DAEMON_H */
