#!/bin/bash
# The soak: the daemon refereeing simulated matches (--sim=table, speed 10)
# while floods of connections and event streams, slow clients, PIN guessing
# from 200 addresses, a full disk and SIGKILLs come in turn (bench/soak.py
# says how and prints the figures against the issue's targets: probes
# answered within 1 s 100 %, the official's logins 100 %, 0 rulings lost
# over the kills, RSS under 30 MB with 500 streams). Loopback only.
#   bench/soak.sh     (env DYEREF, SOAK_SECONDS=60 for the five load phases,
#                      SOAK_KILLS=200)
# The database lives on a 64 MiB tmpfs mounted here when run as root; else
# the disk-full phase is skipped (said in the output).
set -eu
: "${DYEREF:=$(cd "$(dirname "$0")/.." && pwd)/build/dyeref}"
for t in python3; do
	command -v "$t" >/dev/null || { echo "soak: $t is not installed: skipped"; exit 0; }
done
work=$(mktemp -d)
disk=
cleanup() {
	[ -n "$disk" ] && umount "$disk" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
db=$work/dyeref.db
if [ "$(id -u)" = 0 ] && mkdir "$work/disk" && mount -t tmpfs -o size=64m soak "$work/disk" 2>/dev/null; then
	disk=$work/disk
	db=$disk/dyeref.db
fi
printf '[web]\nbind = 127.0.0.1\nport = 0\npin = 432187\n[db]\npath = %s\n[fusion]\nreview = count\n[sim]\nspeed = 10\npause_s = 1\n' \
	"$db" > "$work/soak.ini"
echo "soak: ${SOAK_SECONDS:-60} s of load in five phases, then ${SOAK_KILLS:-200} kills"
python3 "$(dirname "$0")/soak.py" "$DYEREF" "$work" "${SOAK_SECONDS:-60}" "${SOAK_KILLS:-200}" 432187 "$disk"
