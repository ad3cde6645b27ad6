/* One-line option errors for the getopt_long commands (cliopt.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/cliopt.h"
#include "daemon/daemon.h"

/* Does arg, "--name=value", give a value to the option of val v, which
 * takes none? name may be an abbreviation, as getopt_long accepts. */
static int gives_value_to(const char *arg, int v, const struct option *opts)
{
	const char *eq = strchr(arg, '=');
	size_t len;

	if (strncmp(arg, "--", 2) || !eq || eq == arg + 2)
		return 0;
	len = (size_t)(eq - arg - 2);
	for (const struct option *o = opts; o->name; o++)
		if (o->has_arg == no_argument && !o->flag && o->val == v && !strncmp(o->name, arg + 2, len))
			return 1;
	return 0;
}

int dd_getopt(const char *cmd, int argc, char **argv, const struct option *opts)
{
	const char *arg, *why;
	char shortopt[3];
	int c;

	opterr = 0;
	/* The leading ':' makes a missing value ':' rather than '?'; -h is
	 * --help's val in every such command, as the other commands take it. */
	c = getopt_long(argc, argv, ":h", opts, NULL);
	if (c != '?' && c != ':')
		return c;
	/* A long option's word is the one optind has passed. A '?' with
	 * optopt set is a long option given a value it takes none of, or a
	 * short one (these commands have none), which optopt alone cannot
	 * tell apart: "-sim" gives the 's' of --sim, getopt still inside it. */
	arg = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
	if (c == ':') {
		why = "needs a value";
	} else if (optopt && gives_value_to(arg, optopt, opts)) {
		why = "takes no value";
	} else {
		if (optopt) {
			snprintf(shortopt, sizeof(shortopt), "-%c", optopt);
			arg = shortopt;
		}
		why = "unknown option";
	}
	dd_log(DD_LOG_ERR, "%s: %s: %s (dyeref %s --help)", cmd, arg, why, cmd);
	return '?';
}

int dd_getopt_done(const char *cmd, int argc, char **argv)
{
	if (optind >= argc)
		return 0;
	dd_log(DD_LOG_ERR, "%s: unexpected argument '%s' (dyeref %s --help)", cmd, argv[optind], cmd);
	return -EINVAL;
}
