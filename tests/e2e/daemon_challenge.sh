#!/bin/bash
# A challenge replay on the wall: show_on_wall puts {"match","throw",
# "seconds","left_ms"} into /api/state's "challenge" for [web] challenge_s
# on the daemon's clock, or until dismiss_wall; a throw that does not
# exist is a 404 that says so and shows nothing.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
# A long challenge_s first, so that seeing it shown never races its time
# on a slow machine; then a short one, to see it leave by itself.
write_config "$WORK/c.ini" "[web]" "challenge_s = 600"
start_daemon --config "$WORK/c.ini"
login
state | grep -q '"challenge":null' || fail "a challenge before any: $(state)"
command_ok '{"cmd":"start","teams":{"A":["Al","Bo"],"B":["Cy","Di"]}}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}'
[ "$(command_status '{"cmd":"show_on_wall","match":1,"throw":2}')" = 404 ] || fail "a missing throw was not 404"
grep -q '"error":"match 1 has no throw 2"' "$WORK/last" || fail "missing throw's message: $(cat "$WORK/last")"
[ "$(command_status '{"cmd":"show_on_wall","match":7,"throw":1}')" = 404 ] || fail "a missing match was not 404"
[ "$(command_status '{"cmd":"show_on_wall","match":1}')" = 400 ] || fail "show_on_wall without a throw was not 400"
state | grep -q '"challenge":null' || fail "a refused challenge shows: $(state)"

command_ok '{"cmd":"show_on_wall","match":1,"throw":1}'
state | grep -q '"challenge":{"match":1,"throw":1,"seconds":600,"left_ms":[0-9]*}' || fail "not shown: $(state)"
command_ok '{"cmd":"dismiss_wall"}'
state | grep -q '"challenge":null' || fail "not dismissed: $(state)"
command_ok '{"cmd":"show_on_wall","match":1,"throw":1}'
state | grep -q '"challenge":{"match":1' || fail "not shown again: $(state)"
stop_daemon

# It leaves by itself after its time: bounded polling, not a sleep
# against the clock.
write_config "$WORK/c.ini" "[web]" "challenge_s = 0.5"
start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"show_on_wall","match":1,"throw":1}'
poll_until 10 sh -c "curl -s $BASE/api/state | grep -q '\"challenge\":null'" || fail "still shown after its time: $(state)"
stop_daemon
echo ok
