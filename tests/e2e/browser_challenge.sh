#!/bin/bash
# Duties and the challenge replay in a real headless chromium
# (tests/e2e/lib/challenge.js): the console's Done at 390x844 takes a duty
# off the wall at 1920x1080; the replay page's "Show on wall" puts the
# challenge replay on the wall ("Take off the wall" removes it); with a
# short [web] challenge_s (the daemon restarted) it leaves by itself after
# that time. Screenshots in tests/artefacts/challenge/ (gitignored).
set -eu
. "$(dirname "$0")/lib/browser.sh" challenge
# Long enough that every check of the replay's content is done while it
# shows, on any machine: it is taken off by hand.
write_config "$WORK/c.ini" "[web]" "challenge_s = 600"
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","teams":{"A":["Al","Bo"],"B":["Cy","Di"]},"team_names":["Orange","Blue"]}'
# Throw 1 (Al): on Blue's half, located by the piezos, then a sink in Cy's
# cup: 2 to Orange, Cy kills and fills (the wall shows it while it is
# the last throw's; daemon_duties.sh keeps it listed throws later).
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B","x":1.85,"y":0.42,"source":"piezo","confidence":0.97},{"at":"cup","owner":"b1","sink":true}]}'
node "$(dirname "$0")/lib/challenge.js" "$chromium" "$BASE" "$out" 4321 600 show || fail "browser (show)"
stop_daemon
# The same match, a short time on the wall: it leaves by itself.
write_config "$WORK/c.ini" "[web]" "challenge_s = 2"
start_daemon --config "$WORK/c.ini"
node "$(dirname "$0")/lib/challenge.js" "$chromium" "$BASE" "$out" 4321 2 leaves || fail "browser (leaves)"
stop_daemon
echo ok
