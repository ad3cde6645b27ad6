/*
 * A match log's identity (db/digest.c): SHA-256 as FIPS 180-4 gives it
 * (the standard's vectors, and a text that crosses many blocks), fed line
 * by line as export writes the log.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "db/internal.h"

static void hex_of(const char *s, size_t n, char hex[DB_DIGEST_HEX])
{
	struct db_digest d;

	db_digest_init(&d);
	db_digest_add(&d, s, n);
	db_digest_hex(&d, hex);
}

static void test_digest_is_sha256(void **state)
{
	char hex[DB_DIGEST_HEX], big[1000001];

	(void)state;
	hex_of("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	memset(big, 'a', 1000000);
	hex_of(big, 1000000, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_lines_are_hashed_as_export_writes_them(void **state)
{
	static const char text[] = "{\"type\":\"match\"}\n{\"type\":\"throw\"}\n";
	char whole[DB_DIGEST_HEX], lines[DB_DIGEST_HEX];
	struct db_digest d;

	(void)state;
	hex_of(text, strlen(text), whole);
	db_digest_init(&d);
	db_digest_line(&d, "{\"type\":\"match\"}", 16);
	db_digest_line(&d, "{\"type\":\"throw\"}", 16);
	db_digest_hex(&d, lines);
	assert_string_equal(lines, whole);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digest_is_sha256),
		cmocka_unit_test(test_lines_are_hashed_as_export_writes_them),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
