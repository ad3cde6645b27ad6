/*
 * Event streams per client (web/sse.c, web_sse_open): counted as the PIN
 * lockout counts, per address and per IPv6 /64 with a larger budget. The
 * real server on loopback, behind itself as the trusted proxy, so that
 * X-Forwarded-For names the IPv6 clients a test cannot bind.
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
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "web/internal.h"
#include "web/web.h"

#define MAX_FDS (WEB_SSE_PER_NET + 4 * WEB_SSE_PER_CLIENT + 4)

struct fx {
	struct web_server *s;	/* owned */
	int fds[MAX_FDS];	/* client connections, left open */
	size_t n_fds;
};

static int setup(void **state)
{
	static struct fx f;
	struct web_config cfg = { .bind = "127.0.0.1", .trusted_proxy = "127.0.0.1", .pin = "246813" };
	struct web_handlers h = { 0 };
	char err[256];

	memset(&f, 0, sizeof(f));
	f.s = web_server_new(&cfg, &h, NULL, err, sizeof(err));
	if (!f.s) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	for (size_t i = 0; i < f->n_fds; i++)
		close(f->fds[i]);
	web_server_free(f->s);
	return 0;
}

/* Sends one raw request on a new connection, left open (a stream counts
 * while it is), and returns the answer's status; head (when not NULL, of
 * headlen) gets what came of the answer. The server's loop is turned until
 * the head is in, a bounded number of times. */
static int exchange(struct fx *f, const char *req, char *head, size_t headlen)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(web_server_port(f->s)) };
	char buf[1024];
	size_t len = 0, n = strlen(req);
	int fd, status = 0;

	assert_true(f->n_fds < MAX_FDS);
	assert_int_equal(inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr), 1);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	f->fds[f->n_fds++] = fd;
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(write(fd, req, n), (ssize_t)n);
	buf[0] = '\0';
	for (int i = 0; i < 500 && !strstr(buf, "\r\n\r\n"); i++) {
		struct pollfd p[2] = {
			{ .fd = web_server_fd(f->s), .events = POLLIN },
			{ .fd = fd, .events = POLLIN },
		};
		int64_t wait_ms = web_server_timeout_ms(f->s);

		poll(p, 2, wait_ms < 0 || wait_ms > 50 ? 50 : (int)wait_ms);
		assert_int_equal(web_server_process(f->s), 0);
		if (p[1].revents & POLLIN) {
			ssize_t r = read(fd, buf + len, sizeof(buf) - 1 - len);

			assert_true(r > 0);
			len += (size_t)r;
			buf[len] = '\0';
		}
	}
	assert_int_equal(sscanf(buf, "HTTP/1.1 %d", &status), 1);
	if (head)
		snprintf(head, headlen, "%s", buf);
	return status;
}

/* Opens GET /api/events for the client the trusted proxy names in
 * X-Forwarded-For (cookie: a session's "dyeref_session=..." or NULL). */
static int open_stream_as(struct fx *f, const char *client, const char *cookie)
{
	char req[512];

	snprintf(req, sizeof(req), "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: %s\r\n"
		 "%s%s%s\r\n", client, cookie ? "Cookie: " : "", cookie ? cookie : "", cookie ? "\r\n" : "");
	return exchange(f, req, NULL, 0);
}

static int open_stream(struct fx *f, const char *client)
{
	return open_stream_as(f, client, NULL);
}

/* The watchdog's witness (web_server_accepting): a connection left in the
 * backlog with nothing accepted is a wedge once it has waited the limit,
 * and taking it clears that. The server's loop is not turned until then:
 * the kernel holds the connection as it would for a wedged server. */
static void test_web_server_accepting_false_once_a_backlog_waits(void **state)
{
	struct fx *f = *state;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(web_server_port(f->s)) };
	int fd;

	assert_true(web_server_accepting(f->s, 0, 5000));
	assert_true(web_server_accepting(f->s, 60000, 5000));	/* nobody waits: alive */
	assert_int_equal(inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr), 1);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	f->fds[f->n_fds++] = fd;
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_true(web_server_accepting(f->s, 100000, 5000));	/* waiting since now */
	assert_true(web_server_accepting(f->s, 104999, 5000));
	assert_false(web_server_accepting(f->s, 105000, 5000));
	assert_false(web_server_accepting(f->s, 200000, 5000));
	for (int i = 0; i < 500 && f->s->accepted == 0; i++) {
		struct pollfd p = { .fd = web_server_fd(f->s), .events = POLLIN };

		poll(&p, 1, 50);
		assert_int_equal(web_server_process(f->s), 0);
	}
	assert_int_equal(f->s->accepted, 1);
	assert_true(web_server_accepting(f->s, 200001, 5000));
}

/* A bar's Wi-Fi is one /64: a player's phone opening streams until it is
 * refused leaves the wall screen beside it its own WEB_SSE_PER_CLIENT. */
static void test_web_sse_two_addresses_of_one_64_each_get_their_own(void **state)
{
	struct fx *f = *state;

	for (int i = 0; i < WEB_SSE_PER_CLIENT; i++)
		assert_int_equal(open_stream(f, "2001:db8:1:2::b"), 200);
	assert_int_equal(open_stream(f, "2001:db8:1:2::b"), 429);
	for (int i = 0; i < WEB_SSE_PER_CLIENT; i++)
		assert_int_equal(open_stream(f, "2001:db8:1:2::a"), 200);
	assert_int_equal(open_stream(f, "2001:db8:1:2::a"), 429);
	assert_int_equal(web_server_sse_clients(f->s), 2 * WEB_SSE_PER_CLIENT);
}

/* One host rotating through its /64's addresses gets WEB_SSE_PER_NET
 * streams in all, not WEB_SSE_PER_CLIENT an address; another /64 and an
 * IPv4 client are not held back by it. */
static void test_web_sse_64_has_a_cap_of_its_own(void **state)
{
	struct fx *f = *state;
	char ip[48];

	for (int i = 0; i < WEB_SSE_PER_NET; i++) {
		snprintf(ip, sizeof(ip), "2001:db8:5:6::%x", i / WEB_SSE_PER_CLIENT + 1);
		assert_int_equal(open_stream(f, ip), 200);
	}
	assert_int_equal(open_stream(f, "2001:db8:5:6::ffff"), 429);
	assert_int_equal(open_stream(f, "2001:db8:5:7::1"), 200);
	assert_int_equal(open_stream(f, "198.51.100.7"), 200);
	assert_int_equal(web_server_sse_clients(f->s), WEB_SSE_PER_NET + 2);
}

/* The official logs in from the bar's /64 after a player filled its
 * streams from rotating addresses: the console, logged in, still gets its
 * stream (its own address's budget holds); the player still does not. */
static void test_web_sse_console_is_not_held_by_its_64(void **state)
{
	struct fx *f = *state;
	char ip[48], head[1024], cookie[160], *p;
	const char *login = "POST /console/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
			    "X-Forwarded-For: 2001:db8:5:6::abc\r\n"
			    "Content-Type: application/x-www-form-urlencoded\r\n"
			    "Content-Length: 10\r\n\r\npin=246813";

	for (int i = 0; i < WEB_SSE_PER_NET; i++) {
		snprintf(ip, sizeof(ip), "2001:db8:5:6::%x", i / WEB_SSE_PER_CLIENT + 1);
		assert_int_equal(open_stream(f, ip), 200);
	}
	assert_int_equal(open_stream(f, "2001:db8:5:6::abc"), 429);
	assert_int_equal(exchange(f, login, head, sizeof(head)), 200);
	p = strstr(head, "Set-Cookie: ");
	assert_non_null(p);
	snprintf(cookie, sizeof(cookie), "%.*s", (int)strcspn(p + 12, ";\r"), p + 12);
	assert_int_equal(open_stream_as(f, "2001:db8:5:6::abc", cookie), 200);
	assert_int_equal(open_stream_as(f, "2001:db8:5:6::abc", "dyeref_session=00"), 429);
	assert_int_equal(open_stream(f, "2001:db8:5:6::ffff"), 429);
	for (int i = 1; i < WEB_SSE_PER_CLIENT; i++)
		assert_int_equal(open_stream_as(f, "2001:db8:5:6::abc", cookie), 200);
	assert_int_equal(open_stream_as(f, "2001:db8:5:6::abc", cookie), 429);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_web_server_accepting_false_once_a_backlog_waits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_web_sse_two_addresses_of_one_64_each_get_their_own,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_web_sse_64_has_a_cap_of_its_own, setup, teardown),
		cmocka_unit_test_setup_teardown(test_web_sse_console_is_not_held_by_its_64, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
