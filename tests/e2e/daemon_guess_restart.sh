#!/bin/bash
# The device key outlives the daemon (<db path>.key): the official logs in,
# the daemon is killed (SIGKILL, a crash) and started again, 25 wrong PINs
# come from 25 addresses (127.0.79.x), and the official's browser, holding
# the device cookie of before the crash, logs in at once while a stranger
# waits with the guessers (429). A new PIN (SIGHUP) writes a new key. A key
# file of the wrong size, or a directory in its place: one warning line, a
# fresh key, the daemon serves.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini"
KEY=$WORK/dyeref.db.key
JAR=$WORK/official.jar

official_login() {
	curl -s -o "$WORK/official.out" -w '%{http_code}' --max-time "$(slow 10)" \
		-b "$JAR" -c "$JAR" -d "pin=${1:-4321}" "$BASE/console/login"
}
key_ok() { [ -f "$KEY" ] && [ "$(stat -c '%a %s' "$KEY")" = "600 32" ]; }
warnings() { grep -c 'device key' "$WORK/daemon.log" || true; }

start_daemon --config "$WORK/c.ini"
key_ok || fail "no 32-byte 0600 key file after the first start: $(ls -l "$WORK")"
[ "$(warnings)" = 0 ] || fail "a first start warned: $(grep 'device key' "$WORK/daemon.log")"
[ "$(official_login)" = 200 ] || fail "the official's first login: $(cat "$WORK/official.out")"
cp "$KEY" "$WORK/key.before"

kill -KILL "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null || true
DAEMON_PID=
start_daemon --config "$WORK/c.ini"
cmp -s "$KEY" "$WORK/key.before" || fail "the restart drew a new key"

# Past 20 wrong PINs a minute every unknown device waits.
for i in $(seq 1 25); do
	last=$(status_of --interface "127.0.79.$i" -d pin=0000 "$BASE/console/login")
done
[ "$last" = 429 ] || fail "the 25th guess -> $last, want 429 (the guessing is not held back)"
stranger=$(status_of --interface 127.0.78.1 -d pin=4321 "$BASE/console/login")
[ "$stranger" = 429 ] || fail "a browser without a device cookie -> $stranger, want 429"
s=$(official_login)
[ "$s" = 200 ] || fail "the official's device after the restart -> $s $(cat "$WORK/official.out"), want 200"
echo "after a SIGKILL and restart, during guessing: the official's device $s, a stranger $stranger"

# A new PIN: a new key, written.
write_config "$WORK/c.ini"
sed -i 's/^pin = 4321$/pin = 987654/' "$WORK/c.ini"
kill -HUP "$DAEMON_PID"
poll_until 5 grep -q 'reloaded' "$WORK/daemon.log" || fail "no reload"
! cmp -s "$KEY" "$WORK/key.before" || fail "a new PIN kept the old key"
key_ok || fail "the new PIN's key file: $(ls -l "$KEY")"
stop_daemon

# A key of the wrong size: one warning, a fresh key in its place.
printf 'short' > "$KEY"
chmod 600 "$KEY"
start_daemon --config "$WORK/c.ini"
[ "$(warnings)" = 1 ] || fail "a 5-byte key file: want one warning, got: $(grep 'device key' "$WORK/daemon.log")"
grep 'device key' "$WORK/daemon.log" | grep -q '5 bytes, want 32' ||
	fail "the warning does not say why: $(grep 'device key' "$WORK/daemon.log")"
key_ok || fail "the short key was not replaced: $(ls -l "$KEY")"
[ "$(official_login 987654)" = 200 ] || fail "login after a short key: $(cat "$WORK/official.out")"
stop_daemon

# One readable by others is no secret: replaced.
chmod 644 "$KEY"
start_daemon --config "$WORK/c.ini"
grep 'device key' "$WORK/daemon.log" | grep -q 'open to group or others' ||
	fail "a 0644 key file: $(cat "$WORK/daemon.log")"
key_ok || fail "the 0644 key was not replaced: $(ls -l "$KEY")"
stop_daemon

# Unreadable as a key (a directory): a warning for the read, one for the
# write, and the daemon serves on a key in memory.
rm -f "$KEY"
mkdir "$KEY"
start_daemon --config "$WORK/c.ini"
[ "$(warnings)" = 2 ] || fail "a directory as the key: want two warnings, got: $(grep 'device key' "$WORK/daemon.log")"
[ "$(status_of "$BASE/api/state")" = 200 ] || fail "no state with a directory as the key"
[ "$(official_login 987654)" = 200 ] || fail "login with a directory as the key: $(cat "$WORK/official.out")"
kill -0 "$DAEMON_PID" || fail "daemon died"
stop_daemon
grep 'device key' "$WORK/daemon.log"
echo "daemon_guess_restart: ok"
