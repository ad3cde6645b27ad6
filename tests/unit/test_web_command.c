/*
 * The console's command endpoint (web/route.c) on loopback with stub
 * handlers (a link seam of the daemon): the official named at login reaches
 * the command, players by the match's names, the answer's shape
 * {"ok":true,"result":R}, and a handler's -EAGAIN as the question of a
 * 409 with "ask":true.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "web/web.h"

/* What the stub command saw and what it answers. */
static struct {
	struct web_command got;	/* the last command */
	int rc;			/* its return */
	const char *result;	/* its result text, or NULL */
	const char *err;	/* its message */
} stub;

static int stub_command(void *user, const struct web_command *cmd, char **result,
			char *err, size_t errlen)
{
	(void)user;
	stub.got = *cmd;
	*result = stub.result ? strdup(stub.result) : NULL;
	snprintf(err, errlen, "%s", stub.err ? stub.err : "");
	return stub.rc;
}

static int stub_players(void *user, char names[BD_PLAYERS][BD_NAME_MAX])
{
	static const char match[BD_PLAYERS][BD_NAME_MAX] = { "Al", "Bo", "Cy", "Di" };

	(void)user;
	memcpy(names, match, sizeof(match));
	return 0;
}

static struct web_server *server;

static int setup(void **state)
{
	struct web_config cfg = { .bind = "127.0.0.1", .pin = "246813" };
	struct web_handlers h = { .command = stub_command, .players = stub_players };
	char err[256];

	(void)state;
	server = web_server_new(&cfg, &h, NULL, err, sizeof(err));
	if (!server) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	web_server_free(server);
	return 0;
}

/* One request on its own connection (closed after): the status, and the
 * whole answer in out. The server's loop is turned a bounded number of
 * times until the answer ends. */
static int exchange(const char *req, char *out, size_t outlen)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(web_server_port(server)) };
	size_t len = 0, n = strlen(req);
	int fd, status = 0;
	bool done = false;

	assert_int_equal(inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr), 1);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(write(fd, req, n), (ssize_t)n);
	out[0] = '\0';
	for (int i = 0; i < 500 && !done; i++) {
		struct pollfd p[2] = {
			{ .fd = web_server_fd(server), .events = POLLIN },
			{ .fd = fd, .events = POLLIN },
		};
		int64_t wait_ms = web_server_timeout_ms(server);

		poll(p, 2, wait_ms < 0 || wait_ms > 50 ? 50 : (int)wait_ms);
		assert_int_equal(web_server_process(server), 0);
		if (p[1].revents & (POLLIN | POLLHUP)) {
			ssize_t r = read(fd, out + len, outlen - 1 - len);

			assert_true(r >= 0);
			done = r == 0;
			len += (size_t)r;
			out[len] = '\0';
		}
	}
	close(fd);
	assert_true(done);
	assert_int_equal(sscanf(out, "HTTP/1.1 %d", &status), 1);
	return status;
}

static const char *body_of(const char *answer)
{
	const char *b = strstr(answer, "\r\n\r\n");

	assert_non_null(b);
	return b + 4;
}

/* Logs in as name (NULL: no name given): the cookie and CSRF token. */
static void login(const char *form, char cookie[160], char csrf[80], char *answer, size_t len)
{
	char req[512];
	const char *c, *t;

	snprintf(req, sizeof(req), "POST /console/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
		 "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %zu\r\n\r\n%s",
		 strlen(form), form);
	assert_int_equal(exchange(req, answer, len), 200);
	c = strstr(answer, "dyeref_session=");
	assert_non_null(c);
	snprintf(cookie, 160, "%.*s", (int)strcspn(c, ";\r"), c);
	t = strstr(answer, "\"csrf\":\"");
	assert_non_null(t);
	snprintf(csrf, 80, "%.64s", t + 8);
}

static int command(const char *cookie, const char *csrf, const char *json, char *answer, size_t len)
{
	char req[1024];

	snprintf(req, sizeof(req), "POST /console/api/command HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
		 "Cookie: %s\r\nX-CSRF-Token: %s\r\nContent-Type: application/json\r\n"
		 "Content-Length: %zu\r\n\r\n%s", cookie, csrf, strlen(json), json);
	return exchange(req, answer, len);
}

static void test_web_command_carries_the_official_and_answers_ok_result(void **state)
{
	char cookie[160], csrf[80], a[4096];

	(void)state;
	login("pin=246813&name=Kim", cookie, csrf, a, sizeof(a));
	assert_non_null(strstr(body_of(a), "\"official\":\"Kim\""));
	stub.rc = 0;
	stub.result = "{\"match\":1,\"throw\":2}";
	assert_int_equal(command(cookie, csrf, "{\"cmd\":\"correct\",\"throw\":2,\"reason\":\"seen\","
				 "\"events\":[{\"at\":\"catch\",\"by\":\"cy\"}]}", a, sizeof(a)), 200);
	assert_string_equal(body_of(a), "{\"ok\":true,\"result\":{\"match\":1,\"throw\":2}}");
	assert_string_equal(stub.got.official, "Kim");
	assert_string_equal(stub.got.reason, "seen");
	assert_int_equal(stub.got.events[0].player, 2);	/* "cy": Cy, seat b1 */
	/* No result: null. */
	stub.result = NULL;
	assert_int_equal(command(cookie, csrf, "{\"cmd\":\"undo\"}", a, sizeof(a)), 200);
	assert_string_equal(body_of(a), "{\"ok\":true,\"result\":null}");
	/* Without a name the session's official is "official". */
	login("pin=246813", cookie, csrf, a, sizeof(a));
	assert_non_null(strstr(body_of(a), "\"official\":\"official\""));
	assert_int_equal(command(cookie, csrf, "{\"cmd\":\"undo\"}", a, sizeof(a)), 200);
	assert_string_equal(stub.got.official, "official");
}

/* -EAGAIN: a question for the official, 409 with "ask":true; other errors
 * as before, without it. */
static void test_web_command_eagain_asks(void **state)
{
	char cookie[160], csrf[80], a[4096];

	(void)state;
	login("pin=246813&name=Kim", cookie, csrf, a, sizeof(a));
	stub.rc = -EAGAIN;
	stub.result = NULL;
	stub.err = "full_house with 4-4-4-1-3 scores 0: write 0?";
	assert_int_equal(command(cookie, csrf, "{\"cmd\":\"dice\",\"move\":{\"type\":\"turn\"}}", a, sizeof(a)), 409);
	assert_string_equal(body_of(a), "{\"error\":\"full_house with 4-4-4-1-3 scores 0: write 0?\",\"ask\":true}");
	stub.rc = -EBUSY;
	stub.err = "throw 3 is not under review";
	assert_int_equal(command(cookie, csrf, "{\"cmd\":\"confirm\",\"throw\":3}", a, sizeof(a)), 409);
	assert_string_equal(body_of(a), "{\"error\":\"throw 3 is not under review\"}");
	stub.err = NULL;
	/* A bad name never reaches the handler. */
	stub.got.kind = WEB_CMD_START;
	assert_int_equal(command(cookie, csrf, "{\"cmd\":\"call\",\"event\":{\"at\":\"catch\",\"by\":\"Zed\"}}",
				 a, sizeof(a)), 400);
	assert_string_equal(body_of(a), "{\"error\":\"event.by: not a player (Al, Bo, Cy, Di, a1, a2, b1 or b2)\"}");
	assert_int_equal(stub.got.kind, WEB_CMD_START);
}

/* GET /api/house: every field of struct bd_house, in RULES.md's order. */
static void test_web_house_lists_every_rule(void **state)
{
	char a[8192];
	size_t n;
	const struct web_house_rule *hr = web_house_rules(&n);

	(void)state;
	assert_int_equal(n, 10);
	assert_int_equal(exchange("GET /api/house HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
				  a, sizeof(a)), 200);
	for (size_t i = 0; i < n; i++) {
		char key[64];

		snprintf(key, sizeof(key), "{\"key\":\"%s\",\"type\":\"%s\"", hr[i].key, hr[i].type);
		assert_non_null(strstr(body_of(a), key));
	}
	assert_non_null(strstr(body_of(a), "\"key\":\"win_by\",\"type\":\"int\",\"default\":2,\"book\":2,"
			       "\"rule\":\"BD-W1\""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_web_command_carries_the_official_and_answers_ok_result),
		cmocka_unit_test(test_web_command_eagain_asks),
		cmocka_unit_test(test_web_house_lists_every_rule),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
