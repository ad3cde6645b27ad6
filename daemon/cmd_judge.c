/*
 * dyeref judge [--table] [FILE|-]: judges a match log (docs/match-log.md).
 *
 * Bad input gives a one-line message, exit 2 and an empty stdout: never
 * half an answer. A Beer Die log (also with --table) is judged line by
 * line in passes (mlog_bd_stream), the output written only in the last,
 * after every line was checked and judged, so memory does not grow with
 * the log. Dice logs are read whole (at most MLOG_MAX_INPUT bytes) and
 * their output built in memory first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "daemon/cliio.h"
#include "daemon/daemon.h"

static const char *team_players(const struct bd_match_cfg *cfg, int team, char *dst, size_t n)
{
	snprintf(dst, n, "%s and %s", cfg->players[team * 2], cfg->players[team * 2 + 1]);
	return dst;
}

/* A duty as a sentence: "oskar kills n' fills (BD-P8)". */
static void put_duty_words(FILE *b, const struct bd_match_cfg *cfg, const struct bd_duty *d)
{
	static const char *const verbs[] = {
		[BD_DUTY_KILL_N_FILL] = "kills n' fills",
		[BD_DUTY_FOLLOW_PARTNER] = "follows the partner",
		[BD_DUTY_SHOTGUN] = "shotguns the mine",
		[BD_DUTY_FINISH_WINNERS_CUPS] = "finish the winners' cups",
		[BD_DUTY_NAKED_LAP] = "run a naked lap",
	};
	const char *verb = (unsigned)d->kind <= BD_DUTY_NAKED_LAP ? verbs[d->kind] : "?";

	if (d->player >= 0 && d->player < BD_PLAYERS)
		fprintf(b, "%s %s", cfg->players[d->player], verb);
	else
		fprintf(b, "team %s %s", d->team == BD_TEAM_A ? "A" : "B", verb);
	fprintf(b, " (%s)", d->why ? d->why : "?");
}

/* "A +1", "B +2", "A +1  B +1" or "-". */
static const char *points_words(const int points[2], char *dst, size_t n)
{
	if (points[0] && points[1])
		snprintf(dst, n, "A +%d B +%d", points[0], points[1]);
	else if (points[0] || points[1])
		snprintf(dst, n, "%s +%d", points[0] ? "A" : "B", points[0] ? points[0] : points[1]);
	else
		snprintf(dst, n, "-");
	return dst;
}

static void put_house_words(FILE *b, const struct bd_house *h)
{
	struct bd_house d;
	const char *sep = "";

	bd_house_defaults(&d);
	fputs("  House rules: ", b);
	if (h->target_points != d.target_points || h->win_by != d.win_by) {
		fprintf(b, "play to %d, win by %d", h->target_points, h->win_by);
		sep = "; ";
	}
	if (h->kill_every != d.kill_every) {
		fprintf(b, "%skill n' fill every %d", sep, h->kill_every);
		sep = "; ";
	}
	if (h->min_toss_height_m != d.min_toss_height_m) {
		fprintf(b, "%stoss at least %g m", sep, h->min_toss_height_m);
		sep = "; ";
	}
	if (h->low_call != d.low_call) {
		fprintf(b, "%slow called %s", sep, h->low_call == BD_LOW_AUTO ? "by the referee" : "by players");
		sep = "; ";
	}
	if (h->illegal_catch_counts_as_floor != d.illegal_catch_counts_as_floor) {
		fprintf(b, "%sillegal_catch_counts_as_floor=%s", sep,
				h->illegal_catch_counts_as_floor ? "true" : "false");
		sep = "; ";
	}
	if (h->fifa_cannot_end_game != d.fifa_cannot_end_game) {
		fprintf(b, "%sfifa_cannot_end_game=%s", sep,
				h->fifa_cannot_end_game ? "true" : "false");
		sep = "; ";
	}
	if (h->popout_is_sink != d.popout_is_sink) {
		fprintf(b, "%spopout_is_sink=%s", sep, h->popout_is_sink ? "true" : "false");
		sep = "; ";
	}
	if (h->mine_voids_points != d.mine_voids_points) {
		fprintf(b, "%smine_voids_points=%s", sep,
				h->mine_voids_points ? "true" : "false");
		sep = "; ";
	}
	if (h->review_below != d.review_below) {
		fprintf(b, "%sreview below confidence %g", sep, h->review_below);
		sep = "; ";
	}
	fputs(sep[0] ? "\n" : "the defaults (docs/beer-die-rules.md)\n", b);
}

/* The scoreboard in words (--table): who plays, each throw's ruling with
 * its rules and duties, the final score. Its head, once the log is read;
 * *w gets the width of the thrower column. */
static void table_head(FILE *b, const char *name, const struct mlog_bd *log, int *w)
{
	const struct bd_match_cfg *cfg = &log->cfg;
	char ta[2 * BD_NAME_MAX + 8], tb[2 * BD_NAME_MAX + 8];

	fprintf(b, "Beer Die: %s\n", name);
	fprintf(b, "  Team A: %s\n  Team B: %s\n", team_players(cfg, 0, ta, sizeof(ta)),
			team_players(cfg, 1, tb, sizeof(tb)));
	if (log->rolloff.present)
		fprintf(b, "  Roll-off: a %d, team %s called %s: team %s throws first (BD-F1)\n",
				log->rolloff.value, log->rolloff.calling_team ? "B" : "A",
				log->rolloff.called_high ? "high" : "low",
				cfg->first_team ? "B" : "A");
	else
		fprintf(b, "  No roll-off: team A throws first\n");
	put_house_words(b, &cfg->house);
	*w = 7;
	for (int i = 0; i < BD_PLAYERS; i++)
		if ((int)strlen(cfg->players[i]) > *w)
			*w = (int)strlen(cfg->players[i]);
	fprintf(b, "\n  throw  %-*s  team  points     score\n", *w, "thrower");
}

/* One throw's rows: its ruling, the rules in words, its duties. */
static void table_row(FILE *b, const struct bd_match_cfg *cfg, const struct bd_ruling *r,
		      bool corrected, int w)
{
	const char *who = r->thrower >= 0 && r->thrower < BD_PLAYERS ? cfg->players[r->thrower] : "?";
	char pts[32];

	fprintf(b, "  %5d  %-*s  %-4s  %-9s  %2d-%d%s%s%s%s%s\n", r->throw_no, w, who,
		r->team ? "B" : "A", points_words(r->points, pts, sizeof(pts)),
		r->score[0], r->score[1], r->dead ? "  DEAD" : "",
		r->retoss ? "  RE-TOSS" : "", r->review ? "  REVIEW" : "",
		corrected ? "  CORRECTED" : "",
		r->over ? (r->winner ? "  GAME: B wins" : "  GAME: A wins") : "");
	for (size_t k = 0; k < r->n_why; k++) {
		char text[BD_RULE_TEXT_MAX];

		bd_rule_text(r->why[k], &cfg->house, text, sizeof(text));
		fprintf(b, "         %-7s %s\n", r->why[k], text);
	}
	for (size_t k = 0; k < r->n_duties; k++) {
		fputs("         -> ", b);
		put_duty_words(b, cfg, &r->duties[k]);
		fputs("\n", b);
	}
}

/* The final score and the duties of the end. */
static void table_final(FILE *b, const struct bd_match_cfg *cfg, const struct bd_final *f)
{
	char t[2 * BD_NAME_MAX + 8];

	fprintf(b, "\n  Final: A %d - %d B, ", f->score[0], f->score[1]);
	if (f->over)
		fprintf(b, "team %s (%s) wins\n", f->winner ? "B" : "A",
			team_players(cfg, f->winner ? 1 : 0, t, sizeof(t)));
	else
		fputs("not over\n", b);
	for (size_t k = 0; k < f->n_duties; k++) {
		char text[BD_RULE_TEXT_MAX];

		fputs("         -> ", b);
		put_duty_words(b, cfg, &f->duties[k]);
		if (bd_rule_text(f->duties[k].why, &cfg->house, text, sizeof(text)))
			fprintf(b, ": %s", text);
		fputs("\n", b);
	}
}

/* The log of a game other than Beer Die, whose first lines (blank blank
 * lines, then first[0..len)) are already read: the rest is read whole, as
 * mlog_judge() takes it. */
static int judge_whole(struct dd_lines *r, const char *name, int blank, const char *first,
		       size_t len, char **out, size_t *outlen, char *err, size_t errlen)
{
	struct { char *p; size_t n, cap; } b = { 0 };
	const char *line = first;
	int rc = 1;

	for (; rc == 1; rc = dd_lines_next(r, &line, &len, err, errlen)) {
		size_t need = (blank > 0 ? (size_t)blank : 0) + len + 1;

		if (b.n + need > MLOG_MAX_INPUT) {
			snprintf(err, errlen, "%s: larger than %u MiB, not a match log", name,
				 MLOG_MAX_INPUT >> 20);
			rc = -EFBIG;
			break;
		}
		if (b.n + need > b.cap) {
			size_t cap = b.cap ? b.cap : 64 * 1024;
			char *p;

			while (cap < b.n + need)
				cap *= 2;
			if (!(p = realloc(b.p, cap))) {
				snprintf(err, errlen, "%s: out of memory", name);
				rc = -ENOMEM;
				break;
			}
			b.p = p;
			b.cap = cap;
		}
		for (; blank > 0; blank--)
			b.p[b.n++] = '\n';
		memcpy(b.p + b.n, line, len);
		b.n += len;
		b.p[b.n++] = '\n';
	}
	if (!rc)
		rc = mlog_judge(name, b.p, b.n, out, outlen, err, errlen);
	free(b.p);
	return rc;
}

/* What the last pass hands out goes to stdout: the judge's lines, or
 * with table the scoreboard in words. */
static void emit(const struct mlog_bd_stream *s, bool table, int pass, int w,
		 const char *out, size_t outlen)
{
	const struct bd_match_cfg *cfg = &mlog_bd_stream_log(s)->cfg;
	const struct bd_ruling *r;
	bool corrected;

	if (!table) {
		if (outlen)	/* a pass may hand out nothing, and NULL */
			fwrite(out, 1, outlen, stdout);
	} else if (pass == MLOG_PASS_DONE) {
		table_final(stdout, cfg, mlog_bd_stream_final(s));
	} else {
		r = mlog_bd_stream_ruling(s, &corrected);
		table_row(stdout, cfg, r, corrected, w);
	}
}

/* Beer Die in passes over the lines; the first line (no, after blank
 * ones) is read. The exit status. */
static int judge_passes(struct dd_lines *r, const char *name, const char *line, size_t len,
			bool table, char *err, size_t errlen)
{
	struct mlog_bd_stream *s = mlog_bd_stream_new(name);
	const char *out;
	size_t outlen;
	int rc = 0, pass = MLOG_PASS_READ, first = dd_lines_no(r), w = 0;

	if (!s) {
		dd_log(DD_LOG_ERR, "judge: %s: out of memory", name);
		return DD_EXIT_FAIL;
	}
	/* The blank lines before the match line, so that numbers match. */
	for (int i = 1; i < first && !rc; i++)
		rc = mlog_bd_stream_line(s, "", 0, &out, &outlen, err, errlen);
	while (!rc && pass != MLOG_PASS_DONE) {
		int got = 1;

		for (; got == 1 && !rc; got = dd_lines_next(r, &line, &len, err, errlen)) {
			rc = mlog_bd_stream_line(s, line, len, &out, &outlen, err, errlen);
			if (!rc && out)
				emit(s, table, pass, w, out, outlen);
		}
		if (got < 0)
			rc = got;
		if (rc)
			break;
		pass = mlog_bd_stream_end(s, &out, &outlen, err, errlen);
		if (pass < 0) {
			rc = pass;
			break;
		}
		if (pass == MLOG_PASS_DONE) {
			emit(s, table, pass, w, out, outlen);
		} else if (pass == MLOG_PASS_WRITE && table) {
			table_head(stdout, name, mlog_bd_stream_log(s), &w);
		}
		if (pass != MLOG_PASS_DONE && (rc = dd_lines_rewind(r, err, errlen)) == 0) {
			got = dd_lines_next(r, &line, &len, err, errlen);
			if (got < 0)
				rc = got;
			else if (got == 0)
				len = 0, line = "";	/* cannot happen: the log had lines */
		}
	}
	mlog_bd_stream_free(s);
	if (rc) {
		dd_log(DD_LOG_ERR, "%s", err);
		return dd_input_status(rc);
	}
	if (fflush(stdout) || ferror(stdout)) {
		dd_log(DD_LOG_ERR, "judge: stdout: %s", strerror(errno ? errno : EIO));
		return DD_EXIT_FAIL;
	}
	return DD_EXIT_OK;
}

/* Beer Die line by line, other games whole (not with --table). */
static int judge_log(const char *path, bool table)
{
	static char obuf[64 * 1024];
	struct dd_lines *r;
	const char *name = "stdin", *line = NULL;
	char err[512] = "", game[32], *out = NULL;
	size_t len = 0, outlen = 0;
	FILE *f = stdin;
	int rc, status;

	if (path && strcmp(path, "-")) {
		name = path;
		f = fopen(path, "rb");
		if (!f) {
			int e = errno;

			dd_log(DD_LOG_ERR, "judge: %s: %s", path, strerror(e));
			return dd_input_status(-e);
		}
	}
	r = dd_lines_new(f, name, MLOG_LINE_MAX);
	if (!r) {
		dd_log(DD_LOG_ERR, "judge: %s: out of memory", name);
		status = DD_EXIT_FAIL;
		goto close_file;
	}
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	do {
		rc = dd_lines_next(r, &line, &len, err, sizeof(err));
		if (rc == 0) {
			snprintf(err, sizeof(err), "%s:%d: empty log: the first line must be a "
				 "\"match\" line", name, dd_lines_no(r) ? dd_lines_no(r) : 1);
			rc = -EINVAL;
		} else if (rc == 1)
			rc = mlog_game_line(name, line, len, dd_lines_no(r), game, sizeof(game), err,
					    sizeof(err));
	} while (rc == 1);
	if (rc) {
		dd_log(DD_LOG_ERR, "%s", err);
		status = dd_input_status(rc);
	} else if (!strcmp(game, "beerdie")) {
		status = judge_passes(r, name, line, len, table, err, sizeof(err));
	} else if (table) {
		dd_log(DD_LOG_ERR, "judge: --table: only Beer Die logs (this is %s)", game);
		status = DD_EXIT_USAGE;
	} else {
		rc = judge_whole(r, name, dd_lines_no(r) - 1, line, len, &out, &outlen, err,
				 sizeof(err));
		if (rc)
			dd_log(DD_LOG_ERR, "%s", err);
		status = rc ? dd_input_status(rc) : dd_write_stdout("judge", out, outlen);
		free(out);
	}
	dd_lines_free(r);
close_file:
	if (f != stdin)
		fclose(f);
	return status;
}

static void usage(void)
{
	printf("usage: dyeref judge [--table] [FILE|-]\n"
		"  Judges a match log (FILE, or stdin for - or none): one ruling line\n"
		"  per throw, then a final line. --table: a readable scoreboard instead.\n");
}

int dd_cmd_judge(int argc, char **argv)
{
	const char *path = NULL;
	bool table = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--table")) {
			table = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage();
			return DD_EXIT_OK;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			dd_log(DD_LOG_ERR, "judge: unknown option %s (usage: dyeref judge [--table] [FILE|-])",
			       argv[i]);
			return DD_EXIT_USAGE;
		} else if (path) {
			dd_log(DD_LOG_ERR, "judge: one log at a time (%s and %s)", path, argv[i]);
			return DD_EXIT_USAGE;
		} else {
			path = argv[i];
		}
	}
	return judge_log(path, table);
}
