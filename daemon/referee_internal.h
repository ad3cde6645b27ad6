/* The referee's private declarations (daemon/referee.c, referee_dice.c,
 * referee_json.c): its state and what its files share. Not for outside
 * daemon/referee*.c: daemon/referee.h is the contract. */
#ifndef DYEREF_DAEMON_REFEREE_INTERNAL_H
#define DYEREF_DAEMON_REFEREE_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "daemon/fusion.h"
#include "daemon/referee.h"

#define NAME_MAX_TEAM 32	/* bytes of a team's name, with the NUL */

/* What the log does not hold about a throw: why it was doubtful, whether an
 * official confirmed it, and the raw observations behind it. */
struct note {
	char review_why[DD_WHY_MAX];	/* fusion's reason, "" when none */
	bool confirmed;		/* an official looked and agreed */
	json_t *obs;		/* owned: the raw observations (array), or NULL */
};

/* A match read back: its log, the fold, the notes. */
struct loaded {
	int64_t id;			/* match id in the database */
	struct mlog_bd *log;		/* owned */
	struct mlog_bd_result res;	/* owned contents */
	bool have_res;			/* res holds a fold */
	char teams[2][NAME_MAX_TEAM];	/* team names, may be "" */
	struct note *notes;		/* owned, one per throw */
	size_t n_notes;			/* allocated entries of notes */
};

/* A doubtful throw held for an official (review = wait): what commit_throw()
 * needs, and nothing that cannot be read back from its "held" note. */
struct held {
	struct bd_throw t;		/* as observed */
	char why[DD_WHY_MAX];		/* fusion's reason, "" when none */
	int64_t t_start_ns;		/* its first raw input, 0 unknown */
	json_t *obs;			/* owned: the raw observations (array), or NULL */
	struct bd_ruling ruling;	/* its provisional ruling */
};

struct dd_referee {
	struct dd_referee_cfg cfg;	/* house defaults, review mode */
	struct db *db;			/* borrowed: the event log */
	struct loaded m;		/* the match under way (m.log NULL: none) */
	bool pending;			/* a doubtful throw awaits an official */
	struct held pend;		/* it (valid while pending) */
	int64_t dice_id;		/* the dice match under way, 0 none */
	char dice_game[32];		/* its game ("yatzy", ...) */
	bool dice_over;			/* its sheet is complete, not ended yet */
	struct bd_final last_final;	/* final of the last ended match */
	json_t *last_won;		/* owned: the last match ended won, as the
					 * win screen needs it (/api/state's
					 * "previous"), or NULL */
	dd_snapshot_fn snapshot;	/* the throw's picture, or NULL */
	void *snapshot_user;		/* for snapshot */
};

struct db_item;

/* referee.c: frees what m holds and clears it (m stays the caller's). */
void dd_ref_loaded_free(struct loaded *m);
/* referee.c: a db_replay() callback picking a throw's notes (ctx: its
 * struct note) out of what the database holds behind it. */
int dd_ref_collect_note(const struct db_item *it, void *ctx);

/* referee_faces.c: each entry of a throw's "snapshots" (the replay's)
 * gets its die's face label, or null. */
void dd_ref_face_labels_attach(struct dd_referee *r, long id, long throw_no, json_t *snapshots);
/* referee_json.c: throw i + 1 of m was ruled doubtful (by the judge, or
 * fusion gave a reason). */
bool dd_ref_doubtful(const struct loaded *m, size_t i);
/* referee_json.c: duty d's id ("8:kill_n_fill:b1"; throw_no 0: the final
 * line's, "F:finish_winners_cups:B") into buf. */
void dd_ref_duty_id(const struct bd_duty *d, int throw_no, char *buf, size_t len);
/* referee_json.c: m's rulings (and final, once over) give a duty by id. */
bool dd_ref_duty_exists(const struct loaded *m, const char *id);
/* referee_json.c: ... and still awaits an official: a correction (undo
 * included) settles it as surely as a confirmation (docs/daemon.md,
 * "until confirmed or corrected"). */
bool dd_ref_review_open(const struct loaded *m, size_t i);

/* referee_json.c: throw k's observations as judged now (its throw line,
 * or its last correction), NULL when log has no throw k. */
const struct bd_throw *dd_ref_judged(const struct mlog_bd *log, int k);

/* referee_dice.c: ends the dice match under way with the engine's final
 * line. 0, or a negative errno with a message in err. */
int dd_ref_dice_end(struct dd_referee *r, char *err, size_t errlen);
/* referee_dice.c: sets dice_over from the stored log of the dice match
 * under way (a restored one may be complete, waiting for its End). */
void dd_ref_dice_read_over(struct dd_referee *r);
/* referee_dice.c: a complete dice game under way is ended before another
 * match starts (0); -EBUSY with err when a game is under way and not over. */
int dd_ref_dice_make_way(struct dd_referee *r, char *err, size_t errlen);
/* referee_dice.c: the live dice match id (of game) for the state, with
 * its sheet inline: a new reference (the caller's), or NULL. */
json_t *dd_ref_dice_state(struct dd_referee *r, int64_t id, const char *game);

#endif /* DYEREF_DAEMON_REFEREE_INTERNAL_H */
