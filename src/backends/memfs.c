/*
 * memfs.c - a test backend: the SMB semantics (nbvfs) over a vfs that
 * keeps its tree in memory.
 *
 * It measures the SMB-semantics layer and the engine without any
 * filesystem below, and shows that a backend over a vfs is one file: the
 * in-memory vfs, its set-up and the backend object.  Each worker process
 * has its own tree per -D directory, shared by the clients of that
 * process (the -D directory itself is never touched); the tree is freed
 * with its last client.  Byte-range locks are granted always: as with
 * fcntl locks, owners in one process never conflict, and no other process
 * sees this tree.  memfs_vfs_new() also makes private trees, for tests.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include <talloc.h>

#include "backends/backend.h"
#include "backends/backends.h"
#include "smb_semantics/nbsmb5.h"
#include "smb_semantics/nbvfs.h"
#include "vfs/vfs.h"

struct mem_node {
	struct mem_node *parent;	/* NULL: the root, or unlinked */
	char *name;			/* talloc child */
	mode_t mode;
	struct mem_node **kids;		/* a directory's entries */
	size_t nkids;
	uint8_t *data;			/* a file's bytes (talloc child) */
	size_t size, cap;
	unsigned refs;			/* a link, open handles, listings */
	bool linked;			/* in a directory (or the root) */
	struct timespec mtime;
	uint64_t ino;
};

/* One tree: nodes are talloc children of it (not of their directory). */
struct mem_tree {
	struct mem_node *root;
	char *key;			/* the -D directory; NULL: private */
	unsigned users;
	uint64_t next_ino;
	struct mem_tree *next;		/* this process's shared trees */
};

struct mem_fh {
	struct mem_node *node;		/* NULL: slot free */
	bool writable;
};

struct memfs {
	struct vfs vfs;			/* first: a struct vfs * is one of these */
	struct mem_tree *tree;
	struct mem_fh *fh;
	size_t nfh;
};

/* This process's shared trees (see the top of the file). */
static struct mem_tree *memfs_trees;

static struct memfs *mem_of(struct vfs *vfs)
{
	return (struct memfs *)vfs;
}

/* ---- nodes ---- */

static struct mem_node *mem_node_new(struct mem_tree *t, const char *name,
				     mode_t mode)
{
	struct mem_node *n = talloc_zero(t, struct mem_node);

	if (n == NULL)
		return NULL;
	n->name = talloc_strdup(n, name);
	if (n->name == NULL) {
		talloc_free(n);
		return NULL;
	}
	n->mode = mode;
	n->refs = 1;
	n->ino = ++t->next_ino;
	clock_gettime(CLOCK_REALTIME, &n->mtime);
	return n;
}

static void mem_unref(struct mem_node *n)
{
	if (--n->refs == 0)
		talloc_free(n);
}

static struct mem_node *mem_child(const struct memfs *m,
				  const struct mem_node *dir, const char *name,
				  size_t len)
{
	bool ci = m->vfs.caps & VFS_CASE_INSENSITIVE;

	for (size_t i = 0; i < dir->nkids; i++) {
		const char *k = dir->kids[i]->name;

		if (strlen(k) == len && (ci ? strncasecmp(k, name, len) :
					      strncmp(k, name, len)) == 0)
			return dir->kids[i];
	}
	return NULL;
}

static int mem_attach(struct mem_node *dir, struct mem_node *n)
{
	struct mem_node **k = talloc_realloc(dir, dir->kids, struct mem_node *,
					     dir->nkids + 1);

	if (k == NULL)
		return -ENOMEM;
	dir->kids = k;
	dir->kids[dir->nkids++] = n;
	n->parent = dir;
	n->linked = true;
	return 0;
}

/* Take n out of its directory (its link's reference stays the caller's). */
static void mem_detach(struct mem_node *n)
{
	struct mem_node *dir = n->parent;

	for (size_t i = 0; i < dir->nkids; i++) {
		if (dir->kids[i] == n) {
			dir->kids[i] = dir->kids[--dir->nkids];
			break;
		}
	}
	n->parent = NULL;
	n->linked = false;
}

/* ---- paths ---- */

/*
 * The directory path[0..len) ("", "." and empty components are the
 * directory itself).  0, -ENOENT, -ENOTDIR, or -EINVAL for "..".
 */
static int mem_walk(const struct memfs *m, const char *path, size_t len,
		    struct mem_node **out)
{
	struct mem_node *n = m->tree->root;
	size_t i = 0;

	while (i < len) {
		size_t j = i;

		while (j < len && path[j] != '/')
			j++;
		if (j - i == 2 && path[i] == '.' && path[i + 1] == '.')
			return -EINVAL;
		if (j > i && !(j - i == 1 && path[i] == '.')) {
			n = mem_child(m, n, path + i, j - i);
			if (n == NULL)
				return -ENOENT;
			if (!S_ISDIR(n->mode))
				return -ENOTDIR;
		}
		i = j + 1;
	}
	*out = n;
	return 0;
}

/* The directory holding path's last component, and that component. */
static int mem_parent(const struct memfs *m, const char *path,
		      struct mem_node **dir, const char **leaf)
{
	const char *slash = strrchr(path, '/');

	*leaf = slash != NULL ? slash + 1 : path;
	return mem_walk(m, path, slash != NULL ? (size_t)(slash - path) : 0,
			dir);
}

static const char *mem_leaf(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

static bool mem_is_self(const char *leaf)
{
	return leaf[0] == '\0' || strcmp(leaf, ".") == 0;
}

/* The node at path (NULL in *n, 0 returned: missing leaf). */
static int mem_lookup(const struct memfs *m, const char *path,
		      struct mem_node **dir, struct mem_node **n)
{
	const char *leaf;
	int r = mem_parent(m, path, dir, &leaf);

	if (r < 0)
		return r;
	if (strcmp(leaf, "..") == 0)
		return -EINVAL;
	*n = mem_is_self(leaf) ? *dir : mem_child(m, *dir, leaf, strlen(leaf));
	return 0;
}

/* A new entry leaf of dir (the caller's reference), or NULL. */
static struct mem_node *mem_create(struct memfs *m, struct mem_node *dir,
				   const char *path, mode_t mode)
{
	struct mem_node *n = mem_node_new(m->tree, mem_leaf(path), mode);

	if (n != NULL && mem_attach(dir, n) < 0) {
		mem_unref(n);
		n = NULL;
	}
	return n;
}

/* The node at path, which must exist: 0 or a negative errno. */
static int mem_find(const struct memfs *m, const char *path,
		    struct mem_node **n)
{
	struct mem_node *dir;
	int r = mem_lookup(m, path, &dir, n);

	return r < 0 ? r : *n == NULL ? -ENOENT : 0;
}

/* ---- handles ---- */

static struct mem_fh *mem_fh(struct memfs *m, int fh)
{
	if (fh < 0 || (size_t)fh >= m->nfh || m->fh[fh].node == NULL)
		return NULL;
	return &m->fh[fh];
}

/* A new handle on n (the lowest free slot, as with fds). */
static int mem_fh_new(struct memfs *m, struct mem_node *n, bool writable)
{
	size_t i = 0;

	while (i < m->nfh && m->fh[i].node != NULL)
		i++;
	if (i == m->nfh) {
		size_t want = m->nfh > 0 ? 2 * m->nfh : 16;
		struct mem_fh *t = talloc_realloc(m, m->fh, struct mem_fh, want);

		if (t == NULL)
			return -ENOMEM;
		memset(t + m->nfh, 0, (want - m->nfh) * sizeof(*t));
		m->fh = t;
		m->nfh = want;
	}
	n->refs++;
	m->fh[i].node = n;
	m->fh[i].writable = writable;
	return (int)i;
}

static int mem_close(struct vfs *vfs, int fh)
{
	struct mem_fh *h = mem_fh(mem_of(vfs), fh);

	if (h == NULL)
		return -EBADF;
	mem_unref(h->node);
	h->node = NULL;
	return 0;
}

/* ---- data ---- */

/* Make the file hold size bytes (new ones zero). */
static int mem_resize(struct mem_node *n, size_t size)
{
	if (size > n->cap) {
		size_t cap = n->cap > 0 ? n->cap : 4096;
		uint8_t *d;

		while (cap < size)
			cap *= 2;
		d = talloc_realloc(n, n->data, uint8_t, cap);
		if (d == NULL)
			return -ENOMEM;
		n->data = d;
		n->cap = cap;
	}
	if (size > n->size)
		memset(n->data + n->size, 0, size - n->size);
	n->size = size;
	return 0;
}

/* ---- the ops on paths ---- */

static int mem_open_existing(struct memfs *m, struct mem_node *n, int flags)
{
	bool writable = (flags & O_ACCMODE) != O_RDONLY;
	int r;

	if ((flags & O_CREAT) && (flags & O_EXCL))
		return -EEXIST;
	if (S_ISDIR(n->mode))
		return writable || (flags & O_TRUNC) ? -EISDIR :
						       mem_fh_new(m, n, false);
	if (flags & O_DIRECTORY)
		return -ENOTDIR;
	if ((flags & O_TRUNC) && (r = mem_resize(n, 0)) < 0)
		return r;
	return mem_fh_new(m, n, writable);
}

static int mem_open(struct vfs *vfs, const char *path, int flags,
		    mode_t mode)
{
	struct memfs *m = mem_of(vfs);
	struct mem_node *dir, *n;
	int r = mem_lookup(m, path, &dir, &n);

	if (r < 0)
		return r;
	if (n != NULL)
		return mem_open_existing(m, n, flags);
	if (!(flags & O_CREAT))
		return -ENOENT;
	n = mem_create(m, dir, path, S_IFREG | (mode & 07777));
	if (n == NULL)
		return -ENOMEM;
	r = mem_fh_new(m, n, (flags & O_ACCMODE) != O_RDONLY);
	if (r < 0) {
		mem_detach(n);
		mem_unref(n);
	}
	return r;
}

static void mem_fill_stat(const struct mem_node *n, struct stat *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->st_mode = n->mode;
	sb->st_ino = n->ino;
	sb->st_size = (off_t)n->size;
	sb->st_nlink = !n->linked ? 0 : S_ISDIR(n->mode) ? 2 : 1;
	sb->st_mtim = n->mtime;
	sb->st_ctim = n->mtime;
	sb->st_atim = n->mtime;
}

static int mem_stat(struct vfs *vfs, const char *path, struct stat *sb)
{
	struct mem_node *n;
	int r = mem_find(mem_of(vfs), path, &n);

	if (r == 0)
		mem_fill_stat(n, sb);
	return r;
}

static int mem_mkdir(struct vfs *vfs, const char *path, mode_t mode)
{
	struct memfs *m = mem_of(vfs);
	struct mem_node *dir, *n;
	int r = mem_lookup(m, path, &dir, &n);

	if (r < 0)
		return r;
	if (n != NULL)
		return -EEXIST;
	return mem_create(m, dir, path, S_IFDIR | (mode & 07777)) != NULL ?
		       0 : -ENOMEM;
}

/* Unlink the entry at path: want_dir for rmdir, else unlink. */
static int mem_remove(struct vfs *vfs, const char *path, bool want_dir)
{
	struct memfs *m = mem_of(vfs);
	struct mem_node *n;
	int r = mem_find(m, path, &n);

	if (r < 0)
		return r;
	if (n == m->tree->root)
		return want_dir ? -EBUSY : -EISDIR;
	if (want_dir && !S_ISDIR(n->mode))
		return -ENOTDIR;
	if (!want_dir && S_ISDIR(n->mode))
		return -EISDIR;
	if (want_dir && n->nkids > 0)
		return -ENOTEMPTY;
	mem_detach(n);
	mem_unref(n);
	return 0;
}

static int mem_rmdir(struct vfs *vfs, const char *path)
{
	return mem_remove(vfs, path, true);
}

static int mem_unlink(struct vfs *vfs, const char *path)
{
	return mem_remove(vfs, path, false);
}

/* May src replace dst (rename(2)'s rules)?  0 or the errno. */
static int mem_can_replace(const struct mem_node *src,
			   const struct mem_node *dst)
{
	if (S_ISDIR(src->mode) && !S_ISDIR(dst->mode))
		return -ENOTDIR;
	if (!S_ISDIR(src->mode) && S_ISDIR(dst->mode))
		return -EISDIR;
	if (S_ISDIR(dst->mode) && dst->nkids > 0)
		return -ENOTEMPTY;
	return 0;
}

static int mem_rename(struct vfs *vfs, const char *from, const char *to,
		      unsigned flags)
{
	struct memfs *m = mem_of(vfs);
	struct mem_node *fdir, *tdir, *src, *dst, *up;
	char *name;
	int r;

	(void)flags;	/* nothing is cached */
	if ((r = mem_lookup(m, from, &fdir, &src)) < 0 ||
	    (r = mem_lookup(m, to, &tdir, &dst)) < 0)
		return r;
	if (src == NULL)
		return -ENOENT;
	if (src == m->tree->root || dst == m->tree->root)
		return -EBUSY;
	if (src == dst)
		return 0;
	/* a directory cannot move below itself */
	for (up = tdir; up != NULL; up = up->parent)
		if (up == src)
			return -EINVAL;
	if (dst != NULL && (r = mem_can_replace(src, dst)) < 0)
		return r;
	name = talloc_strdup(src, mem_leaf(to));
	if (name == NULL)
		return -ENOMEM;
	if (dst != NULL) {
		mem_detach(dst);
		mem_unref(dst);
	}
	mem_detach(src);
	r = mem_attach(tdir, src);
	if (r < 0) {
		/* back where it was: that array had room for it */
		talloc_free(name);
		(void)mem_attach(fdir, src);
		return r;
	}
	talloc_free(src->name);
	src->name = name;
	return 0;
}

static int mem_statfs(struct vfs *vfs)
{
	(void)vfs;
	return 0;
}

/* ---- directories ---- */

static int mem_opendir(struct vfs *vfs, const char *path, size_t len,
		       struct vfs_dir *d)
{
	struct mem_node *n;
	int r = mem_walk(mem_of(vfs), path, len, &n);

	if (r < 0)
		return r;
	n->refs++;	/* kept while listed, even if removed meanwhile */
	d->p = n;
	d->pos = 0;
	return 0;
}

/* ".", "..", then the entries. */
static int mem_readdir(struct vfs *vfs, struct vfs_dir *d, const char **name)
{
	const struct mem_node *n = d->p;

	(void)vfs;
	if (d->pos < 2) {
		*name = d->pos++ == 0 ? "." : "..";
		return 1;
	}
	if (d->pos - 2 >= n->nkids)
		return 0;
	*name = n->kids[d->pos++ - 2]->name;
	return 1;
}

static void mem_closedir(struct vfs *vfs, struct vfs_dir *d)
{
	(void)vfs;
	mem_unref(d->p);
}

/* ---- the ops on handles ---- */

static int mem_fstat(struct vfs *vfs, int fh, struct stat *sb)
{
	struct mem_fh *h = mem_fh(mem_of(vfs), fh);

	if (h == NULL)
		return -EBADF;
	mem_fill_stat(h->node, sb);
	return 0;
}

static ssize_t mem_pread(struct vfs *vfs, int fh, void *buf, size_t n,
			 off_t off)
{
	struct mem_fh *h = mem_fh(mem_of(vfs), fh);
	const struct mem_node *node;

	if (h == NULL)
		return -EBADF;
	node = h->node;
	if (S_ISDIR(node->mode))
		return -EISDIR;
	if (off < 0)
		return -EINVAL;
	if ((uint64_t)off >= node->size)
		return 0;
	if (n > node->size - (size_t)off)
		n = node->size - (size_t)off;
	memcpy(buf, node->data + off, n);
	return (ssize_t)n;
}

static ssize_t mem_pwrite(struct vfs *vfs, int fh, const void *buf, size_t n,
			  off_t off)
{
	struct mem_fh *h = mem_fh(mem_of(vfs), fh);
	struct mem_node *node;
	int r;

	if (h == NULL || !h->writable)
		return -EBADF;
	node = h->node;
	if (off < 0 || (uint64_t)off > SIZE_MAX - n)
		return -EINVAL;
	if (n == 0)
		return 0;	/* (and no memcpy from a NULL buffer) */
	if ((size_t)off + n > node->size &&
	    (r = mem_resize(node, (size_t)off + n)) < 0)
		return r;
	memcpy(node->data + off, buf, n);
	clock_gettime(CLOCK_REALTIME, &node->mtime);
	return (ssize_t)n;
}

static int mem_fsync(struct vfs *vfs, int fh)
{
	return mem_fh(mem_of(vfs), fh) != NULL ? 0 : -EBADF;
}

static int mem_ftruncate(struct vfs *vfs, int fh, off_t size)
{
	struct mem_fh *h = mem_fh(mem_of(vfs), fh);

	if (h == NULL || !h->writable)
		return h == NULL ? -EBADF : -EINVAL;
	if (size < 0)
		return -EINVAL;
	return mem_resize(h->node, (size_t)size);
}

/* Locks are granted (see the top of the file); only the handle counts. */
static int mem_lock(struct vfs *vfs, int fh, off_t off, off_t len)
{
	(void)off;
	(void)len;
	return mem_fsync(vfs, fh);
}

static int mem_set_times(struct vfs *vfs, int fh)
{
	struct mem_fh *h = mem_fh(mem_of(vfs), fh);

	if (h == NULL)
		return -EBADF;
	clock_gettime(CLOCK_REALTIME, &h->node->mtime);
	return 0;
}

static const struct vfs_ops memfs_ops = {
	.open = mem_open,
	.close = mem_close,
	.stat = mem_stat,
	.fstat = mem_fstat,
	.mkdir = mem_mkdir,
	.rmdir = mem_rmdir,
	.unlink = mem_unlink,
	.rename = mem_rename,
	.opendir = mem_opendir,
	.readdir = mem_readdir,
	.closedir = mem_closedir,
	.pread = mem_pread,
	.pwrite = mem_pwrite,
	.fsync = mem_fsync,
	.ftruncate = mem_ftruncate,
	.lock = mem_lock,
	.unlock = mem_lock,
	.statfs = mem_statfs,
	.set_times = mem_set_times,
	/* no xattrs, no direct I/O, no cache; removal by nbvfs's walk */
};

/* ---- trees and instances ---- */

/* A tree with an empty root, under mem_ctx. */
static struct mem_tree *mem_tree_new(void *mem_ctx, const char *key)
{
	struct mem_tree *t = talloc_zero(mem_ctx, struct mem_tree);

	if (t == NULL)
		return NULL;
	t->root = mem_node_new(t, "", S_IFDIR | 0755);
	if (t->root != NULL)
		t->root->linked = true;
	t->key = key != NULL ? talloc_strdup(t, key) : NULL;
	if (t->root == NULL || (key != NULL && t->key == NULL)) {
		talloc_free(t);
		return NULL;
	}
	return t;
}

/* The process's tree for directory, made on first use. */
static struct mem_tree *mem_tree_shared(const char *directory)
{
	struct mem_tree *t;

	for (t = memfs_trees; t != NULL; t = t->next)
		if (strcmp(t->key, directory) == 0)
			return t;
	t = mem_tree_new(NULL, directory);
	if (t == NULL)
		return NULL;
	t->next = memfs_trees;
	memfs_trees = t;
	return t;
}

static int memfs_destructor(struct memfs *m)
{
	struct mem_tree **pp;

	for (size_t i = 0; i < m->nfh; i++)
		if (m->fh[i].node != NULL)
			mem_close(&m->vfs, (int)i);
	if (m->tree->key == NULL || --m->tree->users > 0)
		return 0;	/* private (freed with m), or still used */
	for (pp = &memfs_trees; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == m->tree) {
			*pp = m->tree->next;
			break;
		}
	}
	talloc_free(m->tree);
	return 0;
}

/* An in-memory vfs over tree t (NULL: a new private one). */
static struct vfs *memfs_vfs_open(void *mem_ctx, struct mem_tree *t,
				  unsigned caps)
{
	struct memfs *m = talloc_zero(mem_ctx, struct memfs);

	if (m == NULL)
		return NULL;
	m->vfs.ops = &memfs_ops;
	m->vfs.caps = caps & VFS_CASE_INSENSITIVE;
	m->tree = t != NULL ? t : mem_tree_new(m, NULL);
	if (m->tree == NULL) {
		talloc_free(m);
		return NULL;
	}
	if (t != NULL)
		t->users++;
	talloc_set_destructor(m, memfs_destructor);
	return &m->vfs;
}

/*
 * A vfs over a new private in-memory tree (for tests), allocated under
 * mem_ctx; caps may ask for VFS_CASE_INSENSITIVE (names then match in any
 * case).  NULL when out of memory.
 */
struct vfs *memfs_vfs_new(void *mem_ctx, unsigned caps);

struct vfs *memfs_vfs_new(void *mem_ctx, unsigned caps)
{
	return memfs_vfs_open(mem_ctx, NULL, caps);
}

static int memfs_setup(void *mem_ctx, const struct backend_client_config *cfg,
		       void **state, char **err)
{
	struct mem_tree *t = mem_tree_shared(cfg->directory);
	struct vfs *vfs = t != NULL ? memfs_vfs_open(mem_ctx, t, 0) : NULL;
	struct nbvfs *nb = NULL;

	if (vfs == NULL && t != NULL && t->users == 0) {
		/* made for this client alone (it heads the list) */
		memfs_trees = t->next;
		talloc_free(t);
	}
	/* on failure nbvfs_new frees vfs, which lets go of the tree */
	if (vfs != NULL)
		nb = nbvfs_new(mem_ctx, vfs, cfg->opts, cfg->nhandles);
	if (nb == NULL) {
		*err = talloc_asprintf(mem_ctx, "%s: out of memory",
				       cfg->directory);
		return -1;
	}
	*state = nb;
	return 0;
}

const struct backend memfs_backend = {
	.abi = BACKEND_ABI,
	.name = "memfs",
	.description = "in-memory tree per process (tests the SMB semantics "
		       "without a filesystem)",
	.unavailable = NULL,
	/* -D names the trees (one per entry); they are never touched */
	.target_check = backend_dir_target_check,
	.setup = memfs_setup,
	.cleanup = nbvfs_cleanup,
	.ops = { NBVFS_OPS, NBSMB5_OPS },
};
