#!/bin/bash
# dyeref matches / export / import / replay against a real database file
# (docs/event-log.md "Commands"). Env: DYEREF (the binary).
set -u
: "${DYEREF:?DYEREF must name the dyeref binary}"
tmp=$(mktemp -d /tmp/dyeref-dbcli-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cat > "$tmp/a.jsonl" <<'LOG'
{"type":"match","game":"beerdie","teams":{"A":["a1","a2"],"B":["b1","b2"]},"house":{"target_points":10}}
{"type":"rolloff","value":5,"call":{"team":"B","call":"high"}}
{"type":"throw","events":[{"at":"table","half":"A","x":0.9,"y":0.4,"source":"piezo","confidence":0.95},{"at":"floor","source":"camera"}]}
{"type":"throw","events":[{"at":"cup","owner":"a1","sink":false},{"at":"floor"}]}
{"type":"throw","events":[{"at":"table","half":"B"},{"at":"catch","by":"b1","hands":1}]}
{"type":"correct","throw":1,"events":[{"at":"table","half":"A"},{"at":"catch","by":"a2","hands":1}]}
{"type":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}
LOG
db=$tmp/m.db

# import: prints the new id; from a file and from stdin (another log: the
# same one again is already stored, tests/e2e/db_import_once.sh).
out=$("$DYEREF" import --db "$db" "$tmp/a.jsonl") || fail "import exited $?"
[ "$out" = 1 ] || fail "import printed '$out', want 1"
out=$(sed '$d' "$tmp/a.jsonl" | "$DYEREF" import --db "$db") || fail "import from stdin exited $?"
[ "$out" = 2 ] || fail "import from stdin printed '$out', want 2"

# matches: a header and one line per match.
"$DYEREF" matches --db "$db" > "$tmp/list" || fail "matches exited $?"
[ "$(wc -l < "$tmp/list")" -eq 3 ] || fail "matches: want 3 lines, got: $(cat "$tmp/list")"
grep -Eq '^1 +beerdie .* +4 +1 +0 +ended +\{"A":1,"B":2\} +-$' "$tmp/list" || fail "matches line 1: $(sed -n 2p "$tmp/list")"

# export: the log, byte for byte; judge of it gives the stored rulings.
"$DYEREF" export --db "$db" --match 1 > "$tmp/e.jsonl" || fail "export exited $?"
cmp -s "$tmp/a.jsonl" "$tmp/e.jsonl" || fail "export differs from the imported log"
"$DYEREF" judge "$tmp/e.jsonl" > "$tmp/judged" || fail "judge of the export exited $?"
if command -v sqlite3 > /dev/null; then
	sqlite3 "$db" "SELECT line FROM rulings r WHERE match_id = 1 AND id = (SELECT max(id) FROM rulings WHERE match_id = 1 AND throw_no = r.throw_no) ORDER BY throw_no; SELECT final FROM match_ends WHERE match_id = 1" > "$tmp/stored"
	cmp -s "$tmp/judged" "$tmp/stored" || fail "judge of the export differs from the stored rulings"
fi
grep -q '"corrected":true' "$tmp/judged" || fail "the correction is not in the rulings"

# replay: the throw's observations, the throw, its ruling, the correction
# and the ruling it caused, in order.
"$DYEREF" replay --db "$db" --match 1 --throw 1 > "$tmp/replay" || fail "replay exited $?"
items=$(sed 's/.*"item":"\([a-z]*\)".*/\1/' "$tmp/replay" | tr '\n' ' ')
[ "$items" = "observation observation throw ruling correction ruling " ] || fail "replay items: '$items'"
grep -q '"item":"observation","source":"piezo","kind":"table","confidence":0.95,"detail":{"at":"table","half":"A","x":0.9,"y":0.4' "$tmp/replay" ||
	fail "replay: the table observation: $(head -1 "$tmp/replay")"

# Replay stays UTF-8 JSON whatever bytes a raw input holds: a binary
# payload is shown by its size, a bad byte in a name as U+FFFD.
if command -v sqlite3 > /dev/null; then
	sqlite3 "$db" "INSERT INTO raw_inputs (match_id, throw_no, t_ns, source, kind, channel, payload)
		VALUES (1, 1, 1, 'pi' || CAST(x'ff' AS TEXT) || 'zo', 'edge', 7, x'fffe01')" ||
		fail "sqlite3 could not add a raw input"
	"$DYEREF" replay --db "$db" --match 1 --throw 1 > "$tmp/replay" || fail "replay exited $?"
	iconv -f UTF-8 -t UTF-8 "$tmp/replay" > /dev/null 2>&1 || fail "replay wrote bytes that are not UTF-8"
	grep -qF '"source":"pi\ufffdzo","kind":"edge","channel":7,"bytes":3}' "$tmp/replay" ||
		fail "replay of a binary raw input: $(head -1 "$tmp/replay" | cat -v)"
fi

# Errors: the exit status, one line naming what is wrong, nothing on stdout.
expect_status() { # status want-substring args...
	local status=$1 want=$2; shift 2
	"$DYEREF" "$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	[ $rc -eq "$status" ] || fail "'$*' exited $rc, want $status"
	[ -s "$tmp/out" ] && fail "'$*' wrote to stdout: $(head -c 200 "$tmp/out")"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "'$*': want one line on stderr, got: $(cat "$tmp/err")"
	grep -q -- "$want" "$tmp/err" || fail "'$*': stderr lacks '$want': $(cat "$tmp/err")"
}
expect_usage() { expect_status 2 "$@"; }
expect_usage "--db FILE is required" matches
expect_usage "--match N is required" export --db "$db"
expect_usage "not a positive whole number" export --db "$db" --match x
expect_usage "no match 9" export --db "$db" --match 9
expect_usage "has no throw 99" replay --db "$db" --match 1 --throw 99
expect_usage "unexpected argument" matches --db "$db" --bogus
expect_usage "$tmp/none.db" matches --db "$tmp/none.db"
[ -e "$tmp/none.db" ] && fail "matches created a database"

# A file that is not ours is refused, named, and left as it was.
printf 'just some text, not a database\n' > "$tmp/text.db"
cp "$tmp/text.db" "$tmp/text.copy"
expect_usage "$tmp/text.db: not a dyeref database" matches --db "$tmp/text.db"
expect_usage "$tmp/text.db: not a dyeref database" import --db "$tmp/text.db" "$tmp/a.jsonl"
cmp -s "$tmp/text.db" "$tmp/text.copy" || fail "a refused file was modified"

# A bad log is refused whole: file:line, and nothing stored.
printf '%s\n' '{"type":"match","game":"beerdie"}' '{"type":"throw","events":[{"at":"floor"}]}' \
	'{"type":"throw","events":[{"at":"table","half":"Q"}]}' > "$tmp/bad.jsonl"
expect_usage "bad.jsonl:3" import --db "$db" "$tmp/bad.jsonl"
[ "$("$DYEREF" matches --db "$db" | wc -l)" -eq 3 ] || fail "a bad import stored something"
expect_usage "bad.jsonl:3" import --db "$tmp/new.db" "$tmp/bad.jsonl"
[ -e "$tmp/new.db" ] && fail "a refused import created the database"

# Whatever the judge reads is stored: CRLF line ends and a line of blanks
# (export gives the log back with LF ends and without the blank line).
sed -n 1,3p "$tmp/a.jsonl" > "$tmp/lf.jsonl"
{ sed -n 1,2p "$tmp/a.jsonl"; printf ' \t\r\n'; sed -n 3p "$tmp/a.jsonl"; } | sed 's/$/\r/' > "$tmp/crlf.jsonl"
"$DYEREF" judge "$tmp/crlf.jsonl" > /dev/null 2>&1 || fail "judge refused the CRLF log"
if id=$("$DYEREF" import --db "$tmp/crlf.db" "$tmp/crlf.jsonl" 2> "$tmp/err"); then
	"$DYEREF" export --db "$tmp/crlf.db" --match "$id" | cmp -s - "$tmp/lf.jsonl" ||
		fail "the CRLF import does not export as the LF log"
else
	fail "import of a CRLF log: $(cat "$tmp/err")"
fi

# A LOG that is not there or is a directory is bad input, as for judge
# (exit 2): one line with the reason, nothing stored. Writing a full
# stdout is a system failure (exit 1).
mkdir "$tmp/adir"
expect_status 2 "import: $tmp/adir: Is a directory" import --db "$db" "$tmp/adir"
expect_status 2 "import: $tmp/none.jsonl: No such file or directory" import --db "$db" "$tmp/none.jsonl"
[ "$("$DYEREF" matches --db "$db" | wc -l)" -eq 3 ] || fail "an unreadable log stored something"
if [ -w /dev/full ]; then
	"$DYEREF" import --db "$tmp/full.db" "$tmp/a.jsonl" > /dev/full 2> "$tmp/err"
	[ $? -eq 1 ] && grep -qx 'dyeref: import: stdout: No space left on device' "$tmp/err" ||
		fail "import > /dev/full: $(cat "$tmp/err")"
	for cmd in "export --match 1" "replay --match 1 --throw 1"; do
		# shellcheck disable=SC2086
		"$DYEREF" ${cmd%% *} --db "$db" ${cmd#* } > /dev/full 2> "$tmp/err"
		[ $? -eq 1 ] && grep -qx "dyeref: ${cmd%% *}: stdout: No space left on device" "$tmp/err" ||
			fail "$cmd > /dev/full: $(cat "$tmp/err")"
	done
fi

# Dice games are stored the same way: import, export, judge round trips
# for every full dice fixture the build can judge.
top=${TOP:-.}
for log in "$top"/tests/data/dice/*-full.jsonl; do
	[ -f "$log" ] || continue
	if ! "$DYEREF" judge "$log" > "$tmp/dice.judged" 2> "$tmp/dice.err"; then
		echo "note: $(basename "$log"): not judged by this build: $(cat "$tmp/dice.err")"
		continue
	fi
	id=$("$DYEREF" import --db "$tmp/dice.db" "$log") || { fail "import $log"; continue; }
	"$DYEREF" export --db "$tmp/dice.db" --match "$id" > "$tmp/dice.out" || fail "export dice $id"
	cmp -s "$log" "$tmp/dice.out" || fail "$(basename "$log"): export differs from the import"
	"$DYEREF" judge "$tmp/dice.out" | cmp -s - "$tmp/dice.judged" || fail "$(basename "$log"): rulings differ"
	echo "dice round trip: $(basename "$log")"
done

[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "db_cli: all checks passed"
