/* Judging a fused throw as the daemon rules it (dd_fused_judge): bd_judge
 * with the orders and players fusion guessed tried both ways. */
#include <stdio.h>
#include <string.h>

#include "daemon/fusion.h"
#include "daemon/fusion_internal.h"
#include "daemon/obs_time.h"

static bool duties_equal(const struct bd_ruling *a, const struct bd_ruling *b)
{
	if (a->n_duties != b->n_duties)
		return false;
	for (size_t i = 0; i < a->n_duties; i++) {
		bool found = false;

		for (size_t j = 0; j < b->n_duties && !found; j++)
			found = a->duties[i].kind == b->duties[j].kind &&
				a->duties[i].player == b->duties[j].player &&
				(a->duties[i].player != BD_NOBODY || a->duties[i].team == b->duties[j].team);
		if (!found)
			return false;
	}
	return true;
}

bool dd_ruling_same_outcome(const struct bd_ruling *a, const struct bd_ruling *b)
{
	return a->points[0] == b->points[0] && a->points[1] == b->points[1] &&
	       a->dead == b->dead && a->retoss == b->retoss && duties_equal(a, b);
}

/* fx's throw with its guessed kick moved just after the touch it was put
 * before: the judge ignores a kick after a touch (BD-K1), so any place
 * after it reads the same. False when there is no such touch. */
static bool kick_after_touch(const struct dd_fused *fx, struct bd_throw *alt)
{
	const struct bd_throw *t = &fx->t;
	size_t k = fx->kick_at, c = k + 1;

	while (c < t->n_events && t->events[c].kind != BD_EV_TABLE &&
	       t->events[c].kind != BD_EV_CUP && t->events[c].kind != BD_EV_MINE)
		c++;
	if (k >= t->n_events || t->events[k].kind != BD_EV_KICK || c >= t->n_events)
		return false;
	*alt = *t;
	memmove(&alt->events[k], &alt->events[k + 1], (c - k) * sizeof(alt->events[0]));
	alt->events[c] = t->events[k];
	alt->events[c].t_ns = dd_time_shifted(t->events[c].t_ns, 1);
	return true;
}

/* fx's throw with a low call entered within the official's delay after the
 * first touch (table, cup or mine) moved just before that touch: BD-P5
 * counts a call made before the die hits the table, and a call is entered
 * up to CALL_DELAY_NS after it was made, so either order may be true.
 * False when there is no such call. */
static bool low_before_touch(const struct dd_fused *fx, struct bd_throw *alt)
{
	const struct bd_throw *t = &fx->t;
	size_t c = 0, k;

	while (c < t->n_events && t->events[c].kind != BD_EV_TABLE &&
	       t->events[c].kind != BD_EV_CUP && t->events[c].kind != BD_EV_MINE)
		c++;
	for (k = c + 1; k < t->n_events; k++)
		if (t->events[k].kind == BD_EV_LOW_CALL &&
		    dd_time_span(t->events[c].t_ns, t->events[k].t_ns) <= CALL_DELAY_NS)
			break;
	if (c >= t->n_events || k >= t->n_events)
		return false;
	*alt = *t;
	memmove(&alt->events[c + 1], &alt->events[c], (k - c) * sizeof(alt->events[0]));
	alt->events[c] = t->events[k];
	alt->events[c].t_ns = dd_time_shifted(t->events[c].t_ns, -1);
	return true;
}

/* fx's throw with its moved landing (deaf_landings) where the camera
 * timed it, before the hit it was put after. False when none was moved. */
static bool landing_where_seen(const struct dd_fused *fx, struct bd_throw *alt)
{
	const struct bd_throw *t = &fx->t;
	size_t k = fx->landing_at, to = 0;
	struct bd_event ev;

	if (!fx->landing_moved || k >= t->n_events || t->events[k].kind != BD_EV_TABLE)
		return false;
	*alt = *t;
	ev = t->events[k];
	ev.t_ns = fx->landing_seen_ns;
	while (to < k && t->events[to].t_ns <= ev.t_ns)
		to++;
	memmove(&alt->events[to + 1], &t->events[to], (k - to) * sizeof(ev));
	alt->events[to] = ev;
	return true;
}

/* fx's throw with its guessed catcher replaced by the other player of
 * that end (a button knows the end, not the hand). False when no catcher
 * was guessed. */
static bool catch_by_partner(const struct dd_fused *fx, struct bd_throw *alt)
{
	const struct bd_throw *t = &fx->t;

	if (!fx->catch_guessed || fx->catch_at >= t->n_events ||
	    t->events[fx->catch_at].kind != BD_EV_CATCH || t->events[fx->catch_at].player < 0)
		return false;
	*alt = *t;
	alt->events[fx->catch_at].player ^= 1;	/* a1 <-> a2, b1 <-> b2 */
	return true;
}

/* Whether a and b rule alike, the rules they name included. */
static bool same_ruling(const struct bd_ruling *a, const struct bd_ruling *b)
{
	if (!dd_ruling_same_outcome(a, b) || a->n_why != b->n_why)
		return false;
	for (size_t i = 0; i < a->n_why; i++)
		if (strcmp(a->why[i], b->why[i]))
			return false;
	return true;
}

/* Whether alt, judged from s, rules otherwise than ruling: then where the
 * throws differ decides the ruling. A throw the judge refuses counts as
 * otherwise (an official's to settle too). */
static bool rules_otherwise(const struct bd_match_cfg *cfg, const struct bd_state *s,
			    const struct bd_throw *alt, const struct bd_ruling *ruling,
			    bool rules_too)
{
	struct bd_ruling other;
	char e2[160];

	if (bd_judge(cfg, s, alt, &other, e2, sizeof(e2)))
		return true;
	return rules_too ? !same_ruling(ruling, &other) : !dd_ruling_same_outcome(ruling, &other);
}

/* The judge's notes below: each names its rule at its end. */
#define NOTE_LOW "low call entered just after the first touch, and which came first " \
		 "decides the ruling (BD-P5)"
#define NOTE_CATCHER "the catch button cannot tell who caught, and who did decides the " \
		     "ruling (BD-K1, BD-K9)"
#define NOTE_KICK "kick called near the first touch, and which came first decides the " \
		  "ruling (BD-K1)"
#define NOTE_LANDING "the camera's first landing, just before a hit the table sensors " \
		     "heard alone, was put after it, and which came first decides the " \
		     "ruling (BD-P7)"
/* All four, each after "; " (sizeof counts a NUL each: room for three of
 * the separators' bytes and the end). */
#define NOTES_MAX (sizeof(NOTE_LOW) + sizeof(NOTE_CATCHER) + sizeof(NOTE_KICK) + \
		   sizeof(NOTE_LANDING) + 6)
_Static_assert(NOTES_MAX < DD_WHY_MAX, "the judge's notes must fit a reason's buffer whole");

/* Sends ruling to review, adding reason to notes (NOTES_MAX bytes). */
static void ask_official(struct bd_ruling *ruling, char *notes, const char *reason)
{
	ruling->review = true;
	dd_fusion_append_why(notes, NOTES_MAX, reason);
}

int dd_fused_judge(const struct bd_match_cfg *cfg, const struct bd_state *s,
		   const struct dd_fused *fx, struct bd_ruling *ruling, char *why, size_t whylen,
		   char *err, size_t errlen)
{
	struct bd_throw alt;
	char notes[NOTES_MAX] = "";
	int rc;

	snprintf(why, whylen, "%s", fx->review_why);
	rc = bd_judge(cfg, s, &fx->t, ruling, err, errlen);
	if (rc)
		return rc;
	if (fx->review)
		ruling->review = true;
	/* A late-entered low call: where the order decides the ruling, an
	 * official settles it (BD-P5). */
	if (low_before_touch(fx, &alt) && rules_otherwise(cfg, s, &alt, ruling, false))
		ask_official(ruling, notes, NOTE_LOW);
	/* Kicked up by one defender and caught by the other (BD-K1), or by
	 * the kicker (BD-K9): who caught decides, and a button cannot say. */
	if (catch_by_partner(fx, &alt) && rules_otherwise(cfg, s, &alt, ruling, true))
		ask_official(ruling, notes, NOTE_CATCHER);
	if (fx->kick_guessed && kick_after_touch(fx, &alt) && rules_otherwise(cfg, s, &alt, ruling, false))
		ask_official(ruling, notes, NOTE_KICK);
	/* A landing put after a hit (fusion has already asked an official,
	 * as about any camera-only landing): where the order decides, the
	 * official hears that too. */
	if (landing_where_seen(fx, &alt) && rules_otherwise(cfg, s, &alt, ruling, false))
		ask_official(ruling, notes, NOTE_LANDING);
	/* fusion's notes (witnesses disagreeing) explain a review only, be
	 * it one the judge's notes asked for */
	if (!ruling->review && whylen)
		why[0] = '\0';
	/* The judge's notes first: each names the rule that decides, and
	 * fusion's reasons, however many, are what a short buffer cuts. */
	else if (*notes)
		snprintf(why, whylen, "%s%s%s", notes, *fx->review_why ? "; " : "", fx->review_why);
	return 0;
}
