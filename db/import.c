/*
 * Importing a match log as it is read (db_import_new/_line/_end, db.h).
 *
 * A Beer Die log is checked by the codec's stream a line at a time and
 * stored as it comes, inside one transaction (db->hold) that only
 * db_import_end() commits: a bad line anywhere rolls everything back.
 * Each throw is stored with the ruling it had when it was logged: the
 * fold of the throws before it, with the corrections before it (a ruling
 * depends only on the lines before it). A correction changes the rulings
 * from the throw it names on, so the match is folded again from the lines
 * stored so far (read back from this transaction, by the codec's stream
 * in its passes) and every recomputed ruling is stored as it comes out.
 * What is held: the fold's state, the line being stored and, in the
 * streams, the latest correction of each corrected throw (the match's own
 * length, never the log's bytes). The log's identity (digest.c) is summed
 * as the lines go by; once it is whole, a match already stored under it
 * rolls the import back ("already stored as match N").
 *
 * Other games' logs are held whole (at most MLOG_MAX_INPUT bytes: a dice
 * game ends after its boxes or rounds) and stored by db_import_whole().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/internal.h"

enum import_mode { IMPORT_FIRST, IMPORT_BD, IMPORT_WHOLE };

struct db_import {
	struct db *db;			/* borrowed */
	char *name;			/* owned: the log's name for messages */
	int64_t t_ns;			/* the match's start */
	enum import_mode mode;		/* FIRST until the first line that is not blank */
	int no;				/* lines given so far */
	int lead;			/* FIRST: blank lines so far */
	bool failed;			/* a line was refused: done with */
	/* Beer Die */
	struct mlog_bd_stream *in;	/* owned: checks each line, hands out its entry */
	struct db_digest digest;	/* of the lines stored so far */
	bool open;			/* the transaction (db->hold) is this import's */
	int64_t match;			/* the match, once its line is stored */
	int64_t entries;		/* lines stored after the match line */
	size_t throws;			/* throws stored */
	struct bd_state state;		/* the fold as shown so far */
	char *text;			/* owned: the line being stored, NUL-terminated */
	size_t cap;			/* bytes of text */
	/* Other games: the log so far */
	char *buf;			/* owned */
	size_t len, bufcap;
};

struct db_import *db_import_new(struct db *db, const char *name, int64_t t_ns)
{
	struct db_import *im = calloc(1, sizeof(*im));

	if (!im)
		return NULL;
	im->db = db;
	im->t_ns = t_ns;
	im->name = strdup(name ? name : "log");
	if (!im->name) {
		free(im);
		errno = ENOMEM;
		return NULL;
	}
	db_digest_init(&im->digest);
	return im;
}

void db_import_free(struct db_import *im)
{
	if (!im)
		return;
	if (im->open)
		db_hold_end(im->db, -ECANCELED, "importing", NULL, 0);
	mlog_bd_stream_free(im->in);
	free(im->text);
	free(im->buf);
	free(im->name);
	free(im);
}

static int nomem(struct db_import *im, char *err, size_t errlen)
{
	db_msg(err, errlen, "%s:%d: out of memory", im->name, im->no);
	return -ENOMEM;
}

/* ---- Other games: held whole ------------------------------------------- */

/* Appends n line ends, then line[0..len) and its own. */
static int whole_line(struct db_import *im, int n, const char *line, size_t len,
		      char *err, size_t errlen)
{
	size_t need = (size_t)n + len + 1;

	if (im->len + need > MLOG_MAX_INPUT) {
		db_msg(err, errlen, "%s: larger than %u MiB, not a match log", im->name,
		       MLOG_MAX_INPUT >> 20);
		return -EFBIG;
	}
	if (im->len + need > im->bufcap) {
		size_t cap = im->bufcap ? im->bufcap : 64 * 1024;
		char *p;

		while (cap < im->len + need)
			cap *= 2;
		if (!(p = realloc(im->buf, cap)))
			return nomem(im, err, errlen);
		im->buf = p;
		im->bufcap = cap;
	}
	memset(im->buf + im->len, '\n', (size_t)n);
	im->len += (size_t)n;
	memcpy(im->buf + im->len, line, len);
	im->len += len;
	im->buf[im->len++] = '\n';
	return 0;
}

/* ---- Beer Die: a line at a time ------------------------------------------- */

/* Stores the current line (im->text) with rulings from next (n of them). */
static int append(struct db_import *im, const struct db_entry *e, size_t n,
		  int (*next)(void *ctx, const char **line, char *err, size_t errlen), void *ctx,
		  char *err, size_t errlen)
{
	int ret = next ? db_append_each(im->db, im->match, e, n, next, ctx, NULL, err, errlen)
		       : db_append(im->db, im->match, e, NULL, err, errlen);

	if (ret && ret != -ENOMEM)
		db_at_line(im->name, im->no, err, errlen);
	return ret;
}

/* A throw: judged on the fold so far, stored with that ruling. */
static int store_throw(struct db_import *im, const struct mlog_bd_entry *en, size_t len,
		       char *err, size_t errlen)
{
	const struct bd_match_cfg *cfg = &mlog_bd_stream_log(im->in)->cfg;
	struct db_observation *obs = NULL;
	char msg[200] = "", *ruling = NULL, **details = NULL;
	size_t rlen, n_obs = 0;
	struct bd_ruling r;
	int ret;

	if (bd_judge(cfg, &im->state, &en->t, &r, msg, sizeof(msg)) < 0)
		return mlog_bd_fold_fail(err, errlen, im->name, im->no, im->throws + 1, &im->state,
					 msg);
	ret = mlog_bd_ruling_line(cfg, &r, false, &ruling, &rlen);
	if (!ret) {
		ruling[rlen - 1] = 0;	/* stored lines have no '\n' */
		ret = db_events_of(im->text, len, im->t_ns, &obs, &details, &n_obs);
	}
	if (!ret) {
		const char *rs[] = { ruling };
		struct db_entry e = { .line = im->text, .t_ns = im->t_ns, .obs = obs,
				      .n_obs = n_obs, .rulings = rs, .n_rulings = 1 };

		ret = append(im, &e, 1, NULL, NULL, err, errlen);
	} else {
		ret = nomem(im, err, errlen);
	}
	db_events_free(obs, details, n_obs);
	free(ruling);
	if (ret)
		return ret;
	bd_apply(&im->state, cfg, &r);
	im->throws++;
	return 0;
}

/* The match folded again with a correction: the stored lines (the match
 * line first, then the im->entries after it) and the correction's line
 * read by a stream in its passes. */
struct refold {
	struct db_import *im;
	struct mlog_bd_stream *s;	/* owned */
	sqlite3_stmt *rows;		/* owned: the stored lines */
	int from;			/* the corrected throw: its ruling and later ones are stored */
	char *line;			/* owned: the ruling handed out, without its '\n' */
};

#define STORED_SQL \
	"SELECT header FROM matches WHERE id = ?1" \
	" UNION ALL SELECT line FROM (SELECT line FROM entries WHERE match_id = ?1" \
	" AND seq <= ?2 ORDER BY seq)"

/* A line to the stream. Its message numbers the stored lines ("NAME:ROW:
 * why", the refold's name empty): what follows ":ROW: " says why, for the
 * correction's own line (store_correct puts it before). */
static int refold_line(struct refold *f, const char *line, size_t len, const char **out,
		       size_t *outlen, char *err, size_t errlen)
{
	char msg[384];
	int rc = mlog_bd_stream_line(f->s, line, len, out, outlen, msg, sizeof(msg));

	if (rc) {
		const char *why = strstr(msg + 1, ": ");

		db_msg(err, errlen, "with this correction, %s", why ? why + 2 : msg);
	}
	return rc;
}

/* The next stored line of the pass: 1 with it, 0 at the end. */
static int refold_row(struct refold *f, const char **line, size_t *len, char *err, size_t errlen)
{
	int rc = sqlite3_step(f->rows);

	if (rc == SQLITE_ROW) {
		*line = (const char *)sqlite3_column_text(f->rows, 0);
		*len = (size_t)sqlite3_column_bytes(f->rows, 0);
		return 1;
	}
	if (rc == SQLITE_DONE)
		return 0;
	return db_fail(f->im->db, rc, "reading the stored lines back", err, errlen);
}

/* The rest of the pass: the stored lines, then the correction's; the
 * stream's next pass, or an error. */
static int refold_rest(struct refold *f, char *err, size_t errlen)
{
	const char *line, *out;
	size_t len, outlen;
	int rc;

	while ((rc = refold_row(f, &line, &len, err, errlen)) == 1)
		if ((rc = refold_line(f, line, len, &out, &outlen, err, errlen)))
			return rc;
	if (!rc)
		rc = refold_line(f, f->im->text, strlen(f->im->text), &out, &outlen, err, errlen);
	if (!rc)
		rc = mlog_bd_stream_end(f->s, &out, &outlen, err, errlen);
	sqlite3_reset(f->rows);
	return rc;
}

/* db_append_each's next: the WRITE pass up to the next ruling of a
 * throw from f->from on. */
static int refold_next(void *ctx, const char **ruling, char *err, size_t errlen)
{
	struct refold *f = ctx;
	const char *line, *out;
	size_t len, outlen;
	bool corrected;
	int rc;

	while ((rc = refold_row(f, &line, &len, err, errlen)) == 1) {
		if ((rc = refold_line(f, line, len, &out, &outlen, err, errlen)))
			return rc;
		if (out && mlog_bd_stream_ruling(f->s, &corrected)->throw_no >= f->from) {
			free(f->line);
			if (!(f->line = malloc(outlen)))
				return nomem(f->im, err, errlen);
			memcpy(f->line, out, outlen - 1);	/* without its '\n' */
			f->line[outlen - 1] = 0;
			*ruling = f->line;
			return 0;
		}
	}
	if (!rc) {	/* cannot be: the stored throws are those the entry needs */
		db_msg(err, errlen, "the stored lines lack a throw's ruling");
		rc = -EIO;
	}
	return rc;
}

/* A correction of throw en->throw_no: the rulings from it on, recomputed,
 * stored with it; the fold as shown goes on from the recomputed state. */
static int store_correct(struct db_import *im, const struct mlog_bd_entry *en, char *err,
			 size_t errlen)
{
	struct refold f = { .im = im, .from = en->throw_no };
	struct db_entry e = { .line = im->text, .t_ns = im->t_ns };
	int rc, pass;

	f.s = mlog_bd_stream_new("");
	if (!f.s)
		return nomem(im, err, errlen);
	rc = sqlite3_prepare_v2(im->db->h, STORED_SQL, -1, &f.rows, NULL);
	if (rc != SQLITE_OK) {
		rc = db_fail(im->db, rc, "reading the stored lines back", err, errlen);
		goto at_line;
	}
	sqlite3_bind_int64(f.rows, 1, im->match);
	sqlite3_bind_int64(f.rows, 2, im->entries);
	/* READ holds the corrections, JUDGE folds with them (refusing a
	 * correction that leaves a later throw unjudgeable) before anything
	 * is stored; WRITE hands out the rulings as the entry stores them. */
	pass = refold_rest(&f, err, errlen);
	if (pass == MLOG_PASS_JUDGE)
		pass = refold_rest(&f, err, errlen);
	if (pass < 0) {
		rc = pass;
		goto at_line;
	}
	rc = append(im, &e, im->throws - (size_t)f.from + 1, refold_next, &f, err, errlen);
	if (rc)
		goto free_refold;
	rc = refold_rest(&f, err, errlen);
	if (rc == MLOG_PASS_DONE) {
		im->state = *mlog_bd_stream_state(f.s);
		rc = 0;
		goto free_refold;
	}
	if (rc >= 0) {	/* cannot be: WRITE ends the passes */
		db_msg(err, errlen, "the refold did not end");
		rc = -EIO;
	}
at_line:
	if (rc != -ENOMEM)
		db_at_line(im->name, im->no, err, errlen);
free_refold:
	sqlite3_finalize(f.rows);
	mlog_bd_stream_free(f.s);
	free(f.line);
	return rc;
}

/* One line of a Beer Die log. */
static int bd_line(struct db_import *im, const char *line, size_t len, char *err, size_t errlen)
{
	const struct mlog_bd_entry *en;
	const char *out;
	size_t outlen, stop = len;
	int rc = mlog_bd_stream_line(im->in, line, len, &out, &outlen, err, errlen);

	if (rc)
		return rc;
	if (stop && line[stop - 1] == '\r')
		stop--;	/* stored without the '\r' of a CRLF line end */
	if (db_line_blank(line, 0, stop))
		return 0;
	if (stop + 1 > im->cap) {
		char *p = realloc(im->text, stop + 1);

		if (!p)
			return nomem(im, err, errlen);
		im->text = p;
		im->cap = stop + 1;
	}
	memcpy(im->text, line, stop);
	im->text[stop] = 0;
	db_digest_line(&im->digest, im->text, stop);
	if (!im->match) {
		rc = db_hold_begin(im->db, err, errlen);
		if (rc)
			return rc;
		im->open = true;
		bd_state_init(&im->state, &mlog_bd_stream_log(im->in)->cfg);
		rc = db_match_start(im->db, im->text, im->t_ns, &im->match, err, errlen);
		if (rc && rc != -ENOMEM)
			db_at_line(im->name, im->no, err, errlen);
		return rc;
	}
	en = mlog_bd_stream_entry(im->in);
	if (en && en->kind == MLOG_THROW) {
		rc = store_throw(im, en, stop, err, errlen);
	} else if (en && en->kind == MLOG_CORRECT) {
		rc = store_correct(im, en, err, errlen);
	} else {	/* the roll-off, a confirmation, a duty mark: no ruling */
		struct db_entry e = { .line = im->text, .t_ns = im->t_ns };

		rc = append(im, &e, 0, NULL, NULL, err, errlen);
	}
	if (!rc)
		im->entries++;
	return rc;
}

int db_import_line(struct db_import *im, const char *line, size_t len, char *err, size_t errlen)
{
	char game[32];
	const char *out;
	size_t outlen;
	int rc = 0;

	if (im->failed) {
		db_msg(err, errlen, "%s: the import was refused", im->name);
		return -EINVAL;
	}
	im->no++;
	if (im->mode == IMPORT_FIRST) {
		rc = mlog_game_line(im->name, line, len, im->no, game, sizeof(game), err, errlen);
		if (rc == 1) {
			im->lead++;
			return 0;
		}
		if (!rc && !strcmp(game, "beerdie")) {
			im->mode = IMPORT_BD;
			im->in = mlog_bd_stream_new(im->name);
			if (!im->in)
				rc = nomem(im, err, errlen);
			/* The blank lines before the match line, so that numbers match. */
			for (int i = 0; !rc && i < im->lead; i++)
				rc = mlog_bd_stream_line(im->in, "", 0, &out, &outlen, err, errlen);
		} else if (!rc) {
			im->mode = IMPORT_WHOLE;
			rc = whole_line(im, im->lead, line, len, err, errlen);
			im->failed = rc != 0;
			return rc;
		}
	}
	if (!rc)
		rc = im->mode == IMPORT_BD ? bd_line(im, line, len, err, errlen)
					   : whole_line(im, 0, line, len, err, errlen);
	im->failed = rc != 0;
	return rc;
}

int db_import_end(struct db_import *im, int64_t *match, char *err, size_t errlen)
{
	char hex[DB_DIGEST_HEX], *final = NULL;
	const char *out;
	struct bd_final f;
	size_t len;
	int rc;

	if (im->failed) {
		db_msg(err, errlen, "%s: the import was refused", im->name);
		return -EINVAL;
	}
	if (im->mode == IMPORT_WHOLE)
		return db_import_whole(im->db, im->name, im->buf, im->len, im->t_ns, match, err,
				       errlen);
	if (im->mode == IMPORT_FIRST) {
		db_msg(err, errlen, "%s:%d: empty log: the first line must be a \"match\" line",
		       im->name, im->no ? im->no : 1);
		return -EINVAL;
	}
	rc = mlog_bd_stream_end(im->in, &out, &len, err, errlen);
	if (rc < 0)
		return rc;
	db_digest_hex(&im->digest, hex);
	rc = db_stored_as(im->db, im->name, hex, match, err, errlen);
	if (!rc) {
		bd_final(&mlog_bd_stream_log(im->in)->cfg, &im->state, &f);
		rc = mlog_bd_final_line(&mlog_bd_stream_log(im->in)->cfg, &f, &final, &len);
		if (rc)
			rc = nomem(im, err, errlen);
		else
			final[len - 1] = 0;
	}
	if (!rc)
		rc = db_match_end_as(im->db, im->match, final, hex, im->t_ns, err, errlen);
	free(final);
	/* Committed; or already stored (-EEXIST, *match that one) or refused,
	 * and nothing of it stays. */
	im->open = false;
	rc = db_hold_end(im->db, rc, "importing", err, errlen);
	if (!rc)
		*match = im->match;
	return rc;
}

int db_import(struct db *db, const char *name, const char *buf, size_t len,
	      int64_t t_ns, int64_t *match, char *err, size_t errlen)
{
	struct db_import *im = db_import_new(db, name, t_ns);
	size_t pos = 0;
	int rc = 0;

	if (!im) {
		db_msg(err, errlen, "%s: out of memory", name ? name : "log");
		return -ENOMEM;
	}
	while (!rc && pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;

		rc = db_import_line(im, buf + pos, end - pos, err, errlen);
		pos = end + 1;
	}
	if (!rc)
		rc = db_import_end(im, match, err, errlen);
	db_import_free(im);
	return rc;
}
