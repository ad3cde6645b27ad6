/* dd_config: an INI file read into entries that remember their lines. */
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "daemon/daemon.h"
#include "daemon/config.h"

/* Debian's inih calls handlers without line numbers, so the reader counts
 * lines itself: inih reads one line per call and hands over its entry
 * before reading the next. */
struct load_ctx {
	struct dd_config *cfg;	/* being filled */
	FILE *file;		/* the source: a file, or */
	const char *text;	/* the rest of a string */
	int line;		/* lines read so far */
	int too_long;		/* line number of an over-long line, or 0 */
	int nul;		/* line number of a NUL byte, or 0 */
	size_t bytes;		/* bytes read so far */
	int too_big;		/* line number where the size limit was passed, or 0 */
	int read_errno;		/* reading the file failed: why, or 0 */
	int oom;		/* an allocation failed: stop */
};

/* A configuration is a page of keys: a file larger than this is not one
 * (a log, /dev/zero, ...), and reading on would only take time. */
#define CONFIG_MAX_BYTES (1024 * 1024)

static int next_char(struct load_ctx *ctx)
{
	int c;

	if (!ctx->file)
		return *ctx->text ? (unsigned char)*ctx->text++ : EOF;
	c = getc(ctx->file);
	if (c == EOF && ferror(ctx->file) && !ctx->read_errno)
		ctx->read_errno = errno ? errno : EIO;
	return c;
}

/* fgets() for inih, over a file or a string, noting what fgets cannot
 * tell: a NUL byte (inih would cut the line there) and a line longer
 * than inih's buffer (it would read the rest as further lines). */
static char *read_line(char *buf, int size, void *stream)
{
	struct load_ctx *ctx = stream;
	int n = 0, c;

	/* The first NUL byte, over-long line or the size limit ends the
	 * reading: the file is refused for it, whatever follows. */
	if (ctx->nul || ctx->too_long || ctx->too_big)
		return NULL;
	if (ctx->bytes >= CONFIG_MAX_BYTES) {
		ctx->too_big = ctx->line + 1;
		return NULL;
	}
	while (n < size - 1 && (c = next_char(ctx)) != EOF) {
		ctx->bytes++;
		if (c == '\0' && !ctx->nul)
			ctx->nul = ctx->line + 1;
		buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (n == 0)
		return NULL;
	buf[n] = '\0';
	ctx->line++;
	if (n == size - 1 && buf[n - 1] != '\n' && !ctx->too_long)
		ctx->too_long = ctx->line;
	return buf;
}

static int on_entry(void *user, const char *section, const char *key, const char *value)
{
	struct load_ctx *ctx = user;
	int line = ctx->line;
	struct dd_config *cfg = ctx->cfg;
	struct dd_config_entry *grown, *e;

	/* Doubling: a file of a hundred thousand short lines must not copy
	 * the table once per line. */
	if (cfg->n == cfg->cap) {
		size_t cap = cfg->cap ? 2 * cfg->cap : 32;

		grown = realloc(cfg->entries, cap * sizeof(*grown));
		if (!grown)
			goto out_of_memory;
		cfg->entries = grown;
		cfg->cap = cap;
	}
	e = &cfg->entries[cfg->n];
	memset(e, 0, sizeof(*e));
	e->section = strdup(section);
	e->key = strdup(key);
	e->value = strdup(value);
	e->line = line;
	cfg->n++;
	if (!e->section || !e->key || !e->value)
		goto out_of_memory;
	return 1;

out_of_memory:
	ctx->oom = 1;
	return 0;
}

static int parse(struct load_ctx *ctx, char *err, size_t errlen)
{
	struct dd_config *cfg = ctx->cfg;
	int rc = ini_parse_stream(read_line, ctx, on_entry, ctx);

	if (ctx->oom) {
		snprintf(err, errlen, "%s: out of memory", cfg->path);
		return -ENOMEM;
	}
	if (ctx->read_errno) {
		snprintf(err, errlen, "%s: %s", cfg->path, strerror(ctx->read_errno));
		return -ctx->read_errno;
	}
	if (ctx->nul) {
		snprintf(err, errlen, "%s:%d: a NUL byte: not a text file", cfg->path, ctx->nul);
		return -EINVAL;
	}
	if (ctx->too_big) {
		snprintf(err, errlen, "%s:%d: larger than %d bytes: not a configuration file",
			 cfg->path, ctx->too_big, CONFIG_MAX_BYTES);
		return -EINVAL;
	}
	if (ctx->too_long) {
		snprintf(err, errlen, "%s:%d: line longer than %d bytes", cfg->path,
			 ctx->too_long, INI_MAX_LINE - 2);
		return -EINVAL;
	}
	if (rc > 0) {
		snprintf(err, errlen, "%s:%d: not a 'key = value' line or a [section]", cfg->path, rc);
		return -EINVAL;
	}
	return 0;
}

int dd_config_load(struct dd_config *cfg, const char *path, char *err, size_t errlen)
{
	struct load_ctx ctx = { .cfg = cfg };
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	cfg->path = strdup(path);
	if (!cfg->path) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	ctx.file = fopen(path, "r");
	if (!ctx.file) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	rc = parse(&ctx, err, errlen);
	fclose(ctx.file);
	return rc;
}

int dd_config_load_string(struct dd_config *cfg, const char *name, const char *text,
			  char *err, size_t errlen)
{
	struct load_ctx ctx = { .cfg = cfg, .text = text };

	memset(cfg, 0, sizeof(*cfg));
	cfg->path = strdup(name);
	if (!cfg->path) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	return parse(&ctx, err, errlen);
}

void dd_config_free(struct dd_config *cfg)
{
	for (size_t i = 0; i < cfg->n; i++) {
		free(cfg->entries[i].section);
		free(cfg->entries[i].key);
		free(cfg->entries[i].value);
	}
	free(cfg->entries);
	free(cfg->path);
	memset(cfg, 0, sizeof(*cfg));
}

static struct dd_config_entry *find(struct dd_config *cfg, const char *section, const char *key)
{
	/* The last one wins, as when a later line overrides an earlier one. */
	for (size_t i = cfg->n; i-- > 0;) {
		struct dd_config_entry *e = &cfg->entries[i];

		if (!strcmp(e->section, section) && !strcmp(e->key, key))
			return e;
	}
	return NULL;
}

const char *dd_config_get(struct dd_config *cfg, const char *section, const char *key, int *line)
{
	struct dd_config_entry *e = find(cfg, section, key);

	if (!e)
		return NULL;
	/* Earlier duplicates are claimed too: they were read and overridden. */
	for (size_t i = 0; i < cfg->n; i++)
		if (!strcmp(cfg->entries[i].section, section) && !strcmp(cfg->entries[i].key, key))
			cfg->entries[i].claimed = 1;
	if (line)
		*line = e->line;
	return e->value;
}

int dd_config_get_double(struct dd_config *cfg, const char *section, const char *key,
			 double min, double max, double *out, char *err, size_t errlen)
{
	int line = 0;
	const char *v = dd_config_get(cfg, section, key, &line);
	char *end;
	double d;

	if (!v)
		return -ENOENT;
	errno = 0;
	d = strtod(v, &end);
	if (end == v || *end != '\0' || errno || !isfinite(d)) {
		snprintf(err, errlen, "%s:%d: %s.%s: expected a number, got '%s'",
			 cfg->path, line, section, key, v);
		return -EINVAL;
	}
	if (d < min || d > max) {
		snprintf(err, errlen, "%s:%d: %s.%s: %g is outside %g..%g",
			 cfg->path, line, section, key, d, min, max);
		return -EINVAL;
	}
	*out = d;
	return 0;
}

int dd_config_get_int(struct dd_config *cfg, const char *section, const char *key,
		      long min, long max, long *out, char *err, size_t errlen)
{
	int line = 0;
	const char *v = dd_config_get(cfg, section, key, &line);
	char *end;
	long n;

	if (!v)
		return -ENOENT;
	errno = 0;
	n = strtol(v, &end, 10);
	if (end == v || *end != '\0' || errno) {
		snprintf(err, errlen, "%s:%d: %s.%s: expected a whole number, got '%s'",
			 cfg->path, line, section, key, v);
		return -EINVAL;
	}
	if (n < min || n > max) {
		snprintf(err, errlen, "%s:%d: %s.%s: %ld is outside %ld..%ld",
			 cfg->path, line, section, key, n, min, max);
		return -EINVAL;
	}
	*out = n;
	return 0;
}

int dd_config_get_bool(struct dd_config *cfg, const char *section, const char *key,
		       int *out, char *err, size_t errlen)
{
	int line = 0;
	const char *v = dd_config_get(cfg, section, key, &line);

	if (!v)
		return -ENOENT;
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on") || !strcmp(v, "1")) {
		*out = 1;
		return 0;
	}
	if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off") || !strcmp(v, "0")) {
		*out = 0;
		return 0;
	}
	snprintf(err, errlen, "%s:%d: %s.%s: expected true or false, got '%s'",
		 cfg->path, line, section, key, v);
	return -EINVAL;
}

int dd_config_keep_first(int first, int rc, const char *why, char *err, size_t errlen)
{
	if (first < 0 || rc >= 0)
		return first;
	snprintf(err, errlen, "%s", why);
	return rc;
}

int dd_config_check_claimed(const struct dd_config *cfg, char *err, size_t errlen)
{
	for (size_t i = 0; i < cfg->n; i++) {
		const struct dd_config_entry *e = &cfg->entries[i];

		if (!e->claimed) {
			snprintf(err, errlen, "%s:%d: unknown key %s.%s",
				 cfg->path, e->line, e->section, e->key);
			return -EINVAL;
		}
	}
	return 0;
}
