/* Dice-game judge speed. Two questions, each against a yardstick:
 *   - judging a whole game (mlog_dice_judge of the full games in tests/data/dice)
 *     against the limit of one 30 fps scoreboard frame (33.3 ms) and against
 *     the peer of parsing the same lines with jansson alone (json_loadb per
 *     line, measured in the same run): the least any judge has to do;
 *   - a three-roll Yatzy turn without "keep" (the referee searches every
 *     choice of kept dice, YZ-1a) against the same turn with "keep" given.
 * Prints microseconds and the ratios. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "core/core.h"
#include "bench/bench.h"

#define ROUNDS 200

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int parse_only(const char *buf, size_t len)
{
	size_t pos = 0;
	int lines = 0;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		json_t *o = json_loadb(buf + pos, n, JSON_REJECT_DUPLICATES, NULL);

		lines += o != NULL;
		json_decref(o);
		pos += n + 1;
	}
	return lines;
}

static void bench_game(const char *path)
{
	size_t len, outlen;
	char *buf = slurp(path, &len), *out, err[256];
	double t0, judge_ns, parse_ns;
	volatile int sink = 0;
	int turns = 0;

	if (!buf) {
		printf("%s: cannot read (run from the source tree)\n", path);
		return;
	}
	for (size_t i = 0; i < len; i++)
		turns += buf[i] == '\n';
	turns -= 1;	/* the match line */
	t0 = bench_now_ns();
	for (int r = 0; r < ROUNDS; r++) {
		if (mlog_dice_judge(path, buf, len, &out, &outlen, err, sizeof(err))) {
			printf("%s: %s\n", path, err);
			free(buf);
			return;
		}
		sink += (int)outlen;
		free(out);
	}
	judge_ns = (bench_now_ns() - t0) / ROUNDS;
	t0 = bench_now_ns();
	for (int r = 0; r < ROUNDS; r++)
		sink += parse_only(buf, len);
	parse_ns = (bench_now_ns() - t0) / ROUNDS;
	printf("%-40s %3d moves: judge %7.1f us (%5.2f us/move) = %.4f of a 33.3 ms frame; "
	       "%.1fx jansson parse alone (%.1f us)\n",
	       path, turns, judge_ns / 1e3, judge_ns / 1e3 / turns, judge_ns / 33.3e6,
	       judge_ns / parse_ns, parse_ns / 1e3);
	(void)sink;
	free(buf);
}

static void bench_keep_search(void)
{
	struct dice_yatzy_cfg cfg;
	struct dice_yatzy_state s, n;
	struct dice_yatzy_turn t;
	struct dice_yatzy_ruling r;
	char err[128];
	double t0, search_ns, keep_ns;
	static const int r0[5] = { 1, 4, 4, 6, 3 }, r1[3] = { 2, 5, 4 }, r2[2] = { 1, 1 };
	volatile int sink = 0;
	const int reps = 20000;

	memset(&cfg, 0, sizeof(cfg));
	cfg.game = DICE_YZ;
	cfg.n_players = 1;
	snprintf(cfg.players[0], DICE_NAME_MAX, "p1");
	dice_yatzy_house_defaults(&cfg.house);
	dice_yatzy_state_init(&s);
	memset(&t, 0, sizeof(t));
	t.player = DICE_NOBODY;
	t.box = DICE_BOX_FULL_HOUSE;
	t.rolls.n_rolls = 3;
	t.rolls.n[0] = 5;
	t.rolls.n[1] = 3;
	t.rolls.n[2] = 2;
	memcpy(t.rolls.dice[0], r0, sizeof(r0));
	memcpy(t.rolls.dice[1], r1, sizeof(r1));
	memcpy(t.rolls.dice[2], r2, sizeof(r2));
	t0 = bench_now_ns();
	for (int i = 0; i < reps; i++) {
		dice_yatzy_step(&cfg, &s, &t, &r, &n, err, sizeof(err));
		sink += r.points;
	}
	search_ns = (bench_now_ns() - t0) / reps;
	t.rolls.has_keep = true;
	t.rolls.n_keep = 2;
	t.rolls.keep_n[0] = 2;
	t.rolls.keep[0][0] = t.rolls.keep[0][1] = 4;
	t.rolls.keep_n[1] = 3;
	t.rolls.keep[1][0] = t.rolls.keep[1][1] = t.rolls.keep[1][2] = 4;
	t0 = bench_now_ns();
	for (int i = 0; i < reps; i++) {
		dice_yatzy_step(&cfg, &s, &t, &r, &n, err, sizeof(err));
		sink += r.points;
	}
	keep_ns = (bench_now_ns() - t0) / reps;
	printf("three-roll turn, kept dice searched (YZ-1a): %.2f us = %.1fx the same turn with keep (%.2f us)\n",
	       search_ns / 1e3, search_ns / keep_ns, keep_ns / 1e3);
	(void)sink;
}

int main(void)
{
	bench_game("tests/data/dice/yatzy-full.jsonl");
	bench_game("tests/data/dice/yatzy-joker-full.jsonl");
	bench_game("tests/data/dice/dreiermann-full.jsonl");
	bench_game("tests/data/dice/horse-full.jsonl");
	bench_keep_search();
	return 0;
}
