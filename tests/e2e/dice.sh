#!/bin/bash
# The dice games end to end: `dyeref judge` of a full game of each kind
# (tests/data/dice/*.jsonl against hand-checked *.out), illegal logs
# (tests/data/dice/bad: exit 2, the one-line message, nothing on stdout),
# and `dyeref score`.
set -u
# shellcheck source=tests/e2e/lib/cli.sh
. "$(dirname "$0")/lib/cli.sh"

# judge comes from the mlog branch; without it there is nothing to drive.
if ! "$dyeref" help | grep -q '^  judge'; then
	echo "dyeref judge is not built in this tree"
	exit 77
fi

n=0
for log in tests/data/dice/*.jsonl; do
	n=$((n + 1))
	if ! "$dyeref" judge "$log" > "$tmp/out" 2> "$tmp/err"; then
		bad "$log: exit $?: $(cat "$tmp/err")"; continue
	fi
	diff -u "${log%.jsonl}.out" "$tmp/out" || bad "$log: output differs"
	"$dyeref" judge < "$log" | cmp -s - "$tmp/out" || bad "$log: judged from stdin differs"
done
[ "$n" -ge 4 ] || bad "only $n dice fixtures"

# The final lines, as checked by hand (docs/dice-games.md walks through them).
final() { tail -n 1 "tests/data/dice/$1.out"; }
final yatzy-full | grep -q '"totals":{"ann":298,"bob":130}.*"winner":"ann"' || bad "yatzy final"
final yatzy-joker-full | grep -q '"totals":{"ann":505,"bob":175}.*"yatzy_bonus":{"ann":200,"bob":0}' ||
	bad "yatzy-joker final"
final dreiermann-full | grep -q '"sips":{"ann":24,"bob":19,"cid":37},"rounds":5,"over":true,"winner":"bob"' ||
	bad "dreiermann final"
final horse-full | grep -q '"out":\["ann","cid","dan"\],"over":true,"loser":"bob"' || bad "horse final"
grep -q '"box":"full_house","points":14' tests/data/dice/yatzy-full.out || bad "seed full house 14"

m=0
for log in tests/data/dice/bad/*.jsonl; do
	m=$((m + 1))
	"$dyeref" judge "$log" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || bad "$log: exit $rc, want 2"
	[ -s "$tmp/out" ] && bad "$log: wrote to stdout on bad input"
	diff -u "${log%.jsonl}.err" "$tmp/err" || bad "$log: message differs"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "$log: message is not one line"
done
[ "$m" -ge 10 ] || bad "only $m illegal dice logs"

# dyeref score: the seeds' examples, then bad arguments (exit 2, one line
# naming the argument).
check_score() { # want game box dice...
	local want=$1; shift
	got=$("$dyeref" score "$@" 2>&1) || { bad "score $*: exit $?: $got"; return; }
	[ "$got" = "$want" ] || bad "score $*: got '$got', want '$want'"
}
check_score 14 yatzy full_house 4 4 4 1 1
check_score 12 yatzy fours 4 4 4 3 1
check_score 80 yatzy yatzy 6 6 6 6 6
check_score 21 yatzy-joker three_of_a_kind 5 5 5 2 4
check_score 7 yatzy-joker four_of_a_kind 1 1 1 1 3
check_score 30 yatzy-joker small_straight 2 3 4 5 5
check_score 25 yatzy-joker full_house 2 2 2 3 3
check_score 0 yatzy two_pairs 6 6 6 6 1

score_bad() { # pattern args...
	local pat=$1; shift
	"$dyeref" score "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || bad "score $*: exit $rc, want 2"
	[ -s "$tmp/out" ] && bad "score $*: wrote to stdout"
	grep -q "$pat" "$tmp/err" || bad "score $*: message '$(cat "$tmp/err")' lacks '$pat'"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "score $*: message is not one line"
}
score_bad "GAME: 'poker'" poker chance 1 2 3 4 5
score_bad "CATEGORY: 'one_pair' is not a box of yatzy-joker" yatzy-joker one_pair 1 1 2 3 4
score_bad "CATEGORY: 'pairs'" yatzy pairs 1 1 2 3 4
score_bad "D5: '7'" yatzy chance 1 2 3 4 7
score_bad "D1: '0'" yatzy chance 0 2 3 4 5
score_bad "D3: '44'" yatzy chance 1 2 44 4 5
score_bad "arguments" yatzy chance 1 2 3 4

[ "$fails" -eq 0 ] && echo "dice: all passed ($n games, $m illegal logs)"
[ "$fails" -eq 0 ]
