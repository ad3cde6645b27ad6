#!/bin/bash
# House rules from the console: GET /api/house lists every rule a START
# takes (type, range or values, the daemon's default, the book's, a line
# for people); START takes all of them, bad ones are refused naming the
# rule; the match's house rules ride on its throws list and throw pages,
# and /rules?match=N is the page that marks them.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini" "[house]" "target_points = 7"
start_daemon --config "$WORK/c.ini"
h=$(curl -s --max-time "$(slow 10)" "$BASE/api/house")
echo "$h" | grep -q '^{"rules":\[{"key":"target_points","type":"int","default":7,"book":10,"rule":"BD-W1","text":"[^"]*","min":1,"max":99},' ||
	fail "house rules: $h"
for k in win_by kill_every min_toss_height_m low_call illegal_catch_counts_as_floor fifa_cannot_end_game \
	popout_is_sink mine_voids_points review_below; do
	echo "$h" | grep -q "\"key\":\"$k\"" || fail "house rules without $k: $h"
done
echo "$h" | grep -q '"key":"low_call","type":"enum","default":"manual","book":"manual","rule":"BD-P5","text":"[^"]*","values":\["manual","auto"\]' ||
	fail "low_call: $h"
echo "$h" | grep -q '"key":"popout_is_sink","type":"bool","default":false,"book":false,' || fail "popout_is_sink: $h"

login
# Each rule out of range or of the wrong type: 400 naming it, nothing started.
for bad in '"win_by":0' '"kill_every":"5"' '"min_toss_height_m":-1' '"low_call":"loud"' \
	'"popout_is_sink":1' '"review_below":2' '"target_points":2.5' '"plunk":true'; do
	[ "$(command_status "{\"cmd\":\"start\",\"house\":{$bad}}")" = 400 ] || fail "house $bad was not 400"
	grep -q '"error":"house' "$WORK/last" || fail "house $bad: $(cat "$WORK/last")"
done
state | grep -q '"match":null' || fail "a refused start started a match: $(state)"
all='"target_points":5,"win_by":1,"kill_every":0,"min_toss_height_m":2.5,"low_call":"auto","illegal_catch_counts_as_floor":false,"fifa_cannot_end_game":false,"popout_is_sink":true,"mine_voids_points":false,"review_below":0.5'
command_ok "{\"cmd\":\"start\",\"house\":{$all}}"
want="\"house\":{$all}"
state | grep -qF "$want" || fail "state's house: $(state)"
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}'
curl -s "$BASE/api/matches/1/throws" | grep -qF "$want" || fail "throws list's house: $(curl -s "$BASE/api/matches/1/throws")"
curl -s "$BASE/api/matches/1/throws/1" | grep -qF "$want" || fail "throw page's house"
# The match log keeps what differs from the book.
curl -s "$BASE/api/matches/1/log" | head -n 1 | grep -q '"house":{"target_points":5,"win_by":1,"kill_every":0,' ||
	fail "match line's house: $(curl -s "$BASE/api/matches/1/log" | head -n 1)"
[ "$(status_of "$BASE/rules?match=1")" = 200 ] || fail "/rules?match=1 not 200"
curl -s "$BASE/rules.js" | grep -q 'house-differs' || fail "the rules page does not mark house rules"
stop_daemon
echo ok
