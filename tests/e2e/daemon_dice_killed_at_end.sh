#!/bin/bash
# kill -9 between a dice game's last move and its end: the move is in the
# log (it was committed), the match's end is not. After a restart the game
# is ended then, as that move would have ended it, instead of coming back
# as a finished game still "under way" (which blocked every new match).
set -eu
. "$(dirname "$0")/lib/daemon.sh"
command -v python3 >/dev/null || { echo "python3 is not installed (writes the last move)"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
log=$top/tests/data/dice/horse-full.jsonl
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","game":"horse","players":["ann","bob","cid","dan"]}'
n=$(wc -l < "$log")
# Every move but the last, through the console.
sed -n "2,$((n - 1))p" "$log" | while IFS= read -r line; do
	command_ok "{\"cmd\":\"dice\",\"move\":$line}"
done
kill -9 "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null || true
DAEMON_PID=
# The last move as the daemon commits it before it ends the match: the
# line is stored; the kill came before the end.
python3 - "$WORK/dyeref.db" "$(tail -n 1 "$log")" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
seq = c.execute("SELECT max(seq) FROM entries WHERE match_id = 1").fetchone()[0]
c.execute("INSERT INTO entries (match_id, seq, type, throw_no, t_start_ns, t_ns, line) "
          "VALUES (1, ?, 'turn', NULL, 0, 0, ?)", (seq + 1, sys.argv[2]))
c.commit()
PY
start_daemon --config "$WORK/c.ini"
m=$(curl -s --max-time "$(slow 10)" "$BASE/api/matches")
echo "$m" | grep -q '{"match":1,"game":"horse","current":false,"ended":true' ||
	fail "the finished game was not ended at restart: $m"
grep -q 'match 1: its last move was stored, its end was not: ended now' "$WORK/daemon.log" ||
	fail "no log line for the late end"
login
command_ok '{"cmd":"start"}'
state | grep -q '"match":2,"game":"beerdie"' || fail "no new match: $(state)"
stop_daemon
echo ok
