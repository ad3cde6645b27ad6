/*
 * tourn: a tournament's brackets and standings, as a fold of match results.
 *
 * A tournament is to its matches what a match is to its throws: the teams
 * and the format fix the structure, and every result (or correction of one)
 * re-folds the whole tournament from the start, so the state never depends
 * on the order results came in. Pure: no I/O, no clock, no globals; the only
 * memory allocated is the tournament itself, in tourn_new().
 *
 * Teams are indices in entry order (0 = first entered = top seed). Matches
 * are indices 0 .. tourn_n_matches() - 1, fixed for the tournament's life;
 * a match's teams may change when an earlier result is corrected.
 *
 * Errors: functions return 0 (or a count) or a negative errno and, where
 * they take (err, errlen), write a one-line message for people there.
 * tourn_new() returns NULL and sets errno (EINVAL: cannot be played, with a
 * message; ENOMEM).
 *
 * The rules (formats, byes, the grand final's reset, corrections, the
 * standings' tie-breaks) are those of docs/tournament.md.
 */
#ifndef DYEREF_TOURN_H
#define DYEREF_TOURN_H

#include <stdbool.h>
#include <stddef.h>

#define TOURN_MAX_TEAMS 128	/* teams in one tournament */
#define TOURN_NAME_MAX  64	/* bytes of a team's name, with the NUL */
#define TOURN_MAX_SCORE 9999	/* a result's points, per team */

#define TOURN_NONE (-1)	/* a team not known yet; no winner (yet, or a draw) */
#define TOURN_BYE  (-2)	/* an empty spot: its opponent advances without playing */

enum tourn_format {
	TOURN_SINGLE,		/* single elimination */
	TOURN_DOUBLE,		/* double elimination, grand final with a reset */
	TOURN_ROUND_ROBIN,	/* every pair once (circle method) */
	TOURN_SWISS,		/* cfg.rounds rounds, paired by score, no rematch */
};

enum tourn_bracket {
	TOURN_WINNERS,	/* single elimination, or double's winners' bracket */
	TOURN_LOSERS,	/* double elimination's losers' bracket */
	TOURN_FINAL,	/* double elimination's grand final (round 1) and reset (round 2) */
	TOURN_LEAGUE,	/* round robin and Swiss */
};

enum tourn_mstate {
	TOURN_M_PENDING,	/* a team is not known yet */
	TOURN_M_READY,		/* both teams known, no result: to be played */
	TOURN_M_PLAYED,		/* has a result */
	TOURN_M_WALKOVER,	/* one spot empty (a bye): the other team advances */
	TOURN_M_VACANT,		/* both spots empty (only in the losers' bracket): nobody plays */
	TOURN_M_NOT_NEEDED,	/* the grand final's reset, when the winners' side won the first */
};

struct tourn_cfg {
	enum tourn_format format;
	int rounds;		/* Swiss: rounds to play (see tourn_swiss_max_rounds); else ignored */
};

/* One match, as the fold left it. Plain data, copy freely. */
struct tourn_match {
	int id;			/* 0 .. tourn_n_matches() - 1 */
	enum tourn_bracket bracket;
	int round;		/* 1-based, within its bracket */
	int team[2];		/* team index, TOURN_NONE (not known yet) or TOURN_BYE */
	enum tourn_mstate state;
	int score[2];		/* PLAYED: points per side; else 0 */
	int winner, loser;	/* team, TOURN_BYE, or TOURN_NONE (undecided, or a draw) */
};

/* One team's line in the standings. Plain data. */
struct tourn_standing {
	int team;		/* index in entry order */
	int played;		/* matches with a result (byes and walkovers not counted) */
	int wins, draws, losses;	/* wins include Swiss byes */
	int byes;		/* Swiss byes received */
	int points_for, points_against;	/* summed scores of played matches */
	int match_points;	/* 2 per win (a Swiss bye included), 1 per draw */
	int h2h_points;		/* match points in games among the teams level on match points */
	int placing;		/* 1 = first; elimination: 0 while still in; league: 0 until done */
};

struct tourn;

/* The most Swiss rounds that can always be paired without a rematch for n
 * teams (whatever the results), or 0 for n out of range. */
int tourn_swiss_max_rounds(int n);

/* A new tournament of n teams named teams[0..n-1] (copied; the caller keeps
 * its strings). Refused (NULL, errno EINVAL, a message in err): cfg or teams
 * NULL, an unknown format, fewer than 2 or more than TOURN_MAX_TEAMS teams,
 * a NULL, empty, too long (TOURN_NAME_MAX) or duplicate name, a name with a
 * control character, Swiss rounds outside 1 .. tourn_swiss_max_rounds(n).
 * The caller frees the result with tourn_free(). */
struct tourn *tourn_new(const struct tourn_cfg *cfg, const char *const *teams, int n, char *err,
			size_t errlen);

/* Frees t and everything in it; NULL is fine. */
void tourn_free(struct tourn *t);

enum tourn_format tourn_format(const struct tourn *t);
int tourn_n_teams(const struct tourn *t);
/* Team's name (owned by t, valid until tourn_free), or NULL out of range. */
const char *tourn_team_name(const struct tourn *t, int team);
int tourn_n_matches(const struct tourn *t);

/* Copies match id into *out: 0, or -EINVAL for an id out of range. */
int tourn_match(const struct tourn *t, int id, struct tourn_match *out);

/* The ids of the READY matches (both teams known, no result), lowest id
 * first, into ids[0 .. max-1]. Returns how many are ready (which may be more
 * than max: only max are written), or -EINVAL for a NULL t, or ids NULL with
 * max > 0. */
int tourn_ready(const struct tourn *t, int *ids, int max);

/* Records the result of match id: score_a for team[0], score_b for team[1].
 * A match already PLAYED takes the new result as a correction, and the
 * tournament is folded again: a later match whose teams changed loses its
 * result and goes back to READY or PENDING. Returns 0, or -EINVAL with a
 * message: t NULL, an id out of range, a match that is not READY or PLAYED,
 * a score outside 0 .. TOURN_MAX_SCORE, a draw in an elimination format.
 * Nothing changes on an error. */
int tourn_result(struct tourn *t, int id, int score_a, int score_b, char *err, size_t errlen);

/* Every match is decided (elimination: the champion is known). */
bool tourn_done(const struct tourn *t);

/* The champion (elimination) or the top of the final standings (league),
 * or TOURN_NONE while not done. */
int tourn_winner(const struct tourn *t);

/* The standings, best first, into rows[0 .. max-1] (max >= tourn_n_teams).
 * Returns the number of teams, or -EINVAL (t or rows NULL, max too small).
 * Order: elimination formats first by how far a team got (still in, then
 * the later it went out the better), then, and for leagues only: match
 * points, head to head, point difference, points scored, entry order. */
int tourn_standings(const struct tourn *t, struct tourn_standing *rows, int max);

#endif
