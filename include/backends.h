/*
 * backends.h - the backend objects the registry lists.
 *
 * Each one is defined in its own file under src/backends/ and is constant:
 * per-client data lives in the state its setup hook allocates.
 */
#ifndef DBENCH_BACKENDS_H
#define DBENCH_BACKENDS_H

#include "backend.h"

/* Local filesystem through POSIX calls (src/backends/fileio.c). */
extern const struct backend fileio_backend;

/*
 * fileio's target check, which null shares: target is an existing
 * directory this process may write in.  Returns 0, or -1 with *err
 * ("directory 'DIR': strerror" or "directory 'DIR' is not writable:
 * strerror") allocated under mem_ctx.
 */
int fileio_target_check(void *mem_ctx, const struct dbench_options *o,
			const char *target, char **err);

/* Does nothing; measures the engine's own cost (src/backends/null.c). */
extern const struct backend null_backend;

/* nbvfs over an in-memory tree per process (src/backends/memfs.c). */
extern const struct backend memfs_backend;

/* tbench: each op a request and reply with a tbench server
 * (src/backends/sockio.c). */
extern const struct backend sockio_backend;
/* NFSv3 through libnfs, both loadfile dialects (src/backends/nfs/nfs.c). */
extern const struct backend nfs_backend;
/* An SMB2/SMB3 share through libsmbclient (src/backends/smb.c); when
 * built without it, only its name, options and why it is unavailable. */
extern const struct backend smb_backend;

#endif
