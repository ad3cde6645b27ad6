#!/bin/bash
# `dyeref import` of a log already stored stores nothing twice (issue 27,
# finding 7): the same file, its export, the same lines with CRLF ends and
# blank lines, each answered with the stored match's id on stdout, one
# line "already stored as match N" on stderr and exit 0; a database of an
# earlier schema (migrated on open) gets the same; another log is a new match.
set -u
# shellcheck source=tests/e2e/lib/cli.sh
. "$(dirname "$0")/lib/cli.sh"

log=tests/data/sample-match.jsonl
db="$tmp/m.db"

# again WANT_ID ARGS...: `dyeref import --db $db ARGS` stores nothing and says so.
again() {
	local want=$1 rc
	shift
	"$dyeref" import --db "$db" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] || bad "import $*: exit $rc, want 0: $(cat "$tmp/err")"
	[ "$(cat "$tmp/out")" = "$want" ] || bad "import $*: stdout '$(cat "$tmp/out")', want '$want'"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "import $*: want one line on stderr: $(cat "$tmp/err")"
	grep -q "already stored as match $want\$" "$tmp/err" || bad "import $*: $(cat "$tmp/err")"
}

# counts: matches and stored lines of the database.
counts() {
	echo "$("$dyeref" matches --db "$db" | tail -n +2 | wc -l) $("$dyeref" export --db "$db" --match 1 | wc -l)"
}

[ "$("$dyeref" import --db "$db" "$log")" = 1 ] || bad "first import is not match 1"
before=$(counts)
again 1 "$log"
again 1 - < "$log"
"$dyeref" export --db "$db" --match 1 > "$tmp/export.jsonl"
again 1 "$tmp/export.jsonl"
{ echo; sed 's/$/\r/' "$log"; echo; } > "$tmp/crlf.jsonl"
again 1 "$tmp/crlf.jsonl"
[ "$(counts)" = "$before" ] || bad "a second import stored something: $(counts), was $before"

# Another log is another match, and is found again in its turn.
head -n 5 "$log" > "$tmp/short.jsonl"
[ "$("$dyeref" import --db "$db" "$tmp/short.jsonl")" = 2 ] || bad "another log is not match 2"
again 2 "$tmp/short.jsonl"

# A database of schema v3 (before logs had an identity): migrated on open,
# then the same.
cp tests/data/db/v3.db "$db.v3"
db="$db.v3"
id=$("$dyeref" import --db "$db" "$log") || bad "import into a v3 database: exit $?"
again "$id" "$log"

finish "db import once"
