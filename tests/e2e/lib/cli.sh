# Shared by the command-line end-to-end scripts: the build's dyeref in
# $dyeref, a scratch directory $tmp removed on exit, bad() that counts a
# failure and goes on, and expect_error. Source after `set -u`. Budgets:
# slow and slow_n (lib/slow.sh, DYEREF_TEST_SLOWDOWN).
# shellcheck source=tests/e2e/lib/slow.sh
. "$(dirname "${BASH_SOURCE[0]}")/slow.sh"
cd "${TOP:?}"
dyeref=${DYEREF:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect_error WORDS ARGS...: `dyeref ARGS` exits 2, writes nothing on
# stdout and one line on stderr, "dyeref: ..." containing WORDS.
expect_error() {
	local want=$1 rc
	shift
	"$dyeref" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || bad "$*: exit $rc, want 2"
	[ -s "$tmp/out" ] && bad "$*: wrote to stdout: $(head -c 200 "$tmp/out")"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "$*: want one line on stderr, got: $(cat "$tmp/err")"
	grep -q "^dyeref: " "$tmp/err" || bad "$*: message does not start 'dyeref: ': $(cat "$tmp/err")"
	grep -qF -- "$want" "$tmp/err" || bad "$*: message lacks '$want': $(cat "$tmp/err")"
}

# finish NAME: the script's exit status from the failures counted.
finish() {
	[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
	echo "$1: ok"
}
