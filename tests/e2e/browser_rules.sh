#!/bin/bash
# A real headless chromium on /rules?match=N: the match's house rules,
# those that differ from the book marked (lib/rules_cdp.js), on a phone.
set -eu
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "chromium is not installed"; exit 77; }
command -v node >/dev/null || { echo "node is not installed (drives chromium's DevTools pipe)"; exit 77; }
. "$(dirname "$0")/lib/daemon.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/tests/artefacts
mkdir -p "$out"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","house":{"target_points":5,"kill_every":0}}'
node "$(dirname "$0")/lib/rules_cdp.js" "$chromium" "$BASE" "$out" || fail "browser"
stop_daemon
echo ok
