/*
 * Writes a fixture database of an earlier schema version, with one finished
 * Beer Die match in it, for the migration tests (tests/unit/test_db_open.c).
 *   db_mkfixture VERSION OUT      (tests/data/db/make-fixtures.sh runs it)
 * The rows are inserted with plain SQL of that version's tables (columns
 * named: later versions add some with defaults), as the dyeref of that
 * version stored them; the fixtures are committed, so they stay what old
 * dyerefs wrote even when this program changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "db/internal.h"

/* The match every fixture holds (tests/unit/test_db_open.c expects it). */
static const char v1_rows[] =
	"INSERT INTO matches (id, game, header, start_ns, start_wall_ms) VALUES (1, 'beerdie',"
	" '{\"type\":\"match\",\"game\":\"beerdie\",\"teams\":{\"A\":[\"a1\",\"a2\"],\"B\":[\"b1\",\"b2\"]}}',"
	" 1000000000, 1700000000000);"
	"INSERT INTO entries VALUES (1, 1, 1, 'throw', 1, 1500000000, 2000000000,"
	" '{\"type\":\"throw\",\"events\":[{\"at\":\"table\",\"half\":\"B\"},{\"at\":\"floor\"}]}');"
	"INSERT INTO rulings VALUES (1, 1, 1, 1, 0, '{\"A\":1,\"B\":0}',"
	" '{\"type\":\"ruling\",\"throw\":1,\"score\":{\"A\":1,\"B\":0},\"review\":false}');"
	"INSERT INTO observations VALUES (1, 1, 1600000000, 'table', 'piezo', 0.9, '{\"at\":\"table\",\"half\":\"B\"}');"
	"INSERT INTO raw_inputs VALUES (1, 1, NULL, 1550000000, 'piezo', 'edge', 3, '{\"line\":3}');"
	"INSERT INTO match_ends VALUES (1, '{\"type\":\"final\",\"score\":{\"A\":1,\"B\":0},\"over\":false}',"
	" 3000000000, 1700000001000);";

int main(int argc, char **argv)
{
	char err[256];
	sqlite3 *h;
	int version;

	if (argc != 3 || (version = atoi(argv[1])) < 1 || version >= DB_SCHEMA_VERSION) {
		fprintf(stderr, "usage: db_mkfixture VERSION(1..%d) OUT\n", DB_SCHEMA_VERSION - 1);
		return 2;
	}
	unlink(argv[2]);
	if (sqlite3_open(argv[2], &h) != SQLITE_OK) {
		fprintf(stderr, "db_mkfixture: %s: %s\n", argv[2], sqlite3_errmsg(h));
		return 1;
	}
	if (db_schema_create(h, version, err, sizeof(err))) {
		fprintf(stderr, "db_mkfixture: %s: %s\n", argv[2], err);
		return 1;
	}
	if (sqlite3_exec(h, v1_rows, NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "db_mkfixture: %s: %s\n", argv[2], sqlite3_errmsg(h));
		return 1;
	}
	sqlite3_close(h);
	return 0;
}
