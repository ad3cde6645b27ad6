/* The match log codec (core/mlog*.c): parsing every line and event type,
 * the error messages (line, field, problem), the canonical writer, the
 * output lines and the game dispatch. Rule IDs where a rule decides. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"

#define MATCH "{\"type\":\"match\",\"game\":\"beerdie\"}\n"
#define FLOOR_B "{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}\n"

static struct mlog_bd *parse_ok(const char *text)
{
	struct mlog_bd *log = NULL;
	char err[256] = "";
	int rc = mlog_bd_parse("t.jsonl", text, strlen(text), &log, err, sizeof(err));

	if (rc)
		fail_msg("unexpected error %d: %s", rc, err);
	assert_non_null(log);
	return log;
}

/* Parsing must fail with exactly this message. */
static void parse_bad(const char *text, const char *want)
{
	struct mlog_bd *log = (struct mlog_bd *)1;
	char err[256] = "";
	int rc = mlog_bd_parse("t.jsonl", text, strlen(text), &log, err, sizeof(err));

	assert_int_equal(rc, -EINVAL);
	assert_null(log);
	assert_string_equal(err, want);
}

#define MATCH_AUTO "{\"type\":\"match\",\"game\":\"beerdie\",\"house\":{\"low_call\":\"auto\"}}\n"

/* Out of range (negative, zero, huge), not a number, or without the apex
 * it belongs to: one line naming the field. */
static void test_mlog_apex_sd_rejects_negative_huge_and_orphan(void **state)
{
	(void)state;
	parse_bad(MATCH_AUTO "{\"type\":\"throw\",\"apex_m\":3.2,\"apex_sd_m\":-0.1,\"events\":[]}\n",
		  "t.jsonl:2: apex_sd_m: expected a number 0..10 m");
	parse_bad(MATCH_AUTO "{\"type\":\"throw\",\"apex_m\":3.2,\"apex_sd_m\":1e300,\"events\":[]}\n",
		  "t.jsonl:2: apex_sd_m: expected a number 0..10 m");
	parse_bad(MATCH_AUTO "{\"type\":\"throw\",\"apex_m\":3.2,\"apex_sd_m\":\"0.1\",\"events\":[]}\n",
		  "t.jsonl:2: apex_sd_m: expected a number 0..10 m");
	parse_bad(MATCH_AUTO "{\"type\":\"throw\",\"apex_m\":3.2,\"apex_sd_m\":0,\"events\":[]}\n",
		  "t.jsonl:2: apex_sd_m: expected a number above 0, up to 10 m");
	parse_bad(MATCH_AUTO "{\"type\":\"throw\",\"apex_sd_m\":0.1,\"events\":[]}\n",
		  "t.jsonl:2: apex_sd_m: given without apex_m");
	/* JSON has no NaN: a bare NaN is bad JSON, refused before the field. */
	{
		const char *t = MATCH_AUTO "{\"type\":\"throw\",\"apex_m\":3.2,\"apex_sd_m\":NaN,\"events\":[]}\n";
		struct mlog_bd *log = NULL;
		char err[256] = "";

		assert_int_equal(mlog_bd_parse("t.jsonl", t, strlen(t), &log, err, sizeof(err)), -EINVAL);
		assert_null(log);
		assert_non_null(strstr(err, "t.jsonl:2:"));
	}
}

static void test_mlog_minimal_match_has_default_players_and_house(void **state)
{
	struct mlog_bd *log = parse_ok(MATCH);
	struct bd_house d;

	(void)state;
	bd_house_defaults(&d);
	assert_string_equal(log->cfg.players[0], "a1");
	assert_string_equal(log->cfg.players[3], "b2");
	assert_int_equal(log->cfg.first_team, BD_TEAM_A);	/* BD-F1: no roll-off, A starts */
	assert_false(log->rolloff.present);
	assert_int_equal(log->n_entries, 0);
	assert_int_equal(log->cfg.house.target_points, d.target_points);
	assert_string_equal(log->name, "t.jsonl");
	mlog_bd_free(log);
}

static void test_mlog_teams_and_every_house_setting(void **state)
{
	struct mlog_bd *log = parse_ok(
		"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"ann\",\"bo\"],"
		"\"B\":[\"cy\",\"di\"]},\"house\":{\"target_points\":11,\"win_by\":1,"
		"\"kill_every\":4,\"min_toss_height_m\":2.5,\"low_call\":\"auto\","
		"\"illegal_catch_counts_as_floor\":false,\"fifa_cannot_end_game\":false,"
		"\"popout_is_sink\":true,\"mine_voids_points\":false,\"review_below\":0.5}}\n");
	const struct bd_house *h = &log->cfg.house;

	(void)state;
	assert_string_equal(log->cfg.players[0], "ann");
	assert_string_equal(log->cfg.players[1], "bo");
	assert_string_equal(log->cfg.players[2], "cy");
	assert_string_equal(log->cfg.players[3], "di");
	assert_int_equal(h->target_points, 11);
	assert_int_equal(h->win_by, 1);
	assert_int_equal(h->kill_every, 4);
	assert_true(h->min_toss_height_m == 2.5);
	assert_int_equal(h->low_call, BD_LOW_AUTO);
	assert_false(h->illegal_catch_counts_as_floor);
	assert_false(h->fifa_cannot_end_game);
	assert_true(h->popout_is_sink);
	assert_false(h->mine_voids_points);
	assert_true(h->review_below == 0.5);
	mlog_bd_free(log);
}

/* BD-F1: 4-6 high; the team that called right throws first. */
static void test_mlog_bd_f1_rolloff_decides_first_team(void **state)
{
	struct mlog_bd *log;

	(void)state;
	log = parse_ok(MATCH "{\"type\":\"rolloff\",\"value\":5,\"call\":{\"team\":\"B\",\"call\":\"high\"}}\n");
	assert_true(log->rolloff.present);
	assert_int_equal(log->rolloff.value, 5);
	assert_int_equal(log->rolloff.calling_team, BD_TEAM_B);
	assert_true(log->rolloff.called_high);
	assert_int_equal(log->cfg.first_team, BD_TEAM_B);
	mlog_bd_free(log);
	log = parse_ok(MATCH "{\"type\":\"rolloff\",\"value\":2,\"call\":{\"team\":\"B\",\"call\":\"high\"}}\n");
	assert_int_equal(log->cfg.first_team, BD_TEAM_A);
	mlog_bd_free(log);
	log = parse_ok(MATCH "{\"type\":\"rolloff\",\"value\":3,\"call\":{\"team\":\"A\",\"call\":\"low\"}}\n");
	assert_int_equal(log->cfg.first_team, BD_TEAM_A);
	mlog_bd_free(log);
}

static void test_mlog_throw_defaults(void **state)
{
	struct mlog_bd *log = parse_ok(MATCH "{\"type\":\"throw\",\"events\":[]}\n");
	const struct mlog_bd_entry *e = &log->entries[0];

	(void)state;
	assert_int_equal(log->n_entries, 1);
	assert_int_equal(log->n_throws, 1);
	assert_int_equal(e->kind, MLOG_THROW);
	assert_int_equal(e->line, 2);
	assert_int_equal(e->throw_no, 1);
	assert_int_equal(e->t.thrower, BD_NOBODY);	/* BD-T3: from the order */
	assert_true(e->t.dye_up);			/* BD-P2: defaults to called */
	assert_true(e->t.apex_m < 0);
	assert_int_equal(e->t.n_events, 0);
	mlog_bd_free(log);
}

static void test_mlog_table_half_from_x_when_not_given(void **state)
{
	struct mlog_bd *log = parse_ok(MATCH
		"{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"x\":1.9,\"y\":0.4},"
		"{\"at\":\"table\",\"x\":0.3,\"y\":1.2},{\"at\":\"table\",\"x\":1.22,\"y\":0},"
		"{\"at\":\"table\",\"half\":\"line\"}]}\n");
	const struct bd_throw *t = &log->entries[0].t;

	(void)state;
	assert_int_equal(t->n_events, 4);
	assert_int_equal(t->events[0].half, BD_HALF_B);
	assert_true(t->events[0].has_xy);
	assert_true(t->events[0].x == 1.9 && t->events[0].y == 0.4);
	assert_int_equal(t->events[1].half, BD_HALF_A);
	assert_int_equal(t->events[2].half, BD_HALF_LINE);	/* BD-P6: on the centre line */
	assert_int_equal(t->events[3].half, BD_HALF_LINE);
	assert_false(t->events[3].has_xy);
	mlog_bd_free(log);
}

static void test_mlog_every_event_kind_and_its_fields(void **state)
{
	struct mlog_bd *log = parse_ok(
		"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"ann\",\"bo\"],\"B\":[\"cy\",\"di\"]}}\n"
		"{\"type\":\"throw\",\"thrower\":\"bo\",\"dye_up\":false,\"apex_m\":3.25,\"events\":["
		"{\"at\":\"low_call\",\"by\":\"cy\",\"source\":\"console\"},"
		"{\"at\":\"table\",\"half\":\"B\",\"confidence\":0.7,\"t_ns\":123456789012},"
		"{\"at\":\"cup\",\"owner\":\"di\",\"popout\":true},"
		"{\"at\":\"mine\"},"
		"{\"at\":\"kick\",\"by\":\"cy\",\"part\":\"thigh\"},"
		"{\"at\":\"catch\",\"by\":\"di\",\"hands\":2,\"trapped\":true,\"over_table\":true},"
		"{\"at\":\"rest\",\"face\":5},"
		"{\"at\":\"floor\"},"
		"{\"at\":\"cup\",\"owner\":\"ann\",\"sink\":true},"
		"{\"at\":\"catch\",\"by\":\"cy\"},"
		"{\"at\":\"low_call\"},"
		"{\"at\":\"retoss\"}]}\n");
	const struct bd_throw *t = &log->entries[0].t;
	const struct bd_event *e = t->events;

	(void)state;
	assert_int_equal(t->thrower, 1);
	assert_false(t->dye_up);
	assert_true(t->apex_m == 3.25);
	assert_int_equal(t->n_events, 12);
	assert_int_equal(e[0].kind, BD_EV_LOW_CALL);
	assert_int_equal(e[0].player, 2);
	assert_string_equal(e[0].source, "console");
	assert_false(e[0].has_confidence);
	assert_true(e[0].confidence == 1.0);
	assert_int_equal(e[1].kind, BD_EV_TABLE);
	assert_true(e[1].has_confidence && e[1].confidence == 0.7);
	assert_true(e[1].t_ns == 123456789012LL);
	assert_int_equal(e[2].kind, BD_EV_CUP);
	assert_int_equal(e[2].player, 3);
	assert_false(e[2].sink);
	assert_true(e[2].popout);	/* BD-R1 */
	assert_int_equal(e[3].kind, BD_EV_MINE);
	assert_int_equal(e[4].kind, BD_EV_KICK);
	assert_string_equal(e[4].part, "thigh");	/* BD-K3 */
	assert_int_equal(e[5].kind, BD_EV_CATCH);
	assert_int_equal(e[5].player, 3);
	assert_int_equal(e[5].hands, 2);
	assert_true(e[5].trapped);
	assert_true(e[5].over_table);
	assert_int_equal(e[6].kind, BD_EV_REST);
	assert_int_equal(e[6].face, 5);
	assert_int_equal(e[7].kind, BD_EV_FLOOR);
	assert_true(e[8].sink);
	assert_int_equal(e[8].player, 0);
	assert_int_equal(e[9].hands, 1);	/* one hand unless said */
	assert_false(e[9].trapped);
	assert_false(e[9].over_table);
	assert_int_equal(e[10].player, BD_NOBODY);
	assert_int_equal(e[11].kind, BD_EV_RETOSS);
	mlog_bd_free(log);
}

/* An official's audit on a correct line, an undo mark, and confirm lines:
 * written back byte for byte, and judging skips the confirmations. */
static void test_mlog_audit_and_confirm_lines_round_trip_and_do_not_judge(void **state)
{
	static const char text[] = "{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],"
		"\"B\":[\"b1\",\"b2\"]}}\n"
		"{\"type\":\"throw\",\"dye_up\":true,\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}\n"
		"{\"type\":\"confirm\",\"throw\":1,\"audit\":{\"official\":\"Kim\",\"wall_ms\":1700000000123}}\n"
		"{\"type\":\"correct\",\"throw\":1,\"dye_up\":true,\"events\":[{\"at\":\"retoss\"}],\"undo\":true,"
		"\"audit\":{\"official\":\"Kim\",\"wall_ms\":1700000000456,\"reason\":\"thrown early\"}}\n";
	struct mlog_bd *log = parse_ok(text);
	char *out = NULL, *judged = NULL, err[128];
	size_t len;

	(void)state;
	assert_int_equal(log->n_throws, 1);
	assert_int_equal(log->n_entries, 3);
	assert_int_equal(log->entries[1].kind, MLOG_CONFIRM);
	assert_int_equal(log->entries[1].throw_no, 1);
	assert_string_equal(log->entries[1].audit.official, "Kim");
	assert_true(log->entries[2].undo);
	assert_string_equal(log->entries[2].audit.reason, "thrown early");
	assert_int_equal(log->entries[2].audit.wall_ms, 1700000000456LL);
	assert_int_equal(mlog_bd_write(log, &out, &len), 0);
	assert_string_equal(out, text);
	assert_int_equal(mlog_bd_judge(log, &judged, &len, err, sizeof(err)), 0);
	/* One ruling (the re-toss) and the final line: no line for the confirm. */
	assert_non_null(strstr(judged, "\"retoss\":true"));
	assert_null(strstr(strchr(judged, '\n') + 1, "\"type\":\"ruling\""));
	free(judged);
	free(out);
	mlog_bd_free(log);
	parse_bad(MATCH FLOOR_B "{\"type\":\"confirm\",\"throw\":2,\"audit\":{\"official\":\"K\",\"wall_ms\":1}}\n",
		  "t.jsonl:3: throw: no throw 2 before this line (1 so far)");
	parse_bad(MATCH FLOOR_B "{\"type\":\"confirm\",\"throw\":1}\n",
		  "t.jsonl:3: audit: missing (who confirmed, and when)");
	parse_bad(MATCH FLOOR_B "{\"type\":\"confirm\",\"throw\":1,\"audit\":{\"official\":\"K\",\"wall_ms\":-1}}\n",
		  "t.jsonl:3: audit.wall_ms: expected an integer 0..4611686018427387903");
	parse_bad(MATCH FLOOR_B "{\"type\":\"confirm\",\"throw\":1,\"audit\":{\"official\":\"\",\"wall_ms\":1}}\n",
		  "t.jsonl:3: audit.official: empty");
	parse_bad(MATCH FLOOR_B "{\"type\":\"correct\",\"throw\":1,\"events\":[],\"audit\":{\"official\":\"K\","
		  "\"wall_ms\":1,\"when\":2}}\n",
		  "t.jsonl:3: audit.when: unknown field (audits take official, wall_ms, reason)");
	parse_bad(MATCH FLOOR_B "{\"type\":\"throw\",\"undo\":true,\"events\":[]}\n",
		  "t.jsonl:3: undo: unknown field (\"throw\" lines take type, thrower, dye_up, apex_m, apex_sd_m, events)");
}

static void test_mlog_correct_line_and_blank_lines_keep_numbers(void **state)
{
	struct mlog_bd *log = parse_ok("\n" MATCH "\r\n" FLOOR_B "   \n" FLOOR_B
		"{\"type\":\"correct\",\"throw\":1,\"thrower\":\"a2\",\"events\":[]}\n");

	(void)state;
	assert_int_equal(log->match_line, 2);
	assert_int_equal(log->n_entries, 3);
	assert_int_equal(log->n_throws, 2);
	assert_int_equal(log->entries[0].line, 4);
	assert_int_equal(log->entries[1].line, 6);
	assert_int_equal(log->entries[1].throw_no, 2);
	assert_int_equal(log->entries[2].kind, MLOG_CORRECT);
	assert_int_equal(log->entries[2].line, 7);
	assert_int_equal(log->entries[2].throw_no, 1);
	assert_int_equal(log->entries[2].t.thrower, 1);
	mlog_bd_free(log);
}

static void test_mlog_errors_name_line_field_and_problem(void **state)
{
	char many[4096];
	size_t n;

	(void)state;
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"table\",\"half\":\"C\"}]}\n",
		  "t.jsonl:2: events[1].half: expected \"A\", \"B\" or \"line\"");
	parse_bad(MATCH FLOOR_B "{\"type\":\"throw\",\"events\":[{\"at\":\"rest\",\"face\":7}]}\n",
		  "t.jsonl:3: events[0].face: expected an integer 1..6");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"cup\",\"owner\":\"zed\"}]}\n",
		  "t.jsonl:2: events[0].owner: unknown player \"zed\" (players: a1, a2, b1, b2)");
	parse_bad(MATCH "{\"type\":\"throw\",\"thrower\":\"b3\",\"events\":[]}\n",
		  "t.jsonl:2: thrower: unknown player \"b3\" (players: a1, a2, b1, b2)");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"bounce\"}]}\n",
		  "t.jsonl:2: events[0].at: unknown event (expected table, cup, mine, floor, rest, "
		  "catch, kick, low_call or retoss)");
	parse_bad(MATCH "{\"type\":\"throw\",\"dye-up\":true,\"events\":[]}\n",
		  "t.jsonl:2: dye-up: unknown field (\"throw\" lines take type, thrower, dye_up, apex_m, apex_sd_m, events)");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"floor\",\"half\":\"B\"}]}\n",
		  "t.jsonl:2: events[0].half: unknown field (floor events take at, source, confidence, t_ns)");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"floor\"}\n",
		  "t.jsonl:2: column 40: bad JSON: ']' expected near end of file");
	parse_bad(MATCH FLOOR_B "{\"type\":\"correct\",\"throw\":2,\"events\":[]}\n",
		  "t.jsonl:3: throw: no throw 2 before this line (1 so far)");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"floor\",\"confidence\":2}]}\n",
		  "t.jsonl:2: events[0].confidence: expected a number 0..1");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"x\":1.0}]}\n",
		  "t.jsonl:2: events[0].y: missing (x and y are given together)");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"x\":2.5,\"y\":0.1}]}\n",
		  "t.jsonl:2: events[0].x: expected a number 0..2.44 m (table length)");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"x\":2.0,\"y\":-0.1}]}\n",
		  "t.jsonl:2: events[0].y: expected a number 0..1.22 m (table width)");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"cup\",\"owner\":\"b1\",\"sink\":true,\"popout\":true}]}\n",
		  "t.jsonl:2: events[0].popout: a die that popped out was not sunk (sink is true)");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"catch\",\"by\":\"b1\",\"hands\":3}]}\n",
		  "t.jsonl:2: events[0].hands: expected an integer 1..2");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"floor\",\"source\":\"a-very-long-source\"}]}\n",
		  "t.jsonl:2: events[0].source: too long (18 bytes; at most 15)");
	parse_bad(MATCH "{\"type\":\"throw\"}\n",
		  "t.jsonl:2: events: missing (a list, [] when nothing was seen)");
	parse_bad(MATCH "{\"type\":\"throw\",\"dye_up\":1,\"events\":[]}\n",
		  "t.jsonl:2: dye_up: expected true or false");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[],\"events\":[]}\n",
		  "t.jsonl:2: column 36: bad JSON: duplicate object key near '\"events\"'");
	parse_bad(FLOOR_B, "t.jsonl:1: type: the first line must be a \"match\" line");
	parse_bad("", "t.jsonl:1: empty log: the first line must be a \"match\" line");
	parse_bad("\n\n", "t.jsonl:2: empty log: the first line must be a \"match\" line");
	parse_bad(MATCH MATCH, "t.jsonl:2: type: a second \"match\" line (a log holds one match)");
	parse_bad(MATCH "[1,2]\n", "t.jsonl:2: expected a JSON object {\"type\":...}");
	parse_bad(MATCH "{\"type\":\"turn\"}\n", "t.jsonl:2: type: expected \"rolloff\", \"throw\", \"correct\", \"confirm\" or \"duty\"");
	parse_bad(MATCH FLOOR_B "{\"type\":\"rolloff\",\"value\":5,\"call\":{\"team\":\"B\",\"call\":\"high\"}}\n",
		  "t.jsonl:3: type: the roll-off must come before the first throw");
	parse_bad(MATCH "{\"type\":\"rolloff\",\"value\":0,\"call\":{\"team\":\"B\",\"call\":\"high\"}}\n",
		  "t.jsonl:2: value: expected an integer 1..6");
	parse_bad(MATCH "{\"type\":\"rolloff\",\"value\":4,\"call\":{\"team\":\"C\",\"call\":\"high\"}}\n",
		  "t.jsonl:2: call.team: expected \"A\" or \"B\"");
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"x\",\"y\"],\"B\":[\"z\",\"x\"]}}\n",
		  "t.jsonl:1: teams.B[1]: \"x\" plays twice");
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"house\":{\"target\":11}}\n",
		  "t.jsonl:1: house.target: unknown field (house rules take target_points, win_by, kill_every, "
		  "min_toss_height_m, low_call, illegal_catch_counts_as_floor, fifa_cannot_end_game, "
		  "popout_is_sink, mine_voids_points, review_below)");
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"house\":{\"win_by\":0}}\n",
		  "t.jsonl:1: house.win_by: expected an integer 1..100");
	parse_bad("{\"type\":\"match\",\"game\":\"yatzy\"}\n", "t.jsonl:1: game: expected \"beerdie\"");
	parse_bad(MATCH "{\"type\":\"throw\",\"events\":[],\"\\t0123456789012345678901234567890123\":1}\n",
		  "t.jsonl:2: ?0123456789012345678901234567890...: unknown field (\"throw\" lines take "
		  "type, thrower, dye_up, apex_m, apex_sd_m, events)");

	n = (size_t)snprintf(many, sizeof(many), MATCH "{\"type\":\"throw\",\"events\":[");
	for (int i = 0; i < BD_MAX_EVENTS + 1; i++)
		n += (size_t)snprintf(many + n, sizeof(many) - n, "%s{\"at\":\"mine\"}", i ? "," : "");
	snprintf(many + n, sizeof(many) - n, "]}\n");
	parse_bad(many, "t.jsonl:2: events: too many events (33; at most 32)");
}

/* The canonical form: fixed field order, defaults left out where the
 * format says so, 1.9 written as 1.9. */
static const char canonical[] =
	"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"ann\",\"bo\"],\"B\":[\"cy\",\"d\\\"i\"]},"
	"\"house\":{\"target_points\":11,\"min_toss_height_m\":2.5}}\n"
	"{\"type\":\"rolloff\",\"value\":5,\"call\":{\"team\":\"B\",\"call\":\"high\"}}\n"
	"{\"type\":\"throw\",\"dye_up\":true,\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":1.9,\"y\":0.4},{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"thrower\":\"d\\\"i\",\"dye_up\":false,\"apex_m\":3.1,\"events\":["
	"{\"at\":\"table\",\"half\":\"line\",\"source\":\"piezo\",\"confidence\":0.55,\"t_ns\":99},"
	"{\"at\":\"cup\",\"owner\":\"ann\",\"sink\":false,\"popout\":true},"
	"{\"at\":\"catch\",\"by\":\"bo\",\"hands\":1,\"trapped\":false,\"over_table\":true},"
	"{\"at\":\"kick\",\"by\":\"bo\",\"part\":\"foot\"},{\"at\":\"kick\",\"by\":\"ann\"},"
	"{\"at\":\"low_call\",\"by\":\"ann\"},{\"at\":\"low_call\"},{\"at\":\"rest\",\"face\":5},"
	"{\"at\":\"mine\"},{\"at\":\"retoss\"}]}\n"
	"{\"type\":\"correct\",\"throw\":1,\"dye_up\":true,\"events\":[]}\n";

static void test_mlog_canonical_log_writes_back_byte_for_byte(void **state)
{
	struct mlog_bd *log = parse_ok(canonical), *again;
	char *out = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(mlog_bd_write(log, &out, &len), 0);
	assert_string_equal(out, canonical);
	assert_int_equal(len, strlen(canonical));
	again = parse_ok(out);
	assert_true(mlog_bd_equal(log, again));
	free(out);
	mlog_bd_free(again);
	mlog_bd_free(log);
}

/* "names" (the teams' display names) round-trip in the canonical form,
 * after "teams"; an unnamed team is left out; bad names are refused. */
static void test_mlog_team_names_round_trip_and_are_checked(void **state)
{
	static const char named[] =
		"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],"
		"\"B\":[\"b1\",\"b2\"]},\"names\":{\"B\":\"Blue \\\"Sharks\\\"\"}}\n";
	struct mlog_bd *log = parse_ok(named), *again;
	char *out = NULL;

	(void)state;
	assert_string_equal(log->team_names[0], "");
	assert_string_equal(log->team_names[1], "Blue \"Sharks\"");
	assert_int_equal(mlog_bd_write(log, &out, NULL), 0);
	assert_string_equal(out, named);
	again = parse_ok(out);
	assert_true(mlog_bd_equal(log, again));
	snprintf(again->team_names[0], sizeof(again->team_names[0]), "Orange");
	assert_false(mlog_bd_equal(log, again));
	free(out);
	mlog_bd_free(again);
	mlog_bd_free(log);
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"names\":{\"C\":\"x\"}}\n",
		  "t.jsonl:1: names.C: unknown field (team names take A, B)");
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"names\":{\"A\":\"\"}}\n",
		  "t.jsonl:1: names.A: empty");
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"names\":{\"A\":\"a\\nb\"}}\n",
		  "t.jsonl:1: names.A: control character in the string");
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"names\":[\"x\"]}\n",
		  "t.jsonl:1: names: expected {\"A\":name,\"B\":name}");
}

/* "colors" (the teams' colours, from the palette) round-trip after
 * "names"; a team without one has the default (orange, blue); a colour
 * outside the palette, or both teams alike, is refused. */
static void test_mlog_team_colors_round_trip_and_are_checked(void **state)
{
	static const char coloured[] =
		"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],"
		"\"B\":[\"b1\",\"b2\"]},\"names\":{\"A\":\"Greens\"},\"colors\":{\"A\":\"green\"}}\n";
	struct mlog_bd *log = parse_ok(coloured), *again;
	char *out = NULL;

	(void)state;
	assert_string_equal(mlog_bd_color(log, BD_TEAM_A), "green");
	assert_string_equal(mlog_bd_color(log, BD_TEAM_B), "blue");
	assert_int_equal(mlog_bd_write(log, &out, NULL), 0);
	assert_string_equal(out, coloured);
	again = parse_ok(out);
	assert_true(mlog_bd_equal(log, again));
	snprintf(again->colors[1], sizeof(again->colors[1]), "red");
	assert_false(mlog_bd_equal(log, again));
	free(out);
	mlog_bd_free(again);
	mlog_bd_free(log);
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"colors\":{\"A\":\"mauve\"}}\n",
		  "t.jsonl:1: colors.A: expected a colour of the palette (orange, blue, green, "
		  "yellow, red, purple, pink, white)");
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"colors\":{\"B\":\"orange\"}}\n",
		  "t.jsonl:1: colors: both teams in orange: give them different colours");
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"colors\":{\"C\":\"red\"}}\n",
		  "t.jsonl:1: colors.C: unknown field (teams take A, B)");
}

/* "table" (where the match was played) round-trips after "colors";
 * an id that is no slug, or a field it does not take, is refused. */
static void test_mlog_table_round_trips_and_is_checked(void **state)
{
	static const char tabled[] =
		"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],"
		"\"B\":[\"b1\",\"b2\"]},\"table\":{\"id\":\"bar-3\",\"name\":\"Bar 3\"}}\n";
	struct mlog_bd *log = parse_ok(tabled), *again;
	char *out = NULL;

	(void)state;
	assert_string_equal(log->table_id, "bar-3");
	assert_string_equal(log->table_name, "Bar 3");
	assert_int_equal(mlog_bd_write(log, &out, NULL), 0);
	assert_string_equal(out, tabled);
	again = parse_ok(out);
	assert_true(mlog_bd_equal(log, again));
	snprintf(again->table_id, sizeof(again->table_id), "bar-4");
	assert_false(mlog_bd_equal(log, again));
	free(out);
	mlog_bd_free(again);
	mlog_bd_free(log);
	assert_true(mlog_table_id_ok("a"));
	assert_true(mlog_table_id_ok("0123456789abcdefghijklmnopqrstuv"));
	assert_false(mlog_table_id_ok("0123456789abcdefghijklmnopqrstuvw"));
	assert_false(mlog_table_id_ok(""));
	assert_false(mlog_table_id_ok("Bar"));
	assert_false(mlog_table_id_ok("a/b"));
	assert_false(mlog_table_id_ok("a+#"));
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"table\":{\"id\":\"a/#\"}}\n",
		  "t.jsonl:1: table.id: expected 1 to 32 of a-z, 0-9 and '-'");
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"table\":{\"name\":\"x\"}}\n",
		  "t.jsonl:1: table.id: expected 1 to 32 of a-z, 0-9 and '-'");
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"table\":{\"id\":\"a\",\"seat\":1}}\n",
		  "t.jsonl:1: table.seat: unknown field (tables take id, name)");
	parse_bad("{\"type\":\"match\",\"game\":\"beerdie\",\"table\":\"a\"}\n",
		  "t.jsonl:1: table: expected {\"id\":id,\"name\":name}");
}

static void test_mlog_write_normalises_to_canonical(void **state)
{
	struct mlog_bd *log = parse_ok(
		"{\"game\":\"beerdie\",\"type\":\"match\",\"house\":{\"target_points\":10}}\n"
		"{\"events\":[{\"y\":0.40,\"x\":1.90,\"at\":\"table\"},{\"at\":\"cup\",\"owner\":\"b1\",\"sink\":false,\"popout\":false},"
		"{\"at\":\"rest\",\"face\":2,\"t_ns\":0},{\"at\":\"catch\",\"by\":\"b2\"}],\"type\":\"throw\",\"apex_m\":3}\n");
	char *out = NULL;

	(void)state;
	assert_int_equal(mlog_bd_write(log, &out, NULL), 0);
	assert_string_equal(out,
		"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]}}\n"
		"{\"type\":\"throw\",\"dye_up\":true,\"apex_m\":3,\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":1.9,\"y\":0.4},"
		"{\"at\":\"cup\",\"owner\":\"b1\",\"sink\":false},{\"at\":\"rest\",\"face\":2},"
		"{\"at\":\"catch\",\"by\":\"b2\",\"hands\":1,\"trapped\":false,\"over_table\":false}]}\n");
	free(out);
	mlog_bd_free(log);
}

static void test_mlog_ruling_and_final_lines_in_design_order(void **state)
{
	struct bd_match_cfg cfg;
	struct bd_ruling r;
	struct bd_final f;
	char *out = NULL;
	size_t len = 0;

	(void)state;
	bd_match_cfg_init(&cfg);
	memset(&r, 0, sizeof(r));
	r.throw_no = 1;
	r.thrower = 0;
	r.team = BD_TEAM_A;
	r.points[0] = 1;
	r.score[0] = 1;
	r.winner = BD_NOBODY;
	r.why[r.n_why++] = "BD-P1";
	r.duties[r.n_duties++] = (struct bd_duty){ BD_DUTY_KILL_N_FILL, 2, BD_TEAM_B, "BD-W2" };
	assert_int_equal(mlog_bd_ruling_line(&cfg, &r, false, &out, &len), 0);
	assert_string_equal(out, "{\"type\":\"ruling\",\"throw\":1,\"thrower\":\"a1\",\"team\":\"A\","
		"\"points\":{\"A\":1,\"B\":0},\"score\":{\"A\":1,\"B\":0},\"dead\":false,\"review\":false,"
		"\"why\":[\"BD-P1\"],\"duties\":[{\"player\":\"b1\",\"duty\":\"kill_n_fill\",\"why\":\"BD-W2\"}]}\n");
	assert_int_equal(len, strlen(out));
	free(out);

	r.retoss = true;
	r.dead = true;
	r.review = true;
	r.n_duties = 0;
	r.n_why = 0;
	assert_int_equal(mlog_bd_ruling_line(&cfg, &r, true, &out, NULL), 0);
	assert_string_equal(out, "{\"type\":\"ruling\",\"throw\":1,\"thrower\":\"a1\",\"team\":\"A\","
		"\"points\":{\"A\":1,\"B\":0},\"score\":{\"A\":1,\"B\":0},\"dead\":true,\"review\":true,"
		"\"why\":[],\"duties\":[],\"retoss\":true,\"corrected\":true}\n");
	free(out);

	memset(&f, 0, sizeof(f));
	f.score[0] = 10;
	f.score[1] = 4;
	f.over = true;
	f.winner = BD_TEAM_A;
	f.duties[f.n_duties++] = (struct bd_duty){ BD_DUTY_FINISH_WINNERS_CUPS, BD_NOBODY, BD_TEAM_B, "BD-W3" };
	assert_int_equal(mlog_bd_final_line(&cfg, &f, &out, NULL), 0);
	assert_string_equal(out, "{\"type\":\"final\",\"score\":{\"A\":10,\"B\":4},\"over\":true,\"winner\":\"A\","
		"\"duties\":[{\"team\":\"B\",\"duty\":\"finish_winners_cups\",\"why\":\"BD-W3\"}]}\n");
	free(out);
	f.over = false;
	f.winner = BD_NOBODY;
	f.n_duties = 0;
	assert_int_equal(mlog_bd_final_line(&cfg, &f, &out, NULL), 0);
	assert_string_equal(out, "{\"type\":\"final\",\"score\":{\"A\":10,\"B\":4},\"over\":false,\"winner\":null,\"duties\":[]}\n");
	free(out);
}

/* The dispatch table in core/mlog.c: beerdie and the dice games judged
 * (the dice games by mlog_dice_judge), anything else unknown. */
static void test_mlog_judge_dispatches_on_game(void **state)
{
	static const char yatzy[] = "\n{\"type\":\"match\",\"game\":\"yatzy\",\"players\":[\"p1\"]}\n";
	static const char chess[] = "{\"type\":\"match\",\"game\":\"chess\"}\n";
	char err[256] = "", *out = (char *)1;
	size_t len = 7;

	(void)state;
	/* Dice games go to mlog_dice_judge (core/mlog_dice.c). */
	assert_int_equal(mlog_judge("y.jsonl", yatzy, strlen(yatzy), &out, &len, err, sizeof(err)), 0);
	assert_string_equal(out, "{\"type\":\"final\",\"totals\":{\"p1\":0},\"upper\":{\"p1\":0},"
			    "\"bonus\":{\"p1\":0},\"over\":false,\"winner\":null}\n");
	assert_int_equal(len, strlen(out));
	free(out);
	out = (char *)1;
	assert_int_equal(mlog_judge("c.jsonl", chess, strlen(chess), &out, &len, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "c.jsonl:1: game: unknown game \"chess\" (expected beerdie, yatzy, "
			    "yatzy-joker, dreiermann or horse)");
	assert_int_equal(mlog_judge("b.jsonl", MATCH, strlen(MATCH), &out, &len, err, sizeof(err)), 0);
	assert_string_equal(out, "{\"type\":\"final\",\"score\":{\"A\":0,\"B\":0},\"over\":false,\"winner\":null,\"duties\":[]}\n");
	free(out);
}

static void test_mlog_game_names_the_first_lines_game(void **state)
{
	static const char dice[] = "\n\n{\"game\":\"dreiermann\",\"type\":\"match\"}\n{\"type\":\"turn\"}\n";
	static const char nogame[] = "{\"type\":\"match\"}\n";
	static const char odd[] = "{\"type\":\"match\",\"game\":\"Beer Die\"}\n";
	char game[32], err[256];

	(void)state;
	assert_int_equal(mlog_game("d", dice, strlen(dice), game, sizeof(game), err, sizeof(err)), 0);
	assert_string_equal(game, "dreiermann");
	assert_int_equal(mlog_game("n", nogame, strlen(nogame), game, sizeof(game), err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "n:1: game: missing");
	assert_int_equal(mlog_game("o", odd, strlen(odd), game, sizeof(game), err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "o:1: game: expected a game's name (beerdie, yatzy, yatzy-joker, dreiermann, horse)");
	assert_int_equal(mlog_game("e", "  \n", 3, game, sizeof(game), err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "e:1: empty log: the first line must be a \"match\" line");
}

/* Numbers keep their value through write and parse, in the shortest form
 * that does: 1.9 stays 1.9, 0.1 + 0.2 needs 17 digits. */
static void test_mlog_numbers_round_trip_shortest(void **state)
{
	struct bd_match_cfg cfg;
	struct bd_throw t;
	struct mlog_bd *mem, *back;
	char *out = NULL;
	double xs[] = { 1.9, 0.1 + 0.2, 1e-7, 2.44, 0, 1.0 / 3 };

	(void)state;
	bd_match_cfg_init(&cfg);
	mem = mlog_bd_new("mem", &cfg);
	assert_non_null(mem);
	memset(&t, 0, sizeof(t));
	t.thrower = BD_NOBODY;
	t.dye_up = true;
	t.apex_m = -1;
	for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		t.events[i] = (struct bd_event){ .kind = BD_EV_TABLE, .half = BD_HALF_A, .has_xy = true,
						 .x = xs[i], .y = 0.5, .player = BD_NOBODY,
						 .has_confidence = true, .confidence = xs[i] / 2.44 };
		t.n_events++;
	}
	assert_int_equal(mlog_bd_add_throw(mem, &t), 1);
	assert_int_equal(mlog_bd_write(mem, &out, NULL), 0);
	assert_non_null(strstr(out, "\"x\":1.9,"));
	assert_non_null(strstr(out, "\"x\":0.30000000000000004,"));
	assert_non_null(strstr(out, "\"x\":1e-07,"));
	assert_non_null(strstr(out, "\"x\":0,"));
	assert_non_null(strstr(out, "\"confidence\":1}"));	/* 2.44 / 2.44 */
	back = parse_ok(out);
	assert_true(mlog_bd_equal(mem, back));
	free(out);
	mlog_bd_free(back);
	mlog_bd_free(mem);
}

/* BD-P1 then BD-P6: correcting throw 1 to a short throw takes its point
 * away; every ruling is the refolded one and the corrected throw says so. */
static void test_mlog_bd_p6_correction_refolds_and_marks_throw(void **state)
{
	struct mlog_bd *log = parse_ok(MATCH FLOOR_B FLOOR_B
		"{\"type\":\"correct\",\"throw\":1,\"events\":[{\"at\":\"table\",\"half\":\"A\"},{\"at\":\"floor\"}]}\n");
	struct mlog_bd_result res;
	char err[256] = "";

	(void)state;
	assert_int_equal(mlog_bd_replay(log, &res, err, sizeof(err)), 0);
	assert_int_equal(res.n, 2);
	assert_true(res.corrected[0]);
	assert_false(res.corrected[1]);
	assert_int_equal(res.rulings[0].points[0], 0);
	assert_true(res.rulings[0].dead);
	assert_int_equal(res.rulings[1].thrower, 1);	/* BD-T3: a2 throws second */
	assert_int_equal(res.rulings[1].score[0], 1);
	assert_int_equal(res.final.score[0], 1);
	mlog_bd_result_free(&res);
	mlog_bd_free(log);
}

/* BD-W1 with target 1, win by 1: the first point ends the game, so a
 * second throw is an input error naming its line. */
static void test_mlog_bd_w1_throw_after_game_over_names_its_line(void **state)
{
	struct mlog_bd *log = parse_ok(
		"{\"type\":\"match\",\"game\":\"beerdie\",\"house\":{\"target_points\":1,\"win_by\":1}}\n"
		FLOOR_B "\n" FLOOR_B);
	char err[256] = "", *out = (char *)1;
	size_t len = 3;

	(void)state;
	assert_int_equal(mlog_bd_judge(log, &out, &len, err, sizeof(err)), -EINVAL);
	assert_null(out);
	assert_int_equal(len, 0);
	assert_non_null(strstr(err, "t.jsonl:4: throw 2: "));
	mlog_bd_free(log);
}

static void test_mlog_built_in_memory_matches_parsed(void **state)
{
	struct bd_match_cfg cfg;
	struct bd_throw t;
	struct mlog_bd *mem, *parsed;
	char *out = NULL;

	(void)state;
	bd_match_cfg_init(&cfg);
	mem = mlog_bd_new("mem", &cfg);
	assert_non_null(mem);
	memset(&t, 0, sizeof(t));
	t.thrower = BD_NOBODY;
	t.dye_up = true;
	t.apex_m = -1;
	t.n_events = 2;
	t.events[0] = (struct bd_event){ .kind = BD_EV_TABLE, .half = BD_HALF_B, .player = BD_NOBODY, .confidence = 1 };
	t.events[1] = (struct bd_event){ .kind = BD_EV_FLOOR, .player = BD_NOBODY, .confidence = 1 };
	assert_int_equal(mlog_bd_add_correct(mem, 1, &t), -EINVAL);	/* no throw 1 yet */
	assert_int_equal(mlog_bd_set_rolloff(mem, 7, BD_TEAM_A, true), -EINVAL);
	assert_int_equal(mlog_bd_set_rolloff(mem, 1, BD_TEAM_A, true), 0);
	assert_int_equal(mem->cfg.first_team, BD_TEAM_B);	/* BD-F1: A called high, 1 is low */
	assert_int_equal(mlog_bd_add_throw(mem, &t), 1);
	assert_int_equal(mlog_bd_add_throw(mem, &t), 2);
	assert_int_equal(mlog_bd_add_correct(mem, 2, &t), 0);
	assert_int_equal(mlog_bd_write(mem, &out, NULL), 0);
	parsed = parse_ok(out);
	assert_true(mlog_bd_equal(mem, parsed));
	parsed->entries[2].t.events[1].kind = BD_EV_MINE;
	assert_false(mlog_bd_equal(mem, parsed));
	free(out);
	mlog_bd_free(parsed);
	mlog_bd_free(mem);
}

/* Duty lines: written back byte for byte, skipped by judging; the last
 * mark of an id says whether it is done; bad lines refused by line. */
static void test_mlog_duty_lines_round_trip_and_do_not_judge(void **state)
{
	static const char text[] = "{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],"
		"\"B\":[\"b1\",\"b2\"]}}\n"
		"{\"type\":\"throw\",\"dye_up\":true,\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}\n"
		"{\"type\":\"duty\",\"duty\":\"1:kill_n_fill:b1\",\"done\":true,"
		"\"audit\":{\"official\":\"Kim\",\"wall_ms\":1700000000123}}\n"
		"{\"type\":\"duty\",\"duty\":\"1:kill_n_fill:b1\",\"done\":false,"
		"\"audit\":{\"official\":\"Jo\",\"wall_ms\":1700000000456,\"reason\":\"tapped by mistake\"}}\n"
		"{\"type\":\"duty\",\"duty\":\"F:finish_winners_cups:B\",\"done\":true,"
		"\"audit\":{\"official\":\"Jo\",\"wall_ms\":1700000000789}}\n";
	struct mlog_bd *log = parse_ok(text);
	const struct mlog_bd_entry *by;
	char *out = NULL, *judged = NULL, err[128];
	size_t len;

	(void)state;
	assert_int_equal(log->n_throws, 1);
	assert_int_equal(log->n_entries, 4);
	assert_int_equal(log->entries[1].kind, MLOG_DUTY);
	assert_string_equal(log->entries[1].duty, "1:kill_n_fill:b1");
	assert_true(log->entries[1].done);
	assert_int_equal(log->entries[1].line, 3);
	assert_false(mlog_bd_duty_done(log, "1:kill_n_fill:b1", &by));
	assert_string_equal(by->audit.official, "Jo");
	assert_true(mlog_bd_duty_done(log, "F:finish_winners_cups:B", &by));
	assert_false(mlog_bd_duty_done(log, "2:shotgun:a1", &by));
	assert_null(by);
	assert_int_equal(mlog_bd_write(log, &out, &len), 0);
	assert_string_equal(out, text);
	assert_int_equal(mlog_bd_judge(log, &judged, &len, err, sizeof(err)), 0);
	/* One ruling and the final line: none for the marks. */
	assert_null(strstr(strchr(judged, '\n') + 1, "\"type\":\"ruling\""));
	free(judged);
	free(out);
	mlog_bd_free(log);
	parse_bad(MATCH FLOOR_B "{\"type\":\"duty\",\"duty\":\"1:shotgun:a1\",\"done\":true}\n",
		  "t.jsonl:3: audit: missing (who confirmed, and when)");
	parse_bad(MATCH FLOOR_B "{\"type\":\"duty\",\"done\":true,\"audit\":{\"official\":\"K\",\"wall_ms\":1}}\n",
		  "t.jsonl:3: duty: missing (the duty's id, \"8:kill_n_fill:b1\")");
	parse_bad(MATCH FLOOR_B "{\"type\":\"duty\",\"duty\":\"1:shotgun:a1\",\"audit\":{\"official\":\"K\",\"wall_ms\":1}}\n",
		  "t.jsonl:3: done: expected true or false");
	parse_bad(MATCH FLOOR_B "{\"type\":\"duty\",\"duty\":\"1:x\",\"done\":true,\"throw\":1,"
		  "\"audit\":{\"official\":\"K\",\"wall_ms\":1}}\n",
		  "t.jsonl:3: throw: unknown field (\"duty\" lines take type, duty, done, audit)");
	parse_bad(MATCH FLOOR_B "{\"type\":\"duty\",\"duty\":\"a\\\"b\",\"done\":true,"
		  "\"audit\":{\"official\":\"K\",\"wall_ms\":1}}\n", "t.jsonl:3: duty: not a duty's id");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mlog_minimal_match_has_default_players_and_house),
		cmocka_unit_test(test_mlog_apex_sd_rejects_negative_huge_and_orphan),
		cmocka_unit_test(test_mlog_teams_and_every_house_setting),
		cmocka_unit_test(test_mlog_bd_f1_rolloff_decides_first_team),
		cmocka_unit_test(test_mlog_throw_defaults),
		cmocka_unit_test(test_mlog_table_half_from_x_when_not_given),
		cmocka_unit_test(test_mlog_every_event_kind_and_its_fields),
		cmocka_unit_test(test_mlog_correct_line_and_blank_lines_keep_numbers),
		cmocka_unit_test(test_mlog_audit_and_confirm_lines_round_trip_and_do_not_judge),
		cmocka_unit_test(test_mlog_errors_name_line_field_and_problem),
		cmocka_unit_test(test_mlog_canonical_log_writes_back_byte_for_byte),
		cmocka_unit_test(test_mlog_write_normalises_to_canonical),
		cmocka_unit_test(test_mlog_team_names_round_trip_and_are_checked),
		cmocka_unit_test(test_mlog_team_colors_round_trip_and_are_checked),
		cmocka_unit_test(test_mlog_ruling_and_final_lines_in_design_order),
		cmocka_unit_test(test_mlog_judge_dispatches_on_game),
		cmocka_unit_test(test_mlog_game_names_the_first_lines_game),
		cmocka_unit_test(test_mlog_numbers_round_trip_shortest),
		cmocka_unit_test(test_mlog_bd_p6_correction_refolds_and_marks_throw),
		cmocka_unit_test(test_mlog_bd_w1_throw_after_game_over_names_its_line),
		cmocka_unit_test(test_mlog_built_in_memory_matches_parsed),
		cmocka_unit_test(test_mlog_duty_lines_round_trip_and_do_not_judge),
		cmocka_unit_test(test_mlog_table_round_trips_and_is_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
