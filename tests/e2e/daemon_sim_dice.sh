#!/bin/bash
# dyeref serve --sim=table: a dice game an official starts from the console
# between the demo's matches stands, as a Beer Die match would: neither
# the demo's next match, due pause_s after the official's End, nor a
# simulated throw in the middle of the game sets it aside. Once the dice
# game ends, the demo's next match follows, also from a spent simulator;
# a dice game played to its last move stays open for corrections pause_s,
# then the demo ends it and moves on; an undo in that pause reopens it.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
matches() { curl -s --max-time "$(slow 10)" "$BASE/api/matches"; }
ignored() { grep -c 'a throw outside a match was ignored' "$WORK/daemon.log" || true; }
# until_ok SECONDS WHAT COMMAND...: polls COMMAND every 0.1 s; fails after
# SECONDS with WHAT and the list of matches.
until_ok() {
	local secs=$1 what=$2
	shift 2
	for _ in $(seq 1 "$(slow_n $((secs * 10)))"); do
		"$@" && return
		sleep 0.1
	done
	fail "$what within $secs s: $(matches)"
}
current() { matches | grep -q "{\"match\":$1,\"game\":\"$2\",\"current\":true"; }
stands() { grep -q 'demo: match 2, begun from the console, stands' "$WORK/daemon.log"; }
more_ignored() { [ "$(ignored)" -gt "$1" ]; }
dice_game_stands() { # starts a Yatzy as match 2 and waits for the demo to let it be
	command_ok '{"cmd":"start","game":"yatzy","players":["ann","bob"]}'
	command_ok '{"cmd":"dice","move":{"type":"turn","rolls":[[1,1,2,5,6],[1,3,4]],"box":"ones"}}'
	until_ok 15 "no word of the dice game standing" stands
}

# [sim] pause_s = 1: the demo's next match is due a second after a throw
# finds the table empty, not 8 s.
write_config "$WORK/c.ini" "[fusion]" "review = count" "[sim]" "pause_s = 1" "speed = 4"
start_daemon --config "$WORK/c.ini" --sim=table
login
until_ok 60 "no demo match" current 1 beerdie
# The official ends the demo's match; a simulated throw then finds none
# under way, so the demo's next match is due pause_s later.
command_ok '{"cmd":"end"}'
until_ok 60 "no simulated throw outside a match" more_ignored 0
dice_game_stands
# Past the simulated throws that come while it is played (none of them
# may make the demo's next match due) and three times the pause_s that
# match would have come after: a check that nothing happens can only wait.
until_ok 60 "no simulated throw during the dice game" more_ignored "$(ignored)"
sleep "$(slow 3)"
m=$(matches)
echo "$m" | grep -q '"match":3' && fail "the demo started a match over the dice game: $m"
echo "$m" | grep -q '{"match":2,"game":"yatzy","current":true,"ended":false' ||
	fail "the official's dice game is not under way: $m"
command_ok '{"cmd":"dice","move":{"type":"turn","rolls":[[2,2,3,4,6]],"box":"ones"},"accept_zero":true}'
grep -q 'set aside' "$WORK/daemon.log" && fail "$(grep 'set aside' "$WORK/daemon.log")"
# Ended, the table is the demo's again: the next simulated throw finds no
# match under way and the demo's next match follows.
command_ok '{"cmd":"end"}'
until_ok 60 "no demo match after the dice game ended" current 3 beerdie
stop_daemon

# A spent simulator (one throw a match) sends no throw to find the table
# empty once the dice game ends: the official's End is the cue, as the
# simulator's last ruling would have been.
rm -f "$WORK/dyeref.db"*
write_config "$WORK/c.ini" "[fusion]" "review = count" "[sim]" "max_throws = 1" "pause_s = 1" "speed = 4"
start_daemon --config "$WORK/c.ini" --sim=table
login
until_ok 60 "no simulated ruling" eval 'state | grep -q "\"match\":1,.*\"throws\":1"'
command_ok '{"cmd":"end"}'
dice_game_stands
command_ok '{"cmd":"end"}'
until_ok 30 "no demo match after the dice game ended" current 3 beerdie
stop_daemon

# horse_played: a daemon on the simulated table, its first match ended by
# the official, then a whole Horse game from the console as match 2.
horse_played() {
	start_daemon --config "$WORK/c.ini" --sim=table
	login
	until_ok 60 "no simulated ruling" eval 'state | grep -q "\"match\":1,.*\"throws\":1"'
	command_ok '{"cmd":"end"}'
	command_ok '{"cmd":"start","game":"horse","players":["ann","bob","cid","dan"]}'
	until_ok 15 "no word of the dice game standing" stands
	tail -n +2 "$top/tests/data/dice/horse-full.jsonl" | while IFS= read -r line; do
		command_ok "{\"cmd\":\"dice\",\"move\":$line}"
	done
}

# A whole Horse game from the console: its last move completes it (over,
# the loser), the demo's next match follows pause_s later and ends it.
rm -f "$WORK/dyeref.db"*
top=$(cd "$(dirname "$0")/../.." && pwd)
horse_played
until_ok 30 "no demo match after the dice game's last move" current 3 beerdie
matches | grep -q '{"match":2,"game":"horse","current":false,"ended":true' ||
	fail "the finished dice game was not ended by the demo: $(matches)"
grep -q 'set aside' "$WORK/daemon.log" && fail "$(grep 'set aside' "$WORK/daemon.log")"
stop_daemon

# The official undoes the Horse game's last move in the pause after it: the
# game is open again and the demo's next match is called off until the
# game is complete again, a whole pause after that.
rm -f "$WORK/dyeref.db"*
pause=$(slow 4)
write_config "$WORK/c.ini" "[fusion]" "review = count" "[sim]" "max_throws = 1" "pause_s = $pause" "speed = 4"
horse_played
command_ok '{"cmd":"undo"}'
grep -q 'demo: dice match 2 reopened from the console, plays on' "$WORK/daemon.log" ||
	fail "no word of the reopened dice game"
# Past the pause the last move began: nothing may have ended the game.
sleep "$(awk -v p="$pause" 'BEGIN { print p + 1 }')"
matches | grep -q '{"match":2,"game":"horse","current":true,"ended":false' ||
	fail "the reopened dice game did not stay open: $(matches)"
command_ok "{\"cmd\":\"dice\",\"move\":$(tail -n 1 "$top/tests/data/dice/horse-full.jsonl")}"
until_ok 30 "no demo match after the dice game's last move, again" current 3 beerdie
curl -s --max-time "$(slow 10)" "$BASE/api/matches/2/log" | "$DYEREF" judge > "$WORK/horse" ||
	fail "match 2's log does not judge: $(cat "$WORK/horse")"
tail -n 1 "$WORK/horse" | grep -q '"over":true' || fail "match 2 ended before its last move again: $(tail -n 2 "$WORK/horse")"
stop_daemon
echo "ok"
