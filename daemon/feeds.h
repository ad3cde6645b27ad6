/* The simulated inputs of `dyeref serve --sim`: the demo feeder
 * (daemon/demo_feed.c), the live simulator (daemon/sim_feed.c) and the
 * conversions of simulated reports into observations (daemon/sim_obs.c). */
#ifndef DYEREF_DAEMON_FEEDS_H
#define DYEREF_DAEMON_FEEDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "core/core.h"
#include "daemon/clock.h"
#include "daemon/face_reader.h"
#include "daemon/fusion.h"
#include "daemon/inputs.h"
#include "daemon/snapshot.h"

/* ---- The demo feeder (daemon/demo_feed.c) ----
 * With --sim (not --sim=table): replays a built-in sample match's throws
 * as timed observation sequences (piezo, camera, console), on clock, into
 * the same sink as the sensors. Observation times are the clock's: a
 * faster clock ([sim] speed) plays the same match sooner. */
struct dd_demo;

/* Starts feeding on clock (borrowed: it outlives the feeder). NULL with
 * errno and a message. Free (it stops) with dd_demo_free(); NULL is fine. */
struct dd_demo *dd_demo_new(struct dd_clock *clock, dd_obs_sink sink, void *user,
			    char *err, size_t errlen);
void dd_demo_free(struct dd_demo *d);
/* The sample match's players (for starting a match in --sim mode). */
void dd_demo_match_cfg(struct bd_match_cfg *cfg, char team_names[2][32]);

/* The demo's camera picture of the throw's resting die (dd_sim_snap), as
 * dd_snapshot_fn: 1 stored, 0 none, negative errno with a message. */
struct db;
int dd_demo_snapshot(struct dd_demo *d, struct db *db, int64_t match, int throw_no,
		     int64_t since_ns, char *err, size_t errlen);

/* ---- The simulated camera's picture (daemon/snapshot.c) ----
 * The latest resting die the simulated camera saw: its rendered crop as a
 * JPEG, what is known of it, and the face read once it comes back. Zero it
 * to start; dd_sim_snap_clear() frees. */
struct dd_face_job;
struct dd_sim_snap {
	void *jpeg;			/* owned, or NULL: none kept */
	size_t len;			/* its bytes */
	struct dd_snapshot_meta meta;	/* what is known of it */
};
void dd_sim_snap_clear(struct dd_sim_snap *s);
/* Keeps img (encoded now; a crop is small) as the picture of job's rest,
 * the die where job locates it, the face not yet read. 0 or -errno. */
int dd_sim_snap_keep(struct dd_sim_snap *s, const struct vis_image *img,
		     const struct dd_face_job *job);
/* A read back (dd_face_reader_set_read_sink) of the kept picture's rest
 * gives it the face read, its confidence (unread: none) and where the die
 * was found. */
struct dd_face_read;
void dd_sim_snap_read(struct dd_sim_snap *s, const struct dd_face_read *rd);
/* Stores the kept picture for throw throw_no when it was taken at or after
 * since_ns, then forgets it (one throw's): as dd_snapshot_fn. */
int dd_sim_snap_store(struct dd_sim_snap *s, struct db *db, int64_t match, int throw_no,
		      int64_t since_ns, char *err, size_t errlen);

/* ---- Simulation and evaluation (daemon/cmd_sim.c, cmd_evaluate.c) ----
 * The sensors' observations reach fusion through dd_sensors_obs_to_fusion
 * here too, so the evaluation measures the path the Pi runs.
 *
 * A simulated console call (struct sim_call) or camera report (struct
 * sim_cam) as the console and the camera glue would hand it to fusion;
 * crop (may be NULL) is the full-resolution crop of a resting die, whose
 * face vision reads (vis_dice_find). Used by `dyeref evaluate` and the
 * live feeder alike. */
struct sim_call;
struct sim_cam;
struct vis_image;
void dd_obs_from_sim_call(const struct sim_call *c, struct dd_obs *o);
void dd_obs_from_sim_cam(const struct sim_cam *c, const struct vis_image *crop, struct dd_obs *o);
/* The face read of a simulated rest report c (SIM_CAM_REST) on its rendered
 * crop as a job for a face reader (the read dd_obs_from_sim_cam makes on
 * the spot): the rest's time and place, the crop's centre, a die a quarter
 * of its side. 0, or -EINVAL (not a rest, or no crop). */
int dd_face_job_from_sim_cam(const struct sim_cam *c, const struct vis_image *crop,
			     struct dd_face_job *job);

/* ---- The live simulator (daemon/sim_feed.c): `dyeref serve --sim=table` ----
 * Plays one simulated match (team A first, names as below) on clock: its
 * piezo edges go through the sensors pipeline, its console calls and
 * camera reports through the conversions above, into sink. Its
 * observations carry the clock's times, so a clock faster than real time
 * ([sim] speed) plays the same match, with the same rulings, sooner.
 * A rest's face is read off the loop by a face reader of its own (the
 * camera glue's dd_face_reader, the job dd_face_job_from_sim_cam makes,
 * its worker's results coming back through ev; each read first a
 * DD_OBS_REST_PENDING to sink);
 * every observation passes through that reader, so they reach sink in the
 * match's order, each with its own time. max_throws > 0 stops the match
 * after that many throws, whatever the score ([sim] max_throws); 0 plays
 * it to its end. ev and clock are borrowed: they outlive the feeder.
 * NULL with errno and a message. Stop and free with dd_sim_feed_free()
 * (NULL is fine). */
struct dd_sim_feed;
struct dd_sim_feed *dd_sim_feed_new(sd_event *ev, struct dd_clock *clock, uint64_t seed,
				    int max_throws, dd_obs_sink sink, void *user, char *err,
				    size_t errlen);
void dd_sim_feed_free(struct dd_sim_feed *f);
/* The simulated camera's picture of the throw's resting die, its face as
 * the feeder's reader read it (dd_sim_snap), as dd_snapshot_fn. */
int dd_sim_feed_snapshot(struct dd_sim_feed *f, struct db *db, int64_t match, int throw_no,
			 int64_t since_ns, char *err, size_t errlen);
/* The feeder's face reads are given up after limit_ns on its clock (from
 * the start: DD_FACE_READ_LIMIT_NS times the clock's speed, so that a
 * read gets the same real time at any speed), as
 * dd_face_reader_set_limit. */
void dd_sim_feed_set_read_limit(struct dd_sim_feed *f, int64_t limit_ns);
/* Whether every observation of the match is out and every face read
 * (false for NULL): the simulator's match is over, whatever the
 * referee's score says (a ruling of its own may differ from the
 * simulator's, and then the two matches end at other throws). */
bool dd_sim_feed_spent(const struct dd_sim_feed *f);
void dd_sim_feed_match_cfg(struct bd_match_cfg *cfg, char team_names[2][32]);

#endif /* DYEREF_DAEMON_FEEDS_H */
