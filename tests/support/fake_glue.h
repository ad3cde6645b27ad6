/* A fake input glue (sensors or camera) for the unit tests that run
 * `dyeref serve` with that glue's attach and detach replaced through the
 * linker (--wrap, daemon/module.mk): it keeps serve's sink and runs the
 * test's steps on serve's own loop at set times; and serve itself over a
 * Beer Die match under way. Header-only: included by those tests alone
 * (test_serve_*.c), so the other tests do not link serve. Include after cmocka.h. */
#ifndef DYEREF_TEST_FAKE_GLUE_H
#define DYEREF_TEST_FAKE_GLUE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "db/db.h"
#include "tests/support/db_fx.h"
#include "tests/support/db_sim.h"

#define FAKE_GLUE_STEPS 8	/* timers a fake glue may set */

struct fake_glue {
	dd_obs_sink sink;		/* serve's */
	void *user;			/* for sink */
	size_t n;			/* steps set */
	sd_event_source *step[FAKE_GLUE_STEPS];	/* its timers */
};

/* What a wrapped attach does: the health item ok with text; with a loop
 * (serve, not --check-config), sink kept and step i run at at_us[i] after
 * now by cb (its user: i). In that order whatever the machine's load:
 * sd-event runs due timers earliest first (accuracy 1 us: no coalescing).
 * Returns 0, as a glue that attached. */
static inline int fake_glue_attach(struct fake_glue *g, sd_event *ev, dd_obs_sink sink, void *user,
				   struct dd_health_item *health, const char *text,
				   const uint64_t *at_us, size_t n, sd_event_time_handler_t cb)
{
	uint64_t now;

	health->ok = true;
	snprintf(health->text, sizeof(health->text), "%s", text);
	if (!ev)
		return 0;
	assert_true(n <= FAKE_GLUE_STEPS);
	g->sink = sink;
	g->user = user;
	g->n = n;
	assert_true(sd_event_now(ev, CLOCK_MONOTONIC, &now) >= 0);	/* 1: the loop has not run yet */
	for (size_t i = 0; i < n; i++)
		assert_true(sd_event_add_time(ev, &g->step[i], CLOCK_MONOTONIC, now + at_us[i], 1, cb,
					      (void *)(intptr_t)i) >= 0);
	return 0;
}

/* What a wrapped detach does. */
static inline void fake_glue_detach(struct fake_glue *g)
{
	for (size_t i = 0; i < g->n; i++)
		g->step[i] = sd_event_source_unref(g->step[i]);
}

/* Defines the wrapped dd_sensors_attach and _detach of a test whose fake
 * sensors are g ("fake sensors" on the strip), their steps at the times in
 * at (an array of us) run by cb. */
#define FAKE_GLUE_SENSORS(g, at, cb)								\
int __wrap_dd_sensors_attach(struct dd_config *cfg, sd_event *ev, bool sim, dd_obs_sink sink,	\
			     void *user, struct dd_health_item *health, char *err, size_t errlen);	\
void __wrap_dd_sensors_detach(void);								\
int __wrap_dd_sensors_attach(struct dd_config *cfg, sd_event *ev, bool sim, dd_obs_sink sink,	\
			     void *user, struct dd_health_item *health, char *err, size_t errlen)	\
{												\
	(void)cfg;										\
	(void)sim;										\
	(void)err;										\
	(void)errlen;										\
	return fake_glue_attach(&(g), ev, sink, user, health, "fake sensors", at,		\
				sizeof(at) / sizeof((at)[0]), cb);					\
}												\
void __wrap_dd_sensors_detach(void)								\
{												\
	fake_glue_detach(&(g));									\
}

/* Runs `dyeref serve [opt]` (until a step sends SIGTERM) on f's database,
 * closed meanwhile: [web] on loopback, port 0, [db] f's, then the config
 * lines extra; opt (NULL: none) is one more argument. f->db is open again
 * afterwards. */
static inline void fake_glue_run_serve(struct db_test_fx *f, const char *extra, char *opt)
{
	char err[256], ini[256], text[512];
	char *argv[] = { "serve", "--config", ini, opt, NULL };
	FILE *fp;

	db_close(f->db);
	f->db = NULL;
	snprintf(ini, sizeof(ini), "%s/t.ini", f->dir);
	snprintf(text, sizeof(text), "[web]\nbind = 127.0.0.1\nport = 0\n[db]\npath = %s\n%s", f->path,
		 extra);
	fp = fopen(ini, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(dd_cmd_serve(opt ? 4 : 3, argv), 0);
	f->db = db_open(f->path, 0, err, sizeof(err));
	assert_non_null(f->db);
}

/* The same over a Beer Die match of mc begun in f's database, which serve
 * picks up; *match is the match's id. */
static inline void fake_glue_serve_match(struct db_test_fx *f, const struct bd_match_cfg *mc,
					 const char *extra, int64_t *match)
{
	char err[256];

	assert_int_equal(db_test_start(f->db, "t", mc, 1, match, err, sizeof(err)), 0);
	fake_glue_run_serve(f, extra, NULL);
}

/* The same over a long match (db_test_long_match). */
static inline void fake_glue_serve(struct db_test_fx *f, const char *extra, int64_t *match)
{
	struct bd_match_cfg mc;

	db_test_long_match(&mc);
	fake_glue_serve_match(f, &mc, extra, match);
}

#endif /* DYEREF_TEST_FAKE_GLUE_H */
