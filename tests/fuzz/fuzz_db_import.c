/*
 * db_import on arbitrary bytes: never a crash, and whatever it accepts
 * exports back as the same lines (blank lines dropped, CRLF ends as LF).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"

static struct db *db;

/* Lines of spaces, tabs and CRs are blank to the judge, so import drops them. */
static bool blank(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return false;
	return true;
}
static int uses;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512], *out = NULL, *want;
	size_t outlen = 0, wl = 0;
	int64_t match;
	FILE *f;

	/* A fresh in-memory database now and then keeps memory flat. */
	if (!db || ++uses % 256 == 0) {
		db_close(db);
		db = db_open(":memory:", DB_OPEN_CREATE, err, sizeof(err));
		if (!db)
			abort();
	}
	if (db_import(db, "fuzz", (const char *)data, size, 1, &match, err, sizeof(err)))
		return 0;
	f = open_memstream(&out, &outlen);
	if (!f || db_export(db, match, f, err, sizeof(err)))
		abort();
	fclose(f);
	want = malloc(size + 2);
	for (size_t i = 0; i < size;) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t end = nl ? (size_t)(nl - data) : size, stop = end;

		if (stop > i && data[stop - 1] == '\r')
			stop--;
		if (!blank(data + i, stop - i)) {
			memcpy(want + wl, data + i, stop - i);
			wl += stop - i;
			want[wl++] = '\n';
		}
		i = end + 1;
	}
	if (wl != outlen || memcmp(want, out, wl))
		abort();
	free(want);
	free(out);
	return 0;
}
