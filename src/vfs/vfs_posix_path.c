/*
 * vfs_posix_path.c - the POSIX vfs's resolution of paths beneath its root.
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
 * The parents so resolved are kept open (the kept directories below), and
 * the engine's hints (struct vfs_hint: each path's directory as a number)
 * find a kept parent with one array read instead of a scan.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define VFS_POSIX_HAVE_OPENAT2 1
#endif
#endif

#include <talloc.h>

#include "util/util.h"
#include "vfs/vfs.h"
#include "vfs_posix_shared.h"

/* Set once openat2 is known to be missing (tests set it too). */
static bool vfs_posix_no_openat2;

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
 * The directory holding path's last component, resolved safely: the root
 * for a single component, else a kept O_PATH descriptor.  *leaf is pointed
 * at the last component.  -1 with errno set on failure.  The descriptor
 * is never to be closed by the caller.
 */
HOT_PATH
int vp_parent(struct vfs_posix *vp, const char *path, const char **leaf)
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

/* ---- opening a directory ---- */

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
 * A directory read with getdents64() into a 32 KiB buffer: what glibc's
 * opendir()/readdir() do (openat, fstat, getdents64, close), without the
 * fcntl() fdopendir() would add, and opened relative to a kept directory
 * so that no symlink is followed on the way.  A kept directory that
 * someone else removed (no links left) is resolved again once.
 */
HOT_PATH
int vp_opendir(struct vfs *vfs, const char *path, size_t len,
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
