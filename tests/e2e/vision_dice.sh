#!/bin/bash
# dyeref dice IMAGE...: one JSON object a line per image (DESIGN.md), faces
# read on real photos, dice found but unreadable listed apart; a bad file is a one-line error naming it, exit 2 and
# nothing on stdout, even when good images came before it.
set -u
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
dyeref=${DYEREF:-build/dyeref}
photos=tests/data/dice-photos
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

a=$photos/IMG_20191209_100553.jpg	# a red 3 at (338, 470) among three dice
b=$photos/IMG_20191208_111228.jpg
"$dyeref" dice "$a" "$b" > "$tmp/out" 2> "$tmp/err" || fail "exit $? on good photos: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/out")" -eq 2 ] || fail "expected 2 lines, got: $(cat "$tmp/out")"
jq -s -e --arg a "$a" '[.[] | select(.image == $a) | .dice[] | select(.face == 3 and (.x - 338 | fabs) < 25 and (.y - 470 | fabs) < 25)] | length == 1' \
	< "$tmp/out" > /dev/null || fail "the red 3 in $a not read: $(head -1 "$tmp/out")"
jq -s -e 'map(.dice) | add | all(.face >= 1 and .face <= 6 and .confidence >= 0 and .confidence <= 1 and (.x | type) == "number")' \
	< "$tmp/out" > /dev/null || fail "malformed dice: $(cat "$tmp/out")"
jq -s -e 'all(keys_unsorted == ["image", "dice", "unreadable"])' < "$tmp/out" > /dev/null || fail "keys: $(cat "$tmp/out")"
# The tray's dark screw hole at (63, 50) of $a is found, but is no die.
jq -s -e --arg a "$a" '.[] | select(.image == $a) | .unreadable == []' < "$tmp/out" > /dev/null \
	|| fail "unreadable dice in $a: $(head -1 "$tmp/out")"

# Three smoky dice with red pips that neither reader reads: reported as
# found but unreadable, where they lie, so the official knows 7 dice are
# there, not 4.
c=$photos/IMG_20191209_095849.jpg
"$dyeref" dice "$c" > "$tmp/out" 2> "$tmp/err" || fail "exit $? on $c: $(cat "$tmp/err")"
jq -e '(.dice | length) + (.unreadable | length) == 7 and
	([[373, 182], [421, 361], [448, 350]] | all(. as $p | any($u[]; (.x - $p[0] | fabs) < 15 and (.y - $p[1] | fabs) < 15))) and
	(.unreadable | all(keys_unsorted == ["x", "y"]))' --argjson u "$(jq -c .unreadable "$tmp/out")" \
	< "$tmp/out" > /dev/null || fail "unreadable dice in $c: $(cat "$tmp/out")"

# A PGM written from scratch: a white die with three black pips on grey.
python3 - "$tmp/die.pgm" <<'PY'
import sys
w = h = 120
img = [[90] * w for _ in range(h)]
for y in range(40, 80):
    for x in range(40, 80):
        img[y][x] = 235
for cx, cy in ((49, 49), (60, 60), (71, 71)):
    for y in range(cy - 3, cy + 4):
        for x in range(cx - 3, cx + 4):
            if (x - cx) ** 2 + (y - cy) ** 2 <= 10:
                img[y][x] = 20
with open(sys.argv[1], "wb") as f:
    f.write(b"P5\n%d %d\n255\n" % (w, h) + bytes(v for row in img for v in row))
PY
"$dyeref" dice "$tmp/die.pgm" > "$tmp/out" 2> "$tmp/err" || fail "pgm: exit $?: $(cat "$tmp/err")"
jq -e '.dice | length == 1 and .[0].face == 3 and (.[0].x - 59.5 | fabs) < 3' < "$tmp/out" > /dev/null \
	|| fail "pgm die not read as one 3: $(cat "$tmp/out")"

# Bad files: named, exit 2, stdout empty.
printf 'not an image' > "$tmp/bad.png"
head -c 200 "$b" > "$tmp/cut.jpg"
for bad in "$tmp/bad.png" "$tmp/cut.jpg" "$tmp/missing.jpg"; do
	"$dyeref" dice "$a" "$bad" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$bad: exit $rc, want 2"
	[ ! -s "$tmp/out" ] || fail "$bad: stdout not empty: $(cat "$tmp/out")"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "$bad: want one error line: $(cat "$tmp/err")"
	grep -qF "$bad" "$tmp/err" || fail "$bad: error does not name it: $(cat "$tmp/err")"
done
"$dyeref" dice > /dev/null 2>&1
[ $? -eq 2 ] || fail "no arguments: want exit 2"
echo "ok"
