/*
 * sockio.c - the tbench backend: every loadfile op becomes one request
 * and reply with a tbench server (tbench_srv, ours or dbench 4.00's),
 * sized as dbench 4.00's tbench sizes them (tbench_wire.h), so that the
 * network and the server's socket handling are loaded without any
 * filesystem in the way.
 *
 * Each client holds one TCP connection, opened in setup (before the
 * start gate) with the -T socket options.  Nothing is created anywhere,
 * so the shared-path hooks and cleanup have nothing to do.  A lost
 * connection or a reply of the wrong length fails the op with a message
 * naming the server (struct op_call's msg); the engine stops the client.
 */
#include "config.h"

#include <errno.h>
#include <popt.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <talloc.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/backends.h"
#include "loadfile/ntstatus.h"
#include "net/tbench_wire.h"

#define SOCKIO_OPT_SERVER 1
#define SOCKIO_STR_(x) #x
#define SOCKIO_STR(x) SOCKIO_STR_(x)
#define SOCKIO_DEFAULT_SERVER "localhost"
/* how long the check before the run, and each client's setup, wait
 * for the connection and the server's answer to the opening exchange
 * (in the run, a silent server is the stall watch's: src/run/pool.h) */
#define SOCKIO_CHECK_TIMEOUT 10
/* replies up to this size are read with one receive (header included) */
#define SOCKIO_RBUF 4096
/* iovecs of one request: header, filler in TBENCH_ZEROS chunks, data */
#define SOCKIO_MAX_IOV (2 + TBENCH_MAX_LEN / TBENCH_ZEROS + 2)

/* The options object (dbench_options' backend_opts). */
struct sockio_opts {
	char *host;
	char *port;
	char *name;	/* "HOST:PORT", for messages */
};

struct sockio_state {
	int fd;
	const struct sockio_opts *bo;
	size_t dir_len;		/* strlen of the client's -D directory */
	char *msg;		/* the last failure's message */
	/* what a receive that timed out means (SO_RCVTIMEO of the opening
	 * exchange, or of -T) */
	const char *timeout_what;
	uint8_t rbuf[SOCKIO_RBUF];
};

static const struct poptOption sockio_options[] = {
	{ "server", 0, POPT_ARG_STRING, NULL, SOCKIO_OPT_SERVER,
	  "the tbench server (tbench_srv) to talk to (" SOCKIO_DEFAULT_SERVER
	  ":" TBENCH_DEFAULT_PORT_STR ")", "HOST[:PORT]" },
	POPT_TABLEEND
};

/* Set *bopts to the server spec's host and port.  0, or -1 with *err. */
static int sockio_set_server(void *mem_ctx, void **bopts, const char *spec,
			     char **err)
{
	struct sockio_opts *bo = *bopts;

	if (bo == NULL) {
		bo = talloc_zero(mem_ctx, struct sockio_opts);
		if (bo == NULL) {
			*err = NULL;
			return -1;
		}
		*bopts = bo;
	}
	talloc_free(bo->host);
	talloc_free(bo->port);
	if (tbench_split_server(bo, spec, &bo->host, &bo->port, err) != 0)
		return -1;
	bo->name = talloc_asprintf(bo, strchr(bo->host, ':') ? "[%s]:%s" :
				   "%s:%s", bo->host, bo->port);
	if (bo->name == NULL) {
		*err = NULL;
		return -1;
	}
	return 0;
}

static int sockio_option(void *mem_ctx, void **bopts, int val,
			 const char *arg, char **err)
{
	if (val != SOCKIO_OPT_SERVER || arg == NULL) {
		*err = talloc_strdup(mem_ctx, "unknown option");
		return -1;
	}
	return sockio_set_server(mem_ctx, bopts, arg, err);
}

/* No --server: the original's default, localhost. */
static int sockio_options_done(void *mem_ctx, void **bopts, char **err)
{
	if (*bopts != NULL)
		return 0;
	return sockio_set_server(mem_ctx, bopts, SOCKIO_DEFAULT_SERVER, err);
}

/* The -T options of o, into opts[].  The count, or -1 with *err. */
static int sockio_sockopts(void *mem_ctx, const struct dbench_options *o,
			   struct tbench_sockopt *opts, char **err)
{
	int n;

	if (o->tcp_options == NULL)
		return 0;
	n = tbench_parse_sockopts(mem_ctx, o->tcp_options, opts,
				  TBENCH_MAX_SOCKOPTS, err);
	if (n < 0 && *err != NULL)
		*err = talloc_asprintf(mem_ctx, "--tcp-options: %s", *err);
	return n;
}

/* Set the message of a failure; returns NT_STATUS_UNSUCCESSFUL. */
static uint32_t sockio_fail(struct sockio_state *st, struct op_call *call,
			    const char *what, int err)
{
	talloc_free(st->msg);
	if (err == 0)
		st->msg = talloc_asprintf(st, "server %s %s", st->bo->name,
					  what);
	else
		st->msg = talloc_asprintf(st, "server %s: %s: %s",
					  st->bo->name, what, strerror(err));
	call->msg = st->msg;
	call->err = err;
	return NT_STATUS_UNSUCCESSFUL;
}

/*
 * Receive the first bytes of a reply, up to len (at least the 4 of its
 * header), into st->rbuf: one receive when they are all in, as they
 * usually are; *have is how many came.  Returns as tbench_recv_all().
 */
static int sockio_recv_header(struct sockio_state *st, size_t len,
			      size_t *have)
{
	*have = 0;
	while (*have < TBENCH_REPLY_HDR) {
		ssize_t n = recv(st->fd, st->rbuf + *have, len - *have, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = 0;
			return 1;
		}
		*have += (size_t)n;
	}
	return 0;
}

/*
 * Send one request of send_total bytes (data, when not NULL, ends it)
 * and receive its reply of recv_total bytes.  NT_STATUS_OK, or a failure
 * with call->msg set.
 */
static uint32_t sockio_exchange(struct sockio_state *st, struct op_call *call,
				uint32_t send_total, uint32_t recv_total,
				const void *data, size_t data_len)
{
	struct iovec iov[SOCKIO_MAX_IOV];
	uint8_t hdr[TBENCH_REQ_HDR];
	size_t filler = send_total - TBENCH_REQ_HDR - data_len, n = 0, have;
	uint32_t want = recv_total - TBENCH_REPLY_HDR, got;
	int rc;

	tbench_encode_request(hdr, send_total, recv_total);
	iov[n++] = (struct iovec){ hdr, sizeof(hdr) };
	for (; filler > 0 && n < SOCKIO_MAX_IOV - 1; n++) {
		size_t k = filler < TBENCH_ZEROS ? filler : TBENCH_ZEROS;

		iov[n] = (struct iovec){ (void *)tbench_zeros, k };
		filler -= k;
	}
	if (data_len > 0)
		iov[n++] = (struct iovec){ (void *)data, data_len };
	if (tbench_send_iov(st->fd, iov, n) != 0)
		return sockio_fail(st, call, "sending the request", errno);

	/* a small reply in one receive (usually), its header checked as
	 * soon as it is in; a large one's payload dropped in the kernel */
	rc = sockio_recv_header(st, recv_total <= sizeof(st->rbuf) ?
					    recv_total : TBENCH_REPLY_HDR,
				&have);
	if (rc == 0 && tbench_check_reply(st->rbuf, want, &got) != 0) {
		char *what = talloc_asprintf(st, "protocol error: a reply of "
					     "%u bytes to a request for %u (a "
					     "reply header announcing %u "
					     "expected; not a tbench server?)",
					     got, want, want);

		sockio_fail(st, call, what ? what : "protocol error", 0);
		talloc_free(what);
		return NT_STATUS_UNSUCCESSFUL;
	}
	if (rc == 0 && recv_total <= sizeof(st->rbuf) && have < recv_total)
		rc = tbench_recv_all(st->fd, st->rbuf + have,
				     recv_total - have);
	if (rc == 0 && recv_total > sizeof(st->rbuf))
		rc = tbench_discard(st->fd, want);
	if (rc == 1)
		return sockio_fail(st, call, "closed the connection", 0);
	if (rc != 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return sockio_fail(st, call, st->timeout_what, 0);
	if (rc != 0)
		return sockio_fail(st, call, "receiving the reply", errno);
	return NT_STATUS_OK;
}

/* Every op: the original's exchange for its kind. */
static uint32_t sockio_op(void *state, struct op_call *call)
{
	struct sockio_state *st = state;
	enum op_kind kind = (enum op_kind)call->op->kind;
	uint32_t s, r, status;
	uint64_t bytes;
	size_t data_len = 0;

	if (tbench_op_sizes(kind, call, st->dir_len, &s, &r, &bytes) == 0)
		return NT_STATUS_OK;
	if (kind == OP_WRITEX && call->data != NULL)
		data_len = (size_t)bytes;	/* WriteX sends its data */
	status = sockio_exchange(st, call, s, r, call->data, data_len);
	if (status != NT_STATUS_OK)
		return status;
	call->bytes = bytes;
	if (kind == OP_FIND)
		call->result = call->arg[2];
	return NT_STATUS_OK;
}

static int sockio_state_destructor(struct sockio_state *st)
{
	if (st->fd >= 0)
		close(st->fd);
	return 0;
}

/* Set fd's receive and send timeouts to secs (0: none). */
static void sockio_timeouts(int fd, int secs)
{
	struct timeval tv = { .tv_sec = secs };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/*
 * -T's SO_RCVLOWAT above the 8 bytes of the opening exchange's reply:
 * Linux wakes a receive only once that many bytes are in, and a server
 * sends no more before the next request, so every wait would last
 * forever.  0, or -1 with *err.
 */
static int sockio_check_lowat(void *mem_ctx,
			      const struct tbench_sockopt *opts, int n,
			      char **err)
{
	for (int i = 0; i < n; i++)
		if (opts[i].level == SOL_SOCKET &&
		    opts[i].optname == SO_RCVLOWAT && opts[i].value > 8) {
			*err = talloc_asprintf(mem_ctx, "--tcp-options: "
					       "SO_RCVLOWAT=%d: at most 8 (the "
					       "opening exchange's reply; a "
					       "receive waits for that many "
					       "bytes, which never come)",
					       opts[i].value);
			return -1;
		}
	return 0;
}

/*
 * A connected, optioned socket that passed the original's opening
 * exchange (8 bytes each way), all of it within SOCKIO_CHECK_TIMEOUT
 * seconds each wait.  0 with st->fd set, or -1 with *err.
 */
static int sockio_open(void *mem_ctx, struct sockio_state *st,
		       const struct dbench_options *o, char **err)
{
	struct tbench_sockopt opts[TBENCH_MAX_SOCKOPTS];
	const char *bad = NULL;
	struct op_call probe = { .op = NULL };
	int n = sockio_sockopts(mem_ctx, o, opts, err);

	if (n < 0 || sockio_check_lowat(mem_ctx, opts, n, err) != 0)
		return -1;
	st->fd = tbench_connect(mem_ctx, st->bo->host, st->bo->port,
				SOCKIO_CHECK_TIMEOUT * 1000, err);
	if (st->fd < 0)
		return -1;
	if (tbench_apply_sockopts(st->fd, opts, (size_t)n, &bad) != 0) {
		*err = talloc_asprintf(mem_ctx, "--tcp-options: %s: %s", bad,
				       strerror(errno));
		return -1;
	}
	sockio_timeouts(st->fd, SOCKIO_CHECK_TIMEOUT);
	st->timeout_what = "sent no reply within "
			   SOCKIO_STR(SOCKIO_CHECK_TIMEOUT) " s";
	if (sockio_exchange(st, &probe, 8, 8, NULL, 0) != NT_STATUS_OK) {
		*err = talloc_strdup(mem_ctx, probe.msg);
		return -1;
	}
	/* the run's waits: no bound but -T's (the stall watch ends a
	 * client that waits too long) */
	sockio_timeouts(st->fd, 0);
	st->timeout_what = "sent no reply within the -T timeout";
	if (tbench_apply_sockopts(st->fd, opts, (size_t)n, &bad) != 0) {
		*err = talloc_asprintf(mem_ctx, "--tcp-options: %s: %s", bad,
				       strerror(errno));
		return -1;
	}
	return 0;
}

/* A fresh state for options bo (under mem_ctx), fd closed with it. */
static struct sockio_state *sockio_state_new(void *mem_ctx,
					     const struct dbench_options *o)
{
	struct sockio_state *st = talloc_zero(mem_ctx, struct sockio_state);

	if (st == NULL)
		return NULL;
	st->fd = -1;
	st->bo = o->backend_opts;
	talloc_set_destructor(st, sockio_state_destructor);
	return st;
}

/* The server answers the opening exchange; -T is valid.  The target (-D)
 * is not used: a tbench client touches no filesystem. */
static int sockio_target_check(void *mem_ctx, const struct dbench_options *o,
			       const char *target, char **err)
{
	struct sockio_state *st = sockio_state_new(mem_ctx, o);
	int rc;

	(void)target;
	if (st == NULL || st->bo == NULL) {
		*err = talloc_strdup(mem_ctx, "sockio: out of memory");
		talloc_free(st);
		return -1;
	}
	rc = sockio_open(mem_ctx, st, o, err);
	talloc_free(st);
	return rc;
}

static int sockio_setup(void *mem_ctx, const struct backend_client_config *cfg,
			void **state, char **err)
{
	struct sockio_state *st = sockio_state_new(mem_ctx, cfg->opts);

	if (st == NULL || st->bo == NULL) {
		*err = talloc_strdup(mem_ctx, "sockio: out of memory");
		talloc_free(st);
		return -1;
	}
	st->dir_len = strlen(cfg->directory);
	if (sockio_open(mem_ctx, st, cfg->opts, err) != 0) {
		talloc_free(st);
		return -1;
	}
	*state = st;
	return 0;
}

/* One connection, and a margin for the resolver's moment. */
static uint64_t sockio_client_fds(const struct dbench_options *o,
				  uint32_t max_open_handles, uint32_t max_dirs)
{
	(void)o;
	(void)max_open_handles;
	(void)max_dirs;
	return 2;
}

static int sockio_cleanup(void *state, const char *path)
{
	(void)state;
	(void)path;
	return 0;
}

const struct backend sockio_backend = {
	.abi = BACKEND_ABI,
	.name = "sockio",
	.description = "tbench: each op is a request and reply with a "
		       "tbench server (tbench_srv)",
	.unavailable = NULL,
	.flags = BACKEND_SOCKETS | BACKEND_NO_STATUS | BACKEND_REMOTE,
	.options = sockio_options,
	.option = sockio_option,
	.options_done = sockio_options_done,
	.target_check = sockio_target_check,
	.client_fds = sockio_client_fds,
	.setup = sockio_setup,
	.cleanup = sockio_cleanup,
	.ops = {
		[OP_NTCREATEX] = sockio_op,
		[OP_CLOSE] = sockio_op,
		[OP_RENAME] = sockio_op,
		[OP_UNLINK] = sockio_op,
		[OP_DELTREE] = sockio_op,
		[OP_RMDIR] = sockio_op,
		[OP_MKDIR] = sockio_op,
		[OP_QPATHINFO] = sockio_op,
		[OP_QFILEINFO] = sockio_op,
		[OP_QFSINFO] = sockio_op,
		[OP_SFILEINFO] = sockio_op,
		[OP_FIND] = sockio_op,
		[OP_WRITEX] = sockio_op,
		[OP_READX] = sockio_op,
		[OP_LOCKX] = sockio_op,
		[OP_UNLOCKX] = sockio_op,
		[OP_FLUSH] = sockio_op,
		[OP_DROPCACHE] = sockio_op,
	},
};
