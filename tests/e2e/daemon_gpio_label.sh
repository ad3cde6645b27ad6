#!/bin/bash
# The health strip turns red when the sensors' chip is not a Raspberry Pi's
# header (a Pi 5 on an older kernel, whose gpiochip0 is the SoC's
# 'gpio-brcmstb@107d508500' and the header gpiochip4): the real daemon on
# the libgpiod stub, preloaded (tests/stubs/gpiod_preload.c), its chip
# labelled as each case says. /api/state's health and, where chromium is
# installed, the board's strip (screenshots in tests/artefacts/): the state
# and a short reason, never the chip, which with the fix is the console's
# (/console/api/status).
set -eu
. "$(dirname "$0")/lib/daemon.sh"
. "$(dirname "$0")/lib/gpio_stub.sh"
chromium=$(command -v chromium || command -v chromium-browser || true)
command -v node >/dev/null || chromium=
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/tests/artefacts
mkdir -p "$out"
sensors() { state | grep -o '"sensors":{"ok":[a-z]*,"text":"[^"]*"}'; }

# run NAME LABEL CHIP_LINE: the daemon on a fake chip labelled LABEL; sets
# S (the health's sensors item), C (the console's, with its detail) and,
# with chromium, B (the board's strip, its screenshot
# tests/artefacts/strip-NAME.png). Neither S nor B names a chip.
run() {
	write_config "$WORK/c.ini" "[sensors]" "$3"
	DYEREF_FAKE_GPIO_LABEL=$2 DYEREF=$WORK/dyeref-on-stub start_daemon --config "$WORK/c.ini"
	S=$(sensors)
	echo "$S" | grep -q gpiochip && fail "the public state names the chip: $S"
	login
	C=$(console_status | grep -o '"sensors":{[^}]*}')
	B=
	if [ -n "$chromium" ]; then
		B=$(node "$(dirname "$0")/lib/board_strip.js" "$chromium" "$BASE" "$out" \
			"strip-$1.png" sensors) || fail "browser: $B"
		echo "$B" | grep -q gpiochip && fail "the board's strip names the chip: $B"
	fi
	stop_daemon
}

# A Pi 5 on an older kernel, no chip named: the default gpiochip0 is not
# the header. Not ok; the console and the log say which chip it is and
# what to set.
run soc gpio-brcmstb@107d508500 "#chip: the default"
echo "$S" | grep -q '"ok":false,"text":"[0-9]* piezo lines, on a chip that is not the Pi.s header"' ||
	fail "the strip does not warn of the SoC's chip: $S"
echo "$C" | grep -q "\"detail\":\"[0-9]* piezo lines: gpiochip0 is 'gpio-brcmstb@107d508500', not a Raspberry Pi's header.*set \[sensors\] chip" ||
	fail "the console does not name the chip and the fix: $C"
grep -q "gpiochip0 is 'gpio-brcmstb@107d508500', not a Raspberry Pi's header" "$WORK/daemon.log" ||
	fail "the log does not name the chip's label"
[ -z "$chromium" ] || echo "$B" | grep -q '^bad sensors: [0-9]* piezo lines, on a chip that is not the Pi.s header' ||
	fail "the board's strip is not red with the warning: $B"

# The header itself (a Pi 5 on a newer kernel): ok, on the board too.
run header pinctrl-rp1 "#chip: the default"
echo "$S" | grep -q '"ok":true,"text":"[0-9]* piezo lines ok' || fail "the Pi's header is not ok: $S"
echo "$C" | grep -q '"detail":"[0-9]* piezo lines ok on gpiochip0 ' || fail "the console does not name the chip: $C"
[ -z "$chromium" ] || echo "$B" | grep -q '^ok sensors: [0-9]* piezo lines ok' ||
	fail "the board's strip is not ok on the Pi's header: $B"

# A chip the owner named is taken as chosen, whatever its label.
run chosen gpio-brcmstb@107d508500 "chip = gpiochip4"
echo "$S" | grep -q '"ok":true' || fail "a chip named in [sensors] still warned: $S"
echo "$C" | grep -q '"detail":"[0-9]* piezo lines ok on gpiochip4 ' || fail "the console does not name the chip: $C"
[ -n "$chromium" ] || { echo "ok (the health JSON only: chromium or node is not installed)"; exit 0; }
echo "ok"
