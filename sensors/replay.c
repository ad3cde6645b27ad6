/* Recorded edge files: "TS_NS LINE" per line; a parser for hostile input. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sensors/internal.h"

#define LINE_MAX_BYTES 256	/* longer lines are not an edge record */
#define EDGES_MAX 10000000	/* a day of a busy table is far below this */
#define FILE_MAX (256L << 20)	/* bytes a replay file may have */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* A decimal field of digits only, at most max; advances *s. */
static int number(const char **s, const char *end, uint64_t max, uint64_t *out)
{
	const char *p = *s;
	uint64_t v = 0;

	if (p == end || *p < '0' || *p > '9')
		return -1;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (max - d) / 10)
			return -2;
		v = v * 10 + d;
	}
	*s = p;
	*out = v;
	return 0;
}

int sens_edges_parse(const char *name, const char *text, size_t len,
		     struct sens_edge **edges, size_t *n, char *err, size_t errlen)
{
	struct sens_edge *arr = NULL;
	size_t cnt = 0, cap = 0, lineno = 0;
	const char *p = text, *end = text + len;
	int64_t last = 0;
	int rc = -EINVAL;

	*edges = NULL;
	*n = 0;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *le = eol ? eol : end, *s = p;
		uint64_t ts, line;
		int r;

		lineno++;
		p = eol ? eol + 1 : end;
		if ((size_t)(le - s) > LINE_MAX_BYTES) {
			snprintf(err, errlen, "%s:%zu: line longer than %d bytes", name, lineno,
				 LINE_MAX_BYTES);
			goto free_arr;
		}
		if (memchr(s, '\0', (size_t)(le - s))) {
			snprintf(err, errlen, "%s:%zu: NUL byte: not a text edge file", name, lineno);
			goto free_arr;
		}
		while (s < le && is_blank(*s))
			s++;
		if (s == le || *s == '#')
			continue;
		r = number(&s, le, INT64_MAX, &ts);
		if (r < 0) {
			snprintf(err, errlen, r == -2 ? "%s:%zu: timestamp is beyond 2^63 ns" :
				 "%s:%zu: expected 'TS_NS LINE' (a timestamp in ns first)", name, lineno);
			goto free_arr;
		}
		if (s == le || !is_blank(*s)) {
			snprintf(err, errlen, "%s:%zu: expected 'TS_NS LINE': the timestamp must be "
				 "digits followed by a space", name, lineno);
			goto free_arr;
		}
		while (s < le && is_blank(*s))
			s++;
		r = number(&s, le, SENS_MAX_OFFSET, &line);
		if (r < 0) {
			snprintf(err, errlen, r == -2 ? "%s:%zu: line offset is above %d" :
				 "%s:%zu: expected 'TS_NS LINE' (a GPIO line offset second)", name,
				 lineno, SENS_MAX_OFFSET);
			goto free_arr;
		}
		while (s < le && is_blank(*s))
			s++;
		if (s < le && *s != '#') {
			snprintf(err, errlen, "%s:%zu: unexpected text after 'TS_NS LINE'", name, lineno);
			goto free_arr;
		}
		if ((int64_t)ts < last) {
			snprintf(err, errlen, "%s:%zu: timestamp %llu goes backwards (previous %lld)",
				 name, lineno, (unsigned long long)ts, (long long)last);
			goto free_arr;
		}
		last = (int64_t)ts;
		if (cnt == EDGES_MAX) {
			snprintf(err, errlen, "%s:%zu: more than %d edges", name, lineno, EDGES_MAX);
			goto free_arr;
		}
		if (cnt == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct sens_edge *grown = realloc(arr, ncap * sizeof(*grown));

			if (!grown) {
				snprintf(err, errlen, "%s:%zu: out of memory", name, lineno);
				rc = -ENOMEM;
				goto free_arr;
			}
			arr = grown;
			cap = ncap;
		}
		arr[cnt].ts_ns = (int64_t)ts;
		arr[cnt].line = (unsigned)line;
		cnt++;
	}
	*edges = arr;
	*n = cnt;
	return 0;

free_arr:
	free(arr);
	return rc;
}

int sens_edges_write(int fd, const struct sens_edge *edges, size_t n)
{
	char buf[4096];
	size_t used = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i == n || used > sizeof(buf) - 64) {
			size_t off = 0;

			while (off < used) {
				ssize_t w = write(fd, buf + off, used - off);

				if (w < 0) {
					if (errno == EINTR)
						continue;
					return -errno;
				}
				off += (size_t)w;
			}
			used = 0;
		}
		if (i < n)
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%lld %u\n",
						 (long long)edges[i].ts_ns, edges[i].line);
	}
	return 0;
}

struct sens_source *sens_replay_open(const char *path, char *err, size_t errlen)
{
	struct sens_source *s = NULL;
	struct sens_edge *edges = NULL;
	char *text = NULL;
	size_t n = 0, len = 0;
	struct stat st;
	int fd, e = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		goto out;
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		goto close_fd;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > FILE_MAX) {
		e = S_ISDIR(st.st_mode) ? EISDIR : EFBIG;
		snprintf(err, errlen, "%s: not a regular file of at most %ld MiB", path, FILE_MAX >> 20);
		goto close_fd;
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		e = ENOMEM;
		snprintf(err, errlen, "%s: out of memory", path);
		goto close_fd;
	}
	while (len < (size_t)st.st_size) {
		ssize_t r = read(fd, text + len, (size_t)st.st_size - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			e = r < 0 ? errno : EIO;
			snprintf(err, errlen, "%s: %s", path, r < 0 ? strerror(e) : "file shrank while read");
			goto free_text;
		}
		len += (size_t)r;
	}
	int rc = sens_edges_parse(path, text, len, &edges, &n, err, errlen);
	if (rc < 0) {
		e = -rc;
		goto free_text;
	}
	s = sens_memory_adopt(edges, n);
	if (!s) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		free(edges);
	}
free_text:
	free(text);
close_fd:
	close(fd);
out:
	if (!s)
		errno = e ? e : EIO;
	return s;
}
