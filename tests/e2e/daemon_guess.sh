#!/bin/bash
# PIN guessing from 200 addresses (127.0.77.1-200) while the official's
# browser, holding the device cookie of an earlier login, logs in every
# 3 s: every one of the official's logins gets in, the guessers are refused
# (429) past the lockouts, and a browser with no device cookie waits like
# them. Prints the guesses a minute the lockout let through (PINs compared).
set -eu
command -v python3 >/dev/null || { echo "python3 is not installed (plays the guessers)"; exit 77; }
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
GUESS_S=30	# of guessing; the count of requests is bounded below too
JAR=$WORK/official.jar

official_login() {
	curl -s -o "$WORK/official.out" -w '%{http_code}' --max-time "$(slow 10)" \
		-b "$JAR" -c "$JAR" -d pin=4321 "$BASE/console/login"
}
[ "$(official_login)" = 200 ] || fail "the official's first login: $(cat "$WORK/official.out")"
grep -q 'dyeref_device' "$JAR" || fail "no device cookie after a login: $(cat "$JAR")"

python3 - "$PORT" "$GUESS_S" "$(slow 2)" > "$WORK/guessers" 2>&1 <<'PY' &
import socket, sys, time
port, length, timeout = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
counts, compared = {}, []
start = time.monotonic()
n = 0
while time.monotonic() - start < length and n < 20000:
    src = "127.0.77.%d" % (n % 200 + 1)
    pin = "%04d" % (n % 10000 if n % 10000 != 4321 else 0)
    body = "pin=" + pin
    req = ("POST /console/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
           "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s"
           % (len(body), body)).encode()
    status = "none"
    try:
        s = socket.socket()
        s.settimeout(timeout)
        s.bind((src, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(req)
        status = s.recv(12).decode(errors="replace")[9:12] or "none"
        s.close()
    except OSError:
        pass
    counts[status] = counts.get(status, 0) + 1
    if status == "403":
        compared.append(time.monotonic())
    n += 1
    time.sleep(0.01)
elapsed = time.monotonic() - start
print("elapsed %.1f" % elapsed)
# The most PINs compared in any 60 s: the guesses a minute allowed.
print("per_minute %d" % max([sum(1 for u in compared if t <= u < t + 60) for t in compared] or [0]))
for k, v in sorted(counts.items()):
    print("status %s %d" % (k, v))
PY
guessers=$!

ok=0 refused=0 tries=0 stranger=none
while kill -0 "$guessers" 2>/dev/null && [ "$tries" -lt 40 ]; do
	sleep 3
	tries=$((tries + 1))
	s=$(official_login)
	if [ "$s" = 200 ]; then ok=$((ok + 1)); else refused=$((refused + 1)); echo "official's login $tries: $s $(cat "$WORK/official.out")"; fi
	# A browser that never logged in, from an address of its own: during
	# the guessing it waits with the guessers (the price of keeping them slow).
	[ "$tries" = 2 ] && stranger=$(status_of --interface 127.0.78.1 -d pin=4321 "$BASE/console/login")
done
wait "$guessers" || true
cat "$WORK/guessers"

elapsed=$(sed -n 's/^elapsed //p' "$WORK/guessers")
compared=$(sed -n 's/^status 403 //p' "$WORK/guessers"); compared=${compared:-0}
held=$(sed -n 's/^status 429 //p' "$WORK/guessers"); held=${held:-0}
[ -n "$elapsed" ] || fail "the guessers did not finish: $(cat "$WORK/guessers")"
rate=$(sed -n 's/^per_minute //p' "$WORK/guessers")
echo "guesses: $compared PINs compared, $held refused (429) in ${elapsed} s from 200 addresses; at most $rate in any minute"
echo "official: $ok of $((ok + refused)) logins with its device cookie got in; a stranger's right PIN: $stranger"
[ "$refused" = 0 ] || fail "the official was refused $refused of $((ok + refused)) logins"
[ "$ok" -ge 5 ] || fail "only $ok official logins were tried"
[ "$held" -gt 0 ] || fail "no guess was refused"
# Everyone's cap: 20 wrong PINs a minute from unknown devices (a window
# opens with the first, so at most 20 in each started minute).
max=$(awk -v t="$elapsed" 'BEGIN { m = int(t / 60) + 1; print 20 * m }')
[ "$compared" -le "$max" ] || fail "$compared PINs compared in $elapsed s, want at most $max"
[ "$rate" -le 20 ] || fail "$rate PINs compared within a minute, want at most 20"
[ "$stranger" = 429 ] || fail "a browser without a device cookie during the guessing -> $stranger, want 429"
kill -0 "$DAEMON_PID" || fail "daemon died"
stop_daemon
echo "daemon_guess: ok"
