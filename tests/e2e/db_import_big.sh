#!/bin/bash
# `dyeref import` in memory bounded by the match, not by the log (issue 27,
# finding 6): a generated valid Beer Die log of 24 MB (DYEREF_BIG_IMPORT_MB;
# 100 and more pass too, in minutes) imported under `ulimit -v 200000`
# (about 195 MiB of address space) with the throws and the final score the
# generator knows, peak RSS under 30 MB and within 1 MB of a 3 MB log's (a
# log held whole grows by its size); the same log with a bad line near its
# end refused with its line, exit 2, the database unchanged; the big log
# again "already stored as match 1"; a 4 MB log piped in with a
# correction at its end (the stored match folded again, nothing copied to
# $TMPDIR). The sanitizer build runs the same on small logs, without the
# address-space limit (the sanitizers reserve terabytes of it).
set -u
# shellcheck source=tests/e2e/lib/cli.sh
. "$(dirname "$0")/lib/cli.sh"
# shellcheck source=tests/e2e/lib/big_log.sh
. "$(dirname "$0")/lib/big_log.sh"

command -v python3 > /dev/null || { echo "skip: no python3 to generate the log"; exit 77; }
export TMPDIR="$tmp"
db="$tmp/big.db"
big_mb=${DYEREF_BIG_IMPORT_MB:-24} small_mb=3 pipe_mb=4 limit_kb=200000
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f "%M %e" -o "$tmp/time")
case "${LABEL:-}" in asan*) big_mb=2 small_mb=1 pipe_mb=1 limit_kb= timer=() ;; esac

# import NAME ARGS...: `dyeref import --db $db ARGS` under the limit;
# its exit status in $rc, peak RSS in kB in $rss (0 without /usr/bin/time).
import() {
	local name=$1 secs
	shift
	rm -f "$tmp/time"
	(limited "${timer[@]}" "$dyeref" import --db "$db" "$@") \
		> "$tmp/out" 2> "$tmp/err"
	rc=$?
	rss=0
	if [ -s "$tmp/time" ]; then
		read -r rss secs < <(tail -n 1 "$tmp/time")
		echo "import of $name: exit $rc, peak RSS $rss kB, $secs s"
	fi
}

# state: what the database holds, as `matches` lists it (STARTED aside).
state() {
	"$dyeref" matches --db "$db" | awk '{ $3 = $4 = ""; print }'
}

# A small log into its own database: the peak RSS to compare with.
big_log $((small_mb * 1000000)) > "$tmp/small.jsonl" 3> /dev/null
db="$tmp/small.db" import "${small_mb} MB" "$tmp/small.jsonl"
[ "$rc" -eq 0 ] || bad "import of ${small_mb} MB: exit $rc: $(head -c 300 "$tmp/err")"
small=$rss
rm -f "$tmp/small.jsonl" "$tmp/small.db"*

big_log $((big_mb * 1000000)) > "$tmp/big.jsonl" 3> "$tmp/big.score" ||
	bad "generating the ${big_mb} MB log"
read -r a b < "$tmp/big.score"
import "${big_mb} MB" "$tmp/big.jsonl"
[ "$rc" -eq 0 ] || bad "import of ${big_mb} MB: exit $rc: $(head -c 300 "$tmp/err")"
[ "$(cat "$tmp/out")" = 1 ] || bad "import of ${big_mb} MB printed '$(cat "$tmp/out")', want 1"
[ -s "$tmp/err" ] && bad "import of ${big_mb} MB said: $(head -c 300 "$tmp/err")"
if [ "$rss" -gt 0 ]; then
	# Under emulation qemu adds its own ~27 MB: the comparison below holds.
	[ -n "$emulated" ] || [ "$rss" -lt 30000 ] || bad "${big_mb} MB: peak RSS $rss kB, want under 30000"
	[ "$rss" -le $((small + 1024)) ] ||
		bad "peak RSS grew with the log: $small kB at ${small_mb} MB, $rss kB at ${big_mb} MB"
fi
before=$(state)
grep -Eq "^1 beerdie +$((4 * a)) 0 0 ended \{\"A\":$a,\"B\":$b\} -$" <<< "$before" ||
	bad "${big_mb} MB: stored $before, want $((4 * a)) throws and score $a-$b"

# A bad line near the end: refused with its number, and nothing of the
# log stays (the database as it was).
lines=$(wc -l < "$tmp/big.jsonl")
tail -n 1 "$tmp/big.jsonl" > "$tmp/last.jsonl"
sed -i '$d' "$tmp/big.jsonl"
echo '{"type":"throw","events":[{"at":"table","half":"C"}]}' >> "$tmp/big.jsonl"
echo '{"type":"throw","events":[{"at":"floor"}]}' >> "$tmp/big.jsonl"
import "${big_mb} MB with a bad line" "$tmp/big.jsonl"
[ "$rc" -eq 2 ] || bad "bad line: exit $rc, want 2"
[ -s "$tmp/out" ] && bad "bad line: wrote to stdout: $(head -c 100 "$tmp/out")"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "bad line: want one line on stderr: $(head -c 300 "$tmp/err")"
grep -q "^dyeref: import: $tmp/big.jsonl:$lines: events\[0\]\.half: " "$tmp/err" ||
	bad "bad line: want line $lines named: $(head -c 300 "$tmp/err")"
[ "$(state)" = "$before" ] || bad "bad line: the database changed: $(state)"

# The same big log again: already stored, nothing stored twice.
sed -i '$d' "$tmp/big.jsonl"
sed -i '$d' "$tmp/big.jsonl"
cat "$tmp/last.jsonl" >> "$tmp/big.jsonl"
import "${big_mb} MB again" "$tmp/big.jsonl"
[ "$rc" -eq 0 ] || bad "again: exit $rc, want 0: $(head -c 300 "$tmp/err")"
[ "$(cat "$tmp/out")" = 1 ] || bad "again: printed '$(cat "$tmp/out")', want 1"
[ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "import: $tmp/big.jsonl: already stored as match 1\$" "$tmp/err" ||
	bad "again: $(head -c 300 "$tmp/err")"
[ "$(state)" = "$before" ] || bad "again: the database changed: $(state)"
rm -f "$tmp/big.jsonl"

# Through a pipe, a correction at its end: the stored match folded again
# (the last throw's recomputed ruling stored with it); a pipe read once is
# not copied to $TMPDIR.
big_log $((pipe_mb * 1000000)) correct 3> "$tmp/pipe.score" |
	(limited "$dyeref" import --db "$db") > "$tmp/out" 2> "$tmp/err"
rc=${PIPESTATUS[1]}
read -r a b < "$tmp/pipe.score"
[ "$rc" -eq 0 ] || bad "pipe with a correction: exit $rc: $(head -c 300 "$tmp/err")"
[ "$(cat "$tmp/out")" = 2 ] || bad "pipe: printed '$(cat "$tmp/out")', want 2"
state | grep -Eq "^2 beerdie +$((4 * a)) 1 0 ended \{\"A\":$a,\"B\":$b\} -$" ||
	bad "pipe: stored $(state | tail -n 1), want $((4 * a)) throws, 1 correction, score $a-$b"
"$dyeref" export --db "$db" --match 2 | "$dyeref" judge | tail -n 2 | head -n 1 |
	grep -q "\"score\":{\"A\":$a,\"B\":$b},.*\"corrected\":true}\$" ||
	bad "pipe: the export does not judge to the corrected score"
left=$(find "$tmp" -name 'dyeref-log-*' | wc -l)
[ "$left" -eq 0 ] || bad "the pipe was copied to \$TMPDIR"

finish "db import big"
