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

#include "daemon/daemon.h"
#include "vision/vision.h"

/* How far from the located point the readers of dd_read_face_near look:
 * vis_read_die_near's window reaches 2.25 sides around points up to one
 * side off (3.25), vis_read_face_at's 1.5 sides around the same points
 * (2.5). The copy holds 4 sides and 2 px around, so it holds every pixel
 * they read and they read the same as on the whole frame. */
#define CROP_SIDES 4.0
#define CROP_MARGIN_PX 2

/* One observation on its way to the sink: a read, or one passed through. */
struct item {
	struct item *next;		/* the loop's order (out list) */
	struct item *next_todo;		/* the worker's queue */
	bool is_read;			/* a face to read; else obs as given */
	struct dd_face_job job;		/* read: the rest's identity, where to read */
	struct vis_image *crop;		/* read: owned, the worker's once queued; freed when read */
	double cu, cv;			/* read: job's (u, v) in crop pixels */
	bool done;			/* read: finished (under lock) */
	int face;			/* read: 1-6, 0 unread (under lock) */
	double confidence;		/* read: the reader's (under lock) */
	struct dd_obs obs;		/* passed through: the observation */
};

struct dd_face_reader {
	dd_obs_sink sink;		/* where observations go */
	void *user;			/* for sink */
	sd_event_source *io;		/* efd on the loop */
	int efd;			/* the worker's "a read is done" */
	pthread_t thread;		/* the worker */
	bool started;			/* thread was created */
	pthread_mutex_t lock;		/* guards todo, stop and the items' results */
	pthread_cond_t wake;		/* todo got an item, or stop was set */
	struct item *todo;		/* reads not yet started, oldest first (under lock) */
	struct item *todo_tail;		/* its last, or NULL (under lock) */
	bool stop;			/* the worker is to end (under lock) */
	struct item *out;		/* the loop's: not yet delivered, in order */
	struct item *out_tail;		/* its last, or NULL */
	size_t pending;			/* reads in out */
};

static void *worker(void *arg)
{
	struct dd_face_reader *fr = arg;

	for (;;) {
		struct item *it;
		struct vis_die d;
		int face = 0;
		double conf = 0;
		uint64_t one = 1;

		pthread_mutex_lock(&fr->lock);
		while (!fr->stop && !fr->todo)
			pthread_cond_wait(&fr->wake, &fr->lock);
		if (fr->stop) {
			pthread_mutex_unlock(&fr->lock);
			return NULL;	/* what is left is freed by the loop */
		}
		it = fr->todo;
		fr->todo = it->next_todo;
		if (!fr->todo)
			fr->todo_tail = NULL;
		pthread_mutex_unlock(&fr->lock);

		if (dd_read_face_near(it->crop, it->cu, it->cv, it->job.die_px, &d) == 0) {
			face = d.face;
			conf = d.confidence;
		}
		vis_image_free(it->crop);
		it->crop = NULL;

		pthread_mutex_lock(&fr->lock);
		it->face = face;
		it->confidence = conf;
		it->done = true;
		pthread_mutex_unlock(&fr->lock);
		if (write(fr->efd, &one, sizeof(one)) < 0) {
			/* EAGAIN: the counter is full, the loop is woken anyway */
		}
	}
}

/* Gives the sink every item at the head of out that is ready, in order. */
static void flush(struct dd_face_reader *fr)
{
	for (;;) {
		struct item *it = fr->out;
		struct dd_obs o;
		bool ready = true;

		if (!it)
			return;
		if (it->is_read) {
			pthread_mutex_lock(&fr->lock);
			ready = it->done;
			pthread_mutex_unlock(&fr->lock);
		}
		if (!ready)
			return;
		fr->out = it->next;
		if (!fr->out)
			fr->out_tail = NULL;
		if (it->is_read) {
			/* The rest's own time and place: the read's end is no event. */
			dd_obs_rest(it->job.t_ns, it->job.x, it->job.y, it->face, it->confidence, &o);
			fr->pending--;
		} else {
			o = it->obs;
		}
		free(it);
		/* The sink may pass more observations: out is consistent here. */
		fr->sink(fr->user, &o);
	}
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

struct dd_face_reader *dd_face_reader_new(sd_event *ev, dd_obs_sink sink, void *user,
					  char *err, size_t errlen)
{
	struct dd_face_reader *fr = calloc(1, sizeof(*fr));
	sigset_t all, old;
	int rc;

	if (!fr) {
		snprintf(err, errlen, "face reader: out of memory");
		return NULL;
	}
	fr->sink = sink;
	fr->user = user;
	pthread_mutex_init(&fr->lock, NULL);
	pthread_cond_init(&fr->wake, NULL);
	fr->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fr->efd < 0) {
		rc = -errno;
		snprintf(err, errlen, "face reader: eventfd: %s", strerror(errno));
		goto free_reader;
	}
	rc = sd_event_add_io(ev, &fr->io, fr->efd, EPOLLIN, on_done, fr);
	if (rc < 0) {
		snprintf(err, errlen, "face reader: event loop: %s", strerror(-rc));
		goto free_reader;
	}
	/* The worker takes no signal: the loop's signalfd does (a signal
	 * the loop blocked must not end the process through this thread). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = -pthread_create(&fr->thread, NULL, worker, fr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc < 0) {
		snprintf(err, errlen, "face reader: thread: %s", strerror(-rc));
		goto free_reader;
	}
	fr->started = true;
	return fr;
free_reader:
	dd_face_reader_free(fr);
	errno = -rc;
	return NULL;
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
	queue_out(fr, it);
	fr->pending++;
	pthread_mutex_lock(&fr->lock);
	if (fr->todo_tail)
		fr->todo_tail->next_todo = it;
	else
		fr->todo = it;
	fr->todo_tail = it;
	pthread_cond_signal(&fr->wake);
	pthread_mutex_unlock(&fr->lock);
	return 0;
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

void dd_face_reader_free(struct dd_face_reader *fr)
{
	if (!fr)
		return;
	if (fr->started) {
		pthread_mutex_lock(&fr->lock);
		fr->stop = true;
		pthread_cond_signal(&fr->wake);
		pthread_mutex_unlock(&fr->lock);
		/* A read under way finishes first: vision cannot be interrupted. */
		pthread_join(fr->thread, NULL);
	}
	while (fr->out) {
		struct item *it = fr->out;

		fr->out = it->next;
		vis_image_free(it->crop);
		free(it);
	}
	sd_event_source_disable_unref(fr->io);
	if (fr->efd >= 0)
		close(fr->efd);
	pthread_cond_destroy(&fr->wake);
	pthread_mutex_destroy(&fr->lock);
	free(fr);
}
