# shellcheck shell=bash
# Debian's own MQTT broker on a loopback port of its own, for the MQTT
# tests (lib/daemon.sh sourced first). Skips the test (77) without
# mosquitto, its clients or python3. Sets MQ_PORT and the broker's config
# in WORK; start_broker / kill_broker (SIGKILL, as a power cut); pub
# ARGS... publishes with QoS 1. The EXIT trap kills the broker and
# SUB_PID (a test's subscriber) before the daemon's cleanup.
MOSQUITTO=$(command -v mosquitto || echo /usr/sbin/mosquitto)
[ -x "$MOSQUITTO" ] || { echo "mosquitto is not installed"; exit 77; }
command -v mosquitto_sub > /dev/null && command -v mosquitto_pub > /dev/null ||
	{ echo "mosquitto-clients is not installed"; exit 77; }
command -v python3 > /dev/null || { echo "python3 is not installed"; exit 77; }

MQ_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$MQ_PORT" > "$WORK/mosquitto.conf"
BROKER_PID=
SUB_PID=
stop_all() {
	[ -n "$BROKER_PID" ] && kill -9 "$BROKER_PID" 2> /dev/null || true
	[ -n "$SUB_PID" ] && kill "$SUB_PID" 2> /dev/null || true
	cleanup
}
trap stop_all EXIT
pub() { mosquitto_pub -h 127.0.0.1 -p "$MQ_PORT" -q 1 "$@" 2> /dev/null; }
start_broker() {
	"$MOSQUITTO" -c "$WORK/mosquitto.conf" >> "$WORK/broker.log" 2>&1 &
	BROKER_PID=$!
	poll_until 10 pub -t dyeref-test/ping -m up || fail "the broker did not start: $(cat "$WORK/broker.log")"
}
kill_broker() {
	kill -9 "$BROKER_PID"
	wait "$BROKER_PID" 2> /dev/null || true
	BROKER_PID=
}
