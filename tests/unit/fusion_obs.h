/* Observations for fusion's tests (test_fusion.c, test_fusion_kicks.c,
 * test_fusion_shakes.c, test_fusion_exits.c, test_fusion_ends.c,
 * test_fusion_clock.c, test_fusion_rest.c): synthetic observations as the
 * glue hands them over, fed and judged as the daemon does. Header-only:
 * each test includes it once. */
#ifndef DYEREF_TEST_FUSION_OBS_H
#define DYEREF_TEST_FUSION_OBS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "daemon/daemon.h"
#include "daemon/fusion.h"
#include "vision/vision.h"

#define MS 1000000LL

static inline struct dd_fusion_cfg cfg_with(bool piezo, bool camera)
{
	struct dd_fusion_cfg c;

	dd_fusion_cfg_defaults(&c);
	c.piezo_present = piezo;
	c.camera_present = camera;
	return c;
}

static inline struct dd_obs obs_event(enum dd_source src, int64_t t, double conf, enum bd_ev_kind kind)
{
	struct dd_obs o;

	memset(&o, 0, sizeof(o));
	o.kind = DD_OBS_EVENT;
	o.source = src;
	o.t_ns = t;
	o.confidence = conf;
	o.ev.kind = kind;
	o.ev.player = BD_NOBODY;
	return o;
}

static inline struct dd_obs obs_table(enum dd_source src, int64_t t, double conf, enum bd_half half)
{
	struct dd_obs o = obs_event(src, t, conf, BD_EV_TABLE);

	o.ev.half = half;
	return o;
}

/* The camera's first landing at (x, 0.6) as the camera glue sends it: the
 * tracker's d that the kink was a contact times its half's probability
 * from the point at the tracker's stated sd (vis_obs_to_event). */
static inline struct dd_obs obs_camera_at(int64_t t, double x, double d)
{
	struct bd_table tb;
	struct dd_obs o;

	bd_table_defaults(&tb);
	o = obs_table(DD_SRC_CAMERA, t, d * vis_half_confidence(&tb, x, VIS_LANDING_XY_SD_M),
		      bd_table_half(&tb, x));
	o.ev.has_xy = true;
	o.ev.x = x;
	o.ev.y = 0.6;
	return o;
}

/* The piezo fix's first landing at (x, 0.6), sd sigma_m, P(half) conf. */
static inline struct dd_obs obs_piezo_at(int64_t t, double x, double sigma_m, double conf)
{
	struct bd_table tb;
	struct dd_obs o;

	bd_table_defaults(&tb);
	o = obs_table(DD_SRC_PIEZO, t, conf, bd_table_half(&tb, x));
	o.ev.has_xy = true;
	o.ev.x = x;
	o.ev.y = 0.6;
	o.sigma_m = sigma_m;
	return o;
}

static inline struct dd_obs obs_kind(enum dd_obs_kind kind, enum dd_source src, int64_t t)
{
	struct dd_obs o;

	memset(&o, 0, sizeof(o));
	o.kind = kind;
	o.source = src;
	o.t_ns = t;
	o.confidence = 0.9;
	return o;
}

/* A cup or mine hit that shook the table at t: the table lines that heard
 * the shake are held off until `until` (dd_sensors_obs_to_fusion). */
static inline struct dd_obs obs_deaf(int64_t t, int64_t until)
{
	struct dd_obs o = obs_kind(DD_OBS_TABLE_DEAF, DD_SRC_PIEZO, t);

	o.confidence = 1;
	o.until_ns = until;
	return o;
}

/* Feeds observations; returns the tick that completes the throw, checked
 * not to complete it a moment earlier. */
static inline void run(struct dd_fusion *f, const struct dd_obs *obs, size_t n, struct dd_fused *out)
{
	int64_t deadline;

	for (size_t i = 0; i < n; i++)
		assert_int_equal(dd_fusion_add(f, &obs[i], out), 0);
	assert_true(dd_fusion_active(f));
	deadline = dd_fusion_deadline(f);
	assert_int_equal(dd_fusion_tick(f, deadline - 1, out), 0);
	assert_int_equal(dd_fusion_tick(f, deadline, out), 1);
	assert_false(dd_fusion_active(f));
}

/* fused as the daemon judges it (dd_fused_judge), with the score at a-b
 * and A to throw; why gets the reasons for review. */
static inline struct bd_ruling judge_fused(const struct dd_fused *fx, int a, int b, char why[DD_WHY_MAX])
{
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct bd_ruling r;
	char err[256];

	bd_match_cfg_init(&cfg);
	bd_state_init(&s, &cfg);
	s.score[BD_TEAM_A] = a;
	s.score[BD_TEAM_B] = b;
	assert_int_equal(dd_fused_judge(&cfg, &s, fx, &r, why, DD_WHY_MAX, err, sizeof(err)), 0);
	return r;
}

/* t alone, as the first throw of a match. */
static inline struct bd_ruling judge(const struct bd_throw *t)
{
	static struct dd_fused fx;	/* large */
	char why[DD_WHY_MAX];

	memset(&fx, 0, sizeof(fx));
	fx.t = *t;
	return judge_fused(&fx, 0, 0, why);
}

#endif /* DYEREF_TEST_FUSION_OBS_H */
