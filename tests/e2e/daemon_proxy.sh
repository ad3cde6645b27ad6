#!/bin/bash
# Behind a reverse proxy ([web] trusted_proxy): only a connection from the
# trusted address counts as the last X-Forwarded-For entry for the
# per-address limits (here the wrong-PIN lockout: 5 wrong PINs, then 429);
# anyone else's header is ignored, so forging it does not dodge the lockout,
# and a malformed header from the proxy counts as the proxy itself.
# libmicrohttpd's connections per address do not hold the proxy back.
set -eu
. "$(dirname "$0")/lib/daemon.sh"

# try SRC XFF: a wrong PIN from source address SRC with X-Forwarded-For XFF
# ("" sends none); prints the status.
try() {
	local h=()
	[ -n "$2" ] && h=(-H "X-Forwarded-For: $2")
	curl -s -o /dev/null -w '%{http_code}' --max-time "$(slow 10)" --interface "$1" "${h[@]}" \
		-d pin=0000 "$BASE/console/login"
}

# ---- The proxy is 127.0.0.3; a client at 127.0.0.2 forges the header. ----
write_config "$WORK/c.ini" "[web]" "trusted_proxy = 127.0.0.3"
start_daemon --config "$WORK/c.ini"
for i in 1 2 3 4 5; do
	s=$(try 127.0.0.2 "10.9.0.$i"); [ "$s" = 403 ] || fail "wrong PIN $i -> $s, want 403"
done
s=$(try 127.0.0.2 "10.9.0.6"); [ "$s" = 429 ] || fail "a 6th wrong PIN under a new forged X-Forwarded-For -> $s, want 429 (the header of an untrusted peer counted)"
s=$(try 127.0.0.2 ""); [ "$s" = 429 ] || fail "the locked-out peer without the header -> $s, want 429"
s=$(try 127.0.0.1 "10.9.0.1"); [ "$s" = 403 ] || fail "another peer -> $s, want 403 (not locked)"
stop_daemon

# ---- The proxy is 127.0.0.2: its header names the client. ----
write_config "$WORK/c.ini" "[web]" "trusted_proxy = 127.0.0.2"
start_daemon --config "$WORK/c.ini"
for i in 1 2 3 4 5; do
	s=$(try 127.0.0.2 "forged-by-client, 198.51.100.1"); [ "$s" = 403 ] || fail "proxied wrong PIN $i -> $s, want 403"
done
s=$(try 127.0.0.2 "198.51.100.1"); [ "$s" = 429 ] || fail "the locked-out client behind the proxy -> $s, want 429"
s=$(try 127.0.0.2 "198.51.100.1, 198.51.100.2"); [ "$s" = 403 ] || fail "another client behind the proxy -> $s, want 403 (its own count)"
# A malformed last entry (a port) counts as the proxy's own address.
for i in 1 2 3 4 5; do
	s=$(try 127.0.0.2 "198.51.100.3:443"); [ "$s" = 403 ] || fail "malformed $i -> $s, want 403"
done
s=$(try 127.0.0.2 ""); [ "$s" = 429 ] || fail "the proxy itself after 5 malformed -> $s, want 429"
s=$(try 127.0.0.2 "198.51.100.4"); [ "$s" = 403 ] || fail "a well-formed client after the malformed ones -> $s, want 403"
# Every connection is the proxy's: an address's 32 would be all its
# clients' together, so the proxy may hold more (needs python3 to bind).
if command -v python3 >/dev/null; then
	python3 - "$PORT" "$(slow 1)" <<'PY' || fail "the trusted proxy held to one address's connections"
import socket, sys, time
held = []
for _ in range(40):
    s = socket.socket()
    s.bind(("127.0.0.2", 0))
    s.connect(("127.0.0.1", int(sys.argv[1])))
    held.append(s)
time.sleep(float(sys.argv[2]))
for s in held:
    s.setblocking(False)
    try:
        if s.recv(1, socket.MSG_PEEK) == b"":
            sys.exit(1)
    except BlockingIOError:
        pass
PY
fi
stop_daemon

# A bad address is a config error with its line.
write_config "$WORK/c.ini" "[web]" "trusted_proxy = proxy.local"
rc=0
"$DYEREF" serve --config "$WORK/c.ini" --check-config > "$WORK/out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "--check-config with a host name -> exit $rc"
grep -q "c.ini:8: web.trusted_proxy: expected an IP address, got 'proxy.local'" "$WORK/out" ||
	fail "message: $(cat "$WORK/out")"
echo "daemon_proxy: ok"
