/*
 * nbvfs_shared.h - what the files of the SMB semantics (nbvfs) share: the
 * instance and its handle table, and the small helpers every op inlines
 * (the name lookup's part is nbvfs_lookup.h).
 *
 * nbvfs.c holds the set-up, the handle table, NTCreateX and the ops that
 * change names (Rename, Unlink, Rmdir, Mkdir); nbvfs_lookup.c the name
 * lookup, the statuses it tells apart, and FIND_FIRST; nbvfs_io.c the ops
 * on an open handle (Close, Flush, ReadX, WriteX, locks); nbvfs_info.c
 * the information ops and -x's attributes; nbvfs_tree.c Deltree.  A
 * helper the ops inline is static inline here, so that splitting the
 * file added no call to any op.
 */
#ifndef DBENCH_NBVFS_SHARED_H
#define DBENCH_NBVFS_SHARED_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "smb_semantics/nbvfs.h"
#include "loadfile/ntstatus.h"
#include "util/util.h"

/* All zero (the table is calloc'ed: untouched slots cost no memory; a
 * loadfile can have tens of thousands) means not open. */
struct nb_handle {
	int fh;
	bool is_dir;
	bool open;
	bool direct;		/* opened with O_DIRECT: I/O through dio_buffer */
};

struct nbvfs {
	struct vfs *vfs;		/* owned (talloc child) */
	const struct dbench_options *opts;
	struct nb_handle *handles;	/* nhandles slots */
	uint32_t nhandles;
	uint32_t nopen;			/* slots open now */
	uint32_t hwm;			/* 1 + highest slot ever opened */
	uint8_t *rbuf;			/* ReadX target */
	size_t rbuf_size;
	uint64_t xattr_writes;		/* attribute values written so far */
	bool scan;			/* look for names in another case */
	bool pre_lookup;		/* look before a path op (nb_pre_lookup) */
	unsigned dialect_flags;		/* nbvfs_dialect_flags() */
};

/* ---- statuses ---- */

static inline uint32_t nb_fail(struct op_call *call, uint32_t status, int err)
{
	call->err = err;
	return status;
}

/* The status for a failed call whose errno says all there is to say. */
static inline uint32_t nb_errno(struct op_call *call, int err)
{
	call->err = err;
	return ntstatus_failure(err);
}

/* The status of a vfs call that returned r (0 or a negative errno). */
static inline uint32_t nb_status(struct op_call *call, int r)
{
	return r < 0 ? nb_errno(call, -r) : NT_STATUS_OK;
}

/* A directory on the way to the path is missing or not a directory. */
static inline uint32_t nb_no_path(struct op_call *call, int err)
{
	return nb_fail(call, NT_STATUS_OBJECT_PATH_NOT_FOUND, err);
}

/* A path as the vfs takes it: the empty path is the root. */
static inline const char *nb_at_path(const char *path)
{
	return (path == NULL || path[0] == '\0') ? "." : path;
}

/* path's directory part: its length (0: the root); *leaf its last
 * component. */
static inline size_t nb_split(const char *path, const char **leaf)
{
	const char *slash = strrchr(path, '/');

	*leaf = slash != NULL ? slash + 1 : path;
	return slash != NULL ? (size_t)(slash - path) : 0;
}

/* The length of the directory part of path (0: the root). */
static inline size_t nb_dir_len(const char *path)
{
	const char *leaf;

	return nb_split(path, &leaf);
}

/* The last component of path. */
static inline const char *nb_leaf(const char *path)
{
	const char *leaf;

	nb_split(path, &leaf);
	return leaf;
}

/* ---- handles ---- */

/* The open handle the op names, or NULL (slot out of range or closed). */
HOT_PATH
static inline struct nb_handle *nb_handle(struct nbvfs *nb,
					  const struct op_call *call)
{
	int32_t slot = call->op != NULL ? call->op->handle : -1;

	if (slot < 0 || (uint32_t)slot >= nb->nhandles ||
	    !nb->handles[slot].open)
		return NULL;
	return &nb->handles[slot];
}

static inline uint32_t nb_bad_handle(struct op_call *call)
{
	return nb_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
}

/* ---- elsewhere ---- */

/* -x's attribute write after an open or a change of times (nbvfs_info.c) */
uint32_t nb_xattr_fd_write(struct nbvfs *nb, struct op_call *call, int fh);
/* Close every open handle (nbvfs.c). */
void nb_close_all(struct nbvfs *nb);

#endif /* DBENCH_NBVFS_SHARED_H */
