#!/bin/bash
# scripts/demo (make demo): the URLs come only once the daemon listens;
# a port in use gets the daemon's message, a line saying it did not start
# and exit 1, no URLs; SIGTERM stops it; its folder goes either way.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${BUILD:-$top/build}
mkdir "$WORK/tmp"
demo() { TMPDIR=$WORK/tmp "$top/scripts/demo" "$build" > "$WORK/demo.out" 2> "$WORK/demo.err"; }

# The port held by another daemon.
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
rc=0
DEMO_PORT=$PORT demo || rc=$?
[ "$rc" -eq 1 ] || fail "port in use: exit $rc, want 1"
grep -q 'scoreboard' "$WORK/demo.out" && fail "port in use: URLs printed: $(cat "$WORK/demo.out")"
grep -q "cannot listen on 127.0.0.1 port $PORT" "$WORK/demo.err" \
	&& grep -q 'dyeref demo: the daemon did not start' "$WORK/demo.err" \
	|| fail "port in use: $(cat "$WORK/demo.err")"
[ -z "$(ls "$WORK/tmp")" ] || fail "port in use: left $(ls "$WORK/tmp")"
stop_daemon

# Any free port: the URLs name the port it took, after it listens.
DEMO_PORT=0 TMPDIR=$WORK/tmp "$top/scripts/demo" "$build" > "$WORK/demo.out" 2> "$WORK/demo.err" &
demo_pid=$!
for _ in $(seq 1 "$(slow_n 100)"); do
	grep -q 'scoreboard' "$WORK/demo.out" 2>/dev/null && break
	sleep 0.1
done
url=$(sed -n 's/^ *scoreboard *\(http:[^ ]*\)$/\1/p' "$WORK/demo.out")
[ -n "$url" ] || fail "no URLs: $(cat "$WORK/demo.out" "$WORK/demo.err")"
grep -q "listening on ${url%/}/" "$WORK/demo.err" || fail "URL $url is not where it listens: $(cat "$WORK/demo.err")"
[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time "$(slow 10)" "$url")" = 200 ] || fail "$url does not answer"
# A newcomer's first run should not greet them with a warning about the
# demo's own settings (a PIN under 6 digits did).
! grep 'warning:' "$WORK/demo.err" || fail "the demo warns about itself"
kill -TERM "$demo_pid"
rc=0
wait "$demo_pid" || rc=$?
[ "$rc" -eq 0 ] || fail "demo exited $rc on SIGTERM: $(cat "$WORK/demo.err")"
grep -q 'dyeref demo stopped' "$WORK/demo.out" || fail "no word of stopping"
[ -z "$(ls "$WORK/tmp")" ] || fail "demo left $(ls "$WORK/tmp")"
echo "demo script: ok"
