/* The referee's dice games: each move judged by the dice engine over the
 * stored log. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	char *text = NULL, *buf = NULL, **out = NULL, *tabled = NULL, name[32];
	size_t n, len = strlen(header);
	json_t *h;
	int rc;

	if (r->m.log) {
		snprintf(err, errlen, "a match is under way: end it first");
		return -EBUSY;
	}
	rc = dd_ref_dice_make_way(r, err, errlen);
	if (rc)
		return rc;
	h = json_loads(header, 0, NULL);
	snprintf(name, sizeof(name), "%s", json_string_value(json_object_get(h, "game")) ?
		 json_string_value(json_object_get(h, "game")) : "");
	/* The table rides in the match line, as a Beer Die match's does. */
	if (json_is_object(h) && !json_object_get(h, "table") && r->cfg.table_id[0]) {
		json_t *t = json_pack("{s:s}", "id", r->cfg.table_id);

		if (t && r->cfg.table_name[0])
			json_object_set_new(t, "name", json_string(r->cfg.table_name));
		if (!t || json_object_set_new(h, "table", t) ||
		    !(tabled = json_dumps(h, JSON_COMPACT | JSON_PRESERVE_ORDER))) {
			json_decref(h);
			return -ENOMEM;
		}
		header = tabled;
		len = strlen(header);
	}
	json_decref(h);
	if (dice_game_parse(name) < 0) {
		snprintf(err, errlen, "game: expected yatzy, yatzy-joker, dreiermann or horse");
		free(tabled);
		return -EINVAL;
	}
	buf = malloc(len + 2);
	if (!buf) {
		free(tabled);
		return -ENOMEM;
	}
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
	free(tabled);
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
	if (rc == 0 || rc == -EALREADY) {
		r->dice_id = 0;
		r->dice_over = false;
	}
	free(out);
	free(text);
	free(buf);
	return rc == -EALREADY ? 0 : rc;
}

/* The dice match's log folded: its sheet as JSON (players, whose turn,
 * turns[]); *out the caller's (json_decref()). */
static int dice_sheet_of(const char *name, const char *log, size_t len, json_t **out,
			 char *err, size_t errlen)
{
	struct dice_sheet *sheet = malloc(sizeof(*sheet));
	char *text = NULL;
	size_t tlen;
	int rc = sheet ? mlog_dice_sheet(name, log, len, sheet, err, errlen) : -ENOMEM;

	*out = NULL;
	if (rc == 0)
		rc = mlog_dice_sheet_json(sheet, &text, &tlen);
	if (rc == 0)
		*out = json_loads(text, 0, NULL);
	if (rc == 0 && !*out)
		rc = -ENOMEM;
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(text);
	free(sheet);
	return rc;
}

/* The match's name for s: s itself, or the one name equal to it without
 * regard to case; NULL when neither. */
static const char *name_of(const json_t *players, const char *s)
{
	const char *found = NULL;
	size_t i, hits = 0;
	json_t *p;

	json_array_foreach(players, i, p) {
		if (!strcmp(json_string_value(p), s))
			return json_string_value(p);
		if (!strcasecmp(json_string_value(p), s)) {
			found = json_string_value(p);
			hits++;
		}
	}
	return hits == 1 ? found : NULL;
}

/* An object keyed by players (a Dreiermann share, a Horse roll-off) with
 * each key the match's name for it; keys that name nobody stay for the
 * engine to refuse. */
static void canonical_keys(json_t *o, const json_t *players)
{
	const char *key, *name;
	json_t *v, *copy = json_is_object(o) ? json_object() : NULL;

	if (!copy)
		return;
	json_object_foreach(o, key, v) {
		name = name_of(players, key);
		/* Two keys for one player: left as given, the engine names it. */
		if (json_object_get(copy, name ? name : key)) {
			json_decref(copy);
			return;
		}
		json_object_set(copy, name ? name : key, v);
	}
	json_object_clear(o);
	json_object_update(o, copy);
	json_decref(copy);
}

/* Contract 1: a dice move names its player by name (exact, then without
 * regard to case if that is unique) or by index 0..n-1; the log stores
 * the name, and names in shares and roll-offs likewise. A move without a
 * player is given fallback (the engine's next), so a correction that
 * changes the order shows as a turn that no longer fits. */
static int canonical_player(json_t *move, const json_t *sheet, json_t *fallback, char *err,
			    size_t errlen)
{
	const json_t *players = json_object_get(sheet, "players"), *v = json_object_get(move, "player");
	const char *type = json_string_value(json_object_get(move, "type")), *name;
	json_t *rolls = json_object_get(move, "rolls"), *roll;
	size_t i;

	canonical_keys(json_object_get(move, "share"), players);
	if (json_is_object(rolls))
		canonical_keys(rolls, players);
	json_array_foreach(rolls, i, roll)
		canonical_keys(json_object_get(roll, "share"), players);
	if (!v) {
		if (type && (!strcmp(type, "turn") || !strcmp(type, "choose")) &&
		    json_is_string(fallback))
			json_object_set(move, "player", fallback);
		return 0;
	}
	if (json_is_integer(v)) {
		json_int_t k = json_integer_value(v);

		if (k < 0 || (size_t)k >= json_array_size(players)) {
			snprintf(err, errlen, "move.player: %lld is not a player's number (0 to %zu)",
				 (long long)k, json_array_size(players) - 1);
			return -EINVAL;
		}
		json_object_set(move, "player", json_array_get(players, (size_t)k));
		return 0;
	}
	/* Not a string, or nobody's name: the engine says why. */
	name = json_is_string(v) ? name_of(players, json_string_value(v)) : NULL;
	if (name)
		json_object_set_new(move, "player", json_string(name));
	return 0;
}

static json_t *audit_json(const struct dd_audit *a)
{
	json_t *o;

	if (!a)
		return NULL;
	o = json_pack("{s:s,s:I}", "official", a->official, "wall_ms", (json_int_t)a->wall_ms);
	if (o && a->reason[0])
		json_object_set_new(o, "reason", json_string(a->reason));
	return o;
}

/* err without the engine's "match N:LINE: " (the line is the daemon's
 * own undo or correction, not one the official typed). */
static void drop_where(const char *name, char *err)
{
	size_t n = strlen(name);
	char *p;

	if (strncmp(err, name, n) || err[n] != ':')
		return;
	p = strstr(err + n + 1, ": ");
	if (p)
		memmove(err, p + 2, strlen(p + 2) + 1);
}

/* "full_house with 4-4-4-1-3 scores 0: write 0?" when the ruling writes a
 * box for 0; the dice as the player saw them last (kept, then rolled). */
static bool zero_question(const char *ruling, const char *line, char *err, size_t errlen)
{
	json_t *r = json_loads(ruling, 0, NULL), *m = json_loads(line, 0, NULL);
	/* A correction's dice are its new move's. */
	json_t *mv = json_object_get(m, "move") ? json_object_get(m, "move") : m;
	json_t *rolls = json_object_get(mv, "rolls"), *kept = json_object_get(r, "kept"), *v;
	size_t i, n = json_array_size(rolls), len = 0;
	char dice[32] = "";
	bool ask = json_is_string(json_object_get(r, "box")) &&
		   json_integer_value(json_object_get(r, "points")) == 0 &&
		   !json_object_get(r, "kind");

	if (ask && n > 1)
		json_array_foreach(json_array_get(kept, n - 2), i, v)
			len += (size_t)snprintf(dice + len, sizeof(dice) - len, "%s%lld", len ? "-" : "",
						(long long)json_integer_value(v));
	if (ask)
		json_array_foreach(json_array_get(rolls, n - 1), i, v)
			if (len < sizeof(dice))
				len += (size_t)snprintf(dice + len, sizeof(dice) - len, "%s%lld",
							len ? "-" : "", (long long)json_integer_value(v));
	if (ask)
		snprintf(err, errlen, "%s with %s scores 0: write 0?",
			 json_string_value(json_object_get(r, "box")), dice);
	json_decref(r);
	json_decref(m);
	return ask;
}

/* Judges line as the next line of the dice match's stored log and
 * commits it with the rulings it adds (the ruling of a move; an undo's;
 * a correction's recomputed ones, the corrected turn's first); whether
 * the game is complete then goes to r->dice_over (the match stays open
 * for corrections until it is ended). ask_zero: a move (or a correction)
 * that writes a box for 0 is not stored but answered -EAGAIN with the
 * question. */
static int dice_commit(struct dd_referee *r, const char *line, bool ask_zero, char *err,
		       size_t errlen)
{
	char *before = NULL, *after = NULL, *t0 = NULL, *t1 = NULL, **o0 = NULL, **o1 = NULL;
	char name[32];
	size_t l0, l1, n0 = 0, n1 = 0;
	struct dice_sheet *sheet = NULL;
	int rc;

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
	if (ask_zero && n1 > n0 && zero_question(o1[n0 - 1], line, err, errlen)) {
		rc = -EAGAIN;
		goto free_all;
	}
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
	/* Stored: a sheet that cannot be read now (memory) counts as open. */
	r->dice_over = sheet && mlog_dice_sheet(name, after, l1, sheet, err, errlen) == 0 &&
		       sheet->over;
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

/* The sheet of the dice game under way (see dice_sheet_of). */
static int dice_now(struct dd_referee *r, json_t **sheet, char *err, size_t errlen)
{
	char *log = NULL, name[32];
	size_t len;
	int rc;

	*sheet = NULL;
	if (!r->dice_id) {
		snprintf(err, errlen, "no dice game under way");
		return -ENOENT;
	}
	snprintf(name, sizeof(name), "match %lld", (long long)r->dice_id);
	rc = dice_text(r, r->dice_id, NULL, &log, &len, err, errlen);
	if (rc == 0)
		rc = dice_sheet_of(name, log, len, sheet, err, errlen);
	free(log);
	return rc;
}

/* A move from the console as its log line: an object of a move type,
 * its player canonical. *out the caller's (json_decref()). */
static int move_line(const char *line, const json_t *sheet, json_t *fallback, json_t **out,
		     char *err, size_t errlen)
{
	json_t *m = json_loads(line, 0, NULL);
	const char *type = json_string_value(json_object_get(m, "type"));

	*out = NULL;
	if (!json_is_object(m) || !type) {
		json_decref(m);
		snprintf(err, errlen, "move: a match-log line ({\"type\":\"turn\",...})");
		return -EINVAL;
	}
	if (!strcmp(type, "match") || !strcmp(type, "undo") || !strcmp(type, "replace") ||
	    json_object_get(m, "audit")) {
		snprintf(err, errlen, "move.%s: not part of a move (undo and correct are commands)",
			 json_object_get(m, "audit") ? "audit" : "type");
		json_decref(m);
		return -EINVAL;
	}
	if (canonical_player(m, sheet, fallback, err, errlen)) {
		json_decref(m);
		return -EINVAL;
	}
	*out = m;
	return 0;
}

static int commit_json(struct dd_referee *r, json_t *o, bool ask_zero, char *err, size_t errlen)
{
	char *line = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	int rc;

	if (!line) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = dice_commit(r, line, ask_zero, err, errlen);
	free(line);
	return rc;
}

int dd_referee_dice_move(struct dd_referee *r, const char *line, bool accept_zero,
			 const struct dd_audit *audit, char *err, size_t errlen)
{
	json_t *sheet, *m = NULL;
	int rc = dice_now(r, &sheet, err, errlen);

	if (rc == 0)
		rc = move_line(line, sheet, json_object_get(sheet, "turn"), &m, err, errlen);
	if (rc == 0 && audit)
		json_object_set_new(m, "audit", audit_json(audit));
	if (rc == 0)
		rc = commit_json(r, m, !accept_zero, err, errlen);
	json_decref(m);
	json_decref(sheet);
	return rc;
}

/* The last turn standing in a sheet's turns[], 0 none; its entry in *e. */
static int last_standing(const json_t *sheet, int turn, const json_t **e)
{
	const json_t *turns = json_object_get(sheet, "turns"), *t;
	int last = 0;
	size_t i;

	*e = NULL;
	json_array_foreach(turns, i, t)
		if (!json_is_true(json_object_get(t, "undone")) &&
		    (!turn || json_integer_value(json_object_get(t, "turn")) == turn)) {
			last = (int)json_integer_value(json_object_get(t, "turn"));
			*e = t;
		}
	return last;
}

/* An official's undo or correction line o (taken) with the audit, judged
 * and committed; the engine's message without the line's place. */
static int commit_official(struct dd_referee *r, json_t *o, bool ask_zero,
			   const struct dd_audit *audit, char *err, size_t errlen)
{
	char name[32];
	int rc;

	if (o && audit)
		json_object_set_new(o, "audit", audit_json(audit));
	snprintf(name, sizeof(name), "match %lld", (long long)r->dice_id);
	rc = commit_json(r, o, ask_zero, err, errlen);
	if (rc == -EINVAL)
		drop_where(name, err);
	json_decref(o);
	return rc;
}

int dd_referee_dice_undo(struct dd_referee *r, const struct dd_audit *audit, char *err,
			 size_t errlen)
{
	const json_t *e;
	json_t *sheet;
	int rc = dice_now(r, &sheet, err, errlen), n;

	if (rc)
		return rc;
	n = last_standing(sheet, 0, &e);
	json_decref(sheet);
	if (n == 0) {
		snprintf(err, errlen, "no turn to undo");
		return -ENOENT;
	}
	return commit_official(r, json_pack("{s:s,s:i}", "type", "undo", "turn", n), false, audit,
			       err, errlen);
}

int dd_referee_dice_correct(struct dd_referee *r, int turn, const char *line, bool accept_zero,
			    const struct dd_audit *audit, char *err, size_t errlen)
{
	const json_t *e;
	json_t *sheet, *m = NULL;
	int rc = dice_now(r, &sheet, err, errlen);

	if (rc)
		return rc;
	if (turn < 1 || !last_standing(sheet, turn, &e)) {
		snprintf(err, errlen, "turn: no turn %d to correct (turns 1 to %d stand)", turn,
			 last_standing(sheet, 0, &e));
		json_decref(sheet);
		return -EINVAL;
	}
	/* Without a player the turn stays with whoever played it. */
	rc = move_line(line, sheet, json_object_get(e, "player"), &m, err, errlen);
	if (rc == 0)
		rc = commit_official(r, json_pack("{s:s,s:i,s:o}", "type", "replace", "turn", turn,
						  "move", m), !accept_zero, audit, err, errlen);
	json_decref(sheet);
	return rc;
}

int dd_referee_dice_result(struct dd_referee *r, int64_t id, json_t **out)
{
	char *text = NULL;
	json_t *sheet, *o;
	int rc;

	*out = NULL;
	rc = dd_referee_sheet(r, (long)id, &text);
	if (rc)
		return rc;
	sheet = json_loads(text, 0, NULL);
	free(text);
	if (!sheet)
		return -ENOMEM;
	o = json_is_object(json_object_get(sheet, "last")) ?
	    json_deep_copy(json_object_get(sheet, "last")) : json_object();
	if (!o || json_object_set_new(o, "match", json_integer(id)) ||
	    json_object_set_new(o, "sheet", sheet)) {
		json_decref(o);
		return -ENOMEM;
	}
	*out = o;
	return 0;
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

/* A restored dice game may be complete: its last move was stored and no
 * End yet (the official had it open for corrections, or the daemon
 * stopped before the End). It stays the match under way, over. */
void dd_ref_dice_read_over(struct dd_referee *r)
{
	char *log = NULL, err[256] = "", name[32];
	struct dice_sheet *sheet = malloc(sizeof(*sheet));
	size_t len;
	int rc = sheet ? dice_text(r, r->dice_id, NULL, &log, &len, err, sizeof(err)) : -ENOMEM;

	snprintf(name, sizeof(name), "match %lld", (long long)r->dice_id);
	if (rc == 0)
		rc = mlog_dice_sheet(name, log, len, sheet, err, sizeof(err));
	r->dice_over = rc == 0 && sheet->over;
	if (r->dice_over)
		dd_log(DD_LOG_INFO, "%s: the game is complete, not ended: open for corrections "
		       "until End", name);
	if (rc)
		dd_log(DD_LOG_WARN, "%s: %s", name, err[0] ? err : strerror(-rc));
	free(sheet);
	free(log);
}

int dd_ref_dice_make_way(struct dd_referee *r, char *err, size_t errlen)
{
	char why[256] = "";
	int64_t id = r->dice_id;
	int rc;

	if (!r->dice_id)
		return 0;
	if (!r->dice_over) {
		snprintf(err, errlen, "a match is under way: end it first");
		return -EBUSY;
	}
	rc = dd_ref_dice_end(r, why, sizeof(why));
	if (rc) {
		snprintf(err, errlen, "ending the finished dice game: %s", why);
		return rc;
	}
	dd_log(DD_LOG_INFO, "match %lld: the finished dice game ended for a new match", (long long)id);
	return 0;
}
