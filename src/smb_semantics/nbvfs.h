/*
 * nbvfs.h - the SMB semantics of the NetBench loadfile ops, written once
 * over any vfs (vfs.h).
 *
 * An nbvfs turns each loadfile op (NTCreateX with its dispositions and
 * create options, Close, Rename, FIND_FIRST, ...) into calls on its vfs and
 * answers with the NT status a Windows server would: the name lookup
 * before a path op (with the case-insensitive scan unless the vfs has
 * VFS_CASE_INSENSITIVE or --no-resolve), status disambiguation through
 * the vfs's stat (a missing parent vs a missing leaf), the handle table,
 * wildcard FIND counting, and the options --stat-check, --fake-io,
 * --one-byte-write-fix, -x, -s, -S and -F.
 *
 * A backend over a vfs is then: setup makes the vfs and nbvfs_new() over
 * it and hands the nbvfs out as its state; cleanup is nbvfs_cleanup; the
 * op table is NBVFS_OPS (see src/backends/fileio.c).
 */
#ifndef DBENCH_NBVFS_H
#define DBENCH_NBVFS_H

#include <stdint.h>

#include "loadfile/op_call.h"
#include "util/options.h"
#include "vfs/vfs.h"

/* The attribute Samba keeps DOS attributes in, as dbench 4.00 used it
 * with -x, and the size of the values it reads and writes. */
#define NBVFS_XATTR_NAME	"user.DosAttrib"
#define NBVFS_XATTR_SIZE	44

struct nbvfs;

/*
 * The SMB semantics over vfs for one client with nhandles handle slots
 * (0..nhandles-1).  The nbvfs takes vfs over (it becomes its talloc child
 * and is freed with it, also on failure).  opts may be NULL (all options
 * off).  Returns the nbvfs allocated under mem_ctx, NULL when out of
 * memory.  Freeing it closes every handle, then the vfs.
 */
struct nbvfs *nbvfs_new(void *mem_ctx, struct vfs *vfs,
			const struct dbench_options *opts, uint32_t nhandles);

/*
 * The backend cleanup hook: close every handle, then remove the tree at
 * path (relative to the root; NULL, "" or "." empties the root).  A
 * missing tree is success.  Returns 0 or a negative errno.
 */
int nbvfs_cleanup(void *state, const char *path);

/*
 * FIND_FIRST's count: the entries of pattern's directory (relative to the
 * root) that match its last component, "." and ".." included as a Windows
 * server lists them, stopping at maxcount (<= 0: no limit).  Returns the
 * NT status (call->err set on failure); *count is set on success.
 */
uint32_t nbvfs_find_count(struct nbvfs *nb, struct op_call *call,
			  const char *pattern, int64_t maxcount,
			  uint64_t *count);

/* The vfs below nb (a backend's ops of its own dialect use it). */
struct vfs *nbvfs_vfs(const struct nbvfs *nb);

/* The vfs handle behind an open slot, -1 if the slot is not open. */
int nbvfs_handle_fh(const struct nbvfs *nb, int32_t slot);

/*
 * For another dialect's ops over the same handle table (nbsmb5.c):
 * keep the vfs handle fh in slot (closing what the slot held; a slot out
 * of range closes fh and returns -EBADF, else 0); take the handle out of
 * an open slot (the slot is closed, the caller owns the handle: returns
 * it, or -1 when the slot is not open).  Handles kept are closed by
 * nbvfs_cleanup() and when the nbvfs is freed.
 */
int nbvfs_handle_keep(struct nbvfs *nb, int32_t slot, int fh);
int nbvfs_handle_take(struct nbvfs *nb, int32_t slot);

/* Flags of the client's own for another dialect's ops, 0 at first. */
unsigned *nbvfs_dialect_flags(struct nbvfs *nb);

/* The op functions (state: a struct nbvfs *), one per measured op. */
uint32_t nbvfs_ntcreatex(void *state, struct op_call *call);
uint32_t nbvfs_close(void *state, struct op_call *call);
uint32_t nbvfs_rename(void *state, struct op_call *call);
uint32_t nbvfs_unlink(void *state, struct op_call *call);
uint32_t nbvfs_deltree(void *state, struct op_call *call);
uint32_t nbvfs_rmdir(void *state, struct op_call *call);
uint32_t nbvfs_mkdir(void *state, struct op_call *call);
uint32_t nbvfs_qpathinfo(void *state, struct op_call *call);
uint32_t nbvfs_qfileinfo(void *state, struct op_call *call);
uint32_t nbvfs_qfsinfo(void *state, struct op_call *call);
uint32_t nbvfs_sfileinfo(void *state, struct op_call *call);
uint32_t nbvfs_find(void *state, struct op_call *call);
uint32_t nbvfs_writex(void *state, struct op_call *call);
uint32_t nbvfs_readx(void *state, struct op_call *call);
uint32_t nbvfs_lockx(void *state, struct op_call *call);
uint32_t nbvfs_unlockx(void *state, struct op_call *call);
uint32_t nbvfs_flush(void *state, struct op_call *call);
uint32_t nbvfs_dropcache(void *state, struct op_call *call);

/* The designated initialisers of a backend's ops[] over an nbvfs:
 * `.ops = { NBVFS_OPS },` */
#define NBVFS_OPS \
	[OP_NTCREATEX] = nbvfs_ntcreatex, \
	[OP_CLOSE] = nbvfs_close, \
	[OP_RENAME] = nbvfs_rename, \
	[OP_UNLINK] = nbvfs_unlink, \
	[OP_DELTREE] = nbvfs_deltree, \
	[OP_RMDIR] = nbvfs_rmdir, \
	[OP_MKDIR] = nbvfs_mkdir, \
	[OP_QPATHINFO] = nbvfs_qpathinfo, \
	[OP_QFILEINFO] = nbvfs_qfileinfo, \
	[OP_QFSINFO] = nbvfs_qfsinfo, \
	[OP_SFILEINFO] = nbvfs_sfileinfo, \
	[OP_FIND] = nbvfs_find, \
	[OP_WRITEX] = nbvfs_writex, \
	[OP_READX] = nbvfs_readx, \
	[OP_LOCKX] = nbvfs_lockx, \
	[OP_UNLOCKX] = nbvfs_unlockx, \
	[OP_FLUSH] = nbvfs_flush, \
	[OP_DROPCACHE] = nbvfs_dropcache

#endif
