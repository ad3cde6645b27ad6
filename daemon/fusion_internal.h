/* Fusion's private declarations, shared by daemon/fusion.c (taking
 * observations), fusion_assemble.c (a throw from them) and fusion_judge.c
 * (judging it). daemon/fusion.h is the contract. */
#ifndef DYEREF_DAEMON_FUSION_INTERNAL_H
#define DYEREF_DAEMON_FUSION_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/fusion.h"

/* An official enters a call within this long of seeing it. */
#define CALL_DELAY_NS (1000 * 1000000LL)

/* A witness of the die's edges (its contacts, its exits), not a call. */
static inline bool dd_fusion_edge_source(enum dd_source s)
{
	return s == DD_SRC_PIEZO || s == DD_SRC_CAMERA || s == DD_SRC_SIM;
}

/* Adds why to the reasons in buf (size bytes), after "; ", unless it is
 * there already; cut where buf is full. */
void dd_fusion_append_why(char *buf, size_t size, const char *why);

/* The throw under way in f as it stands, into *out (the caller's): over
 * at now_ns, timed out (no dead die seen) or not. */
void dd_fusion_assemble(const struct dd_fusion *f, bool timed_out, int64_t now_ns,
			struct dd_fused *out);

#endif /* DYEREF_DAEMON_FUSION_INTERNAL_H */
