/*
 * history: player figures and CSV across the stored Beer Die matches, a
 * fold of each match's stored log through core/ (mlog_bd_replay via
 * db_bd_load, the same fold `dyeref judge` runs), and the CSV the history
 * pages and `dyeref export --csv` write.
 */
#ifndef DYEREF_DAEMON_HISTORY_H
#define DYEREF_DAEMON_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "core/core.h"
#include "db/db.h"

/* One player's figures: a player is the name entered at match start. */
struct dd_pstats {
	char name[BD_NAME_MAX];
	int matches;		/* Beer Die matches played */
	int won;		/* matches their team won (BD-W1) */
	int points;		/* points their throws scored for their team */
	int sinks;		/* cups sunk by their throws */
	int cup_hits;		/* cup events (not sinks) on their throws */
	int catches;		/* catch events by them */
	int drops;		/* their catches followed by the floor in the same throw */
	int fives;		/* their throws that came to rest showing a five (BD-O2) */
	int kill_n_fills;	/* kill n' fill duties the rulings gave them */
};

struct dd_stats {
	size_t n, cap;
	struct dd_pstats *p;	/* owned, sorted by name once dd_stats_sort() ran */
};

/* Adds one judged match (its log and the fold of it) to st. Retossed
 * throws count for nothing; corrections count as corrected. 0 or -ENOMEM. */
int dd_stats_add(struct dd_stats *st, const struct mlog_bd *log, const struct mlog_bd_result *res);
/* The entry of the player named name, added (all figures 0) when st has
 * none; NULL: out of memory. */
struct dd_pstats *dd_stats_player(struct dd_stats *st, const char *name);
void dd_stats_sort(struct dd_stats *st);
void dd_stats_free(struct dd_stats *st);
/* The most matches /api/players/NAME lists ("played", newest first). */
#define DD_PLAYED_MAX 50

/* The figures of every stored Beer Die match. 0 or a db_ error. */
int dd_stats_collect(struct db *db, struct dd_stats *st, char *err, size_t errlen);
/* The player named name, or NULL. */
const struct dd_pstats *dd_stats_find(const struct dd_stats *st, const char *name);

/* Writes s as one RFC 4180 field (quoted when it holds a comma, quote,
 * CR or LF; quotes doubled). */
void dd_csv_field(FILE *out, const char *s);
/* The player table as CSV (header row, CRLF line ends). */
void dd_stats_csv(const struct dd_stats *st, FILE *out);
/* A stored match's throws as CSV, one row per throw after corrections.
 * -ENOENT no such match, -EINVAL not Beer Die or not readable. */
int dd_match_csv(struct db *db, int64_t match, FILE *out, char *err, size_t errlen);



/*
 * What the history pages show of each stored Beer Die match, folded once
 * and kept (history_cache.c): each request folds only the matches whose
 * log changed since (a throw, a correction or undo, an end), so the
 * player figures cost a list of the matches and a sum, not a fold of
 * every match. Some 420 bytes a match. One per daemon, not thread-safe.
 */
struct dd_history;

struct dd_history *dd_history_new(void);	/* NULL: out of memory */
void dd_history_free(struct dd_history *h);	/* NULL is fine */
/* Matches one request folds at most (some 0.9 ms each on a desktop core,
 * a few on a Pi): a database of thousands is read over several requests,
 * each answered 503 "try again" until the last, so that no request holds
 * the referee's loop for seconds. */
#define DD_HISTORY_FOLDS 100

/* Brings h up to what db holds, folding at most max_folds matches; what
 * is folded is kept. A match that does not fold is left out (and tried
 * again next time). 0; -EAGAIN with more to fold (err says how many);
 * -ENOMEM or db_matches()'s error. */
int dd_history_refresh(struct dd_history *h, struct db *db, size_t max_folds, char *err,
		       size_t errlen);
/* Adds up h's figures into st (empty, the caller's: dd_stats_free()),
 * sorted by name. 0, -ENOMEM, or the error of a match left out at the
 * last refresh (figures without it would be wrong). */
int dd_history_stats(const struct dd_history *h, struct dd_stats *st, char *err, size_t errlen);

/* The JSON behind the history pages (web_handlers matches_page and
 * player_stats), h refreshed first (DD_HISTORY_FOLDS; -EAGAIN while
 * more is left); *json malloc'd. -ENOENT past the last page or for an
 * unknown player. */
int dd_history_page(struct dd_history *h, struct db *db, long page, long per, char **json,
		    char *err, size_t errlen);
int dd_history_players(struct dd_history *h, struct db *db, const char *name, char **json,
		       char *err, size_t errlen);
#endif /* DYEREF_DAEMON_HISTORY_H */
