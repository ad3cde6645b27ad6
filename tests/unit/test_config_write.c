/*
 * dd_config_set_keys (daemon/config_write.c) beyond its text: a symlinked
 * config is written through to its target (the link stays), and the
 * directory holding the file is fsynced after the rename. fsync is wrapped
 * (linked with -Wl,--wrap=fsync, daemon/module.mk) to see what was synced.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "daemon/daemon.h"
#include "daemon/config.h"

int __real_fsync(int fd);
int __wrap_fsync(int fd);

static dev_t synced_dir_dev;	/* the last directory fsynced */
static ino_t synced_dir_ino;
static int synced_files;	/* regular files fsynced */

int __wrap_fsync(int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			synced_dir_dev = st.st_dev;
			synced_dir_ino = st.st_ino;
		} else if (S_ISREG(st.st_mode)) {
			synced_files++;
		}
	}
	return __real_fsync(fd);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[4096];
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int entries(const char *dir)
{
	char cmd[128];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A %s | wc -l", dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%d", &n), 1);
	pclose(p);
	return n;
}

static void rm_rf(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static const char *keys[] = { "wave_speed" }, *vals[] = { "431.5" };

/* /etc/dyeref.conf -> /srv/.../dyeref.conf as an installer sets it up:
 * the target gets the new key, the link is still a link to it (it was
 * once replaced by a plain file, leaving the target stale). */
static void test_dd_config_set_keys_writes_through_a_symlink(void **state)
{
	char dir[] = "/tmp/dyeref-cfgw-XXXXXX", etc[64], srv[64], link[96], target[96], err[256];
	char got[PATH_MAX];
	struct stat st;
	ssize_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(etc, sizeof(etc), "%s/etc", dir);
	snprintf(srv, sizeof(srv), "%s/srv", dir);
	assert_int_equal(mkdir(etc, 0755), 0);
	assert_int_equal(mkdir(srv, 0755), 0);
	snprintf(target, sizeof(target), "%s/dyeref.conf", srv);
	snprintf(link, sizeof(link), "%s/dyeref.conf", etc);
	spit(target, "[sensors]\nwave_speed = 400\n");
	assert_int_equal(chmod(target, 0640), 0);
	assert_int_equal(symlink(target, link), 0);

	synced_dir_ino = 0;
	assert_int_equal(dd_config_set_keys(link, "sensors", keys, vals, 1, err, sizeof(err)), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	n = readlink(link, got, sizeof(got) - 1);
	assert_true(n > 0);
	got[n] = '\0';
	assert_string_equal(got, target);
	assert_string_equal(slurp(target), "[sensors]\nwave_speed = 431.5\n");
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(entries(etc), 1);	/* the link only: no temporary */
	assert_int_equal(entries(srv), 1);
	/* the directory synced is the target's, where the rename happened */
	assert_int_equal(stat(srv, &st), 0);
	assert_true(synced_dir_ino == st.st_ino && synced_dir_dev == st.st_dev);
	rm_rf(dir);
}

/* A relative link, through a second link, and one whose target does not
 * exist yet (created there). */
static void test_dd_config_set_keys_follows_relative_and_dangling_links(void **state)
{
	char dir[] = "/tmp/dyeref-cfgw-XXXXXX", a[64], b[64], sub[64], real[96], err[256];
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(real, sizeof(real), "%s/real.conf", sub);
	snprintf(a, sizeof(a), "%s/a.conf", dir);
	snprintf(b, sizeof(b), "%s/b.conf", dir);
	spit(real, "[web]\nport = 1\n");
	assert_int_equal(symlink("sub/real.conf", b), 0);	/* relative to dir */
	assert_int_equal(symlink("b.conf", a), 0);
	assert_int_equal(dd_config_set_keys(a, "sensors", keys, vals, 1, err, sizeof(err)), 0);
	assert_string_equal(slurp(real), "[web]\nport = 1\n\n[sensors]\nwave_speed = 431.5\n");
	assert_int_equal(lstat(a, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(b, &st), 0);
	assert_true(S_ISLNK(st.st_mode));

	unlink(real);
	assert_int_equal(dd_config_set_keys(a, "sensors", keys, vals, 1, err, sizeof(err)), 0);
	assert_int_equal(lstat(real, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_string_equal(slurp(real), "\n[sensors]\nwave_speed = 431.5\n");
	assert_int_equal(lstat(a, &st), 0);
	assert_true(S_ISLNK(st.st_mode));

	/* a loop of links: an error naming the file, nothing written */
	unlink(a);
	unlink(b);
	assert_int_equal(symlink("b.conf", a), 0);
	assert_int_equal(symlink("a.conf", b), 0);
	assert_int_equal(dd_config_set_keys(a, "sensors", keys, vals, 1, err, sizeof(err)), -ELOOP);
	assert_non_null(strstr(err, a));
	rm_rf(dir);
}

/* A plain file: the new file is synced, then its directory (the rename
 * is what a power cut would otherwise lose). */
static void test_dd_config_set_keys_syncs_the_directory_after_rename(void **state)
{
	char dir[] = "/tmp/dyeref-cfgw-XXXXXX", path[64], err[256];
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/dyeref.conf", dir);
	spit(path, "[sensors]\n");
	synced_dir_ino = 0;
	synced_files = 0;
	assert_int_equal(dd_config_set_keys(path, "sensors", keys, vals, 1, err, sizeof(err)), 0);
	assert_int_equal(synced_files, 1);
	assert_int_equal(stat(dir, &st), 0);
	assert_true(synced_dir_ino == st.st_ino && synced_dir_dev == st.st_dev);
	rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dd_config_set_keys_writes_through_a_symlink),
		cmocka_unit_test(test_dd_config_set_keys_follows_relative_and_dangling_links),
		cmocka_unit_test(test_dd_config_set_keys_syncs_the_directory_after_rename),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
