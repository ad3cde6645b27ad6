/*
 * The cmocka fixture of the db/ unit tests: a fresh temporary directory,
 * removed with everything in it afterwards, and a database in it.
 */
#ifndef DYEREF_TEST_DB_FX_H
#define DYEREF_TEST_DB_FX_H

#include "db/db.h"

struct db_test_fx {
	char dir[64];		/* a fresh temporary directory */
	char path[96];		/* dir/t.db */
	struct db *db;		/* open on path; NULL after db_test_setup_dir */
};

/* *state = a new fixture with path created (DB_OPEN_CREATE) and open.
 * 0, or -1 after a message on stderr. */
int db_test_setup(void **state);
/* The same without the database: path does not exist yet. */
int db_test_setup_dir(void **state);
/* Closes db when open, removes dir and frees the fixture. 0 or -1. */
int db_test_teardown(void **state);

#endif /* DYEREF_TEST_DB_FX_H */
