/*
 * tourn/ private (tourn/tourn.h is the module's one public header): the
 * tournament's state and what its files share.
 *   tourn.c      checks, the fold of the results over the slots, the
 *                public functions
 *   brackets.c   each format's slots and their sources: the elimination
 *                brackets, the league rounds
 *   standings.c  the standings of the decided matches, tie-breaks and all
 *   swiss.c      a Swiss round's pairing (Edmonds' blossom check) and its
 *                placing in the round's slots
 */
#ifndef DYEREF_TOURN_INTERNAL_H
#define DYEREF_TOURN_INTERNAL_H

#include <stdbool.h>

#include "tourn/tourn.h"

enum src_kind { SRC_TEAM, SRC_WINNER, SRC_LOSER, SRC_SET };

struct src {
	enum src_kind kind;
	int v;			/* TEAM: team or TOURN_BYE; WINNER, LOSER: match id */
};

struct slot {
	struct tourn_match m;	/* what the last fold made of it */
	struct src src[2];	/* SET: the fold sets the teams (league, reset) */
	int out_stage;		/* elimination: the stage its loser goes out at; -1 stays in */
};

struct result {
	bool has;
	int team[2];		/* the teams it was entered for */
	int score[2];
};

struct tourn {
	enum tourn_format format;
	int n;			/* teams */
	int rounds;		/* league rounds */
	int per_round;		/* league: matches per round */
	int gf;			/* double elimination: the grand final's id (the reset is gf + 1) */
	int final_stage;	/* double elimination: the stage the grand final's loser goes out at */
	char (*names)[TOURN_NAME_MAX];
	int n_matches;
	struct slot *s;
	struct result *r;
	int *stage;		/* per team: elimination stage it went out at, INT_MAX still in */
	struct tourn_standing *table;	/* the standings of the last fold */
	bool done;
	int winner;
	/* Scratch for the fold (so a result never fails for memory). */
	struct tourn_standing *rows;	/* n */
	int *group;		/* n: per team, its group in the standings sort */
	unsigned char *met;	/* (n + 1)^2: teams that met; index n is the bye */
	int *order;		/* n + 1 */
	bool *used;		/* n + 1 */
	int *pairs;		/* 2 * per_round */
	int *bl;		/* 7 * (n + 1): the blossom algorithm's arrays */
	/* Swiss: each round's pairs, kept until a result before the round changes
	 * (they depend on nothing else), so a fold pairs only what it must. */
	int *cache;		/* rounds * 2 * per_round */
	bool *cached;		/* rounds */
};

static inline bool tourn_is_elim(const struct tourn *t)
{
	return t->format == TOURN_SINGLE || t->format == TOURN_DOUBLE;
}

/* t->s (allocated here) and t->n_matches for an elimination format, with
 * every slot's sources: 0 or -ENOMEM (brackets.c). */
int tourn_build_elim(struct tourn *t);

/* t->s, t->n_matches and t->per_round (t->rounds too, for round robin)
 * for a league format; round robin's teams fixed, Swiss's left to the
 * fold: 0 or -ENOMEM (brackets.c). */
int tourn_build_league(struct tourn *t);

/* The standings from the decided matches with id < limit, into rows
 * (t->n of them), sorted; uses t->rows and t->group (standings.c). */
void tourn_rank(struct tourn *t, int limit, struct tourn_standing *rows);

/* Round r's pairs into t->pairs (the bye last, as (team, TOURN_BYE)), from
 * the decided rounds before it. False when none exists (not with the
 * rounds tourn_new allows) (swiss.c). */
bool tourn_swiss_pair(struct tourn *t, int r);

/* Puts round r's pairs (t->pairs) in its slots: a pair whose result is
 * kept takes that match back (as it was entered), the others fill the
 * rest in order (swiss.c). */
void tourn_swiss_place(struct tourn *t, int r);

#endif /* DYEREF_TOURN_INTERNAL_H */
