/*
 * fileio.c - the local filesystem backend: the SMB semantics (nbvfs) over
 * the POSIX vfs of the client's directory.
 *
 * Everything a loadfile op means is in src/smb_semantics/ (nbvfs*.c); every system call
 * is in src/vfs/ (vfs_posix*.c).  This file only puts the two together.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/backends.h"
#include "smb_semantics/nbsmb5.h"
#include "smb_semantics/nbvfs.h"
#include "util/util.h"
#include "vfs/vfs.h"
#include "vfs/vfs_kept.h"

static int fileio_setup(void *mem_ctx, const struct backend_client_config *cfg,
			void **state, char **err)
{
	bool xattr = cfg->opts != NULL && cfg->opts->xattr;
	struct vfs *vfs;
	struct nbvfs *nb;

	vfs = vfs_posix_new(mem_ctx, cfg->directory,
			    xattr ? VFS_POSIX_XATTR_PATHS : 0, err);
	if (vfs == NULL)
		return -1;
	vfs->hint = cfg->hint;
	nb = nbvfs_new(mem_ctx, vfs, cfg->opts, cfg->nhandles);
	if (nb == NULL) {
		*err = talloc_asprintf(mem_ctx, "%s: out of memory",
				       cfg->directory);
		return -1;
	}
	*state = nb;
	return 0;
}

/* ---- backend hooks: target, descriptors, shared paths ---- */

/*
 * Descriptors one op opens for a moment beside the kept ones: a parent
 * or a directory being read, and the two of a component-by-component
 * walk where the kernel has no openat2.
 */
#define FILEIO_TRANSIENT_FDS	4

/*
 * The client directory, the kept directories (at most VFS_POSIX_DIRCACHE,
 * one per distinct directory the loadfile names), every open handle and
 * what one op opens for a moment.
 */
static uint64_t fileio_client_fds(const struct dbench_options *o,
				  uint32_t max_open_handles, uint32_t max_dirs)
{
	uint32_t kept = max_dirs < VFS_POSIX_DIRCACHE ? max_dirs :
						  VFS_POSIX_DIRCACHE;

	(void)o;
	return 1 + (uint64_t)kept + max_open_handles + FILEIO_TRANSIENT_FDS;
}

/*
 * Is the directory leaf (in pfd) empty?  1 yes, 0 no, or a negative
 * errno; a symlink is not followed (ELOOP).
 */
static int fileio_dir_empty(int pfd, const char *leaf)
{
	int fd = openat(pfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					   O_CLOEXEC);
	struct dirent *de;
	int empty = 1;
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return -ENOMEM;
	}
	while (empty == 1 && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			empty = 0;
	closedir(d);
	return empty;
}

/* ---- the record of the trees a run kept (--skip-cleanup) ---- */

/* The record (vfs_kept.h) over a POSIX vfs on target. */
static int fileio_trees_kept(void *mem_ctx, const struct dbench_options *o,
			     const char *target, const char *const *paths,
			     size_t n, bool kept)
{
	char *err = NULL;
	struct vfs *vfs;
	int r;

	(void)o;
	if (n == 0)
		return 0;
	vfs = vfs_posix_new(mem_ctx, target, 0, &err);
	if (vfs == NULL) {
		talloc_free(err);
		return -ENOENT;
	}
	r = vfs_kept_update(mem_ctx, vfs, paths, n, kept);
	talloc_free(vfs);
	return r;
}

/* Does the directory leaf (in pfd) hold client.txt's top directory? */
static bool fileio_has_mark(int pfd, const char *leaf)
{
	int dfd = openat(pfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					    O_CLOEXEC);
	struct stat sb;
	bool has;

	if (dfd < 0)
		return false;
	has = fstatat(dfd, BACKEND_TREE_OLD_RUN_MARK, &sb,
		      AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(sb.st_mode);
	close(dfd);
	return has;
}

/*
 * Look at one client tree: 0 with *why NULL when the run may use it
 * (absent, an empty directory, or a directory an earlier run kept and
 * named in the record), 0 with *why saying what is there, or an errno.
 */
static int fileio_tree_state(struct vfs *vfs, int dfd, const char *path,
			     const char **why)
{
	const char *leaf;
	struct stat sb;
	int pfd, r = 0;

	*why = NULL;
	pfd = util_open_parent_nofollow(dfd, path, &leaf);
	if (pfd < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			*why = BACKEND_TREE_BEHIND;
		return errno == ENOENT || *why != NULL ? 0 : errno;
	}
	if (fstatat(pfd, leaf, &sb, AT_SYMLINK_NOFOLLOW) != 0)
		r = errno == ENOENT ? 0 : errno;
	else if (S_ISLNK(sb.st_mode))
		*why = BACKEND_TREE_SYMLINK;
	else if (!S_ISDIR(sb.st_mode))
		*why = BACKEND_TREE_NOT_DIR;
	else if ((r = fileio_dir_empty(pfd, leaf)) == 0 &&
		 !vfs_kept_has_tree(vfs, path))
		*why = fileio_has_mark(pfd, leaf) ? BACKEND_TREE_OLD_RUN :
						    BACKEND_TREE_NOT_EMPTY;
	close(pfd);
	return r < 0 ? -r : 0;
}

static int fileio_trees_check(void *mem_ctx, const struct dbench_options *o,
			      const char *target, const char *const *paths,
			      size_t n, char **err)
{
	int dfd = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	const char *why = NULL;
	struct vfs *vfs;
	size_t i;
	int e = 0;

	(void)o;
	if (dfd < 0) {
		*err = talloc_asprintf(mem_ctx, "directory '%s': %s", target,
				       strerror(errno));
		return -1;
	}
	vfs = vfs_posix_new(mem_ctx, target, 0, err);
	if (vfs == NULL) {
		close(dfd);
		return -1;
	}
	for (i = 0; i < n && e == 0 && why == NULL; i++)
		e = fileio_tree_state(vfs, dfd, paths[i], &why);
	talloc_free(vfs);
	close(dfd);
	if (e == 0 && why == NULL)
		return 0;
	*err = e != 0 ? talloc_asprintf(mem_ctx, "%s/%s: cannot tell whether "
					"it is new: %s", target, paths[i - 1],
					strerror(e)) :
			backend_tree_refusal(mem_ctx, target, paths[i - 1],
					     why);
	return -1;
}

static int fileio_shared_note(void *mem_ctx, const struct dbench_options *o,
			      const char *target, const char *const *paths,
			      size_t n, bool *existed)
{
	(void)o;
	for (size_t i = 0; i < n; i++) {
		char *full = talloc_asprintf(mem_ctx, "%s/%s", target,
					     paths[i]);
		struct stat sb;

		existed[i] = full == NULL || lstat(full, &sb) == 0;
		talloc_free(full);
	}
	return 0;
}

static int fileio_shared_remove(void *mem_ctx, const struct dbench_options *o,
				const char *target, const char *const *paths,
				size_t n)
{
	int dfd = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	(void)mem_ctx;
	(void)o;
	if (dfd < 0)
		return -errno;
	for (size_t i = 0; i < n; i++) {
		const char *leaf;
		struct stat sb;
		int pfd;

		/* a symlink on the way (planted during the run) makes this
		 * fail: nothing behind it is removed */
		pfd = util_open_parent_nofollow(dfd, paths[i], &leaf);
		if (pfd < 0)
			continue;
		/* only what is empty now: never another's data */
		if (fstatat(pfd, leaf, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		    unlinkat(pfd, leaf,
			     S_ISDIR(sb.st_mode) ? AT_REMOVEDIR : 0) != 0 &&
		    errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST &&
		    ret == 0)
			ret = -errno;
		close(pfd);
	}
	close(dfd);
	return ret;
}

const struct backend fileio_backend = {
	.abi = BACKEND_ABI,
	.name = "fileio",
	.description = "local filesystem through POSIX calls",
	.unavailable = NULL,
	.flags = BACKEND_LOCAL_FS,
	.target_check = backend_dir_target_check,
	.client_fds = fileio_client_fds,
	.trees_check = fileio_trees_check,
	.trees_kept = fileio_trees_kept,
	.shared_note = fileio_shared_note,
	.shared_remove = fileio_shared_remove,
	.setup = fileio_setup,
	.cleanup = nbvfs_cleanup,
	.ops = { NBVFS_OPS, NBSMB5_OPS },
};
