#!/bin/bash
# HTTP hygiene: a body framed more than one way (two Content-Length
# headers, the same or not, or one with Transfer-Encoding) gets 400 and the
# connection closed, so what follows is never served as a request of its
# own; a Host that is not one of the daemon's names gets 421 (DNS
# rebinding: a page of evil.example whose name now points here); every
# console write checks Origin as the login does.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
write_config "$WORK/c.ini" '[web]' 'hosts = dyeref.example, 10.9.8.7'
start_daemon --config "$WORK/c.ini"

# exchange HEX-ESCAPED-BYTES: sends them on one connection, prints every
# status line the server answered with, one a line, then "closed" when it
# hung up by itself within the budget.
exchange() {
	python3 - "$PORT" "$1" "$(slow 5)" <<'EOF'
import socket, sys, time
port, data, budget = int(sys.argv[1]), sys.argv[2].encode().decode("unicode_escape").encode("latin-1"), float(sys.argv[3])
s = socket.create_connection(("127.0.0.1", port))
s.sendall(data)
s.settimeout(0.2)
got, closed, end = b"", False, time.monotonic() + budget
while time.monotonic() < end:
    try:
        d = s.recv(65536)
    except socket.timeout:
        continue
    except ConnectionResetError:
        closed = True
        break
    if not d:
        closed = True
        break
    got += d
for line in got.split(b"\r\n"):
    if line.startswith(b"HTTP/1."):
        print(line.split(b" ")[1].decode())
if closed:
    print("closed")
EOF
}

# The smuggled request: served only if the server read the body by the
# first Content-Length and took the rest for a request of its own.
smuggled='GET /api/house HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
body="pin=1$smuggled"
blen=$(printf '%b' "$body" | wc -c)
head='POST /console/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n'
for framing in "Content-Length: 5\r\nContent-Length: $blen" \
		"Content-Length: $blen\r\nContent-Length: 5" \
		"Content-Length: 5\r\nContent-Length: 5" \
		"Content-Length: 5, $blen" \
		"Content-Length: $blen\r\nTransfer-Encoding: chunked" \
		"Transfer-Encoding: chunked\r\nContent-Length: $blen"; do
	# (libmicrohttpd refuses "5, 49" itself, its 400 sent twice.)
	out=$(exchange "$head$framing\r\n\r\n$body" | sort -u | tr '\n' ' ')
	[ "$out" = "400 closed " ] || fail "'$framing' -> '$out', want '400 closed' (400 only, then the connection closed)"
done
# One Content-Length is fine: the PIN is compared (wrong: 403).
out=$(exchange "${head}Content-Length: 8\r\nConnection: close\r\n\r\npin=1111" | tr '\n' ' ')
[ "$out" = "403 closed " ] || fail "one Content-Length -> '$out', want '403 closed'"

# Host: the daemon's names are answered, others get 421 with the reason.
for h in 127.0.0.1 "127.0.0.1:$PORT" localhost "LOCALHOST:$PORT" "localhost." dyeref.example \
		"10.9.8.7:$PORT" "$(hostname)" "$(hostname).local"; do
	s=$(status_of -H "Host: $h" "$BASE/api/state")
	[ "$s" = 200 ] || fail "Host: $h -> $s, want 200"
done
for h in evil.example "evil.example:$PORT" 127.0.0.2 "dyeref.example.evil.example" "[::2]:$PORT"; do
	s=$(curl -s -o "$WORK/out" -w '%{http_code}' --max-time "$(slow 10)" -H "Host: $h" "$BASE/api/state")
	[ "$s" = 421 ] && grep -q 'not a name of this server' "$WORK/out" ||
		fail "Host: $h -> $s $(cat "$WORK/out"), want 421"
done
# DNS rebinding: evil.example now points here; its page posts the login
# with an Origin that agrees with its Host. Refused before the PIN is read.
s=$(curl -s -o "$WORK/out" -w '%{http_code}' --max-time "$(slow 10)" -H 'Host: evil.example' \
	-H 'Origin: http://evil.example' -d pin=4321 "$BASE/console/login")
[ "$s" = 421 ] || fail "rebinding login -> $s $(cat "$WORK/out"), want 421"

# A console write: a valid cookie and CSRF token, but from another site.
login 4321
start='{"cmd":"start","teams":{"A":["Ann","Bo"],"B":["Cy","Di"]}}'
write() {
	curl -s -o "$WORK/last" -w '%{http_code}' --max-time "$(slow 10)" -b "$COOKIES" \
		-H "X-CSRF-Token: $CSRF" -H 'Content-Type: application/json' "$@"
}
for h in 'Origin: http://evil' 'Origin: null' 'Sec-Fetch-Site: cross-site' 'Sec-Fetch-Site: same-site'; do
	s=$(write -H "$h" --data-binary "$start" "$BASE/console/api/command")
	[ "$s" = 403 ] && grep -q 'cross-site' "$WORK/last" || fail "command with '$h' -> $s $(cat "$WORK/last"), want 403"
	s=$(write -H "$h" -X POST "$BASE/console/logout")
	[ "$s" = 403 ] || fail "logout with '$h' -> $s, want 403"
done
state | grep -q '"match":null' || fail "a cross-site command changed the state: $(state)"
# The console's own page: same Host and Origin, or the browser's word.
s=$(write -H "Origin: $BASE" --data-binary "$start" "$BASE/console/api/command")
[ "$s" = 200 ] || fail "command with Origin $BASE -> $s $(cat "$WORK/last")"
s=$(write -H 'Sec-Fetch-Site: same-origin' -H 'Origin: http://evil' \
	--data-binary '{"cmd":"end"}' "$BASE/console/api/command")
[ "$s" = 200 ] || fail "command with Sec-Fetch-Site: same-origin -> $s $(cat "$WORK/last")"
s=$(status_of -H "Host: localhost:$PORT" -H "Origin: http://localhost:$PORT" -d pin=4321 "$BASE/console/login")
[ "$s" = 200 ] || fail "login by the name localhost -> $s"
stop_daemon

# A bad name in the list is a configuration error, found before start.
write_config "$WORK/bad.ini" '[web]' 'hosts = ok.example, bad/name'
rc=0
"$DYEREF" serve --check-config --config "$WORK/bad.ini" > "$WORK/out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "web.hosts: 'bad/name'" "$WORK/out" || fail "bad web.hosts -> $rc $(cat "$WORK/out")"
echo "ok: framing, Host and Origin checks"
