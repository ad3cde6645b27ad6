/* Match log codec speed, on a 400-throw log (a long deuce: nothing ends
 * it) of realistic lines with coordinates, sources and times. Each figure
 * against a yardstick measured in the same run:
 *   - parse (mlog_bd_parse) against jansson parsing the same lines into
 *     generic JSON trees (json_loadb per line): the least a parser of this
 *     format has to do;
 *   - judge (mlog_bd_judge: refold + output text) against the refold alone
 *     (bd_fold on the parsed throws): what writing the rulings adds;
 *   - canonical write (mlog_bd_write) against json_dumps of the jansson
 *     trees (JSON_COMPACT);
 *   - limit: parse + judge of the whole log against one 30 fps scoreboard
 *     frame (33.3 ms), the time a correction may take to show. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "bench/bench.h"

#define THROWS 400
#define ROUNDS 50

static const char *const lines[] = {
	"{\"type\":\"throw\",\"dye_up\":true,\"apex_m\":3.6,\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":1.9,\"y\":0.41,\"source\":\"piezo\",\"confidence\":0.97,\"t_ns\":10137000000},{\"at\":\"floor\",\"source\":\"piezo\",\"confidence\":0.99,\"t_ns\":10274000000}]}",
	"{\"type\":\"throw\",\"dye_up\":true,\"events\":[{\"at\":\"table\",\"half\":\"B\",\"x\":1.88,\"y\":0.95,\"source\":\"piezo\",\"confidence\":0.97,\"t_ns\":30411000000},{\"at\":\"catch\",\"by\":\"b1\",\"hands\":1,\"trapped\":false,\"over_table\":false,\"source\":\"console\",\"t_ns\":30548000000}]}",
	"{\"type\":\"throw\",\"dye_up\":true,\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.6,\"y\":0.7,\"source\":\"piezo\",\"confidence\":0.97,\"t_ns\":50685000000},{\"at\":\"cup\",\"owner\":\"a1\",\"sink\":false,\"source\":\"piezo\",\"confidence\":0.96,\"t_ns\":50822000000},{\"at\":\"floor\",\"source\":\"piezo\",\"confidence\":0.99,\"t_ns\":50959000000}]}",
	"{\"type\":\"throw\",\"dye_up\":true,\"events\":[{\"at\":\"table\",\"half\":\"A\",\"x\":0.5,\"y\":0.6,\"source\":\"piezo\",\"confidence\":0.97,\"t_ns\":71096000000},{\"at\":\"rest\",\"face\":3,\"source\":\"camera\",\"confidence\":0.93,\"t_ns\":71233000000}]}",
};

int main(void)
{
	static const char head[] = "{\"type\":\"match\",\"game\":\"beerdie\",\"house\":"
				   "{\"target_points\":1000,\"win_by\":100}}\n";
	static struct bd_throw throws[THROWS];
	static struct bd_ruling rulings[THROWS];
	struct mlog_bd *log = NULL;
	struct bd_state s;
	char err[256], *text, *out;
	size_t len = sizeof(head) - 1, outlen, bad;
	double t0, parse_ns = 0, jparse_ns = 0, judge_ns = 0, fold_ns = 0, write_ns = 0, dump_ns = 0;
	volatile size_t sink = 0;

	for (int i = 0; i < THROWS; i++)
		len += strlen(lines[i % 4]) + 1;
	text = malloc(len + 1);
	if (!text)
		return 1;
	strcpy(text, head);
	for (int i = 0; i < THROWS; i++) {
		strcat(text, lines[i % 4]);
		strcat(text, "\n");
	}

	for (int r = 0; r < ROUNDS; r++) {
		json_t *trees[THROWS + 1];
		const char *p = text;
		int n = 0;

		t0 = bench_now_ns();
		if (mlog_bd_parse("bench", text, len, &log, err, sizeof(err))) {
			fprintf(stderr, "mlog_bd_parse: %s\n", err);
			return 1;
		}
		parse_ns += bench_now_ns() - t0;

		t0 = bench_now_ns();
		while (*p) {
			const char *nl = strchr(p, '\n');
			json_error_t jerr;

			trees[n++] = json_loadb(p, (size_t)(nl - p), JSON_REJECT_DUPLICATES, &jerr);
			p = nl + 1;
		}
		jparse_ns += bench_now_ns() - t0;

		t0 = bench_now_ns();
		if (mlog_bd_judge(log, &out, &outlen, err, sizeof(err))) {
			fprintf(stderr, "mlog_bd_judge: %s\n", err);
			return 1;
		}
		judge_ns += bench_now_ns() - t0;
		sink += outlen;
		free(out);

		for (size_t i = 0; i < log->n_entries; i++)
			throws[i] = log->entries[i].t;
		t0 = bench_now_ns();
		if (bd_fold(&log->cfg, throws, log->n_throws, &s, rulings, &bad, err, sizeof(err)))
			return 1;
		fold_ns += bench_now_ns() - t0;

		t0 = bench_now_ns();
		if (mlog_bd_write(log, &out, &outlen))
			return 1;
		write_ns += bench_now_ns() - t0;
		sink += outlen;
		free(out);

		t0 = bench_now_ns();
		for (int i = 0; i < n; i++) {
			char *d = json_dumps(trees[i], JSON_COMPACT);

			sink += d ? strlen(d) : 0;
			free(d);
		}
		dump_ns += bench_now_ns() - t0;
		for (int i = 0; i < n; i++)
			json_decref(trees[i]);
		mlog_bd_free(log);
	}
	printf("log: %d throws, %zu bytes; %d rounds\n", THROWS, len, ROUNDS);
	printf("parse      %8.0f ns/throw  %.2fx  peer: jansson json_loadb per line (%.0f ns/throw)\n",
	       parse_ns / ROUNDS / THROWS, parse_ns / jparse_ns, jparse_ns / ROUNDS / THROWS);
	printf("judge      %8.0f ns/throw  %.2fx  peer: bd_fold alone (%.0f ns/throw)\n",
	       judge_ns / ROUNDS / THROWS, judge_ns / fold_ns, fold_ns / ROUNDS / THROWS);
	printf("write      %8.0f ns/throw  %.2fx  peer: jansson json_dumps JSON_COMPACT (%.0f ns/throw)\n",
	       write_ns / ROUNDS / THROWS, write_ns / dump_ns, dump_ns / ROUNDS / THROWS);
	printf("parse+judge of the log: %.2f ms = %.3f of the limit, one 30 fps frame (33.3 ms)\n",
	       (parse_ns + judge_ns) / ROUNDS / 1e6, (parse_ns + judge_ns) / ROUNDS / 33.3e6);
	return sink == 0;
}
