/*
 * vfs.h - a POSIX-like file store under one root: the layer below the SMB
 * semantics (nbvfs.h).
 *
 * A vfs instance is made per client for one root (for the POSIX vfs, the
 * client's -D directory) and is a talloc object: freeing it closes every
 * handle and directory it still holds.  Paths are relative to the root,
 * '/'-separated, never start with '/'; "." is the root itself.  A vfs
 * never follows a symlink and never leaves its root.
 *
 * Every call returns 0 (or a count, or a handle) on success and a
 * negative errno on failure; errno itself is not part of the contract.
 * File handles are small non-negative ints chosen by the vfs (the POSIX
 * vfs hands out its fds).  Optional ops may be NULL; the capability
 * flags say what the layer above may rely on.
 */
#ifndef DBENCH_VFS_H
#define DBENCH_VFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Capabilities (struct vfs.caps). */
enum vfs_caps {
	/* the store already matches names case-insensitively (an SMB
	 * server): the layer above does not scan directories for a name
	 * in another case */
	VFS_CASE_INSENSITIVE = 1u << 0,
	/* extended attributes: fgetxattr, getxattr and fsetxattr are set */
	VFS_XATTR = 1u << 1,
	/* O_DIRECT opens work and dio_buffer is set: transfers on such
	 * handles must go through that buffer */
	VFS_DIRECT_IO = 1u << 2,
	/* the store is a server that looks each name up itself and answers
	 * an open with the file's attributes (SMB): the layer above makes
	 * no lookup of its own before a path op and no fstat after an
	 * open, and looks only after a failure, to word it */
	VFS_SERVER_LOOKUP = 1u << 3,
};

/* rename() hint: the source may be a directory, so that cached
 * resolutions of paths below it are no longer valid. */
#define VFS_RENAME_DIR	1u

/* An open directory; opendir fills it, the caller keeps it (no
 * allocation per listing). The fields are the vfs's own. */
struct vfs_dir {
	intptr_t h;
	size_t pos, end;
	void *p;
};

/*
 * strcasecmp(a, b) == 0 in the C locale dbench runs in (ASCII letters
 * fold), inline: a directory scan compares every entry, and nearly
 * every one differs in its first bytes.
 */
static inline bool vfs_same_name_folded(const char *a, const char *b)
{
	for (;; a++, b++) {
		unsigned char x = (unsigned char)*a, y = (unsigned char)*b;

		if (x == y) {
			if (x == '\0')
				return true;
			continue;
		}
		x |= 0x20;
		if ((x ^ y) & ~0x20u || x < 'a' || x > 'z')
			return false;
	}
}

struct vfs;

struct vfs_ops {
	/* open(2) with POSIX flags (O_RDWR, O_CREAT, O_EXCL, O_TRUNC,
	 * O_DIRECTORY, O_SYNC, O_DSYNC, O_DIRECT); the vfs adds what keeps
	 * it confined (no symlink followed).  Returns a handle >= 0. */
	int (*open)(struct vfs *vfs, const char *path, int flags, mode_t mode);
	/* The handle is gone whatever the result (-EINTR is not a failure). */
	int (*close)(struct vfs *vfs, int fh);
	/* lstat(2): a final symlink is described, not followed. */
	int (*stat)(struct vfs *vfs, const char *path, struct stat *sb);
	int (*fstat)(struct vfs *vfs, int fh, struct stat *sb);
	int (*mkdir)(struct vfs *vfs, const char *path, mode_t mode);
	int (*rmdir)(struct vfs *vfs, const char *path);
	int (*unlink)(struct vfs *vfs, const char *path);
	/* rename(2); flags: VFS_RENAME_DIR or 0. */
	int (*rename)(struct vfs *vfs, const char *from, const char *to,
		      unsigned flags);
	/*
	 * Open the directory path[0..len) (len 0: the root) for reading.
	 * Returns 0, or 1 when a resolution the vfs had cached turned out
	 * stale (the directory was removed and made again by someone else):
	 * lookups made before under that directory deserve another try.
	 */
	int (*opendir)(struct vfs *vfs, const char *path, size_t len,
		       struct vfs_dir *d);
	/* Next name ("." and ".." included) in *name, valid until the next
	 * call: 1, 0 at the end, or a negative errno. */
	int (*readdir)(struct vfs *vfs, struct vfs_dir *d, const char **name);
	void (*closedir)(struct vfs *vfs, struct vfs_dir *d);
	/* pread(2)/pwrite(2): bytes transferred (may be short), or -errno
	 * (-EINTR: nothing was transferred, try again). */
	ssize_t (*pread)(struct vfs *vfs, int fh, void *buf, size_t n,
			 off_t off);
	ssize_t (*pwrite)(struct vfs *vfs, int fh, const void *buf, size_t n,
			  off_t off);
	int (*fsync)(struct vfs *vfs, int fh);
	int (*ftruncate)(struct vfs *vfs, int fh, off_t size);
	/* A write lock on [off, off + len) (len > 0), not waiting:
	 * -EAGAIN or -EACCES when another owner holds a conflicting one. */
	int (*lock)(struct vfs *vfs, int fh, off_t off, off_t len);
	int (*unlock)(struct vfs *vfs, int fh, off_t off, off_t len);
	/* statvfs of the store (the answer itself is not needed). */
	int (*statfs)(struct vfs *vfs);
	/* Set the file's access and modification times to now. */
	int (*set_times)(struct vfs *vfs, int fh);

	/* ---- optional (NULL: not supported) ---- */
	/* Extended attributes (VFS_XATTR); getxattr names a path and does
	 * not follow a final symlink.  Return the value's size. */
	ssize_t (*fgetxattr)(struct vfs *vfs, int fh, const char *name,
			     void *buf, size_t n);
	ssize_t (*getxattr)(struct vfs *vfs, const char *path,
			    const char *name, void *buf, size_t n);
	int (*fsetxattr)(struct vfs *vfs, int fh, const char *name,
			 const void *buf, size_t n);
	/* VFS_DIRECT_IO: a buffer of at least n bytes aligned for direct
	 * transfers, owned by the vfs and valid until the next call; NULL
	 * when out of memory. */
	void *(*dio_buffer)(struct vfs *vfs, size_t n);
	/* Remove path and everything below it, never following a symlink;
	 * "." empties the root.  A missing path is success.  NULL: the layer
	 * above walks the tree with the calls above. */
	int (*remove_tree)(struct vfs *vfs, const char *path);
	/* Write the file's dirty data out and drop it from any cache, so
	 * that the next read reaches the device.  NULL: nothing is cached. */
	int (*drop_cache)(struct vfs *vfs, int fh);
	/* readdir's next names, up to max at once, into names (valid until
	 * the next call on d) and, unless lens is NULL, their lengths into
	 * lens: how many, 0 at the end, or a negative errno.  The store is
	 * read no more than readdir would read it for the same names (a
	 * refill only when none is left), so a caller that stops early
	 * makes the calls readdir would have made.  NULL: the layer above
	 * calls readdir. */
	int (*readdir_many)(struct vfs *vfs, struct vfs_dir *d,
			    const char **names, size_t *lens, unsigned max);
	/* Read d on until a name equal to name but for ASCII case
	 * (vfs_same_name_folded; what a case-insensitive lookup looks for):
	 * 1 when one is found, 0 at the end, or a negative errno.  The store
	 * is read as readdir would be for the same search.  NULL: the layer
	 * above reads the names itself. */
	int (*readdir_find)(struct vfs *vfs, struct vfs_dir *d,
			    const char *name);
};

/*
 * What the layer above knows about the paths of the op it runs: path[k]
 * (that very pointer, as it is passed to a vfs call) lies in the
 * directory numbered dir[k], or nothing is known (VFS_DIR_NONE).  The
 * numbers come from a table fixed for the vfs's life (the program's
 * directories): one number always names the same directory of this vfs,
 * so a vfs that keeps directories open finds one by an array read.
 * VFS_DIR_ROOT is the root (a path of one component).  len[k] is
 * strlen(path[k]) when the layer above knows it (0: not known), so that a
 * check of the path needs no look for its end (a vfs may read
 * path[k][0..len[k]], and takes a path whose byte len[k] is not its end
 * as unhinted).  A vfs may ignore the hint; it must not rely on it for
 * anything but speed.
 */
struct vfs_hint {
	const char *path[2];
	uint32_t dir[2];
	uint32_t len[2];
};

#define VFS_DIR_ROOT	0u
#define VFS_DIR_NONE	UINT32_MAX

/* The head of every vfs instance (implementations embed it first). */
struct vfs {
	const struct vfs_ops *ops;
	unsigned caps;		/* enum vfs_caps */
	/* NULL, or the hint for the paths of the calls being made (set by
	 * whoever makes the vfs, updated by the layer above per op) */
	const struct vfs_hint *hint;
};

/* ---- the POSIX vfs (src/vfs/vfs_posix*.c) ---- */

/* Directories a client keeps open (resolved parents), at most. */
#define VFS_POSIX_DIRCACHE	32

/* vfs_posix_new() flags */
enum vfs_posix_flags {
	/* getxattr by path will be used (-x): resolve the root's absolute
	 * path now, failing if that is not possible */
	VFS_POSIX_XATTR_PATHS = 1u << 0,
};

/*
 * A vfs over the local directory `directory`, which is opened now and kept
 * open.  Returns the vfs allocated under mem_ctx, or NULL with *err set to
 * a message allocated under mem_ctx ("<directory>: <strerror>").
 */
struct vfs *vfs_posix_new(void *mem_ctx, const char *directory,
			  unsigned flags, char **err);

/*
 * Descriptors one POSIX vfs keeps open beyond the handles of its client:
 * the root directory, the kept directory descriptors (at most 32) and one
 * directory being read.  For the up-front descriptor budget.
 */
unsigned vfs_posix_fds_per_client(void);

/*
 * Remove everything inside the directory name (relative to dfd; "." for
 * dfd itself), never following a symlink (a link is removed as a link),
 * depth first without recursion, holding at most keep_fds descriptors
 * (at least 1) plus one for a moment, however deep the tree.  Going back
 * up to a directory it closed, it checks through ".." that it is the
 * same directory (st_dev, st_ino); one moved meanwhile fails with
 * -ESTALE.  A missing directory is empty already.  Returns 0 or a
 * negative errno (-ENOTDIR: name is not a directory; -ELOOP: a symlink).
 */
int vfs_posix_empty_tree(int dfd, const char *name, unsigned keep_fds);

#endif
