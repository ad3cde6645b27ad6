/* Beer Die: event sequences that are easy to get wrong, each checked as a
 * whole ruling (points, dead, FIFA, over, every reason, every duty with its
 * owner and rule, who is sunk), not just its points. One line per play, so
 * a change in any part of a ruling shows up as a readable diff. Each case
 * names the rules it holds. Players: a1 a2 b1 b2; specs as in bd_spec.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "tests/unit/bd_spec.h"

struct seq_case {
	const char *house;	/* space-separated tweaks of the defaults, or "" */
	int score_a, score_b;	/* before the throw */
	const char *follow;	/* players who must follow (BD-P11), e.g. "b1" */
	const char *thrower;	/* "a1".. */
	bool dye_up;
	const char *spec;
	const char *want;	/* render() of the ruling */
};

static const char *const names[BD_PLAYERS] = { "a1", "a2", "b1", "b2" };

static int player(const char *name)
{
	for (int p = 0; p < BD_PLAYERS; p++)
		if (strncmp(name, names[p], 2) == 0)
			return p;
	fail_msg("no player %s", name);
	return BD_NOBODY;
}

static void set_house(struct bd_house *h, const char *spec)
{
	char buf[128];
	char *save = NULL;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (strncmp(w, "target=", 7) == 0)
			h->target_points = atoi(w + 7);
		else if (strncmp(w, "win_by=", 7) == 0)
			h->win_by = atoi(w + 7);
		else if (strncmp(w, "kill_every=", 11) == 0)
			h->kill_every = atoi(w + 11);
		else if (strcmp(w, "low_call=auto") == 0)
			h->low_call = BD_LOW_AUTO;
		else if (strcmp(w, "popout_is_sink") == 0)
			h->popout_is_sink = true;
		else if (strcmp(w, "!mine_voids_points") == 0)
			h->mine_voids_points = false;
		else if (strcmp(w, "!illegal_catch_counts_as_floor") == 0)
			h->illegal_catch_counts_as_floor = false;
		else if (strcmp(w, "!fifa_cannot_end_game") == 0)
			h->fifa_cannot_end_game = false;
		else
			fail_msg("unknown house tweak %s", w);
	}
}

/* "A-B [dead] [fifa] [over:A|B] why=... duties=... sunk=..." */
static void render(const struct bd_ruling *r, char *buf, size_t len)
{
	size_t off = 0;

#define PUT(...) (off += (size_t)snprintf(buf + off, off < len ? len - off : 0, __VA_ARGS__))
	PUT("%d-%d", r->points[BD_TEAM_A], r->points[BD_TEAM_B]);
	if (r->dead)
		PUT(" dead");
	if (r->fifa)
		PUT(" fifa");
	if (r->retoss)
		PUT(" retoss");
	if (r->over)
		PUT(" over:%c", r->winner == BD_TEAM_A ? 'A' : 'B');
	PUT(" why=");
	for (size_t i = 0; i < r->n_why; i++)
		PUT("%s%s", i ? "," : "", r->why[i]);
	PUT(" duties=");
	for (size_t i = 0; i < r->n_duties; i++)
		PUT("%s%s:%s:%s", i ? "," : "", bd_duty_name(r->duties[i].kind),
		    r->duties[i].player >= 0 ? names[r->duties[i].player] : "-",
		    r->duties[i].why);
	PUT(" sunk=");
	for (int p = 0; p < BD_PLAYERS; p++)
		if (r->sunk[p])
			PUT("%s", names[p]);
#undef PUT
}

#define Y true
#define N false

static const struct seq_case cases[] = {
	/* BD-P1, BD-P7: one point, two after any cup hit; several cup hits are still 2. */
	{ "", 0, 0, "", "a1", Y, "tB f", "1-0 why=BD-P1 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB c2 f", "2-0 why=BD-P7 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB c2 c3 f", "2-0 why=BD-P7 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "c2 f", "2-0 why=BD-P7 duties= sunk=" },
	/* BD-P8: a sink, also after a hit on another cup (the sunk cup's owner kills). */
	{ "", 0, 0, "", "a1", Y, "tB s2", "2-0 why=BD-P8 duties=kill_n_fill:b1:BD-P8 sunk=b1" },
	{ "", 0, 0, "", "a1", Y, "tB c2 s3", "2-0 why=BD-P8 duties=kill_n_fill:b2:BD-P8 sunk=b2" },
	{ "", 0, 0, "", "a1", Y, "s2", "2-0 why=BD-P8 duties=kill_n_fill:b1:BD-P8 sunk=b1" },
	/* BD-P3: bounce back, even off the thrower's own cup (still a cup hit). */
	{ "", 0, 0, "", "a1", Y, "tB tA f", "1-0 why=BD-P1,BD-P3 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB tA c0 f", "2-0 why=BD-P3,BD-P7 duties= sunk=" },
	/* BD-P6: the first touch decides; two halves. */
	{ "", 0, 0, "", "a1", Y, "tA f", "0-0 dead why=BD-P6 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tL f", "0-0 dead why=BD-P6 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tA tB f", "0-0 dead why=BD-P6 duties= sunk=" },
	/* BD-P14; a direct hit on one's own cup is no landing. */
	{ "", 0, 0, "", "a1", Y, "f", "0-0 why=BD-P14 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "c0 f", "0-0 why=BD-P1 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "c0 s2", "0-0 why=BD-R2 duties=kill_n_fill:b1:BD-R2 sunk=b1" },
	/* BD-P4, BD-P4a, BD-P10: catches; events after the die is dead (BD-T2). */
	{ "", 0, 0, "", "a1", Y, "tB C2", "0-0 why=BD-P4 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB 22", "1-0 why=BD-P1,BD-P4a duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB c2 T3", "2-0 why=BD-P7,BD-P4a duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB X2", "1-0 why=BD-P10 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB X0", "0-1 why=BD-P10 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tA X2", "1-0 dead why=BD-P6,BD-P10,BD-P2a duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB C0", "0-0 why=BD-P1 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB f C2", "1-0 why=BD-P1 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB C2 f", "0-0 why=BD-P4 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB C2 m", "0-0 why=BD-P4 duties= sunk=" },
	/* BD-O2: fives, dead throws too. */
	{ "", 0, 0, "", "a1", Y, "tB r5", "0-0 why=BD-O2 duties=kill_n_fill:a1:BD-O2 sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB r3", "0-0 why=BD-P1 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tA r5", "0-0 dead why=BD-P6,BD-O2 duties=kill_n_fill:a1:BD-O2 sunk=" },
	/* BD-O1, BD-O1a: the mine. */
	{ "", 0, 0, "", "a1", Y, "tB m f", "0-0 why=BD-O1,BD-O1a,BD-P1 duties=shotgun:a1:BD-O1 sunk=" },
	{ "", 0, 0, "", "a1", Y, "m s2", "0-0 why=BD-O1,BD-O1a,BD-P8 duties=kill_n_fill:b1:BD-P8,shotgun:a1:BD-O1 sunk=b1" },
	{ "", 0, 0, "", "a1", Y, "k2 m C3", "0-0 fifa why=BD-O1,BD-O1a,BD-K1 duties=shotgun:a1:BD-O1 sunk=" },
	{ "!mine_voids_points", 0, 0, "", "a1", Y, "tB m f", "1-0 why=BD-O1,BD-P1 duties=shotgun:a1:BD-O1 sunk=" },
	{ "!mine_voids_points", 0, 0, "", "a1", Y, "k2 m C3", "0-1 fifa why=BD-O1,BD-K1 duties=shotgun:a1:BD-O1 sunk=" },
	/* BD-P12: own team's cup, live or dead (BD-P2a). */
	{ "", 0, 0, "", "a1", Y, "tB s0", "0-2 why=BD-P12 duties=kill_n_fill:a1:BD-P12 sunk=a1" },
	{ "", 0, 0, "", "a1", Y, "tA s1", "0-2 dead why=BD-P6,BD-P12,BD-P2a duties=kill_n_fill:a2:BD-P12 sunk=a2" },
	/* BD-P5: low calls count before the table, from defenders only. */
	{ "", 0, 0, "", "a1", Y, "L tB f", "0-0 dead why=BD-P5 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "l0 tB f", "1-0 why=BD-P1 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB L f", "1-0 why=BD-P1 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "L s2", "0-0 dead why=BD-P5,BD-P13 duties=kill_n_fill:b1:BD-P13 sunk=b1" },
	{ "", 0, 0, "", "a1", Y, "L tB X2", "1-0 dead why=BD-P5,BD-P10,BD-P2a duties= sunk=" },
	/* BD-P9: a re-toss anywhere voids everything. */
	{ "", 0, 0, "", "a1", Y, "tB f R", "0-0 retoss why=BD-P9 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "R tB s2", "0-0 retoss why=BD-P9 duties= sunk=" },
	/* BD-K: FIFAs. */
	{ "", 0, 0, "", "a1", Y, "k2 C3", "0-1 fifa why=BD-K1 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "k2 22", "0-0 fifa why=BD-K9 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "k2 f", "0-0 fifa why=BD-K9 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "k0 C3", "0-0 why=BD-P14 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB k2 f", "1-0 why=BD-P1 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "k2 tB f", "1-0 fifa why=BD-K5 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "k2 tB c2 f", "2-0 fifa why=BD-K6 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "k2 tB s3", "2-0 fifa why=BD-K7 duties=kill_n_fill:b2:BD-K7 sunk=b2" },
	{ "", 0, 0, "", "a1", Y, "k2 tB C3", "0-0 fifa why=BD-P4,BD-K4 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "k2 X3", "1-0 fifa why=BD-P10 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "k2 tA f", "0-0 fifa why=BD-K8 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "k2 c0 f", "0-0 fifa why=BD-K8 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "k2 s0", "0-0 fifa why=BD-K8 duties=kill_n_fill:b1:BD-K8 sunk=" },
	{ "", 0, 0, "", "a1", Y, "k2 tA s2", "0-0 fifa why=BD-K8 duties=kill_n_fill:b1:BD-K8 sunk=b1" },
	{ "", 0, 0, "", "a1", Y, "k2 k3 C2", "0-1 fifa why=BD-K1 duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "k2 K3 C3", "0-0 why=BD-P14,BD-K3a duties= sunk=" },
	/* BD-K2a, with and without the house rule, win_by 1. */
	{ "", 3, 9, "", "a1", Y, "k2 C3", "0-0 fifa why=BD-K1,BD-K2a duties= sunk=" },
	{ "", 8, 5, "", "a1", Y, "k2 tB s3", "0-0 fifa why=BD-K7,BD-K2a duties=kill_n_fill:b2:BD-K7 sunk=b2" },
	{ "", 9, 5, "", "a1", Y, "k2 tB X3", "1-0 fifa over:A why=BD-P10,BD-W2,BD-W1 duties=kill_n_fill:b1:BD-W2,kill_n_fill:b2:BD-W2 sunk=" },
	{ "target=5 win_by=1", 4, 4, "", "a1", Y, "k2 tB f", "0-0 fifa why=BD-K5,BD-K2a duties= sunk=" },
	{ "target=5 win_by=1", 4, 4, "", "a1", Y, "tB f", "1-0 over:A why=BD-P1,BD-W2,BD-W1 duties=kill_n_fill:b1:BD-W2,kill_n_fill:b2:BD-W2 sunk=" },
	{ "!fifa_cannot_end_game", 8, 2, "", "a1", Y, "k2 tB s3", "2-0 fifa over:A why=BD-K7,BD-W2,BD-D1,BD-W1 duties=kill_n_fill:b2:BD-K7,kill_n_fill:b1:BD-W2 sunk=b2" },
	/* BD-P2: no DYE UP. */
	{ "", 0, 0, "", "a1", N, "tB f", "0-0 why=BD-P2,BD-P1 duties= sunk=" },
	{ "", 0, 0, "", "a1", N, "tB s2", "0-0 why=BD-P2,BD-P8 duties=kill_n_fill:b1:BD-P8 sunk=b1" },
	{ "", 0, 0, "", "a1", N, "k2 C3", "0-0 fifa why=BD-P2,BD-K1 duties= sunk=" },
	/* BD-R1, BD-R1a, both ways. */
	{ "", 0, 0, "", "a1", Y, "tB o2 C3", "0-0 why=BD-P4,BD-R1,BD-R1a duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB o2 f", "2-0 why=BD-P7,BD-R1a duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB o2 23", "2-0 why=BD-P7,BD-P4a,BD-R1a duties= sunk=" },
	{ "", 0, 0, "", "a1", Y, "tB o2 X3", "1-0 why=BD-P10 duties= sunk=" },
	{ "popout_is_sink", 0, 0, "", "a1", Y, "tB o2 C3", "0-0 why=BD-P4,BD-R1 duties= sunk=" },
	{ "popout_is_sink", 0, 0, "", "a1", Y, "tB o2 f", "2-0 why=BD-P8 duties=kill_n_fill:b1:BD-P8 sunk=b1" },
	{ "popout_is_sink", 0, 0, "", "a1", Y, "tB o0 f", "0-2 why=BD-P12 duties=kill_n_fill:a1:BD-P12 sunk=a1" },
	{ "popout_is_sink", 0, 0, "", "a1", Y, "tA o2 f", "0-0 dead why=BD-P6,BD-R2,BD-P13 duties=kill_n_fill:b1:BD-R2 sunk=b1" },
	/* BD-P4 read as the house's 1 point. */
	{ "!illegal_catch_counts_as_floor", 0, 0, "", "a1", Y, "tB c2 T3", "1-0 why=BD-P4 duties= sunk=" },
	{ "!illegal_catch_counts_as_floor", 0, 0, "", "a1", Y, "tA 22", "0-0 dead why=BD-P6 duties= sunk=" },
	/* BD-W2 with other multiples; BD-D1. */
	{ "kill_every=3", 2, 0, "", "a1", Y, "tB c2 f", "2-0 why=BD-P7,BD-W2 duties=kill_n_fill:b1:BD-W2,kill_n_fill:b2:BD-W2 sunk=" },
	{ "kill_every=1", 0, 0, "", "a1", Y, "tB s0", "0-2 why=BD-P12,BD-W2,BD-D1 duties=kill_n_fill:a1:BD-P12,kill_n_fill:a2:BD-W2 sunk=a1" },
	{ "", 3, 0, "", "a1", Y, "tB s2", "2-0 why=BD-P8,BD-W2,BD-D1 duties=kill_n_fill:b1:BD-P8,kill_n_fill:b2:BD-W2 sunk=b1" },
	{ "", 9, 4, "", "a1", Y, "tB X3", "1-0 over:A why=BD-P10,BD-W2,BD-W1 duties=kill_n_fill:b1:BD-W2,kill_n_fill:b2:BD-W2 sunk=" },
	/* BD-P11: on the opponents' next point, penalties included; the
	 * sunk player sunk again follows and kills. */
	{ "", 0, 0, "b1", "a1", Y, "tB f", "1-0 why=BD-P1,BD-P11 duties=follow_partner:b1:BD-P11 sunk=" },
	{ "", 0, 0, "b1", "a1", Y, "tB C2", "0-0 why=BD-P4 duties= sunk=" },
	{ "", 0, 0, "a1", "a1", Y, "tA X0", "0-1 dead why=BD-P6,BD-P10,BD-P2a,BD-P11 duties=follow_partner:a1:BD-P11 sunk=" },
	{ "", 0, 0, "b1", "a1", Y, "tB s2", "2-0 why=BD-P8,BD-P11 duties=kill_n_fill:b1:BD-P8,follow_partner:b1:BD-P11 sunk=b1" },
	{ "", 0, 0, "b1", "a1", N, "k2 C3", "0-0 fifa why=BD-P2,BD-K1 duties= sunk=" },
};

static void test_bd_sequences_whole_rulings(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct seq_case *c = &cases[i];
		struct bd_match_cfg cfg;
		struct bd_state s;
		struct bd_throw t = spec_throw(c->spec);
		struct bd_ruling r;
		char err[256] = "", got[512];

		bd_match_cfg_init(&cfg);
		set_house(&cfg.house, c->house);
		bd_state_init(&s, &cfg);
		s.score[BD_TEAM_A] = c->score_a;
		s.score[BD_TEAM_B] = c->score_b;
		for (const char *f = c->follow; *f; f += 2)
			s.must_follow[player(f)] = true;
		t.thrower = player(c->thrower);
		t.dye_up = c->dye_up;
		if (bd_judge(&cfg, &s, &t, &r, err, sizeof(err)) != 0)
			fail_msg("case %zu (%s): %s", i, c->spec, err);
		render(&r, got, sizeof(got));
		if (strcmp(got, c->want) != 0) {
			print_error("case %zu [%s] %d-%d %s %s%s:\n  want %s\n  got  %s\n", i,
				    c->house, c->score_a, c->score_b, c->thrower,
				    c->dye_up ? "" : "(no dye up) ", c->spec, c->want, got);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bd_sequences_whole_rulings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
