/* Inputs: the sensors and camera glue (daemon/sensors_glue.c, camera_glue.c).
 * dyeref serve owns one of each: each reads its own config section
 * ([sensors], [camera]), adds its fds to the loop, waits only on the clock
 * it is given (serve's) and reports what it sees through sink.
 *
 * A missing chip or camera is not fatal: the object is still made, says so
 * in its health item and gives nothing; the daemon runs on what it has.
 * So is an input the config turns off, or one --sim replaces (sim: the
 * simulated table feeds fusion itself). A constructor returns NULL only
 * for a bad config (errno EINVAL, "file:line: why" in err) or another
 * failure (errno, a message). --check-config reads the sections alone
 * (dd_sensors_check_config, dd_camera_check_config): nothing is opened. */
#ifndef DYEREF_DAEMON_INPUTS_H
#define DYEREF_DAEMON_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "daemon/fusion.h"
#include "daemon/health.h"

struct dd_clock;
struct dd_config;
struct db;

typedef void (*dd_obs_sink)(void *user, const struct dd_obs *o);

/* ---- The table's piezo sensors and buttons (daemon/sensors_glue.c) ---- */
struct dd_sensors;

/* [sensors] and [table] read and checked: 0, or -EINVAL with
 * "file:line: why" (-ENOMEM). */
int dd_sensors_check_config(struct dd_config *cfg, char *err, size_t errlen);
/* The sensors on ev, their impacts' windows and the lines' health timed on
 * clock (CLOCK_MONOTONIC, as the chip stamps its edges): ev, clock, health
 * (its text kept current) are borrowed and outlive the object. Impacts
 * and button calls go to sink(user, o). NULL with errno (see the top).
 * Free with dd_sensors_free(). */
struct dd_sensors *dd_sensors_new(struct dd_config *cfg, sd_event *ev, struct dd_clock *clock,
				  bool sim, dd_obs_sink sink, void *user,
				  struct dd_health_item *health, char *err, size_t errlen);
/* NULL is fine. */
void dd_sensors_free(struct dd_sensors *s);
/* Whether the wiring has a disc under the mine (without one fusion cannot
 * weigh a camera-only mine against a felt landing and sends it to review,
 * BD-O1). */
bool dd_sensors_mine_wired(const struct dd_sensors *s);
/* Every edge the chip gives is handed to sink too, as read and before the
 * pipeline sees it, with the wiring it is on (cfg: the object's, valid
 * while it lives), so that the event log keeps what a disputed throw's
 * impacts were made from (docs/sensors.md "Edges in the database"). NULL
 * stops it. */
struct sens_edge;
struct sens_config;
typedef void (*dd_edges_sink)(void *user, const struct sens_config *cfg,
			      const struct sens_edge *e, size_t n);
void dd_sensors_keep_edges(struct dd_sensors *s, dd_edges_sink sink, void *user);
/* One observation of the sensors' pipeline as fusion takes it, on every
 * path (the GPIO glue, `dyeref evaluate`, the simulated table; pure, in
 * daemon/sensors_obs.c): a piezo impact from source DD_SRC_PIEZO with the
 * located point's sigma, the arrivals behind it and whether one point
 * explains them (fix.no_point); a button press (SENS_OBS_BUTTON)
 * as its call from source DD_SRC_BUTTON, a catch (BD_EV_CATCH, which core/
 * refuses without a player) and a low call (BD_EV_LOW_CALL) made by the
 * first player of the button's end, so->team * 2: the button knows the
 * end, not the hand; BD-P4 asks only that a defender caught it, and the
 * judge takes a low call from a defender only (BD-P5: a press at the
 * thrower's end changes nothing); player_guessed says so, and fusion
 * sends a ruling to review where the guessed catcher decides it
 * (dd_fused_judge). A team that is neither A nor B, which no config
 * gives, leaves BD_NOBODY. A table impact that a cup's or the mine's hit
 * shook (shaken_by, docs/sensors.md) is no landing: it becomes
 * DD_OBS_TABLE_DEAF from the shake's start (t_ns) to the end of the
 * hold-off of the lines that heard it (until_ns, held_off_until_ns), with
 * its arrivals, for fusion to know the discs could not hear a landing
 * then. Fills *o (the caller's). */
struct sens_obs;
void dd_sensors_obs_to_fusion(const struct sens_obs *so, struct dd_obs *o);

/* ---- The camera (daemon/camera_glue.c and its camera_*.c) ---- */
struct dd_camera;

/* [camera] read and checked: 0, or -EINVAL with "file:line: why". */
int dd_camera_check_config(struct dd_config *cfg, char *err, size_t errlen);
/* The camera (or [camera] y4m's file, played on clock) on ev, tracking on
 * the loop, faces read off it and given up on clock: ev, clock, health are
 * borrowed and outlive the object. Observations go to sink(user, o). NULL
 * with errno (see the top; a y4m file that cannot be played is a config
 * error). Free with dd_camera_free(). */
struct dd_camera *dd_camera_new(struct dd_config *cfg, sd_event *ev, struct dd_clock *clock,
				bool sim, dd_obs_sink sink, void *user,
				struct dd_health_item *health, char *err, size_t errlen);
/* Stops the reads under way (no late face reaches sink). NULL is fine. */
void dd_camera_free(struct dd_camera *c);
/* A die the camera saw come to rest at (x, y) table metres at t_ns, as
 * fusion takes it (fills o): a rest event with face 1-6 and its confidence;
 * face 0 (the face could not be read) gives a placeholder face with
 * confidence 0, which sends the ruling to an official at once (BD-O2 needs
 * the face) instead of leaving fusion to wait for its timeout. The camera
 * glue and the simulator's camera reports both use it. */
void dd_obs_rest(int64_t t_ns, double x, double y, int face, double confidence, struct dd_obs *o);

/* Stores c's latest telling frame (a landing, a sink, the resting die) as
 * a JPEG snapshot of throw throw_no, in db's open batch (it rides in the
 * throw's transaction), when it was taken at or after since_ns. 1 stored,
 * 0 nothing of this throw to store, negative errno with a message. serve
 * hands it to the referee (dd_referee_set_snapshot). */
int dd_camera_snapshot(struct dd_camera *c, struct db *db, int64_t match, int throw_no,
		       int64_t since_ns, char *err, size_t errlen);

/* ---- Sensors (daemon/sensors_config.c, cmd_sensors.c, cmd_calibrate.c) ---- */
struct sens_config;

/* Reads [table] (length_m, width_m, height_m, line_width_m) and [sensors]
 * (chip, table0..7 with _x, _y, _delay_us, cup_a1..cup_b2, mine,
 * floor0..3, wave_speed, speed_spread, timing_sigma_us, hold_off_ms,
 * near_line_p, near_line_cm, silent_after_s, button_CALL_END for CALL low,
 * retoss, catch1, catch2 and END a, b, button_debounce_ms,
 * button_repeat_ms; docs/sensors.md) into *out, starting from
 * sens_config_defaults(). When [sensors] names no piezo line, the reference
 * wiring is used (buttons are added to it). 0, or -EINVAL with
 * "file:line: section.key: why". */
int dd_sensors_config_load(struct dd_config *cfg, struct sens_config *out, char *err, size_t errlen);

/* The same from a file (NULL: the built-in defaults), also rejecting
 * unknown keys in [sensors] and [table]. 0, -ENOENT/-EACCES (file) or
 * -EINVAL, with the message in err. */
int dd_sensors_config_file(const char *path, struct sens_config *out, char *err, size_t errlen);

#endif /* DYEREF_DAEMON_INPUTS_H */
