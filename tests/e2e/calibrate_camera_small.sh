#!/bin/bash
# dyeref calibrate camera on a picture too small to be a table seen from
# above: exit 2 with its size named, nothing on stdout. A 24x24 picture of
# a "table" overran the corner finder's buffer (abort: corrupt heap).
set -u
dyeref=${DYEREF:-build/dyeref}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || { echo "python3 is not installed (writes the pictures)"; exit 77; }
python3 - "$tmp" <<'PY'
import sys
for w, h in ((24, 24), (63, 200)):
    px = bytes(20 if x < 2 or x >= w - 2 or y < 2 or y >= h - 2 else 200
               for y in range(h) for x in range(w))
    open("%s/t%dx%d.pgm" % (sys.argv[1], w, h), "wb").write(b"P5\n%d %d\n255\n" % (w, h) + px)
PY
for wh in 24x24 63x200; do
	"$dyeref" calibrate camera "$tmp/t$wh.pgm" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "$wh picture: exit $rc, want 2: $(cat "$tmp/err")"
	grep -q "t$wh.pgm: $wh pixels: too small for a calibration picture (at least 64x48)" "$tmp/err" ||
		fail "$wh picture: $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && fail "$wh picture: something on stdout"
done
echo ok
