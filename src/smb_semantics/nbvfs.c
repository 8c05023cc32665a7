/*
 * nbvfs.c - the SMB semantics of the loadfile ops over any vfs.
 *
 * Statuses follow COMPAT.md ("Operations on a local filesystem"): what a
 * Windows server would answer, decided from the vfs's errno and, where
 * errno cannot tell two answers apart (a missing file or a missing parent
 * directory), by the name lookup made before the call or one more stat on
 * the failure path only.  The calls made per op are those of dbench 4.00
 * (bench/engine/same-calls.sh): nothing here may add a vfs call to a
 * successful op.
 *
 * NTCreateX's create options FILE_WRITE_THROUGH (0x2) and
 * FILE_NO_INTERMEDIATE_BUFFERING (0x8) open files with O_DSYNC and
 * O_DIRECT.  Direct transfers go through the vfs's aligned buffer (the
 * client's write data is copied into it); offsets and sizes are the
 * loadfile's business, and the vfs's EINVAL for misaligned ones is
 * returned as it is.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <talloc.h>

#include "nbvfs.h"
#include "ntstatus.h"
#include "util.h"
#include "wildcard.h"

/* NTCreateX create_options bits honoured */
#define NB_OPT_DIRECTORY	0x1	/* FILE_DIRECTORY_FILE */
#define NB_OPT_WRITE_THROUGH	0x2	/* FILE_WRITE_THROUGH: O_DSYNC */
#define NB_OPT_NO_BUFFERING	0x8	/* FILE_NO_INTERMEDIATE_BUFFERING:
					 * O_DIRECT */
#define NB_OPT_NON_DIRECTORY	0x40	/* FILE_NON_DIRECTORY_FILE */

/* NTCreateX dispositions */
enum nb_disposition {
	NB_SUPERSEDE = 0,	/* create, or truncate what exists */
	NB_OPEN = 1,		/* must exist */
	NB_CREATE = 2,		/* must not exist */
	NB_OPEN_IF = 3,		/* open, or create */
	NB_OVERWRITE = 4,	/* must exist; truncate */
	NB_OVERWRITE_IF = 5,	/* create, or truncate */
};

/* The read buffer grows to the largest ReadX seen, up to this; larger
 * reads (and direct transfers) are done in pieces of this size. */
#define NB_RBUF_MAX		(16u * 1024 * 1024)
/* Largest single pwrite: keeps every count well inside ssize_t. */
#define NB_IO_MAX		(1u << 30)

/* All zero (the table is calloc'ed: untouched slots cost no memory; a
 * loadfile can have tens of thousands) means not open. */
struct nb_handle {
	int fh;
	bool is_dir;
	bool open;
	bool direct;		/* opened with O_DIRECT: I/O through dio_buffer */
};

struct nbvfs {
	struct vfs *vfs;		/* owned (talloc child) */
	const struct dbench_options *opts;
	struct nb_handle *handles;	/* nhandles slots */
	uint32_t nhandles;
	uint32_t nopen;			/* slots open now */
	uint32_t hwm;			/* 1 + highest slot ever opened */
	uint8_t *rbuf;			/* ReadX target */
	size_t rbuf_size;
	uint64_t xattr_writes;		/* attribute values written so far */
	bool scan;			/* look for names in another case */
	bool pre_lookup;		/* look before a path op (nb_pre_lookup) */
	unsigned dialect_flags;		/* nbvfs_dialect_flags() */
};

static const struct dbench_options nb_default_opts;

/* ---- statuses ---- */

static uint32_t nb_fail(struct op_call *call, uint32_t status, int err)
{
	call->err = err;
	return status;
}

/* The status for a failed call whose errno says all there is to say. */
static uint32_t nb_errno(struct op_call *call, int err)
{
	call->err = err;
	return ntstatus_failure(err);
}

/* The status of a vfs call that returned r (0 or a negative errno). */
static uint32_t nb_status(struct op_call *call, int r)
{
	return r < 0 ? nb_errno(call, -r) : NT_STATUS_OK;
}

/* A directory on the way to the path is missing or not a directory. */
static uint32_t nb_no_path(struct op_call *call, int err)
{
	return nb_fail(call, NT_STATUS_OBJECT_PATH_NOT_FOUND, err);
}

/* A path as the vfs takes it: the empty path is the root. */
static const char *nb_at_path(const char *path)
{
	return (path == NULL || path[0] == '\0') ? "." : path;
}

/* Is path[i] of this op above the per-client directory (shared)? */
static bool nb_shared(const struct op_call *call, unsigned i)
{
	const struct path *p = call->op != NULL && call->prog != NULL ?
				       program_path(call->prog, call->op, i) :
				       NULL;

	return p != NULL && p->client_pos < 0;
}

/* path's directory part: its length (0: the root); *leaf its last
 * component. */
static size_t nb_split(const char *path, const char **leaf)
{
	const char *slash = strrchr(path, '/');

	*leaf = slash != NULL ? slash + 1 : path;
	return slash != NULL ? (size_t)(slash - path) : 0;
}

/* The length of the directory part of path (0: the root). */
static size_t nb_dir_len(const char *path)
{
	const char *leaf;

	return nb_split(path, &leaf);
}

/* The last component of path. */
static const char *nb_leaf(const char *path)
{
	const char *leaf;

	nb_split(path, &leaf);
	return leaf;
}

/*
 * path does not exist (ENOENT): was it the last component that is missing
 * (OBJECT_NAME_NOT_FOUND) or a directory on the way (OBJECT_PATH_NOT_FOUND)?
 */
static uint32_t nb_missing(struct nbvfs *nb, struct op_call *call,
			   const char *path, int err)
{
	struct stat sb;
	char *parent;
	int r;

	call->err = err;
	if (strchr(path, '/') == NULL)
		return NT_STATUS_OBJECT_NAME_NOT_FOUND;
	parent = talloc_strndup(nb, path, nb_dir_len(path));
	if (parent == NULL)
		return nb_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	r = nb->vfs->ops->stat(nb->vfs, parent, &sb);
	talloc_free(parent);
	if (r == 0 && S_ISDIR(sb.st_mode))
		return NT_STATUS_OBJECT_NAME_NOT_FOUND;
	return NT_STATUS_OBJECT_PATH_NOT_FOUND;
}

/*
 * ENOTDIR for path: either path itself exists and is not a directory
 * (NOT_A_DIRECTORY, when a directory was asked for) or a component on the
 * way is not a directory (OBJECT_PATH_NOT_FOUND).
 */
static uint32_t nb_not_dir(struct nbvfs *nb, struct op_call *call,
			   const char *path, int err)
{
	struct stat sb;

	call->err = err;
	if (nb->vfs->ops->stat(nb->vfs, path, &sb) == 0 &&
	    !S_ISDIR(sb.st_mode))
		return NT_STATUS_NOT_A_DIRECTORY;
	return NT_STATUS_OBJECT_PATH_NOT_FOUND;
}

/* The common failures of a call on path: missing, or not reachable. */
static uint32_t nb_path_errno(struct nbvfs *nb, struct op_call *call,
			      const char *path, int err)
{
	if (err == ENOENT)
		return nb_missing(nb, call, path, err);
	if (err == ENOTDIR)
		return nb_no_path(call, err);
	return nb_errno(call, err);
}

/*
 * -S: flush the directory holding path, the way knfsd flushes directories
 * after a namespace change.  Returns 0 or an errno.
 */
static int nb_sync_parent(struct nbvfs *nb, const char *path)
{
	struct vfs *vfs = nb->vfs;
	char *parent = NULL;
	int fh, r;

	if (strchr(path, '/') != NULL) {
		parent = talloc_strndup(nb, path, nb_dir_len(path));
		if (parent == NULL)
			return ENOMEM;
	}
	fh = vfs->ops->open(vfs, parent != NULL ? parent : ".",
			    O_RDONLY | O_DIRECTORY, 0);
	talloc_free(parent);
	if (fh < 0)
		return -fh;
	r = vfs->ops->fsync(vfs, fh);
	vfs->ops->close(vfs, fh);
	return -r;
}

/* After a successful namespace change: -S, and its failure if any. */
HOT_PATH
static uint32_t nb_synced(struct nbvfs *nb, struct op_call *call,
			  const char *path)
{
	int err;

	if (!nb->opts->sync_dirs)
		return NT_STATUS_OK;
	err = nb_sync_parent(nb, path);
	return err != 0 ? nb_errno(call, err) : NT_STATUS_OK;
}

/* ---- handles ---- */

static void nb_keep(struct nbvfs *nb, int32_t slot, int fh, bool is_dir,
		    bool direct);

/* The open handle the op names, or NULL (slot out of range or closed). */
HOT_PATH
static struct nb_handle *nb_handle(struct nbvfs *nb,
				   const struct op_call *call)
{
	int32_t slot = call->op != NULL ? call->op->handle : -1;

	if (slot < 0 || (uint32_t)slot >= nb->nhandles ||
	    !nb->handles[slot].open)
		return NULL;
	return &nb->handles[slot];
}

static uint32_t nb_bad_handle(struct op_call *call)
{
	return nb_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
}

struct vfs *nbvfs_vfs(const struct nbvfs *nb)
{
	return nb->vfs;
}

int nbvfs_handle_fh(const struct nbvfs *nb, int32_t slot)
{
	if (slot < 0 || (uint32_t)slot >= nb->nhandles ||
	    !nb->handles[slot].open)
		return -1;
	return nb->handles[slot].fh;
}

int nbvfs_handle_keep(struct nbvfs *nb, int32_t slot, int fh)
{
	if (slot < 0 || (uint32_t)slot >= nb->nhandles) {
		nb->vfs->ops->close(nb->vfs, fh);
		return -EBADF;
	}
	nb_keep(nb, slot, fh, false, false);
	return 0;
}

int nbvfs_handle_take(struct nbvfs *nb, int32_t slot)
{
	if (nbvfs_handle_fh(nb, slot) < 0)
		return -1;
	nb->handles[slot].open = false;
	nb->nopen--;
	return nb->handles[slot].fh;
}

unsigned *nbvfs_dialect_flags(struct nbvfs *nb)
{
	return &nb->dialect_flags;
}

/*
 * Close what is open.  The scan stops at the highest slot ever used and as
 * soon as the open ones are found: the table can have tens of thousands of
 * slots, and reading the pages a short run never touched would fault each
 * one in (at the end of a 1,024-client run, that was most of its CPU).
 */
static void nb_close_all(struct nbvfs *nb)
{
	for (uint32_t i = 0; i < nb->hwm && nb->nopen > 0; i++) {
		if (nb->handles[i].open) {
			nb->vfs->ops->close(nb->vfs, nb->handles[i].fh);
			nb->handles[i].open = false;
			nb->nopen--;
		}
	}
}

/* ---- extended attributes (-x) ---- */

/*
 * dbench 4.00 with -x reads "user.DosAttrib" where Samba would read the DOS
 * attributes (after a path lookup, on QUERY_FILE_INFORMATION and
 * SET_FILE_INFORMATION) and rewrites it where Samba would store them (after
 * opening a file, and after setting its times).  The same calls are made
 * here.  A read that finds no attribute is normal; a store without user
 * attributes is reported as NT_STATUS_NOT_SUPPORTED, so that -x on such a
 * store is a clear error instead of a silent no-op.
 */
static bool nb_xattr_fatal(int err)
{
#if defined(EOPNOTSUPP) && EOPNOTSUPP != ENOTSUP
	if (err == EOPNOTSUPP)
		return true;
#endif
	return err == ENOTSUP || err == ENOMEM;
}

/* The status of an attribute read that returned r. */
static uint32_t nb_xattr_read_status(struct op_call *call, ssize_t r)
{
	if (r < 0 && nb_xattr_fatal((int)-r))
		return nb_errno(call, (int)-r);
	return NT_STATUS_OK;
}

static uint32_t nb_xattr_fd_read(struct nbvfs *nb, struct op_call *call,
				 int fh)
{
	uint8_t buf[NBVFS_XATTR_SIZE];

	if (nb->vfs->ops->fgetxattr == NULL)
		return nb_fail(call, NT_STATUS_NOT_SUPPORTED, ENOTSUP);
	return nb_xattr_read_status(call, nb->vfs->ops->fgetxattr(
		nb->vfs, fh, NBVFS_XATTR_NAME, buf, sizeof(buf)));
}

static uint32_t nb_xattr_path_read(struct nbvfs *nb, struct op_call *call,
				   const char *path)
{
	uint8_t buf[NBVFS_XATTR_SIZE];

	if (nb->vfs->ops->getxattr == NULL)
		return nb_fail(call, NT_STATUS_NOT_SUPPORTED, ENOTSUP);
	return nb_xattr_read_status(call, nb->vfs->ops->getxattr(
		nb->vfs, path, NBVFS_XATTR_NAME, buf, sizeof(buf)));
}

static uint32_t nb_xattr_fd_write(struct nbvfs *nb, struct op_call *call,
				  int fh)
{
	uint8_t buf[NBVFS_XATTR_SIZE];
	struct timespec now;
	uint32_t status;
	int r;

	/* the original reads the old value before replacing it */
	status = nb_xattr_fd_read(nb, call, fh);
	if (status != NT_STATUS_OK)
		return status;
	if (nb->vfs->ops->fsetxattr == NULL)
		return nb_fail(call, NT_STATUS_NOT_SUPPORTED, ENOTSUP);

	/*
	 * The value is a time stamp.  One write in five keeps whole seconds
	 * only, so that some files carry identical values: filesystems that
	 * share identical attribute blocks see both cases, as with the
	 * original.
	 */
	memset(buf, 0, sizeof(buf));
	clock_gettime(CLOCK_REALTIME, &now);
	if (nb->xattr_writes++ % 5 == 0)
		now.tv_nsec = 0;
	memcpy(buf, &now, sizeof(now));
	r = nb->vfs->ops->fsetxattr(nb->vfs, fh, NBVFS_XATTR_NAME, buf,
				    sizeof(buf));
	return nb_status(call, r);
}

/* ---- the name lookup ---- */

/* Names taken from a directory at once by the scans below. */
#define NB_DIRENTS	64

/* The next names of d (and their lengths, unless lens is NULL): the
 * vfs's readdir_many(), else one readdir(). */
HOT_PATH
static int nb_dir_names(struct vfs *vfs, struct vfs_dir *d,
			const char **names, size_t *lens)
{
	int r;

	if (vfs->ops->readdir_many != NULL)
		return vfs->ops->readdir_many(vfs, d, names, lens, NB_DIRENTS);
	r = vfs->ops->readdir(vfs, d, &names[0]);
	if (r > 0 && lens != NULL)
		lens[0] = strlen(names[0]);
	return r;
}

/*
 * Is want among names[0..n), ASCII case folded?  Most names differ from
 * it in their first byte by more than case (another bit than 0x20), and
 * are passed over at that.
 */
static bool nb_name_in(const char *const *names, int n, const char *want)
{
	unsigned char w0 = (unsigned char)want[0];

	for (int i = 0; i < n; i++)
		if ((((unsigned char)names[i][0] ^ w0) & ~0x20u) == 0 &&
		    vfs_same_name_folded(names[i], want))
			return true;
	return false;
}

/*
 * Samba's name resolution for a path that does not exist as spelled: scan
 * its directory for a name that matches case-insensitively.  Returns 1 if
 * one does, 0 if none does, a negative errno if the directory cannot be
 * read.  *stale is set when the vfs found its resolution of the directory
 * stale (see vfs_ops.opendir).
 */
HOT_PATH
static int nb_case_scan(struct nbvfs *nb, const char *path, bool *stale)
{
	const char *names[NB_DIRENTS], *want;
	size_t dir_len = nb_split(path, &want);
	struct vfs *vfs = nb->vfs;
	struct vfs_dir d;
	int r;

	r = vfs->ops->opendir(vfs, path, dir_len, &d);
	if (r < 0)
		return r;
	*stale = r == 1;
	if (vfs->ops->readdir_find != NULL)
		r = vfs->ops->readdir_find(vfs, &d, want);
	else
		while ((r = nb_dir_names(vfs, &d, names, NULL)) > 0) {
			if (nb_name_in(names, r, want)) {
				r = 1;
				break;
			}
		}
	vfs->ops->closedir(vfs, &d);
	return r;	/* a failed read is not "no match" */
}

/* What the name lookup before a path operation found. */
enum nb_found {
	FOUND_YES = 0,	/* the path exists as spelled (*sb filled) */
	FOUND_CASE,	/* not as spelled, but in another case */
	FOUND_NAME,	/* missing; its directory exists */
	FOUND_NO_PATH,	/* missing; so is a directory on the way */
	FOUND_MISSING,	/* missing; its directory was not looked at */
};

/*
 * The name lookup a file server makes before every operation on a path
 * (Samba: a stat; if that finds nothing, unless --no-resolve or the store
 * matches names itself, a scan of the directory for the name in another
 * case).  dbench 4.00 makes these same calls before NTCreateX, Mkdir,
 * Rmdir, Unlink, Rename (both names), QUERY_PATH_INFORMATION and
 * FIND_FIRST; doing the same work is what makes the two tools'
 * throughputs comparable.  The answer also tells a failed call apart
 * (missing name or missing directory) without another look.  On anything
 * but FOUND_YES *err says why the path was not found.
 */
HOT_PATH
static enum nb_found nb_lookup(struct nbvfs *nb, const char *path,
			       struct stat *sb, int *err)
{
	struct vfs *vfs = nb->vfs;
	bool stale = false;
	int r;

	r = vfs->ops->stat(vfs, path, sb);
	if (r == 0)
		return FOUND_YES;
	*err = -r;
	if (r == -ENOTDIR)
		return FOUND_NO_PATH;
	if (r != -ENOENT || !nb->scan)
		return FOUND_MISSING;
	r = nb_case_scan(nb, path, &stale);
	/* the directory had been removed and made again by someone else:
	 * look again in the one now there */
	if (stale && vfs->ops->stat(vfs, path, sb) == 0)
		return FOUND_YES;
	if (r >= 0) {
		*err = ENOENT;
		return r > 0 ? FOUND_CASE : FOUND_NAME;
	}
	*err = -r;
	return -r == ENOENT || -r == ENOTDIR ? FOUND_NO_PATH : FOUND_MISSING;
}

/*
 * The lookup before a path op that changes the store: none when the
 * store is a server that looks names up itself (VFS_SERVER_LOOKUP, and
 * no option needs the answer); then FOUND_MISSING with *err 0, and a
 * failure is placed afterwards (nb_late_lookup(), nb_path_errno()).
 */
HOT_PATH
static enum nb_found nb_pre_lookup(struct nbvfs *nb, const char *path,
				   struct stat *sb, int *err)
{
	if (nb->pre_lookup)
		return nb_lookup(nb, path, sb, err);
	*err = 0;
	return FOUND_MISSING;
}

/* After a failure: the lookup nb_pre_lookup() left out, if it did. */
static enum nb_found nb_late_lookup(struct nbvfs *nb, const char *path,
				    enum nb_found found, struct stat *sb,
				    int *err)
{
	if (found != FOUND_MISSING || *err != 0)
		return found;
	return nb_lookup(nb, path, sb, err);
}

/*
 * nb_path_errno() for a call made after a lookup: a missing path the
 * lookup already placed needs no other look at the store.
 */
static uint32_t nb_found_errno(struct nbvfs *nb, struct op_call *call,
			       const char *path, int err, enum nb_found found)
{
	if (err == ENOENT && found == FOUND_NAME)
		return nb_fail(call, NT_STATUS_OBJECT_NAME_NOT_FOUND, err);
	if (err == ENOENT && found == FOUND_NO_PATH)
		return nb_no_path(call, err);
	return nb_path_errno(nb, call, path, err);
}

/* ---- FIND_FIRST ---- */

HOT_PATH
uint32_t nbvfs_find_count(struct nbvfs *nb, struct op_call *call,
			  const char *pattern, int64_t maxcount,
			  uint64_t *count)
{
	uint64_t n = 0, max = maxcount > 0 ? (uint64_t)maxcount : UINT64_MAX;
	const char *names[NB_DIRENTS], *leaf;
	size_t lens[NB_DIRENTS], dir_len = nb_split(pattern, &leaf);
	struct vfs *vfs = nb->vfs;
	struct wildcard mask;
	struct vfs_dir d;
	bool any;
	int r;

	r = vfs->ops->opendir(vfs, pattern, dir_len, &d);
	if (r < 0) {
		if (r == -ENOENT || r == -ENOTDIR)
			return nb_no_path(call, -r);
		return nb_errno(call, -r);
	}
	wildcard_prepare(&mask, leaf);
	any = wildcard_any(&mask);
	/* no more names are read than the count needs */
	while (n < max &&
	       (r = nb_dir_names(vfs, &d, names, any ? NULL : lens)) > 0) {
		if (any) {
			n += (uint64_t)r < max - n ? (uint64_t)r : max - n;
			continue;
		}
		for (int i = 0; i < r && n < max; i++)
			n += wildcard_matches(&mask, names[i], lens[i]);
	}
	vfs->ops->closedir(vfs, &d);
	if (r < 0)
		return nb_errno(call, -r);
	*count = n;
	return NT_STATUS_OK;
}

HOT_PATH
uint32_t nbvfs_find(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	const char *pattern = call->path[0] != NULL ? call->path[0] : "";
	struct stat sb;
	uint64_t count = 0;
	enum nb_found found;
	uint32_t status;
	int err = 0;

	/*
	 * The name lookup first, as before any path operation; for a
	 * pattern with wildcards it cannot succeed (dbench 4.00 makes it
	 * anyway, so it is part of the same work).  Without a wildcard it
	 * is the whole answer, case-insensitive unless --no-resolve.  (A
	 * server that looks names up itself makes the failing one itself.)
	 */
	if (wildcard_is_pattern(nb_leaf(pattern))) {
		(void)nb_pre_lookup(nb, nb_at_path(pattern), &sb, &err);
	} else {
		found = nb_lookup(nb, nb_at_path(pattern), &sb, &err);
		if (found == FOUND_YES || found == FOUND_CASE) {
			call->result = 1;
			return NT_STATUS_OK;
		}
		return nb_fail(call, NT_STATUS_NO_SUCH_FILE, err);
	}

	status = nbvfs_find_count(nb, call, pattern, call->arg[1], &count);
	if (status != NT_STATUS_OK)
		return status;
	if (count == 0)
		return nb_fail(call, NT_STATUS_NO_SUCH_FILE, ENOENT);
	call->result = (int64_t)count;
	return NT_STATUS_OK;
}

/* ---- removing trees ---- */

/*
 * The generic removal (for a vfs without remove_tree) walks depth first
 * without recursion and without a descriptor held per level: each level
 * keeps only the names of its entries still to be removed (read first:
 * a listing is not to be trusted while its directory changes), and one
 * path buffer grows and shrinks with the depth, so that a deep tree costs
 * memory in proportion to its depth, not to its square.
 */
struct nb_level {
	void *mem;		/* the level's names */
	char **names;
	size_t n, next;
	size_t len;		/* strlen of the path of the level */
};

/* Read the names in directory path (without "." and "..") into l. */
static int nb_level_list(struct nbvfs *nb, const char *path,
			 struct nb_level *l)
{
	bool root = strcmp(path, ".") == 0;
	struct vfs *vfs = nb->vfs;
	struct vfs_dir d;
	const char *name;
	int r;

	l->mem = talloc_new(nb);
	l->names = NULL;
	l->n = l->next = 0;
	l->len = strlen(path);
	if (l->mem == NULL)
		return -ENOMEM;
	r = vfs->ops->opendir(vfs, path, root ? 0 : l->len, &d);
	if (r < 0)
		return r;
	while ((r = vfs->ops->readdir(vfs, &d, &name)) > 0) {
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		l->names = talloc_realloc(l->mem, l->names, char *, l->n + 1);
		if (l->names == NULL ||
		    (l->names[l->n++] = talloc_strdup(l->mem, name)) == NULL) {
			r = -ENOMEM;
			break;
		}
	}
	vfs->ops->closedir(vfs, &d);
	return r;
}

/* Put path[0..len) "/" name (name alone when len is 0) into *p. */
static int nb_path_join(char **p, size_t *cap, size_t len, const char *name)
{
	size_t need = len + 1 + strlen(name) + 1;

	if (need > *cap) {
		char *n = realloc(*p, need * 2);

		if (n == NULL)
			return -ENOMEM;
		*p = n;
		*cap = need * 2;
	}
	if (len > 0)
		(*p)[len++] = '/';
	strcpy(*p + len, name);
	return 0;
}

/*
 * Remove everything inside directory path and, unless it is ".", the
 * directory itself, with the vfs's plain calls.  Returns 0 or a negative
 * errno; an entry already gone counts as removed.
 */
static int nb_walk_remove(struct nbvfs *nb, const char *path)
{
	bool root = strcmp(path, ".") == 0;
	struct vfs *vfs = nb->vfs;
	struct nb_level *lv = NULL;
	size_t depth = 0, cap = 0;
	char *p = NULL;
	int r;

	r = nb_path_join(&p, &cap, 0, path);
	if (r == 0 && (lv = malloc(sizeof(*lv))) == NULL)
		r = -ENOMEM;
	if (r == 0 && (r = nb_level_list(nb, p, &lv[depth++])) == -ENOENT)
		r = 0;
	if (r == 0 && root)
		lv[0].len = 0;	/* the root's entries are bare names */
	while (r == 0 && depth > 0) {
		struct nb_level *l = &lv[depth - 1];
		struct nb_level *more;
		struct stat sb;

		if (l->next == l->n) {	/* empty now: remove it, go up */
			if (depth > 1 || !root)
				r = vfs->ops->rmdir(vfs, p);
			r = r == -ENOENT ? 0 : r;
			talloc_free(l->mem);
			if (--depth > 0)
				p[lv[depth - 1].len] = '\0';
			continue;
		}
		r = nb_path_join(&p, &cap, l->len, l->names[l->next++]);
		if (r == 0)
			r = vfs->ops->stat(vfs, p, &sb);
		if (r == 0 && S_ISDIR(sb.st_mode)) {
			more = realloc(lv, (depth + 1) * sizeof(*lv));
			if (more == NULL) {
				r = -ENOMEM;
				break;
			}
			lv = more;
			r = nb_level_list(nb, p, &lv[depth++]);
			if (r == 0)
				continue;
			l = &lv[depth - 2];
			talloc_free(lv[--depth].mem);
		} else if (r == 0) {
			r = vfs->ops->unlink(vfs, p);
		}
		r = r == -ENOENT || r == -ENOTDIR ? 0 : r;
		p[l->len] = '\0';
	}
	while (depth > 0)
		talloc_free(lv[--depth].mem);
	free(lv);
	free(p);
	return r;
}

/* Remove path and what is below it; missing is removed already. */
static int nb_tree_remove(struct nbvfs *nb, const char *path)
{
	struct vfs *vfs = nb->vfs;
	struct stat sb;
	int r;

	if (vfs->ops->remove_tree != NULL)
		return vfs->ops->remove_tree(vfs, path);
	r = vfs->ops->stat(vfs, path, &sb);
	if (r == 0 && S_ISDIR(sb.st_mode))
		r = nb_walk_remove(nb, path);
	else if (r == 0)
		r = vfs->ops->unlink(vfs, path);
	return r == -ENOENT || r == -ENOTDIR ? 0 : r;
}

int nbvfs_cleanup(void *state, const char *path)
{
	struct nbvfs *nb = state;

	nb_close_all(nb);
	return nb_tree_remove(nb, nb_at_path(path));
}

uint32_t nbvfs_deltree(void *state, struct op_call *call)
{
	return nb_status(call, nb_tree_remove(state,
					      nb_at_path(call->path[0])));
}

/* ---- set-up ---- */

static int nb_destructor(struct nbvfs *nb)
{
	nb_close_all(nb);	/* the vfs, a child, is freed after this */
	return 0;
}

struct nbvfs *nbvfs_new(void *mem_ctx, struct vfs *vfs,
			const struct dbench_options *opts, uint32_t nhandles)
{
	struct nbvfs *nb = talloc_zero(mem_ctx, struct nbvfs);

	if (nb == NULL) {
		talloc_free(vfs);
		return NULL;
	}
	nb->vfs = talloc_steal(nb, vfs);
	nb->opts = opts != NULL ? opts : &nb_default_opts;
	nb->nhandles = nhandles;
	nb->scan = !nb->opts->no_resolve &&
		   !(vfs->caps & VFS_CASE_INSENSITIVE);
	nb->pre_lookup = !(vfs->caps & VFS_SERVER_LOOKUP) ||
			 nb->opts->stat_check || nb->opts->xattr;
	nb->handles = util_zero_pages(nb, sizeof(struct nb_handle) *
					      (nhandles > 0 ? nhandles : 1));
	if (nb->handles == NULL) {
		talloc_free(nb);
		return NULL;
	}
	talloc_set_destructor(nb, nb_destructor);
	return nb;
}


/* ---- NTCreateX ---- */

/*
 * NTCreateX with option 0x1 and a disposition that creates: make the
 * directory unless it exists.  An existing one is a collision for
 * FILE_CREATE, except above the per-client directory, where another
 * client may have made it.
 */
static uint32_t nb_make_dir(struct nbvfs *nb, struct op_call *call,
			    const char *path, int64_t disp)
{
	bool exclusive = disp == NB_CREATE && !nb_shared(call, 0);
	struct vfs *vfs = nb->vfs;
	struct stat sb;
	int r;

	/* --stat-check: no mkdir for what a stat shows exists */
	if (nb->opts->stat_check && vfs->ops->stat(vfs, path, &sb) == 0)
		r = -EEXIST;
	else
		r = vfs->ops->mkdir(vfs, path, 0755);
	if (r == 0)
		return nb_synced(nb, call, path);
	if (r == -ENOENT || r == -ENOTDIR)
		return nb_no_path(call, -r);
	if (r != -EEXIST)
		return nb_errno(call, -r);
	if (exclusive)
		return nb_fail(call, NT_STATUS_OBJECT_NAME_COLLISION, EEXIST);
	return NT_STATUS_OK;
}

/* NTCreateX with option 0x1: a directory, created if the disposition says. */
static uint32_t nb_open_dir(struct nbvfs *nb, struct op_call *call,
			    const char *path, int64_t disp,
			    enum nb_found found, int *fhp)
{
	uint32_t status;
	int fh;

	if (disp != NB_OPEN && disp != NB_OVERWRITE) {
		status = nb_make_dir(nb, call, path, disp);
		if (status != NT_STATUS_OK)
			return status;
	}
	fh = nb->vfs->ops->open(nb->vfs, path, O_RDONLY | O_DIRECTORY, 0);
	if (fh < 0) {
		if (fh == -ENOTDIR || fh == -ELOOP)
			return nb_not_dir(nb, call, path, -fh);
		return nb_found_errno(nb, call, path, -fh, found);
	}
	*fhp = fh;
	return NT_STATUS_OK;
}

/* The open flags of a disposition, -1 for an unknown one. */
static int nb_disp_flags(int64_t disp)
{
	switch (disp) {
	case NB_SUPERSEDE:
	case NB_OVERWRITE_IF:
		return O_CREAT | O_TRUNC;
	case NB_OPEN:
		return 0;
	case NB_CREATE:
		return O_CREAT | O_EXCL;
	case NB_OPEN_IF:
		return O_CREAT;
	case NB_OVERWRITE:
		return O_TRUNC;
	default:
		return -1;
	}
}

/*
 * A file open that met a directory (EISDIR): fine for the dispositions
 * that only open, unless 0x40 forbids it; a directory cannot be truncated.
 */
static uint32_t nb_open_file_dir(struct nbvfs *nb, struct op_call *call,
				 const char *path, int64_t disp, bool non_dir,
				 int *fhp, bool *is_dir)
{
	int fh;

	if (non_dir || (disp != NB_OPEN && disp != NB_OPEN_IF))
		return nb_fail(call, NT_STATUS_FILE_IS_A_DIRECTORY, EISDIR);
	fh = nb->vfs->ops->open(nb->vfs, path, O_RDONLY | O_DIRECTORY, 0);
	if (fh < 0)
		return nb_path_errno(nb, call, path, -fh);
	*is_dir = true;
	*fhp = fh;
	return NT_STATUS_OK;
}

/* NTCreateX without option 0x1: a file, or an existing directory opened. */
static uint32_t nb_open_file(struct nbvfs *nb, struct op_call *call,
			     const char *path, int64_t disp,
			     enum nb_found found, bool non_dir, int extra,
			     int *fhp, bool *is_dir)
{
	int flags = O_RDWR | extra | nb_disp_flags(disp);
	struct vfs *vfs = nb->vfs;
	struct stat sb;
	int fh;

	if (nb->opts->sync_open)
		flags |= O_SYNC;
	/* --stat-check: no exclusive create of what a stat shows exists */
	if (nb->opts->stat_check && disp == NB_CREATE &&
	    vfs->ops->stat(vfs, path, &sb) == 0)
		return nb_fail(call, NT_STATUS_OBJECT_NAME_COLLISION, EEXIST);

	*is_dir = false;
	fh = vfs->ops->open(vfs, path, flags, 0644);
	if (fh >= 0) {
		if (flags & O_CREAT) {
			uint32_t status = nb_synced(nb, call, path);

			if (status != NT_STATUS_OK) {
				vfs->ops->close(vfs, fh);
				return status;
			}
		}
		*fhp = fh;
		return NT_STATUS_OK;
	}
	/* the store refuses direct I/O (tmpfs before Linux 6.6, some
	 * network and FUSE filesystems) */
	if (fh == -EINVAL && (flags & O_DIRECT))
		return nb_fail(call, NT_STATUS_NOT_SUPPORTED, EINVAL);
	if (fh == -EISDIR)
		return nb_open_file_dir(nb, call, path, disp, non_dir, fhp,
					is_dir);
	if (fh == -EEXIST)
		return nb_fail(call, NT_STATUS_OBJECT_NAME_COLLISION, EEXIST);
	return nb_found_errno(nb, call, path, -fh, found);
}

/*
 * Keep fh in the op's slot.  A slot still open is replaced only now: a
 * failed open allocates no handle on a server, and Debian's client.txt
 * has failed opens naming a handle number that is still open and used
 * afterwards.
 */
static void nb_keep(struct nbvfs *nb, int32_t slot, int fh, bool is_dir,
		    bool direct)
{
	struct nb_handle *h = &nb->handles[slot];

	if (h->open)
		nb->vfs->ops->close(nb->vfs, h->fh);
	else
		nb->nopen++;
	if ((uint32_t)slot >= nb->hwm)
		nb->hwm = (uint32_t)slot + 1;
	h->fh = fh;
	h->is_dir = is_dir;
	h->open = true;
	h->direct = direct;
}

/* After the open: what the server answers with (size, times,
 * attributes), and -x's attribute write; fh is closed on failure. */
static uint32_t nb_opened(struct nbvfs *nb, struct op_call *call, int fh,
			  bool is_dir)
{
	struct vfs *vfs = nb->vfs;
	uint32_t status = NT_STATUS_OK;
	struct stat sb;
	int r;

	/* a server answered the open with the attributes already */
	r = nb->pre_lookup ? vfs->ops->fstat(vfs, fh, &sb) : 0;
	if (r < 0)
		status = nb_errno(call, -r);
	else if (nb->opts->xattr && !is_dir)
		status = nb_xattr_fd_write(nb, call, fh);
	if (status != NT_STATUS_OK)
		vfs->ops->close(vfs, fh);
	return status;
}

HOT_PATH
uint32_t nbvfs_ntcreatex(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	const char *path = nb_at_path(call->path[0]);
	int64_t options = call->arg[0];
	int64_t disp = call->arg[1];
	int32_t slot = call->op != NULL ? call->op->handle : -1;
	bool want_dir = (options & NB_OPT_DIRECTORY) != 0;
	bool non_dir = (options & NB_OPT_NON_DIRECTORY) != 0;
	bool is_dir = false;
	enum nb_found found;
	struct stat sb;
	uint32_t status;
	int fh = -1, extra = 0, err = 0;

	if (disp < NB_SUPERSEDE || disp > NB_OVERWRITE_IF ||
	    (want_dir && non_dir))
		return nb_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	if (slot >= 0 && (uint32_t)slot >= nb->nhandles)
		return nb_bad_handle(call);

	found = nb_pre_lookup(nb, path, &sb, &err);
	if (want_dir) {
		status = nb_open_dir(nb, call, path, disp, found, &fh);
		is_dir = true;
	} else {
		if (options & NB_OPT_WRITE_THROUGH)
			extra |= O_DSYNC;
		/* a store without direct I/O has no cache to bypass */
		if ((options & NB_OPT_NO_BUFFERING) &&
		    (nb->vfs->caps & VFS_DIRECT_IO))
			extra |= O_DIRECT;
		status = nb_open_file(nb, call, path, disp, found, non_dir,
				      extra, &fh, &is_dir);
	}
	if (status == NT_STATUS_OK)
		status = nb_opened(nb, call, fh, is_dir);
	if (status != NT_STATUS_OK)
		return status;
	if (slot < 0) {
		/* no slot to keep it in: the status is all that counts */
		nb->vfs->ops->close(nb->vfs, fh);
		return NT_STATUS_OK;
	}
	nb_keep(nb, slot, fh, is_dir, !is_dir && (extra & O_DIRECT) != 0);
	return NT_STATUS_OK;
}

/* ---- handle operations ---- */

HOT_PATH
uint32_t nbvfs_close(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	struct nb_handle *h = nb_handle(nb, call);

	if (h == NULL)
		return nb_bad_handle(call);
	h->open = false;
	nb->nopen--;
	return nb_status(call, nb->vfs->ops->close(nb->vfs, h->fh));
}

/* An op that is one vfs call on the op's handle (NULL: nothing to do). */
static uint32_t nb_handle_call(struct nbvfs *nb, struct op_call *call,
			       int (*fn)(struct vfs *vfs, int fh))
{
	struct nb_handle *h = nb_handle(nb, call);

	if (h == NULL)
		return nb_bad_handle(call);
	return fn != NULL ? nb_status(call, fn(nb->vfs, h->fh)) :
			    NT_STATUS_OK;
}

HOT_PATH
uint32_t nbvfs_flush(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;

	return nb_handle_call(nb, call, nb->vfs->ops->fsync);
}

/*
 * DropCache: write the file's dirty pages out and drop its cached ones,
 * so that the next read comes from the device.  A store without a cache
 * (no drop_cache) has nothing to drop.
 */
uint32_t nbvfs_dropcache(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;

	return nb_handle_call(nb, call, nb->vfs->ops->drop_cache);
}

/*
 * --one-byte-write-fix, as dbench 4.00 does it.  Windows clients extend a
 * file by writing one zero byte at its new end; Samba can turn that into a
 * truncate, which is much cheaper on some filesystems.  So: a 1-byte write
 * inside the file of the byte already there is skipped, and a 1-byte write
 * of a zero at or past the end becomes ftruncate(offset + 1), which leaves
 * the same contents.  (The original always wrote zeros; a non-zero byte
 * past the end cannot be a truncate and is written normally.)
 * Returns true when the write was handled here, with *status set.
 */
static bool nb_one_byte_write(struct nbvfs *nb, struct op_call *call, int fh,
			      int64_t off, uint32_t *status)
{
	struct vfs *vfs = nb->vfs;
	struct stat sb;
	uint8_t old;
	int r;

	if (vfs->ops->fstat(vfs, fh, &sb) != 0)
		return false;
	if (sb.st_size > off) {
		if (vfs->ops->pread(vfs, fh, &old, 1, off) == 1 &&
		    old == call->data[0]) {
			*status = NT_STATUS_OK;
			return true;
		}
		return false;
	}
	if (call->data[0] != 0)
		return false;
	r = vfs->ops->ftruncate(vfs, fh, off + 1);
	*status = nb_status(call, r);
	return true;
}

/* Make the read buffer hold at least want bytes (want <= NB_RBUF_MAX). */
HOT_PATH
static uint8_t *nb_rbuf(struct nbvfs *nb, size_t want)
{
	uint8_t *p;

	if (nb->rbuf_size >= want)
		return nb->rbuf;
	p = talloc_realloc(nb, nb->rbuf, uint8_t, want);
	if (p == NULL)
		return NULL;
	nb->rbuf = p;
	nb->rbuf_size = want;
	return p;
}

/* The common checks of ReadX and WriteX: the handle, the range. */
HOT_PATH
static uint32_t nb_io_check(struct op_call *call, const struct nb_handle *h,
			    int64_t off, int64_t size)
{
	call->bytes = size > 0 ? (uint64_t)size : 0;
	if (h == NULL)
		return nb_bad_handle(call);
	if (off < 0 || size < 0 || size > INT64_MAX - off)
		return nb_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	return NT_STATUS_OK;
}

/* Write size bytes at off, in pieces, through the direct I/O buffer on a
 * direct handle; then -F's fsync. */
static uint32_t nb_write_all(struct nbvfs *nb, struct op_call *call,
			     const struct nb_handle *h, int64_t off,
			     int64_t size)
{
	size_t max = h->direct ? NB_RBUF_MAX : NB_IO_MAX;
	struct vfs *vfs = nb->vfs;
	int64_t done = 0;
	int r;

	while (done < size) {
		size_t chunk = size - done > (int64_t)max ?
				       max : (size_t)(size - done);
		const void *src = call->data + done;
		ssize_t n;

		if (h->direct) {
			void *dbuf = vfs->ops->dio_buffer(vfs, chunk);

			if (dbuf == NULL)
				return nb_fail(call, NT_STATUS_NO_MEMORY,
					       ENOMEM);
			memcpy(dbuf, src, chunk);
			src = dbuf;
		}
		n = vfs->ops->pwrite(vfs, h->fh, src, chunk, off + done);
		if (n == -EINTR)
			continue;
		if (n < 0)
			return nb_errno(call, (int)-n);
		if (n == 0)	/* no progress and no reason given */
			return nb_errno(call, EIO);
		done += n;
	}
	if (nb->opts->fsync_writes &&
	    (r = vfs->ops->fsync(vfs, h->fh)) < 0)
		return nb_errno(call, -r);
	return NT_STATUS_OK;
}

HOT_PATH
uint32_t nbvfs_writex(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	struct nb_handle *h = nb_handle(nb, call);
	int64_t off = call->arg[0];
	int64_t size = call->arg[1];
	uint32_t status = nb_io_check(call, h, off, size);

	if (status != NT_STATUS_OK)
		return status;
	if (nb->opts->fake_io || size == 0)
		return NT_STATUS_OK;
	/* (pwrite would say EBADF: the handle is read-only) */
	if (h->is_dir)
		return nb_fail(call, NT_STATUS_FILE_IS_A_DIRECTORY, EISDIR);
	if (call->data == NULL)
		return nb_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	if (nb->opts->one_byte_write_fix && size == 1 && !h->direct &&
	    nb_one_byte_write(nb, call, h->fh, off, &status))
		return status;
	return nb_write_all(nb, call, h, off, size);
}

HOT_PATH
uint32_t nbvfs_readx(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	struct nb_handle *h = nb_handle(nb, call);
	struct vfs *vfs = nb->vfs;
	int64_t off = call->arg[0];
	int64_t size = call->arg[1];
	int64_t expected = call->arg[2];
	int64_t got = 0;
	uint32_t status = nb_io_check(call, h, off, size);

	if (status != NT_STATUS_OK || nb->opts->fake_io)
		return status;
	while (got < size) {
		size_t chunk = size - got > NB_RBUF_MAX ?
				       NB_RBUF_MAX : (size_t)(size - got);
		void *buf = h->direct ? vfs->ops->dio_buffer(vfs, chunk) :
					nb_rbuf(nb, chunk);
		ssize_t n;

		if (buf == NULL)
			return nb_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
		n = vfs->ops->pread(vfs, h->fh, buf, chunk, off + got);
		if (n == -EINTR)
			continue;
		if (n < 0)
			return nb_errno(call, (int)-n);
		if (n == 0)	/* end of file */
			break;
		got += n;
	}
	/* fewer bytes than the loadfile says came back: the file is short */
	if (got < expected)
		return nb_fail(call, NT_STATUS_END_OF_FILE, 0);
	return NT_STATUS_OK;
}

HOT_PATH
uint32_t nbvfs_qfileinfo(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	struct nb_handle *h = nb_handle(nb, call);
	struct stat sb;
	int r;

	if (h == NULL)
		return nb_bad_handle(call);
	r = nb->vfs->ops->fstat(nb->vfs, h->fh, &sb);
	if (r < 0 || !nb->opts->xattr)
		return nb_status(call, r);
	return nb_xattr_fd_read(nb, call, h->fh);
}

HOT_PATH
uint32_t nbvfs_sfileinfo(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	struct nb_handle *h = nb_handle(nb, call);
	struct vfs *vfs = nb->vfs;
	struct stat sb;
	uint32_t status;
	int r;

	if (h == NULL)
		return nb_bad_handle(call);
	/* the current attributes and times, which the server reads before
	 * it changes them (dbench 4.00 makes the same fstat) */
	r = vfs->ops->fstat(vfs, h->fh, &sb);
	if (r < 0)
		return nb_errno(call, -r);
	if (nb->opts->xattr) {
		status = nb_xattr_fd_read(nb, call, h->fh);
		if (status != NT_STATUS_OK)
			return status;
	}
	r = vfs->ops->set_times(vfs, h->fh);
	if (r < 0)
		return nb_errno(call, -r);
	if (nb->opts->xattr && !h->is_dir)
		return nb_xattr_fd_write(nb, call, h->fh);
	return NT_STATUS_OK;
}

/* LockX / UnlockX: a record lock on [offset, offset + size). */
static uint32_t nb_lock(struct nbvfs *nb, struct op_call *call, bool lock)
{
	struct nb_handle *h = nb_handle(nb, call);
	int64_t off = call->arg[0];
	int64_t size = call->arg[1];
	int r;

	if (h == NULL)
		return nb_bad_handle(call);
	if (off < 0 || size < 0 || size > INT64_MAX - off)
		return nb_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	/* an empty range locks nothing (to fcntl, length 0 means "to EOF") */
	if (size == 0)
		return NT_STATUS_OK;
	r = (lock ? nb->vfs->ops->lock : nb->vfs->ops->unlock)(
		nb->vfs, h->fh, (off_t)off, (off_t)size);
	if (r == 0)
		return NT_STATUS_OK;
	if (lock && (r == -EAGAIN || r == -EACCES))
		return nb_fail(call, NT_STATUS_LOCK_NOT_GRANTED, -r);
	return nb_errno(call, -r);
}

uint32_t nbvfs_lockx(void *state, struct op_call *call)
{
	return nb_lock(state, call, true);
}

uint32_t nbvfs_unlockx(void *state, struct op_call *call)
{
	return nb_lock(state, call, false);
}

HOT_PATH
uint32_t nbvfs_qfsinfo(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;

	return nb_status(call, nb->vfs->ops->statfs(nb->vfs));
}

/* ---- path operations ---- */

/* --stat-check's refusal of an op on what the lookup did not find. */
static uint32_t nb_not_found(struct nbvfs *nb, struct op_call *call,
			     const char *path, int err, enum nb_found found)
{
	return nb_found_errno(nb, call, path,
			      found == FOUND_CASE ? ENOENT : err, found);
}

/* Do a and b name entries of one directory? */
static bool nb_same_dir(const char *a, const char *b)
{
	size_t la = nb_dir_len(a), lb = nb_dir_len(b);

	return la == lb && strncmp(a, b, la) == 0;
}

HOT_PATH
uint32_t nbvfs_rename(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	const char *from = nb_at_path(call->path[0]);
	const char *to = nb_at_path(call->path[1]);
	enum nb_found found;
	struct stat sb, tsb;
	uint32_t status;
	int err = 0, terr, r;

	found = nb_pre_lookup(nb, from, &sb, &err);
	(void)nb_pre_lookup(nb, to, &tsb, &terr);
	/* --stat-check: no rename of what the lookup shows is missing */
	if (nb->opts->stat_check && found != FOUND_YES)
		return nb_not_found(nb, call, from, err, found);

	r = nb->vfs->ops->rename(nb->vfs, from, to,
				 found != FOUND_YES || S_ISDIR(sb.st_mode) ?
					 VFS_RENAME_DIR : 0);
	if (r == -ENOENT || r == -ENOTDIR) {
		found = nb_late_lookup(nb, from, found, &sb, &err);
		/* the source is there: the target's directory is not */
		if (found == FOUND_YES)
			return nb_no_path(call, -r);
		return nb_found_errno(nb, call, from, -r, found);
	}
	if (r < 0)
		return nb_errno(call, -r);
	status = nb_synced(nb, call, to);
	/* a move between directories changed the source's directory too */
	if (status == NT_STATUS_OK && !nb_same_dir(from, to))
		status = nb_synced(nb, call, from);
	return status;
}

/* A path op's path[0] and what the lookup before it found. */
struct nb_looked {
	const char *path;
	enum nb_found found;
	struct stat sb;		/* filled for FOUND_YES */
	int err;		/* why not, otherwise */
};

/* The lookup every path op starts with; returns the nbvfs. */
static struct nbvfs *nb_look(void *state, const struct op_call *call,
			     struct nb_looked *l)
{
	struct nbvfs *nb = state;

	l->path = nb_at_path(call->path[0]);
	l->err = 0;
	l->found = nb_lookup(nb, l->path, &l->sb, &l->err);
	return nb;
}

/* nb_look() for an op that changes the store: nb_pre_lookup(). */
static struct nbvfs *nb_look_pre(void *state, const struct op_call *call,
				 struct nb_looked *l)
{
	struct nbvfs *nb = state;

	l->path = nb_at_path(call->path[0]);
	l->err = 0;
	l->found = nb_pre_lookup(nb, l->path, &l->sb, &l->err);
	return nb;
}

HOT_PATH
uint32_t nbvfs_unlink(void *state, struct op_call *call)
{
	struct nb_looked l;
	struct nbvfs *nb = nb_look_pre(state, call, &l);
	int r = nb->vfs->ops->unlink(nb->vfs, l.path);

	if (r == 0)
		return nb_synced(nb, call, l.path);
	if (r == -EPERM)
		l.found = nb_late_lookup(nb, l.path, l.found, &l.sb, &l.err);
	if (r == -EISDIR ||
	    (r == -EPERM && l.found == FOUND_YES && S_ISDIR(l.sb.st_mode)))
		return nb_fail(call, NT_STATUS_FILE_IS_A_DIRECTORY, -r);
	return nb_found_errno(nb, call, l.path, -r, l.found);
}

uint32_t nbvfs_rmdir(void *state, struct op_call *call)
{
	struct nb_looked l;
	struct nbvfs *nb = nb_look_pre(state, call, &l);
	int r;

	/* --stat-check: no rmdir of what the lookup shows is not a directory */
	if (nb->opts->stat_check) {
		if (l.found != FOUND_YES)
			return nb_not_found(nb, call, l.path, l.err, l.found);
		if (!S_ISDIR(l.sb.st_mode))
			return nb_fail(call, NT_STATUS_NOT_A_DIRECTORY,
				       ENOTDIR);
	}
	r = nb->vfs->ops->rmdir(nb->vfs, l.path);
	if (r == 0)
		return nb_synced(nb, call, l.path);
	if (r == -ENOTEMPTY || r == -EEXIST)
		return nb_fail(call, NT_STATUS_DIRECTORY_NOT_EMPTY, -r);
	if (r == -ENOTDIR)
		return nb_not_dir(nb, call, l.path, -r);
	return nb_found_errno(nb, call, l.path, -r, l.found);
}

uint32_t nbvfs_mkdir(void *state, struct op_call *call)
{
	struct nb_looked l;
	struct nbvfs *nb = nb_look_pre(state, call, &l);
	int r;

	/* --stat-check: no mkdir of what the lookup shows exists */
	if (nb->opts->stat_check && l.found == FOUND_YES)
		r = -EEXIST;
	else
		r = nb->vfs->ops->mkdir(nb->vfs, l.path, 0755);
	if (r == 0)
		return nb_synced(nb, call, l.path);
	if (r == -ENOENT || r == -ENOTDIR)
		return nb_no_path(call, -r);
	if (r != -EEXIST || (l.found != FOUND_YES &&
			     nb->vfs->ops->stat(nb->vfs, l.path, &l.sb) != 0))
		return nb_errno(call, -r);
	/* a shared directory: another client made it already */
	if (nb_shared(call, 0) && S_ISDIR(l.sb.st_mode))
		return NT_STATUS_OK;
	return nb_fail(call, NT_STATUS_OBJECT_NAME_COLLISION, EEXIST);
}

HOT_PATH
uint32_t nbvfs_qpathinfo(void *state, struct op_call *call)
{
	struct nb_looked l;
	struct nbvfs *nb = nb_look(state, call, &l);

	switch (l.found) {
	case FOUND_YES:
		if (nb->opts->xattr)
			return nb_xattr_path_read(nb, call, l.path);
		return NT_STATUS_OK;
	case FOUND_CASE:
		return NT_STATUS_OK;
	case FOUND_NAME:
		return nb_fail(call, NT_STATUS_OBJECT_NAME_NOT_FOUND, ENOENT);
	case FOUND_NO_PATH:
		return nb_no_path(call, l.err);
	default:
		return nb_path_errno(nb, call, l.path, l.err);
	}
}
