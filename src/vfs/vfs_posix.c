/*
 * vfs_posix.c - the POSIX vfs: a local directory through the *at() calls.
 *
 * The root directory is opened once and every path is resolved relative
 * to that descriptor, so a client never depends on the working directory
 * and never builds long path strings.  Handles are the fds themselves.
 * No path leaves the root through a symlink (vfs_posix_path.c).
 *
 * Each op makes the system calls dbench 4.00 makes for it (bench/
 * syscalls.sh compares them call for call): the kept directory descriptors
 * (vfs_posix_path.c) turn a call on a full path into one *at() call on
 * (kept parent, last component).
 *
 * This file holds the ops table, the instance and the ops on paths and
 * handles; directories and tree removal are in vfs_posix_dir.c.  Direct
 * I/O needs aligned memory: dio_buffer hands out a buffer from
 * posix_memalign.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef HAVE_SYS_XATTR_H
#include <sys/xattr.h>
#endif

#include <talloc.h>

#include "util/util.h"
#include "vfs/vfs.h"
#include "vfs_posix_shared.h"

/* Alignment of the direct I/O buffer: a page, which is at least the
 * memory alignment any Linux filesystem asks for (STATX_DIOALIGN). */
#define VP_DIO_ALIGN	4096u

/* ---- the ops on paths ---- */

HOT_PATH
static int vp_open(struct vfs *vfs, const char *path, int flags, mode_t mode)
{
	const char *leaf;
	int pfd = vp_parent(vp_of(vfs), path, &leaf);

	if (pfd < 0)
		return -errno;
	return vp_ret(openat(pfd, leaf[0] != '\0' ? leaf : ".",
			     flags | O_NOFOLLOW | O_CLOEXEC, mode));
}

HOT_PATH
static int vp_stat(struct vfs *vfs, const char *path, struct stat *sb)
{
	const char *leaf;
	int pfd = vp_parent(vp_of(vfs), path, &leaf);

	if (pfd < 0)
		return -errno;
	return vp_ret(fstatat(pfd, leaf, sb, AT_SYMLINK_NOFOLLOW));
}

static int vp_mkdir(struct vfs *vfs, const char *path, mode_t mode)
{
	const char *leaf;
	int pfd = vp_parent(vp_of(vfs), path, &leaf);

	return pfd < 0 ? -errno : vp_ret(mkdirat(pfd, leaf, mode));
}

static int vp_unlinkat(struct vfs_posix *vp, const char *path, int flags)
{
	const char *leaf;
	int pfd = vp_parent(vp, path, &leaf);

	return pfd < 0 ? -errno : vp_ret(unlinkat(pfd, leaf, flags));
}

HOT_PATH
static int vp_unlink(struct vfs *vfs, const char *path)
{
	return vp_unlinkat(vp_of(vfs), path, 0);
}

static int vp_rmdir(struct vfs *vfs, const char *path)
{
	int r = vp_unlinkat(vp_of(vfs), path, AT_REMOVEDIR);

	if (r == 0)
		vp_dircache_flush(vp_of(vfs));	/* it may have been kept */
	return r;
}

HOT_PATH
static int vp_rename(struct vfs *vfs, const char *from, const char *to,
		     unsigned flags)
{
	struct vfs_posix *vp = vp_of(vfs);
	const char *from_leaf, *to_leaf;
	int from_fd, to_fd;

	from_fd = vp_parent(vp, from, &from_leaf);
	if (from_fd < 0)
		return -errno;
	/* the second lookup cannot evict the first: it was just used */
	to_fd = vp_parent(vp, to, &to_leaf);
	if (to_fd < 0)
		return -errno;
	if (renameat(from_fd, from_leaf, to_fd, to_leaf) != 0)
		return -errno;
	/* a directory moved: kept descriptors may name the wrong place */
	if (flags & VFS_RENAME_DIR)
		vp_dircache_flush(vp);
	return 0;
}

HOT_PATH
static int vp_statfs(struct vfs *vfs)
{
	struct statvfs sv;

	return vp_ret(fstatvfs(vp_of(vfs)->dirfd, &sv));
}

/* ---- the ops on handles ---- */

HOT_PATH
static int vp_close(struct vfs *vfs, int fh)
{
	(void)vfs;
	/* the fd is gone whatever close() says; EINTR is not a failure */
	if (close(fh) != 0 && errno != EINTR)
		return -errno;
	return 0;
}

HOT_PATH
static int vp_fstat(struct vfs *vfs, int fh, struct stat *sb)
{
	(void)vfs;
	return vp_ret(fstat(fh, sb));
}

HOT_PATH
static ssize_t vp_pread(struct vfs *vfs, int fh, void *buf, size_t n,
			off_t off)
{
	ssize_t r;

	(void)vfs;
	r = pread(fh, buf, n, off);
	return r < 0 ? -errno : r;
}

HOT_PATH
static ssize_t vp_pwrite(struct vfs *vfs, int fh, const void *buf, size_t n,
			 off_t off)
{
	ssize_t r;

	(void)vfs;
	r = pwrite(fh, buf, n, off);
	return r < 0 ? -errno : r;
}

static int vp_fsync(struct vfs *vfs, int fh)
{
	(void)vfs;
	return vp_ret(fsync(fh));
}

static int vp_ftruncate(struct vfs *vfs, int fh, off_t size)
{
	(void)vfs;
	return vp_ret(ftruncate(fh, size));
}

/* An fcntl record lock (F_WRLCK or F_UNLCK) on [off, off + len). */
static int vp_setlk(int fh, short type, off_t off, off_t len)
{
	struct flock fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = off;
	fl.l_len = len;
	return vp_ret(fcntl(fh, F_SETLK, &fl));
}

static int vp_lock(struct vfs *vfs, int fh, off_t off, off_t len)
{
	(void)vfs;
	return vp_setlk(fh, F_WRLCK, off, len);
}

static int vp_unlock(struct vfs *vfs, int fh, off_t off, off_t len)
{
	(void)vfs;
	return vp_setlk(fh, F_UNLCK, off, len);
}

HOT_PATH
static int vp_set_times(struct vfs *vfs, int fh)
{
	(void)vfs;
	return vp_ret(futimens(fh, NULL));
}

/*
 * Write the dirty pages out, then ask the kernel to drop the cached ones.
 * Needs no privilege and touches no other file.  The kernel may keep
 * pages it cannot drop (tmpfs keeps them all); that is not a failure.
 */
static int vp_drop_cache(struct vfs *vfs, int fh)
{
	(void)vfs;
	if (fdatasync(fh) != 0)
		return -errno;
	return -posix_fadvise(fh, 0, 0, POSIX_FADV_DONTNEED);
}

static void *vp_dio_buffer(struct vfs *vfs, size_t n)
{
	struct vfs_posix *vp = vp_of(vfs);
	void *p = NULL;

	if (vp->dbuf_size >= n)
		return vp->dbuf;
	if (posix_memalign(&p, VP_DIO_ALIGN, n) != 0)
		return NULL;
	free(vp->dbuf);
	vp->dbuf = p;
	vp->dbuf_size = n;
	return p;
}

/* ---- extended attributes ---- */

#ifdef HAVE_SYS_XATTR_H
static ssize_t vp_fgetxattr(struct vfs *vfs, int fh, const char *name,
			    void *buf, size_t n)
{
	ssize_t r;

	(void)vfs;
	r = fgetxattr(fh, name, buf, n);
	return r < 0 ? -errno : r;
}

/*
 * There is no getxattrat(): name the last component through the parent's
 * fd, which was reached without following a symlink (the l-call does not
 * follow the last component either).
 */
static ssize_t vp_getxattr(struct vfs *vfs, const char *path,
			   const char *name, void *buf, size_t n)
{
	struct vfs_posix *vp = vp_of(vfs);
	const char *leaf;
	char *full;
	ssize_t r;
	int pfd;

	pfd = vp_parent(vp, path, &leaf);
	if (pfd < 0)
		return -errno;
	if (pfd == vp->dirfd)
		full = talloc_asprintf(vp, "%s/%s", vp->dirpath, leaf);
	else
		full = talloc_asprintf(vp, "/proc/self/fd/%d/%s", pfd, leaf);
	if (full == NULL)
		return -ENOMEM;
	r = lgetxattr(full, name, buf, n);
	if (r < 0)
		r = -errno;
	talloc_free(full);
	return r;
}

static int vp_fsetxattr(struct vfs *vfs, int fh, const char *name,
			const void *buf, size_t n)
{
	(void)vfs;
	return vp_ret(fsetxattr(fh, name, buf, n, 0));
}
#endif /* HAVE_SYS_XATTR_H */

/* ---- the instance ---- */

static const struct vfs_ops vfs_posix_ops = {
	.open = vp_open,
	.close = vp_close,
	.stat = vp_stat,
	.fstat = vp_fstat,
	.mkdir = vp_mkdir,
	.rmdir = vp_rmdir,
	.unlink = vp_unlink,
	.rename = vp_rename,
	.opendir = vp_opendir,
	.readdir = vp_readdir,
	.readdir_many = vp_readdir_many,
	.readdir_find = vp_readdir_find,
	.closedir = vp_closedir,
	.pread = vp_pread,
	.pwrite = vp_pwrite,
	.fsync = vp_fsync,
	.ftruncate = vp_ftruncate,
	.lock = vp_lock,
	.unlock = vp_unlock,
	.statfs = vp_statfs,
	.set_times = vp_set_times,
#ifdef HAVE_SYS_XATTR_H
	.fgetxattr = vp_fgetxattr,
	.getxattr = vp_getxattr,
	.fsetxattr = vp_fsetxattr,
#endif
	.dio_buffer = vp_dio_buffer,
	.remove_tree = vp_remove_tree,
	.drop_cache = vp_drop_cache,
};

static int vp_destructor(struct vfs_posix *vp)
{
	vp_dircache_flush(vp);
	free(vp->dbuf);
	vp->dbuf = NULL;
	if (vp->dirfd >= 0) {
		close(vp->dirfd);
		vp->dirfd = -1;
	}
	return 0;
}

/* The message for a failed set-up, then NULL. */
static struct vfs *vp_fail(void *mem_ctx, struct vfs_posix *vp,
			   const char *directory, int err, char **errp)
{
	talloc_free(vp);
	*errp = talloc_asprintf(mem_ctx, "%s: %s", directory,
				err == ENOMEM ? "out of memory" :
						strerror(err));
	return NULL;
}

struct vfs *vfs_posix_new(void *mem_ctx, const char *directory,
			  unsigned flags, char **err)
{
	struct vfs_posix *vp = talloc_zero(mem_ctx, struct vfs_posix);

	if (vp == NULL)
		return vp_fail(mem_ctx, vp, directory, ENOMEM, err);
	vp->vfs.ops = &vfs_posix_ops;
	vp->vfs.caps = VFS_DIRECT_IO;
#ifdef HAVE_SYS_XATTR_H
	vp->vfs.caps |= VFS_XATTR;
#endif
	vp->dirfd = -1;
	{
		/* (talloc aligns to 16 bytes: the entries want 64) */
		size_t n = VP_DIRCACHE * sizeof(struct vp_dircache);
		char *m = talloc_zero_size(vp, n + 63);

		if (m == NULL)
			return vp_fail(mem_ctx, vp, directory, ENOMEM, err);
		vp->dircache = (struct vp_dircache *)(void *)
			(m + ((64 - (uintptr_t)m % 64) % 64));
	}
	for (unsigned i = 0; i < VP_DIRCACHE; i++)
		vp->dircache[i].fd = -1;
	vp->walk.ctx = vp;
	talloc_set_destructor(vp, vp_destructor);

	vp->dirfd = open(directory, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (vp->dirfd < 0)
		return vp_fail(mem_ctx, vp, directory, errno, err);
	if (flags & VFS_POSIX_XATTR_PATHS) {
		/* getxattr by name needs a path, see vp_getxattr() */
		char *real = realpath(directory, NULL);

		if (real == NULL)
			return vp_fail(mem_ctx, vp, directory, errno, err);
		vp->dirpath = talloc_strdup(vp, real);
		free(real);
		if (vp->dirpath == NULL)
			return vp_fail(mem_ctx, vp, directory, ENOMEM, err);
	}
	return &vp->vfs;
}

unsigned vfs_posix_fds_per_client(void)
{
	/* the root, the kept directories, one directory being read (or the
	 * parent -S opens to flush it) */
	return 1 + VP_DIRCACHE + 1;
}
