#!/bin/bash
# Every rule ID the project's rule books list (docs/beer-die-rules.md, and
# docs/dice-games.md once it exists) must be cited somewhere under tests/.
# An ID is cited when it appears as a whole word: "BD-P1" inside "BD-P10"
# or "BD-P2" inside "BD-P2a" does not count.
set -u
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1

books=()
for f in docs/beer-die-rules.md docs/dice-games.md; do
	[ -f "$f" ] && books+=("$f")
done
[ -f docs/beer-die-rules.md ] || { echo "docs/beer-die-rules.md is missing"; exit 1; }

# A rule book defines an ID in bold ("- **BD-P7** ...", "**YZ-9** ..."),
# and may define several on one line.
ids=$(grep -ohE '\*\*(BD|YZ|YJ|DM|HO)-[A-Z]*[0-9]+[a-z]*\*\*' "${books[@]}" | tr -d '*' | sort -u)
n=$(printf '%s\n' "$ids" | grep -c .)
[ "$n" -gt 0 ] || { echo "no rule IDs found in ${books[*]}"; exit 1; }

missing=0
for id in $ids; do
	# This script names no IDs itself, so it cannot cite one.
	if ! grep -rlE -- "${id}([^0-9A-Za-z]|\$)" tests 2>/dev/null \
		| grep -qv '^tests/e2e/rule_ids_cited.sh$'; then
		echo "not cited in tests/: $id"
		missing=$((missing + 1))
	fi
done
echo "$n rule IDs in ${books[*]}, $missing not cited"
[ "$missing" -eq 0 ]
