# shellcheck shell=bash
# One knob for every real-time budget of the tests: DYEREF_TEST_SLOWDOWN
# (default 1; may be a decimal, "4" or "2.5") multiplies each deadline, poll
# budget, curl --max-time and timeout(1) the end-to-end scripts use, and
# tests/run's per-test timeout. Set it on a slow or busy machine (qemu, a
# loaded CI runner): a budget is how long we are willing to wait for a thing
# that should happen, never a measurement, so stretching it must not change
# what a test asserts. The node scripts (lib/*.js) read the same variable,
# and so do the unit tests (tests/support/slowdown.h).
# Sourced by tests/run, lib/daemon.sh and lib/cli.sh; a script that sources
# neither sources this itself.
DYEREF_TEST_SLOWDOWN=${DYEREF_TEST_SLOWDOWN:-1}
if ! awk -v f="$DYEREF_TEST_SLOWDOWN" 'BEGIN { exit !(f ~ /^[0-9]*\.?[0-9]+$/ && f + 0 > 0) }'; then
	echo "DYEREF_TEST_SLOWDOWN='$DYEREF_TEST_SLOWDOWN' is not a positive number" >&2
	exit 2
fi
export DYEREF_TEST_SLOWDOWN

# slow SECS: SECS times the slowdown, in seconds (a decimal; at least 0.001).
slow() {
	awk -v s="$1" -v f="$DYEREF_TEST_SLOWDOWN" 'BEGIN { v = s * f; if (v < 0.001) v = 0.001; v = sprintf("%.3f", v); sub(/\.?0+$/, "", v); print v }'
}

# slow_n COUNT: COUNT times the slowdown, rounded up to a whole number: for a
# loop of COUNT tries, each a fixed sleep apart, that is a deadline.
slow_n() {
	awk -v n="$1" -v f="$DYEREF_TEST_SLOWDOWN" 'BEGIN { v = n * f; i = int(v); if (i < v) i++; if (i < 1) i = 1; print i }'
}
