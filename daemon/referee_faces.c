/* The official's word on a die the camera read at rest (the replay page's
 * confirm or face 1-6): a face label for retraining the reader on this
 * table (db_face_label_add), stored with the die's crop cut losslessly
 * from the throw's snapshot, so that pruning the snapshot keeps it. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "daemon/daemon.h"
#include "daemon/referee.h"
#include "daemon/referee_internal.h"
#include "daemon/snapshot.h"
#include "db/db.h"
#include "vision/vision.h"

/* The crop around a die: 1.5 sides each way (the face net reads about 3
 * sides across), at least this many pixels each way. */
#define CROP_SIDES 1.5
#define CROP_MIN_HALF 16.0

/* One walk behind the throw: its pictures with what is known of each,
 * and a copy of the JPEG of snapshot `want` (its id), so that the die
 * labelled is the one the page showed, whatever retention did since. */
struct label_walk {
	struct dd_snap_list snaps;
	int64_t want;		/* the snapshot's id */
	char *jpeg;		/* its bytes (malloc'd), NULL not met */
	size_t len;
};

static int walk_item(const struct db_item *it, void *ctx)
{
	struct label_walk *w = ctx;

	if (it->kind == DB_ITEM_SNAPSHOT && it->id == w->want && !w->jpeg && it->len) {
		w->jpeg = malloc(it->len);
		if (!w->jpeg)
			return -ENOMEM;
		memcpy(w->jpeg, it->data, it->len);
		w->len = it->len;
	}
	return dd_snap_list_add(&w->snaps, it);
}

/* The entry of snaps (the replay's "snapshots") whose id is id, or NULL. */
static json_t *snap_by_id(json_t *snaps, int64_t id)
{
	size_t i;
	json_t *s;

	json_array_foreach(snaps, i, s)
		if (json_integer_value(json_object_get(s, "id")) == id)
			return s;
	return NULL;
}

/* A number of o's key (the replay's snapshot entry, already checked). */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* jpeg's lossless crop [x0, x0+w) x [y0, y0+h) (x0, y0 on its MCU grid)
 * into *out (malloc'd, *outlen bytes). 0 or -EINVAL. */
static int crop_jpeg(tjhandle tj, const void *jpeg, size_t len, int x0, int y0, int w, int h,
		     void **out, size_t *outlen)
{
	tjtransform xf = { .r = { .x = x0, .y = y0, .w = w, .h = h }, .op = TJXOP_NONE,
			   .options = TJXOPT_CROP };
	unsigned char *dst = NULL;
	unsigned long dlen = 0;

	/* LIMITSCANS: as vis_decode_jpeg, a progressive JPEG of thousands of
	 * scans is refused rather than spun on. */
	if (tjTransform(tj, jpeg, (unsigned long)len, 1, &dst, &dlen, &xf, TJFLAG_LIMITSCANS) || !dst) {
		tjFree(dst);
		return -EINVAL;
	}
	*out = malloc(dlen);
	if (*out) {
		memcpy(*out, dst, dlen);
		*outlen = dlen;
	}
	tjFree(dst);
	return *out ? 0 : -ENOMEM;
}

/* l's crop and box from snapshot jpeg (len bytes) with its die at (cx,
 * cy), r pixels around: 0, or -EINVAL / -ENOMEM with why in err; l->crop
 * is then the caller's (free()). */
static int cut_die(const void *jpeg, size_t len, double cx, double cy, double r,
		   struct db_face_label *l, char *err, size_t errlen)
{
	tjhandle tj = tjInitTransform();
	int w = 0, h = 0, sub = -1, cs, mw = 16, mh = 16, x0, y0, x1, y1, rc = -EINVAL;
	double side = r / 0.75, half = fmax(CROP_SIDES * side, CROP_MIN_HALF);
	void *crop = NULL;
	size_t clen = 0;

	if (!tj) {
		snprintf(err, errlen, "out of memory for the crop");
		return -ENOMEM;
	}
	if (len > (unsigned long)-1 ||
	    tjDecompressHeader3(tj, jpeg, (unsigned long)len, &w, &h, &sub, &cs) || w < 1 || h < 1) {
		snprintf(err, errlen, "its picture cannot be read");
		goto destroy;
	}
	/* The vision's limits (vis_decode_jpeg): the transform holds the
	 * whole picture's coefficients, whatever the crop's size. */
	if (w > VIS_MAX_SIDE || h > VIS_MAX_SIDE || (long)w * h > VIS_MAX_PIXELS) {
		snprintf(err, errlen, "its picture is too big (%dx%d, beyond %d a side, %ld pixels)", w,
			 h, VIS_MAX_SIDE, VIS_MAX_PIXELS);
		goto destroy;
	}
	if (!(cx >= 0 && cx < w && cy >= 0 && cy < h)) {
		snprintf(err, errlen, "its die is not inside its picture");
		goto destroy;
	}
	if (sub >= 0 && sub < TJ_NUMSAMP) {
		mw = tjMCUWidth[sub];
		mh = tjMCUHeight[sub];
	}
	/* A lossless crop starts on the MCU grid: the die then sits a little
	 * right of and below the crop's centre. */
	x0 = (int)fmax(0, floor(cx - half));
	y0 = (int)fmax(0, floor(cy - half));
	x0 -= x0 % mw;
	y0 -= y0 % mh;
	x1 = (int)fmin(w, ceil(cx + half));
	y1 = (int)fmin(h, ceil(cy + half));
	rc = crop_jpeg(tj, jpeg, len, x0, y0, x1 - x0, y1 - y0, &crop, &clen);
	if (rc == 0 && (tjDecompressHeader3(tj, crop, (unsigned long)clen, &w, &h, &sub, &cs) ||
			w != x1 - x0 || h != y1 - y0))
		rc = -EINVAL;
	if (rc) {
		free(crop);
		snprintf(err, errlen, rc == -ENOMEM ? "out of memory for the crop"
			 : "its picture cannot be cut");
		goto destroy;
	}
	l->crop = crop;
	l->crop_len = clen;
	l->width = w;
	l->height = h;
	l->x = cx - x0;
	l->y = cy - y0;
	l->w = l->h = side;
destroy:
	tjDestroy(tj);
	return rc;
}

static json_t *label_json(const struct db_face_label *l)
{
	return json_pack("{s:i,s:b,s:o,s:s,s:I,s:s}", "face", l->face, "confirmed", l->confirmed,
			 "read_face", l->read_face ? json_integer(l->read_face) : json_null(),
			 "official", l->official, "wall_ms", (json_int_t)l->wall_ms,
			 "reason", l->reason ? l->reason : "");
}

int dd_referee_face_label(struct dd_referee *r, long id, int throw_no, int64_t snapshot, int face,
			  const struct dd_audit *audit, int64_t t_ns, json_t **out, char *err,
			  size_t errlen)
{
	struct label_walk w = { .want = snapshot };
	struct db_face_label l = { 0 };
	json_t *arr, *s, *die;
	char why[160];
	long long sn = (long long)snapshot;
	double read, conf;
	int rc;

	*out = NULL;
	if (!r->db) {
		snprintf(err, errlen, "no event log");
		return -ENOENT;
	}
	rc = db_replay(r->db, id, throw_no, walk_item, &w, err, errlen);
	arr = dd_snap_list_json(&w.snaps);
	if (rc == -ENOENT) {
		snprintf(err, errlen, "match %ld has no throw %d", id, throw_no);
		goto free_arr;
	}
	if (rc || !arr) {
		rc = rc ? rc : -ENOMEM;
		goto free_arr;
	}
	s = snap_by_id(arr, snapshot);
	die = json_object_get(s, "die");
	if (!s || !w.jpeg) {
		snprintf(err, errlen, "throw %d has no snapshot %lld", throw_no, sn);
		rc = -ENOENT;
		goto free_arr;
	}
	if (!json_is_object(die)) {
		snprintf(err, errlen, "snapshot %lld: no die was located in it", sn);
		rc = -EINVAL;
		goto free_arr;
	}
	read = num(s, "face");
	conf = num(s, "confidence");
	if (!face && isnan(read)) {
		snprintf(err, errlen, "snapshot %lld: no face was read to confirm: tap the face it shows",
			 sn);
		rc = -EINVAL;
		goto free_arr;
	}
	rc = cut_die(w.jpeg, w.len, num(die, "x"), num(die, "y"), num(die, "r"), &l, why, sizeof(why));
	if (rc) {
		snprintf(err, errlen, "snapshot %lld: %s", sn, why);
		goto free_arr;
	}
	l.match = id;
	l.throw_no = throw_no;
	l.snapshot = snapshot;
	l.read_face = isnan(read) ? 0 : (int)read;
	l.read_confidence = isnan(read) || isnan(conf) ? -1 : conf;
	l.face = face ? face : l.read_face;
	l.confirmed = !face;
	l.official = audit->official[0] ? audit->official : "official";
	l.reason = audit->reason;
	l.t_ns = t_ns;
	l.wall_ms = audit->wall_ms;
	rc = db_face_label_add(r->db, &l, err, errlen);
	if (rc == 0) {
		*out = json_pack("{s:I,s:i,s:I,s:o}", "match", (json_int_t)id, "throw", throw_no,
				 "snapshot", (json_int_t)snapshot, "label", label_json(&l));
		if (!*out)
			rc = -ENOMEM;
	}
	free((void *)l.crop);
free_arr:
	free(w.jpeg);
	json_decref(arr);
	return rc;
}

static int attach_label(const struct db_face_label *l, void *ctx)
{
	json_t *s = snap_by_id(ctx, l->snapshot);	/* NULL: pruned since */

	if (s)
		json_object_set_new(s, "label", label_json(l));
	return 0;
}

void dd_ref_face_labels_attach(struct dd_referee *r, long id, long throw_no, json_t *snapshots)
{
	char err[256];
	size_t i;
	json_t *s;

	json_array_foreach(snapshots, i, s)
		json_object_set_new(s, "label", json_null());
	if (r->db && db_face_labels(r->db, id, (int)throw_no, attach_label, snapshots, err,
				    sizeof(err)) < 0)
		dd_log(DD_LOG_WARN, "throw detail: face labels: %s", err);
}
