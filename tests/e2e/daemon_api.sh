#!/bin/bash
# The JSON API over loopback, and a ruling arriving on /api/events after
# simulated sensor input (--sim: the demo's piezo/camera observations go
# through fusion, the judge and the store before the push).
set -eu
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini" --sim

curl -s -N --max-time "$(slow 25)" "$BASE/api/events" > "$WORK/events" &
SSE=$!
s=$(state)
echo "$s" | grep -q '"match":1' || fail "state has no match: $s"
echo "$s" | grep -q '"throws":0' || fail "a fresh match has throws: $s"
echo "$s" | grep -q '"health":{' || fail "no health strip: $s"
version=$(cat "$(dirname "$0")/../../VERSION")
echo "$s" | grep -qF "\"version\":\"$version\"" || fail "state lacks version $version: $s"
grep -qF "(version $version;" "$WORK/daemon.log" || fail "start-up log lacks the version: $(cat "$WORK/daemon.log")"

# The first simulated throw lands some 5 s in: wait for its ruling.
for _ in $(seq 1 "$(slow_n 200)"); do
	grep -q '"throws":1' "$WORK/events" && break
	sleep 0.1
done
grep -q '^event: state$' "$WORK/events" || fail "no SSE state event"
grep '"throws":1' "$WORK/events" | grep -q '"why":\["BD-P1"\]' || fail "ruling of throw 1 missing on SSE: $(cat "$WORK/events")"
grep '"throws":1' "$WORK/events" | grep -q '"score":{"A":1,"B":0}' || fail "score not pushed"
kill "$SSE" 2>/dev/null || true

# It was committed before it was pushed: the log and the throw are there.
log=$(curl -s --max-time "$(slow 10)" "$BASE/api/matches/1/log")
[ "$(echo "$log" | head -n 1 | grep -c '"type":"match"')" = 1 ] || fail "log: no match line: $log"
echo "$log" | grep -q '"type":"throw"' || fail "log: no throw line"
[ "$(curl -s -o /dev/null -w '%{content_type}' "$BASE/api/matches/1/log")" = application/x-ndjson ] || fail "log content type"
t=$(curl -s --max-time "$(slow 10)" "$BASE/api/matches/1/throws/1")
echo "$t" | grep -q '"observations":\[' || fail "throw 1 has no observations: $t"
echo "$t" | grep -q '"arrivals":\[' || fail "throw 1 has no piezo arrivals"
echo "$t" | grep -q '"source":"piezo+camera"' || fail "throw 1 was not fused from piezo and camera: $t"
curl -s "$BASE/api/matches" | grep -q '"match":1,"game":"beerdie","current":true' || fail "match list: $(curl -s "$BASE/api/matches")"

[ "$(status_of "$BASE/api/matches/1/throws/99")" = 404 ] || fail "missing throw not 404"
[ "$(status_of "$BASE/api/matches/77/log")" = 404 ] || fail "missing match not 404"
[ "$(status_of "$BASE/api/matches/x/log")" = 404 ] || fail "bad match number not 404"
[ "$(status_of "$BASE/nothing")" = 404 ] || fail "unknown page not 404"
for p in / /console /replay/1 /rules /app.css /scoreboard.js; do
	[ "$(status_of "$BASE$p")" = 200 ] || fail "$p not 200"
done
curl -s -D - -o /dev/null "$BASE/" | grep -qi '^content-security-policy: default-src .self.' || fail "no CSP header"
stop_daemon
echo "ok"
