/*
 * A Beer Die log judged line by line (mlog_bd_stream_*, core.h): memory
 * holds the match, the state of the fold, and the latest correction of
 * each corrected throw; never the log.
 *
 * A correction may change every ruling after the throw it names, and a
 * bad line anywhere means no output at all, so the log is read in passes:
 * READ checks every line and folds the throws while no correction has
 * come; JUDGE (only after corrections) folds again with every correction
 * known; WRITE folds once more and hands out each ruling line. A log
 * without corrections is read twice, one with corrections three times.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mlog_internal.h"

/* The latest correction of one throw: its observations, events sized by
 * use (a bd_throw reserves room for BD_MAX_EVENTS). */
struct held {
	int throw_no;		/* the throw it replaces, 1-based */
	int line;		/* the correction's line */
	int thrower;		/* as struct bd_throw */
	bool dye_up;
	double apex_m, apex_sd_m;
	size_t n_events;
	struct bd_event *events;	/* owned, n_events */
};

struct mlog_bd_stream {
	struct mlog_bd *log;		/* owned: cfg and roll-off; entries: this line's */
	struct mlog_bd_parser parser;	/* state from line to line */
	enum mlog_pass pass;		/* the pass being read */
	int no;				/* lines of this pass so far */
	struct bd_state state;		/* the fold so far in this pass */
	size_t n_throws;		/* throws folded in this pass */
	bool folding;			/* READ: no correction or refusal yet */
	int bad_line;			/* READ: line of the first throw the fold refused, 0 none */
	char bad[256];			/* READ: its message */
	struct held *held;		/* owned, sorted by throw_no, one per corrected throw */
	size_t n_held, cap_held;
	size_t next_held;		/* JUDGE, WRITE: the next held correction to apply */
	struct bd_throw t;		/* the throw being judged */
	struct bd_ruling r;		/* its ruling */
	bool corrected;			/* WRITE: r's throw was replaced by a correction */
	struct bd_final final;		/* DONE: the final line's content */
	struct mlog_buf out;		/* WRITE: the line handed out */
};

struct mlog_bd_stream *mlog_bd_stream_new(const char *name)
{
	struct mlog_bd_stream *s = calloc(1, sizeof(*s));
	struct bd_match_cfg cfg;

	if (!s)
		return NULL;
	bd_match_cfg_init(&cfg);
	s->log = mlog_bd_new(name ? name : "log", &cfg);
	if (!s->log) {
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	mlog_bd_parser_init(&s->parser, s->log);
	s->pass = MLOG_PASS_READ;
	s->folding = true;
	bd_state_init(&s->state, &s->log->cfg);
	return s;
}

void mlog_bd_stream_free(struct mlog_bd_stream *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_held; i++)
		free(s->held[i].events);
	free(s->held);
	mlog_buf_release(&s->out);
	mlog_bd_free(s->log);
	free(s);
}

const struct mlog_bd *mlog_bd_stream_log(const struct mlog_bd_stream *s)
{
	return s->log;
}

const struct bd_ruling *mlog_bd_stream_ruling(const struct mlog_bd_stream *s, bool *corrected)
{
	*corrected = s->corrected;
	return &s->r;
}

const struct bd_final *mlog_bd_stream_final(const struct mlog_bd_stream *s)
{
	return &s->final;
}

/* Keeps e's observations as throw e->throw_no's latest correction. */
static int hold(struct mlog_bd_stream *s, const struct mlog_bd_entry *e)
{
	size_t lo = 0, hi = s->n_held, n = e->t.n_events;
	struct bd_event *ev = NULL;
	struct held *h;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->held[mid].throw_no < e->throw_no)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (n && !(ev = malloc(n * sizeof(*ev))))
		return -ENOMEM;
	if (n)
		memcpy(ev, e->t.events, n * sizeof(*ev));
	if (lo == s->n_held || s->held[lo].throw_no != e->throw_no) {
		if (s->n_held == s->cap_held) {
			size_t cap = s->cap_held ? 2 * s->cap_held : 16;
			struct held *nh = realloc(s->held, cap * sizeof(*nh));

			if (!nh) {
				free(ev);
				return -ENOMEM;
			}
			s->held = nh;
			s->cap_held = cap;
		}
		memmove(&s->held[lo + 1], &s->held[lo], (s->n_held - lo) * sizeof(*s->held));
		s->n_held++;
		s->held[lo].events = NULL;
	}
	h = &s->held[lo];
	free(h->events);
	*h = (struct held){
		.throw_no = e->throw_no, .line = e->line, .thrower = e->t.thrower,
		.dye_up = e->t.dye_up, .apex_m = e->t.apex_m, .apex_sd_m = e->t.apex_sd_m,
		.n_events = n, .events = ev,
	};
	return 0;
}

/* Folds throw s->t (line: the line its observations come from); -EINVAL
 * with the message in err when the rules cannot judge it. */
static int fold(struct mlog_bd_stream *s, int line, char *err, size_t errlen)
{
	char msg[200] = "";
	int rc = bd_judge(&s->log->cfg, &s->state, &s->t, &s->r, msg, sizeof(msg));

	s->n_throws++;
	if (rc < 0)
		return mlog_bd_fold_fail(err, errlen, s->log->name, line, s->n_throws, &s->state, msg);
	bd_apply(&s->state, &s->log->cfg, &s->r);
	return 0;
}

/* A throw in JUDGE or WRITE: its observations, or those of its latest
 * correction; its ruling; in WRITE its line into s->out. */
static int judge_throw(struct mlog_bd_stream *s, const struct mlog_bd_entry *e,
		       char *err, size_t errlen)
{
	int line = e->line, rc;
	bool corrected = false;

	s->t = e->t;
	if (s->next_held < s->n_held && (size_t)s->held[s->next_held].throw_no == s->n_throws + 1) {
		const struct held *h = &s->held[s->next_held++];

		s->t.thrower = h->thrower;
		s->t.dye_up = h->dye_up;
		s->t.apex_m = h->apex_m;
		s->t.apex_sd_m = h->apex_sd_m;
		s->t.n_events = h->n_events;
		if (h->n_events)
			memcpy(s->t.events, h->events, h->n_events * sizeof(*h->events));
		line = h->line;
		corrected = true;
	}
	rc = fold(s, line, err, errlen);
	s->corrected = corrected;
	if (rc || s->pass != MLOG_PASS_WRITE)
		return rc;
	mlog_bd_put_ruling(&s->out, &s->log->cfg, &s->r, corrected);
	return 0;
}

int mlog_bd_stream_line(struct mlog_bd_stream *s, const char *line, size_t len,
			const char **out, size_t *outlen, char *err, size_t errlen)
{
	struct mlog_line l = { .start = line, .len = len, .no = ++s->no };
	const struct mlog_bd_entry *e;
	int rc;

	*out = NULL;
	*outlen = 0;
	s->out.len = 0;
	if (s->pass == MLOG_PASS_DONE)
		return -EINVAL;
	if (len > MLOG_LINE_MAX)
		return mlog_fail(err, errlen, s->log->name, l.no, NULL,
				 "line longer than %u bytes", MLOG_LINE_MAX);
	s->log->n_entries = 0;	/* only this line's entry is kept */
	rc = mlog_bd_parser_line(&s->parser, &l, err, errlen);
	if (rc || !s->log->n_entries)
		return rc;
	e = &s->log->entries[0];
	if (e->kind == MLOG_CORRECT && s->pass == MLOG_PASS_READ) {
		s->folding = false;
		rc = hold(s, e);
		if (rc)
			mlog_fail(err, errlen, s->log->name, l.no, NULL, "out of memory");
		return rc;
	}
	if (e->kind != MLOG_THROW)
		return 0;	/* a correction already held, a confirmation, a duty mark */
	if (s->pass != MLOG_PASS_READ) {
		rc = judge_throw(s, e, err, errlen);
		if (!rc && s->out.len) {
			if (s->out.oom) {
				mlog_fail(err, errlen, s->log->name, l.no, NULL, "out of memory");
				return -ENOMEM;
			}
			*out = s->out.p;
			*outlen = s->out.len;
		}
		return rc;
	}
	if (s->folding) {
		s->t = e->t;
		if (fold(s, e->line, s->bad, sizeof(s->bad))) {
			s->folding = false;
			s->bad_line = e->line;
		}
	}
	return 0;
}

/* Starts the next pass from the first line. */
static int rewind_to(struct mlog_bd_stream *s, enum mlog_pass pass)
{
	s->pass = pass;
	s->no = 0;
	s->n_throws = 0;
	s->next_held = 0;
	s->log->n_throws = 0;
	bd_state_init(&s->state, &s->log->cfg);
	/* The parser checks each line again exactly as in READ (the same
	 * bytes): it starts over, the match line included. */
	mlog_bd_parser_init(&s->parser, s->log);
	return pass;
}

int mlog_bd_stream_end(struct mlog_bd_stream *s, const char **out, size_t *outlen,
		       char *err, size_t errlen)
{
	struct bd_final f;

	*out = NULL;
	*outlen = 0;
	s->out.len = 0;
	switch (s->pass) {
	case MLOG_PASS_READ:
		if (s->parser.first)
			return mlog_fail(err, errlen, s->log->name, s->no ? s->no : 1, NULL,
					 "empty log: the first line must be a \"match\" line");
		if (s->n_held)
			return rewind_to(s, MLOG_PASS_JUDGE);
		if (s->bad_line) {
			snprintf(err, errlen, "%s", s->bad);
			return -EINVAL;
		}
		return rewind_to(s, MLOG_PASS_WRITE);
	case MLOG_PASS_JUDGE:
		return rewind_to(s, MLOG_PASS_WRITE);
	case MLOG_PASS_WRITE:
		bd_final(&s->log->cfg, &s->state, &f);
		s->final = f;
		mlog_bd_put_final(&s->out, &s->log->cfg, &f);
		if (s->out.oom) {
			snprintf(err, errlen, "%s: out of memory", s->log->name);
			return -ENOMEM;
		}
		s->pass = MLOG_PASS_DONE;
		*out = s->out.p;
		*outlen = s->out.len;
		return MLOG_PASS_DONE;
	case MLOG_PASS_DONE:
		break;
	}
	return MLOG_PASS_DONE;
}

/* One pass of s over buf's lines, appending what it hands out to out
 * (NULL: nothing); the next pass or an error. */
static int run_pass(struct mlog_bd_stream *s, const char *buf, size_t len, struct mlog_buf *out,
		    char *err, size_t errlen)
{
	struct mlog_line line;
	const char *got;
	size_t pos = 0, gotlen;
	int no = 0, rc;

	while (mlog_next_line(buf, len, &pos, &no, &line)) {
		rc = mlog_bd_stream_line(s, line.start, line.len, &got, &gotlen, err, errlen);
		if (rc)
			return rc;
		if (out && got)
			mlog_buf_put(out, got, gotlen);
	}
	rc = mlog_bd_stream_end(s, &got, &gotlen, err, errlen);
	if (out && got)
		mlog_buf_put(out, got, gotlen);
	return rc;
}

/* The stream's passes over buf: all of them with out, READ and JUDGE
 * (WRITE only formats) without. 0 or an error. */
static int run_all(const char *name, const char *buf, size_t len, struct mlog_buf *out,
		   char *err, size_t errlen)
{
	struct mlog_bd_stream *s = mlog_bd_stream_new(name);
	int rc;

	if (!s) {
		snprintf(err, errlen, "%s: out of memory", name ? name : "log");
		return -ENOMEM;
	}
	do
		rc = run_pass(s, buf, len, out, err, errlen);
	while (rc == MLOG_PASS_JUDGE || (out && rc == MLOG_PASS_WRITE));
	mlog_bd_stream_free(s);
	if (out && out->oom && rc >= 0) {
		snprintf(err, errlen, "%s: out of memory", name ? name : "log");
		return -ENOMEM;
	}
	return rc < 0 ? rc : 0;
}

int mlog_bd_stream_judge(const char *name, const char *buf, size_t len,
			 char **out, size_t *outlen, char *err, size_t errlen)
{
	struct mlog_buf b = { 0 };
	int rc = run_all(name, buf, len, &b, err, errlen);

	if (rc) {
		mlog_buf_release(&b);
		*out = NULL;
		if (outlen)
			*outlen = 0;
		return rc;
	}
	rc = mlog_buf_finish(&b, out, outlen);
	if (rc)
		snprintf(err, errlen, "%s: out of memory", name ? name : "log");
	return rc;
}

int mlog_check(const char *name, const char *buf, size_t len, char *err, size_t errlen)
{
	char game[32], *out = NULL;
	size_t outlen;
	int rc = mlog_game(name, buf, len, game, sizeof(game), err, errlen);

	if (rc)
		return rc;
	if (strcmp(game, "beerdie")) {
		rc = mlog_judge(name, buf, len, &out, &outlen, err, errlen);
		free(out);
		return rc;
	}
	return run_all(name, buf, len, NULL, err, errlen);
}
