/* Beer Die: judging one throw (BD-P, BD-K, BD-O, BD-R, BD-W1, BD-W2,
 * BD-P11, BD-D1). The interpretations are written up in
 * docs/beer-die-rules.md; this file follows them rule by rule. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/core.h"

/* Rule IDs a ruling can name, in the order a ruling lists them: what made
 * the throw void or dead, then what it scored, then penalties, then the
 * consequences for the match. Listing by this rank (not by the order the
 * code met them) keeps "why" stable. */
enum why_id {
	W_P9, W_P5, W_P6, W_P14, W_P2, W_O1, W_O1A,
	W_P1, W_P3, W_P7, W_P8, W_P4, W_P4A, W_R1, W_R1A, W_R2,
	W_K1, W_K3A, W_K4, W_K5, W_K6, W_K7, W_K8, W_K9, W_O2,
	W_P10, W_P12, W_P2A, W_P13, W_K2A, W_P11, W_W2, W_D1, W_W1,
	W_COUNT
};

static const char *const why_text[W_COUNT] = {
	[W_P9] = "BD-P9", [W_P5] = "BD-P5", [W_P6] = "BD-P6", [W_P14] = "BD-P14",
	[W_P2] = "BD-P2", [W_O1] = "BD-O1", [W_O1A] = "BD-O1a",
	[W_P1] = "BD-P1", [W_P3] = "BD-P3", [W_P7] = "BD-P7", [W_P8] = "BD-P8",
	[W_P4] = "BD-P4", [W_P4A] = "BD-P4a", [W_R1] = "BD-R1", [W_R1A] = "BD-R1a",
	[W_R2] = "BD-R2", [W_K1] = "BD-K1", [W_K3A] = "BD-K3a", [W_K4] = "BD-K4",
	[W_K5] = "BD-K5", [W_K6] = "BD-K6", [W_K7] = "BD-K7", [W_K8] = "BD-K8",
	[W_K9] = "BD-K9", [W_O2] = "BD-O2", [W_P10] = "BD-P10", [W_P12] = "BD-P12",
	[W_P2A] = "BD-P2a", [W_P13] = "BD-P13", [W_K2A] = "BD-K2a",
	[W_P11] = "BD-P11", [W_W2] = "BD-W2", [W_D1] = "BD-D1", [W_W1] = "BD-W1",
};

/* Where the die is, as its events unfold. */
enum phase {
	PH_AIR,		/* touched neither the table nor a cup yet */
	PH_LIVE,	/* landed on the defenders' half, or hit a defenders' cup directly */
	PH_SHORT,	/* first touched the attackers' half or the line (BD-P6) */
	PH_OWN_CUP,	/* first hit an attackers' cup, without touching the table */
	PH_KICKED_BACK,	/* a kicked die first touched the attackers' half, the line or an attackers' cup (BD-K8) */
};

enum end { END_NONE, END_FLOOR, END_CATCH, END_SINK, END_REST };

/* What the events of one throw say, read once in time order. */
struct flight {
	enum phase phase;
	bool on_line;		/* the first touch was the centre line (BD-P6, not BD-R2) */
	bool low;		/* a defender called low before the table (BD-P5) */
	bool kicked;		/* a kick that counts (BD-K3, BD-K3a) */
	int kicker;		/* who made the last one, or BD_NOBODY (BD-K8) */
	unsigned kickers;	/* bit per player who made a counting kick (BD-K1) */
	bool thigh;		/* a defender's thigh kick was ignored (BD-K3a) */
	bool cup_hit;		/* hit a cup after landing or directly (BD-P7) */
	bool popped;		/* went into a cup and out again (BD-R1a) */
	const struct bd_event *popsink;	/* popout_is_sink: the popout, a sink unless caught (BD-R1) */
	bool bounced_back;	/* touched the attackers' half or line after landing (BD-P3) */
	bool mine;		/* hit the mine (BD-O1) */
	enum end end;		/* how the die became dead */
	const struct bd_event *last;	/* the event that ended it, or NULL */
};

/* The judgement in progress. */
struct judging {
	const struct bd_match_cfg *cfg;
	const struct bd_state *s;
	int att, def;		/* attacking and defending team */
	int thrower;
	int sc[2];		/* points the throw itself scores, per team */
	int pen[2];		/* BD-P10 and BD-P12 penalties, per team */
	uint64_t why;		/* bit per enum why_id */
	struct bd_ruling *r;
};

static void why(struct judging *j, enum why_id id)
{
	j->why |= UINT64_C(1) << id;
}

/* Adds a duty; a second kill n' fill for the same player from this throw
 * is the same duty (BD-D1) and keeps the first rule's ID. */
static void duty(struct judging *j, enum bd_duty_kind kind, int player,
		 int team, const char *rule)
{
	struct bd_ruling *r = j->r;

	for (size_t i = 0; i < r->n_duties; i++) {
		struct bd_duty *d = &r->duties[i];

		if (d->kind == kind && d->player == player && d->team == team &&
		    kind == BD_DUTY_KILL_N_FILL) {
			why(j, W_D1);
			return;
		}
	}
	if (r->n_duties < BD_MAX_DUTIES)
		r->duties[r->n_duties++] = (struct bd_duty){
			.kind = kind, .player = player, .team = team, .why = rule,
		};
}

static void kill_n_fill(struct judging *j, int player, const char *rule)
{
	duty(j, BD_DUTY_KILL_N_FILL, player, BD_TEAM_OF(player), rule);
}

static bool valid_player(int p)
{
	return p >= 0 && p < BD_PLAYERS;
}

static int check_event(const struct bd_event *e, size_t i, char *err, size_t errlen)
{
	const char *who = "by";

	if (e->has_confidence && !(e->confidence >= 0 && e->confidence <= 1)) {
		snprintf(err, errlen, "events[%zu].confidence: %g is not 0..1", i, e->confidence);
		return -EINVAL;
	}
	switch (e->kind) {
	case BD_EV_TABLE:
		if (e->half != BD_HALF_A && e->half != BD_HALF_B && e->half != BD_HALF_LINE) {
			snprintf(err, errlen, "events[%zu].half: expected A, B or line", i);
			return -EINVAL;
		}
		return 0;
	case BD_EV_CUP:
		who = "owner";
		break;
	case BD_EV_CATCH:
		if (e->hands != 1 && e->hands != 2) {
			snprintf(err, errlen, "events[%zu].hands: %d is not 1 or 2", i, e->hands);
			return -EINVAL;
		}
		break;
	case BD_EV_KICK:
		if (!memchr(e->part, '\0', sizeof(e->part))) {
			snprintf(err, errlen, "events[%zu].part: longer than %zu bytes",
				 i, sizeof(e->part) - 1);
			return -EINVAL;
		}
		break;
	case BD_EV_LOW_CALL:
		/* The console may not know which defender called. */
		if (e->player == BD_NOBODY)
			return 0;
		break;
	case BD_EV_REST:
		if (e->face < 1 || e->face > 6) {
			snprintf(err, errlen, "events[%zu].face: %d is not 1..6", i, e->face);
			return -EINVAL;
		}
		return 0;
	case BD_EV_MINE:
	case BD_EV_FLOOR:
	case BD_EV_RETOSS:
		return 0;
	default:
		snprintf(err, errlen, "events[%zu]: unknown event kind %d", i, (int)e->kind);
		return -EINVAL;
	}
	if (!valid_player(e->player)) {
		snprintf(err, errlen, "events[%zu].%s: player %d is not 0..%d",
			 i, who, e->player, BD_PLAYERS - 1);
		return -EINVAL;
	}
	return 0;
}

static int check_throw(const struct bd_match_cfg *cfg, const struct bd_state *s,
		       const struct bd_throw *t, char *err, size_t errlen)
{
	int rc = bd_house_check(&cfg->house, err, errlen);

	if (rc < 0)
		return rc;
	if (cfg->first_team != BD_TEAM_A && cfg->first_team != BD_TEAM_B) {
		snprintf(err, errlen, "first_team: %d is not a team", cfg->first_team);
		return -EINVAL;
	}
	if (s->over) {
		snprintf(err, errlen, "the game is over");
		return -EINVAL;
	}
	if (t->thrower != BD_NOBODY && !valid_player(t->thrower)) {
		snprintf(err, errlen, "thrower: player %d is not 0..%d", t->thrower, BD_PLAYERS - 1);
		return -EINVAL;
	}
	if (t->apex_m != t->apex_m) {	/* NaN */
		snprintf(err, errlen, "apex_m: not a number");
		return -EINVAL;
	}
	if (t->apex_sd_m != t->apex_sd_m || t->apex_sd_m > 1e6) {	/* NaN, inf */
		snprintf(err, errlen, "apex_sd_m: not a finite number");
		return -EINVAL;
	}
	if (t->n_events > BD_MAX_EVENTS) {
		snprintf(err, errlen, "events: %zu events, at most %d", t->n_events, BD_MAX_EVENTS);
		return -EINVAL;
	}
	for (size_t i = 0; i < t->n_events; i++) {
		rc = check_event(&t->events[i], i, err, errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Reads the events up to the one that ends the die's flight; later ones
 * (a die already caught or on the floor, BD-T2) are ignored. */
static void read_flight(const struct judging *j, const struct bd_throw *t,
			struct flight *f)
{
	memset(f, 0, sizeof(*f));
	f->phase = PH_AIR;
	f->kicker = BD_NOBODY;
	for (size_t i = 0; i < t->n_events && f->end == END_NONE; i++) {
		const struct bd_event *e = &t->events[i];
		bool own;

		switch (e->kind) {
		case BD_EV_TABLE:
			if (f->phase == PH_AIR) {
				int half_team = e->half == BD_HALF_A ? BD_TEAM_A : BD_TEAM_B;

				if (e->half != BD_HALF_LINE && half_team == j->def)
					f->phase = PH_LIVE;
				else
					f->phase = f->kicked ? PH_KICKED_BACK : PH_SHORT;
				f->on_line = e->half == BD_HALF_LINE;
			} else if (f->phase == PH_LIVE) {
				int half_team = e->half == BD_HALF_A ? BD_TEAM_A : BD_TEAM_B;

				if (e->half == BD_HALF_LINE || half_team != j->def)
					f->bounced_back = true;
			}
			break;
		case BD_EV_CUP:
			own = BD_TEAM_OF(e->player) == j->att;
			if (f->phase == PH_AIR) {
				if (!own)
					f->phase = PH_LIVE;
				else
					f->phase = f->kicked ? PH_KICKED_BACK : PH_OWN_CUP;
			}
			if (f->phase == PH_LIVE)
				f->cup_hit = true;
			/* The match log writes a popout without "sink" (it
			 * refuses both), so popout alone decides. It is a cup
			 * hit (BD-R1a), or with popout_is_sink a sink the
			 * defenders may still catch (BD-R1): the die stays in
			 * play either way. */
			if (e->popout) {
				f->popped = true;
				if (j->cfg->house.popout_is_sink)
					f->popsink = e;
			} else if (e->sink) {
				f->end = END_SINK;
				f->last = e;
			}
			break;
		case BD_EV_MINE:
			f->mine = true;
			break;
		case BD_EV_FLOOR:
			f->end = END_FLOOR;
			f->last = e;
			break;
		case BD_EV_REST:
			f->end = END_REST;
			f->last = e;
			break;
		case BD_EV_CATCH:
			f->end = END_CATCH;
			f->last = e;
			break;
		case BD_EV_KICK:
			/* Only a defender's kick before the die touches the
			 * table counts, and never a thigh (BD-K3, BD-K3a). */
			if (f->phase != PH_AIR || BD_TEAM_OF(e->player) != j->def)
				break;
			if (strcasecmp(e->part, "thigh") == 0) {
				/* No FIFA point can follow a thigh, whatever was
				 * kicked before or after it: the die is judged as
				 * if nobody had kicked it (BD-K3a). */
				f->thigh = true;
				f->kicked = false;
				f->kicker = BD_NOBODY;
				f->kickers = 0;
				break;
			}
			if (f->thigh)
				break;
			f->kicked = true;
			f->kicker = e->player;
			f->kickers |= 1u << e->player;
			break;
		case BD_EV_LOW_CALL:
			if (f->phase == PH_AIR &&
			    (e->player == BD_NOBODY || BD_TEAM_OF(e->player) == j->def))
				f->low = true;
			break;
		case BD_EV_RETOSS:
			break;
		}
	}
}

/* The die reached the floor uncaught (or as good as: BD-P4a). */
static void score_floor(struct judging *j, const struct flight *f)
{
	switch (f->phase) {
	case PH_AIR:
		why(j, f->kicked ? W_K9 : W_P14);
		break;
	case PH_LIVE:
		j->sc[j->att] += f->cup_hit ? 2 : 1;
		if (f->kicked)
			why(j, f->cup_hit ? W_K6 : W_K5);
		else
			why(j, f->cup_hit ? W_P7 : W_P1);
		if (f->popped)
			why(j, W_R1A);
		if (f->bounced_back)
			why(j, W_P3);
		break;
	case PH_KICKED_BACK:
		why(j, W_K8);
		break;
	case PH_OWN_CUP:
	case PH_SHORT:
		why(j, W_P1);
		break;
	}
}

/* Nothing scores: says why, by where the die was. */
static void score_nothing(struct judging *j, const struct flight *f)
{
	switch (f->phase) {
	case PH_AIR:
		why(j, f->kicked ? W_K9 : W_P14);
		break;
	case PH_KICKED_BACK:
		why(j, W_K8);
		break;
	default:
		why(j, f->kicked ? W_K4 : W_P1);
		break;
	}
}

static void judge_sink(struct judging *j, const struct flight *f, bool dead)
{
	int owner = f->last->player;

	if (BD_TEAM_OF(owner) == j->att) {
		if (f->kicked) {
			/* The kicker sank it, not the thrower (BD-K8). */
			kill_n_fill(j, f->kicker, "BD-K8");
			why(j, W_K8);
			return;
		}
		j->pen[j->def] += 2;
		kill_n_fill(j, owner, "BD-P12");
		j->r->sunk[owner] = true;
		why(j, W_P12);
		return;
	}
	j->r->sunk[owner] = true;
	if (dead) {
		/* BD-R2 is the die short on the attackers' own half; any
		 * other dead throw's sink is BD-P13's. */
		bool short_half = f->phase == PH_SHORT && !f->on_line;

		kill_n_fill(j, owner, short_half ? "BD-R2" : "BD-P13");
		why(j, W_P13);
		if (short_half)
			why(j, W_R2);
		return;
	}
	switch (f->phase) {
	case PH_LIVE:
		j->sc[j->att] += 2;
		kill_n_fill(j, owner, f->kicked ? "BD-K7" : "BD-P8");
		why(j, f->kicked ? W_K7 : W_P8);
		break;
	case PH_KICKED_BACK:
		kill_n_fill(j, owner, "BD-K8");
		why(j, W_K8);
		break;
	default:	/* off the attackers' own cup and in: no landing (BD-R2) */
		kill_n_fill(j, owner, "BD-R2");
		why(j, W_R2);
		break;
	}
}

static void judge_catch(struct judging *j, const struct flight *f, bool dead)
{
	const struct bd_event *c = f->last;
	int catcher_team = BD_TEAM_OF(c->player);

	if (c->over_table) {
		/* Whatever else happened (BD-P10). */
		j->pen[BD_OTHER(catcher_team)] += 1;
		why(j, W_P10);
		return;
	}
	if (dead)
		return;
	if (catcher_team != j->def) {
		/* An attacker's catch keeps it off the floor. */
		score_nothing(j, f);
		return;
	}
	if (f->phase == PH_AIR && f->kicked) {
		/* "Kicked up by one defender and caught by the other": the
		 * catcher's partner must have kicked it. */
		if (f->kickers & ~(1u << c->player)) {
			j->sc[j->def] += 1;
			why(j, W_K1);
		} else {
			why(j, W_K9);
		}
		return;
	}
	if (f->phase != PH_LIVE) {
		score_nothing(j, f);
		return;
	}
	if (c->hands == 1 && !c->trapped) {
		why(j, W_P4);
		if (f->popped) {
			why(j, W_R1);
			if (!j->cfg->house.popout_is_sink)
				why(j, W_R1A);
		}
		if (f->kicked)
			why(j, W_K4);
		return;
	}
	if (j->cfg->house.illegal_catch_counts_as_floor) {
		why(j, W_P4A);
		score_floor(j, f);
	} else {
		j->sc[j->att] += 1;
		why(j, W_P4);
	}
}

static void judge_rest(struct judging *j, const struct flight *f, bool dead)
{
	if (f->last->face == 5) {
		kill_n_fill(j, j->thrower, "BD-O2");
		why(j, W_O2);
		return;
	}
	if (!dead)
		score_nothing(j, f);
}

/* BD-W2: each multiple of kill_every a team's score reaches or passes makes
 * both players of the other team kill n' fill. One per multiple: with a
 * small kill_every one throw can pass two, and BD-D1 merges them (and
 * says so). */
static void kill_at_multiples(struct judging *j, const int before[2], const int after[2])
{
	int k = j->cfg->house.kill_every;

	if (k <= 0)
		return;
	for (int team = 0; team < BD_TEAMS; team++) {
		int other = BD_OTHER(team);

		for (int n = before[team] / k; n < after[team] / k; n++) {
			kill_n_fill(j, other * 2, "BD-W2");
			kill_n_fill(j, other * 2 + 1, "BD-W2");
			why(j, W_W2);
		}
	}
}

/* BD-R1: what undoes a popout that the house counts as a sink: a legal
 * defenders' catch (BD-P4), or a catch over the table, which is BD-P10
 * whatever happened. Two hands, a trap or an attacker's hands do not. */
static bool saves_popout(const struct judging *j, const struct flight *f)
{
	const struct bd_event *c = f->last;

	if (f->end != END_CATCH)
		return false;
	if (c->over_table)
		return true;
	return BD_TEAM_OF(c->player) == j->def && c->hands == 1 && !c->trapped;
}

/* Whether doubt about e could change this throw's ruling. Only the events
 * up to the die's death decide it (the flight stops reading there), and of
 * the table contacts only the first: once the die has landed, later bounces
 * change nothing (BD-P3), and the first contact alone says live, short or
 * line (BD-P1, BD-P6). */
static bool is_doubtful(const struct bd_house *h, const struct bd_event *e)
{
	if (!e->has_confidence)
		return false;
	/* A line call is no special case: the line and the thrower's own
	 * half are both dead (BD-P6), so a line call at confidence c is
	 * dead with probability at least c, as sure of the ruling as any
	 * other event at c is of its half. */
	return e->confidence < h->review_below;
}

/* last: the event that killed the die as read_flight() found it, or NULL;
 * landing_decides: whether the first table contact's half can change the
 * ruling (not when the die is already dead by a low call, BD-P5). */
static bool needs_review(const struct bd_house *h, const struct bd_throw *t,
			 const struct bd_event *last, bool landing_decides)
{
	bool landed = false;	/* a table or cup contact came before */

	for (size_t i = 0; i < t->n_events; i++) {
		const struct bd_event *e = &t->events[i];
		bool deciding = e->kind != BD_EV_TABLE || (!landed && landing_decides);

		if (deciding && is_doubtful(h, e))
			return true;
		if (e->kind == BD_EV_TABLE || e->kind == BD_EV_CUP)
			landed = true;
		if (e == last)
			break;
	}
	return false;
}

static void finish_why(struct judging *j)
{
	struct bd_ruling *r = j->r;

	r->n_why = 0;
	for (int id = 0; id < W_COUNT && r->n_why < BD_MAX_WHY; id++)
		if (j->why & (UINT64_C(1) << id))
			r->why[r->n_why++] = why_text[id];
}

bool bd_low_auto(const struct bd_house *h, const struct bd_throw *t,
		 char *note, size_t notelen)
{
	double min = h->min_toss_height_m;
	bool low;

	if (note && notelen)
		note[0] = '\0';
	if (h->low_call != BD_LOW_AUTO || !(t->apex_m >= 0))
		return false;
	if (!(t->apex_sd_m > 0)) {
		/* No uncertainty given: the measurement is taken as exact. */
		if (t->apex_m >= min)
			return false;
		if (note && notelen)
			snprintf(note, notelen, "too low: the measured toss height, %.2f m, "
				 "is below the minimum, %.2f m (BD-P5)", t->apex_m, min);
		return true;
	}
	/* P(apex >= min) for an apex normal around apex_m: the same doubt
	 * threshold as any other call's confidence (review_below), but never
	 * under an even chance: a house that sends little to review (a low
	 * review_below) trusts its evidence more, and the evidence says a
	 * height measured below the minimum was too low ("if in doubt, it
	 * was too low", BD-P5; "every throw must go at least that high",
	 * BD-S7). */
	double doubt = h->review_below > 0.5 ? h->review_below : 0.5;
	double p_high = 0.5 * erfc((min - t->apex_m) / (t->apex_sd_m * M_SQRT2));

	low = p_high < doubt;
	if (low && note && notelen)
		snprintf(note, notelen, "too low: the measured toss height, %.2f m +- %.2f, "
			 "is not surely above the minimum, %.2f m (P %.2f < %.2f, BD-P5)",
			 t->apex_m, t->apex_sd_m, min, p_high, doubt);
	return low;
}

int bd_judge(const struct bd_match_cfg *cfg, const struct bd_state *s,
	     const struct bd_throw *t, struct bd_ruling *r,
	     char *err, size_t errlen)
{
	const struct bd_house *h = &cfg->house;
	struct judging j = { .cfg = cfg, .s = s, .r = r };
	struct flight f;
	int rc = check_throw(cfg, s, t, err, errlen);

	if (rc < 0)
		return rc;
	memset(r, 0, sizeof(*r));
	j.thrower = t->thrower != BD_NOBODY ? t->thrower : bd_next_thrower(s, cfg);
	j.att = BD_TEAM_OF(j.thrower);
	j.def = BD_OTHER(j.att);
	r->throw_no = s->n_throws + 1;
	r->thrower = j.thrower;
	r->team = j.att;
	r->score[0] = s->score[0];
	r->score[1] = s->score[1];
	r->winner = BD_NOBODY;

	for (size_t i = 0; i < t->n_events; i++) {
		if (t->events[i].kind == BD_EV_RETOSS) {
			/* Void: no points, no duties, same thrower (BD-P9);
			 * only a doubt about the re-toss itself matters. */
			r->retoss = true;
			r->review = is_doubtful(h, &t->events[i]);
			why(&j, W_P9);
			finish_why(&j);
			return 0;
		}
	}

	read_flight(&j, t, &f);
	bool auto_low = bd_low_auto(h, t, r->note, sizeof(r->note));
	/* Dead by a low call before it landed (BD-P5), the throw scores
	 * nothing wherever it landed: the landing's half names only the
	 * reason of a sink's kill n' fill (BD-R2 or BD-P13), so it still
	 * decides when the die went into a cup. A doubtful low call is
	 * itself a deciding event. */
	bool landing_decides = !(f.low || auto_low) || f.end == END_SINK || f.popsink;

	r->review = needs_review(h, t, f.last, landing_decides);
	if (f.popsink && f.end != END_SINK && !saves_popout(&j, &f)) {
		/* Not caught: the popout was a sink after all (BD-R1a's
		 * house rule). */
		f.end = END_SINK;
		f.last = f.popsink;
	}
	bool dead = f.low || auto_low || f.phase == PH_SHORT;

	r->dead = dead;
	r->fifa = f.kicked;
	if (f.low || auto_low)
		why(&j, W_P5);
	else if (f.phase == PH_SHORT)
		why(&j, W_P6);
	if (f.thigh)
		why(&j, W_K3A);

	switch (f.end) {
	case END_SINK:
		judge_sink(&j, &f, dead);
		break;
	case END_CATCH:
		judge_catch(&j, &f, dead);
		break;
	case END_FLOOR:
		if (!dead)
			score_floor(&j, &f);
		break;
	case END_REST:
		judge_rest(&j, &f, dead);
		break;
	case END_NONE:
		if (!dead)
			score_nothing(&j, &f);
		break;
	}

	/* What stops the throw from scoring; penalties stay (BD-P2a). */
	bool voided = dead;

	if (!t->dye_up) {
		/* "Cannot score any points": the defenders' FIFA point is
		 * scored by the throw too; only penalties stay (BD-P2a). */
		j.sc[0] = j.sc[1] = 0;
		why(&j, W_P2);
		voided = true;
	}
	if (f.mine) {
		duty(&j, BD_DUTY_SHOTGUN, j.thrower, j.att, "BD-O1");
		why(&j, W_O1);
		if (h->mine_voids_points) {
			j.sc[0] = j.sc[1] = 0;
			why(&j, W_O1A);
			voided = true;
		}
	}
	if (voided && (j.pen[0] || j.pen[1]))
		why(&j, W_P2A);
	if (f.kicked && h->fifa_cannot_end_game && (j.sc[0] || j.sc[1])) {
		int with[2], without[2];

		for (int team = 0; team < BD_TEAMS; team++) {
			without[team] = s->score[team] + j.pen[team];
			with[team] = without[team] + j.sc[team];
		}
		if (bd_score_over(h, with) && !bd_score_over(h, without)) {
			j.sc[0] = j.sc[1] = 0;
			why(&j, W_K2A);
		}
	}

	for (int team = 0; team < BD_TEAMS; team++) {
		r->points[team] = j.sc[team] + j.pen[team];
		r->score[team] = s->score[team] + r->points[team];
	}
	kill_at_multiples(&j, s->score, r->score);
	for (int p = 0; p < BD_PLAYERS; p++) {
		if (s->must_follow[p] && r->points[BD_OTHER(BD_TEAM_OF(p))] > 0) {
			duty(&j, BD_DUTY_FOLLOW_PARTNER, p, BD_TEAM_OF(p), "BD-P11");
			why(&j, W_P11);
		}
	}
	if (bd_score_over(h, r->score)) {
		r->over = true;
		r->winner = r->score[BD_TEAM_A] > r->score[BD_TEAM_B] ? BD_TEAM_A : BD_TEAM_B;
		why(&j, W_W1);
	}
	finish_why(&j);
	return 0;
}
