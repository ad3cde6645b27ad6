/*
 * Piezo edges in the event log (daemon/sensors_db.c). Private to daemon/
 * and its tests: libsensors never needs a database.
 *
 * Convention (docs/sensors.md "Edges in the database"): one db_raw row per
 * edge, source "piezo", kind "edge", channel = the GPIO line offset, t_ns =
 * the kernel timestamp, payload {"line":N} (optional on reading; when it
 * names a line, it must be the channel).
 */
#ifndef DYEREF_SENSORS_DB_H
#define DYEREF_SENSORS_DB_H

#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "sensors/sensors.h"

#define DD_EDGE_PAYLOAD 24	/* bytes of the payload buffer dd_sensors_edge_raw() fills */

/* Fills *raw for storing edge e with db_raw_append(); the payload text is
 * written into payload, which must outlive raw. throw_no: 0 (found by time). */
void dd_sensors_edge_raw(const struct sens_edge *e, int throw_no, char payload[DD_EDGE_PAYLOAD],
			 struct db_raw *raw);

/* Every stored piezo edge of a match (throw_no 0: of all its throws, read
 * through db_replay(); K: of throw K), sorted by time, duplicates (a row
 * in two throws' spans) removed. *edges (n of them) is the caller's:
 * free(). -ENOENT no such match or throw, -EINVAL a row breaking the
 * convention ("match M throw K: piezo edge at T ns: why"), or db_'s error. */
int dd_sensors_db_edges(struct db *db, int64_t match, int throw_no, struct sens_edge **edges,
			size_t *n, char *err, size_t errlen);

/* The same as an edge source: a memory source (sens_memory_open) holding
 * those edges; close with sens_source_close(). NULL, errno and err. */
struct sens_source *dd_sensors_db_open(struct db *db, int64_t match, int throw_no,
				       char *err, size_t errlen);

#endif /* DYEREF_SENSORS_DB_H */
