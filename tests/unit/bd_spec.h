/*
 * Test helpers for the Beer Die engine: a throw written as a short spec
 * string, so each test reads as the play it describes.
 *
 *   tA tB tL   table contact on A's half, B's half, the centre line
 *   cN sN oN   cup of player N (0=a1 1=a2 2=b1 3=b2): hit, sink, popout
 *              (a popout has sink false, as the match log writes it)
 *   m f        mine, floor
 *   rF         comes to rest on the table showing face F
 *   CN 2N TN   caught by N: one hand, two hands, trapped (one hand)
 *   XN         caught by N over the table (one hand)
 *   kN KN      kicked by N with the foot, with the thigh
 *   lN L       "low" called by N, by an unnamed player
 *   R          re-toss
 *   ?.NN       the previous event has confidence 0.NN
 */
#ifndef DYEREF_TEST_BD_SPEC_H
#define DYEREF_TEST_BD_SPEC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

static inline struct bd_event *spec_push(struct bd_throw *t, enum bd_ev_kind kind)
{
	struct bd_event *e = &t->events[t->n_events++];

	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->player = BD_NOBODY;
	e->confidence = 1;
	return e;
}

/* Builds a throw from spec; thrower BD_NOBODY (from the order), dye up,
 * no measured height. Aborts the test binary on a malformed spec: that is
 * a bug in the test, not in the engine. */
static inline struct bd_throw spec_throw(const char *spec)
{
	struct bd_throw t;
	char buf[256];
	char *save = NULL;

	memset(&t, 0, sizeof(t));
	t.thrower = BD_NOBODY;
	t.dye_up = true;
	t.apex_m = -1;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int n = tok[1] ? atoi(tok + 1) : -1;
		struct bd_event *e;

		if (t.n_events >= BD_MAX_EVENTS)
			abort();
		switch (tok[0]) {
		case 't':
			e = spec_push(&t, BD_EV_TABLE);
			e->half = tok[1] == 'A' ? BD_HALF_A : tok[1] == 'B' ? BD_HALF_B : BD_HALF_LINE;
			break;
		case 'c': case 's': case 'o':
			e = spec_push(&t, BD_EV_CUP);
			e->player = n;
			e->sink = tok[0] == 's';
			e->popout = tok[0] == 'o';
			break;
		case 'm': spec_push(&t, BD_EV_MINE); break;
		case 'f': spec_push(&t, BD_EV_FLOOR); break;
		case 'R': spec_push(&t, BD_EV_RETOSS); break;
		case 'r':
			e = spec_push(&t, BD_EV_REST);
			e->face = n;
			break;
		case 'C': case '2': case 'T': case 'X':
			e = spec_push(&t, BD_EV_CATCH);
			e->player = n;
			e->hands = tok[0] == '2' ? 2 : 1;
			e->trapped = tok[0] == 'T';
			e->over_table = tok[0] == 'X';
			break;
		case 'k': case 'K':
			e = spec_push(&t, BD_EV_KICK);
			e->player = n;
			snprintf(e->part, sizeof(e->part), "%s", tok[0] == 'k' ? "foot" : "thigh");
			break;
		case 'l': case 'L':
			e = spec_push(&t, BD_EV_LOW_CALL);
			e->player = tok[0] == 'l' ? n : BD_NOBODY;
			break;
		case '?':
			if (!t.n_events)
				abort();
			t.events[t.n_events - 1].has_confidence = true;
			t.events[t.n_events - 1].confidence = atof(tok + 1);
			break;
		default:
			abort();
		}
	}
	return t;
}

/* Two rulings say the same (pointer-equal static rule IDs included). */
static inline bool ruling_same(const struct bd_ruling *a, const struct bd_ruling *b)
{
	if (a->throw_no != b->throw_no || a->thrower != b->thrower || a->team != b->team ||
	    a->points[0] != b->points[0] || a->points[1] != b->points[1] ||
	    a->score[0] != b->score[0] || a->score[1] != b->score[1] ||
	    a->dead != b->dead || a->review != b->review || a->retoss != b->retoss ||
	    a->over != b->over || a->winner != b->winner || a->fifa != b->fifa ||
	    a->n_why != b->n_why || a->n_duties != b->n_duties)
		return false;
	for (size_t i = 0; i < a->n_why; i++)
		if (strcmp(a->why[i], b->why[i]) != 0)
			return false;
	for (size_t i = 0; i < a->n_duties; i++) {
		const struct bd_duty *x = &a->duties[i], *y = &b->duties[i];

		if (x->kind != y->kind || x->player != y->player || x->team != y->team ||
		    strcmp(x->why, y->why) != 0)
			return false;
	}
	for (int p = 0; p < BD_PLAYERS; p++)
		if (a->sunk[p] != b->sunk[p])
			return false;
	return true;
}

/* The why list joined by spaces, for readable assertions. */
static inline const char *why_str(const struct bd_ruling *r, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->n_why && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", r->why[i]);
	return buf;
}

#endif /* DYEREF_TEST_BD_SPEC_H */
