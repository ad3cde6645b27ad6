/*
 * What `dyeref sensors` and `dyeref calibrate piezo` share: the stop flag
 * their signals set, the numeric options they both take, loading the
 * sensors' config with its pipeline, and reading edges from a source.
 * Private to daemon/cmd_sensors.c and daemon/cmd_calibrate.c.
 */
#ifndef DYEREF_SENSORS_CLI_H
#define DYEREF_SENSORS_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sensors/sensors.h"

/* Set by SIGINT/SIGTERM once dd_sens_catch_signals() ran: the loop ends. */
extern volatile sig_atomic_t dd_sens_stop;

/* SIGINT and SIGTERM set dd_sens_stop instead of ending the process. */
void dd_sens_catch_signals(void);

/* --seed S: any whole number. 0 with *seed, or DD_EXIT_USAGE after
 * "CMD: --seed: expected a number, got 'ARG'". */
int dd_sens_parse_seed(const char *cmd, const char *arg, unsigned long long *seed);

/* OPT N with lo <= N <= hi. 0 with *out, or DD_EXIT_USAGE after
 * "CMD: OPT: expected LO..HI, got 'ARG'". */
int dd_sens_parse_count(const char *cmd, const char *opt, const char *arg, long lo, long hi,
			long *out);

/* Loads the sensors' config (dd_sensors_config_file; NULL path: the
 * defaults) into *cfg, checks the whole file as the daemon would
 * (dd_config_check_file), and makes its pipeline (*pipe, the caller's:
 * sens_pipeline_free). 0, or the exit status after a one-line message:
 * dd_input_status() of why the file could not be had or was refused
 * (DD_EXIT_USAGE for one missing or bad, DD_EXIT_FAIL for one this user
 * may not read), DD_EXIT_FAIL for no memory. */
int dd_sens_setup(const char *cmd, const char *config, struct sens_config *cfg,
		  struct sens_pipeline **pipe);

/* One batch of edges from src into e[0..max): live, it first waits up to
 * 5 ms for the source's fd (impacts complete within a few ms of their last
 * edge). The count (0 is fine; *eof set at a file's end), or -1 after a
 * one-line message. */
ssize_t dd_sens_read(struct sens_source *src, bool live, struct sens_edge *e, size_t max,
		     bool *eof);

#endif /* DYEREF_SENSORS_CLI_H */
