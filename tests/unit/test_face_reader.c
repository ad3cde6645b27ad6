/* The camera glue's face reads off the event loop (daemon/face_reader.c):
 * the rest that reaches fusion is the one the synchronous read on the loop
 * gave (vis_read_face_near on the whole frame, dd_obs_rest at the rest's
 * time and place), in the camera's order, and a reader freed with reads
 * under way stops cleanly (ASan build: nothing leaked, nothing touched
 * after free). BD-O2 needs the face these reads give. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/face_reader.h"
#include "daemon/fusion.h"
#include "daemon/inputs.h"
#include "sim/sim.h"
#include "vision/vision.h"

#define MS 1000000LL
#define DIE_PX 32.0	/* sim_render_rest_crop: a die is a quarter of the crop's side */
#define MAX_SEEN 64

struct seen {
	size_t n;			/* observations given to the sink, but... */
	struct dd_obs obs[MAX_SEEN];	/* byte copies, in arrival order */
	size_t n_pending;		/* ... each read's DD_OBS_REST_PENDING, counted here */
};

static void sink(void *user, const struct dd_obs *o)
{
	struct seen *s = user;

	if (o->kind == DD_OBS_REST_PENDING) {
		/* said when the read is queued: before its rest */
		assert_true(s->n_pending < MAX_SEEN);
		s->n_pending++;
		return;
	}
	assert_true(s->n < MAX_SEEN);
	memcpy(&s->obs[s->n++], o, sizeof(*o));	/* padding too: compared with memcmp */
}

/* Runs ev until s holds n observations (a stuck reader fails, it does not hang). */
static void run_until(sd_event *ev, struct seen *s, size_t n)
{
	for (int i = 0; s->n < n && i < 1000; i++)
		assert_true(sd_event_run(ev, 60 * 1000000ULL) >= 0);
	assert_int_equal(s->n, n);
}

/* A 480x360 frame of table around a rendered 128 px crop of a resting die
 * showing face, the crop's top left at (ox, oy): the die at (ox+64, oy+64). */
static struct vis_image *frame_with_die(int face, int ox, int oy, unsigned seed)
{
	struct sim_noise n;
	struct bd_table tb;
	struct sim_rng rng;
	struct vis_image *crop, *img;

	sim_noise_defaults(&n, 1);
	bd_table_defaults(&tb);
	sim_rng_seed(&rng, seed);
	crop = sim_render_rest_crop(&n, &tb, 0.70, 0.40, 0.70, 0.40, face, 0.3, 128, &rng);
	assert_non_null(crop);
	img = vis_image_new(480, 360, crop->format);
	assert_non_null(img);
	for (int y = 0; y < img->height; y++)
		for (int x = 0; x < img->width; x++)	/* the table's colour, from the crop's corner */
			memcpy(img->data + (size_t)y * img->stride + (size_t)x * img->format, crop->data,
			       (size_t)img->format);
	for (int y = 0; y < crop->height; y++)
		memcpy(img->data + (size_t)(y + oy) * img->stride + (size_t)ox * img->format,
		       crop->data + (size_t)y * crop->stride, (size_t)crop->width * crop->format);
	vis_image_free(crop);
	return img;
}

/* Time for the readers' limits: a manual clock that stands still. */
static struct dd_clock *still;

/* A reader on ev into s. These tests compare reads, not the limit
 * (test_face_reader_stuck): a read slowed past it by a sanitizer or a
 * loaded machine must not be given up here, and on a clock that never
 * moves it cannot be. */
static struct dd_face_reader *new_reader(sd_event *ev, struct seen *s)
{
	char err[256];
	struct dd_face_reader *fr = dd_face_reader_new(ev, still, sink, s, err, sizeof(err));

	if (!fr)
		fail_msg("%s", err);
	dd_face_reader_set_limit(fr, INT64_MAX / 4);
	return fr;
}

/* The rest the glue gave fusion when it read on the loop. */
static void sync_rest(const struct vis_image *img, const struct dd_face_job *job, struct dd_obs *o)
{
	struct vis_die d;
	int face = 0;
	double conf = 0;

	if (vis_read_face_near(img, job->u, job->v, job->die_px, NULL, &d) == 0) {
		face = d.face;
		conf = d.confidence;
	}
	dd_obs_rest(job->t_ns, job->x, job->y, face, conf, o);
}

static void job_at(struct dd_face_job *job, int64_t t_ns, double u, double v, int track)
{
	memset(job, 0, sizeof(*job));
	job->t_ns = t_ns;
	job->x = 0.70 + track * 0.01;
	job->y = 0.40;
	job->track = track;
	job->u = u;
	job->v = v;
	job->die_px = DIE_PX;
}

/* Every face, located on the die, a side and 1.5 sides off it (the ring
 * and the general finder then decide), 2.25 sides off (nothing there),
 * in the frame's middle and at its corner (the copy clipped at the edge):
 * the rest that arrives is byte for byte the synchronous one, with the
 * rest's time, not the read's. */
static void test_face_read_off_loop_gives_the_synchronous_rest(void **state)
{
	static const struct {
		int ox, oy;	/* where the rendered crop sits in the frame */
		double du, dv;	/* located point minus the die's centre, px */
	} at[] = {
		{ 200, 120, 0, 0 }, { 200, 120, -48, 0 }, { 200, 120, 32, 32 },
		{ 200, 120, -72, 0 }, { 0, 0, 0, 0 }, { 0, 0, 40, -8 }, { 352, 232, 20, 30 },
	};
	struct seen s = { 0 };
	sd_event *ev;
	struct dd_face_reader *fr;
	int read_right = 0;

	(void)state;
	assert_int_equal(sd_event_new(&ev), 0);
	fr = new_reader(ev, &s);
	for (int face = 1; face <= 6; face++)
		for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
			struct vis_image *img = frame_with_die(face, at[k].ox, at[k].oy, (unsigned)(face * 16 + k));
			struct dd_face_job job;
			struct dd_obs want;
			size_t before = s.n;

			job_at(&job, (int64_t)(face * 100 + (int)k) * MS, at[k].ox + 64 + at[k].du,
			       at[k].oy + 64 + at[k].dv, face);
			sync_rest(img, &job, &want);
			assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
			vis_image_free(img);	/* the reader keeps its own copy */
			assert_int_equal(dd_face_reader_pending(fr), 1);
			run_until(ev, &s, before + 1);
			assert_int_equal(dd_face_reader_pending(fr), 0);
			if (memcmp(&s.obs[before], &want, sizeof(want)))
				fail_msg("face %d case %zu: off the loop face %d conf %.3f t %lld, on it face %d conf %.3f t %lld",
					 face, k, s.obs[before].ev.face, s.obs[before].confidence,
					 (long long)s.obs[before].t_ns, want.ev.face, want.confidence,
					 (long long)want.t_ns);
			if (at[k].du == 0 && at[k].dv == 0 && want.ev.face == face && want.confidence > 0)
				read_right++;
		}
	/* Not a comparison of two failures: the dice on their point read. */
	assert_int_equal(read_right, 12);
	dd_face_reader_free(fr);
	sd_event_unref(ev);
}

/* Rests queued behind each other reach fusion in their order, and the
 * camera's other observations wait behind the reads given before them
 * (a toss after a rest is not put before it); with nothing waiting, an
 * observation goes through at once. */
static void test_face_reads_queued_keep_the_cameras_order(void **state)
{
	static const int faces[3] = { 2, 5, 3 };
	struct vis_image *img[3];
	struct dd_face_job job[3];
	struct dd_obs want[3], toss, landing;
	struct seen s = { 0 };
	sd_event *ev;
	struct dd_face_reader *fr;

	(void)state;
	assert_int_equal(sd_event_new(&ev), 0);
	fr = new_reader(ev, &s);
	memset(&landing, 0, sizeof(landing));
	landing.kind = DD_OBS_EVENT;
	landing.source = DD_SRC_CAMERA;
	landing.t_ns = 900 * MS;
	landing.confidence = 0.9;
	landing.ev.kind = BD_EV_TABLE;
	assert_int_equal(dd_face_reader_pass(fr, &landing), 0);
	assert_int_equal(s.n, 1);	/* nothing waiting: at once */
	toss = landing;
	toss.kind = DD_OBS_TOSS;
	toss.t_ns = 4000 * MS;
	for (int i = 0; i < 3; i++) {
		img[i] = frame_with_die(faces[i], 100 + 60 * i, 100, 7 + i);
		job_at(&job[i], (1000 + 1000 * i) * MS, 100 + 60 * i + 64, 164, i + 1);
		sync_rest(img[i], &job[i], &want[i]);
		assert_int_equal(want[i].ev.face, faces[i]);
		assert_int_equal(dd_face_reader_read(fr, img[i], &job[i]), 0);
		vis_image_free(img[i]);
		if (i == 0)
			assert_int_equal(dd_face_reader_pass(fr, &toss), 0);
	}
	assert_int_equal(s.n, 1);	/* the toss waits behind the first read */
	assert_int_equal(dd_face_reader_pending(fr), 3);
	run_until(ev, &s, 5);
	assert_memory_equal(&s.obs[0], &landing, sizeof(landing));
	assert_memory_equal(&s.obs[1], &want[0], sizeof(want[0]));
	assert_memory_equal(&s.obs[2], &toss, sizeof(toss));
	assert_memory_equal(&s.obs[3], &want[1], sizeof(want[1]));
	assert_memory_equal(&s.obs[4], &want[2], sizeof(want[2]));
	dd_face_reader_free(fr);
	sd_event_unref(ev);
}

/* The daemon stops with reads queued and one under way: the worker is
 * joined, the copies and the queue freed, and nothing reaches the sink
 * after the reader is gone. Past DD_FACE_READS_QUEUED reads waiting, one
 * more is refused (the glue then sends the rest unread). */
static void test_face_reader_freed_with_reads_pending_stops_cleanly(void **state)
{
	struct seen s = { 0 };
	struct vis_image *img;
	struct dd_face_job job;
	struct dd_obs landing;
	sd_event *ev;
	struct dd_face_reader *fr;

	(void)state;
	assert_int_equal(sd_event_new(&ev), 0);
	img = frame_with_die(6, 200, 120, 3);
	fr = new_reader(ev, &s);
	for (int i = 0; i < DD_FACE_READS_QUEUED; i++) {
		job_at(&job, (1000 + i) * MS, 264, 184, i + 1);
		assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
	}
	assert_int_equal(dd_face_reader_read(fr, img, &job), -EBUSY);
	assert_int_equal(dd_face_reader_pending(fr), DD_FACE_READS_QUEUED);
	memset(&landing, 0, sizeof(landing));
	landing.kind = DD_OBS_TOSS;
	landing.source = DD_SRC_CAMERA;
	assert_int_equal(dd_face_reader_pass(fr, &landing), 0);
	dd_face_reader_free(fr);
	assert_int_equal(s.n, 0);

	/* Once a rest has come back: those still waiting are dropped. */
	fr = new_reader(ev, &s);
	for (int i = 0; i < 3; i++) {
		job_at(&job, (2000 + i) * MS, 264, 184, i + 1);
		assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
	}
	/* One dispatch hands over every read the worker has finished by
	 * then: one to three, as the threads ran. */
	for (int i = 0; s.n < 1 && i < 1000; i++)
		assert_true(sd_event_run(ev, 60 * 1000000ULL) >= 0);
	size_t back = s.n;
	assert_true(back >= 1 && back <= 3);
	for (size_t i = 0; i < back; i++) {
		assert_int_equal(s.obs[i].t_ns, (2000 + (int64_t)i) * MS);
		assert_int_equal(s.obs[i].ev.face, 6);
	}
	dd_face_reader_free(fr);
	assert_int_equal(s.n, back);
	/* The loop runs on without the reader's source. */
	assert_true(sd_event_run(ev, 0) >= 0);
	vis_image_free(img);
	sd_event_unref(ev);
}

/* img as the camera would give it: YUV 4:2:0, BT.601 limited range,
 * chroma from the top-left pixel of each 2x2 block. */
static struct vis_yuv420 *yuv_of(const struct vis_image *img)
{
	struct vis_yuv420 *f = vis_yuv420_new(img->width, img->height);

	assert_non_null(f);
	for (int y = 0; y < img->height; y++)
		for (int x = 0; x < img->width; x++) {
			const uint8_t *p = img->data + (size_t)y * img->stride + (size_t)x * 3;
			double r = p[0], g = p[1], b = p[2];

			f->y[(size_t)y * f->y_stride + (size_t)x] =
				(uint8_t)(16.5 + (65.481 * r + 128.553 * g + 24.966 * b) / 255);
			if (x % 2 == 0 && y % 2 == 0) {
				size_t k = (size_t)(y / 2) * f->uv_stride + (size_t)(x / 2);

				f->u[k] = (uint8_t)(128.5 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255);
				f->v[k] = (uint8_t)(128.5 + (112.0 * r - 93.786 * g - 18.214 * b) / 255);
			}
		}
	f->ts_ns = 777 * MS;
	return f;
}

/* The frame sink's side of the camera glue's read (converted off the loop). */
static struct {
	struct seen *s;			/* the observations' sink */
	struct vis_image *full;		/* the last frame kept */
	void *blob;			/* and what prep made of it */
	size_t blob_len;
	size_t before_obs;		/* observations the sink had when it was kept */
	int kept;			/* frames kept */
	pthread_t prep_thread;		/* where prep last ran */
	int preps;			/* times it ran */
} keeper;

static void keep(void *user, struct vis_image *full, void *blob, size_t len,
		 const struct dd_face_read *rd)
{
	(void)rd;
	assert_ptr_equal(user, keeper.s);
	vis_image_free(keeper.full);
	free(keeper.blob);
	keeper.full = full;
	keeper.blob = blob;
	keeper.blob_len = len;
	keeper.before_obs = keeper.s->n;
	keeper.kept++;
}

/* The glue encodes its snapshot here; the test keeps the frame's size and
 * first pixels, to see the blob is of the frame it comes with. */
static void *prep(const struct vis_image *full, size_t *len)
{
	int *b = malloc(5 * sizeof(int));

	keeper.prep_thread = pthread_self();	/* read by the test after the eventfd's hand-over */
	keeper.preps++;
	if (!b)
		return NULL;
	b[0] = full->width;
	b[1] = full->height;
	b[2] = full->data[0];
	b[3] = full->data[1];
	b[4] = full->data[2];
	*len = 5 * sizeof(int);
	return b;
}

/* The camera glue's read: the frame as the camera gives it (YUV 4:2:0),
 * given to the reader, which converts it off the loop. The rest is byte
 * for byte the one the glue gave when it converted and read on the loop,
 * and the converted frame (the snapshot) comes back before its rest. */
static void test_face_read_of_a_camera_frame_converts_it_off_the_loop(void **state)
{
	struct seen s = { 0 };
	struct vis_image *img = frame_with_die(5, 200, 120, 11), *rgb;
	struct vis_yuv420 *raw = yuv_of(img);
	struct dd_face_job job;
	struct dd_obs want;
	sd_event *ev;
	struct dd_face_reader *fr;

	(void)state;
	assert_int_equal(sd_event_new(&ev), 0);
	fr = new_reader(ev, &s);
	keeper.s = &s;
	dd_face_reader_set_frame_sink(fr, keep, &s, prep);
	rgb = vis_yuv420_image(raw);	/* what the loop did before */
	assert_non_null(rgb);
	assert_int_equal(rgb->ts_ns, 777 * MS);
	job_at(&job, 5000 * MS, 264, 184, 1);
	sync_rest(rgb, &job, &want);
	assert_int_equal(want.ev.face, 5);
	assert_int_equal(dd_face_reader_read_yuv(fr, raw, &job), 0);	/* raw is the reader's */
	assert_int_equal(keeper.kept, 0);
	run_until(ev, &s, 1);
	assert_memory_equal(&s.obs[0], &want, sizeof(want));
	assert_int_equal(keeper.kept, 1);
	assert_int_equal(keeper.before_obs, 0);	/* the frame first, then its rest */
	assert_int_equal(keeper.full->width, rgb->width);
	assert_int_equal(keeper.full->height, rgb->height);
	assert_int_equal(keeper.full->ts_ns, rgb->ts_ns);
	assert_memory_equal(keeper.full->data, rgb->data, (size_t)rgb->height * rgb->stride);
	/* prep ran once, on the worker, and its blob came with the frame. */
	assert_int_equal(keeper.preps, 1);
	assert_false(pthread_equal(keeper.prep_thread, pthread_self()));
	assert_int_equal(keeper.blob_len, 5 * sizeof(int));
	const int *b = keeper.blob;
	assert_int_equal(b[0], rgb->width);
	assert_int_equal(b[1], rgb->height);
	assert_int_equal(b[2], rgb->data[0]);
	assert_int_equal(b[3], rgb->data[1]);
	assert_int_equal(b[4], rgb->data[2]);

	/* A full queue refuses the frame and frees it (ASan: not leaked). */
	for (int i = 0; i < DD_FACE_READS_QUEUED; i++)
		assert_int_equal(dd_face_reader_read(fr, img, &job), 0);
	assert_int_equal(dd_face_reader_read_yuv(fr, yuv_of(img), &job), -EBUSY);
	dd_face_reader_free(fr);
	vis_image_free(keeper.full);
	free(keeper.blob);
	keeper.full = NULL;
	keeper.blob = NULL;
	vis_image_free(rgb);
	vis_image_free(img);
	sd_event_unref(ev);
}

static void *prep_nothing(const struct vis_image *full, size_t *len)
{
	(void)full;
	*len = 99;	/* to be ignored: no blob */
	keeper.preps++;
	return NULL;
}

/* A prep that makes nothing (the glue's encoder out of memory): the frame
 * still comes, with no blob, and the rest after it. */
static void test_face_read_prep_giving_nothing_still_keeps_the_frame(void **state)
{
	struct seen s = { 0 };
	struct vis_image *img = frame_with_die(3, 200, 120, 11);
	struct dd_face_job job;
	sd_event *ev;
	struct dd_face_reader *fr;

	(void)state;
	assert_int_equal(sd_event_new(&ev), 0);
	fr = new_reader(ev, &s);
	memset(&keeper, 0, sizeof(keeper));
	keeper.s = &s;
	dd_face_reader_set_frame_sink(fr, keep, &s, prep_nothing);
	job_at(&job, 5000 * MS, 264, 184, 1);
	assert_int_equal(dd_face_reader_read_yuv(fr, yuv_of(img), &job), 0);
	run_until(ev, &s, 1);
	assert_int_equal(s.obs[0].ev.face, 3);
	assert_int_equal(keeper.preps, 1);
	assert_int_equal(keeper.kept, 1);
	assert_null(keeper.blob);
	assert_int_equal(keeper.blob_len, 0);
	assert_int_equal(keeper.full->ts_ns, 777 * MS);
	dd_face_reader_free(fr);
	vis_image_free(keeper.full);
	keeper.full = NULL;
	vis_image_free(img);
	sd_event_unref(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_face_read_off_loop_gives_the_synchronous_rest),
		cmocka_unit_test(test_face_reads_queued_keep_the_cameras_order),
		cmocka_unit_test(test_face_reader_freed_with_reads_pending_stops_cleanly),
		cmocka_unit_test(test_face_read_of_a_camera_frame_converts_it_off_the_loop),
		cmocka_unit_test(test_face_read_prep_giving_nothing_still_keeps_the_frame),
	};
	int rc;

	still = dd_clock_new_manual(0);
	if (!still)
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	dd_clock_free(still);
	return rc;
}
