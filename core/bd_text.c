/* Beer Die rule texts: one short sentence per rule ID, the wording of
 * docs/beer-die-rules.md shortened, for the scoreboard. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"

static const struct {
	const char *id;
	const char *text;
} rules[] = {
	{ "BD-S1", "The table is 8 ft by 4 ft plywood, 3 to 3.5 ft high, with a centre line; each team's half is at its end." },
	{ "BD-S2", "Four cups, one in each corner, each belonging to one player." },
	{ "BD-S3", "The game uses two dice." },
	{ "BD-S4", "Four players in two teams of two." },
	{ "BD-S5", "Every player fills their cup with a whole beer before the game." },
	{ "BD-S6", "A full can, the mine, stands in the middle of the table." },
	{ "BD-S7", NULL },	/* house_text() */
	{ "BD-F1", "A rolled die decides who starts: the team that calls high (4-6) or low (1-3) right throws first." },
	{ "BD-T1", "One player throws at a time; a team's turn is one throw by each of its players." },
	{ "BD-T2", "The next die is thrown once the last one is dead and the defenders are ready." },
	{ "BD-T3", "The order is fixed: first team's 1st and 2nd player, then the other team's; a re-toss repeats the thrower." },
	{ "BD-W1", NULL },	/* house_text() */
	{ "BD-W2", NULL },	/* house_text() */
	{ "BD-W3", "The losers drink what the winners have left in their cups." },
	{ "BD-W4", "A team that loses with 0 points runs a naked lap." },
	{ "BD-P1", "A die that lands on the defenders' half and reaches the floor uncaught scores 1." },
	{ "BD-P2", "Without \"DYE UP!\" the throw scores nothing; every other rule still applies." },
	{ "BD-P2a", "Penalties (BD-P10, BD-P12) still apply when a throw cannot score." },
	{ "BD-P3", "After landing on the defenders' half the die may leave the table anywhere and still score." },
	{ "BD-P4", "Only a one-handed catch in free air by a defender stops the point." },
	{ "BD-P4a", "A two-handed or trapped catch counts as not caught: the throw scores as if it reached the floor." },
	{ "BD-P5", "A defender's \"low\" call before the die hits the table makes the throw dead." },
	{ "BD-P6", "A throw that first lands on the thrower's own half or the centre line is dead." },
	{ "BD-P7", "A cup hit that reaches the floor uncaught scores 2." },
	{ "BD-P8", "A sink scores 2 and the sunk player kills n' fills." },
	{ "BD-P9", "A disputed call means a re-toss: the throw is void and the same player throws again." },
	{ "BD-P10", "Catching the die over the table gives the catcher's opponents 1 point." },
	{ "BD-P11", "A sunk player follows their partner's level on the opponents' next point." },
	{ "BD-P12", "Sinking your own team's cup gives the opponents 2 and the sunk player kills n' fills." },
	{ "BD-P13", "A dead throw scores nothing, but a sunk cup's owner still kills n' fills." },
	{ "BD-P14", "A throw that never touches the table and is not kicked scores nothing." },
	{ "BD-K1", "Kicked by one defender and caught by the other: 1 point to the defenders." },
	{ "BD-K2", "A game can be neither won nor lost with a FIFA." },
	{ "BD-K2a", "Points from a kick are not awarded when they would end the game." },
	{ "BD-K3", "Any body part but the thigh may kick." },
	{ "BD-K3a", "A thigh kick does not count: the die is judged as if not kicked." },
	{ "BD-K4", "A kicked die stays live: every other rule still applies." },
	{ "BD-K5", "Kicked, then onto the defenders' half and off uncaught: 1 to the attackers." },
	{ "BD-K6", "Kicked, then off a defenders' cup to the floor: 2 to the attackers." },
	{ "BD-K7", "Kicked into a defenders' cup: a sink, 2 to the attackers." },
	{ "BD-K8", "Kicked onto the attackers' half or cup: no points; sinking their cup makes the kicker kill n' fill." },
	{ "BD-K9", "A kicked die caught by the kicker, or on the floor without touching the table, scores nothing." },
	{ "BD-O1", "A die that hits the mine makes the thrower shotgun it and scores nothing." },
	{ "BD-O1a", "A mine hit voids all points but penalties; duties from sinks and fives still apply." },
	{ "BD-O2", "A die at rest on the table showing five makes the thrower kill n' fill." },
	{ "BD-R1", "A die that bounces out of a cup may still be caught by the defenders." },
	{ "BD-R1a", "A die that bounces out of a cup is a cup hit, not a sink." },
	{ "BD-R2", "Landing on the attackers' half, then sinking a defenders' cup: no points, but the owner kills n' fills." },
	{ "BD-D1", "Several kill n' fills for one player from one throw are one." },
};

/* The rules whose sentence states a house rule's value: the match's own,
 * so a match to 3 points does not read "10" (RULES.md, "House rules"). */
static void house_text(const char *id, const struct bd_house *h, char *buf, size_t len)
{
	if (strcmp(id, "BD-S7") == 0)
		snprintf(buf, len, "Every throw must reach the agreed minimum height (%g m).",
			 h->min_toss_height_m);
	else if (strcmp(id, "BD-W1") == 0 && h->win_by == 1)
		snprintf(buf, len, "The first team to %d point%s with the lead wins.",
			 h->target_points, h->target_points == 1 ? "" : "s");
	else if (strcmp(id, "BD-W1") == 0)
		snprintf(buf, len, "The game goes to %d point%s and must be won by %d.",
			 h->target_points, h->target_points == 1 ? "" : "s", h->win_by);
	else if (h->kill_every == 0)	/* BD-W2 from here */
		snprintf(buf, len, "No kill n' fill for reaching a score in this match.");
	else
		snprintf(buf, len, "Each time a team reaches or passes a multiple of %d, "
			 "both opponents kill n' fill.", h->kill_every);
}

const char *bd_rule_text(const char *id, const struct bd_house *h, char *buf, size_t len)
{
	struct bd_house defaults;

	if (len)
		buf[0] = '\0';
	if (!id)
		return NULL;
	if (!h) {
		bd_house_defaults(&defaults);
		h = &defaults;
	}
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (strcmp(rules[i].id, id) != 0)
			continue;
		if (rules[i].text)
			snprintf(buf, len, "%s", rules[i].text);
		else
			house_text(id, h, buf, len);
		return buf;
	}
	return NULL;
}

size_t bd_rule_count(void)
{
	return sizeof(rules) / sizeof(rules[0]);
}

const char *bd_rule_id(size_t i)
{
	return i < bd_rule_count() ? rules[i].id : NULL;
}
