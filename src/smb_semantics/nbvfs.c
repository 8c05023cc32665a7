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
 * This file holds the set-up, the handle table, NTCreateX and the ops
 * that change names (Rename, Unlink, Rmdir, Mkdir); nbvfs_shared.h says
 * where the other ops are.  NTCreateX's create options FILE_WRITE_THROUGH
 * (0x2) and FILE_NO_INTERMEDIATE_BUFFERING (0x8) open files with O_DSYNC
 * and O_DIRECT (nbvfs_io.c: direct transfers).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include <talloc.h>

#include "smb_semantics/nbvfs.h"
#include "nbvfs_shared.h"
#include "nbvfs_lookup.h"
#include "loadfile/ntstatus.h"
#include "util/util.h"

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

static const struct dbench_options nb_default_opts;

/* ---- statuses ---- */

/* Is path[i] of this op above the per-client directory (shared)? */
static bool nb_shared(const struct op_call *call, unsigned i)
{
	const struct path *p = call->op != NULL && call->prog != NULL ?
				       program_path(call->prog, call->op, i) :
				       NULL;

	return p != NULL && p->client_pos < 0;
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

/* ---- handles ---- */

static void nb_keep(struct nbvfs *nb, int32_t slot, int fh, bool is_dir,
		    bool direct);

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
void nb_close_all(struct nbvfs *nb)
{
	for (uint32_t i = 0; i < nb->hwm && nb->nopen > 0; i++) {
		if (nb->handles[i].open) {
			nb->vfs->ops->close(nb->vfs, nb->handles[i].fh);
			nb->handles[i].open = false;
			nb->nopen--;
		}
	}
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
