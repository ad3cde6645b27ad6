/* [sensors] and [table] of the configuration file, into a sens_config. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/inputs.h"
#include "sensors/sensors.h"

#define MAX_FLOOR 4

static const char *const cup_keys[BD_PLAYERS] = { "cup_a1", "cup_a2", "cup_b1", "cup_b2" };

/* Button keys: button_CALL_END, CALL a sens_call_name(), END a or b. */
#define BUTTON_KEY_MAX 24

static void button_key(enum sens_call call, int team, char key[BUTTON_KEY_MAX])
{
	snprintf(key, BUTTON_KEY_MAX, "button_%s_%c", sens_call_name(call), team == BD_TEAM_A ? 'a' : 'b');
}

/* Every [sensors] key beginning with "button_" must be a button or one
 * of its timings: a misspelt button would otherwise just never call. */
static int check_button_keys(struct dd_config *cfg, char *err, size_t errlen)
{
	for (size_t i = 0; i < cfg->n; i++) {
		const struct dd_config_entry *e = &cfg->entries[i];
		char key[BUTTON_KEY_MAX];
		bool known = !strcmp(e->key, "button_debounce_ms") || !strcmp(e->key, "button_repeat_ms");

		if (strcmp(e->section, "sensors") || strncmp(e->key, "button_", 7))
			continue;
		for (int c = 0; c < SENS_CALLS && !known; c++)
			for (int t = BD_TEAM_A; t <= BD_TEAM_B && !known; t++) {
				button_key((enum sens_call)c, t, key);
				known = !strcmp(e->key, key);
			}
		if (!known) {
			snprintf(err, errlen, "%s:%d: sensors.%s: not a button: expected button_CALL_END "
				 "with CALL low, retoss, catch1 or catch2 and END a or b", cfg->path,
				 e->line, e->key);
			return -EINVAL;
		}
	}
	return 0;
}

/* A double key into *v when present; 0 absent or read, -EINVAL bad. */
static int opt_double(struct dd_config *cfg, const char *sec, const char *key, double min,
		      double max, double scale, double *v, char *err, size_t errlen)
{
	double d;
	int rc = dd_config_get_double(cfg, sec, key, min, max, &d, err, errlen);

	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return rc;
	*v = d * scale;
	return 0;
}

/* table0..3 default to the reference diamond (sens_config_defaults: 5 cm
 * in from the middle of each edge) on a table of this size. */
static void diamond(const struct bd_table *t, size_t i, double *x, double *y)
{
	const double in = 0.05;
	const double dx[4] = { in, t->length_m / 2, t->length_m - in, t->length_m / 2 };
	const double dy[4] = { t->width_m / 2, in, t->width_m / 2, t->width_m - in };

	*x = dx[i];
	*y = dy[i];
}

struct named_line {
	const char *key;	/* config key naming the offset */
	int line;		/* its line in the file */
	int pos_line;		/* TABLE: the later of its _x and _y keys' lines, or 0 */
};

/* Adds one line if its key is present: 1, or 0 when absent. A bad
 * offset is -EINVAL with the message in err, the line added all the same
 * (at offset 0) so that its position keys are read and claimed. */
static int add_line(struct dd_config *cfg, struct sens_config *out, struct named_line *where,
		    const char *key, enum sens_role role, int owner, char *err, size_t errlen)
{
	struct sens_line_cfg *l;
	long off = 0;
	int rc = dd_config_get_int(cfg, "sensors", key, 0, SENS_MAX_OFFSET, &off, err, errlen);

	if (rc == -ENOENT)
		return 0;
	l = &out->lines[out->n_lines];
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", key);
	l->role = role;
	l->offset = (unsigned)off;
	l->owner = owner;
	dd_config_get(cfg, "sensors", key, &where[out->n_lines].line);
	where[out->n_lines].key = key;
	out->n_lines++;
	return rc < 0 ? rc : 1;
}

/* The keys that set each item of sens_config_check_at(). */
static const struct {
	enum sens_cfg_item item;
	const char *section;
	const char *keys[3];	/* NULL-padded */
} item_keys[] = {
	{ SENS_CFG_TABLE, "table", { "length_m", "width_m", "line_width_m" } },
	{ SENS_CFG_NOISE, "sensors", { "wave_speed", "speed_spread", "timing_sigma_us" } },
	{ SENS_CFG_HOLDOFF, "sensors", { "hold_off_ms" } },
	{ SENS_CFG_NEAR_LINE, "sensors", { "near_line_p", "near_line_cm" } },
	{ SENS_CFG_SILENT, "sensors", { "silent_after_s" } },
	{ SENS_CFG_BUTTONS, "sensors", { "button_debounce_ms", "button_repeat_ms" } },
};

/* The line of the file that set item: the later of its keys the file
 * has (the one that made the pair disagree), or 0 when it has none. */
static int item_line(struct dd_config *cfg, enum sens_cfg_item item)
{
	int last = 0;

	for (size_t i = 0; i < sizeof(item_keys) / sizeof(item_keys[0]); i++) {
		if (item_keys[i].item != item)
			continue;
		for (size_t k = 0; k < sizeof(item_keys[i].keys) / sizeof(item_keys[i].keys[0]) &&
		     item_keys[i].keys[k]; k++) {
			int line = 0;

			if (dd_config_get(cfg, item_keys[i].section, item_keys[i].keys[k], &line) &&
			    line > last)
				last = line;
		}
	}
	return last;
}

/* Every key is read even after a bad one, so that --check-config names
 * that one alone and no later key of the section as unknown; the checks
 * across keys wait until each key has read cleanly. */
int dd_sensors_config_load(struct dd_config *cfg, struct sens_config *out, char *err, size_t errlen)
{
	static const char *const table_keys[SENS_MAX_TABLE] = {
		"table0", "table1", "table2", "table3", "table4", "table5", "table6", "table7" };
	static const char *const floor_keys[MAX_FLOOR] = { "floor0", "floor1", "floor2", "floor3" };
	struct named_line where[SENS_MAX_LINES] = { 0 };
	struct sens_config def;
	const char *v;
	int line = 0, rc, first = 0, any = 0;
	char why[512];
	double us;
	const struct {
		const char *key;
		double min, max, scale;	/* scale: the key's unit into *at's */
		double *at;
	} numbers[] = {
		{ "wave_speed", 50, 5000, 1, &out->wave_speed_mps },
		{ "speed_spread", 0.001, 0.5, 1, &out->speed_spread },
		{ "timing_sigma_us", 0.1, 10000, 1e-6, &out->timing_sigma_s },
		{ "hold_off_ms", 0, 1000, 1e-3, &out->holdoff_s },
		{ "near_line_p", 0.51, 0.9999, 1, &out->near_line_p },
		{ "near_line_cm", 0, 50, 0.01, &out->near_line_m },
		{ "silent_after_s", 1, 1e7, 1, &out->silent_after_s },
		{ "button_debounce_ms", 0, 1000, 1e-3, &out->button_debounce_s },
		{ "button_repeat_ms", 0, 10000, 1e-3, &out->button_repeat_s },
	};

	sens_config_defaults(&def);
	sens_config_defaults(out);

	/* [table] first: sensor positions are checked against it. */
	struct bd_table *t = &out->table;
	rc = opt_double(cfg, "table", "length_m", 0.5, 10, 1, &t->length_m, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = opt_double(cfg, "table", "width_m", 0.3, 5, 1, &t->width_m, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = opt_double(cfg, "table", "height_m", 0.3, 2, 1, &t->height_m, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	rc = opt_double(cfg, "table", "line_width_m", 0, 0.3, 1, &t->line_width_m, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);
	/* Cups and the mine keep their places relative to the corners and
	 * the centre when the table is another size. */
	for (int i = 0; i < BD_PLAYERS; i++) {
		if (def.table.cup_x[i] > def.table.length_m / 2)
			t->cup_x[i] = t->length_m - (def.table.length_m - def.table.cup_x[i]);
		if (def.table.cup_y[i] > def.table.width_m / 2)
			t->cup_y[i] = t->width_m - (def.table.width_m - def.table.cup_y[i]);
	}
	t->mine_x = t->length_m / 2;
	t->mine_y = t->width_m / 2;

	v = dd_config_get(cfg, "sensors", "chip", &line);
	if (v && (!*v || strlen(v) >= sizeof(out->chip) || strchr(v, ' '))) {
		snprintf(why, sizeof(why), "%s:%d: sensors.chip: expected a chip name like gpiochip0 "
			 "or a /dev path, got '%s'", cfg->path, line, v);
		first = dd_config_keep_first(first, -EINVAL, why, err, errlen);
	} else if (v) {
		snprintf(out->chip, sizeof(out->chip), "%s", v);
		out->chip_set = true;
	}
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		rc = opt_double(cfg, "sensors", numbers[i].key, numbers[i].min, numbers[i].max,
				numbers[i].scale, numbers[i].at, why, sizeof(why));
		first = dd_config_keep_first(first, rc, why, err, errlen);
	}
	rc = check_button_keys(cfg, why, sizeof(why));
	first = dd_config_keep_first(first, rc, why, err, errlen);

	/* Lines: when the file names any, exactly those are used; otherwise
	 * the reference wiring (sens_config_defaults). */
	for (size_t i = 0; i < SENS_MAX_TABLE; i++)
		any |= dd_config_get(cfg, "sensors", table_keys[i], NULL) != NULL;
	for (int i = 0; i < BD_PLAYERS; i++)
		any |= dd_config_get(cfg, "sensors", cup_keys[i], NULL) != NULL;
	for (int i = 0; i < MAX_FLOOR; i++)
		any |= dd_config_get(cfg, "sensors", floor_keys[i], NULL) != NULL;
	any |= dd_config_get(cfg, "sensors", "mine", NULL) != NULL;
	if (any) {
		out->n_lines = 0;
		for (size_t i = 0; i < SENS_MAX_TABLE; i++) {
			rc = add_line(cfg, out, where, table_keys[i], SENS_ROLE_TABLE, BD_NOBODY,
				      why, sizeof(why));
			first = dd_config_keep_first(first, rc, why, err, errlen);
		}
		for (int i = 0; i < BD_PLAYERS; i++) {
			rc = add_line(cfg, out, where, cup_keys[i], SENS_ROLE_CUP, i, why, sizeof(why));
			first = dd_config_keep_first(first, rc, why, err, errlen);
		}
		rc = add_line(cfg, out, where, "mine", SENS_ROLE_MINE, BD_NOBODY, why, sizeof(why));
		first = dd_config_keep_first(first, rc, why, err, errlen);
		for (int i = 0; i < MAX_FLOOR; i++) {
			rc = add_line(cfg, out, where, floor_keys[i], SENS_ROLE_FLOOR, BD_NOBODY,
				      why, sizeof(why));
			first = dd_config_keep_first(first, rc, why, err, errlen);
		}
	} else {
		for (size_t i = 0; i < out->n_lines; i++)
			where[i].key = out->lines[i].name;	/* line 0: the reference wiring */
	}
	/* Buttons are extras: they never replace the reference wiring. */
	for (int c = 0; c < SENS_CALLS; c++)
		for (int team = BD_TEAM_A; team <= BD_TEAM_B; team++) {
			char key[BUTTON_KEY_MAX];

			button_key((enum sens_call)c, team, key);
			rc = add_line(cfg, out, where, key, SENS_ROLE_BUTTON, BD_NOBODY, why, sizeof(why));
			first = dd_config_keep_first(first, rc, why, err, errlen);
			if (rc != 0) {
				/* add_line keeps the key's address: point it at the copy */
				where[out->n_lines - 1].key = out->lines[out->n_lines - 1].name;
				out->lines[out->n_lines - 1].call = (enum sens_call)c;
				out->lines[out->n_lines - 1].team = team;
			}
		}
	/* Each table sensor's position and calibrated delay. */
	for (size_t i = 0; i < out->n_lines; i++) {
		struct sens_line_cfg *l = &out->lines[i];
		size_t k;
		char key[40];

		if (l->role != SENS_ROLE_TABLE)
			continue;
		for (k = 0; k < SENS_MAX_TABLE && strcmp(l->name, table_keys[k]); k++)
			;
		l->x = l->y = -1;
		if (k < 4)
			diamond(t, k, &l->x, &l->y);
		for (int axis = 0; axis < 2; axis++) {
			int at = 0;

			snprintf(key, sizeof(key), "%s_%c", l->name, axis ? 'y' : 'x');
			rc = opt_double(cfg, "sensors", key, 0, axis ? t->width_m : t->length_m, 1,
					axis ? &l->y : &l->x, why, sizeof(why));
			first = dd_config_keep_first(first, rc, why, err, errlen);
			if (dd_config_get(cfg, "sensors", key, &at) && at > where[i].pos_line)
				where[i].pos_line = at;
		}
		/* After a bad _x, the sensor only looks unplaced. */
		if (!first && (l->x < 0 || l->y < 0)) {
			snprintf(why, sizeof(why), "%s:%d: sensors.%s: give its position as %s_x and %s_y "
				 "(metres from A's end and the left edge)", cfg->path, where[i].line,
				 l->name, l->name, l->name);
			first = dd_config_keep_first(first, -EINVAL, why, err, errlen);
		}
		us = 0;
		snprintf(key, sizeof(key), "%s_delay_us", l->name);
		rc = opt_double(cfg, "sensors", key, -1000, 1000, 1, &us, why, sizeof(why));
		first = dd_config_keep_first(first, rc, why, err, errlen);
		l->delay_s = us * 1e-6;
	}
	if (first)
		return first;
	/* Two keys on one GPIO line: name the second. */
	for (size_t i = 0; i < out->n_lines; i++)
		for (size_t j = 0; j < i; j++) {
			char at[32];

			if (out->lines[i].offset != out->lines[j].offset)
				continue;
			if (where[j].line > 0)
				snprintf(at, sizeof(at), "line %d", where[j].line);
			else
				snprintf(at, sizeof(at), "the reference wiring");
			snprintf(err, errlen, "%s:%d: sensors.%s: line %u is already %s (%s)",
				 cfg->path, where[i].line, where[i].key, out->lines[i].offset,
				 where[j].key, at);
			return -EINVAL;
		}
	int at;
	enum sens_cfg_item item;
	if (sens_config_check_at(out, &at, &item, why, sizeof(why)) < 0) {
		/* The loader's own checks leave the check a table sensor's place
		 * to fault in one line, or settings that fit apart and not
		 * together: name the key that set it. */
		int l = at >= 0 ? (where[at].pos_line ? where[at].pos_line : where[at].line) :
			item_line(cfg, item);

		if (l > 0)
			snprintf(err, errlen, "%s:%d: %s", cfg->path, l, why);
		else
			snprintf(err, errlen, "%s: %s", cfg->path, why);
		return -EINVAL;
	}
	return 0;
}

int dd_sensors_config_file(const char *path, struct sens_config *out, char *err, size_t errlen)
{
	struct dd_config cfg;
	int rc;

	if (!path) {
		sens_config_defaults(out);
		return 0;
	}
	rc = dd_config_load(&cfg, path, err, errlen);
	if (rc < 0)
		goto free_cfg;
	rc = dd_sensors_config_load(&cfg, out, err, errlen);
	if (rc < 0)
		goto free_cfg;
	/* Other sections belong to other modules; these two are ours. */
	for (size_t i = 0; i < cfg.n; i++) {
		const struct dd_config_entry *e = &cfg.entries[i];

		/* table.id and table.name are serve's (serve_config.c). */
		if (!e->claimed && (!strcmp(e->section, "sensors") ||
				    (!strcmp(e->section, "table") && strcmp(e->key, "id") &&
				     strcmp(e->key, "name")))) {
			snprintf(err, errlen, "%s:%d: unknown key %s.%s", cfg.path, e->line,
				 e->section, e->key);
			rc = -EINVAL;
			break;
		}
	}
free_cfg:
	dd_config_free(&cfg);
	return rc;
}
