#!/bin/bash
# Pipelined requests (HTTP/1.1): several requests in one packet on one
# connection are all answered, in order, each framed by its Content-Length:
# two GETs; ten of three kinds (state, match list, a 404); ten then the
# client's half-close (`printf ... | nc`); a pair after a request answered
# alone on a kept-alive connection; a login POST with its body followed by a
# GET. Responses are told apart by framing, not by lines: a JSON body has no
# newline, so the next status line follows it on the same line and
# `grep -c '^HTTP'` counts one answer for two.
set -eu
command -v python3 >/dev/null || { echo "python3 is not installed (frames the answers)"; exit 77; }
. "$(dirname "$0")/lib/daemon.sh"
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"

python3 - "$PORT" "$(slow 5)" > "$WORK/pipeline" 2>&1 <<'PY' || { cat "$WORK/pipeline"; fail "pipelined requests"; }
import socket, sys, time

port, budget = int(sys.argv[1]), float(sys.argv[2])
HOST = b"Host: 127.0.0.1\r\n"
KINDS = {  # path: (status, a byte string its body holds)
    b"/api/state": (200, b'"health"'),
    b"/api/matches": (200, b"["),
    b"/no-such-page": (404, b'"error"'),
}

def get(path):
    return b"GET " + path + b" HTTP/1.1\r\n" + HOST + b"\r\n"

def read_answers(s, n, deadline):
    """Up to n answers framed by Content-Length: [(status, body)]."""
    buf, out = b"", []
    while len(out) < n and time.monotonic() < deadline:
        head_end = buf.find(b"\r\n\r\n")
        if head_end >= 0:
            head = buf[:head_end].decode("latin-1").split("\r\n")
            length = [int(h.split(":", 1)[1]) for h in head[1:]
                      if h.lower().startswith("content-length:")]
            if len(length) != 1:
                raise SystemExit("answer %d has no single Content-Length: %r" % (len(out) + 1, head))
            end = head_end + 4 + length[0]
            if len(buf) >= end:
                out.append((int(head[0].split()[1]), buf[head_end + 4:end]))
                buf = buf[end:]
                continue
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            d = s.recv(65536)
        except socket.timeout:
            break
        if not d:
            break
        buf += d
    return out

def check(name, s, paths, want=None):
    """The answers to paths, in order, within the budget."""
    got = read_answers(s, len(paths), time.monotonic() + budget)
    want = want or [KINDS[p] for p in paths]
    if len(got) != len(paths):
        raise SystemExit("%s: %d of %d answered (%s)" % (name, len(got), len(paths),
                         [g[0] for g in got]))
    for i, ((status, body), (ws, mark)) in enumerate(zip(got, want)):
        if status != ws or mark not in body:
            raise SystemExit("%s: answer %d is %d %r, want %d with %r (out of order?)"
                             % (name, i + 1, status, body[:60], ws, mark))
    print("%s: %d of %d answered in order" % (name, len(got), len(paths)))

def connect():
    return socket.create_connection(("127.0.0.1", port), timeout=budget)

# Two GETs in one packet.
s = connect()
s.sendall(get(b"/api/state") * 2)
check("two", s, [b"/api/state"] * 2)
s.close()

# Ten of three kinds in one packet.
ten = [list(KINDS)[i % 3] for i in range(10)]
s = connect()
s.sendall(b"".join(get(p) for p in ten))
check("ten", s, ten)
s.close()

# Ten, then the client stops sending (as nc does at the end of its input):
# all answered, then the server closes.
s = connect()
s.sendall(b"".join(get(p) for p in ten))
s.shutdown(socket.SHUT_WR)
check("ten then half-close", s, ten)
s.close()

# One answered alone, then a pair on the same kept-alive connection.
s = connect()
s.sendall(get(b"/api/matches"))
check("alone", s, [b"/api/matches"])
s.sendall(get(b"/no-such-page") + get(b"/api/state"))
check("pair after keep-alive", s, [b"/no-such-page", b"/api/state"])
s.close()

# A login's body, then a GET, in one packet.
body = b"pin=4321"
login = (b"POST /console/login HTTP/1.1\r\n" + HOST +
         b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
s = connect()
s.sendall(login + get(b"/api/state"))
check("login then get", s, [b"/console/login", b"/api/state"],
      [(200, b'"csrf"'), KINDS[b"/api/state"]])
s.close()
PY
cat "$WORK/pipeline"
kill -0 "$DAEMON_PID" || fail "daemon died"
stop_daemon
echo "daemon_pipeline: ok"
