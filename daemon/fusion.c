/* Fusion: sensor, camera and console observations in time order become one
 * throw for the judge, with confidences and a reason when it is doubtful.
 * Here: taking observations and deciding when a throw starts and ends;
 * the throw made of them in fusion_assemble.c, judged in fusion_judge.c. */
#include <errno.h>
#include <string.h>

#include "daemon/fusion.h"
#include "daemon/fusion_internal.h"
#include "daemon/obs_time.h"

/* A button held down calls again when released (its contacts bounce,
 * docs/sensors.md "Buttons"): a call of the same button sooner than this
 * after the last is that press. A press is held well under it, and the
 * button's next true call takes longer: the die caught or dead, back in
 * a thrower's hand and tossed above the minimum height (BD-S7, 3 m: over
 * a second in the air). */
#define BUTTON_HELD_NS (1500 * 1000000LL)

static const char *const source_names[] = {
	[DD_SRC_PIEZO] = "piezo", [DD_SRC_CAMERA] = "camera", [DD_SRC_CONSOLE] = "console",
	[DD_SRC_BUTTON] = "button", [DD_SRC_SIM] = "sim",
};

const char *dd_source_name(enum dd_source s)
{
	if ((unsigned)s >= sizeof(source_names) / sizeof(source_names[0]))
		return "?";
	return source_names[s];
}

void dd_fusion_cfg_defaults(struct dd_fusion_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->pair_window_ns = 80 * 1000000LL;
	cfg->settle_ns = 400 * 1000000LL;
	cfg->timeout_ns = 6000 * 1000000LL;
	cfg->rest_wait_ns = 6000 * 1000000LL;
	cfg->piezo_present = true;
	cfg->mine_disc_present = true;
	cfg->camera_present = false;
	bd_table_defaults(&cfg->table);
}

/* No throw under way. */
static void throw_init(struct dd_fusion_throw *t)
{
	memset(t, 0, sizeof(*t));
	t->t_last_ns = INT64_MIN;	/* a throw's times may all be below 0 */
}

void dd_fusion_init(struct dd_fusion *f, const struct dd_fusion_cfg *cfg)
{
	memset(f, 0, sizeof(*f));
	f->cfg = *cfg;
	throw_init(&f->cur);
	f->t_closed_ns = INT64_MIN;
	f->t_toss_after_ns = INT64_MAX;
}

bool dd_fusion_active(const struct dd_fusion *f)
{
	return f->cur.active;
}

static bool is_dead_event(const struct bd_event *ev)
{
	switch (ev->kind) {
	case BD_EV_FLOOR:
	case BD_EV_REST:
	case BD_EV_CATCH:
	case BD_EV_RETOSS:
		return true;
	case BD_EV_CUP:
		return ev->sink;
	default:
		return false;
	}
}

/* The throw under way is over at t_ns: what was made before that and
 * comes later is too late for it (dd_fusion_add), but for a toss made
 * after toss_after (a throw that timed out: INT64_MAX else). Only the
 * throw's own state goes: the buttons' last calls stay (a press held down
 * outlasts a throw), and so does a shake kept for the next throw. */
static void close_at(struct dd_fusion *f, int64_t t_ns, int64_t toss_after)
{
	throw_init(&f->cur);
	f->t_closed_ns = t_ns;
	f->t_toss_after_ns = toss_after;
}

void dd_fusion_drop(struct dd_fusion *f)
{
	/* kept for the next throw, it would join it: that game is over too */
	f->idle_shake_kept = false;
	if (f->cur.active)
		close_at(f, f->t_closed_ns, f->t_toss_after_ns);
}

/* Which button made o's call (an index of button_ns), or -1 for what no
 * button made. A low call and a catch name a player of the button's end
 * (dd_sensors_obs_to_fusion); a re-toss voids the throw whichever end
 * calls it, so one from the other end is the same call. */
static int button_of(const struct dd_obs *o)
{
	enum { LOW = 0, CATCH1 = 2, CATCH2 = 4, RETOSS = 6 };	/* + the end, BD_TEAM_A or _B */
	int end = o->ev.player >= 0 && o->ev.player < BD_PLAYERS ? BD_TEAM_OF(o->ev.player) : -1;

	if (o->kind != DD_OBS_EVENT || o->source != DD_SRC_BUTTON)
		return -1;
	if (o->ev.kind == BD_EV_RETOSS)
		return RETOSS;
	if (end < 0)
		return -1;
	if (o->ev.kind == BD_EV_LOW_CALL)
		return LOW + end;
	if (o->ev.kind == BD_EV_CATCH && (o->ev.hands == 1 || o->ev.hands == 2))
		return (o->ev.hands == 1 ? CATCH1 : CATCH2) + end;
	return -1;
}

/* Whether o is a button's second call (a press held down calls again on
 * release): the first call of each button per throw counts, and a button
 * whose call was taken less than BUTTON_HELD_NS ago is still in that
 * press, the throw it called in perhaps over. */
static bool button_repeat(const struct dd_fusion *f, const struct dd_obs *o)
{
	int k = button_of(o);
	int64_t since;

	if (k < 0)
		return false;
	for (size_t i = 0; i < f->cur.n_obs; i++)
		if (button_of(&f->cur.obs[i]) == k)
			return true;
	if (!(f->buttons_taken & (1u << k)))
		return false;
	since = dd_time_span(f->button_ns[k], o->t_ns);
	return since >= 0 && since < BUTTON_HELD_NS;
}

/* Notes the time of o's button (when a button made it) once fusion keeps
 * it: a call refused (a throw already full) starts no press, so the next
 * call of that button is taken. */
static void button_taken(struct dd_fusion *f, const struct dd_obs *o)
{
	int k = button_of(o);

	if (k < 0)
		return;
	f->button_ns[k] = o->t_ns;
	f->buttons_taken |= 1u << k;
}

/* Where in obs[] an observation at t goes: after every one made before
 * it, and after those made at t too unless ahead. */
static size_t slot_of(const struct dd_fusion *f, int64_t t, bool ahead)
{
	size_t at = f->cur.n_obs;

	while (at > 0 && (f->cur.obs[at - 1].t_ns > t || (ahead && f->cur.obs[at - 1].t_ns == t)))
		at--;
	return at;
}

/* A FIFA kick (BD-K1) is only ever made on a die that has not touched
 * the table, so whatever the table, a cup or the mine felt within the
 * official's delay before the kick call came after the kick: the kick is
 * put just before the first of them. A contact earlier than that delay
 * was before the kick, and the call keeps its time. A defender may still
 * kick a die after its touch (no FIFA then, and ignored by the judge): the
 * order is a guess, carried with the throw (dd_fused.kick_guessed) for
 * dd_fused_judge() to try both ways. Returns o, or *tmp holding the re-timed
 * kick, *at then its place in obs[]: before the touch, even one at
 * INT64_MIN, where no time is earlier. */
static const struct dd_obs *kick_in_place(struct dd_fusion *f, const struct dd_obs *o,
					  struct dd_obs *tmp, size_t *at)
{
	for (size_t i = 0; i < f->cur.n_obs; i++) {
		const struct dd_obs *c = &f->cur.obs[i];

		if (c->kind != DD_OBS_EVENT || !dd_fusion_edge_source(c->source) ||
		    (c->ev.kind != BD_EV_TABLE && c->ev.kind != BD_EV_CUP && c->ev.kind != BD_EV_MINE))
			continue;
		if (c->t_ns > o->t_ns || dd_time_span(c->t_ns, o->t_ns) > CALL_DELAY_NS)
			return o;	/* after the call, or touched before the kick */
		f->cur.kick_retimed = true;
		f->cur.kick_retimed_ns = dd_time_shifted(c->t_ns, -1);
		*tmp = *o;
		tmp->t_ns = f->cur.kick_retimed_ns;
		tmp->ev.t_ns = tmp->t_ns;
		*at = slot_of(f, c->t_ns, true);
		return tmp;
	}
	return o;
}

/* Puts o at obs[at] (slot_of), a place the caller has made sure of. */
static void keep_obs(struct dd_fusion *f, size_t at, const struct dd_obs *o)
{
	memmove(&f->cur.obs[at + 1], &f->cur.obs[at], (f->cur.n_obs - at) * sizeof(f->cur.obs[0]));
	f->cur.obs[at] = *o;
	f->cur.n_obs++;
	if (o->t_ns > f->cur.t_last_ns)
		f->cur.t_last_ns = o->t_ns;
}

/* A throw that starts at t, before the shake kept from before it
 * (dd_fusion_add) was over, takes it as had it come during the throw: its
 * hit (within SHAKE_HIT_NS of it, before its window's end) may be the
 * throw's first observation, or a later one of a throw whose first was
 * reported after the shake (the camera's come late). No earliest t: a
 * shake made after a throw began is that throw's, as one that comes
 * while it is under way; a shake over before it began is not. Nor is one
 * made after the throw, as its first observation has it, was over
 * (settled or timed out): had it come in time order it would have found
 * no throw under way, and it stays kept for the next (close_at). */
static void take_idle_shake(struct dd_fusion *f, int64_t t)
{
	const struct dd_obs *d = &f->idle_shake;

	if (!f->idle_shake_kept || d->t_ns > dd_fusion_deadline(f))
		return;
	if (f->cur.n_obs < DD_FUSION_MAX_OBS && t <= d->until_ns)
		keep_obs(f, slot_of(f, d->t_ns, false), d);
	f->idle_shake_kept = false;
}

/* A die came to rest and its face is being read (DD_OBS_REST_PENDING):
 * the throw under way waits for that rest (dd_fusion_deadline). The read
 * runs off the event loop, so the throw could settle or time out before
 * the rest that ends it (BD-O2 reads its face) arrives. With no throw under
 * way there is nothing to hold: the rest will start its own. */
static void await_rest(struct dd_fusion *f, const struct dd_obs *o)
{
	if (!f->cur.active)
		return;
	if (!f->cur.rests_pending || o->t_ns > f->cur.rest_pending_ns)
		f->cur.rest_pending_ns = o->t_ns;
	f->cur.rests_pending++;
}

int dd_fusion_add(struct dd_fusion *f, const struct dd_obs *o, struct dd_fused *out)
{
	struct dd_obs kick;
	size_t at;
	int completed = 0;
	bool starts;

	if (!(o->confidence >= 0 && o->confidence <= 1) || (unsigned)o->kind > DD_OBS_REST_PENDING ||
	    (unsigned)o->source > DD_SRC_SIM)
		return -EINVAL;
	if (o->kind == DD_OBS_TABLE_DEAF && o->until_ns < o->t_ns)
		return -EINVAL;
	if (o->kind == DD_OBS_EVENT && (unsigned)o->ev.kind > BD_EV_RETOSS)
		return -EINVAL;
	if (o->t_ns < f->t_closed_ns) {
		/* A toss made after a timed-out throw's last observation would
		 * have closed that throw had it come in time (below): it starts
		 * the next, and what was made after it is that throw's. */
		if (o->kind != DD_OBS_TOSS || f->cur.active || o->t_ns <= f->t_toss_after_ns)
			return DD_FUSION_LATE;
		f->t_closed_ns = o->t_ns;
	}
	if (button_repeat(f, o))
		return DD_FUSION_REPEAT;
	if (o->kind == DD_OBS_REST_PENDING) {
		await_rest(f, o);
		return 0;
	}
	/* A shake while no throw is under way starts none: it only tells a
	 * throw's landings apart from silence. The hit that made it may yet
	 * start one: the sensors' pipeline hands a hit whose edge came while
	 * the shake's impact was open over after the shake when the shake's
	 * start is earlier (sensors/pipeline.c, close_group). The latest is
	 * kept for that throw. */
	if (o->kind == DD_OBS_TABLE_DEAF && !f->cur.active) {
		f->idle_shake = *o;
		f->idle_shake_kept = true;
		return 0;
	}
	if (o->kind == DD_OBS_TOSS && f->cur.active && f->cur.n_obs > 0) {
		/* A new toss while the last throw was not seen to end: that one
		 * is over, judged on what it has, and this toss starts the next. */
		dd_fusion_assemble(f, true, o->t_ns, out);
		close_at(f, o->t_ns, INT64_MAX);
		completed = 1;
	}
	starts = !f->cur.active;
	f->cur.active = true;
	/* Its rest has come, even should the throw have no room for it. Only
	 * the camera announces its rests: a console's rest releases none. */
	if (o->kind == DD_OBS_EVENT && o->ev.kind == BD_EV_REST && o->source == DD_SRC_CAMERA &&
	    f->cur.rests_pending > 0)
		f->cur.rests_pending--;
	if (f->cur.n_obs == DD_FUSION_MAX_OBS) {
		f->cur.overflow = true;
		/* A re-toss voids whatever the throw holds (BD-P9): it takes
		 * the latest observation's place rather than be lost. */
		if (o->kind != DD_OBS_EVENT || o->ev.kind != BD_EV_RETOSS)
			return completed;
		f->cur.n_obs--;
	}
	/* Keep time order: the camera reports a frame's events late. */
	at = slot_of(f, o->t_ns, false);
	if (o->kind == DD_OBS_EVENT && o->ev.kind == BD_EV_KICK && !dd_fusion_edge_source(o->source))
		o = kick_in_place(f, o, &kick, &at);
	keep_obs(f, at, o);
	button_taken(f, o);
	/* Dead first: whether a kept shake came after this throw (below) hangs
	 * on when it settles. */
	if (o->kind == DD_OBS_EVENT && is_dead_event(&o->ev) && !f->cur.dead &&
	    o->ev.kind != BD_EV_RETOSS) {
		f->cur.dead = true;
		f->cur.t_dead_ns = o->t_ns;
	}
	if (starts)
		take_idle_shake(f, o->t_ns);
	if (o->kind == DD_OBS_EVENT && o->ev.kind == BD_EV_RETOSS) {
		/* Void at once: nothing later can change a re-toss. */
		dd_fusion_assemble(f, false, o->t_ns, out);
		out->t_dead_ns = o->t_ns;
		close_at(f, o->t_ns, INT64_MAX);
		return 1;
	}
	return completed;
}

int64_t dd_fusion_deadline(const struct dd_fusion *f)
{
	int64_t at, wait;

	if (!f->cur.active)
		return INT64_MAX;
	if (f->cur.dead)
		at = dd_time_shifted(f->cur.t_dead_ns, f->cfg.settle_ns);
	else
		at = dd_time_shifted(f->cur.t_last_ns, f->cfg.timeout_ns);
	if (f->cur.rests_pending) {
		wait = dd_time_shifted(f->cur.rest_pending_ns, f->cfg.rest_wait_ns);
		if (wait > at)
			at = wait;
	}
	return at;
}

int dd_fusion_tick(struct dd_fusion *f, int64_t now_ns, struct dd_fused *out)
{
	int64_t deadline = dd_fusion_deadline(f);

	/* Measured from the throw's own times, not against the deadline: one
	 * past the clock's end saturates to INT64_MAX, which a time can be. */
	if (!f->cur.active || (f->cur.dead ? dd_time_span(f->cur.t_dead_ns, now_ns) < f->cfg.settle_ns :
			   dd_time_span(f->cur.t_last_ns, now_ns) < f->cfg.timeout_ns))
		return 0;
	if (f->cur.rests_pending &&
	    dd_time_span(f->cur.rest_pending_ns, now_ns) < f->cfg.rest_wait_ns)
		return 0;	/* a face is being read: its rest is on its way */
	dd_fusion_assemble(f, !f->cur.dead, now_ns, out);
	close_at(f, deadline, f->cur.dead ? INT64_MAX : f->cur.t_last_ns);
	return 1;
}
