/*
 * fileio.c - the local filesystem backend: the SMB semantics (nbvfs) over
 * the POSIX vfs of the client's directory.
 *
 * Everything a loadfile op means is in src/smb/nbvfs.c; every system call
 * is in src/vfs/vfs_posix.c.  This file only puts the two together.
 */
#include "config.h"

#include <talloc.h>

#include "backend.h"
#include "backends.h"
#include "nbvfs.h"
#include "vfs.h"

static int fileio_setup(void *mem_ctx, const struct backend_client_config *cfg,
			void **state, char **err)
{
	bool xattr = cfg->opts != NULL && cfg->opts->xattr;
	struct vfs *vfs;
	struct nbvfs *nb;

	vfs = vfs_posix_new(mem_ctx, cfg->directory,
			    xattr ? VFS_POSIX_XATTR_PATHS : 0, err);
	if (vfs == NULL)
		return -1;
	nb = nbvfs_new(mem_ctx, vfs, cfg->opts, cfg->nhandles);
	if (nb == NULL) {
		*err = talloc_asprintf(mem_ctx, "%s: out of memory",
				       cfg->directory);
		return -1;
	}
	*state = nb;
	return 0;
}

const struct backend fileio_backend = {
	.name = "fileio",
	.description = "local filesystem through POSIX calls",
	.unavailable = NULL,
	.setup = fileio_setup,
	.cleanup = nbvfs_cleanup,
	.ops = { NBVFS_OPS },
};
