#!/bin/bash
# Dice games live from the console (RULES.md YZ, DM): start a Yatzy match
# with the PIN session and CSRF token, post turns, each judged by the dice
# engine and committed; the sheet in /api/state and /api/matches/N/sheet,
# the game current in /api/matches;
# an illegal turn refused with the engine's message and nothing stored;
# a restart keeps the game under way; the last turn completes the game
# (over, its winner) but the match stays open until End.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
start='{"cmd":"start","game":"yatzy","players":["ann","bob"]}'
[ "$(status_of -H 'Content-Type: application/json' --data-binary "$start" \
	"$BASE/console/api/command")" = 403 ] || fail "dice start without a session accepted"
login
[ "$(command_status '{"cmd":"start","game":"yahtzee","players":["ann"]}')" = 400 ] ||
	fail "unknown game accepted"
[ "$(command_status '{"cmd":"start","game":"dreiermann","players":["ann","bob"]}')" = 400 ] ||
	fail "Dreiermann with two players accepted"
grep -q 'players' "$WORK/last" || fail "no field in the engine's refusal: $(cat "$WORK/last")"
[ "$(command_status '{"cmd":"dice","move":{"type":"turn","rolls":[[1,2,3,4,5]],"box":"chance"}}')" = 404 ] ||
	fail "a turn without a dice game was not 404"
command_ok "$start"
state | grep -q '"game":"yatzy"' || fail "state does not show the yatzy match: $(state)"
curl -s "$BASE/api/matches" | grep -q '"match":1,"game":"yatzy","current":true,"ended":false' ||
	fail "the dice game under way is not current: $(curl -s "$BASE/api/matches")"
[ "$(command_status '{"cmd":"start"}')" = 409 ] || fail "a Beer Die match started during a dice game"
command_ok '{"cmd":"dice","move":{"type":"turn","player":"ann","rolls":[[1,1,2,5,6],[1,3,4]],"box":"ones"}}'
command_ok '{"cmd":"dice","move":{"type":"turn","rolls":[[1,2,3,4,6]],"box":"chance"}}'
# YZ-1: a fourth roll is illegal; YZ-3: a box used twice; the wrong player.
[ "$(command_status '{"cmd":"dice","move":{"type":"turn","rolls":[[1,1,1,1,1],[1],[1],[1]],"box":"yatzy"}}')" = 400 ] ||
	fail "a fourth roll accepted"
grep -q 'YZ-1' "$WORK/last" || fail "no rule in the refusal: $(cat "$WORK/last")"
[ "$(command_status '{"cmd":"dice","move":{"type":"turn","rolls":[[1,1,2,5,6]],"box":"ones"}}')" = 400 ] ||
	fail "a box used twice accepted"
[ "$(command_status '{"cmd":"dice","move":{"type":"turn","player":"bob","rolls":[[2,2,2,4,5]],"box":"twos"}}')" = 400 ] ||
	fail "bob playing ann's turn accepted"
[ "$(command_status '{"cmd":"dice","move":"turn"}')" = 400 ] || fail "a move that is not an object accepted"
command_ok '{"cmd":"dice","move":{"type":"turn","rolls":[[2,2,2,4,5]],"box":"twos"}}'
s=$(state)
echo "$s" | grep -q '"dice_match":{"match":1,"game":"yatzy","sheet":{' || fail "no live sheet in the state: $s"
echo "$s" | grep -q '{"name":"ones","cells":\[3,null\]}' || fail "ones row: $s"
echo "$s" | grep -q '{"name":"twos","cells":\[6,null\]}' || fail "twos row: $s"
echo "$s" | grep -q '{"name":"chance","cells":\[null,16\]}' || fail "chance row: $s"
sheet=$(curl -s "$BASE/api/matches/1/sheet")
echo "$sheet" | grep -q '"turn":"bob"' || fail "whose turn: $sheet"
[ "$(curl -s "$BASE/api/matches/1/log" | wc -l)" = 4 ] || fail "refused turns were stored: $(curl -s "$BASE/api/matches/1/log")"
# The log as stored judges the same with the CLI.
curl -s "$BASE/api/matches/1/log" | "$DYEREF" judge > "$WORK/judged" || fail "stored log does not judge"
grep -q '"type":"ruling","turn":3,"player":"ann"' "$WORK/judged" || fail "ruling of turn 3: $(cat "$WORK/judged")"

# kill -9: the dice game is still under way after the restart.
kill -9 "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true; DAEMON_PID=
start_daemon --config "$WORK/c.ini"
state | grep -q '"dice_match":{"match":1' || fail "dice game lost on restart: $(state)"
curl -s "$BASE/api/matches" | grep -q '"match":1,"game":"yatzy","current":true' ||
	fail "the restored dice game is not current: $(curl -s "$BASE/api/matches")"
login
command_ok '{"cmd":"dice","move":{"type":"turn","player":"bob","rolls":[[2,3,4,5,6]],"box":"yatzy"},"accept_zero":true}'
curl -s "$BASE/api/matches/1/sheet" | grep -q '{"name":"yatzy","cells":\[null,0\]}' || fail "yatzy row after restart"
command_ok '{"cmd":"end"}'
curl -s "$BASE/api/matches" | grep -q '"match":1,"game":"yatzy","current":false,"ended":true' ||
	fail "dice game not ended: $(curl -s "$BASE/api/matches")"
[ "$(command_status '{"cmd":"dice","move":{"type":"turn","rolls":[[1,2,3,4,5]],"box":"chance"}}')" = 404 ] ||
	fail "a turn after the end accepted"
# A whole game turn by turn: the last turn completes it, the state says
# over with the winner (the same as the imported log), and the match stays
# open for corrections until End; after End the screen keeps its sheet.
# Its zeros are meant: accept_zero, so no question is asked.
top=$(cd "$(dirname "$0")/../.." && pwd)
command_ok "$start"
tail -n +2 "$top/tests/data/dice/yatzy-full.jsonl" | while IFS= read -r line; do
	[ -n "$line" ] || continue
	command_ok "{\"cmd\":\"dice\",\"move\":$line,\"accept_zero\":true}"
done
curl -s "$BASE/api/matches" | grep -q '"match":2,"game":"yatzy","current":true,"ended":false' ||
	fail "the last turn closed the match: $(curl -s "$BASE/api/matches")"
s=$(state)
echo "$s" | jq -e '.match == 2 and .over == true and .winner == "ann"' >/dev/null ||
	fail "the complete game is not over with its winner: $s"
echo "$s" | grep -q '{"name":"total","cells":\[298,130\]}' || fail "final sheet: $s"
[ "$(command_status '{"cmd":"dice","move":{"type":"turn","rolls":[[1,2,3,4,5]],"box":"chance"}}')" = 400 ] ||
	fail "a turn after the game's last accepted"
command_ok '{"cmd":"end"}'
curl -s "$BASE/api/matches" | grep -q '"match":2,"game":"yatzy","current":false,"ended":true' ||
	fail "End did not end the complete game: $(curl -s "$BASE/api/matches")"
s=$(state)
echo "$s" | grep -q '{"name":"total","cells":\[298,130\]}' || fail "final sheet after End: $s"
echo "$s" | grep -q '"winner":"ann"' || fail "no winner on the screen: $s"
stop_daemon
echo ok
