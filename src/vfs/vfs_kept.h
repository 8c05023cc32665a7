/*
 * vfs_kept.h - the record of the client trees a run kept (--skip-cleanup),
 * read and written over any vfs, so that every backend's ->trees_kept
 * and ->trees_check agree on one format and one place.
 *
 * The record is the file VFS_KEPT_NAME in the directory that holds the
 * client trees (clients/), never inside one: the names of the kept trees
 * (single components, "client3"), one a line.  It is never followed
 * through a symlink (the vfs follows none) and is replaced, not edited:
 * written to a file of a name of its own, then renamed over it.
 */
#ifndef DBENCH_VFS_KEPT_H
#define DBENCH_VFS_KEPT_H

#include <stdbool.h>
#include <stddef.h>

#include "vfs/vfs.h"

#define VFS_KEPT_NAME	".dbench-kept"
/* A larger record is not ours: it is refused (-EEXIST). */
#define VFS_KEPT_MAX	(1 << 20)

/*
 * Is leaf (one component) named in the record of directory dir (relative
 * to the vfs root, "" for the root)?  No record, or one that cannot be
 * read: false.
 */
bool vfs_kept_has(struct vfs *vfs, const char *dir, const char *leaf);

/*
 * The same for a tree named by its path ("clients/client3", relative to
 * the vfs root): is it named in the record of the directory holding it?
 */
bool vfs_kept_has_tree(struct vfs *vfs, const char *path);

/*
 * The work of a backend's ->trees_kept over vfs (see backend.h):
 * paths[0..n) are this run's client trees, relative to the vfs root, all
 * in one directory.  Entries whose tree is no longer a real directory are
 * dropped; when kept, this run's trees that are real directories are
 * added; the record is rewritten only when it changes, and removed when
 * it names none.  A missing directory holds no tree: nothing to do.
 * Returns 0 or a negative errno (the record is then unchanged; -ELOOP:
 * it is a symlink, -EEXIST: it is not a regular file).  Temporary memory
 * goes under mem.
 */
int vfs_kept_update(void *mem, struct vfs *vfs, const char *const *paths,
		    size_t n, bool kept);

#endif
