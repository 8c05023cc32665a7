/*
 * nfs.c - the nfs backend: NFSv3 spoken by dbench itself through libnfs's
 * synchronous API, no mount and no root needed.
 *
 * Two loadfile dialects run on it.  client.txt goes through the SMB
 * semantics (nbvfs) over the NFS vfs (nfs_vfs.c), exactly as fileio runs
 * it over the POSIX vfs; dbench 5.0's NFSv3 dialect (GETATTR3, READ3,
 * WRITE3, ...) is filled in ops[] directly and answers NFS3 status codes
 * (nfs_dialect.c).
 *
 * Each client has its own libnfs context, mounted in setup (before the
 * start gate) on --nfs entry (client id mod the number of entries).  The
 * client's tree is clients/clientN under the export; the trees and the
 * shared paths above them are checked, recorded and removed on every
 * export by the life every backend over a vfs shares (vfs_backend.h).  A
 * lost connection is reported as its errno (a transport fault: the client
 * stops under the default policy); the next op of a client that goes on
 * (--keep-going) mounts again (at most NFS_MAX_REMOUNTS tries, one a
 * second), and its open handles are gone.  Removals check that no
 * directory on the way is a symlink, and the removal walk (nbvfs's)
 * never descends through one.
 *
 * Byte-range locks need --enable-nlm: then each client is also one NLM
 * lock owner with a connection of its own to the server's NLM service
 * (nfs_nlm.c), made in setup beside the mount; LockX/UnlockX go through
 * it (a conflicting lock is EAGAIN to nbvfs, as fcntl's) and LOCK4,
 * UNLOCK4 and TEST4 answer NLM4 status codes.  A server without NLM is
 * a usage error before forking.  Without --enable-nlm, LockX answers
 * NT_STATUS_NOT_SUPPORTED and LOCK4/UNLOCK4/TEST4 NFS3ERR_NOTSUPP.
 *
 * What NFS cannot do here: xattrs (-x), direct I/O; other path ops
 * than removals and the raw calls follow a symlink in a directory on
 * the way, as libnfs resolves paths.
 *
 * Built into the dbench binary, this file defines only the backend's
 * stub (name, options, its module); built as the module (DBENCH_MODULE,
 * modules/nfs.so, with the other files of this folder), the whole
 * backend.
 */
#include "config.h"

#include <errno.h>
#include <popt.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <talloc.h>

#include "backends/backend.h"
#include "backends/backends.h"

/* the whole backend in its module (modules/nfs.so), a stub in dbench */
#if defined(HAVE_LIBNFS) && defined(DBENCH_MODULE)
#define NFS_WHOLE 1
#endif

#ifdef NFS_WHOLE
#include "backends/vfs_backend.h"
#include "smb_semantics/nbvfs.h"
#include "nfs_vfs.h"
#endif

/* ---- options (the table in every build, so that --help lists them) ---- */

enum { NFS_OPT_URL = 1, NFS_OPT_NLM };

static const struct poptOption nfs_options[] = {
	{ "nfs", 0, POPT_ARG_STRING, NULL, NFS_OPT_URL,
	  "NFSv3 export(s); client i uses entry i mod n; libnfs URL "
	  "arguments (?version=3&uid=N&gid=N) pass through",
	  "nfs://SERVER/EXPORT[,...]" },
	{ "enable-nlm", 0, POPT_ARG_NONE, NULL, NFS_OPT_NLM,
	  "byte-range locks through the server's NLM service (without "
	  "it, lock ops answer NOT_SUPPORTED)", NULL },
	POPT_TABLEEND
};

/* the stub's (what --help lists); the module's description says more */
#define NFS_DESCRIPTION "an NFSv3 server through libnfs"
#define NFS_FLAGS BACKEND_REMOTE

#ifdef NFS_WHOLE

/* The backend's options object (dbench_options.backend_opts). */
struct nfs_opts {
	const char **urls;
	unsigned nurls;
	bool nlm;
};

/*
 * A libnfs URL argument that would change the protocol spoken: only
 * "version=3" is NFSv3 (libnfs's other arguments keep it; its NFSv4 is
 * not what the raw calls, the dialect or NLM speak).  0, or -1 and err.
 */
static int nfs_url_args_check(void *mem_ctx, const char *url, char **err)
{
	const char *q = strchr(url, '?');

	while (q != NULL) {
		const char *a = q + 1;
		size_t len;

		q = strchr(a, '&');
		len = q != NULL ? (size_t)(q - a) : strlen(a);
		if (strncmp(a, "version=", 8) != 0 ||
		    (len == 9 && a[8] == '3'))
			continue;
		*err = talloc_asprintf(mem_ctx,
				       "'%.*s' in '%s': only NFSv3 is "
				       "supported (version=3)",
				       (int)len, a, url);
		return -1;
	}
	return 0;
}

static int nfs_option(void *mem_ctx, void **bopts, int val, const char *arg,
		      char **err)
{
	struct nfs_opts *no = *bopts;
	char *copy, *save = NULL;

	if (no == NULL && (no = talloc_zero(mem_ctx, struct nfs_opts)) == NULL)
		return -1;
	*bopts = no;
	if (val == NFS_OPT_NLM) {
		no->nlm = true;
		return 0;
	}
	copy = talloc_strdup(no, arg);
	for (char *u = copy ? strtok_r(copy, ",", &save) : NULL; u != NULL;
	     u = strtok_r(NULL, ",", &save)) {
		const char **v;

		if (strncmp(u, "nfs://", 6) != 0 || u[6] == '\0' ||
		    u[6] == '/') {
			*err = talloc_asprintf(mem_ctx,
					       "--nfs: '%s' is not an NFS URL; "
					       "expected nfs://SERVER/EXPORT",
					       u);
			return -1;
		}
		if (nfs_url_args_check(mem_ctx, u, err) != 0)
			return -1;
		v = talloc_realloc(no, no->urls, const char *, no->nurls + 1);
		if (v == NULL)
			return -1;
		no->urls = v;
		no->urls[no->nurls++] = u;
	}
	if (copy == NULL || no->nurls == 0) {
		*err = talloc_asprintf(mem_ctx, "--nfs: '%s' names no export; "
				       "expected nfs://SERVER/EXPORT[,...]",
				       arg);
		return -1;
	}
	return 0;
}

static int nfs_options_done(void *mem_ctx, void **bopts, char **err)
{
	const struct nfs_opts *no = *bopts;

	if (no != NULL && no->nurls > 0)
		return 0;
	*err = talloc_strdup(mem_ctx,
			     "-B nfs needs --nfs=nfs://SERVER/EXPORT "
			     "(a comma-separated list spreads the "
			     "clients over several exports)");
	return -1;
}

/* ---- the backend over its vfs (vfs_backend.h) ---- */

static const struct nfs_opts *nfs_opts_of(const struct dbench_options *o)
{
	return o != NULL ? o->backend_opts : NULL;
}

/* The targets: the --nfs exports. */
static unsigned nfs_ntargets(const struct dbench_options *o)
{
	const struct nfs_opts *no = nfs_opts_of(o);

	return no != NULL ? no->nurls : 0;
}

static const char *nfs_target_name(void *mem, const struct dbench_options *o,
				   unsigned t)
{
	return nfs_opts_of(o)->urls[t];
}

/*
 * A vfs on export t for the run's own bookkeeping (before or after the
 * clients): never mounted again once lost.  An export that cannot be
 * mounted is -ENOTCONN without a word: the target check said why.
 */
static int nfs_admin_connect(void *mem, const struct dbench_options *o,
			     unsigned t, struct vfs **vfs, char **err)
{
	struct nfsv *m = nfsv_new(mem, nfs_opts_of(o)->urls[t]);
	char *why = NULL;

	*err = NULL;
	if (m == NULL)
		return -ENOMEM;
	m->remounts = NFS_MAX_REMOUNTS;
	m->ctx = nfs_connect(m, m->url, &why);
	talloc_free(why);
	if (m->ctx == NULL) {
		talloc_free(m);
		return -ENOTCONN;
	}
	/* the bookkeeping's calls wait no longer than the mount did */
	nfs_set_timeout(m->ctx, NFS_CONNECT_TIMEOUT_S * 1000);
	m->raw = nfs_raw_new(m, NFS_CONNECT_TIMEOUT_S * 1000);
	*vfs = &m->vfs;
	return 0;
}

/* One client's mount on its export (and its NLM lock owner). */
static int nfs_client_vfs(void *mem_ctx,
			  const struct backend_client_config *cfg,
			  struct vfs **vfs, char **err)
{
	const struct nfs_opts *no = nfs_opts_of(cfg->opts);
	struct nfsv *m;

	if (no == NULL || no->nurls == 0) {
		*err = talloc_strdup(mem_ctx, "no --nfs export given");
		return -1;
	}
	m = nfsv_new(mem_ctx, no->urls[cfg->client % no->nurls]);
	if (m == NULL || (m->raw = nfs_raw_new(m, NFS_TIMEOUT_MS)) == NULL) {
		talloc_free(m);
		*err = talloc_strdup(mem_ctx, "out of memory");
		return -1;
	}
	m->opts = cfg->opts;
	m->want_nlm = no->nlm;
	m->client = cfg->client;
	m->ctx = nfs_connect(mem_ctx, m->url, err);
	if (m->ctx != NULL && m->want_nlm)
		m->nlm = nfs_nlm_new(m, m->url, m->client,
				     NFS_CONNECT_TIMEOUT_S * 1000, err);
	if (m->nlm != NULL)
		nfs_nlm_set_timeout(m->nlm, NFS_TIMEOUT_MS);
	if (m->ctx == NULL || (m->want_nlm && m->nlm == NULL)) {
		talloc_free(m);
		return -1;
	}
	*vfs = &m->vfs;
	return 0;
}

/* libnfs resolves paths and would follow a symlink on the way. */
static int nfs_parents_plain(struct vfs *vfs, const char *path)
{
	struct nfsv *m = nfsv_of(vfs);
	int r = nfsv_ready(m);

	return r < 0 ? r : nfsv_parents_plain(m, path);
}

static const struct vfs_backend nfs_vfs_backend = {
	.ntargets = nfs_ntargets,
	.target_name = nfs_target_name,
	.connect = nfs_admin_connect,
	.client_vfs = nfs_client_vfs,
	.parents_plain = nfs_parents_plain,
};

VFS_BACKEND_HOOKS(nfs, &nfs_vfs_backend)

/* ---- the rest of the backend ---- */

/*
 * -D has no meaning here (the exports are --nfs's): only its default "."
 * passes.  Then every export is mounted once (and with --enable-nlm, its
 * server's NLM service reached), so that an unreachable server, a missing
 * portmapper, a missing or forbidden export or a server without NLM is
 * one line before anything is forked.
 */
static int nfs_target_check(void *mem_ctx, const struct dbench_options *o,
			    const char *target, char **err)
{
	const struct nfs_opts *no = nfs_opts_of(o);

	if (strcmp(target, ".") != 0) {
		*err = talloc_asprintf(mem_ctx,
				       "-D '%s' does not apply to -B nfs: the "
				       "clients' trees are clients/clientN on "
				       "the --nfs export(s)",
				       target);
		return -1;
	}
	for (unsigned i = 0; no != NULL && i < no->nurls; i++) {
		struct nfs_context *ctx = nfs_connect(mem_ctx, no->urls[i],
						      err);

		if (ctx == NULL)
			return -1;
		nfs_destroy_context(ctx);
		if (no->nlm) {
			struct nfs_nlm *n = nfs_nlm_new(mem_ctx, no->urls[i],
							0,
							NFS_CONNECT_TIMEOUT_S *
								1000,
							err);

			if (n == NULL)
				return -1;
			talloc_free(n);
		}
	}
	return 0;
}

/* One socket per client (the mount's own comes and goes in setup), one
 * more for NLM. */
static uint64_t nfs_client_fds(const struct dbench_options *o,
			       uint32_t max_open_handles, uint32_t max_dirs)
{
	const struct nfs_opts *no = nfs_opts_of(o);

	(void)max_open_handles;
	(void)max_dirs;
	return no != NULL && no->nlm ? 3 : 2;
}

/* Deltree replaces NBVFS_OPS's entry (designated initialisers: the last
 * one wins, which is the point here). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
const struct backend nfs_backend = {
	.abi = BACKEND_ABI,
	.name = "nfs",
	.description = "an NFSv3 server through libnfs (--nfs=nfs://SERVER/"
		       "EXPORT); client.txt and the NFSv3 dialect",
	.unavailable = NULL,
	.flags = NFS_FLAGS,
	.options = nfs_options,
	.option = nfs_option,
	.options_done = nfs_options_done,
	.target_check = nfs_target_check,
	.client_fds = nfs_client_fds,
	.shared_note = nfs_shared_note,
	.shared_remove = nfs_shared_remove,
	.trees_check = nfs_trees_check,
	.trees_kept = nfs_trees_kept,
	.setup = nfs_setup,
	.cleanup = nfs_cleanup,
	.ops = {
		NBVFS_OPS,
		[OP_DELTREE] = nfs_deltree,
		[OP_GETATTR3] = nfs3_op,
		[OP_SETATTR3] = nfs3_op,
		[OP_LOOKUP3] = nfs3_op,
		[OP_ACCESS3] = nfs3_op,
		[OP_READLINK3] = nfs3_op,
		[OP_READ3] = nfs3_op,
		[OP_WRITE3] = nfs3_op,
		[OP_CREATE3] = nfs3_op,
		[OP_MKDIR3] = nfs3_op,
		[OP_SYMLINK3] = nfs3_op,
		[OP_REMOVE3] = nfs3_op,
		[OP_RMDIR3] = nfs3_op,
		[OP_RENAME3] = nfs3_op,
		[OP_LINK3] = nfs3_op,
		[OP_READDIRPLUS3] = nfs3_op,
		[OP_FSSTAT3] = nfs3_op,
		[OP_FSINFO3] = nfs3_op,
		[OP_PATHCONF3] = nfs3_op,
		[OP_COMMIT3] = nfs3_op,
		[OP_LOCK4] = nfs3_op,
		[OP_UNLOCK4] = nfs3_op,
		[OP_TEST4] = nfs3_op,
	},
};
#pragma GCC diagnostic pop

#else /* !NFS_WHOLE */

#ifdef HAVE_LIBNFS
BACKEND_MODULE_STUB(nfs, NFS_DESCRIPTION, NFS_FLAGS, nfs_options);
#else
BACKEND_UNAVAILABLE(nfs, NFS_DESCRIPTION, NFS_FLAGS, nfs_options,
		    NFS_UNAVAILABLE_WHY);
#endif

#endif /* NFS_WHOLE */
