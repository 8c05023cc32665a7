/*
 * nbsmb5.c - dbench 5.0's smb loadfile dialect over an nbvfs's vfs: one
 * vfs call (or a directory listing) per command, open files found by the
 * handle slot the compiler gave their path.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>

#include "smb_semantics/nbsmb5.h"
#include "smb_semantics/nbvfs.h"
#include "loadfile/ntstatus.h"

/* nbvfs_dialect_flags(): the client's directory was made */
#define SMB5_DIR_MADE	1u

/* OPEN's flags, as dbench 5.0 defines them */
#define SMB5_RDONLY	0x01	/* neither of the next two: O_RDONLY */
#define SMB5_WRONLY	0x02
#define SMB5_RDWR	0x04
#define SMB5_CREAT	0x08
#define SMB5_EXCL	0x10
#define SMB5_TRUNC	0x20

/* The longest client directory made before the first command */
#define SMB5_DIR_MAX	4096

/* READ's target: a worker runs its clients one op at a time. */
static uint8_t smb5_rbuf[NBSMB5_IO_MAX];

/* The status of a vfs call that returned r (>= 0, or a negative errno). */
static uint32_t smb5_status(struct op_call *call, int r)
{
	if (r >= 0)
		return NT_STATUS_OK;
	call->err = -r;
	return ntstatus_failure(-r);
}

static uint32_t smb5_fail(struct op_call *call, uint32_t status, int err)
{
	call->err = err;
	return status;
}

/* A path as the vfs takes it: the empty path is the root. */
static const char *smb5_at(const char *path)
{
	return path == NULL || path[0] == '\0' ? "." : path;
}

/*
 * Before the client's first command that names its directory (the
 * component the loadfile spells "client1": "client0" of
 * "client0/f", "clients/client0" of "clients/client0/d/f"), make that
 * directory and the ones on the way to it; directories that exist
 * already are fine.  dbench 5.0 leaves that to the loadfile (its
 * smb_1.load makes "/client1"); making it here lets the files that do
 * not (smb_2.load) run on a fresh share.  Returns 0 or a negative errno.
 */
static int smb5_client_dir(struct nbvfs *nb, const struct op_call *call)
{
	unsigned *flags = nbvfs_dialect_flags(nb);
	struct vfs *vfs = nbvfs_vfs(nb);
	const struct path *p;
	const char *path = call->path[0], *end;
	char dir[SMB5_DIR_MAX];
	size_t len;

	if ((*flags & SMB5_DIR_MADE) || call->prog == NULL || path == NULL)
		return 0;
	p = program_path(call->prog, call->op, 0);
	if (p == NULL || p->client_pos < 0 ||
	    (size_t)p->client_pos >= strlen(path))
		return 0;
	/* a command on the directory itself (MKDIR "/client1") gets only
	 * the ones on the way: it makes, or expects, the rest */
	end = strchr(path + p->client_pos, '/');
	if (end == NULL)
		end = strrchr(path, '/');
	if (end == NULL)
		return 0;
	len = (size_t)(end - path);
	if (len >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, len);
	dir[len] = '\0';
	for (size_t i = 0; i <= len; i++) {
		int r;

		if (i < len && dir[i] != '/')
			continue;
		dir[i] = '\0';
		r = vfs->ops->mkdir(vfs, dir, 0777);
		if (r < 0 && r != -EEXIST)
			return r;
		if (i < len)
			dir[i] = '/';
	}
	if (len > (size_t)p->client_pos)
		*flags |= SMB5_DIR_MADE;
	return 0;
}

/* OPEN's flags as open(2) takes them; O_APPEND (0x40) is not passed:
 * every WRITE names its offset. */
static int smb5_open_flags(int64_t f)
{
	int flags = (f & SMB5_RDWR)   ? O_RDWR :
		    (f & SMB5_WRONLY) ? O_WRONLY :
					O_RDONLY;

	if (f & SMB5_CREAT)
		flags |= O_CREAT;
	if (f & SMB5_EXCL)
		flags |= O_EXCL;
	if (f & SMB5_TRUNC)
		flags |= O_TRUNC;
	return flags;
}

uint32_t nbsmb5_open(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	struct vfs *vfs = nbvfs_vfs(nb);
	int fh = smb5_client_dir(nb, call);

	if (fh == 0)
		fh = vfs->ops->open(vfs, smb5_at(call->path[0]),
				    smb5_open_flags(call->arg[0]), 0666);
	if (fh < 0)
		return smb5_status(call, fh);
	return smb5_status(call, nbvfs_handle_keep(nb, call->op->handle, fh));
}

/* READ and WRITE: all of min(size, NBSMB5_IO_MAX) bytes at offset, or a
 * failure (a short read is one: END_OF_FILE). */
static uint32_t smb5_io(struct nbvfs *nb, struct op_call *call, bool write)
{
	struct vfs *vfs = nbvfs_vfs(nb);
	int fh = nbvfs_handle_fh(nb, call->op->handle);
	int64_t off = call->arg[0], n = call->arg[1];
	ssize_t r;

	if (fh < 0)
		return smb5_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
	if (off < 0 || n < 0)
		return smb5_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	if (n > NBSMB5_IO_MAX)
		n = NBSMB5_IO_MAX;
	do {
		r = write ? vfs->ops->pwrite(vfs, fh, call->data, (size_t)n,
					     (off_t)off) :
			    vfs->ops->pread(vfs, fh, smb5_rbuf, (size_t)n,
					    (off_t)off);
	} while (r == -EINTR);
	if (r < 0)
		return smb5_status(call, (int)r);
	call->bytes = (uint64_t)r;
	if (r != n)
		return write ? smb5_fail(call, NT_STATUS_DISK_FULL, ENOSPC) :
			       smb5_fail(call, NT_STATUS_END_OF_FILE, 0);
	return NT_STATUS_OK;
}

uint32_t nbsmb5_read(void *state, struct op_call *call)
{
	return smb5_io(state, call, false);
}

uint32_t nbsmb5_write(void *state, struct op_call *call)
{
	return smb5_io(state, call, true);
}

uint32_t nbsmb5_close(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	struct vfs *vfs = nbvfs_vfs(nb);
	int fh = nbvfs_handle_take(nb, call->op->handle);

	if (fh < 0)
		return smb5_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
	return smb5_status(call, vfs->ops->close(vfs, fh));
}

/* A command that is one vfs call on its path. */
static uint32_t smb5_path_call(struct nbvfs *nb, struct op_call *call,
			       int (*fn)(struct vfs *vfs, const char *path))
{
	int r = smb5_client_dir(nb, call);

	if (r == 0)
		r = fn(nbvfs_vfs(nb), smb5_at(call->path[0]));
	return smb5_status(call, r);
}

static int smb5_mkdir_call(struct vfs *vfs, const char *path)
{
	return vfs->ops->mkdir(vfs, path, 0777);
}

static int smb5_rmdir_call(struct vfs *vfs, const char *path)
{
	return vfs->ops->rmdir(vfs, path);
}

static int smb5_unlink_call(struct vfs *vfs, const char *path)
{
	return vfs->ops->unlink(vfs, path);
}

/* List the whole directory, as a client showing it would. */
static int smb5_readdir_call(struct vfs *vfs, const char *path)
{
	struct vfs_dir d;
	const char *name;
	int r = vfs->ops->opendir(vfs, strcmp(path, ".") == 0 ? "" : path,
				  strcmp(path, ".") == 0 ? 0 : strlen(path),
				  &d);

	if (r < 0)
		return r;
	while ((r = vfs->ops->readdir(vfs, &d, &name)) > 0)
		;
	vfs->ops->closedir(vfs, &d);
	return r;
}

uint32_t nbsmb5_mkdir(void *state, struct op_call *call)
{
	return smb5_path_call(state, call, smb5_mkdir_call);
}

uint32_t nbsmb5_rmdir(void *state, struct op_call *call)
{
	return smb5_path_call(state, call, smb5_rmdir_call);
}

uint32_t nbsmb5_unlink(void *state, struct op_call *call)
{
	return smb5_path_call(state, call, smb5_unlink_call);
}

uint32_t nbsmb5_readdir(void *state, struct op_call *call)
{
	return smb5_path_call(state, call, smb5_readdir_call);
}

/* Deltree: the tree and everything in it, a missing one is success (as
 * client.txt's Deltree). */
uint32_t nbsmb5_deltree(void *state, struct op_call *call)
{
	return nbvfs_deltree(state, call);
}
