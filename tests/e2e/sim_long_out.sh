#!/bin/bash
# dyeref sim --out with a path so long that a match's directory name would
# not fit: exit 2 naming the length, and nothing made under it (a silently
# truncated path once created a stray "matc" directory and wrote elsewhere).
set -u
dyeref=${DYEREF:-build/dyeref}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# An existing directory whose path is 4090 bytes long: 200-byte components.
out=$tmp
comp=$(printf 'd%.0s' $(seq 200))
while [ $(( ${#out} + 201 )) -le 4000 ]; do
	out=$out/$comp
done
pad=$(( 4090 - ${#out} - 1 ))
out=$out/$(printf 'e%.0s' $(seq $pad))
mkdir -p "$out" || fail "cannot make the long directory"
[ ${#out} -eq 4090 ] || fail "test setup: path is ${#out} bytes"

"$dyeref" sim --matches 1 --seed 1 --out "$out" > "$tmp/stdout" 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "exit $rc, expected 2: $(cat "$tmp/err")"
grep -q "sim: --out: path too long (4090 bytes, at most" "$tmp/err" || fail "message: $(cat "$tmp/err")"
[ -z "$(ls -A "$out")" ] || fail "made something under --out: $(ls -A "$out")"
[ -s "$tmp/stdout" ] && fail "printed: $(cat "$tmp/stdout")"

# A path that fits still works right up to the limit's neighbourhood.
short=$tmp/ok
"$dyeref" sim --matches 1 --seed 1 --out "$short" > /dev/null 2> "$tmp/err" || fail "short --out: $(cat "$tmp/err")"
[ -f "$short/match-001/truth.jsonl" ] || fail "short --out: no truth log"
exit 0
