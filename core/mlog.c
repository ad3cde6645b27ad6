/*
 * Match log codec, the shared part: output buffers, canonical numbers,
 * messages, line splitting, and the one table that sends a log to its
 * game's judge (mlog_judge).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mlog_internal.h"

static bool buf_reserve(struct mlog_buf *b, size_t more)
{
	size_t want, cap;
	char *p;

	if (b->oom)
		return false;
	if (more > SIZE_MAX / 2 - b->len) {
		b->oom = true;
		return false;
	}
	want = b->len + more + 1;	/* room for the NUL */
	if (want <= b->cap)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap < want)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void mlog_buf_put(struct mlog_buf *b, const char *s, size_t n)
{
	if (!buf_reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void mlog_buf_puts(struct mlog_buf *b, const char *s)
{
	mlog_buf_put(b, s, strlen(s));
}

void mlog_buf_printf(struct mlog_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !buf_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void mlog_buf_str(struct mlog_buf *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	mlog_buf_put(b, "\"", 1);
	for (; *u; u++) {
		if (*u == '"' || *u == '\\') {
			char esc[2] = { '\\', (char)*u };

			mlog_buf_put(b, esc, 2);
		} else if (*u < 0x20) {
			mlog_buf_printf(b, "\\u%04x", *u);
		} else {
			mlog_buf_put(b, (const char *)u, 1);
		}
	}
	mlog_buf_put(b, "\"", 1);
}

void mlog_buf_real(struct mlog_buf *b, double d)
{
	char s[40];

	if (d == 0)
		d = 0;	/* -0 would read back as the integer 0: write it so */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(s, sizeof(s), "%.*g", prec, d);
		if (strtod(s, NULL) == d)
			break;
	}
	mlog_buf_puts(b, s);
}

int mlog_buf_finish(struct mlog_buf *b, char **out, size_t *outlen)
{
	*out = NULL;
	if (outlen)
		*outlen = 0;
	if (!b->oom && !b->p)
		buf_reserve(b, 0);
	if (b->oom) {
		mlog_buf_release(b);
		return -ENOMEM;
	}
	b->p[b->len] = '\0';
	*out = b->p;
	if (outlen)
		*outlen = b->len;
	b->p = NULL;
	b->len = b->cap = 0;
	return 0;
}

void mlog_buf_release(struct mlog_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

int mlog_fail(char *err, size_t errlen, const char *name, int line,
	      const char *field, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || !errlen)
		return -EINVAL;
	if (field)
		n = snprintf(err, errlen, "%s:%d: %s: ", name, line, field);
	else
		n = snprintf(err, errlen, "%s:%d: ", name, line);
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

const char *mlog_json_why(const json_error_t *jerr, bool *oom)
{
	/* jansson may leave the text empty when an allocation fails (and
	 * the code byte unset then: the text is read first). */
	bool none = !jerr->text[0] || json_error_code(jerr) == json_error_out_of_memory;

	if (oom)
		*oom = none;
	return none ? "out of memory" : jerr->text;
}

int mlog_json_fail(char *err, size_t errlen, const char *name, int line,
		   const json_error_t *jerr)
{
	bool oom;
	const char *why = mlog_json_why(jerr, &oom);

	if (oom) {
		mlog_fail(err, errlen, name, line, NULL, "out of memory");
		return -ENOMEM;
	}
	if (jerr->column < 1)
		return mlog_fail(err, errlen, name, line, NULL, "bad JSON: %s", why);
	return mlog_fail(err, errlen, name, line, NULL, "column %d: bad JSON: %s",
			 jerr->column, why);
}

bool mlog_next_line(const char *buf, size_t len, size_t *pos, int *no,
		    struct mlog_line *line)
{
	const char *nl;

	if (*pos >= len)
		return false;
	line->start = buf + *pos;
	nl = memchr(line->start, '\n', len - *pos);
	line->len = nl ? (size_t)(nl - line->start) : len - *pos;
	line->no = ++*no;
	*pos += line->len + (nl ? 1 : 0);
	return true;
}

bool mlog_line_blank(const struct mlog_line *line)
{
	for (size_t i = 0; i < line->len; i++)
		if (line->start[i] != ' ' && line->start[i] != '\t' && line->start[i] != '\r')
			return false;
	return true;
}

const char *const mlog_ev_names[BD_EV_RETOSS + 1] = {
	[BD_EV_TABLE] = "table", [BD_EV_CUP] = "cup", [BD_EV_MINE] = "mine",
	[BD_EV_FLOOR] = "floor", [BD_EV_REST] = "rest", [BD_EV_CATCH] = "catch",
	[BD_EV_KICK] = "kick", [BD_EV_LOW_CALL] = "low_call", [BD_EV_RETOSS] = "retoss",
};

const char *mlog_team_name(int team)
{
	return team == BD_TEAM_A ? "A" : "B";
}

int mlog_game_line(const char *name, const char *buf, size_t len, int no,
		   char *game, size_t gamelen, char *err, size_t errlen)
{
	struct mlog_line line = { .start = buf, .len = len, .no = no };
	json_error_t jerr;
	json_t *root, *type, *g;
	int rc;

	if (mlog_line_blank(&line))
		return 1;
	root = json_loadb(line.start, line.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return mlog_json_fail(err, errlen, name, line.no, &jerr);
	rc = -EINVAL;
	if (!json_is_object(root)) {
		mlog_fail(err, errlen, name, line.no, NULL, "expected a JSON object");
		goto free_root;
	}
	type = json_object_get(root, "type");
	if (!json_is_string(type) || strcmp(json_string_value(type), "match")) {
		mlog_fail(err, errlen, name, line.no, "type",
			  "the first line must be a \"match\" line");
		goto free_root;
	}
	g = json_object_get(root, "game");
	if (!g) {
		mlog_fail(err, errlen, name, line.no, "game", "missing");
		goto free_root;
	}
	if (!json_is_string(g) || json_string_length(g) == 0 ||
	    json_string_length(g) >= gamelen ||
	    strspn(json_string_value(g), "abcdefghijklmnopqrstuvwxyz0123456789-") != json_string_length(g)) {
		mlog_fail(err, errlen, name, line.no, "game",
			  "expected a game's name (beerdie, yatzy, yatzy-joker, dreiermann, horse)");
		goto free_root;
	}
	memcpy(game, json_string_value(g), json_string_length(g) + 1);
	rc = 0;
free_root:
	json_decref(root);
	return rc;
}

/* mlog_game(), also giving the line the game was named on. */
static int read_game(const char *name, const char *buf, size_t len,
		     char *game, size_t gamelen, int *lineno, char *err, size_t errlen)
{
	struct mlog_line line;
	size_t pos = 0;
	int no = 0;

	do {
		if (!mlog_next_line(buf, len, &pos, &no, &line))
			return mlog_fail(err, errlen, name, no ? no : 1, NULL,
					 "empty log: the first line must be a \"match\" line");
	} while (mlog_line_blank(&line));
	*lineno = line.no;
	return mlog_game_line(name, line.start, line.len, line.no, game, gamelen, err, errlen);
}

int mlog_game(const char *name, const char *buf, size_t len,
	      char *game, size_t gamelen, char *err, size_t errlen)
{
	int lineno;

	return read_game(name, buf, len, game, gamelen, &lineno, err, errlen);
}

/* The games a log may name, and their judges. NULL: known, not built yet
 * (the dice games' judge, mlog_dice_judge, plugs in here). */
static const struct {
	const char *game;
	int (*judge)(const char *name, const char *buf, size_t len,
		     char **out, size_t *outlen, char *err, size_t errlen);
} judges[] = {
	{ "beerdie", mlog_bd_stream_judge },
	{ "yatzy", mlog_dice_judge },
	{ "yatzy-joker", mlog_dice_judge },
	{ "dreiermann", mlog_dice_judge },
	{ "horse", mlog_dice_judge },
};

int mlog_judge(const char *name, const char *buf, size_t len,
	       char **out, size_t *outlen, char *err, size_t errlen)
{
	char game[32];
	int rc, lineno;

	*out = NULL;
	if (outlen)
		*outlen = 0;
	rc = read_game(name, buf, len, game, sizeof(game), &lineno, err, errlen);
	if (rc)
		return rc;
	for (size_t i = 0; i < sizeof(judges) / sizeof(judges[0]); i++) {
		if (strcmp(game, judges[i].game))
			continue;
		if (!judges[i].judge) {
			snprintf(err, errlen, "game %s: not built", game);
			return -ENOTSUP;
		}
		return judges[i].judge(name, buf, len, out, outlen, err, errlen);
	}
	return mlog_fail(err, errlen, name, lineno, "game",
			 "unknown game \"%s\" (expected beerdie, yatzy, yatzy-joker, dreiermann or horse)",
			 game);
}
