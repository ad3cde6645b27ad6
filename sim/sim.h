/*
 * sim: the virtual table. Throws with known truth, producing what the real
 * sensors and camera would: piezo edges and camera frames. Used by the demo
 * (`dyeref serve --sim`), the tests and the accuracy benchmarks.
 *
 * Deterministic: every random draw comes from a caller-seeded generator
 * (struct sim_rng); nothing reads a clock.
 *
 * Sections: random numbers; piezo table model (sim_piezo_); throws,
 * matches and truth (sim_throw_, sim_match_); what the instruments see;
 * recorded reports; camera frames; scoring a referee
 * against the truth (sim_truth, sim_tally: `dyeref evaluate`).
 */
#ifndef DYEREF_SIM_H
#define DYEREF_SIM_H

#include <stdint.h>

#include "core/core.h"

/* ---- Random numbers ------------------------------------------------- */

/* xoshiro256** state; seed with sim_rng_seed(). Plain data, copy freely. */
struct sim_rng {
	uint64_t s[4];		/* generator state */
};

void sim_rng_seed(struct sim_rng *r, uint64_t seed);
uint64_t sim_rng_next(struct sim_rng *r);
double sim_rng_uniform(struct sim_rng *r);		/* [0, 1) */
double sim_rng_normal(struct sim_rng *r);		/* mean 0, sd 1 */

/* ---- Piezo table model (sim_piezo_) ---------------------------------- */

/* What the piezo discs under a table would report: arrival = impact time
 * + distance / speed + the channel's delay + the Pi's interrupt latency,
 * with timing jitter, a per-impact speed (dispersion), missed edges,
 * late triggers (off by default), false triggers and ringing. The truth (sensor positions, delays, speed)
 * is a struct sens_config: tests hand the same or a perturbed one to the
 * localiser. */
#include "sensors/sensors.h"

struct sim_piezo {
	double jitter_s;	/* sd of the Gaussian timing jitter per edge (10e-6) */
	double latency_min_s;	/* Pi interrupt latency, uniform in [min, max] */
	double latency_max_s;	/* (7e-6 .. 20e-6) */
	double speed_spread;	/* relative sd of one impact's wave speed (0.05) */
	double p_miss;		/* chance a table sensor misses an impact (0) */
	double p_false;		/* chance, per impact and table line, of a false edge in its window (0) */
	double p_late;		/* chance a table disc fires late, per impact and disc (0): its
				 * comparator misses the weak first arrival and trips on a
				 * later cycle */
	double late_min_s;	/* that delay, uniform in [min, max] */
	double late_max_s;	/* (0.2e-3 .. 1e-3) */
	int ring_max;		/* ringing: up to this many extra edges after each real one (0) */
	double ring_period_s;	/* spacing of ringing edges (0.8e-3) */
	uint32_t dead;		/* bit i: config line i never fires */
	double p_shake;		/* chance a cup or mine hit also trips the table discs (0.5, a guess:
				 * see sim_piezo_shake) */
};

/* The defaults in the comments above. */
void sim_piezo_defaults(struct sim_piezo *m);

/* Edges of one impact on the table top at (x, y) metres at time t0_ns,
 * on every table line of truth: written to out (at most cap), in time
 * order; returns how many were produced (may exceed cap: then out holds
 * the first cap). All randomness from rng. */
size_t sim_piezo_table_hit(const struct sim_piezo *m, const struct sens_config *truth,
			   struct sim_rng *rng, double x, double y, int64_t t0_ns,
			   struct sens_edge *out, size_t cap);

/* Edges of a hit on one non-table channel (config line index line: a
 * cup, the mine, a floor strip) at t_ns, with latency, jitter and
 * ringing; as sim_piezo_table_hit(). */
size_t sim_piezo_line_hit(const struct sim_piezo *m, const struct sens_config *truth,
			  struct sim_rng *rng, size_t line, int64_t t_ns,
			  struct sens_edge *out, size_t cap);

/* Edges of the table top shaken by a hit on the cup or mine of config line
 * `line` at t_ns: with chance m->p_shake, an impact at the base of that cup
 * (the mine's) at t_ns, as sim_piezo_table_hit() makes it (the table
 * lines' latency, jitter, misses, false edges and ringing); nothing
 * otherwise, or for a line of another role. The cup's disc sits under its
 * base, so the top is pushed through the same base at the moment the disc
 * hears the hit: the located impact starts with the cup's edge
 * (SENS_SHAKE_SYNC_NS). As sim_piezo_table_hit(); the chance is drawn
 * from rng first. */
size_t sim_piezo_shake(const struct sim_piezo *m, const struct sens_config *truth,
		       struct sim_rng *rng, size_t line, int64_t t_ns,
		       struct sens_edge *out, size_t cap);


/* ---- Throws, matches and truth (sim_throw_, sim_match_) -------------- */

/* How people throw, catch and kick on the virtual table: spreads and
 * likelihoods. sim_throw_cfg_defaults() fills the values named in the
 * comments; tests and benchmarks change single fields. Lengths in metres,
 * heights above the floor, speeds in m/s. */
struct sim_throw_cfg {
	double g;		/* 9.81: gravity, m/s^2 */
	double die_half_m;	/* 0.008: half a die's edge (16 mm dice) */
	double edge_depth_m;	/* 0.03: the top's edge (board and the frame under it);
				 * below it a table on legs is open: a die passes under */
	double release_z_m;	/* 1.9: hand height when the die leaves it */
	double apex_mean_m;	/* 3.8: mean toss height */
	double apex_sd_m;	/* 0.45: about 4 % of throws fall below 3 m */
	double aim_from_end_m;	/* 0.55: mean landing point, from the defenders' end */
	double aim_x_sd_m;	/* 0.35: spread along the table */
	double aim_y_sd_m;	/* 0.28: spread across it */
	double p_aim_cup;	/* 0.15: the thrower goes for a defender's cup */
	double aim_cup_sd_m;	/* 0.08: spread around that cup */
	double restitution;	/* 0.45: die on plywood, normal direction */
	double restitution_sd;	/* 0.08 */
	double friction;	/* 0.30: Coulomb, during a bounce */
	double scatter;		/* 0.40: a cube's corners turn this share of the normal speed sideways */
	double settle_speed;	/* 0.35: below this bounce speed the die slides instead */
	double slide_decel;	/* 3.0: m/s^2 while sliding and tumbling to rest */
	double p_rim_bounce_out;	/* 0.6: a rim hit that bounces off rather than drops in */
	double p_popout;	/* 0.08: a die that drops in bounces back out (BD-R1) */
	double p_catch_near;	/* 0.50: defenders catch a die leaving on their half */
	double p_catch_far;	/* 0.08: ... on the attackers' half */
	double p_two_hands;	/* 0.12: of catches, with both hands (BD-P4) */
	double p_trapped;	/* 0.08: of catches, trapped against the body (BD-P4) */
	double p_over_table;	/* 0.02: a defender grabs the die above the table (BD-P10) */
	double p_kick;		/* 0.30: a die that missed the table is kicked (BD-K1) */
	double p_kick_thigh;	/* 0.10: of kicks, with the thigh (BD-K3) */
	double p_fifa_catch;	/* 0.50: the partner catches the kicked die */
	double min_toss_height_m;	/* 3.0: the agreed minimum (BD-S7) */
	double low_call_spread_m;	/* 0.05: how sharply defenders judge "low" around it */
	double p_dye_up_missed;	/* 0.02: the thrower forgets "DYE UP!" (BD-P2) */
};

void sim_throw_cfg_defaults(struct sim_throw_cfg *c);

/* A physical contact, as sensors and the camera would meet it. */
enum sim_contact_kind {
	SIM_CONTACT_RELEASE,	/* the die leaves the thrower's hand */
	SIM_CONTACT_TABLE,	/* a bounce on the table top (or its edge) */
	SIM_CONTACT_CUP,	/* the rim or side of a cup */
	SIM_CONTACT_SINK,	/* the die drops into a cup's beer */
	SIM_CONTACT_MINE,	/* the mine's top or side */
	SIM_CONTACT_FLOOR,	/* the die reaches the floor */
	SIM_CONTACT_CATCH,	/* a hand takes it (no impact on the table) */
	SIM_CONTACT_KICK,	/* a defender's foot (or thigh) sends it up again */
	SIM_CONTACT_REST,	/* it stops on the table, a face up */
};

struct sim_contact {
	int64_t t_ns;		/* when, on the match clock */
	enum sim_contact_kind kind;
	double x, y, z;		/* metres: table frame, z above the floor */
	double strength;	/* m/s: speed into the surface; 0 for hands and rest */
	int player;		/* cup owner, catcher or kicker; else BD_NOBODY */
};

/* A stretch of motion between two contacts: p(t) = p + v*s + a*s*s/2 for
 * s = (t - t0) seconds, until the next segment's t0 (or until v reaches 0
 * when sliding: see sim_throw_state_at). */
struct sim_segment {
	int64_t t0_ns;		/* start */
	double p[3];		/* position at t0 */
	double v[3];		/* velocity at t0 */
	double a[3];		/* constant acceleration: gravity, or sliding friction */
	bool hidden;		/* in a hand or in a cup: the camera cannot see it */
};

#define SIM_MAX_CONTACTS 48
#define SIM_MAX_SEGMENTS 64

/* One simulated throw: the truth a perfect referee would write, and the
 * physics behind it. Plain data (about 10 kB), copy freely. */
struct sim_throw {
	struct bd_throw truth;	/* observations in time order; thrower set */
	int die;		/* which of the two dice (BD-S3): 0 or 1 */
	double apex_m;		/* true toss height above the floor */
	int64_t t_release_ns;	/* the die leaves the hand */
	int64_t t_dead_ns;	/* caught, on the floor, at rest, in a cup */
	bool rests_on_table;	/* dead at rest on the table (face in rest_face) */
	int rest_face;		/* 1..6 when rests_on_table */
	double rest_x, rest_y;	/* where it rests */
	bool in_cup;		/* dead in a cup (a sink) */
	size_t n_contacts;
	struct sim_contact contacts[SIM_MAX_CONTACTS];	/* in time order */
	size_t n_segments;
	struct sim_segment seg[SIM_MAX_SEGMENTS];	/* in time order */
};

/* Plays one throw by player `thrower` (0..3) starting at t0_ns on the match
 * clock. Deterministic for the rng's state, which it advances. Returns 0, or
 * -EINVAL for a bad thrower. out is the caller's. */
int sim_throw_play(const struct sim_throw_cfg *cfg, const struct bd_table *table,
		   int thrower, int64_t t0_ns, struct sim_rng *rng, struct sim_throw *out);

/* Where the die is at t (metres) and how fast it moves; false before the
 * release. After the last segment it stays where that one ends. */
bool sim_throw_state_at(const struct sim_throw *t, int64_t t_ns, double p[3], double v[3],
			bool *hidden);
/* ---- Matches: whole games with the truth ---------------------------- */

#define SIM_MAX_THROWS 400	/* a simulated match's length at most (the default; serve's [sim] max_throws up to it) */

struct sim_match_cfg {
	struct sim_throw_cfg thr;	/* how people play */
	struct bd_house house;		/* the match's house rules (defaults) */
	int max_throws;			/* SIM_MAX_THROWS: a guard against an endless deuce */
	double gap_mean_s;		/* 6: from a dead die to the next release */
	bool rolloff;			/* true: a roll-off decides who starts (BD-F1); false: team A */
};

void sim_match_cfg_defaults(struct sim_match_cfg *c);

/* A played match: every throw's physics and truth, and what a perfect
 * referee rules. Owned by the caller: free with sim_match_free(). */
struct sim_match {
	struct mlog_bd *log;		/* the truth log: roll-off, then every throw */
	size_t n_throws;
	struct sim_throw *throws;	/* n_throws, in order; die alternates 0, 1 (BD-S3) */
	struct bd_ruling *rulings;	/* n_throws: bd_judge() of the truth */
	struct bd_state state;		/* after the last throw */
	struct bd_final final;		/* the final line */
};

/* Plays a match from a roll-off (BD-F1, when cfg->rolloff) to its end (or max_throws), each
 * thrower from the order (bd_next_thrower), starting at t0_ns on the match
 * clock. Deterministic for the rng's state. 0 and *out, or -ENOMEM /
 * -EINVAL with a message in err. */
int sim_match_play(const struct sim_match_cfg *cfg, const struct bd_table *tb, int64_t t0_ns,
		   struct sim_rng *rng, struct sim_match **out, char *err, size_t errlen);

void sim_match_free(struct sim_match *m);

/* Writes the truth log in the match-log format (mlog_bd_write) to path,
 * through a temporary file renamed over it: never half written. 0 or
 * -errno with "path: why" in err. */
int sim_write_file(const char *path, const char *buf, size_t len, char *err, size_t errlen);
int sim_match_write_truth(const struct sim_match *m, const char *path, char *err, size_t errlen);

/* ---- What the instruments see (sim_sense_) -------------------------- */
#include "vision/vision.h"

/* Noise of the instruments. sim_noise_defaults(n, k) scales every noise
 * figure by k (1: default, 2: doubled). */
struct sim_noise {
	struct sim_piezo piezo;	/* table, cup, mine, floor channels (jitter 10 us, miss 1 %, false 0.5 %, ringing 2) */
	double min_strength;	/* 0.25 m/s: softer contacts trip no comparator */
	double p_line_miss;	/* 0.005: a cup, mine or floor disc misses a hit */
	double console_delay_s;	/* 0.3: an official's mean delay entering a call */
	double cam_p_miss;	/* 0.005: the camera misses a toss, or a die dropping into a cup */
	double cam_xy_sd_m;	/* 0.004: the camera's error locating a resting die */
	/* The tracker's reports during the throw, measured on rendered frames
	 * (docs/simulator.md, "What the instruments see"): */
	double cam_p_land_miss;	/* first table contacts it reports no landing for */
	double cam_land_sd_m;	/* its landing point's error along each axis */
	double cam_p_mine_miss;	/* mine contacts it does not report */
	double cam_p_exit_miss;	/* dice leaving the table whose exit it does not report */
	double cam_p_exit_false;	/* dice resting or sunk it reports leaving over an edge */
	double image_noise;	/* 6: grey-level sd of a full-resolution crop */
	double blur_px;		/* 0.6: motion/defocus blur radius of the crop */
};

void sim_noise_defaults(struct sim_noise *n, double scale);

/* The simulated table's wiring: the reference build (sens_config_defaults)
 * plus a floor strip along each side (floor0 A's end, floor1 B's end,
 * floor2 left, floor3 right) on GPIO 12, 16, 20, 21. */
void sim_sens_config(struct sens_config *c);

/* Grows *edges (malloc'd, *n used, *cap allocated) with the edges of every
 * table, cup, mine and floor contact of throw t, unsorted. 0 or -ENOMEM. */
int sim_sense_edges(const struct sim_noise *n, const struct sens_config *sc,
		    const struct sim_throw *t, struct sim_rng *rng,
		    struct sens_edge **edges, size_t *n_edges, size_t *cap);

/* A call an official enters on the console where only a human can tell
 * (RULES.md): low (BD-P5), catch kinds (BD-P4, BD-P10), kicks (BD-K),
 * a missed "DYE UP!" (BD-P2). */
struct sim_call {
	int64_t t_ns;		/* when it was entered */
	bool dye_up_missed;	/* BD-P2; ev unused */
	struct bd_event ev;	/* LOW_CALL, CATCH or KICK, source "console" */
};

/* Calls for throw t, written to out (at most cap); returns how many. */
size_t sim_sense_calls(const struct sim_noise *n, const struct sim_throw *t,
		       struct sim_rng *rng, struct sim_call *out, size_t cap);

/* What the camera's tracker reports, modelled on what vision's tracker
 * reports on rendered frames (without them): a toss (the die rising out
 * of a hand), the first landing, mine contacts, the die leaving over an
 * edge, a die dropping into a cup, and where a die came to rest (its face
 * is read from the crop by vision, not given here). */
enum sim_cam_kind { SIM_CAM_SINK, SIM_CAM_REST, SIM_CAM_TOSS, SIM_CAM_LANDING, SIM_CAM_MINE, SIM_CAM_EXIT };

struct sim_cam {
	int64_t t_ns;		/* when it was seen */
	enum sim_cam_kind kind;
	int owner;		/* SINK: the cup's player */
	double x, y;		/* REST, LANDING, MINE, EXIT: located point, metres */
	double confidence;	/* LANDING, MINE, EXIT: the tracker's (a landing's: that it was a contact) */
};

/* Camera reports for throw t (at most cap); returns how many. */
size_t sim_sense_camera(const struct sim_noise *n, const struct sim_throw *t,
			struct sim_rng *rng, struct sim_cam *out, size_t cap);

/* A full-resolution crop (side_px square, RGB) of table tb around (cx, cy),
 * where the camera located the die (its report's x, y), with the die
 * resting at (x, y) showing face, turned by angle radians, through
 * vision's renderer (vis_render: table, cups, shadows, light), with the
 * noise's grain, a residual blur of blur_px and a light level that varies
 * with the noise. A 16 mm die spans 32 px at side_px 128 (side_px / 4), as
 * at 12 Mpx over 2.44 m, so the die sits off the centre by the location
 * error, as in the frame region the camera glue reads (vis_read_face_at).
 * NULL with errno. Free with vis_image_free(). */
struct vis_image *sim_render_rest_crop(const struct sim_noise *n, const struct bd_table *tb,
				       double x, double y, double cx, double cy, int face,
				       double angle, int side_px, struct sim_rng *rng);

/* ---- Recorded reports: calls.jsonl and camera.jsonl ----------------- */

/* One line of either file (docs/simulator.md, "Output"). */
struct sim_report {
	bool camera;		/* a camera report (cam), else a console call (call) */
	struct sim_call call;	/* console call */
	struct sim_cam cam;	/* camera report */
	char crop[64];		/* camera REST: the crop's file name beside the report, no '/' */
};

/* One JSON object (no newline) for a call, or for a camera report with its
 * crop's file name (REST; NULL otherwise). malloc'd; NULL with errno. */
char *sim_call_json(const struct sim_call *c);
char *sim_cam_json(const struct sim_cam *c, const char *crop);

/* Parses a calls.jsonl (camera false) or camera.jsonl (true) held in
 * buf[0..len) (need not be NUL-terminated). Everything is checked: known
 * fields only, times >= 0, players a1..b2, hands 1 or 2, finite positions,
 * plain crop names. 0 with *out (free()) and *n; -EINVAL with
 * "name:line: field: why" in err, *out NULL; -ENOMEM. */
int sim_reports_parse(const char *name, const char *buf, size_t len, bool camera,
		      struct sim_report **out, size_t *n, char *err, size_t errlen);

/* ---- Camera frames at the low-resolution rate ----------------------- */

#define SIM_FRAME_FPS 30	/* frames a second of the low-resolution stream */

/* The low-resolution camera's view (vision's default: 640 x 360, the whole
 * table top-down) at t_ns of throw t: the table, and the die where the
 * physics has it (height above the table, motion blur from its speed;
 * absent while hidden in a hand or a cup), through vis_render with the
 * noise's grain. NULL with errno. Free with vis_image_free(). */
struct vis_image *sim_render_frame(const struct sim_noise *n, const struct bd_table *tb,
				   const struct sim_throw *t, int64_t t_ns, uint64_t seed);

/* Writes throw t's frames, from 1 s before the release to 0.5 s after the
 * die is dead at SIM_FRAME_FPS, as one Y4M stream (Cmono) at path, through
 * a temporary file. *t0_ns gets the first frame's time. 0 or -errno with
 * "path: why" in err. */
int sim_frames_write_y4m(const char *path, const struct sim_noise *n, const struct bd_table *tb,
			 const struct sim_throw *t, uint64_t seed, int64_t *t0_ns, int *frames,
			 char *err, size_t errlen);

/* ---- Scoring against the truth (sim_truth, sim_tally; sim/score.c) ---- */

/* What `dyeref evaluate` makes of a referee's rulings on the matches
 * recorded here: each fused throw paired with the truth throw it belongs
 * to, and counted. */
#include <stdio.h>

#define SIM_CAL_BINS 7	/* calibration bins of confidence: [0, .5, .8, .9, .95, .99, .999, 1] */

/* A truth throw and what was made of it. */
struct sim_truth {
	const struct bd_throw *t;
	struct bd_state before;	/* the truth state before it */
	struct bd_ruling ruling;
	int64_t t_first, t_dead, t_end;	/* first event, die dead, observations end */
	bool seen;		/* a fused throw was paired with it */
};

/* The truth throws of a replayed truth log (res: mlog_bd_replay of log;
 * both the caller's, and must outlive *out): *out (free()) gets *n of
 * them. 0 or -ENOMEM. */
int sim_truths(const struct mlog_bd *log, const struct mlog_bd_result *res, struct sim_truth **out,
	       size_t *n);
/* The truth throw (of tr, n) a fused throw that started at t_start_ns
 * belongs to: the first whose observations end after that, and the one
 * before it before; NULL after the last. */
struct sim_truth *sim_truth_for(struct sim_truth *tr, size_t n, int64_t t_start_ns);

/* Everything counted over all matches. Start zeroed; free the arrays with
 * sim_tally_free(). */
struct sim_tally {
	long throws;		/* truth throws */
	long right;		/* ruled exactly as the truth, not in review */
	long review;		/* sent to an official (includes unjudgeable) */
	long review_right;	/* of those, the provisional ruling was right */
	long silent;		/* wrong and not in review, or missed */
	long missed;		/* truth throws fusion never produced */
	long spurious;		/* fused throws with no throw behind them */
	long unjudgeable;	/* bd_judge refused the fused throw */
	long matches, finals_right;	/* matches; those the referee's own fold ends on the true score */
	long frames;		/* camera frames tracked (--frames recordings) */
	long apex_n;		/* throws with a measured apex */
	double *apex_err;	/* their |errors|, metres (apex_n of them), for the p95 */
	size_t apex_cap;	/* room in apex_err */
	double apex_abs, apex_signed;	/* sums of |error| and error, metres */
	long apex_sd_n;		/* of those counted, with a stated sd (BD-P5's doubt) */
	long apex_in1, apex_in2;	/* their errors within 1 and 2 stated sds */
	double apex_sd_sum, apex_sd_abs;	/* their sds and |errors|, summed, metres */
	long loc_n, half_ok;	/* located table impacts; on the right half */
	double loc_sum, *loc;	/* error sum; every error (metres) */
	size_t loc_cap;
	long rests, faces_ok;	/* truth rests; read right */
	long cal_n[SIM_CAL_BINS], cal_ok[SIM_CAL_BINS];	/* first landings by piezo confidence; half right */
	double cal_sum[SIM_CAL_BINS];	/* their confidences, summed */
	long fu_cal_n[SIM_CAL_BINS], fu_cal_ok[SIM_CAL_BINS];	/* first landings two witnesses reported, by the fused confidence; half right */
	double fu_cal_sum[SIM_CAL_BINS];	/* their confidences, summed */
	long sink_tp, sink_fn, sink_fp;
	/* The camera's own reports against the truth (tracked frames, or the
	 * modelled camera): first landings, mine contacts, exits. */
	long cl_truth, cl_found, cl_other;	/* truth first landings; reported within 100 ms; other landing reports */
	long cl_err_n;
	double cl_err[8192];	/* their errors, metres */
	long cl_cal_n[SIM_CAL_BINS], cl_cal_ok[SIM_CAL_BINS];	/* by the event's confidence; half right */
	double cl_cal_sum[SIM_CAL_BINS];
	long cm_truth, cm_tp, cm_fp;	/* truth mine contacts; reported within 150 ms; reports with none */
	long ce_truth, ce_tp, ce_fp;	/* truth throws ending on the floor or in a hand; with an exit report; exits in the others */
	long lat_n;
	double lat_sum, lat_max;	/* die dead -> ruling, match clock, seconds */
	double cpu_s;		/* processing time of the whole run */
};

/* One landing at confidence conf into a calibration table's bins (n
 * landings, ok of them right, sum their confidences). */
void sim_tally_cal(long n[SIM_CAL_BINS], long ok[SIM_CAL_BINS], double sum[SIM_CAL_BINS],
		   double conf, bool right);
/* One located impact d metres from the truth's. */
void sim_tally_loc(struct sim_tally *ty, double d);
/* A fused throw's events (fused) against its truth t, finished at t_done
 * (the match clock): the first landing's calibration, located impacts,
 * sinks, faces, the apex, the latency. */
void sim_score_events(struct sim_tally *ty, const struct sim_truth *t, const struct bd_throw *fused,
		      int64_t t_done);
/* The tally as `dyeref evaluate` prints it (sorts its arrays). */
void sim_tally_print(const struct sim_tally *ty, FILE *out);
void sim_tally_free(struct sim_tally *ty);

#endif /* DYEREF_SIM_H */
