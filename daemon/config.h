/* Configuration (INI, libinih): daemon/config.c, config_write.c.
 * The file is read once into entries that keep their line numbers; each
 * module reads and checks its own section ([table], [sensors], [camera],
 * [web], [db], [house], ...) and names the line of anything wrong. Keys
 * nobody claimed are reported by dd_config_check_claimed(). */
#ifndef DYEREF_DAEMON_CONFIG_H
#define DYEREF_DAEMON_CONFIG_H

#include <stddef.h>


struct dd_config_entry {
	char *section;		/* owned by the config */
	char *key;		/* owned by the config */
	char *value;		/* owned by the config */
	int line;		/* 1-based line in path */
	int claimed;		/* a module read it */
};

struct dd_config {
	char *path;		/* owned; as given to dd_config_load */
	size_t n;		/* entries */
	size_t cap;		/* entries allocated */
	struct dd_config_entry *entries;	/* owned, in file order */
};

/* Reads an INI file. Returns 0; the -errno of opening or reading it
 * (-ENOENT, -EACCES, -EISDIR, ..., with "file: why" in err); -EINVAL for
 * bad syntax, a NUL byte or a line too long for inih (with "file:line:
 * why"). Free with dd_config_free() either way. */
int dd_config_load(struct dd_config *cfg, const char *path, char *err, size_t errlen);
/* Same, from a string (tests, the built-in defaults). */
int dd_config_load_string(struct dd_config *cfg, const char *name, const char *text,
			  char *err, size_t errlen);
void dd_config_free(struct dd_config *cfg);

/* The last value of section.key, marking it claimed; NULL when absent.
 * *line (may be NULL) gets its line number. The string stays owned by cfg. */
const char *dd_config_get(struct dd_config *cfg, const char *section, const char *key, int *line);

/* Typed getters: 0 and *out set; -ENOENT absent (out untouched); -EINVAL
 * with "file:line: section.key: why" in err when the value is malformed or
 * outside [min, max]. */
int dd_config_get_double(struct dd_config *cfg, const char *section, const char *key,
			 double min, double max, double *out, char *err, size_t errlen);
int dd_config_get_int(struct dd_config *cfg, const char *section, const char *key,
		      long min, long max, long *out, char *err, size_t errlen);
int dd_config_get_bool(struct dd_config *cfg, const char *section, const char *key,
		       int *out, char *err, size_t errlen);

/* For a section's reader that goes on past a bad value, so that every key
 * it knows is claimed (a later good key is not then "unknown"): rc is one
 * key's result, why its message. Returns first when that is already an
 * error or rc is not; otherwise rc, with why copied to err. */
int dd_config_keep_first(int first, int rc, const char *why, char *err, size_t errlen);

/* -EINVAL with "file:line: unknown key section.key" for the first entry
 * nobody claimed; 0 when all were. */
int dd_config_check_claimed(const struct dd_config *cfg, char *err, size_t errlen);

/* The file at path as `dyeref serve --check-config` checks it (every
 * module's section, every key nobody reads: daemon/cmd_serve.c), for the
 * commands that read only part of it. 0; the -errno of dd_config_load;
 * -ENOMEM; or -EINVAL with the first problem, "file:line: why", in err. */
int dd_config_check_file(const char *path, char *err, size_t errlen);

/* Sets keys[i] = values[i] in section of the INI file at path, keeping
 * every other line as it was: an existing key is replaced where it
 * stands, a missing one is added at the end of its section (the section
 * is created if absent; a missing file is created). Written to a
 * temporary file beside it, synced, renamed over it and the directory
 * synced: never half written, and the change survives a power cut once
 * this returns. A symbolic link is followed: its target is replaced, the
 * link stays. 0, or a negative errno with a message. */
int dd_config_set_keys(const char *path, const char *section, const char *const *keys,
		       const char *const *values, size_t n, char *err, size_t errlen);

/* Whether dd_config_set_keys could write path: a temporary file can be
 * made beside it (beside a link's target), and is removed again. For a
 * command that would otherwise fail only after the work (calibration's
 * taps). 0, or a negative errno with the message dd_config_set_keys would
 * give. */
int dd_config_check_writable(const char *path, char *err, size_t errlen);

/* A new temporary file beside path, mode 0600, its name in tmp (len
 * bytes): the new content is written there, then replaces path in one
 * rename(2), so a crash leaves either the old file or the new. The fd, or
 * a negative errno with a message. */
int dd_config_open_beside(const char *path, char *tmp, size_t len, char *err, size_t errlen);
/* fsync of the directory holding path, after a rename into it: the
 * rename itself is on disk, so a power cut after this returns cannot bring
 * back the old file (or none). 0 or a negative errno. */
int dd_config_sync_dir(const char *path);

#endif /* DYEREF_DAEMON_CONFIG_H */
