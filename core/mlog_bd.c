/*
 * Beer Die match logs in memory: building one, judging it (corrections
 * applied, then one fold from the start: the log is the truth), and
 * writing it and its rulings out in the canonical form of
 * docs/match-log.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mlog_internal.h"

const char *const mlog_bd_palette[] = {
	"orange", "blue", "green", "yellow", "red", "purple", "pink", "white", NULL
};

bool mlog_bd_color_ok(const char *name)
{
	for (size_t i = 0; mlog_bd_palette[i]; i++)
		if (!strcmp(name, mlog_bd_palette[i]))
			return true;
	return false;
}

bool mlog_table_id_ok(const char *id)
{
	size_t n = 0;

	for (; id[n]; n++)
		if (!((id[n] >= 'a' && id[n] <= 'z') || (id[n] >= '0' && id[n] <= '9') || id[n] == '-'))
			return false;
	return n > 0 && n < MLOG_TABLE_ID_MAX;
}

const char *mlog_bd_color(const struct mlog_bd *log, int team)
{
	if (log->colors[team][0])
		return log->colors[team];
	return team == BD_TEAM_A ? "orange" : "blue";
}

struct mlog_bd *mlog_bd_new(const char *name, const struct bd_match_cfg *cfg)
{
	struct mlog_bd *log = calloc(1, sizeof(*log));

	if (!log)
		goto fail;
	log->name = strdup(name ? name : "log");
	if (!log->name)
		goto free_log;
	log->cfg = *cfg;
	log->match_line = 1;
	return log;
free_log:
	free(log);
fail:
	errno = ENOMEM;
	return NULL;
}

void mlog_bd_free(struct mlog_bd *log)
{
	if (!log)
		return;
	free(log->entries);
	free(log->name);
	free(log);
}

int mlog_bd_set_rolloff(struct mlog_bd *log, int value, int calling_team, bool called_high)
{
	int first;

	if (calling_team != BD_TEAM_A && calling_team != BD_TEAM_B)
		return -EINVAL;
	first = bd_rolloff_winner(value, calling_team, called_high);
	if (first < 0)
		return -EINVAL;
	log->rolloff.present = true;
	log->rolloff.value = value;
	log->rolloff.calling_team = calling_team;
	log->rolloff.called_high = called_high;
	log->cfg.first_team = first;
	return 0;
}

static int add_entry(struct mlog_bd *log, enum mlog_entry_kind kind, int throw_no,
		     const struct bd_throw *t)
{
	struct bd_throw copy = *t;	/* t may point into entries, which may move */
	struct mlog_bd_entry *e;

	if (log->n_entries == log->cap_entries) {
		size_t cap = log->cap_entries ? log->cap_entries * 2 : 16;

		if (cap > SIZE_MAX / sizeof(*e))
			return -ENOMEM;
		e = realloc(log->entries, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		log->entries = e;
		log->cap_entries = cap;
	}
	e = &log->entries[log->n_entries++];
	e->kind = kind;
	e->line = 0;
	e->throw_no = throw_no;
	e->t = copy;
	e->undo = false;
	memset(&e->audit, 0, sizeof(e->audit));
	e->duty[0] = '\0';
	e->done = false;
	return 0;
}

int mlog_bd_add_throw(struct mlog_bd *log, const struct bd_throw *t)
{
	int rc;

	if (log->n_throws >= (size_t)INT32_MAX)
		return -ENOMEM;
	rc = add_entry(log, MLOG_THROW, (int)log->n_throws + 1, t);
	if (rc)
		return rc;
	return (int)++log->n_throws;
}

int mlog_bd_add_correct(struct mlog_bd *log, int throw_no, const struct bd_throw *t)
{
	if (throw_no < 1 || (size_t)throw_no > log->n_throws)
		return -EINVAL;
	return add_entry(log, MLOG_CORRECT, throw_no, t);
}

int mlog_bd_add_confirm(struct mlog_bd *log, int throw_no, const struct mlog_audit *audit)
{
	struct bd_throw none;
	int rc;

	if (throw_no < 1 || (size_t)throw_no > log->n_throws)
		return -EINVAL;
	memset(&none, 0, sizeof(none));
	none.thrower = BD_NOBODY;
	none.apex_m = -1;
	none.apex_sd_m = -1;
	rc = add_entry(log, MLOG_CONFIRM, throw_no, &none);
	if (rc == 0)
		log->entries[log->n_entries - 1].audit = *audit;
	return rc;
}

int mlog_bd_add_duty(struct mlog_bd *log, const char *duty, bool done,
		     const struct mlog_audit *audit)
{
	struct bd_throw none;
	size_t n = strlen(duty);
	int rc;

	if (n == 0 || n >= MLOG_DUTY_ID_MAX)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)duty[i] < 0x20 || duty[i] == '"' || duty[i] == '\\')
			return -EINVAL;
	memset(&none, 0, sizeof(none));
	none.thrower = BD_NOBODY;
	none.apex_m = -1;
	none.apex_sd_m = -1;
	rc = add_entry(log, MLOG_DUTY, 0, &none);
	if (rc == 0) {
		struct mlog_bd_entry *e = &log->entries[log->n_entries - 1];

		memcpy(e->duty, duty, n + 1);
		e->done = done;
		e->audit = *audit;
	}
	return rc;
}

bool mlog_bd_duty_done(const struct mlog_bd *log, const char *duty,
		       const struct mlog_bd_entry **by)
{
	for (size_t i = log->n_entries; i-- > 0;) {
		const struct mlog_bd_entry *e = &log->entries[i];

		if (e->kind == MLOG_DUTY && !strcmp(e->duty, duty)) {
			if (by)
				*by = e;
			return e->done;
		}
	}
	if (by)
		*by = NULL;
	return false;
}

/* ---- equality ---- */

static bool house_equal(const struct bd_house *a, const struct bd_house *b)
{
	return a->target_points == b->target_points && a->win_by == b->win_by &&
	       a->kill_every == b->kill_every &&
	       a->min_toss_height_m == b->min_toss_height_m &&
	       a->low_call == b->low_call &&
	       a->illegal_catch_counts_as_floor == b->illegal_catch_counts_as_floor &&
	       a->fifa_cannot_end_game == b->fifa_cannot_end_game &&
	       a->popout_is_sink == b->popout_is_sink &&
	       a->mine_voids_points == b->mine_voids_points &&
	       a->review_below == b->review_below;
}

/* The fields the kind uses, as the canonical form keeps them. */
static bool event_equal(const struct bd_event *a, const struct bd_event *b)
{
	if (a->kind != b->kind || strcmp(a->source, b->source) ||
	    a->has_confidence != b->has_confidence ||
	    (a->has_confidence && a->confidence != b->confidence) || a->t_ns != b->t_ns)
		return false;
	switch (a->kind) {
	case BD_EV_TABLE:
		return a->half == b->half && a->has_xy == b->has_xy &&
		       (!a->has_xy || (a->x == b->x && a->y == b->y));
	case BD_EV_CUP:
		return a->player == b->player && a->sink == b->sink && a->popout == b->popout;
	case BD_EV_REST:
		return a->face == b->face;
	case BD_EV_CATCH:
		return a->player == b->player && a->hands == b->hands &&
		       a->trapped == b->trapped && a->over_table == b->over_table;
	case BD_EV_KICK:
		return a->player == b->player && !strcmp(a->part, b->part);
	case BD_EV_LOW_CALL:
		return a->player == b->player;
	case BD_EV_MINE:
	case BD_EV_FLOOR:
	case BD_EV_RETOSS:
		return true;
	}
	return false;
}

static bool throw_equal(const struct bd_throw *a, const struct bd_throw *b)
{
	if (a->thrower != b->thrower || a->dye_up != b->dye_up ||
	    (a->apex_m >= 0) != (b->apex_m >= 0) ||
	    (a->apex_m >= 0 && a->apex_m != b->apex_m) ||
	    (a->apex_sd_m > 0) != (b->apex_sd_m > 0) ||
	    (a->apex_sd_m > 0 && a->apex_sd_m != b->apex_sd_m) || a->n_events != b->n_events)
		return false;
	for (size_t i = 0; i < a->n_events; i++)
		if (!event_equal(&a->events[i], &b->events[i]))
			return false;
	return true;
}

static bool audit_equal(const struct mlog_audit *a, const struct mlog_audit *b)
{
	return a->present == b->present &&
	       (!a->present || (!strcmp(a->official, b->official) && a->wall_ms == b->wall_ms &&
				!strcmp(a->reason, b->reason)));
}

bool mlog_bd_equal(const struct mlog_bd *a, const struct mlog_bd *b)
{
	for (int i = 0; i < BD_PLAYERS; i++)
		if (strcmp(a->cfg.players[i], b->cfg.players[i]))
			return false;
	if (strcmp(a->team_names[0], b->team_names[0]) || strcmp(a->team_names[1], b->team_names[1]))
		return false;
	if (strcmp(a->colors[0], b->colors[0]) || strcmp(a->colors[1], b->colors[1]))
		return false;
	if (strcmp(a->table_id, b->table_id) || strcmp(a->table_name, b->table_name))
		return false;
	if (a->cfg.first_team != b->cfg.first_team || !house_equal(&a->cfg.house, &b->cfg.house) ||
	    a->rolloff.present != b->rolloff.present)
		return false;
	if (a->rolloff.present &&
	    (a->rolloff.value != b->rolloff.value ||
	     a->rolloff.calling_team != b->rolloff.calling_team ||
	     a->rolloff.called_high != b->rolloff.called_high))
		return false;
	if (a->n_entries != b->n_entries || a->n_throws != b->n_throws)
		return false;
	for (size_t i = 0; i < a->n_entries; i++) {
		const struct mlog_bd_entry *x = &a->entries[i], *y = &b->entries[i];

		if (x->kind != y->kind || x->throw_no != y->throw_no || !throw_equal(&x->t, &y->t) ||
		    x->undo != y->undo || !audit_equal(&x->audit, &y->audit) ||
		    strcmp(x->duty, y->duty) || x->done != y->done)
			return false;
	}
	return true;
}

/* ---- judging ---- */

int mlog_bd_fold_fail(char *err, size_t errlen, const char *name, int line, size_t no,
		      const struct bd_state *s, const char *msg)
{
	if (no > 1 && s->over)
		return mlog_fail(err, errlen, name, line, NULL,
				 "throw %zu: after the end of the game (%s won %d-%d with throw %zu)",
				 no, mlog_team_name(s->winner), s->score[0], s->score[1], no - 1);
	return mlog_fail(err, errlen, name, line, NULL, "throw %zu: %s", no,
			 msg && msg[0] ? msg : "cannot be judged");
}

int mlog_bd_replay(const struct mlog_bd *log, struct mlog_bd_result *res,
		   char *err, size_t errlen)
{
	struct bd_throw *throws = NULL;
	const struct mlog_bd_entry **from = NULL;	/* the entry each throw's observations come from */
	char msg[256] = "";
	size_t n = log->n_throws, bad = 0;
	int rc;

	memset(res, 0, sizeof(*res));
	if (n) {
		throws = malloc(n * sizeof(*throws));
		from = malloc(n * sizeof(*from));
		res->rulings = calloc(n, sizeof(*res->rulings));
		res->corrected = calloc(n, sizeof(*res->corrected));
		if (!throws || !from || !res->rulings || !res->corrected) {
			rc = -ENOMEM;
			snprintf(err, errlen, "%s: out of memory", log->name);
			goto free_result;
		}
	}
	for (size_t i = 0; i < log->n_entries; i++) {
		const struct mlog_bd_entry *e = &log->entries[i];

		if (e->kind == MLOG_DUTY)
			continue;	/* an official's mark, not an observation */
		if (e->throw_no < 1 || (size_t)e->throw_no > n) {
			rc = mlog_fail(err, errlen, log->name, e->line, "throw",
				       "no throw %d (%zu in the log)", e->throw_no, n);
			goto free_result;
		}
		if (e->kind == MLOG_CONFIRM)
			continue;	/* an official's word, not an observation */
		throws[e->throw_no - 1] = e->t;
		from[e->throw_no - 1] = e;
		if (e->kind == MLOG_CORRECT)
			res->corrected[e->throw_no - 1] = true;
	}
	rc = bd_fold(&log->cfg, throws, n, &res->state, res->rulings, &bad, msg, sizeof(msg));
	if (rc) {
		struct bd_state before;
		char ignored[64];
		size_t bad_before;

		/* The state before the refused throw, to say how the game ended
		 * when that is why. */
		if (bd_fold(&log->cfg, throws, bad, &before, res->rulings, &bad_before, ignored,
			    sizeof(ignored)))
			before.over = false;
		if (bad < n)
			mlog_bd_fold_fail(err, errlen, log->name, from[bad]->line, bad + 1, &before, msg);
		else
			snprintf(err, errlen, "%s: %s", log->name, msg[0] ? msg : "cannot be judged");
		rc = rc == -ENOMEM ? rc : -EINVAL;
		goto free_result;
	}
	bd_final(&log->cfg, &res->state, &res->final);
	res->n = n;
	free(from);
	free(throws);
	return 0;
free_result:
	free(from);
	free(throws);
	mlog_bd_result_free(res);
	return rc;
}

void mlog_bd_result_free(struct mlog_bd_result *res)
{
	free(res->rulings);
	free(res->corrected);
	memset(res, 0, sizeof(*res));
}

/* ---- writing ---- */

static void put_duties(struct mlog_buf *b, const struct bd_match_cfg *cfg,
		       const struct bd_duty *d, size_t n)
{
	mlog_buf_puts(b, "\"duties\":[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			mlog_buf_puts(b, ",");
		if (d[i].player >= 0 && d[i].player < BD_PLAYERS) {
			mlog_buf_puts(b, "{\"player\":");
			mlog_buf_str(b, cfg->players[d[i].player]);
		} else {
			mlog_buf_printf(b, "{\"team\":\"%s\"", mlog_team_name(d[i].team));
		}
		mlog_buf_puts(b, ",\"duty\":");
		mlog_buf_str(b, bd_duty_name(d[i].kind));
		mlog_buf_puts(b, ",\"why\":");
		mlog_buf_str(b, d[i].why ? d[i].why : "");
		mlog_buf_puts(b, "}");
	}
	mlog_buf_puts(b, "]");
}

void mlog_bd_put_ruling(struct mlog_buf *b, const struct bd_match_cfg *cfg,
		       const struct bd_ruling *r, bool corrected)
{
	mlog_buf_printf(b, "{\"type\":\"ruling\",\"throw\":%d,\"thrower\":", r->throw_no);
	if (r->thrower >= 0 && r->thrower < BD_PLAYERS)
		mlog_buf_str(b, cfg->players[r->thrower]);
	else
		mlog_buf_puts(b, "null");
	mlog_buf_printf(b, ",\"team\":\"%s\",\"points\":{\"A\":%d,\"B\":%d},"
			"\"score\":{\"A\":%d,\"B\":%d},\"dead\":%s,\"review\":%s,\"why\":[",
			mlog_team_name(r->team), r->points[0], r->points[1],
			r->score[0], r->score[1], r->dead ? "true" : "false",
			r->review ? "true" : "false");
	for (size_t i = 0; i < r->n_why; i++) {
		if (i)
			mlog_buf_puts(b, ",");
		mlog_buf_str(b, r->why[i]);
	}
	mlog_buf_puts(b, "],");
	put_duties(b, cfg, r->duties, r->n_duties);
	if (r->note[0]) {
		mlog_buf_puts(b, ",\"note\":");
		mlog_buf_str(b, r->note);
	}
	if (r->retoss)
		mlog_buf_puts(b, ",\"retoss\":true");
	if (corrected)
		mlog_buf_puts(b, ",\"corrected\":true");
	mlog_buf_puts(b, "}\n");
}

void mlog_bd_put_final(struct mlog_buf *b, const struct bd_match_cfg *cfg,
		      const struct bd_final *f)
{
	mlog_buf_printf(b, "{\"type\":\"final\",\"score\":{\"A\":%d,\"B\":%d},\"over\":%s,\"winner\":",
			f->score[0], f->score[1], f->over ? "true" : "false");
	if (f->winner == BD_TEAM_A || f->winner == BD_TEAM_B)
		mlog_buf_printf(b, "\"%s\"", mlog_team_name(f->winner));
	else
		mlog_buf_puts(b, "null");
	mlog_buf_puts(b, ",");
	put_duties(b, cfg, f->duties, f->n_duties);
	mlog_buf_puts(b, "}\n");
}

int mlog_bd_ruling_line(const struct bd_match_cfg *cfg, const struct bd_ruling *r,
			bool corrected, char **out, size_t *outlen)
{
	struct mlog_buf b = { 0 };

	mlog_bd_put_ruling(&b, cfg, r, corrected);
	return mlog_buf_finish(&b, out, outlen);
}

int mlog_bd_final_line(const struct bd_match_cfg *cfg, const struct bd_final *f,
		       char **out, size_t *outlen)
{
	struct mlog_buf b = { 0 };

	mlog_bd_put_final(&b, cfg, f);
	return mlog_buf_finish(&b, out, outlen);
}

int mlog_bd_judge(const struct mlog_bd *log, char **out, size_t *outlen,
		  char *err, size_t errlen)
{
	struct mlog_bd_result res;
	struct mlog_buf b = { 0 };
	int rc;

	*out = NULL;
	if (outlen)
		*outlen = 0;
	rc = mlog_bd_replay(log, &res, err, errlen);
	if (rc)
		return rc;
	for (size_t i = 0; i < res.n; i++)
		mlog_bd_put_ruling(&b, &log->cfg, &res.rulings[i], res.corrected[i]);
	mlog_bd_put_final(&b, &log->cfg, &res.final);
	mlog_bd_result_free(&res);
	rc = mlog_buf_finish(&b, out, outlen);
	if (rc)
		snprintf(err, errlen, "%s: out of memory", log->name);
	return rc;
}

static void put_player(struct mlog_buf *b, const struct bd_match_cfg *cfg,
		       const char *key, int player)
{
	mlog_buf_printf(b, ",\"%s\":", key);
	if (player >= 0 && player < BD_PLAYERS)
		mlog_buf_str(b, cfg->players[player]);
	else
		mlog_buf_puts(b, "null");
}

/* Canonical event: "at", the kind's fields in a fixed order (optional ones
 * only when set), then source, confidence and t_ns when known (above 0). */
static void put_event(struct mlog_buf *b, const struct bd_match_cfg *cfg,
		      const struct bd_event *e)
{
	static const char *const halves[] = { "A", "B", "line" };

	mlog_buf_puts(b, "{\"at\":");
	mlog_buf_str(b, (unsigned)e->kind <= BD_EV_RETOSS ? mlog_ev_names[e->kind] : "?");
	switch (e->kind) {
	case BD_EV_TABLE:
		mlog_buf_printf(b, ",\"half\":\"%s\"",
				(unsigned)e->half <= BD_HALF_LINE ? halves[e->half] : "?");
		if (e->has_xy) {
			mlog_buf_puts(b, ",\"x\":");
			mlog_buf_real(b, e->x);
			mlog_buf_puts(b, ",\"y\":");
			mlog_buf_real(b, e->y);
		}
		break;
	case BD_EV_CUP:
		put_player(b, cfg, "owner", e->player);
		mlog_buf_printf(b, ",\"sink\":%s", e->sink ? "true" : "false");
		if (e->popout)
			mlog_buf_puts(b, ",\"popout\":true");
		break;
	case BD_EV_REST:
		mlog_buf_printf(b, ",\"face\":%d", e->face);
		break;
	case BD_EV_CATCH:
		put_player(b, cfg, "by", e->player);
		mlog_buf_printf(b, ",\"hands\":%d,\"trapped\":%s,\"over_table\":%s", e->hands,
				e->trapped ? "true" : "false", e->over_table ? "true" : "false");
		break;
	case BD_EV_KICK:
		put_player(b, cfg, "by", e->player);
		if (e->part[0]) {
			mlog_buf_puts(b, ",\"part\":");
			mlog_buf_str(b, e->part);
		}
		break;
	case BD_EV_LOW_CALL:
		if (e->player != BD_NOBODY)
			put_player(b, cfg, "by", e->player);
		break;
	case BD_EV_MINE:
	case BD_EV_FLOOR:
	case BD_EV_RETOSS:
		break;
	}
	if (e->source[0]) {
		mlog_buf_puts(b, ",\"source\":");
		mlog_buf_str(b, e->source);
	}
	if (e->has_confidence) {
		mlog_buf_puts(b, ",\"confidence\":");
		mlog_buf_real(b, e->confidence);
	}
	/* No CLOCK_MONOTONIC reading is below 0, and the parser refuses one:
	 * a time before it (an impact fitted ahead of edges near the clock's
	 * start, a time from outside) is as good as unknown. */
	if (e->t_ns > 0)
		mlog_buf_printf(b, ",\"t_ns\":%lld", (long long)e->t_ns);
	mlog_buf_puts(b, "}");
}

/* A throw or correction line up to its events' closing bracket. */
static void put_throw_body(struct mlog_buf *b, const struct bd_match_cfg *cfg,
			   const struct bd_throw *t, int correct_of)
{
	if (correct_of > 0)
		mlog_buf_printf(b, "{\"type\":\"correct\",\"throw\":%d", correct_of);
	else
		mlog_buf_puts(b, "{\"type\":\"throw\"");
	if (t->thrower != BD_NOBODY)
		put_player(b, cfg, "thrower", t->thrower);
	mlog_buf_printf(b, ",\"dye_up\":%s", t->dye_up ? "true" : "false");
	if (t->apex_m >= 0) {
		mlog_buf_puts(b, ",\"apex_m\":");
		mlog_buf_real(b, t->apex_m);
		/* Only when known: logs without it stay as they were. */
		if (t->apex_sd_m > 0) {
			mlog_buf_puts(b, ",\"apex_sd_m\":");
			mlog_buf_real(b, t->apex_sd_m);
		}
	}
	mlog_buf_puts(b, ",\"events\":[");
	for (size_t i = 0; i < t->n_events && i < BD_MAX_EVENTS; i++) {
		if (i)
			mlog_buf_puts(b, ",");
		put_event(b, cfg, &t->events[i]);
	}
	mlog_buf_puts(b, "]");
}

static void put_throw(struct mlog_buf *b, const struct bd_match_cfg *cfg,
		      const struct bd_throw *t, int correct_of)
{
	put_throw_body(b, cfg, t, correct_of);
	mlog_buf_puts(b, "}\n");
}

static void put_audit(struct mlog_buf *b, const struct mlog_audit *a)
{
	if (!a->present)
		return;
	mlog_buf_puts(b, ",\"audit\":{\"official\":");
	mlog_buf_str(b, a->official);
	mlog_buf_printf(b, ",\"wall_ms\":%lld", (long long)a->wall_ms);
	if (a->reason[0]) {
		mlog_buf_puts(b, ",\"reason\":");
		mlog_buf_str(b, a->reason);
	}
	mlog_buf_puts(b, "}");
}

static void put_entry(struct mlog_buf *b, const struct bd_match_cfg *cfg,
		      const struct mlog_bd_entry *e)
{
	if (e->kind == MLOG_CONFIRM) {
		mlog_buf_printf(b, "{\"type\":\"confirm\",\"throw\":%d", e->throw_no);
	} else if (e->kind == MLOG_DUTY) {
		mlog_buf_puts(b, "{\"type\":\"duty\",\"duty\":");
		mlog_buf_str(b, e->duty);
		mlog_buf_printf(b, ",\"done\":%s", e->done ? "true" : "false");
	} else {
		put_throw_body(b, cfg, &e->t, e->kind == MLOG_CORRECT ? e->throw_no : 0);
		if (e->kind == MLOG_CORRECT && e->undo)
			mlog_buf_puts(b, ",\"undo\":true");
	}
	put_audit(b, &e->audit);
	mlog_buf_puts(b, "}\n");
}

int mlog_bd_entry_line(const struct bd_match_cfg *cfg, const struct mlog_bd_entry *e,
		       char **out, size_t *outlen)
{
	struct mlog_buf b = { 0 };

	put_entry(&b, cfg, e);
	return mlog_buf_finish(&b, out, outlen);
}

int mlog_bd_throw_line(const struct bd_match_cfg *cfg, const struct bd_throw *t,
		       int correct_of, char **out, size_t *outlen)
{
	struct mlog_buf b = { 0 };

	put_throw(&b, cfg, t, correct_of);
	return mlog_buf_finish(&b, out, outlen);
}

/* The house rules that differ from the defaults, in RULES.md's order; no
 * "house" at all when none does. */
static void put_house(struct mlog_buf *b, const struct bd_house *h)
{
	struct bd_house d;
	const char *sep = ",\"house\":{";

	bd_house_defaults(&d);
#define SEP() do { mlog_buf_puts(b, sep); sep = ","; } while (0)
	if (h->target_points != d.target_points) {
		SEP();
		mlog_buf_printf(b, "\"target_points\":%d", h->target_points);
	}
	if (h->win_by != d.win_by) {
		SEP();
		mlog_buf_printf(b, "\"win_by\":%d", h->win_by);
	}
	if (h->kill_every != d.kill_every) {
		SEP();
		mlog_buf_printf(b, "\"kill_every\":%d", h->kill_every);
	}
	if (h->min_toss_height_m != d.min_toss_height_m) {
		SEP();
		mlog_buf_puts(b, "\"min_toss_height_m\":");
		mlog_buf_real(b, h->min_toss_height_m);
	}
	if (h->low_call != d.low_call) {
		SEP();
		mlog_buf_printf(b, "\"low_call\":\"%s\"",
				h->low_call == BD_LOW_AUTO ? "auto" : "manual");
	}
	if (h->illegal_catch_counts_as_floor != d.illegal_catch_counts_as_floor) {
		SEP();
		mlog_buf_printf(b, "\"illegal_catch_counts_as_floor\":%s",
				h->illegal_catch_counts_as_floor ? "true" : "false");
	}
	if (h->fifa_cannot_end_game != d.fifa_cannot_end_game) {
		SEP();
		mlog_buf_printf(b, "\"fifa_cannot_end_game\":%s",
				h->fifa_cannot_end_game ? "true" : "false");
	}
	if (h->popout_is_sink != d.popout_is_sink) {
		SEP();
		mlog_buf_printf(b, "\"popout_is_sink\":%s", h->popout_is_sink ? "true" : "false");
	}
	if (h->mine_voids_points != d.mine_voids_points) {
		SEP();
		mlog_buf_printf(b, "\"mine_voids_points\":%s",
				h->mine_voids_points ? "true" : "false");
	}
	if (h->review_below != d.review_below) {
		SEP();
		mlog_buf_puts(b, "\"review_below\":");
		mlog_buf_real(b, h->review_below);
	}
#undef SEP
	if (sep[0] == ',' && sep[1] == '\0')
		mlog_buf_puts(b, "}");
}

/* A per-team field ("names", "colors"): the teams whose value is set
 * ("" is not), A first; nothing at all when neither is. */
static void put_per_team(struct mlog_buf *b, const char *key, const char *a, const char *bv)
{
	const char *vals[2] = { a, bv };
	bool open = false;

	for (int team = 0; team < 2; team++) {
		if (!vals[team][0])
			continue;
		if (open)
			mlog_buf_puts(b, ",");
		else
			mlog_buf_printf(b, ",\"%s\":{", key);
		open = true;
		mlog_buf_printf(b, "\"%s\":", mlog_team_name(team));
		mlog_buf_str(b, vals[team]);
	}
	if (open)
		mlog_buf_puts(b, "}");
}

int mlog_bd_write(const struct mlog_bd *log, char **out, size_t *outlen)
{
	const struct bd_match_cfg *cfg = &log->cfg;
	struct mlog_buf b = { 0 };

	mlog_buf_puts(&b, "{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[");
	mlog_buf_str(&b, cfg->players[0]);
	mlog_buf_puts(&b, ",");
	mlog_buf_str(&b, cfg->players[1]);
	mlog_buf_puts(&b, "],\"B\":[");
	mlog_buf_str(&b, cfg->players[2]);
	mlog_buf_puts(&b, ",");
	mlog_buf_str(&b, cfg->players[3]);
	mlog_buf_puts(&b, "]}");
	put_per_team(&b, "names", log->team_names[0], log->team_names[1]);
	put_per_team(&b, "colors", log->colors[0], log->colors[1]);
	if (log->table_id[0]) {
		mlog_buf_puts(&b, ",\"table\":{\"id\":");
		mlog_buf_str(&b, log->table_id);
		if (log->table_name[0]) {
			mlog_buf_puts(&b, ",\"name\":");
			mlog_buf_str(&b, log->table_name);
		}
		mlog_buf_puts(&b, "}");
	}
	put_house(&b, &cfg->house);
	mlog_buf_puts(&b, "}\n");
	if (log->rolloff.present)
		mlog_buf_printf(&b, "{\"type\":\"rolloff\",\"value\":%d,\"call\":{\"team\":\"%s\","
				"\"call\":\"%s\"}}\n", log->rolloff.value,
				mlog_team_name(log->rolloff.calling_team),
				log->rolloff.called_high ? "high" : "low");
	for (size_t i = 0; i < log->n_entries; i++) {
		put_entry(&b, cfg, &log->entries[i]);
	}
	return mlog_buf_finish(&b, out, outlen);
}
