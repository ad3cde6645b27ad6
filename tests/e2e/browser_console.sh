#!/bin/bash
# The official's phone console in a real headless chromium at 390x844,
# by taps (lib/browser_console.js): login with a name, a throw corrected
# from the list with the wall's score changing live, a review confirmed,
# undo, house rules, a Yatzy turn corrected, a Dreiermann share. The
# screenshots stay in tests/artefacts/console/ (gitignored).
set -eu
. "$(dirname "$0")/lib/browser.sh" console
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
node "$(dirname "$0")/lib/browser_console.js" "$chromium" "$BASE" "$out" 4321 || fail "browser"
[ -s "$out/console-corrected.png" ] || fail "no screenshots"
stop_daemon
echo ok
