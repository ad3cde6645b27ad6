#!/bin/bash
# Hostile clients: malformed and oversized requests get a 4xx and do no
# harm; idle connections do not starve the scoreboard (crowds beyond an
# address's 32 connections, and slow heads: daemon_slowloris.sh).
set -eu
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
# The server may hang up on a bad request while we still write: that is
# its right, not a reason for this script to die of SIGPIPE.
trap '' PIPE

# raw TEXT: sends bytes over a fresh connection, prints the status code.
raw() {
	local fd
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT"
	printf '%b' "$1" >&"$fd"
	timeout "$(slow 5)" head -c 12 <&"$fd" | sed -n 's/^HTTP\/1\.[01] \([0-9]*\).*/\1/p'
	exec {fd}>&-
}
is4xx() { case "$1" in 4[0-9][0-9]) return 0 ;; *) return 1 ;; esac; }

# A line that is not HTTP at all: libmicrohttpd hangs up without a reply.
s=$(raw 'GARBAGE\r\n\r\n'); [ -z "$s" ] || is4xx "$s" || fail "garbage request line -> '$s'"
s=$(raw 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Without Colon\r\n\r\n'); is4xx "$s" || fail "malformed header -> '$s'"
s=$(raw 'GET / HTTP/1.1\r\n\r\n'); is4xx "$s" || fail "HTTP/1.1 without Host -> '$s'"
s=$(raw 'GET / HTTP/7.0\r\nHost: 127.0.0.1\r\n\r\n'); case "$s" in 4*|505|"") ;; *) fail "HTTP/7.0 -> '$s'" ;; esac
s=$(raw 'GET /%00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'); is4xx "$s" || fail "NUL in path -> '$s'"
s=$(raw 'POST /console/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n'); is4xx "$s" || fail "bad Content-Length -> '$s'"
s=$(raw 'GET /../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'); is4xx "$s" || fail "dot-dot path -> '$s'"
s=$(raw 'DELETE /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'); [ "$s" = 405 ] || fail "DELETE -> '$s'"
big=$(head -c 40000 /dev/zero | tr '\0' a)
s=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $big" "$BASE/api/state"); is4xx "$s" || fail "40 kB header -> $s"
head -c 200000 /dev/zero | tr '\0' a > "$WORK/body"
s=$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$WORK/body" "$BASE/console/login"); [ "$s" = 413 ] || fail "200 kB body -> $s"
s=$(curl -s -o /dev/null -w '%{http_code}' -d 'pin=%zz' "$BASE/console/login"); [ "$s" = 400 ] || fail "bad form escape -> $s"
# Ids in paths are 1..10^9 (ten digits would overflow a 32-bit long).
s=$(status_of "$BASE/replay/1000000000"); [ "$s" = 200 ] || fail "/replay/1000000000 -> $s"
s=$(status_of "$BASE/replay/1000000001"); [ "$s" = 404 ] || fail "/replay/1000000001 -> $s"
s=$(status_of "$BASE/replay/9999999999"); [ "$s" = 404 ] || fail "/replay/9999999999 -> $s"
s=$(status_of "$BASE/api/matches/4294967297/log"); [ "$s" = 404 ] || fail "match 2^32+1 -> $s"
# A 404 says what was not found.
curl -s "$BASE/api/matches/77/log" | grep -q '"error":"/api/matches/77/log: not found"' ||
	fail "404 without its path: $(curl -s "$BASE/api/matches/77/log")"
# A body in another type than the endpoint reads: 415, saying which.
s=$(curl -s -o "$WORK/out" -w '%{http_code}' -H 'Content-Type: application/json' \
	--data-binary '{"pin":"4321"}' "$BASE/console/login")
[ "$s" = 415 ] && grep -q 'x-www-form-urlencoded' "$WORK/out" || fail "JSON login -> $s $(cat "$WORK/out")"
login
s=$(curl -s -o "$WORK/out" -w '%{http_code}' -b "$COOKIES" -H "X-CSRF-Token: $CSRF" \
	-H 'Content-Type: text/plain' --data-binary '{"cmd":"undo"}' "$BASE/console/api/command")
[ "$s" = 415 ] && grep -q 'application/json' "$WORK/out" || fail "text/plain command -> $s $(cat "$WORK/out")"
s=$(curl -s -o /dev/null -w '%{http_code}' -b "$COOKIES" -H "X-CSRF-Token: $CSRF" \
	-H 'Content-Type: Application/JSON; charset=utf-8' --data-binary '{"cmd":"undo"}' "$BASE/console/api/command")
[ "$s" = 404 ] || fail "JSON with a charset -> $s, want the command's own 404"
s=$(command_status '{"cmd":"start",'); [ "$s" = 400 ] || fail "truncated JSON -> $s"
s=$(command_status '{"cmd":"throw","events":[{"at":"table","half":"B","x":"far"}]}'); [ "$s" = 400 ] || fail "x not a number -> $s"

# Event streams are limited per client address: a guest opening many (each
# may hold unsent state) gets 429 beyond 8; the wall screen at another
# address still gets its stream.
streams=()
for i in 1 2 3 4 5 6 7 8; do
	curl -s -N --interface 127.0.0.2 -o "$WORK/stream$i" "$BASE/api/events" &
	streams+=("$!")
done
# All eight open (each has its first state) before the 9th is tried: a
# probe that raced them would take a slot and leave a stream refused.
opened() { local i; for i in 1 2 3 4 5 6 7 8; do grep -q '^retry:' "$WORK/stream$i" 2>/dev/null || return 1; done; }
poll_until 20 opened || fail "the eight event streams from 127.0.0.2 did not all open"
s=$(curl -s -o /dev/null -w '%{http_code}' --max-time "$(slow 2)" --interface 127.0.0.2 "$BASE/api/events" || true)
[ "$s" = 429 ] || fail "a 9th event stream from one address -> '$s', want 429"
s=$(curl -s -o /dev/null -w '%{http_code}' --max-time "$(slow 1)" --interface 127.0.0.1 "$BASE/api/events" || true)
[ "$s" = 200 ] || fail "another address's event stream -> '$s', want 200"
kill "${streams[@]}" 2>/dev/null || true
wait "${streams[@]}" 2>/dev/null || true

# 30 connections that never send a byte (an address may hold 32): the
# scoreboard still answers, even that address.
fds=()
for _ in $(seq 1 30); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" || fail "could not open idle connection"
	fds+=("$fd")
done
s=$(curl -s -o /dev/null -w '%{http_code}' --max-time "$(slow 5)" "$BASE/api/state") || true
[ "$s" = 200 ] || fail "/api/state with 30 idle connections -> '$s'"
s=$(curl -s -o /dev/null -w '%{http_code}' --max-time "$(slow 5)" "$BASE/") || true
[ "$s" = 200 ] || fail "/ with 30 idle connections -> '$s'"
# Half a request on each of them: still answered.
for fd in "${fds[@]}"; do printf 'GET /api/sta' >&"$fd"; done
s=$(curl -s -o /dev/null -w '%{http_code}' --max-time "$(slow 5)" "$BASE/api/state") || true
[ "$s" = 200 ] || fail "/api/state with 30 half-sent requests -> '$s'"
for fd in "${fds[@]}"; do exec {fd}>&-; done
kill -0 "$DAEMON_PID" || fail "daemon died"
stop_daemon
echo ok
