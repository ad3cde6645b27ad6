/* HMAC-SHA-256 (RFC 2104) over core's SHA-256, for the console's device
 * cookies. */
#include <stdint.h>
#include <string.h>

#include "core/core.h"
#include "web/internal.h"

void web_hmac_sha256(const unsigned char *key, size_t klen, const unsigned char *msg, size_t mlen,
		     unsigned char out[32])
{
	unsigned char k[64] = { 0 }, pad[64], inner[32];
	struct core_sha256 c;

	if (klen > 64) {
		core_sha256_init(&c);
		core_sha256_add(&c, key, klen);
		core_sha256_end(&c, k);
	} else {
		memcpy(k, key, klen);
	}
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x36;
	core_sha256_init(&c);
	core_sha256_add(&c, pad, 64);
	core_sha256_add(&c, msg, mlen);
	core_sha256_end(&c, inner);
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x5c;
	core_sha256_init(&c);
	core_sha256_add(&c, pad, 64);
	core_sha256_add(&c, inner, 32);
	core_sha256_end(&c, out);
}
