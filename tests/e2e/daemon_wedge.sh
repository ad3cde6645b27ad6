#!/bin/bash
# Bursts that once wedged the server for good: 512 event streams from 64
# addresses (127.0.72.x), held 3 s and closed, and 17 addresses x 32 idle
# connections closed at once. At the connection limit libmicrohttpd takes
# its listen socket out of its epoll set and puts it back only on its next
# run, which nothing asked for once every connection had gone. After each
# burst every probe of /api/state must be answered within 1 s.
set -eu
command -v python3 >/dev/null || { echo "python3 is not installed (plays the crowd)"; exit 77; }
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
python3 - "$PORT" "$(slow 1)" > "$WORK/out" 2>&1 <<'PY' || fail "$(cat "$WORK/out")"
import socket, sys, time

port = int(sys.argv[1])
SLOW = float(sys.argv[2])	# DYEREF_TEST_SLOWDOWN
PROBES = 15


def fail(why):
    print(why)
    sys.exit(1)


def connect(src, timeout):
    s = socket.socket()
    s.settimeout(timeout)
    s.bind((src, 0))
    s.connect(("127.0.0.1", port))
    return s


def burst(srcs, per_src, request):
    """per_src connections from each address, request sent on each; the
    sockets that connected (the server may refuse some: that is its right)."""
    held = []
    for src in srcs:
        for _ in range(per_src):
            try:
                s = connect(src, 2 * SLOW)
                if request:
                    s.sendall(request)
                held.append(s)
            except OSError:
                pass
    return held


def probe(src):
    """The status line of GET /api/state within 1 s (times SLOW), or why not."""
    try:
        with connect(src, SLOW) as s:
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return s.recv(12).decode(errors="replace")
    except OSError as e:
        return repr(e)


def probes_after(what):
    for i in range(PROBES):
        status = probe("127.0.0.%d" % (10 + i))
        if not status.startswith("HTTP/1.1 200"):
            fail("probe %d of %d after %s -> %r" % (i + 1, PROBES, what, status))


addrs = ["127.0.72.%d" % i for i in range(1, 65)]
held = burst(addrs, 8, b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
if len(held) < 400:
    fail("only %d of 512 event streams connected" % len(held))
time.sleep(3)
for s in held:
    s.close()
probes_after("512 event streams from 64 addresses closed")

held = burst(["127.0.73.%d" % i for i in range(1, 18)], 32, None)
time.sleep(1)
for s in held:
    s.close()
probes_after("17 addresses x 32 idle connections closed at once")
print("held %d idle" % len(held))
PY
kill -0 "$DAEMON_PID" || fail "daemon died"
stop_daemon
echo "daemon_wedge: ok"
