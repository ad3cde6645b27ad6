#!/bin/bash
# A real headless chromium on the replay (tests/e2e/lib/replay.js): the
# simulated table's throw that came to rest shows its legend, numbered
# landings with their uncertainty and the camera's snapshot with the face
# read; a throw an official entered and corrected shows its console events
# and, once logged in, the link to correct it; no horizontal scroll at
# 390x844 or 1920x1080. Screenshots in tests/artefacts/replay/ (gitignored).
set -eu
. "$(dirname "$0")/lib/browser.sh" replay
# Two simulated throws, fast, then the table stays the official's.
# A house rule of the daemon's (to 15): the page marks it against the book.
write_config "$WORK/c.ini" "[fusion]" "review = count" "[sim]" "max_throws = 2" "pause_s = 3600" "speed = 10" \
	"[house]" "target_points = 15"
start_daemon --config "$WORK/c.ini" --sim=table
throws() { state | sed -n 's/.*"throws":\([0-9]*\).*/\1/p' | head -n 1; }
poll_until 15 sh -c "curl -s --max-time 2 '$BASE/api/state' | grep -q '\"throws\":2'" ||
	fail "the simulator's two throws not ruled: $(state)"
# The first throw of the first simulated match (seed 0) comes to rest.
snap=
for k in 1 2; do
	curl -s --max-time "$(slow 10)" "$BASE/api/matches/1/throws/$k" |
		grep -Eq '"snapshots":\[\{"index":1,"t_ms":[0-9.]+,"face":[1-6],' && { snap=$k; break; }
done
[ -n "$snap" ] || fail "no simulated throw with a snapshot and its face"
# The official logs in by name: the correction is stored as Kim's.
COOKIES=$WORK/cookies
CSRF=$(curl -s --max-time "$(slow 10)" -c "$COOKIES" -d 'pin=4321&name=Kim' "$BASE/console/login" |
	sed -n 's/.*"csrf":"\([0-9a-f]*\)".*/\1/p')
[ -n "$CSRF" ] || fail "login as Kim"
# Throw 3, Blue's (Cy): entered by hand, then corrected (not caught).
command_ok '{"cmd":"throw","events":[{"at":"table","half":"A","x":0.6,"y":0.4},{"at":"catch","by":"a1","hands":1}]}'
command_ok '{"cmd":"correct","throw":3,"reason":"seen from the A end","events":[{"at":"table","half":"A","x":0.6,"y":0.4},{"at":"floor"}]}'
node "$(dirname "$0")/lib/replay.js" "$chromium" "$BASE" "$out" 4321 "$snap" 3 || fail "browser"
stop_daemon
echo ok
