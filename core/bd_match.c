/* Beer Die match: house rules, roll-off, throwing order, state, fold, final
 * (BD-F1, BD-T3, BD-W1, BD-W3, BD-W4, BD-P11). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

void bd_house_defaults(struct bd_house *h)
{
	h->target_points = 10;
	h->win_by = 2;
	h->kill_every = 5;
	h->min_toss_height_m = 3.0;
	h->low_call = BD_LOW_MANUAL;
	h->illegal_catch_counts_as_floor = true;
	h->fifa_cannot_end_game = true;
	h->popout_is_sink = false;
	h->mine_voids_points = true;
	h->review_below = 0.8;
}

int bd_house_check(const struct bd_house *h, char *err, size_t errlen)
{
	/* Bounds keep every score and multiple far from int overflow, whatever
	 * a hostile config says. */
	if (h->target_points < 1 || h->target_points > 1000) {
		snprintf(err, errlen, "house.target_points: %d is not 1..1000", h->target_points);
		return -EINVAL;
	}
	if (h->win_by < 1 || h->win_by > 100) {
		snprintf(err, errlen, "house.win_by: %d is not 1..100", h->win_by);
		return -EINVAL;
	}
	/* 0 turns kill n' fill off (the "no kill at 5" variant). */
	if (h->kill_every < 0 || h->kill_every > 1000) {
		snprintf(err, errlen, "house.kill_every: %d is not 0..1000", h->kill_every);
		return -EINVAL;
	}
	if (!(h->min_toss_height_m >= 0 && h->min_toss_height_m <= 20)) {
		snprintf(err, errlen, "house.min_toss_height_m: %g is not 0..20 metres",
			 h->min_toss_height_m);
		return -EINVAL;
	}
	if (h->low_call != BD_LOW_MANUAL && h->low_call != BD_LOW_AUTO) {
		snprintf(err, errlen, "house.low_call: expected manual or auto");
		return -EINVAL;
	}
	if (!(h->review_below >= 0 && h->review_below <= 1)) {
		snprintf(err, errlen, "house.review_below: %g is not 0..1", h->review_below);
		return -EINVAL;
	}
	return 0;
}

bool bd_score_over(const struct bd_house *h, const int score[2])
{
	for (int team = 0; team < BD_TEAMS; team++) {
		int lead = score[team] - score[BD_OTHER(team)];

		if (score[team] >= h->target_points && lead >= h->win_by)
			return true;
	}
	return false;
}

void bd_match_cfg_init(struct bd_match_cfg *cfg)
{
	static const char *const names[BD_PLAYERS] = { "a1", "a2", "b1", "b2" };

	memset(cfg, 0, sizeof(*cfg));
	for (int p = 0; p < BD_PLAYERS; p++)
		snprintf(cfg->players[p], sizeof(cfg->players[p]), "%s", names[p]);
	cfg->first_team = BD_TEAM_A;
	bd_house_defaults(&cfg->house);
}

int bd_rolloff_winner(int value, int calling_team, bool called_high)
{
	bool high = value >= 4;

	if (value < 1 || value > 6)
		return -EINVAL;
	if (calling_team != BD_TEAM_A && calling_team != BD_TEAM_B)
		return -EINVAL;
	return high == called_high ? calling_team : BD_OTHER(calling_team);
}

void bd_state_init(struct bd_state *s, const struct bd_match_cfg *cfg)
{
	(void)cfg;
	memset(s, 0, sizeof(*s));
	s->winner = BD_NOBODY;
}

int bd_next_thrower(const struct bd_state *s, const struct bd_match_cfg *cfg)
{
	/* One turn is one throw by each player of a team (BD-T1); teams
	 * alternate, the roll-off winner first (BD-T3). */
	int first = cfg->first_team == BD_TEAM_B ? BD_TEAM_B : BD_TEAM_A;
	int pos = (s->slot % BD_PLAYERS + BD_PLAYERS) % BD_PLAYERS;

	/* "A re-toss repeats the same thrower" (BD-T3): the one who threw
	 * the void throw, though an official named another than the order's. */
	if (s->retoss_due)
		return s->retoss_thrower;
	int team = pos < 2 ? first : BD_OTHER(first);

	return team * 2 + pos % 2;
}

void bd_apply(struct bd_state *s, const struct bd_match_cfg *cfg,
	      const struct bd_ruling *r)
{
	(void)cfg;
	s->n_throws++;
	s->retoss_due = r->retoss;
	if (r->retoss) {
		s->retoss_thrower = r->thrower;	/* throws again (BD-P9) */
		return;
	}
	s->slot++;
	s->score[0] = r->score[0];
	s->score[1] = r->score[1];
	s->over = r->over;
	s->winner = r->winner;
	for (size_t i = 0; i < r->n_duties; i++) {
		const struct bd_duty *d = &r->duties[i];

		if (d->kind == BD_DUTY_FOLLOW_PARTNER && d->player >= 0 && d->player < BD_PLAYERS)
			s->must_follow[d->player] = false;
	}
	/* Set after clearing: a player sunk again on the throw that made them
	 * follow owes the next follow too. */
	for (int p = 0; p < BD_PLAYERS; p++)
		if (r->sunk[p])
			s->must_follow[p] = true;
}

int bd_fold(const struct bd_match_cfg *cfg, const struct bd_throw *throws,
	    size_t n, struct bd_state *s, struct bd_ruling *rulings,
	    size_t *bad, char *err, size_t errlen)
{
	bd_state_init(s, cfg);
	for (size_t i = 0; i < n; i++) {
		int rc = bd_judge(cfg, s, &throws[i], &rulings[i], err, errlen);

		if (rc < 0) {
			if (bad)
				*bad = i;
			return rc;
		}
		bd_apply(s, cfg, &rulings[i]);
	}
	return 0;
}

void bd_final(const struct bd_match_cfg *cfg, const struct bd_state *s,
	      struct bd_final *f)
{
	(void)cfg;
	memset(f, 0, sizeof(*f));
	f->score[0] = s->score[0];
	f->score[1] = s->score[1];
	f->over = s->over;
	f->winner = s->over ? s->winner : BD_NOBODY;
	if (!s->over || (s->winner != BD_TEAM_A && s->winner != BD_TEAM_B))
		return;

	int loser = BD_OTHER(s->winner);

	f->duties[f->n_duties++] = (struct bd_duty){
		.kind = BD_DUTY_FINISH_WINNERS_CUPS, .player = BD_NOBODY,
		.team = loser, .why = "BD-W3",
	};
	if (s->score[loser] == 0)
		f->duties[f->n_duties++] = (struct bd_duty){
			.kind = BD_DUTY_NAKED_LAP, .player = BD_NOBODY,
			.team = loser, .why = "BD-W4",
		};
}

const char *bd_duty_name(enum bd_duty_kind kind)
{
	switch (kind) {
	case BD_DUTY_KILL_N_FILL: return "kill_n_fill";
	case BD_DUTY_FOLLOW_PARTNER: return "follow_partner";
	case BD_DUTY_SHOTGUN: return "shotgun";
	case BD_DUTY_FINISH_WINNERS_CUPS: return "finish_winners_cups";
	case BD_DUTY_NAKED_LAP: return "naked_lap";
	}
	return "unknown";
}
