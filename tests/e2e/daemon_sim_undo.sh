#!/bin/bash
# dyeref serve --sim=table: an official who undoes the throw that won the
# demo's match (BD-W1) reopens it, and the simulator's throws, still coming,
# play it on: the demo's next match, due pause_s (here 8 real seconds, times the slowdown)
# after a win, waits for the reopened match to be won again.
# [house] target_points = 1: the first point wins; the simulator's own
# match goes to 10, so it is not spent, and the next point is its to make.
# [sim] speed = 4: the table plays four times faster (the pause stays real).
set -eu
. "$(dirname "$0")/lib/daemon.sh"
matches() { curl -s --max-time "$(slow 10)" "$BASE/api/matches"; }
write_config "$WORK/c.ini" "[house]" "target_points = 1" "win_by = 1" "[sim]" "pause_s = $(slow 8)" "speed = 4"
start_daemon --config "$WORK/c.ini" --sim=table
login
won() { state | grep -q '"match":1,.*"over":true'; }
second() { matches | grep -q '"match":2'; }
poll_until 180 won || fail "match 1 not won within 180 s: $(state)"
won_at=$(state | grep -o '"throws":[0-9]*' | head -n 1 | cut -d: -f2)
command_ok '{"cmd":"undo"}'
state | grep -q '"match":1,.*"over":false' || fail "the undo did not reopen match 1: $(state)"
# The next match comes once match 1 is won again (8 s after its next point).
poll_until 180 second || fail "no second match within 180 s: $(matches)"
m=$(matches)
m1=$(echo "$m" | grep -o '{"match":1,[^}]*}[^}]*}')
echo "$m1" | grep -q '"ended":true' || fail "match 1 not ended: $m1"
throws=$(echo "$m1" | grep -o '"throws":[0-9]*' | cut -d: -f2)
[ "$throws" -gt "$won_at" ] || fail "no simulated throw joined match 1 after the undo: $m1"
curl -s --max-time "$(slow 10)" "$BASE/api/matches/1/log" | "$DYEREF" judge > "$WORK/judged" ||
	fail "match 1's log does not judge"
tail -n 1 "$WORK/judged" | grep -q '"over":true' ||
	fail "match 1 was ended before it was won again: $(tail -n 1 "$WORK/judged")"
grep -q 'demo: match 1 reopened from the console, plays on' "$WORK/daemon.log" || fail "no word of match 1 going on"
stop_daemon
echo "ok"
