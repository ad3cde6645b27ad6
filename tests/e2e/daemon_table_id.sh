#!/bin/bash
# The table's identity ([table] id and name): a hostile value is refused
# with its line (exit 2); a good one is in /api/state, the match list, the
# history page, the stored match header (export) and `dyeref matches`.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
. "$(dirname "$0")/lib/refused.sh"

# write_config puts 6 lines before these: [table] is line 7.
refused "8: table.id: expected 1 to 32 of a-z, 0-9 and '-', got 'Bar 3'" "[table]" "id = Bar 3"
refused "8: table.id" "[table]" "id = dyeref/#"
refused "8: table.id" "[table]" "id = 0123456789abcdefghijklmnopqrstuvw"
refused "8: table.id" "[table]" "id ="
refused "8: table.name: expected 1 to 64 bytes" "[table]" "name ="
refused "8: table.name: expected 1 to 64 bytes" "[table]" \
	"name = $(printf 'x%.0s' $(seq 1 65))"
refused "8: table.name: not UTF-8" "[table]" "name = $(printf 'bar\377')"
refused "8: unknown key table.seat" "[table]" "seat = 3"

write_config "$WORK/c.ini" "[table]" "id = bar-3" "name = Bar Three"
"$DYEREF" serve --config "$WORK/c.ini" --check-config > /dev/null || fail "a good [table] refused"
start_daemon --config "$WORK/c.ini"
state | grep -q '"table":{"id":"bar-3","name":"Bar Three"}' || fail "state without the table: $(state)"
login
command_ok '{"cmd":"start","teams":{"A":["Al","Bo"],"B":["Cy","Di"]}}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"floor"}]}'
curl -s --max-time "$(slow 10)" "$BASE/api/matches" | grep -q '"table":"bar-3"' ||
	fail "match list without the table: $(curl -s "$BASE/api/matches")"
# A dice game's header carries it too.
command_ok '{"cmd":"end"}'
command_ok '{"cmd":"start","game":"yatzy","players":["ann","bob"]}'
curl -s --max-time "$(slow 10)" "$BASE/api/matches/2/log" | head -n 1 |
	grep -q '"table":{"id":"bar-3","name":"Bar Three"}' ||
	fail "dice header without the table: $(curl -s "$BASE/api/matches/2/log")"
curl -s --max-time "$(slow 10)" "$BASE/api/matches?page=1" | grep -q '"table":"bar-3"' ||
	fail "match page without the table: $(curl -s "$BASE/api/matches?page=1")"
stop_daemon
"$DYEREF" export --db "$WORK/dyeref.db" --match 1 > "$WORK/e.jsonl" || fail "export exited $?"
head -n 1 "$WORK/e.jsonl" | grep -q '"table":{"id":"bar-3","name":"Bar Three"}' ||
	fail "header without the table: $(head -n 1 "$WORK/e.jsonl")"
"$DYEREF" judge "$WORK/e.jsonl" > /dev/null || fail "the exported log does not judge"
"$DYEREF" matches --db "$WORK/dyeref.db" | grep -Eq '^1 +beerdie .* bar-3$' ||
	fail "dyeref matches without the table: $("$DYEREF" matches --db "$WORK/dyeref.db")"

# Without [table] the id is "table", the name the id.
write_config "$WORK/d.ini"
start_daemon --config "$WORK/d.ini"
state | grep -q '"table":{"id":"table","name":"table"}' || fail "default table: $(state)"
stop_daemon
echo "ok"
