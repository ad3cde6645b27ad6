/* The referee's dice games: each move judged by the dice engine over the
 * stored log. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/referee.h"
#include "daemon/referee_internal.h"
#include "db/db.h"

/* ---- Dice games ------------------------------------------------------------
 * The stored log is the state: each move is judged by the dice engine as
 * the last line of the whole log (short: a few dozen lines), so the engine's
 * own checks and messages answer the console, and what is stored is exactly
 * what `dyeref judge` would say about the exported log. */

/* The match's stored lines joined with "\n", then extra (may be NULL) as
 * one more line. *out is the caller's (free()). */
static int dice_text(struct dd_referee *r, int64_t id, const char *extra, char **out,
		     size_t *outlen, char *err, size_t errlen)
{
	return db_match_text(r->db, id, extra, out, outlen, err, errlen);
}

/* The engine's output for a log, split into lines (pointers into *text, which
 * the caller frees): rulings, then the final line last. */
static int dice_judge(const char *name, const char *buf, size_t len, char **text,
		      char ***lines, size_t *n, char *err, size_t errlen)
{
	size_t outlen, cap = 0;
	char *save = NULL, *l;
	int rc = mlog_dice_judge(name, buf, len, text, &outlen, err, errlen);

	*lines = NULL;
	*n = 0;
	if (rc)
		return rc;
	for (size_t i = 0; i < outlen; i++)
		cap += (*text)[i] == '\n';
	*lines = calloc(cap + 1, sizeof(**lines));
	if (!*lines) {
		free(*text);
		*text = NULL;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (l = strtok_r(*text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		(*lines)[(*n)++] = l;
	return 0;
}

int dd_referee_dice_start(struct dd_referee *r, const char *header, char *err, size_t errlen)
{
	char *text = NULL, *buf = NULL, **out = NULL, name[32];
	size_t n, len = strlen(header);
	json_t *h;
	int rc;

	if (r->m.log || r->dice_id) {
		snprintf(err, errlen, "a match is under way: end it first");
		return -EBUSY;
	}
	h = json_loads(header, 0, NULL);
	snprintf(name, sizeof(name), "%s", json_string_value(json_object_get(h, "game")) ?
		 json_string_value(json_object_get(h, "game")) : "");
	json_decref(h);
	if (dice_game_parse(name) < 0) {
		snprintf(err, errlen, "game: expected yatzy, yatzy-joker, dreiermann or horse");
		return -EINVAL;
	}
	buf = malloc(len + 2);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, header, len);
	memcpy(buf + len, "\n", 2);
	/* The engine reads the match line first: players and house rules. */
	rc = dice_judge("match", buf, len + 1, &text, &out, &n, err, errlen);
	if (rc == 0)
		rc = db_match_start(r->db, header, dd_mono_ns(), &r->dice_id, err, errlen);
	if (rc == 0)
		snprintf(r->dice_game, sizeof(r->dice_game), "%s", name);
	free(out);
	free(text);
	free(buf);
	return rc;
}

/* Ends the dice match with the engine's final line. */
int dd_ref_dice_end(struct dd_referee *r, char *err, size_t errlen)
{
	char *buf = NULL, *text = NULL, **out = NULL, name[32];
	size_t len, n = 0;
	int rc;

	snprintf(name, sizeof(name), "match %lld", (long long)r->dice_id);
	rc = dice_text(r, r->dice_id, NULL, &buf, &len, err, errlen);
	if (rc == 0)
		rc = dice_judge(name, buf, len, &text, &out, &n, err, errlen);
	if (rc == 0)
		rc = db_match_end(r->db, r->dice_id, out[n - 1], dd_mono_ns(), err, errlen);
	if (rc == 0 || rc == -EALREADY)
		r->dice_id = 0;
	free(out);
	free(text);
	free(buf);
	return rc == -EALREADY ? 0 : rc;
}

int dd_referee_dice_move(struct dd_referee *r, const char *line, char *err, size_t errlen)
{
	char *before = NULL, *after = NULL, *t0 = NULL, *t1 = NULL, **o0 = NULL, **o1 = NULL;
	char name[32];
	size_t l0, l1, n0 = 0, n1 = 0;
	struct dice_sheet *sheet = NULL;
	int rc;

	if (!r->dice_id) {
		snprintf(err, errlen, "no dice game under way");
		return -ENOENT;
	}
	snprintf(name, sizeof(name), "match %lld", (long long)r->dice_id);
	rc = dice_text(r, r->dice_id, NULL, &before, &l0, err, errlen);
	if (rc == 0)
		rc = dice_text(r, r->dice_id, line, &after, &l1, err, errlen);
	if (rc == 0)
		rc = dice_judge(name, before, l0, &t0, &o0, &n0, err, errlen);
	/* The engine refuses an illegal move with the line, field and rule. */
	if (rc == 0)
		rc = dice_judge(name, after, l1, &t1, &o1, &n1, err, errlen);
	if (rc)
		goto free_all;
	{
		/* Its rulings: those the new line added (the final line is last). */
		struct db_entry e = { .line = line, .t_ns = dd_mono_ns(),
				      .rulings = (const char *const *)o1 + (n0 - 1),
				      .n_rulings = n1 - n0 };

		rc = db_append(r->db, r->dice_id, &e, NULL, err, errlen);
	}
	if (rc)
		goto free_all;
	sheet = malloc(sizeof(*sheet));
	if (sheet && mlog_dice_sheet(name, after, l1, sheet, err, errlen) == 0 && sheet->over)
		rc = dd_ref_dice_end(r, err, errlen);
free_all:
	free(sheet);
	free(o0);
	free(o1);
	free(t0);
	free(t1);
	free(before);
	free(after);
	return rc;
}

/* The live dice match for the state: game, sheet (inline, so the screen
 * redraws it on each push without asking). */
json_t *dd_ref_dice_state(struct dd_referee *r, int64_t id, const char *game)
{
	char *sheet = NULL;
	json_t *o = json_pack("{s:I,s:s}", "match", (json_int_t)id, "game", game);

	if (o && dd_referee_sheet(r, id, &sheet) == 0)
		json_object_set_new(o, "sheet", json_loads(sheet, 0, NULL));
	free(sheet);
	return o;
}

/* A dice game whose last move was committed but not its end (the daemon
 * was killed between the two) is over: end it now, as the move would have,
 * rather than restore a finished game as the one under way. */
void dd_ref_dice_end_if_over(struct dd_referee *r)
{
	char *log = NULL, err[256] = "", name[32];
	struct dice_sheet *sheet = malloc(sizeof(*sheet));
	size_t len;
	int rc = sheet ? dice_text(r, r->dice_id, NULL, &log, &len, err, sizeof(err)) : -ENOMEM;

	snprintf(name, sizeof(name), "match %lld", (long long)r->dice_id);
	if (rc == 0)
		rc = mlog_dice_sheet(name, log, len, sheet, err, sizeof(err));
	if (rc == 0 && sheet->over) {
		rc = dd_ref_dice_end(r, err, sizeof(err));
		if (rc == 0)
			dd_log(DD_LOG_INFO, "%s: its last move was stored, its end was not: ended now", name);
	}
	if (rc)
		dd_log(DD_LOG_WARN, "%s: %s", name, err[0] ? err : strerror(-rc));
	free(sheet);
	free(log);
}

