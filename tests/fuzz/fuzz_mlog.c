/* libFuzzer target for the match log codec: arbitrary bytes as a log.
 * Whatever parses must judge or be refused cleanly, and must survive the
 * canonical round trip: parse(write(x)) == x and write is a fixed point.
 * Any crash, leak or abort is a bug. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct mlog_bd *log = NULL, *again = NULL;
	char err[256], *out = NULL, *text = NULL, *text2 = NULL;
	size_t len = 0, textlen = 0, text2len = 0;

	if (mlog_judge("fuzz", buf, size, &out, &len, err, sizeof(err)) == 0)
		free(out);
	if (mlog_bd_parse("fuzz", buf, size, &log, err, sizeof(err)))
		return 0;
	if (mlog_bd_judge(log, &out, &len, err, sizeof(err)) == 0)
		free(out);
	if (mlog_bd_write(log, &text, &textlen))
		goto free_log;
	if (mlog_bd_parse("fuzz", text, textlen, &again, err, sizeof(err)))
		abort();	/* the writer wrote something the parser refuses */
	if (!mlog_bd_equal(log, again))
		abort();
	if (mlog_bd_write(again, &text2, &text2len))
		goto free_again;
	if (text2len != textlen || memcmp(text, text2, textlen))
		abort();	/* canonical form is not a fixed point */
	free(text2);
free_again:
	mlog_bd_free(again);
	free(text);
free_log:
	mlog_bd_free(log);
	return 0;
}
