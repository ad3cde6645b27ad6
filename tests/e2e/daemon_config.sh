#!/bin/bash
# Configuration errors come with their lines (all of them, exit 2); a
# missing sensor chip or camera does not stop the daemon, the scoreboard's
# health strip says so.
set -eu
. "$(dirname "$0")/lib/daemon.sh"

cat > "$WORK/bad.ini" <<'INI'
[web]
bind = 127.0.0.1
port = eighty
pin = 12

[house]
target_points = 0
low_call = sometimes
colour = red

[fusion]
review = maybe
INI
rc=0
"$DYEREF" serve --config "$WORK/bad.ini" --check-config > "$WORK/out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "check-config exit $rc, want 2"
grep -q "bad.ini:3: web.port" "$WORK/out" || fail "port error without line 3: $(cat "$WORK/out")"
grep -q "bad.ini:4: web.pin" "$WORK/out" || fail "pin error without line 4"
grep -q "bad.ini:7: house.target_points" "$WORK/out" || fail "target_points error without line 7"
grep -q "bad.ini:8: house.low_call" "$WORK/out" || fail "low_call error without line 8"
grep -q "bad.ini:9: unknown key house.colour" "$WORK/out" || fail "unknown key without line 9"
grep -q "bad.ini:12: fusion.review" "$WORK/out" || fail "review error without line 12"

# Not a configuration at all: an endless stream of NUL bytes and a file of
# megabytes are refused at once (the reader stops), not read to the end.
rc=0
timeout "$(slow 30)" "$DYEREF" serve --config /dev/zero --check-config > "$WORK/out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "--config /dev/zero: exit $rc, want 2: $(cat "$WORK/out")"
grep -q "/dev/zero:1: a NUL byte" "$WORK/out" || fail "/dev/zero: $(cat "$WORK/out")"
for i in $(seq 1 40000); do echo "key$i = $i"; done > "$WORK/huge.ini"
rc=0
timeout "$(slow 30)" "$DYEREF" serve --config "$WORK/huge.ini" --check-config > "$WORK/out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "a 600 kB config: exit $rc, want 2"
grep -q "huge.ini:1: unknown key" "$WORK/out" || fail "600 kB config: $(head -c 300 "$WORK/out")"
for i in $(seq 1 40000); do echo "key$i = $i$i$i$i$i$i"; done > "$WORK/huge.ini"
rc=0
timeout "$(slow 30)" "$DYEREF" serve --config "$WORK/huge.ini" --check-config > "$WORK/out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "a 1.4 MB config: exit $rc, want 2"
grep -q "huge.ini:[0-9]*: larger than 1048576 bytes" "$WORK/out" || fail "1.4 MB config: $(head -c 300 "$WORK/out")"
# Serving with it refuses too, with the same messages, and binds nothing.
rc=0
"$DYEREF" serve --config "$WORK/bad.ini" > "$WORK/out2" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "serve with a bad config exit $rc, want 2"
grep -q "bad.ini:3: web.port" "$WORK/out2" || fail "serve did not report the bad port"
printf '[web\nport = 1\n' > "$WORK/syntax.ini"
rc=0
"$DYEREF" serve --config "$WORK/syntax.ini" --check-config > "$WORK/out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "syntax.ini:1:" "$WORK/out" || fail "INI syntax error: rc $rc $(cat "$WORK/out")"
printf '[web]\nport = 0\n[sensors]\nwave_speed = fast\n' > "$WORK/sens.ini"
rc=0
"$DYEREF" serve --config "$WORK/sens.ini" --check-config > "$WORK/out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "sens.ini:4: sensors.wave_speed" "$WORK/out" || fail "[sensors] error: rc $rc $(cat "$WORK/out")"
# One bad value, then keys the section's reader knows: that one line,
# not also "unknown key" for the good keys after it.
: > "$WORK/frames.y4m"
printf '[camera]\nfps = abc\ny4m = %s\nlow_width = 320\n' "$WORK/frames.y4m" > "$WORK/cam1.ini"
printf '[sensors]\nwave_speed = fast\nhold_off_ms = 5\n[table]\nlength_m = 2.4\n' > "$WORK/sens1.ini"
printf '[sensors]\ntable0 = x\ntable0_x = 0.1\ntable0_y = 0.3\ncup_a1 = 5\n' > "$WORK/line1.ini"
for want in "cam1.ini:2: camera.fps: expected a whole number, got 'abc'" \
	    "sens1.ini:2: sensors.wave_speed: expected a number, got 'fast'" \
	    "line1.ini:2: sensors.table0: expected a whole number, got 'x'"; do
	f=${want%%:*}
	rc=0
	"$DYEREF" serve --config "$WORK/$f" --check-config > "$WORK/out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "$f: exit $rc, want 2"
	[ "$(cat "$WORK/out")" = "$WORK/$want" ] || fail "$f: want only '$want', got: $(cat "$WORK/out")"
done
rc=0
"$DYEREF" serve --config "$WORK/none.ini" > "$WORK/out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "none.ini" "$WORK/out" || fail "missing config file: rc $rc"
rc=0
"$DYEREF" serve --bogus > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "unknown option exit $rc"

# A good config checks clean.
write_config "$WORK/good.ini" "[house]" "target_points = 11" "[fusion]" "review = wait"
"$DYEREF" serve --config "$WORK/good.ini" --check-config > "$WORK/out" 2>&1 || fail "good config: $(cat "$WORK/out")"
grep -q "configuration OK" "$WORK/out" || fail "no OK message"
# A PIN of 4 or 5 digits is still taken (installs have them), with a
# warning naming the key and its line; one of 6 gets none.
grep -q "^dyeref: warning: $WORK/good.ini:4: web.pin: fewer than 6 digits" "$WORK/out" ||
	fail "no warning for a 4-digit PIN: $(cat "$WORK/out")"
sed 's/^pin = 4321$/pin = 43210/' "$WORK/good.ini" > "$WORK/five.ini"
"$DYEREF" serve --config "$WORK/five.ini" --check-config > "$WORK/out" 2>&1 || fail "5-digit PIN: $(cat "$WORK/out")"
grep -q "five.ini:4: web.pin: fewer than 6 digits" "$WORK/out" || fail "no warning for a 5-digit PIN: $(cat "$WORK/out")"
sed 's/^pin = 4321$/pin = 432109/' "$WORK/good.ini" > "$WORK/six.ini"
"$DYEREF" serve --config "$WORK/six.ini" --check-config > "$WORK/out" 2>&1 || fail "6-digit PIN: $(cat "$WORK/out")"
grep -q "configuration OK" "$WORK/out" && ! grep -q "web.pin" "$WORK/out" ||
	fail "a 6-digit PIN warned: $(cat "$WORK/out")"

# Sensors on a chip that is not there, a camera that is not there: it runs.
write_config "$WORK/hw.ini" "[sensors]" "chip = /dev/gpiochip-missing" "[camera]" "id = missing-camera"
start_daemon --config "$WORK/hw.ini"
grep -q "warning: $WORK/hw.ini:4: web.pin: fewer than 6 digits" "$WORK/daemon.log" ||
	fail "no PIN warning at start-up: $(cat "$WORK/daemon.log")"
s=$(state)
echo "$s" | grep -q '"sensors":{"ok":false' || fail "health does not show the sensors missing: $s"
echo "$s" | grep -q '"camera":{"ok":false' || fail "health does not show the camera missing: $s"
login
command_ok '{"cmd":"start","house":{"target_points":11}}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}'
state | grep -q '"score":{"A":1,"B":0}' || fail "cannot referee by hand without sensors"
state | grep -q '"target_points":11' || fail "house rule from the console not applied"
stop_daemon
echo ok
