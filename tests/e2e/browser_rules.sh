#!/bin/bash
# A real headless chromium on /rules?match=N: the match's house rules,
# those that differ from the book marked (lib/rules_cdp.js), on a phone.
set -eu
. "$(dirname "$0")/lib/browser.sh" ""
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","house":{"target_points":5,"kill_every":0}}'
node "$(dirname "$0")/lib/rules_cdp.js" "$chromium" "$BASE" "$out" || fail "browser"
stop_daemon
echo ok
