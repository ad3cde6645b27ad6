/* Shared by `dyeref sensors` and `dyeref calibrate piezo` (sensors_cli.h). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/cliio.h"
#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/inputs.h"
#include "daemon/sensors_cli.h"

volatile sig_atomic_t dd_sens_stop;

static void on_signal(int sig)
{
	(void)sig;
	dd_sens_stop = 1;
}

void dd_sens_catch_signals(void)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
}

int dd_sens_parse_seed(const char *cmd, const char *arg, unsigned long long *seed)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 10);

	if (*end || !*arg) {
		dd_log(DD_LOG_ERR, "%s: --seed: expected a number, got '%s'", cmd, arg);
		return DD_EXIT_USAGE;
	}
	*seed = v;
	return 0;
}

int dd_sens_parse_count(const char *cmd, const char *opt, const char *arg, long lo, long hi,
			long *out)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || !*arg || v < lo || v > hi) {
		dd_log(DD_LOG_ERR, "%s: %s: expected %ld..%ld, got '%s'", cmd, opt, lo, hi, arg);
		return DD_EXIT_USAGE;
	}
	*out = v;
	return 0;
}

int dd_sens_setup(const char *cmd, const char *config, struct sens_config *cfg,
		  struct sens_pipeline **pipe)
{
	char err[512];
	int rc = dd_sensors_config_file(config, cfg, err, sizeof(err));

	/* The rest of the file too, as the daemon will read it: a misspelt
	 * section would otherwise leave the defaults in use unsaid. */
	if (rc == 0 && config)
		rc = dd_config_check_file(config, err, sizeof(err));
	if (rc < 0) {
		dd_log(DD_LOG_ERR, "%s", err);
		return dd_input_status(rc);
	}
	*pipe = sens_pipeline_new(cfg);
	if (!*pipe) {
		dd_log(DD_LOG_ERR, "%s: %s", cmd, strerror(errno));
		return DD_EXIT_FAIL;
	}
	return 0;
}

ssize_t dd_sens_read(struct sens_source *src, bool live, struct sens_edge *e, size_t max,
		     bool *eof)
{
	struct pollfd pfd = { .fd = sens_source_fd(src), .events = POLLIN };
	char err[256];
	ssize_t n;

	*eof = false;
	if (live && poll(&pfd, 1, 5) < 0 && errno != EINTR) {
		dd_log(DD_LOG_ERR, "poll: %s", strerror(errno));
		return -1;
	}
	n = sens_source_read(src, e, max, eof, err, sizeof(err));
	if (n < 0)
		dd_log(DD_LOG_ERR, "%s", err);
	return n < 0 ? -1 : n;
}
