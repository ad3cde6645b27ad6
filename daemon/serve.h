/* Private to `dyeref serve` (cmd_serve.c, serve_config.c): not a contract. */
#ifndef DYEREF_DAEMON_SERVE_H
#define DYEREF_DAEMON_SERVE_H

#include "daemon/daemon.h"
#include "daemon/config.h"
#include "daemon/fusion.h"
#include "daemon/referee.h"

struct dd_serve_config {
	char bind[64];			/* [web] bind */
	char trusted_proxy[64];		/* [web] trusted_proxy, "" none */
	unsigned port;			/* [web] port; 0 any free port */
	char pin[16];			/* [web] pin, "" locks the console */
	char db_path[480];		/* [db] path */
	struct dd_referee_cfg ref;	/* [house], [fusion] review */
	struct dd_fusion_cfg fusion;	/* [fusion] */
	int sim_max_throws;		/* [sim] max_throws: --sim=table's matches stop after so many throws; 0 at their end */
	double sim_pause_s;		/* [sim] pause_s: --sim's pause between matches, real seconds (8) */
	double sim_speed;		/* [sim] speed: --sim's clock, times real time (1); rulings are the same at any */
	int n_problems;			/* problems found */
	char problems[4096];		/* one "file:line: why" a line */
	char warnings[1024];		/* the same, for what works but is unwise */
};

void dd_serve_config_defaults(struct dd_serve_config *sc);
/* Reads [web], [db], [house], [fusion], [sim] over the defaults in sc. 0,
 * or -EINVAL with every problem listed in sc->problems; either way what is
 * allowed but unwise (a PIN of 4 or 5 digits) in sc->warnings. */
int dd_serve_config_read(struct dd_config *cfg, struct dd_serve_config *sc);
void dd_serve_config_problem(struct dd_serve_config *sc, const char *msg);
/* 0 when sc has no problem; else -EINVAL with the first one (a line
 * without its newline) in err. */
int dd_serve_config_first_problem(const struct dd_serve_config *sc, char *err, size_t errlen);

#endif /* DYEREF_DAEMON_SERVE_H */
