/*
 * vfs_kept.h - the record of the client trees a run kept
 * (--skip-cleanup), read and written through any vfs (vfs.h), so that a
 * backend whose trees are not local files (nfs, smb) keeps the same
 * record as fileio: the file ".dbench-kept" in the directory above the
 * client trees (clients/), one tree name (clientN) a line.  The record is
 * never followed through a symlink (a symlink or anything but a regular
 * file there names nothing and is never written through) and never lies
 * inside a client tree.  See backend.h, ->trees_kept and ->trees_check.
 */
#ifndef DBENCH_VFS_KEPT_H
#define DBENCH_VFS_KEPT_H

#include <stdbool.h>
#include <stddef.h>

#include "vfs.h"

/* The record's name, in the directory above the client trees. */
#define VFS_KEPT_RECORD	".dbench-kept"

/*
 * Is the tree `leaf` (one component) named in the record of the
 * directory dir (relative to the vfs's root; "." for the root)?  False
 * when there is no record, when it is not a regular file or cannot be
 * read.
 */
bool vfs_kept_has(struct vfs *vfs, const char *dir, const char *leaf);

/*
 * ->trees_kept over a vfs: paths[0..n) are client trees in one directory
 * (relative to the vfs's root, "clients/client3").  The record there
 * keeps its entries whose tree is still a real directory (not a
 * symlink); when kept, this run's trees that are real directories are
 * added.  It is rewritten only when that changes it: written to a file
 * of a name of its own, renamed over the record (never written
 * through); none left removes it.  A missing directory holds no tree:
 * 0.  Returns 0 or a negative errno (the record is then unchanged;
 * -ELOOP: the record is a symlink, -EEXIST: something else but a
 * regular file).  Temporary allocations under mem_ctx, freed.
 */
int vfs_kept_update(void *mem_ctx, struct vfs *vfs, const char *const *paths,
		    size_t n, bool kept);

#endif
