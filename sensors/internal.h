/* sensors/ private: the edge source interface the backends implement. */
#ifndef DYEREF_SENSORS_INTERNAL_H
#define DYEREF_SENSORS_INTERNAL_H

#include "sensors/sensors.h"

struct sens_source_ops {
	const char *name;	/* "libgpiod v1", "replay", ... */
	ssize_t (*read)(struct sens_source *s, struct sens_edge *out, size_t cap,
			bool *eof, char *err, size_t errlen);
	void (*close)(struct sens_source *s);	/* frees backend state, not s */
};

struct sens_source {
	const struct sens_source_ops *ops;	/* the backend */
	int fd;			/* what sens_source_fd() returns; owned */
	void *priv;		/* backend state */
	struct sens_edge *edges;	/* memory/replay: owned array */
	char warning[384];	/* sens_source_warning: "" or one line */
	size_t n, cap, pos;	/* memory/replay: edges held, allocated, read */
};

/* P(chi-square with d degrees of freedom > x), exact for whole d (the
 * fits' d is small: arrivals minus three); 1 for d < 1 or x <= 0
 * (locate.c). */
double sens_chi2_tail(double x, int d);

/* Nanoseconds from a kernel timespec-like pair, saturating. */
int64_t sens_ts_ns(int64_t sec, int64_t nsec);

/* A memory source that takes ownership of edges[0..n) (replay.c). NULL
 * and errno on failure, edges then still the caller's. */
struct sens_source *sens_memory_adopt(struct sens_edge *edges, size_t n);

#endif
