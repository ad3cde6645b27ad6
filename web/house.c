/* web house rules: the table of what a START's "house" may set (GET
 * /api/house lists it), a rule's value, and the parser of "house". */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "web/internal.h"
#include "web/web.h"

/* Every field of struct bd_house, as START's "house" and GET /api/house
 * name them; the ranges are web_parse_house()'s. */
static const struct web_house_rule house_rules[] = {
	{ "target_points", "int", 1, 99, "BD-W1", "Points to win the game" },
	{ "win_by", "int", 1, 10, "BD-W1", "Lead the winner needs at the end" },
	{ "kill_every", "int", 0, 99, "BD-W2",
	  "Kill n' fill each time a score passes a multiple of this (0: never)" },
	{ "min_toss_height_m", "number", 0, 20, "BD-S7", "Lowest legal toss, metres" },
	{ "low_call", "enum", 0, 0, "BD-P5",
	  "Who calls a throw too low: the defenders (manual) or the referee from the measured height (auto)" },
	{ "illegal_catch_counts_as_floor", "bool", 0, 1, "BD-P4a",
	  "A two-handed or trapped catch scores as if the die reached the floor" },
	{ "fifa_cannot_end_game", "bool", 0, 1, "BD-K2a",
	  "Points from a kick cannot end the game" },
	{ "popout_is_sink", "bool", 0, 1, "BD-R1a",
	  "A die that bounces back out of a cup counts as a sink" },
	{ "mine_voids_points", "bool", 0, 1, "BD-O1a",
	  "A throw that hits the mine scores nothing" },
	{ "review_below", "number", 0, 1, "",
	  "Ask an official when the deciding evidence is less sure than this (0-1)" },
};

const struct web_house_rule *web_house_rules(size_t *n)
{
	*n = sizeof(house_rules) / sizeof(house_rules[0]);
	return house_rules;
}

json_t *web_house_value(const struct bd_house *h, const char *key)
{
	if (!strcmp(key, "target_points"))
		return json_integer(h->target_points);
	if (!strcmp(key, "win_by"))
		return json_integer(h->win_by);
	if (!strcmp(key, "kill_every"))
		return json_integer(h->kill_every);
	if (!strcmp(key, "min_toss_height_m"))
		return json_real(h->min_toss_height_m);
	if (!strcmp(key, "low_call"))
		return json_string(h->low_call == BD_LOW_AUTO ? "auto" : "manual");
	if (!strcmp(key, "illegal_catch_counts_as_floor"))
		return json_boolean(h->illegal_catch_counts_as_floor);
	if (!strcmp(key, "fifa_cannot_end_game"))
		return json_boolean(h->fifa_cannot_end_game);
	if (!strcmp(key, "popout_is_sink"))
		return json_boolean(h->popout_is_sink);
	if (!strcmp(key, "mine_voids_points"))
		return json_boolean(h->mine_voids_points);
	if (!strcmp(key, "review_below"))
		return json_real(h->review_below);
	return NULL;
}

int web_parse_house(const json_t *h, struct bd_house *house, char *err, size_t errlen)
{
	double target = house->target_points, win_by = house->win_by, kill = house->kill_every;
	const json_t *v;
	const char *key;

	if (!json_is_object(h)) {
		snprintf(err, errlen, "house: expected an object");
		return -EINVAL;
	}
	json_object_foreach((json_t *)h, key, v) {
		bool ok = false;

		(void)v;
		for (size_t k = 0; k < sizeof(house_rules) / sizeof(house_rules[0]); k++)
			ok |= !strcmp(key, house_rules[k].key);
		if (!ok) {
			snprintf(err, errlen, "house.%.40s: unknown house rule", key);
			return -EINVAL;
		}
	}
	if (web_get_number(h, "target_points", 1, 99, NULL, &target, err, errlen) ||
	    web_get_number(h, "win_by", 1, 10, NULL, &win_by, err, errlen) ||
	    web_get_number(h, "kill_every", 0, 99, NULL, &kill, err, errlen) ||
	    web_get_number(h, "min_toss_height_m", 0, 20, NULL, &house->min_toss_height_m, err, errlen) ||
	    web_get_number(h, "review_below", 0, 1, NULL, &house->review_below, err, errlen) ||
	    web_get_bool(h, "illegal_catch_counts_as_floor", &house->illegal_catch_counts_as_floor,
		     err, errlen) ||
	    web_get_bool(h, "fifa_cannot_end_game", &house->fifa_cannot_end_game, err, errlen) ||
	    web_get_bool(h, "popout_is_sink", &house->popout_is_sink, err, errlen) ||
	    web_get_bool(h, "mine_voids_points", &house->mine_voids_points, err, errlen))
		goto bad;
	if (target != floor(target) || win_by != floor(win_by) || kill != floor(kill)) {
		snprintf(err, errlen, "house: target_points, win_by, kill_every are whole numbers");
		return -EINVAL;
	}
	house->target_points = (int)target;
	house->win_by = (int)win_by;
	house->kill_every = (int)kill;
	v = json_object_get(h, "low_call");
	if (v) {
		if (json_is_string(v) && !strcmp(json_string_value(v), "manual"))
			house->low_call = BD_LOW_MANUAL;
		else if (json_is_string(v) && !strcmp(json_string_value(v), "auto"))
			house->low_call = BD_LOW_AUTO;
		else {
			snprintf(err, errlen, "house.low_call: expected manual or auto");
			return -EINVAL;
		}
	}
	return 0;
bad:
	{
		char why[160];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "house.%s", why);
	}
	return -EINVAL;
}
