/*
 * core's dice games: part of core's public interface, which core/core.h
 * includes (include core/core.h, not this file; its rules, errors and
 * ownership are core.h's). Kept apart so that each header stays a size
 * one can read.
 */
#ifndef DYEREF_CORE_DICE_H
#define DYEREF_CORE_DICE_H

#include <stdbool.h>
#include <stddef.h>

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

#endif /* DYEREF_CORE_DICE_H */
