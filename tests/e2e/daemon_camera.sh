#!/bin/bash
# The camera glue (daemon/camera_glue.c): [camera] config checked with line
# numbers (the lines `dyeref calibrate camera` prints are accepted); no
# camera on the machine: the daemon says so on the health strip and still
# referees; a Y4M file as the camera: a rendered throw's frames go through
# the tracker into fusion (camera observations in the throw) and the ruled
# throw gets a JPEG snapshot served for the replay; the health strip shows
# the rate frames come at; a file removed turns it red, put back green
# again by itself. The strip (public) says what is wrong in a few
# words; the whole message, with the file's path, is the console's
# (/console/api/status).
set -eu
. "$(dirname "$0")/lib/daemon.sh"
CAM_THROW=${BUILD:-$(dirname "$DYEREF")}/tests/cam_throw
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}

# --- config: calibrate's output is accepted; malformed values are refused with their line.
"$DYEREF" calibrate camera "$TOP/tests/data/table-tilted.png" > "$WORK/cal.ini" 2> "$WORK/cal.err" ||
	{ cat "$WORK/cal.err"; fail "calibrate camera failed"; }
grep -q '^homography = ' "$WORK/cal.ini" || fail "calibrate printed no homography"
write_config "$WORK/ok.ini"
cat "$WORK/cal.ini" >> "$WORK/ok.ini"
printf 'enable = true\nlow_width = 640\nlow_height = 360\nfull_width = 1920\nfull_height = 1080\n' >> "$WORK/ok.ini"
"$DYEREF" serve --check-config --config "$WORK/ok.ini" > "$WORK/out" 2>&1 ||
	{ cat "$WORK/out"; fail "--check-config refused calibrate's [camera] lines"; }

bad() { # bad 'key = value' 'expected message part'
	write_config "$WORK/bad.ini" "[camera]" "$1"
	local line; line=$(grep -n -F "$1" "$WORK/bad.ini" | cut -d: -f1)
	local rc=0
	"$DYEREF" serve --check-config --config "$WORK/bad.ini" > "$WORK/out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "'$1': --check-config exited $rc, not 2: $(cat "$WORK/out")"
	grep -q "bad.ini:$line:.*$2" "$WORK/out" || fail "'$1': no 'bad.ini:$line: ... $2' in: $(cat "$WORK/out")"
}
bad 'homography = 1,2,3' 'camera.homography'
bad 'homography = 0,0,0,0,0,0,0,0,0' 'singular'
bad 'corner_a_left = 10,x' 'camera.corner_a_left'
bad 'low_width = 9999999' 'low_width'
bad 'enable = perhaps' 'enable'
bad 'full_width = 1920' 'full_width and full_height'
bad 'y4m =' 'camera.y4m'

# --- no camera here: health says so, and the console still referees.
write_config "$WORK/nocam.ini"
cat "$WORK/cal.ini" >> "$WORK/nocam.ini"
start_daemon --config "$WORK/nocam.ini"
state | grep -q '"camera":{"ok":false,"text":"camera: not found"}' ||
	fail "no 'camera: not found' on the health strip: $(state)"
login
console_status | grep -q '"camera":{"ok":false,"text":"camera: not found","detail":"camera: no camera found"}' ||
	fail "the console does not have libcamera's words: $(console_status)"
command_ok '{"cmd":"start"}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}'
[ "$(score_of)" = '"score":{"A":1,"B":0}' ] || fail "no ruling without a camera: $(score_of)"
stop_daemon
rm -f "$WORK"/dyeref.db*	# the next daemon starts afresh

# --- a rendered throw as the camera: observations, a ruling, a snapshot.
[ -x "$CAM_THROW" ] || fail "$CAM_THROW not built (make unit)"
"$CAM_THROW" "$WORK/throw.y4m" 18 > /dev/null || fail "cam_throw failed"
write_config "$WORK/y4m.ini" "[camera]" "y4m = $WORK/throw.y4m" "[fusion]" "review = count"
start_daemon --config "$WORK/y4m.ini"
state | grep -Eq '"camera":\{"ok":true,"text":"camera 640x360( at [0-9]+ fps)? \(from a file\)"' ||
	fail "file camera not up: $(state)"
login
command_ok '{"cmd":"start"}'
# The file loops (3.3 s a pass); the first pass may have begun before the
# match did, so throw 2 is the first whole one seen from its release.
for _ in $(seq 1 "$(slow_n 200)"); do
	state | grep -q '"throws":[2-9]' && break
	sleep 0.1
done
state | grep -q '"throws":[2-9]' || fail "no throws ruled from the camera's frames: $(state)"
d=$(curl -s --max-time "$(slow 10)" "$BASE/api/matches/1/throws/2")
echo "$d" | grep -q '"kind":"toss","source":"camera"' || fail "no camera toss in throw 2: $d"
echo "$d" | grep -q '"at":"table","half":"[AB]","x":[0-9.]*,"y":[0-9.]*,"source":"camera"' ||
	fail "no camera landing in throw 2: $d"
echo "$d" | grep -Eq '"snapshots":\[\{"index":1,"t_ms":[0-9.]+,"face":(null|[1-6]),"confidence":[^,]*,"die":\{"x":[0-9.]+,"y":[0-9.]+,"r":[0-9.]+\},"width":640,"height":360,"id":[0-9]+,"label":null\}' ||
	fail "no snapshot with its metadata listed for throw 2: $d"
curl -s --max-time "$(slow 10)" -o "$WORK/snap.jpg" -w '%{http_code} %{content_type}' \
	"$BASE/api/matches/1/throws/2/snapshots/1.jpg" > "$WORK/code"
[ "$(cat "$WORK/code")" = "200 image/jpeg" ] || fail "snapshot: $(cat "$WORK/code")"
[ "$(head -c 3 "$WORK/snap.jpg" | od -An -tx1 | tr -d ' ')" = ffd8ff ] || fail "snapshot is not a JPEG"
[ "$(status_of "$BASE/api/matches/1/throws/2/snapshots/99.jpg")" = 404 ] || fail "missing snapshot not 404"
# By its id (what the pages ask, so that a pruned earlier picture cannot
# put another in its place): the same picture; an id not the throw's is
# 404, one that is no id 400.
sid=$(echo "$d" | sed -n 's/.*"snapshots":\[{"index":1,[^]]*"id":\([0-9]*\).*/\1/p')
[ -n "$sid" ] || fail "no snapshot id in throw 2: $d"
curl -s --max-time "$(slow 10)" -o "$WORK/snap_id.jpg" \
	"$BASE/api/matches/1/throws/2/snapshots/1.jpg?id=$sid" || fail "snapshot by id"
cmp -s "$WORK/snap.jpg" "$WORK/snap_id.jpg" || fail "snapshot $sid by id is not snapshot 1"
[ "$(status_of "$BASE/api/matches/1/throws/2/snapshots/1.jpg?id=$((sid + 100000))")" = 404 ] ||
	fail "another id's snapshot not 404"
for bad in 0 abc -1 1e3 99999999999999999999 ''; do
	[ "$(status_of "$BASE/api/matches/1/throws/2/snapshots/1.jpg?id=$bad")" = 400 ] ||
		fail "snapshot id '$bad' not 400"
done
[ "$(status_of "$BASE/api/matches/1/throws/2/snapshots/1.png")" = 404 ] || fail "bad snapshot name not 404"
# The strip shows the rate frames come at: the file's own.
rate=$(head -c 100 "$WORK/throw.y4m" | head -n 1 | sed -n 's/.* F\([0-9]*\):1 .*/\1/p')
[ -n "$rate" ] || fail "no frame rate in the file's header"
state | grep -q "\"text\":\"camera 640x360 at $rate fps (from a file)\"" ||
	fail "no 'camera 640x360 at $rate fps' on the health strip: $(state)"
state | grep -qF "$WORK" && fail "the public state names the file: $(state)"
console_status | grep -qF "\"detail\":\"camera 640x360 at $rate fps from the file $WORK/throw.y4m\"" ||
	fail "the console does not name the file: $(console_status)"
stop_daemon
"$DYEREF" replay --db "$WORK/dyeref.db" --match 1 --throw 2 | grep -q '"item":"snapshot"' ||
	fail "dyeref replay shows no snapshot for throw 2"

# --- the file cut short in its 11th frame (640x360 mono: 230400 bytes and
# "FRAME\n" each): the strip turns red without the file's path, which the
# console has with the frame.
hl=$(head -n 1 "$WORK/throw.y4m" | wc -c)
head -c $((hl + 10 * (640 * 360 + 6) + 1000)) "$WORK/throw.y4m" > "$WORK/cut.y4m"
write_config "$WORK/cut.ini" "[camera]" "y4m = $WORK/cut.y4m"
start_daemon --config "$WORK/cut.ini"
for _ in $(seq 1 "$(slow_n 100)"); do
	state | grep -q '"camera":{"ok":false' && break
	sleep 0.1
done
state | grep -q '"camera":{"ok":false,"text":"camera: the video file could not be read"}' ||
	fail "no 'camera: the video file could not be read' on the strip: $(state)"
state | grep -qF "$WORK" && fail "the public state names the file: $(state)"
login
console_status | grep -qF "\"detail\":\"camera: $WORK/cut.y4m: frame 11: truncated\"" ||
	fail "the console does not name the file and the frame: $(console_status)"
stop_daemon

# --- a camera that comes back turns green by itself: the file removed is
# red once its pass (3.3 s, played from the open file) ends; put back, it
# is tried within a second and plays again.
cp "$WORK/throw.y4m" "$WORK/live.y4m"
write_config "$WORK/live.ini" "[camera]" "y4m = $WORK/live.y4m"
start_daemon --config "$WORK/live.ini"
cam_ok() { curl -s --max-time "$(slow 10)" "$BASE/api/state" | grep -q "\"camera\":{\"ok\":$1,"; }
cam_ok true || fail "file camera not up: $(state)"
rm "$WORK/live.y4m"
poll_until 10 cam_ok false || fail "the camera stayed green with its file gone: $(state)"
state | grep -q '"camera":{"ok":false,"text":"camera: the video file could not be read"}' ||
	fail "no 'camera: the video file could not be read' on the strip: $(state)"
login
console_status | grep -qF "\"detail\":\"camera: $WORK/live.y4m: No such file or directory\"" ||
	fail "the console does not say the file is gone: $(console_status)"
cp "$WORK/throw.y4m" "$WORK/live.y4m"
poll_until 5 cam_ok true || fail "the camera stayed red with its file back: $(state)"
grep -qF "camera: $WORK/live.y4m reads again" "$WORK/daemon.log" || fail "the log does not say the file reads again"
stop_daemon
echo ok
