/*
 * vfs_posix_dir.c - the POSIX vfs's directories: reading them with
 * getdents64, and removing trees.
 *
 * A directory opened by vp_opendir() (vfs_posix_path.c) is read straight
 * into a 32 KiB buffer, as glibc's readdir reads it, and the layer above
 * takes its names from that buffer at a few instructions an entry
 * (readdir_many, readdir_find).
 *
 * Removal walks the tree with openat/unlinkat and O_NOFOLLOW: a symlink
 * inside the tree is removed as a link, and whatever it points at is left
 * alone.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <talloc.h>

#include "util/util.h"
#include "vfs/vfs.h"
#include "vfs_posix_shared.h"

struct vp_dirent64 {		/* the kernel's struct linux_dirent64 */
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* ---- directories: getdents64 ---- */

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

int vp_readdir(struct vfs *vfs, struct vfs_dir *d, const char **name)
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
int vp_readdir_many(struct vfs *vfs, struct vfs_dir *d, const char **names,
		    size_t *lens, unsigned max)
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
int vp_readdir_find(struct vfs *vfs, struct vfs_dir *d, const char *name)
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
void vp_closedir(struct vfs *vfs, struct vfs_dir *d)
{
	(void)vfs;
	close((int)d->h);
}

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
int vp_remove_tree(struct vfs *vfs, const char *path)
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
