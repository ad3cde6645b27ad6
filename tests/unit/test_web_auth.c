/*
 * Console login lockouts (web/auth.c), on an injected clock: a browser
 * that has logged in holds a device cookie and its wrong PINs count
 * against it alone, never held back by others' guessing; an unknown
 * device's are counted per client address, so one guessing guest locks
 * out only itself, per IPv6 /64 with a larger budget, and all together,
 * in tables of fixed size that hostile clients cannot grow or flush.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "web/internal.h"

#define PIN "4321"

static void key_v4(const char *ip, unsigned char key[WEB_CLIENT_KEY])
{
	struct sockaddr_in sa = { .sin_family = AF_INET };

	assert_int_equal(inet_pton(AF_INET, ip, &sa.sin_addr), 1);
	web_auth_client_key((const struct sockaddr *)&sa, key);
}

static void key_v6(const char *ip, unsigned char key[WEB_CLIENT_KEY])
{
	struct sockaddr_in6 sa = { .sin6_family = AF_INET6 };

	assert_int_equal(inet_pton(AF_INET6, ip, &sa.sin6_addr), 1);
	web_auth_client_key((const struct sockaddr *)&sa, key);
}

/* A login from a browser holding the device cookie device (NULL: none);
 * a right one leaves the cookie to keep in out (may be NULL). */
static int login_device(struct web_auth *a, const unsigned char *key, const char *device,
			const char *pin, int64_t now, char *out)
{
	const struct web_session *s = NULL;
	char cookie[WEB_DEVICE_COOKIE_HEX + 1];
	int rc = web_auth_login(a, key, device, pin, now, &s, cookie);

	if (rc == 0) {
		assert_non_null(s);
		assert_int_equal(strlen(cookie), WEB_DEVICE_COOKIE_HEX);
		if (out)
			memcpy(out, cookie, sizeof(cookie));
	}
	return rc;
}

/* A login from an unknown device. */
static int login(struct web_auth *a, const unsigned char *key, const char *pin, int64_t now)
{
	return login_device(a, key, NULL, pin, now, NULL);
}

/* A guest's WEB_LOGIN_FAILS wrong PINs lock out the guest for a while,
 * and not the official. */
static void guest_locks_out_only_itself(const unsigned char *guest, const unsigned char *official)
{
	struct web_auth a = { 0 };

	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	for (int i = 0; i < WEB_LOGIN_FAILS; i++)
		assert_int_equal(login(&a, guest, "0000", 100), -EPERM);
	/* Locked out: even the right PIN is refused from there. */
	assert_int_equal(login(&a, guest, PIN, 101), -EAGAIN);
	assert_int_equal(login(&a, official, PIN, 101), 0);
	/* The lockout ends. */
	assert_int_equal(login(&a, guest, PIN, 100 + WEB_LOGIN_LOCK_S), 0);
	web_auth_free(&a);
}

static void test_web_lockout_of_one_guest_leaves_the_official_free(void **state)
{
	unsigned char guest[WEB_CLIENT_KEY], official[WEB_CLIENT_KEY];

	(void)state;
	key_v4("192.168.1.23", guest);
	key_v4("192.168.1.5", official);
	guest_locks_out_only_itself(guest, official);
}

static void test_web_right_pin_forgives_that_clients_wrong_ones(void **state)
{
	struct web_auth a = { 0 };
	unsigned char k[WEB_CLIENT_KEY];

	(void)state;
	key_v4("10.0.0.7", k);
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	for (int i = 0; i < WEB_LOGIN_FAILS - 1; i++)
		assert_int_equal(login(&a, k, "1111", 5), -EPERM);
	assert_int_equal(login(&a, k, PIN, 5), 0);
	for (int i = 0; i < WEB_LOGIN_FAILS - 1; i++)
		assert_int_equal(login(&a, k, "1111", 6), -EPERM);
	assert_int_equal(login(&a, k, PIN, 6), 0);
	web_auth_free(&a);
}

/* login() with the cap on everyone's wrong PINs lifted, so that the
 * table's own rule is what answers. */
static int login_uncapped(struct web_auth *a, const unsigned char *key, const char *pin, int64_t now)
{
	int rc = login(a, key, pin, now);

	a->n_wrong = a->next_wrong = 0;
	return rc;
}

/* More guessing addresses than the table holds (faster than the cap on
 * everyone's wrong PINs allows: the table is the backstop): the newcomer
 * is refused before its PIN is compared (a right guess must not leak),
 * the entries are not evicted while recent, and room returns once they
 * are stale. */
static void test_web_lockout_table_is_bounded_and_cannot_be_flushed(void **state)
{
	struct web_auth a = { 0 };
	unsigned char k[WEB_CLIENT_KEY], first[WEB_CLIENT_KEY], extra[WEB_CLIENT_KEY];
	char ip[32];

	(void)state;
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	key_v4("10.1.0.0", first);
	for (int i = 0; i < WEB_LOGIN_FAILS - 1; i++)
		assert_int_equal(login_uncapped(&a, first, "0000", 50), -EPERM);
	for (int i = 1; i < WEB_LOGIN_CLIENTS; i++) {
		snprintf(ip, sizeof(ip), "10.1.%d.%d", i / 256, i % 256);
		key_v4(ip, k);
		assert_int_equal(login_uncapped(&a, k, "0000", 50), -EPERM);
	}
	key_v4("10.2.0.1", extra);
	assert_int_equal(login_uncapped(&a, extra, "0000", 51), -EAGAIN);
	assert_int_equal(login_uncapped(&a, extra, PIN, 51), -EAGAIN);
	/* The first client's count survived the flood: one more locks it. */
	assert_int_equal(login_uncapped(&a, first, "0000", 52), -EPERM);
	assert_int_equal(login(&a, first, PIN, 53), -EAGAIN);
	/* Stale entries make room again. */
	assert_int_equal(login(&a, extra, PIN, 50 + WEB_LOGIN_LOCK_S), 0);
	web_auth_free(&a);
}

/* A bar's Wi-Fi is one /64: a player guessing from one address there
 * locks out that address, not the official beside it. */
static void test_web_ipv6_lockout_is_per_address_not_per_64(void **state)
{
	unsigned char player[WEB_CLIENT_KEY], official[WEB_CLIENT_KEY];

	(void)state;
	key_v6("fd00:1::b", player);
	key_v6("fd00:1::a", official);
	guest_locks_out_only_itself(player, official);
}

/* Rotating through the addresses of one /64 (a host may use them all)
 * buys WEB_LOGIN_NET_FAILS tries, not five per address (here slower than
 * the cap on everyone's wrong PINs, which would stop it too). */
static void test_web_ipv6_64_has_a_larger_budget_of_its_own(void **state)
{
	struct web_auth a = { 0 };
	unsigned char k[WEB_CLIENT_KEY], other[WEB_CLIENT_KEY];
	char ip[48];
	int64_t t;

	(void)state;
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	for (int i = 0; i < WEB_LOGIN_NET_FAILS; i++) {
		/* One try short of an address's lockout from each. */
		snprintf(ip, sizeof(ip), "2001:db8:5:6::%x", i / (WEB_LOGIN_FAILS - 1) + 1);
		key_v6(ip, k);
		assert_int_equal(login(&a, k, "0000", 200 + 4 * i), -EPERM);
	}
	t = 200 + 4 * (WEB_LOGIN_NET_FAILS - 1);
	key_v6("2001:db8:5:6::ffff", k);
	assert_int_equal(login(&a, k, PIN, t + 1), -EAGAIN);
	/* Another /64 is free, and the /64's lockout ends. */
	key_v6("2001:db8:5:7::1", other);
	assert_int_equal(login(&a, other, PIN, t + 1), 0);
	assert_int_equal(login(&a, k, PIN, t + WEB_LOGIN_LOCK_S), 0);
	web_auth_free(&a);
}

static void test_web_client_keys_are_whole_addresses_and_nets_ipv6_64s(void **state)
{
	unsigned char a[WEB_CLIENT_KEY], b[WEB_CLIENT_KEY], na[WEB_CLIENT_KEY], nb[WEB_CLIENT_KEY];

	(void)state;
	key_v6("2001:db8:1:2::1", a);
	key_v6("2001:db8:1:2:ffff:1:2:3", b);
	assert_memory_not_equal(a, b, WEB_CLIENT_KEY);
	assert_true(web_auth_client_net(a, na));
	assert_true(web_auth_client_net(b, nb));
	assert_memory_equal(na, nb, WEB_CLIENT_KEY);
	key_v6("2001:db8:1:3::1", b);
	assert_true(web_auth_client_net(b, nb));
	assert_memory_not_equal(na, nb, WEB_CLIENT_KEY);
	/* In place. */
	assert_true(web_auth_client_net(a, a));
	assert_memory_equal(a, na, WEB_CLIENT_KEY);
	key_v4("127.0.0.2", a);
	key_v6("::ffff:127.0.0.2", b);
	assert_memory_equal(a, b, WEB_CLIENT_KEY);
	assert_false(web_auth_client_net(a, na));
	assert_memory_equal(a, na, WEB_CLIENT_KEY);
	key_v6("::ffff:127.0.0.3", b);
	assert_memory_not_equal(a, b, WEB_CLIENT_KEY);
	web_auth_client_key(NULL, a);
	assert_false(web_auth_client_net(a, na));
}

/* Many addresses, none locked out on its own: after WEB_LOGIN_ALL_FAILS
 * wrong PINs in WEB_LOGIN_ALL_S every login waits, unread (the official's
 * right PIN from an address of its own too), until the oldest is that old.
 * A 4-digit PIN then takes hours, not the 16 minutes of 64 addresses. */
static void test_web_wrong_pins_from_all_addresses_are_capped(void **state)
{
	struct web_auth a = { 0 };
	unsigned char k[WEB_CLIENT_KEY], official[WEB_CLIENT_KEY];
	char ip[32];

	(void)state;
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	for (int i = 0; i < WEB_LOGIN_ALL_FAILS; i++) {
		snprintf(ip, sizeof(ip), "10.3.0.%d", i / (WEB_LOGIN_FAILS - 1) + 1);
		key_v4(ip, k);
		assert_int_equal(login(&a, k, "0000", 100 + i), -EPERM);
	}
	key_v4("10.3.1.1", official);
	assert_int_equal(login(&a, official, PIN, 100 + WEB_LOGIN_ALL_FAILS), -EAGAIN);
	/* Refused unread, so not counted: the window still ends with the first. */
	key_v4("10.3.1.2", k);
	assert_int_equal(login(&a, k, "0000", 100 + WEB_LOGIN_ALL_S - 1), -EAGAIN);
	assert_int_equal(login(&a, official, PIN, 100 + WEB_LOGIN_ALL_S), 0);
	/* Then one more wrong PIN fills the window again. */
	assert_int_equal(login(&a, k, "0000", 100 + WEB_LOGIN_ALL_S), -EPERM);
	assert_int_equal(login(&a, official, PIN, 100 + WEB_LOGIN_ALL_S), -EAGAIN);
	/* A new PIN (SIGHUP) starts the count afresh. */
	assert_int_equal(web_auth_set_pin(&a, "98765"), 0);
	assert_int_equal(login(&a, official, "98765", 100 + WEB_LOGIN_ALL_S), 0);
	web_auth_free(&a);
}

/* The answer to the right PIN from one address at once after
 * WEB_LOGIN_FAILS wrong ones from there, gap_s seconds apart. */
static int right_pin_after_wrong_ones_apart(int64_t gap_s)
{
	struct web_auth a = { 0 };
	unsigned char k[WEB_CLIENT_KEY];
	int64_t t = 1000;
	int rc;

	key_v4("10.0.0.11", k);
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	for (int i = 0; i < WEB_LOGIN_FAILS; i++, t += gap_s)
		assert_int_equal(login(&a, k, "0000", t), -EPERM);
	rc = login(&a, k, PIN, t - gap_s);
	web_auth_free(&a);
	return rc;
}

/* The official's mistake now and then over an evening: a count with no
 * wrong PIN for WEB_LOGIN_FORGET_S forgets the ones before, so
 * WEB_LOGIN_FAILS of them spread out do not lock the address out. */
static void test_web_wrong_pins_spread_out_do_not_add_up_to_a_lockout(void **state)
{
	(void)state;
	assert_int_equal(right_pin_after_wrong_ones_apart(WEB_LOGIN_FORGET_S), 0);
}

/* A second less apart, the wrong PINs still add up: a guesser pacing its
 * tries gains nothing over sitting the lockouts out. */
static void test_web_wrong_pins_within_the_forget_time_still_lock(void **state)
{
	(void)state;
	assert_int_equal(right_pin_after_wrong_ones_apart(WEB_LOGIN_FORGET_S - 1), -EAGAIN);
}

/* The /64's count forgets too: WEB_LOGIN_NET_FAILS wrong PINs from the
 * bar's /64 over an evening, each from an address of its own, leave the
 * official on that /64 free. */
static void test_web_ipv6_64_forgets_wrong_pins_spread_out(void **state)
{
	struct web_auth a = { 0 };
	unsigned char k[WEB_CLIENT_KEY];
	char ip[48];
	int64_t t = 1000;

	(void)state;
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	for (int i = 0; i < WEB_LOGIN_NET_FAILS; i++, t += WEB_LOGIN_FORGET_S) {
		snprintf(ip, sizeof(ip), "2001:db8:9:9::%x", i + 1);
		key_v6(ip, k);
		assert_int_equal(login(&a, k, "0000", t), -EPERM);
	}
	key_v6("2001:db8:9:9::a:a", k);
	assert_int_equal(login(&a, k, PIN, t - WEB_LOGIN_FORGET_S), 0);
	web_auth_free(&a);
}

/* SIGHUP's new PIN clears every count and lockout. */
static void test_web_new_pin_clears_lockouts(void **state)
{
	struct web_auth a = { 0 };
	unsigned char k[WEB_CLIENT_KEY];

	(void)state;
	key_v4("10.0.0.9", k);
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	for (int i = 0; i < WEB_LOGIN_FAILS; i++)
		assert_int_equal(login(&a, k, "0000", 7), -EPERM);
	assert_int_equal(login(&a, k, PIN, 7), -EAGAIN);
	assert_int_equal(web_auth_set_pin(&a, "98765"), 0);
	assert_int_equal(login(&a, k, "98765", 8), 0);
	web_auth_free(&a);
}

/* The device cookie of a browser that logged in from 10.5.0.1 at time t. */
static void official_device(struct web_auth *a, int64_t t, char cookie[WEB_DEVICE_COOKIE_HEX + 1])
{
	unsigned char k[WEB_CLIENT_KEY];

	key_v4("10.5.0.1", k);
	assert_int_equal(login_device(a, k, NULL, PIN, t, cookie), 0);
}

/* OWASP's device cookies: guessing from many addresses fills everyone's
 * cap and the table, and locks out the official's own address; the
 * official's browser, holding its device cookie, logs in from there and
 * from a new address alike, and keeps its device. */
static void test_web_known_device_is_never_held_back_by_others_guessing(void **state)
{
	struct web_auth a = { 0 };
	unsigned char k[WEB_CLIENT_KEY], official[WEB_CLIENT_KEY];
	char dev[WEB_DEVICE_COOKIE_HEX + 1], again[WEB_DEVICE_COOKIE_HEX + 1];
	char ip[32];

	(void)state;
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	official_device(&a, 10, dev);
	for (int i = 0; i < 200; i++) {
		snprintf(ip, sizeof(ip), "10.6.%d.%d", i / 250, i % 250 + 1);
		key_v4(ip, k);
		login(&a, k, "0000", 20 + i / 50);
	}
	key_v4("10.5.0.1", official);
	for (int i = 0; i < WEB_LOGIN_FAILS; i++)
		login(&a, official, "0000", 25);
	/* Unknown devices wait: a new address, and the official's locked one. */
	key_v4("10.7.0.1", k);
	assert_int_equal(login(&a, k, PIN, 25), -EAGAIN);
	assert_int_equal(login(&a, official, PIN, 25), -EAGAIN);
	/* The known device does not, from either. */
	assert_int_equal(login_device(&a, official, dev, PIN, 25, again), 0);
	assert_string_equal(again, dev);
	assert_int_equal(login_device(&a, k, dev, PIN, 25, NULL), 0);
	web_auth_free(&a);
}

/* A known device's wrong PINs count against that device alone, with its
 * own budget: not against its address, not against another device. */
static void test_web_known_device_counts_only_its_own_wrong_pins(void **state)
{
	struct web_auth a = { 0 };
	unsigned char k[WEB_CLIENT_KEY];
	char dev[WEB_DEVICE_COOKIE_HEX + 1], other[WEB_DEVICE_COOKIE_HEX + 1];

	(void)state;
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	official_device(&a, 10, dev);
	key_v4("10.8.0.2", k);
	assert_int_equal(login_device(&a, k, NULL, PIN, 10, other), 0);
	for (int i = 0; i < WEB_LOGIN_DEVICE_FAILS; i++)
		assert_int_equal(login_device(&a, k, dev, "0000", 20, NULL), -EPERM);
	assert_int_equal(login_device(&a, k, dev, PIN, 21, NULL), -EAGAIN);
	assert_int_equal(login_device(&a, k, other, PIN, 21, NULL), 0);
	assert_int_equal(login(&a, k, PIN, 21), 0);
	/* Its lockout ends as an address's does. */
	assert_int_equal(login_device(&a, k, dev, PIN, 20 + WEB_LOGIN_LOCK_S, NULL), 0);
	web_auth_free(&a);
}

/* A cookie with a wrong MAC, or one signed before the PIN changed, is an
 * unknown device; a reload with the same PIN keeps the devices. */
static void test_web_forged_or_stale_device_cookie_is_unknown(void **state)
{
	struct web_auth a = { 0 };
	unsigned char k[WEB_CLIENT_KEY], id[WEB_DEVICE_ID];
	char dev[WEB_DEVICE_COOKIE_HEX + 1], forged[WEB_DEVICE_COOKIE_HEX + 1];

	(void)state;
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	official_device(&a, 10, dev);
	assert_true(web_auth_device_check(&a, dev, id));
	memcpy(forged, dev, sizeof(forged));
	forged[WEB_DEVICE_COOKIE_HEX - 1] = forged[WEB_DEVICE_COOKIE_HEX - 1] == '0' ? '1' : '0';
	assert_false(web_auth_device_check(&a, forged, id));
	forged[WEB_DEVICE_COOKIE_HEX - 1] = '\0';
	assert_false(web_auth_device_check(&a, forged, id));
	assert_false(web_auth_device_check(&a, "", id));
	forged[0] = 'G';
	assert_false(web_auth_device_check(&a, forged, id));
	/* Every unknown device waiting: the forged cookie waits too. */
	key_v4("10.9.0.1", k);
	for (int i = 0; i < WEB_LOGIN_ALL_FAILS; i++) {
		unsigned char g[WEB_CLIENT_KEY];
		char ip[32];

		snprintf(ip, sizeof(ip), "10.9.1.%d", i + 1);
		key_v4(ip, g);
		assert_int_equal(login(&a, g, "0000", 30), -EPERM);
	}
	memcpy(forged, dev, sizeof(forged));
	forged[5] = forged[5] == 'a' ? 'b' : 'a';
	assert_int_equal(login_device(&a, k, forged, PIN, 31, NULL), -EAGAIN);
	assert_int_equal(login_device(&a, k, dev, PIN, 31, NULL), 0);
	/* SIGHUP with the same PIN: still known (the counts start afresh). */
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	assert_true(web_auth_device_check(&a, dev, id));
	/* A new PIN: no device is known. */
	assert_int_equal(web_auth_set_pin(&a, "98765"), 0);
	assert_false(web_auth_device_check(&a, dev, id));
	web_auth_free(&a);
}

/* The lockout at which a count's wrong PIN n lands, in seconds from
 * then: each lockout of the same address twice the last, up to 16 min;
 * a long quiet spell starts over. */
static void test_web_lockouts_double_and_are_forgotten_after_a_quiet_hour(void **state)
{
	struct web_auth a = { 0 };
	unsigned char k[WEB_CLIENT_KEY];
	int64_t t = 1000, want = WEB_LOGIN_LOCK_S;

	(void)state;
	key_v4("10.10.0.1", k);
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	for (int round = 0; round < WEB_LOGIN_LOCK_DOUBLINGS + 2; round++) {
		for (int i = 0; i < WEB_LOGIN_FAILS; i++)
			assert_int_equal(login(&a, k, "0000", t), -EPERM);
		assert_int_equal(login(&a, k, "0000", t + want - 1), -EAGAIN);
		t += want;
		if (round < WEB_LOGIN_LOCK_DOUBLINGS)
			want *= 2;
	}
	assert_int_equal(want, (int64_t)WEB_LOGIN_LOCK_S << WEB_LOGIN_LOCK_DOUBLINGS);
	assert_int_equal(want, 960);
	/* An hour without a wrong PIN: back to the first lockout's 30 s. */
	t += WEB_LOGIN_LEVEL_FORGET_S;
	for (int i = 0; i < WEB_LOGIN_FAILS; i++)
		assert_int_equal(login(&a, k, "0000", t), -EPERM);
	assert_int_equal(login(&a, k, PIN, t + WEB_LOGIN_LOCK_S - 1), -EAGAIN);
	assert_int_equal(login(&a, k, PIN, t + WEB_LOGIN_LOCK_S), 0);
	web_auth_free(&a);
}

/* More known devices with wrong PINs than the table holds: the oldest
 * count goes, memory stays the table's, each device still counts. */
static void test_web_device_table_is_bounded_and_evicts_the_oldest(void **state)
{
	struct web_auth a = { 0 };
	unsigned char k[WEB_CLIENT_KEY];
	char dev[WEB_LOGIN_DEVICES + 1][WEB_DEVICE_COOKIE_HEX + 1];

	(void)state;
	key_v4("10.11.0.1", k);
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	for (int i = 0; i <= WEB_LOGIN_DEVICES; i++)
		assert_int_equal(login_device(&a, k, NULL, PIN, 1, dev[i]), 0);
	for (int i = 0; i < WEB_LOGIN_FAILS - 1; i++)
		assert_int_equal(login_device(&a, k, dev[0], "0000", 2, NULL), -EPERM);
	for (int i = 1; i <= WEB_LOGIN_DEVICES; i++)
		assert_int_equal(login_device(&a, k, dev[i], "0000", 3 + i, NULL), -EPERM);
	/* dev[0]'s count was the oldest: evicted, so one more does not lock. */
	assert_int_equal(login_device(&a, k, dev[0], "0000", 40, NULL), -EPERM);
	assert_int_equal(login_device(&a, k, dev[0], PIN, 40, NULL), 0);
	web_auth_free(&a);
}

/* RFC 4231 test cases 2 and 6 (a key longer than a block). */
static void test_web_hmac_sha256_matches_rfc_4231(void **state)
{
	static const unsigned char want2[32] = {
		0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e, 0x6a, 0x04, 0x24, 0x26, 0x08, 0x95, 0x75, 0xc7,
		0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27, 0x39, 0x83, 0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43,
	};
	static const unsigned char want6[32] = {
		0x60, 0xe4, 0x31, 0x59, 0x1e, 0xe0, 0xb6, 0x7f, 0x0d, 0x8a, 0x26, 0xaa, 0xcb, 0xf5, 0xb7, 0x7f,
		0x8e, 0x0b, 0xc6, 0x21, 0x37, 0x28, 0xc5, 0x14, 0x05, 0x46, 0x04, 0x0f, 0x0e, 0xe3, 0x7f, 0x54,
	};
	static const char msg6[] = "Test Using Larger Than Block-Size Key - Hash Key First";
	unsigned char key6[131], out[32];

	(void)state;
	web_hmac_sha256((const unsigned char *)"Jefe", 4,
			(const unsigned char *)"what do ya want for nothing?", 28, out);
	assert_memory_equal(out, want2, 32);
	memset(key6, 0xaa, sizeof(key6));
	web_hmac_sha256(key6, sizeof(key6), (const unsigned char *)msg6, sizeof(msg6) - 1, out);
	assert_memory_equal(out, want6, 32);
}

/* A restart with the kept secret (web_config.device_key): the devices of
 * before are known under the same PIN, and strangers under another (a PIN
 * changed while the daemon was down). */
static void test_web_kept_secret_keeps_devices_for_the_same_pin_only(void **state)
{
	struct web_auth a = { 0 }, b = { 0 }, c = { 0 };
	unsigned char id[WEB_DEVICE_ID];
	char dev[WEB_DEVICE_COOKIE_HEX + 1];

	(void)state;
	assert_int_equal(web_auth_set_pin(&a, PIN), 0);
	official_device(&a, 10, dev);
	/* A new start draws a secret of its own: strangers, as before. */
	assert_int_equal(web_auth_set_pin(&b, PIN), 0);
	assert_false(web_auth_device_check(&b, dev, id));
	web_auth_set_secret(&b, a.device_secret);
	assert_true(web_auth_device_check(&b, dev, id));
	assert_int_equal(web_auth_set_pin(&c, "98765"), 0);
	web_auth_set_secret(&c, a.device_secret);
	assert_false(web_auth_device_check(&c, dev, id));
	web_auth_free(&a);
	web_auth_free(&b);
	web_auth_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_web_lockout_of_one_guest_leaves_the_official_free),
		cmocka_unit_test(test_web_right_pin_forgives_that_clients_wrong_ones),
		cmocka_unit_test(test_web_lockout_table_is_bounded_and_cannot_be_flushed),
		cmocka_unit_test(test_web_ipv6_lockout_is_per_address_not_per_64),
		cmocka_unit_test(test_web_ipv6_64_has_a_larger_budget_of_its_own),
		cmocka_unit_test(test_web_client_keys_are_whole_addresses_and_nets_ipv6_64s),
		cmocka_unit_test(test_web_wrong_pins_from_all_addresses_are_capped),
		cmocka_unit_test(test_web_new_pin_clears_lockouts),
		cmocka_unit_test(test_web_wrong_pins_spread_out_do_not_add_up_to_a_lockout),
		cmocka_unit_test(test_web_wrong_pins_within_the_forget_time_still_lock),
		cmocka_unit_test(test_web_ipv6_64_forgets_wrong_pins_spread_out),
		cmocka_unit_test(test_web_known_device_is_never_held_back_by_others_guessing),
		cmocka_unit_test(test_web_known_device_counts_only_its_own_wrong_pins),
		cmocka_unit_test(test_web_forged_or_stale_device_cookie_is_unknown),
		cmocka_unit_test(test_web_lockouts_double_and_are_forgotten_after_a_quiet_hour),
		cmocka_unit_test(test_web_device_table_is_bounded_and_evicts_the_oldest),
		cmocka_unit_test(test_web_hmac_sha256_matches_rfc_4231),
		cmocka_unit_test(test_web_kept_secret_keeps_devices_for_the_same_pin_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
