/*
 * nbvfs_info.c - the information ops (QUERY_FILE_INFORMATION,
 * SET_FILE_INFORMATION, QUERY_PATH_INFORMATION, QUERY_FS_INFORMATION) and
 * -x's DOS attributes, which a server reads and writes around them.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "smb_semantics/nbvfs.h"
#include "nbvfs_shared.h"
#include "nbvfs_lookup.h"
#include "loadfile/ntstatus.h"
#include "util/util.h"

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

uint32_t nb_xattr_fd_write(struct nbvfs *nb, struct op_call *call,
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

/* ---- information ---- */

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

HOT_PATH
uint32_t nbvfs_qfsinfo(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;

	return nb_status(call, nb->vfs->ops->statfs(nb->vfs));
}

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
