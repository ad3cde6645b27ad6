/* dyeref: the command-line entry point; dispatches to daemon/cmd_*.c. */
#include <stdio.h>
#include <string.h>

#include "daemon/daemon.h"

/* Every command is always built into dyeref (the Makefile links all of
 * daemon/): the table names each directly. */

struct dd_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
};

static const struct dd_command commands[] = {
	{ "serve", dd_cmd_serve, "serve [--config FILE] [--sim[=table]] [--check-config] [--port N]  run the referee daemon" },
	{ "judge", dd_cmd_judge, "judge [--table] [FILE|-]      judge a match log, one ruling line per throw" },
	{ "score", dd_cmd_score, "score GAME CATEGORY D1..D5    one Yatzy box's score" },
	{ "dice", dd_cmd_dice, "dice [--face-net F] IMAGE...  read dice faces in images (JSON)" },
	{ "matches", dd_cmd_matches, "matches --db FILE             list stored matches" },
	{ "export", dd_cmd_export, "export --db FILE --match N    write a stored match as a match log" },
	{ "import", dd_cmd_import, "import --db FILE [LOG]        store a match log" },
	{ "faces", dd_cmd_faces, "faces export --db FILE --out DIR  the officials' labelled dice, for retraining" },
	{ "replay", dd_cmd_replay, "replay --db FILE --match N --throw K  everything behind one throw" },
	{ "sensors", dd_cmd_sensors, "sensors [--config FILE] [--watch]  sensor lines, health, live edges" },
	{ "calibrate", dd_cmd_calibrate, "calibrate piezo|camera ...    calibrate the table's sensors or camera" },
	{ "sim", dd_cmd_sim, "sim --matches N --seed S --out DIR  simulate matches on the virtual table" },
	{ "evaluate", dd_cmd_evaluate, "evaluate DIR                  referee simulated matches, compare with truth" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: dyeref COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %s\n", commands[i].usage);
	fprintf(f, "  version                       print dyeref's version (also --version)\n");
	fprintf(f, "\ndyeref COMMAND --help shows a command's options.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return DD_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return DD_EXIT_OK;
	}
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
		printf("dyeref %s\n", dd_version());
		return DD_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "dyeref: unknown command '%s' (dyeref help lists them)\n", argv[1]);
	return DD_EXIT_USAGE;
}
