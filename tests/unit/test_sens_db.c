/* Piezo edges stored in the event log and replayed (daemon/sensors_db.c,
 * docs/sensors.md "Edges in the database"): the same observations as the
 * memory source gives for the same edges. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/sensors_db.h"
#include "db/db.h"
#include "db/internal.h"
#include "sensors/sensors.h"
#include "sim/sim.h"
#include "tests/support/db_sim.h"

#define HEADER "{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]}}"
#define THROW "{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}"
#define MAX_EDGES 512
#define THROWS 4

struct fx {
	char dir[64];		/* a fresh temporary directory */
	char path[96];		/* dir/t.db */
	struct db *db;		/* open on path */
	struct sens_config cfg;	/* the reference wiring */
	struct sens_edge edges[MAX_EDGES];	/* what was stored, in time order */
	size_t n;		/* in edges */
	int64_t match;		/* the stored match */
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char err[256];

	snprintf(f->dir, sizeof(f->dir), "/tmp/dyeref-sensdb-XXXXXX");
	if (!f || !mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/t.db", f->dir);
	f->db = db_open(f->path, DB_OPEN_CREATE, err, sizeof(err));
	if (!f->db) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	sens_config_defaults(&f->cfg);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char cmd[128];

	db_close(f->db);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
}

static void store(struct fx *f, const struct sens_edge *e, size_t n, int throw_no)
{
	char payload[DD_EDGE_PAYLOAD], err[256];
	struct db_raw raw;

	for (size_t i = 0; i < n; i++) {
		dd_sensors_edge_raw(&e[i], throw_no, false, payload, &raw);
		assert_int_equal(db_raw_append(f->db, f->match, &raw, 1, err, sizeof(err)), 0);
	}
}

static void append_throw(struct fx *f, int no, int64_t t_ns, int64_t t_start_ns)
{
	char ruling[128], err[256];
	const char *rulings[] = { ruling };
	struct db_entry e = { .line = THROW, .t_ns = t_ns, .t_start_ns = t_start_ns,
			      .rulings = rulings, .n_rulings = 1 };
	int got = 0;

	snprintf(ruling, sizeof(ruling), "{\"type\":\"ruling\",\"throw\":%d,\"score\":{\"A\":%d,\"B\":0},"
		 "\"review\":false}", no, no);
	assert_int_equal(db_append(f->db, f->match, &e, &got, err, sizeof(err)), 0);
	assert_int_equal(got, no);
}

/* A match of THROWS throws, one a second: a table impact (with ringing),
 * now and then a cup or the mine, stored as raw inputs found by time. */
static void store_match(struct fx *f, uint64_t seed)
{
	struct sim_piezo m;
	struct sim_rng rng;
	char err[256];

	sim_piezo_defaults(&m);
	m.ring_max = 3;
	sim_rng_seed(&rng, seed);
	assert_int_equal(db_match_start(f->db, HEADER, 1000, &f->match, err, sizeof(err)), 0);
	f->n = 0;
	for (int k = 0; k < THROWS; k++) {
		int64_t t = (int64_t)(k + 1) * 1000000000LL;
		struct sens_edge e[64];
		size_t n = sim_piezo_table_hit(&m, &f->cfg, &rng, 0.3 + 0.5 * k, 0.2 + 0.25 * k, t, e, 64);

		if (n > 48)
			n = 48;
		if (k % 2)	/* the 5th configured line is cup_a1, the 9th the mine */
			n += sim_piezo_line_hit(&m, &f->cfg, &rng, k == 1 ? 4 : 8, t + 200000000, e + n, 16);
		if (n > 64)
			n = 64;
		sens_edges_sort(e, n);
		store(f, e, n, 0);
		memcpy(f->edges + f->n, e, n * sizeof(e[0]));
		f->n += n;
		append_throw(f, k + 1, t + 500000000, 0);
	}
}

/* Every observation a source gives through a fresh pipeline. */
static size_t observe(const struct sens_config *c, struct sens_source *src, struct sens_obs *out,
		      size_t cap)
{
	struct sens_pipeline *p = sens_pipeline_new(c);
	struct sens_edge e[32];
	size_t n = 0;
	bool eof = false;
	char err[256];

	assert_non_null(p);
	assert_non_null(src);
	while (!eof) {
		ssize_t k = sens_source_read(src, e, 32, &eof, err, sizeof(err));

		assert_true(k >= 0);
		for (ssize_t i = 0; i < k; i++)
			n += sens_pipeline_push(p, &e[i], out + n, cap - n);
	}
	n += sens_pipeline_flush(p, INT64_MAX, out + n, cap - n);
	sens_pipeline_free(p);
	sens_source_close(src);
	return n;
}

static void test_sens_db_stored_edges_replay_to_the_same_observations(void **state)
{
	struct fx *f = *state;
	struct sens_obs a[64], b[64];
	char err[256];
	size_t na, nb;

	store_match(f, 11);
	assert_int_equal(db_raw_flush(f->db, err, sizeof(err)), 0);
	na = observe(&f->cfg, sens_memory_open(f->edges, f->n), a, 64);
	nb = observe(&f->cfg, dd_sensors_db_open(f->db, f->match, 0, err, sizeof(err)), b, 64);
	/* 4 located impacts, a cup and the mine */
	assert_int_equal(na, THROWS + 2);
	assert_int_equal(nb, na);
	for (size_t i = 0; i < na; i++) {
		assert_int_equal(b[i].ev.kind, a[i].ev.kind);
		assert_int_equal(b[i].ev.t_ns, a[i].ev.t_ns);
		assert_int_equal(b[i].ev.half, a[i].ev.half);
		assert_int_equal(b[i].ev.player, a[i].ev.player);
		assert_true(b[i].ev.x == a[i].ev.x && b[i].ev.y == a[i].ev.y);
		assert_int_equal(b[i].has_fix, a[i].has_fix);
		assert_int_equal(b[i].table_seen, a[i].table_seen);
	}
	assert_int_equal(a[1].ev.kind, BD_EV_TABLE);
	assert_int_equal(a[2].ev.kind, BD_EV_CUP);
	assert_int_equal(a[5].ev.kind, BD_EV_MINE);
}

static void test_sens_db_edges_are_the_stored_edges_in_order(void **state)
{
	struct fx *f = *state;
	struct sens_edge *e;
	char err[256];
	size_t n;

	store_match(f, 12);
	assert_int_equal(dd_sensors_db_edges(f->db, f->match, 0, &e, &n, err, sizeof(err)), 0);
	assert_int_equal(n, f->n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(e[i].line, f->edges[i].line);
		assert_int_equal(e[i].ts_ns, f->edges[i].ts_ns);
	}
	free(e);
	/* Throw 2 alone: only the edges of its span (1.5 s, 2.5 s]. */
	assert_int_equal(dd_sensors_db_edges(f->db, f->match, 2, &e, &n, err, sizeof(err)), 0);
	assert_true(n > 0 && n < f->n);
	for (size_t i = 0; i < n; i++)
		assert_true(e[i].ts_ns > 1500000000LL && e[i].ts_ns <= 2500000000LL);
	free(e);
}

/* A row in two throws' spans (the second throw's first input came before
 * the first was decided) is one edge, not two. */
static void test_sens_db_overlapping_throw_spans_give_each_edge_once(void **state)
{
	struct fx *f = *state;
	const struct sens_edge e[3] = { { 17, 1000000000 }, { 22, 1000400000 }, { 27, 1000800000 } };
	struct sens_edge *got;
	char err[256];
	size_t n;

	assert_int_equal(db_match_start(f->db, HEADER, 1000, &f->match, err, sizeof(err)), 0);
	store(f, e, 3, 0);
	append_throw(f, 1, 1100000000, 0);
	append_throw(f, 2, 1200000000, 900000000);	/* its span starts before throw 1's end */
	assert_int_equal(dd_sensors_db_edges(f->db, f->match, 0, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(got[i].ts_ns, e[i].ts_ns);
	free(got);
}

/* What the daemon stores (dd_sensors_edges_store): a
 * button's edge is a "button" row, a disc's or an unwired line's a
 * "piezo" row, each on its line; all read back, in order. */
struct sources {
	int button, piezo;	/* edge rows of each source */
	int on_button_line;	/* of them on the button's line */
};

static int count_source(const struct db_item *it, void *ctx)
{
	struct sources *s = ctx;

	if (it->kind != DB_ITEM_RAW || strcmp(it->what, "edge"))
		return 0;
	if (!strcmp(it->source, "button"))
		s->button++;
	else if (!strcmp(it->source, "piezo"))
		s->piezo++;
	s->on_button_line += it->channel == 12;
	return 0;
}

static void test_sens_db_edges_store_names_buttons_and_reads_back(void **state)
{
	struct fx *f = *state;
	static const unsigned lines[3] = { 17, 12, 99 };	/* a disc, the button, unwired */
	struct sens_edge e[40], *got;
	struct sources s = { 0 };
	struct sens_line_cfg *b = &f->cfg.lines[f->cfg.n_lines++];
	char err[256];
	size_t n;

	*b = (struct sens_line_cfg){ .name = "button_low_a", .role = SENS_ROLE_BUTTON, .offset = 12,
				     .call = SENS_CALL_LOW, .team = BD_TEAM_A };
	for (size_t i = 0; i < 40; i++)
		e[i] = (struct sens_edge){ lines[i % 3], 1000000000LL + (int64_t)i * 1000000 };
	assert_int_equal(db_match_start(f->db, HEADER, 1000, &f->match, err, sizeof(err)), 0);
	assert_int_equal(dd_sensors_edges_store(f->db, f->match, &f->cfg, e, 40, err, sizeof(err)), 0);
	append_throw(f, 1, 2000000000LL, 0);
	assert_int_equal(db_replay(f->db, f->match, 1, count_source, &s, err, sizeof(err)), 0);
	assert_int_equal(s.button, 13);		/* i = 1, 4, ..., 37 */
	assert_int_equal(s.on_button_line, 13);
	assert_int_equal(s.piezo, 27);
	assert_int_equal(dd_sensors_db_edges(f->db, f->match, 1, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 40);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(got[i].line, e[i].line);
		assert_int_equal(got[i].ts_ns, e[i].ts_ns);
	}
	free(got);
}

/* Storing is all or none: serve offers every kept edge again after a
 * failure, so a call the log refused part way (a trigger aborting the
 * 36th row here) must leave none of its rows to be committed, or the
 * retry stores them twice. */
static void test_sens_db_edges_store_is_all_or_none(void **state)
{
	struct fx *f = *state;
	struct sens_edge e[40];
	struct sources s = { 0 };
	char err[256], sql[256];

	for (size_t i = 0; i < 40; i++)
		e[i] = (struct sens_edge){ 17, 1000000000LL + (int64_t)i * 1000000 };
	assert_int_equal(db_match_start(f->db, HEADER, 1000, &f->match, err, sizeof(err)), 0);
	snprintf(sql, sizeof(sql), "CREATE TEMP TRIGGER test_abort BEFORE INSERT ON raw_inputs"
		 " WHEN NEW.t_ns = %lld BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
		 (long long)e[35].ts_ns);
	assert_int_equal(sqlite3_exec(db_handle(f->db), sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(dd_sensors_edges_store(f->db, f->match, &f->cfg, e, 40, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "refused by the test"));
	assert_int_equal(sqlite3_exec(db_handle(f->db), "DROP TRIGGER test_abort", NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(dd_sensors_edges_store(f->db, f->match, &f->cfg, e, 40, err, sizeof(err)), 0);
	append_throw(f, 1, 2000000000LL, 0);
	assert_int_equal(db_replay(f->db, f->match, 1, count_source, &s, err, sizeof(err)), 0);
	assert_int_equal(s.piezo, 40);
}

/* What serve keeps of the edges (dd_edge_keep): a line's budget of 64 at
 * once and 16 a second by the edges' clock, lines apart, unwired lines
 * sharing one; the buffer's bound; the log's report, at most every 10 s. */
static void test_sens_db_edge_keep_budgets_lines_and_reports(void **state)
{
	struct fx *f = *state;
	static struct dd_edge_keep k;	/* large */
	struct sens_edge e[100];
	char msg[256];
	const int64_t t0 = 5000000000LL;

	dd_edge_keep_init(&k);
	for (size_t i = 0; i < 100; i++)
		e[i] = (struct sens_edge){ 17, t0 };
	assert_int_equal(dd_edge_keep_add(&k, &f->cfg, e, 100), DD_KEEP_BURST);
	assert_int_equal(k.n, DD_KEEP_BURST);
	/* 1/16 s later one more; at once after it, none */
	e[0].ts_ns = t0 + 62500000;
	e[1].ts_ns = t0 + 62500000;
	assert_int_equal(dd_edge_keep_add(&k, &f->cfg, e, 2), 1);
	/* another line has its own budget */
	for (size_t i = 0; i < 100; i++)
		e[i] = (struct sens_edge){ 27, t0 };
	assert_int_equal(dd_edge_keep_add(&k, &f->cfg, e, 100), DD_KEEP_BURST);
	/* lines the wiring does not name share one */
	for (size_t i = 0; i < 100; i++)
		e[i] = (struct sens_edge){ i % 2 ? 98 : 99, t0 };
	assert_int_equal(dd_edge_keep_add(&k, &f->cfg, e, 100), DD_KEEP_BURST);
	assert_int_equal(k.n, 3 * DD_KEEP_BURST + 1);
	assert_int_equal(k.buf[DD_KEEP_BURST].line, 17);
	assert_int_equal(k.buf[DD_KEEP_BURST].ts_ns, t0 + 62500000);

	/* Reported at once the first time: the line refused most, by name. */
	assert_true(dd_edge_keep_report_due(&k) > 0);
	assert_true(dd_edge_keep_report(&k, &f->cfg, t0, msg, sizeof(msg)));
	assert_string_equal(msg, "sensors: 109 edges not stored, 37 of them of table0 (line 17), "
			    "faster than 16 a second (chattering? the health strip names it)");
	assert_int_equal(dd_edge_keep_report_due(&k), 0);
	/* Then at most every 10 s. */
	e[0] = (struct sens_edge){ 17, t0 + 62500001 };
	assert_int_equal(dd_edge_keep_add(&k, &f->cfg, e, 1), 0);
	assert_int_equal(dd_edge_keep_report_due(&k), t0 + DD_KEEP_REPORT_NS);
	assert_false(dd_edge_keep_report(&k, &f->cfg, t0 + DD_KEEP_REPORT_NS - 1, msg, sizeof(msg)));
	assert_true(dd_edge_keep_report(&k, &f->cfg, t0 + DD_KEEP_REPORT_NS, msg, sizeof(msg)));
	assert_string_equal(msg, "sensors: 1 edges not stored, 1 of them of table0 (line 17), "
			    "faster than 16 a second (chattering? the health strip names it)");

	/* Stored: the first n go, the rest keep their order. */
	dd_edge_keep_stored(&k, DD_KEEP_BURST);
	assert_int_equal(k.n, 2 * DD_KEEP_BURST + 1);
	assert_int_equal(k.buf[0].ts_ns, t0 + 62500000);
	assert_int_equal(k.buf[1].line, 27);
	dd_edge_keep_stored(&k, k.n);
	assert_int_equal(k.n, 0);

	/* A store that takes nothing for long: the buffer's bound holds. */
	dd_edge_keep_init(&k);
	for (int64_t i = 0; i < DD_KEEP_MAX + 10; i++) {
		e[0] = (struct sens_edge){ 22, t0 + i * 1000000000LL };	/* a second apart */
		dd_edge_keep_add(&k, &f->cfg, e, 1);
	}
	assert_int_equal(k.n, DD_KEEP_MAX);
	assert_true(dd_edge_keep_report(&k, &f->cfg, t0, msg, sizeof(msg)));
	assert_string_equal(msg, "sensors: 10 edges not stored: 4096 were already waiting for "
			    "the event log (locked?)");
}

/* tests/support/db_sim.c stores the db tests' piezo edges by the same
 * convention (channel = line, payload {"line":N,...}): they read back. */
static void test_sens_db_reads_the_db_tests_simulated_raw_inputs(void **state)
{
	struct fx *f = *state;
	struct db_raw raw[DB_TEST_RAW_PER_THROW];
	char payloads[DB_TEST_RAW_PER_THROW][DB_TEST_PAYLOAD], err[256];
	struct sim_rng rng;
	struct sens_edge *got;
	size_t n, piezo = 0;

	sim_rng_seed(&rng, 3);
	assert_int_equal(db_match_start(f->db, HEADER, 1000, &f->match, err, sizeof(err)), 0);
	db_test_raw(&rng, 2000000000LL, raw, payloads);
	for (size_t i = 0; i < DB_TEST_RAW_PER_THROW; i++)
		piezo += !strcmp(raw[i].source, "piezo");
	assert_int_equal(db_raw_append(f->db, f->match, raw, DB_TEST_RAW_PER_THROW, err, sizeof(err)), 0);
	append_throw(f, 1, 2000000000LL, 0);
	assert_int_equal(dd_sensors_db_edges(f->db, f->match, 0, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, piezo);
	for (size_t i = 0, k = 0; i < DB_TEST_RAW_PER_THROW; i++) {
		if (strcmp(raw[i].source, "piezo"))
			continue;
		assert_int_equal(got[k].line, (unsigned)raw[i].channel);
		assert_int_equal(got[k].ts_ns, raw[i].t_ns);
		k++;
	}
	free(got);
}

static void test_sens_db_rows_breaking_the_convention_are_refused(void **state)
{
	struct fx *f = *state;
	struct db_raw bad[3] = {
		{ .t_ns = 1000000000, .source = "piezo", .kind = "edge", .channel = 17,
		  .payload = "{\"line\":22}", .len = 11 },
		{ .t_ns = 1000000000, .source = "piezo", .kind = "edge", .channel = -1 },
		{ .t_ns = 1000000000, .source = "piezo", .kind = "edge", .channel = 17,
		  .payload = "17", .len = 2 },
	};
	const char *why[3] = { "payload line does not match channel 17", "channel -1 is not a GPIO line",
			       "payload is not a JSON object" };
	struct sens_edge *got;
	char err[256];
	size_t n;

	for (int i = 0; i < 3; i++) {
		assert_int_equal(db_match_start(f->db, HEADER, 1000, &f->match, err, sizeof(err)), 0);
		assert_int_equal(db_raw_append(f->db, f->match, &bad[i], 1, err, sizeof(err)), 0);
		append_throw(f, 1, 1100000000, 0);
		err[0] = 0;
		assert_int_equal(dd_sensors_db_edges(f->db, f->match, 0, &got, &n, err, sizeof(err)), -EINVAL);
		assert_null(got);
		assert_int_equal(n, 0);
		assert_non_null(strstr(err, "throw 1: piezo edge at 1000000000 ns"));
		assert_non_null(strstr(err, why[i]));
	}
}

static void test_sens_db_match_without_edges_replays_nothing(void **state)
{
	struct fx *f = *state;
	struct sens_obs o[4];
	struct sens_edge *got;
	char err[256];
	size_t n;

	assert_int_equal(db_match_start(f->db, HEADER, 1000, &f->match, err, sizeof(err)), 0);
	append_throw(f, 1, 1100000000, 0);
	assert_int_equal(dd_sensors_db_edges(f->db, f->match, 0, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	free(got);
	assert_int_equal(observe(&f->cfg, dd_sensors_db_open(f->db, f->match, 0, err, sizeof(err)), o, 4), 0);
}

static void test_sens_db_missing_match_or_throw_is_enoent(void **state)
{
	struct fx *f = *state;
	struct sens_edge *got;
	char err[256];
	size_t n;

	assert_int_equal(dd_sensors_db_edges(f->db, 7, 0, &got, &n, err, sizeof(err)), -ENOENT);
	store_match(f, 13);
	assert_int_equal(dd_sensors_db_edges(f->db, f->match, THROWS + 1, &got, &n, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "has no throw 5"));
	assert_null(dd_sensors_db_open(f->db, f->match, THROWS + 1, err, sizeof(err)));
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sens_db_stored_edges_replay_to_the_same_observations, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sens_db_edges_are_the_stored_edges_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sens_db_overlapping_throw_spans_give_each_edge_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sens_db_edges_store_names_buttons_and_reads_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sens_db_edges_store_is_all_or_none, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sens_db_edge_keep_budgets_lines_and_reports, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sens_db_reads_the_db_tests_simulated_raw_inputs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sens_db_rows_breaking_the_convention_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sens_db_match_without_edges_replays_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sens_db_missing_match_or_throw_is_enoent, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
