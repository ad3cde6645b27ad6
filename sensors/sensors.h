/*
 * sensors: piezo impacts from GPIO edges.
 *
 *   edge source (libgpiod v1 | v2 | replay file | memory/simulated)
 *     -> sens_pipeline: per-line hold-off, grouping of table edges into one
 *        impact, TDOA localisation, cup/mine/floor channels, line health
 *     -> struct sens_obs, each carrying a ready struct bd_event for fusion.
 *
 * Times are int64_t nanoseconds of CLOCK_MONOTONIC as the kernel stamped
 * them; lengths are metres in table coordinates (x from team A's end, y from
 * the left edge, core/core.h struct bd_table).
 *
 * Errors: int functions return 0 or a negative errno and, where they take
 * (err, errlen), write one line for people there ("gpiochip0 line 17
 * (table0): busy ..."). Constructors return NULL and set errno. Nothing here
 * exits, logs or reads a clock: callers pass times in.
 */
#ifndef DYEREF_SENSORS_H
#define DYEREF_SENSORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/core.h"

/* ---- Configuration ---------------------------------------------------- */

#define SENS_MAX_LINES   32	/* configured lines (4-8 table, 4 cups, mine, floors, buttons) */
#define SENS_MAX_TABLE   8	/* table sensors */
#define SENS_MAX_OFFSET  4095	/* highest GPIO line offset accepted */
#define SENS_NAME_MAX    16	/* bytes of a line's name, with the NUL */

enum sens_role {
	SENS_ROLE_TABLE,	/* under the table top: localisation */
	SENS_ROLE_CUP,		/* under one player's cup */
	SENS_ROLE_MINE,		/* under the mine (BD-S6) */
	SENS_ROLE_FLOOR,	/* floor strip */
	SENS_ROLE_BUTTON,	/* a push button at one end: a manual call */
};

/* What a button at one end calls (docs/sensors.md "Buttons"). */
enum sens_call {
	SENS_CALL_LOW,		/* "low!" by a defender (BD-P5): BD_EV_LOW_CALL */
	SENS_CALL_RETOSS,	/* re-toss (BD-P9): BD_EV_RETOSS */
	SENS_CALL_CATCH1,	/* caught one-handed: BD_EV_CATCH, hands 1 */
	SENS_CALL_CATCH2,	/* caught two-handed: BD_EV_CATCH, hands 2 */
};
#define SENS_CALLS 4		/* entries of enum sens_call */

struct sens_line_cfg {
	char name[SENS_NAME_MAX];	/* "table0", "cup_a1", "mine", "floor0" */
	enum sens_role role;	/* what it is under */
	unsigned offset;	/* GPIO line offset on the chip */
	double x, y;		/* TABLE: sensor position, metres */
	double delay_s;		/* TABLE: calibrated latency of this channel (disc, comparator, wiring) */
	int owner;		/* CUP: player index 0..3 (a1, a2, b1, b2) */
	enum sens_call call;	/* BUTTON: what a press calls */
	int team;		/* BUTTON: the end it is at, BD_TEAM_A or BD_TEAM_B */
};

struct sens_config {
	char chip[64];		/* "gpiochip0" or a path under /dev */
	bool chip_set;		/* chip named by the config: its label is not second-guessed */
	struct bd_table table;	/* geometry and the centre line's width */
	size_t n_lines;		/* used entries of lines[] */
	struct sens_line_cfg lines[SENS_MAX_LINES];	/* in config order */
	double wave_speed_mps;	/* 400: bending waves in 12 mm plywood */
	double speed_spread;	/* 0.05: relative sd of the speed from impact to impact */
	double timing_sigma_s;	/* 10e-6: sd of one edge's timestamp (jitter) */
	double holdoff_s;	/* 0.020: edges on a line this soon after its last are ringing */
	double near_line_p;	/* 0.99: below this probability of its half an impact is "near the line" */
	double near_line_m;	/* 0.02: within this of the line's edge an impact is "near the line" */
	double silent_after_s;	/* 3600: a cup/mine/floor line with no edge this long is silent */
	double button_debounce_s;	/* 0.030: a button press needs this much quiet before it */
	double button_repeat_s;	/* 0.4: a button's presses are at least this far apart */
};

/* The reference build: 4 table sensors in a diamond 5 cm in from the
 * edges (middle of A's end, of the left side, of B's end, of the right
 * side) on GPIO 17, 27, 22, 23, cups a1..b2 on 5, 6, 13, 19, the mine on 26, no floor
 * strip; chip gpiochip0; the default table (bd_table_defaults). */
void sens_config_defaults(struct sens_config *c);

/* Checks a configuration for consistency (duplicate names or offsets,
 * sensors off the table or closer together than SENS_MIN_TABLE_SPACING_M,
 * fewer than 3 table sensors where any are given, non-positive speed). 0,
 * or -EINVAL with the reason in err. */
int sens_config_check(const struct sens_config *c, char *err, size_t errlen);

/* What a reason of sens_config_check_at() is about when no one line is,
 * so that a loader can name the line of its file that set it. */
enum sens_cfg_item {
	SENS_CFG_NONE,		/* a line's fault (*at), the whole config (too few table
				 * sensors), or no fault */
	SENS_CFG_TABLE,		/* the table's length, width and line width */
	SENS_CFG_NOISE,		/* wave speed, speed spread, timing sigma */
	SENS_CFG_HOLDOFF,	/* the hold-off */
	SENS_CFG_NEAR_LINE,	/* near_line_p, near_line_m */
	SENS_CFG_SILENT,	/* silent_after_s */
	SENS_CFG_BUTTONS,	/* button debounce and repeat */
};

/* sens_config_check(), also saying what the reason is about: *at (may be
 * NULL) is the index in c->lines of the line at fault, or -1 when no one
 * line is; *item (may be NULL) is then what it is about instead
 * (SENS_CFG_NONE on a line's fault, the whole config's or none). */
int sens_config_check_at(const struct sens_config *c, int *at, enum sens_cfg_item *item,
			 char *err, size_t errlen);

/* Table sensors closer than this, metres, hear one arrival twice: the fit
 * counts it as two and grows sure of a wrong half (two at one spot called
 * wrong halves at confidence 0.999). */
#define SENS_MIN_TABLE_SPACING_M 0.05

/* Index of the line with that GPIO offset, or -1. */
int sens_config_line_by_offset(const struct sens_config *c, unsigned offset);

/* The time one impact's edges can span: the longest travel difference
 * between two table sensors at the slowest plausible speed, plus the delay
 * spread and timing noise. Nanoseconds. */
int64_t sens_config_group_window_ns(const struct sens_config *c);

const char *sens_role_name(enum sens_role role);	/* "table", "cup", ..., "button" */
/* Whether c wires at least one line of this role (a disc under the mine,
 * say: fusion weighs a silent one against the camera, BD-O1). */
bool sens_config_has_role(const struct sens_config *c, enum sens_role role);
const char *sens_call_name(enum sens_call call);	/* "low", "retoss", "catch1", "catch2" */

/* ---- Edges and edge sources ------------------------------------------- */

struct sens_edge {
	unsigned line;		/* GPIO line offset */
	int64_t ts_ns;		/* CLOCK_MONOTONIC, kernel timestamp */
};

/* Sorts edges by timestamp, in place and stable (insertion sort: a read
 * or an impact is a handful of edges). The backends read per-line
 * descriptors one after another and the pipeline wants time order; the
 * simulator merges its sensors' edges the same way. */
void sens_edges_sort(struct sens_edge *e, size_t n);

/* One small interface over libgpiod v1/v2, recorded files and memory
 * (simulated) edges. Opaque. */
struct sens_source;

/* Opens the configured lines of c->chip for rising-edge events with the
 * backend this build has (libgpiod v1 or v2). Returns a source to be
 * closed with sens_source_close(), or NULL with errno set and a message in
 * err naming the chip, the line and the fix (missing chip, line not on the
 * chip, line busy, permission denied: add the user to group gpio). */
struct sens_source *sens_gpio_open(const struct sens_config *c, char *err, size_t errlen);

/* What sens_gpio_open's errno e means in a few words naming no chip, line
 * or fix ("GPIO chip not found"): for a screen anyone may read, where err's
 * message (the chip's path, the remedy) is the owner's. Static text. */
const char *sens_gpio_reason(int e);

/* "libgpiod v1" or "libgpiod v2": the backend this build has. */
const char *sens_gpio_backend(void);

/* Whether a chip's label is a Raspberry Pi's header controller
 * (pinctrl-bcm2835: Pi 1-3 and Zero; pinctrl-bcm2711: Pi 4;
 * pinctrl-rp1: Pi 5). NULL is not. */
bool sens_gpio_label_is_pi_header(const char *label);

/* The warning for a chip opened by default that is not the header (a Pi 5
 * on a kernel before 6.6.45: gpiochip0 is a 32-line gpio-brcmstb chip,
 * offsets 17-26 exist there and the sensors would open silently on the
 * wrong pins). Writes one line naming the chip, its label and the setting
 * into msg and returns true; false (msg "") when the label is a header's
 * or the config chose the chip (chosen: the owner looked, perhaps at an
 * expander or another board). */
bool sens_gpio_label_warning(const char *chip, const char *label, bool chosen, char *msg,
			     size_t len);

/* "" or one line for people: the source works but may not be what was
 * meant (sens_gpio_label_warning). Owned by the source. */
const char *sens_source_warning(const struct sens_source *s);

/* A source over a copy of edges[0..n) (replayed recordings, the simulated
 * table). More may be appended with sens_source_push(). NULL and errno on
 * allocation failure. Close with sens_source_close(). */
struct sens_source *sens_memory_open(const struct sens_edge *edges, size_t n);

/* Appends edges to a memory source; -EINVAL on other sources, -ENOMEM. */
int sens_source_push(struct sens_source *s, const struct sens_edge *edges, size_t n);

/* Opens a recorded edge file (format: sens_edges_parse). NULL, errno and
 * "file:line: why" in err when it cannot be read or parsed. */
struct sens_source *sens_replay_open(const char *path, char *err, size_t errlen);

/* A descriptor that polls readable (POLLIN) while edges are waiting, for
 * the event loop. Owned by the source. */
int sens_source_fd(const struct sens_source *s);

/* Reads up to cap waiting edges into out, in time order; never blocks.
 * Returns how many (0: none now), or a negative errno with a message.
 * *eof (may be NULL) is set when a finite source has nothing more. */
ssize_t sens_source_read(struct sens_source *s, struct sens_edge *out, size_t cap,
			 bool *eof, char *err, size_t errlen);

/* Releases the lines / file and frees s. NULL is fine. */
void sens_source_close(struct sens_source *s);

/* The recorded edge format: text, one edge a line, "TS_NS LINE" (decimal
 * CLOCK_MONOTONIC nanoseconds, then the GPIO offset), separated by spaces
 * or tabs; '#' starts a comment; blank lines are skipped; timestamps never
 * go backwards. Parses text[0..len) (need not be NUL-terminated) into a
 * new array *edges (free() it; NULL when *n is 0). On error: -EINVAL (or
 * -ENOMEM) and "name:line: why" in err, *edges NULL and *n 0. */
int sens_edges_parse(const char *name, const char *text, size_t len,
		     struct sens_edge **edges, size_t *n, char *err, size_t errlen);

/* Writes edges in the recorded format; 0 or -errno. */
int sens_edges_write(int fd, const struct sens_edge *edges, size_t n);

/* ---- Localisation ----------------------------------------------------- */

/* One table sensor's arrival, for sens_locate(). */
struct sens_arrival {
	double x, y;		/* sensor position, metres */
	double delay_s;		/* the channel's calibrated delay */
	int64_t ts_ns;		/* edge timestamp */
};

struct sens_fix {
	double x, y;		/* impact point, metres */
	int64_t t_ns;		/* impact time (at the point, before travel) */
	double speed_mps;	/* wave speed this impact, as fitted */
	double sigma_x, sigma_y;	/* 1-sigma, metres, from the covariance */
	double sigma_m;		/* 1-sigma along the worst direction, metres */
	double rms_s;		/* residual rms of the arrival times, seconds */
	double quality;		/* 0..1 from the residual and redundancy */
	enum bd_half half;	/* half of the point estimate (BD_HALF_LINE on the line) */
	double p_half[3];	/* probability of A, B, line (index enum bd_half) */
	double confidence;	/* P(half); see docs/sensors.md */
	bool near_line;		/* on the line, within near_line_m of it or p_half[half] <
				 * near_line_p: a ruling should ask for review */
	int n_used;		/* arrivals used */
	int dropped;		/* index of an arrival rejected as an outlier, or -1 */
	int swapped;		/* index of an arrival taken as a false trigger, its alt_ns edge
				 * as the wave (sens_locate_alt), or -1 */
	double red_chi2;	/* chi-square per degree of freedom of the fit to every arrival (0: fewer than 4) */
	bool no_point;		/* the most probable explanation's point does not fit its
				 * arrivals at the stated noise (two impacts at once?):
				 * p_half is "unknown" (confidence about 0.5), near_line set */
};

/* Solves the impact point and time from 3 or more arrivals: grid search
 * for a start, then Levenberg-Marquardt over (x, y, t0, speed) with the
 * per-impact speed held near c->wave_speed_mps by a prior of sd
 * c->speed_spread; with 4 or more arrivals one may be left out as not
 * the impact's wave. confidence and p_half are the posterior over those
 * explanations (docs/sensors.md "Confidence is about the half"), or the
 * half unknown when the most probable one does not fit its arrivals
 * (fix->no_point: two impacts at once, say); fix is
 * the caller's, filled. 0, -EINVAL (fewer than 3 arrivals, or more
 * than a second apart) or -EDOM (the fit did not converge to a point on
 * or near the table). */
int sens_locate(const struct sens_config *c, const struct sens_arrival *a, size_t n,
		struct sens_fix *fix);

/* sens_locate() with, per arrival, the first edge its line's hold-off
 * threw away after it within the impact's window (alt_ns[i], 0 none;
 * alt_ns NULL: none at all). A false trigger ahead of the wave swallows
 * the wave's own edge that way: with four or more arrivals, "arrival i was
 * a false trigger and alt_ns[i] the wave" is one more explanation in the
 * posterior (fix->swapped names it when it is the one reported), weighed
 * against that edge being ringing. Same returns as sens_locate(). */
int sens_locate_alt(const struct sens_config *c, const struct sens_arrival *a,
		    const int64_t *alt_ns, size_t n, struct sens_fix *fix);

/* The half of an impact only two table sensors heard (too few to locate):
 * the posterior over the table top (2 cm grid, uniform prior) of their
 * arrival difference under the timing noise and speed spread, against "one
 * of the two is not the wave" (the half then unknown). Writes P(A), P(B),
 * P(line) to p_half (the caller's) and returns the most probable half. On
 * the default diamond, a first arrival at an end disc means that end's half
 * by a wide margin; a side disc first and the other side's second means
 * doubt, as it should. */
enum bd_half sens_half_of_two(const struct sens_config *c, const struct sens_arrival a[2],
			      double p_half[3]);

/* ---- The table's timing noise, measured ------------------------------ *
 *
 * A fit to five or more arrivals that all came as the wave (none left out
 * as late, missing or false; a point that fits) has residuals beyond what
 * x, y, start and speed take: their sum of squares per degree of freedom
 * (n - 4) measures one edge's timing noise, the speed spread's share
 * left out. Four discs leave none (their one degree of freedom is the
 * speed prior's, which the speed spread fills 70 times over the jitter):
 * the diamond cannot measure its jitter, six discs can. The estimate is
 * the median over the last SENS_JITTER_FITS such fits (the odd wild
 * arrival does not move it): bounded in memory and in how far back it
 * looks (docs/sensors.md "The measured jitter"). A plain struct, the
 * caller's; no allocation. The pipeline's fits do not use it. */
#define SENS_JITTER_FITS 128	/* fits the estimate looks back over */
#define SENS_JITTER_MIN_FITS 16	/* fewer: no estimate (0) */
#define SENS_JITTER_FLAG_FITS 64	/* fits before the table can be called noisier */
#define SENS_JITTER_FLAG_RATIO 1.5	/* measured over configured beyond this: noisier */

struct sens_jitter {
	double configured_s;	/* the config's timing_sigma_s */
	double v[SENS_JITTER_FITS];	/* per fit: its variance estimate over the median of
					 * chi-square per dof for its dof, s^2 */
	size_t n, pos;		/* entries in v; next slot */
	uint64_t fits;		/* fits counted since init */
};

/* Empties e for a table configured at configured_sigma_s. */
void sens_jitter_init(struct sens_jitter *e, double configured_sigma_s);

/* Counts one consistent fit: rms_s the rms of its n arrivals' residuals
 * (struct sens_fix rms_s, n_used). Fewer than 5 arrivals, or no residual,
 * is not counted. */
void sens_jitter_add(struct sens_jitter *e, double rms_s, int n);

/* The measured sd of one edge's timestamp, seconds; 0 before
 * SENS_JITTER_MIN_FITS fits. */
double sens_jitter_sigma_s(const struct sens_jitter *e);

/* The same over the configured (about 1 as configured); 0 before. */
double sens_jitter_ratio(const struct sens_jitter *e);

/* Whether the table is noisier than configured: at least
 * SENS_JITTER_FLAG_FITS fits in the window and a ratio above
 * SENS_JITTER_FLAG_RATIO. */
bool sens_jitter_noisier(const struct sens_jitter *e);

/* ---- The pipeline: edges in, observations out ------------------------- */

enum sens_obs_kind {
	SENS_OBS_IMPACT,	/* a piezo channel: ev is TABLE, CUP, MINE or FLOOR */
	SENS_OBS_BUTTON,	/* a button press: call and team; ev is the call */
};

/* One observation, ready for fusion: ev is a complete struct bd_event
 * (BD_EV_TABLE with half, x, y, confidence, source "piezo", t_ns; BD_EV_CUP
 * with the owner; BD_EV_MINE; BD_EV_FLOOR), except for a catch button's
 * BD_EV_CATCH, whose player (BD_NOBODY here: the button knows the end, not
 * the player) fusion must fill from the team before core/ judges it. */
struct sens_obs {
	enum sens_obs_kind kind;	/* IMPACT or BUTTON */
	struct bd_event ev;	/* what fusion uses; BUTTON: LOW_CALL, RETOSS or CATCH, source "button" */
	enum sens_call call;	/* BUTTON: the call */
	int team;		/* BUTTON: the end's team (BD_TEAM_A, BD_TEAM_B); else BD_NOBODY */
	int line;		/* config line index (CUP, MINE, FLOOR, BUTTON), or -1 (TABLE) */
	bool has_fix;		/* TABLE: fix is filled */
	struct sens_fix fix;	/* TABLE: the localisation behind ev */
	bool has_strength;	/* the channel measured the hit's strength (never, with comparators) */
	double strength;	/* 0..1 when has_strength */
	uint32_t lines_seen;	/* TABLE: bit i set when config line i had an edge in the impact */
	uint32_t table_seen;	/* TABLE: bit j set when table sensor j (j-th table line) fired */
	int64_t table_ts_ns[SENS_MAX_TABLE];	/* TABLE: its edge time, by table sensor */
	int shaken_by;		/* TABLE: config line index of the cup (or the mine) whose hit
				 * shook the table into this impact (SENS_SHAKE_RADII): not a
				 * landing, fusion must not count it; -1 a real impact */
	int64_t held_off_until_ns;	/* TABLE: the hold-off of the last of its lines ends
					 * (its latest arrival + hold_off_ms): until then one
					 * or more of the lines that heard it hear nothing new */
};

/* A table impact is the shake of a cup (or mine) hit when the impact
 * locates within this many of the cup's radii (plus 2 sigma of the fix)
 * of its centre and starts within SENS_SHAKE_SYNC_NS of the cup's edge. An
 * impact too thin to locate (2 sensors) has no start time, only its first
 * arrival, and is marked on that alone within one grouping window: a die
 * travels under 3 cm in a window, so a touch that close in time to a cup
 * hit is taken for that hit. */
#define SENS_SHAKE_RADII 3.0
/* A located impact starts at its fitted time, and a shake starts when the
 * cup is hit: the cup's disc fires within a cycle or a few of its ring
 * (well under 1 ms), and the fit's start time is good to tens of us. An
 * impact starting earlier is the die touching the table beside the cup
 * before hitting it (BD-P7's "hit the defenders' half first"); one
 * starting later is the die coming down after the cup hit, whose own
 * shake was too weak to be heard first. Neither is the cup's shake. */
#define SENS_SHAKE_SYNC_NS 1000000LL

/* ---- Line check: edges that no impact makes -------------------------- *
 *
 * A line is trusted only while its edges look like impacts (docs/sensors.md
 * "Line check", with the figures measured on the simulated table the
 * defaults come from). Judged on the edges' own timestamps, never a clock:
 * - floating: float_edges edges within float_ns (an input left open picks
 *   up edges microseconds apart);
 * - stuck: hits (an edge hit_ns or more after the last hit began) each
 *   within 1.5 hit_ns of the last, for stuck_ns: it fires on and on, far
 *   longer than a die's bounces last;
 * - chattering: chatter_hits hits in a row of chatter_edges edges or more
 *   each (a comparator at its threshold), or rate_hits hits within a
 *   second (more than a die makes).
 * A line that shows one is quarantined until it has shown none for
 * settle_ns: its edges reach no impact. */
enum sens_line_fault {
	SENS_LINE_SANE,		/* its edges look like impacts */
	SENS_LINE_FLOATING,	/* bursts of many edges microseconds apart */
	SENS_LINE_STUCK,	/* fires on and on, far longer than any hit */
	SENS_LINE_CHATTERING,	/* more edges a hit, or hits a second, than impacts make */
};

#define SENS_FLOAT_RING 64	/* the most float_edges can be */

struct sens_linecheck_cfg {
	int64_t float_ns;	/* 2 ms */
	unsigned float_edges;	/* 16 (2..SENS_FLOAT_RING) */
	int64_t hit_ns;		/* 20 ms: one hit's edges, its ringing */
	unsigned chatter_edges;	/* 7: edges of one hit that mean chatter ... */
	unsigned chatter_hits;	/* 3: ... that many hits in a row (1..8) */
	unsigned rate_hits;	/* hits within a second that no die makes: 8 on a cup, mine
				 * or floor line, 24 on a table line (2..64) */
	int64_t stuck_ns;	/* 200 ms */
	int64_t settle_ns;	/* 10 s: sane this long, trusted again */
};

/* The defaults for a line of that role (the figures above). */
void sens_linecheck_defaults(struct sens_linecheck_cfg *c, enum sens_role role);

/* One line's check. Opaque. */
struct sens_linecheck;

/* A check with cfg (copied). NULL and errno (EINVAL for a cfg out of
 * range, ENOMEM). Free with sens_linecheck_free(); NULL is fine there. */
struct sens_linecheck *sens_linecheck_new(const struct sens_linecheck_cfg *cfg);
void sens_linecheck_free(struct sens_linecheck *lc);

/* Feeds the line's next edge (in time order; an earlier one counts as at
 * the latest time seen). Returns what the edge shows (SENS_LINE_SANE:
 * nothing wrong); a fault quarantines the line until settle_ns after its
 * latest faulty edge. */
enum sens_line_fault sens_linecheck_edge(struct sens_linecheck *lc, int64_t ts_ns);

/* The fault that holds the line in quarantine at now_ns, SENS_LINE_SANE
 * when it is trusted. */
enum sens_line_fault sens_linecheck_fault(const struct sens_linecheck *lc, int64_t now_ns);

/* When the quarantine ends unless the line shows a fault again
 * (INT64_MIN: never quarantined). */
int64_t sens_linecheck_until(const struct sens_linecheck *lc);

/* The latest fault in figures, for people: "16 edges in 0.015 ms", "9
 * hits in 0.16 s", "3 hits of 8 edges in a row", "firing for 0.21 s";
 * "" before any fault. Owned by lc. */
const char *sens_linecheck_why(const struct sens_linecheck *lc);

const char *sens_line_fault_name(enum sens_line_fault f);	/* "sane", "floating", ... */

enum sens_health {
	SENS_HEALTH_UNTESTED,	/* no edge yet, and too early to call it silent */
	SENS_HEALTH_OK,
	SENS_HEALTH_SILENT,	/* no edge at all while the table saw impacts / for silent_after_s */
	SENS_HEALTH_STUCK,	/* quarantined: fires on and on (sens_linecheck) */
	SENS_HEALTH_CHATTERING,	/* quarantined: many edges a hit, or hits a second */
	SENS_HEALTH_MISSING,	/* table line absent from most recent impacts the others saw */
	SENS_HEALTH_FLOATING,	/* quarantined: bursts of edges microseconds apart */
};

struct sens_line_health {
	char name[SENS_NAME_MAX];	/* as configured */
	unsigned offset;	/* GPIO line offset */
	enum sens_role role;	/* as configured */
	enum sens_health state;	/* the verdict */
	uint64_t edges;		/* edges seen, hold-off included */
	uint64_t accepted;	/* edges that passed the hold-off */
	uint64_t suppressed;	/* edges dropped by the hold-off or as the line's second in one
				 * impact (ringing, chatter) */
	uint64_t impacts;	/* TABLE: impacts it took part in */
	uint64_t missed;	/* TABLE: impacts others saw without it */
	int64_t last_ns;	/* last edge, or 0 */
	uint64_t quarantined;	/* edges that reached no impact: the line was quarantined */
	int64_t trusted_at_ns;	/* FLOATING, STUCK, CHATTERING: when the quarantine ends
				 * unless it shows a fault again; else 0 */
	char why[48];		/* then: the fault in figures (sens_linecheck_why) */
};

struct sens_pipeline;

/* A pipeline for configuration c (copied). NULL and errno (EINVAL when
 * sens_config_check fails, ENOMEM). Free with sens_pipeline_free(). */
struct sens_pipeline *sens_pipeline_new(const struct sens_config *c);
void sens_pipeline_free(struct sens_pipeline *p);

/* Feeds one edge. Edges should come in time order (each source read is);
 * small disorder within one impact's window is tolerated. Observations
 * completed by it are written to out (at most cap; the rest wait for the
 * next call) in time order; returns how many. Edges on unknown lines are
 * counted and ignored. */
size_t sens_pipeline_push(struct sens_pipeline *p, const struct sens_edge *e,
			  struct sens_obs *out, size_t cap);

/* Completes what time has completed: an impact whose window ended before
 * now_ns. Call from a timer (every few ms) and at the end of a replay with
 * INT64_MAX, which completes whatever is open (an impact within one window
 * of INT64_MAX too). Returns observations written, as sens_pipeline_push(). */
size_t sens_pipeline_flush(struct sens_pipeline *p, int64_t now_ns,
			   struct sens_obs *out, size_t cap);

/* Health of every configured line at now_ns, in config order; writes at
 * most cap and returns the number of configured lines. */
size_t sens_pipeline_health(const struct sens_pipeline *p, int64_t now_ns,
			    struct sens_line_health *out, size_t cap);

/* The measured timing noise of the table (struct sens_jitter), from the
 * fits of impacts so far. Owned by p. */
const struct sens_jitter *sens_pipeline_jitter(const struct sens_pipeline *p);

/* Edges on lines that are not configured. */
uint64_t sens_pipeline_unknown_edges(const struct sens_pipeline *p);

const char *sens_health_name(enum sens_health h);	/* "ok", "silent", ... */

/* One line for people: "table x=1.402 y=0.611 m half B p=0.998 +-0.6 cm
 * (4 sensors)", "cup a1", ... */
void sens_obs_format(const struct sens_obs *o, char *buf, size_t len);

/* ---- Calibration ------------------------------------------------------ */

/* One calibration tap: a known point and the arrival time on each table
 * sensor (index = position among the config's table lines). */
struct sens_tap {
	double x, y;		/* where the installer tapped, metres */
	int64_t ts_ns[SENS_MAX_TABLE];	/* arrival per table sensor */
	bool seen[SENS_MAX_TABLE];	/* that sensor had an edge */
};

struct sens_calibration {
	double wave_speed_mps;	/* fitted */
	size_t n_table;		/* table sensors */
	double delay_s[SENS_MAX_TABLE];	/* fitted per table sensor, mean zero */
	double rms_s;		/* residual rms of the arrival times */
	double rms_cm;		/* the same as a distance at the fitted speed */
	double timing_sigma_s;	/* sd of one arrival's time: the residuals over their degrees
				 * of freedom (arrivals less the taps' starts, speed and delays) */
	double median_err_cm;	/* taps re-located with the fit vs where they were tapped */
	double max_err_cm;	/* the worst tap, same */
	size_t n_taps;		/* taps used */
};

/* The points an installer taps, in order: a grid over the table avoiding
 * the sensors themselves. Writes at most cap (x, y) pairs; returns how
 * many the pattern has. */
size_t sens_calib_points(const struct sens_config *c, double *xy, size_t cap);

/* Fits wave speed and per-sensor delays (linear least squares: arrival =
 * t0(tap) + delay(sensor) + distance / speed) to taps[0..n). Needs at
 * least 3 taps with 3 sensors each, and every table sensor heard in 2 of
 * them. Also re-locates every tap with the result for the position error.
 * 0, -EINVAL (too few, degenerate, a sensor heard in fewer than 2 taps, a
 * result sens_config_check() refuses: it would not load) or -ENOMEM with
 * the reason in err, without a prefix: the caller names the command and
 * where the taps came from. */
int sens_calibrate(const struct sens_config *c, const struct sens_tap *taps, size_t n,
		   struct sens_calibration *out, char *err, size_t errlen);

/* Writes a calibration into c (speed and the table lines' delays). */
void sens_calibration_apply(const struct sens_calibration *cal, struct sens_config *c);

#endif /* DYEREF_SENSORS_H */
