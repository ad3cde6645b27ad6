/*
 * dd_config_load_string on arbitrary bytes (up to the first NUL, as a C
 * string arrives): never a crash; an accepted config answers every getter
 * and names a line within the text for each entry.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dd_config cfg;
	char *text = malloc(size + 1), err[256];
	int lines = 1;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	if (dd_config_load_string(&cfg, "fuzz.ini", text, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < cfg.n; i++) {
			const struct dd_config_entry *e = &cfg.entries[i];
			double d;
			long l;
			int b;

			if (e->line < 1 || e->line > lines)
				abort();
			dd_config_get_double(&cfg, e->section, e->key, -1e9, 1e9, &d, err, sizeof(err));
			dd_config_get_int(&cfg, e->section, e->key, -1000, 1000, &l, err, sizeof(err));
			dd_config_get_bool(&cfg, e->section, e->key, &b, err, sizeof(err));
		}
		dd_config_check_claimed(&cfg, err, sizeof(err));
	}
	dd_config_free(&cfg);
	free(text);
	return 0;
}
