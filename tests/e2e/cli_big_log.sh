#!/bin/bash
# `dyeref judge` in memory bounded by the match, not by the log (issue 27,
# finding 6): generated valid Beer Die logs of 10 MB and 100 MB
# (DYEREF_BIG_LOG_MB; 1000 for the 1 GB of the issue) judged under
# `ulimit -v 200000` (about 195 MiB of address space; under emulation the
# guest's, below) with the final score the generator knows, peak RSS under
# 20 MB and the same at both sizes; a
# 30 MB log piped in with a correction at its end (the pipe read again
# from its copy in $TMPDIR); `judge --table` of a 5 MB pipe;
# and a 62 MB single line refused at once with a one-line error, exit 2.
set -u
# shellcheck source=tests/e2e/lib/cli.sh
. "$(dirname "$0")/lib/cli.sh"
# shellcheck source=tests/e2e/lib/big_log.sh
. "$(dirname "$0")/lib/big_log.sh"

command -v python3 > /dev/null || { echo "skip: no python3 to generate the log"; exit 77; }
# The sanitizers reserve terabytes of address space: no ulimit -v there.
case "${LABEL:-}" in asan*) echo "skip: ulimit -v under the sanitizer build"; exit 77 ;; esac
# The generated log and the copy of a pipe live in the test's own folder.
export TMPDIR="$tmp"
limit_kb=200000

# final_ok OUT WANT: the last line of OUT is the final line with score WANT ("A B").
final_ok() {
	local a b
	read -r a b <<< "$2"
	[ "$(tail -n 1 "$1")" = "{\"type\":\"final\",\"score\":{\"A\":$a,\"B\":$b},\"over\":false,\"winner\":null,\"duties\":[]}" ]
}

# judge_file MB: a log of MB megabytes judged from a file under the
# address-space limit, with the right final score; its peak RSS in kB in
# $rss where /usr/bin/time is installed (else 0), less $rss_base. MB 0: a
# one-line log.
rss_base=0
judge_file() {
	local f="$tmp/big.jsonl" timer=() secs
	rss=0
	big_log $(($1 * 1000000)) > "$f" 3> "$tmp/big.score" || bad "generating the $1 MB log"
	[ -x /usr/bin/time ] && timer=(/usr/bin/time -f "%M %e" -o "$tmp/big.time")
	rm -f "$tmp/big.time"
	(limited "${timer[@]}" "$dyeref" judge "$f") \
		2> "$tmp/err" | tail -n 1 > "$tmp/out"
	rc=${PIPESTATUS[0]}
	[ "$rc" -eq 0 ] || bad "judge of $1 MB in $limit_kb kB of address space: exit $rc: $(head -c 300 "$tmp/err")"
	final_ok "$tmp/out" "$(cat "$tmp/big.score")" ||
		bad "$1 MB: final line $(cat "$tmp/out"), want score $(cat "$tmp/big.score")"
	if [ -s "$tmp/big.time" ]; then
		read -r rss secs < <(tail -n 1 "$tmp/big.time")
		echo "$1 MB log: peak RSS $rss kB, $secs s"
		rss=$((rss - rss_base))
		[ "$1" -eq 0 ] || [ "$rss" -lt 20000 ] || bad "$1 MB: peak RSS $rss kB, want under 20000"
	fi
	rm -f "$f"
}

# Two sizes ten times apart: the same peak RSS shows memory does not grow
# with the log. A 1 GB log takes about 70 s on a busy 2-core machine
# (12 MB RSS, as at 10 MB): DYEREF_BIG_LOG_MB=1000 runs that; the default
# keeps the suite quick.
# Emulated, the peak RSS is qemu's (translation buffer, its own heap) and the
# guest's together: what a one-line log takes is counted as qemu's and taken
# off each figure (dyeref's fixed share goes with it, so the 20 MB there is
# looser by that; the growth with the log is measured the same).
if [ -n "$emulated" ] && [ -x /usr/bin/time ]; then
	judge_file 0
	rss_base=$rss
	echo "emulated: $rss_base kB (a one-line log) taken off each peak RSS"
fi
judge_file 10
small=$rss
judge_file "${DYEREF_BIG_LOG_MB:-100}"
if [ "$small" -gt 0 ] && [ "$rss" -gt $((small + 1024)) ]; then
	bad "peak RSS grew with the log: $small kB at 10 MB, $rss kB at ${DYEREF_BIG_LOG_MB:-100} MB"
fi

# 30 MB through a pipe, with a correction that only the last line makes:
# read again from its copy, which goes with the process.
big_log 30000000 correct 3> "$tmp/pipe.score" |
	(limited "$dyeref" judge -) 2> "$tmp/err" > "$tmp/pipe.out"
rc=${PIPESTATUS[1]}
[ "$rc" -eq 0 ] || bad "judge - of 30 MB with a correction: exit $rc: $(head -c 300 "$tmp/err")"
final_ok "$tmp/pipe.out" "$(cat "$tmp/pipe.score")" ||
	bad "pipe: final line $(tail -n 1 "$tmp/pipe.out"), want score $(cat "$tmp/pipe.score")"
tail -n 2 "$tmp/pipe.out" | head -n 1 | grep -q '"corrected":true}$' ||
	bad "pipe: the last throw's ruling is not marked corrected"
left=$(find "$tmp" -name 'dyeref-log-*' | wc -l)
[ "$left" -eq 0 ] || bad "the copy of the pipe was left in \$TMPDIR"
rm -f "$tmp/pipe.out"

# The scoreboard in words reads the log the same way.
big_log 5000000 3> "$tmp/table.score" |
	(limited "$dyeref" judge --table -) 2> "$tmp/err" | tail -n 1 > "$tmp/out"
read -r a b < "$tmp/table.score"
grep -qx "  Final: A $a - $b B, not over" "$tmp/out" ||
	bad "judge --table of 5 MB: $(cat "$tmp/out") $(head -c 300 "$tmp/err")"

# One line of 62 MB: refused at its first byte past 64 KiB, in a moment
# (not after reading it), one line, exit 2, nothing on stdout.
start=$SECONDS
head -c 62000000 /dev/zero | tr '\0' 'x' |
	(limited "$dyeref" judge -) > "$tmp/out" 2> "$tmp/err"
rc=${PIPESTATUS[2]}
[ "$rc" -eq 2 ] || bad "62 MB line: exit $rc, want 2"
[ -s "$tmp/out" ] && bad "62 MB line: wrote to stdout"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "62 MB line: want one line on stderr: $(head -c 300 "$tmp/err")"
grep -q '^dyeref: stdin:1: longer than 65536 bytes' "$tmp/err" || bad "62 MB line: $(head -c 300 "$tmp/err")"
[ $((SECONDS - start)) -le "$(slow_n 10)" ] || bad "62 MB line: took $((SECONDS - start)) s"

finish "cli big log"
