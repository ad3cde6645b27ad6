#!/bin/bash
# Who, when, why: the official's name is asked at login and kept in the
# session; every correction, undo and confirmation is stored in the match
# log with that name, the wall time and an optional reason, and the throw
# pages, the throws list and the exported log carry them.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini" "[fusion]" "review = count"
start_daemon --config "$WORK/c.ini"
url=$BASE/console/login

# The name: optional ("official"), 1-32 bytes of printable UTF-8.
body=$(curl -s --max-time "$(slow 10)" -d pin=4321 "$url")
echo "$body" | grep -q '"official":"official"' || fail "login without a name: $body"
for bad in 'name=' "name=$(printf 'x%.0s' $(seq 1 33))" 'name=a%0Ab' 'name=%FF%FE' 'name=%7F'; do
	s=$(curl -s -o "$WORK/out" -w '%{http_code}' --max-time "$(slow 10)" -d "pin=4321&$bad" "$url")
	[ "$s" = 400 ] && grep -q '"error":"name: ' "$WORK/out" || fail "login with $bad -> $s $(cat "$WORK/out")"
done
COOKIES=$WORK/cookies
body=$(curl -s --max-time "$(slow 10)" -c "$COOKIES" -d 'pin=4321&name=K%C3%BCm' "$url")
echo "$body" | grep -q '"official":"Küm"' || fail "login as Küm: $body"
CSRF=$(printf '%s' "$body" | sed -n 's/.*"csrf":"\([0-9a-f]*\)".*/\1/p')
curl -s -b "$COOKIES" "$BASE/console/session" | grep -q '"official":"Küm"' || fail "session: $(curl -s -b "$COOKIES" "$BASE/console/session")"
console_status | grep -q '"official":"Küm"' || fail "console status: $(console_status)"

command_ok '{"cmd":"start","teams":{"A":["Al","Bo"],"B":["Cy","Di"]},"team_names":["Orange","Blue"]}'
grep -q '^{"ok":true,"result":{"match":1,"throw":null,"ruling":null,"score":{"A":0,"B":0}' "$WORK/last" ||
	fail "start's answer: $(cat "$WORK/last")"
# Throw 1 doubtful (counted), throw 2 sure.
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B","source":"piezo","confidence":0.62},{"at":"floor"}]}'
grep -q '"result":{"match":1,"throw":1,"ruling":{"type":"ruling","throw":1,.*"review":true' "$WORK/last" ||
	fail "throw's answer: $(cat "$WORK/last")"
command_ok '{"cmd":"throw","thrower":"Cy","events":[{"at":"table","half":"A"},{"at":"floor"}]}'
# The review box has the proposed ruling, the reason, the confidence.
state | grep -q '"review":{"throw":1,"why":"[^"]*","ruling":{"type":"ruling","throw":1,.*"confidence":0.62,"counted":true,"awaiting":1}' ||
	fail "state.review: $(state)"

# A reason over 200 bytes is refused, nothing stored.
long=$(printf 'r%.0s' $(seq 1 201))
[ "$(command_status "{\"cmd\":\"confirm\",\"throw\":1,\"reason\":\"$long\"}")" = 400 ] || fail "a long reason was not 400"
grep -q '"error":"reason: ' "$WORK/last" || fail "long reason: $(cat "$WORK/last")"
curl -s "$BASE/api/matches/1/log" | grep -q '"type":"confirm"' && fail "a refused confirm was stored"
command_ok '{"cmd":"confirm","throw":1,"reason":"seen from the B end"}'
command_ok '{"cmd":"correct","throw":2,"thrower":"cy","reason":"b1 caught it","events":[{"at":"table","half":"A"},{"at":"catch","by":"Al","hands":2}]}'
grep -q '"result":{"match":1,"throw":2,"ruling":{"type":"ruling","throw":2,.*"corrected":true' "$WORK/last" ||
	fail "correction's answer: $(cat "$WORK/last")"
command_ok '{"cmd":"undo"}'

log=$(curl -s --max-time "$(slow 10)" "$BASE/api/matches/1/log")
echo "$log" | grep -q '^{"type":"confirm","throw":1,"audit":{"official":"Küm","wall_ms":[0-9]\{13\},"reason":"seen from the B end"}}$' ||
	fail "no confirm line: $log"
echo "$log" | grep '"type":"correct","throw":2' | head -n 1 | grep -q '"audit":{"official":"Küm","wall_ms":[0-9]*,"reason":"b1 caught it"}}$' ||
	fail "correct line without the audit: $log"
echo "$log" | grep '"type":"correct","throw":2' | tail -n 1 | grep -q '"undo":true,"audit":{"official":"Küm","wall_ms":[0-9]*}}$' ||
	fail "undo line without its mark and audit: $log"
# The wall time is now's, in ms.
ms=$(echo "$log" | sed -n 's/.*"type":"confirm".*"wall_ms":\([0-9]*\).*/\1/p')
now=$(date +%s%3N)
[ $((now - ms)) -ge 0 ] && [ $((now - ms)) -lt 600000 ] || fail "confirm's wall_ms $ms is not now ($now)"

t1=$(curl -s "$BASE/api/matches/1/throws/1")
echo "$t1" | grep -q '"confirmations":\[{"official":"Küm","wall_ms":[0-9]*,"reason":"seen from the B end"}\]' ||
	fail "throw 1's confirmations: $t1"
echo "$t1" | grep -q '"undo":null' || fail "throw 1 is not undone: $t1"
echo "$t1" | grep -q '"house":{"target_points":10' || fail "throw 1 without the house rules: $t1"
t2=$(curl -s "$BASE/api/matches/1/throws/2")
echo "$t2" | grep -q '"corrections":\[{"type":"throw",.*"undo":false,"audit":{"official":"Küm","wall_ms":[0-9]*,"reason":"b1 caught it"}},{' ||
	fail "throw 2's corrections: $t2"
echo "$t2" | grep -q '"undo":{"official":"Küm","wall_ms":[0-9]*,"reason":""}' || fail "throw 2's undo: $t2"

# The list, oldest first, with what the console shows of each.
l=$(curl -s "$BASE/api/matches/1/throws")
echo "$l" | grep -q '^{"match":1,"players":{"A":\["Al","Bo"\],"B":\["Cy","Di"\]},"team_names":{"A":"Orange","B":"Blue"},"house":{' ||
	fail "throws list head: $l"
echo "$l" | grep -q '"throws":\[{"throw":1,"thrower":"a1","thrower_name":"Al","ruling":{.*"words":"1 to Orange","confidence":0.62,"review":true,"confirmed":true,"corrected":false,"undone":false,"held":false,"score":{"A":1,"B":0}},{"throw":2,"thrower":"b1","thrower_name":"Cy",.*"words":"re-toss",.*"corrected":true,"undone":true,' ||
	fail "throws list: $l"
[ "$(status_of "$BASE/api/matches/9/throws")" = 404 ] || fail "throws of a missing match not 404"

# Exported, the log judges as it was shown: the confirm line is skipped.
command_ok '{"cmd":"end"}'
"$DYEREF" export --db "$WORK/dyeref.db" --match 1 > "$WORK/m.jsonl"
grep -q '"type":"confirm"' "$WORK/m.jsonl" || fail "export lost the confirm line"
"$DYEREF" judge "$WORK/m.jsonl" > "$WORK/judged" || fail "judge of the export: $(cat "$WORK/judged")"
[ "$(grep -c '"type":"ruling"' "$WORK/judged")" = 2 ] || fail "judge: $(cat "$WORK/judged")"
grep -q '"type":"final","score":{"A":1,"B":0}' "$WORK/judged" || fail "judge's final: $(cat "$WORK/judged")"
# The ended match's list reads from the log alone.
curl -s "$BASE/api/matches/1/throws" | grep -q '"throw":1,.*"confirmed":true' || fail "old match's list: $(curl -s "$BASE/api/matches/1/throws")"

# A dice game's answers: what was written for whom, and the sheet.
command_ok '{"cmd":"start","game":"yatzy","players":["Kim","Lou"]}'
grep -q '^{"ok":true,"result":{"match":2}}$' "$WORK/last" || fail "dice start's answer: $(cat "$WORK/last")"
command_ok '{"cmd":"dice","move":{"type":"turn","player":"kim","rolls":[[6,6,6,2,3]],"box":"sixes"}}'
grep -q '^{"ok":true,"result":{"action":"move","turn":1,"player":"Kim","box":"sixes","points":18,"wrote":true,"text":"[^"]*","match":2,"sheet":{' "$WORK/last" ||
	fail "dice move's answer: $(cat "$WORK/last")"
command_ok '{"cmd":"correct","turn":1,"move":{"type":"turn","rolls":[[6,6,6,2,3]],"box":"chance"},"reason":"box"}'
grep -q '"result":{"action":"correct","turn":1,"player":"Kim","box":"chance","points":23,' "$WORK/last" ||
	fail "dice correction's answer: $(cat "$WORK/last")"
[ "$(command_status '{"cmd":"correct","throw":1,"events":[]}')" = 400 ] || fail "a throw correction in a dice game was not 400"
grep -q '"error":"turn: a dice game is under way' "$WORK/last" || fail "throw correction in a dice game: $(cat "$WORK/last")"
command_ok '{"cmd":"undo"}'
grep -q '"result":{"action":"undo",' "$WORK/last" || fail "dice undo's answer: $(cat "$WORK/last")"
curl -s "$BASE/api/matches/2/log" | grep -q '"official":"Küm"' || fail "the dice log lacks the official: $(curl -s "$BASE/api/matches/2/log")"
stop_daemon
echo ok
