#!/bin/bash
# The official's correction on the phone console, timed in headless
# chromium at 390x844 (tests/e2e/lib/browser_console.js bench): throw 2, a
# one-handed catch, opened from the list and made two-handed, to the new
# score on the wall scoreboard (a second tab, over SSE). Taps against the
# 4-tap target; the system's own time (tap -> throw shown, plus Save ->
# the wall's new score; the thumb's time between taps left out) against
# the 1 s target; each on the page's clock. ROUNDS rounds, a fresh daemon
# and browser each; the median and the worst.
#   bench/console_correct.sh    (env DYEREF, ROUNDS=5)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
: "${DYEREF:=$top/build/dyeref}"
export DYEREF
rounds=${ROUNDS:-5}
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "console_correct: chromium is not installed: skipped"; exit 0; }
for t in node curl; do
	command -v "$t" >/dev/null || { echo "console_correct: $t is not installed: skipped"; exit 0; }
done
# shellcheck source=tests/e2e/lib/daemon.sh
. "$top/tests/e2e/lib/daemon.sh"
for i in $(seq 1 "$rounds"); do
	write_config "$WORK/c.ini"
	rm -f "$WORK"/dyeref.db*
	start_daemon --config "$WORK/c.ini"
	node "$top/tests/e2e/lib/browser_console.js" "$chromium" "$BASE" "$WORK" 4321 bench 2>/dev/null >> "$WORK/figures" ||
		fail "round $i: the browser's correction failed"
	stop_daemon
done
# {"taps":3,"open_ms":21,"save_to_wall_ms":13,"own_ms":34,"total_ms":88} a line
sed 's/[{}"]//g; s/[a-z_]*://g; s/,/ /g' "$WORK/figures" > "$WORK/rows"
read -r taps own_med own_max open_med wall_med total_med <<<"$(awk '
	{ t[NR] = $1; o[NR] = $4; op[NR] = $2; w[NR] = $3; tot[NR] = $5; if ($1 > tm) tm = $1 }
	function med(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x } return a[int((n + 1) / 2)] }
	END { n = NR; omax = 0; for (i = 1; i <= n; i++) if (o[i] > omax) omax = o[i]
	      print tm, med(o, n), omax, med(op, n), med(w, n), med(tot, n) }' "$WORK/rows")"
printf 'console correction (open throw 2 from the list, two hands, Save; %d rounds at 390x844): %d taps; target 4: %.2f of it\n' \
	"$rounds" "$taps" "$(echo "$taps / 4" | bc -l)"
printf '  system'"'"'s own time: median %d ms, worst %d ms (open %d ms + Save -> wall %d ms, medians); target 1000 ms: median %.3f, worst %.3f of it; tap 1 -> wall with the driver'"'"'s taps: median %d ms\n' \
	"$own_med" "$own_max" "$open_med" "$wall_med" "$(echo "$own_med / 1000" | bc -l)" "$(echo "$own_max / 1000" | bc -l)" "$total_med"
