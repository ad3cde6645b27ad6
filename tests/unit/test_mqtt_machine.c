/*
 * daemon/mqtt.c's state machine on a manual clock, libmosquitto replaced
 * through the linker (--wrap, daemon/module.mk): a broker that refuses is
 * tried again after 1 s, doubling to 8 s; a CONNECT not answered in 10 s
 * is given up, each connect with a new client; the acknowledged number
 * reaches the database 100 ms after the broker's PUBACK, not before.
 */
#include <errno.h>
#include <mosquitto.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "daemon/clock.h"
#include "daemon/mqtt.h"
#include "db/db.h"
#include "tests/support/db_fx.h"

#define MS 1000000LL
#define MAX_CALLS 64

/* The fake library: one client at a time, what was called when. */
static struct {
	struct dd_clock *clock;
	char obj;			/* what mosquitto_new hands out */
	void *user;
	void (*on_connect)(struct mosquitto *, void *, int);
	void (*on_publish)(struct mosquitto *, void *, int);
	int connect_rc;			/* what connect_async returns */
	int fd;				/* the socket while "connected", else -1 */
	int64_t connect_at[MAX_CALLS];
	int connects, news, destroys, mid;
	int ruling_mid[MAX_CALLS];	/* message ids of the rulings published */
	int rulings;
} fk;

struct mosquitto *__wrap_mosquitto_new(const char *id, bool clean, void *user);
void __wrap_mosquitto_destroy(struct mosquitto *m);
void __wrap_mosquitto_connect_callback_set(struct mosquitto *m, void (*f)(struct mosquitto *, void *, int));
void __wrap_mosquitto_disconnect_callback_set(struct mosquitto *m, void (*f)(struct mosquitto *, void *, int));
void __wrap_mosquitto_publish_callback_set(struct mosquitto *m, void (*f)(struct mosquitto *, void *, int));
int __wrap_mosquitto_max_inflight_messages_set(struct mosquitto *m, unsigned int n);
int __wrap_mosquitto_will_set(struct mosquitto *m, const char *t, int len, const void *p, int qos, bool r);
int __wrap_mosquitto_connect_async(struct mosquitto *m, const char *host, int port, int keepalive);
int __wrap_mosquitto_socket(struct mosquitto *m);
bool __wrap_mosquitto_want_write(struct mosquitto *m);
int __wrap_mosquitto_publish(struct mosquitto *m, int *mid, const char *topic, int len, const void *p,
			     int qos, bool retain);
int __wrap_mosquitto_loop_misc(struct mosquitto *m);
int __wrap_mosquitto_disconnect(struct mosquitto *m);

struct mosquitto *__wrap_mosquitto_new(const char *id, bool clean, void *user)
{
	(void)id;
	(void)clean;
	fk.user = user;
	fk.news++;
	return (struct mosquitto *)&fk.obj;
}

void __wrap_mosquitto_destroy(struct mosquitto *m)
{
	if (m)
		fk.destroys++;
}

void __wrap_mosquitto_connect_callback_set(struct mosquitto *m, void (*f)(struct mosquitto *, void *, int))
{
	(void)m;
	fk.on_connect = f;
}

void __wrap_mosquitto_disconnect_callback_set(struct mosquitto *m, void (*f)(struct mosquitto *, void *, int))
{
	(void)m;
	(void)f;
}

void __wrap_mosquitto_publish_callback_set(struct mosquitto *m, void (*f)(struct mosquitto *, void *, int))
{
	(void)m;
	fk.on_publish = f;
}

int __wrap_mosquitto_max_inflight_messages_set(struct mosquitto *m, unsigned int n)
{
	(void)m;
	(void)n;
	return MOSQ_ERR_SUCCESS;
}

int __wrap_mosquitto_will_set(struct mosquitto *m, const char *t, int len, const void *p, int qos, bool r)
{
	(void)m, (void)t, (void)len, (void)p, (void)qos, (void)r;
	return MOSQ_ERR_SUCCESS;
}

int __wrap_mosquitto_connect_async(struct mosquitto *m, const char *host, int port, int keepalive)
{
	(void)m, (void)host, (void)port, (void)keepalive;
	if (fk.connects < MAX_CALLS)
		fk.connect_at[fk.connects] = dd_clock_now(fk.clock);
	fk.connects++;
	if (fk.connect_rc == MOSQ_ERR_ERRNO)
		errno = ECONNREFUSED;
	return fk.connect_rc;
}

int __wrap_mosquitto_socket(struct mosquitto *m)
{
	(void)m;
	return fk.connect_rc == MOSQ_ERR_SUCCESS ? fk.fd : -1;
}

bool __wrap_mosquitto_want_write(struct mosquitto *m)
{
	(void)m;
	return false;
}

int __wrap_mosquitto_publish(struct mosquitto *m, int *mid, const char *topic, int len, const void *p,
			     int qos, bool retain)
{
	(void)m, (void)len, (void)p, (void)qos, (void)retain;
	fk.mid++;
	if (mid)
		*mid = fk.mid;
	if (strstr(topic, "/ruling") && fk.rulings < MAX_CALLS)
		fk.ruling_mid[fk.rulings++] = fk.mid;
	return MOSQ_ERR_SUCCESS;
}

int __wrap_mosquitto_loop_misc(struct mosquitto *m)
{
	(void)m;
	return MOSQ_ERR_SUCCESS;
}

int __wrap_mosquitto_disconnect(struct mosquitto *m)
{
	(void)m;
	return MOSQ_ERR_SUCCESS;
}

struct fx {
	struct db_test_fx *db;
	sd_event *ev;
	int pipe[2];
	struct dd_mqtt *m;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	void *dbs = NULL;

	assert_non_null(f);
	assert_int_equal(db_test_setup(&dbs), 0);
	f->db = dbs;
	assert_int_equal(sd_event_new(&f->ev), 0);
	assert_int_equal(pipe(f->pipe), 0);
	memset(&fk, 0, sizeof(fk));
	fk.clock = dd_clock_new_manual(0);
	assert_non_null(fk.clock);
	fk.fd = f->pipe[0];
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	void *dbs = f->db;

	dd_mqtt_free(f->m);
	dd_clock_free(fk.clock);
	close(f->pipe[0]);
	close(f->pipe[1]);
	sd_event_unref(f->ev);
	db_test_teardown(&dbs);
	free(f);
	return 0;
}

static void start(struct fx *f)
{
	struct dd_mqtt_cfg cfg;
	char err[256];

	dd_mqtt_cfg_defaults(&cfg);
	snprintf(cfg.host, sizeof(cfg.host), "127.0.0.1");	/* no lookup */
	f->m = dd_mqtt_new(&cfg, "t1", NULL, f->ev, fk.clock, f->db->db, err, sizeof(err));
	if (!f->m)
		fail_msg("%s", err);
}

/* Steps of 100 ms up to to_ns. */
static void run_to(int64_t to_ns)
{
	for (int64_t t = dd_clock_now(fk.clock) + 100 * MS; t <= to_ns; t += 100 * MS)
		dd_clock_advance(fk.clock, t);
}

static void test_mqtt_refused_backs_off_1_2_4_8_8(void **state)
{
	struct fx *f = *state;
	static const int64_t want_s[] = { 0, 1, 3, 7, 15, 23, 31 };

	fk.connect_rc = MOSQ_ERR_ERRNO;
	start(f);
	run_to(31000 * MS);
	assert_int_equal(fk.connects, 7);
	for (int i = 0; i < 7; i++)
		assert_int_equal(fk.connect_at[i], want_s[i] * 1000 * MS);
}

static void test_mqtt_unanswered_connect_is_given_up_after_10_s(void **state)
{
	struct fx *f = *state;

	fk.connect_rc = MOSQ_ERR_SUCCESS;
	start(f);
	run_to(26000 * MS);
	/* Given up at 11 s (more than 10), again 1 s later; then at 23 s,
	 * again 2 s later. */
	assert_int_equal(fk.connects, 3);
	assert_int_equal(fk.connect_at[0], 0);
	assert_int_equal(fk.connect_at[1], 12000 * MS);
	assert_int_equal(fk.connect_at[2], 25000 * MS);
	/* A new client for each connect after the first; the old one gone. */
	assert_int_equal(fk.news, 3);
	assert_int_equal(fk.destroys, 2);
}

static const char LOG[] =
	"{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]}}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"floor\"}]}\n"
	"{\"type\":\"throw\",\"events\":[{\"at\":\"floor\"}]}\n";

static void test_mqtt_acked_number_is_kept_100_ms_after_the_puback(void **state)
{
	struct fx *f = *state;
	char err[256];
	int64_t match, acked = -1;

	assert_int_equal(db_import(f->db->db, "t.jsonl", LOG, sizeof(LOG) - 1, 1, &match, err,
				   sizeof(err)), 0);
	fk.connect_rc = MOSQ_ERR_SUCCESS;
	start(f);
	run_to(500 * MS);
	fk.on_connect((struct mosquitto *)&fk.obj, fk.user, 0);
	assert_int_equal(fk.rulings, 3);
	for (int i = 0; i < 3; i++)
		fk.on_publish((struct mosquitto *)&fk.obj, fk.user, fk.ruling_mid[i]);
	assert_int_equal(db_mqtt_acked_get(f->db->db, &acked, err, sizeof(err)), 0);
	assert_int_equal(acked, 0);
	dd_clock_advance(fk.clock, 599 * MS);
	assert_int_equal(db_mqtt_acked_get(f->db->db, &acked, err, sizeof(err)), 0);
	assert_int_equal(acked, 0);
	dd_clock_advance(fk.clock, 600 * MS);
	assert_int_equal(db_mqtt_acked_get(f->db->db, &acked, err, sizeof(err)), 0);
	assert_int_equal(acked, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mqtt_refused_backs_off_1_2_4_8_8, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mqtt_unanswered_connect_is_given_up_after_10_s,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_mqtt_acked_number_is_kept_100_ms_after_the_puback,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
