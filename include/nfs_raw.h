/*
 * nfs_raw.h - NFSv3 calls of the nfs backend's dialect sent on a mounted
 * libnfs context through libnfs's raw (asynchronous) API, with a cache of
 * the handles of the names met, as dbench 5.0 sends them: one LOOKUP per
 * name not seen yet, then GETATTR, ACCESS or LOOKUP on the handle.
 * (libnfs's synchronous path calls walk every path from the export's root,
 * a LOOKUP per component, each time.)  Built with libnfs only.
 *
 * Also what nfs_nlm.c shares: the synchronous wait for one raw call, and
 * the layout of libnfs's file handles.
 */
#ifndef DBENCH_NFS_RAW_H
#define DBENCH_NFS_RAW_H

#include <stdbool.h>
#include <stdint.h>

struct nfs_context;
struct rpc_context;

#ifndef HAVE_STRUCT_NFS_FH_LEN
/* What nfs_get_fh() and nfs_get_rootfh() return: libnfs 4 declares it
 * only in its private header, with this layout (the same in every
 * release; public from libnfs 5 on). */
struct nfs_fh {
	int len;
	char *val;
};
#endif

/* The mount's root handle: exported by libnfs, declared in no public
 * header (dbench 5.0 and others declare it themselves too). */
const struct nfs_fh *nfs_get_rootfh(struct nfs_context *nfs);

/*
 * Serve rpc until *done is set (by the call's callback) or timeout_ms
 * passed.  0, or -ETIMEDOUT / -ENOTCONN (rpc_service failed) / another
 * negative errno: then the call is still queued with its callback data,
 * and the context must never be serviced or destroyed again.
 */
int nfs_rpc_wait(struct rpc_context *rpc, const bool *done, int timeout_ms);

struct nfs_raw;

/* The dialect's calls nfs_raw_call sends. */
enum nfs_raw_op {
	NFS_RAW_LOOKUP,
	NFS_RAW_GETATTR,
	NFS_RAW_ACCESS,
	NFS_RAW_PATHCONF,
	NFS_RAW_FSINFO,		/* abs: "/" */
};

/* An empty handle cache under mem_ctx; calls wait at most timeout_ms. */
struct nfs_raw *nfs_raw_new(void *mem_ctx, int timeout_ms);

/* Forget every cached handle (after a removal or a rename, or with a
 * new mount). */
void nfs_raw_forget(struct nfs_raw *r);

/*
 * One call on abs (an absolute path on the export, "/a/b"): the NFS3
 * status the server answered (>= 0; a directory on the way not found is
 * that LOOKUP's status), or a negative errno when it did not answer (the
 * context must then be abandoned, see nfs_rpc_wait).  LOOKUP is always
 * sent for the last name (its directory's handle from the cache);
 * GETATTR, ACCESS (access: the ACCESS3 bits asked), PATHCONF and FSINFO
 * go to the handle, from the cache when the name was met before.  A cached handle the
 * server calls stale is dropped and the path looked up again once.
 */
int nfs_raw_call(struct nfs_raw *r, struct nfs_context *ctx,
		 enum nfs_raw_op op, const char *abs, uint32_t access);

#endif
