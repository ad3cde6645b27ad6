#!/bin/bash
# [camera] face_net (daemon/camera_glue.c, choose_net): a weights file that
# does not load is a config error (exit 2, the file and why on one line);
# one that loads is checked at start-up on the shipped test crops against
# the built-in net: a worse one (every weight scaled down to nothing) is
# not used and the console's health detail says so with both scores; a
# copy of the built-in net is as good, and used. `dyeref dice --face-net`
# refuses the same files and reads with the net given.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
BIN=${BUILD:-$(dirname "$DYEREF")}/tests
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
CROPS=$TOP/tests/data/face-net-crops.bin
[ -x "$BIN/fnet_write" ] && [ -x "$BIN/cam_throw" ] || fail "$BIN/fnet_write or cam_throw not built (make unit)"

"$BIN/fnet_write" "$WORK/good.fnet" || fail "fnet_write failed"
"$BIN/fnet_write" "$WORK/worse.fnet" 0.05 || fail "fnet_write failed"
head -c 1000 "$WORK/good.fnet" > "$WORK/cut.fnet"
printf 'not a net\n' > "$WORK/text.fnet"

# --- a file that does not load: the config is refused, naming it and why.
bad() { # bad FILE 'expected message part'
	write_config "$WORK/bad.ini" "[camera]" "face_net = $1"
	local line; line=$(grep -n '^face_net' "$WORK/bad.ini" | cut -d: -f1)
	local rc=0
	"$DYEREF" serve --check-config --config "$WORK/bad.ini" > "$WORK/out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "face_net = $1: --check-config exited $rc, not 2: $(cat "$WORK/out")"
	grep -q "bad.ini:$line: camera.face_net: face net $1: $2" "$WORK/out" ||
		fail "face_net = $1: no 'bad.ini:$line: camera.face_net: face net $1: $2' in: $(cat "$WORK/out")"
	[ "$(grep -vc "web.pin" "$WORK/out")" = 1 ] || fail "face_net = $1: not one line: $(cat "$WORK/out")"
}
bad "$WORK/cut.fnet" 'truncated'
bad "$WORK/text.fnet" 'not a dyeref face net'
bad "$WORK/none.fnet" 'No such file'

# --- dyeref dice --face-net: the same refusals; a copy of the built-in net
# reads as it does, a worse one otherwise (the CLI uses the net as given).
PHOTO=$TOP/tests/data/dice-photos/IMG_20191208_111228.jpg
rc=0; "$DYEREF" dice --face-net "$WORK/cut.fnet" "$PHOTO" > "$WORK/out" 2> "$WORK/err" || rc=$?
[ "$rc" = 2 ] && [ ! -s "$WORK/out" ] && [ "$(wc -l < "$WORK/err")" = 1 ] &&
	grep -q "face net $WORK/cut.fnet: truncated" "$WORK/err" ||
	fail "dice --face-net cut.fnet: exit $rc, $(cat "$WORK/out" "$WORK/err")"
"$DYEREF" dice "$PHOTO" > "$WORK/builtin.json" || fail "dice failed"
"$DYEREF" dice --face-net "$WORK/good.fnet" "$PHOTO" > "$WORK/good.json" || fail "dice --face-net good failed"
"$DYEREF" dice --face-net "$WORK/worse.fnet" "$PHOTO" > "$WORK/worse.json" || fail "dice --face-net worse failed"
cmp -s "$WORK/builtin.json" "$WORK/good.json" || fail "the built-in net's copy reads otherwise"
! cmp -s "$WORK/builtin.json" "$WORK/worse.json" || fail "a net of near zeros reads as the built-in one"

# --- a net that loads, checked against the built-in one on the test crops.
"$BIN/cam_throw" "$WORK/throw.y4m" 18 > /dev/null || fail "cam_throw failed"
run_with() { # run_with FILE 'expected detail part': the daemon's console says it
	write_config "$WORK/net.ini" "[camera]" "y4m = $WORK/throw.y4m" "face_net = $1" \
		"face_net_crops = $CROPS"
	"$DYEREF" serve --check-config --config "$WORK/net.ini" > "$WORK/out" 2>&1 ||
		fail "face_net = $1: --check-config refused it: $(cat "$WORK/out")"
	start_daemon --config "$WORK/net.ini"
	login
	local s
	s=$(camera_status)
	echo "$s" | grep -Eq "$2" || fail "face_net = $1: no '$2' in the camera's health: $s"
	grep -q "camera: face net $1: " "$WORK/daemon.log" || fail "face_net = $1: not in the log"
	stop_daemon
	rm -f "$WORK"/dyeref.db*
}
run_with "$WORK/worse.fnet" \
	"face net $WORK/worse.fnet: [0-9]+ of [0-9]+ test crops right \([0-9]+ wrong at >= 0.9\), built-in [0-9]+ \([0-9]+\): kept the built-in net"
run_with "$WORK/good.fnet" \
	"face net $WORK/good.fnet: ([0-9]+) of [0-9]+ test crops right \([0-9]+ wrong at >= 0.9\), built-in \1 \([0-9]+\): in use"
echo "PASS"
