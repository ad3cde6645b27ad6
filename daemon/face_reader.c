/* Reading a resting die's face off the event loop. vis_read_die_near at up
 * to nine points and then the general finder take a few ms here and a
 * tenth to half a second on a Pi: on the loop that stalls the scoreboard,
 * the event streams and the watchdog. One worker thread reads a copy of
 * the region around the die and hands the result back through an eventfd
 * (an sd-event io source), as libcamera's thread hands over frames; the
 * loop then gives fusion the rest the camera glue always gave it, in the
 * camera's order. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "daemon/clock.h"
#include "daemon/daemon.h"
#include "daemon/face_reader.h"
#include "daemon/fusion.h"
#include "daemon/inputs.h"
#include "daemon/obs_time.h"
#include "vision/vision.h"

/* How far from the located point the readers of vis_read_face_near look:
 * vis_read_die_near's window reaches 2.25 sides around points up to one
 * side off (3.25), vis_read_face_at's 1.5 sides around the same points
 * (2.5). The copy holds 4 sides and 2 px around, so it holds every pixel
 * they read and they read the same as on the whole frame. */
#define CROP_SIDES 4.0
#define CROP_MARGIN_PX 2

/* Where a read stands (under the share's lock). */
enum read_state {
	READ_QUEUED,			/* in todo, not started */
	READ_UNDER_WAY,			/* the worker has it */
	READ_DONE,			/* face and confidence set */
};

/* One observation on its way to the sink: a read, or one passed through.
 * The loop owns it (out), except a read given up while under way: the
 * worker frees that one when its read returns. */
struct item {
	struct item *next;		/* the loop's order (out) */
	struct item *next_todo;		/* the worker's queue (under lock) */
	bool is_read;			/* a face to read; else obs as given */
	struct dd_face_job job;		/* read: the rest's identity, where to read */
	struct vis_image *crop;		/* read: owned, the worker's once queued; freed when read */
	struct vis_yuv420 *raw;		/* read: or the camera's frame, owned likewise; converted by the worker */
	struct vis_image *full;		/* read from raw: the converted frame, for the loop once done */
	void *blob;			/* read from raw: the frame sink's prep of full (malloc'd), or NULL */
	size_t blob_len;		/* its bytes */
	double cu, cv;			/* read: job's (u, v) in crop (or raw) pixels */
	int64_t deadline_ns;		/* read: when the loop gives up on it (the reader's clock) */
	enum read_state state;		/* read: (under lock) */
	bool abandoned;			/* read: given up while under way: the worker frees it (under lock) */
	int face;			/* read: 1-6, 0 unread (under lock) */
	bool found;			/* read: a die found (under lock) */
	double fu, fv, fside;		/* found: its centre and side in the job's picture (under lock) */
	double confidence;		/* read: the reader's (under lock) */
	struct dd_obs obs;		/* passed through: the observation */
};

/* What the loop and the worker share. Each holds a reference: the last to
 * let go frees it, so a reader can be freed while a read is stuck (the
 * worker is detached, not joined, and ends when its read returns). */
struct share {
	pthread_mutex_t lock;		/* guards everything below and the items' locked fields */
	pthread_cond_t wake;		/* todo got an item, or stop was set */
	struct item *todo;		/* reads not yet started, oldest first */
	struct item *todo_tail;		/* its last, or NULL */
	bool stop;			/* the worker is to end */
	dd_frame_prep prep;		/* run on each converted frame by the worker, or NULL */
	struct vis_fnet *net;		/* owned: the face net the reads weigh in (NULL:
					 * built-in); freed with the share, after the
					 * worker's last read, not by dd_face_reader_free */
	int refs;			/* the loop's and the worker's: 0 frees */
	int efd;			/* the worker's "a read is done" */
};

struct dd_face_reader {
	dd_obs_sink sink;		/* where observations go */
	void *user;			/* for sink */
	dd_frame_sink keep;		/* where converted frames go, or NULL */
	void *keep_user;		/* for keep */
	dd_read_sink on_read;		/* told of each read back, or NULL */
	void *read_user;		/* for on_read */
	struct dd_clock *clock;		/* borrowed: times the reads */
	sd_event_source *io;		/* share->efd on the loop */
	struct dd_timer *limit;		/* the oldest read's deadline */
	int64_t limit_ns;		/* a read given up after this long */
	struct share *sh;		/* shared with the worker */
	struct item *out;		/* not yet delivered, in order */
	struct item *out_tail;		/* its last, or NULL */
	size_t pending;			/* reads in out */
};

static void item_free(struct item *it)
{
	if (!it)
		return;
	vis_image_free(it->crop);
	vis_yuv420_free(it->raw);
	vis_image_free(it->full);
	free(it->blob);
	free(it);
}

/* Lets go of one reference (under no lock); the last frees. */
static void share_unref(struct share *sh)
{
	bool last;

	pthread_mutex_lock(&sh->lock);
	last = --sh->refs == 0;
	pthread_mutex_unlock(&sh->lock);
	if (!last)
		return;
	if (sh->efd >= 0)
		close(sh->efd);
	vis_fnet_free(sh->net);
	pthread_cond_destroy(&sh->wake);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
}

static void *worker(void *arg)
{
	struct share *sh = arg;

	for (;;) {
		struct item *it;
		struct vis_image *full = NULL;
		dd_frame_prep prep;
		const struct vis_fnet *net;
		void *blob = NULL;
		size_t blob_len = 0;
		struct vis_die d = { 0 };
		int face = 0;
		double conf = 0;
		bool found = false;
		uint64_t one = 1;
		bool dropped;

		pthread_mutex_lock(&sh->lock);
		while (!sh->stop && !sh->todo)
			pthread_cond_wait(&sh->wake, &sh->lock);
		if (sh->stop) {
			pthread_mutex_unlock(&sh->lock);
			break;	/* what is left is the loop's */
		}
		it = sh->todo;
		sh->todo = it->next_todo;
		if (!sh->todo)
			sh->todo_tail = NULL;
		it->state = READ_UNDER_WAY;
		prep = sh->prep;
		net = sh->net;
		pthread_mutex_unlock(&sh->lock);

		if (it->raw) {
			/* The conversion the loop no longer does: the whole frame
			 * (the snapshot is of it), then the read on it. */
			full = vis_yuv420_image(it->raw);
			vis_yuv420_free(it->raw);
			it->raw = NULL;
		}
		if ((full || it->crop) &&
		    vis_read_face_near(full ? full : it->crop, it->cu, it->cv, it->job.die_px, net, &d) == 0) {
			face = d.face;
			conf = d.confidence;
			found = true;
		}
		vis_image_free(it->crop);
		it->crop = NULL;
		/* What the frame's keeper would otherwise do on the loop (the
		 * camera glue: its snapshot's JPEG). The frame goes to the loop
		 * before its rest (a throw the rest ends stores it), so the rest
		 * waits for this as it waited for the loop's encoding; not for
		 * a read the loop has given up, whose frame nobody keeps. */
		pthread_mutex_lock(&sh->lock);
		dropped = it->abandoned;
		pthread_mutex_unlock(&sh->lock);
		if (full && prep && !dropped)
			blob = prep(full, &blob_len);

		pthread_mutex_lock(&sh->lock);
		dropped = it->abandoned;	/* the loop sent it unread, or is gone */
		if (!dropped) {
			it->face = face;
			it->confidence = conf;
			it->found = found;
			/* From the copy's pixels to the picture's the job names. */
			it->fu = d.x + (it->job.u - it->cu);
			it->fv = d.y + (it->job.v - it->cv);
			it->fside = d.side;
			it->full = full;
			it->blob = blob;
			it->blob_len = blob ? blob_len : 0;
			it->state = READ_DONE;
		}
		pthread_mutex_unlock(&sh->lock);
		if (dropped) {
			vis_image_free(full);
			free(blob);
			item_free(it);
			continue;
		}
		if (write(sh->efd, &one, sizeof(one)) < 0) {
			/* EAGAIN: the counter is full, the loop is woken anyway */
		}
	}
	share_unref(sh);
	return NULL;
}

static void arm_limit(struct dd_face_reader *fr);

/* Gives the sink every item at the head of out that is ready, in order. */
static void flush(struct dd_face_reader *fr)
{
	for (;;) {
		struct item *it = fr->out;
		struct dd_obs o;
		bool ready = true;

		if (!it)
			break;
		if (it->is_read) {
			pthread_mutex_lock(&fr->sh->lock);
			ready = it->state == READ_DONE;
			pthread_mutex_unlock(&fr->sh->lock);
		}
		if (!ready)
			break;
		fr->out = it->next;
		if (!fr->out)
			fr->out_tail = NULL;
		if (it->is_read) {
			/* The rest's own time and place: the read's end is no event. */
			dd_obs_rest(it->job.t_ns, it->job.x, it->job.y, it->face, it->confidence, &o);
			struct dd_face_read rd = { .job = &it->job, .found = it->found, .u = it->fu,
						   .v = it->fv, .side = it->fside, .rest = &o };

			fr->pending--;
			if (fr->on_read)
				fr->on_read(fr->read_user, &rd);
			/* The frame before its rest: a throw the rest ends may
			 * store it. */
			if (it->full && fr->keep) {
				fr->keep(fr->keep_user, it->full, it->blob, it->blob_len, &rd);
				it->full = NULL;
				it->blob = NULL;
			}
		} else {
			o = it->obs;
		}
		item_free(it);
		/* The sink may pass more observations: out is consistent here. */
		fr->sink(fr->user, &o);
	}
	arm_limit(fr);
}

static int on_done(sd_event_source *s, int fd, uint32_t revents, void *user)
{
	uint64_t count;

	(void)s;
	(void)revents;
	if (read(fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
		dd_log(DD_LOG_WARN, "camera: face reader: eventfd: %s", strerror(errno));
	flush(user);
	return 0;
}

/* Takes read it (out's head) back from the worker: true when the loop owns
 * it now (it was queued or is done), false when the worker frees it. */
static bool take_back(struct share *sh, struct item *it)
{
	bool ours = true;

	pthread_mutex_lock(&sh->lock);
	if (it->state == READ_QUEUED) {
		struct item **p = &sh->todo;

		while (*p && *p != it)
			p = &(*p)->next_todo;
		if (*p)
			*p = it->next_todo;
		sh->todo_tail = NULL;
		for (struct item *q = sh->todo; q; q = q->next_todo)
			sh->todo_tail = q;
	} else if (it->state == READ_UNDER_WAY) {
		it->abandoned = true;
		ours = false;
	}
	pthread_mutex_unlock(&sh->lock);
	return ours;
}

/* The oldest read is past its limit (a stuck or far too slow read): its
 * rest goes to fusion unread (confidence 0: the official reads the face),
 * so neither fusion's timer nor the observations behind it wait forever. */
static void on_limit(void *user)
{
	struct dd_face_reader *fr = user;
	int64_t now = dd_clock_now(fr->clock);

	for (;;) {
		struct item *it = fr->out;
		struct dd_obs o;
		bool done;

		if (!it || !it->is_read || it->deadline_ns > now)
			break;
		pthread_mutex_lock(&fr->sh->lock);
		done = it->state == READ_DONE;
		pthread_mutex_unlock(&fr->sh->lock);
		if (done)
			break;	/* in just in time: flush sends it */
		fr->out = it->next;
		if (!fr->out)
			fr->out_tail = NULL;
		fr->pending--;
		dd_log(DD_LOG_WARN, "camera: track %d's face not read within %lld ms: sent unread (review)",
		       it->job.track, (long long)(fr->limit_ns / 1000000));
		dd_obs_rest(it->job.t_ns, it->job.x, it->job.y, 0, 0, &o);
		if (take_back(fr->sh, it))
			item_free(it);
		fr->sink(fr->user, &o);
	}
	flush(fr);	/* what waited behind it; re-arms */
}

/* The limit's timer at out's oldest read, or off. */
static void arm_limit(struct dd_face_reader *fr)
{
	if (!fr->limit)
		return;
	dd_timer_arm(fr->limit, fr->out && fr->out->is_read ? fr->out->deadline_ns : INT64_MAX);
}

struct dd_face_reader *dd_face_reader_new(sd_event *ev, struct dd_clock *clock, dd_obs_sink sink,
					  void *user, char *err, size_t errlen)
{
	struct dd_face_reader *fr = calloc(1, sizeof(*fr));
	struct share *sh = calloc(1, sizeof(*sh));
	pthread_t thread;
	sigset_t all, old;
	int rc;

	if (!fr || !sh) {
		free(fr);
		free(sh);
		snprintf(err, errlen, "face reader: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	fr->sink = sink;
	fr->user = user;
	fr->clock = clock;
	fr->limit_ns = DD_FACE_READ_LIMIT_NS;
	fr->sh = sh;
	pthread_mutex_init(&sh->lock, NULL);
	pthread_cond_init(&sh->wake, NULL);
	sh->refs = 1;
	sh->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (sh->efd < 0) {
		rc = -errno;
		snprintf(err, errlen, "face reader: eventfd: %s", strerror(errno));
		goto free_reader;
	}
	rc = sd_event_add_io(ev, &fr->io, sh->efd, EPOLLIN, on_done, fr);
	if (rc >= 0 && !(fr->limit = dd_timer_new(clock, on_limit, fr)))
		rc = -errno;
	if (rc < 0) {
		snprintf(err, errlen, "face reader: event loop: %s", strerror(-rc));
		goto free_reader;
	}
	/* The worker takes no signal: the loop's signalfd does (a signal
	 * the loop blocked must not end the process through this thread). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	sh->refs++;
	rc = -pthread_create(&thread, NULL, worker, sh);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc < 0) {
		sh->refs--;
		snprintf(err, errlen, "face reader: thread: %s", strerror(-rc));
		goto free_reader;
	}
	/* Never joined: a stuck read must not hold the daemon's stop. */
	pthread_detach(thread);
	return fr;
free_reader:
	dd_face_reader_free(fr);
	errno = -rc;
	return NULL;
}

void dd_face_reader_set_frame_sink(struct dd_face_reader *fr, dd_frame_sink keep,
				   void *keep_user, dd_frame_prep prep)
{
	fr->keep = keep;
	fr->keep_user = keep_user;
	pthread_mutex_lock(&fr->sh->lock);
	fr->sh->prep = prep;
	pthread_mutex_unlock(&fr->sh->lock);
}

int dd_face_reader_set_net(struct dd_face_reader *fr, struct vis_fnet *net)
{
	int rc = 0;

	/* Once only: the worker may be reading with the net set before, and
	 * only the share's end may free it. */
	pthread_mutex_lock(&fr->sh->lock);
	if (fr->sh->net)
		rc = -EBUSY;
	else
		fr->sh->net = net;
	pthread_mutex_unlock(&fr->sh->lock);
	return rc;
}

void dd_face_reader_set_read_sink(struct dd_face_reader *fr, dd_read_sink fn, void *user)
{
	fr->on_read = fn;
	fr->read_user = user;
}

void dd_face_reader_set_limit(struct dd_face_reader *fr, int64_t limit_ns)
{
	fr->limit_ns = limit_ns < 0 ? 0 : limit_ns;
}

/* The part of full the readers look at around (u, v), or all of it when
 * the point or the die's size leave no sensible region. */
static struct vis_image *crop_around(const struct vis_image *full, double u, double v,
				     double die_px, int *x0, int *y0)
{
	double reach = CROP_SIDES * die_px + CROP_MARGIN_PX;
	int x1 = full->width, y1 = full->height;
	struct vis_image *c;

	*x0 = 0;
	*y0 = 0;
	if (isfinite(u) && isfinite(v) && die_px > 0 && reach < full->width && reach < full->height &&
	    u > -reach && v > -reach && u < full->width + reach && v < full->height + reach) {
		int half = (int)ceil(reach);

		*x0 = (int)floor(u) - half;
		*y0 = (int)floor(v) - half;
		x1 = (int)floor(u) + half + 1;
		y1 = (int)floor(v) + half + 1;
		*x0 = *x0 < 0 ? 0 : *x0;
		*y0 = *y0 < 0 ? 0 : *y0;
		x1 = x1 > full->width ? full->width : x1;
		y1 = y1 > full->height ? full->height : y1;
		if (x1 <= *x0 || y1 <= *y0) {
			*x0 = *y0 = 0;
			x1 = full->width;
			y1 = full->height;
		}
	}
	c = vis_image_new(x1 - *x0, y1 - *y0, full->format);
	if (!c)
		return NULL;
	for (int r = 0; r < c->height; r++)
		memcpy(c->data + (size_t)r * c->stride,
		       full->data + (size_t)(r + *y0) * full->stride + (size_t)*x0 * full->format,
		       (size_t)c->width * full->format);
	c->ts_ns = full->ts_ns;
	return c;
}

static void enqueue(struct dd_face_reader *fr, struct item *it);

/* Appends it to the loop's order. */
static void queue_out(struct dd_face_reader *fr, struct item *it)
{
	if (fr->out_tail)
		fr->out_tail->next = it;
	else
		fr->out = it;
	fr->out_tail = it;
}

int dd_face_reader_read(struct dd_face_reader *fr, const struct vis_image *full,
			const struct dd_face_job *job)
{
	struct item *it;
	int x0, y0;

	if (fr->pending >= DD_FACE_READS_QUEUED)
		return -EBUSY;
	it = calloc(1, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->is_read = true;
	it->job = *job;
	it->crop = crop_around(full, job->u, job->v, job->die_px, &x0, &y0);
	if (!it->crop) {
		free(it);
		return -ENOMEM;
	}
	/* Whole pixels off: the readers' arithmetic shifts with them. */
	it->cu = job->u - x0;
	it->cv = job->v - y0;
	enqueue(fr, it);
	return 0;
}

int dd_face_reader_read_yuv(struct dd_face_reader *fr, struct vis_yuv420 *raw,
			    const struct dd_face_job *job)
{
	struct item *it;

	if (fr->pending >= DD_FACE_READS_QUEUED) {
		vis_yuv420_free(raw);
		return -EBUSY;
	}
	it = calloc(1, sizeof(*it));
	if (!it) {
		vis_yuv420_free(raw);
		return -ENOMEM;
	}
	it->is_read = true;
	it->job = *job;
	it->raw = raw;	/* the worker converts it: no copy, no conversion here */
	it->cu = job->u;
	it->cv = job->v;
	enqueue(fr, it);
	return 0;
}

/* Queues read it for the worker, behind everything in out, and tells the
 * sink its rest is coming. */
static void enqueue(struct dd_face_reader *fr, struct item *it)
{
	struct dd_obs pending;

	/* From now: a read waiting behind slow ones counts its wait, as the
	 * throw does. */
	it->deadline_ns = dd_time_shifted(dd_clock_now(fr->clock), fr->limit_ns);
	it->state = READ_QUEUED;
	queue_out(fr, it);
	fr->pending++;
	pthread_mutex_lock(&fr->sh->lock);
	if (fr->sh->todo_tail)
		fr->sh->todo_tail->next_todo = it;
	else
		fr->sh->todo = it;
	fr->sh->todo_tail = it;
	pthread_cond_signal(&fr->sh->wake);
	pthread_mutex_unlock(&fr->sh->lock);
	if (fr->out == it)
		arm_limit(fr);
	/* Last: the sink may pass observations or queue reads (out is
	 * consistent), or free nothing of ours. */
	memset(&pending, 0, sizeof(pending));
	pending.kind = DD_OBS_REST_PENDING;
	pending.source = DD_SRC_CAMERA;
	pending.t_ns = it->job.t_ns;
	pending.confidence = 1;
	pending.ev.kind = BD_EV_REST;
	pending.ev.player = BD_NOBODY;
	pending.ev.x = it->job.x;
	pending.ev.y = it->job.y;
	pending.ev.t_ns = it->job.t_ns;
	fr->sink(fr->user, &pending);
}

int dd_face_reader_pass(struct dd_face_reader *fr, const struct dd_obs *o)
{
	struct item *it;

	if (!fr->out) {
		fr->sink(fr->user, o);
		return 0;
	}
	it = calloc(1, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->obs = *o;
	queue_out(fr, it);
	return 0;
}

size_t dd_face_reader_pending(const struct dd_face_reader *fr)
{
	return fr ? fr->pending : 0;
}

bool dd_face_reader_settled(const struct dd_face_reader *fr)
{
	bool settled = true;

	if (!fr)
		return true;
	pthread_mutex_lock(&fr->sh->lock);
	for (const struct item *it = fr->out; it; it = it->next)
		if (it->is_read && it->state != READ_DONE)
			settled = false;
	pthread_mutex_unlock(&fr->sh->lock);
	return settled;
}

void dd_face_reader_free(struct dd_face_reader *fr)
{
	struct item *ours = NULL;

	if (!fr)
		return;
	/* First: nothing reaches the sink any more. */
	fr->io = sd_event_source_disable_unref(fr->io);
	dd_timer_free(fr->limit);
	fr->limit = NULL;
	if (fr->sh) {
		pthread_mutex_lock(&fr->sh->lock);
		/* Reads not started are the loop's; one under way is left to
		 * the worker, which frees it when its read returns and then
		 * ends: no wait here for a read that may never return. */
		fr->sh->todo = fr->sh->todo_tail = NULL;
		while (fr->out) {
			struct item *it = fr->out;

			fr->out = it->next;
			if (it->is_read && it->state == READ_UNDER_WAY) {
				it->abandoned = true;
				continue;
			}
			it->next = ours;
			ours = it;
		}
		fr->sh->stop = true;
		pthread_cond_signal(&fr->sh->wake);
		pthread_mutex_unlock(&fr->sh->lock);
		share_unref(fr->sh);
	}
	while (ours) {
		struct item *it = ours;

		ours = it->next;
		item_free(it);
	}
	free(fr);
}
