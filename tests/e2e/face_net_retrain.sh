#!/bin/bash
# A bar retrains the reader on its own table (docs/vision.md, "Retraining
# on your own table"), end to end on a small set: the official sets the
# face of a die the simulated camera read; `dyeref faces export` writes
# it; tools/fnet/retrain (make face-net's recipe) cuts crops from five
# tray photos, twenty rendered images and the export, and trains one
# epoch; the exported die is among what it learnt, under the official's
# face; the weights file it writes loads in `dyeref dice --face-net`, and
# named by [camera] face_net it is checked at start-up against the
# built-in net on the shipped test crops, and (a net of one epoch on five
# photos) not used.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
/usr/bin/python3 -c 'import torch, numpy' 2>/dev/null ||
	{ echo "python3-torch is not installed (scripts/install-deps train)"; exit 77; }
BIN=${BUILD:-$(dirname "$DYEREF")}
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
[ -x "$BIN/tools/face_crops" ] && [ -x "$BIN/tests/cam_throw" ] ||
	fail "$BIN/tools/face_crops or cam_throw not built (make unit)"
# shellcheck source=tests/e2e/lib/faces.sh
. "$(dirname "$0")/lib/faces.sh"

# --- the official's word on a die: another face than the camera's.
login
other=$((read_face % 6 + 1))
command_ok "{\"cmd\":\"face\",\"match\":1,\"throw\":$k,\"snapshot\":$snap,\"face\":$other}"
stop_daemon
"$DYEREF" faces export --db "$WORK/dyeref.db" --out "$WORK/faces" > /dev/null ||
	fail "faces export: exit $?"

# --- five tray photos (three of the tuning day, two held out) and their labels.
mkdir -p "$WORK/photos"
python3 - "$TOP/tests/data/dice-photos" "$WORK/photos" <<'EOF' || fail "the small photo set"
import json, shutil, sys
src, dst = sys.argv[1:]
labels = json.load(open(src + "/labels.json"))
names = sorted(labels)
pick = [n for n in names if "20191208" in n][:3] + [n for n in names if "20191208" not in n][:2]
json.dump({n: labels[n] for n in pick}, open(dst + "/labels.json", "w"))
for n in pick:
    shutil.copy(src + "/" + n, dst)
EOF

# --- retrain: what is written goes to $WORK, never over the committed net.
(cd "$TOP" && cksum vision/face_net_weights.c vision/face_net_weights.h tests/data/face-net-check.txt) \
	> "$WORK/committed.before"
(cd "$TOP" && FNET_PHOTOS="$WORK/photos" FNET_SETS="" FNET_RENDERED=20 FNET_EPOCHS=1 \
	FNET_OUT="$WORK/net/weights" FNET_CHECK="$WORK/net/check.txt" \
	timeout "$(slow 300)" tools/fnet/retrain "$BIN/tools/face_crops" "$WORK/net" "$WORK/faces") \
	> "$WORK/retrain.log" 2>&1 || fail "tools/fnet/retrain: exit $?: $(tail -n 5 "$WORK/retrain.log")"
grep -q '^epoch 1/1: ' "$WORK/retrain.log" || fail "no epoch trained: $(tail -n 5 "$WORK/retrain.log")"
[ -s "$WORK/net/face_net.fnet" ] && [ -s "$WORK/net/weights.c" ] && [ -s "$WORK/net/check.txt" ] ||
	fail "retrain wrote: $(ls "$WORK/net")"
(cd "$TOP" && cksum vision/face_net_weights.c vision/face_net_weights.h tests/data/face-net-check.txt) \
	> "$WORK/committed.after"
cmp -s "$WORK/committed.before" "$WORK/committed.after" || fail "retraining changed the committed net"
# train.bin's records (class, split, photo, crop): the export is the first
# set after the photos (split 4: all trained on), its die under the
# official's face, turned and shifted into several crops.
python3 - "$WORK/net/train.bin" "$other" <<'EOF' || fail "the exported die is not among the crops learnt"
import sys
raw = open(sys.argv[1], "rb").read()
size = 4 + 40 * 40 * 3
assert len(raw) % size == 0, len(raw)
recs = [raw[i:i + 2] for i in range(0, len(raw), size)]
mine = [c for c, s in recs if s == 4]
face = int(sys.argv[2])
assert mine.count(face) >= 4 and set(mine) <= {0, 7, 8, 9, face}, (face, sorted(set(mine)), len(mine))
print(f"{len(mine)} crops of the export, {mine.count(face)} of them a {face}")
EOF

# --- the weights file: read by the CLI, checked by the daemon.
"$DYEREF" dice --face-net "$WORK/net/face_net.fnet" "$WORK/photos/"*.jpg > "$WORK/dice.json" ||
	fail "dice --face-net with the retrained net: exit $?"
[ "$(wc -l < "$WORK/dice.json")" = 5 ] || fail "dice --face-net: $(cat "$WORK/dice.json")"
"$BIN/tests/cam_throw" "$WORK/throw.y4m" 18 > /dev/null || fail "cam_throw failed"
write_config "$WORK/net.ini" "[camera]" "y4m = $WORK/throw.y4m" "face_net = $WORK/net/face_net.fnet" \
	"face_net_crops = $TOP/tests/data/face-net-crops.bin"
start_daemon --config "$WORK/net.ini"
login
s=$(camera_status)
echo "$s" | grep -Eq "face net $WORK/net/face_net.fnet: [0-9]+ of 401 test crops right \([0-9]+ wrong at >= 0.9\), built-in [0-9]+ \([0-9]+\): kept the built-in net" ||
	fail "the retrained net's check not in the camera's health: $s"
stop_daemon
echo "ok"
