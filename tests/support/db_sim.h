/*
 * Simulated Beer Die throws for the db/ tests and benchmarks: random but
 * always judgeable, with the raw inputs (piezo edges, camera detections) a
 * real table would have sent for them. Deterministic from the rng's seed.
 */
#ifndef DYEREF_TEST_DB_SIM_H
#define DYEREF_TEST_DB_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "db/db.h"
#include "sim/sim.h"

#define DB_TEST_RAW_PER_THROW 12	/* raw inputs db_test_raw() makes per throw */
#define DB_TEST_PAYLOAD 48		/* bytes of payload text per raw input, max */

/* A throw the state's next thrower could make, ending at t_ns, judged:
 * *r is bd_judge()'s ruling for it (the same rng draws give the same throw).
 * 0, or bd_judge()'s error with its message in err (the game is over). */
int db_test_throw(struct sim_rng *rng, const struct bd_match_cfg *cfg,
		   const struct bd_state *s, int64_t t_ns, struct bd_throw *t,
		   struct bd_ruling *r, char *err, size_t errlen);

/* The raw inputs of a throw spanning (t_ns - 400 ms, t_ns]: fills raw[0..
 * DB_TEST_RAW_PER_THROW) with payload text in payloads. */
void db_test_raw(struct sim_rng *rng, int64_t t_ns, struct db_raw *raw,
		 char payloads[][DB_TEST_PAYLOAD]);

/* Starts a match of cfg in db at t_ns, its log named name: 0 with *m,
 * -ENOMEM, or db_bd_start's error with its message in err. */
int db_test_start(struct db *db, const char *name, const struct bd_match_cfg *cfg,
		  int64_t t_ns, int64_t *m, char *err, size_t errlen);

/* Stores the next simulated throw of match m as the daemon does: its raw
 * inputs (db_test_raw), one snapshot at t_ns - 1 us when jpeg is not NULL,
 * then the throw with its ruling over (t_ns - 400 ms, t_ns]. *t and *r are
 * the throw and ruling stored; the caller applies *r to s. 0, or the first
 * error with its message in err. */
int db_test_store_throw(struct db *db, int64_t m, struct sim_rng *rng,
			const struct bd_match_cfg *cfg, const struct bd_state *s, int64_t t_ns,
			const void *jpeg, size_t jlen, struct bd_throw *t, struct bd_ruling *r,
			char *err, size_t errlen);

/* A long Beer Die match config: target 1000 points, so it does not end. */
void db_test_long_match(struct bd_match_cfg *cfg);

#endif /* DYEREF_TEST_DB_SIM_H */
