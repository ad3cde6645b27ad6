/* dd_health_set / dd_health_detail: what the strip and the console get. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "daemon/daemon.h"
#include "daemon/health.h"

/* Whether jansson takes s as a string, as the state's and the console
 * status's json_pack do. */
static bool json_takes(const char *s)
{
	json_t *j = json_string(s);

	json_decref(j);
	return j != NULL;
}

/* A refused line's player name (100 e-acutes) cut by the item's
 * size inside a character: the text, and the detail cut at its own size,
 * stay UTF-8, the cut character a '?'. Without it jansson refused the
 * item and /api/state went out without "health". */
static void test_health_cut_inside_a_character_stays_utf8(void **state)
{
	struct dd_health_item h;
	char name[256] = "", *p = name;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (int i = 0; i < 100; i++)
		p += sprintf(p, "\xc3\xa9");
	/* "not restored: " is 14 bytes: byte 118, the last kept, is the
	 * first of a character. */
	dd_health_set(&h, false, "not restored: %s", name);
	assert_int_equal(strlen(h.text), sizeof(h.text) - 1);
	assert_true(json_takes(h.text));
	assert_int_equal(h.text[sizeof(h.text) - 2], '?');
	assert_memory_equal(h.text, "not restored: \xc3\xa9", 16);

	dd_health_detail(&h, "%s%s%s%s", name, name, name, "\xc3");	/* cut at 511 */
	assert_int_equal(strlen(h.detail), sizeof(h.detail) - 1);
	assert_true(json_takes(h.detail));
}

/* A path in another encoding (Latin-1 "e-acute", an overlong slash, a
 * surrogate): each bad byte a '?', the rest as it was. */
static void test_health_bytes_not_utf8_become_question_marks(void **state)
{
	struct dd_health_item h;

	(void)state;
	memset(&h, 0, sizeof(h));
	dd_health_set(&h, true, "caf\xe9 ok");
	assert_string_equal(h.text, "caf? ok");
	dd_health_detail(&h, "a\xc0\xaf" "b\xed\xa0\x80" "c \xe2\x82\xac");
	assert_string_equal(h.detail, "a??b???c \xe2\x82\xac");
	assert_true(json_takes(h.detail));
}

static int calls;
static void count_call(void *user)
{
	(void)user;
	calls++;
}

/* The owner hears of a change of ok or text, not of the same words again
 * nor of a detail. */
static void test_health_changed_only_on_a_change(void **state)
{
	struct dd_health_item h;

	(void)state;
	memset(&h, 0, sizeof(h));
	h.changed = count_call;
	calls = 0;
	dd_health_set(&h, true, "camera 640x360 at %d fps", 30);
	dd_health_set(&h, true, "camera 640x360 at %d fps", 30);
	dd_health_detail(&h, "camera 640x360 at 30 fps (/base/soc/i2c0mux)");
	assert_int_equal(calls, 1);
	dd_health_set(&h, false, "camera 640x360 at %d fps", 30);
	assert_int_equal(calls, 2);
	assert_string_equal(h.detail, "camera 640x360 at 30 fps");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_health_cut_inside_a_character_stays_utf8),
		cmocka_unit_test(test_health_bytes_not_utf8_become_question_marks),
		cmocka_unit_test(test_health_changed_only_on_a_change),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
