/*
 * nfs_status.c - NFS3 status codes and errno values, both ways (see
 * nfs_status.h).  Below the rest of the nfs backend: it calls nothing.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "nfs_status.h"

/* The NFS3 status of a libnfs result (0 or -errno). */
uint32_t nfs3_status_of(int err)
{
	static const struct {
		int err;
		uint32_t st;
	} map[] = {
		{ EPERM, NFS3ERR_PERM },	{ ENOENT, NFS3ERR_NOENT },
		{ EIO, NFS3ERR_IO },		{ ENXIO, NFS3ERR_NXIO },
		{ EACCES, NFS3ERR_ACCES },	{ EEXIST, NFS3ERR_EXIST },
		{ EXDEV, NFS3ERR_XDEV },	{ ENOTDIR, NFS3ERR_NOTDIR },
		{ EISDIR, NFS3ERR_ISDIR },	{ EINVAL, NFS3ERR_INVAL },
		{ EFBIG, NFS3ERR_FBIG },	{ ENOSPC, NFS3ERR_NOSPC },
		{ EROFS, NFS3ERR_ROFS },	{ EMLINK, NFS3ERR_MLINK },
		{ ENAMETOOLONG, NFS3ERR_NAMETOOLONG },
		{ ENOTEMPTY, NFS3ERR_NOTEMPTY }, { EDQUOT, NFS3ERR_DQUOT },
		{ ESTALE, NFS3ERR_STALE },	{ EBADF, NFS3ERR_BADHANDLE },
		{ EOPNOTSUPP, NFS3ERR_NOTSUPP }, { ELOOP, NFS3ERR_INVAL },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].err == err)
			return map[i].st;
	return NFS3ERR_SERVERFAULT;
}

int nfs3_errno_of(uint32_t st)
{
	for (int e = 1; e < 256; e++)
		if (nfs3_status_of(e) == st)
			return e;
	return EIO;
}
