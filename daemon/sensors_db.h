/*
 * Piezo edges in the event log (daemon/sensors_db.c). Private to daemon/
 * and its tests: libsensors never needs a database.
 *
 * Convention (docs/sensors.md "Edges in the database"): one db_raw row per
 * edge, source "piezo" (a disc or floor strip) or "button" (a referee's
 * button), kind "edge", channel = the GPIO line offset, t_ns = the kernel
 * timestamp, payload {"line":N} (optional on reading; when it names a
 * line, it must be the channel).
 */
#ifndef DYEREF_SENSORS_DB_H
#define DYEREF_SENSORS_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "sensors/sensors.h"

#define DD_EDGE_PAYLOAD 24	/* bytes of the payload buffer dd_sensors_edge_raw() fills */

/* Fills *raw for storing edge e with db_raw_append(); the payload text is
 * written into payload, which must outlive raw. throw_no: 0 (found by
 * time). button: e is a referee button's line (source "button"), else a
 * disc's ("piezo"). */
void dd_sensors_edge_raw(const struct sens_edge *e, int throw_no, bool button,
			 char payload[DD_EDGE_PAYLOAD], struct db_raw *raw);

/* Adds n edges of the lines cfg wires to match's raw inputs, found by
 * time (throw_no 0), in db's open batch: durable at the next
 * db_raw_flush() or db_append(). An edge on a line cfg does not wire is
 * stored as a disc's. All or none: after an error none of them is in the
 * batch. 0, -ENOMEM or db_raw_append()'s error (err). */
int dd_sensors_edges_store(struct db *db, int64_t match, const struct sens_config *cfg,
			   const struct sens_edge *e, size_t n, char *err, size_t errlen);

/* What `dyeref serve` keeps of the chip's edges for the event log. Each
 * line may give DD_KEEP_BURST edges at once and DD_KEEP_PER_S a second
 * over time (a throw gives a line a few dozen at most, ringing included),
 * so a floating or chattering line fills no card; edges on lines the
 * wiring does not name share one such budget. What is kept waits in buf
 * for the store, so a store locked for a while (an import) loses none of
 * it, up to DD_KEEP_MAX, and the loop need not wait for the lock. Pure:
 * times are the edges' own and the caller's. */
#define DD_KEEP_BURST 64
#define DD_KEEP_PER_S 16
#define DD_KEEP_MAX 4096
#define DD_KEEP_REPORT_NS (10 * 1000000000LL)	/* at most one report this often */

struct dd_keep_line {
	double tokens;		/* edges this line may still give now */
	int64_t t_ns;		/* of its latest edge, taken or refused; 0 none yet */
	unsigned long left_out;	/* refused since the last report */
};

struct dd_edge_keep {
	struct sens_edge buf[DD_KEEP_MAX];	/* kept, waiting for the store, in order read */
	size_t n;				/* in buf */
	struct dd_keep_line line[SENS_MAX_LINES + 1];	/* by config index; the last: unwired */
	unsigned long full;		/* refused since the last report: buf was full */
	int64_t reported_ns;		/* of the last report; 0 none yet */
};

/* An empty keep, every line's budget full. */
void dd_edge_keep_init(struct dd_edge_keep *k);

/* Puts into k->buf those of e[0..n) (on cfg's wiring) their lines'
 * budgets allow and room remains for; returns how many it took. */
size_t dd_edge_keep_add(struct dd_edge_keep *k, const struct sens_config *cfg,
			const struct sens_edge *e, size_t n);

/* The first n of k->buf have been stored: drops them. */
void dd_edge_keep_stored(struct dd_edge_keep *k, size_t n);

/* When the report of edges refused so far is due (a CLOCK_MONOTONIC
 * time, at most DD_KEEP_REPORT_NS after the last), or 0: none refused. */
int64_t dd_edge_keep_report_due(const struct dd_edge_keep *k);

/* Whether edges were refused since the last report and a report is due at
 * now_ns (DD_KEEP_REPORT_NS after the last): then one line for the log in
 * msg (the total, and the line refused most, named by cfg), and the
 * counts start again. */
bool dd_edge_keep_report(struct dd_edge_keep *k, const struct sens_config *cfg, int64_t now_ns,
			 char *msg, size_t len);

/* Every stored edge of a match, a disc's or a button's (throw_no 0: of
 * all its throws, read through db_replay(); K: of throw K), sorted by
 * time, duplicates (a row in two throws' spans) removed. *edges (n of
 * them) is the caller's: free(). -ENOENT no such match or throw, -EINVAL
 * a row breaking the convention ("match M throw K: SOURCE edge at T ns:
 * why", SOURCE piezo or button), or db_'s error. */
int dd_sensors_db_edges(struct db *db, int64_t match, int throw_no, struct sens_edge **edges,
			size_t *n, char *err, size_t errlen);

/* The same as an edge source: a memory source (sens_memory_open) holding
 * those edges; close with sens_source_close(). NULL, errno and err. */
struct sens_source *dd_sensors_db_open(struct db *db, int64_t match, int throw_no,
				       char *err, size_t errlen);

#endif /* DYEREF_SENSORS_DB_H */
