/*
 * vfs_backend.c - the life of a backend over a vfs that talks to a
 * server (vfs_backend.h): the client's setup, the check and record of
 * the client trees and the shared paths, on every target the options
 * name, through the vfs ops alone.  Linked into the modules of the
 * backends that use it (smb, nfs).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>

#include "smb_semantics/nbvfs.h"
#include "vfs_backend.h"
#include "vfs/vfs_kept.h"

int vfs_backend_setup(const struct vfs_backend *vb, void *mem_ctx,
		      const struct backend_client_config *cfg, void **state,
		      char **err)
{
	struct vfs *vfs = NULL;
	struct nbvfs *nb;

	if (vb->client_vfs(mem_ctx, cfg, &vfs, err) != 0)
		return -1;
	nb = nbvfs_new(mem_ctx, vfs, cfg->opts, cfg->nhandles);
	if (nb == NULL) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return -1;
	}
	*state = nb;
	return 0;
}

int vfs_backend_target_check(const struct vfs_backend *vb, void *mem_ctx,
			     const struct dbench_options *o,
			     const char *target, char **err)
{
	unsigned nt = vb->ntargets(o);

	for (unsigned t = 0; t < nt; t++) {
		struct vfs *vfs = NULL;

		if (vb->connect(mem_ctx, o, t, &vfs, err) != 0)
			return -1;
		talloc_free(vfs);
	}
	return 0;
}

/* Why path may not be a client's tree, or NULL when it may (absent, an
 * empty directory, or one an earlier run kept and recorded); never
 * through a symlink. */
static const char *vfs_backend_tree_why(const struct vfs_backend *vb,
					struct vfs *vfs, const char *path)
{
	struct vfs_dir d = { 0 };
	const char *name = NULL;
	char *mark;
	struct stat sb;
	int r = vb->parents_plain != NULL ? vb->parents_plain(vfs, path) : 0;

	if (r == -ENOENT)
		return NULL;	/* a directory on the way is missing */
	if (r != 0)
		return BACKEND_TREE_BEHIND;
	r = vfs->ops->stat(vfs, path, &sb);
	if (r == -ENOENT)
		return NULL;
	if (r == -ENOTDIR)
		return BACKEND_TREE_BEHIND;
	if (r != 0 || S_ISLNK(sb.st_mode))
		return BACKEND_TREE_SYMLINK;
	if (!S_ISDIR(sb.st_mode))
		return BACKEND_TREE_NOT_DIR;
	if (vfs->ops->opendir(vfs, path, strlen(path), &d) != 0)
		return BACKEND_TREE_NOT_EMPTY;
	while (vfs->ops->readdir(vfs, &d, &name) > 0 &&
	       (strcmp(name, ".") == 0 || strcmp(name, "..") == 0))
		name = NULL;
	vfs->ops->closedir(vfs, &d);
	if (name == NULL || vfs_kept_has_tree(vfs, path))
		return NULL;
	mark = talloc_asprintf(vfs, "%s/%s", path, BACKEND_TREE_OLD_RUN_MARK);
	return mark != NULL && vfs->ops->stat(vfs, mark, &sb) == 0 &&
			       S_ISDIR(sb.st_mode) ?
		       BACKEND_TREE_OLD_RUN : BACKEND_TREE_NOT_EMPTY;
}

int vfs_backend_trees_check(const struct vfs_backend *vb, void *mem_ctx,
			    const struct dbench_options *o,
			    const char *target, const char *const *paths,
			    size_t n, char **err)
{
	unsigned nt = vb->ntargets(o);

	for (unsigned t = 0; t < nt; t++) {
		struct vfs *vfs = NULL;
		const char *why = NULL, *name;
		size_t i;
		int r;

		*err = NULL;
		r = vb->connect(mem_ctx, o, t, &vfs, err);
		if (r != 0 && (*err != NULL || r == -ENOMEM))
			return -1;
		if (r != 0)
			continue;	/* its target check said why */
		for (i = 0; why == NULL && i < n; i++)
			why = vfs_backend_tree_why(vb, vfs, paths[i]);
		talloc_free(vfs);
		if (why == NULL)
			continue;
		name = vb->target_name(mem_ctx, o, t);
		*err = name != NULL ? backend_tree_refusal(mem_ctx, name,
							   paths[i - 1], why) :
				      NULL;
		return -1;
	}
	return 0;
}

int vfs_backend_trees_kept(const struct vfs_backend *vb, void *mem_ctx,
			   const struct dbench_options *o, const char *target,
			   const char *const *paths, size_t n, bool kept)
{
	unsigned nt = vb->ntargets(o);
	int first = 0;

	if (n == 0)
		return 0;
	for (unsigned t = 0; t < nt; t++) {
		struct vfs *vfs = NULL;
		char *err = NULL;
		int r = vb->connect(mem_ctx, o, t, &vfs, &err);

		talloc_free(err);
		if (r == 0)
			r = vfs_kept_update(mem_ctx, vfs, paths, n, kept);
		talloc_free(vfs);
		if (first == 0)
			first = r;
	}
	return first;
}

int vfs_backend_shared_note(const struct vfs_backend *vb, void *mem_ctx,
			    const struct dbench_options *o,
			    const char *target, const char *const *paths,
			    size_t n, bool *existed)
{
	unsigned nt = vb->ntargets(o);
	int first = 0;

	for (size_t i = 0; i < n; i++)
		existed[i] = false;
	for (unsigned t = 0; t < nt; t++) {
		struct vfs *vfs = NULL;
		char *err = NULL;
		int r = vb->connect(mem_ctx, o, t, &vfs, &err);

		for (size_t i = 0; i < n; i++) {
			struct stat sb;

			existed[i] = existed[i] || r != 0 ||
				     vfs->ops->stat(vfs, paths[i], &sb) !=
					     -ENOENT;
		}
		talloc_free(err);
		talloc_free(vfs);
		if (first == 0)
			first = r;
	}
	return first;
}

/*
 * Remove path (a file, or a directory if empty: an rmdir of one that is
 * not fails, so only what is empty now goes, never another's data),
 * never through a symlink on the way.  0, or a negative errno other than
 * those of a path left alone.
 */
static int vfs_backend_remove_one(const struct vfs_backend *vb,
				  struct vfs *vfs, const char *path)
{
	struct stat sb;
	int r;

	if ((vb->parents_plain != NULL && vb->parents_plain(vfs, path) != 0) ||
	    vfs->ops->stat(vfs, path, &sb) != 0)
		return 0;
	r = S_ISDIR(sb.st_mode) ? vfs->ops->rmdir(vfs, path) :
				  vfs->ops->unlink(vfs, path);
	if (r == -ENOENT || r == -ENOTEMPTY || r == -EEXIST || r == -EACCES)
		return 0;
	return r;
}

int vfs_backend_shared_remove(const struct vfs_backend *vb, void *mem_ctx,
			      const struct dbench_options *o,
			      const char *target, const char *const *paths,
			      size_t n)
{
	unsigned nt = vb->ntargets(o);
	int first = 0;

	for (unsigned t = 0; t < nt; t++) {
		struct vfs *vfs = NULL;
		char *err = NULL;
		int r = vb->connect(mem_ctx, o, t, &vfs, &err);

		talloc_free(err);
		for (size_t i = 0; r == 0 && i < n; i++) {
			int ri = vfs_backend_remove_one(vb, vfs, paths[i]);

			if (first == 0)
				first = ri;
		}
		talloc_free(vfs);
		if (first == 0)
			first = r;
	}
	return first;
}
