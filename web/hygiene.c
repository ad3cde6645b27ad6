/* Request hygiene: what a request's head must be before it is routed
 * (one framing of its body, a Host that names this daemon), and the
 * cross-site check of every console write. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <microhttpd.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "web/internal.h"
#include "web/web.h"

/* An IP literal of len bytes, in canonical form into out; false when it
 * is not one. */
static bool canon_ip(const char *v, size_t len, char *out, size_t outlen)
{
	unsigned char a[16];
	char tmp[INET6_ADDRSTRLEN];

	if (len >= sizeof(tmp))
		return false;
	memcpy(tmp, v, len);
	tmp[len] = '\0';
	if (inet_pton(AF_INET, tmp, a) == 1)
		return inet_ntop(AF_INET, a, out, (socklen_t)outlen) != NULL;
	if (inet_pton(AF_INET6, tmp, a) == 1)
		return inet_ntop(AF_INET6, a, out, (socklen_t)outlen) != NULL;
	return false;
}

int web_host_name(const char *v, size_t len, bool port_ok, char *out, size_t outlen)
{
	size_t end = len, i;

	if (outlen == 0)
		return -E2BIG;
	out[0] = '\0';
	if (len && v[0] == '[') {
		const char *close = memchr(v, ']', len);

		if (!close)
			return -EINVAL;
		end = (size_t)(close - v) + 1;
		if (!canon_ip(v + 1, end - 2, out, outlen) || !strchr(out, ':'))
			return -EINVAL;
	} else if (!port_ok && canon_ip(v, len, out, outlen)) {
		return 0;	/* a bare IPv6 literal in the configuration */
	} else {
		const char *colon = memchr(v, ':', len);

		end = colon ? (size_t)(colon - v) : len;
		if (end == 0 || end >= WEB_HOST_MAX || end >= outlen)
			return -EINVAL;
		for (i = 0; i < end; i++) {
			unsigned char c = (unsigned char)v[i];

			if (!isalnum(c) && c != '-' && c != '.' && c != '_')
				return -EINVAL;
			out[i] = (char)tolower(c);
		}
		/* "pi.local." is "pi.local": a trailing dot only says absolute. */
		if (i > 1 && out[i - 1] == '.')
			i--;
		out[i] = '\0';
		if (out[0] == '.')
			return -EINVAL;
		canon_ip(out, i, out, outlen);	/* an IPv4 literal, as inet_ntop writes it */
	}
	/* What follows the name: nothing, or ":port" where a port may be. */
	if (end == len)
		return 0;
	if (!port_ok || v[end] != ':' || len - end - 1 < 1 || len - end - 1 > 5)
		return -EINVAL;
	for (i = end + 1; i < len; i++)
		if (v[i] < '0' || v[i] > '9')
			return -EINVAL;
	return 0;
}

int web_parse_hosts(const char *list, char (*names)[WEB_HOST_MAX], size_t max, size_t *n,
		    char *err, size_t errlen)
{
	const char *p = list;

	*n = 0;
	while (p && *p) {
		size_t len;

		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		len = strcspn(p, " \t,");
		if (!len)
			break;
		if (*n == max) {
			snprintf(err, errlen, "more than %zu names", max);
			return -E2BIG;
		}
		if (web_host_name(p, len, false, names[*n], WEB_HOST_MAX)) {
			snprintf(err, errlen, "'%.*s' is not a host name or IP address",
				 (int)(len > 60 ? 60 : len), p);
			return -EINVAL;
		}
		(*n)++;
		p += len;
	}
	return 0;
}

/* ---- The request's head ------------------------------------------------ */

/* How a request frames its body. */
struct framing {
	int content_length;	/* Content-Length headers */
	int transfer_encoding;	/* Transfer-Encoding headers */
	bool bad_length;	/* a Content-Length not all digits ("5, 7") */
};

static enum MHD_Result count_framing(void *cls, enum MHD_ValueKind kind, const char *key,
				     const char *value)
{
	struct framing *f = cls;

	(void)kind;
	if (!key)
		return MHD_YES;
	if (!strcasecmp(key, "Content-Length")) {
		f->content_length++;
		if (!value || !*value || value[strspn(value, "0123456789")])
			f->bad_length = true;
	} else if (!strcasecmp(key, "Transfer-Encoding")) {
		f->transfer_encoding++;
	}
	return MHD_YES;
}

/* Whether name (web_host_name's form) is one the daemon answers to: its
 * list, or the address the client reached it at (an address cannot be
 * rebound to another host; a name can). */
static bool host_is_ours(struct web_server *s, struct MHD_Connection *c, const char *name)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct sockaddr_storage local;
	socklen_t len = sizeof(local);
	char here[INET6_ADDRSTRLEN];
	unsigned char key[WEB_CLIENT_KEY];

	for (size_t i = 0; i < s->n_hosts; i++)
		if (!strcmp(s->hosts[i], name))
			return true;
	if (!info || getsockname(info->connect_fd, (struct sockaddr *)&local, &len))
		return false;
	/* As IPv6 with IPv4 mapped: a client of "::" reaching 10.0.0.5. */
	web_auth_client_key((const struct sockaddr *)&local, key);
	if (!memcmp(key, (const unsigned char[12]){ [10] = 0xff, [11] = 0xff }, 12))
		inet_ntop(AF_INET, key + 12, here, sizeof(here));
	else
		inet_ntop(AF_INET6, key, here, sizeof(here));
	return !strcmp(here, name);
}

bool web_hygiene_refuse(struct web_server *s, struct MHD_Connection *c, enum MHD_Result *ret)
{
	struct framing f = { 0 };
	const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
	char name[WEB_HOST_MAX], why[WEB_HOST_MAX + 80];

	/* A body framed two ways, or a length said twice: a proxy in front may
	 * read it one way and we another, and the rest would be served as a
	 * request of its own (smuggling). nginx refuses them too. */
	MHD_get_connection_values(c, MHD_HEADER_KIND, count_framing, &f);
	if (f.content_length > 1 || f.bad_length || (f.content_length && f.transfer_encoding)) {
		*ret = web_send_error_close(c, MHD_HTTP_BAD_REQUEST,
					    f.transfer_encoding ? "Content-Length with Transfer-Encoding"
					    : f.bad_length ? "Content-Length: not a number"
					    : "more than one Content-Length");
		return true;
	}
	/* DNS rebinding: a page of evil.example whose name now points here
	 * reads and posts as a page of ours would, Origin and Host agreeing.
	 * Its Host still says evil.example. No Host: HTTP/1.0 (MHD asks for it
	 * in 1.1), never a browser. */
	if (!host)
		return false;
	if (web_host_name(host, strlen(host), true, name, sizeof(name)) || !host_is_ours(s, c, name)) {
		snprintf(why, sizeof(why), "Host '%.*s' is not a name of this server (web.hosts)",
			 WEB_HOST_MAX - 1, host);
		*ret = web_send_error_close(c, MHD_HTTP_MISDIRECTED_REQUEST, why);
		return true;
	}
	return false;
}

bool web_request_cross_site(struct MHD_Connection *c)
{
	return web_cross_site(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-Fetch-Site"),
			      MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin"),
			      MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host"));
}

/* The names a Host may give besides the client's own view of the
 * address: what the installer listed, and what a guest would type. */
int web_hosts_init(struct web_server *s, const char *list, char *err, size_t errlen)
{
	const size_t cap = sizeof(s->hosts) / sizeof(s->hosts[0]);
	char hn[WEB_HOST_MAX - 8], e[128];
	const char *defaults[] = { "localhost", "127.0.0.1", "::1", s->bind };
	size_t n;

	if (web_parse_hosts(list, s->hosts, WEB_HOSTS_MAX, &n, e, sizeof(e))) {
		snprintf(err, errlen, "web: hosts: %s", e);
		return -EINVAL;
	}
	s->n_hosts = n;
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]) && s->n_hosts < cap; i++)
		if (!web_host_name(defaults[i], strlen(defaults[i]), false, s->hosts[s->n_hosts],
				   WEB_HOST_MAX))
			s->n_hosts++;
	if (!gethostname(hn, sizeof(hn)) && memchr(hn, '\0', sizeof(hn)) &&
	    !web_host_name(hn, strlen(hn), false, s->hosts[s->n_hosts], WEB_HOST_MAX)) {
		/* hn is short enough for ".local" to fit */
		strcpy(s->hosts[s->n_hosts + 1], s->hosts[s->n_hosts]);
		strcat(s->hosts[s->n_hosts + 1], ".local");
		s->n_hosts += 2;
	}
	return 0;
}
