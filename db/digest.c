/*
 * A match log's identity: SHA-256 (FIPS 180-4) of its lines as stored,
 * the header first, each with a "\n" — the text `dyeref export` writes.
 * Import looks it up so that the same log is never stored twice.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "db/internal.h"

static const uint32_t k256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = hh + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) +
			      k256[i] + w[i];
		uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void db_digest_init(struct db_digest *d)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(d->h, iv, sizeof(iv));
	d->len = 0;
	d->n = 0;
}

void db_digest_add(struct db_digest *d, const void *data, size_t len)
{
	const unsigned char *p = data;

	d->len += len;
	while (len) {
		size_t take = 64 - d->n < len ? 64 - d->n : len;

		memcpy(d->buf + d->n, p, take);
		d->n += take;
		p += take;
		len -= take;
		if (d->n == 64) {
			block(d->h, d->buf);
			d->n = 0;
		}
	}
}

void db_digest_line(struct db_digest *d, const char *line, size_t len)
{
	db_digest_add(d, line, len);
	db_digest_add(d, "\n", 1);
}

void db_digest_hex(struct db_digest *d, char hex[DB_DIGEST_HEX])
{
	uint64_t bits = d->len * 8;
	unsigned char tail[8];

	db_digest_add(d, "\x80", 1);
	while (d->n != 56)
		db_digest_add(d, "", 1);
	for (int i = 0; i < 8; i++)
		tail[i] = (unsigned char)(bits >> (56 - 8 * i));
	db_digest_add(d, tail, 8);
	for (int i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", (unsigned)d->h[i]);
}

int64_t db_match_by_digest(struct db *db, const char *digest, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int64_t id = 0;
	int rc = sqlite3_prepare_v2(db->h,
		"SELECT min(match_id) FROM match_digests WHERE digest = ?", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_fail(db, rc, "looking the log up", err, errlen);
	sqlite3_bind_text(st, 1, digest, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, rc, "looking the log up", err, errlen);
	return id;
}
