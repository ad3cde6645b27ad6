/*
 * A Beer Die log judged line by line (core mlog_bd_stream): the same
 * output and the same errors as the whole-log judge (mlog_bd_judge) for the
 * fixture logs, corrections included; no output before the end; a JSON
 * error always with a reason, also when jansson runs out of memory.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "core/core.h"

/* buf judged by the stream, passes over its lines as `dyeref judge`
 * makes them; *out malloc'd. 0 or the error. */
static int stream_judge(const char *name, const char *buf, size_t len, char **out,
			size_t *outlen, char *err, size_t errlen)
{
	struct mlog_bd_stream *s = mlog_bd_stream_new(name);
	FILE *o = open_memstream(out, outlen);
	int pass = MLOG_PASS_READ, rc = 0;
	const char *got;
	size_t gotlen;

	assert_non_null(s);
	assert_non_null(o);
	while (pass != MLOG_PASS_DONE) {
		size_t pos = 0;

		while (pos < len && !rc) {
			const char *nl = memchr(buf + pos, '\n', len - pos);
			size_t l = nl ? (size_t)(nl - buf - pos) : len - pos;

			rc = mlog_bd_stream_line(s, buf + pos, l, &got, &gotlen, err, errlen);
			if (!rc) {
				assert_true(pass == MLOG_PASS_WRITE || !got);
				if (gotlen)
					fwrite(got, 1, gotlen, o);
			}
			pos += l + (nl ? 1 : 0);
		}
		if (rc)
			break;
		pass = mlog_bd_stream_end(s, &got, &gotlen, err, errlen);
		if (pass < 0) {
			rc = pass;
			break;
		}
		if (pass == MLOG_PASS_DONE && gotlen)	/* fwrite's buffer may not be NULL */
			fwrite(got, 1, gotlen, o);
	}
	fclose(o);
	mlog_bd_stream_free(s);
	return rc;
}

/* The whole file (fixtures hold no NUL), malloc'd. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	assert_non_null(f);
	n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	*len = n > 0 ? (size_t)n : 0;
	return buf;
}

/* The whole-log judge: parse, then fold every throw (mlog_bd_judge). */
static int whole_judge(const char *name, const char *buf, size_t len, char **out,
		       size_t *outlen, char *err, size_t errlen)
{
	struct mlog_bd *log;
	char game[32];
	int rc = mlog_game(name, buf, len, game, sizeof(game), err, errlen);

	*out = NULL;
	if (rc)
		return rc;
	rc = mlog_bd_parse(name, buf, len, &log, err, errlen);
	if (rc)
		return rc;
	rc = mlog_bd_judge(log, out, outlen, err, errlen);
	mlog_bd_free(log);
	return rc;
}

/* Every Beer Die fixture of dir: the stream says what the whole judge
 * says, output or error, byte for byte. Returns how many were compared. */
static int compare_dir(const char *dir)
{
	const char *top = getenv("TOP");
	char path[1024];
	struct dirent *d;
	DIR *dp;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", dir);
	dp = opendir(path);
	assert_non_null(dp);
	while ((d = readdir(dp))) {
		char file[2048], err1[512] = "", err2[512] = "", game[32], *a = NULL, *b = NULL, *buf;
		size_t len, alen = 0, blen = 0;
		int r1, r2;

		if (!strstr(d->d_name, ".jsonl"))
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, d->d_name);
		buf = slurp(file, &len);
		if (!mlog_game(d->d_name, buf, len, game, sizeof(game), err1, sizeof(err1)) &&
		    strcmp(game, "beerdie")) {
			free(buf);
			continue;
		}
		r1 = whole_judge(d->d_name, buf, len, &a, &alen, err1, sizeof(err1));
		r2 = stream_judge(d->d_name, buf, len, &b, &blen, err2, sizeof(err2));
		assert_int_equal(r1, r2);
		if (r1) {
			assert_string_equal(err1, err2);
		} else {
			assert_int_equal(alen, blen);
			assert_memory_equal(a, b, alen);
		}
		free(a);
		free(b);
		free(buf);
		n++;
	}
	closedir(dp);
	return n;
}

static void test_stream_judges_the_fixtures_as_the_whole_judge(void **state)
{
	(void)state;
	assert_true(compare_dir("tests/data/judge") >= 5);
	assert_true(compare_dir("tests/data/judge-bad") >= 5);
}

#define MATCH "{\"type\":\"match\",\"game\":\"beerdie\",\"house\":{\"target_points\":1,\"win_by\":1}}\n"
#define SCORE "{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}\n"
#define CATCH "{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"catch\",\"by\":\"b1\"}]}\n"

static void test_a_late_correction_decides_earlier_rulings(void **state)
{
	/* Throw 2 comes after the end of the game, until the last line takes
	 * throw 1's point away: the log is valid, judged with the correction. */
	static const char good[] = MATCH SCORE CATCH
		"{\"type\":\"correct\",\"throw\":1,\"events\":[{\"at\":\"table\",\"half\":\"B\"},"
		"{\"at\":\"catch\",\"by\":\"b1\"}]}\n";
	static const char bad[] = MATCH CATCH CATCH
		"{\"type\":\"correct\",\"throw\":1,\"events\":[{\"at\":\"table\",\"half\":\"B\"},"
		"{\"at\":\"floor\"}]}\n";
	char err1[512] = "", err2[512] = "", *a = NULL, *b = NULL;
	size_t alen, blen;

	(void)state;
	assert_int_equal(whole_judge("g", good, strlen(good), &a, &alen, err1, sizeof(err1)), 0);
	assert_int_equal(stream_judge("g", good, strlen(good), &b, &blen, err2, sizeof(err2)), 0);
	assert_string_equal(a, b);
	assert_non_null(strstr(b, "\"throw\":1,") && strstr(b, "\"corrected\":true"));
	free(a);
	free(b);
	a = b = NULL;
	assert_int_equal(stream_judge("b", bad, strlen(bad), &b, &blen, err2, sizeof(err2)), -EINVAL);
	assert_string_equal(err2, "b:3: throw 2: after the end of the game (A won 1-0 with throw 1)");
	free(b);
}

static void test_every_json_error_gives_a_reason(void **state)
{
	static const char *const lines[] = {
		"{", "{\"type\":", "[1,", "{\"a\":1,\"a\":2}", "nul", "\"x", "{}}", "\xff\xfe",
		"{\"type\":\"throw\",\"events\":[{\"at\":\"table\"", "\t",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char buf[256], err[512] = "", *out = NULL;
		size_t outlen;
		const char *why;
		int rc;

		snprintf(buf, sizeof(buf), MATCH "%s\n", lines[i]);
		rc = stream_judge("j", buf, strlen(buf), &out, &outlen, err, sizeof(err));
		free(out);
		if (!strcmp(lines[i], "\t"))
			continue;	/* a blank line: no error */
		assert_int_equal(rc, -EINVAL);
		assert_true(!strncmp(err, "j:2: ", 5));
		why = strstr(err, "bad JSON: ");
		if (why)
			assert_true(strlen(why + strlen("bad JSON: ")) > 3);
		assert_null(strstr(err, "column -1"));
	}
}

static int fail_after;	/* allocations jansson may still make */

static void *failing_malloc(size_t n)
{
	return fail_after-- > 0 ? malloc(n) : NULL;
}

static void test_out_of_memory_in_json_says_so(void **state)
{
	static const char log[] = MATCH SCORE;
	char err[512] = "", *out = NULL;
	size_t outlen;
	int rc;

	(void)state;
	json_set_alloc_funcs(failing_malloc, free);
	fail_after = 0;
	rc = stream_judge("m", log, strlen(log), &out, &outlen, err, sizeof(err));
	json_set_alloc_funcs(malloc, free);
	free(out);
	assert_int_equal(rc, -ENOMEM);
	assert_string_equal(err, "m:1: out of memory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_judges_the_fixtures_as_the_whole_judge),
		cmocka_unit_test(test_a_late_correction_decides_earlier_rulings),
		cmocka_unit_test(test_every_json_error_gives_a_reason),
		cmocka_unit_test(test_out_of_memory_in_json_says_so),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
