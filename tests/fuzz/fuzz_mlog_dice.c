/* libFuzzer target for the dice-game match log (core/mlog_dice.c):
 * arbitrary bytes as a yatzy, yatzy-joker, dreiermann or horse log.
 * A log is judged or refused cleanly (one line of message, no output);
 * a judged log has one output line per
 * non-blank input line (the match line's is the final line), and its
 * sheet renders. Any crash, leak or abort is a bug. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t nonblank_lines(const char *buf, size_t size)
{
	size_t n = 0;
	bool blank = true;

	for (size_t i = 0; i <= size; i++) {
		if (i == size || buf[i] == '\n') {
			n += !blank;
			blank = true;
		} else if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r') {
			blank = false;
		}
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct dice_sheet *sheet;
	char err[256], *out = NULL, *json = NULL;
	size_t len = 0, jlen = 0, lines = 0;

	if (mlog_dice_judge("fuzz", buf, size, &out, &len, err, sizeof(err))) {
		if (strchr(err, '\n') || out)
			abort();	/* a message is one line; nothing half-written */
		return 0;
	}
	for (size_t i = 0; i < len; i++)
		lines += out[i] == '\n';
	if (strlen(out) != len || lines != nonblank_lines(buf, size))
		abort();
	free(out);
	sheet = malloc(sizeof(*sheet));
	if (!sheet)
		return 0;
	if (mlog_dice_sheet("fuzz", buf, size, sheet, err, sizeof(err)))
		abort();	/* judged, so it must fold */
	if (mlog_dice_sheet_json(sheet, &json, &jlen) == 0)
		free(json);
	free(sheet);
	return 0;
}
