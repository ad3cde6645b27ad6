#!/bin/bash
# The health strip says when the table is noisier than the config
# (docs/sensors.md "The measured jitter"): `dyeref serve` on the libgpiod
# stub (tests/stubs/gpiod_preload.c) plays the table edges of a simulated
# six-disc table (`dyeref sensors --sim`, faults on: 0.5 % of discs late
# 0.2-1 ms, 0.5 % missing) at 20 us of jitter, 120 impacts 40 ms apart,
# under a config that says 10 us: the strip turns red with the measured
# noise, the console says what to run; at 10 us it stays green. The old
# daemon kept it green either way.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
. "$(dirname "$0")/lib/gpio_stub.sh"
command -v jq >/dev/null || { echo "jq is not installed"; exit 77; }

six=("[sensors]" "timing_sigma_us = 10" "table0 = 17" "table1 = 27" "table2 = 22" "table3 = 23"
     "table4 = 24" "table4_x = 0.77" "table4_y = 0.61" "table5 = 25" "table5_x = 1.67" "table5_y = 0.61")
write_config "$WORK/c.ini" "${six[@]}"

# script JITTER_US: the recording's table edges as the stub's script, each
# impact's edges as recorded, impacts 40 ms apart (the sim's are 1 s)
script() {
	"$DYEREF" sensors --config "$WORK/c.ini" --sim --impacts 120 --seed 3 --jitter-us "$1" \
		--late 0.005 --missing 0.005 --record "$WORK/t$1.edges" > /dev/null
	awk 'NF == 2 && $1 !~ /^#/ { d = prev ? ($1 - prev) / 1e6 : 100; if (d > 100) d = 40
		printf "%s rising %.6f\n", $2, d; prev = $1 }' "$WORK/t$1.edges" > "$WORK/s$1"
}
sensors() { state | jq -c .health.sensors; }
last_line_time() { awk '{ t += $3 } END { printf "%d", t / 1000 + 1 }' "$1"; }

script 20
DYEREF_FAKE_GPIO_EVENTS=$WORK/s20 DYEREF=$WORK/dyeref-on-stub start_daemon --config "$WORK/c.ini"
poll_until "$(( $(last_line_time "$WORK/s20") + 10 ))" sh -c "curl -s --max-time $(slow 10) $BASE/api/state | jq -e '.health.sensors.ok == false' >/dev/null" ||
	fail "20 us on a 10 us config: the strip stayed green: $(sensors)"
sensors | jq -e '.text | test("^6 piezo lines ok; timing noise (1[5-9]|2[0-6]) us, the config says 10$")' >/dev/null ||
	fail "the strip does not give the measured noise: $(sensors)"
login
console_status | jq -e '.sensors.detail | test("^6 piezo lines ok on gpiochip0; timing noise measured [0-9.]+ us over the last [0-9]+ fits, \\[sensors\\] timing_sigma_us 10: run dyeref calibrate piezo$")' >/dev/null ||
	fail "the console does not say what to run: $(console_status | jq -c .sensors)"
stop_daemon

script 10
DYEREF_FAKE_GPIO_EVENTS=$WORK/s10 DYEREF=$WORK/dyeref-on-stub start_daemon --config "$WORK/c.ini"
# every edge played (the stub's clock), then the strip is still green
sleep "$(slow "$(last_line_time "$WORK/s10")")"
poll_until 10 sh -c "curl -s --max-time $(slow 10) $BASE/api/state | jq -e '.health.sensors.ok == true' >/dev/null" ||
	fail "10 us as configured: the strip is red: $(sensors)"
sensors | jq -e '.text | test("^6 piezo lines ok")' >/dev/null || fail "10 us: $(sensors)"
stop_daemon
echo "daemon_gpio_jitter: ok"
