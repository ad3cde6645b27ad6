/* sim_match: whole Beer Die matches on the virtual table, with the rulings
 * a perfect referee would give and the truth log in the match-log format. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"

void sim_match_cfg_defaults(struct sim_match_cfg *c)
{
	sim_throw_cfg_defaults(&c->thr);
	bd_house_defaults(&c->house);
	c->max_throws = SIM_MAX_THROWS;
	c->gap_mean_s = 6.0;
	c->rolloff = true;
}

void sim_match_free(struct sim_match *m)
{
	if (!m)
		return;
	mlog_bd_free(m->log);
	free(m->throws);
	free(m->rulings);
	free(m);
}

int sim_match_play(const struct sim_match_cfg *cfg, const struct bd_table *tb, int64_t t0_ns,
		   struct sim_rng *rng, struct sim_match **out, char *err, size_t errlen)
{
	struct bd_match_cfg mc;
	struct sim_match *m;
	int64_t now = t0_ns;
	size_t cap = (size_t)cfg->max_throws;
	int rc = -ENOMEM, value, calling;

	*out = NULL;
	if (cfg->max_throws < 1) {
		snprintf(err, errlen, "sim: max_throws must be at least 1");
		return -EINVAL;
	}
	bd_match_cfg_init(&mc);
	mc.house = cfg->house;
	m = calloc(1, sizeof(*m));
	if (!m)
		goto fail;
	m->throws = calloc(cap, sizeof(m->throws[0]));
	m->rulings = calloc(cap, sizeof(m->rulings[0]));
	m->log = mlog_bd_new("truth", &mc);
	if (!m->throws || !m->rulings || !m->log)
		goto free_match;
	if (cfg->rolloff) {
		/* BD-F1: one die rolled, the other team calls. */
		value = 1 + (int)(6 * sim_rng_uniform(rng));
		calling = sim_rng_uniform(rng) < 0.5 ? BD_TEAM_A : BD_TEAM_B;
		rc = mlog_bd_set_rolloff(m->log, value, calling, sim_rng_uniform(rng) < 0.5);
		if (rc < 0) {
			snprintf(err, errlen, "sim: roll-off rejected");
			goto free_match;
		}
	}
	bd_state_init(&m->state, &m->log->cfg);
	while (!m->state.over && m->n_throws < cap) {
		struct sim_throw *t = &m->throws[m->n_throws];
		struct bd_ruling *r = &m->rulings[m->n_throws];
		int thrower = bd_next_thrower(&m->state, &m->log->cfg);

		rc = sim_throw_play(&cfg->thr, tb, thrower, now, rng, t);
		if (rc < 0) {
			snprintf(err, errlen, "sim: throw %zu: bad thrower %d", m->n_throws + 1, thrower);
			goto free_match;
		}
		t->die = (int)(m->n_throws % 2);
		rc = bd_judge(&m->log->cfg, &m->state, &t->truth, r, err, errlen);
		if (rc < 0)
			goto free_match;
		rc = mlog_bd_add_throw(m->log, &t->truth);
		if (rc < 0)
			goto free_match;
		bd_apply(&m->state, &m->log->cfg, r);
		m->n_throws++;
		/* The defenders fetch the die and get ready (BD-T2). */
		now = t->t_dead_ns +
		      (int64_t)((cfg->gap_mean_s * (0.5 + sim_rng_uniform(rng))) * 1e9);
	}
	bd_final(&m->log->cfg, &m->state, &m->final);
	*out = m;
	return 0;

free_match:
	sim_match_free(m);
fail:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "sim: out of memory");
	return rc;
}

int sim_write_file(const char *path, const char *buf, size_t len, char *err, size_t errlen)
{
	char tmp[4096];
	size_t done = 0;
	int fd, rc = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -ENAMETOOLONG;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return rc;
	}
	while (done < len) {
		ssize_t w = write(fd, buf + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
			goto remove_tmp;
		}
		done += (size_t)w;
	}
	if (fsync(fd) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		goto remove_tmp;
	}
	close(fd);
	fd = -1;
	if (rename(tmp, path) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto remove_tmp;
	}
	return 0;

remove_tmp:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return rc;
}

int sim_match_write_truth(const struct sim_match *m, const char *path, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = mlog_bd_write(m->log, &buf, &len);

	if (rc < 0) {
		snprintf(err, errlen, "%s: out of memory", path);
		return rc;
	}
	rc = sim_write_file(path, buf, len, err, errlen);
	free(buf);
	return rc;
}
