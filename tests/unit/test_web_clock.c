/*
 * The web server's deadlines on its owner's clock (web_config.now_ns): an
 * event stream past stream_max_s, a request not in within 10 s of the
 * connection's opening or of its last answer, and a PIN lockout all end
 * when a fake clock is stepped, with no real waiting. The real server on
 * loopback; the loop is turned a bounded number of times, each poll at
 * most 20 ms: 5 s of them (times DYEREF_TEST_SLOWDOWN), a bound that only
 * catches a hang.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/support/slowdown.h"
#include "web/internal.h"
#include "web/web.h"

#define SEC_NS 1000000000LL
#define MS_NS 1000000LL
#define STREAM_MAX_S 60
#define PIN "246813"
#define TURN_MS 20		/* the longest poll of one turn of the loop */

struct fx {
	struct web_server *s;	/* owned */
	int64_t now_ns;		/* the fake clock */
	int fd;			/* the client's connection, or -1 */
	char got[8192];		/* what came back on fd */
	size_t len;
	bool eof;		/* the server closed fd */
};

static int64_t fake_now(void *user)
{
	return ((const struct fx *)user)->now_ns;
}

static int setup(void **state)
{
	static struct fx f;
	struct web_config cfg = { .bind = "127.0.0.1", .pin = PIN, .stream_max_s = STREAM_MAX_S,
				  .now_ns = fake_now, .clock_user = &f };
	struct web_handlers h = { 0 };
	char err[256];

	memset(&f, 0, sizeof(f));
	f.fd = -1;
	f.now_ns = 1000 * SEC_NS;
	f.s = web_server_new(&cfg, &h, NULL, err, sizeof(err));
	if (!f.s) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	*state = &f;
	return 0;
}

static void hang_up(struct fx *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	hang_up(f);
	web_server_free(f->s);
	return 0;
}

/* A new connection as the client (the last one hung up), sending req. */
static void dial(struct fx *f, const char *req)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(web_server_port(f->s)) };
	size_t n = strlen(req);

	hang_up(f);
	f->len = 0;
	f->got[0] = '\0';
	f->eof = false;
	assert_int_equal(inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr), 1);
	f->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(f->fd >= 0);
	assert_int_equal(connect(f->fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(write(f->fd, req, n), (ssize_t)n);
}

/* Turns of the loop waiting for one thing. */
static int turns(void)
{
	return dyt_slow_ms(5000) / TURN_MS;
}

/* One turn of the server's loop, then what the client has into f->got. */
static void turn(struct fx *f)
{
	struct pollfd p[2] = {
		{ .fd = web_server_fd(f->s), .events = POLLIN },
		{ .fd = f->fd, .events = POLLIN },
	};

	poll(p, 2, TURN_MS);
	assert_int_equal(web_server_process(f->s), 0);
	if (!f->eof && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
		ssize_t r = read(f->fd, f->got + f->len, sizeof(f->got) - 1 - f->len);

		if (r <= 0)
			f->eof = true;
		else
			f->len += (size_t)r;
		f->got[f->len] = '\0';
	}
}

/* Turns the loop until the client has got text (NULL: until the server
 * closed the connection), at most turns() times; whether it came. */
static bool turn_until(struct fx *f, const char *text)
{
	for (int i = 0, n = turns(); i < n; i++) {
		if (text ? strstr(f->got, text) != NULL : f->eof)
			return true;
		turn(f);
	}
	return text ? strstr(f->got, text) != NULL : f->eof;
}

/* A few turns in which nothing is due: the connection stays open. */
static void turn_idle(struct fx *f)
{
	for (int i = 0; i < 5; i++)
		turn(f);
	assert_false(f->eof);
}

static void test_web_stream_ends_at_stream_max_s_on_the_clock(void **state)
{
	struct fx *f = *state;

	dial(f, "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
	assert_true(turn_until(f, "retry: 2000"));
	assert_int_equal(web_server_sse_clients(f->s), 1);
	f->now_ns += STREAM_MAX_S * SEC_NS - MS_NS;
	turn_idle(f);
	assert_int_equal(web_server_sse_clients(f->s), 1);
	/* What is left of its life, for the loop's timer: 1 ms. */
	assert_true(web_server_timeout_ms(f->s) <= 1);
	f->now_ns += MS_NS;
	for (int i = 0, n = turns(); i < n && web_server_sse_clients(f->s) > 0; i++)
		turn(f);
	assert_int_equal(web_server_sse_clients(f->s), 0);
	/* The stream's last chunk: the page reconnects. */
	assert_true(turn_until(f, "\r\n0\r\n\r\n"));
}

/* A slow client: its request not in full 10 s after it connected. */
static void test_web_slow_request_cut_on_the_clock(void **state)
{
	struct fx *f = *state;

	dial(f, "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n");
	for (int i = 0, n = turns(); i < n && f->s->accepted == 0; i++)
		turn(f);
	assert_int_equal(f->s->accepted, 1);
	f->now_ns += 10 * SEC_NS - MS_NS;
	turn_idle(f);
	f->now_ns += MS_NS;
	assert_true(turn_until(f, NULL));
	assert_string_equal(f->got, "");
}

/* Kept alive after an answer: the next request has 10 s to come in. */
static void test_web_idle_keep_alive_cut_on_the_clock(void **state)
{
	struct fx *f = *state;

	dial(f, "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
	assert_true(turn_until(f, "\r\n\r\n"));
	assert_non_null(strstr(f->got, "HTTP/1.1 404"));
	f->now_ns += 10 * SEC_NS - MS_NS;
	turn_idle(f);
	f->now_ns += MS_NS;
	assert_true(turn_until(f, NULL));
}

/* POST /console/login with pin from 127.0.0.1 (an unknown device): the
 * answer's status. */
static int login(struct fx *f, const char *pin)
{
	char req[512];
	int status = 0;

	snprintf(req, sizeof(req), "POST /console/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
		 "Connection: close\r\nContent-Type: application/x-www-form-urlencoded\r\n"
		 "Content-Length: %zu\r\n\r\npin=%s", strlen("pin=") + strlen(pin), pin);
	dial(f, req);
	assert_true(turn_until(f, "\r\n\r\n"));
	assert_int_equal(sscanf(f->got, "HTTP/1.1 %d", &status), 1);
	return status;
}

/* WEB_LOGIN_FAILS wrong PINs lock the address out WEB_LOGIN_LOCK_S:
 * the right PIN waits until the clock has passed it. */
static void test_web_lockout_ends_on_the_clock(void **state)
{
	struct fx *f = *state;

	for (int i = 0; i < WEB_LOGIN_FAILS; i++) {
		assert_int_equal(login(f, "000000"), 403);
		f->now_ns += MS_NS;
	}
	assert_int_equal(login(f, PIN), 429);
	f->now_ns += (WEB_LOGIN_LOCK_S - 1) * SEC_NS;
	assert_int_equal(login(f, PIN), 429);
	f->now_ns += SEC_NS;
	assert_int_equal(login(f, PIN), 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_web_stream_ends_at_stream_max_s_on_the_clock, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_web_slow_request_cut_on_the_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_web_idle_keep_alive_cut_on_the_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_web_lockout_ends_on_the_clock, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
