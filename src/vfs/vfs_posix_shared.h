/*
 * vfs_posix_shared.h - what the files of the POSIX vfs share: the
 * instance, its kept directories, and the small helpers the ops inline.
 *
 * vfs_posix.c holds the ops table, the instance and the ops on paths and
 * handles; vfs_posix_path.c the confined resolution of paths (the kept
 * directories, the engine's hints) and opendir, which resolves its
 * directory the same way; vfs_posix_dir.c the reading of directories
 * (getdents64) and tree removal.  A helper the ops inline is static inline
 * here, so that splitting the files added no call to any op.
 */
#ifndef DBENCH_VFS_POSIX_SHARED_H
#define DBENCH_VFS_POSIX_SHARED_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "util/util.h"
#include "vfs/vfs.h"

/* Directories kept open per vfs; see vp_dircache_get(). */
#define VP_DIRCACHE	VFS_POSIX_DIRCACHE

/* getdents64 buffer: what glibc's readdir uses. */
#define VP_DENTS_SIZE	32768

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

static inline struct vfs_posix *vp_of(struct vfs *vfs)
{
	return (struct vfs_posix *)vfs;
}

/* r (a system call's result) as the vfs returns it: -errno on failure. */
static inline int vp_ret(int r)
{
	return r < 0 ? -errno : r;
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

/* ---- resolving paths: the kept directories (vfs_posix_path.c) ---- */

/* Forget every kept directory. */
static inline void vp_dircache_flush(struct vfs_posix *vp)
{
	for (unsigned i = 0; i < VP_DIRCACHE; i++) {
		struct vp_dircache *e = &vp->dircache[i];

		if (e->fd >= 0)
			close(e->fd);
		e->fd = -1;
		e->len = 0;
	}
}

/*
 * The directory holding path's last component, resolved safely; *leaf is
 * pointed at the last component.  Never to be closed by the caller.
 */
int vp_parent(struct vfs_posix *vp, const char *path, const char **leaf);
int vp_opendir(struct vfs *vfs, const char *path, size_t len,
	       struct vfs_dir *d);

/* ---- reading directories and removing trees (vfs_posix_dir.c) ---- */

int vp_readdir(struct vfs *vfs, struct vfs_dir *d, const char **name);
int vp_readdir_many(struct vfs *vfs, struct vfs_dir *d, const char **names,
		    size_t *lens, unsigned max);
int vp_readdir_find(struct vfs *vfs, struct vfs_dir *d, const char *name);
void vp_closedir(struct vfs *vfs, struct vfs_dir *d);
int vp_remove_tree(struct vfs *vfs, const char *path);

#endif /* DBENCH_VFS_POSIX_SHARED_H */
