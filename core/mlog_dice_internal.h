/*
 * Private to the dice-game match log codec (core/mlog_dice*.c): the run a
 * log is folded into and the field readers and JSON writers each game's
 * lines share. mlog_dice.c reads the match line, folds the log and holds
 * the public functions; each game reads and rules its own lines in its own
 * file, as its engine is (mlog_dice_yatzy.c, mlog_dice_dm.c,
 * mlog_dice_ho.c). Each function is described where it is defined.
 *
 * Errors as in the rest of the codec: 0 or -EINVAL with a message
 * "FIELD: why" in err (the fold adds "NAME:LINE: "), -ENOMEM.
 */
#ifndef DYEREF_MLOG_DICE_INTERNAL_H
#define DYEREF_MLOG_DICE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/core.h"
#include "core/mlog_internal.h"

/* The players as the readers look them up. */
struct mlog_dice_names {
	size_t n;				/* players */
	const char (*name)[DICE_NAME_MAX];	/* their names, not owned */
};

/* The match line, read. */
struct mlog_dice_match {
	enum dice_game game;		/* from the match line */
	struct mlog_dice_names pl;	/* view of players */
	char players[DICE_MAX_PLAYERS][DICE_NAME_MAX];	/* in seat order */
	size_t n_players;		/* entries in players */
	struct dice_yatzy_cfg yz;	/* set for yatzy, yatzy-joker */
	struct dice_dm_cfg dm;		/* set for dreiermann */
	struct dice_ho_cfg ho;		/* set for horse */
};

/* One move as entered (a turn, choose, rolloff, ... line), kept so that an
 * undo or a correction can refold the game from the moves that stand. */
struct mlog_dice_entry {
	json_t *move;			/* the line as it stands now (owned, "audit" removed) */
	json_t *ruling;			/* its ruling in the latest fold (owned), or NULL */
	json_t *audit;			/* who entered, corrected or undid it last (owned), or NULL */
	int turn;			/* its number: its place among the moves standing */
	bool corrected;			/* a correction replaced it */
	bool undone;			/* an undo withdrew it */
};

/* What the last line did: a move, an undo or a correction of turn. */
enum mlog_dice_action { MLOG_DICE_NONE, MLOG_DICE_MOVE, MLOG_DICE_UNDO, MLOG_DICE_CORRECT };

/* The game so far, and where its rulings go. */
struct mlog_dice_run {
	struct mlog_dice_match m;	/* the match line */
	struct dice_yatzy_state yz;	/* the game so far, for yatzy and yatzy-joker */
	struct dice_dm_state dm;	/* ... for dreiermann */
	struct dice_ho_state ho;	/* ... for horse */
	struct mlog_buf *out;		/* NULL: fold only (the sheet) */
	json_t *ruling;			/* the last ruling emitted (owned), or NULL */
	struct mlog_dice_entry *e;	/* every move entered, in order, undone ones too */
	size_t n_e, cap_e;		/* entries used, allocated */
	int standing;			/* moves not undone: the last one's turn */
	enum mlog_dice_action action;	/* what the last line did */
	int action_turn;		/* ... to which turn */
};

/* ---- mlog_dice.c: output, field readers, JSON writers ---- */

int mlog_dice_put(struct mlog_buf *t, const json_t *obj);
int mlog_dice_emit(struct mlog_dice_run *st, json_t *obj);
const char *mlog_dice_shown(const char *s, char buf[48]);
int mlog_dice_player_index(const struct mlog_dice_names *pl, const char *s);
int mlog_dice_check_fields(json_t *obj, const char *const *allowed, char *err, size_t errlen);
int mlog_dice_get_bool(json_t *v, const char *field, bool *out, char *err, size_t errlen);
int mlog_dice_get_small_int(json_t *v, const char *field, long lo, long hi, int *out,
			    char *err, size_t errlen);
int mlog_dice_get_player(json_t *obj, const struct mlog_dice_names *pl, int *out, bool required,
			 char *err, size_t errlen);
int mlog_dice_get_dice(json_t *v, const char *field, int max, int *out, int *n,
		       char *err, size_t errlen);
int mlog_dice_get_rolls(json_t *obj, struct dice_rolls *r, char *err, size_t errlen);
json_t *mlog_dice_faces_json(const int *d, int n);
json_t *mlog_dice_why_json(const char *const *why, size_t n);
json_t *mlog_dice_per_player(const struct mlog_dice_names *pl, const int *v, bool all);
json_t *mlog_dice_name_or_null(const struct mlog_dice_names *pl, int p);
json_t *mlog_dice_kept_json(const struct dice_rolls *r, const int kept[DICE_MAX_ROLLS][DICE_N]);
const char *mlog_dice_type_of(json_t *obj);
int mlog_dice_wrong_type(struct mlog_dice_run *st, const char *type, char *err, size_t errlen);

/* ---- Each game: one line of its log into st (its ruling to st->out),
 * and the final line at the end ---- */

int mlog_dice_yatzy_line(struct mlog_dice_run *st, json_t *obj, char *err, size_t errlen);
int mlog_dice_yatzy_final(struct mlog_dice_run *st);
int mlog_dice_dm_line(struct mlog_dice_run *st, json_t *obj, char *err, size_t errlen);
int mlog_dice_dm_final(struct mlog_dice_run *st);
int mlog_dice_ho_line(struct mlog_dice_run *st, json_t *obj, char *err, size_t errlen);
int mlog_dice_ho_final(struct mlog_dice_run *st);

/* ---- mlog_dice_turns.c: moves kept, undo and correction lines, the
 * sheet's turns ---- */

void mlog_dice_reset(struct mlog_dice_run *st);
int mlog_dice_game_line(struct mlog_dice_run *st, json_t *obj, char *err, size_t errlen);
int mlog_dice_entry_line(struct mlog_dice_run *st, json_t *obj, char *err, size_t errlen);
void mlog_dice_run_release(struct mlog_dice_run *st);
int mlog_dice_sheet_extra(const struct mlog_dice_run *st, json_t *o);

#endif
