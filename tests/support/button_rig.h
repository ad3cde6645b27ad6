/* The sensors pipeline over the reference wiring plus eight push buttons
 * on lines 40..47 (low, retoss, catch1, catch2 at A's end, then the same
 * at B's end), keeping what it observes: the buttons' tests
 * (test_sens_buttons.c) and the sensors glue's (test_sensors_glue.c). */
#ifndef DYEREF_TEST_BUTTON_RIG_H
#define DYEREF_TEST_BUTTON_RIG_H

#include <stddef.h>
#include <stdint.h>

#include "sensors/sensors.h"

#define BUTTON_RIG_LINE0 40	/* the first button's GPIO line */
#define BUTTON_RIG_CAP 64	/* observations kept */

struct button_rig {
	struct sens_config cfg;	/* as described */
	struct sens_pipeline *p;	/* owned: over cfg */
	struct sens_obs obs[BUTTON_RIG_CAP];	/* observed since button_rig_init */
	size_t n_obs;		/* in obs */
};

/* A fresh rig; its pipeline is freed with sens_pipeline_free(r->p). 0, or
 * -1 with errno (the pipeline's). */
int button_rig_init(struct button_rig *r);

/* The line of the button for call at team's end. */
unsigned button_rig_line(int team, enum sens_call call);

/* One edge on line at t, what it completes kept. */
void button_rig_edge(struct button_rig *r, unsigned line, int64_t t);

/* Completes whatever is open. */
void button_rig_flush(struct button_rig *r);

#endif /* DYEREF_TEST_BUTTON_RIG_H */
