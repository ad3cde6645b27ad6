# Shared by tests/e2e/daemon_*.sh: start build/dyeref serve on a free
# loopback port (port 0: the kernel picks, the daemon prints it), talk to it
# with curl, stop it. Source after `set -eu`. Every wait here is a budget
# times DYEREF_TEST_SLOWDOWN (lib/slow.sh: slow, slow_n).
# shellcheck source=tests/e2e/lib/slow.sh
. "$(dirname "${BASH_SOURCE[0]}")/slow.sh"
: "${DYEREF:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/build/dyeref}"
command -v curl >/dev/null || { echo "curl is not installed"; exit 77; }
WORK=$(mktemp -d)
DAEMON_PID=
cleanup() {
	[ -n "$DAEMON_PID" ] && kill -9 "$DAEMON_PID" 2>/dev/null || true
	jobs -p | xargs -r kill 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$WORK/daemon.log" ] && tail -n 20 "$WORK/daemon.log"; exit 1; }

# write_config FILE [extra lines...]: web on 127.0.0.1 port 0, PIN 4321, db in WORK.
write_config() {
	local f=$1; shift
	{
		printf '[web]\nbind = 127.0.0.1\nport = 0\npin = 4321\n[db]\npath = %s/dyeref.db\n' "$WORK"
		for l in "$@"; do printf '%s\n' "$l"; done
	} > "$f"
}

# start_daemon ARGS...: runs `dyeref serve ARGS`, sets PORT and BASE; the
# daemon has 10 s (times the slowdown) to say it listens.
start_daemon() {
	: > "$WORK/daemon.log"
	"$DYEREF" serve "$@" >> "$WORK/daemon.log" 2>&1 &
	DAEMON_PID=$!
	for _ in $(seq 1 "$(slow_n 100)"); do
		PORT=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\)\/.*/\1/p' "$WORK/daemon.log" | tail -n 1)
		[ -n "$PORT" ] && break
		kill -0 "$DAEMON_PID" 2>/dev/null || fail "daemon exited early"
		sleep 0.1
	done
	[ -n "$PORT" ] || fail "daemon did not start listening"
	BASE=http://127.0.0.1:$PORT
}

stop_daemon() { # sends SIGTERM, expects exit 0
	kill -TERM "$DAEMON_PID"
	local rc=0
	wait "$DAEMON_PID" || rc=$?
	DAEMON_PID=
	[ "$rc" -eq 0 ] || fail "daemon exited $rc on SIGTERM"
}

# poll_until SECS COMMAND...: runs COMMAND every 0.1 s until it succeeds
# (status 0) or SECS times the slowdown have gone by (status 1). The budget
# counts tries, not the clock: a slow COMMAND only makes it longer.
poll_until() {
	local n
	n=$(slow_n "$(awk -v s="$1" 'BEGIN { print s * 10 }')")
	shift
	for _ in $(seq 1 "$n"); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

status_of() { curl -s -o /dev/null -w '%{http_code}' --max-time "$(slow 10)" "$@"; }

# login: sets COOKIES (file) and CSRF.
login() {
	COOKIES=$WORK/cookies
	local body
	body=$(curl -s --max-time "$(slow 10)" -c "$COOKIES" -d "pin=${1:-4321}" "$BASE/console/login")
	CSRF=$(printf '%s' "$body" | sed -n 's/.*"csrf":"\([0-9a-f]*\)".*/\1/p')
	[ -n "$CSRF" ] || fail "login: no CSRF token in '$body'"
}

# command JSON: a console command with session and CSRF; prints the status.
command_status() {
	curl -s -o "$WORK/last" -w '%{http_code}' --max-time "$(slow 10)" -b "$COOKIES" \
		-H "X-CSRF-Token: $CSRF" -H 'Content-Type: application/json' \
		--data-binary "$1" "$BASE/console/api/command"
}
command_ok() {
	local s
	s=$(command_status "$1")
	[ "$s" = 200 ] || fail "command $1 -> $s $(cat "$WORK/last")"
}
state() { curl -s --max-time "$(slow 10)" "$BASE/api/state"; }
# The official's: each health item whole, with its paths (after login).
console_status() { curl -s --max-time "$(slow 10)" -b "$COOKIES" "$BASE/console/api/status"; }
# camera_up: whether the camera's health is up in the console's status
# (kept in $WORK/console.status). camera_status: that status once it is (a
# weights file is checked before), or as it is after 10 s (stretched).
camera_up() { console_status > "$WORK/console.status" && grep -q '"camera":{"ok":true' "$WORK/console.status"; }
camera_status() { poll_until 10 camera_up || true; cat "$WORK/console.status"; }
score_of() { state | grep -o '"score":{"A":[0-9]*,"B":[0-9]*}' | head -n 1; }
