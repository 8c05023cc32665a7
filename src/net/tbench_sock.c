/*
 * tbench_sock.c - the socket plumbing of tbench's client and server:
 * HOST[:PORT] parsing, connecting, socket options, whole sends and
 * receives.  Nothing here prints or exits; errors come back as errno or
 * as a message under the caller's talloc context.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <talloc.h>
#include <unistd.h>

#include "net/tbench_wire.h"
#include "util/util.h"

int tbench_apply_sockopts(int fd, const struct tbench_sockopt *opts,
			  size_t n, const char **bad)
{
	for (size_t i = 0; i < n; i++) {
		const struct tbench_sockopt *o = &opts[i];
		struct timeval tv = { .tv_sec = o->value };
		int rc = o->is_timeval ?
			setsockopt(fd, o->level, o->optname, &tv, sizeof(tv)) :
			setsockopt(fd, o->level, o->optname, &o->value,
				   sizeof(o->value));

		if (rc != 0) {
			*bad = o->name;
			return -1;
		}
	}
	return 0;
}

int tbench_split_server(void *mem_ctx, const char *spec, char **host,
			char **port, char **err)
{
	const char *colon = NULL, *h = spec;
	size_t hlen = strlen(spec);
	int64_t num;

	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (close == NULL || (close[1] != '\0' && close[1] != ':'))
			goto bad;
		h = spec + 1;
		hlen = (size_t)(close - h);
		colon = close[1] == ':' ? close + 1 : NULL;
	} else if ((colon = strchr(spec, ':')) != NULL) {
		if (strchr(colon + 1, ':') != NULL)
			colon = NULL;	/* a bare IPv6 address: no port */
		else
			hlen = (size_t)(colon - spec);
	}
	if (hlen == 0)
		goto bad;
	if (colon != NULL && parse_int64(colon + 1, 1, 65535, &num) != 0)
		goto bad;
	*host = talloc_strndup(mem_ctx, h, hlen);
	*port = talloc_strdup(mem_ctx, colon != NULL ? colon + 1 :
					    TBENCH_DEFAULT_PORT_STR);
	if (*host == NULL || *port == NULL) {
		*err = NULL;
		return -1;
	}
	return 0;
bad:
	*err = talloc_asprintf(mem_ctx, "'%s' is not HOST or HOST:PORT (a "
			       "port from 1 to 65535; [ADDR]:PORT for IPv6)",
			       spec);
	return -1;
}

/*
 * Connect fd to addr within timeout_ms (0: no bound): a connect that
 * does not complete in time (a SYN no one answers, a full backlog) is
 * ETIMEDOUT.  0, or -1 with errno.
 */
static int connect_within(int fd, const struct sockaddr *addr,
			  socklen_t len, int timeout_ms)
{
	int flags = fcntl(fd, F_GETFL), rc, soerr = 0;
	socklen_t sl = sizeof(soerr);
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	if (timeout_ms <= 0) {
		while ((rc = connect(fd, addr, len)) != 0 && errno == EINTR)
			;
		return rc;
	}
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0)
		return -1;
	rc = connect(fd, addr, len);
	if (rc != 0 && errno == EINPROGRESS) {
		uint64_t end = now_ns() + (uint64_t)timeout_ms * 1000000ull;
		int n;

		do {
			uint64_t now = now_ns();

			n = now >= end ? 0 :
				poll(&p, 1, (int)((end - now) / 1000000 + 1));
		} while (n < 0 && errno == EINTR);
		if (n == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		if (n < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr,
					&sl) != 0)
			return -1;
		rc = soerr != 0 ? -1 : 0;
		errno = soerr;
	}
	if (rc == 0 && fcntl(fd, F_SETFL, flags) != 0)
		return -1;
	return rc;
}

int tbench_connect(void *mem_ctx, const char *host, const char *port,
		   int timeout_ms, char **err)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
	};
	struct addrinfo *res = NULL, *ai;
	int rc, fd = -1, saved = 0;

	rc = getaddrinfo(host, port, &hints, &res);
	if (rc != 0) {
		*err = talloc_asprintf(mem_ctx, "cannot connect to %s:%s: %s",
				       host, port, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0) {
			saved = errno;
			continue;
		}
		if (connect_within(fd, ai->ai_addr, ai->ai_addrlen,
				   timeout_ms) == 0)
			break;
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0 && saved == ETIMEDOUT && timeout_ms > 0)
		*err = talloc_asprintf(mem_ctx, "cannot connect to %s:%s: no "
				       "answer within %d s", host, port,
				       timeout_ms / 1000);
	else if (fd < 0)
		*err = talloc_asprintf(mem_ctx, "cannot connect to %s:%s: %s "
				       "(is tbench_srv running there?)", host,
				       port, strerror(saved));
	return fd;
}

const uint8_t tbench_zeros[TBENCH_ZEROS] __attribute__((aligned(4096)));

int tbench_send_iov(int fd, struct iovec *iov, size_t n)
{
	while (n > 0) {
		struct msghdr mh = { .msg_iov = iov, .msg_iovlen = n };
		ssize_t sent = sendmsg(fd, &mh, MSG_NOSIGNAL);

		if (sent < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		/* skip what went out; a partial iovec is advanced */
		while (n > 0 && (size_t)sent >= iov->iov_len) {
			sent -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + sent;
			iov->iov_len -= (size_t)sent;
		}
	}
	return 0;
}

/* Receive len bytes with flags; the buffer advances unless discarding. */
static int recv_loop(int fd, char *buf, size_t len, size_t chunk, int flags)
{
	while (len > 0) {
		size_t want = len < chunk ? len : chunk;
		ssize_t n = recv(fd, buf, want, flags | MSG_WAITALL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = 0;
			return 1;
		}
		if (!(flags & MSG_TRUNC))
			buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int tbench_recv_all(int fd, void *buf, size_t len)
{
	return recv_loop(fd, buf, len, len, 0);
}

int tbench_discard(int fd, size_t len)
{
	/* TCP drops MSG_TRUNC data in the kernel; the buffer is only what
	 * the receive would be allowed to touch, so chunks fit it */
	static char scratch[65536];

	return recv_loop(fd, scratch, len, sizeof(scratch), MSG_TRUNC);
}
