#!/bin/bash
# `dyeref export` checks what it copies (issue 27, finding 7): a database
# that SQLite reads but whose rows do not judge (a line that is not JSON,
# an event the log has not, a throw after the end of the game) is refused
# with exit 2 and one line naming the match and the line, nothing on
# stdout; a sound match still exports as before.
set -u
# shellcheck source=tests/e2e/lib/cli.sh
. "$(dirname "$0")/lib/cli.sh"

command -v sqlite3 > /dev/null || { echo "skip: no sqlite3 to doctor the rows"; exit 77; }

# fresh: a database with the sample match as match 1.
fresh() {
	rm -f "$tmp/m.db"*
	"$dyeref" import --db "$tmp/m.db" tests/data/sample-match.jsonl > /dev/null || bad "import: exit $?"
}

fresh
"$dyeref" export --db "$tmp/m.db" --match 1 > "$tmp/sound.jsonl" || bad "export of a sound match: exit $?"
"$dyeref" judge "$tmp/sound.jsonl" > /dev/null || bad "judge of the export: exit $?"

# doctor SQL-VALUE: the third stored line (a throw, line 4 of the export)
# replaced, past the append-only trigger, by SQL-VALUE.
doctor() {
	fresh
	sqlite3 "$tmp/m.db" "DROP TRIGGER entries_append_only_u;
		UPDATE entries SET line = $1 WHERE match_id = 1 AND seq = 3;" || bad "sqlite3 could not doctor the row"
}

doctor "'not json at all'"
expect_error "match 1:4: column 3: bad JSON: '[' or '{' expected" export --db "$tmp/m.db" --match 1
grep -q "the stored rows do not judge" "$tmp/err" || bad "no reason: $(cat "$tmp/err")"
doctor "'{\"type\":\"throw\",\"events\":[{\"at\":\"nowhere\"}]}'"
expect_error "match 1:4: events[0].at: unknown event" export --db "$tmp/m.db" --match 1

# A throw stored after the match's end (an extra row at the end).
fresh
last=$(sqlite3 "$tmp/m.db" "SELECT max(seq) FROM entries WHERE match_id = 1")
for i in $(seq 1 40); do
	echo "INSERT INTO entries (match_id, seq, type, throw_no, t_start_ns, t_ns, line) VALUES (1, $((last + i)), 'throw', NULL, 0, 0, '{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}');"
done | sqlite3 "$tmp/m.db" || bad "sqlite3 could not add rows"
expect_error "after the end of the game" export --db "$tmp/m.db" --match 1

finish "db export check"
