/* The camera glue's snapshot: the latest telling frame of a throw (its
 * landing, sink or resting die; the sharp full-resolution rest frame once
 * its face is read), kept so the referee can store it with the throw. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/camera_internal.h"

double dd_camera_die_px_at(const struct dd_camera *g, const double img_to_table[9], double u,
			   double v, double scale)
{
	double inv[9], x, y, u2, v2;

	if (vis_homography_invert(img_to_table, inv) < 0 ||
	    vis_homography_apply(img_to_table, u, v, &x, &y) < 0 ||
	    vis_homography_apply(inv, x + g->tcfg.die_side_m, y, &u2, &v2) < 0)
		return 20;
	return hypot(u2 - u, v2 - v) * scale;
}

void dd_camera_keep_snapshot(struct dd_camera *g, struct vis_image *frame, void *jpeg,
			     size_t len, double u, double v, double r)
{
	vis_image_free(g->snap);
	free(g->snap_jpeg);
	g->snap = frame;
	g->snap_jpeg = jpeg;
	g->snap_jpeg_len = jpeg ? len : 0;
	memset(&g->snap_meta, 0, sizeof(g->snap_meta));
	if (!frame)
		return;
	g->snap_meta.t_ns = frame->ts_ns;
	g->snap_meta.width = frame->width;
	g->snap_meta.height = frame->height;
	g->snap_meta.confidence = -1;
	g->snap_meta.has_die = r > 0;
	g->snap_meta.die_x = u;
	g->snap_meta.die_y = v;
	g->snap_meta.die_r = r;
}

/* The face reader's prep (its worker thread): the snapshot's JPEG, so that
 * storing the throw does not encode 8-12 Mpixel on the loop. */
static void *prep_snapshot(const struct vis_image *full, size_t *len)
{
	char err[128];

	return dd_jpeg_encode(full, len, err, sizeof(err));
}

static struct vis_image *copy_image(const struct vis_image *img)
{
	struct vis_image *c = vis_image_new(img->width, img->height, img->format);

	if (!c)
		return NULL;
	for (int r = 0; r < img->height; r++)
		memcpy(c->data + (size_t)r * c->stride, img->data + (size_t)r * img->stride,
		       (size_t)img->width * img->format);
	c->ts_ns = img->ts_ns;
	return c;
}

void dd_camera_keep_frame(struct dd_camera *g, const struct vis_image *frame, double u,
			  double v)
{
	struct vis_image *c = copy_image(frame);

	if (c)	/* low resolution: encoded when stored */
		dd_camera_keep_snapshot(g, c, NULL, 0, u, v,
					dd_camera_die_px_at(g, g->cfg.h, u, v, 1) * 0.75);
}

/* The full-resolution frame of a rest, converted off the loop (stolen):
 * the snapshot, unless a newer telling frame (the next throw's landing,
 * seen while the face was read) replaced it meanwhile. */
static void keep_full(void *user, struct vis_image *full, void *jpeg, size_t len,
		      const struct dd_face_read *rd)
{
	struct dd_camera *g = user;

	if (g->snap && g->snap->ts_ns > full->ts_ns) {
		vis_image_free(full);
		free(jpeg);
		return;
	}
	/* The resting die, sharp: the best picture, with the face read on it
	 * where it was found (else where the tracker located it). */
	if (rd->found)
		dd_camera_keep_snapshot(g, full, jpeg, len, rd->u, rd->v, rd->side * 0.75);
	else
		dd_camera_keep_snapshot(g, full, jpeg, len, rd->job->u, rd->job->v,
					rd->job->die_px * 0.75);
	if (rd->rest->confidence > 0) {
		g->snap_meta.face = rd->rest->ev.face;
		g->snap_meta.confidence = rd->rest->confidence;
	}
}

void dd_camera_keep_rest_frames(struct dd_camera *g)
{
	dd_face_reader_set_frame_sink(g->reader, keep_full, g, prep_snapshot);
}

int dd_camera_snapshot(struct dd_camera *g, struct db *db, int64_t match, int throw_no,
		       int64_t since_ns, char *err, size_t errlen)
{
	const struct vis_image *img = g->snap;
	void *jpeg;
	size_t len = 0;
	int rc;

	if (!img || img->ts_ns < since_ns)
		return 0;	/* nothing seen of this throw */
	/* A full-resolution rest frame was encoded by the face reader's
	 * worker; a low-resolution telling frame is encoded here (a few ms). */
	if (g->snap_jpeg) {
		jpeg = g->snap_jpeg;
		len = g->snap_jpeg_len;
	} else {
		jpeg = dd_jpeg_encode(img, &len, err, errlen);
		if (!jpeg)
			return -errno;	/* ENOMEM or EIO, as encode_jpeg says */
	}
	rc = dd_snapshot_store(db, match, throw_no, since_ns, jpeg, len, &g->snap_meta, err, errlen);
	if (jpeg != g->snap_jpeg)
		free(jpeg);
	return rc;
}
