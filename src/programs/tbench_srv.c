/*
 * tbench_srv.c - the tbench server: answers every request of the tbench
 * wire format (tbench_wire.h) with a reply of the length asked for, for
 * this project's tbench and dbench 4.00's alike.
 *
 * One process per connection, as the original: measured against the
 * epoll loop kept as --event-loop (BENCHMARKS.md), it spreads 8 clients
 * over every core (about 1.5x the loop's throughput here) at no more CPU
 * per request, ping-pong traffic giving an event loop one ready socket
 * per wakeup.  A request is read with one receive when it fits the
 * buffer, the rest of a large one dropped in the kernel; the reply is
 * one sendmsg of a header and shared zero pages.  A client that goes
 * away, even mid-request, only ends its own process; a malformed
 * request (a length over TBENCH_MAX_LEN) closes that connection with a
 * message.  SIGINT or SIGTERM: the children are stopped and reaped, and
 * the server exits 0.
 *
 * When accept() fails for want of resources (descriptors, memory), the
 * server waits SRV_BACKOFF_MS before trying again, with the stop signals
 * open: a listening socket that stays readable would otherwise keep it
 * spinning, and a wait that returns at once never delivers a signal.  At
 * most --max-connections connections are served at once (one process
 * each); one more is closed at once, said once on stderr until the count
 * falls below the cap again.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <popt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <talloc.h>
#include <unistd.h>

#include "net/tbench_wire.h"
#include "util/util.h"

#define PROG "tbench_srv"
#define CONN_BUF 16384
#define SRV_MAX_IOV (1 + TBENCH_MAX_LEN / TBENCH_ZEROS + 1)
#define SRV_BACKOFF_MS 100
#define SRV_MAX_CONNECTIONS 4096	/* the default of --max-connections */

static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t child_exited;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_child(int sig)
{
	(void)sig;
	child_exited = 1;
}

/* The reply to one request: a header and want bytes of zeroes. */
static int send_reply(int fd, uint32_t want)
{
	struct iovec iov[SRV_MAX_IOV];
	uint8_t hdr[TBENCH_REPLY_HDR];
	size_t n = 0;

	tbench_put_be32(hdr, want);
	iov[n++] = (struct iovec){ hdr, sizeof(hdr) };
	while (want > 0 && n < SRV_MAX_IOV) {
		uint32_t k = want < TBENCH_ZEROS ? want : TBENCH_ZEROS;

		iov[n++] = (struct iovec){ (void *)tbench_zeros, k };
		want -= k;
	}
	return tbench_send_iov(fd, iov, n);
}

/* One connection: what arrived and is not parsed yet, a request body
 * still to drop, its counts. */
struct conn {
	int fd;
	char *peer;		/* "ADDR:PORT", for messages */
	size_t have;		/* bytes in buf */
	uint32_t discard;	/* body bytes of the current request to drop */
	uint32_t want;		/* its reply length */
	uint64_t requests, in, out;	/* for --verbose */
	uint8_t buf[CONN_BUF];
};

/* Answer one request; 0, or -1 (the peer is gone: close). */
static int conn_answer(struct conn *c, uint32_t want)
{
	if (send_reply(c->fd, want) != 0)
		return -1;
	c->requests++;
	c->out += TBENCH_REPLY_HDR + (uint64_t)want;
	return 0;
}

/*
 * Answer every complete request in c->buf (a client may send several
 * before reading); a body longer than what arrived leaves c->discard.
 * Returns 0, or -1 when the connection must be closed (a protocol error,
 * said on stderr, or a failed send).
 */
static int conn_process(struct conn *c)
{
	size_t off = 0;

	while (c->discard == 0 && c->have - off >= TBENCH_REQ_HDR) {
		const uint8_t *h = c->buf + off;
		uint32_t body, want;
		size_t inbuf;

		if (tbench_decode_request(h, &body, &want) != 0) {
			fprintf(stderr, PROG ": %s: protocol error: request "
				"length %u, reply length %u (the most is %u); "
				"closing the connection\n", c->peer,
				tbench_get_be32(h), tbench_get_be32(h + 4),
				TBENCH_MAX_LEN);
			return -1;
		}
		off += TBENCH_REQ_HDR;
		inbuf = c->have - off < body ? c->have - off : body;
		off += inbuf;
		if (inbuf < body) {
			c->discard = body - (uint32_t)inbuf;
			c->want = want;
		} else if (conn_answer(c, want) != 0) {
			return -1;
		}
	}
	memmove(c->buf, c->buf + off, c->have - off);
	c->have -= off;
	return 0;
}

/*
 * Receive what is there (flags: 0 to wait, MSG_DONTWAIT not to): into
 * the buffer, or dropped in the kernel while a body is being discarded.
 * Returns 0 (also for EINTR and EAGAIN), or -1: the peer is gone,
 * possibly mid-request, or broke the protocol; close.
 */
static int conn_receive(struct conn *c, int flags)
{
	static uint8_t scratch[65536];
	ssize_t n;

	if (c->discard > 0)
		n = recv(c->fd, scratch, c->discard < sizeof(scratch) ?
			 c->discard : sizeof(scratch), MSG_TRUNC | flags);
	else
		n = recv(c->fd, c->buf + c->have, sizeof(c->buf) - c->have,
			 flags);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (n == 0)
		return -1;
	c->in += (uint64_t)n;
	if (c->discard == 0) {
		c->have += (size_t)n;
	} else {
		c->discard -= (uint32_t)n;
		if (c->discard == 0 && conn_answer(c, c->want) != 0)
			return -1;
	}
	return conn_process(c);
}

/* The --verbose line of a connection that ended. */
static void conn_report(const struct conn *c, int verbose)
{
	if (!verbose)
		return;
	printf(PROG ": %s: %llu requests, %llu bytes in, %llu bytes out\n",
	       c->peer, (unsigned long long)c->requests,
	       (unsigned long long)c->in, (unsigned long long)c->out);
	fflush(stdout);
}

/* "ADDR:PORT" of a socket address, under mem_ctx. */
static char *addr_text(void *mem_ctx, const struct sockaddr *sa,
		       socklen_t len)
{
	char host[NI_MAXHOST], serv[NI_MAXSERV];

	if (getnameinfo(sa, len, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV) != 0)
		return talloc_strdup(mem_ctx, "(unknown peer)");
	return talloc_asprintf(mem_ctx, strchr(host, ':') ? "[%s]:%s" :
			       "%s:%s", host, serv);
}

/* A listening socket on addr:port.  The fd, or -1 after a message. */
static int listen_on(void *mem_ctx, const char *addr, const char *port)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
	};
	struct addrinfo *res = NULL;
	int one = 1, fd, rc = getaddrinfo(addr, port, &hints, &res);

	if (rc != 0) {
		fprintf(stderr, PROG ": --address %s: %s\n", addr,
			gai_strerror(rc));
		return -1;
	}
	fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC,
		    res->ai_protocol);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, res->ai_addr, res->ai_addrlen) != 0 ||
	    listen(fd, 1024) != 0) {
		fprintf(stderr, PROG ": cannot listen on %s: %s\n",
			addr_text(mem_ctx, res->ai_addr, res->ai_addrlen),
			strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd;
}

/* What every connection's process needs. */
struct srv_conf {
	const struct tbench_sockopt *opts;
	size_t nopts;
	int verbose;		/* print each connection's counts at its end */
	pid_t parent;
	const sigset_t *unblocked;	/* the signal mask to serve with */
	unsigned max_conns;	/* --max-connections */
};

/*
 * accept4() failed with err: wait SRV_BACKOFF_MS when it was for want of
 * resources (it would fail again at once), with the stop signals
 * deliverable either way.
 */
static void accept_failed(int err, const struct srv_conf *conf)
{
	struct timespec ts = { 0, SRV_BACKOFF_MS * 1000000L };

	/* not 0: a wait that times out at once delivers no signal */
	if (err != EMFILE && err != ENFILE && err != ENOBUFS && err != ENOMEM)
		ts.tv_nsec = 1;
	ppoll(NULL, 0, &ts, conf->unblocked);
}

/* Over the cap: close fd at once; say so once per time at the cap. */
static void refuse_conn(int fd, const char *peer, const struct srv_conf *conf,
			bool *said)
{
	if (!*said)
		fprintf(stderr, PROG ": %s: refused: %u connections are served "
			"already (--max-connections); refusing more until "
			"one ends\n", peer, conf->max_conns);
	*said = true;
	close(fd);
}

/* The children serving connections, to stop them at the end. */
struct kids {
	pid_t *pid;
	size_t n;
};

static void kids_reap(struct kids *k)
{
	pid_t p;

	while ((p = waitpid(-1, NULL, WNOHANG)) > 0)
		for (size_t i = 0; i < k->n; i++)
			if (k->pid[i] == p) {
				k->pid[i] = k->pid[--k->n];
				break;
			}
}

/* The child's side of an accepted connection; never returns. */
static void child_main(int lfd, int fd, const char *peer,
		       const struct srv_conf *conf)
{
	const char *bad = NULL;
	struct conn *c = talloc_zero(NULL, struct conn);

	close(lfd);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_SETMASK, conf->unblocked, NULL);
	/* no orphan serves on after the server is gone */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != conf->parent)
		_exit(0);
	if (tbench_apply_sockopts(fd, conf->opts, conf->nopts, &bad) != 0)
		fprintf(stderr, PROG ": %s: socket option %s: %s\n", peer, bad,
			strerror(errno));
	if (c == NULL)
		_exit(1);
	c->fd = fd;
	c->peer = (char *)peer;
	while (conn_receive(c, 0) == 0)
		;
	conn_report(c, conf->verbose);
	_exit(0);
}

/* Accept until a stop signal; one child per connection.  Exit status. */
static int accept_loop(void *mem, int lfd, const struct srv_conf *conf)
{
	struct kids k = { .pid = NULL };
	bool said = false;

	while (!stop_signal) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		struct pollfd pfd = { .fd = lfd, .events = POLLIN };
		char *peer;
		pid_t *v;
		pid_t pid;
		int fd;

		if (child_exited) {
			child_exited = 0;
			kids_reap(&k);
			if (k.n < conf->max_conns)
				said = false;
		}
		/* the signals are blocked but here: none is missed */
		if (ppoll(&pfd, 1, NULL, conf->unblocked) <= 0)
			continue;
		fd = accept4(lfd, (struct sockaddr *)&ss, &sl,
			     SOCK_CLOEXEC);
		if (fd < 0) {
			accept_failed(errno, conf); /* EMFILE, ECONNABORTED... */
			continue;
		}
		peer = addr_text(mem, (struct sockaddr *)&ss, sl);
		if (k.n >= conf->max_conns) {
			refuse_conn(fd, peer, conf, &said);
			talloc_free(peer);
			continue;
		}
		v = talloc_realloc(mem, k.pid, pid_t, k.n + 1);
		pid = v != NULL ? fork() : -1;
		if (pid == 0)
			child_main(lfd, fd, peer, conf);
		if (v != NULL)
			k.pid = v;
		if (pid < 0)
			fprintf(stderr, PROG ": %s: cannot serve: %s\n", peer,
				strerror(errno));
		else
			k.pid[k.n++] = pid;
		close(fd);
		talloc_free(peer);
	}
	for (size_t i = 0; i < k.n; i++)
		kill(k.pid[i], SIGTERM);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	return 0;
}

/* Close a connection of the event loop (talloc destructor). */
static int conn_destructor(struct conn *c)
{
	close(c->fd);
	return 0;
}

/* Accept one connection into the event loop. */
static void event_accept(void *mem, int ep, int lfd,
			 const struct srv_conf *conf)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	const char *bad = NULL;
	struct epoll_event ev = { .events = EPOLLIN };
	struct conn *c;
	int fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);

	if (fd < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			accept_failed(errno, conf);
		return;
	}
	c = talloc_zero(mem, struct conn);
	if (c == NULL) {
		close(fd);
		return;
	}
	c->fd = fd;
	talloc_set_destructor(c, conn_destructor);
	c->peer = addr_text(c, (struct sockaddr *)&ss, sl);
	if (tbench_apply_sockopts(fd, conf->opts, conf->nopts, &bad) != 0)
		fprintf(stderr, PROG ": %s: socket option %s: %s\n", c->peer,
			bad, strerror(errno));
	ev.data.ptr = c;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0)
		talloc_free(c);
}

/*
 * --event-loop: every connection in this one process, served as its
 * requests arrive (epoll, level-triggered).  Replies are sent blocking:
 * a client that stops reading stalls the others, which tbench clients
 * never do.  Kept for the measurement in BENCHMARKS.md.  Exit status.
 */
static int event_loop(void *mem, int lfd, const struct srv_conf *conf)
{
	struct epoll_event evs[64], ev = { .events = EPOLLIN };
	int ep = epoll_create1(EPOLL_CLOEXEC);

	if (ep < 0 || fcntl(lfd, F_SETFL, O_NONBLOCK) != 0 ||
	    epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev) != 0) {
		fprintf(stderr, PROG ": epoll: %s\n", strerror(errno));
		return 1;
	}
	while (!stop_signal) {
		int n = epoll_pwait(ep, evs, 64, -1, conf->unblocked);

		for (int i = 0; i < n; i++) {
			struct conn *c = evs[i].data.ptr;

			if (c == NULL) {
				event_accept(mem, ep, lfd, conf);
			} else if (conn_receive(c, MSG_DONTWAIT) != 0) {
				conn_report(c, conf->verbose);
				talloc_free(c);	/* closing removes it */
			}
		}
	}
	close(ep);
	return 0;
}

/*
 * Signals: stop on INT/TERM, reap on CHLD; all three blocked except
 * while the accept loop waits (so none falls between its check and its
 * wait).  *unblocked: the mask to wait with.
 */
static void install_signals(sigset_t *unblocked)
{
	struct sigaction sa = { .sa_handler = on_stop };
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, unblocked);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/*
 * Listen on addr:port and serve until stopped: a process a connection,
 * or (events) every connection in one event loop.  conf's parent and
 * signal mask are set here.  Returns the exit status.
 */
static int serve(void *mem, const char *addr, const char *port,
		 struct srv_conf *conf, bool events)
{
	sigset_t unblocked;
	int lfd, rc;

	install_signals(&unblocked);
	lfd = listen_on(mem, addr, port);
	if (lfd < 0)
		return 1;
	printf(strchr(addr, ':') ? PROG ": listening on [%s]:%s\n" :
				   PROG ": listening on %s:%s\n", addr, port);
	fflush(stdout);
	conf->parent = getpid();
	conf->unblocked = &unblocked;
	rc = events ? event_loop(mem, lfd, conf) : accept_loop(mem, lfd, conf);
	close(lfd);
	return rc;
}

/*
 * The values of --port, --max-connections (into *conns) and -t (into
 * opts[0..*nopts)), each NULL when not given.  Returns 0, or -1 after a
 * message naming the option.
 */
static int check_values(void *mem, const char *port, const char *maxc,
			const char *tcp, struct tbench_sockopt *opts,
			int *nopts, int64_t *conns)
{
	char *err = NULL;
	int64_t num;

	if (port != NULL && parse_int64(port, 1, 65535, &num) != 0) {
		fprintf(stderr, PROG ": --port: '%s' is not a port number "
			"from 1 to 65535\n", port);
		return -1;
	}
	if (maxc != NULL && parse_int64(maxc, 1, INT32_MAX, conns) != 0) {
		fprintf(stderr, PROG ": --max-connections: '%s' is not a whole "
			"number from 1 to %d\n", maxc, INT32_MAX);
		return -1;
	}
	if (tcp != NULL &&
	    (*nopts = tbench_parse_sockopts(mem, tcp, opts,
					    TBENCH_MAX_SOCKOPTS, &err)) < 0) {
		fprintf(stderr, PROG ": -t: %s\n", err ? err : "out of memory");
		return -1;
	}
	return 0;
}

int main(int argc, const char **argv)
{
	void *mem = NULL;
	char *addr = NULL, *port = NULL, *tcp = NULL;
	char *maxc = NULL;
	int version = 0, verbose = 0, events = 0, opt, rc = 0, nopts = 0;
	struct tbench_sockopt opts[TBENCH_MAX_SOCKOPTS];
	int64_t conns = SRV_MAX_CONNECTIONS;
	const struct poptOption table[] = {
		{ "address", 'a', POPT_ARG_STRING, &addr, 0,
		  "listen on this address only (0.0.0.0)", "ADDR" },
		{ "port", 'p', POPT_ARG_STRING, &port, 0,
		  "listen on this TCP port (" TBENCH_DEFAULT_PORT_STR ")",
		  "N" },
		{ "tcp-options", 't', POPT_ARG_STRING, &tcp, 0,
		  "socket options of each connection, as tbench -T",
		  "OPTS" },
		{ NULL, 'T', POPT_ARG_STRING, &tcp, 0,
		  "the same as -t", "OPTS" },
		{ "max-connections", 0, POPT_ARG_STRING, &maxc, 0,
		  "serve at most N connections at once (4096); more are "
		  "closed at once", "N" },
		{ "event-loop", 0, POPT_ARG_NONE, &events, 0,
		  "serve every connection in one process (epoll) instead "
		  "of one process each", NULL },
		{ "verbose", 'v', POPT_ARG_NONE, &verbose, 0,
		  "at the end of each connection, print its requests and "
		  "bytes", NULL },
		{ "version", 'V', POPT_ARG_NONE, &version, 0,
		  "print the version and exit", NULL },
		POPT_AUTOHELP POPT_TABLEEND
	};
	poptContext pc = poptGetContext(PROG, argc, argv, table, 0);

	/* popt's --help exits inside the loop: allocate after it */
	while ((opt = poptGetNextOpt(pc)) > 0)
		;
	mem = talloc_new(NULL);
	if (mem == NULL) {
		fprintf(stderr, PROG ": out of memory\n");
		rc = 1;
	} else if (opt < -1 || poptPeekArg(pc) != NULL) {
		fprintf(stderr, PROG ": %s: %s (try --help)\n",
			opt < -1 ? poptBadOption(pc, 0) : poptPeekArg(pc),
			opt < -1 ? poptStrerror(opt) : "unexpected argument");
		rc = 2;
	} else if (version) {
		printf(PROG " (dbench %s)\n", PACKAGE_VERSION);
	} else if (check_values(mem, port, maxc, tcp, opts, &nopts,
				&conns) != 0) {
		rc = 2;
	} else {
		struct srv_conf conf = {
			.opts = opts,
			.nopts = (size_t)nopts,
			.verbose = verbose,
			.max_conns = (unsigned)conns,
		};

		rc = serve(mem, addr ? addr : "0.0.0.0",
			   port ? port : TBENCH_DEFAULT_PORT_STR, &conf,
			   events != 0);
	}
	poptFreeContext(pc);
	free(addr);
	free(port);
	free(tcp);
	free(maxc);
	talloc_free(mem);
	return rc;
}
