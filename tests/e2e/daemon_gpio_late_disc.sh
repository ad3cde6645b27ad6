#!/bin/bash
# Issue 31's clean reproduction (tests/e2e/sensors_late_disc.sh) fed to
# `dyeref serve` on the libgpiod stub (tests/stubs/gpiod_preload.c, edges
# stamped with their scripted times): the truth is (1.19, 0.30), A's half,
# table0 (A's end disc) 500 us late; then the floor strip. The fix doubts
# its half (near_line), and with no camera to back it the daemon holds the
# throw for an official, saying why (docs/daemon.md "Fusion"). The old
# daemon read only the fix's P(half), above review_below, and ruled the
# wrong half's point at once.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
. "$(dirname "$0")/lib/gpio_stub.sh"
command -v jq >/dev/null || { echo "jq is not installed"; exit 77; }

write_config "$WORK/c.ini" "[sensors]" "table0 = 17" "table0_x = 0.05" "table0_y = 0.61" \
	"table1 = 27" "table1_x = 1.22" "table1_y = 0.05" "table2 = 22" "table2_x = 2.39" \
	"table2_y = 0.61" "table3 = 23" "table3_x = 1.22" "table3_y = 1.17" "floor0 = 24" \
	"[fusion]" "review = wait"
# A match under way (restored before the lines are requested, so every
# edge reaches it).
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","teams":{"A":["a1","a2"],"B":["b1","b2"]}}'
stop_daemon

# The recording's edges (1000629484, 1002176293, 1003098488, 1003453494 ns
# on lines 27, 23, 22, 17), 1 s after the lines are requested; the die
# reaches the floor 400 ms later.
script=$WORK/late_disc
printf '%s\n' "27 rising 1000" "23 rising 1.546809" "22 rising 0.922195" "17 rising 0.355006" \
	"24 rising 400" > "$script"
DYEREF_FAKE_GPIO_EVENTS=$script DYEREF=$WORK/dyeref-on-stub start_daemon --config "$WORK/c.ini"
poll_until 20 sh -c "curl -s --max-time $(slow 10) $BASE/api/state | jq -e '.review != null or .throws > 0' >/dev/null" ||
	fail "the impact made no throw: $(state | jq -c '{throws, score, review}')"
state | jq -e '.throws == 0 and .review.counted == false and
	(.review.why | test("table impact near the line: half doubtful \\(p [0-9.]+\\)"))' >/dev/null ||
	fail "the doubtful half was not held for review: $(state | jq -c '{throws, score, review}')"
state | jq -c .review.why
stop_daemon
echo ok
