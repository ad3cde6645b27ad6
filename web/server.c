/* web server: libmicrohttpd on the caller's event loop (MHD_USE_EPOLL),
 * client addresses, limits and the request deadline; the answers, routes
 * and console handlers are route.c's, the server-sent event stream is
 * sse.c's. */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "web/internal.h"
#include "web/web.h"

/* From a connection's opening, or the end of its last answer, to its next
 * request in full (head and body): the idle timeout restarts on every
 * byte, so without this a client sending a byte every few seconds held
 * its connection as long as it liked. Ample for a 16 KiB request from a
 * phone on a poor Wi-Fi. */
#define REQUEST_DEADLINE_MS 10000
/* Connections from one address: a wall screen and a console there (a
 * browser opens up to 6 to a host), WEB_SSE_PER_CLIENT event streams, and
 * room to spare. */
#define PER_ADDRESS_DEFAULT 32

/* Connections from one IPv6 /64, any of its addresses: four hosts' worth. */
#define PER_NET_CONNECTIONS (4 * PER_ADDRESS_DEFAULT)

/* One open connection, for the request deadline and the caps. */
struct conn {
	struct conn *next, *prev;	/* in web_server.conns */
	struct MHD_Connection *mhd;	/* its connection */
	unsigned char key[WEB_CLIENT_KEY];	/* its peer (web_auth_client_key) */
	int64_t waiting_ms;		/* CLOCK_MONOTONIC ms since which a request is
					 * awaited; 0: it is being answered */
	struct sse_client *stream;	/* its event stream, or NULL */
	bool console;			/* it carried a live console session */
	bool cut;			/* shut down (deadline, cap), MHD to close it */
};

int64_t web_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- Client addresses -------------------------------------------------- */

/* An address as 16 bytes, IPv4 as ::ffff:a.b.c.d; false for neither. */
static bool addr16(const struct sockaddr *sa, unsigned char out[16])
{
	static const unsigned char v4_mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (sa && sa->sa_family == AF_INET) {
		memcpy(out, v4_mapped, sizeof(v4_mapped));
		memcpy(out + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		return true;
	}
	if (sa && sa->sa_family == AF_INET6) {
		memcpy(out, ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr, 16);
		return true;
	}
	return false;
}

/* The value of a request's last X-Forwarded-For header (a proxy that adds
 * a header of its own rather than appending puts it last). */
static enum MHD_Result last_forwarded(void *cls, enum MHD_ValueKind kind, const char *key,
				      const char *value)
{
	const char **last = cls;

	(void)kind;
	if (key && value && !strcasecmp(key, "X-Forwarded-For"))
		*last = value;
	return MHD_YES;
}

/* The key of a connection's client address, for the per-client limits:
 * the peer's, or when the peer is the trusted proxy, the address it put
 * last in X-Forwarded-For (the peer's still when that is missing or
 * malformed: a proxy that did not say counts as one client). */
void web_client_key(struct web_server *s, struct MHD_Connection *c,
		    unsigned char key[WEB_CLIENT_KEY])
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *peer = info ? info->client_addr : NULL;
	unsigned char a[16];
	const char *xff = NULL;
	struct sockaddr_storage fwd;

	if (s->have_proxy && addr16(peer, a) && !memcmp(a, s->proxy, sizeof(a))) {
		MHD_get_connection_values(c, MHD_HEADER_KIND, last_forwarded, &xff);
		if (xff && web_parse_forwarded_for(xff, strlen(xff), &fwd) == 0)
			peer = (const struct sockaddr *)&fwd;
	}
	web_auth_client_key(peer, key);
}

/* ---- Connections and the request deadline ------------------------------ */

static struct conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return info ? info->socket_context : NULL;
}

/* Its request is in: the deadline stops while it is answered. A
 * connection that carried the official's session is never closed to make
 * room (conns_make_room). */
static void conn_answering(struct web_server *s, struct MHD_Connection *c)
{
	struct conn *cn = conn_of(c);

	if (!cn)
		return;
	cn->waiting_ms = 0;
	if (!cn->console && web_session_of(s, c))
		cn->console = true;
}

void web_conn_drop_stream(struct sse_client *cl)
{
	if (cl->owner)
		cl->owner->stream = NULL;
	cl->owner = NULL;
}

void web_conn_set_stream(struct MHD_Connection *c, struct sse_client *cl)
{
	struct conn *cn = conn_of(c);

	if (cn) {
		cn->stream = cl;
		cl->owner = cn;
	}
}

/* MHD has no call to close a connection from outside a request; shutting
 * its socket down makes MHD's next read find the end and close it. */
static void conn_cut(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

	if (info)
		shutdown(info->connect_fd, SHUT_RDWR);
}

/* Closes cn to make room: a stream ends (resumed, so MHD sees the cut). */
static void conn_evict(struct conn *cn)
{
	conn_cut(cn->mhd);
	cn->cut = true;
	if (cn->stream) {
		cn->stream->closing = 1;
		web_sse_wake(cn->stream);
	}
}

/* Whether cn may be closed to make room, and how long it has been idle:
 * waiting for a request (its idle time) or an event stream (the time since
 * it opened, ranked after every idle connection: a wall screen needs its
 * stream more than a client its keep-alive). A connection being answered
 * or a console's is never closed. */
static bool conn_evictable(const struct conn *cn, int64_t now, int64_t *idle)
{
	if (cn->cut || cn->console)
		return false;
	if (cn->stream && !cn->stream->closing) {
		*idle = now - cn->stream->opened_ms;
		return true;
	}
	if (cn->waiting_ms) {
		*idle = INT64_MAX / 2 + (now - cn->waiting_ms);
		return true;
	}
	return false;
}

/* Caps enforced by closing, never by refusing: past the global cap (the
 * console's share kept free), or past its address's or IPv6 /64's, a new
 * connection closes the oldest idle one of the same group, so a burst can
 * fill the server only until the next client comes, and that client is
 * answered. fresh is the new connection, never chosen. */
static void conns_make_room(struct web_server *s, struct conn *fresh)
{
	unsigned char net[WEB_CLIENT_KEY], other[WEB_CLIENT_KEY];
	bool v6 = web_auth_client_net(fresh->key, net);
	size_t all = 0, same = 0, same_net = 0;
	struct conn *old_all = NULL, *old_same = NULL, *old_net = NULL;
	int64_t now = web_now_ms(), i_all = -1, i_same = -1, i_net = -1, idle;

	for (struct conn *cn = s->conns; cn; cn = cn->next) {
		bool is_same, is_net;

		if (cn->cut || cn->console)
			continue;
		is_same = !memcmp(cn->key, fresh->key, WEB_CLIENT_KEY);
		is_net = v6 && web_auth_client_net(cn->key, other) && !memcmp(other, net, WEB_CLIENT_KEY);
		all++;
		same += is_same;
		same_net += is_net;
		if (cn == fresh || !conn_evictable(cn, now, &idle))
			continue;
		if (idle > i_all)
			i_all = idle, old_all = cn;
		if (is_same && idle > i_same)
			i_same = idle, old_same = cn;
		if (is_net && idle > i_net)
			i_net = idle, old_net = cn;
	}
	if (same > s->cfg.max_per_ip && old_same)
		conn_evict(old_same);
	else if (same_net > PER_NET_CONNECTIONS && old_net)
		conn_evict(old_net);
	else if (all > s->anon_cap && old_all)
		conn_evict(old_all);
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct web_server *s = cls;
	struct conn *cn = *socket_context;
	const union MHD_ConnectionInfo *info;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		cn = calloc(1, sizeof(*cn));
		if (!cn) {
			conn_cut(c);	/* no memory to keep its deadline */
			return;
		}
		s->accepted++;
		cn->mhd = c;
		cn->waiting_ms = web_now_ms();
		/* The peer's key: behind the proxy the caps per address are the
		 * global one, as X-Forwarded-For is not in yet. */
		info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		web_auth_client_key(info ? info->client_addr : NULL, cn->key);
		cn->next = s->conns;
		if (s->conns)
			s->conns->prev = cn;
		s->conns = cn;
		*socket_context = cn;
		conns_make_room(s, cn);
		return;
	}
	/* At the connection limit libmicrohttpd takes its listen socket out
	 * of its epoll set and puts it back at the start of its next run; on
	 * the caller's loop nothing asks for that run once the last
	 * connection has gone (an empty set, a full backlog: the server never
	 * accepted again). Any close asks for one. */
	s->run_again = 1;
	if (!cn)
		return;
	if (cn->stream)
		cn->stream->owner = NULL;
	if (cn->prev)
		cn->prev->next = cn->next;
	else
		s->conns = cn->next;
	if (cn->next)
		cn->next->prev = cn->prev;
	free(cn);
	*socket_context = NULL;
}

/* The milliseconds until the next connection's deadline (0: one is past
 * it), or -1 when none awaits a request; with cut, first shuts down those
 * past it. */
static int64_t conns_deadline(struct web_server *s, bool cut)
{
	int64_t now = web_now_ms(), next = -1;

	for (struct conn *cn = s->conns; cn; cn = cn->next) {
		int64_t left;

		if (!cn->waiting_ms || cn->cut)
			continue;
		left = cn->waiting_ms + REQUEST_DEADLINE_MS - now;
		if (left <= 0 && cut) {
			conn_cut(cn->mhd);
			cn->cut = true;
			continue;
		}
		if (left < 0)
			left = 0;
		if (next < 0 || left < next)
			next = left;
	}
	return next;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct web_server *s = cls;
	struct request *rq = *con_cls;
	int is_get = !strcmp(method, MHD_HTTP_METHOD_GET) || !strcmp(method, MHD_HTTP_METHOD_HEAD);

	(void)version;
	if (!rq) {
		enum MHD_Result ret;

		if (web_hygiene_refuse(s, c, &ret))
			return ret;	/* on its head alone: its body is never read */
		rq = calloc(1, sizeof(*rq));
		if (!rq)
			return MHD_NO;
		*con_cls = rq;
		return MHD_YES;
	}
	if (*upload_size) {
		if (!rq->too_big && rq->len + *upload_size <= s->cfg.max_body) {
			char *grown = realloc(rq->body, rq->len + *upload_size + 1);

			if (!grown)
				return MHD_NO;
			rq->body = grown;
			memcpy(rq->body + rq->len, upload, *upload_size);
			rq->len += *upload_size;
			rq->body[rq->len] = '\0';
		} else {
			rq->too_big = 1;	/* keep reading, answer 413 at the end */
		}
		*upload_size = 0;
		return MHD_YES;
	}
	conn_answering(s, c);
	if (rq->too_big)
		return web_send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, "request body too large");
	if (url[0] != '/' || strstr(url, ".."))
		return web_send_error(c, MHD_HTTP_BAD_REQUEST, "bad path");
	if (is_get)
		return web_route_get(s, c, url);
	if (!strcmp(method, MHD_HTTP_METHOD_POST))
		return web_route_post(s, c, url, rq);
	return web_send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed");
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct request *rq = *con_cls;
	struct conn *cn = conn_of(c);

	(void)cls;
	(void)toe;
	/* Kept alive: the next request has the same time to come in full. */
	if (cn)
		cn->waiting_ms = web_now_ms();
	if (rq) {
		free(rq->body);
		free(rq);
		*con_cls = NULL;
	}
}

/* ---- Life cycle -------------------------------------------------------- */

/* Our paths are plain ASCII: leaving %-escapes undecoded means "/%00" or
 * "/%2e%2e/" is just an unknown path (404), never a NUL or a dot-dot. */
static size_t keep_escapes(void *cls, struct MHD_Connection *c, char *s)
{
	(void)cls;
	(void)c;
	return strlen(s);
}

struct web_server *web_server_new(const struct web_config *cfg, const struct web_handlers *h,
				  void *user, char *err, size_t errlen)
{
	struct web_server *s = calloc(1, sizeof(*s));
	struct sockaddr_storage ss;
	socklen_t sslen;
	unsigned flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
	const union MHD_DaemonInfo *info;
	int e;

	if (!s) {
		snprintf(err, errlen, "web: out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	s->h = *h;
	s->user = user;
	if (!s->cfg.max_connections)
		s->cfg.max_connections = 512;
	/* Behind a trusted proxy every connection is the proxy's: the limit
	 * would be shared by all its clients (the proxy holds slow ones). */
	if (!s->cfg.max_per_ip)
		s->cfg.max_per_ip = cfg->trusted_proxy ? s->cfg.max_connections : PER_ADDRESS_DEFAULT;
	/* Past this many connections not the console's, the oldest idle one is
	 * closed for each new one: the rest is the console's share. */
	s->anon_cap = s->cfg.max_connections - s->cfg.max_connections / 16;
	if (!s->cfg.timeout_s)
		s->cfg.timeout_s = 20;
	if (!s->cfg.stream_max_s)
		s->cfg.stream_max_s = 900;
	if (!s->cfg.max_body)
		s->cfg.max_body = 16 * 1024;
	if (!s->cfg.max_request)
		s->cfg.max_request = 16 * 1024;
	s->bind = strdup(cfg->bind ? cfg->bind : "127.0.0.1");
	if (!s->bind || web_auth_set_pin(&s->auth, cfg->pin)) {
		snprintf(err, errlen, "web: out of memory");
		e = ENOMEM;
		goto free_server;
	}
	if (cfg->device_key)
		web_auth_set_secret(&s->auth, cfg->device_key);
	s->cfg.device_key = NULL;
	s->cfg.bind = s->bind;
	if (web_hosts_init(s, cfg->hosts, err, errlen)) {
		e = EINVAL;
		goto free_server;
	}
	s->cfg.hosts = NULL;
	s->cfg.pin = NULL;
	s->cfg.trusted_proxy = NULL;
	if (cfg->trusted_proxy) {
		struct sockaddr_storage p;

		if (web_parse_forwarded_for(cfg->trusted_proxy, strlen(cfg->trusted_proxy), &p) ||
		    strchr(cfg->trusted_proxy, ',') || !addr16((struct sockaddr *)&p, s->proxy)) {
			snprintf(err, errlen, "web: trusted_proxy '%.60s' is not an IPv4 or IPv6 address",
				 cfg->trusted_proxy);
			e = EINVAL;
			goto free_server;
		}
		s->have_proxy = true;
	}
	s->cfg.house = NULL;
	if (cfg->house)
		s->house = *cfg->house;
	else
		bd_house_defaults(&s->house);
	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET, s->bind, &((struct sockaddr_in *)&ss)->sin_addr) == 1) {
		((struct sockaddr_in *)&ss)->sin_family = AF_INET;
		((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)cfg->port);
		sslen = sizeof(struct sockaddr_in);
	} else if (inet_pton(AF_INET6, s->bind, &((struct sockaddr_in6 *)&ss)->sin6_addr) == 1) {
		((struct sockaddr_in6 *)&ss)->sin6_family = AF_INET6;
		((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)cfg->port);
		sslen = sizeof(struct sockaddr_in6);
		flags |= MHD_USE_IPv6;
	} else {
		snprintf(err, errlen, "web: bind '%s' is not an IPv4 or IPv6 address", s->bind);
		e = EINVAL;
		goto free_server;
	}
	(void)sslen;
	s->mhd = MHD_start_daemon(flags, (uint16_t)cfg->port, NULL, NULL, on_request, s,
				  MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
				  MHD_OPTION_CONNECTION_LIMIT, (unsigned)s->cfg.max_connections,
				  /* A backstop only: conns_make_room keeps an
				   * address to max_per_ip by closing. */
				  MHD_OPTION_PER_IP_CONNECTION_LIMIT, 2 * (unsigned)s->cfg.max_per_ip,
				  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)s->cfg.timeout_s,
				  MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)s->cfg.max_request,
				  MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
				  MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
				  MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)128,
				  /* Host required, bad header lines refused: 400. */
				  MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
				  MHD_OPTION_UNESCAPE_CALLBACK, keep_escapes, NULL,
				  MHD_OPTION_END);
	if (!s->mhd) {
		e = errno ? errno : EADDRINUSE;
		snprintf(err, errlen, "web: cannot listen on %s port %u: %s", s->bind, cfg->port,
			 strerror(e));
		goto free_server;
	}
	info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_EPOLL_FD);
	s->epoll_fd = info ? info->epoll_fd : -1;
	info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_LISTEN_FD);
	s->listen_fd = info ? info->listen_fd : -1;
	s->stuck_since_ms = -1;
	info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT);
	s->port = info ? info->port : cfg->port;
	if (s->epoll_fd < 0) {
		snprintf(err, errlen, "web: libmicrohttpd gave no epoll fd");
		e = ENOTSUP;
		goto stop_daemon;
	}
	/* Ours: MHD's set, and the parked streams' sockets, which MHD does
	 * not watch while they are suspended (a closed one would hold its
	 * slot until the next broadcast). */
	s->outer_fd = epoll_create1(EPOLL_CLOEXEC);
	if (s->outer_fd < 0 ||
	    epoll_ctl(s->outer_fd, EPOLL_CTL_ADD, s->epoll_fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.ptr = NULL })) {
		e = errno;
		snprintf(err, errlen, "web: epoll: %s", strerror(e));
		goto close_outer;
	}
	return s;

close_outer:
	if (s->outer_fd >= 0)
		close(s->outer_fd);
stop_daemon:
	MHD_stop_daemon(s->mhd);
free_server:
	web_auth_free(&s->auth);
	free(s->bind);
	free(s);
	errno = e;
	return NULL;
}

void web_server_free(struct web_server *s)
{
	if (!s)
		return;
	/* Suspended connections must be resumed before MHD stops. */
	for (struct sse_client *cl = s->clients; cl; cl = cl->next) {
		cl->closing = 1;
		web_sse_wake(cl);
	}
	MHD_run(s->mhd);
	for (struct sse_client *cl = s->clients; cl; cl = cl->next)
		web_sse_wake(cl);
	MHD_stop_daemon(s->mhd);
	close(s->outer_fd);
	web_auth_free(&s->auth);
	free(s->bind);
	free(s);
}

unsigned web_server_port(const struct web_server *s)
{
	return s->port;
}

int web_server_fd(const struct web_server *s)
{
	return s->outer_fd;
}

int64_t web_server_timeout_ms(struct web_server *s)
{
	MHD_UNSIGNED_LONG_LONG ms;
	int64_t deadline = conns_deadline(s, false), streams = web_sse_deadline(s, false);

	if (s->run_again)
		return 0;
	if (streams >= 0 && (deadline < 0 || streams < deadline))
		deadline = streams;
	if (MHD_get_timeout(s->mhd, &ms) != MHD_YES)
		return deadline;
	if (ms > INT64_MAX)
		ms = INT64_MAX;
	return deadline >= 0 && deadline < (int64_t)ms ? deadline : (int64_t)ms;
}

int web_server_process(struct web_server *s)
{
	struct epoll_event ev[64];
	int n;

	s->run_again = 0;
	/* A parked stream whose client hung up ends now, its slot freed. */
	do {
		n = epoll_wait(s->outer_fd, ev, 64, 0);
		for (int i = 0; i < n; i++)
			if (ev[i].data.ptr) {
				struct sse_client *cl = ev[i].data.ptr;

				cl->closing = 1;
				web_sse_wake(cl);
			}
	} while (n == 64);
	web_sse_deadline(s, true);
	conns_deadline(s, true);
	return MHD_run(s->mhd) == MHD_YES ? 0 : -EIO;
}

bool web_server_accepting(struct web_server *s, int64_t now_ms, int64_t limit_ms)
{
	struct pollfd p = { .fd = s->listen_fd, .events = POLLIN };
	bool waiting = s->listen_fd >= 0 && poll(&p, 1, 0) == 1 && (p.revents & POLLIN);

	/* Any accept since the last call, or nobody waiting: taking them. A
	 * busy server accepts something every run; a wedged one (its listen
	 * socket out of every epoll set) never does, the backlog full. */
	if (!waiting || s->accepted != s->accepted_seen) {
		s->accepted_seen = s->accepted;
		s->stuck_since_ms = -1;
		return true;
	}
	if (s->stuck_since_ms < 0)
		s->stuck_since_ms = now_ms;
	return now_ms - s->stuck_since_ms < limit_ms;
}

void web_server_set_house(struct web_server *s, const struct bd_house *house)
{
	s->house = *house;
}

int web_server_set_pin(struct web_server *s, const char *pin)
{
	return web_auth_set_pin(&s->auth, pin);
}

void web_server_device_key(const struct web_server *s, unsigned char key[WEB_DEVICE_KEY])
{
	memcpy(key, s->auth.device_secret, WEB_DEVICE_KEY);
}
