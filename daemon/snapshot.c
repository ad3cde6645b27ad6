/* A throw's picture as the replay shows it: the JPEG in the snapshots
 * table and, beside it, what the camera knew of it (when, the face read
 * and how sure, where the die is in the picture) as a raw input of source
 * "camera", kind "snapshot", at the picture's own time: no schema change,
 * and retention prunes both alike. The simulated table's camera keeps its
 * pictures here too (struct dd_sim_snap), so a demo's replay shows them. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "daemon/daemon.h"
#include "daemon/face_reader.h"
#include "daemon/feeds.h"
#include "daemon/inputs.h"
#include "daemon/snapshot.h"
#include "db/db.h"
#include "vision/vision.h"

#define JPEG_QUALITY 85		/* snapshots: enough to see the die */

void *dd_jpeg_encode(const struct vis_image *img, size_t *len, char *err, size_t errlen)
{
	int samp = img->format == VIS_GRAY8 ? TJSAMP_GRAY : TJSAMP_420;
	unsigned long cap = tjBufSize(img->width, img->height, samp), got = cap;
	unsigned char *buf = NULL;
	tjhandle tj;

	if (cap == (unsigned long)-1 || !(buf = malloc(cap))) {
		snprintf(err, errlen, "snapshot: out of memory for a %dx%d JPEG", img->width, img->height);
		errno = ENOMEM;
		return NULL;
	}
	tj = tjInitCompress();
	if (!tj) {
		snprintf(err, errlen, "snapshot: turbojpeg: cannot start");
		goto free_buf;
	}
	/* Into our own buffer, big enough for any picture (NOREALLOC): it
	 * is then free()'d like any other. */
	if (tjCompress2(tj, img->data, img->width, (int)img->stride, img->height,
			img->format == VIS_GRAY8 ? TJPF_GRAY : TJPF_RGB, &buf, &got, samp,
			JPEG_QUALITY, TJFLAG_NOREALLOC)) {
		snprintf(err, errlen, "snapshot: %s", tjGetErrorStr2(tj));
		goto destroy;
	}
	tjDestroy(tj);
	*len = got;
	return buf;
destroy:
	tjDestroy(tj);
free_buf:
	free(buf);
	errno = EIO;
	return NULL;
}

/* The metadata line: {"t_ms":..,"face":..,"confidence":..,"die":{..},
 * "width":..,"height":..}, unknowns null. */
static json_t *meta_json(const struct dd_snapshot_meta *m, int64_t since_ns)
{
	bool read = m->face >= 1 && m->face <= 6 && m->confidence >= 0 && m->confidence <= 1;
	json_t *o = json_object();

	if (!o)
		return NULL;
	/* Milliseconds from the throw's first input, as its observations'. */
	json_object_set_new(o, "t_ms", since_ns > 0 && m->t_ns >= since_ns ?
			    json_real((double)(m->t_ns - since_ns) / 1e6) : json_null());
	json_object_set_new(o, "face", read ? json_integer(m->face) : json_null());
	json_object_set_new(o, "confidence", read ? json_real(m->confidence) : json_null());
	json_object_set_new(o, "die", m->has_die && isfinite(m->die_x) && isfinite(m->die_y) &&
			    isfinite(m->die_r) && m->die_r > 0 ?
			    json_pack("{s:f,s:f,s:f}", "x", m->die_x, "y", m->die_y, "r", m->die_r) :
			    json_null());
	json_object_set_new(o, "width", json_integer(m->width));
	json_object_set_new(o, "height", json_integer(m->height));
	return o;
}

int dd_snapshot_store(struct db *db, int64_t match, int throw_no, int64_t since_ns,
		      const void *jpeg, size_t len, const struct dd_snapshot_meta *m,
		      char *err, size_t errlen)
{
	json_t *o;
	char *text;
	struct db_raw raw = { .t_ns = m->t_ns, .throw_no = throw_no, .source = "camera",
			      .kind = "snapshot", .channel = -1 };
	int rc;

	rc = db_snapshot_add(db, match, throw_no, m->t_ns, jpeg, len, err, errlen);
	if (rc)
		return rc;
	o = meta_json(m, since_ns);
	text = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;
	json_decref(o);
	if (!text) {
		/* The picture is stored; the page shows it without what is known of it. */
		dd_log(DD_LOG_WARN, "throw %d: snapshot: out of memory for its metadata", throw_no);
		return 1;
	}
	raw.payload = text;
	raw.len = strlen(text);
	rc = db_raw_append(db, match, &raw, 1, err, errlen);
	free(text);
	/* The picture is in; without its metadata the page shows it unlabelled. */
	if (rc)
		dd_log(DD_LOG_WARN, "throw %d: snapshot stored without its metadata: %s", throw_no, err);
	return 1;
}

/* ---- The simulated camera's picture ---- */

void dd_sim_snap_clear(struct dd_sim_snap *s)
{
	free(s->jpeg);
	memset(s, 0, sizeof(*s));
}

int dd_sim_snap_keep(struct dd_sim_snap *s, const struct vis_image *img, const struct dd_face_job *job)
{
	char err[128];
	size_t len = 0;
	void *jpeg = dd_jpeg_encode(img, &len, err, sizeof(err));

	if (!jpeg)
		return -errno;
	dd_sim_snap_clear(s);
	s->jpeg = jpeg;
	s->len = len;
	s->meta.t_ns = job->t_ns;
	s->meta.width = img->width;
	s->meta.height = img->height;
	s->meta.face = 0;
	s->meta.confidence = -1;
	/* Where the camera located the die, and a ring that holds it at any
	 * turn (a side's half times sqrt 2, and a little). */
	s->meta.has_die = true;
	s->meta.die_x = job->u;
	s->meta.die_y = job->v;
	s->meta.die_r = job->die_px * 0.75;
	return 0;
}

void dd_sim_snap_read(struct dd_sim_snap *s, const struct dd_face_read *rd)
{
	if (!s->jpeg || rd->job->t_ns != s->meta.t_ns)
		return;
	/* Where the reader found the die, rather than where it was looked for. */
	if (rd->found && rd->side > 0) {
		s->meta.die_x = rd->u;
		s->meta.die_y = rd->v;
		s->meta.die_r = rd->side * 0.75;
	}
	/* An unread rest carries a placeholder face at confidence 0. */
	s->meta.face = rd->rest->confidence > 0 ? rd->rest->ev.face : 0;
	s->meta.confidence = rd->rest->confidence > 0 ? rd->rest->confidence : -1;
}

int dd_sim_snap_store(struct dd_sim_snap *s, struct db *db, int64_t match, int throw_no,
		      int64_t since_ns, char *err, size_t errlen)
{
	int rc;

	if (!s->jpeg || s->meta.t_ns < since_ns)
		return 0;	/* nothing of this throw came to rest */
	rc = dd_snapshot_store(db, match, throw_no, since_ns, s->jpeg, s->len, &s->meta, err, errlen);
	/* One picture, one throw: a later throw entered by hand does not
	 * take this one's rest. */
	dd_sim_snap_clear(s);
	return rc;
}

/* ---- Read back for the replay ---- */

/* One walked item: a snapshot (with its size) or a snapshot's metadata. */
struct dd_snap_item {
	bool is_meta;		/* metadata; else a snapshot */
	bool used;		/* meta: matched to a snapshot */
	int64_t t_ns;		/* the picture's time */
	int64_t id;		/* snapshot: its row's id */
	int width, height;	/* snapshot: the JPEG's own, 0 unreadable */
	json_t *meta;		/* meta: the parsed payload (owned) */
};

/* The JPEG's size from its header: 0, or -EINVAL. */
static int jpeg_size(const void *jpeg, size_t len, int *w, int *h)
{
	tjhandle tj = tjInitDecompress();
	int sub, cs, rc = -EINVAL;

	if (tj && len <= (unsigned long)-1 &&
	    tjDecompressHeader3(tj, jpeg, (unsigned long)len, w, h, &sub, &cs) == 0 && *w > 0 && *h > 0)
		rc = 0;
	if (tj)
		tjDestroy(tj);
	return rc;
}

int dd_snap_list_add(struct dd_snap_list *l, const struct db_item *it)
{
	struct dd_snap_item s = { .t_ns = it->t_ns, .id = it->id };

	if (it->kind == DB_ITEM_SNAPSHOT) {
		if (jpeg_size(it->data, it->len, &s.width, &s.height))
			s.width = s.height = 0;
	} else if (it->kind == DB_ITEM_RAW && it->text && !strcmp(it->source, "camera") &&
		   !strcmp(it->what, "snapshot")) {
		s.is_meta = true;
		s.meta = json_loads(it->text, 0, NULL);
		if (!json_is_object(s.meta)) {
			json_decref(s.meta);
			return 0;	/* not what this daemon writes: as if absent */
		}
	} else {
		return 0;
	}
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 8;
		struct dd_snap_item *nv = realloc(l->v, nc * sizeof(*nv));

		if (!nv) {
			json_decref(s.meta);
			return -ENOMEM;
		}
		l->v = nv;
		l->cap = nc;
	}
	l->v[l->n++] = s;
	return 0;
}

/* A number of o's key in [lo, hi], or NAN. */
static double num_in(const json_t *o, const char *key, double lo, double hi)
{
	const json_t *v = json_object_get(o, key);
	double d = json_is_number(v) ? json_number_value(v) : NAN;

	return isfinite(d) && d >= lo && d <= hi ? d : NAN;
}

static json_t *real_or_null(double d)
{
	return isnan(d) ? json_null() : json_real(d);
}

/* The page's entry for snapshot s (index k), from its metadata m (NULL:
 * none): every value checked. */
static json_t *snap_json(const struct dd_snap_item *s, long k, const json_t *m)
{
	const json_t *die = json_object_get(m, "die");
	double face = num_in(m, "face", 1, 6), conf = num_in(m, "confidence", 0, 1);
	double x = num_in(die, "x", -1e6, 1e6), y = num_in(die, "y", -1e6, 1e6);
	double r = num_in(die, "r", 1e-3, 1e6);
	bool read = !isnan(face) && face == (int)face && !isnan(conf);
	bool placed = json_is_object(die) && !isnan(x) && !isnan(y) && !isnan(r);
	json_t *o = json_pack("{s:I,s:o,s:o,s:o,s:o}", "index", (json_int_t)k,
			      "t_ms", real_or_null(num_in(m, "t_ms", 0, 1e9)),
			      "face", read ? json_integer((int)face) : json_null(),
			      "confidence", read ? json_real(conf) : json_null(),
			      "die", placed ? json_pack("{s:f,s:f,s:f}", "x", x, "y", y, "r", r) :
			      json_null());

	if (!o)
		return NULL;
	/* The picture's own size; the metadata's only where the JPEG's
	 * header cannot be read. */
	if (s->width > 0) {
		json_object_set_new(o, "width", json_integer(s->width));
		json_object_set_new(o, "height", json_integer(s->height));
	} else {
		double w = num_in(m, "width", 1, 65535), h = num_in(m, "height", 1, 65535);

		json_object_set_new(o, "width", isnan(w) ? json_null() : json_integer((int)w));
		json_object_set_new(o, "height", isnan(h) ? json_null() : json_integer((int)h));
	}
	json_object_set_new(o, "id", json_integer(s->id));
	return o;
}

json_t *dd_snap_list_json(struct dd_snap_list *l)
{
	json_t *arr = json_array();
	long k = 0;

	for (size_t i = 0; arr && i < l->n; i++) {
		const struct dd_snap_item *s = &l->v[i];
		json_t *m = NULL, *o;

		if (s->is_meta)
			continue;
		/* Its metadata: the first not yet taken at the picture's time. */
		for (size_t j = 0; j < l->n && !m; j++)
			if (l->v[j].is_meta && !l->v[j].used && l->v[j].t_ns == s->t_ns) {
				l->v[j].used = true;
				m = l->v[j].meta;
			}
		o = snap_json(s, ++k, m);
		if (!o || json_array_append_new(arr, o)) {
			json_decref(arr);
			arr = NULL;
		}
	}
	for (size_t i = 0; i < l->n; i++)
		json_decref(l->v[i].meta);
	free(l->v);
	memset(l, 0, sizeof(*l));
	return arr;
}
