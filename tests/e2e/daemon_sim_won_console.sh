#!/bin/bash
# dyeref serve --sim=table: a demo match won by the official's throw from
# the console (BD-W1) is followed by the next match, as one the simulator's
# throw wins. Before, nothing set the next match due: the simulator's
# throws are left out of fusion in a won game, so none of them found the
# table free, and the demo stood on the won match for good.
# [house] target_points = 1: the console's first point wins.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
matches() { curl -s --max-time "$(slow 10)" "$BASE/api/matches"; }
second() { matches | grep -q '"match":2,"game":"beerdie","current":true'; }
# The next match [sim] pause_s after the win: long enough for the check
# that the console's point won, short enough not to wait it out.
write_config "$WORK/c.ini" "[house]" "target_points = 1" "win_by = 1" "[sim]" "pause_s = $(slow 2)"
start_daemon --config "$WORK/c.ini" --sim=table
login
# a1 throws first (no roll-off): B's half, then the floor, BD-P1.
command_ok '{"cmd":"throw","thrower":"a1","events":[{"at":"table","half":"B"},{"at":"floor"}]}'
state | grep -q '"match":1,.*"over":true' || fail "the console's point did not win match 1: $(state)"
poll_until 60 second || fail "no second match within 60 s of the win: $(matches)"
curl -s --max-time "$(slow 10)" "$BASE/api/matches/1/log" | "$DYEREF" judge | tail -n 1 |
	grep -q '"over":true,"winner":"A"' || fail "match 1 not stored as won by A"
matches | grep -q '{"match":1,"game":"beerdie","current":false,"ended":true' ||
	fail "match 1 not ended: $(matches)"
stop_daemon
echo "ok"
