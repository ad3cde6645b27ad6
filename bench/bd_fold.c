/* Beer Die engine speed: what a correction costs. A correction refolds the
 * whole match (bd_fold), so the figure that matters is one refold of a long
 * match, against two yardsticks:
 *   - limit: one scoreboard frame at 30 fps (33.3 ms), the time a corrected
 *     score may take to appear;
 *   - peer: copying the match's throws once (memcpy), measured in the same
 *     run: the least any refold has to touch.
 * Prints ns per throw and the ratios. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "bench/bench.h"

#define THROWS 400
#define ROUNDS 200

static const struct {
	enum bd_ev_kind kind[3];
	int player[3];
	enum bd_half half;
	int n;
} plays[] = {
	/* a cycle of ordinary throws: floor, catch, cup hit, short, sink, rest */
	{ { BD_EV_TABLE, BD_EV_FLOOR }, { -1, -1 }, BD_HALF_B, 2 },
	{ { BD_EV_TABLE, BD_EV_CATCH }, { -1, 3 }, BD_HALF_B, 2 },
	{ { BD_EV_TABLE, BD_EV_CUP, BD_EV_FLOOR }, { -1, 0, -1 }, BD_HALF_A, 3 },
	{ { BD_EV_TABLE, BD_EV_FLOOR }, { -1, -1 }, BD_HALF_B, 2 },
	{ { BD_EV_TABLE, BD_EV_CATCH }, { -1, 0 }, BD_HALF_A, 2 },
	{ { BD_EV_TABLE, BD_EV_REST }, { -1, -1 }, BD_HALF_A, 2 },
};

int main(void)
{
	static struct bd_throw throws[THROWS], copy[THROWS];
	static struct bd_ruling rulings[THROWS];
	struct bd_match_cfg cfg;
	struct bd_state s;
	char err[128];
	size_t bad;
	double t0, fold_ns, copy_ns;
	volatile int sink = 0;

	bd_match_cfg_init(&cfg);
	/* A long deuce: nobody ever leads by 2, so all THROWS are judged. */
	cfg.house.win_by = 100;
	cfg.house.target_points = 1000;
	for (int i = 0; i < THROWS; i++) {
		const size_t k = (size_t)i % (sizeof(plays) / sizeof(plays[0]));

		memset(&throws[i], 0, sizeof(throws[i]));
		throws[i].thrower = BD_NOBODY;
		throws[i].dye_up = true;
		throws[i].apex_m = 3.5;
		throws[i].n_events = (size_t)plays[k].n;
		for (int e = 0; e < plays[k].n; e++) {
			struct bd_event *ev = &throws[i].events[e];

			ev->kind = plays[k].kind[e];
			ev->player = plays[k].player[e];
			ev->half = plays[k].half;
			ev->hands = 1;
			ev->face = 3;
			ev->confidence = 1;
		}
	}

	t0 = bench_now_ns();
	for (int r = 0; r < ROUNDS; r++) {
		if (bd_fold(&cfg, throws, THROWS, &s, rulings, &bad, err, sizeof(err)) < 0) {
			fprintf(stderr, "bd_fold: throw %zu: %s\n", bad, err);
			return 1;
		}
		sink += s.score[0];
	}
	fold_ns = (bench_now_ns() - t0) / ROUNDS;

	t0 = bench_now_ns();
	for (int r = 0; r < ROUNDS; r++) {
		memcpy(copy, throws, sizeof(throws));
		sink += copy[r % THROWS].n_events > 0;
		__asm__ volatile("" : : "r"(copy) : "memory");
	}
	copy_ns = (bench_now_ns() - t0) / ROUNDS;

	printf("bd_fold: %d throws refolded in %.1f us (%.0f ns/throw), score %d-%d\n",
	       THROWS, fold_ns / 1e3, fold_ns / THROWS, s.score[0], s.score[1]);
	printf("  vs limit 33.3 ms (one 30 fps scoreboard frame): %.5f of the limit\n",
	       fold_ns / 33.3e6);
	printf("  vs peer memcpy of the same throws (%.1f us): %.1fx\n",
	       copy_ns / 1e3, fold_ns / copy_ns);
	return sink < 0;
}
