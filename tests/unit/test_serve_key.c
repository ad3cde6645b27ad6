/*
 * The device key file (daemon/serve_key.c): what is written is read back
 * whole, 0600, with no temporary file left; a missing file is -ENOENT, and
 * every file that is not a secret key (short, long, empty, readable by
 * others, a directory) is refused with a line that says why, never taken.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "daemon/serve.h"
#include "web/web.h"

struct dir {
	char path[64];		/* a mkdtemp folder */
	char key[96];		/* its "dyeref.db.key" */
};

static void dir_new(struct dir *d)
{
	snprintf(d->path, sizeof(d->path), "/tmp/test_serve_key.XXXXXX");
	assert_non_null(mkdtemp(d->path));
	snprintf(d->key, sizeof(d->key), "%s/dyeref.db.key", d->path);
}

/* Entries of d's folder, "." and ".." not counted. */
static int dir_entries(const struct dir *d)
{
	DIR *dh = opendir(d->path);
	struct dirent *e;
	int n = 0;

	assert_non_null(dh);
	while ((e = readdir(dh)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dh);
	return n;
}

static void dir_free(struct dir *d)
{
	rmdir(d->key);
	unlink(d->key);
	assert_int_equal(rmdir(d->path), 0);
}

static void put(const char *path, const void *bytes, size_t n, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, n), (ssize_t)n);
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static void test_serve_key_written_is_read_back_whole_and_private(void **state)
{
	unsigned char key[WEB_DEVICE_KEY], got[WEB_DEVICE_KEY], other[WEB_DEVICE_KEY];
	char err[256];
	struct stat st;
	struct dir d;

	(void)state;
	dir_new(&d);
	for (int i = 0; i < WEB_DEVICE_KEY; i++)
		key[i] = (unsigned char)(i * 37 + 1), other[i] = (unsigned char)~key[i];
	assert_int_equal(dd_serve_key_read(d.key, got, err, sizeof(err)), -ENOENT);
	assert_int_equal(dd_serve_key_write(d.key, key, err, sizeof(err)), 0);
	assert_int_equal(stat(d.key, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(st.st_size, WEB_DEVICE_KEY);
	assert_int_equal(dd_serve_key_read(d.key, got, err, sizeof(err)), 0);
	assert_memory_equal(got, key, sizeof(key));
	/* Replaced, not appended; no temporary file beside it. */
	assert_int_equal(dd_serve_key_write(d.key, other, err, sizeof(err)), 0);
	assert_int_equal(dd_serve_key_read(d.key, got, err, sizeof(err)), 0);
	assert_memory_equal(got, other, sizeof(other));
	assert_int_equal(dir_entries(&d), 1);
	dir_free(&d);
}

static void test_serve_key_refuses_what_is_not_a_secret_key(void **state)
{
	static const struct {
		size_t n;		/* bytes */
		mode_t mode;
		int rc;
		const char *why;	/* in the message */
	} cases[] = {
		{ 5, 0600, -EINVAL, "5 bytes, want 32" },
		{ 0, 0600, -EINVAL, "0 bytes, want 32" },
		{ 31, 0600, -EINVAL, "31 bytes, want 32" },
		{ 33, 0600, -EINVAL, "over 32 bytes, want 32" },
		{ 4096, 0600, -EINVAL, "over 32 bytes, want 32" },
		{ 32, 0644, -EPERM, "open to group or others (mode 644, want 600)" },
		{ 32, 0640, -EPERM, "open to group or others (mode 640, want 600)" },
	};
	unsigned char bytes[4096], got[WEB_DEVICE_KEY], before[WEB_DEVICE_KEY];
	char err[256];
	struct dir d;

	(void)state;
	dir_new(&d);
	memset(bytes, 0x5a, sizeof(bytes));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		put(d.key, bytes, cases[i].n, cases[i].mode);
		memset(got, 0, sizeof(got));
		memset(before, 0, sizeof(before));
		err[0] = '\0';
		assert_int_equal(dd_serve_key_read(d.key, got, err, sizeof(err)), cases[i].rc);
		assert_non_null(strstr(err, cases[i].why));
		assert_non_null(strstr(err, d.key));
		assert_null(strchr(err, '\n'));
		assert_memory_equal(got, before, sizeof(got));	/* nothing taken */
		unlink(d.key);
	}
	assert_int_equal(mkdir(d.key, 0700), 0);
	assert_int_equal(dd_serve_key_read(d.key, got, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	/* Nothing replaces a directory, and nothing is left beside it. */
	assert_true(dd_serve_key_write(d.key, bytes, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "cannot replace it"));
	assert_int_equal(dir_entries(&d), 1);
	dir_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_serve_key_written_is_read_back_whole_and_private),
		cmocka_unit_test(test_serve_key_refuses_what_is_not_a_secret_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
