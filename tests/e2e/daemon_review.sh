#!/bin/bash
# Doubtful rulings: with [fusion] review = wait nothing counts until an
# official confirms or corrects; with review = count it counts at once and
# the scoreboard shows the review banner until confirmed or corrected, the
# earliest unsettled ruling first.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
doubtful='{"cmd":"throw","events":[{"at":"table","half":"B","source":"piezo","confidence":0.5},{"at":"floor"}]}'
sure='{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}'

write_config "$WORK/wait.ini" "[fusion]" "review = wait"
start_daemon --config "$WORK/wait.ini"
login
command_ok '{"cmd":"start"}'
command_ok "$doubtful"
s=$(state)
echo "$s" | grep -q '"waiting":true' || fail "doubtful throw not held: $s"
echo "$s" | grep -q '"review":{"throw":1' || fail "no review banner for throw 1: $s"
# With what is proposed, how sure the evidence is, and that it waits.
echo "$s" | grep -q '"review":{"throw":1,"why":"[^"]*","ruling":{"type":"ruling","throw":1,.*"confidence":0.5,"counted":false,"awaiting":1}' ||
	fail "held review without its ruling: $s"
[ "$(score_of)" = '"score":{"A":0,"B":0}' ] || fail "a held ruling counted: $(score_of)"
[ "$(command_status "$sure")" = 409 ] || fail "a throw while one awaits review was not refused"
command_ok '{"cmd":"confirm"}'
[ "$(score_of)" = '"score":{"A":1,"B":0}' ] || fail "confirmed ruling did not count: $(score_of)"
state | grep -q '"waiting":false' || fail "still waiting after confirm"
# Held again, then corrected by the official into a catch: nothing scores.
command_ok "$doubtful"
command_ok '{"cmd":"correct","throw":0,"events":[{"at":"table","half":"B"},{"at":"catch","by":"b1","hands":1}]}'
[ "$(score_of)" = '"score":{"A":1,"B":0}' ] || fail "corrected held ruling: $(score_of)"
curl -s "$BASE/api/matches/1/throws/2" | grep -q '"confirmed":true' || fail "the official's version is not marked"
# Held, then undone: dropped, never logged.
command_ok "$doubtful"
command_ok '{"cmd":"undo"}'
state | grep -q '"throws":2' || fail "undo of a held throw logged something: $(state)"
# A dropped throw stays dropped across a restart.
kill -9 "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true; DAEMON_PID=
start_daemon --config "$WORK/wait.ini"
state | grep -q '"waiting":false' || fail "a dropped throw came back after a restart: $(state)"
# Held, then the daemon dies: the same question is back after the restart,
# nothing counted; the official's confirmation then counts it (b1 onto A's half).
login
command_ok "${doubtful/\"half\":\"B\"/\"half\":\"A\"}"
kill -9 "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true; DAEMON_PID=
start_daemon --config "$WORK/wait.ini"
s=$(state)
echo "$s" | grep -q '"waiting":true' || fail "held throw lost on restart: $s"
echo "$s" | grep -q '"review":{"throw":3' || fail "no review banner for throw 3 after restart: $s"
echo "$s" | grep -q '"throws":2' || fail "held throw counted on restart: $s"
[ "$(score_of)" = '"score":{"A":1,"B":0}' ] || fail "held ruling counted after restart: $(score_of)"
login
command_ok '{"cmd":"confirm"}'
[ "$(score_of)" = '"score":{"A":1,"B":1}' ] || fail "confirmed restored ruling: $(score_of)"
curl -s "$BASE/api/matches/1/throws/3" | grep -q '"confirmed":true' || fail "restored ruling not confirmed"
curl -s "$BASE/api/matches/1/throws/3" | grep -q '"source":"piezo"' || fail "observations of the held throw lost"
command_ok '{"cmd":"end"}'
stop_daemon

write_config "$WORK/count.ini" "[fusion]" "review = count"
start_daemon --config "$WORK/count.ini"
login
command_ok '{"cmd":"start"}'
state | grep -q '"match":2' || fail "second match not numbered 2: $(state)"
command_ok "$doubtful"
[ "$(score_of)" = '"score":{"A":1,"B":0}' ] || fail "review=count did not count: $(score_of)"
state | grep -q '"review":{"throw":1' || fail "no review banner in count mode"
command_ok '{"cmd":"confirm","throw":1}'
state | grep -q '"review":{' && fail "banner still up after confirm"
curl -s "$BASE/api/matches/2/throws/1" | grep -q '"confirmed":true' || fail "confirmation not kept"
# Clean throws after a doubtful one do not take its banner down: the
# earliest ruling nobody settled stays shown until confirmed or corrected.
command_ok "$doubtful"
command_ok "$sure"
command_ok "$doubtful"
state | grep -q '"review":{"throw":2,.*"counted":true,"awaiting":2}' || fail "earliest open review not shown: $(state)"
command_ok '{"cmd":"confirm","throw":2}'
state | grep -q '"review":{"throw":4,.*"counted":true,"awaiting":1}' || fail "next open review not shown: $(state)"
command_ok '{"cmd":"correct","throw":4,"events":[{"at":"table","half":"B"},{"at":"floor"}]}'
state | grep -q '"review":{' && fail "banner still up after the correction: $(state)"
# The confirmation is in the log: it survives a restart.
kill -9 "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true; DAEMON_PID=
start_daemon --config "$WORK/count.ini"
curl -s "$BASE/api/matches/2/throws/1" | grep -q '"confirmed":true' || fail "confirmation lost on restart"
stop_daemon
echo ok
