/* The db/ tests' fixture (db_fx.h). */
#include <stdio.h>
#include <stdlib.h>

#include "tests/support/db_fx.h"

int db_test_setup_dir(void **state)
{
	struct db_test_fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/dyeref-db-XXXXXX");
	if (!mkdtemp(f->dir)) {
		perror("mkdtemp");
		free(f);
		return -1;
	}
	snprintf(f->path, sizeof(f->path), "%s/t.db", f->dir);
	*state = f;
	return 0;
}

int db_test_setup(void **state)
{
	struct db_test_fx *f;
	char err[256];

	if (db_test_setup_dir(state))
		return -1;
	f = *state;
	f->db = db_open(f->path, DB_OPEN_CREATE, err, sizeof(err));
	if (!f->db) {
		fprintf(stderr, "%s\n", err);
		db_test_teardown(state);
		return -1;
	}
	return 0;
}

int db_test_teardown(void **state)
{
	struct db_test_fx *f = *state;
	char cmd[128];

	if (f->db)
		db_close(f->db);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
}
