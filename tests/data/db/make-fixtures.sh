#!/bin/sh
# Writes the fixture database of every earlier schema version that is not
# there yet:   make unit && tests/data/db/make-fixtures.sh [BUILD]
# Run it when a schema version is added (for the one just left behind) and
# commit the result. Existing fixtures are never regenerated: they stand for
# what old dyerefs wrote.
set -eu
build=${1:-build}
cd "$(dirname "$0")/../../.."
current=$(sed -n 's/^#define DB_SCHEMA_VERSION \([0-9]*\)$/\1/p' db/db.h)
v=1
while [ "$v" -lt "$current" ]; do
	out=tests/data/db/v$v.db
	if [ ! -f "$out" ]; then
		"$build/tests/db_mkfixture" "$v" "$out"
		echo "wrote $out"
	fi
	v=$((v + 1))
done
