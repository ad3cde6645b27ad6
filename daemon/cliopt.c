/* One-line option errors for the getopt_long commands (cliopt.h). */
#include <stdio.h>
#include <string.h>

#include "daemon/cliopt.h"
#include "daemon/daemon.h"

/* Does "--name=value" name an option that takes no value? */
static int takes_no_value(const char *arg, const struct option *opts)
{
	const char *eq = strchr(arg, '=');

	if (strncmp(arg, "--", 2) || !eq)
		return 0;
	for (const struct option *o = opts; o->name; o++)
		if (o->has_arg == no_argument && strlen(o->name) == (size_t)(eq - arg - 2) &&
		    !strncmp(o->name, arg + 2, (size_t)(eq - arg - 2)))
			return 1;
	return 0;
}

/* Is v some long option's val? Otherwise a '?' with optopt v was a short
 * option, which these commands have none of. */
static int is_long_val(int v, const struct option *opts)
{
	for (const struct option *o = opts; o->name; o++)
		if (!o->flag && o->val == v)
			return 1;
	return 0;
}

int dd_getopt(const char *cmd, int argc, char **argv, const struct option *opts)
{
	const char *arg, *why;
	char shortopt[3];
	int c;

	opterr = 0;
	/* The leading ':' makes a missing value ':' rather than '?'. */
	c = getopt_long(argc, argv, ":", opts, NULL);
	if (c != '?' && c != ':')
		return c;
	if (c == '?' && optopt && !is_long_val(optopt, opts)) {
		/* Inside "-xy" getopt has not stepped past the word yet. */
		snprintf(shortopt, sizeof(shortopt), "-%c", optopt);
		arg = shortopt;
	} else {
		/* A long option: getopt has stepped past the offending word. */
		arg = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
	}
	if (c == ':')
		why = "needs a value";
	else if (takes_no_value(arg, opts))
		why = "takes no value";
	else
		why = "unknown option";
	dd_log(DD_LOG_ERR, "%s: %s: %s (dyeref %s --help)", cmd, arg, why, cmd);
	return '?';
}
