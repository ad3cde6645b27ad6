#!/bin/bash
# systemd integration without systemd: a datagram socket stands in for
# NOTIFY_SOCKET. The daemon says READY=1 once it listens, pings WATCHDOG=1
# at half the WATCHDOG_USEC period while its server accepts connections
# (web_server_accepting; the wedge itself: test_web_sse), and says
# STOPPING=1 on SIGTERM.
set -eu
command -v python3 >/dev/null || { echo "python3 is not installed (plays systemd's notify socket)"; exit 77; }
. "$(dirname "$0")/lib/daemon.sh"
sock=$WORK/notify.sock
python3 - "$sock" "$WORK/notes" "$(slow 20)" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(float(sys.argv[3]))
with open(sys.argv[2], "a", buffering=1) as out:
    try:
        while True:
            out.write(s.recv(4096).decode() + "\n")
    except socket.timeout:
        pass
PY
listener=$!
for _ in $(seq 1 "$(slow_n 50)"); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || fail "no notify socket"
write_config "$WORK/c.ini"
export NOTIFY_SOCKET=$sock WATCHDOG_USEC=400000
start_daemon --config "$WORK/c.ini"
unset NOTIFY_SOCKET WATCHDOG_USEC
for _ in $(seq 1 "$(slow_n 50)"); do grep -q '^READY=1' "$WORK/notes" 2>/dev/null && break; sleep 0.1; done
grep -q '^READY=1' "$WORK/notes" || fail "no READY=1: $(cat "$WORK/notes" 2>/dev/null)"
grep -q "STATUS=serving on port $PORT" "$WORK/notes" || fail "no STATUS line"
# Two pings, however slow the machine: the loop keeps pinging by itself.
n=0
for _ in $(seq 1 "$(slow_n 100)"); do
	n=$(grep -c '^WATCHDOG=1' "$WORK/notes" || true)
	[ "$n" -ge 2 ] && break
	sleep 0.1
done
[ "$n" -ge 2 ] || fail "watchdog pinged $n times in $(slow 10) s with WATCHDOG_USEC=0.4 s"
stop_daemon
for _ in $(seq 1 "$(slow_n 30)"); do grep -q '^STOPPING=1' "$WORK/notes" && break; sleep 0.1; done
grep -q '^STOPPING=1' "$WORK/notes" || fail "no STOPPING=1"
kill "$listener" 2>/dev/null || true
echo ok
