#!/bin/bash
# The official's phone console in a real headless chromium at 390x844,
# by taps (lib/browser_console.js): login with a name, a throw corrected
# from the list with the wall's score changing live, a review confirmed,
# undo, house rules, a Yatzy turn corrected, a Dreiermann share. The
# screenshots stay in tests/artefacts/console/ (gitignored).
set -eu
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "chromium is not installed"; exit 77; }
command -v node >/dev/null || { echo "node is not installed (drives chromium's DevTools pipe)"; exit 77; }
# shellcheck source=tests/e2e/lib/daemon.sh
. "$(dirname "$0")/lib/daemon.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/tests/artefacts/console
mkdir -p "$out"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
node "$(dirname "$0")/lib/browser_console.js" "$chromium" "$BASE" "$out" 4321 || fail "browser"
[ -s "$out/console-corrected.png" ] || fail "no screenshots"
stop_daemon
echo ok
