#!/bin/bash
# MQTT with a broker that wants a password (docs/mqtt.md): a table with
# none, or the wrong one, is refused, and says so in one line with the
# broker's reason (not also "cannot reach"), once for the outage; with the
# right username and password it connects and publishes; a broker named
# (not an address) is resolved and reached.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
. "$(dirname "$0")/lib/broker.sh"
command -v mosquitto_passwd > /dev/null || { echo "mosquitto_passwd is not installed"; exit 77; }

: > "$WORK/passwd"
chmod 600 "$WORK/passwd"
mosquitto_passwd -b "$WORK/passwd" ref s3cret
# As whoever runs the test (a broker started as root would read the
# password file as user mosquitto, who may not enter WORK).
printf 'listener %s 127.0.0.1\nallow_anonymous false\npassword_file %s\npersistence false\nuser %s\n' \
	"$MQ_PORT" "$WORK/passwd" "$(id -un)" > "$WORK/mosquitto.conf"
pub() { mosquitto_pub -h 127.0.0.1 -p "$MQ_PORT" -u ref -P s3cret -q 1 "$@" 2> /dev/null; }
start_broker

for creds in "" "username = ref|password = wrong"; do
	IFS='|' read -r -a extra <<< "$creds"
	write_config "$WORK/c.ini" "[table]" "id = t1" "[mqtt]" "host = 127.0.0.1" "port = $MQ_PORT" "${extra[@]}"
	: > "$WORK/daemon.log"
	start_daemon --config "$WORK/c.ini"
	poll_until 10 grep -q "mqtt: refused by 127.0.0.1:$MQ_PORT: .*: retrying" "$WORK/daemon.log" ||
		fail "no refusal (${creds:-no credentials}): $(grep mqtt "$WORK/daemon.log")"
	# Retried after 1 s and 2 s: still the one line.
	sleep "$(slow 2.5)"
	n=$(grep -c 'mqtt: ' "$WORK/daemon.log" || true)
	[ "$n" -eq 1 ] || fail "$n mqtt lines for one refusal, not 1: $(grep mqtt "$WORK/daemon.log")"
	stop_daemon
done

write_config "$WORK/c.ini" "[table]" "id = t1" "[mqtt]" "host = 127.0.0.1" "port = $MQ_PORT" \
	"username = ref" "password = s3cret"
stdbuf -oL mosquitto_sub -h 127.0.0.1 -p "$MQ_PORT" -u ref -P s3cret -q 1 -v -t 'dyeref/t1/status' \
	> "$WORK/sub.log" 2> "$WORK/sub.err" &
SUB_PID=$!
start_daemon --config "$WORK/c.ini"
poll_until 10 grep -q '^dyeref/t1/status online$' "$WORK/sub.log" ||
	fail "no 'online' with the right password: $(grep mqtt "$WORK/daemon.log")"
stop_daemon

# Without [table] the id is the default, the client id dyeref-table that
# a second such table would share: said at start. The broker by name
# (resolved off the loop first) connects all the same.
write_config "$WORK/c.ini" "[mqtt]" "host = localhost" "port = $MQ_PORT" "username = ref" "password = s3cret"
start_daemon --config "$WORK/c.ini"
poll_until 10 grep -q "mqtt: table.id is the default 'table'" "$WORK/daemon.log" ||
	fail "no word of the default table id: $(grep mqtt "$WORK/daemon.log")"
poll_until 10 grep -q "mqtt: connected to localhost:$MQ_PORT" "$WORK/daemon.log" ||
	fail "not connected by name: $(grep mqtt "$WORK/daemon.log")"
stop_daemon
# A name that does not resolve: said once, with the resolver's reason.
write_config "$WORK/c.ini" "[mqtt]" "host = no-such-broker.invalid" "port = $MQ_PORT"
start_daemon --config "$WORK/c.ini"
poll_until 10 grep -q "mqtt: cannot reach no-such-broker.invalid:$MQ_PORT: .*: retrying" "$WORK/daemon.log" ||
	fail "no word of the unknown name: $(grep mqtt "$WORK/daemon.log")"
stop_daemon
echo "ok"
