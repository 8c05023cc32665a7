/*
 * smb.c - the SMB backend: the SMB semantics (nbvfs) over a vfs that
 * talks SMB2/SMB3 to a server through libsmbclient (smb_vfs.c), one
 * connection (session + tree) per client.
 *
 * The target is the share (--smb-share, smb_opts.c), not a -D directory:
 * the clients' trees are clients/clientN under the share, made and
 * removed over SMB, and checked and recorded there by the life every
 * backend over a vfs shares (vfs_backend.h).  Every client has its own
 * SMBCCTX (smb_conn.c), opened in setup (before the start gate) and kept
 * for the whole run; libsmbclient reconnects a context whose connection
 * was lost at its next call (one attempt per call), which is what
 * --keep-going relies on.
 *
 * Built into the dbench binary, this file defines only the backend's
 * stub: its name, options and either why it is unavailable (no
 * libsmbclient) or its module; built as the module (DBENCH_MODULE,
 * modules/smb.so, with the other files of this folder), the whole
 * backend.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>

#include <popt.h>
#include <talloc.h>

#include "backends/backend.h"
#include "backends/backends.h"
#include "smb_private.h"

static const struct poptOption smb_options[] = {
	{ "smb-share", '\0', POPT_ARG_STRING, NULL, SMB_OPT_SHARE,
	  "the share: //SERVER[:PORT]/SHARE or smb://SERVER[:PORT]/SHARE",
	  "SHARE" },
	{ "smb-user", '\0', POPT_ARG_STRING, NULL, SMB_OPT_USER,
	  "logon as [DOMAIN/]USER, with %PASSWORD (hidden from ps after "
	  "start-up) or $DBENCH_SMB_PASSWORD",
	  "[DOMAIN/]USER%PASSWORD" },
	{ "smb-auth-file", '\0', POPT_ARG_STRING, NULL, SMB_OPT_AUTH_FILE,
	  "username, password and domain from FILE (smbclient -A format)",
	  "FILE" },
	{ "smb-protocol", '\0', POPT_ARG_STRING, NULL, SMB_OPT_PROTOCOL,
	  "dialect to negotiate: P, or MIN:MAX (SMB2_02, SMB2_10, SMB3_00, "
	  "SMB3_02, SMB3_11)",
	  "P|MIN:MAX" },
	{ "smb-encrypt", '\0', POPT_ARG_NONE, NULL, SMB_OPT_ENCRYPT,
	  "require SMB3 encryption", NULL },
	{ "smb-sign", '\0', POPT_ARG_NONE, NULL, SMB_OPT_SIGN,
	  "require signing", NULL },
	POPT_TABLEEND
};

#define SMB_DESCRIPTION "an SMB2/SMB3 server through libsmbclient"
#define SMB_FLAGS (BACKEND_OWN_TARGET | BACKEND_REMOTE)

#if !defined(HAVE_LIBSMBCLIENT) || !defined(DBENCH_MODULE)

#ifdef HAVE_LIBSMBCLIENT
/* the rest: this folder built as modules/smb.so */
BACKEND_MODULE_STUB(smb, SMB_DESCRIPTION, SMB_FLAGS, smb_options);
#else
BACKEND_UNAVAILABLE(smb, SMB_DESCRIPTION, SMB_FLAGS, smb_options,
		    "built without libsmbclient");
#endif

#else /* HAVE_LIBSMBCLIENT && DBENCH_MODULE */

#include <errno.h>

#include "smb_semantics/nbsmb5.h"
#include "smb_semantics/nbvfs.h"
#include "backends/vfs_backend.h"

/* ---- the backend over its vfs (vfs_backend.h) ---- */

/* The one target: the share. */
static unsigned smb_ntargets(const struct dbench_options *o)
{
	return 1;
}

static const char *smb_target_name(void *mem, const struct dbench_options *o,
				   unsigned t)
{
	const struct smb_opts *so = o->backend_opts;

	return talloc_asprintf(mem, "//%s/%s", so->server, so->share);
}

/* A connection to the share: connect, logon and tree connect. */
static int smb_admin_connect(void *mem, const struct dbench_options *o,
			     unsigned t, struct vfs **vfs, char **err)
{
	*err = NULL;
	*vfs = smb_vfs_new(mem, o->backend_opts, err);
	if (*vfs != NULL)
		return 0;
	return *err != NULL ? -ECONNREFUSED : -ENOMEM;
}

static int smb_client_vfs(void *mem, const struct backend_client_config *cfg,
			  struct vfs **vfs, char **err)
{
	*vfs = smb_vfs_new(mem, cfg->opts->backend_opts, err);
	return *vfs != NULL ? 0 : -1;
}

static const struct vfs_backend smb_vfs_backend = {
	.ntargets = smb_ntargets,
	.target_name = smb_target_name,
	.connect = smb_admin_connect,
	.client_vfs = smb_client_vfs,
	/* the server resolves paths and follows no symlink of ours */
	.parents_plain = NULL,
};

VFS_BACKEND_HOOKS(smb, &smb_vfs_backend)

/* The target is the share: connect, logon and tree connect once. */
static int smb_target_check(void *mem_ctx, const struct dbench_options *o,
			    const char *target, char **err)
{
	return vfs_backend_target_check(&smb_vfs_backend, mem_ctx, o, target,
					err);
}

/* One socket per client, and a spare while libsmbclient reconnects. */
static uint64_t smb_client_fds(const struct dbench_options *o,
			       uint32_t max_open_handles, uint32_t max_dirs)
{
	return 2;
}

const struct backend smb_backend = {
	.abi = BACKEND_ABI,
	.name = "smb",
	.description = SMB_DESCRIPTION,
	.unavailable = NULL,
	.flags = SMB_FLAGS,
	.options = smb_options,
	.option = smb_option,
	.options_done = smb_options_done,
	.target_check = smb_target_check,
	.client_fds = smb_client_fds,
	.shared_note = smb_shared_note,
	.shared_remove = smb_shared_remove,
	.trees_check = smb_trees_check,
	.trees_kept = smb_trees_kept,
	.setup = smb_setup,
	.cleanup = nbvfs_cleanup,
	.ops = { NBVFS_OPS, NBSMB5_OPS },
};

#endif /* HAVE_LIBSMBCLIENT && DBENCH_MODULE */
