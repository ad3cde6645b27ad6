/* libFuzzer target: the Beer Die engine on arbitrary throws. The codec
 * checks what it parses, but bd_judge is a public function and must refuse
 * (not crash on) any struct a caller hands it: kinds and halves out of
 * range, any player index, NaN confidences, unterminated strings. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/core.h"

#define MAX_THROWS 64

/* Takes n bytes from the input, zero-filled past its end. */
static void take(const uint8_t **p, size_t *left, void *out, size_t n)
{
	size_t k = n < *left ? n : *left;

	memset(out, 0, n);
	memcpy(out, *p, k);
	*p += k;
	*left -= k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bd_throw throws[MAX_THROWS];
	static struct bd_ruling rulings[MAX_THROWS];
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct bd_final f;
	char err[128], text[BD_RULE_TEXT_MAX];
	size_t bad, n = 0;
	uint8_t hdr[4];

	bd_match_cfg_init(&cfg);
	take(&data, &size, hdr, sizeof(hdr));
	cfg.first_team = hdr[0] & 1;
	cfg.house.target_points = 1 + hdr[1] % 20;
	cfg.house.win_by = 1 + hdr[2] % 4;
	cfg.house.kill_every = hdr[3] % 7;
	cfg.house.low_call = (hdr[0] >> 1) & 1 ? BD_LOW_AUTO : BD_LOW_MANUAL;
	cfg.house.illegal_catch_counts_as_floor = (hdr[0] >> 2) & 1;
	cfg.house.fifa_cannot_end_game = (hdr[0] >> 3) & 1;
	cfg.house.popout_is_sink = (hdr[0] >> 4) & 1;
	cfg.house.mine_voids_points = (hdr[0] >> 5) & 1;

	while (size > 0 && n < MAX_THROWS) {
		struct bd_throw *t = &throws[n++];
		uint8_t th[3];

		memset(t, 0, sizeof(*t));
		take(&data, &size, th, sizeof(th));
		t->thrower = th[0] < 200 ? BD_NOBODY : (int)th[0] - 202;
		t->dye_up = th[1] & 1;
		t->apex_m = (th[1] & 2) ? th[2] / 40.0 : -1;
		t->n_events = th[1] >> 2 & 15;
		for (size_t i = 0; i < t->n_events; i++) {
			struct bd_event *e = &t->events[i];
			uint8_t b[6];

			take(&data, &size, b, sizeof(b));
			e->kind = (enum bd_ev_kind)(b[0] % 11);
			e->half = (enum bd_half)(b[1] % 4);
			e->player = (int)(b[2] % 7) - 1;
			e->sink = b[3] & 1;
			e->popout = b[3] & 2;
			e->trapped = b[3] & 4;
			e->over_table = b[3] & 8;
			e->has_confidence = b[3] & 16;
			e->confidence = (b[3] & 32) ? b[4] / 200.0 : __builtin_nan("");
			e->hands = b[4] % 4;
			e->face = b[5] % 8;
			memset(e->part, b[5] & 1 ? 'x' : 0, sizeof(e->part));
			if (b[5] & 2)
				memcpy(e->part, "thigh", 6);
		}
	}
	if (bd_fold(&cfg, throws, n, &s, rulings, &bad, err, sizeof(err)) == 0) {
		bd_final(&cfg, &s, &f);
		for (size_t i = 0; i < n; i++)
			for (size_t w = 0; w < rulings[i].n_why; w++)
				if (!bd_rule_text(rulings[i].why[w], &cfg.house, text, sizeof(text)))
					__builtin_trap();
	}
	return 0;
}
