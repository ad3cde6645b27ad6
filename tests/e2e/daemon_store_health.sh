#!/bin/bash
# The event log cannot be written (another program holds its write lock,
# as an import into the same file would): the console's throw is refused
# within the daemon's 1 s wait (its loop must not stall towards the
# watchdog's 10 s) with the database's own words, nothing is scored, and
# the health strip's "store" turns red until a write reaches the file
# again (a request that writes nothing leaves it red): in
# SQLite's words for everyone, the whole message with the database's path
# for the console.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
command -v python3 >/dev/null || { echo "python3 is not installed (holds the lock)"; exit 77; }
# hold_lock SECONDS: another program holds the event log's write lock for
# about SECONDS (times the slowdown) once this returns; $locker is its process.
hold_lock() {
	rm -f "$WORK/locked"
	python3 - "$WORK/dyeref.db" "$WORK/locked" "$(slow "$1")" <<'PY' &
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(float(sys.argv[3]))
c.execute("ROLLBACK")
PY
	locker=$!
	for _ in $(seq 1 "$(slow_n 50)"); do [ -e "$WORK/locked" ] && break; sleep 0.1; done
	[ -e "$WORK/locked" ] || fail "the lock was not taken"
}

# store_red WHY: the public strip shows the locked write (the state left in
# $st), else fails with WHY.
store_red() {
	st=$(state)
	echo "$st" | grep -q '"store":{"ok":false,"text":"write failed: database is locked"}' ||
		fail "$1: $st"
}

write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","teams":{"A":["Ann","Bo"],"B":["Cy","Di"]}}'
throw='{"cmd":"throw","events":[{"at":"table","half":"B","x":1.9,"y":0.4},{"at":"floor"}]}'
hold_lock 4
s=$(command_status "$throw")
[ "$s" = 409 ] || fail "a throw with the log locked -> $s $(cat "$WORK/last")"
grep -q 'database is locked' "$WORK/last" || fail "no word of the lock: $(cat "$WORK/last")"
store_red "health strip does not show the failed write"
echo "$st" | grep -qF "$WORK" && fail "the public state names the database's file: $st"
console_status | grep -qF "\"store\":{\"ok\":false,\"text\":\"write failed: database is locked\",\"detail\":\"write failed: $WORK/dyeref.db: " ||
	fail "the console does not have the whole message: $(console_status)"
[ "$(score_of)" = '"score":{"A":0,"B":0}' ] || fail "an unstored throw scored: $(score_of)"
wait "$locker"
command_ok "$throw"
[ "$(score_of)" = '"score":{"A":1,"B":0}' ] || fail "the throw after the lock: $(score_of)"
state | grep -q '"store":{"ok":true,"text":"ok"}' || fail "store still red after a good write: $(state)"

# The official's confirm is a line of the match log, as a throw is: with
# the lock held it is refused in the database's words, the strip red.
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B","source":"piezo","confidence":0.5},{"at":"floor"}]}'
hold_lock 3
s=$(command_status '{"cmd":"confirm","throw":2}')
[ "$s" = 409 ] && grep -q 'database is locked' "$WORK/last" || fail "a confirm with the log locked -> $s $(cat "$WORK/last")"
store_red "a confirm that was not stored left the strip"
console_status | grep -qF "\"detail\":\"write failed: $WORK/dyeref.db: " ||
	fail "the console does not say which file: $(console_status)"
# A request that writes nothing (a confirm of a throw nobody doubted)
# neither stores nor clears: the strip stays red, with the lock held or
# released, until a write reaches the file.
[ "$(command_status '{"cmd":"confirm","throw":1}')" = 409 ] || fail "confirm of a sure throw: $(cat "$WORK/last")"
store_red "a request that wrote nothing turned the strip green"
wait "$locker"
[ "$(command_status '{"cmd":"confirm","throw":1}')" = 409 ] || fail "confirm of a sure throw: $(cat "$WORK/last")"
store_red "a request that wrote nothing turned the strip green after the lock"
command_ok '{"cmd":"confirm","throw":2}'
state | grep -q '"store":{"ok":true,"text":"ok"}' || fail "store still red after the stored confirm: $(state)"
command_ok "$throw"
state | grep -q '"store":{"ok":true,"text":"ok"}' || fail "store still red after a good write: $(state)"
stop_daemon
echo ok
