#!/bin/bash
# dyeref serve --sim=table: the simulator's virtual table drives the daemon
# at real speed. Its piezo edges go through the sensors pipeline and fusion:
# the first throws are ruled, stored and pushed like real ones.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
# [sim] speed = 4: the table plays four times faster, its rulings those of
# real speed (the daemon's one clock runs that fast).
write_config "$WORK/c.ini" "[fusion]" "review = count" "[sim]" "speed = 4"
"$DYEREF" serve --config "$WORK/c.ini" --sim=bogus 2> "$WORK/err" && fail "--sim=bogus accepted"
grep -q -- "--sim=bogus" "$WORK/err" || fail "--sim=bogus: $(cat "$WORK/err")"
start_daemon --config "$WORK/c.ini" --sim=table

state() { curl -s --max-time "$(slow 5)" "$BASE/api/state"; }
echo "$(state)" | grep -q '"mode":"sim"' || fail "not in sim mode: $(state)"
for _ in $(seq 1 "$(slow_n 300)"); do
	state | grep -q '"throws":[2-9]' && break
	sleep 0.1
done
s=$(state)
echo "$s" | grep -q '"throws":[2-9]' || fail "no second ruling within 30 s: $s"
echo "$s" | grep -q '"Ann"' || fail "the simulator's players are not on the scoreboard: $s"
t=$(curl -s --max-time "$(slow 10)" "$BASE/api/matches/1/throws/1")
echo "$t" | grep -q '"source":"piezo' || fail "throw 1 has no piezo observation: $t"
curl -s --max-time "$(slow 10)" "$BASE/api/matches/1/log" | grep -q '"type":"throw"' || fail "no throw in the log"
stop_daemon
echo "ok"
