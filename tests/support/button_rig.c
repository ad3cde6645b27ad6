/* The reference wiring plus eight buttons, under the pipeline (button_rig.h). */
#include <stdio.h>
#include <string.h>

#include "tests/support/button_rig.h"

int button_rig_init(struct button_rig *r)
{
	sens_config_defaults(&r->cfg);
	for (int team = BD_TEAM_A; team <= BD_TEAM_B; team++)
		for (int c = 0; c < SENS_CALLS; c++) {
			struct sens_line_cfg *l = &r->cfg.lines[r->cfg.n_lines++];

			memset(l, 0, sizeof(*l));
			snprintf(l->name, sizeof(l->name), "button_%s_%c", sens_call_name((enum sens_call)c),
				 team == BD_TEAM_A ? 'a' : 'b');
			l->role = SENS_ROLE_BUTTON;
			l->offset = button_rig_line(team, (enum sens_call)c);
			l->call = (enum sens_call)c;
			l->team = team;
		}
	r->n_obs = 0;
	r->p = sens_pipeline_new(&r->cfg);
	return r->p ? 0 : -1;
}

unsigned button_rig_line(int team, enum sens_call call)
{
	return (unsigned)(BUTTON_RIG_LINE0 + team * SENS_CALLS + (int)call);
}

void button_rig_edge(struct button_rig *r, unsigned line, int64_t t)
{
	struct sens_edge e = { line, t };

	r->n_obs += sens_pipeline_push(r->p, &e, r->obs + r->n_obs, BUTTON_RIG_CAP - r->n_obs);
}

void button_rig_flush(struct button_rig *r)
{
	r->n_obs += sens_pipeline_flush(r->p, INT64_MAX, r->obs + r->n_obs, BUTTON_RIG_CAP - r->n_obs);
}
