/* Reading a resting die's face, on the loop's behalf (daemon/face_reader.c). */
#ifndef DYEREF_DAEMON_FACE_READER_H
#define DYEREF_DAEMON_FACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "daemon/clock.h"
#include "daemon/fusion.h"
#include "daemon/inputs.h"

struct vis_image;
/* Reads a resting die's face off the event loop (daemon/face_reader.c),
 * for the camera glue: one worker thread runs vis_read_face_near on a copy
 * of the region around the die and hands the result back through an
 * eventfd on the loop. Observations reach the sink on the loop, in the
 * order they were given: a read as the rest dd_obs_rest() makes of the
 * job's time and place (the rest's, not the read's end) with the face read
 * (0: unread, confidence 0), an observation passed through after the reads
 * given before it. */
struct dd_face_job {
	int64_t t_ns;		/* the rest's time (the frame's) */
	double x, y;		/* the rest's place, table metres */
	int track;		/* the tracker's id of the die */
	double u, v;		/* where the die was located in the full frame, pixels */
	double die_px;		/* a die's side there, pixels */
};

#define DD_FACE_READS_QUEUED 16	/* reads waiting at most: more is a tracker gone wrong */
/* A read not back this long after it was given (the reader's clock) is given
 * up: its rest goes to the sink unread (face 0, confidence 0: the official
 * reads it), so a stuck or far too slow read holds neither fusion's timer
 * nor the observations behind it for longer. A read takes a tenth to half
 * a second on a Pi; reads queued behind it wait too. */
#define DD_FACE_READ_LIMIT_NS (5000 * 1000000LL)

struct dd_face_reader;

/* A reader on ev (its worker's results come back through an io source
 * there) handing observations to sink(user, o), giving up reads after
 * DD_FACE_READ_LIMIT_NS on clock. ev and clock are borrowed: they outlive
 * the reader. NULL with errno and a message. Free with
 * dd_face_reader_free(). */
struct dd_face_reader *dd_face_reader_new(sd_event *ev, struct dd_clock *clock, dd_obs_sink sink,
					  void *user, char *err, size_t errlen);
/* Every read queued (by either function below) first hands the sink, at
 * once, a DD_OBS_REST_PENDING from DD_SRC_CAMERA at the rest's time and
 * place (job's t_ns, x, y; confidence 1): fusion then holds the throw's
 * settle until the rest itself comes, whatever order the observations
 * reach it in.
 *
 * Queues a read of job's die in full (the caller's: the reader copies the
 * part it reads). 0; -EBUSY when DD_FACE_READS_QUEUED reads wait already,
 * -ENOMEM: nothing queued then. */
int dd_face_reader_read(struct dd_face_reader *fr, const struct vis_image *full,
			const struct dd_face_job *job);
/* Queues a read of job's die in raw, a frame as the camera gives it (the
 * reader's from here in every case, also on an error): the worker converts
 * it to RGB (the loop neither copies nor converts it), reads the face on
 * the whole frame and hands the converted frame to the reader's frame sink
 * (dd_face_reader_set_frame_sink) on the loop, just before the rest goes
 * to the sink. 0; -EBUSY, -ENOMEM: nothing queued (raw freed). */
struct vis_yuv420;
int dd_face_reader_read_yuv(struct dd_face_reader *fr, struct vis_yuv420 *raw,
			    const struct dd_face_job *job);
/* A read as it came back, on the loop (not one given up): the job, where
 * the die was found and the rest it gives (to the sink right after). */
struct dd_face_read {
	const struct dd_face_job *job;	/* the read asked */
	bool found;			/* a die was found near the job's point */
	double u, v;			/* found: its centre, pixels of the picture the job names */
	double side;			/* found: its side, pixels */
	const struct dd_obs *rest;	/* the rest: the face read and its confidence */
};
/* Receives a frame converted off the loop, the callee's (stolen), with
 * what prep made of it (blob, len bytes: the callee's, free() it; NULL
 * without prep or when prep gave nothing) and the read made on it. */
typedef void (*dd_frame_sink)(void *user, struct vis_image *full, void *blob, size_t len,
			      const struct dd_face_read *rd);
/* Is told of each read that comes back, before its frame goes to the
 * frame sink and its rest to the sink (the simulated camera's snapshot). */
typedef void (*dd_read_sink)(void *user, const struct dd_face_read *rd);
void dd_face_reader_set_read_sink(struct dd_face_reader *fr, dd_read_sink fn, void *user);
/* Runs on the worker thread on each converted frame, after its read
 * (not for a read already given up): work the sink would otherwise do on
 * the loop (the camera glue's snapshot JPEG). The rest waits for it.
 * Returns a malloc'd blob and *len, or NULL. It must touch nothing but
 * full and what it allocates. */
typedef void *(*dd_frame_prep)(const struct vis_image *full, size_t *len);
/* Where converted frames go (keep(keep_user, ...)) and what is made of
 * them first (prep, or NULL); without keep they are dropped. */
void dd_face_reader_set_frame_sink(struct dd_face_reader *fr, dd_frame_sink keep,
				   void *keep_user, dd_frame_prep prep);
/* The face net reads from now on weigh in (NULL: the built-in net). Takes
 * net: it is freed (vis_fnet_free) when the reader's worker has ended,
 * which may be after dd_face_reader_free returns (a read under way then
 * still reads with it). 0, or -EBUSY when a net was set before (net is
 * then still the caller's). */
struct vis_fnet;
int dd_face_reader_set_net(struct dd_face_reader *fr, struct vis_fnet *net);
/* Hands o (copied) to the sink now when no read is waiting, else after
 * the reads queued before it. 0 or -ENOMEM (o is dropped). */
int dd_face_reader_pass(struct dd_face_reader *fr, const struct dd_obs *o);
/* Reads queued whose rest has not reached the sink yet (0 for NULL). */
size_t dd_face_reader_pending(const struct dd_face_reader *fr);
/* Whether the worker has finished (or not started) every read queued, so
 * that the loop's next turn delivers them (true for NULL): what a test
 * waits for, on a real bound, before it steps the clock on. */
bool dd_face_reader_settled(const struct dd_face_reader *fr);
/* Gives up reads limit_ns after they were given (reads given from now on;
 * tests drive a stuck read with it). */
void dd_face_reader_set_limit(struct dd_face_reader *fr, int64_t limit_ns);
/* Drops what was not delivered, tells the worker to end and frees, at
 * once: a read under way is not waited for (it may never return); the
 * worker frees it and ends when it does. NULL is fine. */
void dd_face_reader_free(struct dd_face_reader *fr);

#endif /* DYEREF_DAEMON_FACE_READER_H */
