#!/bin/bash
# MQTT over TLS (docs/mqtt.md, mqtt.cafile) against Debian's own broker
# on a loopback TLS listener, with a CA and a server certificate for
# 127.0.0.1 made here by openssl: the table connects, says it is online
# and publishes its rulings, without spinning a core on the handshake; a
# CA that did not sign the broker's certificate is not trusted, and the
# log says why.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
. "$(dirname "$0")/lib/broker.sh"
command -v openssl > /dev/null || { echo "openssl is not installed"; exit 77; }

mkcert() { # DIR: a CA (ca.pem) and a certificate for 127.0.0.1 it signed (server.pem, server.key)
	local d=$1
	mkdir -p "$d"
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=dyeref test CA" \
		-keyout "$d/ca.key" -out "$d/ca.pem" 2> /dev/null
	openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
		-keyout "$d/server.key" -out "$d/server.csr" 2> /dev/null
	printf 'subjectAltName = IP:127.0.0.1\n' > "$d/ext.cnf"
	openssl x509 -req -in "$d/server.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" -CAcreateserial \
		-days 2 -extfile "$d/ext.cnf" -out "$d/server.pem" 2> /dev/null
}
mkcert "$WORK/pki"
mkcert "$WORK/other"
# As whoever runs the test (a broker started as root would read the key
# as user mosquitto, who may not enter WORK).
printf 'listener %s 127.0.0.1\ncafile %s\ncertfile %s\nkeyfile %s\nallow_anonymous true\npersistence false\nuser %s\n' \
	"$MQ_PORT" "$WORK/pki/ca.pem" "$WORK/pki/server.pem" "$WORK/pki/server.key" "$(id -un)" \
	> "$WORK/mosquitto.conf"
pub() { mosquitto_pub -h 127.0.0.1 -p "$MQ_PORT" --cafile "$WORK/pki/ca.pem" -q 1 "$@" 2> /dev/null; }
start_broker

stdbuf -oL mosquitto_sub -h 127.0.0.1 -p "$MQ_PORT" --cafile "$WORK/pki/ca.pem" -q 1 -v -t 'dyeref/t1/#' \
	> "$WORK/sub.log" 2> "$WORK/sub.err" &
SUB_PID=$!
subscribed() { pub -t dyeref/t1/probe -m p && poll_until 1 grep -q '^dyeref/t1/probe p$' "$WORK/sub.log"; }
poll_until 10 subscribed || fail "the subscriber did not subscribe over TLS: $(cat "$WORK/sub.err")"

write_config "$WORK/c.ini" "[table]" "id = t1" "[fusion]" "review = count" \
	"[sim]" "speed = 20" "pause_s = 0.5" "max_throws = 40" \
	"[mqtt]" "host = 127.0.0.1" "port = $MQ_PORT" "cafile = $WORK/pki/ca.pem"
start_daemon --config "$WORK/c.ini" --sim=table
poll_until 15 grep -q '^dyeref/t1/status online$' "$WORK/sub.log" ||
	fail "no 'online' over TLS: $(grep mqtt "$WORK/daemon.log")"
poll_until 30 grep -q '^dyeref/t1/ruling {"table":"t1","seq":3,' "$WORK/sub.log" ||
	fail "no rulings over TLS: $(grep mqtt "$WORK/daemon.log")"
# Connected and idle between throws, the daemon does not spin: under a
# second of CPU over 3 s of play (a loop on EPOLLOUT takes all 3).
t0=$(awk '{ print $14 + $15 }' "/proc/$DAEMON_PID/stat")
sleep "$(slow 3)"
t1=$(awk '{ print $14 + $15 }' "/proc/$DAEMON_PID/stat")
hz=$(getconf CLK_TCK)
[ $((t1 - t0)) -lt "$hz" ] || fail "the daemon used $(((t1 - t0) * 100 / hz)) % of 1 s of CPU over 3 s"
stop_daemon

# Another CA: the broker is not trusted, and the log says so.
write_config "$WORK/c.ini" "[table]" "id = t1" \
	"[mqtt]" "host = 127.0.0.1" "port = $MQ_PORT" "cafile = $WORK/other/ca.pem"
: > "$WORK/daemon.log"
start_daemon --config "$WORK/c.ini"
poll_until 15 grep -q "mqtt: cannot reach 127.0.0.1:$MQ_PORT: .*: retrying" "$WORK/daemon.log" ||
	fail "no word of the untrusted broker: $(grep mqtt "$WORK/daemon.log")"
grep -q 'mqtt: connected' "$WORK/daemon.log" && fail "connected to a broker its CA did not sign"
stop_daemon
echo "ok"
