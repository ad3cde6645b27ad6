#!/bin/bash
# A real headless chromium: the scoreboard shows the score change when a
# throw is judged (live over server-sent events), then /replay/1, and a
# stored match's ruling with its note (a measured toss too low). The
# screenshots stay in tests/artefacts/ (gitignored).
set -eu
. "$(dirname "$0")/lib/browser.sh" ""
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","teams":{"A":["Ann","Bo"],"B":["Cy","Di"]},"team_names":["Orange","Blue"]}'
# Match 2, stored beside the live one: a toss measured too low (BD-P5).
printf '%s\n' '{"type":"match","game":"beerdie","teams":{"A":["ann","bo"],"B":["cy","di"]},"house":{"low_call":"auto"}}' \
	'{"type":"throw","apex_m":0.5,"events":[{"at":"table","half":"B","x":1.9,"y":0.4},{"at":"floor"}]}' > "$WORK/low.jsonl"
[ "$("$DYEREF" import --db "$WORK/dyeref.db" "$WORK/low.jsonl")" = 2 ] || fail "import"
node "$(dirname "$0")/lib/cdp.js" "$chromium" "$BASE" "$out" 4321 2 || fail "browser"
[ -s "$out/scoreboard.png" ] && [ -s "$out/replay.png" ] || fail "no screenshots"
stop_daemon
echo ok
