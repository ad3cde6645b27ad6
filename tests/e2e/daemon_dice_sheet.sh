#!/bin/bash
# Between Beer Die matches the scoreboard shows the newest dice game's
# score sheet: the state names it and /api/matches/N/sheet renders it.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
write_config "$WORK/c.ini"
"$DYEREF" import --db "$WORK/dyeref.db" "$top/tests/data/dice/yatzy-full.jsonl" > /dev/null \
	|| fail "import of the Yatzy log"
start_daemon --config "$WORK/c.ini"
state | grep -q '"dice_match":{"match":1,"game":"yatzy","sheet":{"game":"yatzy"' || fail "state does not name the dice match: $(state)"
sheet=$(curl -s "$BASE/api/matches/1/sheet")
echo "$sheet" | grep -q '"players":\["ann","bob"\]' || fail "sheet players: $sheet"
echo "$sheet" | grep -q '{"name":"total","cells":\[298,130\]}' || fail "sheet totals: $sheet"
echo "$sheet" | grep -q '"winner":"ann"' || fail "sheet winner"
[ "$(status_of "$BASE/api/matches/1/throws/1")" = 404 ] || fail "a dice match has no Beer Die throws"
curl -s "$BASE/api/matches/1/log" | head -n 1 | grep -q '"game":"yatzy"' || fail "dice match log"
# A Beer Die match takes the screen back; its sheet does not exist.
login
command_ok '{"cmd":"start"}'
state | grep -q '"dice_match"' && fail "dice sheet still named during a Beer Die match"
[ "$(status_of "$BASE/api/matches/2/sheet")" = 404 ] || fail "Beer Die match has a sheet"
stop_daemon
echo ok
