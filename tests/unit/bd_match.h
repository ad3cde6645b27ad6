/* A Beer Die match for the rules engine's tests (test_bd_setup.c,
 * test_bd_scoring.c, test_bd_fifa.c, test_bd_other.c, test_bd_rules.c):
 * throws written as bd_spec.h specs, judged and applied one after another.
 * Players: 0=a1 1=a2 (team A), 2=b1 3=b2 (team B). Header-only: each test
 * includes it once. */
#ifndef DYEREF_TEST_BD_MATCH_H
#define DYEREF_TEST_BD_MATCH_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "tests/unit/bd_spec.h"

enum { A1, A2, B1, B2 };

struct match {
	struct bd_match_cfg cfg;
	struct bd_state s;
	struct bd_ruling r;	/* the last ruling */
	char why[256];		/* its why list, space-separated */
};

static inline void match_new(struct match *m)
{
	memset(m, 0, sizeof(*m));
	bd_match_cfg_init(&m->cfg);
	bd_state_init(&m->s, &m->cfg);
}

/* Judges t against the match so far and applies it; the ruling stays in m->r. */
static inline const struct bd_ruling *play_throw(struct match *m, const struct bd_throw *t)
{
	char err[256] = "";
	int rc = bd_judge(&m->cfg, &m->s, t, &m->r, err, sizeof(err));

	if (rc != 0)
		fail_msg("bd_judge: %d %s", rc, err);
	bd_apply(&m->s, &m->cfg, &m->r);
	why_str(&m->r, m->why, sizeof(m->why));
	return &m->r;
}

/* Plays spec thrown by `thrower` (BD_NOBODY: by the order). */
static inline const struct bd_ruling *play(struct match *m, int thrower, const char *spec)
{
	struct bd_throw t = spec_throw(spec);

	t.thrower = thrower;
	return play_throw(m, &t);
}

static inline const struct bd_ruling *play_no_dye_up(struct match *m, int thrower, const char *spec)
{
	struct bd_throw t = spec_throw(spec);

	t.thrower = thrower;
	t.dye_up = false;
	return play_throw(m, &t);
}

static inline int n_duties(const struct bd_ruling *r, enum bd_duty_kind kind, int player)
{
	int n = 0;

	for (size_t i = 0; i < r->n_duties; i++)
		if (r->duties[i].kind == kind && r->duties[i].player == player)
			n++;
	return n;
}

static inline const char *duty_why(const struct bd_ruling *r, enum bd_duty_kind kind, int player)
{
	for (size_t i = 0; i < r->n_duties; i++)
		if (r->duties[i].kind == kind && r->duties[i].player == player)
			return r->duties[i].why;
	return "none";
}

#define KILL BD_DUTY_KILL_N_FILL
#define FOLLOW BD_DUTY_FOLLOW_PARTNER

#endif /* DYEREF_TEST_BD_MATCH_H */
