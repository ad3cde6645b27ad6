/* Simulated Beer Die throws for the db/ tests and benchmarks (db_sim.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tests/support/db_sim.h"

void db_test_long_match(struct bd_match_cfg *cfg)
{
	bd_match_cfg_init(cfg);
	cfg->house.target_points = 1000;
}

static void add(struct bd_throw *t, enum bd_ev_kind kind, const char *source,
		double confidence, int64_t t_ns)
{
	struct bd_event *e = &t->events[t->n_events++];

	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->player = BD_NOBODY;
	e->has_confidence = true;
	e->confidence = confidence;
	snprintf(e->source, sizeof(e->source), "%s", source);
	e->t_ns = t_ns;
}

/* One of the common shapes of a throw, attacking the defenders' half. */
static void shape(struct sim_rng *rng, int kind, int defenders, int64_t t_ns, struct bd_throw *t)
{
	enum bd_half half = defenders == BD_TEAM_A ? BD_HALF_A : BD_HALF_B;
	double x0 = defenders == BD_TEAM_A ? 0.1 : 1.3;
	double conf = 0.85 + 0.15 * sim_rng_uniform(rng);
	int defender = defenders * 2 + (int)(sim_rng_next(rng) % 2);

	memset(t, 0, sizeof(*t));
	t->thrower = BD_NOBODY;
	t->dye_up = true;
	t->apex_m = -1;
	switch (kind) {
	case 0:	/* table, then the floor: a point */
	case 1:
		add(t, BD_EV_TABLE, "piezo", conf, t_ns - 300000000);
		t->events[0].half = half;
		t->events[0].has_xy = true;
		t->events[0].x = x0 + sim_rng_uniform(rng);
		t->events[0].y = 0.1 + sim_rng_uniform(rng);
		add(t, BD_EV_FLOOR, "camera", conf, t_ns);
		break;
	case 2:	/* table, caught one-handed: nothing */
	case 3:
		add(t, BD_EV_TABLE, "piezo", conf, t_ns - 300000000);
		t->events[0].half = half;
		add(t, BD_EV_CATCH, "console", 1.0, t_ns);
		t->events[1].player = defender;
		t->events[1].hands = 1;
		break;
	case 4:	/* a cup, then the floor */
		add(t, BD_EV_CUP, "piezo", conf, t_ns - 250000000);
		t->events[0].player = defender;
		add(t, BD_EV_FLOOR, "camera", conf, t_ns);
		break;
	case 5:	/* comes to rest on the table */
		add(t, BD_EV_TABLE, "piezo", conf, t_ns - 300000000);
		t->events[0].half = half;
		add(t, BD_EV_REST, "camera", conf, t_ns);
		t->events[1].face = 1 + (int)(sim_rng_next(rng) % 6);
		break;
	default:	/* straight to the floor */
		add(t, BD_EV_FLOOR, "camera", conf, t_ns);
		break;
	}
}

int db_test_throw(struct sim_rng *rng, const struct bd_match_cfg *cfg,
		  const struct bd_state *s, int64_t t_ns, struct bd_throw *t,
		  struct bd_ruling *r, char *err, size_t errlen)
{
	int thrower = bd_next_thrower(s, cfg);
	int defenders = BD_OTHER(BD_TEAM_OF(thrower));
	int kind = (int)(sim_rng_next(rng) % 7);
	shape(rng, kind, defenders, t_ns, t);
	/* Every shape is a legal throw; should the rules still refuse one,
	 * the plainest (a catch) stands in, so the match goes on. */
	if (bd_judge(cfg, s, t, r, err, errlen) == 0)
		return 0;
	shape(rng, 2, defenders, t_ns, t);
	return bd_judge(cfg, s, t, r, err, errlen);
}

void db_test_raw(struct sim_rng *rng, int64_t t_ns, struct db_raw *raw,
		 char payloads[][DB_TEST_PAYLOAD])
{
	for (int i = 0; i < DB_TEST_RAW_PER_THROW; i++) {
		int64_t at = t_ns - 400000000 + (int64_t)i * 30000000 +
			     (int64_t)(sim_rng_next(rng) % 1000000);
		bool camera = i % 4 == 3;

		if (camera)
			snprintf(payloads[i], DB_TEST_PAYLOAD, "{\"x\":%.3f,\"y\":%.3f,\"r\":0.008}",
				 2.4 * sim_rng_uniform(rng), 1.2 * sim_rng_uniform(rng));
		else
			snprintf(payloads[i], DB_TEST_PAYLOAD, "{\"line\":%d,\"seq\":%d}", i % 6, i);
		raw[i] = (struct db_raw){
			.t_ns = at, .throw_no = 0,
			.source = camera ? "camera" : "piezo",
			.kind = camera ? "detection" : "edge",
			.channel = camera ? 0 : i % 6,
			.payload = payloads[i], .len = strlen(payloads[i]),
		};
	}
}

int db_test_store_throw(struct db *db, int64_t m, struct sim_rng *rng,
			const struct bd_match_cfg *cfg, const struct bd_state *s, int64_t t_ns,
			const void *jpeg, size_t jlen, struct bd_throw *t, struct bd_ruling *r,
			char *err, size_t errlen)
{
	char payloads[DB_TEST_RAW_PER_THROW][DB_TEST_PAYLOAD];
	struct db_raw raw[DB_TEST_RAW_PER_THROW];
	int ret;

	db_test_raw(rng, t_ns, raw, payloads);
	ret = db_raw_append(db, m, raw, DB_TEST_RAW_PER_THROW, err, errlen);
	if (!ret && jpeg)
		ret = db_snapshot_add(db, m, 0, t_ns - 1000, jpeg, jlen, err, errlen);
	if (!ret)
		ret = db_test_throw(rng, cfg, s, t_ns, t, r, err, errlen);
	if (!ret)
		ret = db_bd_throw(db, m, cfg, t, r, t_ns - 400000000, t_ns, err, errlen);
	return ret;
}

int db_test_start(struct db *db, const char *name, const struct bd_match_cfg *cfg,
		  int64_t t_ns, int64_t *m, char *err, size_t errlen)
{
	struct mlog_bd *log = mlog_bd_new(name, cfg);
	int ret;

	if (!log) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	ret = db_bd_start(db, log, t_ns, m, err, errlen);
	mlog_bd_free(log);
	return ret;
}
