/* web parsers: form bodies, cookies, X-Forwarded-For and console
 * commands, on bytes. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "web/web.h"

#define S(x) x, sizeof(x) - 1

static void test_web_form_decodes_plus_and_percent(void **state)
{
	char out[32];

	(void)state;
	assert_int_equal(web_parse_form(S("a=1&pin=12%334+5"), "pin", out, sizeof(out)), 6);
	assert_string_equal(out, "1234 5");
	assert_int_equal(web_parse_form(S("pin="), "pin", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(web_parse_form(S("pinx=1"), "pin", out, sizeof(out)), -ENOENT);
}

static void test_web_form_rejects_bad_escapes_and_nul(void **state)
{
	char out[8];

	(void)state;
	assert_int_equal(web_parse_form(S("pin=%4"), "pin", out, sizeof(out)), -EINVAL);
	assert_int_equal(web_parse_form(S("pin=%zz"), "pin", out, sizeof(out)), -EINVAL);
	assert_int_equal(web_parse_form(S("pin=%00"), "pin", out, sizeof(out)), -EINVAL);
	assert_int_equal(web_parse_form(S("pin=123456789"), "pin", out, sizeof(out)), -E2BIG);
}

static void test_web_cookie_finds_value_among_others(void **state)
{
	char out[16];

	(void)state;
	assert_int_equal(web_parse_cookie(S("a=1; dyeref_session=abc ;b=2"), "dyeref_session",
					  out, sizeof(out)), 3);
	assert_string_equal(out, "abc");
	assert_int_equal(web_parse_cookie(S("xdyeref_session=abc"), "dyeref_session", out,
					  sizeof(out)), -ENOENT);
	assert_int_equal(web_parse_cookie(S("s=0123456789abcdefXYZ"), "s", out, sizeof(out)), -E2BIG);
}

/* X-Forwarded-For behind the trusted proxy: only the last entry, the one
 * the proxy appended, and only a bare IP literal; anything else is
 * refused so the caller keeps the peer's address. */
static void test_web_forwarded_for_takes_the_last_bare_address(void **state)
{
	static const char *const bad[] = {
		"", " ", ",", "1.2.3.4,", "1.2.3.4, ", "1.2.3.4:80", "[::1]", "[::1]:80",
		"fe80::1%eth0", "unknown", "1.2.3", "1.2.3.4.5", "01.2.3.4x", "1.2.3.4 5.6.7.8",
		"::ffff:1.2.3.4:1", "1.2.3.4;", "\"1.2.3.4\"", "0000:0000:0000:0000:0000:0000:0000:0000:1",
	};
	struct sockaddr_storage a;
	const struct sockaddr_in *v4 = (const struct sockaddr_in *)&a;
	const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)&a;
	char text[64];

	(void)state;
	assert_int_equal(web_parse_forwarded_for(S("203.0.113.7"), &a), 0);
	assert_int_equal(a.ss_family, AF_INET);
	assert_int_equal(ntohl(v4->sin_addr.s_addr), 0xcb007107);
	/* What the client sent comes first, and is not read (nor checked). */
	assert_int_equal(web_parse_forwarded_for(S("garbage\x01,,1.1.1.1 , \t198.51.100.2\t"), &a), 0);
	assert_int_equal(ntohl(v4->sin_addr.s_addr), 0xc6336402);
	assert_int_equal(web_parse_forwarded_for(S("10.0.0.1, 2001:db8::5"), &a), 0);
	assert_int_equal(a.ss_family, AF_INET6);
	assert_int_equal(v6->sin6_addr.s6_addr[15], 5);
	/* The length given, not the NUL: a longer buffer's tail is not read. */
	assert_int_equal(web_parse_forwarded_for("10.0.0.9, 10.0.0.1", 8, &a), 0);
	assert_int_equal(ntohl(v4->sin_addr.s_addr), 0x0a000009);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "9.9.9.9, %s", bad[i]);
		if (web_parse_forwarded_for(text, strlen(text), &a) != -EINVAL)
			fail_msg("'%s' taken", text);
		assert_int_equal(a.ss_family, 0);
		if (bad[i][0] && web_parse_forwarded_for(bad[i], strlen(bad[i]), &a) != -EINVAL)
			fail_msg("'%s' taken", bad[i]);
	}
	assert_int_equal(web_parse_forwarded_for("1.2.3.4\0", 8, &a), -EINVAL);
}

/* A Host header's name, as the DNS-rebinding check compares it: lower
 * case, no port, no trailing dot, IP literals in one spelling. */
static void test_web_host_name_normalises_and_refuses_junk(void **state)
{
	static const char *const good[][2] = {
		{ "Pi.Local:8080", "pi.local" }, { "pi.local.", "pi.local" },
		{ "127.0.0.1:80", "127.0.0.1" }, { "[::1]:8080", "::1" },
		{ "[FD00:0::1]", "fd00::1" }, { "dyeref_1", "dyeref_1" },
	};
	static const char *const bad[] = {
		"", ":80", "pi:", "pi:123456", "pi:8o", "a b", "pi/x", "[::1", "[1.2.3.4]",
		"[::1]x", ".", ".pi", "pi:80:80",
	};
	char out[WEB_HOST_MAX], names[WEB_HOSTS_MAX][WEB_HOST_MAX], err[128], big[WEB_HOST_MAX + 1];
	size_t n;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(web_host_name(good[i][0], strlen(good[i][0]), true, out, sizeof(out)), 0);
		assert_string_equal(out, good[i][1]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (web_host_name(bad[i], strlen(bad[i]), true, out, sizeof(out)) != -EINVAL)
			fail_msg("'%s' taken as '%s'", bad[i], out);
	assert_int_equal(web_host_name("evil\0.pi", 9, true, out, sizeof(out)), -EINVAL);
	memset(big, 'a', WEB_HOST_MAX);
	big[WEB_HOST_MAX] = '\0';
	assert_int_equal(web_host_name(big, WEB_HOST_MAX, true, out, sizeof(out)), -EINVAL);
	/* The configuration's list: no ports, bare IPv6 literals. */
	assert_int_equal(web_host_name("pi:80", 5, false, out, sizeof(out)), -EINVAL);
	assert_int_equal(web_parse_hosts(" A.example, fd00::0:1 ,10.0.0.5", names, WEB_HOSTS_MAX, &n,
					 err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "a.example");
	assert_string_equal(names[1], "fd00::1");
	assert_string_equal(names[2], "10.0.0.5");
	assert_int_equal(web_parse_hosts("ok, bad/name", names, WEB_HOSTS_MAX, &n, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "'bad/name'"));
	assert_int_equal(web_parse_hosts("a b c", names, 2, &n, err, sizeof(err)), -E2BIG);
}

/* A console login from another site's page is refused before its PIN is
 * read; the console's own page, and curl, are not. */
static void test_web_cross_site_by_fetch_metadata_else_origin(void **state)
{
	(void)state;
	assert_false(web_cross_site("same-origin", "http://evil.example", "pi:8080"));
	assert_false(web_cross_site("none", NULL, "pi:8080"));
	assert_true(web_cross_site("cross-site", "http://pi:8080", "pi:8080"));
	assert_true(web_cross_site("same-site", NULL, "pi:8080"));
	assert_true(web_cross_site("", NULL, NULL));
	/* Older browsers: Origin against Host. */
	assert_false(web_cross_site(NULL, "http://pi:8080", "pi:8080"));
	assert_false(web_cross_site(NULL, "HTTPS://Dyeref.Example", "dyeref.example"));
	assert_false(web_cross_site(NULL, "http://[fd00::1]:8080", "[fd00::1]:8080"));
	assert_true(web_cross_site(NULL, "http://evil.example", "pi:8080"));
	assert_true(web_cross_site(NULL, "http://pi:8081", "pi:8080"));
	assert_true(web_cross_site(NULL, "http://pi:8080.evil.example", "pi:8080"));
	assert_true(web_cross_site(NULL, "null", "pi:8080"));
	assert_true(web_cross_site(NULL, "file://", "pi:8080"));
	assert_true(web_cross_site(NULL, "http://pi:8080", NULL));
	assert_false(web_cross_site(NULL, NULL, "pi:8080"));
	assert_false(web_cross_site(NULL, NULL, NULL));
}

static void test_web_command_call_catch(void **state)
{
	struct web_command cmd;
	char err[160];
	static const char json[] =
		"{\"cmd\":\"call\",\"event\":{\"at\":\"catch\",\"by\":\"b1\",\"hands\":2,\"trapped\":true}}";

	(void)state;
	assert_int_equal(web_parse_command(S(json), NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.kind, WEB_CMD_CALL);
	assert_int_equal(cmd.n_events, 1);
	assert_int_equal(cmd.events[0].kind, BD_EV_CATCH);
	assert_int_equal(cmd.events[0].player, 2);
	assert_int_equal(cmd.events[0].hands, 2);
	assert_true(cmd.events[0].trapped);
	assert_string_equal(cmd.events[0].source, "console");
}

static void test_web_command_start_applies_house_over_defaults(void **state)
{
	struct web_command cmd;
	struct bd_house h;
	char err[160];
	static const char json[] = "{\"cmd\":\"start\",\"teams\":{\"A\":[\"Ann\",\"Bo\"],\"B\":[\"Cy\",\"Di\"]},"
				   "\"first\":\"B\",\"house\":{\"target_points\":7}}";

	(void)state;
	bd_house_defaults(&h);
	h.popout_is_sink = true;	/* as if the config said so */
	assert_int_equal(web_parse_command(S(json), &h, NULL, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.kind, WEB_CMD_START);
	assert_string_equal(cmd.players[2], "Cy");
	assert_int_equal(cmd.first_team, BD_TEAM_B);
	assert_int_equal(cmd.house.target_points, 7);
	assert_true(cmd.house.popout_is_sink);
}

static void test_web_command_errors_name_the_field(void **state)
{
	struct web_command cmd;
	char err[160];

	(void)state;
	assert_int_equal(web_parse_command(S("{\"cmd\":\"fly\"}"), NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "cmd"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"correct\",\"throw\":2,\"events\":[{\"at\":\"table\",\"half\":\"C\"}]}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "events[0].half"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"call\",\"event\":{\"at\":\"catch\",\"by\":\"zz\"}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "by"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"start\",\"house\":{\"plunk\":true}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "house.plunk"));
	assert_int_equal(web_parse_command(S("[1,2"), NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not JSON"));
	/* A point off the table top: the match log could not hold it. */
	assert_int_equal(web_parse_command(S("{\"cmd\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\","
					     "\"x\":3.5,\"y\":0.5},{\"at\":\"floor\"}]}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "events[0].x: expected a number in 0..2.44"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\","
					     "\"x\":2,\"y\":-0.1},{\"at\":\"floor\"}]}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "events[0].y: expected a number in 0..1.22"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\","
					     "\"x\":2.44,\"y\":1.22},{\"at\":\"floor\"}]}"),
					   NULL, NULL, &cmd, err, sizeof(err)), 0);
}

static void test_web_command_correct_carries_events(void **state)
{
	struct web_command cmd;
	char err[160];
	static const char json[] = "{\"cmd\":\"correct\",\"throw\":3,\"dye_up\":false,\"events\":["
				   "{\"at\":\"table\",\"half\":\"B\",\"x\":1.9,\"y\":0.4},"
				   "{\"at\":\"cup\",\"owner\":\"b2\",\"sink\":true}]}";

	(void)state;
	assert_int_equal(web_parse_command(S(json), NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.kind, WEB_CMD_CORRECT);
	assert_int_equal(cmd.throw_no, 3);
	assert_false(cmd.dye_up);
	assert_int_equal(cmd.n_events, 2);
	assert_true(cmd.events[0].has_xy);
	assert_int_equal(cmd.events[1].player, 3);
	assert_true(cmd.events[1].sink);
}

/* Dice games: START of a dice game carries its match line (the engine
 * checks players and house later); DICE carries the move as a compact log
 * line; what cannot be a line is refused here, naming the field. */
static void test_web_command_dice_start_and_move_carry_log_lines(void **state)
{
	struct web_command cmd;
	char err[160], big[3000];

	(void)state;
	assert_int_equal(web_parse_command(S("{\"cmd\":\"start\",\"game\":\"dreiermann\",\"players\":[\"ann\",\"bob\",\"cid\"],"
					     "\"house\":{\"first_roll_miss_sip\":true}}"), NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.kind, WEB_CMD_START);
	assert_string_equal(cmd.game, "dreiermann");
	assert_string_equal(cmd.line, "{\"type\":\"match\",\"game\":\"dreiermann\",\"players\":[\"ann\",\"bob\",\"cid\"],"
			    "\"house\":{\"first_roll_miss_sip\":true}}");
	assert_int_equal(web_parse_command(S("{\"cmd\":\"dice\",\"move\":{\"type\":\"turn\",\"rolls\":[[1, 2,3,4,5]],\"box\":\"chance\"}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.kind, WEB_CMD_DICE);
	assert_string_equal(cmd.line, "{\"type\":\"turn\",\"rolls\":[[1,2,3,4,5]],\"box\":\"chance\"}");
	assert_int_equal(web_parse_command(S("{\"cmd\":\"start\",\"game\":\"yahtzee\",\"players\":[\"ann\"]}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "game"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"start\",\"game\":\"horse\",\"players\":\"ann\"}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "players"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"dice\",\"move\":[1]}"), NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "move"));
	snprintf(big, sizeof(big), "{\"cmd\":\"dice\",\"move\":{\"type\":\"turn\",\"pad\":\"%2500d\"}}", 1);
	assert_int_equal(web_parse_command(big, strlen(big), NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "longer than"));
}

/* Names go into the match line, whose codec refuses control characters
 * and a player named twice: refused at the door instead. */
static void test_web_command_start_refuses_names_the_log_cannot_hold(void **state)
{
	struct web_command cmd;
	char err[160];

	(void)state;
	assert_int_equal(web_parse_command(S("{\"cmd\":\"start\",\"team_names\":[\"a\\tb\",\"B\"]}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "team_names[0]"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"start\",\"teams\":{\"A\":[\"x\\u0001\",\"y\"]}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "teams.A[0]"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"start\",\"teams\":{\"A\":[\"x\",\"y\"],\"B\":[\"y\",\"z\"]}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "twice"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"start\",\"team_names\":[\"Orange\",\"Blue\"]}"),
					   NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_string_equal(cmd.teams[1], "Blue");
}

/* Contract 1: a player by seat, by the match's name (exact, else
 * case-insensitive when only one fits) or by index; the seat is kept. */
static void test_web_command_players_by_seat_name_or_index(void **state)
{
	static const char names[BD_PLAYERS][BD_NAME_MAX] = { "Al", "Bo", "Cy", "cY2" };
	static const char *const by[] = { "\"b1\"", "\"Cy\"", "\"cy\"", "2" };
	char json[256], err[160];
	struct web_command cmd;

	(void)state;
	for (size_t i = 0; i < sizeof(by) / sizeof(by[0]); i++) {
		snprintf(json, sizeof(json), "{\"cmd\":\"correct\",\"throw\":2,\"thrower\":%s,"
			 "\"events\":[{\"at\":\"catch\",\"by\":%s,\"hands\":2},"
			 "{\"at\":\"cup\",\"owner\":%s}]}", by[i], by[i], by[i]);
		assert_int_equal(web_parse_command(json, strlen(json), NULL, names, &cmd, err,
						   sizeof(err)), 0);
		assert_int_equal(cmd.thrower, 2);
		assert_int_equal(cmd.events[0].player, 2);
		assert_int_equal(cmd.events[1].player, 2);
	}
	/* Without the match's names only seats and indexes are players. */
	assert_int_equal(web_parse_command(S("{\"cmd\":\"call\",\"event\":{\"at\":\"catch\",\"by\":\"Cy\"}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "event.by: not a player (a1, a2, b1 or b2)");
	/* An unknown name: the message lists who plays. */
	assert_int_equal(web_parse_command(S("{\"cmd\":\"call\",\"event\":{\"at\":\"catch\",\"by\":\"Di\"}}"),
					   NULL, names, &cmd, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "event.by: not a player (Al, Bo, Cy, cY2, a1, a2, b1 or b2)");
	/* Exact wins over case: "cY2" is b2; "CY2" fits only b2 too. */
	assert_int_equal(web_parse_command(S("{\"cmd\":\"call\",\"event\":{\"at\":\"kick\",\"by\":\"CY2\"}}"),
					   NULL, names, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.events[0].player, 3);
	/* An index out of range, a name in the wrong type. */
	assert_int_equal(web_parse_command(S("{\"cmd\":\"call\",\"event\":{\"at\":\"catch\",\"by\":4}}"),
					   NULL, names, &cmd, err, sizeof(err)), -EINVAL);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"call\",\"event\":{\"at\":\"catch\",\"by\":[\"Cy\"]}}"),
					   NULL, names, &cmd, err, sizeof(err)), -EINVAL);
}

/* Two players whose names differ only in case: either by its case-less
 * spelling is ambiguous, and refused. */
static void test_web_command_ambiguous_name_is_refused(void **state)
{
	static const char names[BD_PLAYERS][BD_NAME_MAX] = { "kim", "Kim", "Cy", "Di" };
	char err[160];
	struct web_command cmd;

	(void)state;
	assert_int_equal(web_parse_command(S("{\"cmd\":\"call\",\"event\":{\"at\":\"catch\",\"by\":\"KIM\"}}"),
					   NULL, names, &cmd, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "event.by: 'KIM' fits 2 players: give the seat (a1..b2)");
	assert_int_equal(web_parse_command(S("{\"cmd\":\"call\",\"event\":{\"at\":\"catch\",\"by\":\"Kim\"}}"),
					   NULL, names, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.events[0].player, 1);
}

/* "reason" on any command, "accept_zero" on a dice move and a dice
 * correction, "turn" for a dice correction; each checked. */
static void test_web_command_reason_accept_zero_and_dice_turn(void **state)
{
	char big[400], err[160];
	struct web_command cmd;

	(void)state;
	assert_int_equal(web_parse_command(S("{\"cmd\":\"undo\",\"reason\":\"wrong half\"}"),
					   NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_string_equal(cmd.reason, "wrong half");
	snprintf(big, sizeof(big), "{\"cmd\":\"undo\",\"reason\":\"%0250d\"}", 0);
	assert_int_equal(web_parse_command(big, strlen(big), NULL, NULL, &cmd, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "reason: "));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"undo\",\"reason\":\"a\\nb\"}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"dice\",\"accept_zero\":true,\"move\":{\"type\":\"turn\","
					     "\"rolls\":[[4,4,4,1,3]],\"box\":\"full_house\"}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_true(cmd.accept_zero);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"dice\",\"accept_zero\":1,\"move\":{\"type\":\"turn\"}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "accept_zero"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"correct\",\"turn\":3,\"move\":{\"type\":\"turn\","
					     "\"rolls\":[[1,2,3,4,5]],\"box\":\"chance\"}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.turn, 3);
	assert_non_null(strstr(cmd.line, "\"box\":\"chance\""));
	assert_false(cmd.accept_zero);
	/* A dice correction takes accept_zero too (its 0 is asked as a move's). */
	assert_int_equal(web_parse_command(S("{\"cmd\":\"correct\",\"turn\":3,\"accept_zero\":true,"
					     "\"move\":{\"type\":\"turn\",\"rolls\":[[1,2,3,4,5]],\"box\":\"ones\"}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_true(cmd.accept_zero);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"correct\",\"turn\":3,\"accept_zero\":\"yes\","
					     "\"move\":{\"type\":\"turn\"}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "accept_zero"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"correct\",\"turn\":0,\"move\":{\"type\":\"turn\"}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "turn: "));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"correct\",\"turn\":1,\"throw\":1,\"move\":{\"type\":\"turn\"}}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
}

/* duty_done: the duty's id and done, both required; hostile ids refused. */
static void test_web_command_duty_done(void **state)
{
	struct web_command cmd;
	char err[160];

	(void)state;
	assert_int_equal(web_parse_command(S("{\"cmd\":\"duty_done\",\"duty\":\"8:kill_n_fill:b1\",\"done\":true}"),
					   NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.kind, WEB_CMD_DUTY_DONE);
	assert_string_equal(cmd.duty, "8:kill_n_fill:b1");
	assert_true(cmd.done);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"duty_done\",\"duty\":\"F:finish_winners_cups:B\","
					     "\"done\":false}"), NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_false(cmd.done);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"duty_done\",\"duty\":\"8:kill_n_fill:b1\"}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "done: expected true or false");
	assert_int_equal(web_parse_command(S("{\"cmd\":\"duty_done\",\"duty\":\"8:x\",\"done\":1}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "done:"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"duty_done\",\"done\":true}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "duty:"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"duty_done\",\"duty\":\"\",\"done\":true}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "duty:"));
	assert_int_equal(web_parse_command(S("{\"cmd\":\"duty_done\",\"duty\":7,\"done\":true}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"duty_done\",\"duty\":\"a\\nb\",\"done\":true}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"duty_done\",\"duty\":\"a\\\"b\",\"done\":true}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"duty_done\",\"duty\":\"a\\u0000b\",\"done\":true}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"duty_done\",\"duty\":\"123456789012345678901234567890"
					     "12345678901234567890\",\"done\":true}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "at most 47 bytes"));
}

/* show_on_wall names a match and a throw, both numbers from 1; dismiss_wall
 * takes nothing. */
static void test_web_command_show_on_wall(void **state)
{
	struct web_command cmd;
	char err[160];

	(void)state;
	assert_int_equal(web_parse_command(S("{\"cmd\":\"show_on_wall\",\"match\":3,\"throw\":12}"),
					   NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.kind, WEB_CMD_SHOW_ON_WALL);
	assert_int_equal(cmd.match, 3);
	assert_int_equal(cmd.throw_no, 12);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"show_on_wall\",\"throw\":12}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "match: expected a match's number (1, 2, ...)");
	assert_int_equal(web_parse_command(S("{\"cmd\":\"show_on_wall\",\"match\":3}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "throw: expected a throw's number (1, 2, ...)");
	assert_int_equal(web_parse_command(S("{\"cmd\":\"show_on_wall\",\"match\":0,\"throw\":1}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"show_on_wall\",\"match\":1,\"throw\":-1}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"show_on_wall\",\"match\":\"1\",\"throw\":1}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"show_on_wall\",\"match\":1,\"throw\":1.5}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"show_on_wall\",\"match\":99999999999,\"throw\":1}"),
					   NULL, NULL, &cmd, err, sizeof(err)), -EINVAL);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"dismiss_wall\"}"), NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.kind, WEB_CMD_DISMISS_WALL);
}

/* face names a match, a throw and a snapshot, and either the face 1-6
 * or "confirm": true, never both or neither. */
static void test_web_command_face(void **state)
{
	static const char *const bad[] = {
		"{\"cmd\":\"face\",\"match\":1,\"throw\":2,\"snapshot\":1}",
		"{\"cmd\":\"face\",\"match\":1,\"throw\":2,\"snapshot\":1,\"face\":7}",
		"{\"cmd\":\"face\",\"match\":1,\"throw\":2,\"snapshot\":1,\"face\":0}",
		"{\"cmd\":\"face\",\"match\":1,\"throw\":2,\"snapshot\":1,\"face\":\"3\"}",
		"{\"cmd\":\"face\",\"match\":1,\"throw\":2,\"snapshot\":1,\"face\":2.5}",
		"{\"cmd\":\"face\",\"match\":1,\"throw\":2,\"snapshot\":1,\"face\":3,\"confirm\":true}",
		"{\"cmd\":\"face\",\"match\":1,\"throw\":2,\"snapshot\":1,\"confirm\":false}",
		"{\"cmd\":\"face\",\"match\":1,\"throw\":2,\"snapshot\":1,\"confirm\":1}",
		"{\"cmd\":\"face\",\"match\":1,\"throw\":2,\"snapshot\":0,\"face\":3}",
		"{\"cmd\":\"face\",\"match\":1,\"throw\":2,\"face\":3}",
		"{\"cmd\":\"face\",\"match\":1,\"throw\":0,\"snapshot\":1,\"face\":3}",
		"{\"cmd\":\"face\",\"throw\":2,\"snapshot\":1,\"face\":3}",
	};
	struct web_command cmd;
	char err[160];

	(void)state;
	assert_int_equal(web_parse_command(S("{\"cmd\":\"face\",\"match\":3,\"throw\":12,\"snapshot\":2,\"face\":6}"),
					   NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.kind, WEB_CMD_FACE);
	assert_int_equal(cmd.match, 3);
	assert_int_equal(cmd.throw_no, 12);
	assert_int_equal(cmd.snapshot, 2);
	assert_int_equal(cmd.face, 6);
	assert_int_equal(web_parse_command(S("{\"cmd\":\"face\",\"match\":3,\"throw\":12,\"snapshot\":1,\"confirm\":true}"),
					   NULL, NULL, &cmd, err, sizeof(err)), 0);
	assert_int_equal(cmd.face, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (web_parse_command(bad[i], strlen(bad[i]), NULL, NULL, &cmd, err, sizeof(err)) != -EINVAL)
			fail_msg("taken: %s", bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_web_form_decodes_plus_and_percent),
		cmocka_unit_test(test_web_form_rejects_bad_escapes_and_nul),
		cmocka_unit_test(test_web_cookie_finds_value_among_others),
		cmocka_unit_test(test_web_forwarded_for_takes_the_last_bare_address),
		cmocka_unit_test(test_web_host_name_normalises_and_refuses_junk),
		cmocka_unit_test(test_web_cross_site_by_fetch_metadata_else_origin),
		cmocka_unit_test(test_web_command_call_catch),
		cmocka_unit_test(test_web_command_face),
		cmocka_unit_test(test_web_command_start_applies_house_over_defaults),
		cmocka_unit_test(test_web_command_errors_name_the_field),
		cmocka_unit_test(test_web_command_correct_carries_events),
		cmocka_unit_test(test_web_command_dice_start_and_move_carry_log_lines),
		cmocka_unit_test(test_web_command_start_refuses_names_the_log_cannot_hold),
		cmocka_unit_test(test_web_command_players_by_seat_name_or_index),
		cmocka_unit_test(test_web_command_ambiguous_name_is_refused),
		cmocka_unit_test(test_web_command_reason_accept_zero_and_dice_turn),
		cmocka_unit_test(test_web_command_duty_done),
		cmocka_unit_test(test_web_command_show_on_wall),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
