#!/bin/bash
# Duties stay until done: every duty of the match is in /api/state's
# "duties" with an id, done and done_by; the console's duty_done marks one
# (a duty line in the match log, judging skips it), a restart keeps the
# mark, an unknown id is a 404 that says so, and a corrected throw that no
# longer gives a duty takes its mark with it.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","teams":{"A":["Al","Bo"],"B":["Cy","Di"]},"team_names":["Orange","Blue"]}'
# Throw 1 by Al: a sink in Cy's cup (kill n' fill, b1). Throw 2 by Cy: on the
# table. Throw 3 by Bo: a sink in Di's cup (kill n' fill, b2).
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"cup","owner":"b1","sink":true}]}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"A"}]}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"cup","owner":"b2","sink":true}]}'
duties=$(state | grep -o '"duties":\[[^]]*\]')
echo "$duties" | grep -q '{"duty":"kill_n_fill","why":"[^"]*","id":"3:kill_n_fill:b2","done":false,"player":"Di","throw":3}' ||
	fail "throw 3's duty: $duties"
echo "$duties" | grep -q '"id":"1:kill_n_fill:b1","done":false,"player":"Cy","throw":1}' ||
	fail "throw 1's duty is not listed two throws later: $duties"

# Marked done by the official: done, done_by, and a duty line in the log.
command_ok '{"cmd":"duty_done","duty":"1:kill_n_fill:b1","done":true}'
grep -q '^{"ok":true,"result":{"match":1,' "$WORK/last" || fail "duty_done's answer: $(cat "$WORK/last")"
state | grep -q '"id":"1:kill_n_fill:b1","done":true,"done_by":"official","player":"Cy"' ||
	fail "not done: $(state)"
state | grep -q '"id":"3:kill_n_fill:b2","done":false' || fail "throw 3's duty changed: $(state)"
log=$(curl -s --max-time "$(slow 10)" "$BASE/api/matches/1/log")
echo "$log" | grep -q '^{"type":"duty","duty":"1:kill_n_fill:b1","done":true,"audit":{"official":"official","wall_ms":[0-9]\{13\}}}$' ||
	fail "no duty line: $log"
# A second tap writes nothing more.
command_ok '{"cmd":"duty_done","duty":"1:kill_n_fill:b1","done":true}'
[ "$(curl -s "$BASE/api/matches/1/log" | grep -c '"type":"duty"')" = 1 ] || fail "a second mark was written"

# Unknown or malformed ids: 4xx with a message, nothing stored.
[ "$(command_status '{"cmd":"duty_done","duty":"9:kill_n_fill:b1","done":true}')" = 404 ] ||
	fail "an unknown duty was not 404: $(cat "$WORK/last")"
grep -q '"error":"duty 9:kill_n_fill:b1: no such duty in this match"' "$WORK/last" ||
	fail "unknown duty's message: $(cat "$WORK/last")"
[ "$(command_status '{"cmd":"duty_done","duty":"1:kill_n_fill:b1"}')" = 400 ] || fail "duty_done without done was not 400"
grep -q '"error":"done: ' "$WORK/last" || fail "missing done's message: $(cat "$WORK/last")"
[ "$(command_status '{"cmd":"duty_done","duty":"x\u0001","done":true}')" = 400 ] || fail "a control character in an id was not 400"
[ "$(curl -s "$BASE/api/matches/1/log" | grep -c '"type":"duty"')" = 1 ] || fail "a refused mark was stored"

# Survives a restart; the exported log judges without a line for it.
before=$(state | grep -o '"duties":\[[^]]*\]')
kill -9 "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null || true
DAEMON_PID=
start_daemon --config "$WORK/c.ini"
[ "$(state | grep -o '"duties":\[[^]]*\]')" = "$before" ] || fail "duties after restart: $(state), were $before"
curl -s "$BASE/api/matches/1/log" > "$WORK/m.jsonl"
"$DYEREF" judge "$WORK/m.jsonl" > "$WORK/judged" || fail "the log with a duty line does not judge: $(cat "$WORK/judged")"
[ "$(grep -c '"type":"ruling"' "$WORK/judged")" = 3 ] || fail "judged: $(cat "$WORK/judged")"

# Taken back, then the throw corrected: no sink, no duty, no mark.
login
command_ok '{"cmd":"duty_done","duty":"3:kill_n_fill:b2","done":true}'
command_ok '{"cmd":"duty_done","duty":"3:kill_n_fill:b2","done":false}'
state | grep -q '"id":"3:kill_n_fill:b2","done":false,"player":"Di"' || fail "the mark was not taken back: $(state)"
command_ok '{"cmd":"duty_done","duty":"3:kill_n_fill:b2","done":true}'
command_ok '{"cmd":"correct","throw":3,"events":[{"at":"table","half":"B"}]}'
state | grep -q '3:kill_n_fill' && fail "a corrected throw's duty is still listed: $(state)"
state | grep -q '"id":"1:kill_n_fill:b1","done":true' || fail "throw 1's mark lost by the correction: $(state)"
[ "$(command_status '{"cmd":"duty_done","duty":"3:kill_n_fill:b2","done":false}')" = 404 ] ||
	fail "the corrected duty can still be marked"
stop_daemon
echo ok
