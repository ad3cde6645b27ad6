/* libFuzzer: the web parsers on hostile bytes (form bodies, cookies,
 * console commands, X-Forwarded-For, a player's name in a path, a Host).
 * The first byte picks the parser: 'F' X-Forwarded-For, 'N' a name, 'H'
 * and 'h' a Host header and a configured host (bytes no other kept input
 * starts with), else by its value mod 3. */
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "web/web.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct web_command cmd;
	char out[64], err[256];

	if (size == 0)
		return 0;
	if (data[0] == 'F') {
		struct sockaddr_storage fwd;

		web_parse_forwarded_for((const char *)data + 1, size - 1, &fwd);
		return 0;
	}
	if (data[0] == 'N') {
		char name[WEB_PLAYER_NAME_MAX];

		/* What it lets through names no path: no '/', no control byte. */
		if (!web_parse_name((const char *)data + 1, size - 1, name, sizeof(name)))
			for (const char *p = name; *p; p++)
				if (*p == '/' || (unsigned char)*p < 0x20)
					abort();
		return 0;
	}
	if (data[0] == 'H' || data[0] == 'h') {
		char host[WEB_HOST_MAX];

		/* What it lets through is one plain name to compare. */
		if (!web_host_name((const char *)data + 1, size - 1, data[0] == 'H', host, sizeof(host)))
			for (const char *p = host; *p; p++)
				if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789.-_:", *p))
					abort();
		return 0;
	}
	switch (data[0] % 3) {
	case 0:
		web_parse_form((const char *)data + 1, size - 1, "pin", out, sizeof(out));
		break;
	case 1:
		web_parse_cookie((const char *)data + 1, size - 1, "dyeref_session", out, sizeof(out));
		break;
	default: {
		/* Half the inputs as commands in a match whose players have
		 * names, one a seat's and two alike but for case. */
		static const char names[BD_PLAYERS][BD_NAME_MAX] = { "Kim", "kim", "b2", "Di" };

		web_parse_command((const char *)data + 1, size - 1, NULL, data[0] & 8 ? names : NULL,
				  &cmd, err, sizeof(err));
		break;
	}
	}
	return 0;
}
