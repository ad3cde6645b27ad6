/*
 * Options of the commands that parse with getopt_long (serve, sensors,
 * calibrate piezo, sim): a bad one is one line naming it, as the other
 * commands' are, not getopt's own message followed by the whole usage.
 * Private to daemon/cmd_*.c.
 */
#ifndef DYEREF_CLIOPT_H
#define DYEREF_CLIOPT_H

#include <getopt.h>

/* getopt_long(argc, argv, opts) with long options only (and -h, which
 * opts must give as "help"'s val 'h') and getopt's own messages off.
 * Returns the option's val, -1 after the last option, or '?' after
 * "CMD: ARG: unknown option" (or "needs a value", "takes no value") and a
 * pointer to `dyeref CMD --help`. Callers set optind = 1
 * before the first call, as for getopt_long. */
int dd_getopt(const char *cmd, int argc, char **argv, const struct option *opts);

/* After dd_getopt's -1: 0 when no argument is left (these commands take
 * none), else -EINVAL after "CMD: unexpected argument 'ARG'" and the same
 * pointer to `dyeref CMD --help`. */
int dd_getopt_done(const char *cmd, int argc, char **argv);

#endif /* DYEREF_CLIOPT_H */
