/* One match step: fusion between what is seen and the judge, with the
 * daemon's rules for a won game and for what comes late. */
#include "daemon/match_step.h"
#include "daemon/obs_time.h"

static bool won(const struct dd_step *st)
{
	return st->won && st->won(st->user);
}

/* Why o was not taken, to whoever listens. */
static void tell(const struct dd_step *st, const struct dd_obs *o, int rc)
{
	if (!st->log)
		return;
	if (rc < 0)
		st->log(DD_LOG_WARN, "fusion: %s observation ignored (bad confidence or kind)",
			dd_source_name(o->source));
	else if (rc == DD_FUSION_LATE)
		st->log(DD_LOG_WARN, "fusion: %s observation made %.0f ms before its throw closed "
			"came too late for it, ignored", dd_source_name(o->source),
			(double)dd_time_span(o->t_ns, st->fusion->t_closed_ns) / 1e6);
	else if (rc == DD_FUSION_REPEAT)
		/* for whoever wires the buttons: a held button is one call */
		st->log(DD_LOG_INFO, "fusion: a button called again (held down?): one call taken");
}

int dd_step_tick(const struct dd_step *st, int64_t now_ns)
{
	if (dd_fusion_tick(st->fusion, now_ns, st->fx) != 1)
		return 0;
	st->judge(st->user, st->fx, now_ns);
	return 1;
}

int dd_step_obs(const struct dd_step *st, const struct dd_obs *o)
{
	int rc;

	/* The throw under way may have settled (or timed out) before o was
	 * made, the caller's timer not yet run: the loop was held up, or the
	 * timer and o woke it together. It is complete without o, and o
	 * starts the next throw; else o joins it. A face being read holds it
	 * (DD_OBS_REST_PENDING: fusion's deadline). */
	dd_step_tick(st, o->t_ns);
	if (won(st))
		return DD_STEP_WON;
	rc = dd_fusion_add(st->fusion, o, st->fx);
	tell(st, o, rc);
	if (rc == 1) {
		st->judge(st->user, st->fx, o->t_ns);
		/* o, a toss, began the next throw: in a game the last one won? */
		if (won(st))
			dd_fusion_drop(st->fusion);
	}
	return rc;
}
