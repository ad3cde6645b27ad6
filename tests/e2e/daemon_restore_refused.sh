#!/bin/bash
# A match the referee cannot read back after a restart (here a throw line
# naming a player the match does not have, as a log written by another
# version could hold) does not stop the daemon: exiting would only have
# systemd restart it into the same refusal, leaving the bar without a
# scoreboard. It listens, the health strip says which match and why, and
# the officials can start a new match; the old one stays in the log.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
command -v python3 >/dev/null || { echo "python3 is not installed (writes the bad line)"; exit 77; }
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start"}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}'
stop_daemon
python3 - "$WORK/dyeref.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
seq = c.execute("SELECT max(seq) FROM entries WHERE match_id = 1").fetchone()[0]
c.execute("INSERT INTO entries (match_id, seq, type, throw_no, t_start_ns, t_ns, line) "
          "VALUES (1, ?, 'throw', 2, 0, 0, ?)",
          (seq + 1, '{"type":"throw","events":[{"at":"catch","by":"zz"}]}'))
c.commit()
PY
start_daemon --config "$WORK/c.ini"
st=$(state)
echo "$st" | grep -q '"store":{"ok":false,"text":"not restored: match 1:3: events\[0\].by: unknown player' ||
	fail "health strip does not say why match 1 was not restored: $st"
echo "$st" | grep -q '"match":null' || fail "a match under way after a refused restore: $st"
grep -q 'restore: match 1:3: .*(running without that match)' "$WORK/daemon.log" || fail "no log line"
login
command_ok '{"cmd":"start"}'
state | grep -q '"match":2' || fail "no new match after a refused restore: $(state)"
stop_daemon
echo ok
