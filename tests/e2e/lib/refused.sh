# shellcheck shell=bash
# refused WANT CONFIG-LINES...: a config of write_config (lib/daemon.sh,
# sourced first) with CONFIG-LINES after its own six lines is refused by
# `dyeref serve --check-config`: exit 2 and one error (warnings aside)
# containing "bad.ini:WANT".
refused() {
	local want=$1
	shift
	write_config "$WORK/bad.ini" "$@"
	local rc=0
	"$DYEREF" serve --config "$WORK/bad.ini" --check-config > "$WORK/out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "$*: exit $rc, want 2: $(cat "$WORK/out")"
	grep -q "bad.ini:$want" "$WORK/out" || fail "$*: no 'bad.ini:$want' in: $(cat "$WORK/out")"
	[ "$(grep -vc 'warning: ' "$WORK/out")" = 1 ] || fail "$*: more than one error: $(cat "$WORK/out")"
}
