#!/bin/bash
# Every command that reads a named file, given a hostile one (missing, a
# directory, empty, binary, a truncated match log, a config with an unknown
# key): exit 2, one line naming the file, nothing on stdout, nothing stored
# (DESIGN.md: "Bad input of any kind ... exit status 2").
set -u
# shellcheck source=tests/e2e/lib/cli.sh
. "$(dirname "$0")/lib/cli.sh"

mkdir "$tmp/adir"
: > "$tmp/empty"
# Not valid UTF-8 nor JSON, with a NUL: what a wrong file picked by mistake looks like.
printf '\x89\x00\xff\xfe binary \x01\x02\n\x00' > "$tmp/binary"
printf '%s\n' '{"type":"match","game":"beerdie"}' > "$tmp/trunc.jsonl"
printf '%s' '{"type":"throw","events":[{"at":"ta' >> "$tmp/trunc.jsonl"

for f in missing adir empty binary; do
	expect_error "$tmp/$f" judge "$tmp/$f"
	expect_error "$tmp/$f" import --db "$tmp/$f.db" "$tmp/$f"
	[ -e "$tmp/$f.db" ] && bad "import of $f made a database"
	expect_error "$tmp/$f" dice "$tmp/$f"
	expect_error "$tmp/$f" calibrate camera "$tmp/$f"
	expect_error "$tmp/$f" matches --db "$tmp/$f"
	expect_error "$tmp/$f" evaluate "$tmp/$f"
	# An empty edge recording is a quiet table, not bad input; calibration
	# finds no taps in it (below).
	[ "$f" = empty ] && continue
	expect_error "$tmp/$f" sensors --replay "$tmp/$f"
	expect_error "$tmp/$f" calibrate piezo --replay "$tmp/$f" --dry-run
done
# No taps to fit: refused before any of the session's lines reach stdout,
# naming the recording as the other input errors do.
expect_error "calibrate piezo: $tmp/empty: 0 usable taps" calibrate piezo --replay "$tmp/empty" --dry-run
# With stderr closed the status is all a script has: the failed write of
# the message must not turn a missing file into a system failure.
for cmd in "judge" "sensors --replay" "calibrate piezo --dry-run --replay" "matches --db" \
	   "sensors --match 1 --replay-db"; do
	# shellcheck disable=SC2086
	"$dyeref" $cmd "$tmp/missing" > /dev/null 2>&-
	rc=$?
	[ "$rc" -eq 2 ] || bad "$cmd of a missing file, stderr closed: exit $rc, want 2"
done
"$dyeref" import --db "$tmp/one.db" tests/data/sample-match.jsonl > /dev/null || bad "import exit $?"
"$dyeref" sensors --replay-db "$tmp/one.db" --match 2 > /dev/null 2>&-
rc=$?
[ "$rc" -eq 2 ] || bad "sensors --replay-db of a missing match, stderr closed: exit $rc, want 2"
# A database named under a file is the name's fault, as any named file's.
expect_error "$tmp/empty/x.db: Not a directory" matches --db "$tmp/empty/x.db"
expect_error "$tmp/empty/x.db: Not a directory" import --db "$tmp/empty/x.db" tests/data/sample-match.jsonl
expect_error "$tmp/empty/x.db: Not a directory" sensors --replay-db "$tmp/empty/x.db" --match 1
expect_error "trunc.jsonl:2: column" judge "$tmp/trunc.jsonl"
expect_error "trunc.jsonl:2: column" import --db "$tmp/t.db" "$tmp/trunc.jsonl"
[ -e "$tmp/t.db" ] && bad "import of a truncated log made a database"

# A config: missing, a directory, binary; an unknown key in the sections
# the sensors commands read.
printf '[sensors]\nbogus = 1\n' > "$tmp/unknown.conf"
for f in missing adir binary unknown.conf; do
	expect_error "$tmp/$f" sensors --config "$tmp/$f" --sim --impacts 1
	expect_error "$tmp/$f" calibrate piezo --config "$tmp/$f" --sim --dry-run
	[ "$f" = unknown.conf ] && continue
	expect_error "$tmp/$f" serve --check-config --config "$tmp/$f"
	expect_error "$tmp/$f" serve --config "$tmp/$f" --port 0
done
# A misspelt section: the sensors commands refuse it with its line, as
# serve does, instead of running on the defaults as though it were not there.
printf '[sensors]\nwave_speed = 400\n[sensorz]\nchip = gpiochip9\n' > "$tmp/section.conf"
expect_error "$tmp/section.conf:4: unknown key sensorz.chip" \
	sensors --config "$tmp/section.conf" --sim --impacts 1
expect_error "$tmp/section.conf:4: unknown key sensorz.chip" \
	calibrate piezo --config "$tmp/section.conf" --sim --dry-run
# serve refuses a config with a typo before it makes the database or
# opens a device: the typo is what it reports (not a chip or a path), and
# no empty database is left behind.
for bad in 'bogus = 1' 'port = 99999'; do
	printf '[web]\nport = 0\n%s\n[db]\npath = %s/serve.db\n' "$bad" "$tmp" > "$tmp/typo.conf"
	"$dyeref" serve --config "$tmp/typo.conf" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || bad "serve with '$bad': exit $rc, want 2"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "^$tmp/typo.conf:3: .*web\." "$tmp/err" ||
		bad "serve with '$bad': want only the typo's line: $(cat "$tmp/err")"
	[ -e "$tmp/serve.db" ] && bad "serve with '$bad' made its database"
	rm -f "$tmp/serve.db"*
done

# Images that decode but are too small to hold a die: the message names
# the file and its size, not only what the reader refuses.
for wh in "1 1" "4 4" "7 100" "100 7"; do
	set -- $wh
	f="$tmp/small-$1x$2.pgm"
	{ printf 'P5\n%d %d\n255\n' "$1" "$2"; head -c $(($1 * $2)) /dev/zero; } > "$f"
	expect_error "$f: dice: $1x$2 pixels, below 8x8" dice "$f"
done

finish "cli bad files"
