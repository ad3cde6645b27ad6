/*
 * The web's pages of a stored match that is not the one under way
 * (`GET /api/matches`, `GET /api/matches/N/throws/K`), read from the
 * database: a 60-throw match as the referee stores it (fusion's notes, held
 * reasons, confirmations, corrections, snapshots) gives byte for byte the
 * JSON recorded in tests/data/daemon/old-match.golden, which the per-throw
 * reading these pages did before wrote, and each throw's page is the one
 * the referee showed from memory while the match was under way.
 * DYEREF_WRITE_GOLDEN=1 rewrites the file: only when the pages are meant to
 * change (a new field, the judge's rulings or rule texts changed on
 * purpose), after checking the difference.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/daemon.h"
#include "daemon/fusion.h"
#include "daemon/referee.h"
#include "db/db.h"
#include "tests/support/db_fx.h"
#include "tests/support/db_sim.h"

#define THROWS 60
#define S 1000000000LL
#define MATCH_ID 1	/* the first match of a fresh database */
#define GOLDEN "tests/data/daemon/old-match.golden"

/* The stored match's pages, one per line: the list, then every throw,
 * into *text (the caller frees it). */
static void pages(struct dd_referee *r, int64_t id, char **text)
{
	char *json;
	size_t len = 0;
	FILE *f = open_memstream(text, &len);

	assert_non_null(f);
	assert_int_equal(dd_referee_matches(r, &json), 0);
	fprintf(f, "%s\n", json);
	free(json);
	for (int k = 1; k <= THROWS; k++) {
		assert_int_equal(dd_referee_throw_detail(r, (long)id, k, &json), 0);
		fprintf(f, "%s\n", json);
		free(json);
	}
	assert_int_equal(dd_referee_throw_detail(r, (long)id, THROWS + 1, &json), -ENOENT);
	assert_int_equal(dd_referee_throw_detail(r, (long)id + 7, 1, &json), -ENOENT);
	fclose(f);
}

/* THROWS throws of simulated shapes through the referee, each with
 * fusion's observations; every 5th held as doubtful (counted: review =
 * count), every 7th confirmed, every 11th corrected, a snapshot on every
 * 3rd. live[k-1] (the caller frees them) gets throw k's page while its
 * match is the one under way, read from memory. Returns the match id; the
 * match is ended and another started. */
static int64_t store_match(struct dd_referee *r, struct db *db, char *live[THROWS])
{
	static const unsigned char jpeg[64] = { 0xff, 0xd8, 0xff, 0xe0 };
	static const char teams[2][32] = { "Orange", "Blue" };
	struct bd_match_cfg mc;
	struct bd_state s;
	struct sim_rng rng;
	struct dd_fused *fx = calloc(1, sizeof(*fx));
	char err[256];

	assert_non_null(fx);
	db_test_long_match(&mc);
	snprintf(mc.players[0], sizeof(mc.players[0]), "Ann");
	snprintf(mc.players[1], sizeof(mc.players[1]), "Bo");
	snprintf(mc.players[2], sizeof(mc.players[2]), "Cy");
	snprintf(mc.players[3], sizeof(mc.players[3]), "Di");
	assert_int_equal(dd_referee_start(r, &mc, teams, NULL, err, sizeof(err)), 0);
	bd_state_init(&s, &mc);
	sim_rng_seed(&rng, 11);
	for (int k = 1; k <= THROWS; k++) {
		int64_t t_ns = k * 10 * S;
		struct bd_ruling ru;

		memset(fx, 0, sizeof(*fx));
		assert_int_equal(db_test_throw(&rng, &mc, &s, t_ns, &fx->t, &ru, err, sizeof(err)), 0);
		bd_apply(&s, &mc, &ru);
		fx->t_start_ns = t_ns - 2 * S;
		fx->t_dead_ns = t_ns;
		fx->t_last_edge_ns = t_ns;
		fx->obs[0].kind = DD_OBS_TOSS;
		fx->obs[0].source = DD_SRC_CAMERA;
		fx->obs[0].t_ns = fx->t_start_ns;
		fx->obs[0].confidence = 0.9;
		for (size_t i = 0; i < fx->t.n_events && i + 1 < DD_FUSION_MAX_OBS; i++) {
			struct dd_obs *o = &fx->obs[i + 1];

			o->kind = DD_OBS_EVENT;
			o->source = i % 2 ? DD_SRC_CAMERA : DD_SRC_PIEZO;
			o->t_ns = fx->t.events[i].t_ns;
			o->confidence = fx->t.events[i].confidence;
			o->ev = fx->t.events[i];
			o->sigma_m = 0.01 * (double)k;
		}
		fx->n_obs = fx->t.n_events + 1;
		if (k == 13 && fx->n_obs < DD_FUSION_MAX_OBS) {
			/* the camera's toss height and its sd, kept as evidence (BD-P5) */
			struct dd_obs *o = &fx->obs[fx->n_obs++];

			o->kind = DD_OBS_APEX;
			o->source = DD_SRC_CAMERA;
			o->t_ns = fx->t_start_ns + S / 2;
			o->confidence = 0.9;
			o->apex_m = 3.4;
			o->apex_sd_m = 0.08;
		}
		if (k == 17 && fx->n_obs < DD_FUSION_MAX_OBS) {
			/* a cup hit's shake of the table: when the discs were deaf */
			struct dd_obs *o = &fx->obs[fx->n_obs++];

			o->kind = DD_OBS_TABLE_DEAF;
			o->source = DD_SRC_PIEZO;
			o->t_ns = fx->t_start_ns + S;
			o->confidence = 1;
			o->until_ns = o->t_ns + 21000000;
		}
		if (k % 5 == 0) {
			/* thin evidence: the judge asks for review (house.review_below) */
			for (size_t i = 0; i < fx->t.n_events; i++)
				fx->t.events[i].confidence = 0.6;
			fx->review = true;
			snprintf(fx->review_why, sizeof(fx->review_why), "the camera saw no landing (%d)", k);
		}
		assert_int_equal(dd_referee_throw(r, fx, err, sizeof(err)), 0);
		if (k % 3 == 0) {
			assert_int_equal(db_snapshot_add(db, MATCH_ID, k, t_ns - S, jpeg, sizeof(jpeg),
							 err, sizeof(err)), 0);
			assert_int_equal(db_raw_flush(db, err, sizeof(err)), 0);
		}
		/* An official, at a fixed wall time: the pages show who and when. */
		struct dd_audit au = { .official = "Kim", .wall_ms = 1700000000000 + k };

		if (k % 3 == 0)
			snprintf(au.reason, sizeof(au.reason), "seen from the B end (%d)", k);
		if (k % 10 == 5)	/* a doubtful one: confirmed */
			assert_int_equal(dd_referee_confirm(r, k, &au, err, sizeof(err)), 0);
		else if (k % 7 == 0)	/* not under review: nothing to confirm */
			assert_int_equal(dd_referee_confirm(r, k, &au, err, sizeof(err)), -EBUSY);
		if (k % 11 == 0)	/* the same throw again: a correction line all the same */
			assert_int_equal(dd_referee_correct(r, k, &fx->t, k % 2 ? &au : NULL,
							    err, sizeof(err)), 0);
	}
	free(fx);
	for (int k = 1; k <= THROWS; k++)
		assert_int_equal(dd_referee_throw_detail(r, MATCH_ID, k, &live[k - 1]), 0);
	assert_non_null(strstr(live[12], "\"kind\":\"apex\""));
	assert_non_null(strstr(live[12], "\"apex_sd_m\":0.08"));
	assert_non_null(strstr(live[16], "\"kind\":\"table_deaf\""));
	assert_non_null(strstr(live[16], "\"until_ms\":1021"));
	assert_int_equal(dd_referee_end(r, err, sizeof(err)), 0);
	assert_int_equal(dd_referee_start(r, &mc, teams, NULL, err, sizeof(err)), 0);
	return MATCH_ID;
}

static void test_referee_old_match_pages_are_the_recorded_json(void **state)
{
	struct db_test_fx *f = *state;
	struct dd_referee_cfg cfg;
	struct dd_referee *r;
	const char *top = getenv("TOP");
	char path[512], *got, *want = NULL;
	size_t wlen = 0;
	int64_t id;
	FILE *g;

	memset(&cfg, 0, sizeof(cfg));
	bd_house_defaults(&cfg.house);
	cfg.review = DD_REVIEW_COUNT;
	r = dd_referee_new(&cfg, f->db);
	assert_non_null(r);
	char *live[THROWS];

	id = store_match(r, f->db, live);
	pages(r, id, &got);
	/* Read back from the database, each throw's page is the one the
	 * referee showed from memory while the match was under way. */
	{
		const char *line = strchr(got, '\n') + 1;

		for (int k = 0; k < THROWS; k++) {
			size_t n = strlen(live[k]);

			if (strncmp(line, live[k], n) || line[n] != '\n')
				fail_msg("throw %d: stored page differs from the live one:\n%.300s\n%.300s", k + 1,
					 line, live[k]);
			line += n + 1;
			free(live[k]);
		}
	}
	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", GOLDEN);
	if (getenv("DYEREF_WRITE_GOLDEN")) {
		g = fopen(path, "w");
		assert_non_null(g);
		fputs(got, g);
		assert_int_equal(fclose(g), 0);
	}
	g = fopen(path, "r");
	assert_non_null(g);
	{
		char buf[4096];
		size_t n;
		FILE *w = open_memstream(&want, &wlen);

		while ((n = fread(buf, 1, sizeof(buf), g)) > 0)
			fwrite(buf, 1, n, w);
		fclose(w);
	}
	fclose(g);
	/* Not two empty answers: reviews, confirmations, corrections and
	 * snapshots are all in what is compared. */
	assert_non_null(strstr(got, "\"reviews\":12"));
	assert_non_null(strstr(got, "\"confirmed\":true"));
	assert_non_null(strstr(got, "\"corrections\":5"));
	assert_non_null(strstr(got, "\"snapshots\":[{\"index\":1,"));
	assert_non_null(strstr(got, "the camera saw no landing (55)"));
	if (strcmp(got, want)) {
		size_t i = 0;

		while (got[i] && got[i] == want[i])
			i++;
		fail_msg("differs from %s at byte %zu: '%.80s' vs '%.80s' (a change meant to the pages or "
			 "rulings: DYEREF_WRITE_GOLDEN=1, see the comment at the top)", GOLDEN, i, got + i, want + i);
	}
	free(got);
	free(want);
	dd_referee_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_referee_old_match_pages_are_the_recorded_json,
						db_test_setup, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
