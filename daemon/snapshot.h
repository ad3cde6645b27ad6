/* A throw's camera pictures with what is known of each (daemon/snapshot.c):
 * stored beside the JPEG, read back for the replay (docs/daemon.md,
 * "Snapshots"). */
#ifndef DYEREF_DAEMON_SNAPSHOT_H
#define DYEREF_DAEMON_SNAPSHOT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct db;
struct db_item;
/* What the camera knew of a picture, stored beside its JPEG (the replay's
 * snapshots: docs/daemon.md, "Snapshots"). */
struct dd_snapshot_meta {
	int64_t t_ns;		/* the frame's time (CLOCK_MONOTONIC) */
	int width, height;	/* the picture, pixels */
	int face;		/* the face read, 1-6; 0 not read */
	double confidence;	/* the read's, 0-1; < 0 not read */
	bool has_die;		/* where the die is in the picture is known */
	double die_x, die_y;	/* the die's centre, picture pixels from the top left */
	double die_r;		/* a circle around it, pixels */
};
/* img as a JPEG (quality 85) in a malloc'd buffer of *len bytes, or NULL
 * with a message and errno ENOMEM or EIO. Safe on any thread. */
struct vis_image;
void *dd_jpeg_encode(const struct vis_image *img, size_t *len, char *err, size_t errlen);
/* Stores jpeg (len bytes, copied) as a snapshot of throw throw_no in db's
 * open batch, and m beside it: a raw input (source "camera", kind
 * "snapshot", at m->t_ns) whose payload is {"t_ms","face","confidence",
 * "die":{"x","y","r"},"width","height"} (t_ms from since_ns, the throw's
 * first input; unknowns null). 1 stored (metadata that could not be
 * stored is logged), negative errno with a message (nothing stored). */
int dd_snapshot_store(struct db *db, int64_t match, int throw_no, int64_t since_ns,
		      const void *jpeg, size_t len, const struct dd_snapshot_meta *m,
		      char *err, size_t errlen);

/* A throw's pictures as db_replay() walks them: each snapshot, and the
 * metadata stored beside it (matched by time). Zero it to start. */
struct dd_snap_list {
	struct dd_snap_item *v;		/* owned: in the walk's order */
	size_t n, cap;			/* used, allocated */
};
/* Takes it when it is a snapshot or a snapshot's metadata (else ignores
 * it): 0, or -ENOMEM. */
int dd_snap_list_add(struct dd_snap_list *l, const struct db_item *it);
/* The replay's "snapshots": [{"index":1,"id","t_ms","face","confidence",
 * "die":{"x","y","r"},"width","height"}...] in the walk's order (index as
 * in .../snapshots/I.jpg; id the snapshot's own, db_item.id, which a face
 * label names), unknowns null, the size the JPEG's own; NULL
 * out of memory. Frees the list's contents either way. Stored metadata is
 * read as hostile: what is not of the right type and range is null. */
json_t *dd_snap_list_json(struct dd_snap_list *l);

#endif /* DYEREF_DAEMON_SNAPSHOT_H */
