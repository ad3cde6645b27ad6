/* The table's piezo sensors in `dyeref serve`: [sensors] and [table] from
 * the config, the GPIO edge source on the event loop, the sensors'
 * pipeline turning edges into impacts, and each impact handed to fusion.
 * A chip that is not there is reported on the health strip, not fatal. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/fusion.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "daemon/obs_time.h"
#include "sensors/sensors.h"

#define EDGES_AT_ONCE 64		/* edges read per wake-up */
#define HEALTH_EVERY_NS (5 * 1000000000LL)	/* re-check the lines' health */

struct dd_sensors {
	struct sens_config cfg;		/* as configured */
	struct sens_source *src;	/* owned: the chip's lines, or NULL (none, or --sim) */
	struct sens_pipeline *pipe;	/* owned: edges -> impacts, with src */
	struct dd_clock *clock;		/* borrowed: serve's, CLOCK_MONOTONIC as the edges are */
	sd_event_source *io;		/* the source's fd */
	struct dd_timer *flush;		/* completes an impact when its window ends */
	struct dd_timer *health_timer;	/* refreshes *health */
	dd_obs_sink sink;		/* fusion's entry */
	void *user;			/* for sink */
	dd_edges_sink keep;		/* the event log's entry, or NULL */
	void *keep_user;		/* for keep */
	struct dd_health_item *health;	/* the strip's item (the caller's) */
	enum sens_health was[SENS_MAX_LINES];	/* each line's state when last looked at */
};

/* A line the line check holds in quarantine (docs/sensors.md "Line check"). */
static bool quarantined(enum sens_health h)
{
	return h == SENS_HEALTH_FLOATING || h == SENS_HEALTH_STUCK || h == SENS_HEALTH_CHATTERING;
}

/* The log says when a line is quarantined and when it is trusted again:
 * the owner finds the loose wire by the time. */
static void log_quarantines(struct dd_sensors *g, const struct sens_line_health *h, size_t n)
{
	struct sens_linecheck_cfg lc;

	sens_linecheck_defaults(&lc, SENS_ROLE_FLOOR);
	for (size_t i = 0; i < n && i < SENS_MAX_LINES; i++) {
		if (quarantined(h[i].state) && h[i].state != g->was[i])
			dd_log(DD_LOG_WARN, "sensors: %s (line %u) %s: %s; its edges reach no impact "
			       "until it has looked sane for %.0f s", h[i].name, h[i].offset,
			       sens_health_name(h[i].state), h[i].why, (double)lc.settle_ns / 1e9);
		else if (!quarantined(h[i].state) && quarantined(g->was[i]))
			dd_log(DD_LOG_INFO, "sensors: %s (line %u) has looked sane for %.0f s: trusted "
			       "again", h[i].name, h[i].offset, (double)lc.settle_ns / 1e9);
		g->was[i] = h[i].state;
	}
}

/* What the pipeline completed, to fusion. */
static void deliver(struct dd_sensors *g, const struct sens_obs *so, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct dd_obs o;

		dd_sensors_obs_to_fusion(&so[i], &o);
		g->sink(g->user, &o);
	}
}

/* The strip's words name the lines as configured and their state (which
 * disc to look at); the chip, its path and the fix are the console's. */
/* Returns when a quarantine ends (INT64_MAX: none is on). */
static int64_t update_health(struct dd_sensors *g, int64_t now)
{
	struct sens_line_health h[SENS_MAX_LINES];
	size_t n = sens_pipeline_health(g->pipe, now, h, SENS_MAX_LINES), ok = 0;
	const struct sens_line_health *bad = NULL;
	const char *warning = sens_source_warning(g->src);
	int64_t ends = INT64_MAX;

	log_quarantines(g, h, n);
	for (size_t i = 0; i < n && i < SENS_MAX_LINES; i++) {
		if (h[i].state == SENS_HEALTH_OK || h[i].state == SENS_HEALTH_UNTESTED)
			ok++;
		else if (!bad || (quarantined(h[i].state) && !quarantined(bad->state)))
			bad = &h[i];	/* a quarantine first: its edges are being thrown away */
	}
	if (bad) {
		dd_health_set(g->health, false, "%zu of %zu piezo lines ok; %.16s %.16s", ok, n,
			      bad->name, sens_health_name(bad->state));
		if (quarantined(bad->state))
			dd_health_detail(g->health, "%zu of %zu piezo lines ok; %s (%s line %u) %s: %s, "
					 "quarantined", ok, n, bad->name, g->cfg.chip, bad->offset,
					 sens_health_name(bad->state), bad->why);
		else
			dd_health_detail(g->health, "%zu of %zu piezo lines ok; %s (%s line %u) %s", ok,
					 n, bad->name, g->cfg.chip, bad->offset,
					 sens_health_name(bad->state));
	} else if (*warning) {
		/* probably the wrong pins: the owner looks at the strip, not the log */
		dd_health_set(g->health, false, "%zu piezo lines, on a chip that is not the Pi's "
			      "header", n);
		dd_health_detail(g->health, "%zu piezo lines: %s", n, warning);
	} else if (sens_jitter_noisier(sens_pipeline_jitter(g->pipe))) {
		/* The fits weigh the configured noise: on a noisier table their
		 * p and sigma claim too much (docs/sensors.md "The measured jitter") */
		const struct sens_jitter *j = sens_pipeline_jitter(g->pipe);

		dd_health_set(g->health, false, "%zu piezo lines ok; timing noise %.0f us, the "
			      "config says %.3g", n, sens_jitter_sigma_s(j) * 1e6,
			      g->cfg.timing_sigma_s * 1e6);
		dd_health_detail(g->health, "%zu piezo lines ok on %s; timing noise measured %.1f us "
				 "over the last %zu fits, [sensors] timing_sigma_us %.3g: run dyeref "
				 "calibrate piezo", n, g->cfg.chip, sens_jitter_sigma_s(j) * 1e6, j->n,
				 g->cfg.timing_sigma_s * 1e6);
	} else {
		dd_health_set(g->health, true, "%zu piezo lines ok (%s)", n, sens_gpio_backend());
		dd_health_detail(g->health, "%zu piezo lines ok on %s (%s)", n, g->cfg.chip,
				 sens_gpio_backend());
	}
	for (size_t i = 0; i < n && i < SENS_MAX_LINES; i++)
		if (quarantined(h[i].state) && h[i].trusted_at_ns < ends)
			ends = h[i].trusted_at_ns;
	return ends;
}

/* The next look at the lines' health: every HEALTH_EVERY_NS, and when a
 * quarantine ends (ends), so a line that settled turns green then. */
static void rearm_health(struct dd_sensors *g, int64_t ends)
{
	int64_t next = dd_time_shifted(dd_clock_now(g->clock), HEALTH_EVERY_NS);

	dd_timer_arm(g->health_timer, ends < next ? ends : next);
}

/* Reads what the source has and takes it through the pipeline: the edges
 * read (0: none was waiting), or -1 when the read failed (the source is
 * then off the loop). */
static ssize_t read_edges(struct dd_sensors *g)
{
	struct sens_edge edges[EDGES_AT_ONCE];
	struct sens_obs out[8];
	char err[256];
	ssize_t n;

	n = sens_source_read(g->src, edges, EDGES_AT_ONCE, NULL, err, sizeof(err));
	if (n < 0) {
		dd_log(DD_LOG_ERR, "sensors: %s", err);
		dd_health_set(g->health, false, "read failed: %s", strerror((int)-n));
		dd_health_detail(g->health, "read failed: %s", err);
		sd_event_source_set_enabled(g->io, SD_EVENT_OFF);
		return -1;
	}
	/* As read, ringing and all: a replay runs the pipeline again. */
	if (n > 0 && g->keep)
		g->keep(g->keep_user, &g->cfg, edges, (size_t)n);
	for (ssize_t i = 0; i < n; i++) {
		size_t k = sens_pipeline_push(g->pipe, &edges[i], out, 8);

		deliver(g, out, k);
	}
	/* The impact completes once its window has passed without more edges. */
	if (n > 0) {
		dd_timer_arm(g->flush, dd_time_shifted(dd_clock_now(g->clock),
						       sens_config_group_window_ns(&g->cfg) + 1000));
		/* a line quarantined by these edges is named at once */
		rearm_health(g, update_health(g, dd_clock_now(g->clock)));
	}
	return n;
}

static int on_edges(sd_event_source *s, int fd, uint32_t revents, void *user)
{
	(void)s;
	(void)fd;
	(void)revents;
	read_edges(user);
	return 0;
}

static void on_flush(void *user)
{
	struct dd_sensors *g = user;
	struct sens_obs out[8];
	int on = SD_EVENT_OFF;
	size_t n;

	/* Edges still waiting came before now: while there are, the flush
	 * waits (reading them re-arms it), so what completes does not depend
	 * on whether the loop ran this timer or the read first. */
	if (sd_event_source_get_enabled(g->io, &on) >= 0 && on != SD_EVENT_OFF && read_edges(g) > 0)
		return;
	while ((n = sens_pipeline_flush(g->pipe, dd_clock_now(g->clock), out, 8)) > 0)
		deliver(g, out, n);
}

static void on_health(void *user)
{
	struct dd_sensors *g = user;

	rearm_health(g, update_health(g, dd_clock_now(g->clock)));
}

int dd_sensors_check_config(struct dd_config *cfg, char *err, size_t errlen)
{
	struct sens_config *c = malloc(sizeof(*c));
	int rc;

	if (!c) {
		snprintf(err, errlen, "sensors: out of memory");
		return -ENOMEM;
	}
	rc = dd_sensors_config_load(cfg, c, err, errlen);
	free(c);
	return rc;
}

/* Opens the chip and puts its lines on the loop. 0; a chip that is not
 * there is 0 too (the health item says so, g->src stays NULL); another
 * failure a negative errno with a message. */
static int open_chip(struct dd_sensors *g, sd_event *ev, char *err, size_t errlen)
{
	char why[256];
	int rc;

	g->src = sens_gpio_open(&g->cfg, why, sizeof(why));
	if (!g->src) {
		/* Keep running without: the console can still referee. */
		dd_health_set(g->health, false, "no sensors: %s", sens_gpio_reason(errno));
		dd_health_detail(g->health, "no sensors: %s", why);
		dd_log(DD_LOG_WARN, "sensors: %s (running without them)", why);
		return 0;
	}
	if (*sens_source_warning(g->src))
		dd_log(DD_LOG_WARN, "sensors: %s", sens_source_warning(g->src));
	g->pipe = sens_pipeline_new(&g->cfg);
	if (!g->pipe) {
		rc = -errno;
		snprintf(err, errlen, "sensors: %s", strerror(errno));
		return rc;
	}
	g->flush = dd_timer_new(g->clock, on_flush, g);
	g->health_timer = dd_timer_new(g->clock, on_health, g);
	if (!g->flush || !g->health_timer) {
		rc = -errno;
		snprintf(err, errlen, "sensors: timers: %s", strerror(errno));
		return rc;
	}
	rc = sd_event_add_io(ev, &g->io, sens_source_fd(g->src), EPOLLIN, on_edges, g);
	if (rc < 0) {
		snprintf(err, errlen, "sensors: event loop: %s", strerror(-rc));
		return rc;
	}
	on_health(g);
	return 0;
}

struct dd_sensors *dd_sensors_new(struct dd_config *cfg, sd_event *ev, struct dd_clock *clock,
				  bool sim, dd_obs_sink sink, void *user,
				  struct dd_health_item *health, char *err, size_t errlen)
{
	struct dd_sensors *g = calloc(1, sizeof(*g));
	int rc;

	if (!g) {
		snprintf(err, errlen, "sensors: out of memory");
		return NULL;
	}
	g->clock = clock;
	g->sink = sink;
	g->user = user;
	g->health = health;
	rc = dd_sensors_config_load(cfg, &g->cfg, err, errlen);
	if (rc)
		goto free_glue;
	if (sim) {
		/* The simulated table drives fusion directly. */
		dd_health_set(health, true, "simulated table");
		return g;
	}
	rc = open_chip(g, ev, err, errlen);
	if (rc)
		goto free_glue;
	return g;

free_glue:
	dd_sensors_free(g);
	errno = -rc;
	return NULL;
}

void dd_sensors_keep_edges(struct dd_sensors *g, dd_edges_sink sink, void *user)
{
	g->keep = sink;
	g->keep_user = user;
}

bool dd_sensors_mine_wired(const struct dd_sensors *g)
{
	return sens_config_has_role(&g->cfg, SENS_ROLE_MINE);
}

void dd_sensors_free(struct dd_sensors *g)
{
	if (!g)
		return;
	sd_event_source_disable_unref(g->io);
	dd_timer_free(g->flush);
	dd_timer_free(g->health_timer);
	sens_pipeline_free(g->pipe);
	sens_source_close(g->src);
	free(g);
}
