/* The table's piezo sensors in `dyeref serve`: [sensors] and [table] from
 * the config, the GPIO edge source on the event loop, the sensors'
 * pipeline turning edges into impacts, and each impact handed to fusion.
 * A chip that is not there is reported on the health strip, not fatal. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>

#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/fusion.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "sensors/sensors.h"

#define EDGES_AT_ONCE 64		/* edges read per wake-up */
#define HEALTH_EVERY_US (5 * 1000000ULL)	/* re-check the lines' health */

/* One daemon, one table: the glue's state lives here (daemon/ may keep it). */
static struct {
	struct sens_config cfg;		/* as configured */
	struct sens_source *src;	/* owned: the chip's lines */
	struct sens_pipeline *pipe;	/* owned: edges -> impacts */
	sd_event_source *io;		/* the source's fd */
	sd_event_source *flush;		/* completes an impact when its window ends */
	sd_event_source *health_timer;	/* refreshes *health */
	dd_obs_sink sink;		/* fusion's entry */
	void *user;			/* for sink */
	dd_edges_sink keep;		/* the event log's entry, or NULL */
	void *keep_user;		/* for keep */
	struct dd_health_item *health;	/* the strip's item (the caller's) */
} glue;

/* What the pipeline completed, to fusion. */
static void deliver(const struct sens_obs *so, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct dd_obs o;

		dd_sensors_obs_to_fusion(&so[i], &o);
		glue.sink(glue.user, &o);
	}
}

/* The strip's words name the lines as configured and their state (which
 * disc to look at); the chip, its path and the fix are the console's. */
static void update_health(int64_t now)
{
	struct sens_line_health h[SENS_MAX_LINES];
	size_t n = sens_pipeline_health(glue.pipe, now, h, SENS_MAX_LINES), ok = 0;
	const struct sens_line_health *bad = NULL;
	const char *warning = sens_source_warning(glue.src);

	for (size_t i = 0; i < n && i < SENS_MAX_LINES; i++) {
		if (h[i].state == SENS_HEALTH_OK || h[i].state == SENS_HEALTH_UNTESTED)
			ok++;
		else if (!bad)
			bad = &h[i];
	}
	if (bad) {
		dd_health_set(glue.health, false, "%zu of %zu piezo lines ok; %.16s %.16s", ok, n,
			      bad->name, sens_health_name(bad->state));
		dd_health_detail(glue.health, "%zu of %zu piezo lines ok; %s (%s line %u) %s", ok, n,
				 bad->name, glue.cfg.chip, bad->offset, sens_health_name(bad->state));
	} else if (*warning) {
		/* probably the wrong pins: the owner looks at the strip, not the log */
		dd_health_set(glue.health, false, "%zu piezo lines, on a chip that is not the Pi's "
			      "header", n);
		dd_health_detail(glue.health, "%zu piezo lines: %s", n, warning);
	} else {
		dd_health_set(glue.health, true, "%zu piezo lines ok (%s)", n, sens_gpio_backend());
		dd_health_detail(glue.health, "%zu piezo lines ok on %s (%s)", n, glue.cfg.chip,
				 sens_gpio_backend());
	}
}

static int on_flush(sd_event_source *s, uint64_t usec, void *user)
{
	struct sens_obs out[8];
	size_t n;

	(void)s;
	(void)usec;
	(void)user;
	while ((n = sens_pipeline_flush(glue.pipe, dd_mono_ns(), out, 8)) > 0)
		deliver(out, n);
	return 0;
}

static int on_edges(sd_event_source *s, int fd, uint32_t revents, void *user)
{
	struct sens_edge edges[EDGES_AT_ONCE];
	struct sens_obs out[8];
	char err[256];
	ssize_t n;

	(void)s;
	(void)fd;
	(void)revents;
	(void)user;
	n = sens_source_read(glue.src, edges, EDGES_AT_ONCE, NULL, err, sizeof(err));
	if (n < 0) {
		dd_log(DD_LOG_ERR, "sensors: %s", err);
		dd_health_set(glue.health, false, "read failed: %s", strerror((int)-n));
		dd_health_detail(glue.health, "read failed: %s", err);
		sd_event_source_set_enabled(glue.io, SD_EVENT_OFF);
		return 0;
	}
	/* As read, ringing and all: a replay runs the pipeline again. */
	if (n > 0 && glue.keep)
		glue.keep(glue.keep_user, &glue.cfg, edges, (size_t)n);
	for (ssize_t i = 0; i < n; i++) {
		size_t k = sens_pipeline_push(glue.pipe, &edges[i], out, 8);

		deliver(out, k);
	}
	if (n > 0) {
		/* The impact completes once its window has passed without more edges. */
		sd_event_source_set_time(glue.flush, (uint64_t)(dd_mono_ns() +
					 sens_config_group_window_ns(&glue.cfg)) / 1000 + 1);
		sd_event_source_set_enabled(glue.flush, SD_EVENT_ONESHOT);
	}
	return 0;
}

static int on_health(sd_event_source *s, uint64_t usec, void *user)
{
	(void)user;
	update_health(dd_mono_ns());
	sd_event_source_set_time(s, usec + HEALTH_EVERY_US);
	sd_event_source_set_enabled(s, SD_EVENT_ON);
	return 0;
}

int dd_sensors_attach(struct dd_config *cfg, sd_event *ev, bool sim, dd_obs_sink sink,
		      void *user, struct dd_health_item *health, char *err, size_t errlen)
{
	char why[256];
	uint64_t now;
	int rc;

	memset(&glue, 0, sizeof(glue));
	rc = dd_sensors_config_load(cfg, &glue.cfg, err, errlen);
	if (rc)
		return rc;
	if (!ev) {
		dd_health_set(health, true, "configured");
		return 0;
	}
	if (sim) {
		/* The simulated table drives fusion directly. */
		dd_health_set(health, true, "simulated table");
		return 0;
	}
	glue.sink = sink;
	glue.user = user;
	glue.health = health;
	glue.src = sens_gpio_open(&glue.cfg, why, sizeof(why));
	if (!glue.src) {
		/* Keep running without: the console can still referee. */
		dd_health_set(health, false, "no sensors: %s", sens_gpio_reason(errno));
		dd_health_detail(health, "no sensors: %s", why);
		dd_log(DD_LOG_WARN, "sensors: %s (running without them)", why);
		return 0;
	}
	if (*sens_source_warning(glue.src))
		dd_log(DD_LOG_WARN, "sensors: %s", sens_source_warning(glue.src));
	glue.pipe = sens_pipeline_new(&glue.cfg);
	if (!glue.pipe) {
		snprintf(err, errlen, "sensors: %s", strerror(errno));
		rc = -errno;
		goto close_source;
	}
	sd_event_now(ev, CLOCK_MONOTONIC, &now);
	if ((rc = sd_event_add_io(ev, &glue.io, sens_source_fd(glue.src), EPOLLIN, on_edges, NULL)) < 0 ||
	    (rc = sd_event_add_time(ev, &glue.flush, CLOCK_MONOTONIC, now, 1, on_flush, NULL)) < 0 ||
	    (rc = sd_event_add_time(ev, &glue.health_timer, CLOCK_MONOTONIC, now + HEALTH_EVERY_US,
				    0, on_health, NULL)) < 0) {
		snprintf(err, errlen, "sensors: event loop: %s", strerror(-rc));
		goto free_sources;
	}
	sd_event_source_set_enabled(glue.flush, SD_EVENT_OFF);
	update_health(dd_mono_ns());
	return 0;

free_sources:
	glue.io = sd_event_source_disable_unref(glue.io);
	glue.flush = sd_event_source_disable_unref(glue.flush);
	glue.health_timer = sd_event_source_disable_unref(glue.health_timer);
	sens_pipeline_free(glue.pipe);
	glue.pipe = NULL;
close_source:
	sens_source_close(glue.src);
	glue.src = NULL;
	return rc;
}

void dd_sensors_keep_edges(dd_edges_sink sink, void *user)
{
	glue.keep = sink;
	glue.keep_user = user;
}

bool dd_sensors_mine_wired(void)
{
	return sens_config_has_role(&glue.cfg, SENS_ROLE_MINE);
}

void dd_sensors_detach(void)
{
	glue.io = sd_event_source_disable_unref(glue.io);
	glue.flush = sd_event_source_disable_unref(glue.flush);
	glue.health_timer = sd_event_source_disable_unref(glue.health_timer);
	sens_pipeline_free(glue.pipe);
	sens_source_close(glue.src);
	glue.pipe = NULL;
	glue.src = NULL;
}
