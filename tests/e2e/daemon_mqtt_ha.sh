#!/bin/bash
# Home Assistant's MQTT discovery (docs/mqtt.md, "Home Assistant") against
# Debian's own broker on a loopback port of its own: a hostile
# homeassistant or discovery_prefix is refused with its line; with
# homeassistant = true the table's connect leaves 9 retained configs under
# the prefix, each JSON naming the table's device, its topics and state
# fields; a sink thrown at the console reaches dyeref/TABLE/event as a
# message the sink trigger matches the way Home Assistant matches it (its
# value_template applied to the message yields its payload), and no other
# trigger's.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
. "$(dirname "$0")/lib/refused.sh"
. "$(dirname "$0")/lib/broker.sh"

# write_config puts 6 lines before these: [mqtt] is line 7.
refused "8: mqtt.homeassistant: expected true or false, got 'maybe'" "[mqtt]" "homeassistant = maybe"
refused "8: mqtt.discovery_prefix" "[mqtt]" "discovery_prefix = ha/#"
refused "8: mqtt.discovery_prefix" "[mqtt]" "discovery_prefix = /homeassistant"
refused "8: mqtt.discovery_prefix" "[mqtt]" "discovery_prefix = home assistant"
refused "9: mqtt.discovery_prefix" "[mqtt]" "homeassistant = true" \
	"discovery_prefix = $(printf 'h%.0s' $(seq 1 64))"

start_broker
# sub_start LOG TOPIC...: a subscriber printing "retained topic payload";
# sub_probe LOG: true once a probe published now reaches it, so that all
# the retained messages, sent at the subscription, are in LOG before it.
sub_start() {
	local log=$1 t args=()
	shift
	for t in "$@"; do args+=(-t "$t"); done
	stdbuf -oL mosquitto_sub -h 127.0.0.1 -p "$MQ_PORT" -q 1 -F '%r %t %p' -t dyeref-test/probe \
		"${args[@]}" > "$log" 2> "$log.err" &
	SUB_PID=$!
}
PROBE=0
sub_probe() {
	PROBE=$((PROBE + 1))
	pub -t dyeref-test/probe -m "p$PROBE" || return 1
	poll_until 1 grep -q "^0 dyeref-test/probe p$PROBE\$" "$1"
}
sub_stop() { kill "$SUB_PID"; wait "$SUB_PID" 2> /dev/null || true; SUB_PID=; }

write_config "$WORK/c.ini" "[table]" "id = t1" "name = Table One" \
	"[mqtt]" "host = 127.0.0.1" "port = $MQ_PORT" "keepalive = 5" "homeassistant = true"
start_daemon --config "$WORK/c.ini"
online() { # TABLE: its retained status says online
	mosquitto_sub -h 127.0.0.1 -p "$MQ_PORT" -C 1 -W "$(slow 2)" -t "dyeref/$1/status" 2> /dev/null |
		grep -qx online
}
poll_until 10 online t1 || fail "the table did not come online: $(cat "$WORK/daemon.log")"

# The configs are retained: a subscriber that comes after the connect (as
# Home Assistant started later would) gets them all at once.
sub_start "$WORK/ha.log" 'homeassistant/#'
poll_until 10 sub_probe "$WORK/ha.log" || fail "the subscriber did not subscribe: $(cat "$WORK/ha.log.err")"
sub_stop
python3 - "$WORK/ha.log" "$(dirname "$0")/../../VERSION" <<'PY' || fail "the discovery configs: $(cat "$WORK/ha.log")"
import json, sys
version = open(sys.argv[2]).read().strip()
configs = {}
for line in open(sys.argv[1]):
    retained, topic, payload = line.rstrip("\n").split(" ", 2)
    if topic.startswith("dyeref-test/"):
        continue
    assert retained == "1", "%s is not retained" % topic
    configs[topic] = json.loads(payload)
want = ["sensor/dyeref-t1/score_a", "sensor/dyeref-t1/score_b", "sensor/dyeref-t1/next_thrower",
        "sensor/dyeref-t1/match_state", "binary_sensor/dyeref-t1/online"] + [
        "device_automation/dyeref-t1/%s" % e for e in ("sink", "five", "kill_n_fill", "win")]
assert sorted(configs) == sorted("homeassistant/%s/config" % w for w in want), sorted(configs)
uids = set()
for topic, c in configs.items():
    d = c["device"]
    assert d["identifiers"] == ["dyeref-t1"] and d["name"] == "Table One", d
    assert d["manufacturer"] == "dyeref" and d["sw_version"] == version, d
    if "/device_automation/" in topic:
        assert c["automation_type"] == "trigger" and c["topic"] == "dyeref/t1/event", c
        assert c["type"] == topic.split("/")[-2] == c["payload"], c
    else:
        uids.add(c["unique_id"])
        assert c["unique_id"] == "dyeref-t1-" + topic.split("/")[-2], c
for o in ("score_a", "score_b", "next_thrower", "match_state"):
    c = configs["homeassistant/sensor/dyeref-t1/%s/config" % o]
    assert c["state_topic"] == "dyeref/t1/state" and c["availability_topic"] == "dyeref/t1/status", c
    assert (c["payload_available"], c["payload_not_available"]) == ("online", "offline"), c
c = configs["homeassistant/binary_sensor/dyeref-t1/online/config"]
assert (c["state_topic"], c["payload_on"], c["payload_off"]) == ("dyeref/t1/status", "online", "offline"), c
assert c["device_class"] == "connectivity", c
assert len(uids) == 5
json.dump(configs, open(sys.argv[1] + ".json", "w"))
print("discovery: %d retained configs" % len(configs))
PY

# A sink at the console: its event goes to the sink trigger's topic.
sub_start "$WORK/ev.log" 'dyeref/t1/#'
poll_until 10 sub_probe "$WORK/ev.log" || fail "the subscriber did not subscribe: $(cat "$WORK/ev.log.err")"
login
command_ok '{"cmd":"start","teams":{"A":["Al","Bo"],"B":["Cy","Di"]},"team_names":["Orange","Blue"]}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"cup","owner":"b1","sink":true}]}'
poll_until 10 grep -q '^0 dyeref/t1/event .*"event":"kill_n_fill"' "$WORK/ev.log" ||
	fail "no events: $(cat "$WORK/ev.log")"
poll_until 10 grep -q '^0 dyeref/t1/state .*"score":{"A":2' "$WORK/ev.log" ||
	fail "no state after the sink: $(cat "$WORK/ev.log")"
sub_stop
# A new table.name on SIGHUP: the state has it, the device's name waits
# for a restart, and the log says so.
write_config "$WORK/c.ini" "[table]" "id = t1" "name = Table Uno" \
	"[mqtt]" "host = 127.0.0.1" "port = $MQ_PORT" "keepalive = 5" "homeassistant = true"
kill -HUP "$DAEMON_PID"
poll_until 10 grep -q "reload: table.name changes Home Assistant's device name on restart only" \
	"$WORK/daemon.log" || fail "no word that the device keeps its name: $(grep reload "$WORK/daemon.log")"
stop_daemon
# Home Assistant applies a trigger's value_template to the message (as
# value_json, Jinja) and fires when the result equals its payload; the
# sensors' templates the same way on the state. jinja2 is what Home
# Assistant renders with; without it, the trigger's plain
# "{{ value_json.FIELD }}" is evaluated here.
python3 - "$WORK/ev.log" "$WORK/ha.log.json" <<'PY' || fail "the triggers do not match the events: $(cat "$WORK/ev.log")"
import json, re, sys
configs = json.load(open(sys.argv[2]))
try:
    import jinja2
    env = jinja2.Environment()
    render = lambda t, v: env.from_string(t).render(value_json=v)
except ImportError:
    jinja2 = None
    def render(t, v):
        m = re.fullmatch(r"\{\{ value_json\.([a-z_]+) \}\}", t)
        assert m, "cannot evaluate %r without jinja2" % t
        return str(v[m.group(1)])
events, state = [], None
for line in open(sys.argv[1]):
    retained, topic, payload = line.rstrip("\n").split(" ", 2)
    if topic == "dyeref/t1/event":
        events.append(json.loads(payload))
    elif topic == "dyeref/t1/state":
        state = json.loads(payload)
fired = {}
for topic, c in configs.items():
    if c.get("automation_type") != "trigger":
        continue
    for e in events:
        if c["topic"] == "dyeref/t1/event" and render(c["value_template"], e) == c["payload"]:
            fired.setdefault(c["type"], []).append(e["event"])
assert fired == {"sink": ["sink"], "kill_n_fill": ["kill_n_fill"]}, (fired, events)
if jinja2:
    got = {o: render(configs["homeassistant/sensor/dyeref-t1/%s/config" % o]["value_template"], state)
           for o in ("score_a", "score_b", "next_thrower", "match_state")}
    want = {"score_a": str(state["score"]["A"]), "score_b": str(state["score"]["B"]),
            "next_thrower": state["next"]["player"], "match_state": "playing"}
    assert got == want and got["score_a"] == "2", (got, want)
    # Between matches: no score, no next.
    idle = {"table": state["table"], "match": None, "game": "beerdie"}
    got = {o: render(configs["homeassistant/sensor/dyeref-t1/%s/config" % o]["value_template"], idle)
           for o in ("score_a", "next_thrower", "match_state")}
    assert got == {"score_a": "0", "next_thrower": "none", "match_state": "idle"}, got
print("triggers fired: %s; sensors %s" % (fired, "checked with jinja2" if jinja2 else "not evaluated (no jinja2)"))
PY

# Without homeassistant, no config is published.
write_config "$WORK/c.ini" "[table]" "id = t2" "[mqtt]" "host = 127.0.0.1" "port = $MQ_PORT"
start_daemon --config "$WORK/c.ini"
poll_until 10 online t2 || fail "table t2 did not come online"
sub_start "$WORK/none.log" 'homeassistant/+/dyeref-t2/#'
poll_until 10 sub_probe "$WORK/none.log" || fail "the subscriber did not subscribe"
sub_stop
stop_daemon
! grep -q ' homeassistant/' "$WORK/none.log" || fail "configs without homeassistant: $(cat "$WORK/none.log")"
echo "ok"
