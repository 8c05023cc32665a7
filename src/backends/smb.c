/*
 * smb.c - the SMB backend: the SMB semantics (nbvfs) over a vfs that
 * talks SMB2/SMB3 to a server through libsmbclient, one connection
 * (session + tree) per client.
 *
 * The target is the share (--smb-share), not a -D directory: the clients'
 * trees are clients/clientN under the share, made and removed over SMB.
 * Every client has its own SMBCCTX, opened in setup (before the start
 * gate) and kept for the whole run; libsmbclient reconnects a context
 * whose connection was lost at its next call (one attempt per call), which
 * is what --keep-going relies on.  The server matches and looks up names
 * itself, so the vfs has VFS_CASE_INSENSITIVE and VFS_SERVER_LOOKUP (no
 * stat of ours before a path op, no fstat after an open: each would be
 * one more round trip, and most of the client's CPU).  libsmbclient has no byte-range lock and
 * no flush call: LockX, UnlockX and Flush are answered locally (README).
 *
 * The password comes from --smb-user, $DBENCH_SMB_PASSWORD or
 * --smb-auth-file; it is never part of a message.  Built into the dbench
 * binary, this file defines only the backend's stub: its name, options and
 * either why it is unavailable (no libsmbclient) or its module; built as
 * the module (DBENCH_MODULE, modules/smb.so), the whole backend.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>

#include <popt.h>
#include <talloc.h>

#include "backend.h"
#include "backends.h"

/* Option values (struct poptOption.val) of the smb backend. */
enum smb_opt {
	SMB_OPT_SHARE = 1,
	SMB_OPT_USER,
	SMB_OPT_AUTH_FILE,
	SMB_OPT_PROTOCOL,
	SMB_OPT_ENCRYPT,
	SMB_OPT_SIGN,
};

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

#if !defined(HAVE_LIBSMBCLIENT) || !defined(DBENCH_MODULE)

/* Never called (-B smb is refused first, or the module's hook replaces
 * this one); the registry wants a hook beside an options table. */
static int smb_option(void *mem_ctx, void **bopts, int val, const char *arg,
		      char **err)
{
	(void)bopts;
	(void)val;
	(void)arg;
	*err = talloc_strdup(mem_ctx, "built without libsmbclient");
	return -1;
}

const struct backend smb_backend = {
	.abi = BACKEND_ABI,
	.name = "smb",
	.description = "an SMB2/SMB3 server through libsmbclient",
#ifdef HAVE_LIBSMBCLIENT
	.module = "smb",	/* the rest: this file built as modules/smb.so */
#else
	.unavailable = "built without libsmbclient",
#endif
	.flags = BACKEND_OWN_TARGET,
	.options = smb_options,
	.option = smb_option,
};

#else /* HAVE_LIBSMBCLIENT && DBENCH_MODULE */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <talloc.h>
#include <unistd.h>

#include <libsmbclient.h>

#include "nbsmb5.h"
#include "nbvfs.h"
#include "vfs_kept.h"
#include "util.h"
#include "vfs.h"

/* What the options say; the backend_opts object. */
struct smb_opts {
	char *server;
	unsigned port;		/* 0: the default (445) */
	char *share;
	char *domain, *user, *password;
	bool user_given;
	const char *auth_file;
	const char *proto_min, *proto_max;	/* NULL: libsmbclient's */
	bool encrypt, sign;
};

/* ---- options ---- */

static const char *const smb_dialects[] = {
	"SMB2_02", "SMB2_10", "SMB3_00", "SMB3_02", "SMB3_11", NULL
};

/* The dialect name as spelled in smb_dialects (any case), or NULL. */
static const char *smb_dialect(const char *s, size_t len)
{
	for (size_t i = 0; smb_dialects[i] != NULL; i++)
		if (strlen(smb_dialects[i]) == len &&
		    strncasecmp(smb_dialects[i], s, len) == 0)
			return smb_dialects[i];
	return NULL;
}

static int smb_parse_protocol(struct smb_opts *so, const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t n1 = colon ? (size_t)(colon - arg) : strlen(arg);

	so->proto_min = smb_dialect(arg, n1);
	so->proto_max = colon ? smb_dialect(colon + 1, strlen(colon + 1)) :
				so->proto_min;
	return so->proto_min != NULL && so->proto_max != NULL ? 0 : -1;
}

/* //SERVER[:PORT]/SHARE or smb://SERVER[:PORT]/SHARE */
static int smb_parse_share(void *mem, struct smb_opts *so, const char *arg)
{
	const char *p = arg, *slash, *colon;
	int64_t port = 0;

	if (strncasecmp(p, "smb://", 6) == 0)
		p += 6;
	else if (p[0] == '/' && p[1] == '/')
		p += 2;
	else
		return -1;
	slash = strchr(p, '/');
	if (slash == NULL || slash == p || slash[1] == '\0' ||
	    strchr(slash + 1, '/') != NULL)
		return -1;
	colon = memchr(p, ':', (size_t)(slash - p));
	if (colon != NULL) {
		char *ps = talloc_strndup(mem, colon + 1,
					  (size_t)(slash - colon - 1));

		if (ps == NULL || parse_int64(ps, 1, 65535, &port) != 0)
			return -1;
	}
	so->server = talloc_strndup(mem, p, (size_t)((colon ? colon : slash) -
						     p));
	so->share = talloc_strdup(mem, slash + 1);
	so->port = (unsigned)port;
	return so->server != NULL && so->share != NULL && so->server[0] ? 0 :
									 -1;
}

/* [DOMAIN/]USER[%PASSWORD] (DOMAIN\USER too) */
static int smb_parse_user(void *mem, struct smb_opts *so, const char *arg)
{
	const char *pct = strchr(arg, '%');
	size_t ulen = pct ? (size_t)(pct - arg) : strlen(arg);
	const char *sep = NULL;

	for (size_t i = 0; i < ulen; i++)
		if (arg[i] == '/' || arg[i] == '\\')
			sep = &arg[i];
	if (sep != NULL) {
		so->domain = talloc_strndup(mem, arg, (size_t)(sep - arg));
		ulen -= (size_t)(sep + 1 - arg);
		arg = sep + 1;
	}
	so->user = talloc_strndup(mem, arg, ulen);
	if (pct != NULL)
		so->password = talloc_strdup(mem, pct + 1);
	so->user_given = true;
	return so->user != NULL && so->user[0] != '\0' ? 0 : -1;
}

static int smb_option(void *mem_ctx, void **bopts, int val, const char *arg,
		      char **err)
{
	struct smb_opts *so = *bopts;

	if (so == NULL) {
		so = talloc_zero(mem_ctx, struct smb_opts);
		if (so == NULL)
			return -1;
		*bopts = so;
	}
	switch (val) {
	case SMB_OPT_SHARE:
		if (smb_parse_share(so, so, arg) == 0)
			return 0;
		*err = talloc_asprintf(mem_ctx, "'%s' is not //SERVER[:PORT]"
				       "/SHARE or smb://SERVER[:PORT]/SHARE",
				       arg);
		return -1;
	case SMB_OPT_USER:
		if (smb_parse_user(so, so, arg) == 0)
			return 0;
		*err = talloc_strdup(mem_ctx, "expected [DOMAIN/]USER"
				     "[%PASSWORD] with a user name");
		return -1;
	case SMB_OPT_AUTH_FILE:
		so->auth_file = talloc_strdup(so, arg);
		return so->auth_file != NULL ? 0 : -1;
	case SMB_OPT_PROTOCOL:
		if (smb_parse_protocol(so, arg) == 0)
			return 0;
		*err = talloc_asprintf(mem_ctx, "'%s' is not a dialect or MIN:"
				       "MAX of SMB2_02, SMB2_10, SMB3_00, "
				       "SMB3_02, SMB3_11", arg);
		return -1;
	case SMB_OPT_ENCRYPT:
		so->encrypt = true;
		return 0;
	case SMB_OPT_SIGN:
		so->sign = true;
		return 0;
	}
	return -1;
}

/* Strip leading and trailing blanks of s[0..len) in place; the start. */
static char *smb_trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
			 s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* smbclient's authentication file: "username = U", "password = P",
 * "domain = D"; the command line's values win over the file's. */
static int smb_read_auth_file(void *mem, struct smb_opts *so, char **err)
{
	FILE *f = fopen(so->auth_file, "r");
	char line[1024];

	if (f == NULL) {
		*err = talloc_asprintf(mem, "--smb-auth-file '%s': %s",
				       so->auth_file, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		char *eq = strchr(line, '='), *key, *val;

		if (eq == NULL)
			continue;
		*eq = '\0';
		key = smb_trim(line);
		val = smb_trim(eq + 1);
		if (strcmp(key, "username") == 0 && !so->user_given)
			so->user = talloc_strdup(so, val);
		else if (strcmp(key, "password") == 0 && so->password == NULL)
			so->password = talloc_strdup(so, val);
		else if (strcmp(key, "domain") == 0 && so->domain == NULL)
			so->domain = talloc_strdup(so, val);
	}
	explicit_bzero(line, sizeof(line));
	fclose(f);
	return 0;
}

static int smb_options_done(void *mem_ctx, void **bopts, char **err)
{
	struct smb_opts *so = *bopts;
	const char *env = getenv("DBENCH_SMB_PASSWORD");

	if (so == NULL || so->server == NULL) {
		*err = talloc_strdup(mem_ctx, "--smb-share=//SERVER/SHARE is "
				     "required");
		return -1;
	}
	if (so->password == NULL && env != NULL)
		so->password = talloc_strdup(so, env);
	if (so->auth_file != NULL && smb_read_auth_file(mem_ctx, so, err) != 0)
		return -1;
	if (so->user == NULL)
		so->user = talloc_strdup(so, "guest");
	if (so->password == NULL)
		so->password = talloc_strdup(so, "");
	if (so->domain == NULL)
		so->domain = talloc_strdup(so, "");
	if (so->user == NULL || so->password == NULL || so->domain == NULL)
		return -1;
	if (so->proto_min != NULL && so->proto_max != NULL &&
	    strcmp(so->proto_min, so->proto_max) > 0) {
		*err = talloc_strdup(mem_ctx, "--smb-protocol: MIN is above "
				     "MAX");
		return -1;
	}
	return 0;
}

/* ---- contexts ---- */

static void smb_auth(SMBCCTX *ctx, const char *srv, const char *shr,
		     char *wg, int wglen, char *un, int unlen, char *pw,
		     int pwlen)
{
	const struct smb_opts *so = smbc_getOptionUserData(ctx);

	(void)srv;
	(void)shr;
	snprintf(wg, (size_t)wglen, "%s", so->domain);
	snprintf(un, (size_t)unlen, "%s", so->user);
	snprintf(pw, (size_t)pwlen, "%s", so->password);
}

/*
 * --smb-sign: libsmbclient takes "client signing" from its configuration
 * only; a private file of one line, loaded and removed at once.
 */
static int smb_load_signing(SMBCCTX *ctx)
{
	char path[] = "/tmp/dbench-smb-XXXXXX";
	static const char conf[] = "[global]\n\tclient signing = required\n";
	int fd = mkstemp(path), r;

	if (fd < 0)
		return -errno;
	r = write(fd, conf, sizeof(conf) - 1) == (ssize_t)(sizeof(conf) - 1) ?
		    0 : -EIO;
	close(fd);
	if (r == 0 && smbc_setConfiguration(ctx, path) != 0)
		r = -EINVAL;
	unlink(path);
	return r;
}

static int smb_context_destroy(SMBCCTX **pctx)
{
	smbc_free_context(*pctx, 1);
	return 0;
}

/*
 * A libsmbclient context configured from so, not yet connected, as a
 * talloc object under mem (freeing it frees the context and closes its
 * connection).  NULL with *err a negative errno on failure.
 */
static SMBCCTX **smb_context_new(void *mem, const struct smb_opts *so,
				 int *err)
{
	SMBCCTX **pctx = talloc(mem, SMBCCTX *);
	SMBCCTX *ctx = smbc_new_context();

	if (pctx == NULL || ctx == NULL) {
		*err = -ENOMEM;
		goto fail;
	}
	smbc_setDebug(ctx, 0);
	smbc_setOptionUserData(ctx, (void *)so);
	smbc_setFunctionAuthDataWithContext(ctx, smb_auth);
	smbc_setOptionNoAutoAnonymousLogin(ctx, true);
	smbc_setOptionUseKerberos(ctx, false);
	smbc_setOptionFallbackAfterKerberos(ctx, true);
	if (so->port != 0)
		smbc_setPort(ctx, (uint16_t)so->port);
	if (so->encrypt)
		smbc_setOptionSmbEncryptionLevel(ctx,
						 SMBC_ENCRYPTLEVEL_REQUIRE);
	if (so->sign && (*err = smb_load_signing(ctx)) != 0)
		goto fail;
	if ((so->proto_min != NULL &&
	     !smbc_setOptionProtocols(ctx, so->proto_min, so->proto_max)) ||
	    smbc_init_context(ctx) == NULL) {
		*err = errno ? -errno : -EINVAL;
		goto fail;
	}
	*pctx = ctx;
	talloc_set_destructor(pctx, smb_context_destroy);
	return pctx;
fail:
	if (ctx != NULL)
		smbc_free_context(ctx, 1);
	talloc_free(pctx);
	return NULL;
}

/* smb://SERVER[:PORT]/SHARE */
static char *smb_base_url(void *mem, const struct smb_opts *so)
{
	if (so->port != 0)
		return talloc_asprintf(mem, "smb://%s:%u/%s", so->server,
				       so->port, so->share);
	return talloc_asprintf(mem, "smb://%s/%s", so->server, so->share);
}

/* "HOST:PORT", for messages. */
static const char *smb_hostport(void *mem, const struct smb_opts *so)
{
	return talloc_asprintf(mem, "%s:%u", so->server,
			       so->port ? so->port : 445);
}

/* The one-line message of a failed connection (err: a positive errno). */
static char *smb_connect_message(void *mem, const struct smb_opts *so,
				 int err)
{
	const char *hp = smb_hostport(mem, so);

	switch (err) {
	case ECONNREFUSED:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case ETIMEDOUT:
	case EHOSTDOWN:
		return talloc_asprintf(mem, "smb: server %s unreachable: %s",
				       hp, strerror(err));
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return talloc_asprintf(mem, "smb: share '%s' not found on "
				       "server %s", so->share, hp);
	case EACCES:
	case EPERM:
		return talloc_asprintf(mem, "smb: logon failure as user '%s' "
				       "on //%s/%s (wrong user or password, "
				       "or access denied)", so->user, hp,
				       so->share);
	case EPROTONOSUPPORT:
	case ENOSYS:
	case ENOTSUP:
	case ECONNRESET:
	case EPROTO:
		return talloc_asprintf(mem, "smb: server %s: protocol not "
				       "supported (no dialect in common with "
				       "--smb-protocol %s:%s%s): %s", hp,
				       so->proto_min ? so->proto_min : "default",
				       so->proto_max ? so->proto_max : "default",
				       so->encrypt ? ", encryption required" :
						     "", strerror(err));
	default:
		return talloc_asprintf(mem, "smb: //%s/%s: %s", hp, so->share,
				       strerror(err));
	}
}

/*
 * Connect (negotiate, session, tree) by asking for the share's root.
 * Returns 0 or a positive errno.
 */
static int smb_connect(SMBCCTX *ctx, const char *base)
{
	char *root = talloc_asprintf(NULL, "%s/", base);
	struct stat sb;
	int r;

	if (root == NULL)
		return ENOMEM;
	errno = 0;
	r = smbc_getFunctionStat(ctx)(ctx, root, &sb) == 0 ? 0 :
							     (errno ? errno :
								      EIO);
	talloc_free(root);
	return r;
}

/* ---- the vfs ---- */

struct smb_file {
	SMBCFILE *f;		/* NULL: a directory handle, or free */
	char *path;		/* NULL: slot free */
	int flags;		/* the open's access and O_* flags */
	bool gone;		/* unlinked while open (smb_unlink_open) */
};

struct smb_vfs {
	struct vfs vfs;
	SMBCCTX **pctx;
	char *base;		/* smb://SERVER[:PORT]/SHARE */
	char *url[2];		/* built per call */
	size_t url_len[2];
	struct smb_file *files;
	size_t nfiles;
	SMBCFILE *root;		/* the share's root, open for QFSINFO */
	SMBCCTX *root_ctx;	/* the context root was opened in */
};

#define SMB_CTX(sv) (*(sv)->pctx)

/*
 * The URL of path[0..len) in buffer k; '%' and '?' are escaped (URL
 * syntax); "." or "" is the share's root.  NULL when out of memory.
 */
static const char *smb_url(struct smb_vfs *sv, int k, const char *path,
			   size_t len)
{
	size_t blen = strlen(sv->base), need = blen + 2 + 3 * len, o;

	if (need > sv->url_len[k]) {
		char *n = talloc_realloc(sv, sv->url[k], char, need);

		if (n == NULL)
			return NULL;
		sv->url[k] = n;
		sv->url_len[k] = need;
	}
	memcpy(sv->url[k], sv->base, blen);
	o = blen;
	sv->url[k][o++] = '/';
	if (!(len == 1 && path[0] == '.')) {
		for (size_t i = 0; i < len; i++) {
			if (path[i] == '%' || path[i] == '?') {
				o += (size_t)sprintf(&sv->url[k][o], "%%%02X",
						     (unsigned char)path[i]);
			} else {
				sv->url[k][o++] = path[i];
			}
		}
	}
	sv->url[k][o] = '\0';
	return sv->url[k];
}

#define SMB_URL(sv, k, p) smb_url((sv), (k), (p), strlen(p))

/* -errno of the libsmbclient call that just failed. */
static int smb_err(void)
{
	return errno != 0 ? -errno : -EIO;
}

static struct smb_file *smb_file(struct smb_vfs *sv, int fh)
{
	if (fh < 0 || (size_t)fh >= sv->nfiles || sv->files[fh].path == NULL)
		return NULL;
	return &sv->files[fh];
}

/* A free handle slot (growing the table), or -ENOMEM. */
static int smb_new_handle(struct smb_vfs *sv, const char *path, SMBCFILE *f)
{
	size_t i;

	for (i = 0; i < sv->nfiles && sv->files[i].path != NULL; i++)
		;
	if (i == sv->nfiles) {
		size_t n = sv->nfiles ? 2 * sv->nfiles : 16;
		struct smb_file *t = talloc_realloc(sv, sv->files,
						    struct smb_file, n);

		if (t == NULL)
			return -ENOMEM;
		memset(&t[sv->nfiles], 0, (n - sv->nfiles) * sizeof(*t));
		sv->files = t;
		sv->nfiles = n;
	}
	sv->files[i].path = talloc_strdup(sv, path);
	if (sv->files[i].path == NULL)
		return -ENOMEM;
	sv->files[i].f = f;
	return (int)i;
}

static int smb_stat(struct vfs *vfs, const char *path, struct stat *sb)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	const char *u = SMB_URL(sv, 0, path);

	if (u == NULL)
		return -ENOMEM;
	errno = 0;
	return smbc_getFunctionStat(SMB_CTX(sv))(SMB_CTX(sv), u, sb) == 0 ?
		       0 : smb_err();
}

static int smb_open(struct vfs *vfs, const char *path, int flags, mode_t mode)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	const char *u;
	SMBCFILE *f;
	int fh;

	if (flags & O_DIRECTORY) {
		struct stat sb;
		int r = smb_stat(vfs, path, &sb);

		if (r != 0)
			return r;
		if (!S_ISDIR(sb.st_mode))
			return -ENOTDIR;
		return smb_new_handle(sv, path, NULL);
	}
	u = SMB_URL(sv, 0, path);
	if (u == NULL)
		return -ENOMEM;
	errno = 0;
	f = smbc_getFunctionOpen(SMB_CTX(sv))(
		SMB_CTX(sv), u,
		flags & (O_ACCMODE | O_CREAT | O_EXCL | O_TRUNC), mode);
	if (f == NULL)
		return smb_err();
	fh = smb_new_handle(sv, path, f);
	if (fh < 0)
		smbc_getFunctionClose(SMB_CTX(sv))(SMB_CTX(sv), f);
	else
		sv->files[fh].flags = flags & O_ACCMODE;
	return fh;
}

static int smb_close(struct vfs *vfs, int fh)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smb_file *sf = smb_file(sv, fh);
	int r = 0;

	if (sf == NULL)
		return -EBADF;
	errno = 0;
	if (sf->f != NULL &&
	    smbc_getFunctionClose(SMB_CTX(sv))(SMB_CTX(sv), sf->f) != 0)
		r = smb_err();
	TALLOC_FREE(sf->path);
	sf->f = NULL;
	sf->gone = false;
	return r;
}

static int smb_fstat(struct vfs *vfs, int fh, struct stat *sb)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smb_file *sf = smb_file(sv, fh);

	if (sf == NULL)
		return -EBADF;
	if (sf->gone) {
		*sb = (struct stat){ .st_mode = S_IFREG | 0644, .st_nlink = 0 };
		return 0;
	}
	if (sf->f == NULL)
		return smb_stat(vfs, sf->path, sb);
	errno = 0;
	return smbc_getFunctionFstat(SMB_CTX(sv))(SMB_CTX(sv), sf->f, sb) ==
			       0 ?
		       0 :
		       smb_err();
}

/* One path call of libsmbclient: which is SMB_MKDIR, SMB_RMDIR or
 * SMB_UNLINK. */
enum smb_path_call { SMB_MKDIR, SMB_RMDIR, SMB_UNLINK };

static int smb_path_call(struct vfs *vfs, const char *path,
			 enum smb_path_call which)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	SMBCCTX *ctx = SMB_CTX(sv);
	const char *u = SMB_URL(sv, 0, path);
	int r;

	if (u == NULL)
		return -ENOMEM;
	errno = 0;
	switch (which) {
	case SMB_MKDIR:
		r = smbc_getFunctionMkdir(ctx)(ctx, u, 0755);
		break;
	case SMB_RMDIR:
		r = smbc_getFunctionRmdir(ctx)(ctx, u);
		break;
	default:
		r = smbc_getFunctionUnlink(ctx)(ctx, u);
		break;
	}
	return r == 0 ? 0 : smb_err();
}

static int smb_mkdir(struct vfs *vfs, const char *path, mode_t mode)
{
	(void)mode;
	return smb_path_call(vfs, path, SMB_MKDIR);
}

static int smb_rmdir(struct vfs *vfs, const char *path)
{
	return smb_path_call(vfs, path, SMB_RMDIR);
}

/*
 * The server refuses to delete a file this client holds open (see
 * smb_rename_open); POSIX and a Windows client's delete-pending allow it.
 * Then: close this client's handles on path, unlink, and let the handles
 * live on detached (reads find nothing, writes vanish) until closed.
 */
static int smb_unlink_open(struct smb_vfs *sv, const char *path)
{
	SMBCCTX *ctx = SMB_CTX(sv);
	int held = 0;

	for (size_t i = 0; i < sv->nfiles; i++) {
		struct smb_file *sf = &sv->files[i];

		if (sf->f == NULL || strcasecmp(sf->path, path) != 0)
			continue;
		smbc_getFunctionClose(ctx)(ctx, sf->f);
		sf->f = NULL;
		sf->gone = true;
		held++;
	}
	return held == 0 ? -EBUSY : smb_path_call(&sv->vfs, path, SMB_UNLINK);
}

static int smb_unlink(struct vfs *vfs, const char *path)
{
	int r = smb_path_call(vfs, path, SMB_UNLINK);

	if (r == -EBUSY || r == -EACCES)
		r = smb_unlink_open((struct smb_vfs *)vfs, path) == 0 ? 0 : r;
	return r;
}

static int smb_rename_call(struct smb_vfs *sv, const char *from,
			   const char *to)
{
	const char *u0 = SMB_URL(sv, 0, from), *u1 = SMB_URL(sv, 1, to);

	if (u0 == NULL || u1 == NULL)
		return -ENOMEM;
	errno = 0;
	return smbc_getFunctionRename(SMB_CTX(sv))(SMB_CTX(sv), u0,
						   SMB_CTX(sv), u1) == 0 ?
		       0 : smb_err();
}

/*
 * libsmbclient opens without FILE_SHARE_DELETE, so the server refuses to
 * rename a file this client holds open (a Windows client's opens allow
 * it).  Then: close this client's handles on from, rename, open them
 * again on to (README: differences).
 */
static int smb_rename_open(struct smb_vfs *sv, const char *from,
			   const char *to)
{
	SMBCCTX *ctx = SMB_CTX(sv);
	int r, held = 0;

	for (size_t i = 0; i < sv->nfiles; i++) {
		struct smb_file *sf = &sv->files[i];

		if (sf->f == NULL || strcasecmp(sf->path, from) != 0)
			continue;
		smbc_getFunctionClose(ctx)(ctx, sf->f);
		sf->f = NULL;
		held++;
	}
	if (held == 0)
		return -EBUSY;
	r = smb_rename_call(sv, from, to);
	for (size_t i = 0; i < sv->nfiles; i++) {
		struct smb_file *sf = &sv->files[i];
		const char *u;

		if (sf->path == NULL || sf->f != NULL ||
		    strcasecmp(sf->path, from) != 0)
			continue;
		if (r == 0 && talloc_free(sf->path) == 0)
			sf->path = talloc_strdup(sv, to);
		u = sf->path != NULL ? SMB_URL(sv, 0, sf->path) : NULL;
		sf->f = u != NULL ? smbc_getFunctionOpen(ctx)(ctx, u, sf->flags,
							      0) : NULL;
		if (sf->f == NULL && r == 0)
			r = smb_err();
	}
	return r;
}

static int smb_rename(struct vfs *vfs, const char *from, const char *to,
		      unsigned flags)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	int r = smb_rename_call(sv, from, to);

	(void)flags;
	if (r == -EBUSY || r == -EACCES)
		r = smb_rename_open(sv, from, to) == 0 ? 0 : r;
	return r;
}

static int smb_opendir(struct vfs *vfs, const char *path, size_t len,
		       struct vfs_dir *d)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	const char *u = len == 0 ? smb_url(sv, 0, ".", 1) :
				   smb_url(sv, 0, path, len);
	SMBCFILE *dir;

	if (u == NULL)
		return -ENOMEM;
	errno = 0;
	dir = smbc_getFunctionOpendir(SMB_CTX(sv))(SMB_CTX(sv), u);
	if (dir == NULL)
		return smb_err();
	*d = (struct vfs_dir){ .p = dir };
	return 0;
}

static int smb_readdir(struct vfs *vfs, struct vfs_dir *d, const char **name)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smbc_dirent *e;

	errno = 0;
	e = smbc_getFunctionReaddir(SMB_CTX(sv))(SMB_CTX(sv), d->p);
	if (e == NULL)
		return errno != 0 ? -errno : 0;
	*name = e->name;
	return 1;
}

static void smb_closedir(struct vfs *vfs, struct vfs_dir *d)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;

	if (d->p != NULL)
		smbc_getFunctionClosedir(SMB_CTX(sv))(SMB_CTX(sv), d->p);
	d->p = NULL;
}

/* Position the file at off (a local operation in libsmbclient). */
static int smb_seek(struct smb_vfs *sv, struct smb_file *sf, off_t off)
{
	errno = 0;
	return smbc_getFunctionLseek(SMB_CTX(sv))(SMB_CTX(sv), sf->f, off,
						  SEEK_SET) == off ?
		       0 : smb_err();
}

static ssize_t smb_pread(struct vfs *vfs, int fh, void *buf, size_t n,
			 off_t off)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smb_file *sf = smb_file(sv, fh);
	ssize_t r;

	if (sf != NULL && sf->gone)
		return 0;
	if (sf == NULL || sf->f == NULL)
		return sf == NULL ? -EBADF : -EISDIR;
	if ((r = smb_seek(sv, sf, off)) != 0)
		return r;
	r = smbc_getFunctionRead(SMB_CTX(sv))(SMB_CTX(sv), sf->f, buf, n);
	return r >= 0 ? r : smb_err();
}

static ssize_t smb_pwrite(struct vfs *vfs, int fh, const void *buf, size_t n,
			  off_t off)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smb_file *sf = smb_file(sv, fh);
	ssize_t r;

	if (sf != NULL && sf->gone)
		return (ssize_t)n;
	if (sf == NULL || sf->f == NULL)
		return sf == NULL ? -EBADF : -EISDIR;
	if ((r = smb_seek(sv, sf, off)) != 0)
		return r;
	r = smbc_getFunctionWrite(SMB_CTX(sv))(SMB_CTX(sv), sf->f, buf, n);
	return r >= 0 ? r : smb_err();
}

/* libsmbclient sends no flush: the server has the data once a write is
 * answered (README: differences). */
static int smb_fsync(struct vfs *vfs, int fh)
{
	return smb_file((struct smb_vfs *)vfs, fh) != NULL ? 0 : -EBADF;
}

static int smb_ftruncate(struct vfs *vfs, int fh, off_t size)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smb_file *sf = smb_file(sv, fh);

	if (sf != NULL && sf->gone)
		return 0;
	if (sf == NULL || sf->f == NULL)
		return sf == NULL ? -EBADF : -EISDIR;
	errno = 0;
	return smbc_getFunctionFtruncate(SMB_CTX(sv))(SMB_CTX(sv), sf->f,
						      size) == 0 ?
		       0 : smb_err();
}

/* libsmbclient has no byte-range lock call: granted locally. */
static int smb_lock(struct vfs *vfs, int fh, off_t off, off_t len)
{
	(void)off;
	(void)len;
	return smb_file((struct smb_vfs *)vfs, fh) != NULL ? 0 : -EBADF;
}

/*
 * libsmbclient's statvfs of a path is a stat, a listing of the directory
 * and the query on it: the query on a handle of the share's root, opened
 * once, is the query alone.  When that fails (a connection made again
 * since), the path's way.
 */
static int smb_statfs(struct vfs *vfs)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	SMBCCTX *ctx = SMB_CTX(sv);
	const char *u = smb_url(sv, 0, ".", 1);
	struct statvfs st;

	if (u == NULL)
		return -ENOMEM;
	if (sv->root == NULL || sv->root_ctx != ctx) {
		sv->root = smbc_getFunctionOpendir(ctx)(ctx, u);
		sv->root_ctx = ctx;
	}
	if (sv->root != NULL &&
	    smbc_getFunctionFstatVFS(ctx)(ctx, sv->root, &st) == 0)
		return 0;
	if (sv->root != NULL)
		smbc_getFunctionClosedir(ctx)(ctx, sv->root);
	sv->root = NULL;
	errno = 0;
	return smbc_getFunctionStatVFS(ctx)(ctx, (char *)u, &st) == 0 ?
		       0 : smb_err();
}

static int smb_set_times(struct vfs *vfs, int fh)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smb_file *sf = smb_file(sv, fh);
	const char *u;

	if (sf == NULL)
		return -EBADF;
	if (sf->gone)
		return 0;
	if ((u = SMB_URL(sv, 0, sf->path)) == NULL)
		return -ENOMEM;
	errno = 0;
	return smbc_getFunctionUtimes(SMB_CTX(sv))(SMB_CTX(sv), u, NULL) ==
			       0 ?
		       0 : smb_err();
}

static const struct vfs_ops smb_vfs_ops = {
	.open = smb_open,
	.close = smb_close,
	.stat = smb_stat,
	.fstat = smb_fstat,
	.mkdir = smb_mkdir,
	.rmdir = smb_rmdir,
	.unlink = smb_unlink,
	.rename = smb_rename,
	.opendir = smb_opendir,
	.readdir = smb_readdir,
	.closedir = smb_closedir,
	.pread = smb_pread,
	.pwrite = smb_pwrite,
	.fsync = smb_fsync,
	.ftruncate = smb_ftruncate,
	.lock = smb_lock,
	.unlock = smb_lock,
	.statfs = smb_statfs,
	.set_times = smb_set_times,
};

/* Close what is still open before the context goes. */
static int smb_vfs_destroy(struct smb_vfs *sv)
{
	for (size_t i = 0; i < sv->nfiles; i++)
		if (sv->files[i].f != NULL)
			smbc_getFunctionClose(SMB_CTX(sv))(SMB_CTX(sv),
							   sv->files[i].f);
	if (sv->root != NULL && sv->root_ctx == SMB_CTX(sv))
		smbc_getFunctionClosedir(SMB_CTX(sv))(SMB_CTX(sv), sv->root);
	return 0;
}

/*
 * A connected SMB vfs for so's share, under mem.  NULL with *err (a
 * one-line message under mem) on failure.
 */
static struct smb_vfs *smb_vfs_new(void *mem, const struct smb_opts *so,
				   char **err)
{
	struct smb_vfs *sv = talloc_zero(mem, struct smb_vfs);
	int e = ENOMEM;

	if (sv == NULL || (sv->base = smb_base_url(sv, so)) == NULL)
		goto fail;
	sv->vfs.ops = &smb_vfs_ops;
	sv->vfs.caps = VFS_CASE_INSENSITIVE | VFS_SERVER_LOOKUP;
	sv->pctx = smb_context_new(sv, so, &e);
	if (sv->pctx == NULL) {
		e = -e;
		goto fail;
	}
	if ((e = smb_connect(SMB_CTX(sv), sv->base)) != 0)
		goto fail;
	talloc_set_destructor(sv, smb_vfs_destroy);
	return sv;
fail:
	*err = smb_connect_message(mem, so, e);
	talloc_free(sv);
	return NULL;
}

/* ---- backend hooks ---- */

static int smb_setup(void *mem_ctx, const struct backend_client_config *cfg,
		     void **state, char **err)
{
	const struct smb_opts *so = cfg->opts->backend_opts;
	struct smb_vfs *sv = smb_vfs_new(mem_ctx, so, err);
	struct nbvfs *nb;

	if (sv == NULL)
		return -1;
	nb = nbvfs_new(mem_ctx, &sv->vfs, cfg->opts, cfg->nhandles);
	if (nb == NULL) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return -1;
	}
	*state = nb;
	return 0;
}

/* The target is the share: connect, logon and tree connect once. */
static int smb_target_check(void *mem_ctx, const struct dbench_options *o,
			    const char *target, char **err)
{
	struct smb_vfs *sv = smb_vfs_new(mem_ctx, o->backend_opts, err);

	(void)target;
	if (sv == NULL)
		return -1;
	talloc_free(sv);
	return 0;
}

/* One socket per client, and a spare while libsmbclient reconnects. */
static uint64_t smb_client_fds(const struct dbench_options *o,
			       uint32_t max_open_handles, uint32_t max_dirs)
{
	(void)o;
	(void)max_open_handles;
	(void)max_dirs;
	return 2;
}

static int smb_shared_note(void *mem_ctx, const struct dbench_options *o,
			   const char *target, const char *const *paths,
			   size_t n, bool *existed)
{
	char *err = NULL;
	struct smb_vfs *sv = smb_vfs_new(mem_ctx, o->backend_opts, &err);
	struct stat sb;

	(void)target;
	for (size_t i = 0; i < n; i++)
		existed[i] = sv == NULL || smb_stat(&sv->vfs, paths[i], &sb) !=
						   -ENOENT;
	talloc_free(err);
	talloc_free(sv);
	return sv == NULL ? -EIO : 0;
}

static int smb_shared_remove(void *mem_ctx, const struct dbench_options *o,
			     const char *target, const char *const *paths,
			     size_t n)
{
	char *err = NULL;
	struct smb_vfs *sv = smb_vfs_new(mem_ctx, o->backend_opts, &err);
	int ret = 0;

	(void)target;
	talloc_free(err);
	if (sv == NULL)
		return -EIO;
	for (size_t i = 0; i < n; i++) {
		struct stat sb;
		int r;

		if (smb_stat(&sv->vfs, paths[i], &sb) != 0)
			continue;
		/* an rmdir of a directory that is not empty fails: only
		 * what is empty now goes, never another's data */
		r = S_ISDIR(sb.st_mode) ? smb_rmdir(&sv->vfs, paths[i]) :
					  smb_unlink(&sv->vfs, paths[i]);
		if (r != 0 && r != -ENOENT && r != -ENOTEMPTY &&
		    r != -EEXIST && r != -EACCES && ret == 0)
			ret = r;
	}
	talloc_free(sv);
	return ret;
}

/* Why path on the share may not be a client's tree, or NULL when it may
 * (absent, an empty directory, or one an earlier run kept). */
static const char *smb_tree_why(struct smb_vfs *sv, const char *path)
{
	struct vfs_dir d = { 0 };
	const char *name = NULL;
	struct stat sb;
	int r = smb_stat(&sv->vfs, path, &sb);

	if (r == -ENOENT || r == -ENOTDIR)
		return r == -ENOENT ? NULL : BACKEND_TREE_BEHIND;
	if (r != 0 || S_ISLNK(sb.st_mode))
		return BACKEND_TREE_SYMLINK;
	if (!S_ISDIR(sb.st_mode))
		return BACKEND_TREE_NOT_DIR;
	if (smb_opendir(&sv->vfs, path, strlen(path), &d) != 0)
		return BACKEND_TREE_NOT_EMPTY;
	while (smb_readdir(&sv->vfs, &d, &name) > 0 &&
	       (strcmp(name, ".") == 0 || strcmp(name, "..") == 0))
		name = NULL;
	smb_closedir(&sv->vfs, &d);
	if (name == NULL)
		return NULL;
	return vfs_kept_has_tree(&sv->vfs, path) ? NULL : BACKEND_TREE_NOT_EMPTY;
}

/* Record on the share which client trees this run kept (vfs_kept.h). */
static int smb_trees_kept(void *mem_ctx, const struct dbench_options *o,
			  const char *target, const char *const *paths,
			  size_t n, bool kept)
{
	char *err = NULL;
	struct smb_vfs *sv;
	int r;

	(void)target;
	if (n == 0)
		return 0;
	sv = smb_vfs_new(mem_ctx, o->backend_opts, &err);
	if (sv == NULL) {
		talloc_free(err);
		return -ECONNREFUSED;
	}
	r = vfs_kept_update(mem_ctx, &sv->vfs, paths, n, kept);
	talloc_free(sv);
	return r;
}

/* Every client tree must be absent or an empty directory on the share. */
static int smb_trees_check(void *mem_ctx, const struct dbench_options *o,
			   const char *target, const char *const *paths,
			   size_t n, char **err)
{
	const struct smb_opts *so = o->backend_opts;
	struct smb_vfs *sv = smb_vfs_new(mem_ctx, so, err);
	const char *why = NULL;
	size_t i;

	(void)target;
	if (sv == NULL)
		return -1;
	for (i = 0; why == NULL && i < n; i++)
		why = smb_tree_why(sv, paths[i]);
	talloc_free(sv);
	if (why == NULL)
		return 0;
	*err = backend_tree_refusal(mem_ctx,
				    talloc_asprintf(mem_ctx, "//%s/%s",
						    so->server, so->share),
				    paths[i - 1], why);
	return -1;
}

const struct backend smb_backend = {
	.abi = BACKEND_ABI,
	.name = "smb",
	.description = "an SMB2/SMB3 server through libsmbclient",
	.unavailable = NULL,
	.flags = BACKEND_OWN_TARGET,
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
