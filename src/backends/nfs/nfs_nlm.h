/*
 * nfs_nlm.h - byte-range locks on an NFSv3 server through its NLM (v4)
 * service, for the nfs backend (--enable-nlm).  Built with libnfs only.
 *
 * One nfs_nlm is one lock owner: a connection to the server's NLM
 * service (found through its portmapper) with the owner's identity
 * (caller name, svid and owner handle) fixed at creation; every client
 * of a run has its own, so that the clients' locks conflict with each
 * other as the processes' fcntl locks do under fileio, and never with
 * the same client's.  Calls are synchronous and never block on a lock:
 * a conflicting lock is refused at once (NLM4_DENIED).
 */
#ifndef DBENCH_NFS_NLM_H
#define DBENCH_NFS_NLM_H

#include <stdint.h>

struct nfs_nlm;
struct nfsfh;

/* What a call asks (NLM4_LOCK, NLM4_UNLOCK, NLM4_TEST): exclusive locks. */
enum nfs_nlm_call { NFS_NLM_LOCK, NFS_NLM_UNLOCK, NFS_NLM_TEST };

/* NLM4 status codes (RFC 1813, section 6.1) the calls answer. */
enum {
	NFS_NLM4_GRANTED = 0,
	NFS_NLM4_DENIED = 1,
	NFS_NLM4_DENIED_NOLOCKS = 2,
	NFS_NLM4_BLOCKED = 3,
	NFS_NLM4_DENIED_GRACE_PERIOD = 4,
	NFS_NLM4_DEADLCK = 5,
	NFS_NLM4_ROFS = 6,
	NFS_NLM4_STALE_FH = 7,
	NFS_NLM4_FBIG = 8,
	NFS_NLM4_FAILED = 9,
};

/*
 * Connect to the NLM v4 service of the server named in url (an nfs://
 * URL) through the server's portmapper, as the lock owner `owner` (a
 * number unique among the run's clients: the client id), waiting at most
 * timeout_ms.  Returns the connection allocated under mem_ctx (freeing it
 * disconnects), or NULL with *err (under mem_ctx) one line:
 * "URL: no NLM service (lockd) ...: <libnfs's reason>".
 */
struct nfs_nlm *nfs_nlm_new(void *mem_ctx, const char *url, unsigned owner,
			    int timeout_ms, char **err);

/* The bound of n's calls from now on (the connection's was the one
 * given to nfs_nlm_new). */
void nfs_nlm_set_timeout(struct nfs_nlm *n, int timeout_ms);

/*
 * One call on [off, off + len) of the open file fh (len 0: to the end
 * of the file, as NLM says).  Returns the NLM4 status (>= 0) the server
 * answered, or a negative errno when it did not answer: the connection
 * is lost (-ENOTCONN, -ETIMEDOUT, -ECONNRESET) and the nfs_nlm is of no
 * further use (free it and make a new one).
 */
int nfs_nlm_call(struct nfs_nlm *n, enum nfs_nlm_call what, struct nfsfh *fh,
		 uint64_t off, uint64_t len);

/* The negative errno a refused vfs lock means for an NLM4 status other
 * than NLM4_GRANTED (-EAGAIN for NLM4_DENIED, as fcntl says). */
int nfs_nlm_errno(int status);

#endif
