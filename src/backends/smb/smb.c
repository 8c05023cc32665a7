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
	{ "smb-client", '\0', POPT_ARG_STRING, NULL, SMB_OPT_CLIENT,
	  "the SMB client: libsmbclient (the default) or native (the "
	  "project's own SMB2/3 client: one request per SMB operation)",
	  "native|libsmbclient" },
	{ "smb-kerberos", '\0', POPT_ARG_NONE, NULL, SMB_OPT_KERBEROS,
	  "log on with Kerberos: the ticket in the credential cache "
	  "($KRB5CCNAME, kinit), no password, no NTLM fallback", NULL },
	{ "smb-in-flight", '\0', POPT_ARG_STRING, NULL, SMB_OPT_IN_FLIGHT,
	  "--smb-client=native: the most requests outstanding at once on "
	  "the connection (the chunks of a big ReadX/WriteX, a tree's "
	  "removals; default 16, 1: each waits for the answer before)",
	  "N" },
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
#include <string.h>

#include "smb_semantics/nbsmb5.h"
#include "smb_semantics/nbvfs.h"
#include "backends/vfs_backend.h"
#include "loadfile/ntstatus.h"
#include "smb2_ops_private.h"
#include "smb_conn.h"

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


/* ---- the client's state: libsmbclient's (nbvfs) or the native one ---- */

struct smb_state {
	struct nbvfs *nb;		/* --smb-client=libsmbclient */
	struct smb_native *nat;		/* --smb-client=native */
};

/* The dialect name of smb_opts as a number (0: none given). */
static uint16_t smb_dialect_num(const char *name, uint16_t dflt)
{
	static const struct { const char *name; uint16_t num; } d[] = {
		{ "SMB2_02", SMB2_DIALECT_202 }, { "SMB2_10", SMB2_DIALECT_210 },
		{ "SMB3_00", SMB2_DIALECT_300 }, { "SMB3_02", SMB2_DIALECT_302 },
		{ "SMB3_11", SMB2_DIALECT_311 },
	};

	for (size_t i = 0; name != NULL && i < sizeof(d) / sizeof(d[0]); i++)
		if (strcmp(name, d[i].name) == 0)
			return d[i].num;
	return dflt;
}

static int smb_client_setup(void *mem_ctx,
			    const struct backend_client_config *cfg,
			    void **state, char **err)
{
	const struct smb_opts *so = cfg->opts->backend_opts;
	struct smb_state *st = talloc_zero(mem_ctx, struct smb_state);
	void *inner = NULL;

	if (st == NULL) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return -1;
	}
	if (so->native) {
		struct smb2_params p = {
			.server = so->server, .port = so->port,
			.share = so->share, .user = so->user,
			.password = so->password, .domain = so->domain,
			.dialect_min = smb_dialect_num(so->proto_min,
						       SMB2_DIALECT_202),
			.dialect_max = smb_dialect_num(so->proto_max,
						       SMB2_DIALECT_311),
			.sign = so->sign, .encrypt = so->encrypt,
			.kerberos = so->kerberos,
			.timeout_s = SMB_TIMEOUT_S,
			.in_flight = so->in_flight,
		};

		st->nat = nat_new(st, &p, cfg->opts, cfg->nhandles, err);
		if (st->nat == NULL) {
			if (*err == NULL)
				*err = talloc_strdup(mem_ctx, "out of memory");
			else
				*err = talloc_asprintf(mem_ctx, "//%s/%s: %s",
						       so->server, so->share,
						       *err);
			talloc_free(st);
			return -1;
		}
	} else {
		if (smb_setup(st, cfg, &inner, err) != 0) {
			if (*err != NULL)
				*err = talloc_steal(mem_ctx, *err);
			talloc_free(st);
			return -1;
		}
		st->nb = inner;
	}
	*state = st;
	return 0;
}

static int smb_client_cleanup(void *state, const char *path)
{
	struct smb_state *st = state;

	return st->nat != NULL ? nat_cleanup(st->nat, path) :
				 nbvfs_cleanup(st->nb, path);
}

/* An op of both paths: the native one, or nbvfs's. */
#define SMB_OP(name, nbfn, natfn)                                            \
	HOT_PATH static uint32_t smb_##name(void *state, struct op_call *c)  \
	{                                                                    \
		struct smb_state *st = state;                                \
		return st->nat != NULL ? natfn(st->nat, c) : nbfn(st->nb, c);\
	}

SMB_OP(ntcreatex, nbvfs_ntcreatex, nat_ntcreatex)
SMB_OP(close, nbvfs_close, nat_close_op)
SMB_OP(rename, nbvfs_rename, nat_rename)
SMB_OP(unlink, nbvfs_unlink, nat_unlink)
SMB_OP(deltree, nbvfs_deltree, nat_deltree)
SMB_OP(rmdir, nbvfs_rmdir, nat_rmdir)
SMB_OP(mkdir, nbvfs_mkdir, nat_mkdir)
SMB_OP(qpathinfo, nbvfs_qpathinfo, nat_qpathinfo)
SMB_OP(qfileinfo, nbvfs_qfileinfo, nat_qfileinfo)
SMB_OP(qfsinfo, nbvfs_qfsinfo, nat_qfsinfo)
SMB_OP(sfileinfo, nbvfs_sfileinfo, nat_sfileinfo)
SMB_OP(find, nbvfs_find, nat_find)
SMB_OP(writex, nbvfs_writex, nat_writex)
SMB_OP(readx, nbvfs_readx, nat_readx)
SMB_OP(lockx, nbvfs_lockx, nat_lockx)
SMB_OP(unlockx, nbvfs_unlockx, nat_unlockx)
SMB_OP(flush, nbvfs_flush, nat_flush)
SMB_OP(dropcache, nbvfs_dropcache, nat_dropcache)

/* The 5.0 smb dialect runs over nbvfs only. */
static uint32_t smb_no_dialect5(struct op_call *c)
{
	c->err = ENOTSUP;
	c->msg = "the 5.0 smb dialect needs --smb-client=libsmbclient";
	return NT_STATUS_NOT_SUPPORTED;
}

#define SMB_OP5(name, fn)                                                    \
	static uint32_t smb_##name(void *state, struct op_call *c)           \
	{                                                                    \
		struct smb_state *st = state;                                \
		return st->nat != NULL ? smb_no_dialect5(c) : fn(st->nb, c); \
	}

SMB_OP5(open, nbsmb5_open)
SMB_OP5(read, nbsmb5_read)
SMB_OP5(write, nbsmb5_write)
SMB_OP5(close5, nbsmb5_close)
SMB_OP5(mkdir5, nbsmb5_mkdir)
SMB_OP5(rmdir5, nbsmb5_rmdir)
SMB_OP5(unlink5, nbsmb5_unlink)
SMB_OP5(readdir, nbsmb5_readdir)
SMB_OP5(deltree5, nbsmb5_deltree)

/* The target is the share: connect, logon and tree connect once. */
static int smb_target_check(void *mem_ctx, const struct dbench_options *o,
			    const char *target, char **err)
{
	return vfs_backend_target_check(&smb_vfs_backend, mem_ctx, o, target,
					err);
}

/*
 * What the native client does not do is refused before the run (exit 2),
 * not ignored: -x, --stat-check and --one-byte-write-fix act on nbvfs's
 * emulation, and dbench 5.0's smb dialect runs over nbvfs only.
 */
static int smb_program_check(void *mem, const struct dbench_options *o,
			     const struct program *p, char **err)
{
	const struct smb_opts *so = o->backend_opts;
	const char *opt = o->xattr ? "-x (--xattr)" :
			  o->stat_check ? "--stat-check" :
			  o->one_byte_write_fix ? "--one-byte-write-fix" : NULL;

	if (!so->native)
		return 0;
	if (opt != NULL) {
		*err = talloc_asprintf(mem, "--smb-client=native does not take "
				       "%s; use --smb-client=libsmbclient", opt);
		return -1;
	}
	for (uint32_t i = 0; i < p->nops; i++) {
		const struct op *op = &p->ops[i];

		if (!op_kind_is_smb5(op->kind))
			continue;
		*err = talloc_asprintf(mem, "%s:%u: %s: dbench 5.0's smb dialect "
				       "needs --smb-client=libsmbclient",
				       p->filename, op->line,
				       op_info[op->kind].name);
		return -1;
	}
	return 0;
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
	.program_check = smb_program_check,
	.client_fds = smb_client_fds,
	.shared_note = smb_shared_note,
	.shared_remove = smb_shared_remove,
	.trees_check = smb_trees_check,
	.trees_kept = smb_trees_kept,
	.setup = smb_client_setup,
	.cleanup = smb_client_cleanup,
	.ops = {
		[OP_NTCREATEX] = smb_ntcreatex, [OP_CLOSE] = smb_close,
		[OP_RENAME] = smb_rename, [OP_UNLINK] = smb_unlink,
		[OP_DELTREE] = smb_deltree, [OP_RMDIR] = smb_rmdir,
		[OP_MKDIR] = smb_mkdir, [OP_QPATHINFO] = smb_qpathinfo,
		[OP_QFILEINFO] = smb_qfileinfo, [OP_QFSINFO] = smb_qfsinfo,
		[OP_SFILEINFO] = smb_sfileinfo, [OP_FIND] = smb_find,
		[OP_WRITEX] = smb_writex, [OP_READX] = smb_readx,
		[OP_LOCKX] = smb_lockx, [OP_UNLOCKX] = smb_unlockx,
		[OP_FLUSH] = smb_flush, [OP_DROPCACHE] = smb_dropcache,
		[OP_OPEN5] = smb_open, [OP_READ5] = smb_read,
		[OP_WRITE5] = smb_write, [OP_CLOSE5] = smb_close5,
		[OP_MKDIR5] = smb_mkdir5, [OP_RMDIR5] = smb_rmdir5,
		[OP_UNLINK5] = smb_unlink5, [OP_READDIR5] = smb_readdir,
		[OP_DELTREE5] = smb_deltree5,
	},
};

#endif /* HAVE_LIBSMBCLIENT && DBENCH_MODULE */
