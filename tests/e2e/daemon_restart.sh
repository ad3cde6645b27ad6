#!/bin/bash
# kill -9 mid-match, start again: the same score and history (every ruling
# was on disk before anyone saw it). Also SIGTERM exits 0 and SIGHUP reloads
# the console PIN.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
login
# Names the match line could not hold are refused before anything is stored.
[ "$(command_status '{"cmd":"start","team_names":["Or\u0001ange","Blue"]}')" = 400 ] ||
	fail "a team name with a control character was accepted"
[ "$(command_status '{"cmd":"start","teams":{"A":["Ann","Bo"],"B":["Ann","Di"]}}')" = 400 ] ||
	fail "a player named twice was accepted"
command_ok '{"cmd":"start","teams":{"A":["Ann","Bo"],"B":["Cy","Di"]},"team_names":["Orange","Blue"]}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"cup","owner":"b2"},{"at":"floor"}]}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"A"},{"at":"floor"}]}'
command_ok '{"cmd":"correct","throw":1,"events":[{"at":"table","half":"A"},{"at":"floor"}]}'
before_score=$(score_of)
before_hist=$(state | grep -o '"history":\[[^]]*\]')
before_log=$(curl -s "$BASE/api/matches/1/log")
[ "$before_score" = '"score":{"A":2,"B":1}' ] || fail "unexpected score before the kill: $before_score"

kill -9 "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null || true
DAEMON_PID=
start_daemon --config "$WORK/c.ini"
[ "$(score_of)" = "$before_score" ] || fail "score after restart: $(score_of), was $before_score"
state | grep -q '"team_names":{"A":"Orange","B":"Blue"}' || fail "team names lost on restart: $(state)"
curl -s "$BASE/api/matches/1/log" | head -1 | grep -q '"names":{"A":"Orange","B":"Blue"}' ||
	fail "team names not in the match line"
[ "$(state | grep -o '"history":\[[^]]*\]')" = "$before_hist" ] || fail "history differs after restart"
[ "$(curl -s "$BASE/api/matches/1/log")" = "$before_log" ] || fail "log differs after restart"
curl -s "$BASE/api/matches/1/throws/1" | grep -q '"corrections":\[{' || fail "correction of throw 1 lost"

# The match goes on after the restart, numbering continues.
login
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}'
state | grep -q '"throws":4' || fail "throw after restart not counted"

# SIGHUP: a new PIN works, the old one (and its sessions) no longer.
sed -i 's/^pin = 4321$/pin = 98765/' "$WORK/c.ini"
kill -HUP "$DAEMON_PID"
for _ in $(seq 1 "$(slow_n 50)"); do grep -q 'reloaded' "$WORK/daemon.log" && break; sleep 0.1; done
grep -q 'reloaded' "$WORK/daemon.log" || fail "no reload message"
[ "$(command_status '{"cmd":"undo"}')" = 403 ] || fail "old session survived the reload"
[ "$(status_of -d pin=4321 "$BASE/console/login")" = 403 ] || fail "old PIN still accepted"
login 98765
stop_daemon
echo ok
