/*
 * The referee's dice games at the table (daemon/referee_dice.c over a real
 * database): undo and correction of an earlier turn refold the game from
 * the stored log, for each of the four games; a correction that leaves a
 * later turn unjudgeable is refused naming it, with nothing stored; a box
 * written for 0 asks first, by a move or a correction; a complete game
 * stays open (over) for undo and correction of its last turn, across a
 * restart, until it is ended or a new match starts; the sheet lists the turns, what the last entry
 * wrote for whom and what the next move takes; the audit is stored with
 * the lines.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "daemon/referee.h"
#include "db/db.h"
#include "tests/support/db_fx.h"

static struct dd_referee *referee(void **state)
{
	struct db_test_fx *f = *state;
	struct dd_referee_cfg cfg;
	struct dd_referee *r;

	memset(&cfg, 0, sizeof(cfg));
	bd_house_defaults(&cfg.house);
	cfg.review = DD_REVIEW_COUNT;
	r = dd_referee_new(&cfg, f->db);
	assert_non_null(r);
	return r;
}

static const struct dd_audit KIM = { "Kim", 1700000000000, "misread the dice" };

static void start(struct dd_referee *r, const char *header)
{
	char err[256] = "";

	if (dd_referee_dice_start(r, header, err, sizeof(err)))
		fail_msg("start: %s", err);
}

static void move(struct dd_referee *r, const char *line)
{
	char err[256] = "";

	if (dd_referee_dice_move(r, line, true, NULL, err, sizeof(err)))
		fail_msg("move %s: %s", line, err);
}

static json_t *sheet(struct dd_referee *r)
{
	char *text = NULL;
	json_t *o;

	assert_int_equal(dd_referee_sheet(r, (long)dd_referee_current_id(r), &text), 0);
	o = json_loads(text, 0, NULL);
	assert_non_null(o);
	free(text);
	return o;
}

/* Row `name`'s cell of player p, -1 when empty. */
static int cell(json_t *sh, const char *name, size_t p)
{
	size_t i;
	json_t *row;

	json_array_foreach(json_object_get(sh, "rows"), i, row)
		if (!strcmp(json_string_value(json_object_get(row, "name")), name)) {
			json_t *c = json_array_get(json_object_get(row, "cells"), p);

			return json_is_integer(c) ? (int)json_integer_value(c) : -1;
		}
	fail_msg("no row %s", name);
	return -1;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "(null)";
}

static size_t log_lines(struct dd_referee *r)
{
	char *log = NULL;
	size_t n = 0;

	assert_int_equal(dd_referee_log(r, (long)dd_referee_current_id(r), &log), 0);
	for (const char *p = log; *p; p++)
		n += *p == '\n';
	free(log);
	return n;
}

#define YZ "{\"type\":\"match\",\"game\":\"yatzy\",\"players\":[\"Kim\",\"Lou\"]}"

/* YZ-2: "44413 entered as full_house was accepted as a 0": now it asks,
 * stores nothing, and the retry stays Kim's turn. */
static void test_referee_dice_zero_box_asks_first(void **state)
{
	struct dd_referee *r = referee(state);
	char err[256] = "";
	json_t *sh;

	start(r, YZ);
	assert_int_equal(dd_referee_dice_move(r, "{\"type\":\"turn\",\"rolls\":[[4,4,4,1,3]],\"box\":\"full_house\"}",
					      false, &KIM, err, sizeof(err)), -EAGAIN);
	assert_string_equal(err, "full_house with 4-4-4-1-3 scores 0: write 0?");
	assert_int_equal(log_lines(r), 1);
	/* Over several rolls: the dice kept, then the last roll. */
	assert_int_equal(dd_referee_dice_move(r, "{\"type\":\"turn\",\"rolls\":[[1,2,3,5,6],[2,2,6]],"
					      "\"keep\":[[1,3]],\"box\":\"yatzy\"}", false, NULL, err, sizeof(err)),
			 -EAGAIN);
	assert_string_equal(err, "yatzy with 3-1-2-2-6 scores 0: write 0?");
	/* A box that scores is written without a question. */
	assert_int_equal(dd_referee_dice_move(r, "{\"type\":\"turn\",\"rolls\":[[4,4,4,1,3]],\"box\":\"fours\"}",
					      false, &KIM, err, sizeof(err)), 0);
	sh = sheet(r);
	assert_string_equal(str(json_object_get(sh, "last"), "text"), "Wrote 12 in fours for Kim");
	assert_string_equal(str(sh, "turn"), "Lou");
	json_decref(sh);
	/* Accepted, the 0 is written, for Lou. */
	assert_int_equal(dd_referee_dice_move(r, "{\"type\":\"turn\",\"rolls\":[[4,4,4,1,3]],\"box\":\"full_house\"}",
					      true, &KIM, err, sizeof(err)), 0);
	sh = sheet(r);
	assert_string_equal(str(json_object_get(sh, "last"), "text"), "Wrote 0 in full_house for Lou");
	assert_int_equal(cell(sh, "full_house", 1), 0);
	json_decref(sh);
	/* The console's answer: what was written, for whom, and the sheet. */
	assert_int_equal(dd_referee_dice_result(r, dd_referee_current_id(r), &sh), 0);
	assert_int_equal(json_integer_value(json_object_get(sh, "turn")), 2);
	assert_string_equal(str(sh, "player"), "Lou");
	assert_string_equal(str(sh, "box"), "full_house");
	assert_int_equal(json_integer_value(json_object_get(sh, "points")), 0);
	assert_true(json_is_true(json_object_get(sh, "wrote")));
	assert_string_equal(str(json_object_get(sh, "sheet"), "game"), "yatzy");
	json_decref(sh);
	assert_int_equal(dd_referee_dice_result(r, 99, &sh), -ENOENT);
	dd_referee_free(r);
}

/* Undo withdraws the last turn standing; the sheet keeps it, marked. */
static void test_referee_dice_yatzy_undo_refolds(void **state)
{
	struct dd_referee *r = referee(state);
	char err[256] = "";
	json_t *sh, *t;

	start(r, YZ);
	assert_int_equal(dd_referee_dice_undo(r, &KIM, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "no turn to undo");
	move(r, "{\"type\":\"turn\",\"rolls\":[[6,6,6,2,3]],\"box\":\"sixes\"}");
	move(r, "{\"type\":\"turn\",\"rolls\":[[4,4,4,1,3]],\"box\":\"full_house\"}");
	assert_int_equal(dd_referee_dice_undo(r, &KIM, err, sizeof(err)), 0);
	sh = sheet(r);
	assert_int_equal(cell(sh, "full_house", 1), -1);
	assert_string_equal(str(sh, "turn"), "Lou");
	assert_string_equal(str(json_object_get(sh, "last"), "text"),
			    "Turn 2 undone. It was: Wrote 0 in full_house for Lou");
	assert_false(json_is_true(json_object_get(json_object_get(sh, "last"), "wrote")));
	t = json_array_get(json_object_get(sh, "turns"), 1);
	assert_true(json_is_true(json_object_get(t, "undone")));
	assert_string_equal(str(json_object_get(t, "audit"), "official"), "Kim");
	json_decref(sh);
	/* Lou's turn again: turn 2 anew. */
	move(r, "{\"type\":\"turn\",\"rolls\":[[4,4,4,1,3]],\"box\":\"fours\"}");
	sh = sheet(r);
	t = json_array_get(json_object_get(sh, "turns"), 2);
	assert_int_equal(json_integer_value(json_object_get(t, "turn")), 2);
	assert_string_equal(str(t, "player"), "Lou");
	assert_int_equal(cell(sh, "fours", 1), 12);
	json_decref(sh);
	/* The stored log judges with the CLI's engine: undo lines included. */
	assert_int_equal(log_lines(r), 5);
	dd_referee_free(r);
}

/* A wrong box corrected three turns later: the refold moves the points,
 * the totals follow, and a correction that makes a later turn illegal is
 * refused naming that turn, with nothing stored. */
static void test_referee_dice_yatzy_correct_refolds(void **state)
{
	struct dd_referee *r = referee(state);
	char err[256] = "";
	json_t *sh, *t;
	size_t lines;

	start(r, YZ);
	move(r, "{\"type\":\"turn\",\"rolls\":[[6,6,6,2,3]],\"box\":\"chance\"}");
	move(r, "{\"type\":\"turn\",\"rolls\":[[1,1,2,3,4]],\"box\":\"ones\"}");
	move(r, "{\"type\":\"turn\",\"rolls\":[[6,6,5,5,5]],\"box\":\"full_house\"}");
	move(r, "{\"type\":\"turn\",\"rolls\":[[2,2,2,2,3]],\"box\":\"twos\"}");
	assert_int_equal(dd_referee_dice_correct(r, 1, "{\"type\":\"turn\",\"rolls\":[[6,6,6,2,3]],\"box\":\"sixes\"}",
						 true, &KIM, err, sizeof(err)), 0);
	sh = sheet(r);
	assert_int_equal(cell(sh, "sixes", 0), 18);
	assert_int_equal(cell(sh, "chance", 0), -1);
	assert_int_equal(cell(sh, "total", 0), 18 + 27);
	assert_string_equal(str(json_object_get(sh, "last"), "text"),
			    "Turn 1 corrected. Wrote 18 in sixes for Kim");
	t = json_array_get(json_object_get(sh, "turns"), 0);
	assert_true(json_is_true(json_object_get(t, "corrected")));
	assert_string_equal(str(t, "player"), "Kim");
	assert_string_equal(str(json_object_get(t, "audit"), "reason"), "misread the dice");
	json_decref(sh);
	/* Turn 3 is Kim's full_house: turn 1 cannot take it too. */
	lines = log_lines(r);
	assert_int_equal(dd_referee_dice_correct(r, 1, "{\"type\":\"turn\",\"rolls\":[[6,6,6,2,2]],\"box\":\"full_house\"}",
						 true, &KIM, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "turn 3 no longer fits: box: Kim has already used full_house (YZ-3)");
	assert_int_equal(log_lines(r), lines);
	assert_int_equal(dd_referee_dice_correct(r, 9, "{\"type\":\"turn\",\"rolls\":[[6,6,6,2,2]],\"box\":\"chance\"}",
						 true, &KIM, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "turn: no turn 9 to correct (turns 1 to 4 stand)");
	assert_int_equal(dd_referee_dice_correct(r, 2, "{\"type\":\"turn\",\"rolls\":[[1,1,2,3]],\"box\":\"ones\"}",
						 true, &KIM, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "turn 2: rolls[0]: the first roll has 4 dice, not 5");
	/* The turn stays its player's: naming another is refused by the engine. */
	assert_int_equal(dd_referee_dice_correct(r, 2, "{\"type\":\"turn\",\"player\":\"kim\",\"rolls\":[[1,1,2,3,4]],\"box\":\"ones\"}",
						 true, &KIM, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "turn 2: player:"));
	assert_int_equal(log_lines(r), lines);
	dd_referee_free(r);
}

/* Dreiermann: a choosing roll corrected changes who is Dreiermann, so the
 * turns after it no longer fit; a share corrected refolds the sips. */
static void test_referee_dice_dreiermann_correct_share_refolds(void **state)
{
	struct dd_referee *r = referee(state);
	char err[256] = "";
	json_t *sh, *in;

	start(r, "{\"type\":\"match\",\"game\":\"dreiermann\",\"players\":[\"ann\",\"bob\",\"cid\"]}");
	sh = sheet(r);
	in = json_object_get(sh, "input");
	assert_string_equal(str(in, "move"), "choose");
	assert_string_equal(str(in, "player"), "ann");
	assert_int_equal(json_array_size(json_object_get(sh, "boxes")), 0);
	json_decref(sh);
	move(r, "{\"type\":\"choose\",\"roll\":[2,5]}");
	move(r, "{\"type\":\"choose\",\"roll\":[3,4]}");	/* bob is Dreiermann */
	sh = sheet(r);
	assert_string_equal(str(json_object_get(sh, "last"), "text"), "bob is the Dreiermann");
	in = json_object_get(sh, "input");
	assert_string_equal(str(in, "move"), "turn");
	assert_string_equal(str(in, "player"), "cid");
	json_decref(sh);
	/* Names in a share in any case, stored as the match has them. */
	move(r, "{\"type\":\"turn\",\"rolls\":[[2,5],{\"dice\":[4,4],\"share\":{\"ANN\":4}},[1,5]]}");
	sh = sheet(r);
	assert_string_equal(str(json_object_get(sh, "last"), "text"), "cid's turn: ann 5, cid 1");
	assert_int_equal(cell(sh, "sips", 0), 5);
	json_decref(sh);
	/* The double's four were shared wrongly: two each to ann and bob. */
	assert_int_equal(dd_referee_dice_correct(r, 3, "{\"type\":\"turn\",\"rolls\":[[2,5],{\"dice\":[4,4],"
						 "\"share\":{\"ann\":2,\"bob\":2}},[1,5]]}", true, &KIM, err, sizeof(err)), 0);
	sh = sheet(r);
	assert_int_equal(cell(sh, "sips", 0), 3);
	assert_int_equal(cell(sh, "sips", 1), 2);
	assert_int_equal(cell(sh, "sips", 2), 1);
	assert_string_equal(str(json_array_get(json_object_get(sh, "turns"), 2), "player"), "cid");
	json_decref(sh);
	/* bob's choosing roll was no three: ann chooses on, cid's turn no longer fits. */
	assert_int_equal(dd_referee_dice_correct(r, 2, "{\"type\":\"choose\",\"roll\":[2,4]}", true, &KIM, err,
						 sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "turn 3 no longer fits: "));
	assert_int_equal(dd_referee_dice_undo(r, &KIM, err, sizeof(err)), 0);
	assert_int_equal(dd_referee_dice_undo(r, &KIM, err, sizeof(err)), 0);
	assert_int_equal(dd_referee_dice_correct(r, 1, "{\"type\":\"choose\",\"roll\":[3,3]}", true, &KIM, err,
						 sizeof(err)), 0);
	sh = sheet(r);
	assert_string_equal(str(sh, "dreiermann"), "ann");
	assert_true(json_is_true(json_object_get(sh, "double")));
	assert_string_equal(str(json_object_get(sh, "input"), "player"), "bob");
	json_decref(sh);
	dd_referee_free(r);
}

/* Horse: a roll-off corrected changes who starts; a turn corrected
 * changes the mark. The sheet says what the next move takes. */
static void test_referee_dice_horse_correct_and_undo_refold(void **state)
{
	struct dd_referee *r = referee(state);
	char err[256] = "";
	json_t *sh, *in;

	start(r, "{\"type\":\"match\",\"game\":\"horse\",\"players\":[\"ann\",\"bob\",\"cid\"]}");
	sh = sheet(r);
	in = json_object_get(sh, "input");
	assert_string_equal(str(in, "move"), "rolloff");
	assert_int_equal(json_array_size(json_object_get(in, "players")), 3);
	json_decref(sh);
	move(r, "{\"type\":\"rolloff\",\"rolls\":{\"Ann\":4,\"bob\":6,\"CID\":2}}");
	move(r, "{\"type\":\"turn\",\"rolls\":[[5,5,2,3,4],[1,5,6],[1]]}");
	sh = sheet(r);
	assert_string_equal(str(json_object_get(sh, "last"), "text"), "bob: 55/3, the mark to beat");
	assert_string_equal(str(sh, "mark"), "55/3");
	assert_string_equal(str(json_object_get(sh, "input"), "move"), "turn");
	json_decref(sh);
	/* ann won the roll-off: bob's turn, stored as his, no longer fits. */
	assert_int_equal(dd_referee_dice_correct(r, 1, "{\"type\":\"rolloff\",\"rolls\":{\"ann\":6,\"bob\":4,\"cid\":2}}",
						 true, &KIM, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "turn 2 no longer fits: player: it is ann's turn, not bob's (HO-2)");
	assert_int_equal(dd_referee_dice_undo(r, &KIM, err, sizeof(err)), 0);
	assert_int_equal(dd_referee_dice_correct(r, 1, "{\"type\":\"rolloff\",\"rolls\":{\"ann\":6,\"bob\":4,\"cid\":2}}",
						 true, &KIM, err, sizeof(err)), 0);
	sh = sheet(r);
	assert_true(json_is_null(json_object_get(sh, "mark")));
	assert_string_equal(str(json_object_get(sh, "input"), "move"), "turn");
	assert_string_equal(str(json_object_get(sh, "input"), "player"), "ann");
	assert_string_equal(str(json_object_get(sh, "last"), "text"), "Turn 1 corrected. ann starts");
	json_decref(sh);
	dd_referee_free(r);
}

/* Players by index or in another case are stored by name; undo and
 * correct without a dice game are -ENOENT. */
static void test_referee_dice_players_canonical_and_no_game(void **state)
{
	struct dd_referee *r = referee(state);
	char err[256] = "", *log = NULL;

	assert_int_equal(dd_referee_dice_undo(r, NULL, err, sizeof(err)), -ENOENT);
	assert_int_equal(dd_referee_dice_correct(r, 1, "{}", false, NULL, err, sizeof(err)), -ENOENT);
	start(r, YZ);
	move(r, "{\"type\":\"turn\",\"player\":0,\"rolls\":[[1,1,1,2,3]],\"box\":\"ones\"}");
	move(r, "{\"type\":\"turn\",\"player\":\"lou\",\"rolls\":[[1,1,1,2,3]],\"box\":\"ones\"}");
	assert_int_equal(dd_referee_dice_move(r, "{\"type\":\"turn\",\"player\":7,\"rolls\":[[1,1,1,2,3]],\"box\":\"twos\"}",
					      true, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "move.player: 7 is not a player's number (0 to 1)");
	assert_int_equal(dd_referee_dice_move(r, "{\"type\":\"undo\",\"turn\":2}", true, NULL, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(dd_referee_dice_move(r, "{\"type\":\"turn\",\"rolls\":[[1,1,1,2,3]],\"box\":\"twos\","
					      "\"audit\":{}}", true, NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(dd_referee_log(r, (long)dd_referee_current_id(r), &log), 0);
	assert_non_null(strstr(log, "{\"type\":\"turn\",\"player\":\"Kim\","));
	assert_non_null(strstr(log, "{\"type\":\"turn\",\"player\":\"Lou\","));
	free(log);
	dd_referee_free(r);
}

/* A whole Yatzy game for Kim and Lou: every box from [1,1,1,1,1] but
 * chance, last: Kim's 2-2-2-2-3 (11), Lou's 6-6-6-6-5 (29), so Lou wins
 * by 18 with turn 30. */
static void play_whole_yatzy(struct dd_referee *r)
{
	static const char *const boxes[] = {
		"ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs",
		"three_of_a_kind", "four_of_a_kind", "small_straight", "large_straight",
		"full_house", "yatzy",
	};
	char line[160];

	start(r, YZ);
	for (size_t b = 0; b < sizeof(boxes) / sizeof(boxes[0]); b++)
		for (int p = 0; p < 2; p++) {
			snprintf(line, sizeof(line),
				 "{\"type\":\"turn\",\"rolls\":[[1,1,1,1,1]],\"box\":\"%s\"}", boxes[b]);
			move(r, line);
		}
	move(r, "{\"type\":\"turn\",\"rolls\":[[2,2,2,2,3]],\"box\":\"chance\"}");
	move(r, "{\"type\":\"turn\",\"rolls\":[[6,6,6,6,5]],\"box\":\"chance\"}");
}

static const char *state_str(struct dd_referee *r, const char *key, char *buf, size_t n)
{
	json_t *st = NULL;

	assert_int_equal(dd_referee_state(r, &st), 0);
	snprintf(buf, n, "%s", json_is_string(json_object_get(st, key)) ?
		 json_string_value(json_object_get(st, key)) :
		 json_is_true(json_object_get(st, key)) ? "true" :
		 json_is_false(json_object_get(st, key)) ? "false" : "(none)");
	json_decref(st);
	return buf;
}

/* The last move completes the game: over, Lou the winner, but the match
 * stays under way; an undo of turn 30 reopens it (Lou to roll), the move
 * again closes it; the End ends it. */
static void test_referee_dice_last_turn_undone_reopens(void **state)
{
	struct dd_referee *r = referee(state);
	char err[256] = "", buf[64];
	int64_t id;
	json_t *sh;

	play_whole_yatzy(r);
	id = dd_referee_current_id(r);
	assert_true(id > 0);
	assert_true(dd_referee_dice_over(r));
	assert_string_equal(state_str(r, "over", buf, sizeof(buf)), "true");
	assert_string_equal(state_str(r, "winner", buf, sizeof(buf)), "Lou");
	sh = sheet(r);
	assert_true(json_is_true(json_object_get(sh, "over")));
	assert_string_equal(str(sh, "winner"), "Lou");
	json_decref(sh);
	/* No move after the game's end. */
	assert_int_equal(dd_referee_dice_move(r, "{\"type\":\"turn\",\"rolls\":[[1,2,3,4,5]],\"box\":\"chance\"}",
					      true, NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(dd_referee_dice_undo(r, &KIM, err, sizeof(err)), 0);
	assert_int_equal(dd_referee_current_id(r), id);
	assert_false(dd_referee_dice_over(r));
	assert_string_equal(state_str(r, "over", buf, sizeof(buf)), "false");
	assert_string_equal(state_str(r, "winner", buf, sizeof(buf)), "(none)");
	sh = sheet(r);
	assert_false(json_is_true(json_object_get(sh, "over")));
	assert_string_equal(str(sh, "turn"), "Lou");
	assert_int_equal(cell(sh, "chance", 1), -1);
	json_decref(sh);
	move(r, "{\"type\":\"turn\",\"rolls\":[[6,6,6,6,4]],\"box\":\"chance\"}");
	assert_true(dd_referee_dice_over(r));
	assert_int_equal(dd_referee_end(r, err, sizeof(err)), 0);
	assert_int_equal(dd_referee_current_id(r), 0);
	assert_false(dd_referee_dice_over(r));
	dd_referee_free(r);
}

/* Correcting the last turn of a complete game refolds it: the winner
 * changes, the game stays over and under way. */
static void test_referee_dice_last_turn_corrected_changes_winner(void **state)
{
	struct dd_referee *r = referee(state);
	char err[256] = "", buf[64];
	json_t *sh;

	play_whole_yatzy(r);
	assert_string_equal(state_str(r, "winner", buf, sizeof(buf)), "Lou");
	/* Lou's chance was 1-2-1-2-1 (7), not 29: Kim wins, 11 to 7. */
	assert_int_equal(dd_referee_dice_correct(r, 30, "{\"type\":\"turn\",\"rolls\":[[1,2,1,2,1]],\"box\":\"chance\"}",
						 false, &KIM, err, sizeof(err)), 0);
	assert_true(dd_referee_dice_over(r));
	assert_true(dd_referee_current_id(r) > 0);
	assert_string_equal(state_str(r, "winner", buf, sizeof(buf)), "Kim");
	sh = sheet(r);
	assert_string_equal(str(sh, "winner"), "Kim");
	assert_int_equal(cell(sh, "chance", 1), 7);
	assert_string_equal(str(json_object_get(sh, "last"), "text"),
			    "Turn 30 corrected. Wrote 7 in chance for Lou");
	json_decref(sh);
	dd_referee_free(r);
}

/* A restart between the last move and End: the complete game is the match
 * under way again, over, and its last turn can still be corrected; a new
 * match then ends it first. */
static void test_referee_dice_restart_keeps_complete_game_open(void **state)
{
	struct db_test_fx *f = *state;
	struct dd_referee *r = referee(state);
	struct db_match_info *ms = NULL;
	char err[256] = "", buf[64];
	int64_t id;
	size_t n = 0;

	play_whole_yatzy(r);
	id = dd_referee_current_id(r);
	dd_referee_free(r);
	r = referee(state);
	assert_int_equal(dd_referee_restore(r, err, sizeof(err)), 0);
	assert_int_equal(dd_referee_current_id(r), id);
	assert_true(dd_referee_dice_over(r));
	assert_string_equal(state_str(r, "winner", buf, sizeof(buf)), "Lou");
	assert_int_equal(dd_referee_dice_correct(r, 30, "{\"type\":\"turn\",\"rolls\":[[1,2,1,2,1]],\"box\":\"chance\"}",
						 false, &KIM, err, sizeof(err)), 0);
	assert_string_equal(state_str(r, "winner", buf, sizeof(buf)), "Kim");
	/* A new game: the finished one is ended with its final line first. */
	start(r, "{\"type\":\"match\",\"game\":\"horse\",\"players\":[\"ann\",\"bob\"]}");
	assert_true(dd_referee_current_id(r) > id);
	assert_false(dd_referee_dice_over(r));
	assert_int_equal(db_matches(f->db, &ms, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_true(ms[0].ended);
	assert_false(ms[1].ended);
	free(ms);
	/* A game not over is not ended for a new one. */
	assert_int_equal(dd_referee_dice_start(r, YZ, err, sizeof(err)), -EBUSY);
	dd_referee_free(r);
}

/* A correction that writes a box for 0 asks first, like a live move;
 * accepted, it is written. */
static void test_referee_dice_correct_to_zero_asks(void **state)
{
	struct dd_referee *r = referee(state);
	char err[256] = "";
	size_t lines;
	json_t *sh;

	start(r, YZ);
	move(r, "{\"type\":\"turn\",\"rolls\":[[1,1,1,2,3]],\"box\":\"ones\"}");
	move(r, "{\"type\":\"turn\",\"rolls\":[[1,1,4,2,3]],\"box\":\"ones\"}");
	lines = log_lines(r);
	assert_int_equal(dd_referee_dice_correct(r, 1, "{\"type\":\"turn\",\"rolls\":[[2,2,3,3,4]],\"box\":\"ones\"}",
						 false, &KIM, err, sizeof(err)), -EAGAIN);
	assert_string_equal(err, "ones with 2-2-3-3-4 scores 0: write 0?");
	assert_int_equal(log_lines(r), lines);
	sh = sheet(r);
	assert_int_equal(cell(sh, "ones", 0), 3);
	json_decref(sh);
	/* A correction that scores is not asked. */
	assert_int_equal(dd_referee_dice_correct(r, 2, "{\"type\":\"turn\",\"rolls\":[[1,4,4,2,3]],\"box\":\"ones\"}",
						 false, &KIM, err, sizeof(err)), 0);
	assert_int_equal(dd_referee_dice_correct(r, 1, "{\"type\":\"turn\",\"rolls\":[[2,2,3,3,4]],\"box\":\"ones\"}",
						 true, &KIM, err, sizeof(err)), 0);
	sh = sheet(r);
	assert_int_equal(cell(sh, "ones", 0), 0);
	assert_int_equal(cell(sh, "ones", 1), 1);
	json_decref(sh);
	dd_referee_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_referee_dice_zero_box_asks_first, db_test_setup,
						db_test_teardown),
		cmocka_unit_test_setup_teardown(test_referee_dice_yatzy_undo_refolds, db_test_setup,
						db_test_teardown),
		cmocka_unit_test_setup_teardown(test_referee_dice_yatzy_correct_refolds, db_test_setup,
						db_test_teardown),
		cmocka_unit_test_setup_teardown(test_referee_dice_dreiermann_correct_share_refolds,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_referee_dice_horse_correct_and_undo_refold,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_referee_dice_players_canonical_and_no_game,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_referee_dice_last_turn_undone_reopens,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_referee_dice_last_turn_corrected_changes_winner,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_referee_dice_restart_keeps_complete_game_open,
						db_test_setup, db_test_teardown),
		cmocka_unit_test_setup_teardown(test_referee_dice_correct_to_zero_asks,
						db_test_setup, db_test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
