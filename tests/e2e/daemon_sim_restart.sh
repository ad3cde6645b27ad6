#!/bin/bash
# The demo (--sim) after a restart, whatever the log holds: a dice game
# left under way is set aside (nothing written to it, not ended) and the
# simulator plays its own Beer Die match; the simulator's own match left
# by a kill -9 is ended and a fresh one starts; a demo that stops ends its
# own match, so a start without --sim finds the dice game under way again.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini" "[fusion]" "review = count"
matches() { curl -s --max-time "$(slow 10)" "$BASE/api/matches"; }
wait_throw() { # the simulator's first ruling lands some 5 s in
	for _ in $(seq 1 "$(slow_n 200)"); do
		state | grep -q '"throws":[1-9]' && return 0
		sleep 0.1
	done
	fail "no simulated ruling within 20 s: $(state)"
}

start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","game":"yatzy","players":["ann","bob"]}'
command_ok '{"cmd":"dice","move":{"type":"turn","player":"ann","rolls":[[1,1,2,5,6],[1,3,4]],"box":"ones"}}'
stop_daemon

start_daemon --config "$WORK/c.ini" --sim
wait_throw
state | grep -q '"Ann"' || fail "the simulator's match is not on the scoreboard: $(state)"
grep -q 'demo: match 1 (yatzy) set aside' "$WORK/daemon.log" || fail "no word of the dice game set aside"
m=$(matches)
echo "$m" | grep -q '{"match":1,"game":"yatzy","current":false,"ended":false' ||
	fail "the dice game was written to or ended: $m"
kill -9 "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null || true
DAEMON_PID=

start_daemon --config "$WORK/c.ini" --sim
wait_throw
m=$(matches)
echo "$m" | grep -q '{"match":2,"game":"beerdie","current":false,"ended":true' ||
	fail "the simulator's leftover match was not ended: $m"
echo "$m" | grep -q '{"match":3,"game":"beerdie","current":true,"ended":false' ||
	fail "no fresh simulated match: $m"
echo "$m" | grep -q '{"match":1,"game":"yatzy","current":false,"ended":false' ||
	fail "the dice game changed: $m"
stop_daemon

start_daemon --config "$WORK/c.ini"
m=$(matches)
echo "$m" | grep -q '{"match":3,"game":"beerdie","current":false,"ended":true' ||
	fail "the demo did not end its match when it stopped: $m"
login
command_ok '{"cmd":"dice","move":{"type":"turn","rolls":[[1,2,3,4,6]],"box":"chance"}}'
state | grep -q '"game":"yatzy"' || fail "the dice game is not under way again: $(state)"
stop_daemon
echo "ok"
