/* web server: the server-sent event stream (/api/events), its backlog per
 * client and the limits on streams per address. */
#include <errno.h>
#include <microhttpd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#include "web/internal.h"
#include "web/web.h"

#define SSE_BACKLOG_MAX (256 * 1024)	/* bytes queued for one slow client */

static int sse_append(struct sse_client *cl, const char *text, size_t n)
{
	if (cl->off > 0 && cl->off == cl->len)
		cl->off = cl->len = 0;
	if (cl->len - cl->off + n > SSE_BACKLOG_MAX)
		return -ENOBUFS;
	if (cl->len + n > cl->cap) {
		size_t keep = cl->len - cl->off, cap = keep + n + 1024;
		char *grown = malloc(cap);

		if (!grown)
			return -ENOMEM;
		if (keep)
			memcpy(grown, cl->buf + cl->off, keep);
		free(cl->buf);
		cl->buf = grown;
		cl->cap = cap;
		cl->len = keep;
		cl->off = 0;
	}
	memcpy(cl->buf + cl->len, text, n);
	cl->len += n;
	return 0;
}

void web_sse_wake(struct sse_client *cl)
{
	if (cl->suspended) {
		cl->suspended = 0;
		epoll_ctl(cl->server->outer_fd, EPOLL_CTL_DEL, cl->fd, NULL);
		MHD_resume_connection(cl->conn);
		/* In external polling MHD only notices on its next run. */
		cl->server->run_again = 1;
	}
}

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct sse_client *cl = cls;
	size_t n;

	(void)pos;
	if (cl->closing)
		return MHD_CONTENT_READER_END_OF_STREAM;
	if (cl->off == cl->len) {
		/* Nothing to say: park the connection until a broadcast. */
		cl->suspended = 1;
		MHD_suspend_connection(cl->conn);
		/* MHD no longer watches it: we do, for the client's hang-up. */
		epoll_ctl(cl->server->outer_fd, EPOLL_CTL_ADD, cl->fd,
			  &(struct epoll_event){ .events = EPOLLRDHUP, .data.ptr = cl });
		return 0;
	}
	n = cl->len - cl->off;
	if (n > max)
		n = max;
	memcpy(buf, cl->buf + cl->off, n);
	cl->off += n;
	return (ssize_t)n;
}

static void sse_free(void *cls)
{
	struct sse_client *cl = cls;
	struct web_server *s = cl->server;

	web_conn_drop_stream(cl);
	if (cl->suspended)
		epoll_ctl(s->outer_fd, EPOLL_CTL_DEL, cl->fd, NULL);
	for (struct sse_client **p = &s->clients; *p; p = &(*p)->next)
		if (*p == cl) {
			*p = cl->next;
			s->n_clients--;
			break;
		}
	free(cl->buf);
	free(cl);
}

static void sse_send_all(struct web_server *s, const char *text, size_t n)
{
	for (struct sse_client *cl = s->clients; cl; cl = cl->next) {
		if (cl->closing)
			continue;
		if (sse_append(cl, text, n))
			cl->closing = 1;	/* too far behind: it reconnects and gets the state */
		web_sse_wake(cl);
	}
}

void web_server_broadcast(struct web_server *s, const char *event, const char *data)
{
	size_t n = strlen(event) + strlen(data) + 32;
	char *msg = malloc(n);
	int len;

	if (!msg)
		return;
	/* data must be one line: JSON from jansson's compact dump is. */
	len = snprintf(msg, n, "event: %s\ndata: %s\n\n", event, data);
	if (len > 0 && !strchr(data, '\n'))
		sse_send_all(s, msg, (size_t)len);
	free(msg);
}

void web_server_keepalive(struct web_server *s)
{
	static const char ping[] = ": keep-alive\n\n";

	sse_send_all(s, ping, sizeof(ping) - 1);
}

int64_t web_sse_deadline(struct web_server *s, bool cut)
{
	int64_t now = web_now_ms(s), next = -1;

	for (struct sse_client *cl = s->clients; cl; cl = cl->next) {
		int64_t left = cl->opened_ms + (int64_t)s->cfg.stream_max_s * 1000 - now;

		if (cl->closing)
			continue;
		if (left <= 0 && cut) {
			/* Ended, the page reconnects: a half-open stream of a
			 * screen that left the Wi-Fi holds its slot no longer. */
			cl->closing = 1;
			web_sse_wake(cl);
			continue;
		}
		if (left < 0)
			left = 0;
		if (next < 0 || left < next)
			next = left;
	}
	return next;
}

size_t web_server_sse_clients(const struct web_server *s)
{
	return s->n_clients;
}

enum MHD_Result web_sse_open(struct web_server *s, struct MHD_Connection *c)
{
	struct sse_client *cl, *oldest = NULL;
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct MHD_Response *r;
	enum MHD_Result ret;
	char *state = NULL;
	unsigned char key[WEB_CLIENT_KEY], net[WEB_CLIENT_KEY], other[WEB_CLIENT_KEY];
	size_t same = 0, same_net = 0, all = 0;
	bool v6, console = web_session_of(s, c) != NULL;

	/* Each stream may hold SSE_BACKLOG_MAX of unsent state: a client that
	 * opens hundreds and never reads must not make the daemon hold
	 * hundreds of those. A screen needs one; a few tabs, a few more.
	 * Counted as the PIN lockout counts (web_auth_login): per address, so
	 * a player on the bar's /64 does not shut out the wall screen and the
	 * console there, and per IPv6 /64 with a larger budget, as one host
	 * may use all its addresses. The official's console, logged in, is
	 * held to its address's budget only: a player rotating through the
	 * /64 must not keep the referee's own screen from its stream. */
	web_client_key(s, c, key);
	v6 = web_auth_client_net(key, net);
	for (cl = s->clients; cl; cl = cl->next) {
		if (cl->closing)
			continue;
		same += !memcmp(cl->key, key, WEB_CLIENT_KEY);
		if (!cl->console) {
			all++;
			if (!oldest || cl->opened_ms < oldest->opened_ms)
				oldest = cl;
		}
		same_net += v6 && web_auth_client_net(cl->key, other) &&
			    !memcmp(other, net, WEB_CLIENT_KEY);
	}
	if (same >= WEB_SSE_PER_CLIENT)
		return web_send_error(c, MHD_HTTP_TOO_MANY_REQUESTS,
				      "too many event streams open from this address");
	if (same_net >= WEB_SSE_PER_NET && !console)
		return web_send_error(c, MHD_HTTP_TOO_MANY_REQUESTS,
				      "too many event streams open from this network");
	cl = calloc(1, sizeof(*cl));
	if (!cl)
		return MHD_NO;
	/* Past the global cap the oldest stream ends (it reconnects) rather
	 * than the new one being refused. */
	if (all >= WEB_SSE_MAX && oldest) {
		oldest->closing = 1;
		web_sse_wake(oldest);
	}
	memcpy(cl->key, key, WEB_CLIENT_KEY);
	cl->server = s;
	cl->conn = c;
	cl->console = console;
	cl->opened_ms = web_now_ms(s);
	cl->fd = info ? info->connect_fd : -1;
	/* The current state first, so a new screen shows the score at once. */
	if (s->h.state && s->h.state(s->user, &state) == 0 && state) {
		size_t n = strlen(state) + 32;
		char *msg = malloc(n);

		if (msg && !strchr(state, '\n')) {
			int len = snprintf(msg, n, "event: state\ndata: %s\n\n", state);

			sse_append(cl, msg, (size_t)len);
		}
		free(msg);
	}
	free(state);
	sse_append(cl, "retry: 2000\n\n", 13);
	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, sse_read, cl, sse_free);
	if (!r) {
		free(cl->buf);
		free(cl);
		return MHD_NO;
	}
	cl->next = s->clients;
	s->clients = cl;
	s->n_clients++;
	web_conn_set_stream(c, cl);
	web_common_headers(r, "text/event-stream", 1);
	/* A scoreboard listens all evening: no idle timeout for it. */
	MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned int)0);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}
