/* daemon/mqtt_msg.c: the MQTT topics and payloads a table publishes, the
 * events a ruling gives, and the outbox window's sequence logic (what is
 * acknowledged, what a reconnect sends again). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/mqtt_msg.h"

static void test_mq_topic_names_the_table(void **state)
{
	char t[DD_MQ_TOPIC_MAX];

	(void)state;
	assert_int_equal(dd_mq_topic(t, sizeof(t), "bar-3", "ruling"), 0);
	assert_string_equal(t, "dyeref/bar-3/ruling");
	/* The longest id with the longest leaf fits. */
	assert_int_equal(dd_mq_topic(t, sizeof(t), "0123456789abcdefghijklmnopqrstuv", "ruling"), 0);
	assert_int_equal(dd_mq_topic(t, 16, "bar-3", "ruling"), -ENAMETOOLONG);
}

static const char SINK[] =
	"{\"type\":\"ruling\",\"throw\":7,\"thrower\":\"a1\",\"team\":\"A\",\"points\":{\"A\":2,\"B\":0},"
	"\"score\":{\"A\":10,\"B\":4},\"dead\":false,\"review\":false,\"why\":[\"BD-P8\",\"BD-W1\"],"
	"\"duties\":[{\"player\":\"b1\",\"duty\":\"kill_n_fill\",\"why\":\"BD-P8\"}]}";

static void test_mq_ruling_msg_carries_the_identity_and_line(void **state)
{
	struct dd_mq_ruling r = { .seq = 42, .match = 3, .throw_no = 7, .revision = 2,
				  .kind = "correction", .line = SINK };
	char *s = dd_mq_ruling_msg("bar-3", &r);

	(void)state;
	assert_non_null(s);
	assert_non_null(strstr(s, "{\"table\":\"bar-3\",\"seq\":42,\"match\":3,\"throw\":7,"
				  "\"revision\":2,\"kind\":\"correction\",\"ruling\":{\"type\":\"ruling\""));
	assert_non_null(strstr(s, "\"why\":[\"BD-P8\",\"BD-W1\"]"));
	free(s);
	r.line = "not json";
	errno = 0;
	assert_null(dd_mq_ruling_msg("bar-3", &r));
	assert_int_equal(errno, EINVAL);
	r.line = "[1]";
	assert_null(dd_mq_ruling_msg("bar-3", &r));
}

static void test_mq_events_of_a_ruling(void **state)
{
	struct dd_mq_ruling r = { .seq = 42, .match = 3, .throw_no = 7, .revision = 1,
				  .kind = "ruling", .line = SINK };
	char *ev[DD_MQ_EVENTS_MAX];
	int n;

	(void)state;
	n = dd_mq_events("t", &r, ev, DD_MQ_EVENTS_MAX);
	assert_int_equal(n, 3);
	assert_string_equal(ev[0], "{\"table\":\"t\",\"match\":3,\"throw\":7,\"seq\":42,\"event\":\"sink\","
				   "\"team\":\"A\",\"thrower\":\"a1\"}");
	assert_string_equal(ev[1], "{\"table\":\"t\",\"match\":3,\"throw\":7,\"seq\":42,"
				   "\"event\":\"kill_n_fill\",\"team\":\"A\",\"thrower\":\"a1\",\"player\":\"b1\"}");
	assert_string_equal(ev[2], "{\"table\":\"t\",\"match\":3,\"throw\":7,\"seq\":42,\"event\":\"win\","
				   "\"team\":\"A\",\"thrower\":\"a1\"}");
	for (int i = 0; i < n; i++)
		free(ev[i]);
	/* Room for one: the first only. */
	assert_int_equal(dd_mq_events("t", &r, ev, 1), 1);
	free(ev[0]);
	/* A correction or an undo happened before: no events again. */
	r.kind = "correction";
	assert_int_equal(dd_mq_events("t", &r, ev, DD_MQ_EVENTS_MAX), 0);
	r.kind = "undo";
	assert_int_equal(dd_mq_events("t", &r, ev, DD_MQ_EVENTS_MAX), 0);
	/* A five on the table; a win by a penalty goes to who leads. */
	r.kind = "ruling";
	r.line = "{\"type\":\"ruling\",\"throw\":7,\"thrower\":\"a1\",\"team\":\"A\",\"score\":{\"A\":3,\"B\":10},"
		 "\"why\":[\"BD-O2\",\"BD-P10\",\"BD-W1\"],\"duties\":[]}";
	n = dd_mq_events("t", &r, ev, DD_MQ_EVENTS_MAX);
	assert_int_equal(n, 2);
	assert_non_null(strstr(ev[0], "\"event\":\"five\""));
	assert_non_null(strstr(ev[1], "\"event\":\"win\",\"team\":\"B\""));
	free(ev[0]);
	free(ev[1]);
	/* A plain point: nothing. */
	r.line = "{\"type\":\"ruling\",\"throw\":1,\"team\":\"A\",\"why\":[\"BD-P1\"],\"duties\":[]}";
	assert_int_equal(dd_mq_events("t", &r, ev, DD_MQ_EVENTS_MAX), 0);
	r.line = "{";
	assert_int_equal(dd_mq_events("t", &r, ev, DD_MQ_EVENTS_MAX), -EINVAL);
}

static void test_mq_state_msg_keeps_what_a_board_shows(void **state)
{
	char *s = dd_mq_state_msg(
		"{\"table\":{\"id\":\"t\",\"name\":\"T\"},\"match\":3,\"game\":\"beerdie\","
		"\"team_names\":{\"A\":\"X\",\"B\":\"Y\"},\"players\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]},"
		"\"score\":{\"A\":1,\"B\":0},\"throws\":1,\"over\":false,"
		"\"next\":{\"player\":\"a2\",\"slot\":\"a2\",\"team\":\"A\"},\"history\":[1,2,3],"
		"\"timing\":{\"rulings\":9},\"health\":{\"store\":{\"ok\":true,\"text\":\"ok\"}}}");

	(void)state;
	assert_non_null(s);
	assert_string_equal(s,
		"{\"table\":{\"id\":\"t\",\"name\":\"T\"},\"match\":3,\"game\":\"beerdie\","
		"\"team_names\":{\"A\":\"X\",\"B\":\"Y\"},\"players\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]},"
		"\"score\":{\"A\":1,\"B\":0},\"throws\":1,\"over\":false,"
		"\"next\":{\"player\":\"a2\",\"slot\":\"a2\",\"team\":\"A\"},"
		"\"health\":{\"store\":{\"ok\":true,\"text\":\"ok\"}}}");
	free(s);
	assert_null(dd_mq_state_msg("[]"));
	assert_null(dd_mq_state_msg(""));
}

/* Sends every number the window has room for, message ids from mid. */
static int fill(struct dd_mq_window *w, int mid)
{
	while (dd_mq_window_room(w))
		dd_mq_window_sent(w, mid++);
	return mid;
}

static void test_mq_window_acks_in_order_and_bounds_what_is_in_flight(void **state)
{
	struct dd_mq_window w;
	int mid;

	(void)state;
	dd_mq_window_init(&w, 10);	/* the database kept 10 */
	assert_int_equal(w.next, 11);
	mid = fill(&w, 100);
	assert_int_equal(mid, 100 + DD_MQ_WINDOW);
	assert_int_equal(w.next, 11 + DD_MQ_WINDOW);
	assert_false(dd_mq_window_room(&w));
	/* 12 acknowledged before 11: nothing moves yet (11 may still be lost). */
	assert_false(dd_mq_window_ack(&w, 101));
	assert_int_equal(w.acked, 10);
	assert_true(dd_mq_window_ack(&w, 100));
	assert_int_equal(w.acked, 12);
	assert_true(dd_mq_window_room(&w));
	/* A duplicate, an unknown id (a state message) and 0 change nothing. */
	assert_false(dd_mq_window_ack(&w, 100));
	assert_false(dd_mq_window_ack(&w, 999));
	assert_false(dd_mq_window_ack(&w, 0));
	assert_int_equal(w.acked, 12);
	/* Two more go out in the room made; ids wrap in the ring. */
	mid = fill(&w, mid);
	assert_int_equal(w.next, 13 + DD_MQ_WINDOW);
	for (int m = 102; m < mid; m++)
		dd_mq_window_ack(&w, m);
	assert_int_equal(w.acked, 12 + DD_MQ_WINDOW);
	assert_int_equal(w.next, w.acked + 1);
}

static void test_mq_window_restart_sends_everything_unacknowledged_again(void **state)
{
	struct dd_mq_window w;

	(void)state;
	dd_mq_window_init(&w, 0);
	dd_mq_window_sent(&w, 1);	/* seq 1 */
	dd_mq_window_sent(&w, 2);	/* seq 2 */
	dd_mq_window_sent(&w, 3);	/* seq 3 */
	assert_false(dd_mq_window_ack(&w, 2));	/* 2 arrived, 1 did not */
	dd_mq_window_restart(&w);	/* the connection dropped */
	assert_int_equal(w.acked, 0);
	assert_int_equal(w.next, 1);
	/* An acknowledgement of the old connection's id is not taken for
	 * the new messages. */
	assert_false(dd_mq_window_ack(&w, 1));
	dd_mq_window_sent(&w, 1);	/* seq 1 again, libmosquitto reusing the id */
	assert_true(dd_mq_window_ack(&w, 1));
	assert_int_equal(w.acked, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mq_topic_names_the_table),
		cmocka_unit_test(test_mq_ruling_msg_carries_the_identity_and_line),
		cmocka_unit_test(test_mq_events_of_a_ruling),
		cmocka_unit_test(test_mq_state_msg_keeps_what_a_board_shows),
		cmocka_unit_test(test_mq_window_acks_in_order_and_bounds_what_is_in_flight),
		cmocka_unit_test(test_mq_window_restart_sends_everything_unacknowledged_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
