#!/bin/bash
# The measured jitter (issue 31): a recording of the simulated table with
# its faults (0.5 % of discs late 0.2-1 ms, 0.5 % missing, latency 7-20
# us, speed spread 5 %) at 20 us of jitter, replayed with `dyeref sensors
# --replay --watch` under a config that says 10 us, reports the table
# noisier than configured; the same at 10 us does not. Six table discs:
# the diamond's four leave no residual of the jitter's own, and say so.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

printf '[sensors]\ntiming_sigma_us = 10\ntable0 = 17\ntable1 = 27\ntable2 = 22\ntable3 = 23\ntable4 = 24\ntable4_x = 0.77\ntable4_y = 0.61\ntable5 = 25\ntable5_x = 1.67\ntable5_y = 0.61\ncup_a1 = 5\ncup_a2 = 6\ncup_b1 = 13\ncup_b2 = 19\nmine = 26\n' > "$tmp/six.ini"

for j in 20 10; do
	"$DYEREF" sensors --config "$tmp/six.ini" --sim --impacts 150 --seed 3 --jitter-us "$j" \
		--late 0.005 --missing 0.005 --record "$tmp/t$j.edges" > /dev/null 2> "$tmp/sim.err" \
		|| fail "sim at $j us exited $?: $(cat "$tmp/sim.err")"
	"$DYEREF" sensors --config "$tmp/six.ini" --replay "$tmp/t$j.edges" --watch > "$tmp/w$j.out" 2>&1 \
		|| fail "replay at $j us exited $?: $(tail -3 "$tmp/w$j.out")"
done

# 20 us: said during the watch, once it shows, and in the health at the end
n=$(grep -c 'noisier than configured' "$tmp/w20.out")
[ "$n" -eq 2 ] || fail "20 us on a 10 us config: 'noisier' said $n times, want 2: $(grep 'timing noise' "$tmp/w20.out")"
grep -q '^timing noise: measured [0-9.]* us over the last 128 fits, config 10 us: the table is noisier' \
	"$tmp/w20.out" || fail "no measured noise in the health: $(grep 'timing noise' "$tmp/w20.out")"
m=$(sed -n 's/^timing noise: measured \([0-9.]*\) us over the last 128 .*/\1/p' "$tmp/w20.out")
awk -v m="$m" 'BEGIN { exit !(m >= 15 && m <= 26) }' || fail "20 us table measured '$m' us"
# the edges came first: the word comes with the impacts, not at the end only
first=$(grep -n 'noisier than configured' "$tmp/w20.out" | head -1 | cut -d: -f1)
last_edge=$(grep -n ' edge line ' "$tmp/w20.out" | tail -1 | cut -d: -f1)
[ "$first" -lt "$last_edge" ] || fail "'noisier' only after the last edge (line $first)"

# 10 us, as configured: measured, not flagged
! grep -q 'noisier' "$tmp/w10.out" || fail "a 10 us table flagged: $(grep 'timing noise' "$tmp/w10.out")"
m=$(sed -n 's/^timing noise: measured \([0-9.]*\) us over the last 128 .*/\1/p' "$tmp/w10.out")
awk -v m="$m" 'BEGIN { exit !(m >= 7 && m <= 14) }' || fail "10 us table measured '$m' us"

# The diamond: not measured, and said so, not flagged
"$DYEREF" sensors --sim --impacts 100 --seed 3 --jitter-us 20 > "$tmp/d.out" 2>&1 || fail "diamond sim exited $?"
grep -q '^timing noise: not measured (0 fits of 5+ arrivals; 16 needed), config 10 us$' "$tmp/d.out" \
	|| fail "diamond: $(grep 'timing noise' "$tmp/d.out")"

# The fault options belong to --sim
"$DYEREF" sensors --replay "$tmp/t10.edges" --late 0.1 > /dev/null 2> "$tmp/e.err"
[ $? -eq 2 ] || fail "--late without --sim: want exit 2"
grep -q 'only with --sim' "$tmp/e.err" || fail "--late without --sim: $(cat "$tmp/e.err")"
"$DYEREF" sensors --sim --late 2 > /dev/null 2> "$tmp/e.err"
[ $? -eq 2 ] && grep -q "sensors: --late: expected a chance 0..1, got '2'" "$tmp/e.err" \
	|| fail "--late 2: $(cat "$tmp/e.err")"
echo "sensors_jitter e2e: ok"
