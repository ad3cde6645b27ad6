#!/bin/bash
# The unit file's hardening rates "OK" or better, and the example config
# passes --check-config.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
"$DYEREF" serve --config "$top/systemd/dyeref.conf.example" --check-config \
	|| { echo "FAIL: the example config does not check"; exit 1; }
command -v systemd-analyze >/dev/null || { echo "systemd-analyze is not installed"; exit 77; }
out=$(systemd-analyze security --offline=true "$top/systemd/dyeref.service" 2>&1) || true
level=$(printf '%s\n' "$out" | sed -n 's/.*Overall exposure level for dyeref.service: \([0-9.]*\) \([A-Z]*\).*/\2/p')
[ -n "$level" ] || { echo "systemd-analyze gave no rating (offline mode unsupported?)"; exit 77; }
case "$level" in
OK|SAFE|PERFECT) echo "ok: $level" ;;
*) echo "FAIL: exposure $level"; printf '%s\n' "$out" | tail -n 20; exit 1 ;;
esac
