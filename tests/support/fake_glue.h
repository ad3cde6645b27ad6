/* A fake input glue (sensors or camera) for the unit tests that run
 * `dyeref serve` with that glue's constructor and free replaced through the
 * linker (--wrap, daemon/module.mk): it keeps serve's sink and runs the
 * test's steps on serve's own clock at set times; and serve itself over a
 * Beer Die match under way. Header-only: included by those tests alone
 * (test_serve_*.c), so the other tests do not link serve. Include after cmocka.h. */
#ifndef DYEREF_TEST_FAKE_GLUE_H
#define DYEREF_TEST_FAKE_GLUE_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/health.h"
#include "daemon/inputs.h"
#include "db/db.h"
#include "tests/support/db_fx.h"
#include "tests/support/db_sim.h"

#define FAKE_GLUE_STEPS 8	/* timers a fake glue may set */

struct fake_glue;
/* A step of g: the i-th, run at its time (now_ns, serve's clock). */
typedef void (*fake_glue_step_fn)(struct fake_glue *g, size_t i, int64_t now_ns);

struct fake_glue_step {
	struct fake_glue *g;		/* whose */
	size_t i;			/* which */
	struct dd_timer *timer;		/* owned: on g->clock */
};

struct fake_glue {
	struct dd_clock *clock;		/* serve's */
	dd_obs_sink sink;		/* serve's */
	void *user;			/* for sink */
	fake_glue_step_fn fn;		/* runs each step */
	size_t n;			/* steps set */
	struct fake_glue_step step[FAKE_GLUE_STEPS];
};

static inline void fake_glue_run_step(void *user)
{
	struct fake_glue_step *st = user;

	st->g->fn(st->g, st->i, dd_clock_now(st->g->clock));
}

/* What a wrapped constructor does: the health item ok with text; sink
 * kept and step i run by fn at at_ns[i] after now on clock (serve's: the
 * timers run in time order, ties in the order armed, whatever the
 * machine's load). */
static inline void fake_glue_attach(struct fake_glue *g, struct dd_clock *clock, dd_obs_sink sink,
				    void *user, struct dd_health_item *health, const char *text,
				    const int64_t *at_ns, size_t n, fake_glue_step_fn fn)
{
	int64_t now = dd_clock_now(clock);

	health->ok = true;
	snprintf(health->text, sizeof(health->text), "%s", text);
	assert_true(n <= FAKE_GLUE_STEPS);
	g->clock = clock;
	g->sink = sink;
	g->user = user;
	g->fn = fn;
	g->n = n;
	for (size_t i = 0; i < n; i++) {
		g->step[i].g = g;
		g->step[i].i = i;
		g->step[i].timer = dd_timer_new(clock, fake_glue_run_step, &g->step[i]);
		assert_non_null(g->step[i].timer);
		dd_timer_arm(g->step[i].timer, now + at_ns[i]);
	}
}

/* What a wrapped free does: the timers go (before serve's clock). */
static inline void fake_glue_detach(struct fake_glue *g)
{
	for (size_t i = 0; i < g->n; i++) {
		dd_timer_free(g->step[i].timer);
		g->step[i].timer = NULL;
	}
	g->n = 0;
}

/* Defines the wrapped dd_sensors_new, _free, _keep_edges and _mine_wired
 * (daemon/module.mk) of a test whose fake sensors are g ("fake sensors"
 * on the strip; its handle is &g), their steps at the times in at (an
 * array of ns after serve's start) run by fn. As before the fake, no mine
 * disc is wired and no edge is kept. */
#define FAKE_GLUE_SENSORS(g, at, fn)								\
struct dd_sensors *__wrap_dd_sensors_new(struct dd_config *cfg, sd_event *ev,			\
					 struct dd_clock *clock, bool sim, dd_obs_sink sink,	\
					 void *user, struct dd_health_item *health, char *err,	\
					 size_t errlen);					\
void __wrap_dd_sensors_free(struct dd_sensors *s);						\
void __wrap_dd_sensors_keep_edges(struct dd_sensors *s, dd_edges_sink sink, void *user);	\
bool __wrap_dd_sensors_mine_wired(const struct dd_sensors *s);					\
struct dd_sensors *__wrap_dd_sensors_new(struct dd_config *cfg, sd_event *ev,			\
					 struct dd_clock *clock, bool sim, dd_obs_sink sink,	\
					 void *user, struct dd_health_item *health, char *err,	\
					 size_t errlen)						\
{												\
	(void)cfg;										\
	(void)ev;										\
	(void)sim;										\
	(void)err;										\
	(void)errlen;										\
	fake_glue_attach(&(g), clock, sink, user, health, "fake sensors", at,			\
			 sizeof(at) / sizeof((at)[0]), fn);					\
	return (struct dd_sensors *)&(g);							\
}												\
void __wrap_dd_sensors_free(struct dd_sensors *s)						\
{												\
	if (s)											\
		fake_glue_detach(&(g));								\
}												\
void __wrap_dd_sensors_keep_edges(struct dd_sensors *s, dd_edges_sink sink, void *user)	\
{												\
	assert_ptr_equal(s, &(g));								\
	(void)sink;										\
	(void)user;										\
}												\
bool __wrap_dd_sensors_mine_wired(const struct dd_sensors *s)					\
{												\
	assert_ptr_equal(s, &(g));								\
	return false;										\
}

#define FAKE_GLUE_START_NS (1000 * 1000000000LL)	/* serve's manual clock at its start */
#define FAKE_GLUE_BOUND_NS (600 * 1000000000LL)	/* clock time a run may take: past it, a hang */

/* Runs on serve's loop whenever nothing else is ready (the lowest
 * priority: a signal the last step sent is taken first) and steps serve's
 * manual clock to its next timer: serve's time goes as fast as the work
 * it does, in the order its timers fall due. A run past
 * FAKE_GLUE_BOUND_NS of clock time ends the loop with an error. */
static inline int fake_glue_drive(sd_event_source *s, void *user)
{
	struct dd_clock *c = user;
	int64_t due = dd_clock_next_due(c);

	if (due == INT64_MAX || due > FAKE_GLUE_START_NS + FAKE_GLUE_BOUND_NS) {
		fprintf(stderr, "fake_glue: serve's clock has nothing to run by %lld s: a hang\n",
			(long long)(FAKE_GLUE_BOUND_NS / 1000000000LL));
		return sd_event_exit(sd_event_source_get_event(s), -ETIME);
	}
	dd_clock_advance(c, due);
	return 0;
}

/* Defines the wrapped dd_clock_new_real (daemon/module.mk) of a test that
 * runs serve: a manual clock at FAKE_GLUE_START_NS that fake_glue_drive
 * steps, on serve's loop (a source the loop owns and frees). Serve never
 * sleeps: its steps take no real time. */
#define FAKE_GLUE_CLOCK()									\
struct dd_clock *__wrap_dd_clock_new_real(sd_event *ev, double speed);				\
struct dd_clock *__wrap_dd_clock_new_real(sd_event *ev, double speed)				\
{												\
	struct dd_clock *c = dd_clock_new_manual(FAKE_GLUE_START_NS);				\
	sd_event_source *drive = NULL;								\
												\
	(void)speed;	/* a manual clock's time is the test's */				\
	assert_non_null(c);									\
	assert_true(sd_event_add_defer(ev, &drive, fake_glue_drive, c) >= 0);			\
	assert_true(sd_event_source_set_enabled(drive, SD_EVENT_ON) >= 0);	/* not once */	\
	assert_true(sd_event_source_set_priority(drive, SD_EVENT_PRIORITY_IDLE) >= 0);		\
	assert_true(sd_event_source_set_floating(drive, 1) >= 0);				\
	sd_event_source_unref(drive);								\
	return c;										\
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
