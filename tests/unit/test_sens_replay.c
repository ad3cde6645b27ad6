/* Recorded edge files (sensors/replay.c): the format, and a clear
 * "file:line: why" for every kind of hostile input. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sensors/sensors.h"

static void test_sens_edges_parse_accepts_comments_blanks_tabs_crlf(void **state)
{
	static const char text[] =
		"# dyeref edges: ts_ns line\n"
		"\n"
		"1000 17\n"
		"  1500\t22   # table2\r\n"
		"1500 27\n"
		"9223372036854775807 4095";	/* no final newline */
	struct sens_edge *e;
	size_t n;
	char err[200];

	(void)state;
	assert_int_equal(sens_edges_parse("t.edges", text, strlen(text), &e, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 4);
	assert_int_equal(e[0].ts_ns, 1000);
	assert_int_equal(e[0].line, 17);
	assert_int_equal(e[1].ts_ns, 1500);
	assert_int_equal(e[1].line, 22);
	assert_int_equal(e[2].line, 27);
	assert_int_equal(e[3].ts_ns, INT64_MAX);
	assert_int_equal(e[3].line, 4095);
	free(e);

	assert_int_equal(sens_edges_parse("empty", "", 0, &e, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	assert_null(e);
}

static void expect_error(const char *text, size_t len, const char *msg)
{
	struct sens_edge *e = (void *)1;
	size_t n = 99;
	char err[200] = "";

	assert_int_equal(sens_edges_parse("rec.edges", text, len, &e, &n, err, sizeof(err)), -EINVAL);
	assert_null(e);
	assert_int_equal(n, 0);
	assert_string_equal(err, msg);
}

static void test_sens_edges_parse_errors_name_file_and_line(void **state)
{
	char big[400];

	(void)state;
	expect_error("1 17\n2 x\n", 9,
		     "rec.edges:2: expected 'TS_NS LINE' (a GPIO line offset second)");
	expect_error("1 17\nabc 3\n", 11,
		     "rec.edges:2: expected 'TS_NS LINE' (a timestamp in ns first)");
	expect_error("-5 17\n", 6,
		     "rec.edges:1: expected 'TS_NS LINE' (a timestamp in ns first)");
	expect_error("10 17\n9 17\n", 10,
		     "rec.edges:2: timestamp 9 goes backwards (previous 10)");
	expect_error("10 4096\n", 8, "rec.edges:1: line offset is above 4095");
	expect_error("9223372036854775808 1\n", 22, "rec.edges:1: timestamp is beyond 2^63 ns");
	expect_error("10 17 18\n", 9, "rec.edges:1: unexpected text after 'TS_NS LINE'");
	expect_error("10\n", 3,
		     "rec.edges:1: expected 'TS_NS LINE': the timestamp must be digits followed by a space");
	expect_error("10x 17\n", 7,
		     "rec.edges:1: expected 'TS_NS LINE': the timestamp must be digits followed by a space");
	expect_error("1 2\n3 4\0\n", 9, "rec.edges:2: NUL byte: not a text edge file");
	memset(big, '1', sizeof(big));
	expect_error(big, sizeof(big), "rec.edges:1: line longer than 256 bytes");
}

static void assert_same_edges(const struct sens_edge *a, const struct sens_edge *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(a[i].line, b[i].line);
		assert_int_equal(a[i].ts_ns, b[i].ts_ns);
	}
}

static void test_sens_edges_write_then_parse_round_trips(void **state)
{
	struct sens_edge in[3] = { { 17, 1 }, { 22, 1000000000123LL }, { 4095, INT64_MAX } }, *out;
	char path[] = "/tmp/dyeref-edges-XXXXXX", buf[256], err[200];
	int fd = mkstemp(path);
	ssize_t len;
	size_t n;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(sens_edges_write(fd, in, 3), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	len = read(fd, buf, sizeof(buf));
	close(fd);
	assert_true(len > 0);
	assert_int_equal(sens_edges_parse(path, buf, (size_t)len, &out, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_same_edges(in, out, 3);
	free(out);

	/* and the same through a replay source */
	struct sens_source *s = sens_replay_open(path, err, sizeof(err));
	struct sens_edge got[8];
	bool eof = false;

	assert_non_null(s);
	assert_int_equal(sens_source_read(s, got, 2, &eof, err, sizeof(err)), 2);
	assert_false(eof);
	assert_int_equal(sens_source_read(s, got + 2, 8, &eof, err, sizeof(err)), 1);
	assert_true(eof);
	assert_same_edges(in, got, 3);
	sens_source_close(s);
	unlink(path);
}

static void test_sens_replay_open_errors(void **state)
{
	char path[] = "/tmp/dyeref-edges-XXXXXX", err[200];
	int fd;

	(void)state;
	errno = 0;
	assert_null(sens_replay_open("/nonexistent/x.edges", err, sizeof(err)));
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, "/nonexistent/x.edges: No such file or directory");

	assert_null(sens_replay_open("/tmp", err, sizeof(err)));
	assert_int_equal(errno, EISDIR);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "5 17\n4 17\n", 10), 10);
	close(fd);
	assert_null(sens_replay_open(path, err, sizeof(err)));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, ":2: timestamp 4 goes backwards"));
	unlink(path);
}

static void test_sens_memory_source_fd_readable_while_edges_wait(void **state)
{
	struct sens_edge e[2] = { { 1, 10 }, { 2, 20 } }, got[2];
	struct sens_source *s = sens_memory_open(e, 1);
	char err[100];
	bool eof;

	(void)state;
	assert_non_null(s);
	assert_int_equal(sens_source_push(s, e + 1, 1), 0);
	assert_int_equal(sens_source_read(s, got, 2, &eof, err, sizeof(err)), 2);
	assert_true(eof);
	assert_int_equal(got[1].line, 2);
	assert_int_equal(sens_source_read(s, got, 2, &eof, err, sizeof(err)), 0);
	{
		uint64_t v;
		/* drained: the descriptor is not readable */
		assert_int_equal(read(sens_source_fd(s), &v, sizeof(v)), -1);
		assert_int_equal(errno, EAGAIN);
	}
	sens_source_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sens_edges_parse_accepts_comments_blanks_tabs_crlf),
		cmocka_unit_test(test_sens_edges_parse_errors_name_file_and_line),
		cmocka_unit_test(test_sens_edges_write_then_parse_round_trips),
		cmocka_unit_test(test_sens_replay_open_errors),
		cmocka_unit_test(test_sens_memory_source_fd_readable_while_edges_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
