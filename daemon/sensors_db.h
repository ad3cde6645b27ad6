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
 * stored as a disc's. 0 or db_raw_append()'s error (err). */
int dd_sensors_edges_store(struct db *db, int64_t match, const struct sens_config *cfg,
			   const struct sens_edge *e, size_t n, char *err, size_t errlen);

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
