#!/bin/bash
# 512 event streams from 64 addresses held open while the official logs in,
# starts a match, enters a throw and corrects it: the caps close the oldest
# streams to make room, so the console always gets in.
set -eu
command -v python3 >/dev/null || { echo "python3 is not installed (plays the crowd)"; exit 77; }
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
python3 - "$PORT" "$(slow 1)" "$WORK/flooded" > "$WORK/crowd" 2>&1 <<'PY' &
import socket, sys, time
port, SLOW, flag = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
held = []
for i in range(1, 65):
    for _ in range(8):
        try:
            s = socket.socket()
            s.settimeout(2 * SLOW)
            s.bind(("127.0.72.%d" % i, 0))
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            held.append(s)
        except OSError:
            pass
open(flag, "w").write("%d\n" % len(held))
time.sleep(30 * SLOW)  # the test kills it long before
PY
crowd=$!
poll_until 60 test -s "$WORK/flooded" || fail "the crowd did not open its streams: $(cat "$WORK/crowd")"
login || fail "the official could not log in under the flood"
command_ok '{"cmd":"start","teams":{"A":["Ann","Bo"],"B":["Cy","Di"]}}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}'
command_ok '{"cmd":"correct","throw":1,"events":[{"at":"table","half":"B"},{"at":"catch","by":"b1","hands":1}]}'
[ "$(score_of)" = '"score":{"A":0,"B":0}' ] || fail "correction under the flood: $(score_of)"
kill "$crowd" 2>/dev/null || true
wait "$crowd" 2>/dev/null || true
kill -0 "$DAEMON_PID" || fail "daemon died"
stop_daemon
echo "daemon_flood_console: ok"
