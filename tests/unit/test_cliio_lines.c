/*
 * The line reader of `dyeref judge` (daemon/cliio.c, dd_lines): lines as
 * the codec numbers them, a line over the limit refused when its first
 * byte past the limit is read (the input behind it never read), every
 * error with a reason, and a second pass from the first line, also of an
 * input that cannot seek (a pipe, read again from its copy).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "daemon/cliio.h"

/* An input that counts what was read of it: n bytes of text, then
 * filler bytes ('x') up to total. */
struct counted {
	const char *text;
	size_t n, total, pos;
	size_t served;		/* bytes handed to the reader */
};

static ssize_t counted_read(void *cookie, char *buf, size_t size)
{
	struct counted *c = cookie;
	size_t k = 0;

	for (; k < size && c->pos < c->total; k++, c->pos++)
		buf[k] = c->pos < c->n ? c->text[c->pos] : 'x';
	c->served += k;
	return (ssize_t)k;
}

static FILE *counted_open(struct counted *c)
{
	cookie_io_functions_t io = { .read = counted_read };

	return fopencookie(c, "r", io);
}

/* All lines of text through a reader with limit max, joined by '|'. */
static int read_all_lines(const char *text, size_t max, char *dst, size_t dstlen,
			  char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct dd_lines *r;
	const char *line;
	size_t len, n = 0;
	int rc;

	assert_non_null(f);
	r = dd_lines_new(f, "t.jsonl", max);
	assert_non_null(r);
	dst[0] = 0;
	while ((rc = dd_lines_next(r, &line, &len, err, errlen)) == 1) {
		n += (size_t)snprintf(dst + n, dstlen - n, "%.*s|", (int)len, line);
		assert_true(n < dstlen);
	}
	dd_lines_free(r);
	fclose(f);
	return rc;
}

static void test_lines_split_as_the_codec_numbers_them(void **state)
{
	char got[256], err[256] = "";

	(void)state;
	assert_int_equal(read_all_lines("a\n\nbc\r\n  \nd", 8, got, sizeof(got), err, sizeof(err)), 0);
	assert_string_equal(got, "a||bc\r|  |d|");
	assert_int_equal(read_all_lines("a\n", 8, got, sizeof(got), err, sizeof(err)), 0);
	assert_string_equal(got, "a|");
	assert_int_equal(read_all_lines("", 8, got, sizeof(got), err, sizeof(err)), 0);
	assert_string_equal(got, "");
	assert_int_equal(read_all_lines("\n\n", 8, got, sizeof(got), err, sizeof(err)), 0);
	assert_string_equal(got, "||");
}

static void test_a_line_of_exactly_the_limit_passes(void **state)
{
	char got[256], err[256] = "";

	(void)state;
	assert_int_equal(read_all_lines("12345678\n12345678", 8, got, sizeof(got), err, sizeof(err)), 0);
	assert_string_equal(got, "12345678|12345678|");
}

static void test_the_first_byte_past_the_limit_is_refused_with_its_line(void **state)
{
	char got[256], err[256] = "";

	(void)state;
	assert_int_equal(read_all_lines("ok\n123456789\nok\n", 8, got, sizeof(got), err, sizeof(err)),
			 -EFBIG);
	assert_string_equal(got, "ok|");
	assert_string_equal(err, "t.jsonl:2: longer than 8 bytes, not a line of a match log");
	/* The last line, without its newline, counts the same. */
	assert_int_equal(read_all_lines("123456789", 8, got, sizeof(got), err, sizeof(err)), -EFBIG);
	assert_string_equal(err, "t.jsonl:1: longer than 8 bytes, not a line of a match log");
}

static void test_a_huge_line_is_refused_without_reading_it(void **state)
{
	/* 1 GiB of one line, limit 64 KiB: refused after reading about the
	 * limit and one chunk, never the gigabyte. */
	struct counted c = { .text = "{\"type\":\"match\"}\n", .total = (size_t)1 << 30 };
	const char *line;
	char err[256] = "";
	size_t len;
	FILE *f;
	struct dd_lines *r;

	(void)state;
	c.n = strlen(c.text);
	f = counted_open(&c);
	assert_non_null(f);
	r = dd_lines_new(f, "big", 64 * 1024);
	assert_non_null(r);
	assert_int_equal(dd_lines_next(r, &line, &len, err, sizeof(err)), 1);
	assert_int_equal(dd_lines_next(r, &line, &len, err, sizeof(err)), -EFBIG);
	assert_string_equal(err, "big:2: longer than 65536 bytes, not a line of a match log");
	assert_true(c.served <= 64 * 1024 + 1 + 64 * 1024 + BUFSIZ + c.n);
	dd_lines_free(r);
	fclose(f);
}

static void test_a_read_error_says_why(void **state)
{
	const char *line;
	char err[256] = "";
	size_t len;
	FILE *f = fopen(".", "r");	/* a directory: the read fails, EISDIR */
	struct dd_lines *r;

	(void)state;
	assert_non_null(f);
	r = dd_lines_new(f, "adir", 64);
	assert_non_null(r);
	assert_int_equal(dd_lines_next(r, &line, &len, err, sizeof(err)), -EISDIR);
	assert_string_equal(err, "adir: Is a directory");
	dd_lines_free(r);
	fclose(f);
}

/* Reads r to its end, joining lines with '|'. */
static void join(struct dd_lines *r, char *dst, size_t dstlen)
{
	const char *line;
	char err[256];
	size_t len, n = 0;

	dst[0] = 0;
	while (dd_lines_next(r, &line, &len, err, sizeof(err)) == 1)
		n += (size_t)snprintf(dst + n, dstlen - n, "%.*s|", (int)len, line);
}

static void test_a_second_pass_reads_the_same_lines(void **state)
{
	static const char text[] = "one\n\nthree\nfour";
	char first[64], second[64], err[256] = "";
	FILE *f = tmpfile();
	struct dd_lines *r;

	(void)state;
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	rewind(f);
	r = dd_lines_new(f, "file", 16);
	join(r, first, sizeof(first));
	assert_int_equal(dd_lines_rewind(r, err, sizeof(err)), 0);
	join(r, second, sizeof(second));
	assert_string_equal(first, "one||three|four|");
	assert_string_equal(second, first);
	assert_int_equal(dd_lines_no(r), 4);
	dd_lines_free(r);
	fclose(f);
}

static void test_a_pipe_is_read_again_from_its_copy(void **state)
{
	char first[8192], second[8192], err[256] = "", tmpdir[] = "/tmp/cliio-XXXXXX";
	int fds[2];
	FILE *f;
	struct dd_lines *r;

	(void)state;
	assert_non_null(mkdtemp(tmpdir));
	setenv("TMPDIR", tmpdir, 1);
	assert_int_equal(pipe(fds), 0);
	for (int i = 0; i < 500; i++) {
		char line[16];
		int n = snprintf(line, sizeof(line), "line %d\n", i);

		assert_int_equal(write(fds[1], line, (size_t)n), n);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	assert_non_null(f);
	r = dd_lines_new(f, "stdin", 64);
	join(r, first, sizeof(first));
	assert_int_equal(dd_lines_rewind(r, err, sizeof(err)), 0);
	join(r, second, sizeof(second));
	assert_int_equal(dd_lines_no(r), 500);
	assert_string_equal(second, first);
	assert_non_null(strstr(first, "|line 499|"));
	dd_lines_free(r);
	fclose(f);
	/* The copy was unlinked as soon as it was made: nothing is left. */
	assert_int_equal(rmdir(tmpdir), 0);
	unsetenv("TMPDIR");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_split_as_the_codec_numbers_them),
		cmocka_unit_test(test_a_line_of_exactly_the_limit_passes),
		cmocka_unit_test(test_the_first_byte_past_the_limit_is_refused_with_its_line),
		cmocka_unit_test(test_a_huge_line_is_refused_without_reading_it),
		cmocka_unit_test(test_a_read_error_says_why),
		cmocka_unit_test(test_a_second_pass_reads_the_same_lines),
		cmocka_unit_test(test_a_pipe_is_read_again_from_its_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
