/*
 * core: the rules of the games dyeref referees, as pure functions.
 *
 * Data in, data out. Nothing in core/ reads a clock, opens a file, keeps a
 * global or allocates memory it does not hand back (where a function returns
 * allocated memory, its comment says how to free it). Rule IDs ("BD-P7") are
 * those of docs/beer-die-rules.md and docs/dice-games.md; every ruling names
 * the rules that decided it.
 *
 * Errors: functions return 0 or a negative errno and, where they take
 * (err, errlen), write a one-line message for people there.
 *
 * Sections: Beer Die (bd_), dice games (dice_), match log codec (mlog_).
 */
#ifndef DYEREF_CORE_H
#define DYEREF_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ======================================================================
 * Beer Die (BD)
 * ====================================================================== */

#define BD_PLAYERS    4
#define BD_TEAMS      2	/* two teams of two (BD-S4) */
#define BD_DICE       2	/* dice in play (BD-S3) */
#define BD_NAME_MAX   32	/* bytes of a player's name, with the NUL */
#define BD_MAX_EVENTS 32	/* events in one throw */
#define BD_MAX_WHY    16	/* rule IDs named by one ruling */
#define BD_MAX_DUTIES 12	/* duties from one throw (BD-D1 merges repeats) */

enum bd_team { BD_TEAM_A = 0, BD_TEAM_B = 1 };

/* Players are indices: 0 = a1, 1 = a2 (team A), 2 = b1, 3 = b2 (team B). */
#define BD_NOBODY (-1)
#define BD_TEAM_OF(player) ((player) / 2)
#define BD_OTHER(team) (1 - (team))

enum bd_half { BD_HALF_A, BD_HALF_B, BD_HALF_LINE };

enum bd_ev_kind {
	BD_EV_TABLE,	/* the die touched the table top */
	BD_EV_CUP,	/* hit a cup (and maybe stayed in it: a sink) */
	BD_EV_MINE,	/* hit the mine (BD-O1) */
	BD_EV_FLOOR,	/* reached the floor */
	BD_EV_REST,	/* came to rest on the table, showing face */
	BD_EV_CATCH,	/* caught by a player */
	BD_EV_KICK,	/* kicked by a player (BD-K) */
	BD_EV_LOW_CALL,	/* a defender called "low" (BD-P5) */
	BD_EV_RETOSS,	/* the throw is void and thrown again (BD-P9) */
};

/* One observation, in the order it happened. Fields beyond kind are read
 * only for the kinds named in their comment. */
struct bd_event {
	enum bd_ev_kind kind;
	enum bd_half half;	/* TABLE: which half, or the centre line */
	bool has_xy;		/* TABLE: x and y are measured */
	double x, y;		/* TABLE: metres, from team A's end, left edge */
	int player;		/* CUP owner; CATCH, KICK, LOW_CALL by; or BD_NOBODY */
	bool sink;		/* CUP: the die stayed in the cup */
	bool popout;		/* CUP: went in and bounced back out (BD-R1); overrides sink */
	int face;		/* REST: 1..6 */
	int hands;		/* CATCH: 1 or 2 */
	bool trapped;		/* CATCH: stopped against the body or an object */
	bool over_table;	/* CATCH: caught above the table (BD-P10) */
	char part[16];		/* KICK: body part, "foot", "thigh", ... */
	bool has_confidence;	/* confidence was given */
	double confidence;	/* 0..1; 1 when not given */
	char source[16];	/* "piezo", "camera", "console", ... or "" */
	int64_t t_ns;		/* CLOCK_MONOTONIC ns when known, else 0 */
};

struct bd_throw {
	int thrower;		/* player, or BD_NOBODY: from the order (BD-T3) */
	bool dye_up;		/* "DYE UP!" was called (BD-P2) */
	double apex_m;		/* measured toss height in metres, < 0 unknown */
	size_t n_events;
	struct bd_event events[BD_MAX_EVENTS];	/* in time order */
};

enum bd_low_call { BD_LOW_MANUAL, BD_LOW_AUTO };

/* House rules (RULES.md "House rules"); bd_house_defaults() sets the
 * defaults, which never change. */
struct bd_house {
	int target_points;		/* 10 (BD-W1) */
	int win_by;			/* 2 (BD-W1) */
	int kill_every;			/* 5 (BD-W2) */
	double min_toss_height_m;	/* 3.0 (BD-S7) */
	enum bd_low_call low_call;	/* manual; auto: low from apex_m (BD-P5) */
	bool illegal_catch_counts_as_floor;	/* true (BD-P4a) */
	bool fifa_cannot_end_game;	/* true (BD-K2a) */
	bool popout_is_sink;		/* false (BD-R1a) */
	bool mine_voids_points;		/* true (BD-O1a) */
	double review_below;		/* 0.8: a deciding event less sure than this asks for review */
};

struct bd_match_cfg {
	char players[BD_PLAYERS][BD_NAME_MAX];	/* a1, a2, b1, b2 */
	int first_team;		/* throws first (BD-F1); BD_TEAM_A without a roll-off */
	struct bd_house house;
};

/* The match so far: a fold of the rulings. Plain data, copy freely. */
struct bd_state {
	int score[2];
	int n_throws;		/* throws judged, re-tosses included */
	int slot;		/* position in the throwing order (BD-T3) */
	bool over;
	int winner;		/* team, or BD_NOBODY */
	bool must_follow[BD_PLAYERS];	/* sunk, follows on the opponents' next point (BD-P11) */
};

enum bd_duty_kind {
	BD_DUTY_KILL_N_FILL,
	BD_DUTY_FOLLOW_PARTNER,
	BD_DUTY_SHOTGUN,
	BD_DUTY_FINISH_WINNERS_CUPS,
	BD_DUTY_NAKED_LAP,
};

struct bd_duty {
	enum bd_duty_kind kind;
	int player;		/* the player who owes it, or BD_NOBODY */
	int team;		/* the team that owes it (when player is BD_NOBODY) */
	const char *why;	/* rule ID, a static string */
};

struct bd_ruling {
	int throw_no;		/* 1-based, in log order */
	int thrower;
	int team;		/* the attackers */
	int points[2];		/* awarded by this throw, per team */
	int score[2];		/* after this throw */
	bool dead;		/* BD-P5, BD-P6 */
	bool review;		/* rests on doubtful evidence: an official should look */
	bool retoss;		/* BD-P9: void, the same thrower throws again */
	bool over;		/* the game ended with this throw */
	int winner;		/* team, or BD_NOBODY */
	size_t n_why;
	const char *why[BD_MAX_WHY];	/* rule IDs, static strings */
	size_t n_duties;
	struct bd_duty duties[BD_MAX_DUTIES];
	bool sunk[BD_PLAYERS];	/* cups sunk by this throw: their owners must follow (BD-P11) */
	bool fifa;		/* a counting kick (BD-K) decided this throw */
};

struct bd_final {
	int score[2];
	bool over;
	int winner;		/* team, or BD_NOBODY */
	size_t n_duties;
	struct bd_duty duties[4];	/* BD-W3, BD-W4 */
};

/* The table's layout (BD-S1, BD-S2, BD-S6), shared by sensors, vision and
 * the simulator. Coordinates: metres from team A's end (x, along the table)
 * and the left edge (y, across it). */
struct bd_table {
	double length_m;	/* 2.44: 8 ft (BD-S1) */
	double width_m;		/* 1.22: 4 ft */
	double height_m;	/* 0.98: top above the floor, 3-3.5 ft */
	double line_width_m;	/* 0.02: the painted centre line at x = length/2 */
	double cup_x[BD_PLAYERS];	/* cup centres, per player (a1, a2, b1, b2) */
	double cup_y[BD_PLAYERS];
	double cup_radius_m;	/* 0.045: a pint glass's rim */
	double mine_x, mine_y;	/* the full can in the middle (BD-S6) */
	double mine_radius_m;	/* 0.033 */
};

/* The standard layout: cups 0.12 m in from each corner (a1 left, a2 right
 * at A's end; b1 left, b2 right at B's end), the mine at the centre. */
void bd_table_defaults(struct bd_table *t);

/* Which half a table point is on: BD_HALF_LINE within line_width/2 of the
 * centre line. */
enum bd_half bd_table_half(const struct bd_table *t, double x);

/* The defaults of RULES.md; a match changes them through its "house". */
void bd_house_defaults(struct bd_house *h);

/* Checks a house's settings: 0, or -EINVAL naming the field ("house.win_by:
 * 0 is not 1..100"). */
int bd_house_check(const struct bd_house *h, char *err, size_t errlen);

/* Whether a score is a finished game under h (BD-W1): a team at or above
 * target_points that leads by at least win_by. */
bool bd_score_over(const struct bd_house *h, const int score[2]);

/* Fills cfg with players "a1".."b2", team A first and the default house. */
void bd_match_cfg_init(struct bd_match_cfg *cfg);

/* BD-F1: the team that throws first, given the rolled value (1..6), the
 * team that called and whether it called high. -EINVAL on a bad value. */
int bd_rolloff_winner(int value, int calling_team, bool called_high);

void bd_state_init(struct bd_state *s, const struct bd_match_cfg *cfg);

/* Who throws next by the fixed order (BD-T3). */
int bd_next_thrower(const struct bd_state *s, const struct bd_match_cfg *cfg);

/* Judges one throw against the state before it. Pure: s is not changed.
 * Returns 0, or -EINVAL with a message when the throw cannot be judged
 * (the game is over, a player index out of range, ...). */
int bd_judge(const struct bd_match_cfg *cfg, const struct bd_state *s,
	     const struct bd_throw *t, struct bd_ruling *r,
	     char *err, size_t errlen);

/* Advances the state by a ruling bd_judge() gave for it. */
void bd_apply(struct bd_state *s, const struct bd_match_cfg *cfg,
	      const struct bd_ruling *r);

/* Folds throws[0..n) from the start of the match: the event-sourcing step
 * behind judging a log, replaying it and correcting an old throw.
 * rulings (n of them, caller's) receives each ruling; *s the end state.
 * On error returns -EINVAL with *bad the index of the throw that failed. */
int bd_fold(const struct bd_match_cfg *cfg, const struct bd_throw *throws,
	    size_t n, struct bd_state *s, struct bd_ruling *rulings,
	    size_t *bad, char *err, size_t errlen);

/* The end-of-match line: score, winner and BD-W3/BD-W4 duties. */
void bd_final(const struct bd_match_cfg *cfg, const struct bd_state *s,
	      struct bd_final *f);

/* "kill_n_fill", "follow_partner", ... as in the match log. */
const char *bd_duty_name(enum bd_duty_kind kind);

/* One short English sentence for a rule ID ("BD-P7" -> "A cup hit that
 * reaches the floor uncaught scores 2."), for the scoreboard; NULL if the
 * ID is unknown. Static strings. */
const char *bd_rule_text(const char *id);

/* The rule IDs bd_rule_text() knows, in rule-book order: i in
 * 0..bd_rule_count()-1, NULL past the end. Static strings. */
size_t bd_rule_count(void);
const char *bd_rule_id(size_t i);

/* ======================================================================
 * Dice games (YZ, YJ, DM, HO): dice_
 * ====================================================================== */



/* ======================================================================
 * Match log codec (JSON Lines, docs/match-log.md): mlog_
 * ====================================================================== */

/* Limits of a match log. */
#define MLOG_MAX_INPUT   (64u << 20)	/* bytes the CLI reads of one log */
#define MLOG_SOURCE_MAX  16		/* bytes of an event's source, with the NUL */

enum mlog_entry_kind {
	MLOG_THROW,	/* a "throw" line: the next throw of the match */
	MLOG_CORRECT,	/* a "correct" line: replaces an earlier throw's observations */
};

/* One throw or correction, as it stood in the log. */
struct mlog_bd_entry {
	enum mlog_entry_kind kind;
	int line;		/* 1-based line in the log; 0 when built in memory */
	int throw_no;		/* THROW: its own number; CORRECT: the throw it replaces (1-based) */
	struct bd_throw t;	/* the observations (thrower BD_NOBODY: from the order) */
};

/* The roll-off line (BD-F1). */
struct mlog_bd_rolloff {
	bool present;		/* the log has a "rolloff" line */
	int value;		/* 1..6, the die rolled */
	int calling_team;	/* BD_TEAM_A or BD_TEAM_B: the team that called */
	bool called_high;	/* called "high" (4-6) rather than "low" (1-3) */
};

/* A parsed Beer Die match log: plain data, owned by whoever holds it.
 * cfg.first_team already reflects the roll-off. Build one in memory with
 * mlog_bd_new() and the add functions, or get one from mlog_bd_parse(). */
struct mlog_bd {
	char *name;			/* owned: the log's name for messages ("match.jsonl") */
	struct bd_match_cfg cfg;	/* players, first team, house rules */
	struct mlog_bd_rolloff rolloff;	/* BD-F1, when the log had one */
	int match_line;			/* line of the "match" line (1 unless blank lines lead) */
	size_t n_throws;		/* THROW entries (a throw's number is its rank among them) */
	size_t n_entries;		/* entries in log order */
	size_t cap_entries;		/* allocated length of entries */
	struct mlog_bd_entry *entries;	/* owned, in log order */
};

/* Judging a log: every throw after corrections, folded (event sourcing). */
struct mlog_bd_result {
	size_t n;			/* rulings: one per throw */
	struct bd_ruling *rulings;	/* owned; rulings[i] is throw i + 1 after corrections */
	bool *corrected;		/* owned; corrected[i]: a "correct" line replaced throw i + 1 */
	struct bd_state state;		/* after the last throw */
	struct bd_final final;		/* the final line's content */
};

/* An empty log for cfg (copied), named name (copied; NULL means "log").
 * Returns NULL with errno ENOMEM. Free with mlog_bd_free(). */
struct mlog_bd *mlog_bd_new(const char *name, const struct bd_match_cfg *cfg);

/* Frees the log and everything it owns. NULL is fine. */
void mlog_bd_free(struct mlog_bd *log);

/* Records a roll-off (BD-F1) and sets cfg.first_team from it.
 * -EINVAL (value not 1..6, team not A/B) leaves log untouched. */
int mlog_bd_set_rolloff(struct mlog_bd *log, int value, int calling_team, bool called_high);

/* Appends a throw (copied; t may point into log->entries). Returns its
 * number (1-based), or -ENOMEM. */
int mlog_bd_add_throw(struct mlog_bd *log, const struct bd_throw *t);

/* Appends a correction of throw throw_no (copied; t may point into
 * log->entries). 0, -EINVAL when that throw does not exist yet, -ENOMEM. */
int mlog_bd_add_correct(struct mlog_bd *log, int throw_no, const struct bd_throw *t);

/* Parses a Beer Die match log from buf[0..len) (need not be NUL-terminated).
 * name is used in messages and copied into the result. Checks everything
 * that can be checked without judging: unknown fields, types, ranges, names.
 * Returns 0 and *out (free with mlog_bd_free()), or -EINVAL with
 * "NAME:LINE: FIELD: problem" in err and *out NULL; -ENOMEM. */
int mlog_bd_parse(const char *name, const char *buf, size_t len,
		  struct mlog_bd **out, char *err, size_t errlen);

/* Applies the corrections in log order and folds every throw (bd_fold).
 * res is the caller's; on success free its contents with
 * mlog_bd_result_free(). -EINVAL with "NAME:LINE: throw N: problem" in err
 * (LINE the throw's line) when a throw cannot be judged, for example one
 * after the game is over; res then holds nothing to free. -ENOMEM. */
int mlog_bd_replay(const struct mlog_bd *log, struct mlog_bd_result *res,
		   char *err, size_t errlen);

/* Frees what mlog_bd_replay() put in res (not res itself). */
void mlog_bd_result_free(struct mlog_bd_result *res);

/* The judge's output for the log: one ruling line per throw, then the final
 * line, each ending in '\n'. *out is malloc'd (caller frees), NUL-terminated,
 * *outlen bytes without the NUL. Errors as mlog_bd_replay(); *out NULL then. */
int mlog_bd_judge(const struct mlog_bd *log, char **out, size_t *outlen,
		  char *err, size_t errlen);

/* One ruling line ("{"type":"ruling",...}\n"), fields in the order of
 * docs/match-log.md; corrected adds "corrected":true. *out malloc'd as
 * above. 0 or -ENOMEM. */
int mlog_bd_ruling_line(const struct bd_match_cfg *cfg, const struct bd_ruling *r,
			bool corrected, char **out, size_t *outlen);

/* The final line ("{"type":"final",...}\n"). 0 or -ENOMEM. */
int mlog_bd_final_line(const struct bd_match_cfg *cfg, const struct bd_final *f,
		       char **out, size_t *outlen);

/* One throw line in canonical form ("{"type":"throw",...}\n"), or, with
 * correct_of > 0, a correction of that throw. 0 or -ENOMEM. */
int mlog_bd_throw_line(const struct bd_match_cfg *cfg, const struct bd_throw *t,
		       int correct_of, char **out, size_t *outlen);

/* The whole log in canonical form (docs/match-log.md "Canonical form"):
 * the match line, the roll-off when present, then every entry in order.
 * Writing a parsed canonical log gives back the same bytes, and
 * parse(write(x)) equals x. *out malloc'd as above. 0 or -ENOMEM. */
int mlog_bd_write(const struct mlog_bd *log, char **out, size_t *outlen);

/* True when a and b hold the same match: configuration, roll-off and
 * entries (kind, target, every observation the canonical form keeps);
 * names and line numbers are not compared. */
bool mlog_bd_equal(const struct mlog_bd *a, const struct mlog_bd *b);

/* The "game" of a log's first (non-blank) line: "beerdie", "yatzy", ...
 * copied into game[0..gamelen). 0, or -EINVAL with "NAME:LINE: ..." in err. */
int mlog_game(const char *name, const char *buf, size_t len,
	      char *game, size_t gamelen, char *err, size_t errlen);

/* Judges any match log: reads the first line's "game" and hands the log to
 * that game's judge (the one dispatch table is in core/mlog.c). Output and
 * errors as mlog_bd_judge(); -ENOTSUP "game X: not built" for a game this
 * build does not judge yet. */
int mlog_judge(const char *name, const char *buf, size_t len,
	       char **out, size_t *outlen, char *err, size_t errlen);



#endif /* DYEREF_CORE_H */
