#!/bin/bash
# A real headless chromium taps a face on the replay page at 390x844
# (tests/e2e/lib/faces.js): the simulated table's die at rest, its face
# read; the official logged in taps another face, the page shows it saved
# with who, and the daemon has stored it as that official's label (the
# throw's detail, then `dyeref faces export`). Screenshots in
# tests/artefacts/faces/ (gitignored).
set -eu
. "$(dirname "$0")/lib/browser.sh" faces
# shellcheck source=tests/e2e/lib/faces.sh
. "$(dirname "$0")/lib/faces.sh"
face=$((read_face % 6 + 1))
node "$(dirname "$0")/lib/faces.js" "$chromium" "$BASE" "$out" 4321 "$k" "$read_face" "$face" || fail "browser"
detail "$k" | grep -q "\"label\":{\"face\":$face,\"confirmed\":false,\"read_face\":$read_face,\"official\":\"Kim\"" ||
	fail "the tap not stored as Kim's label: $(detail "$k")"
stop_daemon
"$DYEREF" faces export --db "$WORK/dyeref.db" --out "$WORK/faces" > /dev/null || fail "faces export: exit $?"
grep -q "\"face\": $face" "$WORK/faces/labels.json" || fail "the tapped face not exported: $(cat "$WORK/faces/labels.json")"
echo ok
