/*
 * nfs_vfs.h - the nfs backend's vfs and what its files share (private to
 * src/backends/nfs/): a client's mount (struct nfsv), made by nfs.c,
 * served by nfs_vfs.c (the vfs ops nbvfs calls) and by nfs_dialect.c (the
 * NFSv3 dialect's ops, which use the mount and its caches directly).
 *
 * The calls every op makes (is the mount there, the absolute path, the
 * result that may lose the connection) are static inline here, so that
 * the dialect's ops, in a file of their own, still have them inlined.
 */
#ifndef DBENCH_BACKENDS_NFS_VFS_H
#define DBENCH_BACKENDS_NFS_VFS_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <talloc.h>

#include <nfsc/libnfs.h>

#include "backends/backend.h"
#include "nfs_nlm.h"
#include "nfs_raw.h"
#include "loadfile/ntstatus.h"
#include "util/options.h"
#include "vfs/vfs.h"

/* Times a client tries to mount again after a lost connection
 * (--keep-going), at most one try per NFS_REMOUNT_GAP_NS: a server that
 * restarts within about that many seconds is found again. */
#define NFS_MAX_REMOUNTS	30
#define NFS_REMOUNT_GAP_NS	1000000000ull
/* How long one NFS call may take before it fails (ms). */
#define NFS_TIMEOUT_MS		30000
/* How long a mount (each of its calls: portmapper, mountd, NFS) and the
 * run's bookkeeping before and after the clients wait for the server
 * (s): the check before the run and each client's setup end within it,
 * as tbench's do. */
#define NFS_CONNECT_TIMEOUT_S	10
/* Files the NFSv3 dialect keeps open by name (READ3, WRITE3, COMMIT3). */
#define NFS_FH_CACHE		16

struct nfs_handle {
	struct nfsfh *fh;	/* NULL: slot free */
	char *path;		/* absolute on the export (set_times) */
};

struct nfs_cached {
	char *path;		/* NULL: entry free */
	struct nfsfh *fh;
};

struct nfsv {
	struct vfs vfs;			/* first: a struct vfs * is one of these,
					 * and the talloc object */
	struct nfs_context *ctx;	/* NULL: lost, not mounted again yet */
	const char *url;
	const struct dbench_options *opts;
	struct nfs_nlm *nlm;		/* --enable-nlm; NULL: lost */
	struct nfs_raw *raw;		/* the dialect's handle cache */
	bool want_nlm;			/* --enable-nlm */
	unsigned client;		/* the lock owner's number */
	unsigned remounts;
	uint64_t last_try_ns;		/* CLOCK_MONOTONIC of the last mount try */
	struct nfs_handle *h;
	size_t nh;
	char *abs[2];			/* "/" + path, for the two paths of an op */
	size_t abs_cap[2];
	struct nfs_cached cache[NFS_FH_CACHE];
	unsigned cache_next;
	uint8_t *buf;			/* READ3/WRITE3 data (zeros) */
	size_t buf_size;
};

static inline struct nfsv *nfsv_of(struct vfs *vfs)
{
	return (struct nfsv *)vfs;
}

/*
 * A vfs on url under mem, not mounted yet (->ctx NULL; the caller mounts
 * it and fills in the client's fields): freeing it unmounts.  NULL when
 * out of memory.
 */
struct nfsv *nfsv_new(void *mem, const char *url);

/*
 * A libnfs context mounted on url, or NULL with *err (under mem_ctx):
 * "cannot mount URL: <libnfs's reason>".
 */
struct nfs_context *nfs_connect(void *mem_ctx, const char *url, char **err);

/*
 * The mount lost: mount again (at most NFS_MAX_REMOUNTS tries, one per
 * NFS_REMOUNT_GAP_NS; in between the op fails at once).  0 or a negative
 * errno.
 */
int nfsv_remount(struct nfsv *m);

/* Is m mounted?  After a lost connection, nfsv_remount(). */
static inline int nfsv_ready(struct nfsv *m)
{
	return m->ctx != NULL ? 0 : nfsv_remount(m);
}

/*
 * Let go of a context whose connection failed, without a call on it (see
 * nfs_vfs.c); the next op mounts again.
 */
void nfsv_abandon(struct nfsv *m);

/* A libnfs result r: a lost connection (libnfs says EIO, or a transport
 * errno) abandons the context; the next op mounts again. */
static inline int nfsv_ret(struct nfsv *m, int r)
{
	if (r == -EIO || (r < 0 && ntstatus_fault_class(-r) == FAULT_TRANSPORT))
		nfsv_abandon(m);
	return r;
}

/* "/" + path[0..len) in scratch k ("." and "" are the export's root). */
static inline const char *nfsv_abs(struct nfsv *m, unsigned k,
				   const char *path, size_t len)
{
	if (len == 1 && path[0] == '.')
		len = 0;
	if (len + 2 > m->abs_cap[k]) {
		char *p = talloc_realloc(m, m->abs[k], char, len + 64);

		if (p == NULL)
			return NULL;
		m->abs[k] = p;
		m->abs_cap[k] = len + 64;
	}
	m->abs[k][0] = '/';
	memcpy(m->abs[k] + 1, path, len);
	m->abs[k][len + 1] = '\0';
	return m->abs[k];
}

static inline const char *nfsv_path(struct nfsv *m, unsigned k,
				    const char *path)
{
	return nfsv_abs(m, k, path, strlen(path));
}

/*
 * Does every directory on the way to path's last component exist as a
 * directory, not a symlink?  0, or -ELOOP (a symlink on the way) or the
 * lookup's errno.  Removals check this: libnfs would follow the link.
 */
int nfsv_parents_plain(struct nfsv *m, const char *path);

/*
 * One NLM call of m's lock owner on the open file fh: the NLM4 status
 * (>= 0), or a negative errno (the connection is lost: the mount goes
 * too, and the next op makes both again).
 */
static inline int nfsv_nlm_call(struct nfsv *m, enum nfs_nlm_call what,
				struct nfsfh *fh, int64_t off, int64_t len)
{
	int r;

	if (off < 0 || len < 0)
		return -EINVAL;
	r = m->nlm != NULL ? nfs_nlm_call(m->nlm, what, fh, (uint64_t)off,
					  (uint64_t)len) :
			     -ENOTCONN;
	return r < 0 ? nfsv_ret(m, r) : r;
}

/* Set the access and modification times of the file at abs to now. */
static inline int nfsv_touch(struct nfsv *m, const char *abs)
{
	struct timeval tv[2];

	gettimeofday(&tv[0], NULL);
	tv[1] = tv[0];
	return nfsv_ret(m, nfs_utimes(m->ctx, abs, tv));
}

/* The dialect's ops and the client's cleanup (nfs_dialect.c; state: the
 * client's nbvfs). */
uint32_t nfs3_op(void *state, struct op_call *call);
uint32_t nfs_deltree(void *state, struct op_call *call);
int nfs_cleanup(void *state, const char *path);

#endif
