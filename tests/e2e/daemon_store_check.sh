#!/bin/bash
# The daemon does not read its whole log before serving (that grew
# start-up with the log: bench/daemon_startup): it answers at once and
# checks the log (quick_check) in the background. A log with a corrupt
# page nothing at start-up reads (a snapshots page) is served, and the
# health strip's "store" turns red with the check's finding, in one line
# naming the file for the console and the daemon's log, and stays red
# after a write that lands. A sound log after a SIGKILL is checked and
# stays green.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
command -v python3 >/dev/null || { echo "skipped: python3 is not installed (corrupts the page)"; exit 77; }
"$DYEREF" import --db "$WORK/dyeref.db" "$(dirname "$0")/../data/sample-match.jsonl" > /dev/null ||
	fail "import"
python3 - "$WORK/dyeref.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
root = c.execute("SELECT rootpage FROM sqlite_master WHERE name = 'snapshots'").fetchone()[0]
size = c.execute("PRAGMA page_size").fetchone()[0]
c.close()
with open(sys.argv[1], "r+b") as f:
	f.seek((root - 1) * size)
	f.write(b"\xee" * size)
PY
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
[ "$(status_of "$BASE/api/state")" = 200 ] || fail "no state from a daemon on a corrupt log"
red() { state | grep -q '"store":{"ok":false,"text":"corrupt database (found by the check at start-up)"}'; }
poll_until 10 red || fail "store not red for the corrupt log: $(state)"
state | grep -qF "$WORK" && fail "the public state names the file: $(state)"
login
console_status | grep -qF "\"detail\":\"$WORK/dyeref.db: corrupt database (quick_check: " ||
	fail "the console does not have the check's finding: $(console_status)"
[ "$(grep -c "store: $WORK/dyeref.db: corrupt database (quick_check: " "$WORK/daemon.log")" = 1 ] ||
	fail "the daemon's log does not say it in one line: $(cat "$WORK/daemon.log")"
command_ok '{"cmd":"start","teams":{"A":["Ann","Bo"],"B":["Cy","Di"]}}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B","x":1.9,"y":0.4},{"at":"floor"}]}'
red || fail "a write that landed turned a corrupt log green: $(state)"
stop_daemon

# A sound log, the daemon killed mid-match: checked at the next start, green.
rm -f "$WORK/dyeref.db" "$WORK/dyeref.db-wal" "$WORK/dyeref.db-shm"
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","teams":{"A":["Ann","Bo"],"B":["Cy","Di"]}}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B","x":1.9,"y":0.4},{"at":"floor"}]}'
kill -9 "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null || true
DAEMON_PID=
[ -s "$WORK/dyeref.db-wal" ] || fail "no -wal left by the killed daemon"
start_daemon --config "$WORK/c.ini"
checked() { grep -q 'store: checked whole after an unclean shutdown: ok' "$WORK/daemon.log"; }
poll_until 10 checked || fail "the log was not checked after the kill: $(cat "$WORK/daemon.log")"
state | grep -q '"store":{"ok":true,"text":"ok"}' || fail "a sound log is not green: $(state)"
[ "$(score_of)" = '"score":{"A":1,"B":0}' ] || fail "the match under way was not restored: $(score_of)"
stop_daemon
echo ok
