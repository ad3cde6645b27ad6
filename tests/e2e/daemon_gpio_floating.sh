#!/bin/bash
# Inputs that cannot invent a throw (docs/sensors.md "Line check",
# docs/daemon.md "Fusion"): `dyeref serve` on the libgpiod stub
# (tests/stubs/gpiod_preload.c), which plays a script of edges, each
# stamped with its scripted time and read with those of its instant only,
# so the daemon sees the same edges in the same reads on any machine
# (DYEREF_FAKE_GPIO_EVENTS, tests/stubs/gpiod_stub.h). The faults came
# before the daemon requested the line (the script's "now"), and wait in
# the queue: the daemon comes a few seconds (a real-time budget, through
# slow.sh) before the 10 s settle after them ends, so the test sees the
# line red, then green, without waiting the settle out. With `[sensors]
# floor0 = 24` alone:
# - the issue's recording, a floating floor strip (one edge, then 1,499
#   edges 1 us apart): no throw, the strip and the log name floor0 and
#   why, and once the line has looked sane for 10 s it is green again by
#   itself; a hit after that reaches fusion, and a throw the floor strip
#   alone felt is held for an official (BD-P14, BD-T3), not ruled blind;
# - chatter at 8 edges a hit (a comparator at its threshold), which the
#   old check (10 a hit) never flagged: from the third hit on the line is
#   quarantined, and the throws the first made are reviewed.
# The old daemon ruled a throw for the first edge (and one for each
# chattering hit) without review, and kept the strip green.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
. "$(dirname "$0")/lib/gpio_stub.sh"
command -v jq >/dev/null || { echo "jq is not installed"; exit 77; }

# edge GAP_MS [LINE]: one rising edge GAP_MS after the previous one.
edge() { printf '%s rising %s\n' "${2:-24}" "$1" >> "$script"; }
# now_before_settle [STEP_S]: the daemon requests the lines a few seconds
# (the test's checks' budget, at most the settle) before the 10 s settle
# after the last edge so far ends; the line stays red that long. With
# STEP_S (hits that far apart), the time is STEP_S / 2 off any earlier
# hit's settle: a quarantine the daemon sees does not end as it reads.
now_before_settle() {
	awk -v r="$(slow 4)" -v step="${1:-0}" 'BEGIN {
		if (step > 0) r = (int((r - step / 2) / step) + 1) * step + step / 2
		while (r > 10) r -= step > 0 ? step : r - 10
		printf "now %d\n", 10000 - r * 1000
	}' >> "$script"
}

# A match under way (the daemon restores it before it requests the lines,
# so every edge reaches it), throws held for an official.
write_config "$WORK/c.ini" "[sensors]" "floor0 = 24" "[fusion]" "review = wait"
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","teams":{"A":["a1","a2"],"B":["b1","b2"]}}'
stop_daemon

# ---- floating: the recording ----
script=$WORK/floating
: > "$script"
edge 500
for _ in $(seq 1 1499); do edge 0.001; done
now_before_settle
# A real hit 1 s after the settle (sane 10 s after the burst): the edge
# and two rings 0.8 ms apart.
edge 11000; edge 0.8; edge 0.8
DYEREF_FAKE_GPIO_EVENTS=$script DYEREF=$WORK/dyeref-on-stub start_daemon --config "$WORK/c.ini"
sensors() { state | jq -c .health.sensors; }
poll_until 10 grep -q "sensors: floor0 (line 24) floating: 16 edges in 0.015 ms; its edges reach no impact until it has looked sane for 10 s" "$WORK/daemon.log" ||
	fail "no quarantine of floor0 in the log: $(grep sensors "$WORK/daemon.log")"
# Red while quarantined: the strip names the line and why, the console
# has the figures.
poll_until 10 sh -c "curl -s --max-time $(slow 10) $BASE/api/state | jq -e '.health.sensors.ok == false' >/dev/null" ||
	fail "the strip stayed green: $(sensors)"
[ "$(sensors)" = '{"ok":false,"text":"0 of 1 piezo lines ok; floor0 floating"}' ] ||
	fail "the strip does not name floor0 floating: $(sensors)"
login
console_status | jq -e '.sensors.detail | test("^0 of 1 piezo lines ok; floor0 \\(gpiochip0 line 24\\) floating: 16 edges in 0.015 ms, quarantined$")' >/dev/null ||
	fail "the console does not say why: $(console_status | jq -c .sensors)"
state | jq -e '.throws == 0 and .review == null' >/dev/null ||
	fail "the floating line made a throw: $(state | jq -c '{throws, review}')"
# Sane 10 s after the burst: green by itself.
poll_until 20 sh -c "curl -s --max-time $(slow 10) $BASE/api/state | jq -e '.health.sensors.ok' >/dev/null" ||
	fail "floor0 did not turn green after it settled: $(sensors)"
grep -q "sensors: floor0 (line 24) has looked sane for 10 s: trusted again" "$WORK/daemon.log" ||
	fail "the log does not say floor0 is trusted again"
# The hit after it: a floor strip alone, held for an official.
poll_until 10 sh -c "curl -s --max-time $(slow 10) $BASE/api/state | jq -e '.review != null' >/dev/null" ||
	fail "the hit after the settle made no throw: $(state | jq -c '{throws, review}')"
state | jq -e '.throws == 0 and .review.counted == false and (.review.why | test("only floor, cup or mine sensors felt it.*BD-T3"))' >/dev/null ||
	fail "the floor-only throw is not held for review: $(state | jq -c '{throws, review}')"
stop_daemon

# ---- chatter: 6 hits of 8 edges 0.8 ms apart, 1.5 s apart ----
rm -f "$WORK"/dyeref.db*
write_config "$WORK/count.ini" "[sensors]" "floor0 = 24" "[fusion]" "review = count"
start_daemon --config "$WORK/count.ini"
login
command_ok '{"cmd":"start","teams":{"A":["a1","a2"],"B":["b1","b2"]}}'
stop_daemon
script=$WORK/chatter
: > "$script"
for _ in 1 2 3 4 5 6; do
	edge 1500
	for _ in 1 2 3 4 5 6 7; do edge 0.8; done
done
now_before_settle 1.5
DYEREF_FAKE_GPIO_EVENTS=$script DYEREF=$WORK/dyeref-on-stub start_daemon --config "$WORK/count.ini"
# Quarantined at the third hit's seventh edge: the stub hands each edge
# (each its own instant) in a read of its own, so the log names that
# edge's figures on any machine.
poll_until 15 grep -q "sensors: floor0 (line 24) chattering: 3 hits in a row of 7 edges or more; its edges reach no impact" "$WORK/daemon.log" ||
	fail "no quarantine of the chattering floor0 in the log: $(grep sensors "$WORK/daemon.log")"
state | jq -e '.health.sensors == {"ok":false,"text":"0 of 1 piezo lines ok; floor0 chattering"}' >/dev/null ||
	fail "the strip does not name floor0 chattering: $(sensors)"
# Trusted again 10 s after the last hit's last edge.
poll_until 30 grep -q "sensors: floor0 (line 24) has looked sane for 10 s: trusted again" "$WORK/daemon.log" ||
	fail "the chattering floor0 was not trusted again after it settled"
# Hits 1-3 reached fusion (the third shows it 4.8 ms in, after it was let
# through): three floor-only throws, each under review; hits 4-6 none.
state | jq -e '.throws == 3 and .review.awaiting == 3 and (.review.why | test("only floor, cup or mine sensors felt it"))' >/dev/null ||
	fail "the chattering line's throws: $(state | jq -c '{throws, review}')"
stop_daemon
echo ok
