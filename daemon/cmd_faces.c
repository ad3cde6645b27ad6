/*
 * dyeref faces export --db FILE --out DIR: the dice the officials labelled
 * on the replay page (db_face_labels), each die's crop as a JPEG named
 * match-M-throw-K-die-I.jpg (I the snapshot's id) and labels.json in the
 * shared photo sets' format ({"NAME.jpg":{"width","height","dice":[{"face","x","y","w","h"}]}},
 * one die an image, boxes in its pixels), for `make face-net FACES=DIR`.
 * Written into a folder beside DIR and renamed to DIR once whole: an error
 * leaves no DIR (an empty one given stays empty).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/cliio.h"
#include "daemon/dbcli.h"
#include "daemon/daemon.h"
#include "db/db.h"
#include "vision/vision.h"

#define USAGE "faces export --db FILE --out DIR"

struct export {
	const char *db_path;	/* for messages */
	char tmp[PATH_MAX];	/* the folder being written */
	json_t *labels;		/* labels.json being built */
	size_t n;		/* crops written */
};

/* Writes len bytes of data to path (new). 0 or -errno with "path: why". */
static int write_file(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "wx");
	int e;

	if (!f) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (fwrite(data, 1, len, f) != len || fflush(f) || fsync(fileno(f))) {
		e = errno ? errno : EIO;
		fclose(f);
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (fclose(f)) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	return 0;
}

/* fsync()s folder dir, so that the names in it are on disk: 0, or -errno
 * with "dir: why". */
static int sync_dir(const char *dir, char *err, size_t errlen)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), e;

	if (fd < 0 || fsync(fd)) {
		e = errno;
		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "%s: %s", dir, strerror(e));
		return -e;
	}
	close(fd);
	return 0;
}

/* One labelled die: its crop (checked to decode, as stored rows are
 * hostile) and its entry. */
static int put_one(const struct db_face_label *l, void *ctx)
{
	struct export *x = ctx;
	struct vis_image *img = NULL;
	char name[96], path[PATH_MAX + 100], why[256];
	json_t *e;
	int rc;

	snprintf(name, sizeof(name), "match-%lld-throw-%d-die-%lld.jpg", (long long)l->match,
		 l->throw_no, (long long)l->snapshot);
	rc = vis_decode_jpeg(l->crop, l->crop_len, name, &img, why, sizeof(why));
	if (rc == 0 && (img->width != l->width || img->height != l->height))
		rc = -EINVAL;
	vis_image_free(img);
	if (rc) {
		dd_log(DD_LOG_ERR, "faces export: %s: face label %lld: its crop is not the JPEG it "
		       "should be", x->db_path, (long long)l->id);
		return rc == -ENOMEM ? rc : -EILSEQ;	/* said: err stays empty */
	}
	snprintf(path, sizeof(path), "%s/%s", x->tmp, name);
	rc = write_file(path, l->crop, l->crop_len, why, sizeof(why));
	if (rc) {
		dd_log(DD_LOG_ERR, "faces export: %s", why);
		return rc;
	}
	e = json_pack("{s:i,s:i,s:[{s:i,s:f,s:f,s:f,s:f}]}", "width", l->width, "height", l->height,
		      "dice", "face", l->face, "x", l->x, "y", l->y, "w", l->w, "h", l->h);
	if (!e || json_object_set_new(x->labels, name, e)) {
		dd_log(DD_LOG_ERR, "faces export: out of memory");
		return -ENOMEM;
	}
	x->n++;
	return 0;
}

/* Removes the folder being written and what is in it (only files). */
static void remove_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[PATH_MAX + 300];

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* DIR may be new or an empty folder (renamed over): 0, or exit 2 after
 * one line. */
static int out_ok(const char *out)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	bool empty = true;

	if (stat(out, &st)) {
		if (errno == ENOENT)
			return 0;
		dd_log(DD_LOG_ERR, "faces export: %s: %s", out, strerror(errno));
		return DD_EXIT_USAGE;
	}
	if (!S_ISDIR(st.st_mode)) {
		dd_log(DD_LOG_ERR, "faces export: %s: exists and is not a folder", out);
		return DD_EXIT_USAGE;
	}
	d = opendir(out);
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	if (d)
		closedir(d);
	if (!d || !empty) {
		dd_log(DD_LOG_ERR, "faces export: %s: %s", out,
		       d ? "not empty (give a new or empty folder)" : strerror(errno));
		return DD_EXIT_USAGE;
	}
	return 0;
}

/* The folder holding path (no trailing slash), in buf. */
static const char *parent_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	snprintf(buf, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return buf;
}

/* The folder to write in, beside out (so that the rename stays on its
 * file system): "PARENT/.BASE.XXXXXX" into tmp, out's trailing slashes
 * dropped into outp. 0, or exit 2 after one line. */
static int tmp_beside(const char *out, char *outp, size_t outlen, char *tmp, size_t tmplen)
{
	size_t n = strlen(out);
	char *slash;

	if (n + 32 >= outlen || n + 32 >= tmplen) {
		dd_log(DD_LOG_ERR, "faces export: --out: path too long");
		return DD_EXIT_USAGE;
	}
	memcpy(outp, out, n + 1);
	while (n > 1 && outp[n - 1] == '/')
		outp[--n] = '\0';
	slash = strrchr(outp, '/');
	int w;
	if (!slash)
		w = snprintf(tmp, tmplen, ".%s.XXXXXX", outp);
	else
		w = snprintf(tmp, tmplen, "%.*s/.%s.XXXXXX", (int)(slash - outp), outp, slash + 1);
	/* cannot happen after the length check above; said for the compiler */
	if (w < 0 || (size_t)w >= tmplen) {
		dd_log(DD_LOG_ERR, "faces export: --out: path too long");
		return DD_EXIT_USAGE;
	}
	if (!mkdtemp(tmp)) {
		dd_log(DD_LOG_ERR, "faces export: %s: cannot make a folder beside it: %s", out,
		       strerror(errno));
		return DD_EXIT_USAGE;
	}
	/* mkdtemp's 0700 is for the folder while it is written; DIR is as
	 * mkdir would make it. */
	mode_t mask = umask(0);

	umask(mask);
	chmod(tmp, 0777 & ~mask);
	return 0;
}

static int faces_export(int argc, char **argv)
{
	struct dd_db_args a;
	struct export x = { 0 };
	struct db *db;
	char err[512] = "", out[PATH_MAX], path[PATH_MAX + 20], *text;
	int help, status, rc;

	status = dd_db_args("faces export", USAGE, "do", argc, argv, &a, &help);
	if (status || help)
		return status;
	status = out_ok(a.out);
	if (status)
		return status;
	db = dd_db_open("faces export", a.db, DB_OPEN_NOCHECK, &status);
	if (!db)
		return status;
	x.db_path = a.db;
	status = tmp_beside(a.out, out, sizeof(out), x.tmp, sizeof(x.tmp));
	if (status) {
		db_close(db);
		return status;
	}
	x.labels = json_object();
	rc = x.labels ? db_face_labels(db, 0, 0, put_one, &x, err, sizeof(err)) : -ENOMEM;
	db_close(db);
	if (rc == 0) {
		snprintf(path, sizeof(path), "%s/labels.json", x.tmp);
		text = json_dumps(x.labels, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(6));
		rc = text ? write_file(path, text, strlen(text), err, sizeof(err)) : -ENOMEM;
		free(text);
	}
	json_decref(x.labels);
	/* The files' names on disk before the folder takes DIR's, and the
	 * rename on disk before "written" is said. */
	if (rc == 0)
		rc = sync_dir(x.tmp, err, sizeof(err));
	if (rc == 0 && rename(x.tmp, out)) {
		rc = -errno;
		snprintf(err, sizeof(err), "%s: %s", a.out, strerror(errno));
	}
	if (rc == 0)
		rc = sync_dir(parent_of(out, path, sizeof(path)), err, sizeof(err));
	if (rc) {
		/* put_one said why itself; the store and the files say it in err. */
		if (err[0] || rc == -ENOMEM)
			dd_log(DD_LOG_ERR, "faces export: %s", err[0] ? err : "out of memory");
		remove_tmp(x.tmp);
		return rc == -ENOMEM || rc == -EIO || rc == -ENOSPC ? DD_EXIT_FAIL : DD_EXIT_USAGE;
	}
	printf("faces export: %zu labelled dice in %s\n", x.n, a.out);
	return DD_EXIT_OK;
}

int dd_cmd_faces(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: dyeref %s\n", USAGE);
		return DD_EXIT_OK;
	}
	if (argc < 2 || strcmp(argv[1], "export")) {
		dd_log(DD_LOG_ERR, "faces: %s (usage: dyeref %s)",
		       argc < 2 ? "what to do is required: export" : "unknown action", USAGE);
		return DD_EXIT_USAGE;
	}
	return faces_export(argc - 1, argv + 1);
}
