/*
 * vfs_posix.c - the POSIX vfs: a local directory through the *at() calls.
 *
 * The root directory is opened once and every path is resolved relative
 * to that descriptor, so a client never depends on the working directory
 * and never builds long path strings.  Handles are the fds themselves.
 *
 * No path ever leaves the root through a symlink: every path is resolved
 * beneath the root descriptor with openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS), the calls that take no such flags (stat, mkdir,
 * unlink, rename) act on the last component relative to a parent opened
 * that way, and where the kernel has no openat2 (ENOSYS) the path is walked
 * one component at a time with O_NOFOLLOW.  dbench never makes symlinks,
 * so any symlink met on the way is foreign and the call fails (ELOOP or
 * ENOTDIR); a symlink as the last component is acted on as a link.
 *
 * Each op makes the system calls dbench 4.00 makes for it (bench/
 * syscalls.sh compares them call for call): the kept directory descriptors
 * below turn a call on a full path into one *at() call on (kept parent,
 * last component).
 *
 * Removal walks the tree with openat/unlinkat and O_NOFOLLOW: a symlink
 * inside the tree is removed as a link, and whatever it points at is left
 * alone.  Direct I/O needs aligned memory: dio_buffer hands out a buffer
 * from posix_memalign.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef HAVE_SYS_XATTR_H
#include <sys/xattr.h>
#endif

#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define VFS_POSIX_HAVE_OPENAT2 1
#endif
#endif

#include <talloc.h>

#include "util.h"
#include "vfs.h"

/* Directories kept open per vfs; see vp_dircache_get(). */
#define VP_DIRCACHE	VFS_POSIX_DIRCACHE
/* getdents64 buffer: what glibc's readdir uses. */
#define VP_DENTS_SIZE	32768
/* Alignment of the direct I/O buffer: a page, which is at least the
 * memory alignment any Linux filesystem asks for (STATX_DIOALIGN). */
#define VP_DIO_ALIGN	4096u

/* Bytes of a kept directory's path held in its entry (NUL included). */
#define VP_DIRCACHE_INLINE	32

/*
 * A kept directory: one cache line, its path in it when short (as the
 * paths of the usual loadfiles' directories are), so that checking an
 * entry against a path reads no other line.
 */
struct vp_dircache {
	char *path;		/* relative to the root: text, else (talloc) */
	size_t len;
	int fd;			/* O_PATH | O_DIRECTORY, -1: entry unused */
	uint32_t dir;		/* its number in the hints, or VFS_DIR_NONE */
	uint64_t used;		/* when last used, for eviction */
	char text[VP_DIRCACHE_INLINE];	/* the path when it fits */
};
_Static_assert(sizeof(struct vp_dircache) == 64, "an entry a cache line");

struct vp_level {
	dev_t dev;
	ino_t ino;
	int fd;			/* -1: closed to bound the descriptors */
	char name[NAME_MAX + 1];	/* in the level above ("" at the top) */
};

/*
 * The memory of a walk, kept from one walk to the next by an instance
 * (struct vfs_posix.walk): a worker that allocated it at every Deltree
 * took it from the heap it inherited, and so copied the pages that held
 * it (and malloc's own) into its memory.  Allocated on first use, with
 * ctx as the talloc parent.
 */
struct vp_walk_mem {
	void *ctx;
	char *buf;		/* one getdents64 buffer for the walk */
	struct vp_level *lv;
	size_t cap;
};

struct vfs_posix {
	struct vfs vfs;		/* first: a struct vfs * is one of these */
	int dirfd;		/* the root */
	char *dirpath;		/* its absolute path (getxattr by path only) */
	struct vp_dircache *dircache;	/* VP_DIRCACHE, line-aligned */
	uint64_t dircache_clock;
	uint8_t *dirmap;	/* hinted directory number -> entry + 1 */
	uint32_t ndirmap;
	char *dents;		/* getdents64 buffer, allocated on first use */
	struct vp_walk_mem walk;	/* remove_tree's (ctx: the instance) */
	uint8_t *dbuf;		/* direct I/O buffer (posix_memalign) */
	size_t dbuf_size;
};

struct vp_dirent64 {		/* the kernel's struct linux_dirent64 */
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Set once openat2 is known to be missing (tests set it too). */
static bool vfs_posix_no_openat2;

static struct vfs_posix *vp_of(struct vfs *vfs)
{
	return (struct vfs_posix *)vfs;
}

/* r (a system call's result) as the vfs returns it: -errno on failure. */
static int vp_ret(int r)
{
	return r < 0 ? -errno : r;
}

/* ---- confined path resolution ---- */

/*
 * openat(dfd, path, flags, mode) that neither leaves dfd nor follows any
 * symlink on the way (nor the last component: O_NOFOLLOW is implied, so
 * O_PATH opens a final symlink as a link and other opens of it fail).
 * -1 with errno set on failure.
 */
static int vp_open_beneath(int dfd, const char *path, int flags, mode_t mode)
{
	const char *leaf;
	int pfd, fd, err;

	flags |= O_NOFOLLOW;
#ifdef VFS_POSIX_HAVE_OPENAT2
	if (!vfs_posix_no_openat2) {
		struct open_how how;
		int tries = 0;
		long r;

		memset(&how, 0, sizeof(how));
		how.flags = (uint64_t)(unsigned)flags;
		if (flags & O_CREAT)
			how.mode = mode;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
		do {
			/* EAGAIN: a rename raced with the lookup; retry */
			r = syscall(SYS_openat2, dfd, path, &how, sizeof(how));
		} while (r < 0 && errno == EAGAIN && ++tries < 100);
		if (r >= 0 || errno != ENOSYS)
			return (int)r;
		vfs_posix_no_openat2 = true;
	}
#endif
	/* no openat2: walk to the parent one component at a time */
	if (strchr(path, '/') == NULL)
		return openat(dfd, path, flags, mode);
	pfd = util_open_parent_nofollow(dfd, path, &leaf);
	if (pfd < 0)
		return -1;
	fd = openat(pfd, leaf, flags, mode);
	err = errno;
	close(pfd);
	errno = err;
	return fd;
}

/*
 * Directories resolved so far.  Resolving a directory safely costs an
 * openat2() (or a walk) and a close(); dbench 4.00 makes one call on a
 * full path instead.  So each directory is resolved once and its O_PATH
 * descriptor kept: the call on the path becomes one *at() call on (kept
 * descriptor, last component), the same system calls as 4.00's, and
 * still nothing follows a symlink.  The cache is emptied whenever this
 * vfs removes or renames a directory; a kept directory someone else
 * removed is noticed by opendir (its link count is 0) and resolved again.
 */

/* Forget every kept directory. */
static void vp_dircache_flush(struct vfs_posix *vp)
{
	for (unsigned i = 0; i < VP_DIRCACHE; i++) {
		struct vp_dircache *e = &vp->dircache[i];

		if (e->fd >= 0)
			close(e->fd);
		e->fd = -1;
		e->len = 0;
	}
}

/* The entry to reuse for a new directory: a free one, else the LRU. */
static struct vp_dircache *vp_dircache_victim(struct vfs_posix *vp,
					      const char *path, size_t len,
					      int *hit)
{
	struct vp_dircache *victim = NULL;

	*hit = -1;
	for (unsigned i = 0; i < VP_DIRCACHE; i++) {
		struct vp_dircache *e = &vp->dircache[i];

		if (e->fd < 0) {
			if (victim == NULL || victim->fd >= 0)
				victim = e;	/* a free entry first */
			continue;
		}
		if (e->len == len && memcmp(e->path, path, len) == 0) {
			e->used = vp->dircache_clock;
			*hit = e->fd;
			return e;
		}
		if (victim == NULL || (victim->fd >= 0 && e->used < victim->used))
			victim = e;	/* else the least recently used */
	}
	return victim;
}

/*
 * The kept descriptor of directory path[0..len) (relative to the root),
 * resolving it on a miss; *entry is pointed at its cache entry.  The
 * cache owns it: never close it.  -1 with errno set when the directory
 * cannot be resolved.
 */
HOT_PATH
static int vp_dircache_get(struct vfs_posix *vp, const char *path, size_t len,
			   struct vp_dircache **entry)
{
	struct vp_dircache *victim;
	char *copy;
	int fd, hit;

	vp->dircache_clock++;
	victim = vp_dircache_victim(vp, path, len, &hit);
	*entry = victim;
	if (hit >= 0)
		return hit;
	victim->dir = VFS_DIR_NONE;
	if (len < VP_DIRCACHE_INLINE) {
		if (victim->path != victim->text)
			TALLOC_FREE(victim->path);
		copy = victim->text;
	} else {
		copy = talloc_realloc(vp, victim->path != victim->text ?
					      victim->path : NULL,
				      char, len + 1);
		if (copy == NULL) {
			errno = ENOMEM;
			return -1;
		}
	}
	memcpy(copy, path, len);
	copy[len] = '\0';
	victim->path = copy;
	fd = vp_open_beneath(vp->dirfd, copy, O_PATH | O_DIRECTORY | O_CLOEXEC,
			     0);
	if (victim->fd >= 0) {
		int err = errno;

		close(victim->fd);	/* its path was overwritten above */
		errno = err;
	}
	victim->fd = fd < 0 ? -1 : fd;
	victim->len = fd < 0 ? 0 : len;
	victim->used = vp->dircache_clock;
	return fd;
}

/*
 * vp_parent() by a scan of the kept directories; *entry is pointed at the
 * kept entry (NULL for the root).
 */
HOT_PATH
static int vp_parent_scan(struct vfs_posix *vp, const char *path,
			  const char **leaf, struct vp_dircache **entry)
{
	const char *slash = strrchr(path, '/');

	*entry = NULL;
	if (slash == NULL) {
		*leaf = path;
		return vp->dirfd;
	}
	*leaf = slash + 1;
	return vp_dircache_get(vp, path, (size_t)(slash - path), entry);
}

/*
 * Remember that hinted directory number dir is kept in entry e, so that
 * the next lookup of dir is an array read (vp_parent_hinted).  Only a
 * hint: when the map cannot grow, lookups scan as before.
 */
static void vp_dirmap_note(struct vfs_posix *vp, uint32_t dir,
			   struct vp_dircache *e)
{
	if (dir >= vp->ndirmap) {
		uint32_t n = vp->ndirmap != 0 ? vp->ndirmap : 64;
		uint8_t *m;

		while (n <= dir && n < UINT32_MAX / 2)
			n *= 2;
		if (n <= dir)
			return;
		m = talloc_realloc(vp, vp->dirmap, uint8_t, n);
		if (m == NULL)
			return;
		memset(m + vp->ndirmap, 0, n - vp->ndirmap);
		vp->dirmap = m;
		vp->ndirmap = n;
	}
	e->dir = dir;
	vp->dirmap[dir] = (uint8_t)(e - vp->dircache + 1);
}

/* The open kept entry directory number dir was last noted in, or NULL
 * (the caller still checks it against its path's text). */
static inline struct vp_dircache *vp_dirmap_get(struct vfs_posix *vp,
						 uint32_t dir)
{
	struct vp_dircache *e;

	if (dir >= vp->ndirmap || vp->dirmap[dir] == 0)
		return NULL;
	e = &vp->dircache[vp->dirmap[dir] - 1];
	return e->fd >= 0 && e->dir == dir ? e : NULL;
}

/* 8 bytes from p, as one word (any alignment). */
static inline uint64_t vp_word(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* The high bit of each zero byte of x, and no other bit (no carry runs
 * from one byte into the next, so none is flagged wrongly). */
static inline uint64_t vp_zero_bytes(uint64_t x)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;

	return ~(((x & low7) + low7) | x | low7);
}

/*
 * Whether path[0..len) is the kept entry's path, a '/' and a last
 * component with no '/' in it (what the strncmp() and strchr() of
 * vp_parent_hinted() check), read a word at a time: for len > 8 and an
 * entry of 8 bytes or more, on a little-endian machine.  The last word
 * of each part is the one that ends it, overlapping the word before; in
 * the leaf's, the bytes before the leaf are left out of the test for '/'.
 */
static inline bool vp_entry_holds(const struct vp_dircache *e,
				  const char *path, size_t len)
{
	const uint64_t slashes = 0x2f2f2f2f2f2f2f2full;	/* '/' x 8 */
	size_t n = e->len, i;
	uint64_t m;

	/* (a length short of the path's would leave a '/' after it unseen) */
	if (len <= n + 1 || path[n] != '/' || path[len] != '\0')
		return false;
	for (i = 0; i + 8 < n; i += 8)
		if (vp_word(e->path + i) != vp_word(path + i))
			return false;
	if (vp_word(e->path + n - 8) != vp_word(path + n - 8))
		return false;
	/* the leaf, path[n + 1 .. len): a byte equal to '/' is a zero byte
	 * once the word is xored with slashes */
	for (i = n + 1; i + 8 < len; i += 8)
		if (vp_zero_bytes(vp_word(path + i) ^ slashes) != 0)
			return false;
	m = vp_zero_bytes(vp_word(path + len - 8) ^ slashes);
	/* the bytes of the last word before i (already tested or not in
	 * the leaf) are its lowest ones */
	m &= ~0ull << (8 * (8 - (len - i)));
	return m == 0;
}

/*
 * vp_parent() for a path whose parent the layer above numbered dir: the
 * kept entry it was last found in, if that entry still holds it (the
 * same bookkeeping as a hit of the scan: one array read and one
 * comparison instead of 32 and a strrchr), else the scan, which notes
 * where it is.  The entry is checked against the path, so a wrong hint
 * costs a scan, never a wrong directory.  len is strlen(path) if known
 * (else 0): the check is then made a word at a time.
 */
HOT_PATH
static int vp_parent_hinted(struct vfs_posix *vp, const char *path,
			    uint32_t dir, size_t len, const char **leaf)
{
	struct vp_dircache *e = vp_dirmap_get(vp, dir);
	bool holds = false;
	int fd;

	if (e != NULL) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (len > 8 && e->len >= 8)
			holds = vp_entry_holds(e, path, len);
		else
#endif
			/* (strncmp stops at a shorter path's end) */
			holds = strncmp(e->path, path, e->len) == 0 &&
				path[e->len] == '/' &&
				strchr(path + e->len + 1, '/') == NULL;
	}
	if (holds) {
		e->used = ++vp->dircache_clock;
		*leaf = path + e->len + 1;
		return e->fd;
	}
	fd = vp_parent_scan(vp, path, leaf, &e);
	if (fd >= 0 && e != NULL)
		vp_dirmap_note(vp, dir, e);
	return fd;
}

/*
 * The kept descriptor of directory path[0..len) for vp_opendir(): when
 * path is a hinted path and len its parent's length, the entry the hint
 * names (checked against the text, as in vp_parent_hinted), else
 * vp_dircache_get(), noting where the directory is kept.
 */
HOT_PATH
static int vp_dir_fd(struct vfs_posix *vp, const char *path, size_t len)
{
	const struct vfs_hint *h = vp->vfs.hint;
	uint32_t dir = VFS_DIR_NONE;
	struct vp_dircache *e;
	int fd;

	if (h != NULL) {
		for (unsigned k = 0; k < 2; k++)
			if (path == h->path[k])
				dir = h->dir[k];
	}
	if (dir == VFS_DIR_NONE || dir == VFS_DIR_ROOT)
		return vp_dircache_get(vp, path, len, &e);
	e = vp_dirmap_get(vp, dir);
	if (e != NULL && e->len == len && memcmp(e->path, path, len) == 0) {
		e->used = ++vp->dircache_clock;
		return e->fd;
	}
	fd = vp_dircache_get(vp, path, len, &e);
	/* only the path's own parent: a hint is about that one */
	if (fd >= 0 && path[len] == '/' && strchr(path + len + 1, '/') == NULL)
		vp_dirmap_note(vp, dir, e);
	return fd;
}

/*
 * The directory holding path's last component, resolved safely: the root
 * for a single component, else a kept O_PATH descriptor.  *leaf is pointed
 * at the last component.  -1 with errno set on failure.  The descriptor
 * is never to be closed by the caller.
 */
HOT_PATH
static int vp_parent(struct vfs_posix *vp, const char *path, const char **leaf)
{
	const struct vfs_hint *h = vp->vfs.hint;
	struct vp_dircache *e;

	if (h != NULL) {
		for (unsigned k = 0; k < 2; k++)
			if (path == h->path[k] && h->dir[k] != VFS_DIR_NONE &&
			    h->dir[k] != VFS_DIR_ROOT)
				return vp_parent_hinted(vp, path, h->dir[k],
							h->len[k], leaf);
	}
	return vp_parent_scan(vp, path, leaf, &e);
}

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

/* ---- directories: getdents64 ---- */

/*
 * A directory read with getdents64() into a 32 KiB buffer: what glibc's
 * opendir()/readdir() do (openat, fstat, getdents64, close), without the
 * fcntl() fdopendir() would add, and opened relative to a kept directory
 * so that no symlink is followed on the way.  A kept directory that
 * someone else removed (no links left) is resolved again once.
 */
HOT_PATH
static int vp_opendir(struct vfs *vfs, const char *path, size_t len,
		      struct vfs_dir *d)
{
	struct vfs_posix *vp = vp_of(vfs);
	int pfd, fd, err, stale = 0;
	struct stat sb;

	if (vp->dents == NULL) {
		vp->dents = talloc_size(vp, VP_DENTS_SIZE);
		if (vp->dents == NULL)
			return -ENOMEM;
	}
	for (int attempt = 0;; attempt++) {
		pfd = len > 0 ? vp_dir_fd(vp, path, len) : vp->dirfd;
		if (pfd < 0)
			return -errno;
		fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		if (fstat(fd, &sb) != 0) {
			err = errno;
			close(fd);
			return -err;
		}
		if (sb.st_nlink > 0 || len == 0 || attempt > 0)
			break;
		close(fd);
		vp_dircache_flush(vp);
		stale = 1;
	}
	d->h = fd;
	d->pos = d->end = 0;
	return stale;
}

/* The entry at d->pos (the buffer holds one). */
static inline int vp_dirent_next(struct vfs_posix *vp, struct vfs_dir *d,
				 const char **name)
{
	const struct vp_dirent64 *de =
		(const struct vp_dirent64 *)(vp->dents + d->pos);

	d->pos += de->d_reclen;
	*name = de->d_name;
	return 1;
}

/* Refill the empty buffer: 1, 0 at the end, or -errno. */
HOT_PATH
static int vp_dents_fill(struct vfs_posix *vp, struct vfs_dir *d)
{
	long n = syscall(SYS_getdents64, (int)d->h, vp->dents, VP_DENTS_SIZE);

	if (n <= 0)
		return n == 0 ? 0 : -errno;
	d->pos = 0;
	d->end = (size_t)n;
	return 1;
}

/* vp_readdir() with an empty buffer: refill it.  Apart (and called last)
 * so that the per-entry path saves no registers. */
static __attribute__((noinline)) int vp_readdir_fill(struct vfs_posix *vp,
						      struct vfs_dir *d,
						      const char **name)
{
	int r = vp_dents_fill(vp, d);

	return r <= 0 ? r : vp_dirent_next(vp, d, name);
}

static int vp_readdir(struct vfs *vfs, struct vfs_dir *d, const char **name)
{
	struct vfs_posix *vp = vp_of(vfs);

	if (d->pos >= d->end)
		return vp_readdir_fill(vp, d, name);
	return vp_dirent_next(vp, d, name);
}

_Static_assert(offsetof(struct vp_dirent64, d_name) == 19, "dirent64");

/* vp_name_len() where the record does not look as expected. */
static __attribute__((noinline, cold)) size_t
vp_name_len_slow(const struct vp_dirent64 *de)
{
	return strlen(de->d_name);
}

/*
 * The length of de's name without reading it: the kernel ends the name
 * with a NUL and pads the record to a multiple of 8 bytes (24 at least),
 * so that NUL is the first zero byte of the record's last 8 bytes once
 * the header bytes among them (a 24-byte record's d_reclen and d_type,
 * offsets 16-18) are skipped.
 */
static inline size_t vp_name_len(const struct vp_dirent64 *de)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	size_t reclen = de->d_reclen;
	uint64_t w, z;

	w = vp_word((const char *)de + reclen - 8);
	w |= (uint64_t)(reclen == 24) * 0xffffffu;
	/* the lowest flagged byte is the first zero one */
	z = vp_zero_bytes(w);
	if (__builtin_expect(z != 0, 1))
		return reclen - 8 + (size_t)__builtin_ctzll(z) / 8 -
		       offsetof(struct vp_dirent64, d_name);
#endif
	return vp_name_len_slow(de);
}

/*
 * Up to max of the names in the buffer from d->pos on (and their lengths
 * when lens is not NULL): inlined once for each case, so that either
 * loop is a few instructions an entry.
 */
static inline __attribute__((always_inline)) unsigned
vp_names(struct vfs_posix *vp, struct vfs_dir *d, const char **names,
	 size_t *lens, unsigned max)
{
	/* (locals: the stores to names could alias d and vp for all the
	 * compiler knows) */
	const char *buf = vp->dents;
	size_t pos = d->pos, end = d->end;
	unsigned n = 0;

	for (; n < max && pos < end; n++) {
		const struct vp_dirent64 *de =
			(const struct vp_dirent64 *)(buf + pos);

		names[n] = de->d_name;
		if (lens != NULL)
			lens[n] = vp_name_len(de);
		pos += de->d_reclen;
	}
	d->pos = pos;
	return n;
}

/*
 * The entries left in the buffer (after a refill when none is), with
 * their lengths if asked: a scan of a directory costs a few instructions
 * an entry instead of a call.
 */
HOT_PATH
static int vp_readdir_many(struct vfs *vfs, struct vfs_dir *d,
			   const char **names, size_t *lens, unsigned max)
{
	struct vfs_posix *vp = vp_of(vfs);
	int r;

	if (d->pos >= d->end && (r = vp_dents_fill(vp, d)) <= 0)
		return r;
	if (lens == NULL)
		return (int)vp_names(vp, d, names, NULL, max);
	return (int)vp_names(vp, d, names, lens, max);
}

/*
 * The case-insensitive search in the buffer itself, refilled as readdir
 * would be: a few instructions an entry (an entry whose first byte
 * differs from name's by more than case is passed over at that).
 */
HOT_PATH
static int vp_readdir_find(struct vfs *vfs, struct vfs_dir *d,
			   const char *name)
{
	struct vfs_posix *vp = vp_of(vfs);
	unsigned char first = (unsigned char)name[0];
	int r;

	for (;;) {
		const char *buf;
		size_t pos, end;

		if (d->pos >= d->end && (r = vp_dents_fill(vp, d)) <= 0)
			return r;
		buf = vp->dents;
		pos = d->pos;
		end = d->end;
		while (pos < end) {
			const struct vp_dirent64 *de =
				(const struct vp_dirent64 *)(buf + pos);

			pos += de->d_reclen;
			if ((((unsigned char)de->d_name[0] ^ first) &
			     ~0x20u) == 0 &&
			    vfs_same_name_folded(de->d_name, name)) {
				d->pos = pos;
				return 1;
			}
		}
		d->pos = pos;
	}
}

HOT_PATH
static void vp_closedir(struct vfs *vfs, struct vfs_dir *d)
{
	(void)vfs;
	close((int)d->h);
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

/* ---- removing trees ---- */

/*
 * A tree is removed depth first without recursion and with a bounded
 * number of descriptors: the walk keeps the deepest keep_fds directories
 * open; going up to a directory it has closed, it opens ".." of the one
 * it leaves and checks that st_dev/st_ino are the ones recorded on the
 * way down, so a directory moved (or swapped for another) meanwhile is
 * detected (-ESTALE), never followed.  A directory is read from its start
 * again after each subdirectory is removed: non-directories are unlinked
 * on the first read, so a rescan reads only the subdirectories left.
 */

/* Descriptors a removal keeps open (beside the one it opens for a
 * moment): within fileio's FILEIO_TRANSIENT_FDS with the parent. */
#define VP_TREE_KEEP_FDS	2
/* Subdirectories that may reappear (made by someone else while the walk
 * removes them) before it gives up with -ENOTEMPTY. */
#define VP_TREE_RETRIES		3

struct vp_walk {
	struct vp_walk_mem *m;	/* its levels and buffer */
	size_t depth;
	size_t lo;		/* the shallowest level still open */
	unsigned keep, open, retries;
};

/* Open directory name in dfd, never through a symlink, and push it. */
static int vp_walk_push(struct vp_walk *w, int dfd, const char *name)
{
	struct vp_level *l;
	struct stat sb;
	int fd;

	if (w->depth == w->m->cap) {
		size_t cap = w->m->cap ? 2 * w->m->cap : 16;

		l = talloc_realloc(w->m->ctx, w->m->lv, struct vp_level, cap);
		if (l == NULL)
			return -ENOMEM;
		w->m->lv = l;
		w->m->cap = cap;
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	l = &w->m->lv[w->depth];
	if (fstat(fd, &sb) != 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	/* the top's name can be a path, and is never needed */
	l->name[0] = '\0';
	if (w->depth > 0)
		strncat(l->name, name, NAME_MAX);
	l->dev = sb.st_dev;
	l->ino = sb.st_ino;
	l->fd = fd;
	w->depth++;
	if (++w->open > w->keep) {	/* close the shallowest */
		close(w->m->lv[w->lo].fd);
		w->m->lv[w->lo++].fd = -1;
		w->open--;
	}
	return 0;
}

/* Make sure the parent of the deepest level is open: through ".." of
 * the deepest, checked against what was recorded. */
static int vp_walk_parent(struct vp_walk *w)
{
	struct vp_level *up = &w->m->lv[w->depth - 2];
	struct stat sb;
	int fd;

	if (up->fd >= 0)
		return 0;
	fd = openat(w->m->lv[w->depth - 1].fd, "..",
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) != 0 || sb.st_dev != up->dev ||
	    sb.st_ino != up->ino) {
		close(fd);
		return -ESTALE;	/* moved or swapped while we were below */
	}
	up->fd = fd;
	w->lo = w->depth - 2;
	w->open++;
	return 0;
}

/* Close and forget the deepest level. */
static void vp_walk_pop(struct vp_walk *w)
{
	struct vp_level *l = &w->m->lv[--w->depth];

	if (l->fd >= 0) {
		close(l->fd);
		w->open--;
	}
	if (w->lo > w->depth)
		w->lo = w->depth;
}

/*
 * Read the deepest directory from its start, unlinking every entry that
 * is not a directory; copy the first subdirectory's name into sub (""
 * when there is none).  Returns 0 or a negative errno.
 */
static int vp_walk_scan(struct vp_walk *w, char sub[NAME_MAX + 1])
{
	int fd = w->m->lv[w->depth - 1].fd;
	long n;

	sub[0] = '\0';
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	/* getdents64 directly (see vp_opendir): no fcntl() per directory */
	while ((n = syscall(SYS_getdents64, fd, w->m->buf, VP_DENTS_SIZE)) > 0) {
		for (long pos = 0; pos < n;) {
			const struct vp_dirent64 *de =
				(const struct vp_dirent64 *)(w->m->buf + pos);
			bool dir = de->d_type == DT_DIR;

			pos += de->d_reclen;
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			/* a directory: EISDIR on Linux, EPERM elsewhere */
			if (!dir && unlinkat(fd, de->d_name, 0) != 0 &&
			    errno != ENOENT) {
				if (errno != EISDIR && errno != EPERM)
					return -errno;
				dir = true;
			}
			if (dir && sub[0] == '\0')
				strcpy(sub, de->d_name);
		}
	}
	return n < 0 ? -errno : 0;
}

/*
 * One step of the walk: descend into the deepest directory's first
 * subdirectory, or, when it has none left, remove it from its parent
 * and go up.  Returns 0, 1 when the top level is empty (the walk is
 * done), or a negative errno.
 */
static int vp_walk_step(struct vp_walk *w)
{
	char sub[NAME_MAX + 1];
	const char *name;
	int fd, r = vp_walk_scan(w, sub);

	fd = w->m->lv[w->depth - 1].fd;
	if (r == 0 && sub[0] != '\0') {
		r = vp_walk_push(w, fd, sub);
		if (r == -ELOOP || r == -ENOTDIR)	/* swapped: a link now */
			r = unlinkat(fd, sub, 0) == 0 || errno == ENOENT ?
				    0 : -errno;
		return r == -ENOENT ? 0 : r;
	}
	if (r != 0 || w->depth == 1)
		return r != 0 ? r : 1;
	r = vp_walk_parent(w);
	if (r != 0)
		return r;
	fd = w->m->lv[w->depth - 2].fd;
	name = w->m->lv[w->depth - 1].name;	/* still there after the pop */
	vp_walk_pop(w);
	if (unlinkat(fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
		return 0;
	/* made again meanwhile: the next scan of the parent finds it */
	if ((errno == ENOTEMPTY || errno == EEXIST) &&
	    w->retries++ < VP_TREE_RETRIES)
		return 0;
	return -errno;
}

/* vfs_posix_empty_tree() with the walk's memory m. */
static int vp_empty_tree(struct vp_walk_mem *m, int dfd, const char *name,
			 unsigned keep_fds)
{
	struct vp_walk w = { .m = m, .keep = keep_fds > 0 ? keep_fds : 1 };
	int r;

	if (m->buf == NULL)
		m->buf = talloc_size(m->ctx, VP_DENTS_SIZE);
	if (m->buf == NULL)
		return -ENOMEM;
	r = vp_walk_push(&w, dfd, name);
	if (r == -ENOENT)
		r = 0;
	else if (r == 0)
		while ((r = vp_walk_step(&w)) == 0)
			;
	if (r == 1)
		r = 0;
	while (w.depth > 0)
		vp_walk_pop(&w);
	return r;
}

int vfs_posix_empty_tree(int dfd, const char *name, unsigned keep_fds)
{
	struct vp_walk_mem m = { .ctx = talloc_new(NULL) };
	int r;

	if (m.ctx == NULL)
		return -ENOMEM;
	r = vp_empty_tree(&m, dfd, name, keep_fds);
	talloc_free(m.ctx);
	return r;
}

/*
 * Remove the entry name (relative to dfd) and, when it is a directory,
 * everything in it.  A symlink is removed as a link.  A missing entry
 * counts as removed.  is_dir is a hint (from d_type) that saves the
 * failing unlink.  Returns 0 or a negative errno.
 */
static int vp_tree_remove(struct vp_walk_mem *m, int dfd, const char *name,
			  bool is_dir)
{
	int attempt, ret, unlink_err = 0;

	if (!is_dir) {
		if (unlinkat(dfd, name, 0) == 0)
			return 0;
		/* ENOTDIR: a directory on the way is not one, so no entry */
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		/* a directory: EISDIR on Linux, EPERM elsewhere */
		if (errno != EISDIR && errno != EPERM)
			return -errno;
		unlink_err = errno;
	}
	/* entries created while we read are seen by the next attempt */
	for (attempt = 0; attempt < 3; attempt++) {
		ret = vp_empty_tree(m, dfd, name, VP_TREE_KEEP_FDS);
		if (ret == -ENOTDIR && unlink_err != 0)
			return -unlink_err;	/* EPERM on a non-directory */
		if (ret != 0)
			return ret;
		if (unlinkat(dfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
			return 0;
		if (errno != ENOTEMPTY && errno != EEXIST)
			return -errno;
	}
	return -ENOTEMPTY;
}

/* Remove the tree at path; the root (".") is only emptied. */
static int vp_remove_tree(struct vfs *vfs, const char *path)
{
	struct vfs_posix *vp = vp_of(vfs);
	const char *leaf;
	int pfd, ret;

	if (path[0] == '\0' || strcmp(path, ".") == 0) {
		vp_dircache_flush(vp);
		return vp_empty_tree(&vp->walk, vp->dirfd, ".",
				     VP_TREE_KEEP_FDS);
	}
	/* the tree's parent, reached without following a symlink */
	pfd = vp_parent(vp, path, &leaf);
	if (pfd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	ret = vp_tree_remove(&vp->walk, pfd, leaf, false);
	vp_dircache_flush(vp);	/* kept directories may be gone */
	return ret;
}

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
