/*
 * nfs_raw.h - NFSv3 calls of the nfs backend's dialect sent on a mounted
 * libnfs context through libnfs's raw (asynchronous) API, with a cache of
 * the handles of the names met, as dbench 5.0 sends them: one LOOKUP per
 * name not seen yet, then each op as one call on the handle (READ3's
 * data is not copied out); and a tree's removal by the same calls.
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
	NFS_RAW_LOOKUP,		/* the name in its directory's handle */
	NFS_RAW_GETATTR,	/* on the path's own handle */
	NFS_RAW_ACCESS,
	NFS_RAW_PATHCONF,
	NFS_RAW_FSINFO,		/* abs: "/" */
	NFS_RAW_READ,		/* io: offset, count; done: bytes read */
	NFS_RAW_WRITE,		/* io: offset, count, stable, data */
	NFS_RAW_COMMIT,
	NFS_RAW_READDIRPLUS,	/* every entry, cookie by cookie */
	NFS_RAW_CREATE,		/* UNCHECKED, mode 0644 (the name's handle
				 * is kept) */
	NFS_RAW_MKDIR,		/* mode 0755 (kept too) */
	NFS_RAW_REMOVE,		/* the name and, for RMDIR, all under it */
	NFS_RAW_RMDIR,		/* are forgotten */
};

/* What a call needs beyond its path, and what it answers. */
struct nfs_raw_io {
	uint32_t access;	/* ACCESS: the ACCESS3 bits asked */
	uint64_t offset;	/* READ, WRITE */
	uint32_t count;		/* READ, WRITE: bytes asked */
	uint32_t stable;	/* WRITE: stable_how (0 UNSTABLE, 1, 2) */
	const void *data;	/* WRITE: count bytes */
	uint32_t done;		/* READ, WRITE: bytes the server moved */
};

/* An empty handle cache under mem_ctx; calls wait at most timeout_ms. */
struct nfs_raw *nfs_raw_new(void *mem_ctx, int timeout_ms);

/* Forget every cached handle (after a rename, or with a new mount). */
void nfs_raw_forget(struct nfs_raw *r);

/* Forget the handles of abs and of every name under it (a tree removed
 * another way). */
void nfs_raw_forget_tree(struct nfs_raw *r, const char *abs);

/*
 * One call on abs (an absolute path on the export, "/a/b"): the NFS3
 * status the server answered (>= 0; a directory on the way not found is
 * that LOOKUP's status), or a negative errno: -ELOOP when a removal's
 * way passes a symlink (nothing sent for the removal: the server would
 * not follow it, and a path through one is refused as fileio refuses
 * it), otherwise the server did not answer (the context must then be
 * abandoned, see nfs_rpc_wait).  LOOKUP, CREATE, MKDIR, REMOVE and RMDIR
 * are sent for the last name, in its directory's handle; the others go
 * to the path's own handle.  Handles come from the cache when the name
 * was met before (by a LOOKUP, CREATE or MKDIR), else from LOOKUPs from
 * the nearest directory known; a cached handle the server calls stale
 * is dropped and the path looked up again once.  io: see nfs_raw_io
 * (NULL for the calls that need nothing).
 */
int nfs_raw_call(struct nfs_raw *r, struct nfs_context *ctx,
		 enum nfs_raw_op op, const char *abs, struct nfs_raw_io *io);

/*
 * Remove abs and everything below it with single calls (READDIRPLUS,
 * REMOVE, RMDIR in the directories' handles), never through a symlink:
 * a symlink is removed itself, a name below one is not reached (the
 * server does not follow it).  "/" empties the root.  A missing name is
 * removed already.  0, an NFS3 status, or a negative errno as
 * nfs_raw_call.
 */
int nfs_raw_remove_tree(struct nfs_raw *r, struct nfs_context *ctx,
			const char *abs);

#endif
