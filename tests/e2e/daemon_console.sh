#!/bin/bash
# Console writes need the PIN session and its CSRF token; the scoreboard
# stays public. Then the official's calls: start, throws, correct, undo, end.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
start='{"cmd":"start","teams":{"A":["Ann","Bo"],"B":["Cy","Di"]},"team_names":["Orange","Blue"]}'
cmd_url=$BASE/console/api/command

# Refused: no session, no CSRF token, a wrong token, a wrong PIN, GET.
[ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "$start" "$cmd_url")" = 403 ] \
	|| fail "command without a session was not 403"
[ "$(status_of -d pin=0000 "$BASE/console/login")" = 403 ] || fail "wrong PIN not 403"
login 4321
[ "$(curl -s -o /dev/null -w '%{http_code}' -b "$COOKIES" --data-binary "$start" "$cmd_url")" = 403 ] \
	|| fail "command without the CSRF token was not 403"
[ "$(curl -s -o /dev/null -w '%{http_code}' -b "$COOKIES" -H 'X-CSRF-Token: 00' --data-binary "$start" "$cmd_url")" = 403 ] \
	|| fail "command with a wrong CSRF token was not 403"
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "X-CSRF-Token: $CSRF" --data-binary "$start" "$cmd_url")" = 403 ] \
	|| fail "command with the token but no cookie was not 403"
state | grep -q '"match":null' || fail "a refused command changed the state"
grep -qi 'set-cookie' /dev/null || true
curl -s -D "$WORK/h" -o /dev/null -d pin=4321 "$BASE/console/login"
grep -i '^set-cookie:' "$WORK/h" | grep -qi 'HttpOnly' || fail "cookie not HttpOnly"
grep -i '^set-cookie:' "$WORK/h" | grep -qi 'SameSite=Strict' || fail "cookie not SameSite=Strict"

# The event log's path is the console's alone: the wall screen's state
# (public, and what /api/events pushes) says only whether it writes.
state | grep -qF "$WORK/dyeref.db" && fail "the public state shows the database's path: $(state)"
state | grep -q '"store":{"ok":true,"text":"ok"}' || fail "the public state lost the store's health: $(state)"
[ "$(status_of "$BASE/console/api/status")" = 403 ] || fail "console status without a session was not 403"
console_status > "$WORK/status"
grep -qF "\"db_path\":\"$WORK/dyeref.db\"" "$WORK/status" || fail "console status without the path: $(cat "$WORK/status")"
grep -q '"store":{"ok":true,"text":"ok"' "$WORK/status" || fail "console status without the store: $(cat "$WORK/status")"
# So is the sensors' GPIO chip (the default, gpiochip0: missing here, or
# opened): the public strip says what is wrong, never which device.
state | grep -qE 'gpiochip|/dev/' && fail "the public state names a device: $(state)"
grep -q '"sensors":{"ok":[a-z]*,"text":"[^"]*","detail":"[^"]*gpiochip0' "$WORK/status" ||
	fail "console status without the sensors' chip: $(cat "$WORK/status")"

# Accepted with both.
command_ok "$start"
[ "$(command_status "$start")" = 409 ] || fail "a second start was not refused"
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B","x":1.9,"y":0.4},{"at":"floor"}]}'
[ "$(score_of)" = '"score":{"A":1,"B":0}' ] || fail "BD-P1 throw: $(score_of)"
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"cup","owner":"b1","sink":true}]}'
[ "$(score_of)" = '"score":{"A":3,"B":0}' ] || fail "BD-P8 sink: $(score_of)"
state | grep -q '"duty":"kill_n_fill"' || fail "sink duty not shown"
# Correct throw 1 into a catch: refold gives 2 (only the sink).
command_ok '{"cmd":"correct","throw":1,"events":[{"at":"table","half":"B"},{"at":"catch","by":"b1","hands":1}]}'
[ "$(score_of)" = '"score":{"A":2,"B":0}' ] || fail "correction not refolded: $(score_of)"
curl -s "$BASE/api/matches/1/log" | grep -q '"type":"correct","throw":1' || fail "correction not logged"
# The answer says what the command did: the throw, its ruling, the score.
grep -q '^{"ok":true,"result":{"match":1,"throw":1,"ruling":{"type":"ruling","throw":1,' "$WORK/last" ||
	fail "correction's answer: $(cat "$WORK/last")"
grep -q '"score":{"A":2,"B":0},"team_names":{"A":"Orange","B":"Blue"}}}$' "$WORK/last" ||
	fail "correction's answer without the score and team names: $(cat "$WORK/last")"
# Players by name as the match knows them (exact, then any case) or by
# seat: one canonical form (the seat) is stored.
command_ok '{"cmd":"correct","throw":1,"events":[{"at":"table","half":"B"},{"at":"catch","by":"Cy","hands":1}]}'
command_ok '{"cmd":"correct","throw":1,"thrower":"ann","events":[{"at":"table","half":"B"},{"at":"catch","by":"b1","hands":1}]}'
curl -s "$BASE/api/matches/1/log" | grep '"type":"correct","throw":1' | sed 's/"audit":.*//; s/"thrower":"[^"]*",//' > "$WORK/corr"
[ "$(wc -l < "$WORK/corr")" = 3 ] && [ "$(sort -u "$WORK/corr" | wc -l)" = 1 ] ||
	fail "corrections by name and by seat differ: $(cat "$WORK/corr")"
grep -q '"by":"Cy"' "$WORK/corr" || fail "the log does not name the catcher as the match does: $(cat "$WORK/corr")"
curl -s "$BASE/api/matches/1/log" | grep '"type":"correct","throw":1' | tail -n 1 | grep -q '"thrower":"Ann"' ||
	fail "thrower by name in any case not stored as the match names it"
[ "$(command_status '{"cmd":"call","event":{"at":"catch","by":"Zed"}}')" = 400 ] || fail "unknown name not 400"
grep -q '"error":"event.by: not a player (Ann, Bo, Cy, Di, a1, a2, b1 or b2)"' "$WORK/last" ||
	fail "unknown name: $(cat "$WORK/last")"
# Undo the sink: logged as a re-toss of throw 2.
command_ok '{"cmd":"undo"}'
[ "$(score_of)" = '"score":{"A":0,"B":0}' ] || fail "undo: $(score_of)"
# A second undo has nothing left to undo: 404, and no second correction.
[ "$(command_status '{"cmd":"undo"}')" = 404 ] || fail "a second undo was not 404"
grep -q 're-toss already' "$WORK/last" || fail "second undo: $(cat "$WORK/last")"
[ "$(curl -s "$BASE/api/matches/1/log" | grep -c '"type":"correct","throw":2')" = 1 ] ||
	fail "a second undo wrote another correction"
# Manual calls from the console go through fusion: a low call, then a
# re-toss completes a throw at once.
command_ok '{"cmd":"call","event":{"at":"low_call","by":"b1"}}'
command_ok '{"cmd":"call","event":{"at":"retoss"}}'
state | grep -q '"throws":3' || fail "console calls did not make a throw: $(state)"
[ "$(command_status '{"cmd":"call","event":{"at":"catch","by":"zz"}}')" = 400 ] || fail "bad call not 400"
grep -q '"error":"event.by' "$WORK/last" || fail "400 does not name the field: $(cat "$WORK/last")"
[ "$(command_status '{"cmd":"correct","throw":40,"events":[]}')" = 404 ] || fail "correcting a missing throw not 404"
# Nothing to confirm on a throw nobody doubted: a conflict, said so.
[ "$(command_status '{"cmd":"confirm","throw":1}')" = 409 ] || fail "confirming a sure throw was not 409"
grep -q '^{"error":"throw 1 is not under review"}$' "$WORK/last" || fail "confirm of a sure throw: $(cat "$WORK/last")"
[ "$(command_status '{"cmd":"confirm"}')" = 409 ] || fail "confirm with no review was not 409"
grep -q '"no ruling is under review"' "$WORK/last" || fail "confirm with no review: $(cat "$WORK/last")"
command_ok '{"cmd":"end"}'
state | grep -q '"match":null' || fail "end did not end the match"
# A won game (BD-W1) takes no more calls: fusion held them and their throw was
# refused out of sight, or counted once an undo reopened the game. Nor a
# manual throw: the same conflict with the match's state, not a bad request.
command_ok '{"cmd":"start","house":{"target_points":1,"win_by":1}}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}'
for c in '{"cmd":"call","event":{"at":"low_call","by":"b1"}}' '{"cmd":"dye_up_missed"}' \
	'{"cmd":"throw","events":[{"at":"table","half":"A"},{"at":"floor"}]}'; do
	s=$(command_status "$c")
	[ "$s" = 409 ] && grep -q 'the game is over' "$WORK/last" || fail "$c in a won game -> $s $(cat "$WORK/last")"
done
command_ok '{"cmd":"undo"}'
command_ok '{"cmd":"call","event":{"at":"retoss"}}'
state | grep -q '"throws":2' || fail "a call after the undo reopened the game made no throw: $(state)"
command_ok '{"cmd":"end"}'
# Logout ends the session.
[ "$(curl -s -o /dev/null -w '%{http_code}' -b "$COOKIES" -H "X-CSRF-Token: $CSRF" -X POST "$BASE/console/logout")" = 200 ] || fail "logout"
[ "$(command_status "$start")" = 403 ] || fail "session still valid after logout"
# Guessing the PIN locks the login for a while, for that client only: a
# guest at 127.0.0.2 guessing does not lock out the official at 127.0.0.1.
for _ in 1 2 3 4 5; do status_of --interface 127.0.0.2 -d pin=9999 "$BASE/console/login" >/dev/null; done
[ "$(status_of --interface 127.0.0.2 -d pin=4321 "$BASE/console/login")" = 429 ] \
	|| fail "no lockout after 5 wrong PINs"
[ "$(status_of --interface 127.0.0.1 -d pin=4321 "$BASE/console/login")" = 200 ] \
	|| fail "a guest's wrong PINs locked out the official"
for _ in 1 2 3 4 5; do status_of -d pin=9999 "$BASE/console/login" >/dev/null; done
[ "$(status_of -d pin=4321 "$BASE/console/login")" = 429 ] || fail "the official's own wrong PINs did not lock"
# A login from another site's page (a form or script on a page the
# official's browser opened) is refused before its PIN is read: it neither
# logs in nor spends that address's tries, so the right PIN still gets in.
for h in 'Origin: http://evil.example' 'Sec-Fetch-Site: cross-site' 'Origin: null'; do
	for _ in 1 2 3 4 5 6; do
		s=$(curl -s -o "$WORK/out" -w '%{http_code}' --max-time "$(slow 10)" --interface 127.0.0.4 \
			-H "$h" -d pin=9999 "$BASE/console/login")
		[ "$s" = 403 ] && grep -q 'cross-site' "$WORK/out" ||
			fail "wrong PIN with '$h' -> $s $(cat "$WORK/out"), want 403 cross-site"
	done
	s=$(status_of --interface 127.0.0.4 -H "$h" -d pin=4321 "$BASE/console/login")
	[ "$s" = 403 ] || fail "right PIN with '$h' -> $s, want 403"
done
s=$(status_of --interface 127.0.0.4 -H "Origin: $BASE" -H 'Sec-Fetch-Site: same-origin' \
	-d pin=4321 "$BASE/console/login")
[ "$s" = 200 ] || fail "the console's own login after cross-site ones -> $s, want 200"
stop_daemon

# A database path in another encoding (Latin-1 'caf\xe9', legal on Linux)
# is the console's still: its status answers, the byte shown as '?'.
odd=$WORK/$(printf 'caf\351')
mkdir -p "$odd"
{ printf '[web]\nbind = 127.0.0.1\nport = 0\npin = 4321\n[db]\npath = %s/dyeref.db\n' "$odd"; } > "$WORK/odd.ini"
start_daemon --config "$WORK/odd.ini"
login
[ "$(status_of -b "$COOKIES" "$BASE/console/api/status")" = 200 ] ||
	fail "console status with a Latin-1 database path was not 200"
console_status | grep -qF "\"db_path\":\"$WORK/caf?/dyeref.db\"" ||
	fail "console status does not show the path scrubbed: $(console_status)"
stop_daemon
echo ok
