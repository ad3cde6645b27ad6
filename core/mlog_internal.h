/*
 * Private helpers of the match log codec (core/mlog*.c): a growing output
 * buffer that remembers a failed allocation, JSON strings and numbers in
 * the canonical form, and the error message format.
 */
#ifndef DYEREF_MLOG_INTERNAL_H
#define DYEREF_MLOG_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"

/* Output text built piece by piece; the first failed allocation sets oom
 * and every later append is ignored, so callers check once at the end. */
struct mlog_buf {
	char *p;	/* malloc'd, NUL-terminated when len > 0 */
	size_t len;	/* bytes written, without the NUL */
	size_t cap;	/* bytes allocated */
	bool oom;	/* an allocation failed: the content is incomplete */
};

void mlog_buf_put(struct mlog_buf *b, const char *s, size_t n);
void mlog_buf_puts(struct mlog_buf *b, const char *s);
void mlog_buf_printf(struct mlog_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* s as a JSON string, quoted and escaped. */
void mlog_buf_str(struct mlog_buf *b, const char *s);
/* d as the shortest of %.15g, %.16g, %.17g that reads back exactly, so
 * 1.9 is written "1.9" and every double survives a round trip. */
void mlog_buf_real(struct mlog_buf *b, double d);
/* Hands the text to the caller (*out malloc'd, "" when empty) or, after a
 * failed allocation, frees it and returns -ENOMEM with *out NULL. */
int mlog_buf_finish(struct mlog_buf *b, char **out, size_t *outlen);
void mlog_buf_release(struct mlog_buf *b);

/* "NAME:LINE: FIELD: problem" into err; returns -EINVAL. field may be NULL. */
int mlog_fail(char *err, size_t errlen, const char *name, int line,
	      const char *field, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* One line of a log: [start, start + len) without the '\n'. */
struct mlog_line {
	const char *start;	/* into the caller's buffer */
	size_t len;		/* bytes, without the newline */
	int no;			/* 1-based line number */
};

/* Steps through buf line by line: *pos is the offset of the next line
 * (start with 0). Returns false at the end. */
bool mlog_next_line(const char *buf, size_t len, size_t *pos, int *no,
		    struct mlog_line *line);

/* True when a line holds nothing but blanks (spaces, tabs, CR). */
bool mlog_line_blank(const struct mlog_line *line);

/* Why jansson refused a line, never empty: its own text, or "out of
 * memory" for a failed allocation (then *oom is set when oom is not NULL). */
struct json_error_t;
const char *mlog_json_why(const struct json_error_t *jerr, bool *oom);

/* "NAME:LINE: column C: bad JSON: why" for a line jansson refused (the
 * column left out when jansson knows none). -EINVAL, or -ENOMEM with
 * "NAME:LINE: out of memory" when an allocation failed. */
int mlog_json_fail(char *err, size_t errlen, const char *name, int line,
		   const struct json_error_t *jerr);

/* The Beer Die parser's state from line to line (mlog_bd_parse.c): the
 * whole-log parse keeps every entry in log->entries; the stream
 * (mlog_bd_stream.c) takes each line's entry and empties the list. */
struct mlog_bd_parser {
	const char *name;	/* the log's name, for messages */
	int line;		/* the line being read */
	char *err;		/* the caller's message buffer */
	size_t errlen;
	struct mlog_bd *log;	/* being filled */
	struct bd_table table;	/* bounds for table coordinates */
	int rolloff_line;	/* line of the roll-off, 0 before one */
	size_t n_seen;		/* entries parsed, those the stream dropped included */
	bool first;		/* the match line is still to come */
};

/* Starts parsing into log (the caller's, from mlog_bd_new()). */
void mlog_bd_parser_init(struct mlog_bd_parser *p, struct mlog_bd *log);

/* Parses line (its number in line->no): a blank line gives nothing, the
 * first other line must be the match line, every later one appends its
 * entry (if any) to p->log. 0, -EINVAL with the message in err, -ENOMEM. */
int mlog_bd_parser_line(struct mlog_bd_parser *p, const struct mlog_line *line,
			char *err, size_t errlen);

/* A ruling line and the final line of the judge's output, appended to b
 * (mlog_bd.c), each with its '\n'. */
void mlog_bd_put_ruling(struct mlog_buf *b, const struct bd_match_cfg *cfg,
			const struct bd_ruling *r, bool corrected);
void mlog_bd_put_final(struct mlog_buf *b, const struct bd_match_cfg *cfg,
		       const struct bd_final *f);

/* The "at" of each event kind, indexed by enum bd_ev_kind. */
extern const char *const mlog_ev_names[BD_EV_RETOSS + 1];

/* A team's letter in the log: BD_TEAM_A "A", any other "B". */
const char *mlog_team_name(int team);

#endif /* DYEREF_MLOG_INTERNAL_H */
