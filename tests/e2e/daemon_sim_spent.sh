#!/bin/bash
# dyeref serve --sim=table starts the next match [sim] pause_s (here 1 s) after the simulator's
# last throw, not only when the referee's score says the match is over:
# the two may end at other throws, and the demo must not wait for ever on
# a score that will not come. [sim] max_throws stops each simulated
# match after so many throws, far below the target, so the next match can
# only come from the simulator being spent; a SIGHUP changes it for the
# next match.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
matches() { curl -s --max-time "$(slow 10)" "$BASE/api/matches"; }
# until_current N: polls up to 120 s for match N under way (the list in $m).
until_current() {
	for _ in $(seq 1 "$(slow_n 1200)"); do
		m=$(matches)
		echo "$m" | grep -q "{\"match\":$1,\"game\":\"beerdie\",\"current\":true" && return
		sleep 0.1
	done
}

# Hostile values are refused, naming the file, line and key.
for bad in -1 401 two; do
	write_config "$WORK/bad.ini" "[sim]" "max_throws = $bad"
	rc=0
	"$DYEREF" serve --config "$WORK/bad.ini" --check-config > "$WORK/out" 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || fail "max_throws = $bad: exit $rc"
	grep -q "bad.ini:8: sim.max_throws" "$WORK/out" || fail "max_throws = $bad: $(cat "$WORK/out")"
done

write_config "$WORK/c.ini" "[fusion]" "review = count" "[sim]" "max_throws = 1" "pause_s = 1" "speed = 4"
start_daemon --config "$WORK/c.ini" --sim=table
# SIGHUP: two throws from the next match on (match 1 keeps its one).
write_config "$WORK/c.ini" "[fusion]" "review = count" "[sim]" "max_throws = 2" "pause_s = 1" "speed = 4"
kill -HUP "$DAEMON_PID"
for _ in $(seq 1 "$(slow_n 50)"); do grep -q 'reloaded' "$WORK/daemon.log" && break; sleep 0.1; done
grep -q 'reloaded' "$WORK/daemon.log" || fail "no reload message"
# Three throws and two 1 s pauses; a generous deadline.
m=
until_current 3
echo "$m" | grep -q '{"match":3,"game":"beerdie","current":true,"ended":false' ||
	fail "no third match 120 s after the first started: $m"
# Each match before it: ended with the simulator's throws (one, then two
# after the SIGHUP), not won.
for want in '{"match":1,"game":"beerdie","current":false,"ended":true,"throws":1,' \
	'{"match":2,"game":"beerdie","current":false,"ended":true,"throws":2,'; do
	echo "$m" | grep -qF "$want" || fail "/api/matches has no $want: $m"
done
for k in 1 2; do
	mk=$(echo "$m" | grep -o "{\"match\":$k,[^}]*}[^}]*}")
	echo "$mk" | grep -q '"score":{"A":[0-9],"B":[0-9]}' || fail "match $k reached the target: $mk"
done
stop_daemon

# An official who ends the demo's match from the console: the simulator's
# throws then come outside a match, and the next match starts all the same
# (the demo froze on "a throw outside a match was ignored" before).
rm -f "$WORK/dyeref.db"*
write_config "$WORK/c.ini" "[fusion]" "review = count" "[sim]" "speed = 4" "pause_s = 8"
start_daemon --config "$WORK/c.ini" --sim=table
login
until_current 1
command_ok '{"cmd":"end"}'
until_current 2
echo "$m" | grep -q '{"match":2,"game":"beerdie","current":true,"ended":false' ||
	fail "no second match 120 s after the official ended the first: $m"
grep -q 'a throw outside a match was ignored' "$WORK/daemon.log" ||
	fail "the next match came before a simulated throw found none under way"
# Ended again, and the official starts a match of their own before the
# demo's next is due: the demo leaves it standing (it set it aside before).
command_ok '{"cmd":"end"}'
seen=$(grep -c 'a throw outside a match was ignored' "$WORK/daemon.log")
for _ in $(seq 1 "$(slow_n 600)"); do
	[ "$(grep -c 'a throw outside a match was ignored' "$WORK/daemon.log")" -gt "$seen" ] && break
	sleep 0.1
done
command_ok '{"cmd":"start","team_names":["Home","Away"]}'
for _ in $(seq 1 "$(slow_n 200)"); do
	grep -q 'demo: match 3, begun from the console, stands' "$WORK/daemon.log" && break
	matches | grep -q '"match":4' && break
	sleep 0.1
done
m=$(matches)
echo "$m" | grep -q '"match":4' && fail "the demo started a match over the official's: $m"
echo "$m" | grep -q '{"match":3,"game":"beerdie","current":true,"ended":false' ||
	fail "the official's match 3 is not under way: $m"
grep -q 'demo: match 3, begun from the console, stands' "$WORK/daemon.log" ||
	fail "no word of the official's match standing"
stop_daemon
echo "ok"
