/*
 * nfs_nlm.c - NLM v4 byte-range locks for the nfs backend (see
 * nfs_nlm.h): libnfs's raw asynchronous NLM calls, each driven to its
 * answer by a small poll loop of our own, on a connection of the lock
 * owner's own.
 */
#include "config.h"

#ifdef HAVE_LIBNFS

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <talloc.h>
#include <unistd.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-nlm.h>

#include "nfs_nlm.h"
#include "nfs_raw.h"

struct nfs_nlm {
	struct rpc_context *rpc;	/* NULL: lost */
	int timeout_ms;
	char *caller;			/* this host's name */
	char *oh;			/* the owner handle */
	uint32_t svid;			/* the owner's number */
	uint32_t cookie;		/* the last call's */
	/* the answer of the call in flight (set by nlm_done) */
	bool done;
	int status;			/* NLM4 status, or -errno */
	char *why;			/* a failed connect's reason */
};

/* Every callback: the NLM4 status of a lock, unlock or test answer, 0
 * for a connection made, or an errno for anything else. */
static void nlm_done(struct rpc_context *rpc, int status, void *data,
		     void *private_data)
{
	struct nfs_nlm *n = private_data;

	(void)rpc;
	n->done = true;
	if (status == RPC_STATUS_TIMEOUT)
		n->status = -ETIMEDOUT;
	else if (status != RPC_STATUS_SUCCESS) {
		n->status = -ENOTCONN;
		if (status == RPC_STATUS_ERROR && data != NULL && n->why == NULL)
			n->why = talloc_strdup(n, data);
	} else
		n->status = 0;
}

static void nlm_lock_done(struct rpc_context *rpc, int status, void *data,
			  void *private_data)
{
	struct nfs_nlm *n = private_data;

	nlm_done(rpc, status, data, private_data);
	if (status == RPC_STATUS_SUCCESS)
		n->status = (int)((NLM4_LOCKres *)data)->status;
}

static void nlm_unlock_done(struct rpc_context *rpc, int status, void *data,
			    void *private_data)
{
	struct nfs_nlm *n = private_data;

	nlm_done(rpc, status, data, private_data);
	if (status == RPC_STATUS_SUCCESS)
		n->status = (int)((NLM4_UNLOCKres *)data)->status;
}

static void nlm_test_done(struct rpc_context *rpc, int status, void *data,
			  void *private_data)
{
	struct nfs_nlm *n = private_data;

	nlm_done(rpc, status, data, private_data);
	if (status == RPC_STATUS_SUCCESS)
		n->status = (int)((NLM4_TESTres *)data)->reply.status;
}

/* Serve n's connection until the call in flight is answered or
 * timeout_ms passed.  Returns its status (see nlm_done). */
static int nlm_wait(struct nfs_nlm *n)
{
	int r = nfs_rpc_wait(n->rpc, &n->done, n->timeout_ms);

	return r < 0 ? r : n->status;
}

static int nlm_destructor(struct nfs_nlm *n)
{
	/* pending calls are cancelled: their callbacks write into n */
	if (n->rpc != NULL)
		rpc_destroy_context(n->rpc);
	n->rpc = NULL;
	return 0;
}

/* The server named in url, under mem_ctx, or NULL. */
static char *nlm_server(void *mem_ctx, const char *url)
{
	struct nfs_context *ctx = nfs_init_context();
	struct nfs_url *u = ctx != NULL ? nfs_parse_url_dir(ctx, url) : NULL;
	char *server = u != NULL && u->server != NULL ?
			       talloc_strdup(mem_ctx, u->server) : NULL;

	if (u != NULL)
		nfs_destroy_url(u);
	if (ctx != NULL)
		nfs_destroy_context(ctx);
	return server;
}

/* The owner's identity: this host's name, a svid and owner handle of
 * this process and owner. */
static int nlm_identity(struct nfs_nlm *n, unsigned owner)
{
	char host[256];

	if (gethostname(host, sizeof(host)) != 0 || host[0] == '\0')
		strcpy(host, "dbench");
	host[sizeof(host) - 1] = '\0';
	n->caller = talloc_strdup(n, host);
	n->oh = talloc_asprintf(n, "dbench:%ld:%u", (long)getpid(), owner);
	/* unique among this run's clients (owner), and across runs on
	 * this host as far as the process ids tell */
	n->svid = ((uint32_t)getpid() << 12) ^ (uint32_t)owner;
	return n->caller != NULL && n->oh != NULL ? 0 : -ENOMEM;
}

struct nfs_nlm *nfs_nlm_new(void *mem_ctx, const char *url, unsigned owner,
			    int timeout_ms, char **err)
{
	struct nfs_nlm *n = talloc_zero(mem_ctx, struct nfs_nlm);
	const char *server = n != NULL ? nlm_server(n, url) : NULL;
	int r = -ENOMEM;

	if (n == NULL || nlm_identity(n, owner) != 0)
		goto fail;
	talloc_set_destructor(n, nlm_destructor);
	n->timeout_ms = timeout_ms;
	if (server == NULL) {
		n->why = talloc_strdup(n, "no server in the URL");
		goto fail;
	}
	if ((n->rpc = rpc_init_context()) == NULL)
		goto fail;
	if (rpc_connect_program_async(n->rpc, server, NLM_PROGRAM, NLM_V4,
				      nlm_done, n) != 0) {
		n->why = talloc_strdup(n, rpc_get_error(n->rpc));
		goto fail;
	}
	if ((r = nlm_wait(n)) == 0)
		return n;
fail:
	*err = talloc_asprintf(mem_ctx,
			       "%s: no NLM service (lockd) for --enable-nlm: "
			       "%s (the server must run NLM v4, registered "
			       "with its portmapper, and its rpc.statd)",
			       url, n != NULL && n->why != NULL ? n->why :
			       r == -ETIMEDOUT ? "no answer" : strerror(-r));
	talloc_free(n);
	return NULL;
}

void nfs_nlm_set_timeout(struct nfs_nlm *n, int timeout_ms)
{
	n->timeout_ms = timeout_ms;
}

int nfs_nlm_call(struct nfs_nlm *n, enum nfs_nlm_call what, struct nfsfh *fh,
		 uint64_t off, uint64_t len)
{
	struct nfs_fh *h = nfs_get_fh(fh);
	nlm4_lock lock = {
		.caller_name = n->caller,
		.fh = { .data = { .data_len = (u_int)h->len,
				  .data_val = h->val } },
		.oh = n->oh,
		.svid = n->svid,
		.l_offset = off,
		.l_len = len,
	};
	nlm_cookie cookie = { .data = { .data_len = sizeof(n->cookie),
					.data_val = (char *)&n->cookie } };
	int r;

	if (n->rpc == NULL)
		return -ENOTCONN;
	n->cookie++;
	n->done = false;
	if (what == NFS_NLM_LOCK) {
		NLM4_LOCKargs a = { .cookie = cookie, .exclusive = 1,
				    .lock = lock };

		r = rpc_nlm4_lock_async(n->rpc, nlm_lock_done, &a, n);
	} else if (what == NFS_NLM_UNLOCK) {
		NLM4_UNLOCKargs a = { .cookie = cookie, .lock = lock };

		r = rpc_nlm4_unlock_async(n->rpc, nlm_unlock_done, &a, n);
	} else {
		NLM4_TESTargs a = { .cookie = cookie, .exclusive = 1,
				    .lock = lock };

		r = rpc_nlm4_test_async(n->rpc, nlm_test_done, &a, n);
	}
	r = r != 0 ? -ENOTCONN : nlm_wait(n);
	if (r < 0) {	/* the connection is of no further use */
		rpc_destroy_context(n->rpc);
		n->rpc = NULL;
	}
	return r;
}

int nfs_nlm_errno(int status)
{
	switch (status) {
	case NFS_NLM4_DENIED:
	case NFS_NLM4_BLOCKED:
		return -EAGAIN;
	case NFS_NLM4_DEADLCK:
		return -EDEADLK;
	case NFS_NLM4_ROFS:
		return -EROFS;
	case NFS_NLM4_STALE_FH:
		return -ESTALE;
	case NFS_NLM4_FBIG:
		return -EFBIG;
	default:	/* no locks left, grace period, failed */
		return -ENOLCK;
	}
}

#endif /* HAVE_LIBNFS */
