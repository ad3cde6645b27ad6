#!/bin/bash
# The wall and the console in a real headless chromium reopen their event
# stream by itself
# after the server refused it (429: its address's streams all taken), once
# a slot is free (lib/reconnect.js). A browser's EventSource gives up for
# good on such an answer; the pages retry with a growing wait.
# Screenshots stay in tests/artefacts/reconnect/ (gitignored).
set -eu
. "$(dirname "$0")/lib/browser.sh" reconnect
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
node "$(dirname "$0")/lib/reconnect.js" "$chromium" "$BASE" "$out" || fail "browser"
for f in reconnect-refused reconnect-live; do
	[ -s "$out/$f.png" ] || fail "no screenshot $f.png"
done
stop_daemon
echo ok
