#!/bin/bash
# The daemon's figures, each against a named peer or limit measured or
# fixed in this run:
#  1. requests/s on /api/state (wrk) vs nginx serving a static file of the
#     same size, both on loopback, one worker each, same wrk settings;
#  2. last sensor edge -> ruling received by an SSE client, minus fusion's
#     configured settle wait (processing and delivery only), vs one 60 Hz
#     frame (16.7 ms);
#  3. the daemon's peak resident memory during a simulated match vs the
#     30 MB target.
#   bench/web_daemon.sh     (env DYEREF, BENCH_SECONDS=5, SIM_SECONDS=40)
set -eu
: "${DYEREF:=$(cd "$(dirname "$0")/.." && pwd)/build/dyeref}"
secs=${BENCH_SECONDS:-5}
sim_secs=${SIM_SECONDS:-40}
for t in wrk nginx curl node; do
	command -v "$t" >/dev/null || { echo "web_daemon: $t is not installed: skipped"; exit 0; }
done
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

start() { # config -> sets PORT, PID
	"$DYEREF" serve --config "$1" "${@:2}" > "$work/log.$$" 2>&1 &
	PID=$!
	pids+=("$PID")
	for _ in $(seq 1 100); do
		PORT=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\)\/.*/\1/p' "$work/log.$$")
		[ -n "$PORT" ] && return 0
		sleep 0.1
	done
	echo "web_daemon: daemon did not start"; cat "$work/log.$$"; exit 1
}
conf() { printf '[web]\nbind = 127.0.0.1\nport = 0\npin = 4321\n[db]\npath = %s/%s.db\n' "$work" "$1" > "$work/$1.ini"; }

# ---- 1. /api/state vs nginx -------------------------------------------------
conf state
start "$work/state.ini"
base=http://127.0.0.1:$PORT
cookie=$work/cookie
csrf=$(curl -s -c "$cookie" -d pin=4321 "$base/console/login" | sed -n 's/.*"csrf":"\([0-9a-f]*\)".*/\1/p')
cmd() { curl -s -o /dev/null -b "$cookie" -H "X-CSRF-Token: $csrf" -H 'Content-Type: application/json' --data-binary "$1" "$base/console/api/command"; }
cmd '{"cmd":"start","teams":{"A":["Ann","Bo"],"B":["Cy","Di"]},"team_names":["Orange","Blue"]}'
for i in $(seq 1 12); do
	cmd '{"cmd":"throw","events":[{"at":"table","half":"B","x":1.9,"y":0.4},{"at":"floor"}]}'
	cmd '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"catch","by":"b1","hands":1}]}'
	cmd '{"cmd":"throw","events":[{"at":"table","half":"A"},{"at":"floor"}]}'
done
curl -s "$base/api/state" > "$work/state.json"
size=$(wc -c < "$work/state.json")
mkdir -p "$work/www" "$work/nginx"
head -c "$size" /dev/zero | tr '\0' x > "$work/www/state.json"
nport=$((20000 + RANDOM % 20000))
cat > "$work/nginx/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
	access_log off;
	server {
		listen 127.0.0.1:$nport;
		root $work/www;
		location / { }
	}
}
NGINX
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" &
nginx_pid=$!
sleep 0.5
rps() { wrk -t2 -c32 -d"${secs}s" "$1" 2>/dev/null | sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p'; }
ours=$(rps "$base/api/state")
theirs=$(rps "http://127.0.0.1:$nport/state.json")
printf '/api/state (%d bytes, live JSON): %.0f req/s; nginx static file of the same size: %.0f req/s; ratio %.2f\n' \
	"$size" "$ours" "$theirs" "$(echo "$ours / $theirs" | bc -l)"
# SIGQUIT: the master takes its worker with it (SIGKILL would orphan it).
kill -QUIT "$nginx_pid"; wait "$nginx_pid" 2>/dev/null || true
kill -TERM "$PID"; wait "$PID" 2>/dev/null || true

# ---- 2 and 3. A simulated match: latency and memory ----------------------
conf sim
start "$work/sim.ini" --sim
base=http://127.0.0.1:$PORT
node - "$base" "$sim_secs" > "$work/latency" <<'JS' &
// SSE client: for each new ruling, CLOCK_MONOTONIC now (process.hrtime is
// CLOCK_MONOTONIC on Linux, as the daemon's edge times) minus the edge.
const http = require("http");
const [base, secs] = process.argv.slice(2);
let buf = "", seen = 0;
http.get(base + "/api/events", (res) => {
  res.on("data", (d) => {
    const now = process.hrtime.bigint();
    buf += d;
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const ev = buf.slice(0, i); buf = buf.slice(i + 2);
      const m = /^data: (.*)$/m.exec(ev);
      if (!m) continue;
      const s = JSON.parse(m[1]);
      if (!s.timing || s.timing.rulings <= seen || !s.timing.last_edge_ns) continue;
      seen = s.timing.rulings;
      const ms = Number(now - BigInt(s.timing.last_edge_ns)) / 1e6 - s.timing.settle_ms;
      console.log(ms.toFixed(3) + " " + s.timing.processing_ms.toFixed(3));
    }
  });
});
setTimeout(() => process.exit(0), secs * 1000);
JS
lat=$!
peak=0
for _ in $(seq 1 $((sim_secs * 4))); do
	r=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$PID/status" 2>/dev/null || echo 0)
	[ "${r:-0}" -gt "$peak" ] && peak=$r
	sleep 0.25
done
wait "$lat" || true
hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$PID/status")
n=$(wc -l < "$work/latency")
if [ "$n" -gt 0 ]; then
	read -r med max pmed <<<"$(sort -n "$work/latency" | awk '{a[NR]=$1; p[NR]=$2} END {m=a[int((NR+1)/2)]; print m, a[NR], p[int((NR+1)/2)]}')"
	printf 'last edge -> ruling on an SSE client, settle wait (%s ms) excluded: median %.2f ms, worst %.2f ms over %d rulings; vs a 60 Hz frame (16.7 ms): %.2f of a frame (in-daemon processing median %.2f ms)\n' \
		"$(grep -o '"settle_ms":[0-9.]*' "$work/state.json" | head -n1 | cut -d: -f2)" "$med" "$max" "$n" "$(echo "$med / 16.7" | bc -l)" "$pmed"
else
	echo "last edge -> SSE: no ruling arrived in ${sim_secs} s"
fi
printf 'daemon resident memory during a %d s simulated match: peak %.1f MB (VmHWM %.1f MB); target 30 MB: %.2f of it\n' \
	"$sim_secs" "$(echo "$peak / 1024" | bc -l)" "$(echo "$hwm / 1024" | bc -l)" "$(echo "$hwm / 1024 / 30" | bc -l)"
kill -TERM "$PID"; wait "$PID" 2>/dev/null || true
