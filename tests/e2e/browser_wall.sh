#!/bin/bash
# The wall screen in a real headless chromium (lib/wall.js) at 1920x1080:
# the table's name, type sizes read from 5 m, each throw, correction, undo and review named
# as what it is, team colours chosen at START, a win screen that stays
# until the next match, a dice game's sheet, the 1280x720 and portrait
# layouts on screen, and "offline" within 5 s of the daemon's death.
# Screenshots stay in tests/artefacts/wall/ (gitignored).
set -eu
. "$(dirname "$0")/lib/browser.sh" wall
write_config "$WORK/c.ini" "[table]" "name = Table 2"
start_daemon --config "$WORK/c.ini"
node "$(dirname "$0")/lib/wall.js" "$chromium" "$BASE" "$out" 4321 "$DAEMON_PID" || fail "browser"
# wall.js killed the daemon (SIGKILL) to see the wall go offline.
wait "$DAEMON_PID" 2>/dev/null || true
DAEMON_PID=
# The colours START chose ride in the match line: export writes them, and
# an import of that log exports the same line.
"$DYEREF" export --db "$WORK/dyeref.db" --match 1 > "$WORK/m1.jsonl" || fail "export"
head -n 1 "$WORK/m1.jsonl" | grep -q '"colors":{"A":"green","B":"purple"}' || fail "no colours in the match line: $(head -n 1 "$WORK/m1.jsonl")"
id=$("$DYEREF" import --db "$WORK/again.db" "$WORK/m1.jsonl") || fail "import"
"$DYEREF" export --db "$WORK/again.db" --match "$id" | cmp -s - "$WORK/m1.jsonl" || fail "the log changed in an import and export"
for f in wall-play wall-correction wall-undo wall-win wall-dice wall-720 wall-portrait wall-offline; do
	[ -s "$out/$f.png" ] || fail "no screenshot $f.png"
done
echo ok
