#!/bin/bash
# The event log's disk fills (an SD card does), here a 4 MiB tmpfs mounted
# by the test (root only; skipped otherwise):
#  1. creating a database on the full disk exits 2 with one line saying
#     "disk full" and leaves no file;
#  2. starting on an existing database on the full disk does the same and
#     leaves the file as it was, with no -wal or -shm stub beside it;
#  3. the demo's own writes (ending its match, starting the next) fail on
#     the full disk: the health strip's "store" is red within 1 s of the
#     failure, and green again once space is freed and a write lands.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
skip() { echo "skipped: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "mounting a small tmpfs needs root (run as root to test a full disk)"
command -v mount >/dev/null && command -v umount >/dev/null || skip "mount(8) is not installed"
MNT=$WORK/full
mkdir "$MNT"
mount -t tmpfs -o size=4m dyeref-full "$MNT" 2>/dev/null || skip "cannot mount a tmpfs here (a container without CAP_SYS_ADMIN?)"
# The daemon first (it holds files on the mount), then the mount, then lib's cleanup.
unmount() {
	set +e	# every step, whatever the one before it said
	if [ -n "$DAEMON_PID" ]; then
		kill -9 "$DAEMON_PID" 2>/dev/null
		wait "$DAEMON_PID" 2>/dev/null
	fi
	DAEMON_PID=
	umount "$MNT" 2>/dev/null || umount -l "$MNT"
	cleanup
}
trap unmount EXIT

fill() { dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null || true; }
free_space() { rm -f "$MNT/fill"; }
# on_mount: what is on the mount besides the filler, one name a line.
on_mount() { ls -A "$MNT" | grep -vx fill || true; }

# refused CONFIG WHAT: serve exits 2 within 10 s with one line saying "disk full".
refused() {
	local rc=0
	timeout "$(slow 10)" "$DYEREF" serve --config "$1" > "$WORK/out" 2> "$WORK/err" || rc=$?
	[ "$rc" = 2 ] || fail "$2: exit $rc, not 2: $(cat "$WORK/err")"
	grep -v '^dyeref: warning: ' "$WORK/err" > "$WORK/errs" || true
	[ "$(wc -l < "$WORK/errs")" = 1 ] || fail "$2: not one line: $(cat "$WORK/errs")"
	grep -q 'disk full' "$WORK/errs" || fail "$2: does not say disk full: $(cat "$WORK/errs")"
}

# 1. A new database on a full disk.
write_config "$WORK/new.ini"
sed -i "s|^path = .*|path = $MNT/new.db|" "$WORK/new.ini"
fill
refused "$WORK/new.ini" "a new database on a full disk"
[ -z "$(on_mount)" ] || fail "a new database on a full disk left: $(on_mount)"

# 2. An existing database (closed cleanly) on a full disk.
free_space
"$DYEREF" import --db "$MNT/old.db" "$(dirname "$0")/../data/sample-match.jsonl" > /dev/null ||
	fail "import into the mount"
[ "$(on_mount)" = old.db ] || fail "import left: $(on_mount)"
cp "$MNT/old.db" "$WORK/old.copy"
write_config "$WORK/old.ini"
sed -i "s|^path = .*|path = $MNT/old.db|" "$WORK/old.ini"
fill
refused "$WORK/old.ini" "start-up on a full disk"
[ "$(on_mount)" = old.db ] || fail "start-up on a full disk left: $(on_mount)"
cmp -s "$MNT/old.db" "$WORK/old.copy" || fail "start-up on a full disk changed the database"
rm -f "$MNT/old.db"
free_space

# 3. The demo between two matches: the disk fills during the pause, so
# ending its match and starting the next fail.
write_config "$WORK/demo.ini" '[sim]' 'pause_s = 2' 'speed = 50'
sed -i "s|^path = .*|path = $MNT/demo.db|" "$WORK/demo.ini"
start_daemon --config "$WORK/demo.ini" --sim
store() { state | grep -o '"store":{[^}]*}'; }
over() { state | grep -q '"over":true'; }
poll_until 60 over || fail "the demo's match did not end: $(state)"
store | grep -q '"ok":true' || fail "store not green before the disk filled: $(store)"
fill
# Red within 1 s (times the slowdown) of the daemon saying a write failed.
said=
for i in $(seq 1 "$(slow_n 200)"); do
	if [ -z "$said" ] && grep -q 'demo: .*full' "$WORK/daemon.log"; then said=$i; fi
	if [ -n "$said" ]; then
		st=$(store)
		echo "$st" | grep -q '"ok":false,"text":"write failed: database or disk is full"' && break
		[ $((i - said)) -le "$(slow_n 10)" ] || fail "store still green 1 s after the demo's write failed: $st"
	fi
	sleep 0.1
done
[ -n "$said" ] || fail "the demo's writes did not fail on the full disk (20 s)"
echo "$st" | grep -q '"ok":false' || fail "store never red: $st"
echo "$(state)" | grep -qF "$MNT" && fail "the public state names the database's file"
free_space
green() { store | grep -q '"store":{"ok":true,"text":"ok"}'; }
poll_until 30 green || fail "store not green again after space was freed: $(store)"
stop_daemon
echo ok
