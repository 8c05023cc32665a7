/*
 * vfs_backend.h - the life of a backend over a vfs that talks to a
 * server (smb, nfs): private to src/backends/.
 *
 * Each client of such a backend runs the SMB semantics (nbvfs) over a vfs
 * of its own; the run's bookkeeping (the check and the record of the
 * client trees, the shared paths above them) is done over a vfs of the
 * same kind on every target the options name (the share; each --nfs
 * export), through the vfs ops alone.  The backend says how to reach a
 * target and how to make a client's vfs (struct vfs_backend); this module
 * does the rest, and VFS_BACKEND_HOOKS() defines the backend's hooks
 * that call it.
 */
#ifndef DBENCH_BACKENDS_VFS_BACKEND_H
#define DBENCH_BACKENDS_VFS_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "backends/backend.h"
#include "util/options.h"
#include "vfs/vfs.h"

struct vfs_backend {
	/* How many targets o names (its options are done: at least 1). */
	unsigned (*ntargets)(const struct dbench_options *o);

	/* Target t's name in a refusal ("//SERVER/SHARE", an NFS URL),
	 * under mem or o's; NULL when out of memory. */
	const char *(*target_name)(void *mem, const struct dbench_options *o,
				   unsigned t);

	/*
	 * A vfs on target t for the run's own bookkeeping (before or after
	 * the clients), under mem: a talloc object whose freeing
	 * disconnects.  Returns 0 with *vfs set, or a negative errno with
	 * *err NULL or one line (under mem) saying why.  A target that
	 * cannot be reached and says nothing (*err NULL, the errno not
	 * -ENOMEM) is one whose target check spoke already: its trees are
	 * not checked.
	 */
	int (*connect)(void *mem, const struct dbench_options *o, unsigned t,
		       struct vfs **vfs, char **err);

	/* One client's vfs, connected, under mem.  0, or -1 with *err (one
	 * line under mem). */
	int (*client_vfs)(void *mem, const struct backend_client_config *cfg,
			  struct vfs **vfs, char **err);

	/*
	 * Optional (NULL: the server resolves paths itself and follows no
	 * symlink of ours): 0 when every directory on the way to path's last
	 * component is a directory, not a symlink that the vfs's path calls
	 * would follow; -ENOENT when one is missing; another negative errno
	 * otherwise (-ELOOP: a symlink, -ENOTDIR: a file).
	 */
	int (*parents_plain)(struct vfs *vfs, const char *path);
};

/* ->setup: the client's vfs (->client_vfs) under nbvfs. */
int vfs_backend_setup(const struct vfs_backend *vb, void *mem_ctx,
		      const struct backend_client_config *cfg, void **state,
		      char **err);

/* ->target_check: every target is connected to once; the first that
 * cannot be is the error. */
int vfs_backend_target_check(const struct vfs_backend *vb, void *mem_ctx,
			     const struct dbench_options *o,
			     const char *target, char **err);

/* ->trees_check on every target (a client's tree is on target id mod
 * ntargets: check them all). */
int vfs_backend_trees_check(const struct vfs_backend *vb, void *mem_ctx,
			    const struct dbench_options *o,
			    const char *target, const char *const *paths,
			    size_t n, char **err);

/* ->trees_kept on every target (vfs_kept.h): each records the trees that
 * are on it.  The first failure is returned; the other targets are still
 * updated. */
int vfs_backend_trees_kept(const struct vfs_backend *vb, void *mem_ctx,
			   const struct dbench_options *o, const char *target,
			   const char *const *paths, size_t n, bool kept);

/* ->shared_note over every target: existed[i] when paths[i] exists on
 * any of them (or that cannot be told), so that ->shared_remove leaves it
 * alone everywhere. */
int vfs_backend_shared_note(const struct vfs_backend *vb, void *mem_ctx,
			    const struct dbench_options *o,
			    const char *target, const char *const *paths,
			    size_t n, bool *existed);

/* ->shared_remove on every target. */
int vfs_backend_shared_remove(const struct vfs_backend *vb, void *mem_ctx,
			      const struct dbench_options *o,
			      const char *target, const char *const *paths,
			      size_t n);

/*
 * Defines the hooks PREFIX_setup, PREFIX_trees_check, PREFIX_trees_kept,
 * PREFIX_shared_note and PREFIX_shared_remove (static, for the backend's
 * struct) as calls of the functions above with vb.
 */
#define VFS_BACKEND_HOOKS(prefix, vb)                                        \
	static int prefix##_setup(void *mem_ctx,                             \
				  const struct backend_client_config *cfg,   \
				  void **state, char **err)                  \
	{                                                                    \
		return vfs_backend_setup((vb), mem_ctx, cfg, state, err);    \
	}                                                                    \
	static int prefix##_trees_check(void *mem_ctx,                       \
					const struct dbench_options *o,      \
					const char *target,                  \
					const char *const *paths, size_t n,  \
					char **err)                          \
	{                                                                    \
		return vfs_backend_trees_check((vb), mem_ctx, o, target,     \
					       paths, n, err);               \
	}                                                                    \
	static int prefix##_trees_kept(void *mem_ctx,                        \
				       const struct dbench_options *o,       \
				       const char *target,                   \
				       const char *const *paths, size_t n,   \
				       bool kept)                            \
	{                                                                    \
		return vfs_backend_trees_kept((vb), mem_ctx, o, target,      \
					      paths, n, kept);               \
	}                                                                    \
	static int prefix##_shared_note(void *mem_ctx,                       \
					const struct dbench_options *o,      \
					const char *target,                  \
					const char *const *paths, size_t n,  \
					bool *existed)                       \
	{                                                                    \
		return vfs_backend_shared_note((vb), mem_ctx, o, target,     \
					       paths, n, existed);           \
	}                                                                    \
	static int prefix##_shared_remove(void *mem_ctx,                     \
					  const struct dbench_options *o,    \
					  const char *target,                \
					  const char *const *paths,          \
					  size_t n)                          \
	{                                                                    \
		return vfs_backend_shared_remove((vb), mem_ctx, o, target,   \
						 paths, n);                  \
	}

#endif
