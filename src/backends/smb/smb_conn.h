/*
 * smb_conn.h - the libsmbclient contexts of the smb backend (private to
 * src/backends/smb/): made from the options (smb_conn.c), used by the
 * vfs (smb_vfs.c).
 */
#ifndef DBENCH_BACKENDS_SMB_CONN_H
#define DBENCH_BACKENDS_SMB_CONN_H

#include <libsmbclient.h>

#include "smb_private.h"

/* How long a connection waits for the server, each wait (s). */
#define SMB_TIMEOUT_S 10

/*
 * A libsmbclient context configured from so, not yet connected, as a
 * talloc object under mem (freeing it frees the context and closes its
 * connection).  NULL with *err a negative errno on failure.
 */
SMBCCTX **smb_context_new(void *mem, const struct smb_opts *so, int *err);

/* smb://SERVER[:PORT]/SHARE, under mem. */
char *smb_base_url(void *mem, const struct smb_opts *so);

/*
 * The one-line message of a failed connection (err: a positive errno);
 * reached: the context was made and the server asked, so that a refusal
 * may be the logon's (the guest's, when no user was given).
 */
char *smb_connect_message(void *mem, const struct smb_opts *so, int err,
			  bool reached);

/*
 * Connect (negotiate, session, tree) by asking for the share's root.
 * Returns 0 or a positive errno.
 */
int smb_connect(SMBCCTX *ctx, const char *base);

#endif
