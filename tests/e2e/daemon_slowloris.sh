#!/bin/bash
# Slowloris: two addresses open 256 connections each and send their
# request heads a byte at a time, which once held all 512 connection slots
# (the idle timeout restarts on every byte). Now one address gets at most 32
# connections (libmicrohttpd refuses the rest), and a connection whose
# request is not in within 10 s is closed however steadily it trickles,
# while a slow but honest request and everyone else are served.
set -eu
command -v python3 >/dev/null || { echo "python3 is not installed (plays the slow clients)"; exit 77; }
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
python3 - "$PORT" "$(slow 1)" > "$WORK/out" 2>&1 <<'PY' || fail "$(cat "$WORK/out")"
import socket, sys, time

port = int(sys.argv[1])
PER_ADDRESS, DEADLINE_S = 32, 10
# DYEREF_TEST_SLOWDOWN: stretches our waits, never the daemon's 10 s.
SLOW = float(sys.argv[2])


def connect(src):
    s = socket.socket()
    s.settimeout(5 * SLOW)
    s.bind((src, 0))
    s.connect(("127.0.0.1", port))
    return s


def alive(s):
    """Open from the server's side: no EOF or reset waiting."""
    s.settimeout(0)  # else Python waits out the timeout for a byte
    try:
        return s.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        s.settimeout(5 * SLOW)


def trickle(held):
    """One more byte of an endless header on each; the dead are dropped."""
    for s in list(held):
        try:
            s.send(b"a")
        except OSError:
            held.remove(s)
            s.close()


def get(src, path="/"):
    """The status line of GET path from src within 5 s (times SLOW), or what went wrong."""
    try:
        with connect(src) as s:
            s.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" % path).encode())
            return s.recv(12).decode(errors="replace")
    except OSError as e:
        return repr(e)


def fail(why):
    print(why)
    sys.exit(1)


held = []
for src in ("127.0.0.2", "127.0.0.3"):
    for _ in range(256):
        try:
            s = connect(src)
            s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            held.append(s)
        except OSError:
            pass
start = time.monotonic()
time.sleep(SLOW)
trickle(held)
for path in ("/", "/console", "/api/state"):
    status = get("127.0.0.1", path)
    if not status.startswith("HTTP/1.1 200"):
        fail("GET %s beside 512 slow connections -> %r" % (path, status))
held = [s for s in held if alive(s)]
for src in ("127.0.0.2", "127.0.0.3"):
    n = sum(1 for s in held if s.getsockname()[0] == src)
    if n > PER_ADDRESS:
        fail("%d connections held open from %s, want at most %d" % (n, src, PER_ADDRESS))

# A slow but honest request: its head over 3 s, answered.
honest = connect("127.0.0.4")
for part in (b"GET /api/sta", b"te HTTP/1.1\r\nHo", b"st: 127.0.0.1\r\n\r\n"):
    honest.send(part)
    time.sleep(1)
status = honest.recv(12).decode(errors="replace")
if not status.startswith("HTTP/1.1 200"):
    fail("a request head sent over 3 s -> %r" % status)
honest.close()

# A byte a second never finishes the head: closed at the deadline.
while time.monotonic() - start < DEADLINE_S + 3 * SLOW and held:
    trickle(held)
    time.sleep(1)
held = [s for s in held if alive(s)]
if held:
    fail("%d trickling connections still open after %.0f s" % (len(held), time.monotonic() - start))
status = get("127.0.0.2")
if not status.startswith("HTTP/1.1 200"):
    fail("the slow address's own GET / after its connections closed -> %r" % status)
PY
kill -0 "$DAEMON_PID" || fail "daemon died"
stop_daemon
echo "daemon_slowloris: ok"
