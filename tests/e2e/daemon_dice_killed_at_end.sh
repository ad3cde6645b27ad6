#!/bin/bash
# kill -9 between a dice game's last move and its End: the game is complete
# (over, Horse's loser known) but not ended, so after the restart it is the
# match under way again, over, and still correctable: an undo of its last
# turn reopens it, the move entered again closes it, and a new match ends
# it first (before, the last move ended the match at once, and a restart in
# between came back to a game nobody could correct).
set -eu
. "$(dirname "$0")/lib/daemon.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
log=$top/tests/data/dice/horse-full.jsonl
matches() { curl -s --max-time "$(slow 10)" "$BASE/api/matches"; }
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","game":"horse","players":["ann","bob","cid","dan"]}'
# Every move, the last included, through the console.
tail -n +2 "$log" | while IFS= read -r line; do
	command_ok "{\"cmd\":\"dice\",\"move\":$line}"
done
loser=$(tail -n 1 "$top/tests/data/dice/horse-full.out" | jq -r .loser)
state | jq -e --arg l "$loser" '.over == true and .loser == $l' >/dev/null ||
	fail "the complete game is not over with its loser $loser: $(state)"
kill -9 "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null || true
DAEMON_PID=
start_daemon --config "$WORK/c.ini"
m=$(matches)
echo "$m" | grep -q '{"match":1,"game":"horse","current":true,"ended":false' ||
	fail "the complete game is not the match under way after the restart: $m"
grep -q 'match 1: the game is complete, not ended: open for corrections until End' "$WORK/daemon.log" ||
	fail "no log line for the complete game restored"
state | jq -e --arg l "$loser" '.match == 1 and .over == true and .loser == $l' >/dev/null ||
	fail "the restored game is not over with its loser: $(state)"
login
n=$(($(wc -l < "$log") - 1))
command_ok '{"cmd":"undo"}'
state | jq -e '.over == false and (has("loser") | not)' >/dev/null ||
	fail "the undo of the last turn did not reopen the game: $(state)"
[ "$(curl -s "$BASE/api/matches/1/sheet" | jq -r .last.text)" = "Turn $n undone. It was: $(
	curl -s "$BASE/api/matches/1/sheet" | jq -r ".turns[$((n - 1))].text")" ] ||
	fail "last after the undo: $(curl -s "$BASE/api/matches/1/sheet" | jq -c .last)"
command_ok "{\"cmd\":\"dice\",\"move\":$(tail -n 1 "$log")}"
state | jq -e --arg l "$loser" '.over == true and .loser == $l' >/dev/null ||
	fail "the last move again did not close the game: $(state)"
# A new match ends the complete game first.
command_ok '{"cmd":"start"}'
state | grep -q '"match":2,"game":"beerdie"' || fail "no new match: $(state)"
matches | grep -q '{"match":1,"game":"horse","current":false,"ended":true' ||
	fail "the complete game was not ended by the new match: $(matches)"
stop_daemon
echo ok
