#!/bin/bash
# dyeref judge end to end: fixture logs against hand-checked expected
# output, malformed logs against their one-line message (exit 2, nothing
# on stdout), stdin, --table, and the size limit.
set -u
# shellcheck source=tests/e2e/lib/cli.sh
. "$(dirname "$0")/lib/cli.sh"

n=0
for log in tests/data/sample-match.jsonl tests/data/judge/*.jsonl; do
	want=${log%.jsonl}.out
	n=$((n + 1))
	if ! "$dyeref" judge "$log" > "$tmp/out" 2> "$tmp/err"; then
		bad "$log: exit $?: $(cat "$tmp/err")"; continue
	fi
	if ! diff -u "$want" "$tmp/out"; then
		bad "$log: output differs from $want"; continue
	fi
	# The same log on stdin, as "-" and as no argument, judges the same.
	"$dyeref" judge - < "$log" > "$tmp/out-" 2>/dev/null || bad "$log: judge - failed"
	"$dyeref" judge < "$log" > "$tmp/out0" 2>/dev/null || bad "$log: judge (stdin) failed"
	cmp -s "$tmp/out" "$tmp/out-" || bad "$log: judge - differs"
	cmp -s "$tmp/out" "$tmp/out0" || bad "$log: judge from stdin differs"
done
[ "$n" -ge 6 ] || bad "only $n fixture logs"
echo "judged $n fixture logs"

n=0
for log in tests/data/judge-bad/*.jsonl; do
	n=$((n + 1))
	"$dyeref" judge "$log" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || bad "$log: exit $rc, want 2"
	[ -s "$tmp/out" ] && bad "$log: wrote to stdout on bad input"
	if ! diff -u "${log%.jsonl}.err" "$tmp/err"; then
		bad "$log: message differs from ${log%.jsonl}.err"
	fi
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "$log: message is not one line"
done
[ "$n" -ge 9 ] || bad "only $n malformed logs in tests/data/judge-bad"
echo "rejected $n malformed logs"

# Input from stdin is named "stdin" in messages.
printf '{"type":"match","game":"beerdie"}\n{"type":"throw","events":[{"at":"rest","face":7}]}\n' |
	"$dyeref" judge > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || bad "stdin face 7: exit $rc"
grep -qx 'dyeref: stdin:2: events\[0\].face: expected an integer 1..6' "$tmp/err" ||
	bad "stdin face 7: message: $(cat "$tmp/err")"

# A file named that is not there is bad input, as is bad usage: exit 2.
"$dyeref" judge "$tmp/no-such-file.jsonl" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || bad "missing file: exit $rc, want 2"
grep -q 'no-such-file.jsonl: No such file or directory' "$tmp/err" || bad "missing file: $(cat "$tmp/err")"
"$dyeref" judge --frobnicate > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || bad "unknown option: exit $rc, want 2"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "unknown option: want one line on stderr: $(cat "$tmp/err")"
"$dyeref" judge a.jsonl b.jsonl > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || bad "two files: exit $rc, want 2"

# A line past the line limit (64 KiB; here 64 MiB of blanks): refused at
# its first byte past it, a clear message, exit 2, nothing written.
head -c $((64 * 1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' |
	"$dyeref" judge > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || bad "oversized input: exit $rc, want 2"
[ -s "$tmp/out" ] && bad "oversized input: wrote to stdout"
grep -q 'stdin:1: longer than 65536 bytes' "$tmp/err" || bad "oversized input: $(cat "$tmp/err")"

# The readable scoreboard of the sample match: every throw, the rule texts,
# the final score.
if "$dyeref" judge --table tests/data/sample-match.jsonl > "$tmp/table" 2> "$tmp/err"; then
	final=$("$dyeref" judge tests/data/sample-match.jsonl | tail -n 1)
	throws=$("$dyeref" judge tests/data/sample-match.jsonl | grep -c '"type":"ruling"')
	a=$(echo "$final" | sed -n 's/.*"score":{"A":\([0-9]*\),"B":\([0-9]*\)}.*/\1/p')
	b=$(echo "$final" | sed -n 's/.*"score":{"A":\([0-9]*\),"B":\([0-9]*\)}.*/\2/p')
	grep -q "Final: A $a - $b B" "$tmp/table" || bad "--table: no final score A $a - $b B"
	rows=$(grep -cE '^ +[0-9]+  ' "$tmp/table")
	[ "$rows" -eq "$throws" ] || bad "--table: $rows throw rows, want $throws"
	grep -q 'BD-P8 ' "$tmp/table" || bad "--table: no sink (BD-P8) shown"
	grep -q 'CORRECTED' "$tmp/table" || bad "--table: no corrected throw shown"
else
	bad "--table failed: $(cat "$tmp/err")"
fi

# The rule texts state the match's own house rules (BD-W1, BD-W2): this one
# goes to 5, won by 1, with a kill n' fill at every multiple of 3.
"$dyeref" judge --table tests/data/judge/rolloff-house.jsonl > "$tmp/table" 2> "$tmp/err" ||
	bad "--table rolloff-house failed: $(cat "$tmp/err")"
grep -q 'BD-W1   The first team to 5 points with the lead wins\.' "$tmp/table" ||
	bad "--table: BD-W1 does not state the house's 5 points: $(grep BD-W1 "$tmp/table")"
grep -q 'BD-W2   Each time a team reaches or passes a multiple of 3,' "$tmp/table" ||
	bad "--table: BD-W2 does not state the house's 3: $(grep -m1 BD-W2 "$tmp/table")"

[ "$fails" -eq 0 ] && echo "judge: all passed"
[ "$fails" -eq 0 ]
