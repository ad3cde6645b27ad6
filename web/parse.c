/* web parsers: form bodies, cookies, X-Forwarded-For, a request's origin
 * and a player's name in a path, on plain bytes; console commands are
 * command.c's. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "web/web.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decodes one form value (+ is a space, %XX a byte) into out. */
static int form_decode(const char *v, size_t n, char *out, size_t outlen)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)v[i];

		if (c == '+') {
			c = ' ';
		} else if (c == '%') {
			int hi, lo;

			if (i + 2 >= n)
				return -EINVAL;
			hi = hexval(v[i + 1]);
			lo = hexval(v[i + 2]);
			if (hi < 0 || lo < 0)
				return -EINVAL;
			c = hi * 16 + lo;
			i += 2;
		}
		if (c == 0)
			return -EINVAL;	/* a NUL would cut the value short unseen */
		if (o + 1 >= outlen)
			return -E2BIG;
		out[o++] = (char)c;
	}
	if (outlen == 0)
		return -E2BIG;
	out[o] = '\0';
	return (int)o;
}

int web_parse_form(const char *body, size_t len, const char *name, char *out, size_t outlen)
{
	size_t nlen = strlen(name);
	size_t i = 0;

	while (i < len) {
		size_t end = i, eq;

		while (end < len && body[end] != '&')
			end++;
		eq = i;
		while (eq < end && body[eq] != '=')
			eq++;
		if (memchr(body + i, '\0', end - i))
			return -EINVAL;
		if (eq - i == nlen && !memcmp(body + i, name, nlen)) {
			if (eq == end)
				return form_decode("", 0, out, outlen);
			return form_decode(body + eq + 1, end - eq - 1, out, outlen);
		}
		i = end + 1;
	}
	return -ENOENT;
}

int web_parse_forwarded_for(const char *header, size_t len, struct sockaddr_storage *out)
{
	char ip[INET6_ADDRSTRLEN];
	size_t b, e = len;

	memset(out, 0, sizeof(*out));
	/* Only the last entry: the trusted proxy wrote it; the ones before it
	 * are whatever the client sent, and must not decide anything (nor,
	 * being malformed, make the client's requests count as the proxy's). */
	b = len;
	while (b > 0 && header[b - 1] != ',')
		b--;
	while (b < e && (header[b] == ' ' || header[b] == '\t'))
		b++;
	while (e > b && (header[e - 1] == ' ' || header[e - 1] == '\t'))
		e--;
	if (e == b || e - b >= sizeof(ip))
		return -EINVAL;
	memcpy(ip, header + b, e - b);
	ip[e - b] = '\0';
	/* inet_pton takes bare literals only: no port, brackets, zone or NUL. */
	if (memchr(header + b, '\0', e - b) == NULL) {
		if (inet_pton(AF_INET, ip, &((struct sockaddr_in *)out)->sin_addr) == 1) {
			out->ss_family = AF_INET;
			return 0;
		}
		if (inet_pton(AF_INET6, ip, &((struct sockaddr_in6 *)out)->sin6_addr) == 1) {
			out->ss_family = AF_INET6;
			return 0;
		}
	}
	memset(out, 0, sizeof(*out));
	return -EINVAL;
}

bool web_cross_site(const char *sec_fetch_site, const char *origin, const char *host)
{
	static const char *const schemes[] = { "http://", "https://" };

	/* "same-site" is refused too: another port or subdomain of this host
	 * is another program, not the console. */
	if (sec_fetch_site)
		return strcmp(sec_fetch_site, "same-origin") && strcmp(sec_fetch_site, "none");
	if (!origin)
		return false;
	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
		size_t n = strlen(schemes[i]);

		if (!strncasecmp(origin, schemes[i], n))
			return !host || strcasecmp(origin + n, host);
	}
	return true;
}

int web_parse_cookie(const char *header, size_t len, const char *name, char *out, size_t outlen)
{
	size_t nlen = strlen(name);
	size_t i = 0;

	while (i < len) {
		size_t end = i, eq, vs, ve;

		while (i < len && (header[i] == ' ' || header[i] == '\t'))
			i++;
		end = i;
		while (end < len && header[end] != ';')
			end++;
		if (memchr(header + i, '\0', end - i))
			return -EINVAL;
		eq = i;
		while (eq < end && header[eq] != '=')
			eq++;
		if (eq < end && eq - i == nlen && !memcmp(header + i, name, nlen)) {
			vs = eq + 1;
			ve = end;
			while (ve > vs && (header[ve - 1] == ' ' || header[ve - 1] == '\t'))
				ve--;
			if (ve - vs + 1 > outlen)
				return -E2BIG;
			memcpy(out, header + vs, ve - vs);
			out[ve - vs] = '\0';
			return (int)(ve - vs);
		}
		i = end + 1;
	}
	return -ENOENT;
}

/* ---- A player's name in a path ----------------------------------------- */

/* Bytes of the well-formed UTF-8 sequence at p (n left), 0 if none. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t k;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		k = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		k = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		k = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (n < k)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return k;
}

int web_parse_name(const char *seg, size_t len, char *out, size_t outlen)
{
	size_t o = 0;

	if (!outlen)
		return -E2BIG;
	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)seg[i];

		if (c == '%') {
			int h, l;

			if (i + 2 >= len)
				return -EINVAL;
			h = hexval(seg[i + 1]);
			l = hexval(seg[i + 2]);
			if (h < 0 || l < 0)
				return -EINVAL;
			c = h << 4 | l;
			i += 2;
		}
		if (c < 0x20 || c == 0x7f || c == '/' || c == '\\')
			return -EINVAL;
		if (o + 1 >= outlen)
			return -E2BIG;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	if (!o || !strcmp(out, ".") || !strcmp(out, ".."))
		return -EINVAL;
	for (size_t i = 0; i < o;) {
		size_t k = utf8_len((const unsigned char *)out + i, o - i);

		if (!k)
			return -EINVAL;
		i += k;
	}
	return 0;
}
