#!/bin/bash
# MQTT from the table (docs/daemon.md, "MQTT") against Debian's own broker
# on a loopback port of its own: a hostile [mqtt] is refused with its line;
# then a simulated table publishes while the broker is killed and started
# again and the table itself is SIGKILLed and restarted, and every ruling
# the table stored reaches a subscriber at least once, with sequence
# numbers 1..N without a gap and duplicates only as identical copies, and
# each event at most once (never again after a reconnect or a restart).
set -eu
. "$(dirname "$0")/lib/daemon.sh"
. "$(dirname "$0")/lib/refused.sh"
. "$(dirname "$0")/lib/broker.sh"

# write_config puts 6 lines before these: [mqtt] is line 7.
refused "8: mqtt.port" "[mqtt]" "port = 99999"
refused "8: mqtt.port" "[mqtt]" "port = 0"
refused "8: mqtt.port" "[mqtt]" "port = 18x3"
refused "8: unknown key mqtt.hots" "[mqtt]" "hots = 127.0.0.1"
refused "8: mqtt.host" "[mqtt]" "host = a b"
refused "8: mqtt.keepalive" "[mqtt]" "keepalive = 1"
refused "8: mqtt.password: without mqtt.username" "[mqtt]" "password = x"
refused "8: mqtt.cafile: $WORK/none.pem: No such file or directory" "[mqtt]" "cafile = $WORK/none.pem"

# The subscriber is back (it resubscribes when it reconnects) once a probe
# published after the broker started reaches it.
PROBE=0
subscribed() {
	PROBE=$((PROBE + 1))
	pub -t dyeref/t1/probe -m "p$PROBE" || return 1
	poll_until 1 grep -q "^dyeref/t1/probe p$PROBE\$" "$WORK/sub.log"
}
stored() { # the rulings the table stored: their highest id, the outbox's sequence number
	python3 -c 'import sqlite3, sys
c = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
print(c.execute("SELECT coalesce(max(id), 0) FROM rulings").fetchone()[0])' "$WORK/dyeref.db"
}
received() { # the highest sequence number up to which every one arrived
	python3 - "$WORK/sub.log" <<'PY'
import json, sys
seqs = set()
for line in open(sys.argv[1], errors="replace"):
    if line.startswith("dyeref/t1/ruling "):
        try:
            seqs.add(json.loads(line.split(" ", 1)[1])["seq"])
        except (ValueError, KeyError):
            pass
n = 0
while n + 1 in seqs:
    n += 1
print(n)
PY
}
all_received() { local s; s=$(stored); [ "$s" -gt 0 ] && [ "$(received)" -ge "$s" ]; }
more_throws() { # N: wait for N more rulings than there are now
	local want=$(($(stored) + $1))
	poll_until 60 test_stored_at_least "$want" || fail "no $1 more rulings within 60 s (stored $(stored))"
}
test_stored_at_least() { [ "$(stored)" -ge "$1" ]; }
# Before each start: the subscriber's lines so far and the newest ruling,
# whose events (and those before it) the new daemon must not send.
restart() { echo "$(wc -l < "$WORK/sub.log") $(stored)" >> "$WORK/restarts"; start_daemon "$@"; }
lost_count() { grep -c 'mqtt: lost 127.0.0.1' "$WORK/daemon.log" || true; }

# The simulated table plays fast, a match after another.
write_config "$WORK/c.ini" "[table]" "id = t1" "name = Table One" "[fusion]" "review = count" \
	"[sim]" "speed = 20" "pause_s = 0.5" "max_throws = 40" \
	"[mqtt]" "host = 127.0.0.1" "port = $MQ_PORT" "keepalive = 5"
# No broker at all yet: the table referees all the same, and keeps what
# it rules for later.
start_daemon --config "$WORK/c.ini" --sim=table
more_throws 3
grep -q "mqtt: cannot reach 127.0.0.1:$MQ_PORT" "$WORK/daemon.log" || fail "no word of the broker missing"
stop_daemon

start_broker
stdbuf -oL mosquitto_sub -h 127.0.0.1 -p "$MQ_PORT" -q 1 -v -i dyeref-test-sub -t 'dyeref/t1/#' \
	> "$WORK/sub.log" 2> "$WORK/sub.err" &
SUB_PID=$!
poll_until 10 subscribed || fail "the subscriber did not subscribe: $(cat "$WORK/sub.err")"

restart --config "$WORK/c.ini" --sim=table
poll_until 10 grep -q '^dyeref/t1/status online$' "$WORK/sub.log" || fail "no 'online' status"
poll_until 10 grep -q '^dyeref/t1/state {"table":{"id":"t1","name":"Table One"}' "$WORK/sub.log" ||
	fail "no retained state: $(head -c 600 "$WORK/sub.log")"
more_throws 5
poll_until 30 all_received || fail "the first rulings did not arrive (stored $(stored), received $(received))"

# The broker hangs (SIGSTOP): what the table sends meanwhile waits unread
# and unacknowledged. Once the table gave that connection up (keepalive),
# the table is held (before its retry 1 s later) while the broker wakes,
# reads it all and delivers it; the table's next connection sends the
# rulings again, but not their events.
n_lost=$(lost_count)
lost_more() { [ "$(lost_count)" -gt "$n_lost" ]; }
kill -STOP "$BROKER_PID"
more_throws 6
poll_until 30 lost_more || { kill -CONT "$BROKER_PID"; fail "the table did not give up a hung broker"; }
kill -STOP "$DAEMON_PID"
kill -CONT "$BROKER_PID"
poll_until 20 subscribed || { kill -CONT "$DAEMON_PID"; fail "the broker did not wake"; }
kill -CONT "$DAEMON_PID"
poll_until 60 all_received || fail "after the broker hung: stored $(stored), received $(received)"

# The broker dies mid-match: the table goes on ruling into its database.
n_log=$(wc -l < "$WORK/daemon.log")
n_lost=$(lost_count)
kill_broker
poll_until 20 lost_more || fail "the table did not notice the broker gone"
# ... and says why (libmosquitto's reason).
tail -n +"$((n_log + 1))" "$WORK/daemon.log" | grep -Eq "mqtt: lost 127\.0\.0\.1:$MQ_PORT: [^:]+: retrying" ||
	fail "no reason for the lost connection: $(grep 'mqtt: lost' "$WORK/daemon.log" | tail -n 1)"
more_throws 5
# Held while the broker comes back, so the subscriber is in again before
# the table republishes (what a late subscriber misses is not the table's).
kill -STOP "$DAEMON_PID"
start_broker
poll_until 20 subscribed || { kill -CONT "$DAEMON_PID"; fail "the subscriber did not come back"; }
kill -CONT "$DAEMON_PID"
poll_until 60 all_received || fail "after the broker's restart: stored $(stored), received $(received)"
grep -q '^dyeref/t1/event ' "$WORK/sub.log" || echo "note: no event (sink, five, kill n' fill, win) in this run"

# The table is killed mid-match: the broker says it is offline (its last
# will); restarted, it publishes what was not acknowledged, then goes on.
more_throws 3
n_off=$(grep -c '^dyeref/t1/status offline$' "$WORK/sub.log" || true)
kill -9 "$DAEMON_PID"
wait "$DAEMON_PID" 2> /dev/null || true
DAEMON_PID=
offline_more() { [ "$(grep -c '^dyeref/t1/status offline$' "$WORK/sub.log" || true)" -gt "$n_off" ]; }
poll_until 20 offline_more || fail "no last will after SIGKILL"
cp "$WORK/daemon.log" "$WORK/daemon1.log"
restart --config "$WORK/c.ini" --sim=table
more_throws 5
poll_until 60 all_received || fail "after the table's restart: stored $(stored), received $(received)"

# The broker goes, the table rules on and is killed before the broker is
# back (a power cut in a Wi-Fi outage): restarted, it sends from its database.
kill_broker
more_throws 3
kill -9 "$DAEMON_PID"
wait "$DAEMON_PID" 2> /dev/null || true
DAEMON_PID=
start_broker
poll_until 20 subscribed || fail "the subscriber did not come back"
restart --config "$WORK/c.ini" --sim=table
poll_until 60 all_received || fail "after the outage and the kill: stored $(stored), received $(received)"

# Stopped, then started without the simulator: it sends what its stop left
# unacknowledged, and nothing is ruled any more.
# Another table's match imported into this database goes out under its
# own table id, not as this table's.
stop_daemon
printf '%s\n' '{"type":"match","game":"beerdie","table":{"id":"t9"},"teams":{"A":["a1","a2"],"B":["b1","b2"]}}' \
	'{"type":"throw","events":[{"at":"floor"}]}' > "$WORK/t9.jsonl"
"$DYEREF" import --db "$WORK/dyeref.db" "$WORK/t9.jsonl" > /dev/null || fail "import exited $?"
restart --config "$WORK/c.ini"
poll_until 60 all_received || fail "after the last restart: stored $(stored), received $(received)"
grep -q '^dyeref/t1/ruling {"table":"t9",' "$WORK/sub.log" ||
	fail "the imported match went out as this table's: $(grep '^dyeref/t1/ruling' "$WORK/sub.log" | tail -n 1)"
stop_daemon

python3 - "$WORK/sub.log" "$WORK/restarts" <<'PY' || fail "an event went out twice"
import json, sys
lines = open(sys.argv[1], errors="replace").read().splitlines()
restarts = [tuple(map(int, l.split())) for l in open(sys.argv[2])]
seen = {}
bad = []
for i, line in enumerate(lines):
    if not line.startswith("dyeref/t1/event "):
        continue
    e = json.loads(line.split(" ", 1)[1])
    key = (e["seq"], e["event"], e.get("player"))
    if key in seen:
        bad.append("event %r arrived twice (lines %d and %d)" % (key, seen[key] + 1, i + 1))
    seen[key] = i
    for at, newest in restarts:
        if i >= at and e["seq"] <= newest:
            bad.append("event %r (line %d) sent by a daemon started after ruling %d" % (key, i + 1, newest))
print("events: %d, each once" % len(seen))
for b in bad[:10]:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
python3 - "$WORK/sub.log" "$WORK/dyeref.db" <<'PY' || fail "the rulings received do not match those stored"
import json, sqlite3, sys
got = {}
ident = {}
bad = []
for line in open(sys.argv[1], errors="replace"):
    if not line.startswith("dyeref/t1/ruling "):
        continue
    text = line.split(" ", 1)[1].rstrip("\n")
    m = json.loads(text)
    s = m["seq"]
    if s in got and got[s] != text:
        bad.append("seq %d arrived twice, differently" % s)
    got[s] = text
    key = (m["table"], m["match"], m["throw"], m["revision"])
    if key in ident and ident[key] != s:
        bad.append("%r is both seq %d and %d" % (key, ident[key], s))
    ident[key] = s
c = sqlite3.connect("file:" + sys.argv[2] + "?mode=ro", uri=True)
rows = c.execute("SELECT id, match_id, throw_no, line FROM rulings ORDER BY id").fetchall()
ids = [r[0] for r in rows]
if ids != list(range(1, len(ids) + 1)):
    bad.append("stored ids are not 1..N")
if sorted(got) != ids:
    bad.append("received %d sequence numbers, stored %d; missing %s, extra %s" % (
        len(got), len(ids), sorted(set(ids) - set(got))[:10], sorted(set(got) - set(ids))[:10]))
for rid, match, throw, line in rows:
    m = json.loads(got.get(rid, "{}"))
    if m and (m["match"], m["throw"], m["ruling"]) != (match, throw, json.loads(line)):
        bad.append("seq %d is not the stored ruling" % rid)
acked = c.execute("SELECT seq FROM mqtt_acked").fetchone()
if not acked or acked[0] != len(ids):
    bad.append("acknowledged %s of %d" % (acked, len(ids)))
dups = sum(1 for l in open(sys.argv[1], errors="replace") if l.startswith("dyeref/t1/ruling ")) - len(got)
print("rulings: %d stored, all received, %d duplicates (identical)" % (len(ids), dups))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
grep -q '^dyeref/t1/status offline$' "$WORK/sub.log" || fail "no 'offline' status after the stop"
echo "ok"
