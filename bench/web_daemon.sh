#!/bin/bash
# The daemon's figures, each against a named peer or limit measured or
# fixed in this run:
#  1. requests/s on /api/state (wrk) vs nginx serving the very bytes of
#     that answer as a static file, both on loopback, one worker each, same
#     wrk settings; the bench fails if either answers anything but 2xx or
#     if the two bodies differ;
#  2. die dead (its rest seen by the camera, or the floor felt by the
#     piezo strips) -> ruling received by an SSE client, end to end, on
#     `serve --sim=table` (the simulated table's piezo edges through the
#     sensors pipeline, its camera reports through the face reader), vs
#     fusion's settle wait (read from the daemon's state) + 100 ms; the
#     part after the settle wait printed apart, with the daemon's own
#     figure for it;
#  3. the daemon's peak resident memory during that match vs the 30 MB
#     target.
#   bench/web_daemon.sh     (env DYEREF, BENCH_SECONDS=5, SIM_SECONDS=120)
set -eu
: "${DYEREF:=$(cd "$(dirname "$0")/.." && pwd)/build/dyeref}"
secs=${BENCH_SECONDS:-5}
sim_secs=${SIM_SECONDS:-120}
budget_ms=100	# the limit: settle wait + this, die dead -> ruling on a screen
for t in wrk nginx curl node sqlite3 bc; do
	command -v "$t" >/dev/null || { echo "web_daemon: $t is not installed: skipped"; exit 0; }
done
work=$(mktemp -d)
pids=()
nginx_pid=
# nginx by SIGQUIT: its master takes the worker with it (SIGKILL would
# leave the worker running, holding the port and our stdout).
cleanup() {
	[ -n "$nginx_pid" ] && { kill -QUIT "$nginx_pid" 2>/dev/null; wait "$nginx_pid" 2>/dev/null; }
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "web_daemon: FAIL: $*" >&2; exit 1; }  # stderr: also from inside $(...)

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
conf() { printf '[web]\nbind = 127.0.0.1\nport = 0\npin = 432187\n[db]\npath = %s/%s.db\n' "$work" "$1" > "$work/$1.ini"; }

# ---- 1. /api/state vs nginx -------------------------------------------------
conf state
start "$work/state.ini"
base=http://127.0.0.1:$PORT
cookie=$work/cookie
csrf=$(curl -s -c "$cookie" -d pin=432187 "$base/console/login" | sed -n 's/.*"csrf":"\([0-9a-f]*\)".*/\1/p')
[ -n "$csrf" ] || fail "console login gave no CSRF token"
cmd() {
	local code
	code=$(curl -s -o /dev/null -w '%{http_code}' -b "$cookie" -H "X-CSRF-Token: $csrf" \
		-H 'Content-Type: application/json' --data-binary "$1" "$base/console/api/command")
	case "$code" in 2??) ;; *) fail "console command answered $code: $1" ;; esac
}
cmd '{"cmd":"start","teams":{"A":["Ann","Bo"],"B":["Cy","Di"]},"team_names":["Orange","Blue"]}'
for i in $(seq 1 12); do
	cmd '{"cmd":"throw","events":[{"at":"table","half":"B","x":1.9,"y":0.4},{"at":"floor"}]}'
	cmd '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"catch","by":"b1","hands":1}]}'
	cmd '{"cmd":"throw","events":[{"at":"table","half":"A"},{"at":"floor"}]}'
done
# nginx serves the daemon's own answer, fetched once: the same bytes.
# Its worker is not root (nobody, when started by root): mktemp's 0700
# folder must let it in, or every answer is a 403 page.
mkdir -p "$work/www" "$work/nginx"
chmod 755 "$work" "$work/www"
code=$(curl -s -o "$work/www/state.json" -w '%{http_code}' "$base/api/state")
case "$code" in 2??) ;; *) fail "daemon /api/state answered $code" ;; esac
chmod 644 "$work/www/state.json"
size=$(wc -c < "$work/www/state.json")
nport=$((20000 + RANDOM % 20000))
cat > "$work/nginx/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
	access_log off;
	default_type application/json;
	server {
		listen 127.0.0.1:$nport;
		root $work/www;
		location / { }
	}
}
NGINX
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" &
nginx_pid=$!
for _ in $(seq 1 50); do
	curl -s -o /dev/null "http://127.0.0.1:$nport/" && break
	sleep 0.1
done
# Before measuring: each answers 200 with the same body.
for side in "daemon $base/api/state" "nginx http://127.0.0.1:$nport/state.json"; do
	set -- $side
	code=$(curl -s -o "$work/body.$1" -w '%{http_code}' "$2")
	case "$code" in 2??) ;; *) fail "$1 answered $code to GET $2 (body: $(head -c 200 "$work/body.$1"))" ;; esac
done
cmp -s "$work/body.daemon" "$work/body.nginx" ||
	fail "the bodies differ: daemon $(wc -c < "$work/body.daemon") bytes, nginx $(wc -c < "$work/body.nginx") bytes"
rps() { # name url -> req/s; fails on any non-2xx/3xx answer
	wrk -t2 -c32 -d"${secs}s" "$2" > "$work/wrk.$1" 2>&1 || fail "wrk against $1: $(tail -n 3 "$work/wrk.$1")"
	if grep -q 'Non-2xx or 3xx responses' "$work/wrk.$1"; then
		fail "$1: $(grep 'Non-2xx or 3xx responses' "$work/wrk.$1" | sed 's/^ *//') under wrk"
	fi
	local r
	r=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$work/wrk.$1")
	[ -n "$r" ] || fail "wrk against $1 printed no Requests/sec: $(tail -n 3 "$work/wrk.$1")"
	echo "$r"
}
ours=$(rps daemon "$base/api/state")
theirs=$(rps nginx "http://127.0.0.1:$nport/state.json")
errs=$(grep -h 'Socket errors' "$work/wrk.daemon" "$work/wrk.nginx" | sed 's/^ *//' | paste -sd ';' -)
printf '/api/state (%d bytes, live JSON, 200): %.0f req/s; nginx serving the same %d bytes as a static file (200, bodies compared): %.0f req/s; ratio %.2f%s\n' \
	"$size" "$ours" "$(wc -c < "$work/body.nginx")" "$theirs" "$(echo "$ours / $theirs" | bc -l)" "${errs:+; wrk: $errs}"
kill -QUIT "$nginx_pid"; wait "$nginx_pid" 2>/dev/null || true
nginx_pid=
kill -TERM "$PID"; wait "$PID" 2>/dev/null || true

# ---- 2 and 3. A simulated match: latency and memory ----------------------
conf sim
start "$work/sim.ini" --sim=table
base=http://127.0.0.1:$PORT
node - "$base" "$sim_secs" > "$work/seen" <<'JS' &
// SSE client: for each new ruling, "match throw received_ns settle_ms
// processing_ms", received_ns on CLOCK_MONOTONIC (process.hrtime is
// CLOCK_MONOTONIC on Linux, the clock of the daemon's observation times).
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
      if (!s.timing || s.timing.rulings <= seen || !s.last) continue;
      seen = s.timing.rulings;
      console.log(s.match + " " + s.last.throw + " " + now + " " + s.timing.settle_ms + " " +
                  s.timing.processing_ms);
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
kill -TERM "$PID"; wait "$PID" 2>/dev/null || true
# When the die died, from the stored log: the first rest or floor
# observation of each throw (the camera's rest report, or the floor strip's
# impact out of the sensors pipeline), on the daemon's clock. A throw that
# ended otherwise (a catch call, a sink, the timeout) has no such time.
sqlite3 -separator ' ' "$work/sim.db" \
	"SELECT e.match_id, e.throw_no, min(o.t_ns), e.t_ns FROM entries e JOIN observations o ON o.entry_id = e.id
	 WHERE e.type = 'throw' AND o.kind IN ('rest', 'floor') GROUP BY e.id" > "$work/dead"
n_seen=$(wc -l < "$work/seen")
# match throw -> end to end ms, after the settle wait ms, daemon's processing ms
awk 'NR == FNR { dead[$1 " " $2] = $3; next }
     ($1 " " $2) in dead { e = ($3 - dead[$1 " " $2]) / 1e6; print e, e - $4, $5, $4 }' \
	"$work/dead" "$work/seen" | sort -n > "$work/latency"
n=$(wc -l < "$work/latency")
if [ "$n" -gt 0 ]; then
	read -r med max settle <<<"$(awk '{a[NR]=$1; s=$4} END {print a[int((NR+1)/2)], a[NR], s}' "$work/latency")"
	read -r amed amax <<<"$(sort -n -k2,2 "$work/latency" | awk '{a[NR]=$2} END {print a[int((NR+1)/2)], a[NR]}')"
	pmed=$(sort -n -k3,3 "$work/latency" | awk '{a[NR]=$3} END {print a[int((NR+1)/2)]}')
	limit=$(echo "$settle + $budget_ms" | bc -l)
	printf 'die dead (camera rest or floor strip, --sim=table) -> ruling on an SSE client: median %.1f ms, worst %.1f ms over %d of %d rulings; limit settle %.0f ms + %d ms = %.0f ms: median %.3f, worst %.3f of it\n' \
		"$med" "$max" "$n" "$n_seen" "$settle" "$budget_ms" "$limit" "$(echo "$med / $limit" | bc -l)" "$(echo "$max / $limit" | bc -l)"
	printf '  of which after the settle wait: median %.1f ms, worst %.1f ms, vs the %d ms budget: %.2f, %.2f of it (the daemon'"'"'s own settled -> ruling pushed: median %.1f ms)\n' \
		"$amed" "$amax" "$budget_ms" "$(echo "$amed / $budget_ms" | bc -l)" "$(echo "$amax / $budget_ms" | bc -l)" "$pmed"
	[ "$n" -lt "$n_seen" ] && echo "  ($((n_seen - n)) of the rulings, of throws that ended without a rest or floor observation (catch, sink, timeout) are not in these figures)"
else
	fail "no ruling of a throw ending at rest or on the floor reached the SSE client in ${sim_secs} s ($n_seen rulings)"
fi
printf 'daemon resident memory during a %d s simulated match (--sim=table): peak %.1f MB (VmHWM %.1f MB); target 30 MB: %.2f of it\n' \
	"$sim_secs" "$(echo "$peak / 1024" | bc -l)" "$(echo "$hwm / 1024" | bc -l)" "$(echo "$hwm / 1024 / 30" | bc -l)"
