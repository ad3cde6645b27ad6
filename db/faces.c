/* Face labels: an official's word on a die the camera read at rest, each
 * with its own crop, appended like every other row (db.h, "Face labels"). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "db/internal.h"

/* "" when l is storable, else why not. */
static const char *label_bad(const struct db_face_label *l)
{
	if (l->match < 1)
		return "match: not a match's number";
	if (l->throw_no < 1)
		return "throw: not a throw's number";
	if (l->snapshot < 1)
		return "snapshot: not a snapshot's id";
	if (l->face < 1 || l->face > 6)
		return "face: expected 1-6";
	if (l->read_face < 0 || l->read_face > 6 || !isfinite(l->read_confidence) ||
	    l->read_confidence > 1)
		return "the face read: out of range";
	if (l->confirmed && (l->read_face != l->face))
		return "confirmed: the face given is not the face read";
	if (!l->crop || l->crop_len < 4 || l->crop_len > DB_BLOB_MAX ||
	    ((const unsigned char *)l->crop)[0] != 0xff || ((const unsigned char *)l->crop)[1] != 0xd8)
		return "crop: not a JPEG (no SOI marker), or too big";
	if (l->width < 1 || l->width > 65535 || l->height < 1 || l->height > 65535)
		return "crop: size out of range";
	if (!isfinite(l->x) || !isfinite(l->y) || !isfinite(l->w) || !isfinite(l->h) ||
	    l->w <= 0 || l->h <= 0 || l->x < 0 || l->y < 0 || l->x > l->width ||
	    l->y > l->height)
		return "box: not inside the crop";
	if (!l->official || !*l->official || strlen(l->official) >= MLOG_OFFICIAL_MAX)
		return "official: missing or too long";
	if (l->reason && strlen(l->reason) >= MLOG_REASON_MAX)
		return "reason: too long";
	return "";
}

/* 0 when match has throw throw_no, -ENOENT with a message when not. */
static int throw_exists(struct db *db, int64_t match, int throw_no, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h,
		"SELECT 1 FROM entries WHERE match_id = ? AND throw_no = ? AND type IN ('throw', 'turn')"
		" LIMIT 1", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_fail(db, rc, "reading the throws", err, errlen);
	sqlite3_bind_int64(st, 1, match);
	sqlite3_bind_int(st, 2, throw_no);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc != SQLITE_DONE)
		return db_fail(db, rc, "reading the throws", err, errlen);
	db_msg(err, errlen, "match %lld has no throw %d", (long long)match, throw_no);
	return -ENOENT;
}

int db_face_label_add(struct db *db, const struct db_face_label *l, char *err, size_t errlen)
{
	const char *bad = label_bad(l);
	sqlite3_stmt *st;
	int rc, ret;

	if (*bad) {
		db_msg(err, errlen, "face label: %s", bad);
		return -EINVAL;
	}
	ret = throw_exists(db, l->match, l->throw_no, err, errlen);
	if (ret)
		return ret;
	rc = sqlite3_prepare_v2(db->h,
		"INSERT INTO face_labels (match_id, throw_no, snapshot_id, face, confirmed, read_face,"
		" read_confidence, crop, width, height, x, y, w, h, official, reason, t_ns, wall_ms)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, l->match);
		sqlite3_bind_int(st, 2, l->throw_no);
		sqlite3_bind_int64(st, 3, l->snapshot);
		sqlite3_bind_int(st, 4, l->face);
		sqlite3_bind_int(st, 5, l->confirmed);
		sqlite3_bind_int(st, 6, l->read_face);
		sqlite3_bind_double(st, 7, l->read_face ? l->read_confidence : -1);
		sqlite3_bind_blob64(st, 8, l->crop, l->crop_len, SQLITE_STATIC);
		sqlite3_bind_int(st, 9, l->width);
		sqlite3_bind_int(st, 10, l->height);
		sqlite3_bind_double(st, 11, l->x);
		sqlite3_bind_double(st, 12, l->y);
		sqlite3_bind_double(st, 13, l->w);
		sqlite3_bind_double(st, 14, l->h);
		sqlite3_bind_text(st, 15, l->official, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 16, l->reason ? l->reason : "", -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 17, l->t_ns);
		sqlite3_bind_int64(st, 18, l->wall_ms > 0 ? l->wall_ms : db_wall_ms());
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		ret = db_fail(db, rc, "storing a face label", err, errlen);
		if (sqlite3_get_autocommit(db->h))
			db->in_batch = false;
		return ret;
	}
	/* Committed at once, as a correction is: the official was told it is kept. */
	return db_wrote(db, "storing a face label", err, errlen);
}

/* A text column as a string in out (outlen bytes), or -1 when it is not
 * text that fits. */
static int text_col(sqlite3_stmt *st, int col, char *out, size_t outlen)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	int n = sqlite3_column_bytes(st, col);

	if (sqlite3_column_type(st, col) != SQLITE_TEXT || !t || (size_t)n >= outlen ||
	    strlen((const char *)t) != (size_t)n)
		return -1;
	memcpy(out, t, (size_t)n + 1);
	return 0;
}

/* An integer column that fits an int, else -1 (out of every range
 * label_bad checks). */
static int int_col(sqlite3_stmt *st, int col)
{
	int64_t v = sqlite3_column_int64(st, col);

	return v >= INT_MIN && v <= INT_MAX ? (int)v : -1;
}

/* Face label id's crop into *crop (malloc'd, *len bytes): 0; -EFBIG past
 * DB_BLOB_MAX, nothing loaded; -EINVAL not a blob or text; else the
 * store's error with a message. */
static int read_crop(struct db *db, int64_t id, void **crop, size_t *len, char *err,
		     size_t errlen)
{
	sqlite3_blob *b;
	int rc = sqlite3_blob_open(db->h, "main", "face_labels", "crop", id, 0, &b), n;

	*crop = NULL;
	*len = 0;
	if (rc == SQLITE_ERROR)
		return -EINVAL;		/* a value of another type */
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "reading a face label's crop", err, errlen);
	n = sqlite3_blob_bytes(b);
	if (n < 0 || (size_t)n > DB_BLOB_MAX) {
		sqlite3_blob_close(b);
		return -EFBIG;
	}
	*crop = malloc(n ? (size_t)n : 1);
	if (!*crop) {
		sqlite3_blob_close(b);
		return db_nomem(db, err, errlen);
	}
	rc = sqlite3_blob_read(b, *crop, n, 0);
	sqlite3_blob_close(b);
	if (rc != SQLITE_OK) {
		free(*crop);
		*crop = NULL;
		return db_fail(db, rc, "reading a face label's crop", err, errlen);
	}
	*len = (size_t)n;
	return 0;
}

int db_face_labels(struct db *db, int64_t match, int throw_no,
		   int (*fn)(const struct db_face_label *l, void *ctx), void *ctx,
		   char *err, size_t errlen)
{
	char official[MLOG_OFFICIAL_MAX], reason[MLOG_REASON_MAX];
	sqlite3_stmt *st;
	int rc, ret = 0;

	/* Each die's latest row: the largest id of its (match, throw, snapshot). */
	rc = sqlite3_prepare_v2(db->h,
		"SELECT id, match_id, throw_no, snapshot_id, face, confirmed, read_face, read_confidence,"
		" NULL, width, height, x, y, w, h, official, reason, t_ns, wall_ms FROM face_labels f"
		" WHERE (?1 = 0 OR match_id = ?1) AND (?2 = 0 OR throw_no = ?2) AND id ="
		" (SELECT MAX(id) FROM face_labels g WHERE g.match_id = f.match_id"
		" AND g.throw_no = f.throw_no AND g.snapshot_id = f.snapshot_id)"
		" ORDER BY match_id, throw_no, snapshot_id", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "reading the face labels", err, errlen);
	sqlite3_bind_int64(st, 1, match);
	sqlite3_bind_int(st, 2, throw_no);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		/* Read whole, so that a 64-bit value out of range is refused,
		 * not cut down to one that passes. */
		int64_t throw_no = sqlite3_column_int64(st, 2);
		struct db_face_label l = {
			.id = sqlite3_column_int64(st, 0),
			.match = sqlite3_column_int64(st, 1),
			.throw_no = throw_no >= 1 && throw_no <= INT_MAX ? (int)throw_no : 0,
			.snapshot = sqlite3_column_int64(st, 3),
			.face = int_col(st, 4),
			.confirmed = sqlite3_column_int(st, 5) != 0,
			.read_face = int_col(st, 6),
			.read_confidence = sqlite3_column_double(st, 7),
			.width = int_col(st, 9),
			.height = int_col(st, 10),
			.x = sqlite3_column_double(st, 11),
			.y = sqlite3_column_double(st, 12),
			.w = sqlite3_column_double(st, 13),
			.h = sqlite3_column_double(st, 14),
			.official = official,
			.reason = reason,
			.t_ns = sqlite3_column_int64(st, 17),
			.wall_ms = sqlite3_column_int64(st, 18),
		};
		const char *bad = "";
		void *crop = NULL;

		/* The crop is read through a blob handle, its size known before
		 * any byte is loaded: memory bounded by DB_BLOB_MAX, not by
		 * SQLite's 1 GB (length() in the query loads the value too). */
		ret = read_crop(db, l.id, &crop, &l.crop_len, err, errlen);
		l.crop = crop;
		if (ret && ret != -EFBIG && ret != -EINVAL)
			break;
		if (ret)
			bad = ret == -EFBIG ? "crop: more than DB_BLOB_MAX bytes" : "crop: not a blob";
		else if (text_col(st, 15, official, sizeof(official)) ||
			 text_col(st, 16, reason, sizeof(reason)))
			bad = "official or reason: not text of the right size";
		else if (l.read_face == 0)
			l.read_confidence = -1;
		if (!*bad)
			bad = label_bad(&l);
		if (*bad) {
			db_msg(err, errlen, "%s: face label %lld: %s", db->path, (long long)l.id, bad);
			ret = -EILSEQ;
		} else {
			ret = fn(&l, ctx);
		}
		free(crop);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, "reading the face labels", err, errlen);
	sqlite3_finalize(st);
	return ret;
}
