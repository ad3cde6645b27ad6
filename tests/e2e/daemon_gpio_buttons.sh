#!/bin/bash
# The real daemon's GPIO lines, end to end: `dyeref serve` on the libgpiod
# stub (tests/stubs/gpiod_preload.c), which plays a script of edges on the
# fake chip in real time (DYEREF_FAKE_GPIO_EVENTS, tests/stubs/gpiod_stub.h):
# table discs, a cup, a floor strip and the referee buttons at both ends
# (docs/sensors.md "Buttons"). Their rulings are read back over loopback
# (/api/state, /api/matches/1/throws/K): a catch button credits the first
# player of its end (BD-P4, BD-P4a), a cup line its owner (BD-P7), the low
# button at the defenders' end kills the throw and at the thrower's end
# changes nothing (BD-P5: a defender calls low), the re-toss button voids
# it (BD-P9), and a button held down, which calls again when released, is
# one call. Every edge is kept in the event log, and a throw's impacts are
# replayed from it. A floating line fills no card and makes no throw. A
# malformed script is refused, naming its line.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
. "$(dirname "$0")/lib/gpio_stub.sh"
command -v jq >/dev/null || { echo "jq is not installed"; exit 77; }

# The reference wiring named line by line (naming one piezo line means
# naming them all), a floor strip, and four buttons.
write_config "$WORK/c.ini" "[sensors]" \
	"table0 = 17" "table1 = 27" "table2 = 22" "table3 = 23" \
	"cup_a1 = 5" "cup_a2 = 6" "cup_b1 = 13" "cup_b2 = 19" "mine = 26" "floor0 = 24" \
	"button_catch1_b = 12" "button_catch2_a = 16" "button_low_a = 20" "button_retoss_b = 21"

# ---- The script: each edge GAP ms after the one before ----
script=$WORK/edges
: > "$script"
# edge GAP LINE [rising|falling]
edge() { printf '%s %s %s\n' "$2" "${3:-rising}" "$1" >> "$script"; }
# press GAP LINE: a button's contacts bounce on press and on release
# (150 ms later); only the first rising edge is a call.
press() {
	edge "$1" "$2"; edge 0.3 "$2" falling; edge 0.5 "$2"
	edge 150 "$2" falling; edge 2 "$2"; edge 1 "$2" falling
}
# hold GAP LINE: a press held 600 ms, longer than button_repeat_ms (400):
# its release's bounce calls a second time (docs/sensors.md "Buttons").
hold() {
	edge "$1" "$2"; edge 0.3 "$2" falling; edge 0.5 "$2"
	edge 600 "$2" falling; edge 2 "$2"; edge 1 "$2" falling
}
# impact GAP X Y: the die lands at (X, Y) m; each table disc's edge comes
# when the bending wave (400 m/s, the default) reaches it, nearest first.
impact() {
	awk -v gap="$1" -v x="$2" -v y="$3" 'BEGIN {
		split("17 0.05 0.61 27 1.22 0.05 22 2.39 0.61 23 1.22 1.17", s, " ")
		for (i = 0; i < 4; i++) {
			line[i] = s[3 * i + 1]
			ms[i] = sqrt((x - s[3 * i + 2]) ^ 2 + (y - s[3 * i + 3]) ^ 2) / 400 * 1000
		}
		for (i = 0; i < 4; i++)
			for (j = i + 1; j < 4; j++)
				if (ms[j] < ms[i]) {
					t = ms[i]; ms[i] = ms[j]; ms[j] = t
					t = line[i]; line[i] = line[j]; line[j] = t
				}
		for (i = 0; i < 4; i++)
			printf "%s rising %.6f\n", line[i], i ? ms[i] - ms[i - 1] : gap
	}' >> "$script"
}
# Throw 1, a1's: lands on B's half, caught one-handed at B's end.
impact 500 1.83 0.61
press 500 12
# Throw 2, a2's: B's half, b2's cup, the floor.
impact 1500 1.90 0.30
edge 150 19
edge 400 24
# Throw 3, b1's: A's half, caught two-handed at A's end.
impact 1500 0.60 0.80
press 500 16
# Throw 4, b2's: "low!" at A's end before the die lands, then the floor.
press 1500 20
impact 300 0.70 0.50
edge 500 24
# Throw 5, a1's: "low!" at A's end, the thrower's own, before the die
# lands on B's half; then the floor.
press 1500 20
impact 300 1.83 0.61
edge 500 24
# Throw 6, a2's: re-toss from B's end, the button held down.
hold 1500 21
# Throw 7, a2's again (BD-P9): B's half, the floor.
impact 2500 1.83 0.61
edge 500 24

# ---- A match under way, then the daemon again with the script ----
DYEREF=$WORK/dyeref-on-stub start_daemon --config "$WORK/c.ini"
login
command_ok '{"cmd":"start","teams":{"A":["a1","a2"],"B":["b1","b2"]}}'
stop_daemon
# The match is restored before the lines are requested, so every edge
# reaches it.
DYEREF_FAKE_GPIO_EVENTS=$script DYEREF=$WORK/dyeref-on-stub start_daemon --config "$WORK/c.ini"
state | jq -e '.health.sensors.ok' >/dev/null || fail "sensors not ok on the stub: $(state | jq -c .health)"
for _ in $(seq 1 "$(slow_n 600)"); do
	[ "$(state | jq '.throws')" -ge 7 ] && break
	kill -0 "$DAEMON_PID" 2>/dev/null || fail "daemon exited"
	sleep 0.1
done
[ "$(state | jq '.throws')" -eq 7 ] || fail "7 throws expected: $(state | jq -c '{throws, history, review}')"

throw() { curl -s --max-time "$(slow 10)" "$BASE/api/matches/1/throws/$1"; }
# events of throw K's judged line, as "at:by:hands:source" (cups: at:owner)
events() {
	throw "$1" | jq -r '[.judged.events[] | "\(.at):\(.by // .owner // ""):\(.hands // ""):\(.source // "")"] | join(" ")'
}
# rule IDs of throw K's ruling, and its points as A-B
why() { throw "$1" | jq -r '.ruling.why | join(" ")'; }
points() { throw "$1" | jq -r '"\(.ruling.points.A)-\(.ruling.points.B)"'; }

e=$(events 1)
[[ $e == "table::"*" catch:b1:1:button" ]] || fail "throw 1: B's catch1 button is not b1's one-handed catch: $e"
[ "$(points 1)" = 0-0 ] || fail "throw 1: a one-handed catch scored $(points 1)"
[[ " $(why 1) " == *" BD-P4 "* ]] || fail "throw 1: not BD-P4: $(why 1)"

e=$(events 2)
[[ $e == "table::"*" cup:b2::piezo floor:::piezo" ]] || fail "throw 2: cup line 19 is not b2's cup: $e"
[ "$(points 2)" = 2-0 ] || fail "throw 2: a cup hit to the floor scored $(points 2)"
[[ " $(why 2) " == *" BD-P7 "* ]] || fail "throw 2: not BD-P7: $(why 2)"

e=$(events 3)
[[ $e == "table::"*" catch:a1:2:button" ]] || fail "throw 3: A's catch2 button is not a1's two-handed catch: $e"
[ "$(points 3)" = 0-1 ] || fail "throw 3: a two-handed catch by the defenders scored $(points 3)"
[[ " $(why 3) " == *" BD-P4a "* ]] || fail "throw 3: not BD-P4a: $(why 3)"

e=$(events 4)
[[ $e == "low_call:a1::button table::"* ]] || fail "throw 4: A's low button is not the first event: $e"
throw 4 | jq -e '.ruling.dead' >/dev/null || fail "throw 4: a low call before the landing left it live"
[[ " $(why 4) " == *" BD-P5 "* ]] || fail "throw 4: not BD-P5: $(why 4)"

e=$(events 5)
[[ $e == "low_call:a1::button table::"*" floor:::piezo" ]] || fail "throw 5: A's low button is not the first event: $e"
throw 5 | jq -e '.ruling.dead == false' >/dev/null || fail "throw 5: a low call at the thrower's end killed it"
[ "$(points 5)" = 1-0 ] || fail "throw 5: a landing on B's half and the floor scored $(points 5)"
[[ " $(why 5) " == *" BD-P1 "* && " $(why 5) " != *" BD-P5 "* ]] || fail "throw 5: not BD-P1 alone: $(why 5)"

throw 6 | jq -e '.ruling.retoss' >/dev/null || fail "throw 6: the re-toss button did not void it"
[[ " $(why 6) " == *" BD-P9 "* ]] || fail "throw 6: not BD-P9: $(why 6)"
# The held button's second call is no second re-toss: the next throw is
# a2's landing, not a void throw of its own.
e=$(events 7)
[[ $e == "table::"*" floor:::piezo" ]] || fail "throw 7: not the landing and the floor: $e"
throw 7 | jq -e '.ruling.thrower == "a2"' >/dev/null || fail "throw 7: $(throw 7 | jq -c .ruling)"
grep -q "fusion: a button called again (held down?): one call taken" "$WORK/daemon.log" ||
	fail "the held button's second call is not in the log"
[ "$(score_of)" = '"score":{"A":4,"B":1}' ] || fail "score: $(score_of)"
# No ruling waits for an official: the buttons' calls are sure.
state | jq -e '.review == null' >/dev/null || fail "a ruling awaits review: $(state | jq -c .review)"
stop_daemon

# ---- The edges behind each throw are in the event log ----
# An official replays a disputed throw's impacts from what the chip gave
# (docs/sensors.md "Edges in the database"): throw 1's landing is found
# again where the script put it, with its catch button; throw 2's cup and
# floor lines too.
replay_sensors() {
	"$DYEREF" sensors --config "$WORK/c.ini" --replay-db "$WORK/dyeref.db" --match 1 --throw "$1" |
		grep -v '^  line'
}
r=$(replay_sensors 1) || fail "sensors --replay-db, throw 1: $r"
grep -q ' table x=1.830 y=0.610 m half B ' <<< "$r" || fail "throw 1's landing is not replayed: $r"
grep -q ' button catch1 (team B.s end)' <<< "$r" || fail "throw 1's catch button is not replayed: $r"
grep -q '^health after 7 edges' <<< "$r" || fail "throw 1: not its 4 disc and 3 button edges: $r"
r=$(replay_sensors 2) || fail "sensors --replay-db, throw 2: $r"
grep -q ' cup b2$' <<< "$r" && grep -q ' floor$' <<< "$r" ||
	fail "throw 2's cup and floor lines are not replayed: $r"
# A disc's edge is a piezo row, a button's a button row, each on its line.
"$DYEREF" replay --db "$WORK/dyeref.db" --match 1 --throw 1 > "$WORK/replay1" ||
	fail "replay of throw 1 failed"
[ "$(jq -r 'select(.item == "raw" and .kind == "edge") | "\(.source):\(.channel)"' "$WORK/replay1" |
	sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')" = \
	"button:12x3 piezo:17x1 piezo:22x1 piezo:23x1 piezo:27x1 " ] ||
	fail "throw 1's raw edges: $(jq -c 'select(.item == "raw")' "$WORK/replay1")"

# ---- A line flooding the chip fills no card, and makes no throw ----
# 1000 edges at once on the floor strip (a floating input): a line's
# budget is 64 at once (16 a second after), and the log says how many were
# not stored; the line is floating (docs/sensors.md "Line check"), so not
# even its first edge reaches fusion: no throw 8.
: > "$WORK/flood"
for _ in $(seq 1 1000); do echo "24 rising 0" >> "$WORK/flood"; done
DYEREF_FAKE_GPIO_EVENTS=$WORK/flood DYEREF=$WORK/dyeref-on-stub start_daemon --config "$WORK/c.ini"
# The daemon reports at once and then at most every 10 s
# (DD_KEEP_REPORT_NS): the flood is read before the first report here, but
# a slower machine (emulation) may read part of it after, in a second
# report. Either way the reports add up to 936 edges, all of floor0.
not_stored() {
	sed -n 's/.*sensors: \([0-9]*\) edges not stored, \([0-9]*\) of them of floor0 (line 24), faster than 16 a second.*/\1 \2/p' \
		"$WORK/daemon.log" | awk '{ t += $1; f += $2 } END { print t + 0, f + 0 }'
}
flood_reported() { [ "$(not_stored)" = "936 936" ]; }
poll_until 20 flood_reported ||
	fail "the flood's report ($(not_stored)): $(grep 'not stored' "$WORK/daemon.log")"
poll_until 10 sh -c "curl -s --max-time $(slow 10) $BASE/api/state | jq -e '.health.sensors.text | endswith(\"; floor0 floating\")' >/dev/null" ||
	fail "the strip does not name the flooding line: $(state | jq -c .health.sensors)"
# the 16th edge showed it, read with the first: that one was dropped then
[ "$(state | jq '.throws')" -eq 7 ] || fail "the flood made a throw: $(state | jq -c '{throws, history}')"
stop_daemon

# ---- A malformed script: named with its line, and the chip refuses ----
printf '17 rising 0\n# a comment\n12 pressed 5\n' > "$WORK/bad"
DYEREF_FAKE_GPIO_EVENTS=$WORK/bad DYEREF=$WORK/dyeref-on-stub start_daemon --config "$WORK/c.ini"
grep -q "libgpiod stub: DYEREF_FAKE_GPIO_EVENTS: $WORK/bad:3: edge 'pressed' is not rising or falling" \
	"$WORK/daemon.log" || fail "the bad script's line is not named"
state | jq -e '.health.sensors.ok == false and (.health.sensors.text | startswith("no sensors"))' \
	>/dev/null || fail "the sensors ran on a refused script: $(state | jq -c .health.sensors)"
stop_daemon
echo ok
