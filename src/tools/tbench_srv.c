/*
 * tbench_srv.c - the tbench server: answers every request of the tbench
 * wire format (tbench_wire.h) with a reply of the length asked for, for
 * this project's tbench and dbench 4.00's alike.
 *
 * One process per connection, as the original: measured against an
 * event loop on this 2-core machine it keeps each client's exchanges on
 * its own scheduling entity, which is what the benchmark loads (see
 * BENCHMARKS.md).  A request is read with one receive when it fits the
 * buffer, the rest of a large one dropped in the kernel; the reply is
 * one sendmsg of a header and shared zero pages.  A client that goes
 * away, even mid-request, only ends its own process; a malformed
 * request (a length over TBENCH_MAX_LEN) closes that connection with a
 * message.  SIGINT or SIGTERM: the children are stopped and reaped, and
 * the server exits 0.
 */
#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <popt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <talloc.h>
#include <unistd.h>

#include "tbench_wire.h"
#include "util.h"

#define PROG "tbench_srv"
#define RBUF 65536
#define SRV_MAX_IOV (1 + TBENCH_MAX_LEN / TBENCH_ZEROS + 1)

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

/*
 * Serve one connection until the peer closes it or breaks the protocol.
 * Requests are parsed from what one receive brings (a client may send
 * several before reading); a body longer than what arrived is dropped.
 */
/* What one connection did, for --verbose. */
struct conn_count {
	uint64_t requests, in, out;
};

static void serve(int fd, const char *peer, struct conn_count *cc)
{
	static uint8_t buf[RBUF];
	size_t have = 0;

	for (;;) {
		uint32_t body, want;
		size_t need;
		ssize_t n;

		if (have < TBENCH_REQ_HDR) {
			n = recv(fd, buf + have, sizeof(buf) - have, 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return;	/* gone, possibly mid-request */
			have += (size_t)n;
			cc->in += (uint64_t)n;
			continue;
		}
		if (tbench_decode_request(buf, &body, &want) != 0) {
			fprintf(stderr, PROG ": %s: protocol error: request "
				"length %u, reply length %u (the most is %u); "
				"closing the connection\n", peer,
				tbench_get_be32(buf), tbench_get_be32(buf + 4),
				TBENCH_MAX_LEN);
			return;
		}
		need = TBENCH_REQ_HDR + (size_t)body;
		if (have >= need) {
			have -= need;
			memmove(buf, buf + need, have);
		} else {
			if (tbench_discard(fd, need - have) != 0)
				return;
			cc->in += need - have;
			have = 0;
		}
		if (send_reply(fd, want) != 0)
			return;
		cc->requests++;
		cc->out += TBENCH_REPLY_HDR + (uint64_t)want;
	}
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
};

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
	struct conn_count cc = { 0 };

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
	serve(fd, peer, &cc);
	if (conf->verbose)
		printf(PROG ": %s: %llu requests, %llu bytes in, %llu bytes "
		       "out\n", peer, (unsigned long long)cc.requests,
		       (unsigned long long)cc.in, (unsigned long long)cc.out);
	fflush(stdout);
	_exit(0);
}

/* Accept until a stop signal; one child per connection.  Exit status. */
static int accept_loop(void *mem, int lfd, const struct srv_conf *conf)
{
	struct kids k = { .pid = NULL };

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
		}
		/* the signals are blocked but here: none is missed */
		if (ppoll(&pfd, 1, NULL, conf->unblocked) <= 0)
			continue;
		fd = accept4(lfd, (struct sockaddr *)&ss, &sl,
			     SOCK_CLOEXEC);
		if (fd < 0)
			continue;	/* ECONNABORTED, EMFILE... */
		peer = addr_text(mem, (struct sockaddr *)&ss, sl);
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

int main(int argc, const char **argv)
{
	void *mem = talloc_new(NULL);
	char *addr = NULL, *port = NULL, *tcp = NULL;
	int version = 0, verbose = 0, opt, rc = 0, lfd, nopts = 0;
	struct tbench_sockopt opts[TBENCH_MAX_SOCKOPTS];
	int64_t num;
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
		{ "verbose", 'v', POPT_ARG_NONE, &verbose, 0,
		  "at the end of each connection, print its requests and "
		  "bytes", NULL },
		{ "version", 'V', POPT_ARG_NONE, &version, 0,
		  "print the version and exit", NULL },
		POPT_AUTOHELP POPT_TABLEEND
	};
	poptContext pc = poptGetContext(PROG, argc, argv, table, 0);
	char *err = NULL;

	while ((opt = poptGetNextOpt(pc)) > 0)
		;
	if (opt < -1 || poptPeekArg(pc) != NULL) {
		fprintf(stderr, PROG ": %s: %s (try --help)\n",
			opt < -1 ? poptBadOption(pc, 0) : poptPeekArg(pc),
			opt < -1 ? poptStrerror(opt) : "unexpected argument");
		rc = 2;
	} else if (version) {
		printf(PROG " (dbench %s)\n", PACKAGE_VERSION);
	} else if (port != NULL && parse_int64(port, 1, 65535, &num) != 0) {
		fprintf(stderr, PROG ": --port: '%s' is not a port number "
			"from 1 to 65535\n", port);
		rc = 2;
	} else if (tcp != NULL &&
		   (nopts = tbench_parse_sockopts(mem, tcp, opts,
						  TBENCH_MAX_SOCKOPTS,
						  &err)) < 0) {
		fprintf(stderr, PROG ": -t: %s\n", err ? err : "out of memory");
		rc = 2;
	} else {
		sigset_t unblocked;

		install_signals(&unblocked);
		lfd = listen_on(mem, addr ? addr : "0.0.0.0",
				port ? port : TBENCH_DEFAULT_PORT_STR);
		if (lfd < 0) {
			rc = 1;
		} else {
			printf(PROG ": listening on %s:%s\n",
			       addr ? addr : "0.0.0.0",
			       port ? port : TBENCH_DEFAULT_PORT_STR);
			fflush(stdout);
			struct srv_conf conf = {
				.opts = opts,
				.nopts = (size_t)nopts,
				.verbose = verbose,
				.parent = getpid(),
				.unblocked = &unblocked,
			};

			rc = accept_loop(mem, lfd, &conf);
			close(lfd);
		}
	}
	poptFreeContext(pc);
	free(addr);
	free(port);
	free(tcp);
	talloc_free(mem);
	return rc;
}
