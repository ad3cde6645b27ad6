/* The dice-game match log (core/mlog_dice.c): lines and fields read,
 * messages "NAME:LINE: FIELD: why", the house rules, the ruling lines and
 * the scoreboard sheet. Rule IDs where a rule decides. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"

static char *judge_ok(const char *text)
{
	char err[256] = "", *out = NULL;
	size_t len = 0;
	int rc = mlog_dice_judge("t.jsonl", text, strlen(text), &out, &len, err, sizeof(err));

	if (rc)
		fail_msg("unexpected error %d: %s", rc, err);
	assert_int_equal(len, strlen(out));
	return out;
}

static void judge_bad(const char *text, const char *want)
{
	char err[256] = "", *out = (char *)1;
	size_t len = 9;

	assert_int_equal(mlog_dice_judge("t.jsonl", text, strlen(text), &out, &len, err, sizeof(err)), -EINVAL);
	assert_null(out);
	assert_int_equal(len, 0);
	assert_string_equal(err, want);
}

/* The last line of out. */
static const char *last_line(const char *out)
{
	size_t n = strlen(out);
	const char *p = out + n - 1;

	while (p > out && p[-1] != '\n')
		p--;
	return p;
}

#define YZ "{\"type\":\"match\",\"game\":\"yatzy\",\"players\":[\"ann\",\"bob\"]}\n"
#define DM "{\"type\":\"match\",\"game\":\"dreiermann\",\"players\":[\"ann\",\"bob\",\"cid\"]}\n"
#define HO "{\"type\":\"match\",\"game\":\"horse\",\"players\":[\"ann\",\"bob\"]}\n"

/* YZ-12, YZ-1: DESIGN.md's own turn line, with blank lines around it. */
static void test_mlog_dice_design_turn_line_scores_14(void **state)
{
	char *out = judge_ok("\n" YZ "\n"
			     "{\"type\":\"turn\",\"player\":\"ann\",\"rolls\":[[1,4,4,6,3],[2,5,4],[1,1]],\"box\":\"full_house\"}\r\n");

	(void)state;
	assert_string_equal(out,
		"{\"type\":\"ruling\",\"turn\":1,\"player\":\"ann\",\"dice\":[4,4,4,1,1],\"kept\":[[4,4],[4,4,4]],"
		"\"box\":\"full_house\",\"points\":14,\"penalties\":{},\"why\":[\"YZ-1\",\"YZ-3\",\"YZ-12\"],\"total\":14}\n"
		"{\"type\":\"final\",\"totals\":{\"ann\":14,\"bob\":0},\"upper\":{\"ann\":0,\"bob\":0},"
		"\"bonus\":{\"ann\":0,\"bob\":0},\"over\":false,\"winner\":null}\n");
	free(out);
}

static void test_mlog_dice_bad_lines_name_line_and_field(void **state)
{
	(void)state;
	judge_bad("", "t.jsonl:1: type: the log is empty; it starts with a match line");
	judge_bad("{\"type\":\"turn\"}\n", "t.jsonl:1: type: a match log starts with a match line");
	judge_bad(YZ "{\"type\":\"turn\",\n", "t.jsonl:2: json: string or '}' expected near end of file");
	judge_bad(YZ "[1]\n", "t.jsonl:2: type: each line is a JSON object");
	judge_bad(YZ YZ, "t.jsonl:2: type: one match line per log, at the top");
	judge_bad(YZ "{\"type\":\"turn\",\"box\":\"chance\",\"box\":\"yatzy\",\"rolls\":[[1,2,3,4,5]]}\n",
		  "t.jsonl:2: json: duplicate object key near '\"box\"'");
	judge_bad("{\"type\":\"match\",\"game\":\"chess\",\"players\":[\"a\"]}\n",
		  "t.jsonl:1: game: 'chess' is not a dice game (yatzy, yatzy-joker, dreiermann, horse)");
	judge_bad("{\"type\":\"match\",\"game\":\"yatzy\",\"players\":[\"a\",\"a\"]}\n",
		  "t.jsonl:1: players[1]: 'a' is listed twice");
	judge_bad("{\"type\":\"match\",\"game\":\"yatzy\",\"players\":[\"\"]}\n",
		  "t.jsonl:1: players[0]: a name of 1 to 31 bytes");
	/* Messages stay one line, whatever the input's strings hold. */
	judge_bad("{\"type\":\"match\",\"game\":\"yatzy\",\"players\":[\"a\\nb\"]}\n",
		  "t.jsonl:1: players[0]: a name without control characters");
	judge_bad(YZ "{\"type\":\"turn\",\"rolls\":[[1,2,3,4,5]],\"box\":\"x\\ny\"}\n",
		  "t.jsonl:2: box: 'x?y' is not a box of yatzy");
	judge_bad("{\"type\":\"match\",\"game\":\"horse\",\"players\":[\"a\"]}\n",
		  "t.jsonl:1: players: a list of 2 to 12 names for horse");
	judge_bad("{\"type\":\"match\",\"game\":\"yatzy\",\"players\":[\"a\"],\"house\":{\"yatzy_fixed_50\":1}}\n",
		  "t.jsonl:1: house.yatzy_fixed_50: true or false");
	judge_bad("{\"type\":\"match\",\"game\":\"dreiermann\",\"players\":[\"a\",\"b\",\"c\"],\"house\":{\"rounds\":0}}\n",
		  "t.jsonl:1: house.rounds: 0 is outside 1..1000");
	judge_bad(YZ "{\"type\":\"choose\",\"roll\":[1,2]}\n", "t.jsonl:2: type: 'choose' is not a line of a yatzy match");
	judge_bad(YZ "{\"type\":\"turn\",\"rolls\":[[1,2,3,4,5]]}\n",
		  "t.jsonl:2: box: missing: the box the result is written in");
	judge_bad(YZ "{\"type\":\"turn\",\"player\":\"eve\",\"rolls\":[[1,2,3,4,5]],\"box\":\"chance\"}\n",
		  "t.jsonl:2: player: 'eve' is not a player of this match");
	judge_bad(YZ "{\"type\":\"turn\",\"rolls\":[[1,2,3,4,5,6]],\"box\":\"chance\"}\n",
		  "t.jsonl:2: rolls[0]: 6 dice, at most 5");
	judge_bad(YZ "{\"type\":\"turn\",\"rolls\":[[1,2,3,4,5.0]],\"box\":\"chance\"}\n",
		  "t.jsonl:2: rolls[0][4]: a whole number");
	judge_bad(YZ "{\"type\":\"turn\",\"rolls\":[[1,2,3,4,5]],\"keep\":[[1]],\"box\":\"chance\"}\n",
		  "t.jsonl:2: keep: 1 lists for 0 later rolls");
	judge_bad(YZ "{\"type\":\"turn\",\"rolls\":[],\"box\":\"chance\"}\n",
		  "t.jsonl:2: rolls: a list of rolls, each a list of dice");
	judge_bad(YZ "{\"type\":\"turn\",\"rolls\":[[1,2,3,4,5],[1],[1],[1],[1]],\"box\":\"chance\"}\n",
		  "t.jsonl:2: rolls: a turn has at most 3 rolls, this one has 5 (YZ-1)");
	/* The count as given, however many (it was once capped at 1000). */
	{
		size_t n = 1001, cap = 256 + n * 4;
		char *text = malloc(cap);
		size_t at;

		assert_non_null(text);
		at = (size_t)snprintf(text, cap, YZ "{\"type\":\"turn\",\"rolls\":[[1,2,3,4,5]");
		for (size_t i = 1; i < n; i++)
			at += (size_t)snprintf(text + at, cap - at, ",[1]");
		snprintf(text + at, cap - at, "],\"box\":\"chance\"}\n");
		judge_bad(text, "t.jsonl:2: rolls: a turn has at most 3 rolls, this one has 1001 (YZ-1)");
		free(text);
	}
}

/* DM-7 with DESIGN.md's turn-level "share", and its limits. */
/* "table" in a dice match line, as in a Beer Die one: taken, judging
 * ignores it; a bad one is refused. */
static void test_mlog_dice_match_line_names_its_table(void **state)
{
	char *out = judge_ok("{\"type\":\"match\",\"game\":\"yatzy\",\"players\":[\"ann\",\"bob\"],"
			     "\"table\":{\"id\":\"bar-3\",\"name\":\"Bar 3\"}}\n");

	(void)state;
	assert_non_null(strstr(out, "\"type\":\"final\""));
	free(out);
	judge_bad("{\"type\":\"match\",\"game\":\"yatzy\",\"players\":[\"ann\"],\"table\":{\"id\":\"Bar 3\"}}\n",
		  "t.jsonl:1: table.id: expected 1 to 32 of a-z, 0-9 and '-'");
	judge_bad("{\"type\":\"match\",\"game\":\"yatzy\",\"players\":[\"ann\"],\"table\":{\"id\":\"a\",\"x\":1}}\n",
		  "t.jsonl:1: x: unknown field for this line");
	judge_bad("{\"type\":\"match\",\"game\":\"yatzy\",\"players\":[\"ann\"],\"table\":{\"id\":\"a\",\"name\":\"\"}}\n",
		  "t.jsonl:1: table.name: a name of 1 to 64 bytes");
}

static void test_mlog_dice_dm7_turn_level_share(void **state)
{
	char *out;

	(void)state;
	out = judge_ok(DM "{\"type\":\"choose\",\"roll\":[3,1]}\n"
		       "{\"type\":\"turn\",\"player\":\"bob\",\"rolls\":[[5,5],[2,4]],\"share\":{\"cid\":3,\"ann\":2}}\n");
	assert_non_null(strstr(out, "\"turn\":1,\"player\":\"bob\",\"round\":1,\"revenge\":false,\"points\":5,"
				    "\"penalties\":{\"ann\":2,\"cid\":3}"));
	free(out);
	judge_bad(DM "{\"type\":\"choose\",\"roll\":[3,1]}\n"
		  "{\"type\":\"turn\",\"rolls\":[[5,5],[4,4],[2,4]],\"share\":{\"cid\":5}}\n",
		  "t.jsonl:3: share: the turn has 2 doubles not shared in their roll; a turn-level share needs exactly one");
	judge_bad(DM "{\"type\":\"choose\",\"roll\":[3,1]}\n"
		  "{\"type\":\"turn\",\"rolls\":[[5,5],[2,4]],\"share\":{\"eve\":5}}\n",
		  "t.jsonl:3: share: 'eve' is not a player of this match");
	judge_bad(DM "{\"type\":\"choose\",\"roll\":[3,4]}\n"
		  "{\"type\":\"turn\",\"rolls\":[[4,4],[1,5]],\"share\":{\"ann\":0,\"bob\":4}}\n",
		  "t.jsonl:3: share.ann: 0 is outside 1..6");
	judge_bad(DM "{\"type\":\"choose\",\"roll\":[3,1]}\n"
		  "{\"type\":\"turn\",\"rolls\":[{\"dice\":[5,5],\"shares\":{}},[2,4]]}\n",
		  "t.jsonl:3: rolls[0].shares: unknown field for this line");
	judge_bad(DM "{\"type\":\"turn\",\"rolls\":[[2,4]]}\n",
		  "t.jsonl:2: type: no Dreiermann yet: roll to choose one first (DM-1)");
	judge_bad(DM "{\"type\":\"sip\",\"player\":\"ann\",\"reason\":\"rude\"}\n",
		  "t.jsonl:2: reason: breach, leave or join");
}

/* DM-12 lines: declare_double and sip, with their house rules on; the
 * dropped die while choosing. */
static void test_mlog_dice_dm12_lines(void **state)
{
	char *out;

	(void)state;
	out = judge_ok("{\"type\":\"match\",\"game\":\"dreiermann\",\"players\":[\"ann\",\"bob\",\"cid\"],"
		       "\"house\":{\"declare_double\":true,\"breach_sip\":true,\"drop_choosing_makes_dreiermann\":true,"
		       "\"double_six_empties\":true,\"rounds\":1}}\n"
		       "{\"type\":\"choose\",\"dropped\":true}\n"
		       "{\"type\":\"declare_double\",\"player\":\"ann\"}\n"
		       "{\"type\":\"sip\",\"player\":\"cid\",\"reason\":\"breach\"}\n"
		       "{\"type\":\"turn\",\"rolls\":[[1,2],{\"dice\":[6,6],\"share\":{\"bob\":6}},[2,4]]}\n");
	assert_non_null(strstr(out, "\"kind\":\"choose\",\"player\":\"ann\",\"round\":1,\"points\":0,\"penalties\":{},"
				    "\"why\":[\"DM-1\",\"DM-12\"],\"dreiermann\":\"ann\""));
	assert_non_null(strstr(out, "\"kind\":\"declare_double\",\"player\":\"ann\""));
	assert_non_null(strstr(out, "\"kind\":\"sip\",\"player\":\"cid\",\"round\":1,\"points\":1,\"penalties\":{\"cid\":1}"));
	/* bob: 1+2 = 3 gives the double Dreiermann 2 (DM-5); the double six is emptied by bob (DM-13). */
	assert_non_null(strstr(out, "\"points\":2,\"penalties\":{\"ann\":2},\"empties\":{\"bob\":1}"));
	assert_string_equal(last_line(out),
		"{\"type\":\"final\",\"sips\":{\"ann\":2,\"bob\":0,\"cid\":1},\"empties\":{\"ann\":0,\"bob\":1,\"cid\":0},"
		"\"rounds\":0,\"over\":false,\"winner\":null}\n");
	free(out);
}

/* HO-1 and HO-5 in the log: roll-off lines and the hand notation. */
static void test_mlog_dice_ho_rolloff_and_hands(void **state)
{
	char *out;

	(void)state;
	out = judge_ok(HO "{\"type\":\"rolloff\",\"rolls\":{\"ann\":2,\"bob\":5}}\n"
		       "{\"type\":\"turn\",\"player\":\"bob\",\"rolls\":[[3,3,4,1,1]]}\n");
	assert_non_null(strstr(out, "{\"type\":\"ruling\",\"kind\":\"rolloff\",\"starts\":\"bob\""));
	assert_non_null(strstr(out, "\"hand\":\"43/1\""));
	free(out);
	judge_bad(HO "{\"type\":\"rolloff\",\"rolls\":{\"ann\":2}}\n", "t.jsonl:2: rolls: bob did not roll (HO-1)");
	judge_bad(HO "{\"type\":\"rolloff\",\"rolls\":{\"ann\":2,\"bob\":7}}\n", "t.jsonl:2: rolls.bob: 7 is outside 1..6");
	judge_bad(HO "{\"type\":\"turn\",\"rolls\":[[1,2,3,4,5]]}\n{\"type\":\"rolloff\",\"rolls\":{\"ann\":2,\"bob\":3}}\n",
		  "t.jsonl:3: type: the roll-off is over: turns have begun (HO-1)");
}

/* The scoreboard sheet: boxes, sums and whose turn, as JSON. */
static void test_mlog_dice_sheet_json(void **state)
{
	static const char log[] = "{\"type\":\"match\",\"game\":\"yatzy-joker\",\"players\":[\"ann\",\"bob\"]}\n"
		"{\"type\":\"turn\",\"rolls\":[[6,6,6,1,2]],\"box\":\"sixes\"}\n";
	struct dice_sheet sh;
	char err[256], *out;
	size_t len;

	(void)state;
	assert_int_equal(mlog_dice_sheet("t.jsonl", log, strlen(log), &sh, err, sizeof(err)), 0);
	assert_int_equal(sh.turn, 1);
	assert_int_equal(sh.n_rows, 13 + 2 + 1 + 1);	/* boxes, upper + bonus, yatzy bonus, total */
	assert_int_equal(mlog_dice_sheet_json(&sh, &out, &len), 0);
	assert_int_equal(len, strlen(out));
	assert_non_null(strstr(out, "{\"game\":\"yatzy-joker\",\"players\":[\"ann\",\"bob\"],\"rows\":["
				    "{\"name\":\"ones\",\"cells\":[null,null]}"));
	assert_non_null(strstr(out, "{\"name\":\"sixes\",\"cells\":[18,null]}"));
	assert_non_null(strstr(out, "{\"name\":\"total\",\"cells\":[18,0]}],\"turn\":\"bob\",\"round\":1,\"over\":false"));
	free(out);
	/* Horse: hands as text, the mark. */
	static const char ho[] = HO "{\"type\":\"turn\",\"rolls\":[[5,5,5,1,2]]}\n";

	assert_int_equal(mlog_dice_sheet("h.jsonl", ho, strlen(ho), &sh, err, sizeof(err)), 0);
	assert_int_equal(mlog_dice_sheet_json(&sh, &out, &len), 0);
	assert_non_null(strstr(out, "{\"name\":\"hand\",\"cells\":[\"45/1\",null]}"));
	assert_non_null(strstr(out, "\"mark\":\"45/1\",\"mark_player\":\"ann\""));
	free(out);
	assert_int_equal(mlog_dice_sheet("h.jsonl", "x", 1, &sh, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "h.jsonl:1: json: '[' or '{' expected near 'x'");
}

/* Undo and correction lines: the judge writes the undo's ruling, then
 * each ruling a correction recomputes (marked "refold"); the final line
 * is the refolded game's. */
static void test_mlog_dice_undo_and_replace_refold(void **state)
{
	char *out = judge_ok(YZ
		"{\"type\":\"turn\",\"rolls\":[[6,6,6,2,3]],\"box\":\"chance\",\"audit\":{\"official\":\"Kim\",\"wall_ms\":5}}\n"
		"{\"type\":\"turn\",\"rolls\":[[4,4,4,1,3]],\"box\":\"full_house\"}\n"
		"{\"type\":\"undo\",\"turn\":2,\"audit\":{\"official\":\"Kim\",\"wall_ms\":6,\"reason\":\"typo\"}}\n"
		"{\"type\":\"turn\",\"rolls\":[[4,4,4,1,3]],\"box\":\"fours\"}\n"
		"{\"type\":\"replace\",\"turn\":1,\"move\":{\"type\":\"turn\",\"rolls\":[[6,6,6,2,3]],\"box\":\"sixes\"}}\n");

	(void)state;
	assert_string_equal(out,
		"{\"type\":\"ruling\",\"turn\":1,\"player\":\"ann\",\"dice\":[6,6,6,3,2],\"kept\":[],\"box\":\"chance\",\"points\":23,"
		"\"penalties\":{},\"why\":[\"YZ-1\",\"YZ-3\",\"YZ-13\"],\"total\":23}\n"
		"{\"type\":\"ruling\",\"turn\":2,\"player\":\"bob\",\"dice\":[4,4,4,3,1],\"kept\":[],\"box\":\"full_house\",\"points\":0,"
		"\"penalties\":{},\"why\":[\"YZ-1\",\"YZ-3\",\"YZ-12\",\"YZ-2\"],\"total\":0}\n"
		"{\"type\":\"ruling\",\"kind\":\"undo\",\"turn\":2,\"player\":\"bob\"}\n"
		"{\"type\":\"ruling\",\"turn\":2,\"player\":\"bob\",\"dice\":[4,4,4,3,1],\"kept\":[],\"box\":\"fours\",\"points\":12,"
		"\"penalties\":{},\"why\":[\"YZ-1\",\"YZ-3\",\"YZ-4\"],\"total\":12}\n"
		"{\"type\":\"ruling\",\"turn\":1,\"player\":\"ann\",\"dice\":[6,6,6,3,2],\"kept\":[],\"box\":\"sixes\",\"points\":18,"
		"\"penalties\":{},\"why\":[\"YZ-1\",\"YZ-3\",\"YZ-4\"],\"total\":18,\"refold\":1}\n"
		"{\"type\":\"ruling\",\"turn\":2,\"player\":\"bob\",\"dice\":[4,4,4,3,1],\"kept\":[],\"box\":\"fours\",\"points\":12,"
		"\"penalties\":{},\"why\":[\"YZ-1\",\"YZ-3\",\"YZ-4\"],\"total\":12,\"refold\":1}\n"
		"{\"type\":\"final\",\"totals\":{\"ann\":18,\"bob\":12},\"upper\":{\"ann\":18,\"bob\":12},"
		"\"bonus\":{\"ann\":0,\"bob\":0},\"over\":false,\"winner\":null}\n");
	free(out);
}

static void test_mlog_dice_undo_and_replace_refused(void **state)
{
	static const char two[] = YZ "{\"type\":\"turn\",\"rolls\":[[6,6,6,2,3]],\"box\":\"chance\"}\n"
		"{\"type\":\"turn\",\"rolls\":[[4,4,4,1,3]],\"box\":\"fours\"}\n"
		"{\"type\":\"turn\",\"rolls\":[[5,5,5,1,3]],\"box\":\"fives\"}\n";
	char buf[1024];

	(void)state;
	judge_bad(YZ "{\"type\":\"undo\",\"turn\":1}\n", "t.jsonl:2: turn: no turn to undo");
	snprintf(buf, sizeof(buf), "%s{\"type\":\"undo\",\"turn\":1}\n", two);
	judge_bad(buf, "t.jsonl:5: turn: only the last turn, 3, can be undone, not 1");
	snprintf(buf, sizeof(buf), "%s{\"type\":\"undo\"}\n", two);
	judge_bad(buf, "t.jsonl:5: turn: the number of a turn, from 1");
	snprintf(buf, sizeof(buf), "%s{\"type\":\"undo\",\"turn\":3,\"audit\":\"Kim\"}\n", two);
	judge_bad(buf, "t.jsonl:5: audit: an object of official, wall_ms and reason");
	snprintf(buf, sizeof(buf), "%s{\"type\":\"undo\",\"turn\":3,\"audit\":{\"who\":1}}\n", two);
	judge_bad(buf, "t.jsonl:5: audit.who: unknown field for this line");
	snprintf(buf, sizeof(buf), "%s{\"type\":\"replace\",\"turn\":4,\"move\":{\"type\":\"turn\"}}\n", two);
	judge_bad(buf, "t.jsonl:5: turn: no turn 4 stands (turns 1 to 3 do)");
	snprintf(buf, sizeof(buf), "%s{\"type\":\"replace\",\"turn\":1,\"move\":{\"type\":\"undo\",\"turn\":3}}\n", two);
	judge_bad(buf, "t.jsonl:5: move: the turn's new line, {\"type\":\"turn\",...}");
	/* ann's turn 1 now takes fives: her turn 3 no longer fits. */
	snprintf(buf, sizeof(buf), "%s{\"type\":\"replace\",\"turn\":1,\"move\":{\"type\":\"turn\","
		 "\"rolls\":[[5,5,5,2,3]],\"box\":\"fives\"}}\n", two);
	judge_bad(buf, "t.jsonl:5: turn 3 no longer fits: box: ann has already used fives (YZ-3)");
	snprintf(buf, sizeof(buf), "%s{\"type\":\"replace\",\"turn\":2,\"move\":{\"type\":\"turn\","
		 "\"rolls\":[[5,5,5,2,3]],\"box\":\"sixes\",\"keep\":1}}\n", two);
	judge_bad(buf, "t.jsonl:5: turn 2: keep: a list with one list of kept dice per later roll");
}

/* The sheet lists every turn (undone and corrected ones marked), what the
 * last line did in words, the game's boxes and what the next move takes. */
static void test_mlog_dice_sheet_turns_last_and_input(void **state)
{
	static const char log[] = YZ "{\"type\":\"turn\",\"rolls\":[[6,6,6,2,3]],\"box\":\"chance\"}\n"
		"{\"type\":\"turn\",\"rolls\":[[4,4,4,1,3]],\"box\":\"full_house\"}\n"
		"{\"type\":\"undo\",\"turn\":2,\"audit\":{\"official\":\"Kim\",\"wall_ms\":6}}\n";
	static const char dm[] = DM "{\"type\":\"choose\",\"roll\":[3,3]}\n";
	struct dice_sheet sh;
	char err[256], *out;
	size_t len;

	(void)state;
	assert_int_equal(mlog_dice_sheet("t.jsonl", log, strlen(log), &sh, err, sizeof(err)), 0);
	assert_int_equal(mlog_dice_sheet_json(&sh, &out, &len), 0);
	assert_non_null(strstr(out, "\"boxes\":[\"ones\",\"twos\",\"threes\",\"fours\",\"fives\",\"sixes\",\"one_pair\","
				    "\"two_pairs\",\"three_of_a_kind\",\"four_of_a_kind\",\"small_straight\","
				    "\"large_straight\",\"full_house\",\"chance\",\"yatzy\"]"));
	assert_non_null(strstr(out, "\"turns\":[{\"turn\":1,\"kind\":\"turn\",\"player\":\"ann\",\"box\":\"chance\","
				    "\"points\":23,\"rolls\":[[6,6,6,2,3]],\"dice\":[6,6,6,3,2],\"hand\":null,"
				    "\"penalties\":{},\"kept\":[],\"text\":\"Wrote 23 in chance for ann\","
				    "\"undone\":false,\"corrected\":false,\"move\":{\"type\":\"turn\","
				    "\"rolls\":[[6,6,6,2,3]],\"box\":\"chance\"},\"audit\":null}"));
	assert_non_null(strstr(out, "\"undone\":true,\"corrected\":false"));
	assert_non_null(strstr(out, "\"audit\":{\"official\":\"Kim\",\"wall_ms\":6}}]"));
	assert_non_null(strstr(out, "\"last\":{\"action\":\"undo\",\"turn\":2,\"player\":\"bob\",\"box\":\"full_house\","
				    "\"points\":0,\"wrote\":false,\"text\":\"Turn 2 undone. It was: Wrote 0 in full_house for bob\"}"));
	assert_non_null(strstr(out, "\"input\":{\"move\":\"turn\",\"player\":\"bob\",\"dice\":5,\"rolls\":3,\"free\":["
				    "\"ones\",\"twos\""));
	free(out);
	/* An engine's own sheet has no log: no turns listed. */
	dice_yatzy_sheet(&(struct dice_yatzy_cfg){ .game = DICE_YZ, .n_players = 1 },
			 &(struct dice_yatzy_state){ 0 }, &sh);
	assert_int_equal(mlog_dice_sheet_json(&sh, &out, &len), 0);
	assert_null(strstr(out, "\"turns\""));
	free(out);
	assert_int_equal(mlog_dice_sheet("d.jsonl", dm, strlen(dm), &sh, err, sizeof(err)), 0);
	assert_int_equal(mlog_dice_sheet_json(&sh, &out, &len), 0);
	assert_non_null(strstr(out, "\"boxes\":[]"));
	assert_non_null(strstr(out, "\"text\":\"ann is the double Dreiermann\""));
	assert_non_null(strstr(out, "\"input\":{\"move\":\"turn\",\"player\":\"bob\",\"dice\":2,\"revenge\":false,"
				    "\"share\":true,\"also\":[]}"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mlog_dice_design_turn_line_scores_14),
		cmocka_unit_test(test_mlog_dice_bad_lines_name_line_and_field),
		cmocka_unit_test(test_mlog_dice_dm7_turn_level_share),
		cmocka_unit_test(test_mlog_dice_dm12_lines),
		cmocka_unit_test(test_mlog_dice_ho_rolloff_and_hands),
		cmocka_unit_test(test_mlog_dice_sheet_json),
		cmocka_unit_test(test_mlog_dice_undo_and_replace_refold),
		cmocka_unit_test(test_mlog_dice_undo_and_replace_refused),
		cmocka_unit_test(test_mlog_dice_sheet_turns_last_and_input),
		cmocka_unit_test(test_mlog_dice_match_line_names_its_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
