#!/bin/bash
# dyeref sensors / calibrate piezo, end to end on the real binary: the
# simulated table, recording and replaying edges, hostile files and
# configs (exit 2 with file:line), calibration writing the config safely.
set -u
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Simulated table: every impact located, health listed.
"$DYEREF" sensors --sim --impacts 8 --seed 5 --record "$tmp/rec.edges" > "$tmp/sim.out" 2> "$tmp/sim.err" \
	|| fail "sensors --sim exited $?: $(cat "$tmp/sim.err")"
[ "$(grep -c '  table x=' "$tmp/sim.out")" -eq 8 ] || fail "expected 8 located impacts: $(cat "$tmp/sim.out")"
grep -q '^health after' "$tmp/sim.out" || fail "no health report"
grep -q 'line 17   table0   ok' "$tmp/sim.out" || fail "table0 not ok"
[ -s "$tmp/rec.edges" ] || fail "nothing recorded"

# Replaying the recording gives the same observations.
"$DYEREF" sensors --replay "$tmp/rec.edges" > "$tmp/replay.out" 2>&1 || fail "replay exited $?"
diff <(grep -E '  (table|cup|mine|floor)' "$tmp/sim.out") \
     <(grep -E '  (table|cup|mine|floor)' "$tmp/replay.out") || fail "replay differs from the live run"

# --watch prints every edge, like gpiomon.
"$DYEREF" sensors --replay "$tmp/rec.edges" --watch > "$tmp/watch.out" 2>&1 || fail "watch exited $?"
[ "$(grep -c ' edge line ' "$tmp/watch.out")" -eq "$(grep -c . "$tmp/rec.edges")" ] \
	|| fail "--watch did not print every edge"

# Edges stored in the event log replay like the recording they came from.
printf '%s\n' '{"type":"match","game":"beerdie","teams":{"A":["a1","a2"],"B":["b1","b2"]}}' \
	'{"type":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}' > "$tmp/m.jsonl"
"$DYEREF" import --db "$tmp/m.db" "$tmp/m.jsonl" > /dev/null || fail "import exited $?"
"$DYEREF" sensors --replay-db "$tmp/m.db" --match 1 > "$tmp/db0.out" 2>&1 || fail "replay-db (no edges) exited $?"
grep -q '^health after 0 edges' "$tmp/db0.out" || fail "replay-db of a match without edges: $(cat "$tmp/db0.out")"
if command -v sqlite3 > /dev/null; then
	awk '!/^#/ && NF == 2 { printf "INSERT INTO raw_inputs (match_id, throw_no, t_ns, source, kind, channel, payload) VALUES (1, 1, %s, '"'"'piezo'"'"', '"'"'edge'"'"', %s, '"'"'{\"line\":%s}'"'"');\n", $1, $2, $2 }' \
		"$tmp/rec.edges" > "$tmp/ins.sql"
	sqlite3 "$tmp/m.db" < "$tmp/ins.sql" || fail "inserting edges"
	"$DYEREF" sensors --replay-db "$tmp/m.db" --match 1 --throw 1 > "$tmp/db.out" 2>&1 || fail "replay-db exited $?"
	diff <(grep -E '  (table|cup|mine|floor)' "$tmp/sim.out") \
	     <(grep -E '  (table|cup|mine|floor)' "$tmp/db.out") || fail "replay-db differs from the live run"
fi
"$DYEREF" sensors --replay-db "$tmp/m.db" --match 9 > /dev/null 2> "$tmp/db9.err"
[ $? -eq 2 ] || fail "replay-db of a missing match: want exit 2"
grep -q "no match 9\|match 9" "$tmp/db9.err" || fail "replay-db missing match: $(cat "$tmp/db9.err")"
"$DYEREF" sensors --replay-db "$tmp/m.db" 2> /dev/null
[ $? -eq 2 ] || fail "replay-db without --match: want exit 2"

# A hostile recording: exit 2, file and line named, nothing else printed as a result.
printf '100 17\n# fine\n99 22\n' > "$tmp/bad.edges"
"$DYEREF" sensors --replay "$tmp/bad.edges" > "$tmp/bad.out" 2> "$tmp/bad.err"
rc=$?
[ $rc -eq 2 ] || fail "bad recording: exit $rc, want 2"
grep -q "bad.edges:3: timestamp 99 goes backwards" "$tmp/bad.err" || fail "bad recording: $(cat "$tmp/bad.err")"
"$DYEREF" sensors --replay "$tmp/missing.edges" 2> "$tmp/miss.err"
[ $? -eq 2 ] || fail "missing recording should be bad input (2)"

# One edge completing 8 or more observations (an impact with 5 cup/mine
# hits and 3 button presses held in it) is pushed once, counted once.
printf '[sensors]\nbutton_low_a = 12\nbutton_low_b = 16\nbutton_retoss_a = 20\n' > "$tmp/many.ini"
printf '%s\n' '1000000000 17' '1000100000 5' '1000200000 6' '1000300000 13' '1000400000 19' \
	'1000500000 26' '1000600000 12' '1000700000 16' '1000800000 20' '1001000000 27' \
	'1001500000 22' '1002000000 23' '2000000000 17' > "$tmp/many.edges"
"$DYEREF" sensors --config "$tmp/many.ini" --replay "$tmp/many.edges" > "$tmp/many.out" 2>&1 \
	|| fail "9 observations at once: exit $?: $(cat "$tmp/many.out")"
grep -q 'line 17   table0   ok         edges 2 (ringing/chatter dropped 0)' "$tmp/many.out" \
	|| fail "an edge counted twice: $(grep table0 "$tmp/many.out")"
[ "$(grep -cE '^[0-9.]+  (table|cup|mine|button)' "$tmp/many.out")" -eq 9 ] \
	|| fail "9 observations at once: $(cat "$tmp/many.out")"

# Edges at 0 put the impact's fitted time before it: printed signed.
printf '0 17\n0 27\n0 22\n0 23\n' > "$tmp/zero.edges"
"$DYEREF" sensors --replay "$tmp/zero.edges" > "$tmp/zero.out" 2>&1 || fail "edges at 0: exit $?"
grep -qE '^-0\.0[0-9]{8}  table x=' "$tmp/zero.out" || fail "negative time: $(grep ' table x=' "$tmp/zero.out")"

# The issue's floating floor strip replayed (one edge, then 1,499 edges 1
# us apart): no floor observation, and the line named floating with why
# (docs/sensors.md "Line check").
printf '[sensors]\nfloor0 = 24\n' > "$tmp/floor.ini"
awk 'BEGIN { for (k = 0; k < 1500; k++) print 1000000000 + k * 1000, 24 }' > "$tmp/floating.edges"
"$DYEREF" sensors --config "$tmp/floor.ini" --replay "$tmp/floating.edges" > "$tmp/floating.out" 2>&1 \
	|| fail "floating replay: exit $?: $(cat "$tmp/floating.out")"
grep -qE '^[0-9.]+  floor$' "$tmp/floating.out" && fail "the floating line gave a floor hit: $(cat "$tmp/floating.out")"
grep -q 'line 24   floor0   floating   edges 1500 (ringing/chatter dropped 14), 1485 quarantined: 16 edges in 0.015 ms' \
	"$tmp/floating.out" || fail "floor0 not named floating: $(grep floor0 "$tmp/floating.out")"

# A bad config: exit 2 with file:line: key.
printf '[sensors]\ntable0 = 17\ntable1 = 27\ntable2 = 22\ncup_a1 = 22\n' > "$tmp/bad.ini"
"$DYEREF" sensors --config "$tmp/bad.ini" --sim --impacts 1 > /dev/null 2> "$tmp/cfg.err"
rc=$?
[ $rc -eq 2 ] || fail "bad config: exit $rc, want 2"
grep -q "bad.ini:5: sensors.cup_a1: line 22 is already table2 (line 4)" "$tmp/cfg.err" \
	|| fail "bad config message: $(cat "$tmp/cfg.err")"

# No GPIO chip on a build machine: a message naming the chip and the fix.
if ! ls /dev/gpiochip* > /dev/null 2>&1; then
	"$DYEREF" sensors > /dev/null 2> "$tmp/gpio.err"
	[ $? -eq 1 ] || fail "no chip: want exit 1"
	grep -q "gpiochip0: no such GPIO chip" "$tmp/gpio.err" || fail "no chip: $(cat "$tmp/gpio.err")"
fi

# Calibration on the simulated table writes speed and delays, keeps the rest.
printf '# garage table\n[web]\nport = 8080\n\n[sensors]\nchip = gpiochip0\nwave_speed = 400\n\n[house]\ntarget_points = 11\n' > "$tmp/t.ini"
"$DYEREF" calibrate piezo --sim --seed 4 --repeat 3 --config "$tmp/t.ini" > "$tmp/cal.out" 2>&1 \
	|| fail "calibrate exited $?: $(cat "$tmp/cal.out")"
grep -q '^tap 1/36: at x=' "$tmp/cal.out" || fail "no guidance printed"
truth=$(sed -n 's/.*simulated truth: wave speed \([0-9.]*\) m\/s.*/\1/p' "$tmp/cal.out")
fitted=$(sed -n 's/^wave_speed = //p' "$tmp/t.ini")
[ -n "$truth" ] && [ -n "$fitted" ] || fail "no speed: $(cat "$tmp/cal.out") / $(cat "$tmp/t.ini")"
awk -v a="$truth" -v b="$fitted" 'BEGIN { d = (a - b) / a; if (d < 0) d = -d; exit !(d < 0.015) }' \
	|| fail "fitted $fitted m/s, truth $truth m/s"
grep -q '^table3_delay_us = ' "$tmp/t.ini" || fail "delays not written"
# the taps' timing noise: the simulated taps' jitter 5 us and latency 7-20 us, 6.3 us
sigma=$(sed -n 's/^timing_sigma_us = //p' "$tmp/t.ini")
awk -v s="$sigma" 'BEGIN { exit !(s >= 4 && s <= 9) }' || fail "timing_sigma_us '$sigma', want 4..9 us"
grep -q '^# garage table$' "$tmp/t.ini" && grep -q '^port = 8080$' "$tmp/t.ini" \
	&& grep -q '^target_points = 11$' "$tmp/t.ini" || fail "other lines lost: $(cat "$tmp/t.ini")"
[ "$(ls "$tmp" | grep -c 't.ini')" -eq 1 ] || fail "temporary file left"
# The written file is valid for the next run.
"$DYEREF" sensors --config "$tmp/t.ini" --sim --impacts 1 > /dev/null || fail "written config rejected"

# Taps at the 12 guided points of the reference diamond at 400 m/s, each
# table sensor late by the microseconds given (table0..3); noise-free.
taps() {
	awk -v d="$1" 'BEGIN {
		split(d, late, ","); L = 2.44; W = 1.22
		split("0.05 1.22 2.39 1.22", sx, " "); split("0.61 0.05 0.61 1.17", sy, " ")
		split("17 27 22 23", ln, " "); split("0.15 0.38 0.62 0.85", fx, " ")
		split("0.25 0.5 0.75", fy, " ")
		for (r = 1; r <= 3; r++) for (c = 1; c <= 4; c++) {
			k++; x = fx[c] * L; y = fy[r] * W
			for (i = 1; i <= 4; i++)
				printf "%.0f %d\n", k * 2e9 + (sqrt((x - sx[i])^2 + (y - sy[i])^2) / 400 + late[i] * 1e-6) * 1e9, ln[i]
		} }' | sort -n
}
# A table disc that never fires, or a comparator so late that its delay
# would not load: refused (exit 2), the config left as it was.
printf '[sensors]\nwave_speed = 400\n' > "$tmp/dead.ini"
cp "$tmp/dead.ini" "$tmp/dead.orig"
taps 40,-30,20,10 | grep -v ' 23$' > "$tmp/dead.taps"
"$DYEREF" calibrate piezo --config "$tmp/dead.ini" --replay "$tmp/dead.taps" > "$tmp/dead.out" 2> "$tmp/dead.err"
rc=$?
[ $rc -eq 2 ] || fail "calibration with a dead table3: exit $rc, want 2"
# Bad input leaves stdout empty: the taps taken are shown only once they fit.
[ ! -s "$tmp/dead.out" ] || fail "dead table3: printed $(head -3 "$tmp/dead.out")"
grep -q "table3 was heard in 0 of 12 taps.*wiring" "$tmp/dead.err" || fail "dead table3: $(cat "$tmp/dead.err")"
cmp -s "$tmp/dead.ini" "$tmp/dead.orig" || fail "dead table3: config written: $(cat "$tmp/dead.ini")"
taps 1400,0,0,0 > "$tmp/late.taps"
"$DYEREF" calibrate piezo --config "$tmp/dead.ini" --replay "$tmp/late.taps" > /dev/null 2> "$tmp/late.err"
rc=$?
[ $rc -eq 2 ] || fail "calibration with table0 1.4 ms late: exit $rc, want 2"
grep -q "sensors: table0: delay 1050 us is beyond 1000 us" "$tmp/late.err" || fail "late table0: $(cat "$tmp/late.err")"
cmp -s "$tmp/dead.ini" "$tmp/dead.orig" || fail "late table0: config written: $(cat "$tmp/dead.ini")"

# A config calibration could not rewrite is refused before the first tap,
# not after the last: one line, exit 1, nothing asked. A name too long for
# the temporary file beside it stops root too; a read-only directory only
# stops others.
printf '[sensors]\nwave_speed = 400\n' > "$tmp/ro.ini"
long="$tmp/$(printf '%0250d' 0).ini"
cp "$tmp/ro.ini" "$long"
unwritable=("$long")
if [ "$(id -u)" -ne 0 ]; then
	mkdir "$tmp/ro" && cp "$tmp/ro.ini" "$tmp/ro/t.ini" && chmod 0555 "$tmp/ro"
	unwritable+=("$tmp/ro/t.ini")
fi
for cfgf in "${unwritable[@]}"; do
	"$DYEREF" calibrate piezo --sim --seed 4 --config "$cfgf" > "$tmp/ro.out" 2> "$tmp/ro.err"
	rc=$?
	[ $rc -eq 1 ] || fail "unwritable config: exit $rc, want 1"
	[ ! -s "$tmp/ro.out" ] || fail "unwritable config: taps asked for first: $(head -3 "$tmp/ro.out")"
	[ "$(wc -l < "$tmp/ro.err")" -eq 1 ] \
		&& grep -q "$cfgf: cannot create a temporary file beside it: " "$tmp/ro.err" \
		|| fail "unwritable config message: $(cat "$tmp/ro.err")"
	cmp -s "$tmp/ro.ini" "$cfgf" || fail "unwritable config changed"
done
# --dry-run writes nothing, so it does not ask.
"$DYEREF" calibrate piezo --sim --seed 4 --dry-run --config "$long" > "$tmp/ro.out" 2>&1 \
	|| fail "--dry-run on an unwritable config exited $?: $(cat "$tmp/ro.out")"
grep -q '^not written (--dry-run)' "$tmp/ro.out" || fail "--dry-run: $(cat "$tmp/ro.out")"

"$DYEREF" calibrate bogus 2> /dev/null
[ $? -eq 2 ] || fail "calibrate bogus: want exit 2"
"$DYEREF" sensors --impacts x 2> /dev/null
[ $? -eq 2 ] || fail "bad option value: want exit 2"
# Seconds that would overflow as nanoseconds (undefined behaviour) are refused.
"$DYEREF" sensors --sim --impacts 1 --duration 1e300 > /dev/null 2>&1
[ $? -eq 2 ] || fail "--duration 1e300: want exit 2"
echo "sensors e2e: ok"
