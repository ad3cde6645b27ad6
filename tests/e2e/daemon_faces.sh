#!/bin/bash
# Learning at the table (docs/vision.md, "Retraining on your own table"):
# the simulated table's camera reads a die at rest; the official, with the
# console's session and CSRF token like any correction, confirms its face,
# then sets another (the later word stands), each stored with who and
# when and shown in the throw's detail, and nothing else changed: the
# throw's ruling and detail, the match, its log and the event log's rows
# are as they were (training data, no ruling); bad match, throw, snapshot or face
# is a 4xx that stores nothing. `dyeref faces export` then writes the
# labelled crop (a JPEG that decodes and shows a die) and labels.json in
# the shared photo sets' format; a missing or bad database, or an output
# folder it cannot use, is one line, exit 2, nothing left behind.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
# shellcheck source=tests/e2e/lib/faces.sh
. "$(dirname "$0")/lib/faces.sh"
detail "$k" | grep -q '"label":null' || fail "a label before any was given: $(detail "$k")"

face="{\"cmd\":\"face\",\"match\":1,\"throw\":$k,\"snapshot\":$snap"
[ "$(status_of -H 'Content-Type: application/json' --data-binary "$face,\"confirm\":true}" \
	"$BASE/console/api/command")" = 403 ] || fail "a label without a session taken"
login
# Hostile: nothing of it is stored.
for bad in "$face,\"face\":7}" "$face,\"face\":0}" "$face}" "$face,\"face\":2,\"confirm\":true}" \
	"{\"cmd\":\"face\",\"match\":1,\"throw\":$k,\"snapshot\":0,\"face\":2}"; do
	[ "$(command_status "$bad")" = 400 ] || fail "$bad -> $(cat "$WORK/last"), want 400"
done
for bad in "{\"cmd\":\"face\",\"match\":1,\"throw\":99,\"snapshot\":$snap,\"face\":2}" \
	"{\"cmd\":\"face\",\"match\":99,\"throw\":1,\"snapshot\":$snap,\"face\":2}" \
	"{\"cmd\":\"face\",\"match\":1,\"throw\":$k,\"snapshot\":$((snap + 1000)),\"face\":2}"; do
	[ "$(command_status "$bad")" = 404 ] || fail "$bad -> $(cat "$WORK/last"), want 404"
done
grep -q 'no throw 99' "$WORK/last" 2>/dev/null || grep -q "no snapshot $((snap + 1000))" "$WORK/last" ||
	fail "the refusal does not say why: $(cat "$WORK/last")"
detail "$k" | grep -q '"label":null' || fail "a refused label was stored: $(detail "$k")"

# A label is training data, no ruling: the throw's detail (but its
# labels), /api/state, the match list, the match log `dyeref export` writes
# and the event log's rows (entries, rulings: MQTT's outbox, observations,
# match end) stay as they were, while the labels are stored. Each is
# something a label taken for a confirmation or a correction changes.
facts() { # NAME: all of it, into $WORK/NAME.*
	curl -s --max-time "$(slow 10)" "$BASE/api/state" > "$WORK/$1.state"
	detail "$k" > "$WORK/$1.detail"
	curl -s --max-time "$(slow 10)" "$BASE/api/matches" > "$WORK/$1.matches"
	"$DYEREF" export --db "$WORK/dyeref.db" --match 1 > "$WORK/$1.log" || fail "export ($1): exit $?"
	python3 - "$WORK/dyeref.db" "$k" > "$WORK/$1.rows" <<'EOF' || fail "the event log's rows ($1)"
import json, sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
one = lambda q, *a: db.execute(q, a).fetchone()[0]
print(json.dumps({
    "entries": one("SELECT count(*) FROM entries WHERE match_id = 1"),
    "last_seq": one("SELECT max(seq) FROM entries WHERE match_id = 1"),
    "rulings": one("SELECT count(*) FROM rulings WHERE match_id = 1"),
    "last_ruling": one("SELECT max(id) FROM rulings"),
    "observations": one("SELECT count(*) FROM observations o JOIN entries e ON e.id = o.entry_id"
                        " WHERE e.match_id = 1"),
    "ended": one("SELECT count(*) FROM match_ends WHERE match_id = 1"),
    "labels": one("SELECT count(*) FROM face_labels WHERE match_id = 1 AND throw_no = ?", int(sys.argv[2])),
}))
EOF
}
facts before
command_ok "$face,\"confirm\":true}"
grep -q "\"label\":{\"face\":$read_face,\"confirmed\":true" "$WORK/last" ||
	fail "the confirmation's answer: $(cat "$WORK/last")"
detail "$k" | grep -q "\"label\":{\"face\":$read_face,\"confirmed\":true,\"read_face\":$read_face,\"official\":\"official\",\"wall_ms\":[0-9]" ||
	fail "the confirmation not in the throw's detail: $(detail "$k")"
# The official thinks again: another face, the later word stands.
other=$((read_face % 6 + 1))
command_ok "$face,\"face\":$other,\"reason\":\"seen close up\"}"
detail "$k" | grep -q "\"label\":{\"face\":$other,\"confirmed\":false,\"read_face\":$read_face,.*\"reason\":\"seen close up\"}" ||
	fail "the face set not in the throw's detail: $(detail "$k")"
facts after
python3 - "$WORK" <<'EOF' || fail "a face label changed the ruling, the match or its log"
import json, sys
w = sys.argv[1]
def load(name):
    return json.load(open(w + "/" + name))
def detail(name):
    d = load(name)
    for s in d["snapshots"]:
        s.pop("label")
    return d
b, a = detail("before.detail"), detail("after.detail")
assert "ruling" in b and b["snapshots"], b
assert b == a, ("the throw's detail", b, a)
assert load("before.state") == load("after.state"), "/api/state"
assert load("before.matches") == load("after.matches"), ("the match list", load("before.matches"),
                                                          load("after.matches"))
lb, la = open(w + "/before.log").read(), open(w + "/after.log").read()
assert lb.count("\n") >= 3 and lb == la, ("the exported match log", lb, la)
rb, ra = load("before.rows"), load("after.rows")
# Stored (so that the rest is no vacuous pass): both labels, nothing else.
assert rb["labels"] == 0 and ra["labels"] == 2, (rb, ra)
rb.pop("labels"), ra.pop("labels")
assert rb["entries"] >= 2 and rb == ra, ("the event log's rows", rb, ra)
EOF
stop_daemon

out=$WORK/faces
"$DYEREF" faces export --db "$WORK/dyeref.db" --out "$out" > "$WORK/export.out" 2> "$WORK/export.err" ||
	fail "faces export: exit $?: $(cat "$WORK/export.err")"
grep -q "1 labelled dice" "$WORK/export.out" || fail "faces export said: $(cat "$WORK/export.out")"
name=match-1-throw-$k-die-$snap.jpg
[ "$(stat -c %a "$out")" = "$(printf '%o' $((0777 & ~$(umask))))" ] || fail "the folder's mode: $(stat -c %a "$out")"
[ "$(cd "$out" && ls | sort | tr '\n' ' ')" = "labels.json $name " ] || fail "faces export wrote: $(ls -a "$out")"
python3 - "$out" "$name" "$other" <<'EOF' || fail "labels.json: $(cat "$out/labels.json")"
import json, sys
out, name, face = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(out + "/labels.json"))
assert list(d) == [name], d
e = d[name]
assert set(e) == {"width", "height", "dice"} and len(e["dice"]) == 1, e
die = e["dice"][0]
assert set(die) == {"face", "x", "y", "w", "h"} and die["face"] == face, die
assert 0 < die["x"] < e["width"] and 0 < die["y"] < e["height"], e
assert 4 < die["w"] == die["h"] < min(e["width"], e["height"]), e
EOF
# The crop decodes, at the size labels.json gives, and shows a die where its box is.
"$DYEREF" dice "$out/$name" > "$WORK/dice.json" || fail "dyeref dice on the crop: exit $?"
python3 - "$out" "$name" "$WORK/dice.json" <<'EOF' || fail "the crop: $(cat "$WORK/dice.json")"
import json, sys
out, name, got = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
e = json.load(open(out + "/labels.json"))[name]
box = e["dice"][0]
dice = got["dice"] if isinstance(got, dict) else got[0]["dice"]
assert any(abs(d["x"] - box["x"]) < box["w"] / 2 and abs(d["y"] - box["y"]) < box["h"] / 2 for d in dice), (dice, box)
EOF

# Refused, one line, exit 2, nothing left behind.
export_refused() { # WHAT DB OUT
	local rc=0
	"$DYEREF" faces export --db "$2" --out "$3" > "$WORK/r.out" 2> "$WORK/r.err" || rc=$?
	[ "$rc" = 2 ] || fail "$1: exit $rc, want 2: $(cat "$WORK/r.err")"
	[ "$(wc -l < "$WORK/r.err")" = 1 ] || fail "$1: not one line: $(cat "$WORK/r.err")"
	[ -s "$WORK/r.out" ] && fail "$1: wrote to stdout: $(cat "$WORK/r.out")"
	[ -z "$(find "$WORK" -maxdepth 2 -name '.*.??????')" ] || fail "$1: left a folder: $(ls -a "$WORK")"
	return 0
}
export_refused "a missing database" "$WORK/none.db" "$WORK/f1"
[ ! -e "$WORK/f1" ] || fail "a missing database left its --out"
grep -q "none.db" "$WORK/r.err" || fail "the missing database not named: $(cat "$WORK/r.err")"
printf 'not a database at all, not at all, no\n' > "$WORK/junk.db"
export_refused "a file that is no database" "$WORK/junk.db" "$WORK/f2"
[ ! -e "$WORK/f2" ] || fail "a bad database left its --out"
export_refused "a folder that is not empty" "$WORK/dyeref.db" "$out"
[ "$(cd "$out" && ls | wc -l)" = 2 ] || fail "a refused export touched the folder there"
export_refused "a folder under a file" "$WORK/dyeref.db" "$WORK/junk.db/faces"
grep -q "junk.db/faces" "$WORK/r.err" || fail "the folder not named: $(cat "$WORK/r.err")"
# A crop doctored in the file (the triggers stop an UPDATE, not an INSERT):
# refused by name, nothing written.
if command -v sqlite3 >/dev/null; then
	cp "$WORK/dyeref.db" "$WORK/doctored.db"
	sqlite3 "$WORK/doctored.db" "INSERT INTO face_labels SELECT id + 1, match_id, throw_no, snapshot_id + 1, face,
		confirmed, read_face, read_confidence, X'FFD8FFE0DEADBEEF', width, height, x, y, w, h, official,
		reason, t_ns, wall_ms FROM face_labels ORDER BY id DESC LIMIT 1"
	export_refused "a doctored crop" "$WORK/doctored.db" "$WORK/f3"
	[ ! -e "$WORK/f3" ] || fail "a doctored crop left its --out"
	grep -q "face label [0-9]*: its crop is not the JPEG" "$WORK/r.err" || fail "the doctored row not named: $(cat "$WORK/r.err")"
fi
# Durable: the folder written is fsync'd before it is renamed to DIR, and
# DIR's parent after (the rename itself on disk).
if command -v strace >/dev/null && strace -o /dev/null true 2>/dev/null; then
	# LeakSanitizer cannot run under ptrace: the leak check is the other runs'.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -y -e trace=fsync,rename -o "$WORK/strace" "$DYEREF" faces export --db "$WORK/dyeref.db" \
		--out "$WORK/durable" > /dev/null || fail "faces export under strace: exit $?"
	python3 - "$WORK/strace" "$WORK" <<'EOF' || fail "the folders not fsync'd: $(grep -v '^---' "$WORK/strace")"
import re, sys
lines, work = open(sys.argv[1]).read().splitlines(), sys.argv[2]
ren = [i for i, l in enumerate(lines) if "rename(" in l and "durable" in l]
assert ren, lines
tmp = re.search(r'rename\("([^"]*)"', lines[ren[0]]).group(1)
def synced(path, rng):
    return any(re.search(r'fsync\(\d+<' + re.escape(path) + r'>\) += 0', lines[i]) for i in rng)
assert synced(tmp, range(ren[0])), "temp folder " + tmp
assert synced(work, range(ren[0] + 1, len(lines))), "parent " + work
EOF
fi
# An empty folder given is filled, as a new one is.
mkdir "$WORK/empty"
"$DYEREF" faces export --db "$WORK/dyeref.db" --out "$WORK/empty/" > /dev/null || fail "into an empty folder: exit $?"
[ -f "$WORK/empty/$name" ] || fail "the empty folder not filled: $(ls -a "$WORK/empty")"
echo ok
