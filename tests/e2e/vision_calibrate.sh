#!/bin/bash
# dyeref calibrate camera IMAGE: the table's corners in a rendered tilted
# view (tests/data/table-tilted.png: table -> image h = 215 25 55 / -12 230
# 45 / 0.03 0.06 1) come out as [camera] lines within 2 pixels, with the
# picture's size; a bad file
# or a view without a table is exit 2 with nothing on stdout.
set -u
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
dyeref=${DYEREF:-build/dyeref}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$dyeref" calibrate camera tests/data/table-tilted.png > "$tmp/out" 2> "$tmp/err" ||
	fail "exit $?: $(cat "$tmp/err")"
head -1 "$tmp/out" | grep -qx '\[camera\]' || fail "no [camera] section: $(cat "$tmp/out")"
check() { # key u v
	line=$(grep "^$1 = " "$tmp/out") || fail "no $1"
	awk -v l="${line#*= }" -v u="$2" -v v="$3" 'BEGIN { split(l, a, ","); d = sqrt((a[1]-u)^2 + (a[2]-v)^2); exit !(d < 2) }' ||
		fail "$1 = ${line#*= }, want $2,$3"
}
check corner_a_left 55.00 45.00
check corner_a_right 79.67 303.39
check corner_b_right 532.19 258.48
check corner_b_left 540.07 14.65
grep -q '^homography = [-0-9.e,]*$' "$tmp/out" || fail "homography line: $(grep homography "$tmp/out")"
[ "$(grep '^homography' "$tmp/out" | tr ',' '\n' | wc -l)" -eq 9 ] || fail "homography needs 9 numbers"
# The picture's size, so the daemon can take the calibration to its frames.
grep -qx 'calibrated_size = 640,360' "$tmp/out" || fail "no calibrated_size = 640,360: $(cat "$tmp/out")"

# A grey picture has no table; a missing file is named.
python3 -c "import sys; sys.stdout.buffer.write(b'P5\n64 48\n255\n' + bytes([90]) * (64 * 48))" > "$tmp/grey.pgm"
for bad in "$tmp/grey.pgm" "$tmp/missing.png"; do
	"$dyeref" calibrate camera "$bad" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$bad: exit $rc, want 2"
	[ ! -s "$tmp/out" ] || fail "$bad: stdout not empty"
	grep -qF "$bad" "$tmp/err" || fail "$bad: error does not name it: $(cat "$tmp/err")"
done
"$dyeref" calibrate camera > /dev/null 2>&1
[ $? -eq 2 ] || fail "no image: want exit 2"
echo ok
