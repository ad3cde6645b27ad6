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
 * Sections: Beer Die (bd_), dice games (dice_), match log codec (mlog_),
 * and the helpers the other modules share (core_: a solver, SHA-256).
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
#define BD_NOTE_MAX   128	/* bytes of a ruling's note, with the NUL */
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
	enum bd_ev_kind kind;	/* what happened */
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
	double apex_m;		/* measured toss height above the floor, metres (BD-S7); < 0 unknown */
	double apex_sd_m;	/* its standard deviation in metres; 0 or less unknown */
	size_t n_events;	/* events used */
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
	struct bd_house house;	/* the match's house rules */
};

/* The match so far: a fold of the rulings. Plain data, copy freely. */
struct bd_state {
	int score[2];		/* points, per team */
	int n_throws;		/* throws judged, re-tosses included */
	int slot;		/* position in the throwing order (BD-T3) */
	bool over;		/* the game is over (BD-W1) */
	int winner;		/* team, or BD_NOBODY */
	bool must_follow[BD_PLAYERS];	/* sunk, follows on the opponents' next point (BD-P11) */
	bool retoss_due;	/* the last throw was void: its thrower throws again (BD-P9) */
	int retoss_thrower;	/* then: who threw it, named or from the order (BD-T3) */
};

enum bd_duty_kind {
	BD_DUTY_KILL_N_FILL,
	BD_DUTY_FOLLOW_PARTNER,
	BD_DUTY_SHOTGUN,
	BD_DUTY_FINISH_WINNERS_CUPS,
	BD_DUTY_NAKED_LAP,
};

struct bd_duty {
	enum bd_duty_kind kind;	/* what is owed */
	int player;		/* the player who owes it, or BD_NOBODY */
	int team;		/* the team that owes it (when player is BD_NOBODY) */
	const char *why;	/* rule ID, a static string */
};

struct bd_ruling {
	int throw_no;		/* 1-based, in log order */
	int thrower;		/* player index (a1, a2, b1, b2) */
	int team;		/* the attackers */
	int points[2];		/* awarded by this throw, per team */
	int score[2];		/* after this throw */
	bool dead;		/* BD-P5, BD-P6 */
	bool review;		/* rests on doubtful evidence: an official should look */
	bool retoss;		/* BD-P9: void, the same thrower throws again */
	bool over;		/* the game ended with this throw */
	int winner;		/* team, or BD_NOBODY */
	size_t n_why;		/* why[] used */
	const char *why[BD_MAX_WHY];	/* rule IDs, static strings */
	size_t n_duties;	/* duties[] used */
	struct bd_duty duties[BD_MAX_DUTIES];	/* owed because of this throw */
	bool sunk[BD_PLAYERS];	/* cups sunk by this throw: their owners must follow (BD-P11) */
	bool fifa;		/* a counting kick (BD-K) decided this throw */
	char note[BD_NOTE_MAX];	/* why in words where a measurement decided (BD-P5 auto), or "" */
};

struct bd_final {
	int score[2];		/* final points, per team */
	bool over;		/* the game ended (BD-W1) */
	int winner;		/* team, or BD_NOBODY */
	size_t n_duties;	/* duties[] used */
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
	double cup_y[BD_PLAYERS];	/* and across, per player */
	double cup_radius_m;	/* 0.045: a pint glass's rim */
	double mine_x, mine_y;	/* the full can in the middle (BD-S6) */
	double mine_radius_m;	/* 0.033 */
	double cup_height_m;	/* 0.12: a pint glass's rim above the table top */
	double mine_height_m;	/* 0.122: a full 33 cl can's top above the table top */
};

/* The standard layout: cups 0.12 m in from each corner (a1 left, a2 right
 * at A's end; b1 left, b2 right at B's end), the mine at the centre. */
void bd_table_defaults(struct bd_table *t);

/* The index of the mine for bd_table_spot; 0..BD_PLAYERS-1 are the cups. */
#define BD_TABLE_MINE BD_PLAYERS

/* Where something standing on the table is: `i` 0..BD_PLAYERS-1 is that
 * player's cup (a1, a2, b1, b2), BD_TABLE_MINE the mine. Writes its
 * centre to *x, *y and its radius to *r (r may be NULL), in metres.
 * -EINVAL for any other i, writing nothing. */
int bd_table_spot(const struct bd_table *t, int i, double *x, double *y, double *r);

/* Which half a table point is on: BD_HALF_LINE within line_width/2 of the
 * centre line. */
enum bd_half bd_table_half(const struct bd_table *t, double x);

/* Moves (*x, *y) onto the table top (0..length_m, 0..width_m), the
 * nearest point of it: where a landing measured just off an edge was (a
 * die that lands on the table lands on it). Whether it moved. */
bool bd_table_clamp(const struct bd_table *t, double *x, double *y);

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

/* The state before the first throw: 0-0, no duties, not over. */
void bd_state_init(struct bd_state *s, const struct bd_match_cfg *cfg);

/* Who throws next by the fixed order (BD-T3). */
int bd_next_thrower(const struct bd_state *s, const struct bd_match_cfg *cfg);

/* Judges one throw against the state before it. Pure: s is not changed.
 * Returns 0, or -EINVAL with a message when the throw cannot be judged
 * (the game is over, a player index out of range, ...). */
int bd_judge(const struct bd_match_cfg *cfg, const struct bd_state *s,
	     const struct bd_throw *t, struct bd_ruling *r,
	     char *err, size_t errlen);

/* BD-P5 with house rule low_call=auto, for a throw with a measured apex
 * (t->apex_m >= 0): whether the referee calls it too low. With its
 * standard deviation known (t->apex_sd_m > 0) the throw is low when
 * P(apex >= min_toss_height_m) is below the larger of review_below and
 * 0.5 ("if in doubt, the throw was too low", doubt measured as for any
 * call, and a height measured below the minimum never high), the apex
 * taken as normal around apex_m; unknown, when apex_m <
 * min_toss_height_m. False
 * under low_call=manual or without an apex. note (the caller's, notelen
 * bytes, may be NULL) gets why in words when low, else "". Pure. */
bool bd_low_auto(const struct bd_house *h, const struct bd_throw *t,
		 char *note, size_t notelen);

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

#define BD_RULE_TEXT_MAX 160	/* bytes of any rule's text, with the NUL */

/* One short English sentence for a rule ID, for the scoreboard and
 * `dyeref judge --table`: "BD-P7" -> "A cup hit that reaches the floor
 * uncaught scores 2.". BD-S7, BD-W1 and BD-W2 state the values of the
 * house rules h (NULL: the defaults): "BD-W1" -> "The game goes to 10
 * points and must be won by 2." by default, "The first team to 3 points
 * with the lead wins." with target_points=3, win_by=1. Writes the text to
 * the caller's buf (len bytes; BD_RULE_TEXT_MAX holds every text of a
 * house bd_house_check() accepts) and returns buf; NULL, buf "", if the ID
 * is unknown. */
const char *bd_rule_text(const char *id, const struct bd_house *h, char *buf, size_t len);

/* The rule IDs bd_rule_text() knows, in rule-book order: i in
 * 0..bd_rule_count()-1, NULL past the end. Static strings. */
size_t bd_rule_count(void);
const char *bd_rule_id(size_t i);

/* ======================================================================
 * Dice games (YZ, YJ, DM, HO): dice_
 *
 * Engines for the dice-tray games of RULES.md sections YZ (Scandinavian
 * Yatzy), YJ (Yatzy with bonus and joker), DM (Dreiermann) and HO (Horse,
 * aces wild). They take dice values as input (typed in, or read by the
 * camera) and say what is legal, what scores and who wins. Each engine is
 * a pure step function: state before + one move -> ruling + state after;
 * folding a log's moves from the initial state replays a match.
 * Players are indices into the configuration's player list, in seat
 * order (the next index is the player to the left).
 * ====================================================================== */

#define DICE_N           5	/* dice in Yatzy and Horse */
#define DICE_MAX_PLAYERS 12
#define DICE_NAME_MAX    32	/* bytes of a player's name, with the NUL */
#define DICE_MAX_WHY     16	/* rule IDs named by one ruling */
#define DICE_MAX_ROLLS   3	/* rolls in a Yatzy or Horse turn (YZ-1, YJ-1, HO-2) */
#define DICE_NOBODY      (-1)

enum dice_game {
	DICE_YZ,		/* Scandinavian Yatzy, log name "yatzy" */
	DICE_YJ,		/* Yatzy with bonus and joker, "yatzy-joker" */
	DICE_DM,		/* Dreiermann, "dreiermann" */
	DICE_HO,		/* Horse, aces wild, "horse" */
};

/* "yatzy", "yatzy-joker", "dreiermann", "horse"; the game or -EINVAL. */
int dice_game_parse(const char *name);
/* The name dice_game_parse() reads, a static string; "?" out of range. */
const char *dice_game_name(enum dice_game g);

/* ---- The dice of one Yatzy or Horse turn ----
 * The log lists each roll's dice; later rolls only the dice rolled again.
 * keep[k] (optional) names the values kept from the hand before roll k+1.
 * Without it the referee chooses the kept dice in the player's favour
 * (dice_rolls_best). */
struct dice_rolls {
	int n_rolls;			/* 1..DICE_MAX_ROLLS (more is checked and refused) */
	int n[DICE_MAX_ROLLS + 1];	/* dice in each roll: 5, then 1..5 */
	int dice[DICE_MAX_ROLLS + 1][DICE_N];	/* values, 1..6 */
	bool has_keep;			/* keep[] was given */
	int n_keep;			/* lists in keep[]: must be n_rolls - 1 */
	int keep_n[DICE_MAX_ROLLS];	/* keep[k]: before roll k+1; 5 - n[k+1] values */
	int keep[DICE_MAX_ROLLS][DICE_N];	/* the kept values, any order */
};

/* How good a final hand is for the caller: higher is better, negative
 * means the hand may not be used (e.g. a joker placement YJ-13 forbids). */
typedef int (*dice_hand_value_fn)(const int hand[DICE_N], void *ctx);

/* Checks the rolls (dice 1..6, counts, at most max_rolls rolls, keep[] a
 * sub-multiset of the hand it is kept from) and finds the final hand: the
 * one keep[] gives, or else the best under value over every choice of
 * kept dice (ties: the hand whose dice, sorted high to low, are greatest).
 * kept (may be NULL) receives the kept values per later roll. Returns 0;
 * -EINVAL with "FIELD: why" in err for bad rolls; -ENOENT when every hand
 * is refused by value (hand then holds the tie-break's first choice). */
int dice_rolls_best(const struct dice_rolls *r, int max_rolls,
		    dice_hand_value_fn value, void *ctx,
		    int hand[DICE_N], int kept[DICE_MAX_ROLLS][DICE_N],
		    char *err, size_t errlen);

/* ---- Yatzy (YZ) and Yatzy with joker (YJ) ---- */

enum dice_box {
	DICE_BOX_ONES, DICE_BOX_TWOS, DICE_BOX_THREES,
	DICE_BOX_FOURS, DICE_BOX_FIVES, DICE_BOX_SIXES,
	DICE_BOX_ONE_PAIR,		/* YZ only */
	DICE_BOX_TWO_PAIRS,		/* YZ only */
	DICE_BOX_THREE_OF_A_KIND,
	DICE_BOX_FOUR_OF_A_KIND,
	DICE_BOX_SMALL_STRAIGHT,
	DICE_BOX_LARGE_STRAIGHT,
	DICE_BOX_FULL_HOUSE,
	DICE_BOX_CHANCE,
	DICE_BOX_YATZY,
	DICE_BOX_COUNT
};

/* "ones" .. "yatzy" as in the CLI and the log; the box or -EINVAL. */
int dice_box_parse(const char *name);
/* The name dice_box_parse() reads, a static string; "?" out of range. */
const char *dice_box_name(enum dice_box b);
/* YJ has no one_pair or two_pairs (13 boxes); YZ has all 15. */
bool dice_game_has_box(enum dice_game g, enum dice_box b);
/* The rule ID that scores a box in a game ("YZ-12"), static. */
const char *dice_box_rule(enum dice_game g, enum dice_box b);

struct dice_yatzy_house {
	bool yatzy_fixed_50;		/* false: yatzy = sum + 50 (YZ-14) */
	bool joker_after_scratched_yatzy;	/* false (YJ-12a) */
};
/* Sets the defaults above (RULES.md). */
void dice_yatzy_house_defaults(struct dice_yatzy_house *h);

/* One box's score for five dice (any order), without jokers: YZ-4..YZ-14
 * or YJ-3..YJ-11. Returns the score, or -EINVAL for a die outside 1..6 or
 * a box the game does not have. */
int dice_box_score(enum dice_game g, const struct dice_yatzy_house *h,
		   enum dice_box b, const int dice[DICE_N]);

struct dice_yatzy_cfg {
	enum dice_game game;		/* DICE_YZ or DICE_YJ */
	size_t n_players;		/* 1..DICE_MAX_PLAYERS */
	char players[DICE_MAX_PLAYERS][DICE_NAME_MAX];	/* names, in turn order */
	struct dice_yatzy_house house;	/* YZ-14, YJ-12a settings */
};

/* One player's score card. */
struct dice_yatzy_card {
	bool used[DICE_BOX_COUNT];	/* the box is written (YZ-3, YJ-2) */
	int box[DICE_BOX_COUNT];	/* its score */
	int yatzy_bonus;		/* YJ-12: 100 per further yatzy */
	int jokers;			/* YJ-13 jokers played */
};

struct dice_yatzy_state {
	int n_turns;			/* turns judged */
	bool over;			/* every box of every card written */
	struct dice_yatzy_card card[DICE_MAX_PLAYERS];	/* one per player */
};

struct dice_yatzy_turn {
	int player;			/* index, or DICE_NOBODY: the next by the order */
	struct dice_rolls rolls;	/* the turn's dice (YZ-1, YJ-1) */
	enum dice_box box;		/* where the result is written */
};

struct dice_yatzy_ruling {
	int turn;			/* 1-based */
	int player;	/* whose turn it was */
	int hand[DICE_N];		/* the final dice, high to low */
	int kept[DICE_MAX_ROLLS][DICE_N];	/* values kept before each later roll */
	enum dice_box box;	/* where it was written */
	int points;			/* written in the box */
	int yatzy_bonus;		/* YJ-12: 0 or 100 */
	bool joker;			/* YJ-13 applied */
	int upper_bonus;		/* reached with this turn: 0, 50 (YZ-5) or 35 (YJ-4) */
	int total;			/* the player's total after the turn */
	bool over;			/* the game ended with this turn */
	size_t n_why;	/* entries in why */
	const char *why[DICE_MAX_WHY];	/* rule IDs, static strings */
};

/* An empty card for every player, the first player to roll. */
void dice_yatzy_state_init(struct dice_yatzy_state *s);
/* Whose turn it is: players take turns in list order. */
int dice_yatzy_next_player(const struct dice_yatzy_cfg *cfg, const struct dice_yatzy_state *s);
/* Judges one turn. Pure: next (may be s) receives the state after it.
 * Returns 0, or -EINVAL with "FIELD: why" in err (a fourth roll, a used
 * box, a joker placement YJ-13 forbids, the wrong player, ...); then
 * neither r nor next is meaningful. */
int dice_yatzy_step(const struct dice_yatzy_cfg *cfg, const struct dice_yatzy_state *s,
		    const struct dice_yatzy_turn *t, struct dice_yatzy_ruling *r,
		    struct dice_yatzy_state *next, char *err, size_t errlen);
/* A card's sums: upper section, its bonus (YZ-5/YJ-4), the total with
 * the yatzy bonuses. */
void dice_yatzy_totals(enum dice_game g, const struct dice_yatzy_card *c,
		       int *upper, int *bonus, int *total);
/* The leader with the most points, or DICE_NOBODY when tied. */
int dice_yatzy_winner(const struct dice_yatzy_cfg *cfg, const struct dice_yatzy_state *s);

/* ---- Dreiermann (DM) ---- */

#define DICE_DM_MIN_PLAYERS 3
#define DICE_DM_MAX_ROLLS   64	/* rolls in one turn the log may list */

struct dice_dm_house {
	int rounds;			/* 5 (DM-14) */
	bool revenge_sum3_to_others;	/* true (DM-11): a revenge's sum of 3 hits the others */
	/* DM-12, each off by default: */
	bool drop_choosing_makes_dreiermann;	/* a die dropped while choosing */
	bool drop_in_round_penalty;	/* a die dropped in a round gives the roller 1 */
	bool breach_sip;		/* a wrong call or breach: 1 sip */
	bool leave_join_sip;		/* leaving or joining a running round: 1 sip */
	bool first_roll_miss_sip;	/* a harmless first roll: 1 sip, turn over */
	bool doubles_to_dreiermann;	/* every double goes wholly to the Dreiermann */
	bool declare_double;		/* the Dreiermann may declare the round double */
	bool double_six_empties;	/* DM-13: a double six empties the drink */
};
/* Sets the defaults above (RULES.md). */
void dice_dm_house_defaults(struct dice_dm_house *h);

struct dice_dm_cfg {
	size_t n_players;		/* DICE_DM_MIN_PLAYERS..DICE_MAX_PLAYERS, seat order */
	char players[DICE_MAX_PLAYERS][DICE_NAME_MAX];	/* names; the next is to the left */
	struct dice_dm_house house;	/* DM-11a..DM-14 settings */
};

enum dice_dm_phase {
	DICE_DM_CHOOSING,		/* rolling for the Dreiermann (DM-1, DM-2) */
	DICE_DM_ROUND,			/* turns of a round (DM-3) */
	DICE_DM_OVER,			/* all rounds played (DM-14) */
};

struct dice_dm_state {
	enum dice_dm_phase phase;	/* choosing, a round, or over */
	int round;			/* 1-based, the round being chosen or played */
	int dreiermann;			/* this round's, or DICE_NOBODY while choosing */
	bool dm_double;			/* a double Dreiermann (DM-1) */
	bool declared;			/* the round was declared double (DM-12) */
	int last_dreiermann;		/* the previous round's (DM-2), or DICE_NOBODY */
	int chooser;			/* next to roll while choosing */
	int turns_done;			/* turns played in this round */
	int n_turns;			/* turns judged in the match */
	int n_moves;			/* moves judged (choosing rolls, turns, sips) */
	int sips[DICE_MAX_PLAYERS];	/* penalty points so far (DM-13) */
	int empties[DICE_MAX_PLAYERS];	/* drinks emptied for a double six (DM-13 option) */
};

struct dice_dm_roll {
	int d[2];			/* 1..6 each */
	bool dropped;			/* a die fell (DM-12): the roll does not count */
	bool has_share;			/* share[] was given */
	int share[DICE_MAX_PLAYERS];	/* a double's points per player (DM-7) */
};

enum dice_dm_move_kind {
	DICE_DM_MOVE_CHOOSE,		/* one roll while choosing */
	DICE_DM_MOVE_DECLARE_DOUBLE,	/* DM-12: the Dreiermann declares the round double */
	DICE_DM_MOVE_TURN,		/* a player's whole turn */
	DICE_DM_MOVE_SIP,		/* DM-12: a breach, leaving or joining */
};

enum dice_dm_sip_reason { DICE_DM_SIP_BREACH, DICE_DM_SIP_LEAVE, DICE_DM_SIP_JOIN };

struct dice_dm_move {
	enum dice_dm_move_kind kind;	/* what the line was */
	int player;			/* who; DICE_NOBODY: the engine's next (CHOOSE, TURN) */
	enum dice_dm_sip_reason reason;	/* SIP */
	size_t n_rolls;			/* CHOOSE: 1; TURN: 1..DICE_DM_MAX_ROLLS */
	struct dice_dm_roll rolls[DICE_DM_MAX_ROLLS];	/* in the order rolled */
};

struct dice_dm_ruling {
	enum dice_dm_move_kind kind;	/* the move judged */
	int move;			/* 1-based count of moves */
	int turn;			/* TURN: 1-based count of turns, else 0 */
	int player;	/* who rolled, declared or drinks */
	int round;	/* 1-based */
	bool revenge;			/* the Dreiermann's own turn (DM-11) */
	int dreiermann;			/* after the move, or DICE_NOBODY */
	bool dm_double;	/* a double Dreiermann or a declared double round */
	int penalties[DICE_MAX_PLAYERS];	/* points this move gave */
	int empties[DICE_MAX_PLAYERS];		/* drinks emptied this move */
	int points;			/* sum of penalties */
	bool over;	/* the last round ended with this move */
	size_t n_why;	/* entries in why */
	const char *why[DICE_MAX_WHY];	/* rule IDs, static strings */
};

/* Round 1, choosing the Dreiermann, the first player to roll. */
void dice_dm_state_init(struct dice_dm_state *s, const struct dice_dm_cfg *cfg);
/* Who rolls next (choosing) or whose turn it is (round). */
int dice_dm_next_player(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s);
/* Penalties of one roll (DM-5..DM-11) by roller, given share and the
 * state's Dreiermann: adds to pen[]/empties[], names rules in why.
 * Returns 0, or -EINVAL with "FIELD: why" (a share that does not add up,
 * a share where there is no double, ...). */
int dice_dm_roll_penalties(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s,
			   int roller, const struct dice_dm_roll *roll,
			   int pen[DICE_MAX_PLAYERS], int empties[DICE_MAX_PLAYERS],
			   const char **why, size_t *n_why, char *err, size_t errlen);
/* Judges one move. Pure: next (may be s) receives the state after it.
 * Returns 0 or -EINVAL with "FIELD: why" in err. */
int dice_dm_step(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s,
		 const struct dice_dm_move *m, struct dice_dm_ruling *r,
		 struct dice_dm_state *next, char *err, size_t errlen);
/* Fewest penalty points, or DICE_NOBODY when tied (DM-14a). */
int dice_dm_winner(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s);

/* ---- Horse, aces wild (HO) ---- */

#define DICE_HO_MIN_PLAYERS 2

/* A hand as HO-5 writes it: count-face/rolls. */
struct dice_ho_hand {
	bool valid;			/* holds an ace (HO-3); false: no value */
	int count;			/* 2..5 */
	int face;			/* 2..6 (aces join a face, HO-9) */
	int rolls;			/* 1..3 (HO-10) */
};

/* HO-3, HO-4, HO-9: the best reading of five dice rolled in `rolls`.
 * Returns 0, or -EINVAL for a die outside 1..6 or rolls outside 1..3. */
int dice_ho_hand_of(const int dice[DICE_N], int rolls, struct dice_ho_hand *h);
/* HO-4, HO-5: > 0 when a beats b, < 0 when b beats a, 0 for a tie. */
int dice_ho_compare(const struct dice_ho_hand *a, const struct dice_ho_hand *b);
/* "45/3" (HO-5); a hand without an ace prints "-/3". Returns the length,
 * or -ENOSPC when buf is too small (buf then holds ""). */
int dice_ho_format(const struct dice_ho_hand *h, char *buf, size_t n);
/* Reads "45/3" or "-/3"; 0 or -EINVAL. */
int dice_ho_parse(const char *s, struct dice_ho_hand *h);

struct dice_ho_house {
	bool final_best_of_three;	/* false: the last two play one round (HO-6) */
	bool five_aces_ends;		/* false (HO-8) */
};
/* Sets the defaults above (RULES.md). */
void dice_ho_house_defaults(struct dice_ho_house *h);

struct dice_ho_cfg {
	size_t n_players;		/* DICE_HO_MIN_PLAYERS..DICE_MAX_PLAYERS, seat order */
	char players[DICE_MAX_PLAYERS][DICE_NAME_MAX];	/* names; the next is to the left */
	struct dice_ho_house house;	/* HO-6, HO-8 settings */
};

enum dice_ho_phase {
	DICE_HO_ROLLOFF,		/* no turn yet; a roll-off may decide who starts (HO-1) */
	DICE_HO_PLAY,
	DICE_HO_OVER,			/* a loser is known */
};

struct dice_ho_state {
	enum dice_ho_phase phase;	/* roll-off, play or over */
	bool rolloff_in[DICE_MAX_PLAYERS];	/* in the pending roll-off; all at first */
	bool rolloff_tied;		/* the last roll-off tied (HO-1) */
	bool in[DICE_MAX_PLAYERS];	/* still playing (not yet out, HO-6) */
	int n_in;	/* players still in */
	int starter;			/* began the current round */
	int round;			/* 1-based, tie rounds counted */
	bool tie_round;			/* the current round breaks a tie (HO-7) */
	bool final;			/* two players left (HO-6) */
	int order[DICE_MAX_PLAYERS];	/* who plays this round, in turn order */
	int n_order;	/* entries in order */
	int pos;			/* turns done this round */
	struct dice_ho_hand hand[DICE_MAX_PLAYERS];	/* this round's hands */
	int mark_player;		/* holds the mark (HO-2), or DICE_NOBODY */
	int legs[DICE_MAX_PLAYERS];	/* rounds won in a best-of-three final */
	int out[DICE_MAX_PLAYERS];	/* players out (safe), in order */
	int n_out;	/* entries in out */
	int loser;			/* DICE_NOBODY until over */
	int n_turns;	/* turns judged */
};

struct dice_ho_rolloff {
	bool rolled[DICE_MAX_PLAYERS];	/* who rolled */
	int value[DICE_MAX_PLAYERS];	/* one die each, 1..6 */
};

struct dice_ho_turn {
	int player;			/* index, or DICE_NOBODY: the next by the order */
	struct dice_rolls rolls;	/* the turn's dice (HO-2) */
};

struct dice_ho_ruling {
	int turn;			/* 1-based; 0 for a roll-off */
	int player;			/* the turn's; the starter after a roll-off */
	int round;	/* 1-based, tie rounds counted */
	bool tie_round;	/* the turn was in a tie round (HO-7) */
	struct dice_ho_hand hand;	/* the turn's hand (HO-5) */
	int dice[DICE_N];		/* the final dice, high to low */
	int kept[DICE_MAX_ROLLS][DICE_N];	/* values kept before each later roll */
	int mark_player;		/* after the turn */
	struct dice_ho_hand mark;	/* the hand to beat, after the turn */
	bool round_over;		/* this turn ended a round */
	int out;			/* who went out with it (HO-6), or DICE_NOBODY */
	bool tied[DICE_MAX_PLAYERS];	/* best hands tied: they play a tie round (HO-7) */
	bool any_tied;	/* tied[] names someone */
	int legs[DICE_MAX_PLAYERS];	/* final, best of three */
	int loser;			/* DICE_NOBODY until over */
	bool over;	/* the game ended with this turn */
	size_t n_why;	/* entries in why */
	const char *why[DICE_MAX_WHY];	/* rule IDs, static strings */
};

/* The roll-off for the first roller (HO-1), every player still in. */
void dice_ho_state_init(struct dice_ho_state *s, const struct dice_ho_cfg *cfg);
/* Who rolls next; DICE_NOBODY when the game is over or a tied roll-off
 * waits for its re-roll. */
int dice_ho_next_player(const struct dice_ho_cfg *cfg, const struct dice_ho_state *s);
/* HO-1: a roll-off by the players in it (all, or those tied last time).
 * r->player is the starter, or DICE_NOBODY with r->tied set when tied. */
int dice_ho_rolloff_step(const struct dice_ho_cfg *cfg, const struct dice_ho_state *s,
			 const struct dice_ho_rolloff *ro, struct dice_ho_ruling *r,
			 struct dice_ho_state *next, char *err, size_t errlen);
/* Judges one turn. Pure: next (may be s) receives the state after it.
 * Without a roll-off the first listed player starts. */
int dice_ho_step(const struct dice_ho_cfg *cfg, const struct dice_ho_state *s,
		 const struct dice_ho_turn *t, struct dice_ho_ruling *r,
		 struct dice_ho_state *next, char *err, size_t errlen);

/* ---- Score sheets for the scoreboard ----
 * Every engine renders its state as rows of cells, one column per player:
 * Yatzy its boxes and sums, Dreiermann the tally, Horse the hands. */
#define DICE_SHEET_ROWS 24
#define DICE_SHEET_TEXT 16

struct dice_sheet_cell {
	bool filled;			/* false: empty (an unused box, no hand yet) */
	int value;	/* the number shown */
	char text[DICE_SHEET_TEXT];	/* shown instead of value when not "" ("45/3") */
};

struct dice_sheet {
	enum dice_game game;	/* which game the sheet is of */
	size_t n_players;	/* columns */
	char players[DICE_MAX_PLAYERS][DICE_NAME_MAX];	/* column heads */
	size_t n_rows;	/* rows used */
	char row[DICE_SHEET_ROWS][DICE_SHEET_TEXT];	/* "ones", "bonus", "total", "sips", "hand", ... */
	struct dice_sheet_cell cell[DICE_SHEET_ROWS][DICE_MAX_PLAYERS];	/* [row][player] */
	int turn;			/* whose turn, or DICE_NOBODY when over */
	int round;			/* 1-based */
	bool over;	/* the game is over */
	int winner;			/* DICE_NOBODY: none yet or tied */
	int loser;			/* Horse; DICE_NOBODY otherwise */
	int dreiermann;			/* Dreiermann; DICE_NOBODY otherwise */
	bool dm_double;	/* Dreiermann: a double one */
	char mark[DICE_SHEET_TEXT];	/* Horse: the mark, "45/3", or "" */
	int mark_player;	/* Horse: who holds the mark, or DICE_NOBODY */
	/* Borrowed: the log mlog_dice_sheet() folded (its caller's buf), from
	 * which mlog_dice_sheet_json() lists the turns; NULL for an engine's
	 * sheet (no turns listed). Valid only while that buffer is. */
	const char *log;
	size_t log_len;	/* bytes of log */
};

/* The sheet of a game's state, into *out (the caller's; overwritten). */
void dice_yatzy_sheet(const struct dice_yatzy_cfg *cfg, const struct dice_yatzy_state *s,
		      struct dice_sheet *out);
void dice_dm_sheet(const struct dice_dm_cfg *cfg, const struct dice_dm_state *s,
		   struct dice_sheet *out);
void dice_ho_sheet(const struct dice_ho_cfg *cfg, const struct dice_ho_state *s,
		   struct dice_sheet *out);

/* ---- The dice-game match log (mlog_dice.c) ---- */

/* Judges a dice-game match log (DESIGN.md "Dice games use the same
 * shape"; docs/dice-games.md) held in buf[0..len): one ruling line per
 * move and a final line. name is the file name for messages. On success
 * returns 0 and *out (malloc'd, the caller frees it) holds the output
 * text, *outlen its length. On bad input returns -EINVAL with
 * "NAME:LINE: FIELD: why" in err and *out NULL; -ENOMEM on no memory. */
int mlog_dice_judge(const char *name, const char *buf, size_t len,
		    char **out, size_t *outlen, char *err, size_t errlen);

/* The sheet after the whole log in buf (as mlog_dice_judge reads it).
 * Returns 0 or the errors of mlog_dice_judge; *sheet is the caller's and
 * borrows buf (sheet->log) until mlog_dice_sheet_json() is done with it. */
int mlog_dice_sheet(const char *name, const char *buf, size_t len,
		    struct dice_sheet *sheet, char *err, size_t errlen);

/* A sheet as one JSON object (no newline): {"game":..,"players":[..],
 * "rows":[{"name":"ones","cells":[3,null,..]},..],"turn":..,...}; with
 * sheet->log also "boxes", "turns", "last" and "input" (docs/dice-games.md,
 * "Score sheets"). Returns 0 with *out malloc'd (the caller frees it), or
 * -ENOMEM. */
int mlog_dice_sheet_json(const struct dice_sheet *sheet, char **out, size_t *outlen);



/* ======================================================================
 * Match log codec (JSON Lines, docs/match-log.md): mlog_
 * ====================================================================== */

/* Limits of a match log. */
#define MLOG_COLOR_MAX   8		/* bytes of a team colour's name, with the NUL */
#define MLOG_MAX_INPUT   (64u << 20)	/* bytes the CLI reads of a log it holds whole */
#define MLOG_LINE_MAX    (64u << 10)	/* bytes of one line, without its '\n' */
#define MLOG_SOURCE_MAX  16		/* bytes of an event's source, with the NUL */

#define MLOG_OFFICIAL_MAX 33		/* bytes of an official's name, with the NUL */
#define MLOG_REASON_MAX  201		/* bytes of an official's reason, with the NUL */
#define MLOG_DUTY_ID_MAX 48		/* bytes of a duty's id ("8:kill_n_fill:b1"), with the NUL */

enum mlog_entry_kind {
	MLOG_THROW,	/* a "throw" line: the next throw of the match */
	MLOG_CORRECT,	/* a "correct" line: replaces an earlier throw's observations */
	MLOG_CONFIRM,	/* a "confirm" line: an official agreed with a throw's ruling
			 * (no observations; judging skips it) */
	MLOG_DUTY,	/* a "duty" line: an official marked a duty done or not done
			 * (no observations; judging skips it) */
};

/* Who decided, when and why: an official's correction, undo or
 * confirmation ("audit" in the log). Data from outside: core reads no clock. */
struct mlog_audit {
	bool present;			/* the line has one */
	char official[MLOG_OFFICIAL_MAX];	/* the official's name, 1.. bytes */
	int64_t wall_ms;		/* Unix time, ms (for display) */
	char reason[MLOG_REASON_MAX];	/* "" none */
};

/* One throw, correction or confirmation, as it stood in the log. */
struct mlog_bd_entry {
	enum mlog_entry_kind kind;	/* a throw, a correction or a confirmation */
	int line;		/* 1-based line in the log; 0 when built in memory */
	int throw_no;		/* THROW: its own number; CORRECT, CONFIRM: the throw
				 * it replaces or confirms (1-based) */
	struct bd_throw t;	/* the observations (thrower BD_NOBODY: from the order);
				 * CONFIRM: none */
	bool undo;		/* CORRECT: an official's undo ("undo":true) */
	struct mlog_audit audit;	/* CORRECT, CONFIRM, DUTY: who, when, why; or none */
	char duty[MLOG_DUTY_ID_MAX];	/* DUTY: the duty's id ("8:kill_n_fill:b1",
					 * "F:finish_winners_cups:B"); throw_no 0 */
	bool done;		/* DUTY: marked done (false: the mark taken back) */
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
	char team_names[2][BD_NAME_MAX];	/* "names": teams A, B as shown; "" unnamed */
	char colors[2][MLOG_COLOR_MAX];	/* "colors": teams A, B's palette colours; "" the
					 * default (orange, blue: mlog_bd_color()) */
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

/* The team colours a match line may name ("colors"): a fixed palette
 * that reads on the wall's dark background, in display order, NULL-ended. */
extern const char *const mlog_bd_palette[];
/* Whether name is one of mlog_bd_palette. */
bool mlog_bd_color_ok(const char *name);
/* Team team's (BD_TEAM_A, BD_TEAM_B) colour in log: its "colors" entry,
 * else the default, "orange" for A and "blue" for B. */
const char *mlog_bd_color(const struct mlog_bd *log, int team);

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

/* Appends a confirmation of throw throw_no by audit's official (copied).
 * 0, -EINVAL when that throw does not exist yet, -ENOMEM. */
int mlog_bd_add_confirm(struct mlog_bd *log, int throw_no, const struct mlog_audit *audit);

/* Appends a duty mark: duty (copied; 1..MLOG_DUTY_ID_MAX-1 bytes, no
 * control characters) marked done or not by audit's official. The log does
 * not check that the duty exists (it depends on the rulings); readers ignore
 * marks of duties that no longer exist. 0, -EINVAL bad id, -ENOMEM. */
int mlog_bd_add_duty(struct mlog_bd *log, const char *duty, bool done,
		     const struct mlog_audit *audit);

/* Whether the log's last mark of duty says done (false when never marked);
 * *by (may be NULL) gets that mark's entry. */
bool mlog_bd_duty_done(const struct mlog_bd *log, const char *duty,
		       const struct mlog_bd_entry **by);

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

/* One entry's line in canonical form (a throw, correction with its undo
 * mark and audit, or confirmation), with its '\n'. 0 or -ENOMEM. */
int mlog_bd_entry_line(const struct bd_match_cfg *cfg, const struct mlog_bd_entry *e,
		       char **out, size_t *outlen);

/* The whole log in canonical form (docs/match-log.md "Canonical form"):
 * the match line, the roll-off when present, then every entry in order.
 * Writing a parsed canonical log gives back the same bytes, and
 * parse(write(x)) equals x. *out malloc'd as above. 0 or -ENOMEM. */
int mlog_bd_write(const struct mlog_bd *log, char **out, size_t *outlen);

/* True when a and b hold the same match: configuration, roll-off and
 * entries (kind, target, every observation the canonical form keeps);
 * names and line numbers are not compared. */
bool mlog_bd_equal(const struct mlog_bd *a, const struct mlog_bd *b);

/* A Beer Die log judged line by line, in memory bounded by the match
 * (its configuration, the fold's state, the latest correction of each
 * corrected throw), not by the log: `dyeref judge` of any length.
 *
 * The caller reads the log in passes, each from the first line: feeds
 * every line to mlog_bd_stream_line(), then calls mlog_bd_stream_end(),
 * which says what comes next. MLOG_PASS_READ checks every line; JUDGE
 * (only when the log has corrections) judges with all of them known;
 * WRITE hands out the output, each ruling line from the throw's line and
 * the final line from the end of the pass. Nothing is handed out before
 * the whole log has been checked and judged, so bad input gives no
 * output at all. Pure: lines in, lines out. */
enum mlog_pass { MLOG_PASS_READ, MLOG_PASS_JUDGE, MLOG_PASS_WRITE, MLOG_PASS_DONE };

struct mlog_bd_stream;

/* A stream for the log named name (copied; NULL: "log"). NULL with errno
 * ENOMEM. Free with mlog_bd_stream_free(). */
struct mlog_bd_stream *mlog_bd_stream_new(const char *name);
void mlog_bd_stream_free(struct mlog_bd_stream *s);	/* NULL is fine */

/* The next line of this pass, line[0..len) without its '\n' (a '\r'
 * before it is allowed), blank lines included so that numbers match.
 * In WRITE, *out (*outlen bytes, with its '\n'; borrowed until the next
 * call) is the line's ruling, or NULL when it gives none. 0; -EINVAL with
 * "NAME:LINE: FIELD: problem" in err (a line over MLOG_LINE_MAX bytes is
 * refused so); -ENOMEM. After an error the stream is done with. */
int mlog_bd_stream_line(struct mlog_bd_stream *s, const char *line, size_t len,
			const char **out, size_t *outlen, char *err, size_t errlen);

/* Ends the pass: returns the next (MLOG_PASS_JUDGE or MLOG_PASS_WRITE:
 * read the log again from its first line), or MLOG_PASS_DONE after WRITE
 * with the final line in *out (borrowed as above); or the errors of
 * mlog_bd_stream_line (an empty log, a throw the rules cannot judge:
 * "NAME:LINE: throw N: why"). */
int mlog_bd_stream_end(struct mlog_bd_stream *s, const char **out, size_t *outlen,
		       char *err, size_t errlen);

/* mlog_bd_judge() of the log in buf[0..len) by the stream's passes: the
 * same output and errors, in memory bounded by the match and the output
 * (mlog_judge() judges Beer Die so). */
int mlog_bd_stream_judge(const char *name, const char *buf, size_t len,
			 char **out, size_t *outlen, char *err, size_t errlen);

/* Whether the log in buf[0..len) judges, any game, without its output:
 * 0, or the errors of mlog_judge(). A Beer Die log is checked by the
 * stream, in memory bounded by the match. */
int mlog_check(const char *name, const char *buf, size_t len, char *err, size_t errlen);

/* In WRITE, after a line that handed out a ruling line: that ruling as
 * a structure (borrowed until the next call), *corrected whether a
 * correction replaced its throw. */
const struct bd_ruling *mlog_bd_stream_ruling(const struct mlog_bd_stream *s, bool *corrected);

/* After mlog_bd_stream_end() said MLOG_PASS_DONE: the final line's content. */
const struct bd_final *mlog_bd_stream_final(const struct mlog_bd_stream *s);

/* The match as read so far (cfg, roll-off, names; entries: none kept). */
const struct mlog_bd *mlog_bd_stream_log(const struct mlog_bd_stream *s);

/* The "game" of a log's first (non-blank) line: "beerdie", "yatzy", ...
 * copied into game[0..gamelen). 0, or -EINVAL with "NAME:LINE: ..." in err. */
int mlog_game(const char *name, const char *buf, size_t len,
	      char *game, size_t gamelen, char *err, size_t errlen);

/* The same of one line, line number no, the log's first but blank ones:
 * 1 when it is blank too (the game is still to come). */
int mlog_game_line(const char *name, const char *line, size_t len, int no,
		   char *game, size_t gamelen, char *err, size_t errlen);

/* Judges any match log: reads the first line's "game" and hands the log to
 * that game's judge (the one dispatch table is in core/mlog.c). Output and
 * errors as mlog_bd_judge(); -ENOTSUP "game X: not built" for a game this
 * build does not judge yet. */
int mlog_judge(const char *name, const char *buf, size_t len,
	       char **out, size_t *outlen, char *err, size_t errlen);

/* ======================================================================
 * Numerics shared by sensors/ and vision/ (core/solve.c)
 * ====================================================================== */

/* Solves the n x n system a x = b by Gaussian elimination with partial
 * pivoting. a (row-major, n * n) and b (n) are overwritten; x (n) may be
 * b itself. A pivot below tiny in magnitude means singular: -EDOM, x
 * partly written. tiny is the caller's, as only it knows its system's
 * scale (homographies on normalised points, seconds of TDOA, ...). */
int core_solve(double *a, double *b, double *x, size_t n, double tiny);

/* ======================================================================
 * SHA-256 (FIPS 180-4; core/sha256.c), for db/ and web/
 * ====================================================================== */

#define CORE_SHA256_LEN 32	/* bytes of a digest */

/* A hash being computed: the caller's, on its stack or in its object. */
struct core_sha256 {
	uint32_t h[8];			/* the chaining state */
	unsigned char block[64];	/* bytes not yet compressed */
	size_t fill;			/* of block */
	uint64_t bytes;			/* hashed so far */
};

void core_sha256_init(struct core_sha256 *c);
void core_sha256_add(struct core_sha256 *c, const void *data, size_t n);
/* Ends it: the digest into out; c must be initialised again for reuse. */
void core_sha256_end(struct core_sha256 *c, unsigned char out[CORE_SHA256_LEN]);

#endif /* DYEREF_CORE_H */
