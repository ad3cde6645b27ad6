#!/bin/bash
# A real headless chromium on the history pages (tests/e2e/lib/history.js):
# 25 imported matches (lib/history_data.sh); from /matches a click to a
# match, from it to a throw's replay and to a player's page, and /players,
# and a dice match's sheet (match 26),
# at 390x844 and 1920x1080 with no horizontal overflow. Screenshots in
# tests/artefacts/history/ (gitignored).
set -eu
. "$(dirname "$0")/lib/browser.sh" history
. "$(dirname "$0")/lib/history_data.sh"
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
history_db 25
[ "$("$DYEREF" import --db "$WORK/dyeref.db" "$(dirname "$0")/../data/dice/yatzy-full.jsonl")" = 26 ] || fail "import yatzy"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
node "$(dirname "$0")/lib/history.js" "$chromium" "$BASE" "$out" || fail "browser"
for f in matches match replay player players dice; do
	for w in 390 1920; do
		[ -s "$out/history-$f-$w.png" ] || fail "no screenshot history-$f-$w.png"
	done
done
stop_daemon
echo ok
