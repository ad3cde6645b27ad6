/* dyeref score GAME CATEGORY D1 D2 D3 D4 D5: one Yatzy box's score
 * (DESIGN.md), with the game's default house rules. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "daemon/daemon.h"

static const char usage[] = "usage: dyeref score yatzy|yatzy-joker CATEGORY D1 D2 D3 D4 D5";

int dd_cmd_score(int argc, char **argv)
{
	struct dice_yatzy_house house;
	int dice[DICE_N], game, box, score;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("%s\n", usage);
		return DD_EXIT_OK;
	}
	if (argc != 3 + DICE_N) {
		dd_log(DD_LOG_ERR, "score: expected GAME CATEGORY D1..D5, got %d argument%s (%s)",
		       argc - 1, argc == 2 ? "" : "s", usage);
		return DD_EXIT_USAGE;
	}
	game = dice_game_parse(argv[1]);
	if (game != DICE_YZ && game != DICE_YJ) {
		dd_log(DD_LOG_ERR, "score: GAME: '%s' is not yatzy or yatzy-joker", argv[1]);
		return DD_EXIT_USAGE;
	}
	box = dice_box_parse(argv[2]);
	if (box < 0 || !dice_game_has_box((enum dice_game)game, (enum dice_box)box)) {
		dd_log(DD_LOG_ERR, "score: CATEGORY: '%s' is not a box of %s", argv[2], argv[1]);
		return DD_EXIT_USAGE;
	}
	for (int i = 0; i < DICE_N; i++) {
		const char *a = argv[3 + i];

		if (a[0] < '1' || a[0] > '6' || a[1] != '\0') {
			dd_log(DD_LOG_ERR, "score: D%d: '%s' is not a die value 1 to 6", i + 1, a);
			return DD_EXIT_USAGE;
		}
		dice[i] = a[0] - '0';
	}
	dice_yatzy_house_defaults(&house);
	score = dice_box_score((enum dice_game)game, &house, (enum dice_box)box, dice);
	if (score < 0) {
		dd_log(DD_LOG_ERR, "score: cannot score these dice");
		return DD_EXIT_USAGE;
	}
	if (printf("%d\n", score) < 0 || fflush(stdout) != 0) {
		dd_log(DD_LOG_ERR, "score: cannot write the result: %s", strerror(errno));
		return DD_EXIT_FAIL;
	}
	return DD_EXIT_OK;
}
