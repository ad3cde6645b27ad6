/* sim_report: the console calls and camera reports `dyeref sim` records,
 * one JSON object a line, written and (as hostile input) parsed here. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

static const char *const player_names[BD_PLAYERS] = { "a1", "a2", "b1", "b2" };

static const char *player_name(int p)
{
	return p >= 0 && p < BD_PLAYERS ? player_names[p] : "?";
}

static int player_index(const char *s)
{
	for (int i = 0; i < BD_PLAYERS; i++)
		if (!strcmp(s, player_names[i]))
			return i;
	return -1;
}

static char *dump(json_t *o)
{
	char *s;

	if (!o) {
		errno = ENOMEM;
		return NULL;
	}
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (!s)
		errno = ENOMEM;
	return s;
}

char *sim_call_json(const struct sim_call *c)
{
	const struct bd_event *e = &c->ev;
	json_t *o;

	if (c->dye_up_missed)
		return dump(json_pack("{s:I,s:s}", "t_ns", (json_int_t)c->t_ns, "call", "dye_up_missed"));
	switch (e->kind) {
	case BD_EV_LOW_CALL:
		o = json_pack("{s:I,s:s,s:s}", "t_ns", (json_int_t)c->t_ns, "call", "low_call",
			      "by", player_name(e->player));
		break;
	case BD_EV_CATCH:
		o = json_pack("{s:I,s:s,s:s,s:i,s:b,s:b}", "t_ns", (json_int_t)c->t_ns, "call", "catch",
			      "by", player_name(e->player), "hands", e->hands, "trapped", e->trapped,
			      "over_table", e->over_table);
		break;
	case BD_EV_KICK:
		o = json_pack("{s:I,s:s,s:s,s:s}", "t_ns", (json_int_t)c->t_ns, "call", "kick",
			      "by", player_name(e->player), "part", e->part);
		break;
	default:
		errno = EINVAL;
		return NULL;
	}
	return dump(o);
}

char *sim_cam_json(const struct sim_cam *c, const char *crop)
{
	if (c->kind == SIM_CAM_TOSS)
		return dump(json_pack("{s:I,s:s}", "t_ns", (json_int_t)c->t_ns, "kind", "toss"));
	if (c->kind == SIM_CAM_SINK)
		return dump(json_pack("{s:I,s:s,s:s}", "t_ns", (json_int_t)c->t_ns, "kind", "sink",
				      "owner", player_name(c->owner)));
	if (c->kind == SIM_CAM_LANDING || c->kind == SIM_CAM_MINE || c->kind == SIM_CAM_EXIT)
		return dump(json_pack("{s:I,s:s,s:f,s:f,s:f}", "t_ns", (json_int_t)c->t_ns, "kind",
				      c->kind == SIM_CAM_LANDING ? "landing" :
				      c->kind == SIM_CAM_MINE ? "mine" : "exit",
				      "x", c->x, "y", c->y, "confidence", c->confidence));
	return dump(json_pack("{s:I,s:s,s:f,s:f,s:s}", "t_ns", (json_int_t)c->t_ns, "kind", "rest",
			      "x", c->x, "y", c->y, "crop", crop ? crop : ""));
}

/* Field checks: each writes "name:line: field: why" and returns -EINVAL. */
struct where {
	const char *name;
	int line;
	char *err;
	size_t errlen;
};

static int bad(const struct where *w, const char *field, const char *why)
{
	snprintf(w->err, w->errlen, "%s:%d: %s: %s", w->name, w->line, field, why);
	return -EINVAL;
}

static int get_player(const struct where *w, json_t *o, const char *field, int *out)
{
	json_t *v = json_object_get(o, field);

	if (!v)
		return bad(w, field, "missing");
	if (!json_is_string(v) || (*out = player_index(json_string_value(v))) < 0)
		return bad(w, field, "not a player (a1, a2, b1, b2)");
	return 0;
}

static int get_bool(const struct where *w, json_t *o, const char *field, bool *out)
{
	json_t *v = json_object_get(o, field);

	if (!v) {
		*out = false;
		return 0;
	}
	if (!json_is_boolean(v))
		return bad(w, field, "not true or false");
	*out = json_is_true(v);
	return 0;
}

static int get_coord(const struct where *w, json_t *o, const char *field, double *out)
{
	json_t *v = json_object_get(o, field);

	if (!v)
		return bad(w, field, "missing");
	if (!json_is_number(v))
		return bad(w, field, "not a number");
	*out = json_number_value(v);
	if (!isfinite(*out) || *out < -2 || *out > 5)
		return bad(w, field, "not a position near the table (metres)");
	return 0;
}

/* Only these fields, so a typo is an error and not a silent default. */
static int check_fields(const struct where *w, json_t *o, const char *const *known)
{
	const char *key;
	json_t *v;

	json_object_foreach(o, key, v) {
		bool ok = false;

		for (size_t i = 0; known[i] && !ok; i++)
			ok = !strcmp(key, known[i]);
		if (!ok)
			return bad(w, key, "unknown field");
	}
	return 0;
}

static int parse_call(const struct where *w, json_t *o, const char *what, struct sim_call *c)
{
	static const char *const f_plain[] = { "t_ns", "call", NULL };
	static const char *const f_by[] = { "t_ns", "call", "by", NULL };
	static const char *const f_catch[] = { "t_ns", "call", "by", "hands", "trapped", "over_table", NULL };
	static const char *const f_kick[] = { "t_ns", "call", "by", "part", NULL };
	struct bd_event *e = &c->ev;
	int rc;

	e->player = BD_NOBODY;
	strcpy(e->source, "console");
	e->confidence = 1.0;
	if (!strcmp(what, "dye_up_missed")) {
		c->dye_up_missed = true;
		return check_fields(w, o, f_plain);
	}
	if ((rc = get_player(w, o, "by", &e->player)) < 0)
		return rc;
	if (!strcmp(what, "low_call")) {
		e->kind = BD_EV_LOW_CALL;
		return check_fields(w, o, f_by);
	}
	if (!strcmp(what, "catch")) {
		json_t *h = json_object_get(o, "hands");

		e->kind = BD_EV_CATCH;
		e->hands = 1;
		if (h && (!json_is_integer(h) || (json_integer_value(h) != 1 && json_integer_value(h) != 2)))
			return bad(w, "hands", "not 1 or 2");
		if (h)
			e->hands = (int)json_integer_value(h);
		if ((rc = get_bool(w, o, "trapped", &e->trapped)) < 0 ||
		    (rc = get_bool(w, o, "over_table", &e->over_table)) < 0)
			return rc;
		return check_fields(w, o, f_catch);
	}
	if (!strcmp(what, "kick")) {
		json_t *p = json_object_get(o, "part");

		e->kind = BD_EV_KICK;
		strcpy(e->part, "foot");
		if (p && (!json_is_string(p) || json_string_length(p) == 0 ||
			  json_string_length(p) >= sizeof(e->part)))
			return bad(w, "part", "not a body part of 1-15 bytes");
		if (p)
			memcpy(e->part, json_string_value(p), json_string_length(p) + 1);
		return check_fields(w, o, f_kick);
	}
	return bad(w, "call", "not low_call, catch, kick or dye_up_missed");
}

static int parse_cam(const struct where *w, json_t *o, const char *what, struct sim_report *r)
{
	static const char *const f_sink[] = { "t_ns", "kind", "owner", NULL };
	static const char *const f_toss[] = { "t_ns", "kind", NULL };
	static const char *const f_rest[] = { "t_ns", "kind", "x", "y", "crop", NULL };
	static const char *const f_track[] = { "t_ns", "kind", "x", "y", "confidence", NULL };
	struct sim_cam *c = &r->cam;
	json_t *crop;
	const char *s;
	int rc;

	c->owner = BD_NOBODY;
	if (!strcmp(what, "toss")) {
		c->kind = SIM_CAM_TOSS;
		return check_fields(w, o, f_toss);
	}
	if (!strcmp(what, "sink")) {
		c->kind = SIM_CAM_SINK;
		if ((rc = get_player(w, o, "owner", &c->owner)) < 0)
			return rc;
		return check_fields(w, o, f_sink);
	}
	if (!strcmp(what, "landing") || !strcmp(what, "mine") || !strcmp(what, "exit")) {
		json_t *cf = json_object_get(o, "confidence");

		c->kind = what[0] == 'l' ? SIM_CAM_LANDING : what[0] == 'm' ? SIM_CAM_MINE : SIM_CAM_EXIT;
		if ((rc = get_coord(w, o, "x", &c->x)) < 0 || (rc = get_coord(w, o, "y", &c->y)) < 0)
			return rc;
		if (!cf || !json_is_number(cf) || !(json_number_value(cf) >= 0) ||
		    !(json_number_value(cf) <= 1))
			return bad(w, "confidence", "missing or not a number 0-1");
		c->confidence = json_number_value(cf);
		return check_fields(w, o, f_track);
	}
	if (strcmp(what, "rest"))
		return bad(w, "kind", "not toss, sink, rest, landing, mine or exit");
	c->kind = SIM_CAM_REST;
	if ((rc = get_coord(w, o, "x", &c->x)) < 0 || (rc = get_coord(w, o, "y", &c->y)) < 0)
		return rc;
	crop = json_object_get(o, "crop");
	if (!crop || !json_is_string(crop))
		return bad(w, "crop", "missing or not a string");
	s = json_string_value(crop);
	/* A plain file name beside the report: nothing that leaves the folder. */
	if (json_string_length(crop) == 0 || json_string_length(crop) >= sizeof(r->crop) ||
	    strlen(s) != json_string_length(crop) || strchr(s, '/') || s[0] == '.')
		return bad(w, "crop", "not a plain file name of 1-63 bytes");
	memcpy(r->crop, s, json_string_length(crop) + 1);
	return check_fields(w, o, f_rest);
}

static int parse_line(const struct where *w, const char *line, size_t len, bool camera,
		      struct sim_report *r)
{
	json_error_t je;
	json_t *o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je), *t, *what;
	const char *kf = camera ? "kind" : "call";
	int rc;

	memset(r, 0, sizeof(*r));
	r->camera = camera;
	if (!o || !json_is_object(o)) {
		json_decref(o);
		snprintf(w->err, w->errlen, "%s:%d: not a JSON object%s%s", w->name, w->line,
			 o ? "" : ": ", o ? "" : je.text);
		return -EINVAL;
	}
	t = json_object_get(o, "t_ns");
	what = json_object_get(o, kf);
	if (!t || !json_is_integer(t) || json_integer_value(t) < 0)
		rc = bad(w, "t_ns", "missing or not a time >= 0 (ns)");
	else if (!what || !json_is_string(what))
		rc = bad(w, kf, "missing or not a string");
	else if (camera) {
		r->cam.t_ns = json_integer_value(t);
		rc = parse_cam(w, o, json_string_value(what), r);
	} else {
		r->call.t_ns = json_integer_value(t);
		rc = parse_call(w, o, json_string_value(what), &r->call);
		r->call.ev.t_ns = r->call.t_ns;
	}
	json_decref(o);
	return rc;
}

int sim_reports_parse(const char *name, const char *buf, size_t len, bool camera,
		      struct sim_report **out, size_t *n, char *err, size_t errlen)
{
	struct where w = { name, 0, err, errlen };
	struct sim_report *v = NULL;
	size_t cap = 0, pos = 0;
	int rc;

	*out = NULL;
	*n = 0;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len, a = pos, b = end;

		w.line++;
		pos = end + 1;
		while (a < b && (buf[a] == ' ' || buf[a] == '\t' || buf[a] == '\r'))
			a++;
		while (b > a && (buf[b - 1] == ' ' || buf[b - 1] == '\t' || buf[b - 1] == '\r'))
			b--;
		if (a == b)
			continue;	/* blank line */
		if (*n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct sim_report *nv = realloc(v, nc * sizeof(*nv));

			if (!nv) {
				snprintf(err, errlen, "%s: out of memory", name);
				rc = -ENOMEM;
				goto free_reports;
			}
			v = nv;
			cap = nc;
		}
		rc = parse_line(&w, buf + a, b - a, camera, &v[*n]);
		if (rc < 0)
			goto free_reports;
		(*n)++;
	}
	*out = v;
	return 0;

free_reports:
	free(v);
	*n = 0;
	return rc;
}
