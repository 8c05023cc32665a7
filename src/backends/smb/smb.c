/*
 * smb.c - the SMB backend: each client's ops over the project's own
 * SMB2/SMB3 client (smb2_*.c, --smb-client=native, the default) or the
 * SMB semantics (nbvfs) over a vfs that talks to the server through
 * libsmbclient (smb_vfs.c, --smb-client=libsmbclient), one connection
 * (session + tree) per client.  The run's own bookkeeping (the target
 * check, the trees kept and removed) goes through libsmbclient.
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
	  "the SMB client: native (the default: dbench's own SMB2/3 "
	  "client, the requests each SMB operation needs) or libsmbclient "
	  "(for SMB1 or DFS referrals)",
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

#define SMB_DESCRIPTION "an SMB2/SMB3 server (dbench's own client, or libsmbclient)"
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

/* The native client's parameters from the options. */
static struct smb2_params smb_native_params(const struct smb_opts *so)
{
	return (struct smb2_params){
		.server = so->server, .port = so->port,
		.share = so->share, .user = so->user,
		.password = so->password, .domain = so->domain,
		.dialect_min = smb_dialect_num(so->proto_min, SMB2_DIALECT_202),
		.dialect_max = smb_dialect_num(so->proto_max, SMB2_DIALECT_311),
		.sign = so->sign, .encrypt = so->encrypt,
		.kerberos = so->kerberos,
		.timeout_s = SMB_TIMEOUT_S,
		.in_flight = so->in_flight,
	};
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
		struct smb2_params p = smb_native_params(so);

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

SMB_OP(ntcreatex, nbvfs_ntcreatex, natx_ntcreatex)
SMB_OP(close, nbvfs_close, nat_close_op)
SMB_OP(rename, nbvfs_rename, natx_rename)
SMB_OP(unlink, nbvfs_unlink, nat_unlink)
SMB_OP(deltree, nbvfs_deltree, nat_deltree)
SMB_OP(rmdir, nbvfs_rmdir, natx_rmdir)
SMB_OP(mkdir, nbvfs_mkdir, natx_mkdir)
SMB_OP(qpathinfo, nbvfs_qpathinfo, natx_qpathinfo)
SMB_OP(qfileinfo, nbvfs_qfileinfo, natx_qfileinfo)
SMB_OP(qfsinfo, nbvfs_qfsinfo, nat_qfsinfo)
SMB_OP(sfileinfo, nbvfs_sfileinfo, natx_sfileinfo)
SMB_OP(find, nbvfs_find, nat_find)
SMB_OP(writex, nbvfs_writex, natx_writex)
SMB_OP(readx, nbvfs_readx, nat_readx)
SMB_OP(lockx, nbvfs_lockx, nat_lockx)
SMB_OP(unlockx, nbvfs_unlockx, nat_unlockx)
SMB_OP(flush, nbvfs_flush, nat_flush)
SMB_OP(dropcache, nbvfs_dropcache, nat_dropcache)

SMB_OP(open, nbsmb5_open, nat5_open)
SMB_OP(read, nbsmb5_read, nat5_read)
SMB_OP(write, nbsmb5_write, nat5_write)
SMB_OP(close5, nbsmb5_close, nat5_close)
SMB_OP(mkdir5, nbsmb5_mkdir, nat5_mkdir)
SMB_OP(rmdir5, nbsmb5_rmdir, nat5_rmdir)
SMB_OP(unlink5, nbsmb5_unlink, nat5_unlink)
SMB_OP(readdir, nbsmb5_readdir, nat5_readdir)
SMB_OP(deltree5, nbsmb5_deltree, nat5_deltree)

/*
 * --smb-client=native: the clients' own client connects once too.  What
 * only it meets (no answer within SMB_TIMEOUT_S, a server without SMB2)
 * is *err at once; what libsmbclient meets as well (a refused connection
 * or logon, a missing share, no dialect in common) is left to the check
 * over libsmbclient, whose lines are the same for both clients; another
 * failure of the native client alone is *later.  0, or -1 with *err.
 */
static int smb_native_probe(void *mem, const struct smb_opts *so,
			    char **err, char **later)
{
	struct smb2_params p = smb_native_params(so);
	char *why = NULL;
	int code = 0;
	struct smb2_conn *c = smb2_connect_code(mem, &p, &why, &code);
	unsigned port = so->port ? so->port : 445;

	if (c != NULL) {
		talloc_free(c);
		return 0;
	}
	if (why == NULL) {
		*err = talloc_strdup(mem, "out of memory");
		return -1;
	}
	if (code == ETIMEDOUT && strstr(why, ": connect: ") == NULL)
		*err = smb_connect_message(mem, so, code, true);
	else if (code == ETIMEDOUT || code == ENOPROTOOPT)
		*err = talloc_asprintf(mem, "smb: //%s:%u/%s: %s%s", so->server,
				       port, so->share,
				       code == ETIMEDOUT ? "server " : "", why);
	if (*err != NULL)
		return -1;
	*later = talloc_asprintf(mem, "smb: //%s:%u/%s: --smb-client=native: "
				 "%s (libsmbclient reached the share: "
				 "--smb-client=libsmbclient may do)",
				 so->server, port, so->share, why);
	return 0;
}

/* The target is the share: connect, logon and tree connect once. */
static int smb_target_check(void *mem_ctx, const struct dbench_options *o,
			    const char *target, char **err)
{
	const struct smb_opts *so = o->backend_opts;
	char *later = NULL;
	int r;

	*err = NULL;
	if (so->native && smb_native_probe(mem_ctx, so, err, &later) != 0)
		return -1;
	r = vfs_backend_target_check(&smb_vfs_backend, mem_ctx, o, target,
				     err);
	if (r == 0 && later != NULL) {
		*err = later;
		return -1;
	}
	return r;
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
