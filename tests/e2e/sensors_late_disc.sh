#!/bin/bash
# Issue 31's clean reproduction through the real binary: the truth is
# (1.19, 0.30), team A's half, and table0 (A's end disc) fired 500 us late,
# as a comparator does when it misses a weak first arrival. The answer must
# be A's half, or review; never B at p >= 0.99 (BD-P1: the half decides the
# point).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

printf '[sensors]\ntable0 = 17\ntable0_x = 0.05\ntable0_y = 0.61\ntable1 = 27\ntable1_x = 1.22\ntable1_y = 0.05\ntable2 = 22\ntable2_x = 2.39\ntable2_y = 0.61\ntable3 = 23\ntable3_x = 1.22\ntable3_y = 1.17\n' > "$tmp/c.ini"
printf '1000629484 27\n1002176293 23\n1003098488 22\n1003453494 17\n' > "$tmp/e.txt"
"$DYEREF" sensors --config "$tmp/c.ini" --replay "$tmp/e.txt" > "$tmp/out" 2>&1 \
	|| fail "sensors --replay exited $?: $(cat "$tmp/out")"
line=$(grep '  table x=' "$tmp/out") || fail "no located impact: $(cat "$tmp/out")"
echo "$line"
case "$line" in
*"half A "*) ;;
*"half B "*|*"half line "*)
	p=$(sed -n 's/.* p=\([0-9.]*\) .*/\1/p' <<< "$line")
	[[ "$line" == *": review"* ]] || fail "wrong half without review: $line"
	awk -v p="$p" 'BEGIN { exit !(p < 0.99) }' || fail "wrong half at p >= 0.99: $line"
	;;
*) fail "no half: $line" ;;
esac
exit 0
